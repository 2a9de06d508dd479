// SpMM launches for double A and B (C double): the unit of the index width
// (multiply/f64_*.cu).
#include "spmm/csr/product.hpp"

namespace tcs::spmm::csr {

void multiply_f64(const product& p) { multiply_types<double>(p); }

}  // namespace tcs::spmm::csr
