// SpMM with the tensor-core block family beside the CSR paths, on the same inputs:
//   spmm_blocks/<fp16|fp32|fp64>/row/n<N>/<matrix>/<variant>
// variants:
//   tcsparse      TCS_SPMM_ALG_DEFAULT (the block family where its rule says so)
//   blocks        TCS_SPMM_BSR_TC on the CSR matrix (the block family, except where its
//                 preprocess hands A to the CSR family; TCS_HANDOFF=0: always the blocks)
//   csr           TCS_SPMM_CSR_ALG2 (the CSR family's own rule: DEFAULT before the block
//                 family existed)
//   cusparse      cuSPARSE's CSR SpMM, CUSPARSE_SPMM_ALG_DEFAULT
//   cusparse_bell<B>  cuSPARSE's Blocked-ELL SpMM (tensor cores) with blocks of B x B,
//                 built from the CSR matrix on the host as a user would have to (fp16)
// A and B hold the type, C too, the compute type is fp32 for fp16 (cuSPARSE's mixed
// precision). Each sample is one SpMM call with a cold L2, the stream held until it is
// queued (as in bench/spmm.cpp); what is paid once is reported apart: preprocess_ms
// (our preprocess, the block analysis with its one wait, median of 3) and
// conversion_ms (the host's CSR -> Blocked-ELL conversion and upload). Every result is
// checked against the CPU reference on sampled columns.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "benchmarks.hpp"
#include "device_csr.hpp"
#include "gpu.hpp"
#include "libraries.hpp"
#include "roofline.hpp"

namespace bench {

namespace {

struct blocks_config {
    cudaDataType type;
    int64_t n;
};

const char* type_label(cudaDataType t) {
    return t == CUDA_R_16F ? "fp16" : t == CUDA_R_64F ? "fp64" : "fp32";
}
std::size_t bytes_of(cudaDataType t) { return t == CUDA_R_64F ? 8 : t == CUDA_R_32F ? 4 : 2; }
cudaDataType compute_of(cudaDataType t) { return t == CUDA_R_64F ? CUDA_R_64F : CUDA_R_32F; }

void put(std::vector<char>& host, std::size_t i, cudaDataType t, double x) {
    if (t == CUDA_R_64F)
        reinterpret_cast<double*>(host.data())[i] = x;
    else if (t == CUDA_R_32F)
        reinterpret_cast<float*>(host.data())[i] = float(x);
    else
        reinterpret_cast<uint16_t*>(host.data())[i] = tcst_half_bits(float(x));
}
double get(const std::vector<char>& host, std::size_t i, cudaDataType t) {
    if (t == CUDA_R_64F) return reinterpret_cast<const double*>(host.data())[i];
    if (t == CUDA_R_32F) return reinterpret_cast<const float*>(host.data())[i];
    return tcst_half_value(reinterpret_cast<const uint16_t*>(host.data())[i]);
}

// fp16 holds values up to 65504: A's values are scaled by a power of two (exact) that
// brings them into [-1, 1] when they exceed it (the structural matrices reach 1e9), for
// every library alike; the references are scaled the same way.
double value_scale(const tcst_csr& a, cudaDataType t) {
    if (t != CUDA_R_16F) return 1.0;
    double most = 0.0;
    for (int64_t e = 0; e < a.nnz; ++e) most = std::max(most, std::fabs(a.val[e]));
    return most > 1.0 ? std::ldexp(1.0, -std::ilogb(most) - 1) : 1.0;
}

device_buffer upload_bytes(const std::vector<char>& host) {
    device_buffer d = allocate_untracked(std::max<std::size_t>(host.size(), 1));
    if (!host.empty())
        check_cuda(cudaMemcpy(d.get(), host.data(), host.size(), cudaMemcpyHostToDevice), "cudaMemcpy");
    return d;
}

// A CSR matrix on the device with values of any of the three types.
struct typed_csr {
    device_buffer rp, ci, val;
};
typed_csr upload_csr(const tcst_csr& m, cudaDataType t) {
    typed_csr d;
    std::vector<char> rp(std::size_t(m.rows + 1) * 4), ci(std::size_t(m.nnz) * 4),
        val(std::size_t(m.nnz) * bytes_of(t));
    std::copy(m.row_ptr, m.row_ptr + m.rows + 1, reinterpret_cast<int*>(rp.data()));
    std::copy(m.col_idx, m.col_idx + m.nnz, reinterpret_cast<int*>(ci.data()));
    const double scale = value_scale(m, t);
    for (int64_t e = 0; e < m.nnz; ++e) put(val, std::size_t(e), t, scale * m.val[e]);
    d.rp = upload_bytes(rp);
    d.ci = upload_bytes(ci);
    d.val = upload_bytes(val);
    return d;
}

// B (rows x n, row-major) with B(i, j) = dense_value(i, j); rows past `k` are zero (the
// Blocked-ELL runs pad k to whole blocks).
device_buffer upload_b(int64_t rows, int64_t k, int64_t n, cudaDataType t) {
    std::vector<char> host(std::size_t(rows * n) * bytes_of(t), 0);
    for (int64_t i = 0; i < k; ++i)
        for (int64_t j = 0; j < n; ++j) put(host, std::size_t(i * n + j), t, dense_value(i, j));
    return upload_bytes(host);
}

// The sampled columns of C (the first `rows` rows, row-major with ld n) against the
// reference (scaled as A was), with the bound of the type: fp16 inputs are rounded, so
// 1e-2 of the magnitude and half an fp16 step of the result (2^-25 for subnormal
// results); fp32 and fp64 as bench/spmm.cpp.
void check_result(host_matrix& m, const blocks_config& c, const device_buffer& dc, const char* what) {
    const spmm_reference& ref = m.spmm_reference_for(c.n);
    const int64_t rows = m.a().rows;
    std::vector<char> host(std::size_t(rows * c.n) * bytes_of(c.type));
    download(host.data(), dc.get(), host.size());
    const double rtol = c.type == CUDA_R_16F ? 1e-2 : relative_tolerance(m.max_row_length(), c.type == CUDA_R_64F);
    const double scale = value_scale(m.a(), c.type);
    for (std::size_t t = 0; t < ref.columns.size(); ++t)
        for (int64_t i = 0; i < rows; ++i) {
            const double x = get(host, std::size_t(i * c.n + ref.columns[t]), c.type);
            const std::size_t at = t * std::size_t(rows) + std::size_t(i);
            const double r = scale * ref.c[at];
            const double slack =
                c.type == CUDA_R_16F ? std::max(std::ldexp(std::fabs(r), -11), std::ldexp(1.0, -25)) : 0.0;
            if (!(std::fabs(x - r) <= rtol * scale * ref.magnitude[at] + slack + 1e-300))
                throw failure(std::string(what) + ": C(" + std::to_string(i) + "," +
                              std::to_string(ref.columns[t]) + ") = " + std::to_string(x) +
                              ", reference " + std::to_string(r));
        }
}

// Times `call` as bench/spmm.cpp does: L2 flushed, stream held, CUDA events; median.
template <class Call>
void time_samples(benchmark::State& state, Call call) {
    const gpu_state& g = gpu();
    event_timer timer;
    stream_hold hold;
    std::vector<double> ms;
    for (auto _ : state) {
        flush_l2();
        hold.hold(g.stream);
        timer.start(g.stream);
        call();
        timer.stop(g.stream);
        hold.release();
        const double t = timer.elapsed_ms();
        state.SetIterationTime(t * 1e-3);
        ms.push_back(t);
    }
    state.counters["ms"] = median(ms);
    state.counters["hold_expired"] = hold.expired();
}

void common_counters(benchmark::State& state, host_matrix& m, const blocks_config& c) {
    state.counters["n"] = double(c.n);
    state.counters["rows"] = double(m.a().rows);
    state.counters["nnz_a"] = double(m.a().nnz);
    state.counters["gflops"] = 2.0 * double(m.a().nnz) * double(c.n) / (state.counters["ms"] * 1e-3) * 1e-9;
    // The floor: A (CSR) and B read once, C written once (beta = 0); the tensor cores'
    // rate for the flops (roofline.hpp).
    const double bytes = spmm_floor_bytes(m.a().rows, m.a().nnz, m.a().cols, c.n, bytes_of(c.type));
    report_roofline(state, bytes, 2.0 * double(m.a().nnz) * double(c.n), c.type, state.counters["ms"]);
}

// tcsparse with algorithm `alg` (DEFAULT, BSR_TC or CSR_ALG2).
void run_tcsparse(benchmark::State& state, const matrix_case& mc, blocks_config c, tcsSpMMAlg_t alg) try {
    host_matrix& m = load(mc);
    const gpu_state& g = gpu();
    const tcst_csr& a = m.a();
    const typed_csr da = upload_csr(a, c.type);
    const device_buffer b = upload_b(a.cols, a.cols, c.n, c.type);
    const device_buffer dc = allocate_untracked(std::size_t(a.rows * c.n) * bytes_of(c.type) + 16);
    check_cuda(cudaMemset(dc.get(), 0xff, dc.bytes()), "cudaMemset C");
    check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    const_spmat<tcsparse_lib> sa;
    LIB_CALL(tcsparse_lib, CreateConstCsr, sa.out(), a.rows, a.cols, a.nnz, da.rp.get(), da.ci.get(),
             da.val.get(), TCS_INDEX_32I, TCS_INDEX_32I, TCS_INDEX_BASE_ZERO, c.type);
    const_dnmat<tcsparse_lib> sb;
    LIB_CALL(tcsparse_lib, CreateConstDnMat, sb.out(), a.cols, c.n, c.n, b.get(), c.type, TCS_ORDER_ROW);
    dnmat<tcsparse_lib> sc;
    LIB_CALL(tcsparse_lib, CreateDnMat, sc.out(), a.rows, c.n, c.n, dc.get(), c.type, TCS_ORDER_ROW);
    const tcsHandle_t h = tcsparse_lib::handle();
    const unit_scalars s(compute_of(c.type));
    const tcsOperation_t op = TCS_OPERATION_NON_TRANSPOSE;
    std::size_t bytes = 0;
    LIB_CALL(tcsparse_lib, SpMM_bufferSize, h, op, op, s.one(), sa.get(), sb.get(), s.zero(), sc.get(),
             compute_of(c.type), alg, &bytes);
    const device_buffer buffer = allocate_untracked(bytes);
    std::vector<double> pre;
    for (int r = 0; r < 3; ++r) {
        check_cuda(cudaStreamSynchronize(g.stream), "sync");
        const auto t0 = std::chrono::steady_clock::now();
        LIB_CALL(tcsparse_lib, SpMM_preprocess, h, op, op, s.one(), sa.get(), sb.get(), s.zero(),
                 sc.get(), compute_of(c.type), alg, buffer.get());
        check_cuda(cudaStreamSynchronize(g.stream), "sync");
        pre.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    const auto spmm = [&] {
        LIB_CALL(tcsparse_lib, SpMM, h, op, op, s.one(), sa.get(), sb.get(), s.zero(), sc.get(),
                 compute_of(c.type), alg, buffer.get());
    };
    spmm();
    check_result(m, c, dc, "tcsparse");
    time_samples(state, spmm);
    common_counters(state, m, c);
    state.counters["preprocess_ms"] = median(pre);
    state.counters["buffer_bytes"] = double(bytes);
    int64_t rows_per = 0, cols_per = 0, natural = 0, reordered = 0, used = 0;
    int uses = 0;
    if (tcsSpMM_getBlockCounts(sa.get(), &rows_per, &cols_per, &natural, &reordered, &used, &uses) ==
        TCS_STATUS_SUCCESS) {
        state.counters["blocks_natural"] = double(natural);
        state.counters["blocks_reordered"] = double(reordered);
        state.counters["blocks_used"] = double(used);
        state.counters["fill"] = double(a.nnz) / (double(used) * double(rows_per * cols_per));
        state.counters["uses_blocks"] = uses;
    } else {
        state.counters["uses_blocks"] = 0;
    }
} catch (const std::exception& e) {
    state.SkipWithError(e.what());
}

void run_cusparse_csr(benchmark::State& state, const matrix_case& mc, blocks_config c) try {
    host_matrix& m = load(mc);
    const gpu_state& g = gpu();
    (void)g;
    const tcst_csr& a = m.a();
    const typed_csr da = upload_csr(a, c.type);
    const device_buffer b = upload_b(a.cols, a.cols, c.n, c.type);
    const device_buffer dc = allocate_untracked(std::size_t(a.rows * c.n) * bytes_of(c.type) + 16);
    check_cuda(cudaMemset(dc.get(), 0xff, dc.bytes()), "cudaMemset C");
    check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    const_spmat<cusparse_lib> sa;
    LIB_CALL(cusparse_lib, CreateConstCsr, sa.out(), a.rows, a.cols, a.nnz, da.rp.get(), da.ci.get(),
             da.val.get(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, c.type);
    const_dnmat<cusparse_lib> sb;
    LIB_CALL(cusparse_lib, CreateConstDnMat, sb.out(), a.cols, c.n, c.n, b.get(), c.type, CUSPARSE_ORDER_ROW);
    dnmat<cusparse_lib> sc;
    LIB_CALL(cusparse_lib, CreateDnMat, sc.out(), a.rows, c.n, c.n, dc.get(), c.type, CUSPARSE_ORDER_ROW);
    const cusparseHandle_t h = cusparse_lib::handle();
    const unit_scalars s(compute_of(c.type));
    const cusparseOperation_t op = CUSPARSE_OPERATION_NON_TRANSPOSE;
    std::size_t bytes = 0;
    // Mixed precision (fp16 data, fp32 compute) may need CSR_ALG3 where DEFAULT declines.
    cusparseSpMMAlg_t alg = CUSPARSE_SPMM_ALG_DEFAULT;
    if (cusparseSpMM_bufferSize(h, op, op, s.one(), sa.get(), sb.get(), s.zero(), sc.get(),
                                compute_of(c.type), alg, &bytes) != CUSPARSE_STATUS_SUCCESS)
        alg = CUSPARSE_SPMM_CSR_ALG3;
    LIB_CALL(cusparse_lib, SpMM_bufferSize, h, op, op, s.one(), sa.get(), sb.get(), s.zero(), sc.get(),
             compute_of(c.type), alg, &bytes);
    const device_buffer buffer = allocate_untracked(bytes);
    LIB_CALL(cusparse_lib, SpMM_preprocess, h, op, op, s.one(), sa.get(), sb.get(), s.zero(), sc.get(),
             compute_of(c.type), alg, buffer.get());
    const auto spmm = [&] {
        LIB_CALL(cusparse_lib, SpMM, h, op, op, s.one(), sa.get(), sb.get(), s.zero(), sc.get(),
                 compute_of(c.type), alg, buffer.get());
    };
    spmm();
    check_result(m, c, dc, "cusparse");
    time_samples(state, spmm);
    common_counters(state, m, c);
    state.counters["buffer_bytes"] = double(bytes);
    state.counters["cusparse_alg"] = double(alg);
} catch (const std::exception& e) {
    state.SkipWithError(e.what());
}

// A's Blocked-ELL image on the host: rows and columns rounded up to whole blocks, every
// block row as wide as the widest (ELL padding with column -1 and zero values).
struct bell_host {
    int64_t rows = 0, cols = 0, ell_cols = 0;
    std::vector<int> col_ind;
    std::vector<char> values;
    double seconds = 0;  // the conversion's host time
};

constexpr double kBellBudgetBytes = 4e9;  // padded value arrays beyond this are not built

bell_host to_bell(const tcst_csr& a, int bs, cudaDataType t) {
    const auto t0 = std::chrono::steady_clock::now();
    bell_host e;
    const int64_t brows = (a.rows + bs - 1) / bs;
    e.rows = brows * bs;
    e.cols = (a.cols + bs - 1) / bs * bs;
    std::vector<std::vector<int>> lists(static_cast<std::size_t>(brows));
    int64_t widest = 0;
    for (int64_t br = 0; br < brows; ++br) {
        std::vector<int>& l = lists[std::size_t(br)];
        for (int64_t i = br * bs; i < std::min<int64_t>(a.rows, (br + 1) * bs); ++i)
            for (int q = a.row_ptr[i]; q < a.row_ptr[i + 1]; ++q) l.push_back(a.col_idx[q] / bs);
        std::sort(l.begin(), l.end());
        l.erase(std::unique(l.begin(), l.end()), l.end());
        widest = std::max<int64_t>(widest, int64_t(l.size()));
    }
    if (widest == 0) widest = 1;
    e.ell_cols = widest * bs;
    if (double(e.rows) * double(e.ell_cols) * double(bytes_of(t)) > kBellBudgetBytes)
        throw failure("Blocked-ELL with blocks of " + std::to_string(bs) + " needs " +
                      std::to_string(double(e.rows) * double(e.ell_cols) * double(bytes_of(t)) / 1e9) +
                      " GB of padded values (longest block row " + std::to_string(widest) + " blocks)");
    const double scale = value_scale(a, t);
    e.col_ind.assign(std::size_t(brows * widest), -1);
    e.values.assign(std::size_t(e.rows * e.ell_cols) * bytes_of(t), 0);
    for (int64_t br = 0; br < brows; ++br) {
        const std::vector<int>& l = lists[std::size_t(br)];
        for (std::size_t s = 0; s < l.size(); ++s) e.col_ind[std::size_t(br * widest) + s] = l[s];
        for (int64_t i = br * bs; i < std::min<int64_t>(a.rows, (br + 1) * bs); ++i)
            for (int q = a.row_ptr[i]; q < a.row_ptr[i + 1]; ++q) {
                const int bc = a.col_idx[q] / bs;
                const int64_t slot = std::lower_bound(l.begin(), l.end(), bc) - l.begin();
                put(e.values, std::size_t(i * e.ell_cols + slot * bs + a.col_idx[q] % bs), t,
                    scale * a.val[q]);
            }
    }
    e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return e;
}

void run_cusparse_bell(benchmark::State& state, const matrix_case& mc, blocks_config c, int bs) try {
    host_matrix& m = load(mc);
    const tcst_csr& a = m.a();
    const bell_host e = to_bell(a, bs, c.type);
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<char> ci(e.col_ind.size() * 4);
    std::copy(e.col_ind.begin(), e.col_ind.end(), reinterpret_cast<int*>(ci.data()));
    const device_buffer dci = upload_bytes(ci);
    const device_buffer dval = upload_bytes(e.values);
    check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    const double upload_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const device_buffer b = upload_b(e.cols, a.cols, c.n, c.type);
    const device_buffer dc = allocate_untracked(std::size_t(e.rows * c.n) * bytes_of(c.type) + 16);
    check_cuda(cudaMemset(dc.get(), 0xff, dc.bytes()), "cudaMemset C");
    check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    spmat<cusparse_lib> sa;
    check_status<cusparse_lib>(cusparseCreateBlockedEll(sa.out(), e.rows, e.cols, bs, e.ell_cols, dci.get(),
                                                        dval.get(), CUSPARSE_INDEX_32I,
                                                        CUSPARSE_INDEX_BASE_ZERO, c.type),
                               "CreateBlockedEll");
    const_dnmat<cusparse_lib> sb;
    LIB_CALL(cusparse_lib, CreateConstDnMat, sb.out(), e.cols, c.n, c.n, b.get(), c.type, CUSPARSE_ORDER_ROW);
    dnmat<cusparse_lib> sc;
    LIB_CALL(cusparse_lib, CreateDnMat, sc.out(), e.rows, c.n, c.n, dc.get(), c.type, CUSPARSE_ORDER_ROW);
    const cusparseHandle_t h = cusparse_lib::handle();
    const unit_scalars s(compute_of(c.type));
    const cusparseOperation_t op = CUSPARSE_OPERATION_NON_TRANSPOSE;
    std::size_t bytes = 0;
    LIB_CALL(cusparse_lib, SpMM_bufferSize, h, op, op, s.one(), sa.get(), sb.get(), s.zero(), sc.get(),
             compute_of(c.type), CUSPARSE_SPMM_BLOCKED_ELL_ALG1, &bytes);
    const device_buffer buffer = allocate_untracked(bytes);
    const auto spmm = [&] {
        LIB_CALL(cusparse_lib, SpMM, h, op, op, s.one(), sa.get(), sb.get(), s.zero(), sc.get(),
                 compute_of(c.type), CUSPARSE_SPMM_BLOCKED_ELL_ALG1, buffer.get());
    };
    spmm();
    check_result(m, c, dc, "cusparse Blocked-ELL");
    time_samples(state, spmm);
    common_counters(state, m, c);
    state.counters["conversion_ms"] = (e.seconds + upload_seconds) * 1e3;
    state.counters["bell_bytes"] = double(e.values.size() + ci.size());
    state.counters["bell_fill"] = double(a.nnz) / (double(e.rows) * double(e.ell_cols));
    state.counters["buffer_bytes"] = double(bytes);
} catch (const std::exception& e) {
    state.SkipWithError(e.what());
}

template <class Body>
void add(const std::string& name, int runs, Body body) {
    benchmark::RegisterBenchmark(name.c_str(), body)
        ->UseManualTime()
        ->Iterations(runs)
        ->Unit(benchmark::kMicrosecond);
}

}  // namespace

void register_spmm_blocks(const matrix_case& mc, const run_counts& runs) {
    std::vector<blocks_config> configs;
    for (int64_t n : {8, 32, 64, 128}) configs.push_back({CUDA_R_16F, n});
    for (int64_t n : {32, 128}) configs.push_back({CUDA_R_64F, n});
    for (int64_t n : {32, 128}) configs.push_back({CUDA_R_32F, n});
    for (const blocks_config& c : configs) {
        const std::string base = std::string("spmm_blocks/") + type_label(c.type) + "/row/n" +
                                 std::to_string(c.n) + "/" + mc.name + "/";
        const matrix_case* p = &mc;
        add(base + "tcsparse", runs.spmm, [p, c](benchmark::State& s) { run_tcsparse(s, *p, c, TCS_SPMM_ALG_DEFAULT); });
        add(base + "blocks", runs.spmm, [p, c](benchmark::State& s) { run_tcsparse(s, *p, c, TCS_SPMM_BSR_TC); });
        add(base + "csr", runs.spmm, [p, c](benchmark::State& s) { run_tcsparse(s, *p, c, TCS_SPMM_CSR_ALG2); });
        add(base + "cusparse", runs.spmm, [p, c](benchmark::State& s) { run_cusparse_csr(s, *p, c); });
        if (c.type == CUDA_R_16F && c.n >= 32)
            for (int bs : {8, 16, 32, 64})
                add(base + "cusparse_bell" + std::to_string(bs), runs.spmm,
                    [p, c, bs](benchmark::State& s) { run_cusparse_bell(s, *p, c, bs); });
    }
}

}  // namespace bench
