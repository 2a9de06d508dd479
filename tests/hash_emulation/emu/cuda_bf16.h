// bf16 for the CPU emulation: the upper 16 bits of an fp32, rounded to nearest even.
#pragma once

#include <cstdint>
#include <cstring>

struct __nv_bfloat16 {
    std::uint16_t bits;
    __nv_bfloat16() = default;
    __nv_bfloat16(float f) {
        std::uint32_t u;
        std::memcpy(&u, &f, sizeof u);
        if ((u & 0x7fffffffu) > 0x7f800000u)
            bits = std::uint16_t((u >> 16) | 0x40u);  // NaN stays NaN
        else
            bits = std::uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
    }
};

inline float __bfloat162float(__nv_bfloat16 b) {
    const std::uint32_t u = std::uint32_t(b.bits) << 16;
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}
inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 b) { return b.bits; }
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short u) {
    __nv_bfloat16 b;
    b.bits = u;
    return b;
}
