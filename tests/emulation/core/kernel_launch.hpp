// The emulation's cpp/core/kernel_launch.hpp: a launch runs the kernel on the CPU
// (simt.hpp) after dropping any cp.async copies a previous kernel left pending
// (core/mma.cuh); dynamic shared memory is the emulator's buffer.
#pragma once

#include "core/error.hpp"
#include "core/mma.cuh"

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>

namespace tcs {

template <class Kernel>
void allow_smem(Kernel, std::size_t) {}

// The emulator runs blocks one after another; this only sizes the grids like a device
// with 2048 threads per SM would.
template <class Kernel>
int resident_blocks(Kernel, int threads, std::size_t) {
    return threads < 2048 ? 2048 / threads : 1;
}

template <class... Params, class... Args>
void launch(const char* what, void (*kernel)(Params...), dim3 grid, int threads, std::size_t smem,
            cudaStream_t, Args... args) {
    ::emu::count_launch(what, threads, smem);
    mma::drop_pending_copies();
    // The grid's y dimension (column slabs, column tiles) one pass each.
    for (unsigned y = 0; y < grid.y; ++y) {
        const std::function<void()> body = [&] {
            ::emu::block_index.y = y;
            ::emu::grid_dim.y = grid.y;
            kernel(args...);
        };
        ::emu::run_grid(int(grid.x), threads, smem, body);
    }
}

template <class T>
inline T* dynamic_smem() {
    return reinterpret_cast<T*>(::emu::dynamic_shared());
}

}  // namespace tcs
