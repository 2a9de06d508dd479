// Launch geometry helpers shared by the symbolic and numeric launchers.
#pragma once

#include "core/device.hpp"
#include "spgemm/hash/kernel_launch.hpp"

#include <algorithm>
#include <cstddef>

namespace tcs::spgemm::hash {

// Blocks for `rows` rows of one row per block at a time: as many as the device holds at
// once (the kernels loop over their rows), no more than there are rows. The occupancy
// comes from the runtime, which counts the kernel's static shared memory (the block walk
// keeps several KB there) and registers as well as `smem`.
template <class Kernel>
int resident_grid(Kernel kernel, int threads, std::size_t smem, int rows, const device_info& d) {
    const int per_sm = resident_blocks(kernel, threads, smem);
    return std::max(1, std::min(rows, d.sm_count * per_sm));
}

}  // namespace tcs::spgemm::hash
