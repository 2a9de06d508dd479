// The block family's choices (host-only, pure functions and constants): when its blocks
// pay against the CSR family (read by DEFAULT and TCS_SPMM_BSR_TC's hand-off in
// cpp/spmm/select.hpp), how much of the format DEFAULT's buffer holds, and how the kernel
// lays windows over warps (and how many warps and MMA tiles its thread blocks and tasks
// hold). Blocks pay where the rows of a 32-row window share most of
// their columns, so that each row of op(B) a block loads serves many nonzeros, and where
// the matrix is large enough that the block kernel's longer chain of dependent loads per
// window is hidden by many windows. The measurements: docs/algorithms/spmm-blocks.md.
#pragma once

#include "core/types.hpp"

#include <cstdint>

namespace tcs::spmm::blocks {

// Fewest columns of C for which DEFAULT considers the blocks: below, the MMA tiles (16
// columns, 8 for fp64) are mostly padding and the CSR family's one-column and narrow
// kernels are faster; 32 is the narrowest width measured to pay.
// docs/algorithms/spmm-blocks.md, "DEFAULT: when the blocks pay"
inline constexpr std::int64_t kBlocksMinColumns = 32;

// Fewest entries of A for which DEFAULT considers the blocks: the small matrices measured
// ran faster on the CSR family at every width and precision.
// docs/algorithms/spmm-blocks.md, "DEFAULT: when the blocks pay"
inline constexpr std::int64_t kBlocksMinEntries = std::int64_t(1) << 20;

// Nonzeros per row of op(B) loaded, at least, for DEFAULT to keep the blocks: the blocks
// read a row of op(B) once per window that has its column, the CSR kernels once per
// nonzero. 16-bit data (one HMMA per tile) pays from 4; fp64 (DMMA's work per block is
// eight times HMMA's per byte of op(B)) from 8 (the matrices on either side measured).
// docs/algorithms/spmm-blocks.md, "DEFAULT: when the blocks pay"
inline constexpr double kBlocksMinReuseHalf = 4.0;
// docs/algorithms/spmm-blocks.md, "DEFAULT: when the blocks pay"
inline constexpr double kBlocksMinReuseWide = 8.0;

inline double blocks_min_reuse(value_type a_type) {
    return a_type == value_type::f16 || a_type == value_type::bf16 ? kBlocksMinReuseHalf
                                                                  : kBlocksMinReuseWide;
}

// Data types whose block kernels were measured to pay: fp16, bf16 (HMMA) and fp64 (DMMA).
// fp32 data on DMMA (widened, the default math) did not pay even on the blockiest
// matrices (the CSR kernels move half fp64's bytes); TF32 is unmeasured.
inline bool blocks_type_pays(value_type t) {
    return t == value_type::f16 || t == value_type::bf16 || t == value_type::f64;
}

// TCS_SPMM_BSR_TC with a CSR A hands the product to the CSR family below this many
// nonzeros per row of op(B) loaded, whatever the precision and width: the matrices
// measured below it ran several times slower on the blocks, those above it mostly within
// twice the CSR family's time. Looser than DEFAULT's thresholds: what DEFAULT keeps on
// the blocks, BSR_TC keeps too.
// docs/algorithms/spmm-blocks.md, "TCS_SPMM_BSR_TC on matrices the blocks do not fit"
inline constexpr double kBlocksExplicitMinReuse = 3.5;

// Windows the kernel cuts over the warps of a thread block (kernel.cuh): with few
// windows (a small matrix: the device would wait on their serial chains of blocks) every
// window of kSplitBlocksFew blocks or more; with many, only those of kSplitBlocksMany or
// more. A function of the window count alone, so that the sums do not depend on the
// device.
// docs/algorithms/spmm-blocks.md, "The kernel"
inline constexpr std::int64_t kSplitFewWindows = 2048;
// docs/algorithms/spmm-blocks.md, "The kernel"
inline constexpr int kSplitBlocksFew = 4;
// docs/algorithms/spmm-blocks.md, "The kernel"
inline constexpr int kSplitBlocksMany = 32;

inline int split_groups_for(std::int64_t windows) {
    return windows < kSplitFewWindows ? kSplitBlocksFew : kSplitBlocksMany;
}

// Thread blocks of 16 warps, each window cut into 16 ranges, where the matrix has fewer
// than kWideMaxWindows windows: the windows alone would leave most of the device idle
// while each waits on its chain of blocks. With more windows the wide blocks (one per SM
// by shared memory) run in waves and lose. Also a function of the window count alone.
// docs/algorithms/spmm-blocks.md, "Measured (H200"
inline constexpr std::int64_t kWideMaxWindows = 64;

inline bool wide_for(std::int64_t windows) { return windows < kWideMaxWindows; }

// Warps per thread block of the kernel (W): a window's range or a window of its own each.
// docs/algorithms/spmm-blocks.md, "The kernel"
inline constexpr int kWarps = 4;
// Warps per thread block for a matrix of few windows (wide_for): each window cut into 16
// ranges waits on a 16th of its chain of blocks.
// docs/algorithms/spmm-blocks.md, "Measured (H200"
inline constexpr int kWideWarps = 16;

// MMA tiles of columns per task, at most, on HMMA (16-bit data and TF32: half_policy and
// tf32_policy in policies.cuh): 64 accumulators per lane at 4; tasks of 8 tiles took 218
// registers, two thread blocks per SM, and were slower.
// docs/algorithms/spmm-blocks.md, "Measured (H200"
inline constexpr int kMaxTilesHmma = 4;
// MMA tiles per task, at most, on DMMA (f64_policy): 32 rows x 16 columns of C, 32
// registers of accumulators, which leave room for the gathered values at four thread
// blocks per SM.
// docs/algorithms/spmm-blocks.md, "The kernel"
inline constexpr int kMaxTilesDmma = 2;

}  // namespace tcs::spmm::blocks
