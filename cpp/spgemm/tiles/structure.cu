// The structure pass of the tile SpGEMM (workEstimation): one warp per panel of C merges
// the panel's pairs (panel_merge.cuh) and counts, from the tiles' bitmaps alone, the
// entries of each row of C, its tiles, pairs and scalar products. It also records where
// the panel's later segments start, so that the multiplication can give one panel to
// several warps: segment s begins at the first tile column reached after s/S of the
// panel's pairs (S segments).
#include "core/error.hpp"
#include "core/grid.hpp"
#include "core/kernel_launch.hpp"
#include "spgemm/tiles/launch.hpp"
#include "spgemm/tiles/panel_merge.cuh"

#include <algorithm>

namespace tcs::spgemm::tiles {
namespace {

constexpr int kWarps = kStructureThreads / 32;

struct counting {
    const operands& x;
    int panel;
    long long total;         // the panel's pairs, culled ones included
    int next_segment = 1;    // the next checkpoint to write
    long long seen = 0;      // pairs merged so far (warp-uniform)
    int row_entries = 0;     // entries of this lane's row so far
    std::uint64_t c_bits = 0;
    unsigned long long products = 0;
    unsigned long long c_tiles = 0, live = 0;  // tiles of C; pairs whose patterns meet

    __device__ void write_checkpoint(int col) {
        checkpoint& c =
            x.checkpoints[std::int64_t(panel) * (x.segments - 1) + next_segment - 1];
        if (lane() == 0) c.col = col;
        if ((lane() & 3) == 0) c.rows[c_row_of(lane())] = row_entries;
        ++next_segment;
    }
    __device__ void begin(int col) {
        while (next_segment < x.segments &&
               seen * x.segments >= static_cast<long long>(next_segment) * total)
            write_checkpoint(col);
        c_bits = 0;
    }
    __device__ void pair(bool hit, const cursor& k) {
        std::uint64_t product = 0;
        if (hit) {
            product = formats::pattern_product(k.a.bits, k.b.bits);
            products += unsigned(formats::scalar_products(k.a.bits, k.b.bits));
        }
        c_bits |= product;
        seen += __popc(__ballot_sync(kFull, hit));
        live += __popc(__ballot_sync(kFull, product != 0));
    }
    __device__ void end(int) {
        const std::uint64_t bits = warp_or(c_bits);
        if (bits != 0) {
            ++c_tiles;
            row_entries += __popc(formats::row_byte(bits, c_row_of(lane())));
        }
    }
    // Segments no pair reached start after the panel's last tile column.
    __device__ void finish() {
        while (next_segment < x.segments) write_checkpoint(kNoTile);
    }
};

template <class Cursors>
__device__ void count_panel(const operands& x, int panel, int a_begin, int a_end, Cursors& cs,
                            int* row_nnz, stats* st) {
    counting v{x, panel, 0};
    v.total = __reduce_add_sync(kFull, cs.remaining());
    merge(x, cs, kNoTile, v);
    v.finish();
    const std::int64_t row = std::int64_t(panel) * kTileDim + c_row_of(lane());
    if ((lane() & 3) == 0 && row < x.a.rows) row_nnz[row] = v.row_entries;
    // The warp's totals: row entries counted once per row (lane & 3 == 0).
    unsigned long long nnz = (lane() & 3) == 0 ? (unsigned long long)v.row_entries : 0ull;
    unsigned long long products = v.products;
    for (int s = 16; s > 0; s /= 2) {
        nnz += __shfl_xor_sync(kFull, nnz, s);
        products += __shfl_xor_sync(kFull, products, s);
    }
    if (lane() == 0) {
        atomicAdd(&st->nnz, nnz);
        atomicAdd(&st->products, products);
        atomicAdd(&st->pairs, v.live);
        atomicAdd(&st->c_tiles, v.c_tiles);
        atomicMax(&st->max_panel_tiles, a_end - a_begin);
    }
}

template <int Kind>
__global__ void __launch_bounds__(kStructureThreads)
    structure_kernel(operands x, int* row_nnz, stats* st, density_gate gate) {
    const int panel = int(blockIdx.x) * kWarps + int(threadIdx.x) / 32;
    if (panel >= x.a.panels) return;
    // Decreasing offsets (the plan refuses the matrix), or the default takes another algorithm.
    if ((st->a.decreasing_panels | st->b.decreasing_panels) != 0) return;
    if (gate.min_density != 0 && !gate.open(st->a.tiles, st->b.tiles)) return;
    const formats::tile_range a_range = x.a.range[panel];
    const int a_begin = a_range.begin, a_end = a_range.end;
    if (cursor_kind(a_end - a_begin) != Kind) return;  // another kernel's panel
    with_cursors<Kind>(x, a_begin, a_end, 0,
                       [&](auto& cs) { count_panel(x, panel, a_begin, a_end, cs, row_nnz, st); });
}

}  // namespace

void structure(const operands& x, int* row_nnz, stats* st, const density_gate& gate, cudaStream_t stream) {
    if (x.a.panels == 0) return;
    for_each_cursor_kind(formats::tile_cols_of(x.a.cols), [&](auto kind) {
        launch("tile SpGEMM: structure", structure_kernel<decltype(kind)::value>,
               grid_for(x.a.panels, kWarps, kBlockPerItem), kStructureThreads, 0, stream, x, row_nnz, st, gate);
    });
}

}  // namespace tcs::spgemm::tiles
