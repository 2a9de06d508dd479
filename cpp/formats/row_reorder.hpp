// Row reordering for the dense-block format (dense_blocks.hpp): an order of the rows that
// puts rows with similar column sets next to each other, so that the 32-row windows
// of the format have fewer distinct columns, hence fewer blocks and fewer rows of B to
// load. SMaT clusters rows greedily by Jaccard distance on the CPU (O(m^2) in the worst
// case); here each row gets a signature of two min-hashes of its column set (the
// probability that two rows agree on a min-hash is the Jaccard similarity of their
// columns), and one stable radix sort by signature on the GPU gives the order: rows with
// identical columns (the unknowns of one mesh node) always end up together, rows that
// share much of their columns often. Whether the order is used at all is decided by
// the block counts both orders give (dense_blocks.cu): on banded and stencil matrices
// the natural order is already the best one and is kept.
#pragma once

#include "core/workspace.hpp"
#include "formats/row_source.cuh"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace tcs::formats {

struct signature_scratch {
    std::uint64_t* keys_in = nullptr;   // rows: signature of each row
    std::uint64_t* keys_out = nullptr;  // rows: the signatures sorted
    int* rows_in = nullptr;             // rows: 0, 1, ..., rows - 1
    int* rows_out = nullptr;            // rows: the rows in signature order
    void* temp = nullptr;
    std::size_t temp_bytes = 0;
};

// Carves the arrays above (a null base sizes only). rows > 0.
signature_scratch carve_signatures(std::int64_t rows, carver& scratch);

// s.rows_out = the rows sorted by signature (stable: equal signatures keep row order;
// empty rows last). Asynchronous on `stream`.
template <class Rows>
void order_by_signature(const Rows& rows, const signature_scratch& s, cudaStream_t stream);

}  // namespace tcs::formats
