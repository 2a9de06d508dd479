// SpMM's entry from the C layer: which family computes the problem. Each family lives
// in a folder of its own (csr/: row-split, merge-path, CSR-vector; blocks/: dense blocks
// on tensor cores) behind the same three calls; select.hpp has the rules of DEFAULT and
// of TCS_SPMM_BSR_TC's hand-off to the CSR family.
#include "spmm/spmm.hpp"

#include "core/environment.hpp"
#include "core/error.hpp"
#include "formats/dense_blocks.hpp"
#include "spmm/blocks/blocks_spmm.hpp"
#include "spmm/csr/csr_spmm.hpp"
#include "spmm/select.hpp"

#include <algorithm>

namespace tcs::spmm {
namespace {

// The problem as the CSR family sees it: DEFAULT, and TCS_SPMM_BSR_TC where it hands A
// over, are its own automatic rule.
problem for_csr(const problem& p) {
    problem q = p;
    if (q.alg == algorithm::families || q.alg == algorithm::blocks) q.alg = algorithm::automatic;
    return q;
}

// TCS_SPMM_BSR_TC with a CSR A, whose preprocess may hand it to the CSR family.
bool may_hand_off(const problem& p) {
    return p.alg == algorithm::blocks && !p.a_is_bsr && explicit_hand_off_enabled();
}

}  // namespace

static_assert(kBlockRows == formats::kWindowRows && kBlockColumns == formats::kGroupColumns,
              "the block shape the C layer reports is the format's");

void check_supported(const problem& p) {
    if (p.alg == algorithm::blocks) blocks::check_supported(p);
}

std::size_t buffer_size(const problem& p) {
    if (may_hand_off(p)) return std::max(blocks::buffer_size(p), csr::buffer_size(for_csr(p)));
    if (p.alg == algorithm::blocks) return blocks::buffer_size(p);
    const std::size_t csr_bytes = csr::buffer_size(for_csr(p));
    if (blocks_may_pay(p)) return std::max(csr_bytes, blocks::buffer_size(p));
    return csr_bytes;
}

analysis preprocess(const problem& p, void* buffer) {
    if (p.alg == algorithm::blocks) {
        const analysis found = blocks::preprocess(p, buffer);
        if (found.counts.duplicates > 0)
            fail(errc::not_supported, "SpMM blocks: a row of A holds a column more than once");
        if (!may_hand_off(p) || !blocks_hand_off(p, found.counts)) return found;
        analysis csr_found = csr::preprocess(for_csr(p), buffer);
        csr_found.counts = found.counts;  // kept for tcsSpMM_getBlockCounts
        return csr_found;
    }
    if (blocks_may_pay(p)) {
        const analysis found = blocks::preprocess(p, buffer);
        if (blocks_pay(p, found.counts)) return found;
        analysis csr_found = csr::preprocess(for_csr(p), buffer);
        csr_found.counts = found.counts;  // kept for tcsSpMM_getBlockCounts
        return csr_found;
    }
    return csr::preprocess(for_csr(p), buffer);
}

void run(const problem& p, void* buffer, bool preprocessed, const analysis& found) {
    // Without preprocess TCS_SPMM_BSR_TC keeps the blocks: deciding would need a wait.
    const bool handed_off = p.alg == algorithm::blocks && preprocessed && !found.blocks;
    if ((p.alg == algorithm::blocks && !handed_off) ||
        (p.alg == algorithm::families && preprocessed && found.blocks))
        return blocks::run(p, buffer, preprocessed);
    csr::run(for_csr(p), buffer, preprocessed, found);
}

}  // namespace tcs::spmm
