// Launches the one-thread kernel that holds a stream until the host releases it
// (bench::stream_hold in cuda_util.hpp). Its own header so that the C++ files need no
// CUDA compiler.
#pragma once

#include <cuda_runtime_api.h>

namespace bench {

// `release` and `expired` are device addresses of mapped host memory; the kernel
// returns when *release != 0, or adds 1 to *expired after timeout_ns.
cudaError_t launch_hold(const int* release, int* expired, unsigned long long timeout_ns,
                        cudaStream_t stream);

}  // namespace bench
