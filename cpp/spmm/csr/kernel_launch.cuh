// The one place the SpMM code writes <<<...>>>: launches a kernel on a stream and turns
// a launch error into tcs::error at once (no synchronization).
#pragma once

#include "core/error.hpp"

#include <cuda_runtime_api.h>

namespace tcs::spmm::csr {

template <class... Params, class... Args>
void launch_kernel(const char* name, void (*kernel)(Params...), dim3 grid, dim3 block,
                   cudaStream_t stream, Args... args) {
    check_no_pending_error();
    kernel<<<grid, block, 0, stream>>>(args...);
    check_launch(name);
}

}  // namespace tcs::spmm::csr
