// The SpMM interface between the C layer and the kernels:
//   C = alpha * op(A) * op(B) + beta * C, A CSR (32-bit indices), B and C dense.
// The C layer checks arguments and resolves the pointer mode; these functions choose
// and run a kernel family. All run on p.stream and allocate nothing; only preprocess
// may wait for the stream (the counts of long rows and runs).
#pragma once

#include "core/device.hpp"
#include "core/types.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace tcs::spmm {

enum class algorithm {
    automatic,  // the measured rule picks one of the families below
    row_split,
    merge_path,
    vector_rows,  // CSR-vector: no public value, only the automatic rule picks it
};

struct problem {
    bool trans_a = false;  // op(A) = A^T
    bool trans_b = false;  // op(B) = B^T
    csr_view a;            // as stored: a.rows x a.cols
    dense_view b;          // as stored
    dense_view c;          // m x n
    value_type compute = value_type::f32;
    scalar_arg alpha, beta;
    algorithm alg = algorithm::automatic;
    cudaStream_t stream = nullptr;
    const device_info* device = nullptr;
};

// Bytes of external buffer needed by preprocess and run (may be 0).
std::size_t buffer_size(const problem& p);

// What preprocess counted in A's structure, for run: the rows per window of runs of rows
// with one pattern (runs.hpp; 1: none) and row-split's long rows per tier (-1: not
// counted).
struct analysis {
    int runs = 1;
    std::int64_t listed[2] = {-1, -1};
};

// Writes what depends only on A's structure (the transposed copy, row-split's list of
// long rows, merge-path's partition) into buffer; then, for row-split plans with long
// rows or runs of rows with one pattern (runs.hpp), counts them and waits for the
// counts (not while the stream is being captured). Returns the counts to pass to run.
analysis preprocess(const problem& p, void* buffer);

// Runs the product, asynchronously. `preprocessed`: preprocess() ran earlier on this
// same buffer with the same parameters, so what it wrote is reused, and `found` is what
// it returned; otherwise the run writes it first and ignores `found` (the results are
// the same bits either way).
void run(const problem& p, void* buffer, bool preprocessed, const analysis& found = {});

}  // namespace tcs::spmm
