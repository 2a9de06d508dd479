// TEMPORARY: replaced by the CSR SpMM implementation.
#include "core/error.hpp"
#include "spmm/spmm.hpp"
namespace tcs::spmm {
std::size_t buffer_size(const problem&) { fail(errc::not_supported, "SpMM not built yet"); }
void preprocess(const problem&, void*) { fail(errc::not_supported, "SpMM not built yet"); }
void run(const problem&, void*, bool) { fail(errc::not_supported, "SpMM not built yet"); }
}
