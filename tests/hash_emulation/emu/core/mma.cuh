// The emulation's cpp/core/mma.cuh: the real header's fragment layouts (included below,
// unchanged), with the mma.sync instructions replaced by warp collectives that compute
// what the PTX ISA defines. Each instruction is written from the ISA's side: for every
// element of A, B and C, which lane holds it in which register (the inverse of the
// layout functions the kernels use), so a kernel that places an element where the real
// header says, but where the instruction does not read it, gets a wrong product here.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>

inline unsigned __cvta_generic_to_shared(const void*) { return 0; }

// The real header, with its instructions renamed away (they would be inline assembly).
#define TCS_MMA_UNAVAILABLE 1
#define mma_f64 unavailable_mma_f64
#define mma_f16 unavailable_mma_f16
#define mma_bf16 unavailable_mma_bf16
#define mma_tf32 unavailable_mma_tf32
#define to_tf32 unavailable_to_tf32
#include "../../../../cpp/core/mma.cuh"
#undef mma_f64
#undef mma_f16
#undef mma_bf16
#undef mma_tf32
#undef to_tf32
#undef TCS_MMA_UNAVAILABLE

namespace tcs::mma {

namespace emulated {

// The value register `reg` of lane `src`, fetched by every lane.
inline std::uint64_t from_lane(std::uint64_t reg, int src) { return __shfl_sync(0xffffffffu, reg, src); }

inline float as_float(std::uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
inline float half_of(std::uint32_t reg, int e, __half) {
    return __half2float(__ushort_as_half(std::uint16_t(reg >> (16 * e))));
}
inline float half_of(std::uint32_t reg, int e, __nv_bfloat16) {
    return __bfloat162float(__ushort_as_bfloat16(std::uint16_t(reg >> (16 * e))));
}

// m16n8k16 with 16-bit inputs of type In. Holders (PTX ISA):
//   A(row, k): lane 4*(row % 8) + (k % 8) / 2, register row / 8 + 2 * (k / 8), half k % 2
//   B(k, col): lane 4*col + (k % 8) / 2, register k / 8, half k % 2
//   C(row, col): lane 4*(row % 8) + col / 2, register 2 * (row / 8) + col % 2
template <class In>
void mma_16x8x16(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
    const int l = int(threadIdx.x) & 31;
    float sum[4] = {d[0], d[1], d[2], d[3]};
    for (int k = 0; k < 16; ++k) {
        float av[2], bv[2];
        for (int h = 0; h < 2; ++h) {  // rows l/4 and l/4 + 8
            const int row = l / 4 + 8 * h;
            std::uint32_t regs[4];
            for (int r = 0; r < 4; ++r) regs[r] = std::uint32_t(from_lane(a[r], 4 * (row % 8) + (k % 8) / 2));
            av[h] = half_of(regs[row / 8 + 2 * (k / 8)], k % 2, In());
        }
        for (int j = 0; j < 2; ++j) {  // columns 2*(l%4) + j
            const int col = 2 * (l % 4) + j;
            std::uint32_t regs[2];
            for (int r = 0; r < 2; ++r) regs[r] = std::uint32_t(from_lane(b[r], 4 * col + (k % 8) / 2));
            bv[j] = half_of(regs[k / 8], k % 2, In());
        }
        for (int h = 0; h < 2; ++h)
            for (int j = 0; j < 2; ++j) sum[2 * h + j] += av[h] * bv[j];
    }
    for (int i = 0; i < 4; ++i) d[i] = sum[i];
}

}  // namespace emulated

// m8n8k4 f64. Holders: A(row, k): lane 4*row + k; B(k, col): lane 4*col + k;
// C(row, col): lane 4*row + col / 2, register col % 2.
inline void mma_f64(double (&d)[2], double a, double b) {
    const int l = int(threadIdx.x) & 31;
    const int row = l / 4;
    double sum[2] = {d[0], d[1]};
    for (int k = 0; k < 4; ++k) {
        const double av = emu::from_bits<double>(emulated::from_lane(emu::bits_of(a), 4 * row + k));
        for (int j = 0; j < 2; ++j) {
            const int col = 2 * (l % 4) + j;
            const double bv = emu::from_bits<double>(emulated::from_lane(emu::bits_of(b), 4 * col + k));
            sum[j] += av * bv;
        }
    }
    d[0] = sum[0];
    d[1] = sum[1];
}

inline void mma_f16(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
    emulated::mma_16x8x16<__half>(d, a, b);
}
inline void mma_bf16(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
    emulated::mma_16x8x16<__nv_bfloat16>(d, a, b);
}

// fp32 -> tf32: round to nearest, ties away from zero, to 10 mantissa bits.
inline std::uint32_t to_tf32(float x) {
    std::uint32_t u;
    std::memcpy(&u, &x, 4);
    if ((u & 0x7f800000u) != 0x7f800000u) u = (u + 0x1000u) & ~0x1fffu;
    return u;
}

// m16n8k8 tf32. Holders: A(row, k): lane 4*(row % 8) + k % 4, register row / 8 + 2*(k / 4);
// B(k, col): lane 4*col + k % 4, register k / 4; C as m16n8k16.
inline void mma_tf32(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
    const int l = int(threadIdx.x) & 31;
    float sum[4] = {d[0], d[1], d[2], d[3]};
    for (int k = 0; k < 8; ++k) {
        float av[2], bv[2];
        for (int h = 0; h < 2; ++h) {
            const int row = l / 4 + 8 * h;
            std::uint32_t regs[4];
            for (int r = 0; r < 4; ++r) regs[r] = std::uint32_t(emulated::from_lane(a[r], 4 * (row % 8) + k % 4));
            av[h] = emulated::as_float(regs[row / 8 + 2 * (k / 4)]);
        }
        for (int j = 0; j < 2; ++j) {
            const int col = 2 * (l % 4) + j;
            std::uint32_t regs[2];
            for (int r = 0; r < 2; ++r) regs[r] = std::uint32_t(emulated::from_lane(b[r], 4 * col + k % 4));
            bv[j] = emulated::as_float(regs[k / 4]);
        }
        for (int h = 0; h < 2; ++h)
            for (int j = 0; j < 2; ++j) sum[2 * h + j] += av[h] * bv[j];
    }
    for (int i = 0; i < 4; ++i) d[i] = sum[i];
}

}  // namespace tcs::mma
