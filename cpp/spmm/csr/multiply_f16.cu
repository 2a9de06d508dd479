// SpMM launches for __half A and B, C either __half or float (fp32 accumulation either way).
// One translation unit per element type keeps each compilation small and lets them
// build in parallel.
#include "spmm/csr/launch.cuh"

namespace tcs::spmm::csr {

void multiply_f16(const product& p) { launch<__half>(p); }

}  // namespace tcs::spmm::csr
