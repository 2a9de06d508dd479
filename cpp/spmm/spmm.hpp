// What SpMM's families compute, as the C layer hands it over:
//   C = alpha * op(A) * op(B) + beta * C, A CSR or BSR (32-bit indices), B and C dense,
// the family (and CSR kernel) asked for, and what a preprocess analysis found. The
// families behind plan.hpp's interface: the CSR family (csr/) and the tensor-core block
// family (blocks/); select.cpp picks the plan for a problem.
#pragma once

#include "core/device.hpp"
#include "core/types.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace tcs::spmm {

// Which family computes the product. The C layer maps the public TCS_SPMM_* values to a
// family and, for the CSR family, a kernel (lib/spmm.cpp).
enum class family {
    automatic,  // TCS_SPMM_ALG_DEFAULT with a CSR A: the block or the CSR family (select.hpp)
    csr,        // the CSR family (csr/): CSR_ALG1/2/3, CSR_ROWSPLIT, CSR_MERGE, every SpMV
    blocks,     // dense blocks on tensor cores (blocks/): TCS_SPMM_BSR_TC, BSR_ALG1, any BSR A
};

// The CSR family's kernels. Where the family is automatic or blocks and the CSR family
// computes after all, its own rule picks (automatic).
enum class csr_kernel {
    automatic,    // the CSR family's rule picks one of the kernels below (csr/rules.hpp)
    row_split,    // TCS_SPMM_CSR_ROWSPLIT
    merge_path,   // TCS_SPMM_CSR_MERGE
    vector_rows,  // CSR-vector: no public value, only the automatic rule picks it
    scatter,      // op(A) = A^T times one column by atomic adds (csr/scatter_column.cuh): no
                  // public value, the CSR family takes it where problem::atomics allows
};

// The block family's row order: its own choice, A's order, or the signature order
// (lib/ reads TCS_SPMM_REORDER=0 / =1 for it, once per process).
enum class row_order { automatic, natural, signature };

struct problem {
    bool trans_a = false;  // op(A) = A^T
    bool trans_b = false;  // op(B) = B^T
    csr_view a;            // as stored: a.rows x a.cols (when A is CSR)
    bool a_is_bsr = false; // A is BSR (only the blocks family): bsr below
    bsr_view bsr;
    math_mode math = math_mode::standard;  // tf32: fp32 data may round to TF32 (blocks)
    dense_view b;          // as stored
    dense_view c;          // m x n
    value_type compute = value_type::f32;
    scalar_arg alpha, beta;
    family requested_family = family::automatic;
    csr_kernel requested_kernel = csr_kernel::automatic;  // read by the CSR family only
    // The caller accepts results that differ from run to run in rounding (cuSPARSE's
    // non-deterministic algorithms): SpMV with opA = T then scatters with atomics.
    bool atomics = false;
    row_order block_rows = row_order::automatic;
    cudaStream_t stream = nullptr;
    const device_info* device = nullptr;
};

// The block family's block: rows x columns (formats/dense_blocks.hpp).
inline constexpr int kBlockRows = 32;
inline constexpr int kBlockColumns = 16;

// What the block family's analysis counted (formats/dense_blocks.hpp), -1 where it was
// not read back (preprocess while the stream was being captured).
struct block_counts {
    std::int64_t windows = -1;           // windows of 32 rows
    std::int64_t blocks_natural = -1;    // 32 x 16 blocks in A's own row order
    std::int64_t blocks_reordered = -1;  // ... in the signature order
    std::int64_t blocks = -1;            // in the order used
    std::int64_t distinct = -1;          // rows of op(B) the blocks read (order used)
    std::int64_t entries = -1;           // stored entries of A (BSR: every block element)
    std::int64_t max_blocks = -1;        // blocks of the longest window
    std::int64_t unsorted_rows = -1, duplicates = -1;
    bool reordered = false;
    bool built = false;  // the format was built (DEFAULT's buffer holds fewer blocks)
};

// What preprocess counted in A's structure, for run: the rows per window of runs of rows
// with one pattern (csr/rules.hpp; 1: none) and row-split's long rows per tier (-1: not
// counted); whether the automatic rule chose the block family, and its counts; for SpMV
// with opA = T from 4 Mi nonzeros, whether the transposed copy reads A's values close
// together, so that it takes the product instead of the scatter (csr/rules.hpp,
// copy_reads_locally).
struct analysis {
    int runs = 1;
    std::int64_t listed[2] = {-1, -1};
    bool transpose_local = false;
    bool blocks = false;  // the block family computes (its format is in the buffer)
    block_counts counts;
};

}  // namespace tcs::spmm
