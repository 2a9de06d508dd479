// Row-split over runs of rows with one pattern. Consecutive rows whose column indices
// are the same, in the same order (a run: the unknowns of one node of a FEM mesh, the
// rows of a dense block), multiply the same rows of op(B). A segment of G column lanes
// (one nonzero lane: the busy geometry, geometry.hpp) takes a window of Z consecutive
// rows, finds the runs among them (their column indices compared W at a time, a vote
// each) and loads each run's rows of op(B) once for all of its rows: up to Z products
// per value of B loaded instead of one.
//
// Why: at large n a row of op(B) is 0.5-2 kB, and on blocky matrices the kernels were
// bound by moving those rows from L2, not by DRAM (measured:
// docs/algorithms/spmm-csr.md, "Runs of rows").
//
// Deterministic, and bitwise the same as the plain groups (row_split.cuh): every lane
// still sums a row's nonzeros in row order, one product at a time, for its columns;
// only the loads of B are shared.
#pragma once

#include "spmm/csr/operands.cuh"
#include "spmm/csr/rules.hpp"

namespace tcs::spmm::csr {

// Bit i of the result (0 < i < Z) is set when rows r0 + i - 1 and r0 + i are both
// `mine` (bits of mine), follow each other in A's arrays and have the same length and
// column indices (in valid CSR equal lengths imply the first: sum_run_warp relies on it
// even for corrupt offsets). Every lane of the warp must call it (votes); the W lanes of
// a segment share r0.
template <class T, int W, int Z, class I>
__device__ __forceinline__ unsigned same_as_previous(const sparse_rows<T, I>& A,
                                                     const int (&begin)[Z],
                                                     const unsigned (&length)[Z], unsigned mine) {
    unsigned same = 0, longest = 0;
#pragma unroll
    for (int i = 1; i < Z; ++i)
        if ((mine >> i & 1u) && (mine >> (i - 1) & 1u) && length[i] == length[i - 1] &&
            begin[i] == begin[i - 1] + int(length[i - 1])) {
            same |= 1u << i;
            longest = max(longest, length[i]);
        }
    if constexpr (W < 32) longest = __reduce_max_sync(0xffffffffu, longest);
    const unsigned lane = threadIdx.x % W;
    const unsigned segment = W == 32 ? 0xffffffffu : ((1u << W) - 1u) << (threadIdx.x % 32 / W * W);
    for (unsigned o = 0; o < longest; o += W) {
#pragma unroll
        for (int i = 1; i < Z; ++i) {
            bool differ = false;
            if ((same >> i & 1u) && o + lane < length[i])
                differ = load_ro(A.col_idx + begin[i] + int(o + lane)) !=
                         load_ro(A.col_idx + begin[i - 1] + int(o + lane));
            if (__ballot_sync(0xffffffffu, differ) & segment) same &= ~(1u << i);
        }
    }
    return same;
}

// Sums a run of `count` rows (count <= Z) of one pattern: `length` nonzeros each, the
// first row's starting at `begin` (the others follow it in A's arrays: consecutive
// rows). The segment's W = G lanes load W nonzeros at a time, coalesced, and pass them
// around by shuffles as sum_row_warp does with one nonzero lane; each lane then loads
// U rows of op(B) at a time for its columns and adds their products into the sums of
// every row of the run. Every lane of the warp must call it (the shuffles).
template <class T, int G, int NV, bool Vector, int Z, int U, class I>
__device__ __forceinline__ void sum_run_warp(const sparse_rows<T, I>& A, const dense_in<T>& B,
                                             std::int64_t n, int begin, unsigned length,
                                             int count, const columns<G, NV, vector_width<T>>& cols,
                                             acc_t<T> (&sum)[Z][NV][vector_width<T>]) {
    using acc = acc_t<T>;
    constexpr int W = G, V = vector_width<T>;
    static_assert(W <= 32 && 32 % W == 0 && W % U == 0, "segments within a warp");
    const unsigned lane = threadIdx.x % W;
    unsigned longest = length;
    if constexpr (W < 32) longest = __reduce_max_sync(0xffffffffu, length);
    for (unsigned o = 0; o < longest; o += W) {
        const int cnt = o < length ? int(min(unsigned(W), length - o)) : 0;
        int kk_mine = 0;
        acc a_mine[Z];
#pragma unroll
        for (int i = 0; i < Z; ++i) a_mine[i] = acc(0);
        if (int(lane) < cnt) {
            const int j = begin + int(o + lane);
            kk_mine = A.column(j);
#pragma unroll
            for (int i = 0; i < Z; ++i)
                if (i < count) a_mine[i] = element<T>::widen(load_ro(A.values + j + i * int(length)));
        }
        const int most = int(min(unsigned(W), longest - o));
#pragma unroll 1
        for (int u0 = 0; u0 < most; u0 += U) {  // the same on every lane of the warp
            const int c = cnt - u0;             // this segment's nonzeros from u0 on
            int kk[U];
            acc a[U][Z];
#pragma unroll
            for (int u = 0; u < U; ++u) {
                const int k = __shfl_sync(0xffffffffu, kk_mine, u0 + u, W);
                kk[u] = u < c ? k : 0;
#pragma unroll
                for (int i = 0; i < Z; ++i) {
                    const acc x = __shfl_sync(0xffffffffu, a_mine[i], u0 + u, W);
                    a[u][i] = u < c ? x : acc(0);
                }
            }
            uint4 b[U][NV];
#pragma unroll
            for (int u = 0; u < U; ++u)
#pragma unroll
                for (int v = 0; v < NV; ++v)
                    b[u][v] = load_b<T, V, Vector>(B, kk[u], cols.first[v], cols.owned[v] && u < c, n);
#pragma unroll
            for (int u = 0; u < U; ++u) {
                if (u >= c) continue;
#pragma unroll
                for (int v = 0; v < NV; ++v) {
                    T t[V];
                    unpack(b[u][v], t);
#pragma unroll
                    for (int i = 0; i < Z; ++i)
                        if (i < count)
#pragma unroll
                            for (int e = 0; e < V; ++e)
                                sum[i][v][e] =
                                    fma_rn(a[u][i], element<T>::widen(t[e]), sum[i][v][e]);
                }
            }
        }
    }
}

// A segment's window of Z rows from r0, one column slab: finds its runs, sums each and
// writes its rows of C. Rows past the end or longer than `threshold` (the long-row
// blocks' rows) are not the window's: runs of their own, neither summed nor written.
template <class T, class TC, int G, int NV, bool Vector, int Z, int U, class I>
__device__ __forceinline__ void window_task(const sparse_rows<T, I>& A, const dense_in<T>& B,
                                            const dense_out<TC>& C, acc_t<T> al, acc_t<T> be,
                                            int threshold, std::int64_t r0,
                                            const columns<G, NV, vector_width<T>>& cols) {
    using acc = acc_t<T>;
    constexpr int V = vector_width<T>;
    int begin[Z];
    unsigned length[Z], mine = 0;
#pragma unroll
    for (int i = 0; i < Z; ++i) {
        begin[i] = 0;
        length[i] = 0;
        if (r0 + i < A.rows) {
            begin[i] = A.row_begin(int(r0 + i));
            length[i] = A.row_length(int(r0 + i), begin[i]);
            if (length[i] <= unsigned(threshold)) mine |= 1u << i;
        }
    }
    const unsigned starts = ~same_as_previous<T, G, Z>(A, begin, length, mine) & ((1u << Z) - 1u);
    int runs = __popc(starts);
    if constexpr (G < 32) runs = __reduce_max_sync(0xffffffffu, unsigned(runs));
    unsigned rest = starts;
    for (int r = 0; r < runs; ++r) {
        // This segment's next run: rows s .. e-1 of the window (none when it has fewer).
        int s = Z, e = Z;
        if (rest) {
            s = __ffs(rest) - 1;
            rest &= rest - 1;
            e = rest ? __ffs(rest) - 1 : Z;
        }
        const bool summed = s < Z && (mine >> s & 1u);
        const int count = summed ? e - s : 0;
        // Read again (from L1) rather than begin[s]: a register array indexed by a
        // run-time s would go to local memory.
        const int first = summed ? A.row_begin(int(r0 + s)) : 0;
        const unsigned len = summed ? A.row_length(int(r0 + s), first) : 0u;
        acc sum[Z][NV][V];
#pragma unroll
        for (int i = 0; i < Z; ++i) clear(sum[i]);
        sum_run_warp<T, G, NV, Vector, Z, U>(A, B, C.cols, first, len, count, cols, sum);
#pragma unroll
        for (int i = 0; i < Z; ++i)
            if (i < count) store_row(C, r0 + s + i, cols, sum[i], al, be);
    }
}

// Counts the runs the windows of each run_window size would find in op(A): a window
// of Z rows from a multiple of Z holds one run per row that starts it or differs from
// the row before (length or column indices). A warp per row; counts must be 0 before.
// For tcsSpMM_preprocess's choice (rules.hpp): the kernels find the runs again
// themselves, so no result depends on this count. A template on the indices' width I.
template <class I>
__global__ void count_runs_kernel(const I* row_ptr, const I* col_idx, int base, int rows,
                                  int nnz, unsigned long long* counts) {
    const int lane = int(threadIdx.x % 32);
    const std::int64_t warps = std::int64_t(gridDim.x) * (blockDim.x / 32);
    unsigned long long mine[2] = {0, 0};
    for (std::int64_t i = std::int64_t(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
         i < rows; i += warps) {
        bool same = false;
        if (i > 0) {
            // Bounded like sparse_rows: same only for rows that follow each other in the
            // arrays, so both rows' columns lie in [0, nnz).
            const auto at = [&](std::int64_t r) { return bounded_offset(load_ro(row_ptr + r), base, nnz); };
            const int before = at(i - 1), begin = at(i);
            const int length = max(at(i + 1) - begin, 0);
            same = length == begin - before;
            for (int o = 0; same && o < length; o += 32) {  // same: the warp's, from the vote
                const bool differ = o + lane < length &&
                                    load_ro(col_idx + before + o + lane) != load_ro(col_idx + begin + o + lane);
                same = !__any_sync(0xffffffffu, differ);
            }
        }
#pragma unroll
        for (int z = 0; z < 2; ++z) mine[z] += i % run_window(z) == 0 || !same;
    }
    if (lane == 0)
#pragma unroll
        for (int z = 0; z < 2; ++z) atomicAdd(counts + z, mine[z]);
}

}  // namespace tcs::spmm::csr
