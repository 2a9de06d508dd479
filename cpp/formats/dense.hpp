// Dense operands as more than one SpMM family handles them: the row-wise copy of a
// column-wise op(B) (rows padded to whole 16-byte vectors, so that a kernel reads it
// with 16-byte loads at any width), the same padding for a row-major op(B) whose rows
// are no whole number of 16-byte vectors apart, the way back from a row-wise copy of C
// to a column-major C, and C = beta * C (a product without entries, or alpha == 0). The CSR
// family (spmm/csr) and the block family (spmm/blocks) both call these; each is a
// kernel launched on the caller's stream, asynchronous, allocating nothing.
#pragma once

#include "core/types.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace tcs::formats {

// Elements per row of the row-wise copy of an n-column op(B): n rounded up to whole
// 16-byte vectors.
std::int64_t rowwise_stride(std::int64_t n, std::size_t element_bytes);

// dst[kk * dst_stride + j] = src[kk + j * ld] for kk < k, j < n, and zeros in the
// padding columns n <= j < dst_stride. Elements of element_bytes (2, 4 or 8) bytes,
// copied as bits.
void copy_rowwise(const void* src, std::int64_t ld, std::int64_t k, std::int64_t n,
                  std::size_t element_bytes, void* dst, std::int64_t dst_stride,
                  cudaStream_t stream);

// dst[kk * dst_stride + j] = src[kk * ld + j] for kk < k, j < n, and zeros in the
// padding columns n <= j < dst_stride: a row-major op(B) whose rows (ld apart, n long)
// are no whole number of 16-byte vectors, copied into rows that are. dst_stride *
// element_bytes must be a multiple of 16 and dst 16-byte aligned (rowwise_stride, a
// carved buffer).
// Elements of element_bytes (2, 4 or 8) bytes, copied as bits.
void copy_rows_padded(const void* src, std::int64_t ld, std::int64_t k, std::int64_t n,
                      std::size_t element_bytes, void* dst, std::int64_t dst_stride,
                      cudaStream_t stream);

// C(i, j) = tmp[i * tmp_stride + j] + beta * C(i, j) for a column-major m x n C of
// c_type (element (i, j) at c[i + j * ldc]), tmp of the accumulation type acc (f32 or
// f64, as is beta). beta == 0 never reads C.
void finish_columnwise(const void* tmp, std::int64_t tmp_stride, value_type acc, std::int64_t m,
                       std::int64_t n, void* c, std::int64_t ldc, value_type c_type,
                       const scalar_arg& beta, cudaStream_t stream);

// C = beta * C over c.rows x c.cols, summed in fp64 for an fp64 C and in fp32 for every
// other type (the products' accumulation types). beta == 0 writes zeros without reading C.
void scale(const dense_view& c, const scalar_arg& beta, cudaStream_t stream);

}  // namespace tcs::formats
