// The numeric pass for float values (numeric.cuh).
#include "spgemm/hash/numeric.cuh"

namespace tcs::spgemm::hash {
template void numeric<float>(const operands&, const bin_plan&, const numeric_job<float>&,
                          const launch_context&);
}  // namespace tcs::spgemm::hash
