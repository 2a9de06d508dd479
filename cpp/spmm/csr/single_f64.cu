// The one-column launches (SpMV, n = 1) for double A and x (y double): a translation
// unit, and so a CUDA module, of its own (product.hpp says why).
#include "spmm/csr/launch.cuh"

namespace tcs::spmm::csr {

void single_f64(const product& p) { launch_single_typed<double>(p); }

}  // namespace tcs::spmm::csr
