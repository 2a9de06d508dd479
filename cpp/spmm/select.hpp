// The rule behind algorithm::automatic (TCS_SPMM_ALG_DEFAULT, CSR_ALG1/2/3): row-split
// or merge-path, from what is known on the host without reading A (its mean row
// length nnz/m, and n).
//
// Why these shapes win: row-split gives each row to one lane group, so a warp waits for
// its longest row; merge-path cuts rows + nonzeros into equal segments (balanced
// whatever the row lengths) at the price of a partition (cached by preprocess), a
// carry-out record per segment and a fix-up launch. Short and irregular rows favour
// merge-path, long regular rows row-split. n == 1 uses merge-path: row-split then has
// one lane per row, which a single long row stalls.
//
// The threshold is a first guess, to be re-derived on H100 from the sweep in
// docs/algorithms/spmm-csr.md (both algorithms forced with TCS_SPMM_CSR_ROWSPLIT and
// TCS_SPMM_CSR_MERGE, n in {1, 8, 32, 128, 512}, over the matrix suite). The
// merge-spmm paper's 9.35 was measured on a K40 with kernels that paid more for the
// merge; here merge-path is taken up to a higher mean row length because the suite's
// graphs (mean 3-30, maximum in the thousands) punish row-split's imbalance most.
#pragma once

#include "spmm/spmm.hpp"

#include <cstdint>

namespace tcs::spmm {

// Mean nonzeros per row of op(A) from which row-split is chosen.
inline constexpr double kRowSplitFromMeanRowLength = 32.0;

inline algorithm choose_algorithm(algorithm requested, std::int64_t m, std::int64_t nnz,
                                  std::int64_t n) {
    if (requested != algorithm::automatic) return requested;
    if (n == 1 || m == 0) return algorithm::merge_path;
    const double mean = double(nnz) / double(m);
    return mean >= kRowSplitFromMeanRowLength ? algorithm::row_split : algorithm::merge_path;
}

}  // namespace tcs::spmm
