// The kernels of the tile SpGEMM as the plan (tile_plan.cu) launches them, and what they
// share: A and B as 8x8 bitmap tiles (formats/bitmap_tiles.hpp), the counters of the
// one read-back, and the checkpoints that split a panel of C among several warps.
//
// Every kernel gives one warp a panel of 8 rows of C (or a segment of one) and merges,
// in increasing tile column J, the tile rows of B that the panel's A tiles reach: lane l
// owns A tiles l, l + 32, ... of the panel and a cursor along B's tile row of each.
// Per J, the lanes whose cursor sits at J contribute a pair (A tile, B tile); the
// pattern of C's tile is the OR of the pairs' pattern products, and the multiplication
// accumulates the pairs in increasing A tile (fixed order: deterministic).
#pragma once

#include "core/device.hpp"
#include "core/types.hpp"
#include "formats/bitmap_tiles.hpp"
#include "spgemm/tiles/rules.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace tcs::spgemm::tiles {

using formats::bitmap_tile;

// Counters filled on the device by the structure pass and read back once.
struct stats {
    unsigned long long nnz;       // nnz(C)
    unsigned long long products;  // scalar products of A*B
    unsigned long long pairs;     // tile pairs whose patterns meet
    unsigned long long c_tiles;   // nonempty tiles of C
    int max_panel_tiles;          // most A tiles in one panel
    formats::conversion_counts a, b;  // the conversions' (B's zero when B is A)
};

// The structure pass runs only where A and B are dense enough in tiles: entries >=
// min_density * tiles for both (TCS_SPGEMM_DEFAULT's test, decided on the device from the
// conversion's counts so that it costs no synchronization); min_density 0: always.
struct density_gate {
    unsigned long long a_entries = 0, b_entries = 0;
    unsigned min_density = 0;
    bool shared = false;  // B is A: b_tiles is not counted

    __host__ __device__ bool open(unsigned long long a_tiles, unsigned long long b_tiles) const {
        if (shared) b_tiles = a_tiles;
        const unsigned long long be = shared ? a_entries : b_entries;
        return a_entries >= min_density * a_tiles && be >= min_density * b_tiles;
    }
};

// Where segment s >= 1 of a panel starts: its first tile column, and the entries each
// row of the panel holds in the tile columns before it.
struct checkpoint {
    int col;
    int rows[formats::kTileDim];
};

// A and B as tiles, and the partition of C's panels into segments.
struct operands {
    formats::tile_view a, b;
    int segments = 1;                  // per panel
    checkpoint* checkpoints = nullptr; // panels * (segments - 1), written by the structure pass
};

// ---- workEstimation (structure.cu) ----

// row_nnz[r] = nnz of row r of C (r < rows of A); the checkpoints; nnz(C), products,
// pairs, tiles of C and the most A tiles of a panel added into st (zeroed by the caller,
// its tile counts filled by the conversion). Nothing when the gate is shut.
void structure(const operands& x, int* row_nnz, stats* st, const density_gate& gate, cudaStream_t stream);

// ---- copy (multiply_*.cu) ----

struct multiply_job {
    operands x;
    const void* a_values = nullptr;  // packed in A's tile order, of `data`
    const void* b_values = nullptr;
    const int* row_off = nullptr;    // C's row offsets, 0-based (rows + 1)
    csr_out c;                       // written: row offsets, columns, values
    scalar_arg alpha, beta;
    value_type data = value_type::f32;
    policy how = policy::dmma;
    int max_panel_tiles = 0;         // the structure pass's: which cursor kinds run
};

// Writes C = alpha*A*B + beta*C: row offsets, sorted columns, values.
void multiply(const multiply_job& job, cudaStream_t stream);
void multiply_f64(const multiply_job& job, cudaStream_t stream);
void multiply_f32(const multiply_job& job, cudaStream_t stream);
void multiply_16bit(const multiply_job& job, cudaStream_t stream);

}  // namespace tcs::spgemm::tiles
