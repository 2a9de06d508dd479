// op(A) = A^T times one column by scattering (SpMV with opA = T under the algorithms that
// allow run-to-run differences, as cuSPARSE's CSR_ALG1 does): nonzero (i, j, a) of A as
// stored adds alpha*x[i]*a to y[j] with an atomic add, after y = beta*y. No transposed
// copy, no buffer and no analysis: each call reads A's arrays once, where the
// deterministic path (transpose.hpp) gathers A's values into the copy and then reads
// the copy.
//
// Balance: a warp takes kScatterItems items of Merrill and Garland's merge list of row
// ends and nonzeros (merge_path.cuh), so that no warp walks more than that many rows or
// nonzeros, long rows and runs of empty rows included. The warp finds where its part
// starts with a 32-way search (each round the lanes probe 32 rows at once): the search
// is a chain of dependent loads, cold in L2 on every call, log32 rather than log2 of m
// of them long. Its lanes take consecutive nonzeros (coalesced loads of columns and
// values); a lane finds the row of its next nonzero by walking forward from the row of
// its last one, and stops at the first nonzero past the warp's part.
//
// Non-deterministic: the order of the atomic additions into an element of y depends on
// the schedule. Summed in y's type, which is the accumulation type (fp32, or fp64 for
// fp64): the host sends 16-bit y to the deterministic path instead, where the sum is
// rounded once.
#pragma once

#include "spmm/csr/operands.cuh"

namespace tcs::spmm::csr {

// Merge items per warp: 8 steps of 32 nonzeros (or row ends).
inline constexpr int kScatterItems = 256;

// merge_search (merge_path.cuh) by the whole warp: the number of rows r with
// r + row_end(r) < d. The predicate is true, then false, over [lo, hi); each round the
// lanes test 32 evenly spread rows and the ballot keeps the span between the last true
// and the first false one. Every lane returns the same row.
template <class T, class I>
__device__ __forceinline__ int warp_merge_search(const sparse_rows<T, I>& A, std::int64_t d,
                                                 int lane) {
    std::int64_t lo = max(std::int64_t(0), d - A.nnz), hi = min(d, std::int64_t(A.rows));
    while (lo < hi) {
        const std::int64_t span = hi - lo;
        const std::int64_t probe = lo + span * lane / 32;  // < hi
        const bool before = probe + A.row_end(int(probe)) < d;
        const unsigned ballot = __ballot_sync(0xffffffffu, before);
        const int count = __popc(ballot);  // lanes 0 .. count - 1 (the predicate is monotone)
        const std::int64_t last_true = __shfl_sync(0xffffffffu, probe, max(count - 1, 0));
        const std::int64_t first_false = __shfl_sync(0xffffffffu, probe, min(count, 31));
        if (count == 0) return int(lo);
        lo = last_true + 1;
        if (count < 32) hi = first_false;
    }
    return int(lo);
}

// A is as stored: A.rows rows, A.cols columns (= y's length). x has A.rows elements.
template <class T, class I>
__global__ void __launch_bounds__(kThreads)
    scatter_column_kernel(sparse_rows<T, I> A, const T* x, acc_t<T>* y, scalar<acc_t<T>> alpha,
                          std::int64_t items) {
    using acc = acc_t<T>;
    const std::int64_t warp = (std::int64_t(blockIdx.x) * kThreads + threadIdx.x) / 32;
    const int lane = int(threadIdx.x % 32);
    const std::int64_t d0 = warp * kScatterItems;
    if (d0 >= items) return;  // the whole warp leaves
    const std::int64_t d1 = min(d0 + kScatterItems, items);
    const int i0 = warp_merge_search(A, d0, lane);
    const acc al = alpha.get();
    // Rows below i0 end before the warp's first nonzero, d0 - i0; a nonzero j of row r
    // lies at r + j on the path. The walk stays below A.rows for corrupt offsets too
    // (operands.cuh bounds every read of the structure).
    int row = min(i0, A.rows - 1);
    int row_end = A.row_end(row);
    acc scale = acc(0);  // alpha * x[row], for the lane's current row
    int scaled_row = -1;
    for (std::int64_t j = d0 - i0 + lane; j < A.nnz; j += 32) {
        while (row_end <= j && row + 1 < A.rows) row_end = A.row_end(++row);
        if (row + j >= d1) break;  // past the warp's part of the path
        if (row != scaled_row) {
            scale = al * element<T>::widen(load_ro(x + row));
            scaled_row = row;
        }
        const acc a = element<T>::widen(load_ro(A.values + j));
        atomicAdd(y + A.column(int(j)), scale * a);
    }
}

}  // namespace tcs::spmm::csr
