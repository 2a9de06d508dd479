// Row-split for one column (n == 1: C = alpha*op(A)*x + beta*C, a sparse matrix-vector
// product): each row of op(A) belongs to a group of W lanes (geometry::rows_lanes), a
// block of kThreads lanes takes kThreads/W consecutive rows, and lane l sums the row's
// nonzeros l, l + W, l + 2W, ..., kSingleUnroll at a time with their loads of x in
// flight, so that the group's loads of A are coalesced. A fixed butterfly adds the W
// partial sums. Rows longer than the plan's threshold (geometry.hpp, plan_long_rows) are
// left to the grid's first blocks: a warp takes each long row, and a very long row is cut
// into S.parts parts, a block each, whose partial sums the last of them adds in part order
// (a ticket per row, as in row_split.cuh's part_task).
//
// Why not row_split_kernel with one column lane: its lane holds a vector of V columns,
// V sums and, per unrolled nonzero, V loads of B behind bounds checks, for one column.
// It took 72 registers (7 blocks per SM) and several times the warp instructions of
// cuSPARSE's SpMV kernel. Here a lane holds one sum: 32 registers in fp32 (16 blocks per
// SM), 40 in fp64 (12). Measured: docs/algorithms/spmm-csr.md, "One column: the kernel".
//
// Rows: op(A) as sparse_rows, or for op(A) = A^T as permuted_rows (operands.cuh): the
// transposed copy's structure with A's values read in place through its permutation,
// where a gathered copy of the values would be written and read back once per call
// (rules.hpp, reads_transpose_in_place). Either way lane l reads nonzero j of the row
// as A.value(j): the same sums, bit for bit.
//
// Deterministic: the split of a row over lanes and parts depends only on the plan and the
// row's length, each lane sums in row order, the butterflies and the parts' additions
// have a fixed order. Every element of C is written by exactly one lane. Atomics only
// count (the lists, the tickets).
#pragma once

#include "spmm/csr/operands.cuh"

namespace tcs::spmm::csr {

// Lane `first` of `stride` sums its nonzeros (offsets first, first + stride, ...) of a
// row starting at `begin` in op(A), times op(B)'s one column, in row order.
template <class T, class Rows>
__device__ __forceinline__ acc_t<T> sum_single(const Rows& A, const dense_in<T>& B,
                                               int begin, unsigned length, unsigned first,
                                               unsigned stride) {
    using acc = acc_t<T>;
    constexpr int U = kSingleUnroll;
    acc sum = acc(0);
    // Offsets are unsigned: o + stride*U stays below 2^32 for a row of nearly 2^31.
    for (unsigned o = first; o < length; o += stride * U) {
        int kk[U];
        acc a[U], x[U];
#pragma unroll
        for (int u = 0; u < U; ++u) {
            kk[u] = 0;
            a[u] = acc(0);
            if (o + u * stride < length) {
                const int j = begin + int(o + u * stride);
                kk[u] = A.column(j);
                a[u] = element<T>::widen(A.value(j));
            }
        }
#pragma unroll
        for (int u = 0; u < U; ++u)
            x[u] = o + u * stride < length
                       ? element<T>::widen(load_ro(B.values + std::int64_t(kk[u]) * B.row_stride))
                       : acc(0);
#pragma unroll
        for (int u = 0; u < U; ++u)
            if (o + u * stride < length) sum = fma_rn(a[u], x[u], sum);
    }
    return sum;
}

// Adds the sums of the W lanes of each group (xor butterfly, fixed order; every lane of
// the warp must call it).
template <int W, class A> __device__ __forceinline__ A add_group(A sum) {
#pragma unroll
    for (int offset = 1; offset < W; offset *= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
    return sum;
}

// The block's sum of a row's nonzeros [begin, begin + length) (kThreads lanes, then
// the warps' sums in warp order), on thread 0. Every thread of the block must call it.
template <class T, class Rows>
__device__ __forceinline__ acc_t<T> block_sum(const Rows& A, const dense_in<T>& B,
                                              int begin, unsigned length) {
    using acc = acc_t<T>;
    constexpr int kWarps = kThreads / 32;
    __shared__ acc warp_sums[kWarps];
    acc sum = add_group<32>(sum_single<T>(A, B, begin, length, threadIdx.x, kThreads));
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
    __syncthreads();
    sum = warp_sums[0];
#pragma unroll
    for (int w = 1; w < kWarps; ++w) sum += warp_sums[w];
    __syncthreads();  // warp_sums is rewritten by the next call
    return sum;
}

template <class TC, class A>
__device__ __forceinline__ void store_single(const dense_out<TC>& C, int row, A sum, A al, A be) {
    const A total[1] = {sum};
    store_strided<TC, A, 1>(C, row, 0, total, al, be);
}

// Part `piece` of S.parts of very long row list[1][entry], over the whole block; the
// block that takes the row's last ticket adds the parts in part order and stores the row.
template <class T, class TC, class Rows>
__device__ __forceinline__ void single_part(const Rows& A, const dense_in<T>& B,
                                            const dense_out<TC>& C, acc_t<T> al, acc_t<T> be,
                                            const split_view& S, std::int64_t t) {
    using acc = acc_t<T>;
    const std::int64_t entry = t / S.parts;
    const unsigned piece = unsigned(t - entry * S.parts);
    const int row = load_ro(S.lists[1] + entry);
    const int begin = A.row_begin(row);
    const unsigned length = A.row_length(row, begin);
    const unsigned size = (length + unsigned(S.parts) - 1) / unsigned(S.parts);
    const unsigned lo = min(length, piece * size), hi = min(length, lo + size);
    acc sum = block_sum<T>(A, B, begin + int(lo), hi - lo);
    acc* partials = static_cast<acc*>(S.partials);
    if (threadIdx.x == 0) {
        partials[t] = sum;
        __threadfence();  // the partial sum before the ticket, device-wide
        if (atomicAdd(S.tickets + entry, 1) == S.parts - 1) {  // the last part
            __threadfence();
            // From L2 (__ldcg): the other parts' sums were written by other SMs.
            sum = acc(0);
            for (int q = 0; q < S.parts; ++q) sum += __ldcg(partials + entry * S.parts + q);
            store_single<TC, acc>(C, row, sum, al, be);
            S.tickets[entry] = 0;  // ready for the next run
        }
    }
}

// The listed rows: the very long rows' parts a block each (first: the longest chains
// start earliest), then the long rows, a warp each where the groups keep the device busy
// and a block each where they leave it underfilled (!S.warp_rows: the plan, geometry.hpp).
template <class T, class TC, class Rows>
__device__ __forceinline__ void single_long_rows(const Rows& A, const dense_in<T>& B,
                                                 const dense_out<TC>& C, acc_t<T> al, acc_t<T> be,
                                                 const split_view& S) {
    using acc = acc_t<T>;
    std::int64_t listed[2];
#pragma unroll
    for (int tier = 0; tier < 2; ++tier)
        listed[tier] = S.capacity[tier] == 0
                           ? 0
                           : min(std::int64_t(load_ro(S.counts + tier)), S.capacity[tier]);
    for (std::int64_t t = blockIdx.x; t < listed[1] * S.parts; t += S.long_blocks)
        single_part<T, TC>(A, B, C, al, be, S, t);
    if (!S.warp_rows) {
        for (std::int64_t e = blockIdx.x; e < listed[0]; e += S.long_blocks) {
            const int row = load_ro(S.lists[0] + e);
            const int begin = A.row_begin(row);
            const acc sum = block_sum<T>(A, B, begin, A.row_length(row, begin));
            if (threadIdx.x == 0) store_single<TC, acc>(C, row, sum, al, be);
        }
        return;
    }
    constexpr int kWarps = kThreads / 32;
    const unsigned lane = threadIdx.x % 32;
    for (std::int64_t e = std::int64_t(blockIdx.x) * kWarps + threadIdx.x / 32; e < listed[0];
         e += S.long_blocks * kWarps) {
        const int row = load_ro(S.lists[0] + e);
        const int begin = A.row_begin(row);
        const acc sum =
            add_group<32>(sum_single<T>(A, B, begin, A.row_length(row, begin), lane, 32));
        if (lane == 0) store_single<TC, acc>(C, row, sum, al, be);
    }
}

template <class T, class TC, int W, class Rows>
__global__ void __launch_bounds__(kThreads, single_blocks_per_sm(sizeof(T)))
    single_column_kernel(Rows A, dense_in<T> B, dense_out<TC> C,
                         scalar<acc_t<T>> alpha, scalar<acc_t<T>> beta, split_view S) {
    static_assert(W >= 1 && W <= 32 && (W & (W - 1)) == 0, "a group is a power of two <= 32");
    using acc = acc_t<T>;
    const acc al = alpha.get(), be = beta.get();
    if (blockIdx.x < S.long_blocks) {  // the whole block takes this branch
        single_long_rows<T, TC>(A, B, C, al, be, S);
        return;
    }
    const unsigned lane = threadIdx.x % W;
    const std::int64_t step = std::int64_t(gridDim.x) - S.long_blocks;
    for (std::int64_t b = blockIdx.x - S.long_blocks; b < S.row_blocks; b += step) {
        const std::int64_t row = b * (kThreads / W) + threadIdx.x / W;
        const group_row r = group_row_of(A, row, S.threshold);
        const acc sum = add_group<W>(sum_single<T>(A, B, r.begin, r.length, lane, W));
        if (r.mine && lane == 0) store_single<TC, acc>(C, int(row), sum, al, be);
    }
}

}  // namespace tcs::spmm::csr
