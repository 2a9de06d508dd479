// The benchmark process's GPU state, created once on first use: the stream every
// measured call runs on, one handle per library bound to it, the L2 flush buffer and
// the device's measured copy bandwidth and tensor-core rates.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "cuda_util.hpp"

namespace bench {

struct gpu_state {
    cudaStream_t stream = nullptr;
    cudaDeviceProp props{};
    double copy_bandwidth = 0;  // bytes per second, read + write of a large D2D copy
    double launch_seconds = 0;  // the least a stream operation takes, timed like a sample
    double dmma_flops = 0;      // flop/s of fp64 mma.sync m8n8k4 over the whole GPU (0: no sm_80 code)
    double hmma_flops = 0;      // flop/s of fp16 mma.sync m16n8k16, fp32 accumulation
    device_buffer l2_scratch;   // twice the L2 size
};

// Creates the state on first call (measuring the bandwidth, the launch time and the MMA
// rates); throws
// failure when no usable GPU is present.
gpu_state& gpu();

// Overwrites twice the L2 cache on the benchmark stream, so the next timed sample
// finds none of its data in L2 (as in a solver, where other work runs in between).
void flush_l2();

// Releases the handles and the stream (at exit, before the CUDA runtime unloads).
void release_gpu();

}  // namespace bench
