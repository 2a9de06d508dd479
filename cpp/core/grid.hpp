// Grid sizes for kernels that loop over their items (grid-stride loops).
#pragma once

#include <cstdint>

namespace tcs {

// Blocks for `count` items of `per_block` each: at least 1, at most `cap` (the kernels
// loop over the rest).
inline int grid_for(std::int64_t count, std::int64_t per_block, std::int64_t cap = 1 << 20) {
    const std::int64_t blocks = (count + per_block - 1) / per_block;
    return int(blocks < 1 ? 1 : blocks > cap ? cap : blocks);
}

}  // namespace tcs
