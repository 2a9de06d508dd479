// How the SpMM kernels lay threads over C. Both kernel families give each row of C
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

// Merge-path segmentation: the m + nnz merge items (row ends and nonzeros) are cut into
// `count` segments of `length` items (the last may be shorter); each group works
// through one segment. Short segments give more parallelism on small matrices, long
// ones fewer carry-out records; the length grows with the matrix so that about
// kSegmentWaves segments fall on every group the device can hold at once.
inline constexpr std::int64_t kMinSegmentItems = 8;
inline constexpr std::int64_t kSegmentWaves = 4;

struct segmentation {
    std::int64_t length = kMinSegmentItems;
    std::int64_t count = 0;
};

// Threads the device holds at once (an H100's when the properties are missing).
inline std::int64_t resident_threads(const device_info* device) {
    const std::int64_t sms = device && device->sm_count > 0 ? device->sm_count : 132;
    const std::int64_t per_sm =
        device && device->max_threads_per_sm > 0 ? device->max_threads_per_sm : 2048;
    return sms * per_sm;
}

inline segmentation choose_segments(std::int64_t items, const geometry& g, std::int64_t slabs,
                                    const device_info* device) {
    std::int64_t target = kSegmentWaves * resident_threads(device) / g.lanes / (slabs > 0 ? slabs : 1);
    if (target < 1) target = 1;
    segmentation s;
    s.length = (items + target - 1) / target;
    if (s.length < kMinSegmentItems) s.length = kMinSegmentItems;
    s.count = (items + s.length - 1) / s.length;
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
