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

// TCS_SPMM_BSR_TC with a CSR A, whose preprocess may hand it to the CSR family.
bool may_hand_off(const problem& p) {
    return p.requested_family == family::blocks && !p.a_is_bsr && explicit_hand_off_enabled();
}

}  // namespace

static_assert(kBlockRows == formats::kWindowRows && kBlockColumns == formats::kGroupColumns,
              "the block shape the C layer reports is the format's");

void check_supported(const problem& p) {
    if (p.requested_family == family::blocks) blocks::check_supported(p);
}

std::size_t buffer_size(const problem& p) {
    if (may_hand_off(p)) return std::max(blocks::buffer_size(p), csr::buffer_size(p));
    if (p.requested_family == family::blocks) return blocks::buffer_size(p);
    const std::size_t csr_bytes = csr::buffer_size(p);
    if (blocks_may_pay(p)) return std::max(csr_bytes, blocks::buffer_size(p));
    return csr_bytes;
}

namespace {

// The block analysis found the blocks not worth it: the CSR family's analysis goes into
// the same buffer, with the block counts kept for tcsSpMM_getBlockCounts.
analysis csr_instead(const problem& p, void* buffer, const block_counts& counts) {
    analysis found = csr::preprocess(p, buffer);
    found.counts = counts;
    return found;
}

}  // namespace

analysis preprocess(const problem& p, void* buffer) {
    if (p.requested_family != family::blocks && !blocks_may_pay(p)) return csr::preprocess(p, buffer);
    const analysis found = blocks::preprocess(p, buffer);
    if (p.requested_family != family::blocks)  // DEFAULT weighing the blocks
        return blocks_pay(p, found.counts) ? found : csr_instead(p, buffer, found.counts);
    if (found.counts.duplicates > 0)
        fail(errc::not_supported, "SpMM blocks: a row of A holds a column more than once");
    return may_hand_off(p) && blocks_hand_off(p, found.counts) ? csr_instead(p, buffer, found.counts)
                                                               : found;
}

// After preprocess, the family its analysis chose (only the block analysis sets
// found.blocks); without it TCS_SPMM_BSR_TC keeps the blocks (deciding would need a wait)
// and every other algorithm runs on the CSR family.
void run(const problem& p, void* buffer, bool preprocessed, const analysis& found) {
    if (preprocessed ? found.blocks : p.requested_family == family::blocks)
        return blocks::run(p, buffer, preprocessed);
    csr::run(p, buffer, preprocessed, found);
}

}  // namespace tcs::spmm
