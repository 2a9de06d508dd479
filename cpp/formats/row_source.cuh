// The rows of a sparse matrix as the dense-block builder reads them: CSR rows as stored,
// or the rows of scalars of a BSR matrix (every stored entry of a block, zeros included,
// is an entry of its row). Entries are numbered in an "entry space": CSR's own positions
// (row_ptr - base), or for BSR the positions the rows would have in a CSR copy of the
// expanded matrix (row i = block row i / rbs, row i % rbs of its blocks, entries in
// block order). position(k) gives where an entry's value lies in the caller's array.
//
// Rows are bounded as the products' own accessors bound them (docs/validation.md): a
// row's entries lie inside [0, entries) whatever the offsets say (offsets clamped to
// [0, nnz], a length to >= 0) and every column inside the matrix (clamped). Valid input
// never meets a bound; corrupt input builds a format of garbage that no kernel reads or
// writes past.
#pragma once

#include "core/types.hpp"

#include <cstdint>

namespace tcs::formats {

// x (of any integer width) clamped to [lo, hi].
template <class X> __host__ __device__ inline int clamp_to(X x, int lo, int hi) {
    return x < X(lo) ? lo : x > X(hi) ? hi : int(x);
}

// One row: its k-th stored entry's column (0-based) and value position, k < length.
// I is the width the caller's column indices are stored in; columns and positions fit
// an int (the builder takes fewer than 2^31 entries).
template <class I> struct csr_row_of {
    const I* cols = nullptr;  // the row's column indices (with the index base)
    int start = 0, length = 0, base = 0;
    int last_column = 0;      // columns - 1
    __host__ __device__ int column(int k) const { return clamp_to(cols[k] - I(base), 0, last_column); }
    __host__ __device__ int position(int k) const { return start + k; }
};

// CSR rows with offsets and columns both of width I (int or std::int64_t).
template <class I> struct csr_rows_of {
    int rows = 0;
    int columns = 0;
    int nnz = 0;
    const I* row_ptr = nullptr;
    const I* col_idx = nullptr;
    int base = 0;
    __host__ __device__ csr_row_of<I> row(int i) const {
        csr_row_of<I> r;
        r.start = clamp_to(row_ptr[i] - I(base), 0, nnz);
        r.length = clamp_to(row_ptr[i + 1] - I(base), r.start, nnz) - r.start;
        r.cols = col_idx + r.start;
        r.base = base;
        r.last_column = columns - 1;
        return r;
    }
};
using csr_row = csr_row_of<int>;
using csr_rows = csr_rows_of<int>;
using csr_rows64 = csr_rows_of<std::int64_t>;

struct bsr_row {
    const int* block_cols = nullptr;  // the block row's block-column indices (with the base)
    int first_block = 0, blocks = 0;  // the block row's blocks: first_block .. + blocks - 1
    int in_block = 0;                 // row within the block row
    int rbs = 1, cbs = 1, base = 0;
    int last_block_column = 0;        // block columns - 1
    bool row_major = true;            // order of the elements inside a block
    int start = 0, length = 0;        // in the entry space
    __host__ __device__ int column(int k) const {
        const int q = k / cbs;
        return clamp_to(block_cols[q] - base, 0, last_block_column) * cbs + (k - q * cbs);
    }
    __host__ __device__ int position(int k) const {
        const int q = k / cbs, c = k - q * cbs;
        return (first_block + q) * rbs * cbs + (row_major ? in_block * cbs + c : c * rbs + in_block);
    }
};

struct bsr_rows {
    int rows = 0;  // block rows * rbs
    int block_columns = 0;
    int blocks = 0;  // stored blocks (bnnz)
    const int* block_row_ptr = nullptr;
    const int* block_col_idx = nullptr;
    int rbs = 1, cbs = 1, base = 0;
    bool row_major = true;
    __host__ __device__ bsr_row row(int i) const {
        bsr_row r;
        const int br = i / rbs;
        r.in_block = i - br * rbs;
        r.first_block = clamp_to(block_row_ptr[br] - base, 0, blocks);
        r.blocks = clamp_to(block_row_ptr[br + 1] - base, r.first_block, blocks) - r.first_block;
        r.block_cols = block_col_idx + r.first_block;
        r.rbs = rbs;
        r.cbs = cbs;
        r.base = base;
        r.last_block_column = block_columns - 1;
        r.row_major = row_major;
        r.length = r.blocks * cbs;
        r.start = r.first_block * rbs * cbs + r.in_block * r.length;
        return r;
    }
};

}  // namespace tcs::formats
