#include "spmm/blocks/kernel.cuh"

namespace tcs::spmm::blocks {
void multiply_bf16(const product& x) { launch_policy<half_policy<__nv_bfloat16>>(x); }
}  // namespace tcs::spmm::blocks
