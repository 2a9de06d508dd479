// SpMM launches for __half A and B, C either __half or float (fp32 accumulation either
// way): the unit of C's type and the index width (multiply/f16_*.cu).
#include "spmm/csr/product.hpp"

#include <cuda_fp16.h>

namespace tcs::spmm::csr {

void multiply_f16(const product& p) { multiply_types<__half>(p); }

}  // namespace tcs::spmm::csr
