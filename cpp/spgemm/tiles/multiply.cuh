// The multiplication of the tile SpGEMM (copy): one warp per segment of a panel of C
// merges the segment's pairs (panel_merge.cuh), multiplies each tile of C's pairs with
// a policy (policies.cuh) and writes the tile's entries straight into C's CSR arrays:
// the entry (r, c) of tile column J goes to
//   C's row offset of r + the row's entries in earlier tiles of the panel
//                       + the row's entries of this tile left of c,
// so C's columns come out sorted, with no second copy of C anywhere. Instantiated per
// value type in multiply_f64.cu, multiply_f32.cu and multiply_16bit.cu.
#pragma once

#include "core/grid.hpp"
#include "core/index_array.cuh"
#include "core/kernel_launch.hpp"
#include "spgemm/tiles/policies.cuh"
#include "spgemm/tiles/launch.hpp"
#include "spgemm/tiles/panel_merge.cuh"

#include <cstdint>

namespace tcs::spgemm::tiles {

constexpr int kMultiplyWarps = kMultiplyThreads / 32;

// C's arrays as the kernel writes them (32- or 64-bit index arrays).
template <class T>
struct c_arrays {
    index_out rp;
    index_out ci;
    T* val;
    int base;
};

template <class T, class S, class Policy>
struct multiplying {
    using Acc = typename Policy::accumulator;
    Policy e;
    c_arrays<T> c;
    Acc alpha, beta;
    int row_pos;  // where the next entry of this lane's row of C goes
    std::uint64_t c_bits = 0;

    __device__ void begin(int) {
        c_bits = 0;
        e.clear();
    }
    __device__ void pair(bool hit, const cursor& k) {
        const std::uint64_t product = hit ? formats::pattern_product(k.a.bits, k.b.bits) : 0;
        c_bits |= product;
        // The pairs whose patterns meet, in increasing A tile, from the lanes that hold
        // them; two at a time, so that the gathers of both are in flight together.
        unsigned live = __ballot_sync(kFull, product != 0);
        while (live != 0) {
            const int src = __ffs(int(live)) - 1;
            live &= live - 1;
            const bitmap_tile a = from_lane(k.a, src), b = from_lane(k.b, src);
            if (live == 0) {
                e.pair(a, b);
                break;
            }
            const int src2 = __ffs(int(live)) - 1;
            live &= live - 1;
            e.pair2(a, b, from_lane(k.a, src2), from_lane(k.b, src2));
        }
    }
    static __device__ bitmap_tile from_lane(const bitmap_tile& t, int src) {
        bitmap_tile r;
        r.bits = __shfl_sync(kFull, t.bits, src);
        r.offset = __shfl_sync(kFull, t.offset, src);
        return r;
    }
    __device__ void end(int col) {
        const std::uint64_t bits = warp_or(c_bits);
        e.flush();
        const int l = lane();
        const unsigned row = formats::row_byte(bits, c_row_of(l));
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            const int cc = c_col_of(l, i);
            if ((row >> cc) & 1u) {
                const int pos = row_pos + __popc(row & ((1u << cc) - 1));
                Acc v = alpha * Acc(e.value(i));
                if (beta != Acc(0)) v += beta * to_acc<Acc>(c.val[pos]);
                store(c.val[pos], v);
                c.ci.set(pos, col * kTileDim + cc + c.base);
            }
        }
        row_pos += __popc(row);
    }
};

template <class T, class S, class Policy, int Kind>
__global__ void __launch_bounds__(kMultiplyThreads)
    multiply_kernel(operands x, const T* av, const T* bv, const int* row_off, c_arrays<T> c,
                    scalar<S> alpha, scalar<S> beta) {
    const long long w = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    const int panel = int(w / x.segments), s = int(w % x.segments);
    if (panel >= x.a.panels) return;
    const int l = lane();
    const std::int64_t row = std::int64_t(panel) * kTileDim + c_row_of(l);
    const formats::tile_range a_range = x.a.range[panel];
    const int a_begin = a_range.begin, a_end = a_range.end;
    const int kind = cursor_kind(a_end - a_begin);
    if (s == 0 && Kind == 1) {  // C's row offsets, once per panel (by the first kernel)
        const std::int64_t r = std::int64_t(panel) * kTileDim + l;
        if (l < kTileDim && r < x.a.rows) c.rp.set(r, row_off[r] + c.base);
        if (l == kTileDim && panel == x.a.panels - 1) c.rp.set(x.a.rows, row_off[x.a.rows] + c.base);
    }
    if (kind != Kind) return;  // another kernel's panel
    segment seg;
    seg.locate(x, panel, s);
    if (seg.first >= seg.last) return;

    using Acc = typename Policy::accumulator;
    multiplying<T, S, Policy> v{Policy(av, bv), c, Acc(alpha.get()), Acc(beta.get()),
                                row < x.a.rows ? row_off[row] + seg.rows_before : 0};
    with_cursors<Kind>(x, a_begin, a_end, seg.first, [&](auto& cs) { merge(x, cs, seg.last, v); });
}

// Runs the kernel with the precision policy Policy on data T and scalars S.
template <class T, class S, class Policy>
void launch_multiply(const multiply_job& job, cudaStream_t stream) {
    const operands& x = job.x;
    const long long warps = static_cast<long long>(x.a.panels) * x.segments;
    if (warps == 0) return;
    const c_arrays<T> c{index_out(job.c.row_ptr, job.c.offsets), index_out(job.c.col_idx, job.c.columns),
                        static_cast<T*>(job.c.values), job.c.base};
    for_each_cursor_kind(formats::tile_cols_of(x.a.cols), [&](auto kind) {
        // Kind 1 always (it also writes C's row offsets); the others where a panel needs them.
        constexpr int k = decltype(kind)::value;
        if (k != 1 && job.max_panel_tiles <= (k == 2 ? 32 : kRegisterTiles)) return;
        launch("tile SpGEMM: multiply", multiply_kernel<T, S, Policy, decltype(kind)::value>,
               grid_for(warps, kMultiplyWarps, kBlockPerItem), kMultiplyThreads, 0, stream, x,
               static_cast<const T*>(job.a_values), static_cast<const T*>(job.b_values), job.row_off,
               c, job.alpha.as<S>(), job.beta.as<S>());
    });
}

}  // namespace tcs::spgemm::tiles
