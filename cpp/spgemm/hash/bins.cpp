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

// Block-bin candidates, smallest table first: (table, threads). A bin is kept while its
// table fits the device's opt-in shared memory; the rows of the dropped ones go wide.
struct candidate {
    int table, threads;
};
constexpr candidate kSymbolicBlocks[] = {{512, 64}, {2048, 128}, {8192, 256}, {32768, 512}};
// Numeric tables stop at 16 sort items per thread: CUB's radix sort holds them in
// registers, and more would cost occupancy during the whole row (or spill). The 16384
// table (fp32 only: fp64 needs 229 KB) keeps rows of up to 12288 entries out of the
// wide bin, whose scratch lives in global memory.
constexpr candidate kNumericBlocks[] = {{256, 64},   {512, 128},  {1024, 128}, {2048, 256},
                                        {4096, 256}, {8192, 512}, {16384, 1024}};

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
    for (const candidate& c : kSymbolicBlocks) {
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
    for (const candidate& c : kNumericBlocks) {
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
