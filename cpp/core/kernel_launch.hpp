// How the dense-block format and the block SpMM launch kernels and reach dynamic shared
// memory: the only places in them that need CUDA's launch syntax and `extern
// __shared__`. The host test tests/blocks_emulation runs the same kernels on the CPU
// by giving its own version of this file (one-dimensional grids only, for that reason).
#pragma once

#include "core/error.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace tcs {

// kernel<<<grid, threads, smem, stream>>>(args...), checked without synchronizing.
template <class... Params, class... Args>
void launch(const char* what, void (*kernel)(Params...), int grid, int threads, std::size_t smem,
            cudaStream_t stream, Args... args) {
    kernel<<<grid, threads, smem, stream>>>(args...);
    check_launch(what);
}

// The block's dynamic shared memory, 16-byte aligned.
template <class T>
__device__ __forceinline__ T* dynamic_smem() {
    extern __shared__ __align__(16) unsigned char tcs_dynamic_smem[];
    return reinterpret_cast<T*>(tcs_dynamic_smem);
}

}  // namespace tcs
