// The one-column launches (SpMV, n = 1) for half A and x (y half or float): a translation
// unit, and so a CUDA module, of its own (product.hpp says why).
#include "spmm/csr/launch.cuh"

namespace tcs::spmm::csr {

void single_f16(const product& p) { launch_single_typed<__half>(p); }

}  // namespace tcs::spmm::csr
