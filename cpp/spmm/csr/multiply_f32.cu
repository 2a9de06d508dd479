// SpMM launches for float A and B (C float): the unit of the index width
// (multiply/f32_*.cu).
#include "spmm/csr/product.hpp"

namespace tcs::spmm::csr {

void multiply_f32(const product& p) { multiply_types<float>(p); }

}  // namespace tcs::spmm::csr
