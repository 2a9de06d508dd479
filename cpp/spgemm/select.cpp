#include "core/error.hpp"
#include "spgemm/plan.hpp"

namespace tcs::spgemm {

std::unique_ptr<plan> make_plan(algorithm alg) {
    switch (alg) {
    case algorithm::hash: return make_hash_plan();
    case algorithm::tile:
    case algorithm::tile_tc: fail(errc::not_supported, "tile SpGEMM is not implemented yet");
    }
    fail(errc::internal_error, "unknown SpGEMM algorithm");
}

}  // namespace tcs::spgemm
