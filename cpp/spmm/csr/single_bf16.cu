// The one-column launches (SpMV, n = 1) for bfloat16 A and x (y bfloat16 or float): a translation
// unit, and so a CUDA module, of its own (product.hpp says why).
#include "spmm/csr/launch.cuh"

namespace tcs::spmm::csr {

void single_bf16(const product& p) { launch_single_typed<__nv_bfloat16>(p); }

}  // namespace tcs::spmm::csr
