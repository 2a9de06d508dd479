// The tensor-core rates of the running GPU, measured: what the roofline's compute floor
// divides by (bench/roofline.hpp). Its own header so that the C++ files need no CUDA
// compiler.
#pragma once

#include <cuda_runtime_api.h>

namespace bench {

// The mma.sync shapes tcsparse's tensor-core paths issue: DMMA (fp64 m8n8k4, the fp32
// and fp64 block and tile paths) and HMMA (fp16 m16n8k16 with fp32 accumulation).
enum class mma_kind { dmma_f64, hmma_f16_f32 };

// Launches the probe: `warps_per_block` x `blocks` warps, each issuing `iterations`
// rounds of 4 independent MMAs, and returns the flops one launch performs (0 when the
// build has no code for the device's architecture, below sm_80). `sink` is a device
// double the probe writes only when its result is impossible (keeps the loop alive).
double launch_mma_probe(mma_kind kind, int blocks, int warps_per_block, int iterations, double* sink,
                        cudaStream_t stream, cudaError_t* error);

}  // namespace bench
