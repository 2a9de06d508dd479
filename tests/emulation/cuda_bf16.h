// __nv_bfloat16 for the CPU emulation: the upper 16 bits of an fp32, rounded to nearest
// even (NaN stays NaN).
#pragma once

#include <cstdint>
#include <cstring>

struct __nv_bfloat16;
inline __nv_bfloat16 __float2bfloat16_rn(float f);

struct __nv_bfloat16 {
    unsigned short x;
    __nv_bfloat16() = default;
    __nv_bfloat16(float f);  // as CUDA's: the conversion rounds to nearest even
};

inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.x; }
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short u) {
    __nv_bfloat16 h;
    h.x = u;
    return h;
}

inline float __bfloat162float(__nv_bfloat16 h) {
    const std::uint32_t bits = std::uint32_t(h.x) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

inline __nv_bfloat16 __float2bfloat16_rn(float f) {
    std::uint32_t x;
    std::memcpy(&x, &f, 4);
    __nv_bfloat16 h;
    if ((x & 0x7fffffffu) > 0x7f800000u)
        h.x = std::uint16_t((x >> 16) | 0x40u);
    else
        h.x = std::uint16_t((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
    return h;
}

inline __nv_bfloat16::__nv_bfloat16(float f) : x(__float2bfloat16_rn(f).x) {}
