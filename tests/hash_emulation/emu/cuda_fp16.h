// fp16 for the CPU emulation: GCC's _Float16, which rounds to nearest even as
// __float2half_rn does.
#pragma once

#include <cstring>

struct __half {
    _Float16 x;
    __half() = default;
    __half(float f) : x(static_cast<_Float16>(f)) {}
};

inline float __half2float(__half h) { return static_cast<float>(h.x); }
inline __half __float2half_rn(float f) { return __half(f); }
inline unsigned short __half_as_ushort(__half h) {
    unsigned short u;
    std::memcpy(&u, &h, sizeof u);
    return u;
}
inline __half __ushort_as_half(unsigned short u) {
    __half h;
    std::memcpy(&h, &u, sizeof u);
    return h;
}
