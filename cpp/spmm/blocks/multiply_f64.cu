#include "spmm/blocks/kernel.cuh"

namespace tcs::spmm::blocks {
void multiply_f64(const product& x) { launch_policy<f64_policy<double>>(x); }
}  // namespace tcs::spmm::blocks
