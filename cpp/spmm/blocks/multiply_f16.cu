#include "spmm/blocks/kernel.cuh"

namespace tcs::spmm::blocks {
void multiply_f16(const product& x) { launch_policy<half_policy<__half>>(x); }
}  // namespace tcs::spmm::blocks
