// SpGEMM at scale: C = A*A for 27-point stencils on n^3 nodes, from nnz(C) = 1e7 up to
// what fits the GPU ((5n-6)^3 entries of C, (9n-10)^3 products). tcsparse's default
// ("tcsparse"; C with 64-bit indices once nnz(C) + 1 passes 2^31, 32-bit below), its
// hash algorithm forced ("tcsparse_hash": the default takes tiles on these stencils
// while nnz(C) < 2^31) and ALG3 under a memory budget ("tcsparse_budget":
// estimateMemory with chunk_fraction 0.2, the hash algorithm in row chunks), beside
// cuSPARSE's default ("cusparse") and its ALG3 with the same chunk_fraction
// ("cusparse_alg3"). The timed unit is the whole pipeline, allocations of
// the buffers and of C included (as spgemm.cpp); peak_bytes counts the buffers and C,
// not A. The first run is a warm-up whose nnz(C) is checked against the formula (the
// values are checked by tests/gpu_spgemm_large.c: a CPU reference of C is out of reach
// at these sizes). Where a run does not fit the device, the benchmark is skipped with
// "out of memory" and the library's or cudaMalloc's word.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "benchmarks.hpp"
#include "device_csr.hpp"
#include "gpu.hpp"

namespace bench {

namespace {

constexpr float kChunkFraction = 0.2f;

int64_t cube(int64_t x) { return x * x * x; }

struct scale_case {
    int n;           // nodes per dimension
    int64_t nnz_c;   // (5n-6)^3
    int64_t nnz_a;   // (3n-2)^3
    int64_t products;
    std::string name;
};

scale_case case_of(int n) {
    return {n, cube(5 * int64_t(n) - 6), cube(3 * int64_t(n) - 2), cube(9 * int64_t(n) - 10),
            "stencil27_n" + std::to_string(n)};
}

// nnz(C) about 1e7, 1e8, 3.7e8 (2^31 products), 1e9, 2.2e9 (beyond 32-bit offsets),
// 3.2e9 and 4.4e9: the largest are skipped where A and C do not fit.
const int kSizes[] = {45, 94, 145, 201, 260, 290, 330};

// One generated A at a time: the largest take seconds to build and gigabytes to hold.
struct current_matrix {
    int n = 0;
    host_csr host;
    cudaDataType type = CUDA_R_32F;
    device_csr device;
};
current_matrix& matrix_for(int n, cudaDataType type) {
    static current_matrix current;
    if (current.n != n || current.type != type || current.device.rows == 0) {
        current.device = device_csr{};
        if (current.n != n) {
            tcst_csr_free(&current.host.m);
            if (tcst_gen_stencil27(n, n, n, 1, 7, &current.host.m) != 0)
                throw failure("stencil27 " + std::to_string(n) + "^3: out of host memory");
        }
        current.n = n;
        current.type = type;
        current.device = upload(current.host.m, type);
    }
    return current;
}

template <class Lib>
int64_t pipeline(typename Lib::const_spmat_t a, int64_t rows, cudaDataType type,
                 typename Lib::spgemm_alg_t alg, float chunk, bool wide, device_memory& memory,
                 std::size_t* buffer2) {
    const typename Lib::handle_t h = Lib::handle();
    const auto op = Lib::non_transpose;
    const unit_scalars s(type);
    const std::size_t index_bytes = wide ? 8 : 4;
    const auto index = wide ? Lib::index64 : Lib::index32;
    device_buffer row_ptr = memory.allocate(std::size_t(rows + 1) * index_bytes);
    spmat<Lib> c;
    LIB_CALL(Lib, CreateCsr, c.out(), rows, rows, 0, row_ptr.get(), nullptr, nullptr, index, index,
             Lib::base_zero, type);
    spgemm_descr<Lib> d;
    LIB_CALL(Lib, SpGEMM_createDescr, d.out());
    std::size_t size1 = 0, size2 = 0, size3 = 0;
    LIB_CALL(Lib, SpGEMM_workEstimation, h, op, op, s.one(), a, a, s.zero(), c.get(), type, alg,
             d.get(), &size1, nullptr);
    device_buffer buffer1 = memory.allocate(size1);
    LIB_CALL(Lib, SpGEMM_workEstimation, h, op, op, s.one(), a, a, s.zero(), c.get(), type, alg,
             d.get(), &size1, buffer1.get());
    if (chunk < 1.0f) {
        LIB_CALL(Lib, SpGEMM_estimateMemory, h, op, op, s.one(), a, a, s.zero(), c.get(), type, alg,
                 d.get(), chunk, &size3, nullptr, nullptr);
        device_buffer buffer3 = memory.allocate(size3);
        LIB_CALL(Lib, SpGEMM_estimateMemory, h, op, op, s.one(), a, a, s.zero(), c.get(), type, alg,
                 d.get(), chunk, &size3, buffer3.get(), &size2);
    } else {
        LIB_CALL(Lib, SpGEMM_compute, h, op, op, s.one(), a, a, s.zero(), c.get(), type, alg, d.get(),
                 &size2, nullptr);
    }
    device_buffer b2 = memory.allocate(size2);
    LIB_CALL(Lib, SpGEMM_compute, h, op, op, s.one(), a, a, s.zero(), c.get(), type, alg, d.get(),
             &size2, b2.get());
    int64_t c_rows = 0, c_cols = 0, nnz = 0;
    LIB_CALL(Lib, SpMatGetSize, c.get(), &c_rows, &c_cols, &nnz);
    device_buffer col_idx = memory.allocate(std::size_t(nnz) * index_bytes);
    device_buffer values = memory.allocate(std::size_t(nnz) * value_size(type));
    LIB_CALL(Lib, CsrSetPointers, c.get(), row_ptr.get(), col_idx.get(), values.get());
    LIB_CALL(Lib, SpGEMM_copy, h, op, op, s.one(), a, a, s.zero(), c.get(), type, alg, d.get());
    check_cuda(cudaStreamSynchronize(gpu().stream), "SpGEMM at scale");
    if (buffer2 != nullptr) *buffer2 = size2;
    return nnz;  // C and the buffers are freed here, inside the timed region
}

template <class Lib>
void scale_benchmark(benchmark::State& state, const scale_case& sc, cudaDataType type,
                     typename Lib::spgemm_alg_t alg, float chunk) try {
    // C with 32-bit offsets where they hold it (cuSPARSE has no other), else 64-bit.
    const bool wide = sc.nnz_c + 1 > int64_t(INT32_MAX);
    const std::size_t vs = value_size(type);
    const std::size_t a_bytes = std::size_t(sc.nnz_a) * (4 + vs) + std::size_t(cube(sc.n)) * 4;
    const std::size_t c_bytes = std::size_t(sc.nnz_c) * ((wide ? 8 : 4) + vs);
    std::size_t free_b = 0, total = 0;
    check_cuda(cudaMemGetInfo(&free_b, &total), "cudaMemGetInfo");
    if (a_bytes + c_bytes > total) {
        state.SkipWithError(("out of memory: A and C alone need " + std::to_string((a_bytes + c_bytes) >> 20) +
                             " MiB").c_str());
        return;
    }
    const gpu_state& g = gpu();
    current_matrix& m = matrix_for(sc.n, type);
    const_spmat<Lib> da;
    describe<Lib>(da, m.device);
    std::size_t peak = 0, buffer2 = 0;
    {
        device_memory first;
        const int64_t nnz = pipeline<Lib>(da.get(), m.device.rows, type, alg, chunk, wide, first, &buffer2);
        if (nnz != sc.nnz_c)
            throw failure(std::string(Lib::name) + ": nnz(C) = " + std::to_string(nnz) + ", expected " +
                          std::to_string(sc.nnz_c));
        peak = first.peak();
    }
    event_timer timer;
    std::vector<double> ms;
    for (auto _ : state) {
        device_memory memory;
        timer.start(g.stream);
        pipeline<Lib>(da.get(), m.device.rows, type, alg, chunk, wide, memory, nullptr);
        const double t = timer.stop_ms(g.stream);
        state.SetIterationTime(t * 1e-3);
        ms.push_back(t);
    }
    const double med = median(ms);
    state.counters["ms"] = med;
    state.counters["products"] = double(sc.products);
    state.counters["nnz_c"] = double(sc.nnz_c);
    state.counters["rows"] = double(cube(sc.n));
    state.counters["peak_bytes"] = double(peak);
    state.counters["buffer2_bytes"] = double(buffer2);
    state.counters["c_index_bits"] = wide ? 64 : 32;
    state.counters["gflops"] = 2.0 * double(sc.products) / (med * 1e-3) * 1e-9;
} catch (const std::exception& e) {
    (void)cudaGetLastError();  // an allocation that failed leaves its error behind
    state.SkipWithError((std::string("out of memory or failed: ") + e.what()).c_str());
}

template <class Lib>
void add(const scale_case& sc, cudaDataType type, int runs, typename Lib::spgemm_alg_t alg,
         float chunk, const char* label) {
    const std::string name = std::string("spgemm_scale/") + type_name(type) + "/" + sc.name + "/" + label;
    benchmark::RegisterBenchmark(name.c_str(), [sc, type, alg, chunk](benchmark::State& s) {
        scale_benchmark<Lib>(s, sc, type, alg, chunk);
    })
        ->UseManualTime()
        ->Iterations(runs)
        ->Unit(benchmark::kMillisecond);
}

}  // namespace

void register_spgemm_scale(const run_counts& runs) {
    for (cudaDataType type : {CUDA_R_32F, CUDA_R_64F})
        for (int n : kSizes) {
            const scale_case sc = case_of(n);
            // The largest runs take seconds each (cuSPARSE's tens of seconds): fewer.
            const int r = sc.nnz_c > 500000000 ? 1 : sc.nnz_c > 50000000 ? 2 : std::max(2, runs.spgemm / 2);
            add<tcsparse_lib>(sc, type, r, TCS_SPGEMM_DEFAULT, 1.0f, "tcsparse");
            add<tcsparse_lib>(sc, type, r, TCS_SPGEMM_ALG_HASH, 1.0f, "tcsparse_hash");
            add<tcsparse_lib>(sc, type, r, TCS_SPGEMM_ALG3, kChunkFraction, "tcsparse_budget");
            if (sc.nnz_c + 1 <= int64_t(INT32_MAX)) {  // cuSPARSE's SpGEMM is 32-bit only
                add<cusparse_lib>(sc, type, r, CUSPARSE_SPGEMM_DEFAULT, 1.0f, "cusparse");
                add<cusparse_lib>(sc, type, r, CUSPARSE_SPGEMM_ALG3, kChunkFraction, "cusparse_alg3");
            }
        }
}

}  // namespace bench
