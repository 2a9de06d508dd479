// The warp's merge over one panel of C (launch.hpp): cursors along the tile rows of B
// that the panel's A tiles reach, advanced in increasing tile column J. The structure
// pass and the multiplication share it, so both see the same J, the same pairs in the
// same order, and the same tiles of C.
#pragma once

#include "formats/bitmap_tiles.hpp"
#include "spgemm/tiles/launch.hpp"

#include <cstdint>
#include <type_traits>

namespace tcs::spgemm::tiles {

using formats::kNoTile;
using formats::kTileDim;

constexpr unsigned kFull = 0xffffffffu;

__device__ __forceinline__ int lane() { return int(threadIdx.x) & 31; }

// OR over the warp.
__device__ __forceinline__ std::uint64_t warp_or(std::uint64_t v) {
    const unsigned lo = __reduce_or_sync(kFull, unsigned(v));
    const unsigned hi = __reduce_or_sync(kFull, unsigned(v >> 32));
    return std::uint64_t(lo) | (std::uint64_t(hi) << 32);
}

__device__ __forceinline__ bitmap_tile no_tile() { return bitmap_tile{0, kNoTile, 0}; }

// The first of B's tiles [lo, hi) whose column is >= col.
__device__ __forceinline__ int lower_bound(const bitmap_tile* tiles, int lo, int hi, int col) {
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (tiles[mid].col < col)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

// One A tile of the panel and the lane's cursor along B's tile row a.col. The tile after
// the cursor's is loaded one step ahead, so that a step of the merge does not wait for
// the load its advance starts.
struct cursor {
    bitmap_tile a;       // no_tile() when the lane owns no tile here
    bitmap_tile b;       // B's tile at the cursor; col kNoTile once past the row
    bitmap_tile b_next;  // the one after it
    int pos, end;

    __device__ void open(const operands& x, int t, int a_end, int from_col) {
        if (t < a_end) {
            a = x.a.tiles[t];
            const formats::tile_range row = x.b.range[a.col];
            pos = row.begin;
            end = row.end;
            if (from_col > 0) pos = lower_bound(x.b.tiles, pos, end, from_col);
        } else {
            a = no_tile();
            pos = end = 0;
        }
        b = pos < end ? x.b.tiles[pos] : no_tile();
        b_next = pos + 1 < end ? x.b.tiles[pos + 1] : no_tile();
    }
    __device__ void advance(const operands& x) {
        ++pos;
        b = b_next;
        b_next = pos + 1 < end ? x.b.tiles[pos + 1] : no_tile();
    }
    // B's tiles this cursor has left (its share of the panel's pairs).
    __device__ int remaining() const { return end - pos; }
};

// Cursors held in registers: N per lane, for panels of at most 32 * N A tiles.
template <int N>
struct register_cursors {
    cursor k[N];

    __device__ void open(const operands& x, int a_begin, int a_end, int from_col) {
#pragma unroll
        for (int c = 0; c < N; ++c) k[c].open(x, a_begin + lane() + 32 * c, a_end, from_col);
    }
    __device__ int lane_min() const {
        int m = kNoTile;
#pragma unroll
        for (int c = 0; c < N; ++c) m = k[c].b.col < m ? k[c].b.col : m;
        return m;
    }
    __device__ int remaining() const {
        int r = 0;
#pragma unroll
        for (int c = 0; c < N; ++c) r += k[c].remaining();
        return r;
    }
    // f(cursor&) for each chunk of 32 A tiles, in increasing tile; every lane calls f.
    template <class F>
    __device__ void for_each(F f) {
#pragma unroll
        for (int c = 0; c < N; ++c) f(k[c]);
    }
    __device__ void passed(int) {}  // the cursors at the column have moved on already
};

// Cursors of a panel of any size, kept nowhere: at every step each lane finds, for each
// of its A tiles, the first tile of B's row after the last column merged (a binary
// search). Slow, and only for panels that touch more than kRegisterTiles tile columns
// of A (hub rows of graphs, never blocky matrices), which it serves without memory.
struct searched_cursors {
    const operands* x;
    int a_begin, a_end, chunks;
    int after = -1;  // the last tile column merged

    __device__ cursor load(int t) const {
        cursor k;
        k.open(*x, t, a_end, after + 1);
        return k;
    }
    __device__ void open(const operands& ops, int begin, int end, int from_col) {
        x = &ops;
        a_begin = begin;
        a_end = end;
        chunks = (end - begin + 31) / 32;
        after = from_col - 1;
    }
    __device__ int lane_min() const {
        int m = kNoTile;
        for (int c = 0; c < chunks; ++c) {
            const int col = load(a_begin + lane() + 32 * c).b.col;
            m = col < m ? col : m;
        }
        return m;
    }
    __device__ int remaining() const {
        int r = 0;
        for (int c = 0; c < chunks; ++c) r += load(a_begin + lane() + 32 * c).remaining();
        return r;
    }
    template <class F>
    __device__ void for_each(F f) {
        for (int c = 0; c < chunks; ++c) {
            cursor k = load(a_begin + lane() + 32 * c);
            f(k);
        }
    }
    __device__ void passed(int col) { after = col; }
};

// How a panel's warp keeps its cursors, by the panel's A tiles: 1 or 2 per lane in
// registers, or 0: searched at every step. Each kind has its own kernel (so the common one is not
// sized by the registers of the rarer ones); a warp whose panel is of another kind
// returns at once.
__host__ __device__ constexpr int cursor_kind(int a_tiles) {
    return a_tiles <= 32 ? 1 : a_tiles <= kRegisterTiles ? 2 : 0;
}
// The kinds a matrix with `tile_cols` tile columns can need (its panels can hold no more
// A tiles): f(kind) for each.
template <class F>
void for_each_cursor_kind(std::int64_t tile_cols, F f) {
    f(std::integral_constant<int, 1>());
    if (tile_cols > 32) f(std::integral_constant<int, 2>());
    if (tile_cols > kRegisterTiles) f(std::integral_constant<int, 0>());
}

// The cursors of kind Kind over A tiles [a_begin, a_end), opened at tile column
// from_col, handed to f.
template <int Kind, class F>
__device__ __forceinline__ void with_cursors(const operands& x, int a_begin, int a_end, int from_col, F f) {
    if constexpr (Kind == 0) {
        searched_cursors cs;
        cs.open(x, a_begin, a_end, from_col);
        f(cs);
    } else {
        register_cursors<Kind> cs;
        cs.open(x, a_begin, a_end, from_col);
        f(cs);
    }
}

// The merge: for every tile column J in [.., col_end) that some cursor reaches, in
// increasing order: visit.begin(J), then visit.pair(hit, cursor) for each chunk of
// cursors (hit: this lane's cursor is at J; the cursor then moves on), then
// visit.end(J). All warp-uniform.
template <class Cursors, class Visit>
__device__ void merge(const operands& x, Cursors& cs, int col_end, Visit& visit) {
    for (;;) {
        const int col = __reduce_min_sync(kFull, cs.lane_min());
        if (col >= col_end) break;
        visit.begin(col);
        cs.for_each([&](cursor& k) {
            const bool hit = k.b.col == col;
            visit.pair(hit, k);
            if (hit) k.advance(x);
        });
        visit.end(col);
        cs.passed(col);
    }
}

// The C layout every policy delivers: lane holds C(row_of(lane), col_of(lane, i)) for
// i = 0, 1 (the accumulator layout of mma m8n8k4 and of rows 0..7 of m16n8k*).
__device__ __forceinline__ int c_row_of(int l) { return l >> 2; }
__device__ __forceinline__ int c_col_of(int l, int i) { return 2 * (l & 3) + i; }

// The segment [first, last) of C's tile columns that warp (panel, s) handles, and the
// entries its rows hold before it (rows[r]).
struct segment {
    int first = 0, last = kNoTile;
    int rows_before = 0;  // of this lane's row c_row_of(lane)

    __device__ void locate(const operands& x, int panel, int s) {
        const int k = x.segments - 1;
        if (s > 0) {
            const checkpoint& c = x.checkpoints[std::int64_t(panel) * k + s - 1];
            first = c.col;
            rows_before = c.rows[c_row_of(lane())];
        }
        if (s < k) last = x.checkpoints[std::int64_t(panel) * k + s].col;
    }
};

}  // namespace tcs::spgemm::tiles
