// Products per row of C and the grouping of rows into bins: the first steps of
// workEstimation (by products, for the symbolic pass) and of compute (by nnz, for the
// numeric pass).
#include "core/error.hpp"
#include "core/grid.hpp"
#include "core/kernel_launch.hpp"
#include "spgemm/hash/flat_walk.cuh"
#include "spgemm/hash/launch.hpp"
#include "spgemm/hash/rules.hpp"

#include <algorithm>
#include <climits>

namespace tcs::spgemm::hash {
namespace {

// Rows of A are read by VW lanes each (VW chosen from A's mean row length), so that
// short rows do not leave most of a warp idle and long rows are split. The row loop is
// uniform within the warp (the shuffles need every lane).
template <int VW>
__global__ void __launch_bounds__(kBinningThreads)
    count_products_kernel(operands x, bin_table symbolic, stats* st, offset_t* row_prod) {
    __shared__ int s_hist[kMaxBins];
    __shared__ unsigned long long s_total;
    const int tid = int(threadIdx.x), lane = lane_id(), vl = lane & (VW - 1);
    if (tid < kMaxBins) s_hist[tid] = 0;
    if (tid == 0) s_total = 0;
    if (blockIdx.x == 0 && tid == 0) row_prod[x.m] = 0;
    __syncthreads();

    const int cap = min(x.n, x.nnz_b);  // a row's nnz is at most this
    constexpr int kRowsPerWarp = 32 / VW;
    const std::int64_t warps = std::int64_t(gridDim.x) * (kBinningThreads / 32);
    const std::int64_t warp = std::int64_t(blockIdx.x) * (kBinningThreads / 32) + tid / 32;
    for (std::int64_t r0 = warp * kRowsPerWarp; r0 < x.m; r0 += warps * kRowsPerWarp) {
        const std::int64_t r = r0 + lane / VW;
        long long sum = 0;
        if (r < x.m) {
            const int2 t = entries_of(x, int(r));
#pragma unroll 4
            for (int e = t.x + vl; e < t.y; e += VW) {
                const int2 b = b_row_of(x, e);
                sum += b.y - b.x;
            }
        }
#pragma unroll
        for (int d = VW / 2; d >= 1; d >>= 1) sum += __shfl_xor_sync(kFullMask, sum, d, VW);
        if (r < x.m && vl == 0) {
            row_prod[r] = sum;
            atomicAdd(&s_hist[symbolic.find(int(min(sum, (long long)cap)))], 1);
            atomicAdd(&s_total, (unsigned long long)sum);
            if (sum > kRowProductLimit) st->row_overflow = 1;
        }
    }
    __syncthreads();
    if (tid < symbolic.count && s_hist[tid] != 0) atomicAdd(&st->symbolic_count[tid], s_hist[tid]);
    if (tid == 0 && s_total != 0) atomicAdd(&st->products, s_total);
}

// The bin of a row for the symbolic pass: by its products, capped like in the count.
struct by_products {
    const offset_t* row_prod;
    int cap;
    bin_table bins;
    __device__ int operator()(int r) const { return bins.find(int(min(row_prod[r], (offset_t)cap))); }
};
// For the numeric pass: by the row's nnz.
struct by_nnz {
    const offset_t* row_off;
    bin_table bins;
    __device__ int operator()(int r) const { return bins.find(int(row_off[r + 1] - row_off[r])); }
};

// perm[offset(bin) + k] = the k-th row placed in its bin, offsets from the counts.
// Lanes of a warp with the same bin take their places with one atomic. The order inside
// a bin varies from run to run; results do not depend on it.
template <class BinOf>
__global__ void __launch_bounds__(kBinningThreads)
    scatter_rows_kernel(int m, BinOf bin_of, int bins, const stats* st, const int* counts,
                        int* cursors, int* perm) {
    __shared__ int s_offset[kMaxBins];
    if (st->row_overflow != 0) return;
    if (threadIdx.x == 0) {
        int sum = 0;
        for (int b = 0; b < bins; ++b) {
            s_offset[b] = sum;
            sum += counts[b];
        }
    }
    __syncthreads();
    const int lane = lane_id();
    const std::int64_t stride = std::int64_t(gridDim.x) * kBinningThreads;
    // r0 is uniform within the warp so that every lane takes part in the match.
    for (std::int64_t r0 = std::int64_t(blockIdx.x) * kBinningThreads + (threadIdx.x & ~31u); r0 < m;
         r0 += stride) {
        const int r = int(r0) + lane;
        const int bin = r < m ? bin_of(r) : -1;
        const unsigned peers = __match_any_sync(kFullMask, bin);
        const int leader = __ffs(peers) - 1;
        int base = 0;
        if (bin >= 0 && lane == leader) base = atomicAdd(&cursors[bin], __popc(peers));
        base = __shfl_sync(kFullMask, base, leader);
        if (bin >= 0) perm[s_offset[bin] + base + __popc(peers & ((1u << lane) - 1u))] = r;
    }
}

// Rows per (chunk, numeric bin): the lanes of a warp with the same (chunk, bin) add
// with one atomic, so that rows of one bin do not queue on one counter. It runs only
// under a memory budget.
__global__ void __launch_bounds__(kBinningThreads)
    chunk_bins_kernel(int m, int chunk_rows, bin_table numeric, const offset_t* row_off, int* counts) {
    const int lane = lane_id();
    const std::int64_t stride = std::int64_t(gridDim.x) * kBinningThreads;
    // r0 is uniform within the warp so that every lane takes part in the match.
    for (std::int64_t r0 = std::int64_t(blockIdx.x) * kBinningThreads + (threadIdx.x & ~31u); r0 < m;
         r0 += stride) {
        const std::int64_t r = r0 + lane;
        const int key =
            r < m ? int(r / chunk_rows) * kMaxBins + numeric.find(int(row_off[r + 1] - row_off[r])) : -1;
        const unsigned peers = __match_any_sync(kFullMask, key);
        if (key >= 0 && lane == __ffs(peers) - 1) atomicAdd(&counts[key], __popc(peers));
    }
}

}  // namespace

void count_products(const operands& x, const bin_table& symbolic, std::int64_t nnz_a, stats* st,
                    offset_t* row_prod, const launch_context& lc) {
    const std::int64_t mean = x.m > 0 ? (nnz_a + x.m - 1) / x.m : 0;
    int vw = 2;
    while (vw < 32 && vw < mean) vw *= 2;
    const int grid = grid_for(std::int64_t(x.m) * vw, kBinningThreads, device_cap(*lc.device, kLoopBlocksPerSm));
    auto kernel = vw == 2    ? count_products_kernel<2>
                  : vw == 4  ? count_products_kernel<4>
                  : vw == 8  ? count_products_kernel<8>
                  : vw == 16 ? count_products_kernel<16>
                             : count_products_kernel<32>;
    launch("hash SpGEMM: count products", kernel, grid, kBinningThreads, 0, lc.stream, x, symbolic, st, row_prod);
}

void bin_by_products(const operands& x, const bin_table& symbolic, stats* st, const offset_t* row_prod,
                     int* perm, const launch_context& lc) {
    const by_products bin_of{row_prod, std::min(x.n, x.nnz_b), symbolic};
    launch("hash SpGEMM: bin rows by products", scatter_rows_kernel<by_products>,
           grid_for(x.m, kBinningThreads, device_cap(*lc.device, kLoopBlocksPerSm)), kBinningThreads, 0, lc.stream, x.m, bin_of,
           symbolic.count, static_cast<const stats*>(st), &st->symbolic_count[0],
           &st->symbolic_cursor[0], perm);
}

void bin_by_nnz(const operands& x, const bin_table& numeric, const stats* st, const int* counts,
                const offset_t* row_off, int* cursors, int* perm, const launch_context& lc) {
    const by_nnz bin_of{row_off, numeric};
    launch("hash SpGEMM: bin rows by nnz", scatter_rows_kernel<by_nnz>,
           grid_for(x.m, kBinningThreads, device_cap(*lc.device, kLoopBlocksPerSm)), kBinningThreads, 0, lc.stream, x.m, bin_of, numeric.count,
           st, counts, cursors, perm);
}

void count_chunk_bins(int m, int chunk_rows, const bin_table& numeric, const offset_t* row_off,
                      int* counts, const launch_context& lc) {
    launch("hash SpGEMM: rows per chunk and numeric bin", chunk_bins_kernel,
           grid_for(m, kBinningThreads, device_cap(*lc.device, kLoopBlocksPerSm)), kBinningThreads, 0, lc.stream, m, chunk_rows, numeric,
           row_off, counts);
}

}  // namespace tcs::spgemm::hash
