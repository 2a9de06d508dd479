// Grid sizes: the one helper every launch sizes its grid with (architecture_rules checks
// that no other file defines one).
#pragma once

#include "core/device.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>

namespace tcs {

// The cap of a kernel that gives each block its own items and loops over none: a grid
// with a block for every item.
inline constexpr std::int64_t kBlockPerItem = INT_MAX;

// Blocks for `count` items of `per_block` each: at least 1, at most `cap` (the kernels
// loop over the rest).
inline int grid_for(std::int64_t count, std::int64_t per_block, std::int64_t cap = 1 << 20) {
    const std::int64_t blocks = (count + per_block - 1) / per_block;
    return int(std::max<std::int64_t>(1, std::min(blocks, cap)));
}

// The cap of a kernel that loops over its items with no more blocks than the device
// holds at once: `per_sm` blocks (a fixed number, or the kernel's resident_blocks from
// core/kernel_launch.hpp) on each of the device's SMs.
inline std::int64_t device_cap(const device_info& d, int per_sm) {
    return std::int64_t(d.sm_count) * per_sm;
}

}  // namespace tcs
