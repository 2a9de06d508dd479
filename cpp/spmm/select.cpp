// Which plan computes an SpMM problem (plan_for), and the two plans that weigh one family
// against the other: DEFAULT with a CSR A (the blocks where they pay, else the CSR
// family) and TCS_SPMM_BSR_TC (the blocks, handed to the CSR family where its preprocess
// finds them far slower). The rules they apply are in select.hpp, built on the families'
// own rules files; after preprocess, run picks the family from the analysis
// (found.blocks, set only by the block analysis).
#include "spmm/select.hpp"

#include "core/environment.hpp"
#include "core/error.hpp"
#include "formats/dense_blocks.hpp"
#include "spmm/plan.hpp"

#include <algorithm>

namespace tcs::spmm {
namespace {

static_assert(kBlockRows == formats::kWindowRows && kBlockColumns == formats::kGroupColumns,
              "the block shape the C layer reports is the format's");

// The block analysis found the blocks not worth it: the CSR family's analysis goes into
// the same buffer, with the block counts kept for tcsSpMM_getBlockCounts.
analysis csr_instead(const problem& p, void* buffer, const block_counts& counts) {
    analysis found = csr_family_plan().preprocess(p, buffer);
    found.counts = counts;
    return found;
}

// After preprocess, the family its analysis chose; without it, `blocks_unanalysed`
// (deciding would need a wait).
void run_chosen(const problem& p, void* buffer, bool preprocessed, const analysis& found,
                bool blocks_unanalysed) {
    const plan& chosen = (preprocessed ? found.blocks : blocks_unanalysed) ? blocks_family_plan()
                                                                           : csr_family_plan();
    chosen.run(p, buffer, preprocessed, found);
}

// TCS_SPMM_ALG_DEFAULT with a CSR A. Where blocks_may_pay says no, exactly the CSR family:
// same buffer size, same preprocess (no wait added), same results. Otherwise preprocess
// builds the block format, and blocks_pay on its counts keeps it or hands the product to
// the CSR family; a run without preprocess runs the CSR family.
class default_plan final : public plan {
public:
    void check_supported(const problem&) const override {}

    std::size_t buffer_size(const problem& p) const override {
        const std::size_t csr_bytes = csr_family_plan().buffer_size(p);
        if (!blocks_may_pay(p)) return csr_bytes;
        return std::max(csr_bytes, blocks_family_plan().buffer_size(p));
    }

    analysis preprocess(const problem& p, void* buffer) const override {
        if (!blocks_may_pay(p)) return csr_family_plan().preprocess(p, buffer);
        const analysis found = blocks_family_plan().preprocess(p, buffer);
        return blocks_pay(p, found.counts) ? found : csr_instead(p, buffer, found.counts);
    }

    void run(const problem& p, void* buffer, bool preprocessed, const analysis& found) const override {
        run_chosen(p, buffer, preprocessed, found, false);
    }
};

// The block family asked for (TCS_SPMM_BSR_TC, BSR_ALG1, any BSR A): duplicate entries are
// refused. With `hands_off` (TCS_SPMM_BSR_TC with a CSR A, the hand-off enabled), its
// preprocess may hand the product to the CSR family (blocks_hand_off), so the buffer
// holds either family's; a run without preprocess keeps the blocks.
class explicit_blocks_plan final : public plan {
public:
    explicit explicit_blocks_plan(bool hands_off) : hands_off_(hands_off) {}

    void check_supported(const problem& p) const override { blocks_family_plan().check_supported(p); }

    std::size_t buffer_size(const problem& p) const override {
        const std::size_t blocks_bytes = blocks_family_plan().buffer_size(p);
        if (!hands_off_) return blocks_bytes;
        return std::max(blocks_bytes, csr_family_plan().buffer_size(p));
    }

    analysis preprocess(const problem& p, void* buffer) const override {
        const analysis found = blocks_family_plan().preprocess(p, buffer);
        if (found.counts.duplicates > 0)
            fail(errc::not_supported, "SpMM blocks: a row of A holds a column more than once");
        return hands_off_ && blocks_hand_off(p, found.counts) ? csr_instead(p, buffer, found.counts)
                                                              : found;
    }

    void run(const problem& p, void* buffer, bool preprocessed, const analysis& found) const override {
        run_chosen(p, buffer, preprocessed, found, true);
    }

private:
    bool hands_off_;
};

}  // namespace

const plan& plan_for(const problem& p) {
    static const default_plan weighing;
    static const explicit_blocks_plan blocks_kept(false), blocks_handed_off(true);
    switch (p.requested_family) {
    case family::csr: return csr_family_plan();
    case family::blocks:
        return !p.a_is_bsr && explicit_hand_off_enabled() ? blocks_handed_off : blocks_kept;
    case family::automatic: break;
    }
    return weighing;
}

}  // namespace tcs::spmm
