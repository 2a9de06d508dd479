// TEMPORARY: replaced by the hash SpGEMM implementation.
#include "core/error.hpp"
#include "spgemm/plan.hpp"
namespace tcs::spgemm {
std::unique_ptr<plan> make_hash_plan() { fail(errc::not_supported, "hash SpGEMM not built yet"); }
}
