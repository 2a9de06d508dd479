// The kernels of the hash SpGEMM as the plan (hash_plan.cu) launches them: one
// function per step, all asynchronous on the given stream, all memory given.
#pragma once

#include "core/device.hpp"
#include "core/types.hpp"
#include "spgemm/hash/bins.hpp"
#include "spgemm/hash/operands.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace tcs::spgemm::hash {

struct launch_context {
    cudaStream_t stream = nullptr;
    const device_info* device = nullptr;
};

// ---- workEstimation (products.cu, symbolic.cu) ----

// Products of every row into row_prod[0..m), row_prod[m] = 0, their total, the rows
// per symbolic bin and whether a row passes kRowProductLimit into st (which must start
// zeroed).
void count_products(const operands& x, const bin_table& symbolic, std::int64_t nnz_a, stats* st,
                    offset_t* row_prod, const launch_context& lc);

// perm: the rows grouped by symbolic bin, in the bins' order.
void bin_by_products(const operands& x, const bin_table& symbolic, stats* st, const offset_t* row_prod,
                     int* perm, const launch_context& lc);

// Global-memory bitmaps for the symbolic pass of wide rows, one per block, when a bitmap
// over C's columns does not fit in shared memory.
bool wide_bitmap_fits_shared(int n, const device_info& d);
int wide_bitmap_words(int n);
struct symbolic_scratch {
    unsigned* bits = nullptr;  // blocks * words
    int blocks = 0;
};

// The symbolic bins a row can reach, when no row's bound exceeds cap = min(n, nnz(B)):
// bins [kGroupBins, end); those from `guessed` on take the first guess, then the rows
// that overflowed it (a retry list of m ints in buffer1).
struct symbolic_reach {
    int end = kGroupBins;
    int guessed = kGroupBins;
    bool retries() const { return guessed < end; }
};
symbolic_reach symbolic_reach_of(const bin_plan& plan, int n, int nnz_b);

// row_nnz[r] = nnz of row r of C for every row; nnz(C), the longest row and the rows
// per numeric bin into st. Bins no row can reach (bound min(n, nnz(B))) are skipped.
// retry (m ints): the rows of the large bins that overflow the first guess.
void symbolic(const operands& x, const bin_plan& symbolic_plan, const bin_table& numeric,
              stats* st, const int* perm, int* retry, offset_t* row_nnz, const symbolic_scratch& wide,
              const launch_context& lc);

// ---- compute (products.cu) ----

// perm: the rows grouped by numeric bin (row_off: C's row offsets; counts: rows per
// bin; cursors: zeroed, kMaxBins ints).
void bin_by_nnz(const operands& x, const bin_table& numeric, const stats* st, const int* counts,
                const offset_t* row_off, int* cursors, int* perm, const launch_context& lc);

// counts[c * kMaxBins + bin] += rows of chunk c (rows [c * chunk_rows, ...)) in the
// numeric bin; counts zeroed, chunks * kMaxBins ints.
void count_chunk_bins(int m, int chunk_rows, const bin_table& numeric, const offset_t* row_off,
                      int* counts, const launch_context& lc);

// ---- copy (numeric.cuh, numeric_f32.cu, numeric_f64.cu) ----

// Per-block scratch of the wide numeric rows: a bitmap over C's columns, the rank of the
// first column of each bitmap word, the row's accumulators and their warp marks.
template <class V>
struct wide_scratch {
    unsigned* bits = nullptr;   // blocks * words
    int* first = nullptr;       // blocks * words
    V* vals = nullptr;          // blocks * max_nnz
    unsigned* marks = nullptr;  // blocks * max_nnz
    int blocks = 0;
    int max_nnz = 0;
};

// What the numeric pass needs beyond the operands.
template <class V>
struct numeric_job {
    operand_values<V> values;
    const int* device_counts = nullptr;  // rows per numeric bin (st->numeric_count, or a chunk's)
    const int* counts = nullptr;         // their host copy
    const int* perm = nullptr;    // rows by numeric bin
    const offset_t* row_off = nullptr; // C's row offsets, 0-based
    std::int64_t nnz_c = 0;
    bool write_last = true;       // C's offset after the rows: the last chunk's job
    output<V> c;
    scalar<V> alpha, beta;
    wide_scratch<V> wide;
};

// Writes C: row offsets, sorted columns, values alpha*A*B + beta*C.
template <class V>
void numeric(const operands& x, const bin_plan& numeric_plan, const numeric_job<V>& job,
             const launch_context& lc);

}  // namespace tcs::spgemm::hash
