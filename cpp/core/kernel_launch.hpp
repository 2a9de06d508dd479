// How kernels are launched and reach dynamic shared memory: the only two places that
// need CUDA's launch syntax and `extern __shared__`, so that the host tests
// (tests/hash_emulation, tests/tiles_emulation, tests/blocks_emulation, tests/csr_emulation)
// run the same kernels on the CPU by giving their own version of this file. Used by every
// kernel family and the format conversions.
#pragma once

#include "core/error.hpp"

#include <cuda_runtime.h>

#include <cstddef>

namespace tcs {

// Shared memory beyond 48 KB needs an opt-in per kernel, and the 48 KB count the
// kernel's static shared memory too: 45 KB of dynamic memory fail to launch
// (cudaErrorInvalidValue) in a kernel with 8 KB of static memory unless opted in. So the
// opt-in is asked for whenever static and dynamic together pass 48 KB.
template <class Kernel>
void allow_smem(Kernel kernel, std::size_t bytes) {
    constexpr std::size_t kDefaultLimit = 48 * 1024;
    if (bytes == 0) return;
    cudaFuncAttributes attributes{};
    check_cuda(cudaFuncGetAttributes(&attributes, kernel), "kernel attributes");
    if (attributes.sharedSizeBytes + bytes > kDefaultLimit)
        check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)),
                   "shared memory opt-in");
}

// Blocks of `threads` threads and `smem` bytes of dynamic shared memory that one SM
// holds at once (at least 1).
template <class Kernel>
int resident_blocks(Kernel kernel, int threads, std::size_t smem) {
    int blocks = 0;
    check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, smem),
               "occupancy query");
    return blocks > 0 ? blocks : 1;
}

// kernel<<<grid, threads, smem, stream>>>(args...), checked. grid: a count of blocks, or
// a dim3 for kernels that take a second grid dimension (column slabs, column tiles).
template <class... Params, class... Args>
void launch(const char* what, void (*kernel)(Params...), dim3 grid, int threads, std::size_t smem,
            cudaStream_t stream, Args... args) {
    check_no_pending_error();
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
