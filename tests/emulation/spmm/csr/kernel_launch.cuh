// The emulation's version of cpp/spmm/csr/kernel_launch.cuh: a launch runs the kernel on
// the CPU (simt.hpp), the grid's y dimension (merge-path's column slabs) one pass each.
#pragma once

#include "core/error.hpp"

#include <cuda_runtime.h>

#include <functional>

namespace tcs::spmm::csr {

template <class... Params, class... Args>
void launch_kernel(const char* name, void (*kernel)(Params...), dim3 grid, dim3 block,
                   cudaStream_t, Args... args) {
    ::emu::count_launch(name, int(block.x), 0);
    for (unsigned y = 0; y < grid.y; ++y) {
        const std::function<void()> body = [&] {
            ::emu::block_index.y = y;
            ::emu::grid_dim.y = grid.y;
            kernel(args...);
        };
        ::emu::run_grid(int(grid.x), int(block.x), 0, body);
    }
}

}  // namespace tcs::spmm::csr
