// The rule behind TCS_SPMM_ALG_DEFAULT for a CSR A: the block family (blocks/, tensor
// cores) or the CSR family (csr/, its own rule among its kernels). Blocks pay where the
// rows of a 32-row window share most of their columns, so that each row of op(B) a
// block loads serves many nonzeros; on unstructured graphs a block holds one or two
// nonzeros per column and the CSR kernels win. The rule has two stages:
//   - blocks_may_pay, from sizes, types, operations and the device only: whether the
//     blocks are worth analysing at all. Where it says no, DEFAULT is exactly the CSR
//     family: same buffer size, same preprocess (no wait added), same results;
//   - blocks_pay, after preprocess built the format and read its counts back: the
//     measured threshold on the rows of op(B) loaded per nonzero.
// The constants are first guesses from the format's statistics (docs/algorithms/
// spmm-blocks.md): no GPU time was left to measure them when the family landed, so
// DEFAULT does not consider the blocks yet (kDefaultConsidersBlocks); the bench family
// spmm_blocks measures DEFAULT, the block and the CSR family side by side for the
// decision.
#pragma once

#include "spmm/spmm.hpp"

#include <cstdint>

namespace tcs::spmm {

// Whether DEFAULT considers the block family at all. Off until the rule below is
// measured on the H100: DEFAULT is then exactly the CSR family (buffer size, preprocess
// without the block analysis, results), and the block family computes only when asked
// for (TCS_SPMM_BSR_TC, BSR matrices). DEFAULT's smaller format (blocks_spmm.cu,
// capacity_of) is tested in tests/blocks_emulation whatever this says; the choice itself
// and usesBlocks in gpu_spmm_blocks' test_default_rule once this is on.
inline constexpr bool kDefaultConsidersBlocks = false;

// Fewest columns of C for which the blocks are considered: below, the MMA tiles (16
// columns, 8 for fp64) are mostly padding and the CSR family's one-column and narrow
// kernels are faster.
inline constexpr std::int64_t kBlocksMinColumns = 8;

// Nonzeros per row of op(B) loaded, at least: the blocks read a row of op(B) once per
// window that has its column, the CSR kernels once per nonzero.
inline constexpr double kBlocksMinReuse = 2.0;

inline bool blocks_may_pay(const problem& p) {
    return kDefaultConsidersBlocks && p.alg == algorithm::families && !p.a_is_bsr && !p.trans_a &&
           p.device != nullptr && p.device->cc_major >= 8 && p.c.cols >= kBlocksMinColumns && p.a.nnz > 0 &&
           p.a.nnz < (std::int64_t(1) << 31) - 1;
}

// Counted (not while capturing), built (it fitted DEFAULT's capacity, which needs
// sorted rows), no duplicate entries, and enough nonzeros per row of op(B) loaded.
inline bool blocks_pay(const problem&, const block_counts& c) {
    if (c.blocks < 0 || !c.built || c.duplicates != 0 || c.unsorted_rows != 0 || c.distinct <= 0)
        return false;
    return double(c.entries) >= kBlocksMinReuse * double(c.distinct);
}

}  // namespace tcs::spmm
