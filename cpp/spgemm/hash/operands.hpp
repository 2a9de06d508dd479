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

// Products beyond this make every kernel after the count return at once: offsets and
// batch sums are 32-bit, and the host then reports INSUFFICIENT_RESOURCES.
constexpr unsigned long long kProductLimit = 1ull << 31;

// Counters filled on the device during workEstimation and read back once.
struct stats {
    unsigned long long products;  // scalar products of A*B
    unsigned long long nnz;       // nnz(C)
    int max_row_nnz;
    int symbolic_count[kMaxBins];   // rows per symbolic bin
    int symbolic_cursor[kMaxBins];  // fill positions while binning
    int numeric_count[kMaxBins];    // rows per numeric bin
    int retry_count[kMaxBins];      // rows per symbolic bin that overflowed the first guess
};

}  // namespace tcs::spgemm::hash
