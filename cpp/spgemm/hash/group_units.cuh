// The rows of the four group bins as work units of one block each: a unit is the
// kGroupThreads / G rows of one bin that a block takes at once (G lanes per row), so
// that a single launch serves all four bins, whose sizes only the device knows.
#pragma once

#include "spgemm/hash/bins.hpp"
#include "spgemm/hash/flat_walk.cuh"

#include <cuda_runtime.h>

#include <type_traits>

namespace tcs::spgemm::hash {

template <int G>
using lanes = std::integral_constant<int, G>;

// Slots per row of a group bin with G lanes per row (16, 32, 64, 128).
constexpr int group_table(int g) { return kGroupSlots / (kGroupThreads / g); }

// Calls f(lanes<G>{}, rows, nrows) for each unit of this block: rows points into perm at
// the unit's first row, nrows <= kGroupThreads / G. counts: rows per bin, the group bins
// first in perm. Every thread of the block calls it (f runs block-uniformly).
template <class F>
__device__ void for_each_group_unit(const int* counts, const int* perm, F&& f) {
    __shared__ int s_unit[kGroupBins + 1], s_offset[kGroupBins];
    if (threadIdx.x == 0) {
        int units = 0, rows = 0;
        for (int b = 0; b < kGroupBins; ++b) {
            s_unit[b] = units;
            s_offset[b] = rows;
            const int per_unit = kGroupThreads / (4 << b);
            units += (counts[b] + per_unit - 1) / per_unit;
            rows += counts[b];
        }
        s_unit[kGroupBins] = units;
    }
    __syncthreads();
    for (int u = blockIdx.x; u < s_unit[kGroupBins]; u += gridDim.x) {
        int b = 0;
        while (b < kGroupBins - 1 && u >= s_unit[b + 1]) ++b;
        const int per_unit = kGroupThreads / (4 << b);
        const int first = (u - s_unit[b]) * per_unit;
        const int nrows = min(per_unit, counts[b] - first);
        const int* rows = perm + s_offset[b] + first;
        switch (b) {
        case 0: f(lanes<4>{}, rows, nrows); break;
        case 1: f(lanes<8>{}, rows, nrows); break;
        case 2: f(lanes<16>{}, rows, nrows); break;
        default: f(lanes<32>{}, rows, nrows); break;
        }
    }
}

// The row a group of G lanes takes in a unit: its index, and A's entries [t.x, t.y)
// (an empty range for the groups beyond the unit's rows, which still take part in the
// warp's shuffles).
template <int G>
struct group_row {
    int gl, gi;  // lane in the group, group in the block
    bool valid;
    int row;
    int2 t;
    __device__ group_row(const operands& x, const int* rows, int nrows)
        : gl(int(threadIdx.x) & (G - 1)), gi(int(threadIdx.x) / G), valid(gi < nrows),
          row(valid ? rows[gi] : 0), t(valid ? entries_of(x, row) : make_int2(0, 0)) {}
};

// Units of `rows` rows of the group bins at most: one per 8 rows (32 lanes per row) plus
// one per bin. The group launch takes a block per unit, capped by the device.
inline long long max_group_units(int rows) { return (long long)rows / 8 + kGroupBins; }

}  // namespace tcs::spgemm::hash
