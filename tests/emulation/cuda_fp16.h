// __half for the CPU emulation: IEEE binary16 bits and the conversions the kernels use
// (round to nearest even, subnormals, infinities and NaN kept), written out in integer
// arithmetic so that no compiler's own _Float16 is needed.
#pragma once

#include <cstdint>
#include <cstring>

struct __half;
inline __half __float2half_rn(float f);

struct __half {
    unsigned short x;
    __half() = default;
    __half(float f);  // as CUDA's: the conversion rounds to nearest even
};

inline unsigned short __half_as_ushort(__half h) { return h.x; }
inline __half __ushort_as_half(unsigned short u) {
    __half h;
    h.x = u;
    return h;
}

inline float __half2float(__half h) {
    const std::uint32_t sign = std::uint32_t(h.x & 0x8000u) << 16;
    const std::uint32_t e = (h.x >> 10) & 0x1fu, mant = h.x & 0x3ffu;
    float f;
    if (e == 0) {
        f = float(mant) * (1.0f / 16777216.0f);  // mant * 2^-24
        return sign ? -f : f;
    }
    const std::uint32_t bits = e == 31 ? (sign | 0x7f800000u | (mant << 13))
                                       : (sign | ((e - 15u + 127u) << 23) | (mant << 13));
    std::memcpy(&f, &bits, 4);
    return f;
}

inline __half __float2half_rn(float f) {
    std::uint32_t x;
    std::memcpy(&x, &f, 4);
    const std::uint32_t sign = (x >> 16) & 0x8000u, a = x & 0x7fffffffu;
    __half h;
    if (a >= 0x7f800000u) {
        h.x = std::uint16_t(sign | 0x7c00u | (a > 0x7f800000u ? 0x200u : 0u));
    } else if (a >= 0x477ff000u) {
        h.x = std::uint16_t(sign | 0x7c00u);
    } else if (a < 0x38800000u) {  // subnormal: units of 2^-24, nearest even
        float af;
        std::memcpy(&af, &a, 4);
        const float units = af * 16777216.0f;
        std::uint32_t u = std::uint32_t(units);
        const float rest = units - float(u);
        if (rest > 0.5f || (rest == 0.5f && (u & 1u))) ++u;
        h.x = std::uint16_t(sign | u);
    } else {
        std::uint32_t v = (((a >> 23) - 112u) << 10) | ((a & 0x7fffffu) >> 13);
        const std::uint32_t rest = a & 0x1fffu;
        if (rest > 0x1000u || (rest == 0x1000u && (v & 1u))) ++v;
        h.x = std::uint16_t(sign | v);
    }
    return h;
}

inline __half::__half(float f) : x(__float2half_rn(f).x) {}
