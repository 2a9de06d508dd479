// The CSR family's choices (host-only, pure functions and constants): the automatic rule
// between its kernels, the row-wise copies of a column-wise op(B) and a column-major C,
// the padded copy of a row-major op(B), runs of rows with one pattern, when SpMV's
// op(A) = A^T scatters, and the constants that row-split's geometry and long rows
// (geometry.hpp, which includes this file), the kernels and the transpose are built
// from. Each choice is a function of sizes, types and layouts (never of values or
// addresses), so that the size query, preprocess and every run agree without looking
// at A; but for what preprocess counts and a preprocessed run then uses (runs of rows,
// below; SpMV's copy where it reads A's values close together), which the buffer covers
// either way.
//
// The automatic rule: CSR-vector for a column-wise op(B) at n = 2
// (kVectorRowsMaxColumns), row-split for everything else, n == 1 included. Row-split lays its lanes over columns of
// C and over a row's nonzeros, and gives long rows whole blocks (row_split.cuh); its
// column lanes read 16-byte pieces of a row of op(B). CSR-vector lays its lanes over the
// row's nonzeros only: A is read coalesced, the lanes of a group read the same column of
// op(B) at the rows of L nonzeros, and every entry of A serves a tile of columns from
// registers. Merge-path is no longer picked: its partition, carry-out records and fix-up
// launch cost more than row-split's whole run on the small matrices, and the irregular
// matrices it used to win on are balanced by row-split's long-row blocks.
//
// The row-wise copies: row-split reads op(B) a row at a time and writes C the same way.
// When op(B) is column-wise (B column-major, or row-major and transposed) those pieces
// are `ld` elements apart, one cache sector per element; so are C's when C is
// column-major. Where it pays (the rules below), a run first copies op(B) row-wise into
// the caller's buffer (formats/dense.hpp), rows padded to whole 16-byte vectors, and
// row-split reads the copy with 16-byte loads at any n; and it writes alpha*op(A)*op(B)
// row-wise into the buffer, in the accumulation type, which a second kernel turns into
// column-major C, adding beta*C. Each copy costs two passes over its matrix and a launch.
//
// Runs: row-split shares loads of op(B) among runs of rows with one pattern
// (row_runs.cuh). The kernel finds the runs itself and is correct on any matrix, but on
// a matrix without runs its windows only cost (each segment walks Z rows one run after
// another, at fewer blocks per SM). So tcsSpMM_preprocess counts the runs
// (count_runs_kernel) and waits for the count; only a preprocessed call uses them.
#pragma once

#include "spmm/spmm.hpp"

#include <cstddef>
#include <cstdint>

namespace tcs::spmm::csr {

// ---- the automatic rule -------------------------------------------------------------

// CSR-vector for column-wise op(B) (column j contiguous) up to this n, i.e. at n = 2
// only: from n = 4 on, row-split (with its row-wise copy of op(B) where it pays) was
// faster on three of the four matrices measured and never slower than cuSPARSE, while
// CSR-vector fell behind both as n grew (every kVectorTile columns cost it one more pass
// over each row).
// docs/algorithms/spmm-csr.md, "The automatic rule"
inline constexpr std::int64_t kVectorRowsMaxColumns = 2;

// Whether the automatic rule takes CSR-vector: column-wise op(B) from n = 2 up to
// kVectorRowsMaxColumns. Not n == 1: there CSR-vector's groups, measured before they
// handed long rows to a kernel of their own (vector_rows.cuh), had a geomean over the
// suite below row-split's, though they were faster on the regular matrices.
inline bool prefers_vector_rows(std::int64_t n, bool b_columns) {
    return n > 1 && b_columns && n <= kVectorRowsMaxColumns;
}

// Columns per pass of CSR-vector beyond n == 4 (see choose_row_group).
// docs/algorithms/spmm-csr.md, "CSR-vector"
inline constexpr int kVectorTile = 8;

// CSR-vector (vector_rows.cuh) lays its lanes over A's nonzeros: a group of `lanes`
// lanes per row of op(A), each lane summing every lanes-th nonzero for `tile` columns of
// C at a time. Its groups need no buffer and no partition (its long rows' lists are
// planned apart, plan_vector_long_rows in geometry.hpp), so it leaves row-split's
// geometry (geometry.hpp, and the merge-path buffer carved from it) untouched.
struct row_group {
    int lanes = 2;  // L: lanes per row, a power of two in [2, 32]
    int tile = 4;   // TN: columns per pass over the row (4 or 8)
};

// Nonzeros per lane of CSR-vector whose loads are in flight together: TN values of B
// each (8 loads of B per lane at TN = 4, 16 at TN = 8).
// docs/algorithms/spmm-csr.md, "Constants not measured separately"
inline constexpr int kVectorUnroll = 2;

// CSR-vector's lanes per row: the smallest power of two >= a quarter of op(A)'s mean row
// length, clamped to [2, 32], so that a lane of a mean row holds a few nonzeros, all
// loaded at once (with one nonzero per lane a warp had one or two rows' worth of loads in
// flight, too few to cover the memory latency). At least 2: a lane alone per row walks
// every longer-than-mean row serially, while its partner costs only a shuffle. Its tile:
// the columns whose values of B (for every unrolled nonzero) and sums a lane holds in
// registers per pass: 4 up to n = 4 (a wider tile would only cost registers and
// occupancy), kVectorTile beyond (the entries of A are loaded once per kVectorTile
// columns; wider tiles would spill or lower occupancy further, see
// vector_rows_blocks_per_sm). docs/algorithms/spmm-csr.md, "The automatic rule".
inline row_group choose_row_group(std::int64_t m, std::int64_t nnz, std::int64_t n) {
    row_group g;
    const double mean = m > 0 ? double(nnz) / double(m) : 0.0;
    while (g.lanes < 32 && double(g.lanes) * 4.0 < mean) g.lanes *= 2;
    g.tile = n <= 4 ? 4 : kVectorTile;
    return g;
}

// The kernel for `requested` (automatic: the rule above). b_columns: op(B) is
// column-wise (its row stride is 1).
inline csr_kernel choose_kernel(csr_kernel requested, std::int64_t n, bool b_columns) {
    if (requested != csr_kernel::automatic) return requested;
    if (prefers_vector_rows(n, b_columns)) return csr_kernel::vector_rows;
    return csr_kernel::row_split;
}

// ---- SpMV's scatter -----------------------------------------------------------------

// From this many nonzeros SpMV with op(A) = A^T scatters where the caller allows atomics,
// unless preprocess finds the transposed copy reading A's values close together (below).
// Below, a preprocessed A is multiplied through the transposed copy, faster there, and a
// call without preprocess scatters rather than sorting A's entries into the copy first.
// docs/algorithms/spmv.md, "op(A) = A^T: scatter or copy, by algorithm"
inline constexpr std::int64_t kScatterMinNonzeros = std::int64_t(4) << 20;

// Merge items per warp of the scatter: 8 steps of 32 nonzeros or row ends, the best single
// value of 128-1024 (fewer warp starts against more warps in flight).
// docs/algorithms/spmv.md, "The scatter's partition and row lookup"
inline constexpr int kScatterItems = 256;

// Mean row length of A (as stored) from which the scatter finds the rows of its nonzeros
// by walking the row offsets (scatter_column.cuh's rows_by_walk); below, by the warp's
// window of 32 row ends (rows_by_window), which costs every step its shuffles but no
// chain of loads through short and empty rows.
// docs/algorithms/spmv.md, "The scatter's partition and row lookup"
inline constexpr double kScatterWalkMeanRow = 32.0;
inline bool scatter_rows_by_window(std::int64_t rows, std::int64_t nnz) {
    return double(nnz) < kScatterWalkMeanRow * double(rows);
}

// ---- SpMV's copy where it reads A's values close together ------------------------------

// From kScatterMinNonzeros a preprocessed SpMV with op(A) = A^T takes the transposed copy
// (A's values read in place) instead of the scatter where preprocess finds that the copy's
// rows read A's values close together: bands and stencils, whose transposed rows j, j+1,
// ... read the same few stretches of A, each value's sector then coming from DRAM once;
// random rows read each value at a random place and lose to the scatter. Preprocess counts
// the entries of A^T in windows of kLocalWindowRows consecutive rows whose positions in A
// (the copy's permutation, ascending within a row) span at most kLocalSpanOfL2 of the
// device's L2 in A's values, and takes the copy where they are at least kLocalShare of
// all (copy_reads_locally). Only a preprocessed call can: a call without preprocess, or
// one whose preprocess was captured into a graph (no count read back), scatters.
// docs/algorithms/spmv.md, "op(A) = A^T from 4 Mi nonzeros: the copy where it reads locally"
inline constexpr int kLocalWindowRows = 32;  // a warp of the count's kernel, a row a lane
// Between the spans of the bands and stencils where the copy won and those of the random
// rows where it lost (a window of random rows spans most of A), on the low side: a window
// spanning a large part of L2 leaves too little of it to A's values between their reads.
// docs/algorithms/spmv.md, "op(A) = A^T from 4 Mi nonzeros: the copy where it reads locally"
inline constexpr double kLocalSpanOfL2 = 0.125;
// From the copy's time against the scatter's on the local matrices and on the random
// ones: with about a tenth of the entries in random windows the two would break even.
// docs/algorithms/spmv.md, "op(A) = A^T from 4 Mi nonzeros: the copy where it reads locally"
inline constexpr double kLocalShare = 0.9;

// The span of a local window, in positions of A (values of element_bytes each).
inline std::int64_t local_span_limit(std::size_t l2_bytes, std::size_t element_bytes) {
    return std::int64_t(kLocalSpanOfL2 * double(l2_bytes) / double(element_bytes));
}
// Whether the copy takes the product, from the entries preprocess counted in local windows.
inline bool copy_reads_locally(std::int64_t local_entries, std::int64_t nnz) {
    return nnz > 0 && double(local_entries) >= kLocalShare * double(nnz);
}

// ---- row-wise copies ------------------------------------------------------------------

// Whether the row-wise copy of a column-wise op(B) (k x n) pays for its launch and its
// pass over B: for an op(B) of at least 2^18 elements or 2^22 products (nnz * n); below,
// the copy's launch outweighed the strided reads on the regular matrices. At n = 1 a
// column of op(B) is its row: nothing to copy.
// docs/algorithms/spmm-csr.md, "Row-wise copies".
inline bool rowwise_b_pays(std::int64_t k, std::int64_t nnz, std::int64_t n) {
    return n > 1 && (double(k) * double(n) >= 0x1p18 || double(nnz) * double(n) >= 0x1p22);
}

// Whether row-split reads a padded row-wise copy of a row-major op(B) (B row-major, or
// column-major and transposed) whose n is no whole number of vectors of V elements
// (vector_width: 16 bytes of B's type). Its rows, then no whole number of 16-byte pieces
// apart (ld = n), take element-wise loads, V per vector of every nonzero's row; the copy
// (formats::copy_rows_padded) costs a pass over op(B) and a launch per call, once. So
// only n > V (below, the padding would be as large as the row), and only where op(B)'s
// rows are each read by kPaddedMinReuse nonzeros on average and the call does at least
// kPaddedMinProducts products. A function of sizes alone, as the geometry is, never of
// ld or the address: at ld = n such rows are never 16 bytes apart, and at any ld a
// 16-byte load of the last row's last vector would read past B.
// docs/algorithms/spmm-csr.md, "The width cliff".
// Mean reads of a row of op(B), nnz / k: the element-wise reads cost per product, the
// copy per element of op(B) (a road network's 2 reads a row gained nothing from the copy
// of a column-wise op(B)). docs/algorithms/spmm-csr.md, "The width cliff"
inline constexpr double kPaddedMinReuse = 4.0;
// Products (nnz * n) below which the copy's launch outweighs what the loads save.
// docs/algorithms/spmm-csr.md, "The width cliff"
inline constexpr double kPaddedMinProducts = 0x1p22;
inline bool padded_b_pays(std::int64_t k, std::int64_t nnz, std::int64_t n, int vector_width) {
    return n > vector_width && n % vector_width != 0 &&
           double(nnz) >= kPaddedMinReuse * double(k) &&
           double(nnz) * double(n) >= kPaddedMinProducts;
}

// Whether row-split writes column-major C through a row-wise copy (m x n sums in the
// buffer, then formats::finish_columnwise). Written directly, a warp's column lanes store
// one element per column of C, each `ld` apart; where a warp holds at most two rows (16
// or 32 column lanes per row) those stores cost more than the copy's two extra passes
// over C and its launch. With 8 column lanes it lost everywhere, so did a C of under
// 2^19 elements and rows of more than 32 nonzeros on average, whose products outweigh
// C's stores. lanes: the column lanes of row-split's geometry (geometry::lanes).
// docs/algorithms/spmm-csr.md, "Row-wise copies".
inline bool rowwise_c_pays(std::int64_t m, std::int64_t nnz, std::int64_t n, int lanes) {
    return n > 1 && lanes >= 16 && double(m) * double(n) >= 0x1p19 &&
           double(nnz) <= 32.0 * double(m);
}

// Columns per pass where the copies are capped: where the row-wise copies of all n
// columns would take more than kCopyBudgetBytes, row-split does the columns
// kChunkColumns at a time, each pass copying its columns of op(B) (and, where it pays at
// that width, writing its columns of C through the copy), so the buffer holds the copies
// of kChunkColumns columns only; the last pass, of n % kChunkColumns columns, has a
// geometry for its own width (plan_rest in csr_spmm.cu). Why: with copies of all n columns the buffer was as
// large as op(B) and C together, more than a solver near the device's memory can give. A
// pass of 32 columns reads A again, but on the matrices whose copies exceed the budget
// four passes of 32 take about what one pass of 128 took; on the small matrices, whose
// copies are a few MB, the passes' launches would cost more than they save.
// docs/algorithms/spmm-csr.md, "Row-wise copies"
inline constexpr std::int64_t kChunkColumns = 32;
// docs/algorithms/spmm-csr.md, "Row-wise copies"
inline constexpr double kCopyBudgetBytes = 0x1p27;  // 128 MiB

// ---- runs of rows with one pattern -----------------------------------------------------

// Runs only on the busy geometry with at least this many column lanes (fp32 n > 32, fp64
// n > 16); with 8 column lanes neither window gained.
// docs/algorithms/spmm-csr.md, "Runs of rows"
inline constexpr int kRunMinLanes = 16;
// The windows compiled (Z), by index 0 and 1 (a function: device code reads it too).
constexpr int run_window(int z) { return z == 0 ? 3 : 4; }
// Only with few runs per row: the window that gives the fewest, at most this many per row
// (windows start at multiples of Z).
// docs/algorithms/spmm-csr.md, "Runs of rows"
inline constexpr double kRunMaxPerRow = 0.4;

// Whether a row-split plan may use runs: the busy geometry's one nonzero lane and at
// least kRunMinLanes column lanes, no very long rows cut into parts (not where the
// groups leave the device less busy: there a window's rows are work the device would
// have done in parallel), fp32 or fp64. busy, rows_lanes and lanes: the geometry's
// (geometry.hpp); very_long_parts: the long-row plan's tiers[1].parts.
inline bool runs_possible(bool busy, int rows_lanes, int lanes, int very_long_parts,
                          std::size_t element_bytes) {
    return busy && rows_lanes == 1 && lanes >= kRunMinLanes && very_long_parts <= 1 &&
           element_bytes >= 4;
}

// The window from the counts of runs in windows of each run_window size over m rows:
// 1 (no runs) unless one makes at most kRunMaxPerRow runs per row; the fewest runs
// wins, the smaller window on a tie.
inline int choose_runs(const unsigned long long (&runs)[2], std::int64_t m) {
    int best = 1;
    double fewest = kRunMaxPerRow * double(m);
    for (int z = 0; z < 2; ++z)
        if (double(runs[z]) <= fewest && (best == 1 || double(runs[z]) < fewest)) {
            best = run_window(z);
            fewest = double(runs[z]);
        }
    return best;
}

// ---- blocks and loads of the product kernels ------------------------------------------

// Threads per block of the product kernels (row-split, merge-path, CSR-vector, one
// column); the blocks per SM (geometry.hpp) were chosen at this size.
// docs/algorithms/spmm-csr.md, "Constants not measured separately"
inline constexpr int kThreads = 128;

// Row-split's groups of at least this many lanes (G*R) load their rows' nonzeros
// together (sum_row_warp in row_split.cuh); narrower ones each lane for itself: from 8
// lanes on the warp loads gained, below they came out even.
// docs/algorithms/spmm-csr.md, "Warp loads: kWarpLoadLanes"
inline constexpr int kWarpLoadLanes = 8;

// Nonzeros each lane loads per batch of sum_row_warp, at most: more, held in registers
// beside the chunk's, spilled for fp64 and G = 1 at 9 blocks per SM.
// docs/algorithms/spmm-csr.md, "Constants not measured separately"
inline constexpr int kWarpLoadsPerLane = 4;

// Blocks per SM of row-split's kernels with runs (row_runs.cuh): Z sums of NV vectors per
// lane take most of the registers, and fp64 windows of 4 spilling a little still ran
// faster than at 4 blocks.
// docs/algorithms/spmm-csr.md, "Row-split's blocks per SM"
inline constexpr int kRunBlocks = 5;

// ---- row-split's geometry (choose_split, geometry.hpp) ---------------------------------

// Narrowest slab the geometry narrows to while the groups leave the device idle: 8
// column lanes, 128 bytes of a row of B, a whole cache line.
// docs/algorithms/spmm-csr.md, "Constants not measured separately"
inline constexpr int kMinSlabLanes = 8;
// Busy: the groups hold more than this many times the threads the device runs at once;
// one nonzero lane per row then, the kernels being issue-bound.
// docs/algorithms/spmm-csr.md, "Row-split's geometry: busy"
inline constexpr double kBusyWaves = 4.0;
// Load batches per lane of a mean row that busy groups of one or two column lanes keep.
// docs/algorithms/spmm-csr.md, "Row-split's geometry: busy"
inline constexpr double kBusyChain = 4.0;

// ---- one column (single_column.cuh, choose_single in geometry.hpp) ---------------------

// Nonzeros of a lane whose loads are in flight together in the one-column kernel.
// docs/algorithms/spmm-csr.md, "Constants not measured separately"
inline constexpr int kSingleUnroll = 4;
// The lanes per row double while the groups hold at most 1 / kSingleFill of the threads
// the device runs at once (a half was slower than a quarter).
// docs/algorithms/spmm-csr.md, "One column: kSingleFill and the lanes per row"
inline constexpr double kSingleFill = 4.0;

// ---- long rows (plan_long_rows, geometry.hpp) ------------------------------------------

// A row is long beyond this many load batches of its group (a row of thousands of
// nonzeros kept one group busy after the rest of the device was done).
// docs/algorithms/spmm-csr.md, "Long rows: the thresholds"
inline constexpr int kLongChunks = 4;
// The same where the groups leave the device underfilled: long rows gain from more lanes.
// docs/algorithms/spmm-csr.md, "Long rows: the thresholds"
inline constexpr int kLongChunksUnderfilled = 1;
// Fewest nonzeros of a long row for groups of 16 or more column lanes (with load batches
// alone every row of a stencil was long).
// docs/algorithms/spmm-csr.md, "Long rows: the thresholds"
inline constexpr std::int64_t kLongMin = 64;
// Fewest nonzeros of a long row where the groups leave the device underfilled.
// docs/algorithms/spmm-csr.md, "Long rows: the thresholds"
inline constexpr std::int64_t kLongMinUnderfilled = 32;
// A long row is longer than this many mean rows: keeps regular rows with the groups.
// docs/algorithms/spmm-csr.md, "Long rows: the thresholds"
inline constexpr double kLongMeanFactor = 2.0;
// The mean factor where the groups leave the device underfilled.
// docs/algorithms/spmm-csr.md, "Long rows: the thresholds"
inline constexpr double kLongMeanFactorUnderfilled = 1.5;
// Nonzeros per load batch of a long-row task's lane: the kernel's unroll for one
// aligned vector (unroll<1, true>, operands.cuh), not a choice of its own.
// docs/algorithms/spmm-csr.md, "Constants not measured separately"
inline constexpr int kTaskUnroll = 8;
// Very long beyond this many block batches where the groups' lanes hold two vectors and
// the device is busy: narrow very-long slabs cost more than the chains they cut there.
// docs/algorithms/spmm-csr.md, "Long rows: kVeryLongChunksWide"
inline constexpr int kVeryLongChunksWide = 16;
// Column lanes of a very long row's slabs (more blocks, each with more nonzero lanes).
// docs/algorithms/spmm-csr.md, "Long rows: the thresholds"
inline constexpr int kVeryLongLanes = 2;
// Blocks a very long row's nonzeros are cut into (over its slabs), only at small n.
// docs/algorithms/spmm-csr.md, "Long rows: parts"
inline constexpr int kVeryLongParts = 8;
// Where long rows go on warps: very long beyond this many load batches of a warp.
// docs/algorithms/spmm-csr.md, "Long rows on warps"
inline constexpr int kWarpVeryChunks = 8;
// Long rows go on warps (not blocks) for groups of at most this many column lanes.
// docs/algorithms/spmm-csr.md, "Long rows on warps"
inline constexpr int kWarpRowsMaxLanes = 2;

// ---- merge-path (choose_segments in geometry.hpp, merge_path.cuh) ---------------------

// Fewest merge items per segment (a group's share of its block's tile).
// docs/algorithms/spmm-csr.md, "Constants not measured separately"
inline constexpr std::int64_t kMinSegmentItems = 8;
// Merge items a block stages in shared memory (its tile: kThreads / G segments): 8 per
// thread, about what CUB's merge-based SpMV gives a thread; 12-22 KB of shared memory a
// block with the groups' head and tail sums.
// docs/algorithms/spmm-csr.md, "Constants not measured separately"
inline constexpr int kMergeTileItems = 1024;
// Segments no longer than needed for this many waves of resident groups (balance).
// docs/algorithms/spmm-csr.md, "Constants not measured separately"
inline constexpr std::int64_t kSegmentWaves = 4;
// Segments no longer than needed for this many mean rows each (fewer carry-outs).
// docs/algorithms/spmm-csr.md, "Constants not measured separately"
inline constexpr std::int64_t kSegmentRows = 4;
// The fix-up sums a run of more segments than this with the lanes over its segments, a
// shorter one with the lanes over the columns.
// docs/algorithms/spmm-csr.md, "Constants not measured separately"
inline constexpr std::int64_t kShortRun = 4;
// Columns per pass of the fix-up's long runs (a partial sum each in registers).
// docs/algorithms/spmm-csr.md, "Constants not measured separately"
inline constexpr int kFixupColumns = 8;

// ---- op(A) = A^T's copy (transpose.cu) -----------------------------------------------

// Whether a product over the transposed copy reads A's values in place, through the
// copy's permutation, instead of gathering them into the copy first: for row-split's
// one-column kernel (n == 1, SpMV), which reads every nonzero once, so a gather would
// read A's values at the same random positions and add the copy's write, its reading
// back and a launch (nnz values each way). The sums and their order are those over the
// gathered copy, bit for bit; the buffer then holds no values. Elsewhere the kernels
// read the gathered copy: row-split at n > 1 reads a value once per slab of columns (the
// random reads would be repeated), and merge-path and CSR-vector, which the automatic
// rule does not pick at n == 1, keep their own reads.
// docs/algorithms/spmv.md, "op(A) = A^T: scatter or copy, by algorithm"
inline bool reads_transpose_in_place(csr_kernel kernel, std::int64_t n) {
    return kernel == csr_kernel::row_split && n == 1;
}

// Threads per block of the transpose's kernels, one entry (or column) per thread.
// docs/algorithms/spmm-csr.md, "Constants not measured separately"
inline constexpr int kTransposeThreads = 256;

}  // namespace tcs::spmm::csr
