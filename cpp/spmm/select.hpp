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
// counts. The thresholds are the block family's (blocks/rules.hpp, each with its
// measurement's docs pointer); here they are combined into DEFAULT's and BSR_TC's rules.
#pragma once

#include "spmm/blocks/rules.hpp"
#include "spmm/spmm.hpp"

#include <cstdint>

namespace tcs::spmm {

// Whether DEFAULT considers the block family at all (a switch for diagnosis: off,
// DEFAULT is exactly the CSR family).
inline constexpr bool kDefaultConsidersBlocks = true;

// Whether DEFAULT weighs the blocks at all: CSR A as stored, a type and a size the
// blocks were measured to pay at, a device with the tensor cores' mma.sync (sm_80).
inline bool blocks_may_pay(const problem& p) {
    return kDefaultConsidersBlocks && p.requested_family == family::automatic && !p.a_is_bsr &&
           !p.trans_a && blocks::blocks_type_pays(p.a.type) && p.device != nullptr &&
           p.device->cc_major >= 8 && p.c.cols >= blocks::kBlocksMinColumns &&
           p.a.nnz >= blocks::kBlocksMinEntries && p.a.nnz < (std::int64_t(1) << 31) - 1;
}

// Counted (not while capturing), built (it fitted DEFAULT's capacity, which needs
// sorted rows), no duplicate entries, and enough nonzeros per row of op(B) loaded.
inline bool blocks_pay(const problem& p, const block_counts& c) {
    if (c.blocks < 0 || !c.built || c.duplicates != 0 || c.unsorted_rows != 0 || c.distinct <= 0)
        return false;
    return double(c.entries) >= blocks::blocks_min_reuse(p.a.type) * double(c.distinct);
}

// Whether TCS_SPMM_BSR_TC's preprocess hands a CSR A to the CSR family: only where the
// counts were read (not while capturing) and show too few nonzeros per row of op(B)
// loaded. A BSR A (blocked by the caller) always stays on the blocks.
inline bool blocks_hand_off(const problem& p, const block_counts& c) {
    if (p.requested_family != family::blocks || p.a_is_bsr || c.blocks < 0 || c.distinct <= 0) return false;
    return double(c.entries) < blocks::kBlocksExplicitMinReuse * double(c.distinct);
}

}  // namespace tcs::spmm
