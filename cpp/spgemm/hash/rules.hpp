// The hash SpGEMM's choices in one host-only header: its tuning constants (bins, tables,
// threads, scratch, chunks) and the pure functions that choose from them. Each constant
// says why in a line and points to the docs section that holds its reasoning and
// measurements; bins.cpp builds the bin plans from them, the kernels and the plan read
// them.
#pragma once

#include "core/device.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace tcs::spgemm::hash {

// ---- bins (bins.hpp, bins.cpp) ----

// Bins per pass at most: 4 group bins, up to 7 block bins and the wide bin fit
// (docs/algorithms/spgemm-hash.md, "Bins and tables").
constexpr int kMaxBins = 16;
// Group bins of both passes, bins 0..3: 4, 8, 16 and 32 lanes per row
// (docs/algorithms/spgemm-hash.md, "Bins and tables").
constexpr int kGroupBins = 4;
// Threads of a group-bin block: many short rows per block
// (docs/algorithms/spgemm-hash.md, "Bins and tables").
constexpr int kGroupThreads = 256;
// Slots of one group-bin block: rows per block * table size, the same for every group
// bin (4 lanes x 16 slots ... 32 lanes x 128 slots), so one kernel serves all four
// (docs/algorithms/spgemm-hash.md, "Bins and tables").
constexpr int kGroupSlots = 1024;
// Threads of a wide-bin block: the longest rows get the largest blocks
// (docs/algorithms/spgemm-hash.md, "Bins and tables").
constexpr int kWideThreads = 1024;
// Blocks per SM of the kernels that loop over their rows with a grid sized by the device
// (products, binning, the group bins): enough to fill every SM several times over
// (docs/algorithms/spgemm-hash.md, "From the protocol to the passes").
constexpr int kLoopBlocksPerSm = 16;
// Rows whose products would call for a symbolic table larger than this (or for the wide
// bin) first try one of this size: products far outnumber the distinct columns in FEM
// and dense-block rows. Only the rows with more than half as many columns go on to
// their bin's table (docs/algorithms/spgemm-hash.md, "Bins and tables").
constexpr int kGuessTable = 4096;
// Threads of the first-guess block (docs/algorithms/spgemm-hash.md, "Bins and tables").
constexpr int kGuessThreads = 256;

// A block bin's (table slots, threads). A bin is kept while its table fits the device's
// opt-in shared memory; the rows of the dropped ones go wide.
struct block_candidate {
    int table, threads;
};
// Symbolic block bins, smallest table first: up to 32768 keys where the opt-in shared
// memory holds them (docs/algorithms/spgemm-hash.md, "Bins and tables").
constexpr block_candidate kSymbolicBlocks[] = {{512, 64}, {2048, 128}, {8192, 256}, {32768, 512}};
// Numeric block bins: tables stop at 16 sort items per thread (CUB's radix sort holds
// them in registers; more would cost occupancy during the whole row or spill); the 16384
// table (fp32 only: fp64 needs 229 KB) keeps rows of up to 12288 entries out of the wide
// bin, whose scratch lives in global memory
// (docs/algorithms/spgemm-hash.md, "Bins and tables").
constexpr block_candidate kNumericBlocks[] = {{256, 64},   {512, 128},  {1024, 128}, {2048, 256},
                                              {4096, 256}, {8192, 512}, {16384, 1024}};

// Whether a numeric block-bin kernel gives every warp its own copy of the row's
// accumulators (ordered_commit.cuh: accumulate_private): when the copies take at most
// this much shared memory, i.e. tables up to 1024 slots with 4 warps
// (docs/algorithms/spgemm-hash.md, "Bins and tables").
constexpr std::size_t kPrivateSumBytes = 32 * 1024;
constexpr bool private_sums(int table, int threads, std::size_t value_bytes) {
    return std::size_t(threads / 32) * std::size_t(table) * value_bytes <= kPrivateSumBytes;
}

// Shared memory kept free for a kernel's static variables when sizing dynamic memory:
// the block walk's batch (block_walk.cuh: 16 bytes per thread with fp64 values, 8 without)
// and the row counters (docs/algorithms/spgemm-hash.md, "Bins and tables").
constexpr std::size_t kStaticReserve = 10 * 1024;
inline std::size_t usable_smem(const device_info& d) {
    return d.smem_per_block_optin > kStaticReserve ? d.smem_per_block_optin - kStaticReserve : 0;
}

// ---- kernels (products.cu, numeric.cuh) ----

// Threads of the products count and of the binning kernels: a warp's rows share one
// atomic per bin (docs/algorithms/spgemm-hash.md, "From the protocol to the passes").
constexpr int kBinningThreads = 256;
// Chunks of 32 products a warp takes per window of the ordered accumulation: more
// amortise the window's barriers and rounds, fewer keep registers low (the fixed order
// of the accumulation: docs/algorithms/spgemm-hash.md, "What it guarantees").
constexpr int kChunksPerWindow = 4;

// ---- scratch and chunks (hash_plan.cu) ----

// Scratch for wide rows may take this much, or more when the inputs (symbolic) or C
// (numeric) are larger: then it stays a fraction of memory the caller holds anyway
// (docs/algorithms/spgemm-hash.md, "Bins and tables").
constexpr std::size_t kScratchBudget = std::size_t(64) << 20;

// Each chunk costs a handful of launches: a fraction that asks for more chunks gets this
// many (docs/algorithms/spgemm-hash.md, "A memory budget").
constexpr int kMaxChunks = 1024;
// ... and one that asks for fewer rows per chunk gets this many, for the same reason
// (docs/algorithms/spgemm-hash.md, "A memory budget").
constexpr int kMinChunkRows = 8;

// Rows per chunk under chunk_fraction f; m (one chunk) when f asks for no chunking.
inline int chunk_rows_of(int m, double f) {
    if (f >= 1.0 || m <= kMinChunkRows) return m;
    const double rows = std::max({std::ceil(f * double(m)), std::ceil(double(m) / kMaxChunks),
                                  double(kMinChunkRows)});
    return int(std::min(rows, double(m)));
}

}  // namespace tcs::spgemm::hash
