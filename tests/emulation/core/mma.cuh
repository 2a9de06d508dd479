// The emulation's cpp/core/mma.cuh, one for every emulated family (tile SpGEMM, block
// SpMM). The real header is included below, unchanged, for what is plain arithmetic
// (lane coordinates, the fragment layout functions the kernels index with, pack); its
// instructions are renamed away (they are inline assembly) and stand here computed on
// the CPU. Each instruction is written from the PTX ISA's side ("Matrix Fragments for
// mma.m16n8k16 / m16n8k8 / m8n8k4", "ldmatrix"), not from the layout functions, so a
// kernel that places an element where the real header says but where the instruction
// does not read it gets wrong numbers here as on the GPU.
//   mma.sync  one warp-wide exchange (emu::warp_combine): all 32 lanes' fragments are
//             gathered into A, B and C, D = A * B + C is formed and each lane gets its
//             part of D. The inputs are what the instruction reads: fp16 and bf16 as
//             stored, tf32 with the 13 low mantissa bits of the register ignored (the
//             kernels round with to_tf32, cvt.rna, first); the products are exact and are
//             summed in double and rounded to fp32 once (f16, bf16, tf32), or added to C
//             in k order by fma (f64). The tensor cores' own rounding of the inner sums
//             is not modelled: results may differ from the GPU's in the last bits of fp32,
//             which the tests' tolerances allow; the GPU tests see the real one.
//   cvt.rna.tf32.f32  round to nearest, ties away from zero, to 10 mantissa bits.
//   ldmatrix  the 32 row addresses gathered; each lane gets its elements.
//   cp.async  queued per thread and carried out only by cp.async.wait_group, oldest
//             group first, so that a kernel reading shared memory before its wait reads
//             the emulator's garbage (0xA5 bytes); misaligned copies are reported.
#pragma once

#include <cuda_runtime.h>

#include "simt.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <vector>

inline unsigned __cvta_generic_to_shared(const void*) { return 0; }

// The real header, with its instructions renamed away.
#define TCS_MMA_UNAVAILABLE 1
#define mma_f64 unavailable_mma_f64
#define mma_f16 unavailable_mma_f16
#define mma_bf16 unavailable_mma_bf16
#define mma_tf32 unavailable_mma_tf32
#define to_tf32 unavailable_to_tf32
#define ldmatrix_x4 unavailable_ldmatrix_x4
#define ldmatrix_x2 unavailable_ldmatrix_x2
#define ldmatrix_x4_trans unavailable_ldmatrix_x4_trans
#define ldmatrix_x2_trans unavailable_ldmatrix_x2_trans
#define cp_async unavailable_cp_async
#define cp_async_commit unavailable_cp_async_commit
#define cp_async_wait unavailable_cp_async_wait
#include "../../../cpp/core/mma.cuh"
#undef mma_f64
#undef mma_f16
#undef mma_bf16
#undef mma_tf32
#undef to_tf32
#undef ldmatrix_x4
#undef ldmatrix_x2
#undef ldmatrix_x4_trans
#undef ldmatrix_x2_trans
#undef cp_async
#undef cp_async_commit
#undef cp_async_wait
#undef TCS_MMA_UNAVAILABLE

namespace tcs::mma {

namespace emulated {

inline float half_of(std::uint32_t reg, int e) { return __half2float(__ushort_as_half(std::uint16_t(reg >> (16 * e)))); }
inline float bf16_of(std::uint32_t reg, int e) {
    return __bfloat162float(__ushort_as_bfloat16(std::uint16_t(reg >> (16 * e))));
}
inline float tf32_of(std::uint32_t reg) {
    const std::uint32_t bits = reg & 0xffffe000u;  // the 13 low mantissa bits are ignored
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

struct mma16_in {
    std::uint32_t a[4], b[2];
    float c[4];
};

// m16n8k16 (f16 or bf16 inputs) or m16n8k8 (tf32 inputs), f32 accumulators.
enum class input { f16, bf16, tf32 };
template <input In>
void combine_m16n8(const unsigned char (*ins)[emu::kCombineBytes], unsigned char (*outs)[emu::kCombineBytes]) {
    constexpr int K = In == input::tf32 ? 8 : 16;
    double A[16][16] = {}, B[16][8] = {}, C[16][8] = {};
    for (int lane = 0; lane < 32; ++lane) {
        mma16_in in;
        std::memcpy(&in, ins[lane], sizeof in);
        const int g = lane >> 2, t = lane & 3;
        if (In == input::tf32) {
            // A 16x8: a0 (g, t), a1 (g+8, t), a2 (g, t+4), a3 (g+8, t+4); B 8x8: b0 (t, g), b1 (t+4, g)
            A[g][t] = tf32_of(in.a[0]);
            A[g + 8][t] = tf32_of(in.a[1]);
            A[g][t + 4] = tf32_of(in.a[2]);
            A[g + 8][t + 4] = tf32_of(in.a[3]);
            B[t][g] = tf32_of(in.b[0]);
            B[t + 4][g] = tf32_of(in.b[1]);
        } else {
            // A 16x16, elements a0..a7 two per register: a0,a1 row g; a2,a3 row g+8;
            // a4,a5 row g, columns +8; a6,a7 row g+8, columns +8; column 2t + (i & 1).
            // B 16x8, b0..b3: row 2t + (i & 1), +8 for b2, b3; column g.
            for (int i = 0; i < 8; ++i) {
                const int row = g + ((i >> 1) & 1) * 8, col = 2 * t + (i & 1) + (i >= 4 ? 8 : 0);
                A[row][col] = In == input::bf16 ? bf16_of(in.a[i >> 1], i & 1) : half_of(in.a[i >> 1], i & 1);
            }
            for (int i = 0; i < 4; ++i) {
                const int row = 2 * t + (i & 1) + (i >= 2 ? 8 : 0);
                B[row][g] = In == input::bf16 ? bf16_of(in.b[i >> 1], i & 1) : half_of(in.b[i >> 1], i & 1);
            }
        }
        // C 16x8: c0, c1 row g, c2, c3 row g+8; column 2t + (i & 1)
        for (int i = 0; i < 4; ++i) C[g + (i >> 1) * 8][2 * t + (i & 1)] = in.c[i];
    }
    for (int lane = 0; lane < 32; ++lane) {
        const int g = lane >> 2, t = lane & 3;
        float d[4];
        for (int i = 0; i < 4; ++i) {
            const int row = g + (i >> 1) * 8, col = 2 * t + (i & 1);
            double sum = C[row][col];
            for (int k = 0; k < K; ++k) sum += A[row][k] * B[k][col];
            d[i] = float(sum);
        }
        std::memcpy(outs[lane], d, sizeof d);
    }
}

template <input In>
inline void mma_m16n8(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
    mma16_in in;
    std::memcpy(in.a, a, sizeof in.a);
    std::memcpy(in.b, b, sizeof in.b);
    std::memcpy(in.c, d, sizeof in.c);
    emu::warp_combine(&in, sizeof in, d, sizeof d, combine_m16n8<In>);
}

// m8n8k4 f64: A 8x4 a0 (g, t); B 4x8 b0 (t, g); C 8x8 c0, c1 (g, 2t + i).
struct mma64_in {
    double a, b, c[2];
};

inline void combine_m8n8k4(const unsigned char (*ins)[emu::kCombineBytes], unsigned char (*outs)[emu::kCombineBytes]) {
    double A[8][4], B[4][8], C[8][8];
    for (int lane = 0; lane < 32; ++lane) {
        mma64_in in;
        std::memcpy(&in, ins[lane], sizeof in);
        const int g = lane >> 2, t = lane & 3;
        A[g][t] = in.a;
        B[t][g] = in.b;
        C[g][2 * t] = in.c[0];
        C[g][2 * t + 1] = in.c[1];
    }
    for (int lane = 0; lane < 32; ++lane) {
        const int g = lane >> 2, t = lane & 3;
        double d[2];
        for (int i = 0; i < 2; ++i) {
            double sum = C[g][2 * t + i];
            for (int k = 0; k < 4; ++k) sum = std::fma(A[g][k], B[k][2 * t + i], sum);
            d[i] = sum;
        }
        std::memcpy(outs[lane], d, sizeof d);
    }
}

// ldmatrix: Matrices matrices of 8x8 16-bit elements; lanes 8j..8j+7 address matrix j's rows.
struct ldmatrix_in {
    const unsigned char* row;
};
template <int Matrices, bool Trans>
void combine_ldmatrix(const unsigned char (*ins)[emu::kCombineBytes], unsigned char (*outs)[emu::kCombineBytes]) {
    const unsigned char* rows[32];
    for (int lane = 0; lane < 32; ++lane) {
        ldmatrix_in in;
        std::memcpy(&in, ins[lane], sizeof in);
        rows[lane] = in.row;
    }
    for (int lane = 0; lane < 32; ++lane) {
        std::uint32_t r[4] = {};
        const int g = lane >> 2, t = lane & 3;
        for (int j = 0; j < Matrices; ++j) {
            std::uint16_t e[2];
            for (int h = 0; h < 2; ++h) {
                // Without .trans a lane holds row g, columns 2t and 2t + 1; with .trans,
                // rows 2t and 2t + 1 of column g.
                const unsigned char* at = Trans ? rows[8 * j + 2 * t + h] + 2 * g : rows[8 * j + g] + 2 * (2 * t + h);
                std::memcpy(&e[h], at, 2);
            }
            r[j] = std::uint32_t(e[0]) | (std::uint32_t(e[1]) << 16);
        }
        std::memcpy(outs[lane], r, sizeof r);
    }
}

template <int Matrices, bool Trans>
inline void ldmatrix(std::uint32_t* r, const void* row) {
    if (reinterpret_cast<std::uintptr_t>(row) % 16 != 0) emu::fail("ldmatrix: a row address is not 16-byte aligned");
    ldmatrix_in in{static_cast<const unsigned char*>(row)};
    std::uint32_t out[4];
    emu::warp_combine(&in, sizeof in, out, sizeof out, combine_ldmatrix<Matrices, Trans>);
    for (int j = 0; j < Matrices; ++j) r[j] = out[j];
}

struct pending_copy {
    void* dst;
    const void* src;
    int bytes, valid;
};
struct thread_copies {
    std::vector<std::vector<pending_copy>> groups;
    std::vector<pending_copy> open;
};
inline std::map<const void*, thread_copies>& copies() {
    static std::map<const void*, thread_copies> m;
    return m;
}

}  // namespace emulated

inline void mma_f16(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
    emulated::mma_m16n8<emulated::input::f16>(d, a, b);
}
inline void mma_bf16(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
    emulated::mma_m16n8<emulated::input::bf16>(d, a, b);
}
inline void mma_tf32(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
    emulated::mma_m16n8<emulated::input::tf32>(d, a, b);
}
inline void mma_f64(double (&d)[2], double a, double b) {
    emulated::mma64_in in{a, b, {d[0], d[1]}};
    emu::warp_combine(&in, sizeof in, d, sizeof d, emulated::combine_m8n8k4);
}

inline std::uint32_t to_tf32(float x) {
    std::uint32_t bits;
    std::memcpy(&bits, &x, 4);
    if ((bits & 0x7f800000u) == 0x7f800000u) return bits;  // inf, NaN
    bits += 0x1000u;
    return bits & 0xffffe000u;
}

inline void ldmatrix_x4(std::uint32_t (&r)[4], const void* row) { emulated::ldmatrix<4, false>(r, row); }
inline void ldmatrix_x2(std::uint32_t (&r)[2], const void* row) { emulated::ldmatrix<2, false>(r, row); }
inline void ldmatrix_x4_trans(std::uint32_t (&r)[4], const void* row) { emulated::ldmatrix<4, true>(r, row); }
inline void ldmatrix_x2_trans(std::uint32_t (&r)[2], const void* row) { emulated::ldmatrix<2, true>(r, row); }

template <int Bytes>
inline void cp_async(void* smem, const void* global, int valid = Bytes) {
    static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async copies 4, 8 or 16 bytes");
    if (reinterpret_cast<std::uintptr_t>(smem) % Bytes != 0) emu::fail("cp.async: misaligned shared address");
    if (valid > 0 && reinterpret_cast<std::uintptr_t>(global) % Bytes != 0)
        emu::fail("cp.async: misaligned global address");
    if (valid < 0 || valid > Bytes) emu::fail("cp.async: source size outside 0..Bytes");
    emulated::copies()[emu::current()].open.push_back({smem, global, Bytes, valid});
}
inline void cp_async_commit() {
    emulated::thread_copies& t = emulated::copies()[emu::current()];
    t.groups.push_back(std::move(t.open));
    t.open.clear();
}
template <int Pending>
inline void cp_async_wait() {
    emulated::thread_copies& t = emulated::copies()[emu::current()];
    while (int(t.groups.size()) > Pending) {
        for (const emulated::pending_copy& c : t.groups.front()) {
            if (c.valid > 0) std::memcpy(c.dst, c.src, std::size_t(c.valid));
            std::memset(static_cast<unsigned char*>(c.dst) + c.valid, 0, std::size_t(c.bytes - c.valid));
        }
        t.groups.erase(t.groups.begin());
    }
}
// Before each launch (core/kernel_launch.hpp): copies a finished kernel never waited for
// are dropped.
inline void drop_pending_copies() { emulated::copies().clear(); }

}  // namespace tcs::mma
