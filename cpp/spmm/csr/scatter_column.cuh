// op(A) = A^T times one column by scattering (SpMV with opA = T under the algorithms that
// allow run-to-run differences, as cuSPARSE's CSR_ALG1 does): nonzero (i, j, a) of A as
// stored adds alpha*x[i]*a to y[j] with an atomic add, after y = beta*y. No transposed
// copy and no sort: each call reads A's arrays once, where the deterministic path
// (transpose.hpp) gathers A's values into the copy and then reads the copy.
//
// Balance: a warp takes Items items of Merrill and Garland's merge list of row ends and
// nonzeros (merge_path.cuh), so that no warp walks more than that many rows or nonzeros,
// long rows and runs of empty rows included. Where its part starts (the row i0 with
// i0 + row_end(i0 - 1) <= d0 < ...) is read from `starts`, the partition preprocess left
// in the buffer (merge_path.cuh's partition_kernel, segments of Items), or, without
// one, found by the warp with a 32-way search (each round the lanes probe 32 rows at
// once): a chain of dependent loads that miss in L2, log32 rather than log2 of m long,
// at the start of every warp. Its lanes take consecutive nonzeros (coalesced loads of
// columns and values), 32 per step, and stop at the first nonzero past the warp's part.
//
// How a lane finds the row of its nonzero, by policy (tag types below; the host picks
// one by rules.hpp's scatter_rows_by_window):
//  - rows_by_walk: from the row of its last nonzero, walking forward through the row
//    offsets, one dependent load per row passed: cheap where rows are long, a chain of
//    loads per step where they are short or empty.
//  - rows_by_window: the warp holds the ends of 32 consecutive rows and alpha*x of them
//    in registers (one coalesced load each, refilled when the step passes the 32nd) and
//    a lane finds its row by a 5-step binary search over the lanes (shuffles).
//
// Non-deterministic: the order of the atomic additions into an element of y depends on
// the schedule. Summed in y's type, which is the accumulation type (fp32, or fp64 for
// fp64): the host sends 16-bit y to the deterministic path instead, where the sum is
// rounded once.
#pragma once

#include "spmm/csr/operands.cuh"

#include <type_traits>

namespace tcs::spmm::csr {

// The row lookup policies (see above).
struct rows_by_walk {};
struct rows_by_window {};

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

// The warp's first row: from the partition, or searched.
template <class T, class I>
__device__ __forceinline__ int warp_first_row(const sparse_rows<T, I>& A, const int* starts,
                                              std::int64_t warp, std::int64_t d0, int lane) {
    return starts != nullptr ? min(max(load_ro(starts + warp), 0), A.rows)
                             : warp_merge_search(A, d0, lane);
}

// A is as stored: A.rows rows, A.cols columns (= y's length). x has A.rows elements.
// starts: the partition (segments of Items), or nullptr.
template <int Items, class Lookup, class T, class I>
__global__ void __launch_bounds__(kThreads)
    scatter_column_kernel(sparse_rows<T, I> A, const T* x, acc_t<T>* y, scalar<acc_t<T>> alpha,
                          std::int64_t items, const int* starts) {
    using acc = acc_t<T>;
    constexpr unsigned kAll = 0xffffffffu;
    const std::int64_t warp = (std::int64_t(blockIdx.x) * kThreads + threadIdx.x) / 32;
    const int lane = int(threadIdx.x % 32);
    const std::int64_t d0 = warp * Items;
    if (d0 >= items) return;  // the whole warp leaves
    const std::int64_t d1 = min(d0 + Items, items);
    const int i0 = warp_first_row(A, starts, warp, d0, lane);
    const acc al = alpha.get();
    // Rows below i0 end before the warp's first nonzero, d0 - i0; a nonzero j of row r
    // lies at r + j on the path. Every read of the structure is bounded (operands.cuh), so
    // corrupt offsets give a garbage y but no access outside A, x and y and no endless loop.
    if constexpr (std::is_same_v<Lookup, rows_by_walk>) {
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
    } else {
        // The window: lane w holds row base + w's end (nnz past the last row: above every
        // nonzero) and alpha * x of it. 64-bit rows: base passes A.rows by up to 31.
        std::int64_t base = i0;
        int end = 0;
        acc scaled = acc(0);
        const auto fill = [&] {
            const std::int64_t r = base + lane;
            end = r < A.rows ? A.row_end(int(r)) : A.nnz;
            scaled = r < A.rows ? al * element<T>::widen(load_ro(x + r)) : acc(0);
        };
        fill();
        for (std::int64_t step = d0 - i0; step < A.nnz; step += 32) {
            const int j = int(min(step + lane, std::int64_t(A.nnz)));  // nnz: no nonzero
            std::int64_t row = -1;
            acc scale = acc(0);
            bool pending = j < A.nnz;
            while (true) {
                int below = 0;  // rows of the window that end at or before j
#pragma unroll
                for (int half = 16; half >= 1; half >>= 1)
                    if (__shfl_sync(kAll, end, below + half - 1) <= j) below += half;
                const acc found_scale = __shfl_sync(kAll, scaled, below);
                const int last_end = __shfl_sync(kAll, end, 31);
                if (pending && j < last_end) {
                    row = base + below;
                    scale = found_scale;
                    pending = false;
                }
                // Lanes whose nonzero lies past the window's 32 rows: the next 32. Valid
                // offsets end the last row at nnz, so the window never passes A.rows
                // while a lane is pending; corrupt ones stop there too (end = nnz).
                if (!__any_sync(kAll, pending)) break;
                base += 32;
                fill();
            }
            const bool mine = row >= 0 && row + j < d1;
            if (!__any_sync(kAll, mine)) break;  // the rest of the path is the next warp's
            if (mine) atomicAdd(y + A.column(j), scale * element<T>::widen(load_ro(A.values + j)));
        }
    }
}

}  // namespace tcs::spmm::csr
