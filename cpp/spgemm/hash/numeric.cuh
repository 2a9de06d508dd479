// The numeric pass, run by tcsSpGEMM_copy straight into C's arrays: each row of C is
// accumulated in a hash table (group and block bins) or by column rank over a bitmap
// (wide rows), then written in column order as alpha*sum + beta*C_old (C_old is read
// only when beta != 0). Included by numeric_f32.cu and numeric_f64.cu, one value type
// each, so that the two compile in parallel.
//
// Summation order (what makes C bitwise reproducible): a group-bin row is summed in the
// order of A's row; block and wide rows in the fixed windowed order of
// ordered_commit.cuh, or, for small tables, in per-warp copies added up in warp order.
// None depends on timing, only on the patterns.
#pragma once

#include "core/grid.hpp"
#include "core/kernel_launch.hpp"
#include "spgemm/hash/column_bitmap.cuh"
#include "spgemm/hash/flat_walk.cuh"
#include "spgemm/hash/group_units.cuh"
#include "spgemm/hash/hash_table.cuh"
#include "spgemm/hash/launch.hpp"
#include "spgemm/hash/ordered_commit.cuh"

#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>

#include <algorithm>
#include <climits>

namespace tcs::spgemm::hash {
namespace numeric_detail {

// Bits for the keys 0..n-1 and one larger sentinel: n <= 2^bits - 1.
__host__ __device__ inline int column_bits(int n) {
    int bits = 1;
    while (bits < 31 && (1u << bits) - 1u < unsigned(n)) ++bits;
    return bits;
}

// One output entry: position pos of C's arrays holds column col (0-based) with the sum.
template <class V>
__device__ __forceinline__ void write_entry(const output<V>& c, offset_t pos, int col, V sum, V alpha,
                                            V beta) {
    V value = alpha * sum;
    if (beta != V(0)) value += beta * c.val[pos];
    c.ci.set(pos, col + c.base);
    c.val[pos] = value;
}

// Block 0 writes C's last row offset, nnz(C) + base, for the first launch of a copy.
template <class V>
__device__ __forceinline__ void write_last_offset(const index_out& last, offset_t nnz_c, const output<V>& c) {
    if (last && blockIdx.x == 0 && threadIdx.x == 0) last.set(0, nnz_c + c.base);
}

// ---- group bins ----

template <int G, int T, class V>
__device__ void multiply_group_rows(const operands& x, const operand_values<V>& v, const int* rows,
                                    int nrows, int* keys_block, V* vals_block, const offset_t* row_off,
                                    const output<V>& c, V alpha, V beta) {
    static_assert(kGroupThreads / G * T == kGroupSlots, "group tables fill the block's slots");
    constexpr int kGroupsPerWarp = 32 / G;
    const group_row<G> r(x, rows, nrows);
    const int gl = r.gl, in_warp = r.gi & (kGroupsPerWarp - 1);
    int* keys = keys_block + r.gi * T;
    V* vals = vals_block + r.gi * T;
    int t = r.t.x;
    const int t_end = r.t.y;
    for (int j = gl; j < T; j += G) {
        keys[j] = kEmpty;
        vals[j] = V(0);
    }
    __syncwarp();
    // Chunks of G products in the order of A's row; within a chunk commit_in_order keeps
    // lane order. Loops run while any group of the warp has work.
    for (; __any_sync(kFullMask, t < t_end); t = min(t + G, t_end)) {
        const batch<G, V> b = load_batch<G, true>(x, v.a, t, t_end, gl);
        for (int k = 0; __any_sync(kFullMask, k < b.total); k += G) {
            const product<V> pr = fetch<G, true>(x, v.b, b, k + gl);
            int slot = -1;
            if (pr.active) {
                bool inserted;
                slot = insert_key<T>(keys, pr.col, inserted);
            }
            commit_in_order<plain_access>(slot >= 0, in_warp * T + slot, pr.value, vals, slot);
            __syncwarp();
        }
    }
    // Column order: the group moves its row's keys to the front of its table, padded with
    // kEmpty to whole 16-byte words, and a key's rank is the number of smaller keys there
    // (kEmpty, as unsigned, is larger than every column). Ranking against the nnz keys
    // alone, four per load, instead of against all T slots one by one, is what keeps short
    // rows (uniform random, FEM) from being bound by shared-memory loads.
    constexpr int kPer = T / G;  // slots per lane
    int my_key[kPer];
    V my_val[kPer];
    int mine = 0;
#pragma unroll
    for (int i = 0; i < kPer; ++i) {
        my_key[i] = keys[gl + i * G];
        my_val[i] = vals[gl + i * G];
        mine += my_key[i] != kEmpty;
    }
    int incl = mine;
#pragma unroll
    for (int d = 1; d < G; d <<= 1) {
        const int y = __shfl_up_sync(kFullMask, incl, d, G);
        if (gl >= d) incl += y;
    }
    const int total = __shfl_sync(kFullMask, incl, G - 1, G);
    const int padded = (total + 3) & ~3;
    __syncwarp();  // every lane has read its slots
    int pos = incl - mine;
#pragma unroll
    for (int i = 0; i < kPer; ++i)
        if (my_key[i] != kEmpty) keys[pos++] = my_key[i];
    if (gl < padded - total) keys[total + gl] = kEmpty;
    __syncwarp();
    if (r.valid) {
        const offset_t off = row_off[r.row];
        const int nnz = int(row_off[r.row + 1] - off);
        const int4* packed = reinterpret_cast<const int4*>(keys);
        const int words = padded / 4;
        // The groups of a warp start at different words so that their broadcast reads
        // fall in different banks.
        const int rot = words > 0 ? in_warp % words : 0;
        int rank[kPer] = {};
        for (int q = 0; q < words; ++q) {
            int at = q + rot;
            if (at >= words) at -= words;
            const int4 w = packed[at];
#pragma unroll
            for (int i = 0; i < kPer; ++i) {
                const unsigned key = unsigned(my_key[i]);
                rank[i] += (unsigned(w.x) < key) + (unsigned(w.y) < key) + (unsigned(w.z) < key) +
                           (unsigned(w.w) < key);
            }
        }
#pragma unroll
        for (int i = 0; i < kPer; ++i)
            if (my_key[i] != kEmpty && rank[i] < nnz)
                write_entry(c, off + rank[i], my_key[i], my_val[i], alpha, beta);
        if (gl == 0) c.rp.set(r.row, off + c.base);
    }
    __syncwarp();  // the tables are refilled for the next rows
}

// All four group bins in one launch, like the symbolic pass.
template <class V>
__global__ void __launch_bounds__(kGroupThreads)
    multiply_groups_kernel(operands x, operand_values<V> v, const int* counts, const int* perm,
                           const offset_t* row_off, output<V> c, scalar<V> alpha, scalar<V> beta,
                           index_out last_offset, offset_t nnz_c) {
    __align__(16) __shared__ int keys[kGroupSlots];
    __shared__ V vals[kGroupSlots];
    write_last_offset(last_offset, nnz_c, c);
    const V al = alpha.get(), be = beta.get();
    for_each_group_unit(counts, perm, [&](auto g, const int* rows, int nrows) {
        constexpr int G = decltype(g)::value;
        multiply_group_rows<G, group_table(G)>(x, v, rows, nrows, keys, vals, row_off, c, al, be);
    });
}

// ---- block bins: one row per block at a time ----
//
// Dynamic shared memory (numeric_block_bytes): keys[T] and marks[T] (reused by the
// final ordering), then vals[T], or vals[warps][T] when each warp has its own copy.

template <int NT, int T>
using block_sort = cub::BlockRadixSort<unsigned, NT, T / NT, int>;

// Rows whose columns span at most this many columns are put in order by a bitmap over
// the span (the bits and each word's rank fill the keys' T words); wider ones by CUB's
// radix sort over the span's bits. The bitmap costs a few barriers and span/32 words
// per row, the sort one pass per 4 bits of span with several barriers each.
template <int T>
constexpr int bitmap_span() { return 16 * T; }

// Writes the row's entries (this thread's kItems slots, keys in key[]) at their ranks
// among the row's columns, from a bitmap over [first, first + span). smem: the keys'
// region, no longer read.
template <int NT, int T, int kItems, class V>
__device__ __forceinline__ void write_by_bitmap(unsigned char* smem, const int (&key)[kItems],
                                                const int (&slot)[kItems], const V* vals,
                                                int first, int span, offset_t off, int nnz,
                                                const output<V>& c, V al, V be) {
    __shared__ int s_warp_sums[NT / 32];
    unsigned* bits = reinterpret_cast<unsigned*>(smem);
    int* word_rank = reinterpret_cast<int*>(smem) + T / 2;
    const int tid = int(threadIdx.x), words = (span + 31) >> 5;
    for (int w = tid; w < words; w += NT) bits[w] = 0u;
    __syncthreads();
#pragma unroll
    for (int j = 0; j < kItems; ++j)
        if (key[j] != kEmpty) {
            const int rc = key[j] - first;
            atomicOr(bits + (rc >> 5), 1u << (rc & 31));
        }
    __syncthreads();
    // Each thread ranks a run of words: the scan over the block gives each run's start.
    const int per = (words + NT - 1) / NT;
    const int w0 = min(tid * per, words), w1 = min(w0 + per, words);
    int ones = 0;
    for (int w = w0; w < w1; ++w) ones += __popc(bits[w]);
    int total = 0;
    int rank = block_exclusive_sum<NT>(ones, s_warp_sums, total);
    for (int w = w0; w < w1; ++w) {
        word_rank[w] = rank;
        rank += __popc(bits[w]);
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < kItems; ++j)
        if (key[j] != kEmpty) {
            const int rc = key[j] - first, w = rc >> 5;
            const int r = word_rank[w] + __popc(bits[w] & ((1u << (rc & 31)) - 1u));
            if (r < nnz) write_entry(c, off + r, key[j], vals[slot[j]], al, be);
        }
}

template <int NT, int T, class V>
__global__ void __launch_bounds__(NT)
    multiply_block_kernel(operands x, operand_values<V> v, const int* perm, int count,
                          const offset_t* row_off, output<V> c, scalar<V> alpha, scalar<V> beta,
                          index_out last_offset, offset_t nnz_c) {
    constexpr int kItems = T / NT;
    constexpr bool kPrivate = private_sums(T, NT, sizeof(V));
    constexpr int kCopies = kPrivate ? NT / 32 : 1;
    using sort_t = block_sort<NT, T>;
    static_assert(T % NT == 0, "whole items per thread");
    static_assert(sizeof(typename sort_t::TempStorage) <= numeric_keys_region(T, NT),
                  "the sort fits where the keys and marks were");
    unsigned char* smem = dynamic_smem<unsigned char>();
    int* keys = reinterpret_cast<int*>(smem);
    mark_t<NT>* marks = reinterpret_cast<mark_t<NT>*>(smem + std::size_t(T) * 4);
    V* vals = reinterpret_cast<V*>(smem + numeric_keys_region(T, NT));
    __shared__ int s_rounds[2], s_lo, s_hi;
    write_last_offset(last_offset, nnz_c, c);
    const V al = alpha.get(), be = beta.get();
    if (threadIdx.x < 2) s_rounds[threadIdx.x] = 0;
    for (int i = blockIdx.x; i < count; i += gridDim.x) {
        const int row = perm[i];
        const int2 t = entries_of(x, row);
        const offset_t off = row_off[row];
        const int nnz = int(row_off[row + 1] - off);
        for (int j = threadIdx.x; j < T; j += NT) {
            keys[j] = kEmpty;
            marks[j] = 0;
        }
        for (int j = threadIdx.x; j < T * kCopies; j += NT) vals[j] = V(0);
        if (threadIdx.x == 0) {
            s_lo = INT_MAX;
            s_hi = -1;
        }
        __syncthreads();
        const auto slot_of = [&](int col) {
            bool inserted;
            return insert_key<T>(keys, col, inserted);
        };
        if constexpr (kPrivate)
            accumulate_private<NT, T>(x, v, t.x, t.y, slot_of, vals);
        else
            accumulate_ordered<NT, kChunksPerWindow, plain_access>(
                x, v, t.x, t.y, slot_of, shared_marks<mark_t<NT>>{marks}, vals, s_rounds);
        __syncthreads();
        int key[kItems], slot[kItems], lo = INT_MAX, hi = -1;
#pragma unroll
        for (int j = 0; j < kItems; ++j) {
            slot[j] = int(threadIdx.x) * kItems + j;
            key[j] = keys[slot[j]];
            if (key[j] != kEmpty) {
                lo = min(lo, key[j]);
                hi = max(hi, key[j]);
            }
        }
        lo = __reduce_min_sync(kFullMask, lo);
        hi = __reduce_max_sync(kFullMask, hi);
        if (lane_id() == 0 && hi >= 0) {
            atomicMin(&s_lo, lo);
            atomicMax(&s_hi, hi);
        }
        __syncthreads();  // s_lo, s_hi are known; the ordering reuses the keys' memory
        const int first = s_hi >= 0 ? s_lo : 0;
        const int span = s_hi >= 0 ? s_hi - s_lo + 1 : 1;
        if (span <= bitmap_span<T>()) {  // uniform: s_lo, s_hi are shared
            write_by_bitmap<NT, T>(smem, key, slot, vals, first, span, off, nnz, c, al, be);
        } else {
            // The sort runs on column - first over only the bits the span needs.
            const int bits = column_bits(span);
            const unsigned sentinel = (1u << bits) - 1u;  // above every relative column
            unsigned k[kItems];
#pragma unroll
            for (int j = 0; j < kItems; ++j)
                k[j] = key[j] == kEmpty ? sentinel : unsigned(key[j] - first);
            sort_t(*reinterpret_cast<typename sort_t::TempStorage*>(smem))
                .SortBlockedToStriped(k, slot, 0, bits);
#pragma unroll
            for (int j = 0; j < kItems; ++j) {
                const int rank = j * NT + int(threadIdx.x);
                if (rank < nnz && k[j] != sentinel)
                    write_entry(c, off + rank, int(k[j]) + first, vals[slot[j]], al, be);
            }
        }
        if (threadIdx.x == 0) c.rp.set(row, off + c.base);
        __syncthreads();  // the next row refills keys and vals
    }
}

// ---- the wide bin: column ranks from a bitmap over C's columns ----

template <class V>
__global__ void __launch_bounds__(kWideThreads)
    multiply_wide_kernel(operands x, operand_values<V> v, const int* perm, int count,
                         const offset_t* row_off, output<V> c, scalar<V> alpha, scalar<V> beta,
                         wide_scratch<V> ws, int words, index_out last_offset, offset_t nnz_c) {
    using scan_t = cub::BlockScan<int, kWideThreads>;
    __shared__ typename scan_t::TempStorage scan_storage;
    __shared__ int s_lo, s_hi, s_rounds[2];
    write_last_offset(last_offset, nnz_c, c);
    if (int(blockIdx.x) >= count) return;
    const V al = alpha.get(), be = beta.get();
    const int tid = int(threadIdx.x);
    unsigned* bits = ws.bits + std::size_t(blockIdx.x) * std::size_t(words);
    int* first = ws.first + std::size_t(blockIdx.x) * std::size_t(words);
    V* vals = ws.vals + std::size_t(blockIdx.x) * std::size_t(ws.max_nnz);
    unsigned* marks = ws.marks + std::size_t(blockIdx.x) * std::size_t(ws.max_nnz);
    for (int j = tid; j < words; j += kWideThreads) __stcg(bits + j, 0u);
    for (int j = tid; j < ws.max_nnz; j += kWideThreads) __stcg(marks + j, 0u);
    if (tid == 0) {
        s_lo = INT_MAX;
        s_hi = -1;
        s_rounds[0] = s_rounds[1] = 0;
    }
    __syncthreads();
    for (int i = blockIdx.x; i < count; i += gridDim.x) {
        const int row = perm[i];
        const int2 t = entries_of(x, row);
        const offset_t off = row_off[row];
        const int nnz = int(min(row_off[row + 1] - off, offset_t(ws.max_nnz)));
        // 1. The row's columns as bits, and their range.
        mark_columns<kWideThreads>(x, t, bits, &s_lo, &s_hi);
        for (int j = tid; j < nnz; j += kWideThreads) __stcg(vals + j, V(0));
        __syncthreads();
        // 2. first[w]: the rank of the first column in word w; each thread a run of words.
        const int w0 = s_hi >= 0 ? s_lo >> 5 : 0;
        const int span = s_hi >= 0 ? (s_hi >> 5) - w0 + 1 : 0;
        const int per = (span + kWideThreads - 1) / kWideThreads;
        const int my0 = w0 + min(tid * per, span), my1 = w0 + min(tid * per + per, span);
        int ones = 0;
        for (int w = my0; w < my1; ++w) ones += __popc(__ldcg(bits + w));
        int rank = 0;
        scan_t(scan_storage).ExclusiveSum(ones, rank);
        for (int w = my0; w < my1; ++w) {
            __stcg(first + w, rank);
            rank += __popc(__ldcg(bits + w));
        }
        __syncthreads();
        // 3. The values, accumulated at the columns' ranks.
        accumulate_ordered<kWideThreads, kChunksPerWindow, l2_access>(
            x, v, t.x, t.y,
            [&](int col) {
                const int w = col >> 5;
                const int r = __ldcg(first + w) + __popc(__ldcg(bits + w) & ((1u << (col & 31)) - 1u));
                return r < nnz ? r : -1;
            },
            global_marks{marks}, vals, s_rounds);
        __syncthreads();
        // 4. C's entries in column order; the bits are cleared for the next row.
        for (int w = my0; w < my1; ++w) {
            unsigned word = __ldcg(bits + w);
            int r = __ldcg(first + w);
            while (word != 0u) {
                const int bit = __ffs(word) - 1;
                word &= word - 1u;
                if (r < nnz) write_entry(c, off + r, w * 32 + bit, __ldcg(vals + r), al, be);
                ++r;
            }
            __stcg(bits + w, 0u);
        }
        if (tid == 0) {
            c.rp.set(row, off + c.base);
            s_lo = INT_MAX;
            s_hi = -1;
        }
        __syncthreads();
    }
}

template <int NT, int T, class V>
void launch_block(const operands& x, const numeric_job<V>& job, int offset, int count, index_out& last,
                  const launch_context& lc) {
    const std::size_t smem = numeric_block_bytes(T, NT, sizeof(V));
    allow_smem(multiply_block_kernel<NT, T, V>, smem);
    launch("hash SpGEMM: numeric block rows", multiply_block_kernel<NT, T, V>,
           grid_for(count, 1, device_cap(*lc.device, resident_blocks(multiply_block_kernel<NT, T, V>, NT, smem))), NT, smem, lc.stream, x, job.values,
           job.perm + offset, count, job.row_off, job.c, job.alpha, job.beta, last, offset_t(job.nnz_c));
    last = {};
}

}  // namespace numeric_detail

template <class V>
void numeric(const operands& x, const bin_plan& plan, const numeric_job<V>& job, const launch_context& lc) {
    using namespace numeric_detail;
    const device_info& d = *lc.device;
    index_out last = job.write_last ? job.c.rp.from(x.m) : index_out{};  // by the first launch
    int group_rows = 0;
    for (int b = 0; b < kGroupBins; ++b) group_rows += job.counts[b];
    if (group_rows > 0) {
        launch("hash SpGEMM: numeric group rows", multiply_groups_kernel<V>,
               grid_for(max_group_units(group_rows), 1, device_cap(d, kLoopBlocksPerSm)), kGroupThreads, 0, lc.stream, x, job.values,
               job.device_counts, job.perm, job.row_off, job.c, job.alpha, job.beta, last, offset_t(job.nnz_c));
        last = {};
    }
    int offset = group_rows;
    for (int bin = kGroupBins; bin < plan.count; ++bin) {
        const int count = job.counts[bin];
        const bin_info& b = plan.bins[bin];
        if (count > 0 && b.kind == bin_kind::wide) {
            const int words = wide_bitmap_words(x.n);
            launch("hash SpGEMM: numeric wide rows", multiply_wide_kernel<V>, job.wide.blocks,
                   kWideThreads, 0, lc.stream, x, job.values, job.perm + offset, count, job.row_off,
                   job.c, job.alpha, job.beta, job.wide, words, last, offset_t(job.nnz_c));
            last = {};
        } else if (count > 0) {
            switch (b.table) {
            case 256: launch_block<64, 256>(x, job, offset, count, last, lc); break;
            case 512: launch_block<128, 512>(x, job, offset, count, last, lc); break;
            case 1024: launch_block<128, 1024>(x, job, offset, count, last, lc); break;
            case 2048: launch_block<256, 2048>(x, job, offset, count, last, lc); break;
            case 4096: launch_block<256, 4096>(x, job, offset, count, last, lc); break;
            case 8192: launch_block<512, 8192>(x, job, offset, count, last, lc); break;
            case 16384: launch_block<1024, 16384>(x, job, offset, count, last, lc); break;
            default: fail(errc::internal_error, "hash SpGEMM: no numeric kernel for this table size");
            }
        }
        offset += count;
    }
}

}  // namespace tcs::spgemm::hash
