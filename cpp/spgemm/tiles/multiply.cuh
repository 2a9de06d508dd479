// The multiplication of the tile SpGEMM (copy): one warp per segment of a panel of C
// merges the segment's pairs (panel_merge.cuh), multiplies each tile of C's pairs with
// a policy (policies.cuh) and writes the tile's entries straight into C's CSR arrays:
// the entry (r, c) of tile column J goes to
//   C's row offset of r + the row's entries in earlier tiles of the panel
//                       + the row's entries of this tile left of c,
// so C's columns come out sorted, with no second copy of C anywhere. Instantiated per
// value type in multiply_f64.cu, multiply_f32.cu and multiply_16bit.cu.
#pragma once

#include "core/grid.hpp"
#include "core/index_array.cuh"
#include "core/kernel_launch.hpp"
#include "spgemm/tiles/policies.cuh"
#include "spgemm/tiles/launch.hpp"
#include "spgemm/tiles/panel_merge.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace tcs::spgemm::tiles {

constexpr int kMultiplyWarps = kMultiplyThreads / 32;

// C's arrays as the kernel writes them (32- or 64-bit index arrays).
template <class T>
struct c_arrays {
    index_out rp;
    index_out ci;
    T* val;
    int base;
};

// Panels of kind 1 (at most 32 A tiles, lane i holding tile i) under a policy with
// kPanelTable keep what depends on their A tiles alone in the warp's slice of dynamic
// shared memory, written once before the merge (the A tiles stay for the whole panel,
// and each meets many B tiles). A slice holds `tiles` A tiles: the launch's largest
// kind-1 panel, so that a matrix of narrow panels leaves the SM its L1 cache.
//   entries[i * 32 + l]  lane l's fragment positions in A tile i (Policy::table_entry),
//                        read for a pair instead of ranking the A tile's bits;
//   masks[h * tiles + i] A tile i's column byte masks (column_masks), from which its
//                        owner lane forms a pair's pattern product with only B's half
//                        left to do.
constexpr int kTableTiles = 32;

// Four words of column masks, read in one 16-byte load.
struct alignas(16) mask_quad {
    std::uint32_t k[4];
};

struct panel_table {
    std::uint16_t* entries;
    mask_quad* masks;
    int tiles;

    // A warp's slice for panels of at most `tiles` A tiles, in bytes (a multiple of 16).
    static __host__ __device__ std::size_t bytes(int tiles) {
        return std::size_t(tiles) * (32 * sizeof(std::uint16_t) + 4 * sizeof(mask_quad));
    }
    // Warp w's slice of the block's shared memory.
    static __device__ panel_table of_warp(unsigned char* smem, int w, int tiles) {
        unsigned char* slice = smem + std::size_t(w) * bytes(tiles);
        // The masks after the entries: 64 bytes a tile, so they stay 16-byte aligned.
        return {reinterpret_cast<std::uint16_t*>(slice),
                reinterpret_cast<mask_quad*>(slice + std::size_t(tiles) * 32 * sizeof(std::uint16_t)), tiles};
    }
};

// Quad h of A tile a's column masks (formats::column_mask): half h / 2, columns
// 4 * (h % 2) .. + 3.
__device__ __forceinline__ mask_quad column_masks(std::uint64_t a, int h) {
    const int half = h / 2, k = 4 * (h % 2);
    return {{formats::column_mask(a, half, k), formats::column_mask(a, half, k + 1),
             formats::column_mask(a, half, k + 2), formats::column_mask(a, half, k + 3)}};
}
// formats::pattern_product(a, b) from a's column masks m[0..3] (the same OR of the same
// terms).
__device__ __forceinline__ std::uint64_t pattern_product(const mask_quad (&m)[4], std::uint64_t b) {
    return formats::pattern_product_of([&m](int half, int k) { return m[2 * half + k / 4].k[k % 4]; }, b);
}

// v itself, by an identity shuffle: a value the compiler cannot form again, so that it
// keeps it in a register. (Shuffled with the lane mixed in: the compiler sees through
// the shuffle of a value it knows is the same in every lane.)
__device__ __forceinline__ unsigned pinned(unsigned v) {
    const unsigned l = unsigned(lane());
    return __shfl_sync(kFull, v ^ l, int(l)) ^ l;
}
template <class T>
__device__ __forceinline__ const T* pinned(const T* p) {
    const auto v = reinterpret_cast<std::uintptr_t>(p);
    const unsigned lo = pinned(unsigned(v)), hi = pinned(unsigned(std::uint64_t(v) >> 32));
    return reinterpret_cast<const T*>(std::uintptr_t(std::uint64_t(lo) | (std::uint64_t(hi) << 32)));
}

template <class T, class S, class Policy, bool Table>
struct multiplying {
    using Acc = typename Policy::accumulator;
    Policy e;
    c_arrays<T> c;
    Acc alpha, beta;
    int row_pos;  // where the next entry of this lane's row of C goes
    std::uint64_t c_bits = 0;
    panel_table table{};                 // Table: this warp's
    const T* a_panel = nullptr;          // Table: the panel's first value of A
    const T* b_values = nullptr;         // Table: B's values
    std::uint32_t entries_address = 0;   // Table: shared-memory address of table.entries[lane()]

    __device__ void begin(int) {
        c_bits = 0;
        e.clear();
    }
    __device__ void pair(bool hit, const cursor& k) {
        std::uint64_t product = 0;
        if constexpr (Table) {
            if (hit) {  // only a lane that holds a tile reads its masks (lane < table.tiles)
                const mask_quad* q = table.masks + lane();
                const mask_quad m[4] = {q[0], q[table.tiles], q[2 * table.tiles], q[3 * table.tiles]};
                product = pattern_product(m, k.b.bits);
            }
        } else {
            if (hit) product = formats::pattern_product(k.a.bits, k.b.bits);
        }
        c_bits |= product;
        // The pairs whose patterns meet, in increasing A tile, from the lanes that hold
        // them; two at a time, so that the gathers of both are in flight together.
        unsigned live = __ballot_sync(kFull, product != 0);
        if constexpr (Table) {
            // Lane src holds A tile src of the panel (kind 1: one cursor per lane).
            const shared_b_tile mine{k.b.bits, k.b.offset, int(pinned(k.b.offset + __popc(unsigned(k.b.bits))))};
            while (live != 0) {
                const int src = __ffs(int(live)) - 1;
                live &= live - 1;
                const unsigned a = entry(src);
                const shared_b_tile b = from_lane(mine, src);
                if (live == 0) {
                    e.pair(a, a_panel, b_values, b);
                    break;
                }
                const int src2 = __ffs(int(live)) - 1;
                live &= live - 1;
                e.pair2(a, a_panel, b_values, b, entry(src2), from_lane(mine, src2));
            }
        } else {
            multiply_pairs(live, k);
        }
    }
    // The pairs of `live` (the general path).
    __device__ void multiply_pairs(unsigned live, const cursor& k) {
        while (live != 0) {
            const int src = __ffs(int(live)) - 1;
            live &= live - 1;
            const bitmap_tile a = from_lane(k.a, src), b = from_lane(k.b, src);
            if (live == 0) {
                e.pair(a, b);
                break;
            }
            const int src2 = __ffs(int(live)) - 1;
            live &= live - 1;
            e.pair2(a, b, from_lane(k.a, src2), from_lane(k.b, src2));
        }
    }
    // This lane's entry for the panel's A tile i: one shared-memory load from the lane's
    // column (entries_address), where indexing the array would form the address anew.
    __device__ unsigned entry(int i) const {
#ifdef __CUDA_ARCH__
        unsigned v;  // zero-extended
        asm volatile("ld.shared.u16 %0, [%1];" : "=r"(v) : "r"(entries_address + std::uint32_t(i) * 32u * 2u));
        return v;
#else
        return table.entries[i * 32 + lane()];
#endif
    }
    static __device__ shared_b_tile from_lane(const shared_b_tile& t, int src) {
        return {__shfl_sync(kFull, t.bits, src), __shfl_sync(kFull, t.offset, src),
                __shfl_sync(kFull, t.offset_hi, src)};
    }
    static __device__ bitmap_tile from_lane(const bitmap_tile& t, int src) {
        bitmap_tile r;
        r.bits = __shfl_sync(kFull, t.bits, src);
        r.offset = __shfl_sync(kFull, t.offset, src);
        return r;
    }
    __device__ void end(int col) {
        const std::uint64_t bits = warp_or(c_bits);
        e.flush();
        const int l = lane();
        const unsigned row = formats::row_byte(bits, c_row_of(l));
        const int c0 = c_col_of(l, 0);
        const unsigned mine = (row >> c0) & 3u;  // which of this lane's two entries C holds
        if (mine != 0) {
            int pos = row_pos + __popc(row & ((1u << c0) - 1));
            const int column = col * kTileDim + c0 + c.base;
#pragma unroll
            for (int i = 0; i < 2; ++i) {
                if ((mine >> i) & 1u) {
                    Acc v = alpha * Acc(e.value(i));
                    if (beta != Acc(0)) v += beta * to_acc<Acc>(c.val[pos]);
                    store(c.val[pos], v);
                    c.ci.set(pos, column + i);
                    ++pos;
                }
            }
        }
        row_pos += __popc(row);
    }
};

template <class T, class S, class Policy, int Kind>
__global__ void __launch_bounds__(kMultiplyThreads, Policy::kPanelTable && Kind == 1 ? kMultiplyBlocksPerSm : 1)
    multiply_kernel(operands x, const T* av, const T* bv, const int* row_off, c_arrays<T> c,
                    scalar<S> alpha, scalar<S> beta, int table_tiles) {
    const long long w = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    const int panel = int(w / x.segments), s = int(w % x.segments);
    if (panel >= x.a.panels) return;
    const int l = lane();
    const std::int64_t row = std::int64_t(panel) * kTileDim + c_row_of(l);
    const formats::tile_range a_range = x.a.range[panel];
    const int a_begin = a_range.begin, a_end = a_range.end;
    const int kind = cursor_kind(a_end - a_begin);
    if (s == 0 && Kind == 1) {  // C's row offsets, once per panel (by the first kernel)
        const std::int64_t r = std::int64_t(panel) * kTileDim + l;
        if (l < kTileDim && r < x.a.rows) c.rp.set(r, row_off[r] + c.base);
        if (l == kTileDim && panel == x.a.panels - 1) c.rp.set(x.a.rows, row_off[x.a.rows] + c.base);
    }
    if (kind != Kind) return;  // another kernel's panel
    segment seg;
    seg.locate(x, panel, s);
    if (seg.first >= seg.last) return;

    using Acc = typename Policy::accumulator;
    constexpr bool table = Policy::kPanelTable && Kind == 1;
    multiplying<T, S, Policy, table> v{Policy(av, bv), c, Acc(alpha.get()), Acc(beta.get()),
                                       row < x.a.rows ? row_off[row] + seg.rows_before : 0};
    if constexpr (table) {
        const panel_table mine = panel_table::of_warp(dynamic_smem<unsigned char>(), int(threadIdx.x) / 32, table_tiles);
        const int base = a_end > a_begin ? x.a.tiles[a_begin].offset : 0;  // the panel's first value
        for (int t = a_begin; t < a_end; ++t) mine.entries[(t - a_begin) * 32 + l] = Policy::table_entry(x.a.tiles[t], base);
        if (a_begin + l < a_end) {
            const std::uint64_t a = x.a.tiles[a_begin + l].bits;
#pragma unroll
            for (int h = 0; h < 4; ++h) mine.masks[h * table_tiles + l] = column_masks(a, h);
        }
        __syncwarp();
        v.table = mine;
        // The values every gather uses come from a shuffle: the compiler then keeps them
        // in registers instead of forming them again from the kernel's parameters and
        // the lane index at every gather.
        v.a_panel = pinned(av + base);
        v.b_values = pinned(bv);
        v.entries_address = pinned(static_cast<std::uint32_t>(__cvta_generic_to_shared(mine.entries + l)));
        v.e.b_bit = pinned(v.e.b_bit);
        v.e.b_below = pinned(v.e.b_below);
    }
    with_cursors<Kind>(x, a_begin, a_end, seg.first, [&](auto& cs) { merge(x, cs, seg.last, v); });
}

// Runs the kernel with the precision policy Policy on data T and scalars S.
template <class T, class S, class Policy>
void launch_multiply(const multiply_job& job, cudaStream_t stream) {
    const operands& x = job.x;
    const long long warps = static_cast<long long>(x.a.panels) * x.segments;
    if (warps == 0) return;
    const c_arrays<T> c{index_out(job.c.row_ptr, job.c.offsets), index_out(job.c.col_idx, job.c.columns),
                        static_cast<T*>(job.c.values), job.c.base};
    // Kind 1's panel tables hold the largest kind-1 panel (the structure pass's count).
    const int table_tiles = std::max(0, std::min(job.max_panel_tiles, kTableTiles));
    for_each_cursor_kind(formats::tile_cols_of(x.a.cols), [&](auto kind) {
        // Kind 1 always (it also writes C's row offsets); the others where a panel needs them.
        constexpr int k = decltype(kind)::value;
        if (k != 1 && job.max_panel_tiles <= (k == 2 ? 32 : kRegisterTiles)) return;
        const std::size_t smem = Policy::kPanelTable && k == 1 ? kMultiplyWarps * panel_table::bytes(table_tiles) : 0;
        launch("tile SpGEMM: multiply", multiply_kernel<T, S, Policy, decltype(kind)::value>,
               grid_for(warps, kMultiplyWarps, kBlockPerItem), kMultiplyThreads, smem, stream, x,
               static_cast<const T*>(job.a_values), static_cast<const T*>(job.b_values), job.row_off,
               c, job.alpha.as<S>(), job.beta.as<S>(), table_tiles);
    });
}

}  // namespace tcs::spgemm::tiles
