// The tile SpGEMM's multiplication for fp32 data: widened to fp64 on DMMA (the default),
// TF32 or fp16 tensor cores when the math mode allows them, or FMAs with fp64 sums.
#include "spgemm/tiles/multiply.cuh"

namespace tcs::spgemm::tiles {

void multiply_f32(const multiply_job& job, cudaStream_t stream) {
    switch (job.how) {
    case policy::dmma: launch_multiply<float, float, dmma_policy<float>>(job, stream); break;
    case policy::tf32: launch_multiply<float, float, tf32_policy>(job, stream); break;
    case policy::hmma: launch_multiply<float, float, hmma_policy<float, __half>>(job, stream); break;
    case policy::fma: launch_multiply<float, float, fma_policy<float, double>>(job, stream); break;
    }
}

}  // namespace tcs::spgemm::tiles
