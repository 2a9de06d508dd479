// Row-split SpMM (merge-spmm's "row split", with lane groups sized to n): each row of
// op(A) belongs to one group of G lanes, a block of kThreads lanes takes kThreads/G
// consecutive rows, and each lane sums the row's products for the columns it owns,
// U nonzeros at a time with all their loads of B in flight. No lane talks to another,
// each element of C is written by exactly one lane.
#pragma once

#include "spmm/operands.cuh"

namespace tcs::spmm {

template <class T, class TC, int G, int NV, bool Vector>
__global__ void __launch_bounds__(kThreads, row_split_blocks_per_sm(sizeof(T)))
    row_split_kernel(sparse_rows<T> A, dense_in<T> B, dense_out<TC> C, scalar<acc_t<T>> alpha,
                     scalar<acc_t<T>> beta) {
    using acc = acc_t<T>;
    using chunk_t = chunk<T, G, NV, Vector>;
    constexpr int V = chunk_t::V, U = chunk_t::U;

    const std::int64_t row = std::int64_t(blockIdx.x) * (kThreads / G) + threadIdx.x / G;
    if (row >= A.rows) return;  // no lane waits for another, so leaving early is safe
    const int lane = int(threadIdx.x % G);
    const acc al = alpha.get(), be = beta.get();
    const int begin = A.row_begin(int(row)), end = A.row_end(int(row));

    for (std::int64_t slab = blockIdx.y; slab < C.slabs; slab += gridDim.y) {
        const columns<G, NV, V> cols(slab, lane, C.cols);
        acc sum[NV][V];
        clear(sum);
        for (int j = begin; j < end;) {
            const int count = std::min(U, end - j);
            chunk_t ch;
            ch.load(A, B, j, count, cols, C.cols);
#pragma unroll
            for (int u = 0; u < U; ++u)
                if (u < count) ch.accumulate(u, sum);
            j += count;
        }
        store_row(C, row, cols, sum, al, be);
    }
}

}  // namespace tcs::spmm
