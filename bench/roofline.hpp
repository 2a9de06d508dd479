// The roofline of one benchmark case on the running GPU (issue 37, item 5): the least
// time its unavoidable bytes take at the measured copy bandwidth, or its flops at the
// measured tensor-core rate of its precision, whichever is longer, and the measured time
// as a multiple of that floor. scripts/perf_report.py turns the counters into
// docs/perf/roofline.md.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "gpu.hpp"

namespace bench {

// The tensor-core rate a precision's fastest exact path reaches: HMMA for 16-bit data
// (fp32 accumulation), DMMA for fp32 and fp64 (fp32 products are exact in fp64).
inline double mma_rate_for(cudaDataType type) {
    const gpu_state& g = gpu();
    return type == CUDA_R_16F || type == CUDA_R_16BF ? g.hmma_flops : g.dmma_flops;
}

// Counters: roof_bytes and roof_flops (what the case must move and compute), the two
// floors (roof_bytes_ms, roof_mma_ms), the floor (roof_ms, the larger) and roof_ratio
// (ms / roof_ms).
inline void report_roofline(benchmark::State& state, double bytes, double flops, cudaDataType type,
                            double ms) {
    const gpu_state& g = gpu();
    const double bytes_ms = bytes / g.copy_bandwidth * 1e3;
    const double rate = mma_rate_for(type);
    const double mma_ms = rate > 0 ? flops / rate * 1e3 : 0.0;
    const double roof_ms = std::max(bytes_ms, mma_ms);
    state.counters["roof_bytes"] = bytes;
    state.counters["roof_flops"] = flops;
    state.counters["roof_bytes_ms"] = bytes_ms;
    state.counters["roof_mma_ms"] = mma_ms;
    state.counters["roof_ms"] = roof_ms;
    state.counters["roof_ratio"] = roof_ms > 0 ? ms / roof_ms : 0.0;
}

// Bytes of a CSR matrix with 32-bit indices: offsets, columns and values.
inline double csr_bytes(int64_t rows, int64_t nnz, std::size_t value_bytes) {
    return 4.0 * double(rows + 1) + double(nnz) * (4.0 + double(value_bytes));
}

// What any SpMM moves at least: A (CSR) and B (k x n) read once, C (rows x n) written
// once (beta = 0). SpMV is the case n = 1.
inline double spmm_floor_bytes(int64_t rows, int64_t nnz, int64_t k, int64_t n, std::size_t value_bytes) {
    return csr_bytes(rows, nnz, value_bytes) + double(k) * double(n) * double(value_bytes) +
           double(rows) * double(n) * double(value_bytes);
}

}  // namespace bench
