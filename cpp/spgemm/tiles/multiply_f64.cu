// The tile SpGEMM's multiplication for fp64 data: DMMA, or FMAs on CUDA cores.
#include "spgemm/tiles/multiply.cuh"

namespace tcs::spgemm::tiles {

void multiply_f64(const multiply_job& job, cudaStream_t stream) {
    if (job.how == policy::fma)
        launch_multiply<double, double, fma_policy<double, double>>(job, stream);
    else
        launch_multiply<double, double, dmma_policy<double>>(job, stream);
}

}  // namespace tcs::spgemm::tiles
