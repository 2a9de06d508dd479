#include "spmm/blocks/kernel.cuh"

namespace tcs::spmm::blocks {
void multiply_f32(const product& x) {
    if (x.kind == precision::tf32) return launch_policy<tf32_policy>(x);
    launch_policy<f64_policy<float>>(x);
}
}  // namespace tcs::spmm::blocks
