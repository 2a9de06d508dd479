// What the hash SpGEMM kernels see of A, B and C (by value), and the counters the
// analysis leaves in buffer1 for the one read-back of workEstimation.
#pragma once

#include "core/index_array.cuh"
#include "spgemm/hash/bins.hpp"

#include <cstdint>

namespace tcs::spgemm::hash {

// The patterns of A and B (32- or 64-bit arrays) with their index bases; rows and
// columns of C, the inner dimension k and the entry counts, which bound every index
// read from A and B (flat_walk.cuh: corrupt input gives garbage, never an access outside
// the arrays).
struct operands {
    index_in a_rp, a_ci, b_rp, b_ci;
    int a_base = 0, b_base = 0;
    int m = 0, n = 0, k = 0;
    int nnz_a = 0, nnz_b = 0;
};

// The values of A and B.
template <class V>
struct operand_values {
    const V* a = nullptr;
    const V* b = nullptr;
};

// C as the numeric pass writes it (32- or 64-bit index arrays).
template <class V>
struct output {
    index_out rp, ci;
    V* val = nullptr;
    int base = 0;
};

// C's row offsets and every total are 64-bit; what stays 32-bit is per row (products,
// nnz, the batch sums of flat_walk.cuh and block_walk.cuh, which never exceed the row's
// products). A row with more products than this makes every kernel after the count
// return at once, and the host reports INSUFFICIENT_RESOURCES.
constexpr long long kRowProductLimit = 0x7fffffffLL;

// C's row offsets as the plan keeps them: 64-bit, so that nnz(C) may pass 2^31.
using offset_t = long long;

// Counters filled on the device during workEstimation and read back once.
struct stats {
    unsigned long long products;  // scalar products of A*B
    unsigned long long nnz;       // nnz(C)
    int max_row_nnz;
    int row_overflow;             // a row has more than kRowProductLimit products
    int symbolic_count[kMaxBins];   // rows per symbolic bin
    int symbolic_cursor[kMaxBins];  // fill positions while binning
    int numeric_count[kMaxBins];    // rows per numeric bin
    int retry_count[kMaxBins];      // rows per symbolic bin that overflowed the first guess
};

}  // namespace tcs::spgemm::hash
