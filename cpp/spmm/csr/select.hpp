// The rule behind csr_kernel::automatic (TCS_SPMM_ALG_DEFAULT, CSR_ALG1/2/3): CSR-vector
// or row-split, from n and op(B)'s layout alone, so that the size query, preprocess
// and every run agree without looking at A, and no call has to wait for the device.
//
// Why: row-split lays its lanes over columns of C and over a row's nonzeros, and gives
// long rows whole blocks (row_split.cuh). Its column lanes read 16-byte pieces of a row
// of op(B); when op(B) is column-wise those pieces are ld apart, a cache line per column
// (slower than cuSPARSE). CSR-vector lays its lanes over
// the row's nonzeros only: A is read coalesced, the lanes of a group read the same
// column of op(B) at the rows of L nonzeros, and every entry of A serves a tile of
// columns from registers. So CSR-vector for column-wise op(B) up to
// kVectorRowsMaxColumns, row-split for everything else, n == 1 included. (That was
// row-split's element-wise reads; it now reads a row-wise copy of a large enough
// column-wise op(B), rowwise.hpp, and the limit below is unmeasured against it.)
//
// Merge-path is no longer picked: its partition, carry-out records and fix-up launch
// cost more than row-split's whole run on the small matrices, and the irregular
// matrices it used to win on (longest row 70-1150 times the mean) are balanced by
// row-split's long-row blocks.
// Measured: docs/algorithms/spmm-csr.md, "The automatic rule: select.hpp"; the sweep:
// docs/algorithms/spmm-csr.md, "Choosing between them".
#pragma once

#include "core/device.hpp"
#include "spmm/csr/geometry.hpp"
#include "spmm/spmm.hpp"

#include <cstdint>

namespace tcs::spmm::csr {

// CSR-vector for column-wise op(B) (column j contiguous) up to this n: every kVectorTile
// columns cost CSR-vector one more pass over each row (A's entries read again, from L1
// after the first pass), so its lead shrinks as n grows. Unmeasured (the limit may move
// either way): docs/algorithms/spmm-csr.md, "The automatic rule: select.hpp".
inline constexpr std::int64_t kVectorRowsMaxColumns = 16;

// Whether the automatic rule takes CSR-vector: column-wise op(B) from n = 2 up to
// kVectorRowsMaxColumns. Not n == 1: CSR-vector has no answer to long rows (its
// geomean over the suite there is below row-split's, though it is faster on the
// regular matrices). Measured: docs/algorithms/spmm-csr.md, "The automatic rule: select.hpp".
inline bool prefers_vector_rows(std::int64_t n, bool b_columns) {
    return n > 1 && b_columns && n <= kVectorRowsMaxColumns;
}

// Columns per pass of CSR-vector beyond n == 4 (see choose_row_group).
inline constexpr int kVectorTile = 8;

// CSR-vector's lanes per row: the smallest power of two >= a quarter of op(A)'s mean row
// length, clamped to [2, 32], so that a lane of a mean row holds a few nonzeros, all
// loaded at once. (With one nonzero per lane a warp had one or two rows' worth of loads
// in flight, too few to cover the memory latency, measured when the rule still sent
// n == 1 here: docs/algorithms/spmm-csr.md, "The automatic rule: select.hpp".) At
// least 2: a lane alone per row walks every longer-than-mean row serially, while its partner
// costs only a shuffle. Its tile: the columns whose values of B (for every unrolled
// nonzero) and sums a lane holds in registers per pass: 4 up to n = 4 (a wider tile
// would only cost registers and occupancy), kVectorTile beyond (the entries of A are
// loaded once per kVectorTile columns; wider tiles would spill or lower occupancy
// further, see vector_rows_blocks_per_sm).
inline row_group choose_row_group(std::int64_t m, std::int64_t nnz, std::int64_t n) {
    row_group g;
    const double mean = m > 0 ? double(nnz) / double(m) : 0.0;
    while (g.lanes < 32 && double(g.lanes) * 4.0 < mean) g.lanes *= 2;
    g.tile = n <= 4 ? 4 : kVectorTile;
    return g;
}

// b_columns: op(B) is column-wise (its row stride is 1).
inline csr_kernel choose_kernel(csr_kernel requested, std::int64_t n, bool b_columns) {
    if (requested != csr_kernel::automatic) return requested;
    if (prefers_vector_rows(n, b_columns)) return csr_kernel::vector_rows;
    return csr_kernel::row_split;
}

}  // namespace tcs::spmm::csr
