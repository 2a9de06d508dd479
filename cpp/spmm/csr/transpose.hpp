// op(A) = A^T as CSR: the CSC of A (CSR of A^T) built on the GPU in the caller's
// buffer. The structure (row offsets, column indices and the permutation that maps
// each entry of A^T to its position in A) depends only on A's pattern and is cached
// by preprocess; the values are gathered through the permutation on every run,
// because A's values may change after preprocess, or, where the product reads them in
// place through the permutation (rules.hpp, reads_transpose_in_place), not copied at all.
//
// A's index arrays may be 32- or 64-bit; the copy's are 32-bit, which holds any
// position, row and column of an A the CSR family takes (fewer than 2^31 of each).
//
// Deterministic: a stable radix sort of A's entries by column keeps the entries of
// each column of A in row order, so a run sums every row of A^T in the same order.
#pragma once

#include "core/types.hpp"
#include "core/workspace.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>

namespace tcs::spmm::csr {

struct transposed_csr {
    // kept from preprocess to run
    int* row_ptr = nullptr;  // a.cols + 1, base 0
    int* col_idx = nullptr;  // nnz: row of A of each entry
    int* perm = nullptr;     // nnz: position in A of each entry
    void* values = nullptr;  // nnz values of A's type, gathered each run (null: read in place)
    // needed only while the structure is built (may share memory with other scratch)
    unsigned* sorted_keys = nullptr;  // nnz
    unsigned* column_keys = nullptr;  // nnz, A's 64-bit columns narrowed (null for 32-bit)
    int* positions = nullptr;         // nnz: 0, 1, ..., nnz - 1
    void* sort_temp = nullptr;
    std::size_t sort_temp_bytes = 0;
};

// Carves the kept arrays from `kept` (the values only with `gathered`) and the build
// scratch from `scratch` (null bases size only). a.nnz > 0.
transposed_csr carve_transposed(const csr_view& a, bool gathered, carver& kept, carver& scratch);

// Writes row_ptr, col_idx and perm of A^T.
void build_transposed_structure(const csr_view& a, const transposed_csr& t, cudaStream_t stream);

// Adds to *local (on the device, zeroed by the caller) the entries of A^T in windows of
// kLocalWindowRows consecutive rows whose positions in A span at most span_limit
// (rules.hpp, copy_reads_locally). After build_transposed_structure.
void count_local_entries(const csr_view& a, const transposed_csr& t, std::int64_t span_limit,
                         unsigned long long* local, cudaStream_t stream);

// values[e] = a.values[perm[e]].
void gather_transposed_values(const csr_view& a, const transposed_csr& t, cudaStream_t stream);

}  // namespace tcs::spmm::csr
