// The SpMM interface between the C layer and the kernels:
//   C = alpha * op(A) * op(B) + beta * C, A CSR (32-bit indices), B and C dense.
// The C layer checks arguments and resolves the pointer mode; these functions choose
// and run a kernel family. All run on p.stream, allocate nothing, never synchronize.
#pragma once

#include "core/device.hpp"
#include "core/types.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>

namespace tcs::spmm {

enum class algorithm {
    automatic,  // the measured rule picks row-split or merge-path
    row_split,
    merge_path,
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

// Writes what depends only on A's structure (partition, transposed copy) into buffer.
void preprocess(const problem& p, void* buffer);

// Runs the product. `preprocessed` is true when preprocess() ran earlier on this same
// buffer with the same parameters, so its analysis may be reused.
void run(const problem& p, void* buffer, bool preprocessed);

}  // namespace tcs::spmm
