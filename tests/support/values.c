/* Values of the four types tcsparse computes on, written and read on the host: fp16 and
 * bf16 written out because <cuda_fp16.h> and <cuda_bf16.h> are C++. */
#include "tcs_test_support.h"

#include <library_types.h>

#include <math.h>
#include <string.h>

/* fp16 with round-to-nearest-even. */
static uint16_t half_bits(float f) {
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

static float half_value(uint16_t h) {
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

static uint16_t bf16_bits(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

static float bf16_value(uint16_t b) {
    const uint32_t x = (uint32_t)b << 16;
    float f;
    memcpy(&f, &x, 4);
    return f;
}

size_t tcst_value_size(int type) {
    return type == CUDA_R_64F ? 8 : type == CUDA_R_32F ? 4 : 2;
}

void tcst_value_put(void* base, size_t i, int type, double x) {
    switch (type) {
    case CUDA_R_64F: ((double*)base)[i] = x; break;
    case CUDA_R_32F: ((float*)base)[i] = (float)x; break;
    case CUDA_R_16F: ((uint16_t*)base)[i] = half_bits((float)x); break;
    default: ((uint16_t*)base)[i] = bf16_bits((float)x); break;
    }
}

double tcst_value_get(const void* base, size_t i, int type) {
    switch (type) {
    case CUDA_R_64F: return ((const double*)base)[i];
    case CUDA_R_32F: return ((const float*)base)[i];
    case CUDA_R_16F: return half_value(((const uint16_t*)base)[i]);
    default: return bf16_value(((const uint16_t*)base)[i]);
    }
}

double tcst_value_rounded(double x, int type) {
    double slot;
    tcst_value_put(&slot, 0, type, x);
    return tcst_value_get(&slot, 0, type);
}
