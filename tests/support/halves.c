/* 16-bit floating point on the host (fp16 and bf16, round to nearest even), written out
 * because <cuda_fp16.h> and <cuda_bf16.h> are C++. */
#include "tcs_test_support.h"

#include <math.h>
#include <string.h>

uint16_t tcst_half_bits(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    const uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    const uint32_t a = x & 0x7fffffffu;
    if (a >= 0x7f800000u) return (uint16_t)(sign | 0x7c00u | (a > 0x7f800000u ? 0x200u : 0u));
    if (a >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* rounds to infinity */
    if (a < 0x38800000u) {                                      /* below 2^-14: subnormal */
        float af;
        memcpy(&af, &a, 4);
        return (uint16_t)(sign | (uint16_t)nearbyintf(af * 16777216.0f)); /* units of 2^-24 */
    }
    uint32_t h = ((((a >> 23) - 127u + 15u) << 10) | ((a & 0x7fffffu) >> 13));
    const uint32_t rest = a & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
    return (uint16_t)(sign | h);
}

float tcst_half_value(uint16_t h) {
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
    uint32_t x;
    float f;
    if (e == 0) {
        f = ldexpf((float)mant, -24);
        return sign ? -f : f;
    }
    x = e == 31 ? (sign | 0x7f800000u | (mant << 13))
                : (sign | ((e - 15u + 127u) << 23) | (mant << 13));
    memcpy(&f, &x, 4);
    return f;
}

uint16_t tcst_bf16_bits(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

float tcst_bf16_value(uint16_t b) {
    const uint32_t x = (uint32_t)b << 16;
    float f;
    memcpy(&f, &x, 4);
    return f;
}
