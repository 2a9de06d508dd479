// The kernels of the CSC build (transpose.cu): positions to sort, the row offsets of
// A^T from the sorted column keys, the row of each sorted entry, the value gather.
// Included by transpose.cu only.
#pragma once

#include <cstdint>

namespace tcs::spmm::csr {

__global__ void fill_positions(int* out, int count) {
    const std::int64_t e = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (e < count) out[e] = int(e);
}

// row_ptr[c] = number of entries with column < c: a lower bound in the sorted keys.
__global__ void column_starts(const unsigned* keys, int nnz, int cols, int base, int* row_ptr) {
    const std::int64_t c = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (c > cols) return;
    const unsigned key = unsigned(c + base);
    int lo = 0, hi = nnz;
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (keys[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    row_ptr[c] = lo;
}

// A's 64-bit column indices as the sort's 32-bit keys (columns < 2^31 - 1, checked on
// the host); corrupt ones saturate instead of wrapping onto valid columns.
__global__ void column_keys(const std::int64_t* col_idx, int nnz, unsigned* keys) {
    const std::int64_t e = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (e >= nnz) return;
    const std::int64_t c = col_idx[e];
    keys[e] = c < 0 ? 0u : c > 0xffffffffll ? 0xffffffffu : unsigned(c);
}

// col_idx[e] = the row of A holding entry perm[e]: the last r with row_ptr[r] <= position.
// I is the width of A's row offsets.
template <class I>
__global__ void entry_rows(const int* perm, int nnz, const I* a_row_ptr, int a_rows, int base,
                           int* col_idx) {
    const std::int64_t e = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (e >= nnz) return;
    const I position = I(perm[e]) + I(base);
    int lo = 0, hi = a_rows + 1;  // first index with row_ptr > position
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (a_row_ptr[mid] <= position)
            lo = mid + 1;
        else
            hi = mid;
    }
    col_idx[e] = lo - 1;
}

template <class Bits>
__global__ void gather(const Bits* values, const int* perm, int nnz, Bits* out) {
    const std::int64_t e = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (e < nnz) out[e] = values[perm[e]];
}

}  // namespace tcs::spmm::csr
