// SpMM's entry from the C layer: which family computes the problem. Each family lives
// in a folder of its own (csr/: row-split, merge-path, CSR-vector; blocks/: dense blocks
// on tensor cores) behind the same three calls; select.hpp has the rule of DEFAULT.
#include "spmm/spmm.hpp"

#include "core/error.hpp"
#include "formats/dense_blocks.hpp"
#include "spmm/blocks/blocks_spmm.hpp"
#include "spmm/csr/csr_spmm.hpp"
#include "spmm/select.hpp"

#include <algorithm>

namespace tcs::spmm {
namespace {

// The problem as the CSR family sees it: DEFAULT is its own automatic rule.
problem for_csr(const problem& p) {
    problem q = p;
    if (q.alg == algorithm::families) q.alg = algorithm::automatic;
    return q;
}

}  // namespace

static_assert(kBlockRows == formats::kWindowRows && kBlockColumns == formats::kGroupColumns,
              "the block shape the C layer reports is the format's");

void check_supported(const problem& p) {
    if (p.alg == algorithm::blocks) blocks::check_supported(p);
}

std::size_t buffer_size(const problem& p) {
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
        return found;
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
    if (p.alg == algorithm::blocks || (p.alg == algorithm::families && preprocessed && found.blocks))
        return blocks::run(p, buffer, preprocessed);
    csr::run(for_csr(p), buffer, preprocessed, found);
}

}  // namespace tcs::spmm
