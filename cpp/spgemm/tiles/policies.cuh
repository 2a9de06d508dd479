// How a warp multiplies the pairs of one tile of C (launch.hpp: policy). Each policy
// gathers its fragments straight from the packed values: the value of element (r, c) of
// a tile is at offset + (stored elements before bit 8r + c), or 0 when not stored. Every
// policy leaves C(c_row_of(lane), c_col_of(lane, i)) in value(i), i = 0, 1.
//
//   dmma_policy   m8n8k4 f64: a pair is two MMAs (k = 0..3, 4..7); a lane gathers
//                 A(g, q), A(g, q + 4), B(q, g), B(q + 4, g). Exact products, fp64 sums.
//   tf32_policy   m16n8k8 tf32: one MMA per pair, A in rows 0..7 of the 16-row fragment.
//   hmma_policy   m16n8k16 f16/bf16: two pairs per MMA, A = [A1 A2] (8 x 16, rows 0..7),
//                 B = [B1; B2] (16 x 8), so the MMA adds A1*B1 + A2*B2.
//   fma_policy    CUDA cores: each lane walks its row of A and multiplies two columns of B.
#pragma once

#include "core/mma.cuh"
#include "formats/bitmap_tiles.hpp"
#include "spgemm/tiles/panel_merge.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

namespace tcs::spgemm::tiles {

using formats::rank_below;
using formats::tile_bit;

// ---- value conversions --------------------------------------------------------------
// Data to an accumulator type (exact: fp32 in fp64, 16-bit in fp32).
template <class Acc> __device__ __forceinline__ Acc to_acc(double v) { return Acc(v); }
template <class Acc> __device__ __forceinline__ Acc to_acc(float v) { return Acc(v); }
template <class Acc> __device__ __forceinline__ Acc to_acc(__half v) { return Acc(__half2float(v)); }
template <class Acc> __device__ __forceinline__ Acc to_acc(__nv_bfloat16 v) {
    return Acc(__bfloat162float(v));
}
// An accumulator back to the data type: the one rounding of a result.
__device__ __forceinline__ void store(double& out, double v) { out = v; }
__device__ __forceinline__ void store(float& out, double v) { out = float(v); }
__device__ __forceinline__ void store(float& out, float v) { out = v; }
__device__ __forceinline__ void store(__half& out, float v) { out = __float2half_rn(v); }
__device__ __forceinline__ void store(__nv_bfloat16& out, float v) { out = __float2bfloat16_rn(v); }

template <class T>
__device__ __forceinline__ T zero_of() {
    return T(0.0f);
}

// The value of element `bit` of tile t, or zero.
template <class T>
__device__ __forceinline__ T fetch(const T* values, const bitmap_tile& t, int bit) {
    return (t.bits >> bit) & 1u ? __ldg(values + t.offset + rank_below(t.bits, bit)) : zero_of<T>();
}

// A B tile as a pair's owner lane hands it to the warp: its bits, the position of its
// first value and of its first value in rows 4..7.
struct shared_b_tile {
    std::uint64_t bits;
    int offset, offset_hi;
};

// ---- fp64 tensor cores --------------------------------------------------------------
template <class T>  // double, or float widened to double
struct dmma_policy {
    using accumulator = double;
    const T* av;  // A's and B's packed values
    const T* bv;
    double acc[2];
    // This lane's bit of B(q, g) in the low word of a B tile (of B(q + 4, g) in the high),
    // and the bits below it.
    unsigned b_bit, b_below;

    __device__ dmma_policy(const T* a, const T* b)
        : av(a), bv(b), b_bit(1u << tile_bit(mma::f64_8x8x4::b_row(lane()), mma::f64_8x8x4::b_col(lane()))),
          b_below(b_bit - 1) {}
    __device__ void clear() { acc[0] = acc[1] = 0.0; }
    // This lane's fragments of a pair: A(g, q), A(g, q + 4), B(q, g), B(q + 4, g).
    struct fragments {
        double a0, a1, b0, b1;
    };
    __device__ fragments gather(const bitmap_tile& a, const bitmap_tile& b) const {
        namespace L = mma::f64_8x8x4;
        const int l = lane();
        const int ar = L::a_row(l), ac = L::a_col(l), br = L::b_row(l), bc = L::b_col(l);
        return {to_acc<double>(fetch(av, a, tile_bit(ar, ac))), to_acc<double>(fetch(av, a, tile_bit(ar, ac + 4))),
                to_acc<double>(fetch(bv, b, tile_bit(br, bc))), to_acc<double>(fetch(bv, b, tile_bit(br + 4, bc)))};
    }
    __device__ void mma_pair(const fragments& f) {
        mma::mma_f64(acc, f.a0, f.b0);  // k = 0..3
        mma::mma_f64(acc, f.a1, f.b1);  // k = 4..7
    }
    __device__ void pair(const bitmap_tile& a, const bitmap_tile& b) { mma_pair(gather(a, b)); }
    // pair(a, b) then pair(c, d), the gathers of both issued before the MMAs (the same
    // MMAs in the same order).
    __device__ void pair2(const bitmap_tile& a, const bitmap_tile& b, const bitmap_tile& c,
                          const bitmap_tile& d) {
        const fragments first = gather(a, b), second = gather(c, d);
        mma_pair(first);
        mma_pair(second);
    }
    __device__ void flush() {}
    __device__ double value(int i) const { return acc[i]; }

    // ---- panels of at most 32 A tiles (multiply.cuh, panel_table) ----
    // The same fragments and MMAs, found with less work per pair: A's from a table of
    // positions the warp builds once per panel (A's tiles stay for the whole panel), B's
    // from the tile's bits and two offsets its owner lane computes once per step.
    static constexpr bool kPanelTable = true;
    // This lane's table entry for A tile a, 16 bits: whether A(g, q) and A(g, q + 4) are
    // stored (bits 0 and 1), how many stored elements after A(g, q)'s place A(g, q + 4)
    // lies (bits 2..4: 0..4, the row's elements q..q + 3), and A(g, q)'s place from the
    // panel's first value `base` (bits 5..15: a panel of 32 tiles holds at most 2048
    // values; the place it would take when it is not stored).
    static __device__ std::uint16_t table_entry(const bitmap_tile& a, int base) {
        namespace L = mma::f64_8x8x4;
        const int l = lane();
        const int b0 = tile_bit(L::a_row(l), L::a_col(l)), b1 = b0 + 4;
        const unsigned first = unsigned(a.offset - base + rank_below(a.bits, b0));
        const unsigned later = unsigned(rank_below(a.bits, b1) - rank_below(a.bits, b0));
        // Only a panel of more values than its tiles' bits (not a valid matrix) reaches
        // 2048: its elements read as zeros rather than from outside its values.
        if (first >= 2048u) return 0;
        return std::uint16_t(unsigned((a.bits >> b0) & 1u) | (unsigned((a.bits >> b1) & 1u) << 1) | (later << 2) |
                             (first << 5));
    }
    // B(q, g) is bit 8q + g of the low word, B(q + 4, g) the same bit of the high word:
    // one mask per lane, and the high word's values start at offset_hi.
    __device__ fragments gather(unsigned a_entry, const T* a_panel, const T* b_values,
                                const shared_b_tile& b) const {
        const unsigned bit = b_bit;
        const unsigned lo = unsigned(b.bits), hi = unsigned(b.bits >> 32);
        const unsigned p0 = a_entry >> 5, p1 = p0 + ((a_entry >> 2) & 7u);
        // Whole indices first, so that each address is one multiply-add.
        const int q0 = b.offset + __popc(lo & b_below), q1 = b.offset_hi + __popc(hi & b_below);
        return {a_entry & 1u ? to_acc<double>(__ldg(a_panel + p0)) : 0.0,
                a_entry & 2u ? to_acc<double>(__ldg(a_panel + p1)) : 0.0,
                lo & bit ? to_acc<double>(__ldg(b_values + q0)) : 0.0,
                hi & bit ? to_acc<double>(__ldg(b_values + q1)) : 0.0};
    }
    __device__ void pair(unsigned a_entry, const T* a_panel, const T* b_values, const shared_b_tile& b) {
        mma_pair(gather(a_entry, a_panel, b_values, b));
    }
    __device__ void pair2(unsigned a1, const T* a_panel, const T* b_values, const shared_b_tile& b1, unsigned a2,
                          const shared_b_tile& b2) {
        const fragments first = gather(a1, a_panel, b_values, b1), second = gather(a2, a_panel, b_values, b2);
        mma_pair(first);
        mma_pair(second);
    }
};

// ---- tf32 tensor cores (fp32 data, TCS_TF32_TENSOR_OP_MATH) ------------------------
struct tf32_policy {
    using accumulator = float;
    static constexpr bool kPanelTable = false;
    const float* av;
    const float* bv;
    float acc[4];

    __device__ tf32_policy(const float* a, const float* b) : av(a), bv(b) {}
    __device__ void clear() { acc[0] = acc[1] = acc[2] = acc[3] = 0.0f; }
    __device__ void pair(const bitmap_tile& a, const bitmap_tile& b) {
        namespace L = mma::tf32_16x8x8;
        const int l = lane();
        // Rows 8..15 of A (registers 1 and 3) stay zero.
        const std::uint32_t fa[4] = {
            mma::to_tf32(fetch(av, a, tile_bit(L::a_row(l, 0), L::a_col(l, 0)))), 0u,
            mma::to_tf32(fetch(av, a, tile_bit(L::a_row(l, 2), L::a_col(l, 2)))), 0u};
        const std::uint32_t fb[2] = {
            mma::to_tf32(fetch(bv, b, tile_bit(L::b_row(l, 0), L::b_col(l)))),
            mma::to_tf32(fetch(bv, b, tile_bit(L::b_row(l, 1), L::b_col(l))))};
        mma::mma_tf32(acc, fa, fb);
    }
    __device__ void pair2(const bitmap_tile& a, const bitmap_tile& b, const bitmap_tile& c,
                          const bitmap_tile& d) {
        pair(a, b);
        pair(c, d);
    }
    __device__ void flush() {}
    __device__ float value(int i) const { return acc[i]; }
};

// ---- fp16 / bf16 tensor cores ------------------------------------------------------
__device__ __forceinline__ __half as_input(float v, __half) { return __float2half_rn(v); }
__device__ __forceinline__ __half as_input(__half v, __half) { return v; }
__device__ __forceinline__ __nv_bfloat16 as_input(__nv_bfloat16 v, __nv_bfloat16) { return v; }

// T: the data (float data is rounded to fp16: TCS_FP16_TENSOR_OP_MATH); In: the MMA's
// input type.
template <class T, class In>
struct hmma_policy {
    using accumulator = float;
    static constexpr bool kPanelTable = false;
    const T* av;
    const T* bv;
    float acc[4];
    bitmap_tile pending_a, pending_b;  // the first pair of the next MMA
    bool pending = false;

    __device__ hmma_policy(const T* a, const T* b) : av(a), bv(b) {}
    __device__ void clear() {
        acc[0] = acc[1] = acc[2] = acc[3] = 0.0f;
        pending = false;
    }
    __device__ In element(const T* values, const bitmap_tile& t, int bit) const {
        return as_input(fetch(values, t, bit), In());
    }
    // acc += a1*b1 + a2*b2.
    __device__ void two(const bitmap_tile& a1, const bitmap_tile& a2, const bitmap_tile& b1,
                        const bitmap_tile& b2) {
        namespace L = mma::x16x8x16;
        const int l = lane();
        std::uint32_t fa[4] = {0u, 0u, 0u, 0u};  // registers 1 and 3: rows 8..15, zero
#pragma unroll
        for (int r = 0; r < 4; r += 2) {
            // Columns 0..7 of the fragment are A1's, 8..15 A2's.
            const bitmap_tile& a = r == 0 ? a1 : a2;
            fa[r] = mma::pack(element(av, a, tile_bit(L::a_row(l, r), L::a_col(l, r, 0) % kTileDim)),
                              element(av, a, tile_bit(L::a_row(l, r), L::a_col(l, r, 1) % kTileDim)));
        }
        std::uint32_t fb[2];
#pragma unroll
        for (int r = 0; r < 2; ++r) {
            // Rows (k) 0..7 of the fragment are B1's, 8..15 B2's.
            const bitmap_tile& b = r == 0 ? b1 : b2;
            fb[r] = mma::pack(element(bv, b, tile_bit(L::b_row(l, r, 0) % kTileDim, L::b_col(l))),
                              element(bv, b, tile_bit(L::b_row(l, r, 1) % kTileDim, L::b_col(l))));
        }
        mma_as(acc, fa, fb, In());
    }
    static __device__ void mma_as(float (&d)[4], const std::uint32_t (&a)[4],
                                  const std::uint32_t (&b)[2], __half) {
        mma::mma_f16(d, a, b);
    }
    static __device__ void mma_as(float (&d)[4], const std::uint32_t (&a)[4],
                                  const std::uint32_t (&b)[2], __nv_bfloat16) {
        mma::mma_bf16(d, a, b);
    }
    __device__ void pair(const bitmap_tile& a, const bitmap_tile& b) {
        if (!pending) {
            pending_a = a;
            pending_b = b;
            pending = true;
            return;
        }
        two(pending_a, a, pending_b, b);
        pending = false;
    }
    __device__ void flush() {
        if (pending) two(pending_a, no_tile(), pending_b, no_tile());
        pending = false;
    }
    __device__ void pair2(const bitmap_tile& a, const bitmap_tile& b, const bitmap_tile& c,
                          const bitmap_tile& d) {
        pair(a, b);
        pair(c, d);
    }
    __device__ float value(int i) const { return acc[i]; }
};

// ---- CUDA cores ---------------------------------------------------------------------
template <class T, class Acc>  // Acc: double for fp32/fp64 data, float for 16-bit data
struct fma_policy {
    using accumulator = Acc;
    static constexpr bool kPanelTable = false;
    const T* av;
    const T* bv;
    Acc acc[2];

    __device__ fma_policy(const T* a, const T* b) : av(a), bv(b) {}
    __device__ void clear() { acc[0] = acc[1] = Acc(0); }

    __device__ void pair(const bitmap_tile& a, const bitmap_tile& b) {
        const int l = lane();
        const int row = c_row_of(l), c0 = c_col_of(l, 0);
        unsigned a_row = formats::row_byte(a.bits, row);
        // Row `row` of A's tile: its values are consecutive in bit order.
        int ai = a.offset + rank_below(a.bits, tile_bit(row, 0));
        while (a_row != 0) {
            const int k = __ffs(int(a_row)) - 1;
            a_row &= a_row - 1;
            const Acc x = to_acc<Acc>(__ldg(av + ai++));
            const unsigned b_row = formats::row_byte(b.bits, k);
            const int bi = b.offset + rank_below(b.bits, tile_bit(k, 0));
            if ((b_row >> c0) & 1u) acc[0] += x * to_acc<Acc>(__ldg(bv + bi + __popc(b_row & ((1u << c0) - 1))));
            if ((b_row >> (c0 + 1)) & 1u)
                acc[1] += x * to_acc<Acc>(__ldg(bv + bi + __popc(b_row & ((2u << c0) - 1))));
        }
    }
    __device__ void pair2(const bitmap_tile& a, const bitmap_tile& b, const bitmap_tile& c,
                          const bitmap_tile& d) {
        pair(a, b);
        pair(c, d);
    }
    __device__ void flush() {}
    __device__ Acc value(int i) const { return acc[i]; }
};

}  // namespace tcs::spgemm::tiles
