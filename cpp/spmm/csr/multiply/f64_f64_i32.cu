// The CSR SpMM kernels of double A and B, double C and 32-bit indices (launch.cuh), a
// translation unit of their own (product.hpp says why).
#include "spmm/csr/launch.cuh"

namespace tcs::spmm::csr {

template void multiply_unit<double, double, std::int32_t>(const product&);

}  // namespace tcs::spmm::csr
