// One block SpMM launch as the host has resolved it (blocks_spmm.cu): the format in the
// buffer, A's values, op(B) as a row-wise matrix (the caller's, or the buffer's copy of a
// column-wise one), C with its strides, and the tiling. The launchers are compiled once
// per precision, each in its own translation unit.
#pragma once

#include "core/types.hpp"
#include "formats/dense_blocks.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace tcs::spmm::blocks {

// How a block meets the tensor cores (policies.cuh).
enum class precision { f16, bf16, tf32, f64, f32_on_f64 };

struct product {
    precision kind = precision::f16;
    int rows = 0;       // m
    int windows = 0;
    int tiles = 1;      // MMA tiles of columns per task: 1, 2 or 4
    int slices = 1;     // tasks per window: ceil(n / (tiles * tile width))
    int sm_count = 0;   // the device's, for the grid
    bool wide = false;  // 16 warps per thread block (few windows) where they fit, else 4
    std::size_t smem_limit = 0;  // the device's shared memory per thread block (opt-in)
    std::int64_t n = 0;
    formats::dense_blocks blocks;
    const void* values = nullptr;  // A's values as the caller keeps them
    // op(B)(kk, j) at b[kk * ldb + j]
    const void* b = nullptr;
    std::int64_t ldb = 0;
    bool b_vector = false;  // 16-byte aligned rows: cp.async
    // C(i, j) at c[i * c_row_stride + j * c_col_stride]
    void* c = nullptr;
    std::int64_t c_row_stride = 0, c_col_stride = 0;
    value_type c_type = value_type::f32;
    scalar_arg alpha, beta;
    cudaStream_t stream = nullptr;
};

// One per precision (kernel.cuh, instantiated in multiply_*.cu).
void multiply_f16(const product& x);
void multiply_bf16(const product& x);
void multiply_f32(const product& x);  // tf32 or f32_on_f64
void multiply_f64(const product& x);

}  // namespace tcs::spmm::blocks
