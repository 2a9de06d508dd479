// Merge-path SpMM (Merrill & Garland's merge-based CSR SpMV, widened to SpMM by giving
// each merge segment to a lane group that owns columns, as in merge-spmm).
//
// The merge list: op(A)'s m row ends interleaved with its nnz nonzeros, where row end
// r comes after exactly the nonzeros j < row_end(r), i.e. at position
// p(r) = r + row_end(r). A diagonal d (d items consumed) meets the path at
// (i, d - i), i = #{r : p(r) < d}: rows < i are finished, nonzeros < d - i consumed.
// p is strictly increasing, so i is a binary search (merge_search).
//
// The list is cut into tiles of M.length items, a thread block each (and a column slab:
// blockIdx.y), and a tile into kThreads / G segments, a group of G column lanes each.
// Three kernels:
//  1. partition_kernel: i at the start of every tile (the `limits`, cached by
//     preprocess: they depend only on A's row offsets and the segmentation).
//  2. merge_path_kernel: the block stages its tile in shared memory with coalesced
//     loads (the row ends of the rows that end in it, the column indices and values of
//     its nonzeros), so that the groups, each walking its own segment, read A from
//     there and only B from global memory. A group finds its segment's start by a
//     binary search over the staged row ends, writes C for every row that starts and
//     ends in its segment, and keeps two partial sums: its first finished row's (the
//     head) and the row it stops inside (the tail). After a barrier, each head adds the
//     tails of the block's earlier groups that stopped inside the same row, in group
//     order, and is written to C; the tile's own tail (the sum of its last groups'
//     tails in the row the tile stops inside) goes to the tile's carry-out record, and
//     so does the head of a row that began in an earlier tile (its head record).
//  3. fixup_kernel: for every row that began in an earlier tile, writes alpha * (the
//     earlier tiles' carry-outs and the head, summed in a fixed order) + beta*C (see
//     there): each row of C is written once, deterministic, no atomics.
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

// i = #{q < rows : q + ends[q] < d} over a tile's staged row ends (ends[q]: the row's
// end as a count of the tile's nonzeros, nondecreasing): the rows of the tile that end
// before its local diagonal d.
__device__ __forceinline__ int tile_search(const int* ends, int rows, int nonzeros, int d) {
    int lo = max(0, d - nonzeros), hi = min(d, rows);
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (mid + ends[mid] < d)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

// Tile t of the path: rows [i0, i0 + rows) end inside it, it holds nonzeros
// [j0, j0 + nonzeros), and it stops inside row i0 + rows (if < m). rows + nonzeros is
// the tile's length; with corrupt row offsets both are clamped so that they still fit
// the stage (C is then garbage, but nothing is read or written out of bounds).
struct tile {
    int i0 = 0, j0 = 0, rows = 0, nonzeros = 0;

    __device__ __forceinline__ tile(const merge_view& M, std::int64_t t, int nnz) {
        const std::int64_t d0 = t * M.length;
        const std::int64_t d1 = std::min(d0 + M.length, M.items);
        const int span = int(std::min<std::int64_t>(d1 - d0, kMergeTileItems));
        i0 = load_ro(M.limits + t);
        const int i1 = max(load_ro(M.limits + t + 1), i0);
        j0 = int(d0 - i0);
        rows = min(i1 - i0, span);
        nonzeros = max(0, min(span - rows, nnz - j0));
    }
};

// Carry-out records, 2 per tile of n accumulators each: the head record (the row the
// tile starts inside, where it began in an earlier tile and ends in this one) and the
// tail record (the row the tile stops inside, where the tile holds nonzeros of it).
template <class A>
__device__ __forceinline__ A* head_record(A* records, std::int64_t t, std::int64_t n) {
    return records + 2 * t * n;
}
template <class A>
__device__ __forceinline__ A* tail_record(A* records, std::int64_t t, std::int64_t n) {
    return records + (2 * t + 1) * n;
}

// sum[v][e] += the NV*V sums a lane left at `from` (shared memory).
template <class A, int NV, int V>
__device__ __forceinline__ void add_from(A (&sum)[NV][V], const A* from) {
#pragma unroll
    for (int v = 0; v < NV; ++v)
#pragma unroll
        for (int e = 0; e < V; ++e) sum[v][e] += from[v * V + e];
}

template <class A, int NV, int V>
__device__ __forceinline__ void copy_from(A (&sum)[NV][V], const A* from) {
#pragma unroll
    for (int v = 0; v < NV; ++v)
#pragma unroll
        for (int e = 0; e < V; ++e) sum[v][e] = from[v * V + e];
}

// The lane's owned columns of `sum` into a record of n accumulators.
template <class A, int G, int NV, int V>
__device__ __forceinline__ void write_record(A* record, const columns<G, NV, V>& cols,
                                             const A (&sum)[NV][V], std::int64_t n) {
#pragma unroll
    for (int v = 0; v < NV; ++v)
#pragma unroll
        for (int e = 0; e < V; ++e)
            if (cols.owned[v] && cols.first[v] + e < n) record[cols.first[v] + e] = sum[v][e];
}

// The total of the tails that groups [first, last) of the block left in shared memory
// (lane `lane`'s columns), in group order, then `own` (a head's partial sum, in shared
// memory too) added where not null.
template <class A, int G, int NV, int V>
__device__ __forceinline__ void sum_tails(A (&total)[NV][V], const A* tails, int first, int last,
                                          int lane, const A* own) {
    constexpr int stride = NV * V;
    if (first < last) {
        copy_from(total, tails + (first * G + lane) * stride);
        for (int g = first + 1; g < last; ++g) add_from(total, tails + (g * G + lane) * stride);
        if (own) add_from(total, own);
    } else if (own) {
        copy_from(total, own);
    }
}

// The lane's NV*V sums into shared memory.
template <class A, int NV, int V>
__device__ __forceinline__ void keep(A* to, const A (&sum)[NV][V]) {
#pragma unroll
    for (int v = 0; v < NV; ++v)
#pragma unroll
        for (int e = 0; e < V; ++e) to[v * V + e] = sum[v][e];
}

template <class T, class TC, int G, int NV, bool Vector, class I>
__global__ void __launch_bounds__(kThreads, merge_kernel_blocks(sizeof(T), NV))
    merge_path_kernel(sparse_rows<T, I> A, dense_in<T> B, dense_out<TC> C, scalar<acc_t<T>> alpha,
                      scalar<acc_t<T>> beta, merge_view M, acc_t<T>* records) {
    using acc = acc_t<T>;
    using bits = typename bits_of<sizeof(T)>::type;
    using chunk_t = chunk<T, G, NV, Vector>;
    constexpr int V = chunk_t::V, U = chunk_t::U, P = kThreads / G;
    constexpr int kPerThread = kMergeTileItems / kThreads;
    static_assert(kMergeTileItems % kThreads == 0, "the stage is loaded in whole rounds");
    // index: [0, rows) the tile's row ends (as counts of its nonzeros), [rows, rows +
    // nonzeros) its nonzeros' columns; value: the nonzeros' values.
    __shared__ int index[kMergeTileItems];
    __shared__ bits value[kMergeTileItems];
    __shared__ acc tails[kThreads * NV * V];  // each lane's tail sums
    __shared__ acc heads[kThreads * NV * V];  // each lane's head sums (registers are short)
    __shared__ int tail_row[P];               // the tile row a group's tail belongs to, or -1
    __shared__ int first_begin;               // where the tile's first row begins in A

    const std::int64_t t = blockIdx.x;
    const tile tl(M, t, A.nnz);
    {
        // All loads in flight before the first store.
        int ends[kPerThread], cols[kPerThread];
        bits vals[kPerThread];
#pragma unroll
        for (int k = 0; k < kPerThread; ++k) {
            const int q = k * kThreads + int(threadIdx.x);
            ends[k] = q < tl.rows ? min(max(A.row_end(tl.i0 + q) - tl.j0, 0), tl.nonzeros) : 0;
            cols[k] = q < tl.nonzeros ? A.column(tl.j0 + q) : 0;
            vals[k] = q < tl.nonzeros ? load_ro(reinterpret_cast<const bits*>(A.values) + tl.j0 + q)
                                      : bits(0);
        }
        if (threadIdx.x == 0) first_begin = tl.i0 < A.rows ? A.row_begin(tl.i0) : 0;
#pragma unroll
        for (int k = 0; k < kPerThread; ++k) {
            const int q = k * kThreads + int(threadIdx.x);
            if (q < tl.rows) index[q] = ends[k];
            if (q < tl.nonzeros) {
                index[tl.rows + q] = cols[k];
                value[q] = vals[k];
            }
        }
    }
    __syncthreads();

    // Group p's segment: local diagonals [a0, a1) of the tile; rows [qa, qb) of the tile
    // end inside it, it holds the tile's nonzeros [za, zb) and stops inside row qb.
    const int p = int(threadIdx.x) / G, lane = int(threadIdx.x) % G;
    const int segment = int(M.length / P);
    const int span = tl.rows + tl.nonzeros;
    const int a0 = min(p * segment, span), a1 = min(a0 + segment, span);
    const int qa = tile_search(index, tl.rows, tl.nonzeros, a0);
    const int qb = max(tile_search(index, tl.rows, tl.nonzeros, a1), qa);
    const int za = min(a0 - qa, tl.nonzeros), zb = max(min(a1 - qb, tl.nonzeros), za);
    // It holds nonzeros of the row it stops inside: a tail. The tile's first row may
    // begin before the tile (first_begin < j0); then its head goes to the head record.
    const int tail_begin = qb > 0 ? index[qb - 1] : za;
    const bool has_tail = tl.i0 + qb < A.rows && zb > max(za, tail_begin);
    const bool deferred = first_begin < tl.j0;
    const acc al = alpha.get(), be = beta.get();

    for (std::int64_t slab = blockIdx.y; slab < C.slabs; slab += gridDim.y) {
        const columns<G, NV, V> cols(slab, lane, C.cols);
        acc* const head = heads + int(threadIdx.x) * NV * V;
        acc* const mine = tails + int(threadIdx.x) * NV * V;
        acc sum[NV][V];
        clear(sum);
        // q: the tile row being summed, end_q its end.
        int q = qa;
        int end_q = q < qb ? index[q] : 0;
        for (int z = za; z < zb;) {
            const int count = min(U, zb - z);
            chunk_t ch;
            int kk[U];
#pragma unroll
            for (int u = 0; u < U; ++u) {
                kk[u] = 0;
                ch.a[u] = acc(0);
                if (u < count) {
                    kk[u] = index[tl.rows + z + u];
                    T x;
                    const bits b = value[z + u];
                    std::memcpy(&x, &b, sizeof(T));
                    ch.a[u] = element<T>::widen(x);
                }
            }
            ch.load_rows(B, kk, count, cols, C.cols);
#pragma unroll
            for (int u = 0; u < U; ++u) {
                if (u >= count) continue;
                // Finish every row (empty ones too) that ends before nonzero z + u.
                while (q < qb && end_q <= z + u) {
                    if (q == qa)
                        keep(head, sum);
                    else
                        store_row(C, tl.i0 + q, cols, sum, al, be);
                    clear(sum);
                    ++q;
                    end_q = q < qb ? index[q] : 0;
                }
                ch.accumulate(u, sum);
            }
            z += count;
        }
        // Rows ending at the segment's last nonzero, and empty rows after it.
        for (; q < qb; ++q) {
            if (q == qa)
                keep(head, sum);
            else
                store_row(C, tl.i0 + q, cols, sum, al, be);
            clear(sum);
        }
        if (has_tail) keep(mine, sum);
        if (lane == 0) tail_row[p] = has_tail ? qb : -1;
        __syncthreads();
        // The head: the tails of the groups before p that stopped inside row qa (a run
        // ending at p - 1), in group order, then p's own partial sum.
        if (qb > qa) {
            int first = p;
            while (first > 0 && tail_row[first - 1] == qa) --first;
            acc total[NV][V];
            sum_tails<acc, G, NV, V>(total, tails, first, p, lane, head);
            if (qa == 0 && deferred)
                write_record(head_record(records, t, C.cols), cols, total, C.cols);
            else
                store_row(C, tl.i0 + qa, cols, total, al, be);
        }
        // The tile's carry-out: the last groups' tails in the row the tile stops inside.
        if (p == P - 1 && has_tail) {
            int first = p;
            while (first > 0 && tail_row[first - 1] == qb) --first;
            acc total[NV][V];
            sum_tails<acc, G, NV, V>(total, tails, first, p + 1, lane, nullptr);
            write_record(tail_record(records, t, C.cols), cols, total, C.cols);
        }
        __syncthreads();  // the tails are the next slab's
    }
}

// The fix-up gives each tile a warp. Tile t writes the row it starts inside (limits[t])
// where that row ends in tile t and began in an earlier tile: its first nonzero, at
// path position row + row_begin, lies in tile first = (row + row_begin) / length, and
// every tile from first to t - 1 stopped inside the row holding nonzeros of it (so
// wrote its tail record). The row's total is those tails in tile order, then tile t's
// head record. A row with thousands of nonzeros spans many tiles, so a run longer than
// kShortRun is summed with the lanes over its tiles (lane l takes tiles first+l,
// first+l+32, ..., in order) and a fixed butterfly across the warp, kFixupColumns
// columns at a time; a short run with the lanes over the columns and the tiles in
// order. Either order is fixed by the segmentation alone: deterministic, no atomics.
// (kShortRun, kFixupColumns: rules.hpp.)

template <class A, class TC>
__device__ __forceinline__ void store_total(const dense_out<TC>& C, int row, std::int64_t col,
                                            A total, A al, A be) {
    const A sum[1] = {total};
    store_strided<TC, A, 1>(C, row, col, sum, al, be);
}

// One warp per tile: every branch below depends only on the tile, so the warp takes it
// as a whole and all its lanes reach the shuffles.
template <class A, class TC, class I>
__global__ void __launch_bounds__(kThreads)
    fixup_kernel(const I* row_ptr, int base, int rows, int nnz, merge_view M, const A* records,
                 dense_out<TC> C, scalar<A> alpha, scalar<A> beta) {
    const std::int64_t t = (std::int64_t(blockIdx.x) * kThreads + threadIdx.x) / 32;
    const int lane = int(threadIdx.x % 32);
    if (t < 1 || t >= M.count) return;
    const int row = load_ro(M.limits + t);
    if (row >= rows || load_ro(M.limits + t + 1) <= row) return;  // the row does not end here
    const int begin = bounded_offset(load_ro(row_ptr + row), base, nnz);
    const std::int64_t first = std::min((std::int64_t(row) + begin) / M.length, t);
    if (first >= t) return;  // it began in this tile, which wrote it
    const A* head = head_record(records, t, C.cols);
    const A al = alpha.get(), be = beta.get();
    if (t - first <= kShortRun) {
        for (std::int64_t col = lane; col < C.cols; col += 32) {
            A total = tail_record(records, first, C.cols)[col];
            for (std::int64_t q = first + 1; q < t; ++q) total += tail_record(records, q, C.cols)[col];
            store_total(C, row, col, total + head[col], al, be);
        }
        return;
    }
    for (std::int64_t cols = 0; cols < C.cols; cols += kFixupColumns) {
        A part[kFixupColumns];
#pragma unroll
        for (int c = 0; c < kFixupColumns; ++c) part[c] = A(0);
        for (std::int64_t q = first + lane; q < t; q += 32) {
            const A* record = tail_record(records, q, C.cols) + cols;
#pragma unroll
            for (int c = 0; c < kFixupColumns; ++c)
                if (cols + c < C.cols) part[c] += record[c];
        }
#pragma unroll
        for (int c = 0; c < kFixupColumns; ++c)
            for (int offset = 16; offset > 0; offset /= 2)
                part[c] += __shfl_xor_sync(0xffffffffu, part[c], offset);
        // After the butterfly every lane holds every total; lane c writes column cols+c.
#pragma unroll
        for (int c = 0; c < kFixupColumns; ++c)
            if (lane == c && cols + c < C.cols)
                store_total(C, row, cols + c, part[c] + head[cols + c], al, be);
    }
}

}  // namespace tcs::spmm::csr
