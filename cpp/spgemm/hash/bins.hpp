// Row bins of the hash SpGEMM: which kernel, table size and thread count handle a row,
// chosen from a per-row bound (symbolic: products, numeric: nnz of the row of C).
//
// Every bin holds the rows whose bound lies in (upper[b-1], upper[b]]. The first four
// bins of both passes are "group" bins: a group of 4..32 lanes per row, many rows per
// block, tables in static shared memory. Then come "block" bins: one row per block at a
// time, one table of `table` slots in dynamic shared memory, as large as the device's
// opt-in shared memory allows (Hopper: 227 KB, so 32768-key symbolic and 16384-entry
// numeric tables instead of nsparse's 8192/4096 for 48 KB). The last bin is "wide":
// rows too long for any shared table, handled with a bitmap over C's columns (global
// memory when the bitmap does not fit in shared memory).
#pragma once

#include "core/device.hpp"
#include "core/types.hpp"
#include "spgemm/hash/rules.hpp"

#include <cstddef>

namespace tcs::spgemm::hash {

// What a kernel needs to find a row's bin: bin b holds bounds in (upper[b-1], upper[b]];
// the last bin is unbounded.
struct bin_table {
    int count = 0;
    int upper[kMaxBins] = {};

    // upper[] increases, so the bin is the number of bounded bins below `bound` (a loop
    // with constant indices keeps the table in registers, not local memory).
    __host__ __device__ int find(int bound) const {
        int b = 0;
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
        for (int i = 0; i < kMaxBins - 1; ++i) b += i < count - 1 && bound > upper[i];
        return b;
    }
};

enum class bin_kind : int { group, block, wide };

struct bin_info {
    int upper = 0;     // largest bound the bin holds (the wide bin: INT_MAX)
    bin_kind kind = bin_kind::group;
    int table = 0;     // hash slots per row
    int threads = 0;   // threads per block
    int lanes = 0;     // group bins: lanes per row
};

struct bin_plan {
    int count = 0;
    bin_info bins[kMaxBins];
    bin_table thresholds() const;
};

// Symbolic bins by u = min(products of the row, columns of C, nnz(B)), an upper bound
// on the row's nnz; tables hold keys only and are at most half full.
bin_plan symbolic_bins(const device_info& d);
// Numeric bins by the row's nnz; tables hold keys, values and the ordering marks and
// are at most three quarters full.
bin_plan numeric_bins(const device_info& d, value_type v);

// Dynamic shared memory of a numeric block-bin kernel: keys and per-slot warp marks,
// a region the final sort then reuses (CUB's radix sort needs about 36 bytes a thread
// for its ranks, which small tables do not have: hence the floor; the kernel checks the
// fit at compile time), then the values (one copy per warp for small tables).
constexpr std::size_t mark_bytes(int threads) { return threads <= 256 ? 1 : threads <= 512 ? 2 : 4; }
constexpr std::size_t align16(std::size_t b) { return (b + 15) / 16 * 16; }
constexpr std::size_t numeric_keys_region(int table, int threads) {
    const std::size_t table_bytes = std::size_t(table) * (4 + mark_bytes(threads));
    const std::size_t sort_floor = std::size_t(threads) * 48;
    return align16(table_bytes > sort_floor ? table_bytes : sort_floor);
}
constexpr std::size_t numeric_block_bytes(int table, int threads, std::size_t value_bytes) {
    const std::size_t copies = private_sums(table, threads, value_bytes) ? threads / 32 : 1;
    return numeric_keys_region(table, threads) + copies * std::size_t(table) * value_bytes;
}
constexpr std::size_t symbolic_block_bytes(int table) { return std::size_t(table) * 4; }

}  // namespace tcs::spgemm::hash
