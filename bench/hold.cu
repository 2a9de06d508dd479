// The kernel behind bench::stream_hold (cuda_util.hpp): one thread that waits for the
// host to write a nonzero release flag into mapped host memory, or for a timeout.
#include "hold.hpp"

namespace bench {

namespace {

__device__ unsigned long long global_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void hold_kernel(const volatile int* release, volatile int* expired,
                            unsigned long long timeout_ns) {
    const unsigned long long start = global_ns();
    while (*release == 0) {
        if (global_ns() - start > timeout_ns) {
            *expired = *expired + 1;
            return;
        }
        __nanosleep(256);
    }
}

}  // namespace

cudaError_t launch_hold(const int* release, int* expired, unsigned long long timeout_ns,
                        cudaStream_t stream) {
    hold_kernel<<<1, 1, 0, stream>>>(release, expired, timeout_ns);
    return cudaGetLastError();
}

}  // namespace bench
