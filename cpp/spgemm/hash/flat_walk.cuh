// Walking the products of a row of C = A*B with every lane busy, whatever the lengths
// of B's rows: a group of G lanes (G = 4..32, aligned within a warp) loads a batch of up
// to G entries of A's row, one per lane, and numbers the products of the batch
// 0..total-1 in the order of A's row and, within an entry, of B's row. Lane l then takes
// products l, l+G, ... and finds the entry of its product by a binary search over the
// lanes' inclusive prefix of B-row lengths (log2 G shuffles).
//
// Every function here shuffles over the full warp (each group within its own lanes), so
// all 32 lanes of the warp must call it together: callers keep their loops warp-uniform
// and let lanes without work take part with nothing to do.
#pragma once

#include "spgemm/hash/operands.hpp"

#include <cuda_runtime.h>

namespace tcs::spgemm::hash {

constexpr unsigned kFullMask = 0xffffffffu;

__device__ __forceinline__ int lane_id() { return int(threadIdx.x & 31u); }

// ---- the only reads of A's and B's structure: every index is bounded here ----
// With valid input the bounds never bind. With corrupt input (offsets out of order or
// beyond nnz, columns outside the matrix) rows shrink to their part inside the arrays
// and stray columns are dropped: C is garbage, but no access leaves A, B or C and every
// loop ends.

// Row `row` of A as the range [x, y) of its entries.
__device__ __forceinline__ int2 entries_of(const operands& x, int row) {
    const int s = x.a_rp.ldg_bounded(row, x.a_base, 0, x.nnz_a);
    const int e = x.a_rp.ldg_bounded(row + 1, x.a_base, s, x.nnz_a);
    return make_int2(s, e);
}

// Row `kk` (0-based, from A's entry e) of B as the range [x, y) of its entries; empty
// for a column of A outside 0..k-1.
__device__ __forceinline__ int2 b_row_of(const operands& x, int e) {
    const int kk = x.a_ci.ldg_index(e, x.a_base, x.k);
    if (kk < 0) return make_int2(0, 0);
    const int s = x.b_rp.ldg_bounded(kk, x.b_base, 0, x.nnz_b);
    const int end = x.b_rp.ldg_bounded(kk + 1, x.b_base, s, x.nnz_b);
    return make_int2(s, end);
}

// The 0-based column of B's entry bi, or -1 outside 0..n-1.
__device__ __forceinline__ int b_col_of(const operands& x, int bi) {
    return x.b_ci.ldg_index(bi, x.b_base, x.n);
}

template <int G, class V>
struct batch {
    int incl = 0;   // inclusive prefix over the group's lanes of the B-row lengths
    int start = 0;  // B element of product p of this lane's entry: start + p
    V a = V(0);     // this lane's entry of A (numeric pass only)
    int total = 0;  // products of the batch, the same in every lane of the group
};

// Loads entries [t, t_end) of A's row, at most G of them (lane gl of the group takes
// entry t + gl). t_end <= t gives an empty batch.
template <int G, bool kValues, class V>
__device__ __forceinline__ batch<G, V> load_batch(const operands& x, const V* a_val, int t,
                                                  int t_end, int gl) {
    static_assert(G >= 2 && G <= 32 && (G & (G - 1)) == 0, "G: a power of two up to 32");
    batch<G, V> b;
    int len = 0, first = 0;
    const int e = t + gl;
    if (e < t_end) {
        const int2 r = b_row_of(x, e);
        first = r.x;
        len = r.y - r.x;
        if constexpr (kValues) b.a = __ldg(a_val + e);
    }
    int incl = len;
#pragma unroll
    for (int d = 1; d < G; d <<= 1) {
        const int y = __shfl_up_sync(kFullMask, incl, d, G);
        if (gl >= d) incl += y;
    }
    b.incl = incl;
    b.start = first - (incl - len);
    b.total = __shfl_sync(kFullMask, incl, G - 1, G);
    return b;
}

// One product of a batch as a lane sees it.
template <class V>
struct product {
    bool active = false;  // p < total and B's column lies in 0..n-1
    int col = 0;          // 0-based column of C
    V value = V(0);       // a_ik * b_kj (numeric pass only)
};

// Product p of the batch (p is the lane's own; lanes with p >= total get inactive).
template <int G, bool kValues, class V>
__device__ __forceinline__ product<V> fetch(const operands& x, const V* b_val,
                                            const batch<G, V>& b, int p) {
    product<V> out;
    out.active = p < b.total;
    // The entry: how many entries have all their products before p.
    int o = 0;
#pragma unroll
    for (int s = G / 2; s >= 1; s >>= 1) {
        const int y = __shfl_sync(kFullMask, b.incl, o + s - 1, G);
        if (y <= p) o += s;
    }
    const int bi = __shfl_sync(kFullMask, b.start, o, G) + p;
    V a = V(0);
    if constexpr (kValues) a = __shfl_sync(kFullMask, b.a, o, G);
    if (out.active) {
        out.col = b_col_of(x, bi);
        out.active = out.col >= 0;
        if constexpr (kValues) out.value = a * __ldg(b_val + bi);
    }
    return out;
}

}  // namespace tcs::spgemm::hash
