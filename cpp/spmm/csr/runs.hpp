// When row-split shares loads of op(B) among runs of rows with one pattern
// (row_runs.cuh), and with which window. The kernel finds the runs itself, and is
// correct on any matrix; but on a matrix without runs its windows only cost (each
// segment walks Z rows one run after another, at 5 blocks per SM instead of up to 9).
// So tcsSpMM_preprocess counts the runs (count_runs_kernel) and waits for the
// count; only a preprocessed call uses them.
//
// Where:
//   - busy geometry with 16 or more column lanes (fp32 n > 32, fp64 n > 16); with 8
//     column lanes neither window gained.
//   - not where the groups leave the device less busy: there a window's rows are
//     work the device would have done in parallel.
//   - only with few runs per row: the window that gives the fewest (at most
//     kRunMaxPerRow; windows start at multiples of Z).
// Measured: docs/algorithms/spmm-csr.md, "Runs of rows: runs.hpp".
#pragma once

#include "spmm/csr/geometry.hpp"

#include <cstdint>

namespace tcs::spmm::csr {

inline constexpr int kRunMinLanes = 16;
// The windows compiled (Z), by index 0 and 1 (a function: device code reads it too).
constexpr int run_window(int z) { return z == 0 ? 3 : 4; }
inline constexpr double kRunMaxPerRow = 0.4;

// Whether a row-split plan may use runs: the busy geometry's one nonzero lane and at
// least kRunMinLanes column lanes, no very long rows cut into parts, fp32 or fp64.
inline bool runs_possible(const geometry& g, const long_plan& longs, std::size_t element_bytes) {
    return g.busy && g.rows_lanes == 1 && g.lanes >= kRunMinLanes &&
           longs.tiers[1].parts <= 1 && element_bytes >= 4;
}

// The window from the counts of runs in windows of each run_window size over m rows:
// 1 (no runs) unless one makes at most kRunMaxPerRow runs per row; the fewest runs
// wins, the smaller window on a tie.
inline int choose_runs(const unsigned long long (&runs)[2], std::int64_t m) {
    int best = 1;
    double fewest = kRunMaxPerRow * double(m);
    for (int z = 0; z < 2; ++z)
        if (double(runs[z]) <= fewest && (best == 1 || double(runs[z]) < fewest)) {
            best = run_window(z);
            fewest = double(runs[z]);
        }
    return best;
}

}  // namespace tcs::spmm::csr
