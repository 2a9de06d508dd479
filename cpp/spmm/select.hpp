// The rule behind algorithm::automatic (TCS_SPMM_ALG_DEFAULT, CSR_ALG1/2/3): row-split
// or merge-path, from op(A)'s shape, n (through the lane group size), the device's size
// and, after tcsSpMM_preprocess, op(A)'s longest row.
//
// Why: row-split gives each row to one lane group, so a warp waits for its longest row
// and a matrix with few rows leaves SMs idle; merge-path cuts rows + nonzeros into
// equal segments (balanced whatever the row lengths, as many as the device needs) at
// the price of a partition (cached by preprocess), a carry-out record per segment and
// a fix-up launch. The H200 sweep (docs/algorithms/spmm-csr.md) shows that the signal
// is irregularity, not the mean row length: row-split wins 1.3-2.1x on every regular
// matrix down to a mean of 2.1 nonzeros per row, merge-path wins 2-10x on irregular
// ones (longest row 138-1153 times the mean). So:
//  - longest row known (preprocess measured it): row-split when the longest row is at
//    most kRegularRowFactor * mean + kRegularRowSlack and the rows fill the device;
//  - unknown (tcsSpMM without preprocess, which must not synchronize): the sweep's best
//    single threshold on the mean row length, kRowSplitFromMeanRowLength.
// n == 1 is always merge-path: row-split then has one lane per row.
#pragma once

#include "core/device.hpp"
#include "spmm/geometry.hpp"
#include "spmm/spmm.hpp"

#include <cstdint>

namespace tcs::spmm {

// Without the longest row: mean nonzeros per row of op(A) from which row-split is chosen
// (the sweep's best single threshold on the mean: geomean 1.04-1.21x of always picking
// the winner).
inline constexpr double kRowSplitFromMeanRowLength = 26.0;
// With the longest row: op(A) is regular when its longest row is at most
// kRegularRowFactor * mean + kRegularRowSlack (the regular matrices of the suite stay
// below 4x the mean, the irregular ones where merge-path wins are above 24x).
inline constexpr double kRegularRowFactor = 8.0;
inline constexpr double kRegularRowSlack = 32.0;
// From this n on, merge-path's carry-outs (one per segment and column) cost more, and
// row-split wins on everything but strongly irregular matrices, however few rows there
// are (H200 sweep, fp32 row-major: at n = 512 row-split is 1.2-6x faster on Si2,
// astro-ph, ca-CondMat, PGPgiantcompo, aa3; merge-path keeps a2nnsnsl, rmat, email-Enron,
// as-caida, wiki-Vote, whose longest rows are 70-1150x the mean). Row-split is then
// taken up to a longest row of kWideRegularRowFactor * mean + slack, and without the
// device-filling condition.
inline constexpr std::int64_t kWideN = 64;
inline constexpr double kWideRegularRowFactor = 32.0;
// Row-split also needs at least this many waves of (row, column slab) work units (lane
// groups the device holds at once, at row-split's occupancy).
inline constexpr double kRowSplitMinWaves = 1.0;

// longest_row: op(A)'s most nonzeros in one row, or < 0 when not known.
inline algorithm choose_algorithm(algorithm requested, std::int64_t m, std::int64_t nnz,
                                  std::int64_t n, const geometry& g, const device_info* device,
                                  std::int64_t longest_row) {
    if (requested != algorithm::automatic) return requested;
    if (n == 1 || m == 0) return algorithm::merge_path;
    const std::int64_t groups =
        resident_groups(device, g, row_split_blocks_per_sm(kVectorBytes / g.width));
    // Row-split's work units are (row, column slab) pairs: at n = 512 a few hundred rows
    // already fill the device (Si2, mbeacxc, aa3 ran merge-path at 0.2-0.5x cuSPARSE on
    // the H200 when only rows were counted).
    const bool fills_device =
        double(m) * double(slab_count(n, g)) >= kRowSplitMinWaves * double(groups);
    const double mean = double(nnz) / double(m);
    const bool wide = n >= kWideN;
    const double factor = wide ? kWideRegularRowFactor : kRegularRowFactor;
    const bool row_split_fits =
        longest_row >= 0 ? double(longest_row) <= factor * mean + kRegularRowSlack
                         : mean >= kRowSplitFromMeanRowLength;
    return row_split_fits && (fills_device || wide) ? algorithm::row_split
                                                    : algorithm::merge_path;
}

}  // namespace tcs::spmm
