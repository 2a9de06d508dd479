// CSR -> 8x8 bitmap tiles on the GPU (see bitmap_tiles.hpp): a warp per panel, 4 lanes
// per row, merging the rows' tile columns in increasing order.
#include "formats/bitmap_tiles.hpp"

#include "core/error.hpp"
#include "core/grid.hpp"
#include "core/index_array.cuh"
#include "core/kernel_launch.hpp"

#include <climits>
#include <cstdint>

namespace tcs::formats {
namespace {

constexpr int kThreads = 256;
constexpr unsigned kFull = 0xffffffffu;

// What the kernels read of a CSR matrix (32- or 64-bit index arrays).
struct csr_pattern {
    index_in rp;
    index_in ci;
    std::int64_t rows;
    int base;
    int panels;
    int nnz;
    int last_column;  // cols - 1
};

csr_pattern pattern_of(const csr_view& m) {
    return {index_in(m.row_ptr, m.offsets), index_in(m.col_idx, m.columns), m.rows, m.base, panels_of(m.rows),
            int(m.nnz), int(m.cols) - 1};
}

__device__ int clamp_to(long long x, int lo, int hi) { return x < lo ? lo : x > hi ? hi : int(x); }

constexpr int kLanesPerRow = 32 / kTileDim;  // 4: a warp per panel
// Panels of up to this many entries are read from shared memory (4 KB per warp).
constexpr int kStage = 1024;

__device__ __forceinline__ int lane_id() { return int(threadIdx.x) & 31; }
// The panel's row of this lane, and the lane's place among its row's lanes.
__device__ __forceinline__ int row_lane() { return lane_id() / kLanesPerRow; }
__device__ __forceinline__ int sub_lane() { return lane_id() % kLanesPerRow; }

// The row's entries [begin, end) as the panel's warp bounds them, the way
// docs/validation.md promises for every product: offsets clamped to [0, nnz], and each
// row starting where the rows above it in the panel end (a running maximum over the
// rows), so that the panel's rows never overlap and its entries, packed, stay inside the
// panel's [first, last) range of A. Valid offsets are their own running maximum: nothing
// changes. `ordered`: whether the row's clamped offsets do not decrease (rows past the
// matrix: true). Every lane of the warp must call this.
__device__ int2 panel_row_range(const csr_pattern& m, std::int64_t row, bool& ordered) {
    const int r = row_lane();
    int b = 0, e = 0;
    if (row < m.rows) {
        b = clamp_to(m.rp.at(row) - m.base, 0, m.nnz);
        e = clamp_to(m.rp.at(row + 1) - m.base, 0, m.nnz);
    }
    ordered = b <= e;
    // Rows past the matrix end where the last row does (e = b = its end below).
    int reach = max(b, e);
#pragma unroll
    for (int s = 1; s < kTileDim; s *= 2) {
        const int o = __shfl_up_sync(kFull, reach, s * kLanesPerRow);
        if (r >= s) reach = max(reach, o);
    }
    int above = __shfl_up_sync(kFull, reach, kLanesPerRow);
    const int first = __shfl_sync(kFull, b, 0);
    if (r == 0) above = first;
    if (row >= m.rows) return make_int2(above, above);
    return make_int2(above, max(above, reach));
}

// The lane's share of one row of a panel: entries begin + q, begin + q + 4, ... of the
// row (q: sub_lane), walked tile column after tile column. A share of a sorted row is
// sorted; a share that is not (the API allows unsorted rows) is rescanned for each tile
// column, which is correct for any order and slow only for long unsorted rows.
struct row_cursor {
    index_in ci;
    int base = 0;
    int begin = 0, end = 0;  // the row's entries, 0-based
    int first = 0;           // the lane's first entry
    int at = 0;              // sorted shares: the first entry not taken yet
    int at_col = 0;          // its column (valid when at < end)
    bool sorted = true;
    bool ordered = true;     // the row's offsets do not decrease
    int next = kNoTile;      // the smallest tile column not taken yet

    int last_column = 0;
    const int* staged = nullptr;  // the panel's columns in shared memory, from entry staged_from
    int staged_from = 0;
    __device__ int column(int e) const {
        return staged != nullptr ? staged[e - staged_from] : clamp_to(ci.at(e) - base, 0, last_column);
    }

    // Every lane of the warp calls this (panel_row_range). A panel of at most kStage
    // entries has its columns copied (coalesced, clamped) into `stage`, the warp's
    // shared memory, and read from there.
    __device__ void open(const csr_pattern& m, std::int64_t row, int* stage) {
        ci = m.ci;
        base = m.base;
        last_column = m.last_column;
        const int2 range = panel_row_range(m, row, ordered);
        begin = range.x;
        end = range.y;
        const int panel_first = __shfl_sync(kFull, begin, 0), panel_last = __shfl_sync(kFull, end, 31);
        if (panel_last - panel_first <= kStage) {  // warp-uniform
#pragma unroll 4
            for (int i = lane_id(); i < panel_last - panel_first; i += 32) stage[i] = column(panel_first + i);
            __syncwarp();
            staged = stage;
            staged_from = panel_first;
        }
        first = begin + sub_lane();
        int previous = INT_MIN, low = kNoTile;
#pragma unroll 4
        for (int e = first; e < end; e += kLanesPerRow) {
            const int c = column(e);
            sorted = sorted && c > previous;
            previous = c;
            low = c / kTileDim < low ? c / kTileDim : low;
        }
        at = first;
        at_col = at < end ? column(at) : 0;
        next = low;
    }

    // Row byte of tile column `tile` (the warp's minimum, so tile <= next) from this
    // lane's share, and moves past it; `from` receives where the tile's entries start
    // (sorted shares).
    __device__ unsigned take(int tile, int& from) {
        unsigned byte = 0;
        from = at;
        if (next != tile) return 0;
        if (sorted) {
            while (at < end && at_col / kTileDim == tile) {
                byte |= 1u << (at_col % kTileDim);
                at += kLanesPerRow;
                at_col = at < end ? column(at) : 0;
            }
            next = at < end ? at_col / kTileDim : kNoTile;
        } else {
            int low = kNoTile;
            for (int e = first; e < end; e += kLanesPerRow) {
                const int t = column(e) / kTileDim;
                if (t == tile)
                    byte |= 1u << (column(e) % kTileDim);
                else if (t > tile && t < low)
                    low = t;
            }
            next = low;
        }
        return byte;
    }

    // f(entry, column within the tile) for this lane's entries of tile `tile`.
    template <class F>
    __device__ void for_each_entry(int tile, int from, F f) const {
        const int lo = sorted ? from : first, hi = sorted ? at : end;
        for (int e = lo; e < hi; e += kLanesPerRow) {
            const int c = column(e);
            if (c / kTileDim == tile) f(e, c % kTileDim);
        }
    }
};

// Walks the tiles of panel `panel` in increasing tile column (`stage`: the warp's shared
// memory, kStage ints);
// on_tile(tile column, its bitmap, the lane's row cursor, where the lane's entries of the
// tile start) runs on every lane. Warp-wide: one tile per step, its column the warp's
// minimum and its bitmap the OR of the lanes' row bytes (three reductions).
// on_open(the lane's row cursor) runs on every lane once the rows are open, and the walk
// stops there when it returns false (warp-uniform).
template <class OnTile, class OnOpen>
__device__ void walk_panel(const csr_pattern& m, long long panel, int* stage, OnTile on_tile, OnOpen on_open) {
    const int r = row_lane();
    row_cursor row;
    row.open(m, panel * kTileDim + r, stage);
    if (!on_open(row)) return;
    for (;;) {
        const int tile = __reduce_min_sync(kFull, row.next);
        if (tile == kNoTile) break;
        int from = 0;
        const unsigned byte = row.take(tile, from);
        const unsigned lo = __reduce_or_sync(kFull, r < 4 ? byte << (kTileDim * r) : 0u);
        const unsigned hi = __reduce_or_sync(kFull, r >= 4 ? byte << (kTileDim * (r - 4)) : 0u);
        on_tile(tile, std::uint64_t(lo) | (std::uint64_t(hi) << 32), row, from);
    }
}

__device__ long long warp_index() {
    return (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
}

// One warp per panel: the panel's tiles go to tiles[tile_base + first + k] (first: the
// panel's first entry, so that no scan is needed: a panel has at most as many tiles as
// entries, and panels of non-decreasing offsets never share a slot), range[panel] = the
// panel's tiles, and
// source[i] = the CSR entry whose value goes to packed position i. Adds its tiles to
// counts->tiles. A panel whose offsets decrease (corrupt: only then can panels overlap and
// share slots) writes no tile and counts itself in counts->decreasing_panels.
__global__ void __launch_bounds__(kThreads)
    fill_kernel(csr_pattern m, int tile_base, tile_range* range, bitmap_tile* tiles, int* source,
                conversion_counts* counts) {
    const long long panel = warp_index();
    if (panel >= m.panels) return;  // warp-uniform
    const int r = row_lane();
    // The panel's values take the packed positions of its CSR entries: [first, last),
    // the bounded rows' range (panel_row_range), broadcast from its first and last row.
    int first = 0, last = 0;
    int t = 0;
    int offset = 0;
    bool decreasing = false;
    __shared__ int stage[kThreads / 32][kStage];
    walk_panel(m, panel, stage[threadIdx.x / 32], [&](int tile, std::uint64_t bits, const row_cursor& row, int from) {
        // A panel of corrupt rows (duplicates) never has more tiles than entries: the
        // bound only documents that the slots stay the panel's own.
        if (lane_id() == 0 && t < last - first) tiles[tile_base + first + t] = bitmap_tile{bits, tile, offset};
        row.for_each_entry(tile, from, [&](int e, int c) {
            source[offset + rank_below(bits, tile_bit(r, c))] = e;
        });
        offset += __popcll(bits);
        ++t;
    }, [&](const row_cursor& row) {
        first = __shfl_sync(kFull, row.begin, 0);
        last = __shfl_sync(kFull, row.end, 31);
        offset = first;
        decreasing = !__all_sync(kFull, row.ordered);
        if (decreasing) last = first;  // no tile, no source position: the caller refuses the matrix
        return !decreasing;
    });
    if (t > last - first) t = last - first;
    if (lane_id() == 0) {
        range[panel] = tile_range{tile_base + first, tile_base + first + t};
        atomicAdd(&counts->tiles, static_cast<unsigned long long>(t));
        if (decreasing) atomicAdd(&counts->decreasing_panels, 1ull);
    }
    // Duplicate entries (not allowed, as in cuSPARSE) share a bit and leave packed
    // positions at the panel's end that no tile reads: they still get a valid source.
    for (int i = offset + lane_id(); i < last; i += 32) source[i] = first;
}

template <class T>
__global__ void __launch_bounds__(kThreads)
    pack_kernel(const T* values, const int* source, long long nnz, T* packed) {
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < nnz; i += stride)
        packed[i] = values[source[i]];
}

}  // namespace

void fill_tiles(const csr_view& m, int tile_base, tile_range* range, bitmap_tile* tiles, int* source,
                conversion_counts* counts, cudaStream_t stream) {
    const csr_pattern p = pattern_of(m);
    if (p.panels == 0) return;
    if (m.nnz == 0) {  // every panel empty
        check_cuda(cudaMemsetAsync(range, 0, std::size_t(p.panels) * sizeof(tile_range), stream),
                   "tiles: empty ranges");
        return;
    }
    // Entry 0 where no panel writes (gaps that only corrupt offsets leave): pack_values
    // gathers through every position, and every position then names an entry of A.
    check_cuda(cudaMemsetAsync(source, 0, std::size_t(m.nnz) * sizeof(int), stream), "tiles: clear sources");
    launch("tiles: fill", fill_kernel, grid_for(p.panels, kThreads / 32, kBlockPerItem), kThreads, 0, stream, p, tile_base, range,
           tiles, source, counts);
}

void pack_values(const void* values, const int* source, std::int64_t nnz, value_type type,
                 void* packed, cudaStream_t stream) {
    if (nnz == 0) return;
    const int grid = grid_for(nnz, kThreads, 65536);
    switch (size_of(type)) {
    case 8:
        launch("tiles: pack values", pack_kernel<std::uint64_t>, grid, kThreads, 0, stream,
               static_cast<const std::uint64_t*>(values), source, (long long)nnz,
               static_cast<std::uint64_t*>(packed));
        break;
    case 4:
        launch("tiles: pack values", pack_kernel<std::uint32_t>, grid, kThreads, 0, stream,
               static_cast<const std::uint32_t*>(values), source, (long long)nnz,
               static_cast<std::uint32_t*>(packed));
        break;
    default:
        launch("tiles: pack values", pack_kernel<std::uint16_t>, grid, kThreads, 0, stream,
               static_cast<const std::uint16_t*>(values), source, (long long)nnz,
               static_cast<std::uint16_t*>(packed));
        break;
    }
}

}  // namespace tcs::formats
