// What SpMM and SpMV (its one-column case) share in the C layer: the type combinations
// cuSPARSE lists for CSR, and the hash of the parameters a preprocess analysis depends
// on (the key of tcsSpMMMemo).
#pragma once

#include "entry.hpp"
#include "objects.hpp"
#include "views.hpp"

#include "spmm/spmm.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace tcs::api {

// (A and B or x / C or y / compute) type combinations, as cuSPARSE lists them for CSR.
inline bool supported_product_types(cudaDataType ab, cudaDataType c, cudaDataType compute) {
    switch (ab) {
    case CUDA_R_32F: return c == CUDA_R_32F && compute == CUDA_R_32F;
    case CUDA_R_64F: return c == CUDA_R_64F && compute == CUDA_R_64F;
    case CUDA_R_16F: return (c == CUDA_R_16F || c == CUDA_R_32F) && compute == CUDA_R_32F;
    case CUDA_R_16BF: return (c == CUDA_R_16BF || c == CUDA_R_32F) && compute == CUDA_R_32F;
    default: return false;
    }
}

inline std::uint64_t memo_key(std::initializer_list<std::uint64_t> values) {
    std::uint64_t h = 0;
    for (std::uint64_t v : values) h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h;
}

// TCS_SPMM_REORDER=0 / =1, read once, as TCS_LOG_LEVEL is: no getenv on the products'
// path, none racing with a setenv of the caller's.
inline tcs::spmm::row_order block_row_order() noexcept {
    static const tcs::spmm::row_order order = [] {
        const char* v = std::getenv("TCS_SPMM_REORDER");
        if (v != nullptr && std::strcmp(v, "0") == 0) return tcs::spmm::row_order::natural;
        if (v != nullptr && std::strcmp(v, "1") == 0) return tcs::spmm::row_order::signature;
        return tcs::spmm::row_order::automatic;
    }();
    return order;
}

// The parts of an SpMM problem the two products fill alike: A, op(A), the compute
// type, the scalars in the handle's pointer mode, the stream and the device.
inline tcs::spmm::problem product_of(const tcsContext& handle, const tcsSpMatDescr& a, bool trans_a,
                                     const void* alpha, const void* beta, cudaDataType compute) {
    tcs::spmm::problem p;
    p.trans_a = trans_a;
    p.a = csr_view_of(a);
    p.compute = value_type_of(compute);
    p.alpha = scalar_of(handle, alpha, compute);
    p.beta = scalar_of(handle, beta, compute);
    p.stream = handle.stream;
    p.device = &handle.device;
    p.block_rows = block_row_order();
    return p;
}

inline std::uint64_t address_bits(const void* p) {
    return std::uint64_t(reinterpret_cast<std::uintptr_t>(p));
}

// TCS_LOG_LEVEL=3: what a product call ran with, for the call's line in the log.
inline void log_product(call_timer& timer, const tcs::spmm::problem& p, const tcsSpMatDescr& a,
                        bool preprocessed, const void* stream) {
    std::snprintf(timer.detail, sizeof timer.detail,
                  "(A %lldx%lld nnz %lld, n %lld, %s scalars, preprocessed %s, stream %p)",
                  (long long)a.rows, (long long)a.cols, (long long)a.nnz, (long long)p.c.cols,
                  p.alpha.on_device ? "device" : "host", preprocessed ? "yes" : "no", stream);
}

}  // namespace tcs::api
