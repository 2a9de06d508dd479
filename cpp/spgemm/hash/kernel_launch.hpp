// The hash SpGEMM launches its kernels through the library's launch helpers
// (core/kernel_launch.hpp), which the host test tests/hash_emulation replaces.
#pragma once

#include "core/kernel_launch.hpp"

namespace tcs::spgemm::hash {
using tcs::allow_smem;
using tcs::dynamic_smem;
using tcs::launch;
using tcs::resident_blocks;
}  // namespace tcs::spgemm::hash
