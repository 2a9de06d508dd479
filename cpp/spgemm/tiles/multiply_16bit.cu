// The tile SpGEMM's multiplication for fp16 and bf16 data (fp32 accumulation, results
// rounded to the data type): HMMA m16n8k16, or FMAs on CUDA cores.
#include "spgemm/tiles/multiply.cuh"

namespace tcs::spgemm::tiles {

void multiply_16bit(const multiply_job& job, cudaStream_t stream) {
    const bool tc = job.how != policy::fma;
    if (job.data == value_type::f16) {
        if (tc)
            launch_multiply<__half, float, hmma_policy<__half, __half>>(job, stream);
        else
            launch_multiply<__half, float, fma_policy<__half, float>>(job, stream);
    } else {
        if (tc)
            launch_multiply<__nv_bfloat16, float, hmma_policy<__nv_bfloat16, __nv_bfloat16>>(job, stream);
        else
            launch_multiply<__nv_bfloat16, float, fma_policy<__nv_bfloat16, float>>(job, stream);
    }
}

}  // namespace tcs::spgemm::tiles
