// The rule behind algorithm::automatic (TCS_SPMM_ALG_DEFAULT, CSR_ALG1/2/3): CSR-vector,
// row-split or merge-path, from op(A)'s shape, n (through the lane group size), op(B)'s
// layout, the device's size and, after tcsSpMM_preprocess, op(A)'s longest row.
//
// Why: row-split and merge-path lay their lanes over columns of C. That is wasted at
// n == 1 (a group of one lane walks a whole row or segment alone, and the lanes of a warp
// read 32 different places of A: 0.37x cuSPARSE on the H200) and costly when op(B) is
// column-wise (columns are ld apart, so a group's loads of one row of B touch a cache
// line per column and no two lanes share one: 0.78x cuSPARSE at n = 32, 0.48x at 128).
// CSR-vector lays its lanes over the row's nonzeros instead: A is read coalesced, the
// lanes of a group read the same column of B at the rows of L nonzeros (sharing lines
// when those rows are close, as in banded matrices) and every entry of A serves a tile of
// columns from registers. It is chosen first, from n and op(B)'s layout alone (see
// prefers_vector_rows), except on irregular matrices after preprocess.
//
// Otherwise row-split gives each row to one lane group, so a warp waits for its longest
// row and a matrix with few rows leaves SMs idle; merge-path cuts rows + nonzeros into
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

// CSR-vector for column-wise op(B) (column j contiguous) up to this n. A first guess,
// to be measured on the GPU: every kVectorTile columns cost CSR-vector one more pass
// over each row (A's entries read again, from L1 after the first pass), so its lead
// shrinks as n grows; the other families' 0.78x and 0.48x of cuSPARSE at n = 32 and 128
// say the limit may well move up.
inline constexpr std::int64_t kVectorRowsMaxColumns = 16;

// Whether the automatic rule takes CSR-vector: n == 1, and column-wise op(B) up to
// kVectorRowsMaxColumns, unless preprocess found op(A) irregular (longest row above
// kRegularRowFactor * mean + kRegularRowSlack): a group sized to the mean row then walks
// a row of thousands alone while the rest of the device idles (H100, n = 1: a2nnsnsl and
// as-caida 160 us against cuSPARSE's 12 us; merge-path, balanced, took 51 us on the
// H200). Without preprocess the longest row is unknown and CSR-vector is taken.
inline bool prefers_vector_rows(std::int64_t n, bool b_columns, double mean,
                                std::int64_t longest_row) {
    if (n != 1 && !(b_columns && n <= kVectorRowsMaxColumns)) return false;
    return longest_row < 0 || double(longest_row) <= kRegularRowFactor * mean + kRegularRowSlack;
}

// Columns per pass of CSR-vector beyond n == 4 (see choose_row_group).
inline constexpr int kVectorTile = 8;

// CSR-vector's lanes per row: the smallest power of two >= a quarter of op(A)'s mean row
// length, clamped to [2, 32], so that a lane of a mean row holds about four nonzeros, all
// loaded at once (the kernel unrolls by 4 at n == 1). The first rule, one nonzero per
// lane, ran 136 us against cuSPARSE's 47 us on banded_1m_hb4 at n == 1 (H100): a warp
// then had one or two rows' worth of loads in flight, too few to cover the memory
// latency. At least 2: a lane alone per row walks every longer-than-mean row serially,
// while its partner costs only a shuffle. Its tile: one column at n == 1; otherwise the
// columns whose values of B (for every unrolled nonzero) and sums a lane holds in
// registers per pass: 4 up to n = 4 (a wider tile would only cost registers and
// occupancy), kVectorTile beyond (the entries of A are loaded once per kVectorTile
// columns; wider tiles would spill or lower occupancy further, see
// vector_rows_blocks_per_sm).
inline row_group choose_row_group(std::int64_t m, std::int64_t nnz, std::int64_t n) {
    row_group g;
    const double mean = m > 0 ? double(nnz) / double(m) : 0.0;
    while (g.lanes < 32 && double(g.lanes) * 4.0 < mean) g.lanes *= 2;
    g.tile = n == 1 ? 1 : n <= 4 ? 4 : kVectorTile;
    return g;
}

// longest_row: op(A)'s most nonzeros in one row, or < 0 when not known. b_columns: op(B)
// is column-wise (its row stride is 1).
inline algorithm choose_algorithm(algorithm requested, std::int64_t m, std::int64_t nnz,
                                  std::int64_t n, bool b_columns, const geometry& g,
                                  const device_info* device, std::int64_t longest_row) {
    if (requested != algorithm::automatic) return requested;
    if (m == 0) return algorithm::merge_path;
    if (prefers_vector_rows(n, b_columns, double(nnz) / double(m), longest_row))
        return algorithm::vector_rows;
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
