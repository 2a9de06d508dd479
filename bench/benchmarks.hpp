// Registration of the benchmark families. Names (stable, parsed by
// scripts/perf_report.py):
//   spgemm/<fp32|fp64>/<matrix>/<tcsparse|cusparse>
//   spmm/<fp32|fp64>/<row|col>/n<N>/<matrix>/<tcsparse|cusparse>
//   spmm_sweep/fp32/row/n<N>/<matrix>/<rowsplit|merge>   (tcsparse, forced algorithm)
//   spmv/<fp32|fp64>/<N|T>/<matrix>/<tcsparse|cusparse>
//   spmm_blocks/<fp16|fp32|fp64>/row/n<N>/<matrix>/<tcsparse|blocks|csr|cusparse|cusparse_bell<B>>
//       (the tensor-core block family beside the CSR paths: spmm_blocks.cpp)
//   spgemm_numeric/<fp32|fp64>/<matrix>/<tcsparse|tcsparse_hash|tcsparse_tile_tc>
//       (the numeric phase alone, against its roofline: spgemm.cpp, roofline.hpp)
//   spgemm_scale/<fp32|fp64>/stencil27_n<N>/<tcsparse|tcsparse_hash|tcsparse_budget|cusparse|cusparse_alg3>
//       (SpGEMM from nnz(C) = 1e7 to what fits the GPU: spgemm_scale.cpp)
#pragma once

#include "suite.hpp"

namespace bench {

struct run_counts {
    int spgemm;  // timed pipeline runs per benchmark (after one checked warm-up run)
    int spmm;    // timed SpMM (and SpMV) calls per benchmark
};

// The cases must outlive the benchmarks (they are captured by reference).
void register_spgemm(const matrix_case& c, const run_counts& runs);
void register_spmm(const matrix_case& c, const run_counts& runs, bool quick);
void register_spmm_sweep(const matrix_case& c, const run_counts& runs);
// DEFAULT and cuSPARSE over n = 1..256 (fp32 row- and column-major, fp64 row-major), for
// the width cliff; only when asked for (--benchmark_filter=^spmm_width/).
void register_spmm_width(const matrix_case& c, const run_counts& runs);
void register_spmv(const matrix_case& c, const run_counts& runs, bool quick);
void register_spmm_blocks(const matrix_case& c, const run_counts& runs);
void register_spgemm_scale(const run_counts& runs);

}  // namespace bench
