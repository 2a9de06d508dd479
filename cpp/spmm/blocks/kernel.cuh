// The block SpMM kernel: C = alpha * A * op(B) + beta * C over the dense-block format
// (formats/dense_blocks.hpp), one thread block of four warps per window of 32 rows and
// slice of T MMA tiles of columns of C; the precision policy (policies.cuh) says how a
// block meets the tensor cores.
//
// Per block of the window, in order: the 16 rows of op(B) its columns name (a tile of
// 16 x slice, each row a contiguous piece of a row-wise op(B)) and the block's 32 row
// masks go into shared memory by cp.async, kStages deep, so the tiles of the next blocks
// load while this one is multiplied; the four warps share each tile, each multiplying its
// own 8 rows (and skipping the MMAs where its rows have none of the block's columns).
// Each lane reads 4 of the block's values of its row straight from A's value array: the
// k-th set bit of the row is its k-th entry (dense_blocks.hpp), so a running count per row
// finds them, one block ahead of the MMAs that use them. A window's blocks are summed in
// order by the same lanes, so the result depends only on A's structure and the sizes.
// Windows run longest first (the build's schedule), so that a few long windows do not
// start last.
#pragma once

#include "core/kernel_launch.hpp"
#include "core/mma.cuh"
#include "core/types.hpp"
#include "formats/dense_blocks.hpp"
#include "spmm/blocks/policies.cuh"
#include "spmm/blocks/product.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

namespace tcs::spmm::blocks {

inline constexpr int kThreads = 128;  // 4 warps x 8 rows = formats::kWindowRows
inline constexpr int kStages = 4;
static_assert(kThreads / 32 * 8 == formats::kWindowRows, "a warp per 8 rows of a window");

template <class S>
struct kernel_args {
    int rows = 0, slices = 1;
    std::int64_t n = 0;
    const int* schedule = nullptr;
    const int* group_start = nullptr;
    const int* cols = nullptr;
    const std::uint16_t* masks = nullptr;
    const int* order = nullptr;
    const int* starts = nullptr;
    const int* value_index = nullptr;
    const formats::block_summary* summary = nullptr;
    const void* values = nullptr;
    const void* b = nullptr;
    std::int64_t ldb = 0;
    bool b_vector = false;
    void* c = nullptr;
    std::int64_t c_row_stride = 0, c_col_stride = 0;
    value_type c_type = value_type::f32;
    scalar<S> alpha, beta;
};

__device__ __forceinline__ double load_c(const void* c, std::int64_t at, value_type t) {
    switch (t) {
    case value_type::f64: return static_cast<const double*>(c)[at];
    case value_type::f32: return static_cast<const float*>(c)[at];
    case value_type::f16: return __half2float(static_cast<const __half*>(c)[at]);
    default: return __bfloat162float(static_cast<const __nv_bfloat16*>(c)[at]);
    }
}

template <class Acc>
__device__ __forceinline__ void store_c(void* c, std::int64_t at, value_type t, Acc x) {
    switch (t) {
    case value_type::f64: static_cast<double*>(c)[at] = double(x); break;
    case value_type::f32: static_cast<float*>(c)[at] = float(x); break;
    case value_type::f16: static_cast<__half*>(c)[at] = __float2half_rn(float(x)); break;
    default: static_cast<__nv_bfloat16*>(c)[at] = __float2bfloat16_rn(float(x)); break;
    }
}

// One 16-byte piece of a row of op(B) (kVec elements from column j of row `col`) into
// the tile: by cp.async where op(B) allows 16-byte copies (zero-filled past column n or
// for a padding column), else element by element.
template <class E, int kVec>
__device__ __forceinline__ void load_piece(unsigned char* dst, const E* b, std::int64_t ldb,
                                           bool vector, int col, std::int64_t j, std::int64_t n) {
    if (vector) {
        const std::int64_t left = col >= 0 ? (n - j) * std::int64_t(sizeof(E)) : 0;
        const int valid = left <= 0 ? 0 : left >= 16 ? 16 : int(left);
        const E* src = valid > 0 ? b + std::int64_t(col) * ldb + j : b;
        mma::cp_async<16>(dst, src, valid);
    } else {
        E* out = reinterpret_cast<E*>(dst);
#pragma unroll
        for (int e = 0; e < kVec; ++e)
            out[e] = col >= 0 && j + e < n ? b[std::int64_t(col) * ldb + j + e] : E{};
    }
}

template <class P, int T>
struct tile_shape {
    using E = typename P::element;
    static constexpr int slice = T * P::tile_cols;                 // columns of C per block
    static constexpr int vec = 16 / int(sizeof(E));                // elements per piece
    static constexpr int pieces = slice / vec;                     // pieces per tile row
    static constexpr int row = P::row_elements(slice);             // tile row stride
    static constexpr int tile_bytes = formats::kGroupColumns * row * int(sizeof(E));
    static constexpr int stage_bytes = tile_bytes + formats::kWindowRows * 2;  // + masks
    static constexpr int items = formats::kGroupColumns * pieces;  // pieces per tile
    static constexpr int loads = (items + kThreads - 1) / kThreads;  // per thread
    static_assert(pieces >= 1 && slice % vec == 0, "whole pieces per tile row");
    static_assert(row * int(sizeof(E)) % 16 == 0, "16-byte aligned tile rows");
};

template <class P, int T>
__global__ void __launch_bounds__(kThreads) blocks_kernel(const kernel_args<typename P::scalar> a) {
    using E = typename P::element;
    using Acc = typename P::acc;
    using shape = tile_shape<P, T>;
    constexpr unsigned kFull = 0xffffffffu;
    // A format that did not fit its capacity was not built (only corrupt structure gets
    // here with TCS_SPMM_BSR_TC): C stays as it was rather than reading a stale format.
    if (a.summary->overflow) return;
    unsigned char* smem = dynamic_smem<unsigned char>();
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int w = a.schedule[blockIdx.x / a.slices];
    const std::int64_t j0 = std::int64_t(blockIdx.x % a.slices) * shape::slice;
    const int g0 = a.group_start[w], g1 = a.group_start[w + 1];
    const E* b = static_cast<const E*>(a.b);

    // Loading: thread tid moves pieces tid, tid + 128, ... of each tile; the rows of B
    // they need are read one block ahead.
    int next_col[shape::loads];
    auto read_cols = [&](int g) {
#pragma unroll
        for (int l = 0; l < shape::loads; ++l) {
            const int item = tid + l * kThreads;
            next_col[l] = g < g1 && item < shape::items
                              ? a.cols[std::int64_t(g) * formats::kGroupColumns + item / shape::pieces]
                              : -1;
        }
    };
    auto issue = [&](int g, int stage) {
        if (g < g1) {
            unsigned char* st = smem + stage * shape::stage_bytes;
#pragma unroll
            for (int l = 0; l < shape::loads; ++l) {
                const int item = tid + l * kThreads;
                if (item < shape::items) {
                    const int kk = item / shape::pieces, piece = item % shape::pieces;
                    load_piece<E, shape::vec>(st + (kk * shape::row + piece * shape::vec) * int(sizeof(E)),
                                              b, a.ldb, a.b_vector, next_col[l],
                                              j0 + piece * shape::vec, a.n);
                }
            }
            if (tid < formats::kWindowRows * 2 / 16)
                mma::cp_async<16>(st + shape::tile_bytes + tid * 16,
                                  a.masks + std::int64_t(g) * formats::kWindowRows + tid * 8);
        }
        mma::cp_async_commit();
    };

    // The lane's row of the window, for A's values: the row's start and how many of its
    // entries the blocks so far have taken.
    const int my_row = warp * 8 + (lane >> 2);
    const int p_row = w * formats::kWindowRows + my_row;
    const int start = p_row < a.rows ? a.starts[p_row] : 0;
    const bool indexed = a.summary->indexed != 0;
    const E* values = static_cast<const E*>(a.values);
    int taken = 0;
    auto fetch = [&](int stage, E (&v)[4]) {
        const std::uint16_t* ms =
            reinterpret_cast<const std::uint16_t*>(smem + stage * shape::stage_bytes + shape::tile_bytes);
        const unsigned mask = ms[my_row];
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int s = P::slot(lane, i);
            v[i] = E{};
            if ((mask >> s) & 1u) {
                const int at = start + taken + __popc(mask & ((1u << s) - 1u));
                v[i] = values[indexed ? a.value_index[at] : at];
            }
        }
        taken += __popc(mask);
        return __any_sync(kFull, mask != 0u);
    };

    Acc acc[T][P::acc_regs];
#pragma unroll
    for (int t = 0; t < T; ++t)
#pragma unroll
        for (int i = 0; i < P::acc_regs; ++i) acc[t][i] = Acc(0);

    read_cols(g0);
#pragma unroll
    for (int s = 0; s < kStages - 1; ++s) {
        issue(g0 + s, s);
        read_cols(g0 + s + 1);
    }
    E next_v[4];
    bool next_any = false;
    mma::cp_async_wait<kStages - 2>();
    __syncthreads();
    if (g0 < g1) next_any = fetch(0, next_v);
    for (int g = g0; g < g1; ++g) {
        const int i = g - g0;
        // Tiles of blocks i and i + 1 are in; every warp is done with block i - 1's stage.
        mma::cp_async_wait<kStages - 3>();
        __syncthreads();
        issue(g + kStages - 1, (i + kStages - 1) % kStages);
        read_cols(g + kStages);
        E v[4];
#pragma unroll
        for (int q = 0; q < 4; ++q) v[q] = next_v[q];
        const bool any = next_any;
        if (g + 1 < g1) next_any = fetch((i + 1) % kStages, next_v);
        if (any)
            P::template multiply<T>(acc, v,
                                    reinterpret_cast<const E*>(smem + (i % kStages) * shape::stage_bytes),
                                    shape::row, lane);
    }

    const Acc alpha = Acc(a.alpha.get()), beta = Acc(a.beta.get());
#pragma unroll
    for (int t = 0; t < T; ++t)
#pragma unroll
        for (int i = 0; i < P::acc_regs; ++i) {
            const int p = w * formats::kWindowRows + warp * 8 + P::acc_row(lane, i);
            const std::int64_t j = j0 + t * P::tile_cols + P::acc_col(lane, i);
            if (p < a.rows && j < a.n) {
                const std::int64_t at = std::int64_t(a.order[p]) * a.c_row_stride + j * a.c_col_stride;
                Acc x = alpha * acc[t][i];
                if (beta != Acc(0)) x += beta * Acc(load_c(a.c, at, a.c_type));
                store_c(a.c, at, a.c_type, x);
            }
        }
}

template <class S>
kernel_args<S> args_of(const product& x) {
    kernel_args<S> a;
    a.rows = x.rows;
    a.slices = x.slices;
    a.n = x.n;
    a.schedule = x.blocks.schedule;
    a.group_start = x.blocks.group_start;
    a.cols = x.blocks.cols;
    a.masks = x.blocks.masks;
    a.order = x.blocks.order;
    a.starts = x.blocks.starts;
    a.value_index = x.blocks.value_index;
    a.summary = x.blocks.summary;
    a.values = x.values;
    a.b = x.b;
    a.ldb = x.ldb;
    a.b_vector = x.b_vector;
    a.c = x.c;
    a.c_row_stride = x.c_row_stride;
    a.c_col_stride = x.c_col_stride;
    a.c_type = x.c_type;
    a.alpha = x.alpha.as<S>();
    a.beta = x.beta.as<S>();
    return a;
}

template <class P, int T>
void launch_tiles(const product& x) {
    using shape = tile_shape<P, T>;
    launch("blocks_kernel", blocks_kernel<P, T>, x.windows * x.slices, kThreads,
           std::size_t(kStages) * shape::stage_bytes, x.stream, args_of<typename P::scalar>(x));
}

// The kernel for the product's tiles per block (1, 2, 4 or 8 MMA tiles of columns).
template <class P>
void launch_policy(const product& x) {
    switch (x.tiles) {
    case 1: return launch_tiles<P, 1>(x);
    case 2: return launch_tiles<P, 2>(x);
    case 4: return launch_tiles<P, 4>(x);
    default: return launch_tiles<P, 8>(x);
    }
}

}  // namespace tcs::spmm::blocks
