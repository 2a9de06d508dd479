// SpMM launches for __nv_bfloat16 A and B, C either __nv_bfloat16 or float (fp32
// accumulation either way): the unit of C's type and the index width
// (multiply/bf16_*.cu).
#include "spmm/csr/product.hpp"

#include <cuda_bf16.h>

namespace tcs::spmm::csr {

void multiply_bf16(const product& p) { multiply_types<__nv_bfloat16>(p); }

}  // namespace tcs::spmm::csr
