// When a tile plan runs and when the hash plan takes the product instead: the thresholds
// of TCS_SPGEMM_DEFAULT and of the explicit tile algorithms (TCS_SPGEMM_ALG_TILE,
// _TILE_TC), and the verdict from the shapes alone (no GPU work). select.cpp builds the
// guarded plans on them; the measurements behind every threshold are in
// docs/algorithms/spgemm-tiles.md ("The default", "Explicit tile algorithms").
#pragma once

#include "spgemm/plan.hpp"

#include <algorithm>

namespace tcs::spgemm {

// One guarded tile plan's thresholds.
struct tile_rule {
    // Below this mean row length (nnz / rows) of A or of B: hash, without measuring.
    double min_row_length;
    // From an inner dimension this many times both outer ones (a short-fat A times a
    // tall-skinny B): hash, without measuring.
    double min_inner_ratio;
    // Tiles only where A and B hold at least this many entries per nonempty 8x8 tile
    // (counted by the tile plan's conversion, tested on the device).
    unsigned min_density;
    // Rows from this mean length up to min_row_length, in operands of at least
    // kProbeMinEntries entries: a sample of the tiles (read back, no conversion) decides
    // whether to measure them; 0 = never.
    double probe_row_length = 0.0;
};

// Operands the probe samples: this many entries at least, where its few small copies (and
// their waits) cost a few percent of the product at most.
// docs/algorithms/spgemm-tiles.md, "Short rows in dense tiles"
inline constexpr std::int64_t kProbeMinEntries = std::int64_t(1) << 22;
// The probe's runs of panels, at a quarter and three quarters of the rows (power-law graphs
// keep their hubs in places); each run's columns are one more copy and wait.
// docs/algorithms/spgemm-tiles.md, "Short rows in dense tiles"
inline constexpr int kProbeRuns = 2;
// Panels per run: with kProbeRuns, 1,024 rows read back in all.
// docs/algorithms/spgemm-tiles.md, "Short rows in dense tiles"
inline constexpr int kProbePanels = 64;
// Entries the probe reads per run at most (a run of hub rows stops there).
// docs/algorithms/spgemm-tiles.md, "Short rows in dense tiles"
inline constexpr std::int64_t kProbeMaxEntries = 16384;

// TCS_SPGEMM_DEFAULT: tiles where they were measured to beat hash. Rows under 20 entries
// are mostly graphs of sparse tiles, not worth a conversion and a synchronization, but
// narrow bands and 2D stencils with 2 unknowns per node are dense tiles of short rows:
// from 4 entries a large operand is sampled first; tiles on tensor cores beat hash from
// 8 entries per tile on; short-fat products lost on tiles
// (docs/algorithms/spgemm-tiles.md, "The default", "Short rows in dense tiles",
// "Short-fat times tall-skinny").
inline constexpr tile_rule kDefaultRule{20.0, 2.0, 8, 4.0};

// TCS_SPGEMM_ALG_TILE and _TILE_TC: the caller's choice, kept wherever tiles were measured
// within about twice hash's time, handed to hash only where they were measured far slower.
// No row-length filter: short rows in dense tiles (a narrow band) run faster on tiles. The
// density and the inner ratio lie between the matrices measured near twice hash's time and
// those measured far slower (docs/algorithms/spgemm-tiles.md, "Explicit tile algorithms").
inline constexpr tile_rule kExplicitRule{0.0, 4.0, 7};

// What the shapes say: tiles (16-bit data, which has no hash path), hash, measure the
// tile density (the tile plan's conversion, then tiles or hash), or probe a sample of the
// tiles first (then measure or hash).
enum class verdict { hash, tiles, measure, probe };

// The hash algorithm has no 16-bit path (its kernels compute fp32 and fp64 data): 16-bit
// data runs on tiles. The one statement of that rule: from_shape sends such data to tiles,
// and the C layer (lib/spgemm.cpp) asks hash_takes and hash_or_tiles.
inline bool hash_takes(value_type data) { return data != value_type::f16 && data != value_type::bf16; }

// The algorithm for a request that names no family (cuSPARSE's algorithm values, which
// run hash): hash, or tiles on tensor cores for data hash does not take.
inline algorithm hash_or_tiles(value_type data) {
    return hash_takes(data) ? algorithm::hash : algorithm::tile_tc;
}

inline double mean_row_length(const csr_view& m) {
    return m.rows > 0 ? double(m.nnz) / double(m.rows) : 0.0;
}

inline verdict from_shape(const problem& p, const tile_rule& r) {
    if (!hash_takes(p.a.type)) return verdict::tiles;
    if (p.a.nnz == 0 || p.b.nnz == 0 || !tiles_fit(p)) return verdict::hash;
    const double shortest = std::min(mean_row_length(p.a), mean_row_length(p.b));
    const bool probe = shortest < r.min_row_length;
    if (probe && (r.probe_row_length <= 0.0 || shortest < r.probe_row_length ||
                  std::min(p.a.nnz, p.b.nnz) < kProbeMinEntries))
        return verdict::hash;
    if (double(p.a.cols) >= r.min_inner_ratio * double(std::max(p.a.rows, p.b.cols))) return verdict::hash;
    return probe ? verdict::probe : verdict::measure;
}

}  // namespace tcs::spgemm
