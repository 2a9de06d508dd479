#include "spgemm/hash/bins.hpp"

#include <climits>

namespace tcs::spgemm::hash {

bin_table bin_plan::thresholds() const {
    bin_table t;
    t.count = count;
    for (int b = 0; b < count; ++b) t.upper[b] = bins[b].upper;
    return t;
}

namespace {

void add_groups(bin_plan& p, int numerator, int denominator) {
    // 4 lanes x 16 slots, 8 x 32, 16 x 64, 32 x 128: kGroupSlots per block each.
    for (int i = 0; i < kGroupBins; ++i) {
        bin_info& b = p.bins[p.count++];
        b.kind = bin_kind::group;
        b.lanes = 4 << i;
        b.table = 16 << i;
        b.threads = kGroupThreads;
        b.upper = b.table * numerator / denominator;
    }
}

void add_wide(bin_plan& p) {
    bin_info& b = p.bins[p.count++];
    b.kind = bin_kind::wide;
    b.upper = INT_MAX;
    b.threads = kWideThreads;
}

}  // namespace

bin_plan symbolic_bins(const device_info& d) {
    bin_plan p;
    add_groups(p, 1, 2);
    for (const block_candidate& c : kSymbolicBlocks) {
        if (symbolic_block_bytes(c.table) > usable_smem(d)) break;
        bin_info& b = p.bins[p.count++];
        b.kind = bin_kind::block;
        b.table = c.table;
        b.threads = c.threads;
        b.upper = c.table / 2;
    }
    add_wide(p);
    return p;
}

bin_plan numeric_bins(const device_info& d, value_type v) {
    bin_plan p;
    add_groups(p, 3, 4);
    for (const block_candidate& c : kNumericBlocks) {
        if (numeric_block_bytes(c.table, c.threads, size_of(v)) > usable_smem(d)) break;
        bin_info& b = p.bins[p.count++];
        b.kind = bin_kind::block;
        b.table = c.table;
        b.threads = c.threads;
        b.upper = c.table / 4 * 3;
    }
    add_wide(p);
    return p;
}

}  // namespace tcs::spgemm::hash
