// The tile SpGEMM's choices in one host-only header: its tuning constants (cursors in
// registers, segments, threads) and the pure functions that choose from them (segments
// per panel, the precision policy). Each constant says why in a line and points to the
// docs section that holds its reasoning and measurements.
#pragma once

#include "core/device.hpp"
#include "core/types.hpp"
#include "spgemm/plan.hpp"

#include <algorithm>

namespace tcs::spgemm::tiles {

// A panel with at most this many A tiles keeps its cursors in registers (one or two per
// lane); a larger one searches them at every step and is never split
// (docs/algorithms/spgemm-tiles.md, "The merge").
constexpr int kRegisterTiles = 64;

// Segments per panel are at most this many: small matrices get up to 16 warps a panel
// (docs/algorithms/spgemm-tiles.md, "Load balance").
constexpr int kMaxSegments = 16;
// Warps per SM the multiplication aims at; a panel is split only to get there
// (docs/algorithms/spgemm-tiles.md, "Load balance").
constexpr int kTargetWarpsPerSm = 32;

// Threads of the structure pass's and the multiplication's blocks: warps work alone (no
// block barrier), the block only groups them
// (docs/algorithms/spgemm-tiles.md, "Load balance").
constexpr int kStructureThreads = 256;
// The same for the multiplication (docs/algorithms/spgemm-tiles.md, "Load balance").
constexpr int kMultiplyThreads = 256;
// Blocks per SM the common multiplication kernel (kind 1 on DMMA) is compiled for: at
// most 64 registers a thread, so that 32 warps fit an SM
// (docs/algorithms/spgemm-tiles.md, "The multiplication's instructions").
constexpr int kMultiplyBlocksPerSm = 4;

// The segments per panel that give the multiplication about kTargetWarpsPerSm warps per SM.
inline int segments_for(int panels, const device_info& d) {
    if (panels <= 0 || d.sm_count <= 0) return 1;
    const long long warps = d.sm_count * (long long)kTargetWarpsPerSm;
    const long long s = (warps + panels - 1) / panels;
    return int(std::clamp<long long>(s, 1, kMaxSegments));
}

// The precision policy: how the tiles of a pair are multiplied (policies.cuh).
enum class policy {
    dmma,  // fp64 tensor cores, m8n8k4 (fp64 data; fp32 data widened to fp64)
    tf32,  // m16n8k8 on tf32-rounded fp32 data, fp32 accumulation
    hmma,  // m16n8k16, fp16/bf16 inputs (fp32 data rounded to fp16), fp32 accumulation
    fma,   // CUDA cores: fp64 accumulation for fp32/fp64 data, fp32 for 16-bit data
};

// Which policy multiplies the tiles (include/tcsparse.h, tcsSpGEMMAlg_t): fp32 data on
// DMMA unless the math mode allows less (docs/algorithms/spgemm-tiles.md, "Policies").
inline policy policy_of(value_type data, math_mode math, bool tensor_cores) {
    if (!tensor_cores) return policy::fma;
    switch (data) {
    case value_type::f64: return policy::dmma;
    case value_type::f32:
        return math == math_mode::tf32   ? policy::tf32
               : math == math_mode::fp16 ? policy::hmma
                                         : policy::dmma;
    default: return policy::hmma;
    }
}

}  // namespace tcs::spgemm::tiles
