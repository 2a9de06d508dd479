// SpMV: y = op(A) * x with A sparse (CSR), x and y dense vectors, through tcsparse and
// cuSPARSE (its default, CSR_ALG1, the faster of its two CSR algorithms). For op(A) = A^T
// tcsparse's CSR_ALG2 runs too ("tcsparse_alg2"): the deterministic transposed copy,
// beside the default's atomic scatter. As in a
// Krylov solver, which multiplies by the same A hundreds of times, the buffer is
// allocated and preprocess runs once outside the timing; each timed sample is one SpMV
// call starting with a cold L2. beta = 0, so y is written once and never read.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "benchmarks.hpp"
#include "device_csr.hpp"
#include "gpu.hpp"
#include "roofline.hpp"
#include "held_samples.hpp"

namespace bench {

namespace {

struct spmv_config {
    cudaDataType type;
    bool transpose;
    bool deterministic = false;  // CSR_ALG2 instead of the default
};

std::string config_name(const spmv_config& c) {
    return std::string(type_name(c.type)) + (c.transpose ? "/T" : "/N");
}

// x(i) = dense_value(i, 0): the first column of SpMM's B.
device_buffer upload_vector(int64_t k, cudaDataType type) {
    std::vector<char> host(std::size_t(k) * value_size(type));
    for (int64_t i = 0; i < k; ++i) {
        if (type == CUDA_R_64F)
            reinterpret_cast<double*>(host.data())[i] = dense_value(i, 0);
        else
            reinterpret_cast<float*>(host.data())[i] = float(dense_value(i, 0));
    }
    device_buffer x = allocate_untracked(host.size());
    check_cuda(cudaMemcpy(x.get(), host.data(), host.size(), cudaMemcpyHostToDevice), "cudaMemcpy x");
    return x;
}

// op(A) x in double, its per-entry magnitude, and the most terms any entry sums.
struct spmv_reference {
    std::vector<double> y, magnitude;
    int64_t terms = 0;
};

spmv_reference reference_of(const tcst_csr& a, bool transpose) {
    spmv_reference r;
    const int64_t m = transpose ? a.cols : a.rows;
    r.y.assign(std::size_t(m), 0.0);
    r.magnitude.assign(std::size_t(m), 0.0);
    std::vector<int64_t> terms(std::size_t(m), 0);
    for (int64_t i = 0; i < a.rows; ++i)
        for (int e = a.row_ptr[i]; e < a.row_ptr[i + 1]; ++e) {
            const int64_t out = transpose ? a.col_idx[e] : i, in = transpose ? i : a.col_idx[e];
            const double product = a.val[e] * dense_value(in, 0);
            r.y[out] += product;
            r.magnitude[out] += std::fabs(product);
            ++terms[out];
        }
    r.terms = terms.empty() ? 0 : *std::max_element(terms.begin(), terms.end());
    return r;
}

std::string number(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", x);
    return text;
}

void check_spmv(const spmv_reference& ref, const device_buffer& y, cudaDataType type,
                const char* lib) {
    const std::size_t m = ref.y.size();
    std::vector<char> host(m * value_size(type));
    download(host.data(), y.get(), host.size());
    const double rtol = relative_tolerance(ref.terms, type == CUDA_R_64F);
    for (std::size_t i = 0; i < m; ++i) {
        const double v = type == CUDA_R_64F ? reinterpret_cast<const double*>(host.data())[i]
                                            : reinterpret_cast<const float*>(host.data())[i];
        if (!(std::fabs(v - ref.y[i]) <= rtol * ref.magnitude[i] + 1e-300))  // NaN fails too
            throw failure(std::string(lib) + ": y(" + std::to_string(i) + ") = " + number(v) +
                          ", CPU reference " + number(ref.y[i]));
    }
}

template <class Lib>
void spmv_benchmark(benchmark::State& state, const matrix_case& mc, spmv_config c) try {
    host_matrix& m = load(mc);
    const int64_t rows = m.a().rows, cols = m.a().cols;
    const int64_t out = c.transpose ? cols : rows, in = c.transpose ? rows : cols;
    const device_csr a = upload(m.a(), c.type);
    const device_buffer x = upload_vector(in, c.type);
    const device_buffer y = allocate_untracked(std::size_t(out) * value_size(c.type));
    // NaN everywhere: an entry the library fails to write cannot pass the check.
    check_cuda(cudaMemset(y.get(), 0xff, y.bytes()), "cudaMemset y");
    check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");

    const_spmat<Lib> da;
    describe<Lib>(da, a);
    const_dnvec<Lib> dx;
    LIB_CALL(Lib, CreateConstDnVec, dx.out(), in, x.get(), c.type);
    dnvec<Lib> dy;
    LIB_CALL(Lib, CreateDnVec, dy.out(), out, y.get(), c.type);

    const typename Lib::handle_t h = Lib::handle();
    const auto op = c.transpose ? Lib::transpose : Lib::non_transpose;
    const unit_scalars s(c.type);
    std::size_t buffer_bytes = 0;
    const auto alg = c.deterministic ? Lib::spmv_deterministic : Lib::spmv_default;
    LIB_CALL(Lib, SpMV_bufferSize, h, op, s.one(), da.get(), dx.get(), s.zero(), dy.get(), c.type,
             alg, &buffer_bytes);
    const device_buffer buffer = allocate_untracked(buffer_bytes);
    LIB_CALL(Lib, SpMV_preprocess, h, op, s.one(), da.get(), dx.get(), s.zero(), dy.get(), c.type,
             alg, buffer.get());
    const auto spmv = [&] {
        LIB_CALL(Lib, SpMV, h, op, s.one(), da.get(), dx.get(), s.zero(), dy.get(), c.type, alg,
                 buffer.get());
    };
    spmv();  // warm-up, checked
    check_spmv(reference_of(m.a(), c.transpose), y, c.type, Lib::name);

    const held_samples samples = run_held_samples(state, spmv);
    // The memory floor: A's three arrays and x read once, y written once.
    const std::size_t elem = value_size(c.type);
    const double bytes = csr_bytes(rows, a.nnz, elem) + double(in + out) * double(elem);
    report_held_samples(state, samples, bytes, 2.0 * double(a.nnz));
    state.counters["nnz_a"] = double(a.nnz);
    state.counters["rows"] = double(rows);
    state.counters["mean_row_len"] = m.mean_row_length();
    state.counters["buffer_bytes"] = double(buffer_bytes);
} catch (const std::exception& e) {
    state.SkipWithError(e.what());
}

template <class Lib>
void add(const matrix_case& mc, const spmv_config& c, int runs) {
    const std::string name = "spmv/" + config_name(c) + "/" + mc.name + "/" + Lib::name +
                             (c.deterministic ? "_alg2" : "");
    benchmark::RegisterBenchmark(name.c_str(), [&mc, c](benchmark::State& s) {
        spmv_benchmark<Lib>(s, mc, c);
    })
        ->UseManualTime()
        ->Iterations(runs)
        ->Unit(benchmark::kMicrosecond);
}

}  // namespace

void register_spmv(const matrix_case& mc, const run_counts& runs, bool quick) {
    std::vector<spmv_config> configs = {{CUDA_R_32F, false}, {CUDA_R_64F, false}};
    if (!quick) {
        configs.push_back({CUDA_R_32F, true});
        configs.push_back({CUDA_R_64F, true});
    }
    for (const spmv_config& c : configs) {
        add<tcsparse_lib>(mc, c, runs.spmm);
        add<cusparse_lib>(mc, c, runs.spmm);
        if (c.transpose) add<tcsparse_lib>(mc, {c.type, true, true}, runs.spmm);
    }
}

}  // namespace bench
