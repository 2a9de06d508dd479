// tcs_bench: tcsparse and cuSPARSE side by side (Google Benchmark). See bench/README.md.
//
//   tcs_bench [--quick] [--roofline] [Google Benchmark flags]
//
// --quick (or TCS_BENCH_QUICK=1) runs the small subset; without a --benchmark_filter the
// spmm_sweep, spmm_blocks, spgemm_numeric and spgemm_scale families are filtered out.
// --roofline runs what docs/perf/roofline.md reports: the numeric phase of SpGEMM (fp64)
// and the block SpMM at n = 128 (fp16, fp64), each against its floor (roofline.hpp). Without a GPU nothing is measured: the program says
// so and exits 0 (--benchmark_list_tests still lists the names).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "benchmarks.hpp"
#include "context.hpp"
#include "gpu.hpp"

namespace {

bool env_flag(const char* name) {
    const char* v = std::getenv(name);
    return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

int env_int(const char* name, int fallback) {
    const char* v = std::getenv(name);
    const int parsed = v != nullptr ? std::atoi(v) : 0;
    return parsed > 0 ? parsed : fallback;
}

bool has_flag(const std::vector<char*>& args, const char* prefix) {
    for (char* a : args)
        if (std::strncmp(a, prefix, std::strlen(prefix)) == 0) return true;
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<char*> args;
    bool quick = env_flag("TCS_BENCH_QUICK");
    bool roofline = false;
    for (int i = 0; i < argc; ++i) {
        if (i > 0 && std::strcmp(argv[i], "--quick") == 0)
            quick = true;
        else if (i > 0 && std::strcmp(argv[i], "--roofline") == 0)
            roofline = true;
        else
            args.push_back(argv[i]);
    }
    // The sweep forces tcsparse's algorithms for tuning, the width sweep runs sixteen
    // widths, the block family's comparison runs every variant: they run only when asked
    // for.
    static char default_filter[] = "--benchmark_filter=-^(spmm_sweep|spmm_width|spmm_blocks|spgemm_numeric|spgemm_scale)/";
    static char roofline_filter[] =
        "--benchmark_filter=^(spgemm_numeric/fp64/|spmm_blocks/(fp16|fp64)/row/n128/)";
    if (!has_flag(args, "--benchmark_filter")) args.push_back(roofline ? roofline_filter : default_filter);

    const bool list_only = has_flag(args, "--benchmark_list_tests") &&
                           !has_flag(args, "--benchmark_list_tests=false") &&
                           !has_flag(args, "--benchmark_list_tests=0");
    const bool have_gpu = tcst_gpu_available() != 0;
    if (!have_gpu && !list_only) {
        std::printf("tcs_bench: no CUDA GPU found: the benchmarks need an NVIDIA GPU; nothing was measured\n");
        return 0;
    }

    int count = int(args.size());
    args.push_back(nullptr);
    benchmark::Initialize(&count, args.data());
    if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 2;

    const int base_runs = env_int("TCS_BENCH_RUNS", quick ? 5 : 10);
    const bench::run_counts runs{base_runs, 4 * base_runs};
    // A deque: registered benchmarks hold references to its elements.
    static std::deque<bench::matrix_case> cases;
    for (bench::matrix_case& c : bench::matrix_cases(quick)) cases.push_back(std::move(c));
    for (const bench::matrix_case& c : cases) {
        bench::register_spgemm(c, runs);
        bench::register_spmm(c, runs, quick);
        bench::register_spmv(c, runs, quick);
    }
    for (const bench::matrix_case& c : cases) bench::register_spmm_sweep(c, runs);
    for (const bench::matrix_case& c : cases) bench::register_spmm_width(c, runs);
    for (const bench::matrix_case& c : cases) bench::register_spmm_blocks(c, runs);
    bench::register_spgemm_scale(runs);

    if (have_gpu && !list_only) {
        try {
            bench::add_context(quick, runs);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "tcs_bench: %s\n", e.what());
            return 1;
        }
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    bench::release_gpu();
    return 0;
}
