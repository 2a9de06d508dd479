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
// Conversion on the GPU, one pass, a warp per panel (4 lanes per row, each taking every
// fourth entry of its row): the rows' tile columns are merged, one tile per step (sorted
// rows advance a cursor; a row whose columns are unsorted is rescanned for each tile
// column, which is correct for any order and slow only for long unsorted rows). A panel
// has at most as many tiles as entries, so its tiles go to the slots of its entries'
// positions [first, ...) with no count pass and no scan; the tile array then has gaps
// between panels, and each panel's tiles are named by a range. Duplicate entries in a row are not allowed
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

// The tiles [begin, end) of one panel.
struct alignas(8) tile_range {
    int begin;
    int end;
};

// A matrix as tiles. Panel p holds tiles [range[p].begin, range[p].end) (absolute indices into
// `tiles`, which may be shared by two matrices; panels leave gaps between them).
struct tile_view {
    std::int64_t rows = 0, cols = 0;
    int panels = 0;                      // ceil(rows / 8)
    const tile_range* range = nullptr;         // panels
    const bitmap_tile* tiles = nullptr;
};

inline int panels_of(std::int64_t rows) { return int((rows + kTileDim - 1) / kTileDim); }
inline std::int64_t tile_cols_of(std::int64_t cols) { return (cols + kTileDim - 1) / kTileDim; }

// The tile slots a matrix's conversion needs: one per entry (fill_tiles).
inline std::int64_t tile_slots(const csr_view& m) { return m.nnz; }

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

// Byte j of x in all four bytes.
__host__ __device__ inline std::uint32_t replicate_byte(std::uint32_t x, int j) {
#ifdef __CUDA_ARCH__
    return __byte_perm(x, 0, 0x1111u * unsigned(j));
#else
    return ((x >> (8 * j)) & 0xFFu) * 0x01010101u;
#endif
}

// The rows of tile a's half (0: rows 0..3, 1: rows 4..7) that hold column k, as a byte
// mask: the half of pattern_product that depends on A alone.
__host__ __device__ inline std::uint32_t column_mask(std::uint64_t a, int half, int k) {
    constexpr std::uint32_t column0 = 0x01010101u;  // element (r, 0) of rows 0..3 (or 4..7)
    const std::uint32_t word = half == 0 ? std::uint32_t(a) : std::uint32_t(a >> 32);
    return ((word >> k) & column0) * 0xFFu;
}

// pattern_product with A given by mask(half, k) = column_mask(a, half, k) (a caller that
// meets the same A tile many times keeps its masks).
template <class ColumnMask>
__host__ __device__ inline std::uint64_t pattern_product_of(ColumnMask mask, std::uint64_t b) {
    const std::uint32_t b_lo = std::uint32_t(b), b_hi = std::uint32_t(b >> 32);
    std::uint32_t c_lo = 0, c_hi = 0;
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (int k = 0; k < kTileDim; ++k) {
        const std::uint32_t row_k = replicate_byte(k < 4 ? b_lo : b_hi, k & 3);  // B's row k
        c_lo |= mask(0, k) & row_k;  // rows 0..3 with A(r, k)
        c_hi |= mask(1, k) & row_k;
    }
    return std::uint64_t(c_lo) | (std::uint64_t(c_hi) << 32);
}

// The pattern of the product of two tiles: row r of C holds row k of B wherever A(r, k)
// is stored. Symbolic: cancellation does not remove an element. On 32-bit halves (rows
// 0..3 and 4..7): per k, the rows of A holding column k as a byte mask, ANDed with B's
// row k replicated (one byte permute).
__host__ __device__ inline std::uint64_t pattern_product(std::uint64_t a, std::uint64_t b) {
    return pattern_product_of([a](int half, int k) { return column_mask(a, half, k); }, b);
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

// What a conversion counts on the device, added into memory the caller zeroes.
struct conversion_counts {
    unsigned long long tiles;               // nonempty tiles
    unsigned long long decreasing_panels;   // panels with a row whose offsets decrease
};

// Fills the tiles of m in one pass: panel p's tiles go to tiles[tile_base + first_p ..),
// first_p its first entry (0-based), range[p] = those tiles (panels_of(m.rows) ranges,
// every one written), and source[i] = the CSR entry (0-based) whose value goes to packed
// position i (nnz ints). `tiles` holds tile_base + tile_slots(m) tiles. With offsets that
// never decrease, panels never share a slot. A panel with a decreasing offset (corrupt:
// only then can panels overlap) writes no tile and no source position and is counted in
// counts->decreasing_panels, for the caller to refuse the matrix; positions no panel
// covers name entry 0.
void fill_tiles(const csr_view& m, int tile_base, tile_range* range, bitmap_tile* tiles, int* source,
                conversion_counts* counts, cudaStream_t stream);

// packed[i] = values[source[i]] for i < nnz, values of `type`.
void pack_values(const void* values, const int* source, std::int64_t nnz, value_type type,
                 void* packed, cudaStream_t stream);

// A sample of m's tile density: `runs` runs of `panels` whole panels each, spread
// evenly over the rows, read back to the host (their row offsets in one copy, then each
// run's columns, at most `max_entries` of them; a panel past that is left out). The
// copies wait for the stream's earlier work. Host arithmetic only, no kernel.
struct tile_sample {
    std::int64_t entries = 0, tiles = 0;  // in the sampled panels
    // Entries per nonempty tile of the sample; 0 for an empty sample.
    double density() const { return tiles > 0 ? double(entries) / double(tiles) : 0.0; }
};
tile_sample sample_tiles(const csr_view& m, int runs, int panels, std::int64_t max_entries,
                         cudaStream_t stream);

}  // namespace tcs::formats
