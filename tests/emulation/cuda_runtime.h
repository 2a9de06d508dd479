// The part of the CUDA device language the emulated kernels use, for the CPU emulation
// (simt.hpp), over the runtime calls of cuda_runtime_api.h: qualifiers vanish,
// __shared__ becomes static (blocks run one after another), intrinsics become
// rendezvous of the emulated warp, device memory is host memory.
#pragma once

#include "cuda_runtime_api.h"
#include "simt.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#define __shared__ static
#define __align__(n) alignas(n)
#define __launch_bounds__(...)

#define threadIdx (::emu::thread_index())
#define blockIdx (::emu::block_index)
#define gridDim (::emu::grid_dim)
#define blockDim (::emu::block_dim)

struct dim3 {
    unsigned x = 1, y = 1, z = 1;
    dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};
struct int2 {
    int x, y;
};
inline int2 make_int2(int x, int y) { return int2{x, y}; }
struct alignas(16) int4 {
    int x, y, z, w;
};

enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8 };
template <class F>
cudaError_t cudaFuncSetAttribute(F, cudaFuncAttribute, int) {
    return cudaSuccess;
}

// ---- device intrinsics ----

template <class T>
inline T __ldg(const T* p) { return *p; }
template <class T>
inline T __ldcg(const T* p) { return *p; }
template <class T>
inline void __stcg(T* p, T v) { *p = v; }

inline int __popc(unsigned v) { return __builtin_popcount(v); }
inline int __popcll(unsigned long long v) { return __builtin_popcountll(v); }
inline int __ffs(int v) { return __builtin_ffs(v); }
inline int __ffs(unsigned v) { return __builtin_ffs(int(v)); }

inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline long long max(long long a, long long b) { return a > b ? a : b; }
inline long min(long a, long b) { return a < b ? a : b; }
inline long max(long a, long b) { return a > b ? a : b; }
inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }

inline void __syncthreads() { ::emu::block_barrier(0); }
inline int __syncthreads_or(int p) { return ::emu::block_barrier(p); }
inline void __syncwarp(unsigned mask = 0xffffffffu) {
    ::emu::collective(::emu::op::syncwarp, mask, 0, 0, 32);
}

template <class T>
inline T __shfl_sync(unsigned mask, T v, int src, int width = 32) {
    return ::emu::from_bits<T>(::emu::collective(::emu::op::shfl, mask, ::emu::bits_of(v), src, width));
}
template <class T>
inline T __shfl_up_sync(unsigned mask, T v, unsigned delta, int width = 32) {
    return ::emu::from_bits<T>(
        ::emu::collective(::emu::op::shfl_up, mask, ::emu::bits_of(v), int(delta), width));
}
template <class T>
inline T __shfl_xor_sync(unsigned mask, T v, int lane_mask, int width = 32) {
    return ::emu::from_bits<T>(
        ::emu::collective(::emu::op::shfl_xor, mask, ::emu::bits_of(v), lane_mask, width));
}
inline int __any_sync(unsigned mask, int p) {
    return int(::emu::collective(::emu::op::any, mask, p != 0, 0, 32));
}
inline int __all_sync(unsigned mask, int p) {
    return int(::emu::collective(::emu::op::all, mask, p != 0, 0, 32));
}
inline unsigned __ballot_sync(unsigned mask, int p) {
    return unsigned(::emu::collective(::emu::op::ballot, mask, p != 0, 0, 32));
}
inline unsigned __match_any_sync(unsigned mask, int v) {
    return unsigned(::emu::collective(::emu::op::match_any, mask, ::emu::bits_of(v), 0, 32));
}
inline int __reduce_add_sync(unsigned mask, int v) {
    return int(::emu::collective(::emu::op::reduce_add, mask, std::uint32_t(v), 0, 32));
}
inline int __reduce_min_sync(unsigned mask, int v) {
    return int(::emu::collective(::emu::op::reduce_min, mask, std::uint32_t(v), 0, 32));
}
inline unsigned __reduce_min_sync(unsigned mask, unsigned v) {
    // the collective's minimum is over signed 32-bit values: flip the sign bit around it
    return unsigned(__reduce_min_sync(mask, int(v ^ 0x80000000u))) ^ 0x80000000u;
}
inline int __reduce_max_sync(unsigned mask, int v) {
    return int(::emu::collective(::emu::op::reduce_max, mask, std::uint32_t(v), 0, 32));
}
inline unsigned __reduce_max_sync(unsigned mask, unsigned v) {
    return unsigned(__reduce_max_sync(mask, int(v ^ 0x80000000u))) ^ 0x80000000u;
}
inline unsigned __reduce_or_sync(unsigned mask, unsigned v) {
    return unsigned(::emu::collective(::emu::op::reduce_or, mask, v, 0, 32));
}
[[noreturn]] inline void __trap() { ::emu::fail("__trap"); }
// One OS thread runs every fiber: memory is always consistent.
inline void __threadfence() {}

// Rounded arithmetic: one operation each (the tests compile with -ffp-contract=off).
inline float __fmul_rn(float a, float b) { return a * b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline double __fma_rn(double a, double b, double c) { return std::fma(a, b, c); }

// Atomics: one OS thread runs every fiber, so a plain update is atomic; the random
// scheduling point before it lets other threads overtake.
template <class T, class F>
inline T emu_atomic(T* p, F update) {
    ::emu::maybe_yield();
    const T old = *p;
    *p = update(old);
    return old;
}
inline int atomicCAS(int* p, int expected, int desired) {
    return emu_atomic(p, [&](int old) { return old == expected ? desired : old; });
}
template <class T>
inline T atomicAdd(T* p, T v) {
    return emu_atomic(p, [&](T old) { return T(old + v); });
}
inline unsigned atomicOr(unsigned* p, unsigned v) {
    return emu_atomic(p, [&](unsigned old) { return old | v; });
}
inline int atomicMax(int* p, int v) {
    return emu_atomic(p, [&](int old) { return old > v ? old : v; });
}
inline int atomicMin(int* p, int v) {
    return emu_atomic(p, [&](int old) { return old < v ? old : v; });
}
