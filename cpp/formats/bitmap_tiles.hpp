// 8x8 bitmap tiles (the tSparse format): a CSR matrix cut into panels of 8 rows, each
// panel into the nonempty 8x8 tiles it touches, in increasing tile column. A tile is a
// 64-bit occupancy bitmap, row-major (bit 8*r + c is element (r, c) of the tile), and
// the offset of its values, which lie packed in bit order. The values of panel p are
// the CSR entries of rows 8p..8p+7, so they occupy the same range [rp[8p], rp[8p+8]) of
// the packed array as of the CSR arrays: no scan is needed for value offsets, and the
// packed array has exactly nnz entries.
//
// The structure (tiles and the map from packed position to CSR entry) is built once,
// from the pattern alone; the values are packed separately, so that new values on the
// same pattern cost one gather.
//
// Conversion on the GPU, one group of 8 lanes per panel (a lane per row), 4 panels per
// warp: the rows' tile columns are merged (sorted rows advance a cursor; a row whose
// columns are unsorted is rescanned for each tile column, which is correct for any order
// and slow only for long unsorted rows). Duplicate entries in a row are not allowed
// (as in cuSPARSE): they share one bit, so one of their values is used, and nothing is
// read or written out of bounds.
#pragma once

#include "core/types.hpp"

#include <cuda_runtime_api.h>

#include <climits>
#include <cstddef>
#include <cstdint>

namespace tcs::formats {

constexpr int kTileDim = 8;
constexpr int kNoTile = INT_MAX;  // the tile column of "no tile" (after the last one)

// One nonempty tile; 16 bytes, so a lane reads it in one load.
struct alignas(16) bitmap_tile {
    std::uint64_t bits;  // bit 8*r + c: element (r, c) is stored
    int col;             // tile column: matrix columns 8*col .. 8*col+7
    int offset;          // position of the tile's first value in the packed array
};

// A matrix as tiles. Panel p holds tiles [ptr[p], ptr[p+1]) (absolute indices into
// `tiles`, which may be shared by two matrices).
struct tile_view {
    std::int64_t rows = 0, cols = 0;
    int panels = 0;                      // ceil(rows / 8)
    const int* ptr = nullptr;            // panels + 1
    const bitmap_tile* tiles = nullptr;
};

inline int panels_of(std::int64_t rows) { return int((rows + kTileDim - 1) / kTileDim); }
inline std::int64_t tile_cols_of(std::int64_t cols) { return (cols + kTileDim - 1) / kTileDim; }

// Most tiles a matrix can have: one per entry, and no more than its grid of tiles.
inline std::int64_t max_tiles(const csr_view& m) {
    const std::int64_t grid = std::int64_t(panels_of(m.rows)) * tile_cols_of(m.cols);
    return m.nnz < grid ? m.nnz : grid;
}

// ---- bit arithmetic of tiles ------------------------------------------------------

// Bit of element (r, c) of a tile.
__host__ __device__ constexpr int tile_bit(int r, int c) { return r * kTileDim + c; }

// The stored elements of a tile before bit `bit` (its value's rank in the tile).
__host__ __device__ inline int rank_below(std::uint64_t bits, int bit) {
#ifdef __CUDA_ARCH__
    return __popcll(bits & ((std::uint64_t(1) << bit) - 1));
#else
    return __builtin_popcountll(bits & ((std::uint64_t(1) << bit) - 1));
#endif
}

// Row r of a tile as a byte (bit c: column c).
__host__ __device__ constexpr unsigned row_byte(std::uint64_t bits, int r) {
    return unsigned(bits >> (kTileDim * r)) & 0xFFu;
}

// The pattern of the product of two tiles: row r of C holds row k of B wherever A(r, k)
// is stored. Symbolic: cancellation does not remove an element.
__host__ __device__ inline std::uint64_t pattern_product(std::uint64_t a, std::uint64_t b) {
    constexpr std::uint64_t column0 = 0x0101010101010101ull;  // element (r, 0) of every row
    std::uint64_t c = 0;
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (int k = 0; k < kTileDim; ++k) {
        const std::uint64_t rows_with_k = ((a >> k) & column0) * 0xFFull;  // bytes r with A(r, k)
        const std::uint64_t row_k = std::uint64_t(row_byte(b, k)) * column0;  // B's row k, everywhere
        c |= rows_with_k & row_k;
    }
    return c;
}

// The scalar products of two tiles: sum over k of |A's column k| * |B's row k|.
__host__ __device__ inline int scalar_products(std::uint64_t a, std::uint64_t b) {
    constexpr std::uint64_t column0 = 0x0101010101010101ull;
    int n = 0;
#ifdef __CUDA_ARCH__
#pragma unroll
    for (int k = 0; k < kTileDim; ++k) n += __popcll(a & (column0 << k)) * __popc(row_byte(b, k));
#else
    for (int k = 0; k < kTileDim; ++k)
        n += __builtin_popcountll(a & (column0 << k)) * __builtin_popcount(row_byte(b, k));
#endif
    return n;
}

// ---- conversion (bitmap_tiles.cu) -------------------------------------------------
// All asynchronous on `stream`, in memory the caller gives.

// count[p] = the tiles of panel p, for every panel of m (panels_of(m.rows) ints).
void count_tiles(const csr_view& m, int* count, cudaStream_t stream);

// In place, counts (items ints, the last one 0) -> their exclusive scan, saturating at
// `capacity` (the tiles the caller's array holds, max_tiles): valid matrices never reach
// it; corrupt offsets, which can make panels overlap and count more tiles than entries,
// then still leave every panel's range inside the array. scratch: tile_offsets_scratch
// bytes.
std::size_t tile_offsets_scratch(int items);
void tile_offsets(int* counts, int items, std::int64_t capacity, void* scratch, std::size_t scratch_bytes,
                  cudaStream_t stream);

// Fills the tiles of m: panel p's tiles go to tiles[ptr[p] .. ptr[p + 1]) (ptr: from
// tile_offsets, panels + 1 ints), and source[i] = the CSR entry (0-based) whose value
// goes to packed position i (nnz ints).
void fill_tiles(const csr_view& m, const int* ptr, bitmap_tile* tiles, int* source,
                cudaStream_t stream);

// packed[i] = values[source[i]] for i < nnz, values of `type`.
void pack_values(const void* values, const int* source, std::int64_t nnz, value_type type,
                 void* packed, cudaStream_t stream);

// Sampled statistics: the entries and tiles of `samples` panels spread evenly over m,
// added to totals[0] (entries) and totals[1] (tiles), which the caller zeroes.
void sample_tiles(const csr_view& m, int samples, unsigned long long* totals, cudaStream_t stream);

}  // namespace tcs::formats
