// SpMM launches for double A and B (C double). One translation unit per element type keeps
// each compilation small and lets them build in parallel.
#include "spmm/csr/launch.cuh"

namespace tcs::spmm::csr {

void multiply_f64(const product& p) { launch<double>(p); }

}  // namespace tcs::spmm::csr
