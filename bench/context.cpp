#include "context.hpp"

#include <benchmark/benchmark.h>
#include <cusparse.h>
#include <tcsparse.h>

#include <cstdio>
#include <string>

#include "gpu.hpp"
#include "libraries.hpp"

namespace bench {

namespace {

std::string dotted(int version) {  // CUDA's 1000*major + 10*minor
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

template <class Get>
std::string library_version(Get get) {
    int major = 0, minor = 0, patch = 0;
    if (get(MAJOR_VERSION, &major) != 0 || get(MINOR_VERSION, &minor) != 0 ||
        get(PATCH_LEVEL, &patch) != 0)
        return "unknown";
    return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

// The revision of the source tree the binary was built from: asked from git at run time
// (the tree may have moved on since configure), else the one CMake saw.
std::string git_revision() {
    // A tree exported with git archive carries its revision in .git-revision; git would
    // describe whatever repository encloses the export instead.
    if (FILE* f = std::fopen((std::string(TCS_BENCH_SOURCE_DIR) + "/.git-revision").c_str(), "r")) {
        char line[128] = {0};
        const bool got = std::fgets(line, sizeof line, f) != nullptr;
        std::fclose(f);
        std::string rev = got ? line : "";
        while (!rev.empty() && (rev.back() == '\n' || rev.back() == '\r')) rev.pop_back();
        if (!rev.empty()) return rev;
    }
    const std::string cmd = std::string("git -C '") + TCS_BENCH_SOURCE_DIR +
                            "' describe --always --dirty --abbrev=12 2>/dev/null";
    std::string out;
    if (FILE* p = popen(cmd.c_str(), "r")) {
        char line[128] = {0};
        if (std::fgets(line, sizeof line, p) != nullptr) out = line;
        pclose(p);
    }
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
    return out.empty() ? std::string(TCS_BENCH_GIT_AT_CONFIGURE) : out;
}

}  // namespace

void add_context(bool quick, const run_counts& runs) {
    const gpu_state& g = gpu();
    int runtime = 0, driver = 0;
    cudaRuntimeGetVersion(&runtime);
    cudaDriverGetVersion(&driver);
    char bw[64];
    std::snprintf(bw, sizeof bw, "%.1f", g.copy_bandwidth * 1e-9);

    benchmark::AddCustomContext("tcs_bench_mode", quick ? "quick" : "full");
    benchmark::AddCustomContext("device", g.props.name);
    benchmark::AddCustomContext("compute_capability",
                                std::to_string(g.props.major) + "." + std::to_string(g.props.minor));
    benchmark::AddCustomContext("sm_count", std::to_string(g.props.multiProcessorCount));
    benchmark::AddCustomContext("l2_bytes", std::to_string(g.props.l2CacheSize));
    benchmark::AddCustomContext("copy_bandwidth_GBps", bw);
    char launch[64];
    std::snprintf(launch, sizeof launch, "%.2f", g.launch_seconds * 1e6);
    benchmark::AddCustomContext("launch_us", launch);
    char dmma[64], hmma[64];
    std::snprintf(dmma, sizeof dmma, "%.1f", g.dmma_flops * 1e-12);
    std::snprintf(hmma, sizeof hmma, "%.1f", g.hmma_flops * 1e-12);
    benchmark::AddCustomContext("dmma_f64_TFLOPS", dmma);
    benchmark::AddCustomContext("hmma_f16_TFLOPS", hmma);
    benchmark::AddCustomContext("cuda_runtime", dotted(runtime));
    benchmark::AddCustomContext("cuda_driver", dotted(driver));
    benchmark::AddCustomContext("cusparse", library_version([](libraryPropertyType t, int* v) {
                                    return int(cusparseGetProperty(t, v));
                                }));
    benchmark::AddCustomContext("tcsparse", library_version([](libraryPropertyType t, int* v) {
                                    return int(tcsGetProperty(t, v));
                                }));
    benchmark::AddCustomContext("git", git_revision());
    benchmark::AddCustomContext("matrix_dir", tcst_matrix_dir());
    benchmark::AddCustomContext("timed_runs", "spgemm " + std::to_string(runs.spgemm) + ", spmm " +
                                                  std::to_string(runs.spmm) +
                                                  " (median reported as counter ms)");
    benchmark::AddCustomContext("l2", "flushed before every timed sample");
}

}  // namespace bench
