// CSR -> 8x8 bitmap tiles on the GPU (see bitmap_tiles.hpp): a group of 8 lanes per
// panel, one lane per row, merging the rows' tile columns in increasing order.
#include "formats/bitmap_tiles.hpp"

#include "core/error.hpp"
#include "core/index_array.cuh"
#include "core/kernel_launch.hpp"

#include <cub/device/device_scan.cuh>

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

// The row's entries [begin, end) as its group of kTileDim lanes (one per row of the
// panel) bounds them, the way docs/validation.md promises for every product: offsets
// clamped to [0, nnz], and each row starting where the rows above it in the panel end
// (a running maximum over the group), so that the panel's rows never overlap and its
// entries, packed, stay inside the panel's [first, last) range of A. Valid offsets are
// their own running maximum: nothing changes. Every lane of the warp must call this.
__device__ int2 panel_row_range(const csr_pattern& m, std::int64_t row) {
    const int r = int(threadIdx.x) % kTileDim;
    int b = 0, e = 0;
    if (row < m.rows) {
        b = clamp_to(m.rp.at(row) - m.base, 0, m.nnz);
        e = clamp_to(m.rp.at(row + 1) - m.base, 0, m.nnz);
    }
    // Rows past the matrix end where the last row does (e = b = its end below).
    int reach = max(b, e);
#pragma unroll
    for (int s = 1; s < kTileDim; s *= 2) {
        const int o = __shfl_up_sync(kFull, reach, s, kTileDim);
        if (r >= s) reach = max(reach, o);
    }
    int above = __shfl_up_sync(kFull, reach, 1, kTileDim);
    const int first = __shfl_sync(kFull, b, 0, kTileDim);
    if (r == 0) above = first;
    if (row >= m.rows) return make_int2(above, above);
    return make_int2(above, max(above, reach));
}

// One row of a panel as its lane walks it, tile column after tile column.
struct row_cursor {
    index_in ci;
    int base = 0;
    int begin = 0, end = 0;  // the row's entries, 0-based
    int at = 0;              // sorted rows: the first entry not taken yet
    bool sorted = true;
    int next = kNoTile;      // the smallest tile column not taken yet

    int last_column = 0;
    __device__ int column(int e) const { return clamp_to(ci.at(e) - base, 0, last_column); }

    // Every lane of the warp calls this (panel_row_range).
    __device__ void open(const csr_pattern& m, std::int64_t row) {
        ci = m.ci;
        base = m.base;
        last_column = m.last_column;
        const int2 range = panel_row_range(m, row);
        begin = range.x;
        end = range.y;
        int previous = INT_MIN, low = kNoTile;
        for (int e = begin; e < end; ++e) {
            const int c = column(e);
            sorted = sorted && c > previous;
            previous = c;
            low = c / kTileDim < low ? c / kTileDim : low;
        }
        at = begin;
        next = low;
    }

    // Row byte of tile column `tile` (the caller's group minimum, so tile <= next), and
    // moves past it; `from` receives where the tile's entries start (sorted rows).
    __device__ unsigned take(int tile, int& from) {
        unsigned byte = 0;
        from = at;
        if (next != tile) return 0;
        if (sorted) {
            while (at < end && column(at) / kTileDim == tile) {
                byte |= 1u << (column(at) % kTileDim);
                ++at;
            }
            next = at < end ? column(at) / kTileDim : kNoTile;
        } else {
            int low = kNoTile;
            for (int e = begin; e < end; ++e) {
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

    // f(entry, column within the tile) for this row's entries of tile `tile`.
    template <class F>
    __device__ void for_each_entry(int tile, int from, F f) const {
        const int lo = sorted ? from : begin, hi = sorted ? at : end;
        for (int e = lo; e < hi; ++e) {
            const int c = column(e);
            if (c / kTileDim == tile) f(e, c % kTileDim);
        }
    }
};

__device__ int group_min(int v) {
#pragma unroll
    for (int s = kTileDim / 2; s > 0; s /= 2) {
        const int o = __shfl_xor_sync(kFull, v, s, kTileDim);
        v = o < v ? o : v;
    }
    return v;
}

__device__ std::uint64_t group_or(std::uint64_t v) {
#pragma unroll
    for (int s = kTileDim / 2; s > 0; s /= 2) v |= __shfl_xor_sync(kFull, v, s, kTileDim);
    return v;
}

// Walks the tiles of panel `panel` (>= m.panels: an idle group) in increasing tile
// column; on_tile(tile column, its bitmap, the lane's row cursor, where the row's entries
// of the tile start) runs on every lane of the group. Every lane of the warp must call
// this (the groups' collectives are warp-wide).
// on_open(the lane's row cursor), if given, runs on every lane once the rows are open.
struct no_open {
    __device__ void operator()(const row_cursor&) const {}
};
template <class OnTile, class OnOpen = no_open>
__device__ void walk_panel(const csr_pattern& m, long long panel, OnTile on_tile, OnOpen on_open = {}) {
    const int r = int(threadIdx.x) % kTileDim;
    row_cursor row;
    row.open(m, panel * kTileDim + r);
    on_open(row);
    for (;;) {
        const int tile = group_min(row.next);
        if (__all_sync(kFull, tile == kNoTile)) break;
        int from = 0;
        const unsigned byte = row.take(tile, from);
        const std::uint64_t bits = group_or(std::uint64_t(byte) << (kTileDim * r));
        if (tile != kNoTile) on_tile(tile, bits, row, from);
    }
}

__device__ long long group_index() {
    return (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / kTileDim;
}

__global__ void __launch_bounds__(kThreads) count_kernel(csr_pattern m, int* count) {
    const long long panel = group_index();
    if (panel - int(threadIdx.x) % 32 / kTileDim >= m.panels) return;  // the whole warp is idle
    int tiles = 0;
    walk_panel(m, panel, [&](int, std::uint64_t, const row_cursor&, int) { ++tiles; });
    if (panel < m.panels && threadIdx.x % kTileDim == 0) count[panel] = tiles;
}

__global__ void __launch_bounds__(kThreads)
    fill_kernel(csr_pattern m, const int* ptr, bitmap_tile* tiles, int* source) {
    const long long panel = group_index();
    if (panel - int(threadIdx.x) % 32 / kTileDim >= m.panels) return;
    const int r = int(threadIdx.x) % kTileDim;
    // The panel's values take the packed positions of its CSR entries: [first, last),
    // the bounded rows' range (panel_row_range), broadcast from its first and last row.
    int first = 0, last = 0;
    // ptr is a saturating scan (tile_offsets): a panel of corrupt rows may count more
    // tiles than it has slots, and writes only those it has.
    int t = panel < m.panels ? ptr[panel] : 0;
    const int t_end = panel < m.panels ? ptr[panel + 1] : 0;
    int offset = 0;
    walk_panel(m, panel, [&](int tile, std::uint64_t bits, const row_cursor& row, int from) {
        if (r == 0 && t < t_end) tiles[t] = bitmap_tile{bits, tile, offset};
        row.for_each_entry(tile, from, [&](int e, int c) {
            source[offset + rank_below(bits, tile_bit(r, c))] = e;
        });
        offset += __popcll(bits);
        ++t;
    }, [&](const row_cursor& row) {
        first = __shfl_sync(kFull, row.begin, 0, kTileDim);
        last = __shfl_sync(kFull, row.end, kTileDim - 1, kTileDim);
        offset = first;
    });
    // Duplicate entries (not allowed, as in cuSPARSE) share a bit and leave packed
    // positions at the panel's end that no tile reads: they still get a valid source.
    if (panel < m.panels)
        for (int i = offset + r; i < last; i += kTileDim) source[i] = first;
}

// Group g of the grid samples panel g * stride.
__global__ void __launch_bounds__(kThreads)
    sample_kernel(csr_pattern m, int samples, long long stride, unsigned long long* totals) {
    const long long g = group_index();
    if (g - int(threadIdx.x) % 32 / kTileDim >= samples) return;
    const long long panel = g < samples ? g * stride : m.panels;
    int tiles = 0, entries = 0;
    walk_panel(m, panel, [&](int, std::uint64_t bits, const row_cursor&, int) {
        ++tiles;
        entries += __popcll(bits);
    });
    if (g < samples && threadIdx.x % kTileDim == 0) {
        atomicAdd(&totals[0], static_cast<unsigned long long>(entries));
        atomicAdd(&totals[1], static_cast<unsigned long long>(tiles));
    }
}

template <class T>
__global__ void __launch_bounds__(kThreads)
    pack_kernel(const T* values, const int* source, long long nnz, T* packed) {
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < nnz; i += stride)
        packed[i] = values[source[i]];
}

// Exclusive-scan operator of tile_offsets: a sum that stops at cap.
struct saturating_add {
    int cap;
    __host__ __device__ int operator()(int a, int b) const {
        const long long sum = static_cast<long long>(a) + b;
        return sum < cap ? static_cast<int>(sum) : cap;
    }
};
int cap_of(std::int64_t capacity) { return capacity < INT_MAX ? int(capacity) : INT_MAX; }

int grid_for_groups(long long groups) {
    const long long threads = groups * kTileDim;
    return int((threads + kThreads - 1) / kThreads);
}

}  // namespace

void count_tiles(const csr_view& m, int* count, cudaStream_t stream) {
    const csr_pattern p = pattern_of(m);
    if (p.panels == 0) return;
    launch("tiles: count", count_kernel, grid_for_groups(p.panels), kThreads, 0, stream, p, count);
}


std::size_t tile_offsets_scratch(int items) {
    std::size_t bytes = 0;
    check_cuda(cub::DeviceScan::ExclusiveScan(nullptr, bytes, static_cast<int*>(nullptr),
                                              static_cast<int*>(nullptr), saturating_add{INT_MAX}, 0, items),
               "tiles: offsets scratch size");
    return bytes;
}

void tile_offsets(int* counts, int items, std::int64_t capacity, void* scratch, std::size_t scratch_bytes,
                  cudaStream_t stream) {
    check_cuda(cub::DeviceScan::ExclusiveScan(scratch, scratch_bytes, counts, counts,
                                              saturating_add{cap_of(capacity)}, 0, items, stream),
               "tiles: tile offsets");
}

void fill_tiles(const csr_view& m, const int* ptr, bitmap_tile* tiles, int* source,
                cudaStream_t stream) {
    const csr_pattern p = pattern_of(m);
    if (p.panels == 0 || m.nnz == 0) return;
    // Entry 0 where no panel writes (gaps that only corrupt offsets leave): pack_values
    // gathers through every position, and every position then names an entry of A.
    check_cuda(cudaMemsetAsync(source, 0, std::size_t(m.nnz) * sizeof(int), stream), "tiles: clear sources");
    launch("tiles: fill", fill_kernel, grid_for_groups(p.panels), kThreads, 0, stream, p, ptr, tiles,
           source);
}

void sample_tiles(const csr_view& m, int samples, unsigned long long* totals, cudaStream_t stream) {
    const csr_pattern p = pattern_of(m);
    if (p.panels == 0 || m.nnz == 0) return;
    if (samples > p.panels) samples = p.panels;
    const long long stride = p.panels / samples;
    launch("tiles: sample", sample_kernel, grid_for_groups(samples), kThreads, 0, stream, p, samples,
           stride, totals);
}

void pack_values(const void* values, const int* source, std::int64_t nnz, value_type type,
                 void* packed, cudaStream_t stream) {
    if (nnz == 0) return;
    const int grid = int((nnz + kThreads - 1) / kThreads < 65536 ? (nnz + kThreads - 1) / kThreads : 65536);
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
