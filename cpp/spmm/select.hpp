// The rules between SpMM's families for a CSR A: the block family (blocks/, tensor
// cores) or the CSR family (csr/, its own rule among its kernels). Blocks pay where the
// rows of a 32-row window share most of their columns, so that each row of op(B) a
// block loads serves many nonzeros, and where the matrix is large enough that the
// block kernel's longer chain of dependent loads per window is hidden by many windows;
// on unstructured graphs a block holds one or two nonzeros per column, and on small
// matrices the CSR kernels finish first.
// TCS_SPMM_ALG_DEFAULT has two stages:
//   - blocks_may_pay, from sizes, types, operations and the device only: whether the
//     blocks are worth analysing at all. Where it says no, DEFAULT is exactly the CSR
//     family: same buffer size, same preprocess (no wait added), same results;
//   - blocks_pay, after preprocess built the format and read its counts back: the
//     nonzeros per row of op(B) loaded, against a threshold per precision.
// TCS_SPMM_BSR_TC with a CSR A keeps the blocks except where its preprocess counts show
// them far slower than the CSR family (blocks_hand_off): a looser threshold on the same
// counts. The thresholds come from the H100/H200 runs of the bench family spmm_blocks;
// the measurements are in docs/algorithms/spmm-blocks.md ("DEFAULT", "TCS_SPMM_BSR_TC on
// matrices the blocks do not fit").
#pragma once

#include "spmm/spmm.hpp"

#include <cstdint>

namespace tcs::spmm {

// Whether DEFAULT considers the block family at all (a switch for diagnosis: off,
// DEFAULT is exactly the CSR family).
inline constexpr bool kDefaultConsidersBlocks = true;

// Fewest columns of C for which the blocks are considered: below, the MMA tiles (16
// columns, 8 for fp64) are mostly padding and the CSR family's one-column and narrow
// kernels are faster; 32 is the narrowest width measured to pay.
inline constexpr std::int64_t kBlocksMinColumns = 32;

// Fewest entries of A: the small matrices measured ran faster on the CSR family at every
// width and precision (docs/algorithms/spmm-blocks.md, "DEFAULT").
inline constexpr std::int64_t kBlocksMinEntries = std::int64_t(1) << 20;

// Nonzeros per row of op(B) loaded, at least: the blocks read a row of op(B) once per
// window that has its column, the CSR kernels once per nonzero. 16-bit data (one HMMA
// per tile) pays from 4; fp64 (DMMA's work per block is eight times HMMA's per byte of
// op(B)) from 8 (the matrices on either side: docs/algorithms/spmm-blocks.md, "DEFAULT").
inline constexpr double kBlocksMinReuseHalf = 4.0;
inline constexpr double kBlocksMinReuseWide = 8.0;

inline double blocks_min_reuse(const problem& p) {
    const value_type t = p.a.type;
    return t == value_type::f16 || t == value_type::bf16 ? kBlocksMinReuseHalf : kBlocksMinReuseWide;
}

// Data types whose block kernels were measured to pay: fp16, bf16 (HMMA) and fp64 (DMMA).
// fp32 data on DMMA (widened, the default math) did not pay even on the blockiest
// matrices (the CSR kernels move half fp64's bytes); TF32 is unmeasured.
inline bool blocks_type_pays(value_type t) {
    return t == value_type::f16 || t == value_type::bf16 || t == value_type::f64;
}

inline bool blocks_may_pay(const problem& p) {
    return kDefaultConsidersBlocks && p.requested_family == family::automatic && !p.a_is_bsr && !p.trans_a &&
           blocks_type_pays(p.a.type) &&
           p.device != nullptr && p.device->cc_major >= 8 && p.c.cols >= kBlocksMinColumns &&
           p.a.nnz >= kBlocksMinEntries && p.a.nnz < (std::int64_t(1) << 31) - 1;
}

// Counted (not while capturing), built (it fitted DEFAULT's capacity, which needs
// sorted rows), no duplicate entries, and enough nonzeros per row of op(B) loaded.
inline bool blocks_pay(const problem& p, const block_counts& c) {
    if (c.blocks < 0 || !c.built || c.duplicates != 0 || c.unsorted_rows != 0 || c.distinct <= 0)
        return false;
    return double(c.entries) >= blocks_min_reuse(p) * double(c.distinct);
}

// TCS_SPMM_BSR_TC with a CSR A hands the product to the CSR family below this many
// nonzeros per row of op(B) loaded, whatever the precision and width: the matrices
// measured below it ran several times slower on the blocks, those above it mostly within
// twice the CSR family's time (docs/algorithms/spmm-blocks.md, "TCS_SPMM_BSR_TC on matrices the
// blocks do not fit").
inline constexpr double kBlocksExplicitMinReuse = 3.5;

// Whether TCS_SPMM_BSR_TC's preprocess hands a CSR A to the CSR family: only where the
// counts were read (not while capturing) and show too few nonzeros per row of op(B)
// loaded. A BSR A (blocked by the caller) always stays on the blocks.
inline bool blocks_hand_off(const problem& p, const block_counts& c) {
    if (p.requested_family != family::blocks || p.a_is_bsr || c.blocks < 0 || c.distinct <= 0) return false;
    return double(c.entries) < kBlocksExplicitMinReuse * double(c.distinct);
}

}  // namespace tcs::spmm
