// What a result needs to be compared with another: device, versions, git revision,
// measured copy bandwidth, mode (benchmark::AddCustomContext, in every JSON output).
#pragma once

#include "benchmarks.hpp"

namespace bench {

// Creates the GPU state (measuring the bandwidth) and records the context. Throws
// failure when the GPU cannot be used.
void add_context(bool quick, const run_counts& runs);

}  // namespace bench
