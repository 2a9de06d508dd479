// Merge-path SpMM (Merrill & Garland's merge-based CSR SpMV, widened to SpMM by giving
// each merge segment to a lane group that owns columns, as in merge-spmm).
//
// The merge list: op(A)'s m row ends interleaved with its nnz nonzeros, where row end
// r comes after exactly the nonzeros j < row_end(r), i.e. at position
// p(r) = r + row_end(r). A diagonal d (d items consumed) meets the path at
// (i, d - i), i = #{r : p(r) < d}: rows < i are finished, nonzeros < d - i consumed.
// p is strictly increasing, so i is a binary search (merge_search).
//
// Three kernels:
//  1. partition_kernel: i at the start of every segment (the `limits`, cached by
//     preprocess: they depend only on A's row offsets and the segmentation).
//  2. merge_path_kernel: a group walks its segment, writes C for every row whose end it
//     consumes (alpha*partial + beta*C), and for the row it stops inside writes the
//     partial sum of that row's nonzeros it saw as the segment's carry-out record.
//  3. fixup_kernel: for every row that earlier segments stopped inside, adds
//     alpha * (their records, summed in a fixed order) to the C the owner wrote (see
//     there): deterministic, no atomics.
// Segment s covers items [s*length, min((s+1)*length, items)).
#pragma once

#include "spmm/csr/operands.cuh"

namespace tcs::spmm::csr {

// i = #{r < rows : r + row_end(r) < d}, with row_end(r) = row_ptr[r+1] - base. Rows
// below d - nnz are certainly finished and rows from d on certainly not.
template <class I>
__device__ __forceinline__ int merge_search(const I* row_ptr, int base, int rows,
                                            std::int64_t nnz, std::int64_t d) {
    std::int64_t lo = std::max<std::int64_t>(0, d - nnz);
    std::int64_t hi = std::min<std::int64_t>(d, rows);
    while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        if (mid + (load_ro(row_ptr + mid + 1) - I(base)) < d)
            lo = mid + 1;
        else
            hi = mid;
    }
    return int(lo);
}

// One thread per segment boundary s in [0, count]; I is the offsets' width.
template <class I>
__global__ void partition_kernel(const I* row_ptr, int base, int rows, std::int64_t nnz,
                                 merge_view M, int* limits) {
    const std::int64_t s = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (s > M.count) return;
    const std::int64_t d = std::min(s * M.length, M.items);
    limits[s] = merge_search(row_ptr, base, rows, nnz, d);
}

// Segment s: rows [i0, i1) end inside it, it consumes nonzeros [j0, j1). Row i1 (if
// < m) is the row it stops inside.
struct segment {
    int i0, i1, j0, j1;

    __device__ __forceinline__ segment(const merge_view& M, std::int64_t s) {
        const std::int64_t d0 = s * M.length;
        const std::int64_t d1 = std::min(d0 + M.length, M.items);
        i0 = load_ro(M.limits + s);
        i1 = load_ro(M.limits + s + 1);
        j0 = int(d0 - i0);
        j1 = int(d1 - i1);
    }

    // Whether it consumed nonzeros of row i1 (< m, which starts at i1_begin): then it
    // writes a carry-out record. The merge kernel and the fix-up both ask this.
    __device__ __forceinline__ bool carries(int i1_begin) const { return j1 > j0 && j1 > i1_begin; }
};

template <class T, class TC, int G, int NV, bool Vector, class I>
__global__ void __launch_bounds__(kThreads, merge_blocks_per_sm(sizeof(T)))
    merge_path_kernel(sparse_rows<T, I> A, dense_in<T> B, dense_out<TC> C, scalar<acc_t<T>> alpha,
                      scalar<acc_t<T>> beta, merge_view M, acc_t<T>* records) {
    using acc = acc_t<T>;
    using chunk_t = chunk<T, G, NV, Vector>;
    constexpr int V = chunk_t::V, U = chunk_t::U;

    const std::int64_t s = std::int64_t(blockIdx.x) * (kThreads / G) + threadIdx.x / G;
    if (s >= M.count) return;  // no lane waits for another, so leaving early is safe
    const int lane = int(threadIdx.x % G);
    const acc al = alpha.get(), be = beta.get();
    const segment seg(M, s);
    const bool carry = seg.i1 < A.rows && seg.carries(A.row_begin(seg.i1));
    acc* record = records + s * C.cols;

    for (std::int64_t slab = blockIdx.y; slab < C.slabs; slab += gridDim.y) {
        const columns<G, NV, V> cols(slab, lane, C.cols);
        acc sum[NV][V];
        clear(sum);
        // r: the row being summed; end_r its end, end_next the next row's (prefetched so
        // that finishing a row does not wait for a load).
        int r = seg.i0;
        int end_r = r < seg.i1 ? A.row_end(r) : 0;
        int end_next = r + 1 < seg.i1 ? A.row_end(r + 1) : 0;
        for (int j = seg.j0; j < seg.j1;) {
            const int count = std::min(U, seg.j1 - j);
            chunk_t ch;
            ch.load(A, B, j, 1, count, cols, C.cols);
#pragma unroll
            for (int u = 0; u < U; ++u) {
                if (u >= count) continue;
                // Finish every row (empty ones too) that ends before nonzero j + u.
                while (r < seg.i1 && end_r <= j + u) {
                    store_row(C, r, cols, sum, al, be);
                    clear(sum);
                    ++r;
                    end_r = end_next;
                    end_next = r + 1 < seg.i1 ? A.row_end(r + 1) : 0;
                }
                ch.accumulate(u, sum);
            }
            j += count;
        }
        // Rows ending at the segment's last nonzero, and empty rows after it.
        for (; r < seg.i1; ++r) {
            store_row(C, r, cols, sum, al, be);
            clear(sum);
        }
        if (carry) {
#pragma unroll
            for (int v = 0; v < NV; ++v)
#pragma unroll
                for (int e = 0; e < V; ++e)
                    if (cols.owned[v] && cols.first[v] + e < C.cols)
                        record[cols.first[v] + e] = sum[v][e];
        }
    }
}

// The fix-up gives each segment a warp; the first segment of every run of segments that
// stop inside the same row adds the run's records to that row. A row with thousands of
// nonzeros spans thousands of segments, so a run longer than kShortRun is summed with
// the lanes over its segments (lane t takes segments s+t, s+t+32, ..., in order) and a
// fixed butterfly across the warp, kFixupColumns columns at a time; a short run with
// the lanes over the columns and the segments in order. Either order is fixed by the
// segmentation alone: deterministic, no atomics. (kShortRun, kFixupColumns: rules.hpp.)

// The end of the run that starts at segment s inside `row` (limits[s + 1] == row <
// rows): the first q > s whose segment stops beyond row, i.e. limits[q + 1] > row,
// which exists because limits[count] == rows.
__device__ __forceinline__ std::int64_t run_end(const merge_view& M, std::int64_t s, int row) {
    std::int64_t lo = s + 2, hi = M.count;  // first index in [s+2, count] with limits > row
    while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        if (load_ro(M.limits + mid) > row)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo - 1;
}

template <class A, class TC>
__device__ __forceinline__ void add_carry(const dense_out<TC>& C, int row, std::int64_t col,
                                          A al, A total) {
    TC* where = C.at(row, col);
    *where = element<TC>::narrow(element<TC>::widen(*where) + al * total);
}

// One warp per segment: every branch below depends only on the segment, so the warp
// takes it as a whole and all its lanes reach the shuffles.
template <class A, class TC, class I>
__global__ void __launch_bounds__(kThreads)
    fixup_kernel(const I* row_ptr, int base, int rows, merge_view M, const A* records,
                 dense_out<TC> C, scalar<A> alpha) {
    const std::int64_t s = (std::int64_t(blockIdx.x) * kThreads + threadIdx.x) / 32;
    const int lane = int(threadIdx.x % 32);
    if (s >= M.count) return;
    const segment seg(M, s);
    const int row = seg.i1;
    if (row >= rows) return;
    if (s > 0 && seg.i0 == row) return;  // segment s-1 stops inside `row` too: not the run's first
    const std::int64_t end = run_end(M, s, row);
    const int row_begin = int(load_ro(row_ptr + row) - I(base));
    const A al = alpha.get();
    if (end - s <= kShortRun) {
        for (std::int64_t col = lane; col < C.cols; col += 32) {
            A total = A(0);
            bool any = false;
            for (std::int64_t q = s; q < end; ++q) {
                if (segment(M, q).carries(row_begin)) {
                    total += records[q * C.cols + col];
                    any = true;
                }
            }
            if (any) add_carry(C, row, col, al, total);
        }
        return;
    }
    for (std::int64_t first = 0; first < C.cols; first += kFixupColumns) {
        A part[kFixupColumns];
#pragma unroll
        for (int c = 0; c < kFixupColumns; ++c) part[c] = A(0);
        bool any = false;
        for (std::int64_t q = s + lane; q < end; q += 32) {
            if (!segment(M, q).carries(row_begin)) continue;
            any = true;
            const A* record = records + q * C.cols + first;
#pragma unroll
            for (int c = 0; c < kFixupColumns; ++c)
                if (first + c < C.cols) part[c] += record[c];
        }
        any = __any_sync(0xffffffffu, any);
#pragma unroll
        for (int c = 0; c < kFixupColumns; ++c)
            for (int offset = 16; offset > 0; offset /= 2)
                part[c] += __shfl_xor_sync(0xffffffffu, part[c], offset);
        // After the butterfly every lane holds every total; lane c writes column first+c.
#pragma unroll
        for (int c = 0; c < kFixupColumns; ++c)
            if (any && lane == c && first + c < C.cols) add_carry(C, row, first + c, al, part[c]);
    }
}

}  // namespace tcs::spmm::csr
