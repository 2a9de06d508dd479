// csr_reach (host): the CSR SpMM selection against the kernels compiled for it. The
// dispatch (spmm/csr/launch.cuh) compiles a row-split kernel for a combination of column
// lanes G, vectors NV, nonzero lanes R and run window Z only where split_reachable
// (spmm/csr/reachable.hpp) holds. This sweeps the selection (choose_split, as
// csr_spmm.cu's plan_split calls it for all n columns or kChunkColumns, with and without
// the row-wise copy of op(B); plan_long_rows; runs_possible) and merge-path's
// choose_geometry over element sizes, n, m, mean row lengths and devices, and checks
//   - every combination the selection makes is one split_reachable admits: no problem
//     lands on a kernel that was not compiled (the launch would fail);
//   - every combination split_reachable admits among those launch.cuh dispatches is made
//     by some problem of the sweep: no compiled kernel is dead;
//   - very long rows are cut into parts (S.parts > 1, kParts / kPartsFilled) only with
//     G <= 4, the only kernels that have parts; two vectors in merge-path only with 32
//     lanes.
#include "spmm/csr/geometry.hpp"
#include "spmm/csr/reachable.hpp"
#include "spmm/csr/rules.hpp"

#include <cstdint>
#include <cstdio>
#include <set>
#include <tuple>
#include <vector>

using namespace tcs::spmm::csr;

namespace {

using combo = std::tuple<int, int, int, int>;  // G, NV, R, Z
int failures = 0;

void fail(const char* what, std::size_t bytes, std::int64_t m, std::int64_t nnz, std::int64_t n,
          int sms, const geometry& g) {
    if (++failures <= 20)
        std::printf("FAIL %s: %zu-byte elements, m %lld, nnz %lld, n %lld, %d SMs: G %d NV %d R %d%s\n",
                    what, bytes, (long long)m, (long long)nnz, (long long)n, sms, g.lanes,
                    g.vectors, g.rows_lanes, g.busy ? " busy" : "");
}

}  // namespace

int main() {
    std::vector<std::int64_t> ns;
    for (std::int64_t n = 1; n <= 320; ++n) ns.push_back(n);
    for (std::int64_t n : {384, 511, 512, 640, 1000, 1024, 4096, 65536}) ns.push_back(n);
    std::vector<std::int64_t> ms;  // 1.3 apart: finer than the factors of 2 the rules step by
    for (double m = 1; m < 3e7; m *= 1.3) ms.push_back(std::int64_t(m));
    const double means[] = {0.01, 0.3, 1, 2, 3, 4, 5, 7, 9, 12, 17, 24, 33, 48, 65, 100, 140,
                            260, 600, 2000, 20000};
    const int sms[] = {0, 1, 8, 46, 108, 132, 144};
    std::int64_t problems = 0;
    for (std::size_t bytes : {std::size_t(2), std::size_t(4), std::size_t(8)}) {
        std::set<combo> made;
        for (std::int64_t n : ns) {
            // Merge-path: choose_geometry alone.
            const geometry mg = choose_geometry(n, bytes);
            if (mg.vectors == 2 && mg.lanes != 32) fail("merge-path two vectors", bytes, 1, 1, n, 0, mg);
            for (std::int64_t m : ms)
                for (double mean : means)
                    for (int sm : sms) {
                        tcs::device_info dev;
                        dev.sm_count = sm;
                        const std::int64_t nnz = std::max<std::int64_t>(1, std::int64_t(mean * double(m)));
                        if (nnz >= 0x7fffffff) continue;  // shape_of refuses 2^31 nonzeros
                        for (bool padded : {false, true})
                            for (std::int64_t width : {n, std::int64_t(kChunkColumns)}) {
                                if (width != n && n <= kChunkColumns) continue;
                                ++problems;
                                const geometry g = choose_split(m, nnz, width, bytes, &dev, padded);
                                if (g.single) continue;  // single_column.cuh's kernels
                                const long_plan longs = plan_long_rows(g, m, nnz, width, &dev);
                                if (longs.any() && longs.tiers[1].parts > 1 && g.lanes > 4)
                                    fail("parts beyond 4 column lanes", bytes, m, nnz, n, sm, g);
                                std::vector<int> windows{1};
                                if (runs_possible(g.busy, g.rows_lanes, g.lanes,
                                                  longs.tiers[1].parts, bytes))
                                    windows = {1, run_window(0), run_window(1)};
                                for (int z : windows) {
                                    if (!split_reachable(bytes, g.lanes, g.vectors, g.rows_lanes, z))
                                        fail("a kernel not compiled", bytes, m, nnz, n, sm, g);
                                    made.insert({g.lanes, g.vectors, g.rows_lanes, z});
                                }
                            }
                    }
        }
        // What launch.cuh dispatches: G 1..32 of one vector, 16 and 32 of two; R 1..32;
        // Z 1, 3, 4. Each admitted one must have been made.
        int admitted = 0;
        for (int nv : {1, 2})
            for (int G = 1; G <= 32; G *= 2) {
                if (nv == 2 && G < 16) continue;
                for (int R = 1; R <= 32; R *= 2)
                    for (int z : {1, run_window(0), run_window(1)}) {
                        if (!split_reachable(bytes, G, nv, R, z)) continue;
                        ++admitted;
                        if (!made.count({G, nv, R, z})) {
                            ++failures;
                            std::printf("FAIL compiled but never chosen: %zu-byte elements, G %d NV %d R %d Z %d\n",
                                        bytes, G, nv, R, z);
                        }
                    }
            }
        std::printf("%zu-byte elements: %zu row-split combinations chosen, %d compiled\n", bytes,
                    made.size(), admitted);
    }
    std::printf("%lld problems, %d failures\n", (long long)problems, failures);
    return failures == 0 ? 0 : 1;
}
