// Which row-split kernels exist: the combinations the selection can ask for, and no
// others. choose_split (geometry.hpp) makes the geometry, runs_possible and choose_runs
// (rules.hpp) the window; launch.cuh compiles a kernel only where split_reachable holds,
// and the host test csr_reach sweeps the selection over problems and devices and checks
// that every combination it makes holds it (and that every one that holds is made), so
// the two cannot drift apart.
#pragma once

#include "spmm/csr/geometry.hpp"
#include "spmm/csr/rules.hpp"

#include <cstddef>

namespace tcs::spmm::csr {

// G column lanes of NV vectors each, R nonzero lanes per row, windows of Z rows (1: no
// runs), elements of element_bytes bytes:
//   - G*R <= 32: rows_lanes_for and choose_split's widening loops stop at a warp;
//   - two vectors per lane come as 32 column lanes (choose_geometry beyond 32 vectors)
//     or 16 (the busy rule halving a warp of one vector each), with one nonzero lane
//     either way: rows_lanes_for gives 32 column lanes one, and the busy rule sets one
//     where there are more than 2 column lanes;
//   - runs (Z > 1) only on the busy geometry (runs_possible) with one nonzero lane, at
//     least kRunMinLanes column lanes and 4- or 8-byte elements; a busy geometry never
//     has 32 column lanes of one vector (the busy rule makes them 16 of two).
constexpr bool split_reachable(std::size_t element_bytes, int G, int NV, int R, int Z) {
    if (G * R > 32) return false;
    if (NV == 2 && ((G != 16 && G != 32) || R != 1)) return false;
    if (Z > 1)
        return R == 1 && G >= kRunMinLanes && !(G == 32 && NV == 1) && element_bytes >= 4;
    return true;
}

}  // namespace tcs::spmm::csr
