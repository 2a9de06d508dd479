// The tensor-core rate probe (bench/mma_rate.hpp): chains of dependent mma.sync, four
// per warp so that the tensor cores, not the chain's latency, bound the rate.
#include "mma_rate.hpp"

namespace bench {

namespace {

constexpr int kChains = 4;  // independent accumulators per warp: hides the MMA latency

__global__ void dmma_probe(int iterations, double* sink) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const double a = 1.0 + threadIdx.x * 1e-9, b = 1.0 - threadIdx.x * 1e-9;
    double c[kChains][2] = {};
    for (int i = 0; i < iterations; ++i) {
#pragma unroll
        for (int k = 0; k < kChains; ++k)
            asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
                         : "+d"(c[k][0]), "+d"(c[k][1])
                         : "d"(a), "d"(b));
    }
    double s = 0;
    for (int k = 0; k < kChains; ++k) s += c[k][0] + c[k][1];
    if (s == -1.0) *sink = s;  // never true for these inputs: the loop cannot be dropped
#else
    (void)iterations, (void)sink;
#endif
}

__global__ void hmma_probe(int iterations, double* sink) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const unsigned a = 0x3c003c00u, b = 0x3c003c00u;  // fp16 ones
    float c[kChains][4] = {};
    for (int i = 0; i < iterations; ++i) {
#pragma unroll
        for (int k = 0; k < kChains; ++k)
            asm volatile(
                "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                "{%8, %9}, {%0, %1, %2, %3};"
                : "+f"(c[k][0]), "+f"(c[k][1]), "+f"(c[k][2]), "+f"(c[k][3])
                : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b));
    }
    float s = 0;
    for (int k = 0; k < kChains; ++k) s += c[k][0] + c[k][1] + c[k][2] + c[k][3];
    if (s == -1.0f) *sink = s;
#else
    (void)iterations, (void)sink;
#endif
}

}  // namespace

double launch_mma_probe(mma_kind kind, int blocks, int warps_per_block, int iterations, double* sink,
                        cudaStream_t stream, cudaError_t* error) {
    int device = 0, major = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    const dim3 grid{unsigned(blocks)}, block{unsigned(32 * warps_per_block)};
    // Flops of one warp-wide MMA: 2 m n k.
    const double per_mma = kind == mma_kind::dmma_f64 ? 2.0 * 8 * 8 * 4 : 2.0 * 16 * 8 * 16;
    if (kind == mma_kind::dmma_f64)
        dmma_probe<<<grid, block, 0, stream>>>(iterations, sink);
    else
        hmma_probe<<<grid, block, 0, stream>>>(iterations, sink);
    *error = cudaGetLastError();
    if (major < 8) return 0.0;
    return per_mma * kChains * double(iterations) * double(blocks) * double(warps_per_block);
}

}  // namespace bench
