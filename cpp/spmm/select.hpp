// The rule behind algorithm::automatic (TCS_SPMM_ALG_DEFAULT, CSR_ALG1/2/3): row-split
// or merge-path, from what the host knows without reading A: its mean row length
// nnz/m, n (through the lane group size) and the device's size.
//
// Why: row-split gives each row to one lane group, so a warp waits for its longest row
// and a matrix with few rows leaves SMs idle; merge-path cuts rows + nonzeros into
// equal segments (balanced whatever the row lengths, as many as the device needs) at
// the price of a partition (cached by preprocess), a carry-out record per segment and
// a fix-up launch. Without the row-length variance (which would need a read-back), the
// rule takes merge-path unless rows are long on average *and* row-split alone fills
// the device; its worst case (a hub row in a power-law graph) is unbounded, merge-path's
// (a regular matrix) costs a few tens of percent. n == 1 is always merge-path:
// row-split then has one lane per row.
//
// The constants are first guesses, to be re-derived on H100 from the sweep in
// docs/algorithms/spmm-csr.md (both algorithms forced with TCS_SPMM_CSR_ROWSPLIT and
// TCS_SPMM_CSR_MERGE, n in {1, 8, 32, 128, 512}, over the matrix suite). The
// merge-spmm paper's 9.35 was measured on a K40 with kernels that paid more for the
// merge.
#pragma once

#include "core/device.hpp"
#include "spmm/geometry.hpp"
#include "spmm/spmm.hpp"

#include <cstdint>

namespace tcs::spmm {

// Mean nonzeros per row of op(A) from which row-split may be chosen.
inline constexpr double kRowSplitFromMeanRowLength = 32.0;
// Row-split also needs at least this many waves of rows (lane groups the device holds
// at once, at row-split's occupancy).
inline constexpr double kRowSplitMinWaves = 1.0;

inline algorithm choose_algorithm(algorithm requested, std::int64_t m, std::int64_t nnz,
                                  std::int64_t n, const geometry& g, const device_info* device) {
    if (requested != algorithm::automatic) return requested;
    if (n == 1 || m == 0) return algorithm::merge_path;
    const bool long_rows = double(nnz) >= kRowSplitFromMeanRowLength * double(m);
    const std::int64_t groups =
        resident_groups(device, g, row_split_blocks_per_sm(kVectorBytes / g.width));
    const bool fills_device = double(m) >= kRowSplitMinWaves * double(groups);
    return long_rows && fills_device ? algorithm::row_split : algorithm::merge_path;
}

}  // namespace tcs::spmm
