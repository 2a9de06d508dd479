// How the SpMM kernels lay threads over C. Row-split and merge-path give each row of C
// (row-split) or each merge segment (merge-path) to a *group* of G lanes; lane l of a
// group owns NV vectors of V consecutive columns, vector v starting at column
// (v*G + l)*V of the current slab, so that the G lanes read one 16-byte piece each of
// a row of B side by side (coalesced for row-major B). A slab is G*NV*V columns; wider
// C is covered by several slabs (grid y).
//
// The geometry depends only on n and the element size (never on alignment or leading
// dimensions), because the merge-path partition cached by preprocess depends on it
// and the preprocess memo key does not include B's and C's addresses.
#pragma once

#include "core/device.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace tcs::spmm {

inline constexpr int kThreads = 128;     // threads per block of the product kernels
inline constexpr int kVectorBytes = 16;  // one vector = one 16-byte load of B

struct geometry {
    int lanes = 1;    // G: lanes per group, a power of two <= 32
    int vectors = 1;  // NV: vectors per lane (1 or 2)
    int width = 4;    // V: elements per vector, 16 / sizeof(B's element)
    std::int64_t slab() const { return std::int64_t(lanes) * vectors * width; }
};

// The narrowest group that covers n columns in one slab, up to a warp; beyond a warp,
// two vectors per lane (so that more than one slab is needed only from 64*V columns).
inline geometry choose_geometry(std::int64_t n, std::size_t element_bytes) {
    geometry g;
    g.width = int(kVectorBytes / element_bytes);
    const std::int64_t vectors = (n + g.width - 1) / g.width;
    if (vectors > 32) {
        g.lanes = 32;
        g.vectors = 2;
        return g;
    }
    while (g.lanes < vectors) g.lanes *= 2;
    return g;
}

inline std::int64_t slab_count(std::int64_t n, const geometry& g) {
    return (n + g.slab() - 1) / g.slab();
}

// Blocks per SM the product kernels are compiled for (__launch_bounds__), i.e. a
// register cap of 65536 / (kThreads * blocks): the most blocks at which ptxas keeps the
// kernels free of spills (-Xptxas -v, CUDA 13, sm_90; the one exception, 4 bytes, is
// merge-path with 16-bit inputs, fp32 C and strided B). Row-split holds fewer values
// across its loop than merge-path. Also the occupancy the host plans with.
constexpr int merge_blocks_per_sm(std::size_t element_bytes) { return element_bytes == 2 ? 4 : 5; }
constexpr int row_split_blocks_per_sm(std::size_t element_bytes) {
    return element_bytes == 2 ? 5 : 7;
}

// CSR-vector (vector_rows.cuh) lays its lanes over A's nonzeros instead: a group of
// `lanes` lanes per row of op(A), each lane summing every lanes-th nonzero for `tile`
// columns of C at a time. It needs no buffer and no partition, so it leaves the
// geometry above (and the merge-path buffer carved from it) untouched.
struct row_group {
    int lanes = 2;  // L: lanes per row, a power of two in [2, 32]
    int tile = 1;   // TN: columns per pass over the row (1, 4 or 8)
};

// Blocks per SM the CSR-vector kernel is compiled for, by tile (each column costs a sum
// and, for every unrolled nonzero, a value of B in registers): the most at which ptxas
// keeps it free of spills (-Xptxas -v, CUDA 13, sm_90), full occupancy at tile 1 but for
// fp64, which spills at 32 registers. A memory-bound kernel wants every warp it can get.
constexpr int vector_rows_blocks_per_sm(std::size_t element_bytes, int tile) {
    return tile == 1 ? (element_bytes == 8 ? 12 : 16) : tile == 4 ? 10 : 8;
}

// Lane groups of geometry g that the device holds at once, `blocks_per_sm` blocks of
// kThreads on each SM (an H100's 132 SMs when the properties are missing).
inline std::int64_t resident_groups(const device_info* device, const geometry& g,
                                    int blocks_per_sm) {
    const std::int64_t sms = device && device->sm_count > 0 ? device->sm_count : 132;
    return sms * kThreads * blocks_per_sm / g.lanes;
}

// Merge-path segmentation: the m + nnz merge items (row ends and nonzeros) are cut into
// `count` segments of `length` items (the last may be shorter); each group works
// through one segment. Short segments keep a small matrix parallel; long ones mean
// fewer carry-out records (each costs a record written and read and a row of C
// rewritten by the fix-up). So the length is the longest that still gives every
// resident group a segment, but no longer than needed for kSegmentWaves waves or for
// kSegmentRows mean rows per segment, and at least kMinSegmentItems.
inline constexpr std::int64_t kMinSegmentItems = 8;
inline constexpr std::int64_t kSegmentWaves = 4;
inline constexpr std::int64_t kSegmentRows = 4;

struct segmentation {
    std::int64_t length = kMinSegmentItems;
    std::int64_t count = 0;
};

inline segmentation choose_segments(std::int64_t items, std::int64_t rows, const geometry& g,
                                    std::int64_t slabs, const device_info* device) {
    const auto ceil_div = [](std::int64_t a, std::int64_t b) { return (a + b - 1) / b; };
    std::int64_t groups = resident_groups(device, g, merge_blocks_per_sm(kVectorBytes / g.width)) /
                          (slabs > 0 ? slabs : 1);
    if (groups < 1) groups = 1;
    const std::int64_t fill = ceil_div(items, groups);                    // one wave
    const std::int64_t waves = ceil_div(items, kSegmentWaves * groups);   // balance
    const std::int64_t mean_rows = ceil_div(kSegmentRows * items, rows > 0 ? rows : 1);
    segmentation s;
    s.length = std::max(kMinSegmentItems, std::min(fill, std::max(waves, mean_rows)));
    s.count = ceil_div(items, s.length);
    return s;
}

// The segmentation as the kernels see it.
struct merge_view {
    const int* limits = nullptr;  // count + 1 row indices: limits[s] = i at segment s's start
    std::int64_t length = 0;      // items per segment
    std::int64_t count = 0;       // segments
    std::int64_t items = 0;       // m + nnz
};

}  // namespace tcs::spmm
