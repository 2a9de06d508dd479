// SpMM's entry from the C layer: which family computes the problem. Each family lives
// in a folder of its own (csr/: row-split, merge-path, CSR-vector) behind the same three
// calls.
#include "spmm/spmm.hpp"

#include "spmm/csr/csr_spmm.hpp"

namespace tcs::spmm {

std::size_t buffer_size(const problem& p) { return csr::buffer_size(p); }

analysis preprocess(const problem& p, void* buffer) { return csr::preprocess(p, buffer); }

void run(const problem& p, void* buffer, bool preprocessed, const analysis& found) {
    csr::run(p, buffer, preprocessed, found);
}

}  // namespace tcs::spmm
