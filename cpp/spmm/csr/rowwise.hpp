// Row-split reads op(B) a row at a time, each column lane a 16-byte piece of the row,
// and writes C the same way. When op(B) is column-wise (B column-major, or row-major
// and transposed) those pieces are `ld` elements apart, one cache sector per element;
// so are C's when C is column-major. Row-split then took several times what it takes
// on row-major B and C, slower than cuSPARSE (measured:
// docs/algorithms/spmm-csr.md, "Row-wise copies: rowwise.hpp").
// So, where it pays (the rules below), a run first copies op(B) row-wise into the
// caller's buffer, rows padded to whole 16-byte vectors, and row-split reads the copy
// with 16-byte loads at any n; and it
// writes alpha*op(A)*op(B) row-wise into the buffer, in the accumulation type, and a
// second kernel turns that into column-major C, adding beta*C. Each copy costs two
// passes over its matrix and a launch; the buffer grows by op(B)'s k x n elements and
// C's m x n accumulators (rows rounded up to whole vectors).
#pragma once

#include "spmm/csr/geometry.hpp"

#include <cstdint>

namespace tcs::spmm::csr {

// Whether the row-wise copy of a column-wise op(B) (k x n) pays for its launch and its
// pass over B: for an op(B) of at least 2^18 elements or 2^22 products (nnz * n); below,
// the copy's launch outweighed the strided reads on the regular matrices. At n = 1 a
// column of op(B) is its row: nothing to copy.
// Measured: docs/algorithms/spmm-csr.md, "Row-wise copies: rowwise.hpp".
inline bool rowwise_b_pays(std::int64_t k, std::int64_t nnz, std::int64_t n) {
    return n > 1 && (double(k) * double(n) >= 0x1p18 || double(nnz) * double(n) >= 0x1p22);
}

// Whether row-split writes column-major C through a row-wise copy (m x n sums in the
// buffer, then finish_columnwise). Written directly, a warp's column lanes store one
// element per column of C, each `ld` apart; where a warp holds at most two rows (16 or
// 32 column lanes per row) those stores cost more than the copy's two extra passes over
// C and its launch. With 8 column lanes it lost everywhere, so did a C of under 2^19
// elements and rows of more than 32 nonzeros on average, whose products outweigh C's
// stores. Measured: docs/algorithms/spmm-csr.md, "Row-wise copies: rowwise.hpp".
inline bool rowwise_c_pays(std::int64_t m, std::int64_t nnz, std::int64_t n, const geometry& g) {
    return n > 1 && g.lanes >= 16 && double(m) * double(n) >= 0x1p19 &&
           double(nnz) <= 32.0 * double(m);
}

// Columns per pass where the copies are capped: where the row-wise copies of all n
// columns would take more than kCopyBudgetBytes, row-split does the columns
// kChunkColumns at a time, each pass copying its columns of op(B) (and, where it pays at
// that width, writing its columns of C through the copy), so the buffer holds the copies
// of kChunkColumns columns only. Why: with copies of all n columns the buffer was as
// large as op(B) and C together (banded_1m_hb4 at n = 128: 1.02 GB, where cuSPARSE asks
// for 0.14 MB), more than a solver near the device's memory can give. A pass of 32
// columns reads A again, but on the matrices whose copies exceed the budget four passes
// of 32 take about what one pass of 128 took; on the small matrices, whose copies are a
// few MB, the passes' launches would cost more than they save.
// Measured: docs/algorithms/spmm-csr.md, "Row-wise copies: rowwise.hpp".
inline constexpr std::int64_t kChunkColumns = 32;
inline constexpr double kCopyBudgetBytes = 0x1p27;  // 128 MiB

}  // namespace tcs::spmm::csr
