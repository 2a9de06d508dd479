// How the SpMM kernels lay threads over C. Row-split and merge-path give each row of C
// (row-split) or each merge segment (merge-path) to a *group* of lanes; column lane l
// of a group owns NV vectors of V consecutive columns, vector v starting at column
// (v*G + l)*V of the current slab, so that the G column lanes read one 16-byte piece
// each of a row of B side by side (coalesced for row-major B). A slab is G*NV*V
// columns; wider C is covered by several slabs. Row-split's groups also have R nonzero
// lanes (rows_lanes): G*R lanes per row, nonzero lane q summing nonzeros q, q+R, ...
//
// The geometry depends only on the problem's sizes, the element size and the device
// (never on alignment, leading dimensions or addresses), because what preprocess
// caches depends on it and the preprocess memo key does not include B's and C's
// addresses. Its constants are the family's choices, in rules.hpp.
#pragma once

#include "core/device.hpp"
#include "core/grid.hpp"
#include "spmm/csr/rules.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace tcs::spmm::csr {

inline constexpr int kVectorBytes = 16;  // one vector = one 16-byte load of B

struct geometry {
    int lanes = 1;       // G: column lanes per group, a power of two <= 32
    int vectors = 1;     // NV: vectors per lane (1 or 2)
    int width = 4;       // V: elements per vector, 16 / sizeof(B's element)
    int rows_lanes = 1;    // R: nonzero lanes per row (row-split only), G*R <= 32
    int chain_lanes = 1;   // R before the busy rule: long rows are counted in its batches
    bool busy = false;     // row-split: groups of over kBusyWaves x the device's threads
    bool strided = false;  // n is no multiple of V: B is surely read element by element
    bool single = false;   // n == 1: one column, single_column.cuh's kernel
    std::int64_t slab() const { return std::int64_t(lanes) * vectors * width; }
    // Nonzeros per lane in flight (unroll in operands.cuh; aligned row-major B may take
    // 8 / NV, strided B takes half; single_column.cuh's kSingleUnroll).
    int unroll() const;
};

// The narrowest group that covers n columns in one slab, up to a warp; beyond a warp,
// two vectors per lane (so that more than one slab is needed only from 64*V columns).
inline geometry choose_geometry(std::int64_t n, std::size_t element_bytes) {
    geometry g;
    g.width = int(kVectorBytes / element_bytes);
    const std::int64_t vectors = (n + g.width - 1) / g.width;
    if (vectors > 32) {
        g.lanes = 32;
        g.vectors = 2;
        return g;
    }
    while (g.lanes < vectors) g.lanes *= 2;
    return g;
}

// One column (n == 1, a sparse matrix-vector product): a lane's nonzeros whose loads are
// in flight together (kSingleUnroll), and the blocks per SM single_column.cuh's kernel is
// compiled for.
constexpr int single_blocks_per_sm(std::size_t element_bytes) { return element_bytes == 8 ? 12 : 16; }

inline int geometry::unroll() const {
    return single ? kSingleUnroll : (strided ? 4 : 8) / vectors;
}

inline std::int64_t slab_count(std::int64_t n, const geometry& g) {
    return (n + g.slab() - 1) / g.slab();
}

// Blocks per SM the product kernels are compiled for (__launch_bounds__), i.e. a
// register cap of 65536 / (kThreads * blocks): the most blocks at which ptxas keeps the
// kernels free of spills (-Xptxas -v, CUDA 13, sm_90). Row-split holds fewer values
// across its loop than merge-path. Also the occupancy the host plans with.
constexpr int merge_blocks_per_sm(std::size_t element_bytes) { return element_bytes == 2 ? 4 : 5; }
// Merge-path's kernel with two vectors per lane (n beyond 32 vectors) holds twice the B
// values of a load batch, and spilled at 5 blocks (aligned fp32): 4 there.
constexpr int merge_kernel_blocks(std::size_t element_bytes, int vectors) {
    return vectors == 2 ? 4 : merge_blocks_per_sm(element_bytes);
}
constexpr int row_split_blocks_per_sm(std::size_t element_bytes) {
    return element_bytes == 2 ? 5 : 7;
}

// Row-split's kernels by what they do with very long rows: take each (row, slab) whole,
// or cut it into parts (tier 1 of plan_long_rows), compiled for 7 blocks per SM or,
// where the groups fill the device, for 9. With parts, ptxas takes up to the cap of 72
// registers; 9 blocks (56 registers, aligned B of 4- or 8-byte elements: 16-bit
// elements would spill) let the groups' blocks run beside the wave of long-row blocks
// where the groups fill the device, but slow the parts where they leave it underfilled.
//
// Two vectors per lane of aligned fp32 take 9 blocks in every kernel: with the warp
// loads (sum_row_warp) they fit 56 registers, and the wider slabs at n > 128 (and the
// busy geometry at n = 65..128) are latency-bound. The host still plans with
// row_split_blocks_per_sm.
// Runs (row_runs.cuh, windows of Z = 3 or 4 rows): Z sums of NV vectors per lane take
// 86-95 registers (fp32; -Xptxas -v, CUDA 13, sm_90), so kRunBlocks blocks per SM, and
// half the rows of op(B) in flight per lane: each value of B loaded serves up to Z rows'
// products, and the registers go to the sums. fp64 windows of 4 spill a little there,
// and still ran faster than at 4 blocks without spills.
// Measured: docs/algorithms/spmm-csr.md, "Row-split's blocks per SM".
constexpr int run_unroll(int vectors, bool vector) {
    const int u = (vector ? 8 : 4) / vectors;
    return u > 1 ? u / 2 : u;
}

inline constexpr int kWhole = 0, kParts = 1, kPartsFilled = 2;
constexpr int row_split_kernel_blocks(std::size_t element_bytes, bool vector, int vectors,
                                      int parts, int runs = 1) {
    if (runs > 1) return kRunBlocks;
    if (vector && vectors == 2 && element_bytes == 4) return 9;
    return parts == kPartsFilled && vector && vectors == 1 && element_bytes >= 4
               ? 9
               : row_split_blocks_per_sm(element_bytes);
}

// Blocks per SM the CSR-vector kernel (its row_group: rules.hpp) is compiled for, by
// tile (each column costs a sum and, for every unrolled nonzero, a value of B in
// registers) and by the width of A's indices (64-bit columns in flight take registers
// too): the most at which ptxas keeps it free of spills (-Xptxas -v, CUDA 13, sm_90). A
// memory-bound kernel wants every warp it can get. Only the launch bounds depend on it,
// never a result.
constexpr int vector_rows_blocks_per_sm(std::size_t element_bytes, int tile,
                                        std::size_t index_bytes) {
    if (tile == 4) return 10;
    return element_bytes == 8 && index_bytes == 8 ? 6 : 8;
}

// The device's SMs (an H100's 132 when the properties are missing).
inline std::int64_t sm_count_of(const device_info* device) {
    return device && device->sm_count > 0 ? device->sm_count : 132;
}

// Threads of row-split's kernels the device runs at once (its wave of blocks).
inline double row_split_resident_threads(const device_info* device, std::size_t element_bytes) {
    return double(sm_count_of(device)) * kThreads * row_split_blocks_per_sm(element_bytes);
}

// Lane groups of geometry g that the device holds at once, `blocks_per_sm` blocks of
// kThreads on each SM.
inline std::int64_t resident_groups(const device_info* device, const geometry& g,
                                    int blocks_per_sm) {
    return sm_count_of(device) * kThreads * blocks_per_sm / g.lanes;
}

// Threads of row-split's groups: G*R lanes for every (row, slab).
inline double group_threads(std::int64_t m, std::int64_t n, const geometry& g) {
    return double(m) * double((n + g.slab() - 1) / g.slab()) * g.lanes * g.rows_lanes;
}

// Row-split's geometry. It starts from the widest slab (choose_geometry: A read once
// per slab) and narrows it, down to kMinSlabLanes column lanes (128 bytes of a row of
// B, a whole cache line), while the (row, slab) groups would hold fewer threads than
// the device runs at once: a matrix of a few hundred rows (mbeacxc, aa3, Si2) then
// still fills the device, each group re-reading its rows of A (small, from L2). Its
// nonzero lanes: the fewest that give every lane of a mean row at most one load batch
// (unroll() nonzeros), within a warp. More lanes shorten the chain of dependent loads a
// row costs (the column index, then B); fewer waste no lanes on short rows. Where the
// groups still leave half the device idle, more nonzero lanes, up to a warp per row:
// the longer-than-mean rows' chains shrink at no cost.
// Measured: docs/algorithms/spmm-csr.md, "Row-split's geometry: filling the device".

inline int rows_lanes_for(const geometry& g, double mean) {
    int r = 1;
    while (r * g.lanes < 32 && double(r * g.unroll()) < mean) r *= 2;
    return r;
}

// One column (single_column.cuh): W = rows_lanes lanes per row, the power of two
// nearest (on a log scale) to a mean row's load batches, mean / kSingleUnroll, so that
// a mean row takes about one batch per lane; then doubled while the groups hold at most
// a quarter of the threads the device runs at once (nearest beat the next power of two
// up and half the lanes; a half instead of a quarter was slower).
// Measured: docs/algorithms/spmm-csr.md, "One column: kSingleFill and the lanes per row".
inline geometry choose_single(std::int64_t m, double mean, std::size_t element_bytes,
                              const device_info* device) {
    geometry g = choose_geometry(1, element_bytes);
    g.single = true;
    g.strided = true;
    g.rows_lanes = 1;
    while (g.rows_lanes < 32 && double(g.rows_lanes * kSingleUnroll) * 1.41421356 < mean)
        g.rows_lanes *= 2;
    const double resident =
        double(sm_count_of(device)) * kThreads * single_blocks_per_sm(element_bytes);
    while (g.rows_lanes < 32 && kSingleFill * group_threads(m, 1, g) <= resident)
        g.rows_lanes *= 2;
    g.chain_lanes = g.rows_lanes;
    return g;
}

// padded_b: op(B) is read from the buffer's row-wise copy (rules.hpp, formats/dense.hpp), whose rows are
// whole 16-byte vectors: B then takes 16-byte loads whatever n is.
inline geometry choose_split(std::int64_t m, std::int64_t nnz, std::int64_t n,
                             std::size_t element_bytes, const device_info* device,
                             bool padded_b = false) {
    geometry g = choose_geometry(n, element_bytes);
    g.strided = !padded_b && n % g.width != 0;
    const double mean = m > 0 ? double(nnz) / double(m) : 0.0;
    if (n == 1) return choose_single(m, mean, element_bytes, device);
    const double resident = row_split_resident_threads(device, element_bytes);
    g.rows_lanes = rows_lanes_for(g, mean);
    while (group_threads(m, n, g) < resident && g.lanes * g.vectors > kMinSlabLanes) {
        if (g.vectors == 2)
            g.vectors = 1;
        else
            g.lanes /= 2;
        g.rows_lanes = rows_lanes_for(g, mean);
    }
    // Still short of the device's threads: more nonzero lanes cost nothing the device
    // has to wait for (they would idle) and cut the longer-than-mean rows' chains.
    while (g.lanes * g.rows_lanes < 32 && 2 * group_threads(m, n, g) <= resident)
        g.rows_lanes *= 2;
    g.chain_lanes = g.rows_lanes;
    // Busy: the groups hold more than kBusyWaves times the threads the device runs at
    // once. Other warps then hide a row's chain, and what counts is the load-store
    // instructions per product (the kernels were issue-bound there). So one nonzero lane
    // per row (no butterfly; a row's column indices and values loaded once per column
    // lane) and, where a warp of column lanes covers the slab with one vector each,
    // half the lanes with two vectors each: two rows per warp, one index load for 8
    // products instead of 4. (Not where the device is not busy: slower there.) The
    // long-row threshold keeps the chain_lanes the groups had (plan_long_rows): with
    // R = 1 it listed rows near the mean too.
    //
    // Groups of one or two column lanes (n <= 2 vectors) do 1-8 products per loaded
    // nonzero, and there a row's chain still counts: their rows keep enough nonzero
    // lanes for kBusyChain load batches per lane of a mean row. Wider groups keep R = 1
    // (the chain rule was slower there).
    // Measured: docs/algorithms/spmm-csr.md, "Row-split's geometry: busy".
    if (group_threads(m, n, g) > kBusyWaves * resident) {
        g.busy = true;
        if (g.lanes == 32 && g.vectors == 1) {
            g.lanes = 16;
            g.vectors = 2;
        }
        g.rows_lanes = 1;
        while (g.lanes <= 2 && g.rows_lanes * g.lanes < 32 &&
               mean > kBusyChain * g.rows_lanes * g.unroll())
            g.rows_lanes *= 2;
    }
    return g;
}

// Long rows (row-split). A row is "long" when it has more than kLongChunks load
// batches of its group (batches of chain_lanes nonzero lanes; when the groups leave the
// device underfilled: more than kLongChunksUnderfilled batch and kLongMinUnderfilled
// nonzeros), more than kLongMeanFactor times the mean row (kLongMeanFactorUnderfilled
// when underfilled) and, for groups of 16 or more column lanes, more than kLongMin
// nonzeros. The groups
// skip it; instead whole blocks take it, kThreads lanes over its nonzeros with partial
// sums added through shared memory, one block per column slab of long_lanes(G) column
// lanes. A row of more than kLongChunks of such a block's load batches (kVeryLongChunksWide
// where the groups' lanes hold two vectors and the device is busy) is "very long":
// it gets slabs of kVeryLongLanes column lanes (more blocks, each with more nonzero
// lanes) and, when it has at most kVeryLongParts / 4 such slabs, its nonzeros are cut
// into kVeryLongParts / slabs parts, a block each; the block that finishes a (row,
// slab) last adds the parts' partial sums, in part order, from the buffer
// (row_split.cuh).
//
// Why: a row of thousands of nonzeros kept one group busy long after the rest of the
// device was done. Every (row, slab) task costs a chain of dependent loads, so the long
// rows' slabs are only as narrow as they need to be (long_lanes). The minimum and the
// mean factor keep regular rows with the groups (with load batches alone, every row of
// a stencil was "long"). Underfilled devices (a few hundred rows) gain from lending
// long rows more lanes, and the mean factor there keeps rows near the mean with the
// groups. Measured: docs/algorithms/spmm-csr.md, "Long rows: the thresholds".
//
// Two vectors (n beyond 32 vectors: 128 fp32 or 64 fp64 columns, and fp32's busy
// geometry at n = 65..128) on a busy device: a long row's slabs of 8 column lanes
// already make 4 or more blocks, other work hides their chains, and the very long
// rows' slabs of 2 column lanes cost more than the chains they cut: each slab re-reads
// the row's column indices and values (64 times at n = 512) and takes B in 32-byte
// pieces instead of whole lines. There only rows of more than kVeryLongChunksWide
// batches are very long. Not where the groups leave the device less busy: there a few
// rows of 512-2048 nonzeros became the tail as chains of up to 16 batches.
// Measured: docs/algorithms/spmm-csr.md, "Long rows: kVeryLongChunksWide".
//
// Parts, because one block per (row, slab) left a row of thousands of nonzeros a chain
// of tens of dependent load batches, the kernel's tail at small n. Only at small n:
// at n >= 128 a row's slabs already make many tasks, and 8 parts each made them the
// tail. Measured: docs/algorithms/spmm-csr.md, "Long rows: parts".
//
// One column (n == 1, single_column.cuh) plans the same tiers with its own lanes: the
// groups' W lanes and kSingleUnroll set the threshold, a long row goes to a warp where
// the groups keep the device busy and to a block where they leave it underfilled
// (where a row's 32 lanes would be no more than its group had), a very long row (beyond
// kWarpVeryChunks batches of a warp) to kVeryLongParts parts, and "underfilled" counts
// the kernel's own single_blocks_per_sm.
//
// Groups of at most kWarpRowsMaxLanes column lanes (n <= 8 in fp32, 4 in fp64, 16 in the
// 16-bit types) do the same where the device is not underfilled: a long row gets a warp
// (its long_lanes column lanes times the rest over the nonzeros), four rows to a block,
// and a row of more than kWarpVeryChunks of a warp's load batches (1024 nonzeros with
// two column lanes, 2048 with one) goes to the parts. A power-law graph has thousands of
// rows a little over the threshold (rmat_s18_e8 at n = 8: about 12,700 rows of more
// than 32 nonzeros, by its generator's statistics), and a block gave each such row 64
// nonzero lanes for a chain of dependent loads as long as a warp's: a row of up to 128
// nonzeros is one batch of the first warp's, and the other three warps of the block
// wait at the barrier while the wave of long-row blocks holds most of the device's
// slots. Wider groups keep the blocks (warps lost on the graphs with rows of hundreds).
// Measured: docs/algorithms/spmm-csr.md, "Long rows on warps".
//
// preprocess (or a run without it) lists the long and very long rows on the device;
// the kernel reads the counts there, so the host never waits for them. Blocks for
// long rows come first in the grid, at most one wave of them (the lists may be empty:
// they are planned from the bound on their size), each walking the lists; the groups'
// blocks take the slots they leave. (Two blocks per SM made the long rows' tasks the
// tail. Measured: docs/algorithms/spmm-csr.md, "Long rows: one wave of blocks".)
// The thresholds' constants are in rules.hpp (a long row's lanes own one vector:
// kTaskUnroll nonzeros per load batch).
constexpr int long_lanes(int g) { return g >= 8 ? 8 : g < 2 ? g : 2; }
constexpr int very_long_lanes(int g) { return g < kVeryLongLanes ? g : kVeryLongLanes; }

// One tier of long rows.
struct long_tier {
    std::int64_t threshold = 0x7fffffff;  // a row with more nonzeros belongs here (or above)
    std::int64_t capacity = 0;            // list entries: rows there can be at most
    std::int64_t slabs = 0;               // column slabs of a row
    int parts = 1;                        // blocks a (row, slab) is cut into
    std::int64_t slab_width = 0;          // columns of a slab (lanes * V)
    // Slabs of a row for n columns (a narrower pass than planned has fewer).
    std::int64_t slabs_for(std::int64_t n) const { return (n + slab_width - 1) / slab_width; }
    // Very long tier: a ticket per (entry, slab), and the partial sums of its parts.
    std::int64_t tickets() const { return parts > 1 ? capacity * slabs : 0; }
    std::int64_t partials() const { return tickets() * parts * slab_width; }
};

struct long_plan {
    long_tier tiers[2];       // long, very long
    std::int64_t blocks = 0;  // blocks given to long rows (for the lists' bounds)
    std::int64_t wave = 0;    // the most blocks long rows get: one wave of the device
    bool underfilled = false; // the groups hold fewer threads than the device runs at once
    bool warp_rows = false;   // tier 0: a warp per (row, slab) instead of a block
                              // (one column, or kWarpRowsMaxLanes column lanes or fewer)
    bool any() const { return blocks > 0; }
    // The grid's first blocks, for `listed` rows per tier of `slabs` column slabs each:
    // one per task (four warp tasks to a block), up to a wave. None without a task: the
    // groups' blocks follow them in the same grid. From the lists' bounds (blocks) or,
    // after preprocess has counted the lists, from the counts.
    std::int64_t long_row_blocks(const std::int64_t (&listed)[2],
                                 const std::int64_t (&slabs)[2]) const {
        const std::int64_t warps = kThreads / 32, tier0 = listed[0] * slabs[0];
        const std::int64_t tasks = (warp_rows ? (tier0 + warps - 1) / warps : tier0) +
                                   listed[1] * slabs[1] * tiers[1].parts;
        return tasks > 0 ? grid_for(tasks, 1, wave) : 0;
    }
};

inline long_tier tier_of(std::int64_t threshold, int lanes, const geometry& g, std::int64_t m,
                         std::int64_t nnz, std::int64_t n) {
    long_tier t;
    t.threshold = std::min<std::int64_t>(threshold, 0x7ffffffe);
    t.capacity = std::min(m, nnz / (t.threshold + 1));
    // One column: a part's partial sum is one accumulator (single_column.cuh).
    t.slab_width = g.single ? 1 : std::int64_t(lanes) * g.width;
    t.slabs = t.slabs_for(n);
    return t;
}

inline long_plan plan_long_rows(const geometry& g, std::int64_t m, std::int64_t nnz,
                                std::int64_t n, const device_info* device) {
    long_plan p;
    const double mean = m > 0 ? double(nnz) / double(m) : 0.0;
    const std::size_t element_bytes = kVectorBytes / g.width;
    const std::int64_t blocks_per_sm =
        g.single ? single_blocks_per_sm(element_bytes) : row_split_blocks_per_sm(element_bytes);
    const std::int64_t wave = sm_count_of(device) * blocks_per_sm;
    const bool underfilled =
        !g.busy && group_threads(m, n, g) < double(wave) * kThreads;
    p.underfilled = underfilled;
    const int lanes = long_lanes(g.lanes), very_lanes = very_long_lanes(g.lanes);
    std::int64_t threshold =
        std::int64_t(underfilled ? kLongChunksUnderfilled : kLongChunks) * g.chain_lanes * g.unroll();
    if (underfilled) threshold = std::max(threshold, kLongMinUnderfilled);
    threshold = std::max(threshold, std::int64_t((underfilled ? kLongMeanFactorUnderfilled
                                                              : kLongMeanFactor) * mean));
    if (g.lanes >= 16) threshold = std::max(threshold, kLongMin);
    p.tiers[0] = tier_of(threshold, lanes, g, m, nnz, n);
    p.warp_rows = !underfilled && (g.single || g.lanes <= kWarpRowsMaxLanes);
    const int very_chunks = g.vectors == 2 && g.busy ? kVeryLongChunksWide : kLongChunks;
    std::int64_t very =
        std::max(threshold, std::int64_t(very_chunks) * (kThreads / lanes) * kTaskUnroll);
    // Tier 0 on warps: very long beyond kWarpVeryChunks load batches of a warp (a warp
    // has 32 / lanes nonzero lanes). One column keeps that threshold where it leaves the
    // device underfilled too (its long rows then go a block each; block batches there
    // were slower). Measured: docs/algorithms/spmm-csr.md, "Long rows on warps".
    if (p.warp_rows || g.single)
        very = std::max(threshold, std::int64_t(kWarpVeryChunks) * (32 / lanes) *
                                       (g.single ? g.unroll() : kTaskUnroll));
    p.tiers[1] = tier_of(very, very_lanes, g, m, nnz, n);
    if (p.tiers[1].slabs <= kVeryLongParts / 4) {
        p.tiers[1].parts = int(kVeryLongParts / p.tiers[1].slabs);
        // Tier 0 on warps halves the very long threshold, which doubles the bound on the
        // very long rows (nnz / (threshold + 1)) and so on their partial sums in the
        // buffer; half the parts keep that where it was, at a small cost on the longest
        // rows. Measured: docs/algorithms/spmm-csr.md, "Long rows: parts".
        if (p.warp_rows && !g.single) p.tiers[1].parts /= 2;
    }
    p.wave = wave;
    p.blocks = p.long_row_blocks({p.tiers[0].capacity, p.tiers[1].capacity},
                                 {p.tiers[0].slabs, p.tiers[1].slabs});
    return p;
}

// Column slabs of a tier's rows in a pass of w columns whose kernel has geometry g: its
// long-row tasks take long_lanes(G) (tier 0) or very_long_lanes(G) (tier 1) column lanes
// of V columns; the one-column kernel one slab. A pass of another geometry than the
// plan's (the last pass of a capped product, plan_rest in csr_spmm.cu) counts its own.
inline std::int64_t pass_long_slabs(const geometry& g, int tier, std::int64_t w) {
    if (g.single) return 1;
    const std::int64_t width = std::int64_t(tier == 0 ? long_lanes(g.lanes) : very_long_lanes(g.lanes)) * g.width;
    return (w + width - 1) / width;
}

// Whether a pass of w columns on geometry g can take plan p's long rows (its threshold,
// lists, tickets and partial sums, planned for another geometry): the kernels skip and
// list rows by the plan's thresholds whatever their own lanes, so only the very long
// rows' tickets (one per entry and slab) and partial sums (parts x slab columns per
// ticket) must fit what the plan sized in the buffer.
inline bool fits_long_plan(const long_plan& p, const geometry& g, std::int64_t w) {
    const long_tier& very = p.tiers[1];
    if (very.parts <= 1) return true;
    // The one-column kernel splits very long rows into parts of its own, which the
    // tickets and partial sums a wider geometry planned do not hold (memcheck saw it write
    // past the buffer: gpu_spmm_csr test_rowwise_chunks, rows of 5000 at n = 65). Such a
    // pass keeps the plan's geometry.
    if (g.single) return false;
    const std::int64_t slabs = pass_long_slabs(g, 1, w);
    const std::int64_t columns = std::int64_t(very_long_lanes(g.lanes)) * g.width;
    return slabs <= very.slabs && slabs * columns <= very.slabs * very.slab_width;
}

// CSR-vector's long rows (vector_rows.cuh): the same tiers, lists and tasks as
// row-split's, planned for tasks of one column lane (slabs of V columns of op(B), read
// element by element as CSR-vector reads a column-wise op(B)) and from the groups' L
// lanes per row (row_group, rules.hpp) as their nonzero lanes: a row is long beyond
// kLongChunks load batches of 4 nonzeros of each of its L lanes (16 L nonzeros, or the
// thresholds' minimum and mean factor), wherever the preprocess ran or not; the groups
// skip it and the grid's first blocks take it (warps, blocks, parts as above). The
// summation order of every row so depends only on op(A)'s sizes and that row's length.
// No plan where no row can be long: an op(A) with at most `threshold` columns has no
// row longer (but for duplicate entries, which the groups then sum themselves), and the
// run lists nothing and launches no long-row block.
// Why: a group of L lanes walked a hub row of thousands of nonzeros alone, the tail of
// the whole product on power-law graphs. docs/algorithms/spmm-csr.md, "CSR-vector and
// long rows".
inline long_plan plan_vector_long_rows(int group_lanes, std::int64_t m, std::int64_t k,
                                       std::int64_t nnz, std::int64_t n,
                                       std::size_t element_bytes, const device_info* device) {
    geometry g;
    g.width = int(kVectorBytes / element_bytes);
    g.strided = true;  // unroll(): 4 nonzeros per load batch
    g.rows_lanes = g.chain_lanes = group_lanes;
    const long_plan p = plan_long_rows(g, m, nnz, n, device);
    if (k <= p.tiers[0].threshold) return {};
    return p;
}

// Row-split's plan as the kernel sees it. Tier 0: long rows, tier 1: very long rows.
struct split_view {
    int threshold = 0x7fffffff;            // rows longer than this are listed, not the groups'
    int very_threshold = 0x7fffffff;       // rows longer than this are in tier 1
    const int* counts = nullptr;           // device: rows listed per tier
    const int* lists[2] = {nullptr, nullptr};  // device: the tiers' rows, in any order
    std::int64_t capacity[2] = {0, 0};     // the lists' sizes
    std::int64_t slabs[2] = {0, 0};        // column slabs per row of each tier
    int parts = 1;                         // tier 1: blocks per (row, slab)
    int* tickets = nullptr;                // tier 1: parts done per (entry, slab), 0 between runs
    void* partials = nullptr;              // tier 1: accumulators, [entry][slab][part][column]
    std::int64_t long_blocks = 0;          // the grid's first blocks, for listed rows
    bool underfilled = false;              // host only: picks the kernel (kParts or kPartsFilled)
    bool warp_rows = false;                // tier 0: a warp per (row, slab) task
    std::int64_t row_blocks = 0;           // blocks of groups per column slab
};

// Merge-path segmentation: the m + nnz merge items (row ends and nonzeros) are cut into
// `count` tiles of `length` items (the last may be shorter), a thread block each; a
// tile is cut into kThreads / G segments of length / (kThreads / G) items, a group each.
// Short segments keep a small matrix parallel (a tile and a column slab make a block);
// long ones mean fewer carry-out records (each costs a record written and read). So a
// segment is the longest that still gives every resident group one, but no longer than
// needed for kSegmentWaves waves or for kSegmentRows mean rows, at least
// kMinSegmentItems, and at most what keeps the tile within kMergeTileItems, the shared
// memory the block stages it in (rules.hpp).

struct segmentation {
    std::int64_t length = kMinSegmentItems;  // items per tile
    std::int64_t count = 0;                  // tiles
};

inline segmentation choose_segments(std::int64_t items, std::int64_t rows, const geometry& g,
                                    std::int64_t slabs, const device_info* device) {
    const auto ceil_div = [](std::int64_t a, std::int64_t b) { return (a + b - 1) / b; };
    std::int64_t groups = resident_groups(device, g, merge_blocks_per_sm(kVectorBytes / g.width)) /
                          (slabs > 0 ? slabs : 1);
    if (groups < 1) groups = 1;
    const std::int64_t fill = ceil_div(items, groups);                    // one wave
    const std::int64_t waves = ceil_div(items, kSegmentWaves * groups);   // balance
    const std::int64_t mean_rows = ceil_div(kSegmentRows * items, rows > 0 ? rows : 1);
    const std::int64_t per_tile = kThreads / g.lanes;                     // segments of a tile
    std::int64_t segment = std::max(kMinSegmentItems, std::min(fill, std::max(waves, mean_rows)));
    segment = std::min(segment, kMergeTileItems / per_tile);
    segmentation s;
    s.length = segment * per_tile;
    s.count = ceil_div(items, s.length);
    return s;
}

// The segmentation as the kernels see it.
struct merge_view {
    const int* limits = nullptr;  // count + 1 row indices: limits[s] = i at segment s's start
    std::int64_t length = 0;      // items per segment (merge-path: per tile)
    std::int64_t count = 0;       // segments (merge-path: tiles)
    std::int64_t items = 0;       // m + nnz
};

}  // namespace tcs::spmm::csr
