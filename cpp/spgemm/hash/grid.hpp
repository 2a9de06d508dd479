// Launch geometry helpers shared by the symbolic and numeric launchers.
#pragma once

#include "core/device.hpp"
#include "spgemm/hash/bins.hpp"

#include <algorithm>
#include <cstddef>

namespace tcs::spgemm::hash {

// Blocks for `rows` rows of one row per block at a time: no more than the device holds
// at once (the kernels loop over their rows), no more than there are rows.
inline int resident_grid(int threads, std::size_t smem, int rows, const device_info& d) {
    int per_sm = std::max(1, 2048 / threads);
    if (smem > 0)
        per_sm = std::max(1, std::min<int>(per_sm, int(d.smem_per_sm / (smem + kStaticReserve))));
    return std::max(1, std::min(rows, d.sm_count * per_sm));
}

}  // namespace tcs::spgemm::hash
