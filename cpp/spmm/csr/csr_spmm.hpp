// The CSR family of SpMM (merge-spmm): row-split, merge-path and CSR-vector kernels
// over A as given. spmm.cu hands a problem here when the family rule picks CSR.
#pragma once

#include "spmm/spmm.hpp"

#include <cstddef>

namespace tcs::spmm::csr {

// Same contracts as tcs::spmm::buffer_size / preprocess / run (spmm.hpp).
std::size_t buffer_size(const problem& p);
analysis preprocess(const problem& p, void* buffer);
void run(const problem& p, void* buffer, bool preprocessed, const analysis& found);

}  // namespace tcs::spmm::csr
