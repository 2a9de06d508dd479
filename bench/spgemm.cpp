// SpGEMM: C = A*A (A*A^T for rectangular A) through tcsparse and cuSPARSE. The timed
// unit is the whole pipeline a user pays for: every call of the protocol, every
// cudaMalloc and cudaFree of the buffers and of C's arrays. The first run of each
// benchmark is the warm-up and is checked against the CPU reference. tcsparse runs
// TCS_SPGEMM_DEFAULT ("tcsparse") and each algorithm forced ("tcsparse_hash",
// "tcsparse_tile", "tcsparse_tile_tc") in the same process, beside cuSPARSE.
// spgemm_numeric/ times tcsparse's numeric phase alone (compute and copy run again on
// the same descriptor and buffers, as a solver re-running a product with new values
// does), the multiply the roofline (roofline.hpp) measures against its floor.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <type_traits>
#include <utility>
#include <vector>

#include "benchmarks.hpp"
#include "device_csr.hpp"
#include "gpu.hpp"
#include "roofline.hpp"

namespace bench {

namespace {

// What one run leaves behind: C's arrays (the caller frees them after the timing, as
// the user keeps C), nnz(C), and the sizes the library asked for.
struct spgemm_output {
    int64_t nnz = 0;
    std::size_t buffer1 = 0, buffer2 = 0, buffer3 = 0;
    device_buffer row_ptr, col_idx, values;
};

// How buffer2 is sized: the NULL-buffer compute query (DEFAULT/ALG1), or
// estimateMemory (cuSPARSE's ALG2/ALG3 protocol, its low-memory path).
enum class sizing { compute_query, estimate_memory };

// C's descriptor, the SpGEMM descriptor and the two buffers of one pipeline. Declared in
// this order, they go in the order the protocol ends: buffer2 and buffer1 freed, then the
// SpGEMM descriptor and C's destroyed.
template <class Lib>
struct spgemm_state {
    spmat<Lib> c;
    spgemm_descr<Lib> d;
    device_buffer buffer1, buffer2;
};

// The protocol of include/tcsparse.h and of cuSPARSE's samples, call for call. Every
// allocation goes through `memory`, so memory.peak() is the pipeline's footprint:
// buffer1 + buffer2 (+ buffer3 while it lives) + C's row offsets, columns and values.
// `kept`: where the descriptors and buffers stay alive for the caller to run compute and
// copy again (spgemm_numeric); without it they go when the pipeline returns.
template <class Lib>
spgemm_output spgemm_pipeline(typename Lib::const_spmat_t a, typename Lib::const_spmat_t b,
                              int64_t rows, int64_t cols, cudaDataType type,
                              typename Lib::spgemm_alg_t alg, sizing how, device_memory& memory,
                              spgemm_state<Lib>* kept = nullptr) {
    const typename Lib::handle_t h = Lib::handle();
    const auto op = Lib::non_transpose;
    const unit_scalars s(type);
    spgemm_output out;
    spgemm_state<Lib> local;
    spgemm_state<Lib>& st = kept != nullptr ? *kept : local;
    spmat<Lib>& c = st.c;
    spgemm_descr<Lib>& d = st.d;
    // The caller allocates C's row offsets up front, as solvers do (counted).
    out.row_ptr = memory.allocate(std::size_t(rows + 1) * sizeof(int));
    LIB_CALL(Lib, CreateCsr, c.out(), rows, cols, 0, out.row_ptr.get(), nullptr, nullptr,
             Lib::index32, Lib::index32, Lib::base_zero, type);
    LIB_CALL(Lib, SpGEMM_createDescr, d.out());

    LIB_CALL(Lib, SpGEMM_workEstimation, h, op, op, s.one(), a, b, s.zero(), c.get(), type, alg,
             d.get(), &out.buffer1, nullptr);
    device_buffer& buffer1 = st.buffer1;
    buffer1 = memory.allocate(out.buffer1);
    LIB_CALL(Lib, SpGEMM_workEstimation, h, op, op, s.one(), a, b, s.zero(), c.get(), type, alg,
             d.get(), &out.buffer1, buffer1.get());

    if (how == sizing::estimate_memory) {
        LIB_CALL(Lib, SpGEMM_estimateMemory, h, op, op, s.one(), a, b, s.zero(), c.get(), type,
                 alg, d.get(), 1.0f, &out.buffer3, nullptr, nullptr);
        device_buffer buffer3 = memory.allocate(out.buffer3);
        LIB_CALL(Lib, SpGEMM_estimateMemory, h, op, op, s.one(), a, b, s.zero(), c.get(), type,
                 alg, d.get(), 1.0f, &out.buffer3, buffer3.get(), &out.buffer2);
        // buffer3 is freed here, before buffer2 exists, as cuSPARSE's sample does.
    } else {
        LIB_CALL(Lib, SpGEMM_compute, h, op, op, s.one(), a, b, s.zero(), c.get(), type, alg,
                 d.get(), &out.buffer2, nullptr);
    }
    device_buffer& buffer2 = st.buffer2;
    buffer2 = memory.allocate(out.buffer2);
    LIB_CALL(Lib, SpGEMM_compute, h, op, op, s.one(), a, b, s.zero(), c.get(), type, alg, d.get(),
             &out.buffer2, buffer2.get());

    int64_t c_rows = 0, c_cols = 0;
    LIB_CALL(Lib, SpMatGetSize, c.get(), &c_rows, &c_cols, &out.nnz);
    out.col_idx = memory.allocate(std::size_t(out.nnz) * sizeof(int));
    out.values = memory.allocate(std::size_t(out.nnz) * value_size(type));
    LIB_CALL(Lib, CsrSetPointers, c.get(), out.row_ptr.get(), out.col_idx.get(), out.values.get());
    LIB_CALL(Lib, SpGEMM_copy, h, op, op, s.one(), a, b, s.zero(), c.get(), type, alg, d.get());
    return out;  // without `kept`: frees buffer2 and buffer1, then destroys the SpGEMM
                 // descriptor and C's
}

void check_spgemm(host_matrix& m, const spgemm_output& out, cudaDataType type, const char* lib) {
    const tcst_csr& ref = m.spgemm_reference();
    if (out.nnz != ref.nnz)
        throw failure(std::string(lib) + ": nnz(C) = " + std::to_string(out.nnz) +
                      ", the CPU reference has " + std::to_string(ref.nnz));
    std::vector<int> row_ptr(std::size_t(ref.rows + 1)), col_idx(std::size_t(ref.nnz));
    std::vector<char> values(std::size_t(ref.nnz) * value_size(type));
    download(row_ptr.data(), out.row_ptr.get(), row_ptr.size() * sizeof(int));
    download(col_idx.data(), out.col_idx.get(), col_idx.size() * sizeof(int));
    download(values.data(), out.values.get(), values.size());
    const bool is_double = type == CUDA_R_64F;
    char msg[512] = {0};
    if (tcst_compare_csr(&ref, m.spgemm_magnitude(), row_ptr.data(), col_idx.data(), values.data(),
                         is_double, 0, relative_tolerance(m.max_row_length(), is_double), msg,
                         sizeof msg) != 0)
        throw failure(std::string(lib) + ": C differs from the CPU reference: " + msg);
}

// Entries per nonempty 8x8 tile of A (the tile algorithms' density), on the host.
double tile_density(const tcst_csr& a) {
    int64_t tiles = 0;
    std::vector<int> cols;
    for (int64_t p = 0; p * 8 < a.rows; ++p) {
        cols.clear();
        for (int e = a.row_ptr[p * 8]; e < a.row_ptr[std::min<int64_t>(a.rows, p * 8 + 8)]; ++e)
            cols.push_back(a.col_idx[e] / 8);
        std::sort(cols.begin(), cols.end());
        tiles += std::unique(cols.begin(), cols.end()) - cols.begin();
    }
    return tiles > 0 ? double(a.nnz) / double(tiles) : 0.0;
}

// What any SpGEMM must move: A read once (B too where it is another matrix), C's
// offsets, columns and values written once.
double spgemm_floor_bytes(host_matrix& m, int64_t nnz_c, cudaDataType type) {
    const std::size_t v = value_size(type);
    double bytes = csr_bytes(m.a().rows, m.a().nnz, v) + csr_bytes(m.a().rows, nnz_c, v);
    if (!m.square()) bytes += csr_bytes(m.b().rows, m.b().nnz, v);
    return bytes;
}

template <class Lib>
void spgemm_benchmark(benchmark::State& state, const matrix_case& mc, cudaDataType type,
                      typename Lib::spgemm_alg_t alg) try {
    host_matrix& m = load(mc);
    const gpu_state& g = gpu();
    const device_csr a = upload(m.a(), type);
    const device_csr a_t = m.square() ? device_csr{} : upload(m.b(), type);
    const device_csr& b = m.square() ? a : a_t;
    const_spmat<Lib> da, db;  // the inputs' descriptors exist before the product
    describe<Lib>(da, a);
    describe<Lib>(db, b);
    const auto run = [&](typename Lib::spgemm_alg_t alg, sizing how, device_memory& memory) {
        return spgemm_pipeline<Lib>(da.get(), db.get(), a.rows, b.cols, type, alg, how, memory);
    };

    // The warm-up run, checked; its C is released before the timed runs.
    spgemm_output checked;
    std::size_t peak_bytes = 0;
    {
        device_memory first;
        spgemm_output out = run(alg, sizing::compute_query, first);
        check_spgemm(m, out, type, Lib::name);
        peak_bytes = first.peak();
        checked.nnz = out.nnz;
        checked.buffer1 = out.buffer1;
        checked.buffer2 = out.buffer2;
    }

    event_timer timer;
    std::vector<double> ms;
    for (auto _ : state) {
        flush_l2();
        device_memory memory;
        timer.start(g.stream);
        const spgemm_output out = run(alg, sizing::compute_query, memory);
        const double t = timer.stop_ms(g.stream);
        state.SetIterationTime(t * 1e-3);
        ms.push_back(t);
    }  // C is freed here, after the stop event

    const double med = median(ms);
    state.counters["ms"] = med;
    state.counters["gflops"] = 2.0 * double(m.products()) / (med * 1e-3) * 1e-9;
    state.counters["products"] = double(m.products());
    state.counters["nnz_a"] = double(m.a().nnz);
    state.counters["rows"] = double(m.a().rows);
    state.counters["nnz_c"] = double(checked.nnz);
    state.counters["peak_bytes"] = double(peak_bytes);
    state.counters["buffer1_bytes"] = double(checked.buffer1);
    state.counters["buffer2_bytes"] = double(checked.buffer2);
    // What the default's choice depends on (docs/algorithms/spgemm-tiles.md).
    state.counters["mean_row"] = m.mean_row_length();
    state.counters["tile_density"] = tile_density(m.a());
    report_roofline(state, spgemm_floor_bytes(m, checked.nnz, type), 2.0 * double(m.products()), type, med);

    if constexpr (std::is_same_v<Lib, cusparse_lib>) {
        // cuSPARSE's low-memory ALG2, run once for its footprint (not timed, not a
        // failure of this benchmark when cuSPARSE declines).
        try {
            device_memory memory;
            run(cusparse_lib::spgemm_alg2, sizing::estimate_memory, memory);
            state.counters["peak_bytes_alg2"] = double(memory.peak());
        } catch (const failure& e) {
            std::fprintf(stderr, "tcs_bench: %s: cuSPARSE ALG2 not measured: %s\n", mc.name.c_str(), e.what());
        }
    }
} catch (const std::exception& e) {
    state.SkipWithError(e.what());
}

// The numeric phase of tcsparse alone: one whole pipeline (workEstimation, compute, C's
// arrays, copy), then compute + copy again on the same descriptor and buffers per
// sample, with a cold L2; C is checked after the timed runs.
void spgemm_numeric_benchmark(benchmark::State& state, const matrix_case& mc, cudaDataType type,
                              tcsSpGEMMAlg_t alg) try {
    using Lib = tcsparse_lib;
    host_matrix& m = load(mc);
    const gpu_state& g = gpu();
    const device_csr a = upload(m.a(), type);
    const device_csr a_t = m.square() ? device_csr{} : upload(m.b(), type);
    const device_csr& b = m.square() ? a : a_t;
    const_spmat<Lib> da, db;
    describe<Lib>(da, a);
    describe<Lib>(db, b);
    const tcsHandle_t h = Lib::handle();
    const auto op = Lib::non_transpose;
    const unit_scalars s(type);

    device_memory memory;
    spgemm_state<Lib> kept;
    spgemm_output out = spgemm_pipeline<Lib>(da.get(), db.get(), a.rows, b.cols, type, alg,
                                             sizing::compute_query, memory, &kept);
    const auto numeric = [&] {
        LIB_CALL(Lib, SpGEMM_compute, h, op, op, s.one(), da.get(), db.get(), s.zero(), kept.c.get(),
                 type, alg, kept.d.get(), &out.buffer2, kept.buffer2.get());
        LIB_CALL(Lib, SpGEMM_copy, h, op, op, s.one(), da.get(), db.get(), s.zero(), kept.c.get(), type,
                 alg, kept.d.get());
    };
    numeric();  // warm-up of the repeated phase

    event_timer timer;
    std::vector<double> ms;
    for (auto _ : state) {
        flush_l2();
        timer.start(g.stream);
        numeric();
        const double t = timer.stop_ms(g.stream);
        state.SetIterationTime(t * 1e-3);
        ms.push_back(t);
    }
    check_cuda(cudaStreamSynchronize(g.stream), "cudaStreamSynchronize");
    check_spgemm(m, out, type, Lib::name);

    const double med = median(ms);
    state.counters["ms"] = med;
    state.counters["nnz_c"] = double(out.nnz);
    state.counters["nnz_a"] = double(m.a().nnz);
    state.counters["products"] = double(m.products());
    state.counters["mean_row"] = m.mean_row_length();
    state.counters["tile_density"] = tile_density(m.a());
    state.counters["buffer2_bytes"] = double(out.buffer2);
    report_roofline(state, spgemm_floor_bytes(m, out.nnz, type), 2.0 * double(m.products()), type, med);
} catch (const std::exception& e) {
    state.SkipWithError(e.what());
}

template <class Lib>
void add(const matrix_case& c, cudaDataType type, int runs, typename Lib::spgemm_alg_t alg,
         const char* suffix = "") {
    const std::string name =
        std::string("spgemm/") + type_name(type) + "/" + c.name + "/" + Lib::name + suffix;
    benchmark::RegisterBenchmark(name.c_str(), [&c, type, alg](benchmark::State& s) {
        spgemm_benchmark<Lib>(s, c, type, alg);
    })
        ->UseManualTime()
        ->Iterations(runs)
        ->Unit(benchmark::kMillisecond);
}

}  // namespace

void register_spgemm(const matrix_case& c, const run_counts& runs) {
    for (cudaDataType type : {CUDA_R_32F, CUDA_R_64F}) {
        add<tcsparse_lib>(c, type, runs.spgemm, TCS_SPGEMM_DEFAULT);
        add<tcsparse_lib>(c, type, runs.spgemm, TCS_SPGEMM_ALG_HASH, "_hash");
        add<tcsparse_lib>(c, type, runs.spgemm, TCS_SPGEMM_ALG_TILE, "_tile");
        add<tcsparse_lib>(c, type, runs.spgemm, TCS_SPGEMM_ALG_TILE_TC, "_tile_tc");
        add<cusparse_lib>(c, type, runs.spgemm, CUSPARSE_SPGEMM_DEFAULT);
    }
    const std::pair<tcsSpGEMMAlg_t, const char*> numeric_variants[] = {
        {TCS_SPGEMM_DEFAULT, "tcsparse"}, {TCS_SPGEMM_ALG_HASH, "tcsparse_hash"},
        {TCS_SPGEMM_ALG_TILE_TC, "tcsparse_tile_tc"}};
    for (cudaDataType type : {CUDA_R_32F, CUDA_R_64F})
        for (const auto& [alg, label] : numeric_variants) {
            const std::string name = std::string("spgemm_numeric/") + type_name(type) + "/" + c.name + "/" + label;
            benchmark::RegisterBenchmark(name.c_str(), [&c, type, alg = alg](benchmark::State& s) {
                spgemm_numeric_benchmark(s, c, type, alg);
            })
                ->UseManualTime()
                ->Iterations(runs.spgemm)
                ->Unit(benchmark::kMillisecond);
        }
}

}  // namespace bench
