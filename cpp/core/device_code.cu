// Whether this build of tcsparse can run on the current device: a build for other CUDA
// architectures (CMAKE_CUDA_ARCHITECTURES) loads and sizes everything on the host but
// launches nothing. Asked once per handle, so that the products refuse such a device
// (arch_mismatch) before any GPU work instead of failing halfway through it.
#include "core/device.hpp"

#include <cuda_runtime.h>

namespace tcs {
namespace {

__global__ void probe_kernel() {}

}  // namespace

bool build_has_code_for_current_device() {
    const cudaError_t pending = cudaPeekAtLastError();
    cudaFuncAttributes attributes{};
    const cudaError_t e = cudaFuncGetAttributes(&attributes, probe_kernel);
    if (e == cudaSuccess) return true;
    // The failure is ours; an error already pending in this runtime before it stays.
    if (pending == cudaSuccess) (void)cudaGetLastError();
    return e != cudaErrorInvalidDeviceFunction && e != cudaErrorNoKernelImageForDevice;
}

}  // namespace tcs
