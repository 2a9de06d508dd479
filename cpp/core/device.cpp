#include "core/device.hpp"

#include "core/error.hpp"

#include <cuda_runtime_api.h>

namespace tcs {

device_info query_current_device() {
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        (void)cudaGetLastError();
        fail(errc::not_initialized, "no CUDA device");
    }
    device_info d;
    check_cuda(cudaGetDevice(&d.ordinal), "cudaGetDevice");
    cudaDeviceProp p{};
    check_cuda(cudaGetDeviceProperties(&p, d.ordinal), "cudaGetDeviceProperties");
    d.sm_count = p.multiProcessorCount;
    d.cc_major = p.major;
    d.cc_minor = p.minor;
    d.smem_per_block_optin = p.sharedMemPerBlockOptin;
    d.smem_per_sm = p.sharedMemPerMultiprocessor;
    d.l2_bytes = static_cast<std::size_t>(p.l2CacheSize);
    d.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    return d;
}

}  // namespace tcs
