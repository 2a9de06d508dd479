// The CSR SpMM kernels of __half A and B, float C and 64-bit indices (launch.cuh), a
// translation unit of their own (product.hpp says why).
#include "spmm/csr/launch.cuh"

namespace tcs::spmm::csr {

template void multiply_unit<__half, float, std::int64_t>(const product&);

}  // namespace tcs::spmm::csr
