// The one-column launches (SpMV, n = 1) for float A and x (y float): a translation
// unit, and so a CUDA module, of its own (product.hpp says why).
#include "spmm/csr/launch.cuh"

namespace tcs::spmm::csr {

void single_f32(const product& p) { launch_single_typed<float>(p); }

}  // namespace tcs::spmm::csr
