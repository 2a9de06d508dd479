// The most nonzeros in one row of a CSR matrix, for the rule in select.hpp. Integer
// maximum, so the atomics give the same answer in any order.
#pragma once

#include <cstdint>

namespace tcs::spmm {

// *longest must be 0 before the launch. Grid-stride over rows; every lane of a warp
// reaches the shuffles (blockDim.x a multiple of 32). A template only so that every
// translation unit may include this header.
template <class Unused = void>
__global__ void longest_row_kernel(const int* row_ptr, int rows, int* longest) {
    int best = 0;
    const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
    for (std::int64_t r = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; r < rows;
         r += stride)
        best = max(best, row_ptr[r + 1] - row_ptr[r]);
    for (int offset = 16; offset > 0; offset /= 2)
        best = max(best, __shfl_xor_sync(0xffffffffu, best, offset));
    if (threadIdx.x % 32 == 0 && best > 0) atomicMax(longest, best);
}

}  // namespace tcs::spmm
