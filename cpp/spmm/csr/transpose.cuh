// The kernels of the CSC build (transpose.cu): positions to sort, the row offsets of
// A^T from the sorted column keys, the row of each sorted entry, the count of entries in
// windows of rows that read A close together, the value gather.
// Included by transpose.cu only.
#pragma once

#include <climits>
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

// Adds to *local the entries of A^T in windows of kLocalWindowRows consecutive rows (a
// warp's, a row a lane) whose positions in A span at most span_limit; within a row they
// ascend (the stable sort), so a row spans perm[first] .. perm[last]. One atomic addition
// per block. The grid covers the rows in whole warps.
__global__ void local_entries_kernel(const int* row_ptr, const int* perm, int rows,
                                     long long span_limit, unsigned long long* local) {
    static_assert(kLocalWindowRows == 32, "a window is a warp");
    __shared__ unsigned long long block_local;
    if (threadIdx.x == 0) block_local = 0;
    __syncthreads();
    const std::int64_t r = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    int lo = INT_MAX, hi = -1, count = 0;
    if (r < rows) {
        const int begin = row_ptr[r], end = row_ptr[r + 1];
        if (end > begin) {
            lo = perm[begin];
            hi = perm[end - 1];
            count = end - begin;
        }
    }
    for (int offset = 1; offset < 32; offset *= 2) {
        lo = min(lo, __shfl_xor_sync(0xffffffffu, lo, offset));
        hi = max(hi, __shfl_xor_sync(0xffffffffu, hi, offset));
        count += __shfl_xor_sync(0xffffffffu, count, offset);  // at most nnz < 2^31
    }
    if (threadIdx.x % 32 == 0 && count > 0 && (long long)hi - lo <= span_limit)
        atomicAdd(&block_local, (unsigned long long)count);
    __syncthreads();
    if (threadIdx.x == 0 && block_local > 0) atomicAdd(local, block_local);
}

template <class Bits>
__global__ void gather(const Bits* values, const int* perm, int nnz, Bits* out) {
    const std::int64_t e = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (e < nnz) out[e] = values[perm[e]];
}

}  // namespace tcs::spmm::csr
