// The symbolic pass: the number of distinct columns of every row of C, counted in a
// hash set per row (group and block bins) or a bitmap over C's columns (wide rows).
// Each row's count also lands in the numeric histogram, nnz(C) and the longest row,
// which the plan reads back once at the end of workEstimation.
#include "core/error.hpp"
#include "core/grid.hpp"
#include "core/kernel_launch.hpp"
#include "spgemm/hash/column_bitmap.cuh"
#include "spgemm/hash/flat_walk.cuh"
#include "spgemm/hash/group_units.cuh"
#include "spgemm/hash/hash_table.cuh"
#include "spgemm/hash/launch.hpp"
#include "spgemm/hash/ordered_commit.cuh"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <type_traits>

namespace tcs::spgemm::hash {
namespace {

// A block's share of the numbers the plan reads back, flushed with one atomic each;
// and the running sum of the row a whole block counts.
struct row_tally {
    int hist[kMaxBins];
    unsigned long long nnz;
    int longest;
    int row_sum;

    __device__ void clear() {
        if (threadIdx.x < kMaxBins) hist[threadIdx.x] = 0;
        if (threadIdx.x == 0) {
            nnz = 0;
            longest = 0;
            row_sum = 0;
        }
    }
    __device__ void add(const bin_table& numeric, int row_nnz) {
        atomicAdd(&hist[numeric.find(row_nnz)], 1);
        atomicAdd(&nnz, (unsigned long long)row_nnz);
        atomicMax(&longest, row_nnz);
    }
    // A row counted by the whole block: every thread brings its share. The next row may
    // add to row_sum only after a barrier that follows this call.
    __device__ void finish_row(int share, int row, offset_t* row_nnz, const bin_table& numeric) {
        share = __reduce_add_sync(kFullMask, share);
        if (lane_id() == 0 && share != 0) atomicAdd(&row_sum, share);
        __syncthreads();
        if (threadIdx.x == 0) {
            row_nnz[row] = row_sum;
            add(numeric, row_sum);
            row_sum = 0;
        }
    }
    __device__ void flush(stats* st, int bins) const {
        if (int(threadIdx.x) < bins && hist[threadIdx.x] != 0)
            atomicAdd(&st->numeric_count[threadIdx.x], hist[threadIdx.x]);
        if (threadIdx.x == 0) {
            if (nnz != 0) atomicAdd(&st->nnz, nnz);
            atomicMax(&st->max_row_nnz, longest);
        }
    }
};

// Where a bin's rows start in perm: after the rows of the bins before it.
__device__ int bin_offset(const int* counts, int bin) {
    int off = 0;
    for (int b = 0; b < bin; ++b) off += counts[b];
    return off;
}

// ---- group bins: G lanes per row, many rows per block ----

template <int G, int T>
__device__ void count_group_rows(const operands& x, const int* rows, int nrows, int* keys_block,
                                 offset_t* row_nnz, row_tally& tally, const bin_table& numeric) {
    static_assert(kGroupThreads / G * T == kGroupSlots, "group tables fill the block's slots");
    const group_row<G> r(x, rows, nrows);
    const int gl = r.gl;
    int* keys = keys_block + r.gi * T;
    int t = r.t.x;
    const int t_end = r.t.y;
    for (int j = gl; j < T; j += G) keys[j] = kEmpty;
    __syncwarp();
    int count = 0;
    // Loops run while any group of the warp has work: the shuffles need every lane.
    for (; __any_sync(kFullMask, t < t_end); t = min(t + G, t_end)) {
        const batch<G, float> b = load_batch<G, false, float>(x, nullptr, t, t_end, gl);
        for (int c = 0; __any_sync(kFullMask, c < b.total); c += G) {
            const product<float> pr = fetch<G, false, float>(x, nullptr, b, c + gl);
            if (pr.active) {
                bool inserted;
                insert_key<T>(keys, pr.col, inserted);
                count += inserted;
            }
        }
    }
#pragma unroll
    for (int d = G / 2; d >= 1; d >>= 1) count += __shfl_xor_sync(kFullMask, count, d, G);
    if (r.valid && gl == 0) {
        row_nnz[r.row] = count;
        tally.add(numeric, count);
    }
    __syncwarp();  // the table is refilled for the next rows
}

// All four group bins in one launch.
__global__ void __launch_bounds__(kGroupThreads)
    symbolic_groups_kernel(operands x, bin_table numeric, stats* st, const int* perm, offset_t* row_nnz) {
    __shared__ int keys[kGroupSlots];
    __shared__ row_tally tally;
    if (st->row_overflow != 0) return;
    tally.clear();
    for_each_group_unit(st->symbolic_count, perm, [&](auto g, const int* rows, int nrows) {
        constexpr int G = decltype(g)::value;
        count_group_rows<G, group_table(G)>(x, rows, nrows, keys, row_nnz, tally, numeric);
    });
    __syncthreads();
    tally.flush(st, numeric.count);
}

// ---- block bins: one row per block at a time, a table of T keys ----

// The rows a block-bin kernel takes: list[offset(bin) + i] for i < counts[bin], where
// list and counts are perm and symbolic_count, or retry and retry_count.
struct bin_rows {
    const int* list;
    const int* counts;
};

template <int NT, int T>
__global__ void __launch_bounds__(NT)
    symbolic_block_kernel(operands x, bin_table numeric, stats* st, bin_rows rows, int bin,
                          offset_t* row_nnz) {
    int* keys = dynamic_smem<int>();  // T
    __shared__ row_tally tally;
    if (st->row_overflow != 0) return;
    const int count = rows.counts[bin];
    if (int(blockIdx.x) >= count) return;
    const int offset = bin_offset(st->symbolic_count, bin);
    tally.clear();
    for (int i = blockIdx.x; i < count; i += gridDim.x) {
        const int row = rows.list[offset + i];
        const int2 t = entries_of(x, row);
        for (int j = threadIdx.x; j < T; j += NT) keys[j] = kEmpty;
        __syncthreads();
        int fresh = 0;
        for_each_product<NT>(x, t.x, t.y, [&](int col) {
            bool inserted;
            insert_key<T>(keys, col, inserted);
            fresh += inserted;
            return false;
        });
        tally.finish_row(fresh, row, row_nnz, numeric);
    }
    __syncthreads();
    tally.flush(st, numeric.count);
}

// The first guess for the rows of bins [first, bins): a table of kGuessTable keys. A row
// stops as soon as it has more than half as many distinct columns and goes to retry.
__global__ void __launch_bounds__(kGuessThreads)
    symbolic_guess_kernel(operands x, bin_table numeric, stats* st, const int* perm, int first,
                          int bins, int* retry, offset_t* row_nnz) {
    constexpr int kCap = kGuessTable / 2;
    int* keys = dynamic_smem<int>();  // kGuessTable
    __shared__ row_tally tally;
    __shared__ int s_start[kMaxBins + 1];  // where each bin starts in perm
    if (st->row_overflow != 0) return;
    if (threadIdx.x == 0) {
        int off = 0;
        for (int b = 0; b < bins; ++b) {
            s_start[b] = off;
            off += st->symbolic_count[b];
        }
        s_start[bins] = off;
    }
    tally.clear();
    __syncthreads();
    const int total = s_start[bins] - s_start[first];
    for (int i = blockIdx.x; i < total; i += gridDim.x) {
        const int at = s_start[first] + i;
        const int row = perm[at];
        const int2 t = entries_of(x, row);
        for (int j = threadIdx.x; j < kGuessTable; j += kGuessThreads) keys[j] = kEmpty;
        __syncthreads();
        for_each_product<kGuessThreads>(x, t.x, t.y, [&](int col) {
            bool inserted;
            insert_key<kGuessTable>(keys, col, inserted);
            if (inserted) atomicAdd(&tally.row_sum, 1);
            return *static_cast<volatile int*>(&tally.row_sum) > kCap;
        });
        __syncthreads();
        if (threadIdx.x == 0) {
            const int n = tally.row_sum;
            if (n <= kCap) {
                row_nnz[row] = n;
                tally.add(numeric, n);
            } else {
                int b = first;
                while (at >= s_start[b + 1]) ++b;
                retry[s_start[b] + atomicAdd(&st->retry_count[b], 1)] = row;
            }
            tally.row_sum = 0;  // the next row adds only after its first barrier
        }
    }
    __syncthreads();
    tally.flush(st, numeric.count);
}

// ---- the wide bin: a bitmap over C's columns per block ----

template <bool kGlobal>
__global__ void __launch_bounds__(kWideThreads)
    symbolic_wide_kernel(operands x, bin_table numeric, stats* st, bin_rows rows, int bin,
                         offset_t* row_nnz, unsigned* global_bits, int words) {
    using access = std::conditional_t<kGlobal, l2_access, plain_access>;
    __shared__ row_tally tally;
    __shared__ int s_lo, s_hi;
    if (st->row_overflow != 0) return;
    const int count = rows.counts[bin];
    if (int(blockIdx.x) >= count) return;
    const int offset = bin_offset(st->symbolic_count, bin);
    unsigned* bits = kGlobal ? global_bits + std::size_t(blockIdx.x) * std::size_t(words)
                             : dynamic_smem<unsigned>();
    for (int j = threadIdx.x; j < words; j += kWideThreads) access::store(bits + j, 0u);
    tally.clear();
    if (threadIdx.x == 0) {
        s_lo = INT_MAX;
        s_hi = -1;
    }
    __syncthreads();
    for (int i = blockIdx.x; i < count; i += gridDim.x) {
        const int row = rows.list[offset + i];
        const int2 t = entries_of(x, row);
        mark_columns<kWideThreads>(x, t, bits, &s_lo, &s_hi);
        __syncthreads();
        // Count the set bits of the row's column range and clear them for the next row.
        int fresh = 0;
        if (s_hi >= 0) {
            for (int w = (s_lo >> 5) + int(threadIdx.x); w <= (s_hi >> 5); w += kWideThreads) {
                fresh += __popc(access::load(bits + w));
                access::store(bits + w, 0u);
            }
        }
        tally.finish_row(fresh, row, row_nnz, numeric);
        if (threadIdx.x == 0) {
            s_lo = INT_MAX;
            s_hi = -1;
        }
        __syncthreads();
    }
    tally.flush(st, numeric.count);
}

template <int NT, int T>
void launch_block(const operands& x, const bin_table& numeric, stats* st, bin_rows rows, int bin,
                  offset_t* row_nnz, const launch_context& lc) {
    const std::size_t smem = symbolic_block_bytes(T);
    allow_smem(symbolic_block_kernel<NT, T>, smem);
    launch("hash SpGEMM: symbolic block rows", symbolic_block_kernel<NT, T>,
           grid_for(x.m, 1, device_cap(*lc.device, resident_blocks(symbolic_block_kernel<NT, T>, NT, smem))), NT, smem, lc.stream, x, numeric, st, rows, bin,
           row_nnz);
}

}  // namespace

symbolic_reach symbolic_reach_of(const bin_plan& plan, int n, int nnz_b) {
    const int cap = std::min(n, nnz_b);
    symbolic_reach r;
    // The first bin whose lower bound is at least cap is the end.
    while (r.end < plan.count && plan.bins[r.end - 1].upper < cap) ++r.end;
    while (r.guessed < r.end && plan.bins[r.guessed].kind != bin_kind::wide &&
           plan.bins[r.guessed].table <= kGuessTable)
        ++r.guessed;
    return r;
}

bool wide_bitmap_fits_shared(int n, const device_info& d) {
    return std::size_t(wide_bitmap_words(n)) * 4 <= usable_smem(d);
}

// In 64 bits: n + 31 passes int for n within 31 of 2^31 (the words fit: at most 2^26).
int wide_bitmap_words(int n) { return int((std::int64_t(n) + 31) / 32); }

void symbolic(const operands& x, const bin_plan& plan, const bin_table& numeric, stats* st,
              const int* perm, int* retry, offset_t* row_nnz, const symbolic_scratch& wide,
              const launch_context& lc) {
    if (x.m == 0) return;
    const device_info& d = *lc.device;
    launch("hash SpGEMM: symbolic group rows", symbolic_groups_kernel, grid_for(max_group_units(x.m), 1, device_cap(d, kLoopBlocksPerSm)),
           kGroupThreads, 0, lc.stream, x, numeric, st, perm, row_nnz);
    const symbolic_reach reach = symbolic_reach_of(plan, x.n, x.nnz_b);
    const int end = reach.end, guessed = reach.guessed;
    if (reach.retries()) {
        const std::size_t smem = std::size_t(kGuessTable) * 4;
        launch("hash SpGEMM: symbolic first guess", symbolic_guess_kernel,
               grid_for(x.m, 1, device_cap(d, resident_blocks(symbolic_guess_kernel, kGuessThreads, smem))), kGuessThreads, smem, lc.stream, x,
               numeric, st, perm, guessed, plan.count, retry, row_nnz);
    }
    // Bin sizes are not known on the host yet: the grids can hold every row; blocks without
    // rows return at once.
    for (int bin = kGroupBins; bin < end; ++bin) {
        const bin_info& b = plan.bins[bin];
        const bin_rows rows = bin < guessed ? bin_rows{perm, &st->symbolic_count[0]}
                                            : bin_rows{retry, &st->retry_count[0]};
        if (b.kind == bin_kind::wide) {
            const int words = wide_bitmap_words(x.n);
            if (wide.bits == nullptr) {
                const std::size_t smem = std::size_t(words) * 4;
                allow_smem(symbolic_wide_kernel<false>, smem);
                launch("hash SpGEMM: symbolic wide rows", symbolic_wide_kernel<false>,
                       grid_for(x.m, 1, device_cap(d, resident_blocks(symbolic_wide_kernel<false>, kWideThreads, smem))), kWideThreads, smem, lc.stream, x,
                       numeric, st, rows, bin, row_nnz, static_cast<unsigned*>(nullptr), words);
            } else {
                launch("hash SpGEMM: symbolic wide rows", symbolic_wide_kernel<true>,
                       std::max(1, wide.blocks), kWideThreads, 0, lc.stream, x, numeric, st, rows,
                       bin, row_nnz, wide.bits, words);
            }
            continue;
        }
        switch (b.table) {
        case 512: launch_block<64, 512>(x, numeric, st, rows, bin, row_nnz, lc); break;
        case 2048: launch_block<128, 2048>(x, numeric, st, rows, bin, row_nnz, lc); break;
        case 8192: launch_block<256, 8192>(x, numeric, st, rows, bin, row_nnz, lc); break;
        case 32768: launch_block<512, 32768>(x, numeric, st, rows, bin, row_nnz, lc); break;
        default: fail(errc::internal_error, "hash SpGEMM: no symbolic kernel for this table size");
        }
    }
}

}  // namespace tcs::spgemm::hash
