// SpMM launches for __nv_bfloat16 A and B, C either __nv_bfloat16 or float (fp32
// accumulation either way).
// One translation unit per element type keeps each compilation small and lets them
// build in parallel.
#include "spmm/csr/launch.cuh"

namespace tcs::spmm::csr {

void multiply_bf16(const product& p) { launch<__nv_bfloat16>(p); }

}  // namespace tcs::spmm::csr
