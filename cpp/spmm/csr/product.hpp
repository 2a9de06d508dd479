// One SpMM launch as the host has resolved it (spmm.cu): op(A) as CSR (the transposed
// copy for opA = T), op(B) and C as strided matrices, the algorithm, the geometry (or,
// for CSR-vector, the row group) and, for merge-path, the segmentation and the carry-out
// records in the buffer. The
// launchers are compiled once per element type, C type and index width, each in a
// translation unit of its own.
#pragma once

#include "core/types.hpp"
#include "spmm/csr/geometry.hpp"
#include "spmm/spmm.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

namespace tcs::spmm::csr {

struct product {
    // op(A): m x k CSR, values of the A/B element type
    int rows = 0;
    int cols = 0;  // k
    std::int64_t nnz = 0;
    const void* row_ptr = nullptr;  // int or std::int64_t, as `index` says
    const void* col_idx = nullptr;
    index_type index = index_type::i32;  // width of both index arrays
    const void* values = nullptr;
    int base = 0;
    // One column, op(A) = A^T read in place (rules.hpp, reads_transpose_in_place): the
    // copy's permutation (A's position of each entry), and values are A's own; else null.
    const int* perm = nullptr;
    // op(B)(kk, j) at b[kk*b_row_stride + j*b_col_stride]
    const void* b = nullptr;
    std::int64_t b_row_stride = 0, b_col_stride = 0;
    bool b_vector = false;  // 16-byte loads possible (see operands.cuh)
    // C(i, j) at c[i*c_row_stride + j*c_col_stride]
    void* c = nullptr;
    std::int64_t c_row_stride = 0, c_col_stride = 0;
    bool c_vector = false;
    value_type c_type = value_type::f32;
    std::int64_t n = 0;
    scalar_arg alpha, beta;

    csr_kernel kernel = csr_kernel::row_split;
    geometry geo;
    std::int64_t slabs = 1;
    row_group group;           // CSR-vector only
    split_view split;          // row-split only (row_blocks filled in at launch)
    int runs = 1;              // row-split: rows per window of runs (rules.hpp), 1 for none
    merge_view merge;          // merge-path only
    void* records = nullptr;   // merge-path: 2 * merge.count * n accumulators
    cudaStream_t stream = nullptr;
};

// A pass of row-split over columns first .. first + width - 1 of C, as a run makes it
// (csr_spmm.cu): its geometry and whether it copies op(B) and C row-wise. For the host
// tests: column_passes plans them from the problem's sizes alone and reads no array.
struct column_pass {
    std::int64_t first = 0, width = 0;
    geometry geo;
    bool copies_b = false, copies_c = false;
};
// Row-split's passes for p (none where another kernel runs or nothing is multiplied).
std::vector<column_pass> column_passes(const problem& p);

// One per A/B element type (multiply_*.cu): C's type and the index width pick a unit.
void multiply_f32(const product& p);
void multiply_f64(const product& p);
void multiply_f16(const product& p);
void multiply_bf16(const product& p);

// The launchers of A/B element type T, C type TC and index type I (launch.cuh), each
// combination compiled in a translation unit of its own, multiply/<T>_<TC>_<I>.cu, so
// that a parallel build compiles them side by side.
template <class T, class TC, class I>
void multiply_unit(const product& p);

// multiply_*.cu: C's element type is A's, or float for 16-bit A and B (cuSPARSE's
// combinations); then the index width.
template <class T>
void multiply_types(const product& p) {
    const auto indexed = [&](auto c) {
        using TC = decltype(c);
        if (p.index != index_type::i64)
            return multiply_unit<T, TC, std::int32_t>(p);
        multiply_unit<T, TC, std::int64_t>(p);
    };
    if constexpr (sizeof(T) == 2) {
        if (p.c_type == value_type::f32) return indexed(float{});
    }
    indexed(T{});
}

// The one-column kernels (SpMV, n = 1) of each element type, in translation units of
// their own (single_*.cu), called by the units: CUDA loads a module whole at the first
// launch of any of its kernels (lazy loading), so the path a solver calls first stays in
// a small module rather than in the hundred or more SpMM kernels of a unit.
void single_f32(const product& p);
void single_f64(const product& p);
void single_f16(const product& p);
void single_bf16(const product& p);

}  // namespace tcs::spmm::csr
