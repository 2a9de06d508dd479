// SpMM launches for float A and B (C float). One translation unit per element type keeps
// each compilation small and lets them build in parallel.
#include "spmm/csr/launch.cuh"

namespace tcs::spmm::csr {

void multiply_f32(const product& p) { launch<float>(p); }

}  // namespace tcs::spmm::csr
