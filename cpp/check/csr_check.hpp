// Validation of a CSR matrix's device arrays (tcsCheckMatrixCsr, and every product's
// inputs when input checking is on): which rule the data breaks first, and where.
// Reads nothing outside the arrays whatever their contents: row ranges are clamped to
// [0, nnz) before any column or value is read.
#pragma once

#include "core/types.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace tcs::check {

// The rules, in the order a report names them (the first broken one wins). The values
// equal tcsDataStatus_t's.
enum class rule : int {
    ok = 0,
    offsets = 1,     // row_ptr[0] != base or row_ptr[rows] != nnz + base
    decreasing = 2,  // row_ptr[i + 1] < row_ptr[i]
    index = 3,       // a column outside [base, base + cols)
    duplicate = 4,   // a column twice in a row
    unsorted = 5,    // columns not increasing in a row
    nan = 6,         // a NaN value
    inf = 7,         // an infinite value
};
inline constexpr int kRules = 8;

// What is checked beyond the offsets, the column range and the values.
enum class level {
    structure,  // offsets, columns in range, values finite
    unique,     // + no column twice in a row, in any order
    sorted,     // + columns strictly increasing in each row
};

// A CSR matrix whose offsets and columns may each be 32- or 64-bit.
struct csr_arrays {
    std::int64_t rows = 0, cols = 0, nnz = 0;
    const void* row_ptr = nullptr;
    bool row_ptr_64 = false;
    const void* col_idx = nullptr;
    bool col_idx_64 = false;
    const void* values = nullptr;  // may be null: values are then not checked
    value_type type = value_type::f32;
    int base = 0;
};

struct result {
    rule first = rule::ok;  // the first broken rule in the order above
    std::int64_t row = -1;  // the first row that breaks it (-1: the offsets' ends)
    unsigned broken = 0;    // bit r set when rule r is broken somewhere
};

// Bytes of device scratch that check() needs (never 0).
std::size_t buffer_size(const csr_arrays& a, level lv);

// Runs the checks on `stream` in `buffer` and waits for them (one stream synchronization,
// two for level::unique when the structure holds: the sort runs only on valid offsets).
result check(const csr_arrays& a, level lv, void* buffer, cudaStream_t stream);

}  // namespace tcs::check
