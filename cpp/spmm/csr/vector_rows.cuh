// CSR-vector SpMM (Bell and Garland's CSR-vector SpMV, widened to a tile of columns):
// each row of op(A) belongs to a group of L lanes, a block of kThreads lanes takes
// kThreads/L consecutive rows. The lanes stride over the row's nonzeros (lane l takes
// nonzeros l, l+L, l+2L, ... of the row), so the group's loads of A's column indices and
// values are coalesced, and each lane multiplies every entry it loads by TN columns of
// op(B) held in registers. Columns are taken TN at a time (a pass over the row per
// tile). A fixed butterfly of shuffles then sums the group's partial sums, and lane
// t % L writes column t of the tile.
//
// Why it exists: the other two families lay column lanes over a row of op(B), which
// scatters a warp's loads over G cache lines when op(B) is column-wise. Here
// the lanes read one column of op(B) each at the rows their nonzeros name, through the
// strides of dense_in, so every layout and opB work unchanged.
//
// Long rows (plan_vector_long_rows, geometry.hpp): rows longer than the plan's
// threshold are not the groups'. Every run lists them in the buffer (preprocess, or the
// run itself), and a second kernel (vector_long_rows_kernel) takes them as row-split's
// long-row blocks do (row_split.cuh: one column lane per task, op(B) read element by
// element), the very long ones cut into parts where the plan says (Parts: kWhole or
// kPartsFilled).
//
// Deterministic: each lane sums its nonzeros in row order, the butterfly's order is
// fixed by L, L and the threshold depend only on op(A)'s shape, and the long rows'
// tasks sum in an order fixed by the plan and the row's length (row_split.cuh). Without
// long rows no buffer and no atomics.
#pragma once

#include "spmm/csr/operands.cuh"
#include "spmm/csr/row_split.cuh"

namespace tcs::spmm::csr {

// kVectorUnroll nonzeros per lane have their loads in flight together (rules.hpp).
// threshold: rows longer than this are the long rows' kernel's (below), not a group's.
template <class T, class TC, int L, int TN, class I>
__global__ void __launch_bounds__(kThreads, vector_rows_blocks_per_sm(sizeof(T), TN, sizeof(I)))
    vector_rows_kernel(sparse_rows<T, I> A, dense_in<T> B, dense_out<TC> C, scalar<acc_t<T>> alpha,
                       scalar<acc_t<T>> beta, int threshold) {
    static_assert(L >= 1 && L <= 32 && (L & (L - 1)) == 0, "a group is a power of two <= 32");
    using acc = acc_t<T>;
    constexpr int U = kVectorUnroll;
    constexpr unsigned kStep = unsigned(U * L);  // nonzeros a group consumes per step

    const std::int64_t row = std::int64_t(blockIdx.x) * (kThreads / L) + threadIdx.x / L;
    const unsigned lane = threadIdx.x % L;
    // A group past the last row, or whose row is a listed long row, walks an empty row
    // instead of returning: every lane of the warp must reach the shuffles.
    const bool live = row < A.rows;
    const int begin = live ? A.row_begin(int(row)) : 0;
    // Offsets within the row are unsigned: count + kStep stays below 2^32 even for a row
    // of nearly 2^31 nonzeros, where begin + lane + kStep would overflow an int.
    const unsigned length = live ? A.row_length(int(row), begin) : 0u;
    const bool mine = live && length <= unsigned(threshold);
    const unsigned count = mine ? length : 0u;
    const acc al = alpha.get(), be = beta.get();

    for (std::int64_t first = 0; first < C.cols; first += TN) {
        acc sum[TN];
#pragma unroll
        for (int t = 0; t < TN; ++t) sum[t] = acc(0);
        // Unused columns of the last tile stay zero and load nothing.
        bool inside[TN];
#pragma unroll
        for (int t = 0; t < TN; ++t) inside[t] = first + t < C.cols;

        for (unsigned q = lane; q < count; q += kStep) {
            acc a[U];
            const T* b_row[U];
#pragma unroll
            for (int u = 0; u < U; ++u) {
                a[u] = acc(0);
                b_row[u] = B.values;
                if (q + u * L < count) {
                    const int e = begin + int(q + u * L);
                    a[u] = element<T>::widen(load_ro(A.values + e));
                    b_row[u] =
                        B.values + std::int64_t(A.column(e)) * B.row_stride;
                }
            }
            // All U*TN loads of B issued before the first product.
            acc b[U][TN];
#pragma unroll
            for (int u = 0; u < U; ++u)
#pragma unroll
                for (int t = 0; t < TN; ++t) {
                    b[u][t] = acc(0);
                    if (q + u * L < count && inside[t])
                        b[u][t] = element<T>::widen(load_ro(b_row[u] + (first + t) * B.col_stride));
                }
#pragma unroll
            for (int u = 0; u < U; ++u)
                if (q + u * L < count)
#pragma unroll
                    for (int t = 0; t < TN; ++t) sum[t] += a[u] * b[u][t];
        }

        // Butterfly over the group (xor offsets < L stay inside it): afterwards every lane
        // holds the same totals, summed in the same order.
#pragma unroll
        for (int t = 0; t < TN; ++t)
#pragma unroll
            for (int offset = L / 2; offset > 0; offset /= 2)
                sum[t] += __shfl_xor_sync(0xffffffffu, sum[t], offset);

        if (mine) {
#pragma unroll
            for (int t = 0; t < TN; ++t) {
                if (unsigned(t % L) != lane || !inside[t]) continue;
                const acc total[1] = {sum[t]};
                store_strided<TC, acc, 1>(C, row, first + t, total, al, be);
            }
        }
    }
}

// CSR-vector's long rows: row-split's long-row blocks (row_split.cuh) over the lists in
// S, one column lane per task, op(B) read element by element; the grid is
// S.long_blocks. A kernel of its own, compiled for row-split's blocks per SM: inside
// vector_rows_kernel the tasks' registers spilled at its launch bounds (-Xptxas -v,
// CUDA 13, sm_90).
template <class T, class TC, int Parts, class I>
__global__ void __launch_bounds__(kThreads, row_split_kernel_blocks(sizeof(T), false, 1, Parts))
    vector_long_rows_kernel(sparse_rows<T, I> A, dense_in<T> B, dense_out<TC> C,
                            scalar<acc_t<T>> alpha, scalar<acc_t<T>> beta, split_view S) {
    long_rows_block<T, TC, 1, false, Parts>(A, B, C, alpha.get(), beta.get(), S);
}

}  // namespace tcs::spmm::csr
