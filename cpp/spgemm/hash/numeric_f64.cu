// The numeric pass for double values (numeric.cuh).
#include "spgemm/hash/numeric.cuh"

namespace tcs::spgemm::hash {
template void numeric<double>(const operands&, const bin_plan&, const numeric_job<double>&,
                          const launch_context&);
}  // namespace tcs::spgemm::hash
