// Row-split SpMM (merge-spmm's "row split", with lane groups sized to the problem):
// each row of op(A) belongs to one group of G column lanes times R nonzero lanes
// (geometry.hpp), and a block of kThreads lanes takes kThreads/(G*R) consecutive rows of
// one column slab. Nonzero lane q sums nonzeros q, q+R, q+2R, ... of the row for the
// columns its column lane owns, U at a time with all their loads of B in flight; a fixed
// butterfly of shuffles then adds the R partial sums and nonzero lane 0 writes C. Groups
// of kWarpLoadLanes lanes or more load the row's column indices and values together and
// pass them around by shuffles (sum_row_warp); narrower ones each lane for itself.
//
// Rows longer than the plan's threshold are left to the grid's first blocks (when the
// list of long rows exists, see long_rows_kernel): such a block gives one long row all
// of its kThreads lanes, long_lanes(G) column lanes times the rest as nonzero lanes,
// for a narrower slab of columns, and adds its warps' sums through shared memory; for
// groups of one or two column lanes on a device they do not leave underfilled, a warp
// takes each long row instead (S.warp_rows, geometry.hpp).
// A very long row is also cut into parts, a block each, whose partial sums the last of
// them adds. A row thousands of nonzeros long then costs a few load batches per lane,
// spread over many blocks, instead of one group's thousands.
//
// Deterministic: the split of a row over lanes and parts depends only on the geometry
// and the row's length, each lane sums in row order and the additions after that have
// a fixed order (parts: in part order, whichever block adds them). Every element of C
// is written by exactly one lane. Atomics only count: the listing of long rows (the
// order of a list changes no result) and the very long rows' tickets (which block adds
// the parts changes no result).
#pragma once

#include "spmm/csr/operands.cuh"
#include "spmm/csr/row_runs.cuh"

namespace tcs::spmm::csr {

// Adds every lane's sums into the lanes `first`, `first` * 2, ... apart (xor butterfly
// over the nonzero lanes of a group; afterwards every nonzero lane holds the totals).
template <int First, int Last, class A, int NV, int V>
__device__ __forceinline__ void add_across(A (&sum)[NV][V]) {
#pragma unroll
    for (int offset = First; offset < Last; offset *= 2)
#pragma unroll
        for (int v = 0; v < NV; ++v)
#pragma unroll
            for (int e = 0; e < V; ++e) sum[v][e] += __shfl_xor_sync(0xffffffffu, sum[v][e], offset);
}

// Nonzero lane `first` of `stride` sums its nonzeros of a row (offsets first,
// first + stride, ...) for its columns (sum must be clear). (Loading the next batch's
// column indices while the current batch's B is in flight needed 16 more registers,
// and the lower occupancy that took cost more than it saved. Measured:
// docs/algorithms/spmm-csr.md, "Row-split's blocks per SM".)
template <class T, int G, int NV, bool Vector, class I>
__device__ __forceinline__ void sum_row(const sparse_rows<T, I>& A, const dense_in<T>& B,
                                        std::int64_t n, int begin, unsigned length,
                                        unsigned first, unsigned stride,
                                        const columns<G, NV, vector_width<T>>& cols,
                                        acc_t<T> (&sum)[NV][vector_width<T>]) {
    using chunk_t = chunk<T, G, NV, Vector>;
    constexpr unsigned U = chunk_t::U;
    // Offsets within the row are unsigned: o + stride*U stays below 2^32 even for a row
    // of nearly 2^31 nonzeros.
    for (unsigned o = first; o < length; o += stride * U) {
        const int count = int(min(U, (length - o + stride - 1) / stride));
        chunk_t ch;
        ch.load(A, B, begin + int(o), int(stride), count, cols, n);
#pragma unroll
        for (int u = 0; u < int(U); ++u)
            if (u < count) ch.accumulate(u, sum);
    }
}

// Nonzeros each lane loads per batch of sum_row_warp: U / G, at least 1 and at most
// kWarpLoadsPerLane (rules.hpp: holding U / G of them in registers beside the chunk's U
// spilled for fp64 and G = 1 at 9 blocks per SM).
template <class T, int G, int NV, bool Vector>
inline constexpr int warp_loads =
    std::clamp(chunk<T, G, NV, Vector>::U / G, 1, kWarpLoadsPerLane);
template <class T, int G, int R, int NV, bool Vector>
inline constexpr int warp_batch = G * R * warp_loads<T, G, NV, Vector>;

// sum_row with the nonzeros loaded by the lanes together (warp loads). The W = G*R
// lanes of a row (a segment of the warp) load a batch of W*M of its nonzeros at once,
// M = warp_loads per lane, coalesced, and pass them around by shuffles: nonzero lane q
// takes nonzeros q, q + R, ... of the batch, up to U at a time with their loads of B in
// flight as in sum_row. This segment's batches are first, first + step, ... (first = 0
// and step = W*M: all of them). Each lane sums its nonzeros in row order:
// deterministic.
//
// Why: sum_row's lanes each load every column index and value they use, two load
// instructions per nonzero besides the NV loads of B; here two per W*M nonzeros. The
// kernels were issue-bound on the load-store pipe (measured:
// docs/algorithms/spmm-csr.md, "Warp loads: kWarpLoadLanes").
//
// Every lane of the warp must call it (the shuffles), with first, step and length the
// same on the lanes of a segment; segments of fewer than 32 lanes all run as long as
// the warp's longest row.
template <class T, int G, int R, int NV, bool Vector, class I>
__device__ __forceinline__ void sum_row_warp(const sparse_rows<T, I>& A, const dense_in<T>& B,
                                             std::int64_t n, int begin, unsigned length,
                                             unsigned q, const columns<G, NV, vector_width<T>>& cols,
                                             acc_t<T> (&sum)[NV][vector_width<T>],
                                             unsigned first = 0, unsigned step = 0) {
    using chunk_t = chunk<T, G, NV, Vector>;
    using acc = acc_t<T>;
    constexpr int W = G * R, M = warp_loads<T, G, NV, Vector>, batch = W * M;
    constexpr int per = batch / R;  // nonzeros of a batch per nonzero lane: G*M
    constexpr int U = chunk_t::U < per ? chunk_t::U : per;  // of them per chunk
    static_assert(W <= 32 && 32 % W == 0 && per % U == 0, "segments within a warp");
    if (step == 0) step = batch;
    const unsigned lane = threadIdx.x % W;
    unsigned longest = length;
    if constexpr (W < 32) longest = __reduce_max_sync(0xffffffffu, length);
    for (unsigned o = first; o < longest; o += step) {
        const unsigned cnt = o < length ? min(unsigned(batch), length - o) : 0u;
        int kk_mine[M];
        acc a_mine[M];
#pragma unroll
        for (int m = 0; m < M; ++m) {
            kk_mine[m] = 0;
            a_mine[m] = acc(0);
            if (lane + W * m < cnt) {
                const int j = begin + int(o + lane + W * m);
                kk_mine[m] = A.column(j);
                a_mine[m] = element<T>::widen(load_ro(A.values + j));
            }
        }
        const int mine = cnt > q ? int((cnt - q + R - 1) / R) : 0;  // this lane's nonzeros
        const int most = int(min(unsigned(batch), longest - o));    // the segments' most
#pragma unroll 1
        for (int u0 = 0; u0 < per; u0 += U) {
            if (u0 * R >= most) break;  // the same on every lane of the warp
            chunk_t ch;
            int kk[chunk_t::U];
            const int count = min(U, mine - u0);
#pragma unroll
            for (int u = 0; u < chunk_t::U; ++u) {
                kk[u] = 0;
                ch.a[u] = acc(0);
                if (u >= U) continue;
                // Nonzero q + R*(u0 + u) of the batch: lane (that) % W holds it, as its
                // m-th, m = (that) / W = R*(u0 + u) / W (R divides W, q < R), a constant:
                // u0 is 0 when M > 1 (then per == U).
                const int src = int(q) + R * (u0 + u);
                const int m = M > 1 ? (R * u) / W : 0;
                const int k = __shfl_sync(0xffffffffu, kk_mine[m], src, W);
                const acc a = __shfl_sync(0xffffffffu, a_mine[m], src, W);
                if (u < count) {
                    kk[u] = k;
                    ch.a[u] = a;
                }
            }
            ch.load_rows(B, kk, count, cols, n);
#pragma unroll
            for (int u = 0; u < U; ++u)
                if (u < count) ch.accumulate(u, sum);
        }
    }
}

// A long row's nonzeros (or a part's) over a whole block: each warp's G column lanes
// times 32/G nonzero lanes take every kWarps-th batch of warp loads (sum_row_warp), or,
// when Lean, its kThreads/G nonzero lanes load their own nonzeros (sum_row): with one
// column lane, the warp loads' registers spilled in the kernels compiled for 9 blocks
// per SM (kPartsFilled).
template <class T, int G, bool Vector, bool Lean, class I>
__device__ __forceinline__ void sum_long_row(const sparse_rows<T, I>& A, const dense_in<T>& B,
                                             std::int64_t n, int begin, unsigned length,
                                             const columns<G, 1, vector_width<T>>& cols,
                                             acc_t<T> (&sum)[1][vector_width<T>]) {
    constexpr int R = 32 / G, kWarps = kThreads / 32;
    if constexpr (Lean && G == 1) {
        sum_row<T, G, 1, Vector>(A, B, n, begin, length, threadIdx.x / G, kThreads / G, cols, sum);
    } else {
        constexpr unsigned batch = warp_batch<T, G, R, 1, Vector>;
        sum_row_warp<T, G, R, 1, Vector>(A, B, n, begin, length, (threadIdx.x % 32) / G, cols,
                                         sum, batch * (threadIdx.x / 32), batch * kWarps);
    }
}

// Adds a long row's partial sums across the block's warps, through shared memory:
// afterwards threads 0..G-1 hold the row's sums for their column lane.
template <class A, int G, int V>
__device__ __forceinline__ void add_warps(A (&sum)[1][V]) {
    constexpr int kWarps = kThreads / 32;
    __shared__ A part[kWarps][G][V];
    add_across<G, 32>(sum);
    if (threadIdx.x % 32 < G)
#pragma unroll
        for (int e = 0; e < V; ++e) part[threadIdx.x / 32][threadIdx.x % G][e] = sum[0][e];
    __syncthreads();
    if (threadIdx.x < G) {
#pragma unroll
        for (int e = 0; e < V; ++e) {
            sum[0][e] = part[0][threadIdx.x][e];
#pragma unroll
            for (int w = 1; w < kWarps; ++w) sum[0][e] += part[w][threadIdx.x][e];
        }
    }
    __syncthreads();  // part is rewritten by the next task
}

// Task `t` of a tier of long rows in one part: row list[t % listed], column slab
// t / listed, with G column lanes and kThreads / G nonzero lanes. Slab-major, as the
// groups' blocks go: the listed rows read B's slabs in the same order as the rest, one
// slab's rows of B in L2 at a time. Measured:
// docs/algorithms/spmm-csr.md, "Long rows: slab-major tasks and the lists".
template <class T, class TC, int G, bool Vector, bool Lean, class I>
__device__ __forceinline__ void long_row_task(const sparse_rows<T, I>& A, const dense_in<T>& B,
                                              const dense_out<TC>& C, acc_t<T> al, acc_t<T> be,
                                              const split_view& S, int tier, std::int64_t t,
                                              std::int64_t listed) {
    using acc = acc_t<T>;
    constexpr int V = vector_width<T>;
    const std::int64_t entry = t % listed, slab = t / listed;
    const int row = load_ro(S.lists[tier] + entry);
    const columns<G, 1, V> cols(slab, int(threadIdx.x % G), C.cols);
    const int begin = A.row_begin(row);
    const unsigned length = A.row_length(row, begin);
    acc sum[1][V];
    clear(sum);
    sum_long_row<T, G, Vector, Lean>(A, B, C.cols, begin, length, cols, sum);
    add_warps<acc, G, V>(sum);
    if (threadIdx.x < G) store_row(C, row, cols, sum, al, be);
}

// Task `t` of tier 0 over one warp: row list[t % listed], column slab t / listed, with G
// column lanes and 32 / G nonzero lanes (a butterfly adds their sums).
template <class T, class TC, int G, bool Vector, bool Lean, class I>
__device__ __forceinline__ void warp_row_task(const sparse_rows<T, I>& A, const dense_in<T>& B,
                                              const dense_out<TC>& C, acc_t<T> al, acc_t<T> be,
                                              const split_view& S, std::int64_t t,
                                              std::int64_t listed) {
    using acc = acc_t<T>;
    constexpr int V = vector_width<T>, R = 32 / G;
    const std::int64_t entry = t % listed, slab = t / listed;
    const int row = load_ro(S.lists[0] + entry);
    const unsigned lane = threadIdx.x % 32;
    const columns<G, 1, V> cols(slab, int(lane % G), C.cols);
    const int begin = A.row_begin(row);
    const unsigned length = A.row_length(row, begin);
    acc sum[1][V];
    clear(sum);
    if constexpr (Lean && G == 1)
        sum_row<T, G, 1, Vector>(A, B, C.cols, begin, length, lane, 32, cols, sum);
    else
        sum_row_warp<T, G, R, 1, Vector>(A, B, C.cols, begin, length, lane / G, cols, sum);
    add_across<G, 32>(sum);
    if (lane < G) store_row(C, row, cols, sum, al, be);
}

// Task `t` of the very long rows (tier 1) when they are cut into parts (S.parts > 1):
// part q of row list[e]'s nonzeros, column slab l, with t = (e * slabs + l) * parts + q.
// Each part leaves its partial sums in the buffer; the block that takes the (row,
// slab)'s last ticket adds them in part order (the same order whichever block comes
// last) and stores the row.
template <class T, class TC, int G, bool Vector, bool Lean, class I>
__device__ __forceinline__ void part_task(const sparse_rows<T, I>& A, const dense_in<T>& B,
                                          const dense_out<TC>& C, acc_t<T> al, acc_t<T> be,
                                          const split_view& S, std::int64_t t) {
    using acc = acc_t<T>;
    constexpr int V = vector_width<T>, W = G * V;
    __shared__ bool last;
    {
        const std::int64_t task = t / S.parts;  // (entry, slab)
        const unsigned piece = unsigned(t - task * S.parts);
        const int row = load_ro(S.lists[1] + task / S.slabs[1]);
        const columns<G, 1, V> cols(task % S.slabs[1], int(threadIdx.x % G), C.cols);
        const int begin = A.row_begin(row);
        const unsigned length = A.row_length(row, begin);
        const unsigned size = (length + unsigned(S.parts) - 1) / unsigned(S.parts);
        const unsigned lo = min(length, piece * size), hi = min(length, lo + size);
        acc sum[1][V];
        clear(sum);
        sum_long_row<T, G, Vector, Lean>(A, B, C.cols, begin + int(lo), hi - lo, cols, sum);
        add_warps<acc, G, V>(sum);
        if (threadIdx.x < G) {
            acc* mine = static_cast<acc*>(S.partials) + t * W + threadIdx.x * V;
#pragma unroll
            for (int e = 0; e < V; ++e) mine[e] = sum[0][e];
            __threadfence();  // the partial sums before the ticket, device-wide
        }
    }
    __syncthreads();
    const std::int64_t task = t / S.parts;
    if (threadIdx.x == 0) last = atomicAdd(S.tickets + task, 1) == S.parts - 1;
    __syncthreads();
    if (last && threadIdx.x < G) {
        __threadfence();
        const int row = load_ro(S.lists[1] + task / S.slabs[1]);
        const columns<G, 1, V> cols(task % S.slabs[1], int(threadIdx.x), C.cols);
        const acc* parts = static_cast<const acc*>(S.partials) + task * S.parts * W + threadIdx.x * V;
        acc sum[1][V];
        clear(sum);
        // From L2 (__ldcg): the other parts' sums were written by other SMs.
        for (int q = 0; q < S.parts; ++q)
#pragma unroll
            for (int e = 0; e < V; ++e) sum[0][e] += __ldcg(parts + q * W + e);
        store_row(C, row, cols, sum, al, be);
        if (threadIdx.x == 0) S.tickets[task] = 0;  // ready for the next run
    }
    __syncthreads();  // last is rewritten by the next task
}

// The listed rows' tasks, very long rows first (the longest chains start earliest).
// Parts: the very long rows are cut into parts (S.parts > 1). With S.warp_rows the
// long rows' (tier 0) tasks go a warp each: only compiled for groups of up to
// kWarpRowsMaxLanes column lanes, since the warp tasks' registers would spill in the
// two-vector kernels (-Xptxas -v).
template <class T, class TC, int G, bool Vector, int Parts, class I>
__device__ __forceinline__ void long_rows_block(const sparse_rows<T, I>& A, const dense_in<T>& B,
                                                const dense_out<TC>& C, acc_t<T> al,
                                                acc_t<T> be, const split_view& S) {
    std::int64_t tasks[2], listed[2];
#pragma unroll
    for (int tier = 0; tier < 2; ++tier) {
        listed[tier] = S.capacity[tier] == 0
                           ? 0
                           : min(std::int64_t(load_ro(S.counts + tier)), S.capacity[tier]);
        tasks[tier] = listed[tier] * S.slabs[tier] * (tier == 1 && Parts != kWhole ? S.parts : 1);
    }
    constexpr bool lean = Parts == kPartsFilled;
    bool warps = false;  // tier 0 a warp per task, after the block loop
    if constexpr (G <= kWarpRowsMaxLanes) warps = S.warp_rows;
    const std::int64_t block_tasks = warps ? tasks[1] : tasks[0] + tasks[1];
    for (std::int64_t t = blockIdx.x; t < block_tasks; t += S.long_blocks) {
        if (t >= tasks[1])
            long_row_task<T, TC, long_lanes(G), Vector, lean>(A, B, C, al, be, S, 0,
                                                              t - tasks[1], listed[0]);
        else if constexpr (Parts != kWhole)
            part_task<T, TC, very_long_lanes(G), Vector, lean>(A, B, C, al, be, S, t);
        else
            long_row_task<T, TC, very_long_lanes(G), Vector, lean>(A, B, C, al, be, S, 1, t,
                                                                   listed[1]);
    }
    if constexpr (G <= kWarpRowsMaxLanes) {
        if (!warps) return;
        constexpr int kWarps = kThreads / 32;
        for (std::int64_t t = std::int64_t(blockIdx.x) * kWarps + threadIdx.x / 32; t < tasks[0];
             t += S.long_blocks * kWarps)
            warp_row_task<T, TC, long_lanes(G), Vector, lean>(A, B, C, al, be, S, t, listed[0]);
    }
}

// Parts (kWhole, kParts, kPartsFilled, see geometry.hpp): separate kernels for very
// long rows cut into parts, only where the plan cuts them (small n), because the part
// tasks' registers changed how ptxas allocated the groups' loop: compiled into every
// kernel, they slowed large n (docs/algorithms/spmm-csr.md, "Row-split's blocks per SM").
//
// Z > 1: each segment of G column lanes (R = 1) takes a window of Z rows and shares the
// loads of B among the runs of rows with one pattern there (row_runs.cuh).
template <class T, class TC, int G, int R, int NV, bool Vector, int Parts, int Z, class I>
__global__ void __launch_bounds__(kThreads, row_split_kernel_blocks(sizeof(T), Vector, NV, Parts, Z))
    row_split_kernel(sparse_rows<T, I> A, dense_in<T> B, dense_out<TC> C, scalar<acc_t<T>> alpha,
                     scalar<acc_t<T>> beta, split_view S) {
    static_assert(G * R <= 32 && kThreads % (G * R) == 0, "a row's lanes lie in one warp");
    using acc = acc_t<T>;
    constexpr int V = vector_width<T>, W = G * R;
    const acc al = alpha.get(), be = beta.get();
    if (blockIdx.x < S.long_blocks) {  // the whole block takes this branch
        long_rows_block<T, TC, G, Vector, Parts>(A, B, C, al, be, S);
        return;
    }
    const int lane = int(threadIdx.x % G);
    const unsigned q = (threadIdx.x % W) / G;
    const std::int64_t items = S.row_blocks * C.slabs;
    const std::int64_t step = std::int64_t(gridDim.x) - S.long_blocks;
    // Slab-major: all rows of a slab before the next, so that the slab's columns of B
    // stay in L2 while the rows that need them run.
    for (std::int64_t b = blockIdx.x - S.long_blocks; b < items; b += step) {
        const std::int64_t slab = b / S.row_blocks;
        const std::int64_t row = (b - slab * S.row_blocks) * (kThreads / W) + threadIdx.x / W;
        if constexpr (Z > 1) {
            static_assert(R == 1 && G >= kRunMinLanes, "runs: the busy geometry's segments");
            const columns<G, NV, V> cols(slab, lane, C.cols);
            window_task<T, TC, G, NV, Vector, Z, run_unroll(NV, Vector)>(
                A, B, C, al, be, S.threshold, row * Z, cols);
            continue;
        }
        const group_row r = group_row_of(A, row, S.threshold);
        const columns<G, NV, V> cols(slab, lane, C.cols);
        acc sum[NV][V];
        clear(sum);
        if constexpr (W >= kWarpLoadLanes)
            sum_row_warp<T, G, R, NV, Vector>(A, B, C.cols, r.begin, r.length, q, cols, sum);
        else
            sum_row<T, G, NV, Vector>(A, B, C.cols, r.begin, r.length, q, R, cols, sum);
        if constexpr (R > 1) add_across<G, W>(sum);
        if (r.mine && q == 0) store_row(C, row, cols, sum, al, be);
    }
}

// Lists the rows of more than S.threshold nonzeros: in tier 1 above S.very_threshold,
// else in tier 0 (counts must be 0 before; each list has room for every row it can get
// by construction, see plan_long_rows). A warp takes one atomic per tier for all its
// listed rows: with one per row, the thousands of long rows of a power-law graph queued
// on the two counters (measured:
// docs/algorithms/spmm-csr.md, "Long rows: slab-major tasks and the lists").
// The order of the lists varies from run to run; no result depends on it. A template on
// the offsets' width I.
template <class I>
__global__ void long_rows_kernel(const I* row_ptr, int base, int rows, int nnz, split_view S,
                                 int* counts) {
    const std::int64_t r = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    int length = 0;
    if (r < rows) {  // bounded like sparse_rows
        const int begin = bounded_offset(load_ro(row_ptr + r), base, nnz);
        length = max(bounded_offset(load_ro(row_ptr + r + 1), base, nnz) - begin, 0);
    }
    const unsigned lane = threadIdx.x % 32;
#pragma unroll
    for (int tier = 0; tier < 2; ++tier) {
        const bool mine =
            length > S.threshold && (length > S.very_threshold) == (tier == 1);
        const unsigned listed = __ballot_sync(0xffffffffu, mine);
        if (listed == 0) continue;
        const int leader = __ffs(listed) - 1;
        int first = 0;
        if (int(lane) == leader) first = atomicAdd(counts + tier, __popc(listed));
        first = __shfl_sync(0xffffffffu, first, leader);
        // The lists hold every long row valid offsets allow; corrupt ones (overlapping
        // rows) may claim more, which are dropped rather than written past the list.
        const std::int64_t at = first + __popc(listed & ((1u << lane) - 1u));
        if (mine && at < S.capacity[tier]) const_cast<int*>(S.lists[tier])[at] = int(r);
    }
}

}  // namespace tcs::spmm::csr
