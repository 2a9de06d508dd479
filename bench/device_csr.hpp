// A CSR matrix in device memory (32-bit indices, base 0, fp32 or fp64 values), and its
// read-only descriptor in either library.
#pragma once

#include <library_types.h>

#include <cstdint>
#include <string>

#include "cuda_util.hpp"
#include "libraries.hpp"
#include "tcs_test_support.h"

namespace bench {

struct device_csr {
    int64_t rows = 0, cols = 0, nnz = 0;
    cudaDataType type = CUDA_R_32F;
    device_buffer row_ptr, col_idx, values;
};

// Copies m to the device with values in `type` (fp32 values are rounded from double).
// Returns when the data is on the device.
device_csr upload(const tcst_csr& m, cudaDataType type);

template <class Lib>
void describe(const_spmat<Lib>& d, const device_csr& m) {
    LIB_CALL(Lib, CreateConstCsr, d.out(), m.rows, m.cols, m.nnz, m.row_ptr.get(),
             m.col_idx.get(), m.values.get(), Lib::index32, Lib::index32, Lib::base_zero, m.type);
}

inline std::size_t value_size(cudaDataType type) { return type == CUDA_R_64F ? 8 : 4; }
inline const char* type_name(cudaDataType type) { return type == CUDA_R_64F ? "fp64" : "fp32"; }

// Copies device memory written on the benchmark stream to the host, after that
// stream's work has finished.
void download(void* host, const void* device, std::size_t bytes);

}  // namespace bench
