// Walking the products of one row of C with the whole block, balanced by products: a
// batch of NT entries of A's row is loaded (one per thread), a block scan numbers the
// batch's products 0..total-1 (in the order of A's row, then of B's row) and thread i
// takes products i, i+NT, ..., finding the entry of each by a binary search over the
// batch's prefix of B-row lengths in shared memory.
//
// Why not whole entries per warp: a long row of C often comes from a handful of entries
// of A whose rows of B hold thousands of entries (arrow matrices such as a2nnsnsl,
// power-law graphs). Giving each warp a share of A's entries then left most warps of a
// 512- or 1024-thread block idle while one or two walked those rows 32 products at a
// time.
#pragma once

#include "spgemm/hash/flat_walk.cuh"

#include <cuda_runtime.h>

namespace tcs::spgemm::hash {

// Exclusive prefix sum of v over the block's threads, and the total. Every thread calls
// it. warp_sums (NT/32 ints of shared memory) must not be read any more by a previous
// call: callers separate two calls by a barrier.
template <int NT>
__device__ __forceinline__ int block_exclusive_sum(int v, int* warp_sums, int& total) {
    const int lane = lane_id(), warp = int(threadIdx.x) / 32;
    int incl = v;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const int y = __shfl_up_sync(kFullMask, incl, d);
        if (lane >= d) incl += y;
    }
    if (lane == 31) warp_sums[warp] = incl;
    __syncthreads();
    int before = 0;
    total = 0;
#pragma unroll
    for (int w = 0; w < NT / 32; ++w) {
        const int sum = warp_sums[w];
        before += w < warp ? sum : 0;
        total += sum;
    }
    return before + incl - v;
}

// A batch as the block shares it. kValues: the numeric pass also keeps A's values.
template <int NT, bool kValues, class V>
struct block_batch {
    static_assert(NT % 32 == 0 && NT <= 1024, "whole warps");
    int incl[NT];            // inclusive prefix of the entries' B-row lengths
    int start[NT];           // B element of product p of entry e: start[e] + p
    V a[kValues ? NT : 1];   // the entries' values of A
    int warp_sums[NT / 32];  // scan scratch
};

// Loads entries [t, min(t + NT, t_end)) of A's row into s and returns the number of
// products of the batch. Every thread of the block calls it; it begins and ends with a
// barrier, so the previous batch may be read until the call.
template <int NT, bool kValues, class V>
__device__ __forceinline__ int load_block_batch(const operands& x, const V* a_val, int t,
                                                int t_end, block_batch<NT, kValues, V>& s) {
    const int tid = int(threadIdx.x);
    const int e = t + tid;
    int len = 0, first = 0;
    V a = V(0);
    if (e < t_end) {
        const int2 r = b_row_of(x, e);
        first = r.x;
        len = r.y - r.x;
        if constexpr (kValues) a = __ldg(a_val + e);
    }
    __syncthreads();  // every thread is done with the previous batch
    int total = 0;
    const int incl = block_exclusive_sum<NT>(len, s.warp_sums, total) + len;
    s.incl[tid] = incl;
    s.start[tid] = first - (incl - len);
    if constexpr (kValues) s.a[tid] = a;
    __syncthreads();
    return total;
}

// The entry of product p: the first e in [lo, last] with incl[e] > p (there is one).
// A thread's products only move forward, so lo is the entry of its previous product.
__device__ __forceinline__ int batch_entry(const int* incl, int lo, int last, int p) {
    if (incl[lo] > p) return lo;  // long rows of B: still the same entry
    ++lo;
    while (lo < last) {
        const int mid = (lo + last) >> 1;
        if (incl[mid] > p) last = mid;
        else lo = mid + 1;
    }
    return lo;
}

// Product p (< the batch's total) of a batch of `entries` entries, inactive when B's
// column lies outside 0..n-1; e: this thread's previous entry (0 at the batch's start),
// updated.
template <int NT, bool kValues, class V>
__device__ __forceinline__ product<V> block_product(const operands& x, const V* b_val,
                                                    const block_batch<NT, kValues, V>& s,
                                                    int entries, int p, int& e) {
    e = batch_entry(s.incl, e, entries - 1, p);
    const int bi = s.start[e] + p;
    product<V> out;
    out.col = b_col_of(x, bi);
    out.active = out.col >= 0;
    if constexpr (kValues) out.value = s.a[e] * __ldg(b_val + bi);
    return out;
}

// Calls f(col) for every product of A's row entries [t0, t1), spread over the block.
// f returns true to stop: the block then stops after the current batch. Every thread of
// the block calls it with the same row.
template <int NT, class F>
__device__ __forceinline__ void for_each_product(const operands& x, int t0, int t1, F&& f) {
    __shared__ block_batch<NT, false, float> s;
    for (int t = t0; t < t1; t += NT) {
        const int total = load_block_batch<NT, false, float>(x, nullptr, t, t1, s);
        const int entries = min(NT, t1 - t);
        bool stop = false;
        int e = 0;
        for (int p = int(threadIdx.x); p < total && !stop; p += NT) {
            const product<float> pr = block_product<NT, false, float>(x, nullptr, s, entries, p, e);
            if (pr.active) stop = f(pr.col);
        }
        if (__syncthreads_or(stop)) return;
    }
}

}  // namespace tcs::spgemm::hash
