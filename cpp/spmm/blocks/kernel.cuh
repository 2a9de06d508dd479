// The block SpMM kernel: C = alpha * A * op(B) + beta * C over the dense-block format
// (formats/dense_blocks.hpp); the precision policy (policies.cuh) says how a block meets
// the tensor cores.
//
// A warp multiplies whole blocks (32 rows x 16 columns): each operand fragment of op(B)
// it loads serves the block's four row groups, so the work per block that is not MMA
// (staging the tile, the row masks, gathering A's values) is paid once for 32 rows.
// A warp runs a range of one window's blocks through its own cp.async pipeline (tiles
// of op(B) and masks three or four blocks deep; no block-wide barrier inside the range).
// Each lane gathers 4 values of each of its 4 rows per block straight from A's value
// array (the k-th set bit of a row's masks is its k-th entry, dense_blocks.hpp), a block
// ahead of their MMAs or just before them (P::prefetch).
//
// The tasks of a launch, in schedule order (windows with more blocks first): the first
// summary->split_windows windows, those with at least dense_blocks::split_groups blocks,
// are each cut into W contiguous ranges, one per warp of a thread block, whose sums are
// added in warp order through shared memory (a window of many blocks then waits for a
// W-th of them, not all); the other windows go W to a thread block, one per warp. W is 4,
// or 16 for a matrix of few windows (product::wide). Which windows are cut, and how,
// depends only on A's structure and the window count (and whether the device's shared
// memory holds the 16-warp blocks), so C is bitwise the same with and without
// preprocess, and run to run. A task is done once per slice of columns of C (T MMA tiles
// wide); the grid is as many thread blocks as the device holds at once, looping over
// the tasks and slices.
#pragma once

#include "core/grid.hpp"
#include "core/kernel_launch.hpp"
#include "core/mma.cuh"
#include "core/types.hpp"
#include "formats/dense_blocks.hpp"
#include "spmm/blocks/policies.cuh"
#include "spmm/blocks/product.hpp"
#include "spmm/blocks/rules.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace tcs::spmm::blocks {

// Warps per thread block (W): kWarps, or kWideWarps for matrices of few windows
// (product::wide), rules.hpp.
inline constexpr int kRowGroups = formats::kWindowRows / 8;  // the 8-row side of every MMA
static_assert(kRowGroups == 4, "a block's 32 rows are four row groups of a warp's MMAs");

template <class S>
struct kernel_args {
    int rows = 0, windows = 0, slices = 1;
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
    scalar<S> alpha, beta;
};

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

template <class P, int T, int W = kWarps>
struct tile_shape {
    using E = typename P::element;
    using Acc = typename P::acc;
    static constexpr int slice = T * P::tile_cols;                 // columns of C per task
    static constexpr int vec = 16 / int(sizeof(E));                // elements per piece
    static constexpr int pieces = slice / vec;                     // pieces per tile row
    static constexpr int row = P::row_elements(slice);             // tile row stride
    static constexpr int tile_bytes = formats::kGroupColumns * row * int(sizeof(E));
    static constexpr int stage_bytes = tile_bytes + formats::kWindowRows * 2;  // + masks
    // Three stages where a stage is large (fp64 at 32 columns): more warps per SM instead.
    static constexpr int stages = stage_bytes > 4096 ? 3 : 4;
    static constexpr int items = formats::kGroupColumns * pieces;  // pieces per tile
    static constexpr int loads = items / 32;                       // per lane
    static constexpr int rows_per_load = 32 / pieces;              // tile rows per 32 pieces
    static constexpr int warp_bytes = stages * stage_bytes;        // a warp's pipeline
    // A cut window's sums: every warp leaves its accumulators here, and the block adds
    // them in warp order.
    static constexpr int partial_values = kRowGroups * T * P::acc_regs * 32;
    static constexpr int partial_bytes = W * partial_values * int(sizeof(Acc));
    static constexpr int shared_bytes = W * warp_bytes > partial_bytes ? W * warp_bytes : partial_bytes;
    static constexpr int counts_at = (shared_bytes + 15) / 16 * 16;  // entries per row and warp
    static constexpr int smem_bytes = counts_at + W * 32 * int(sizeof(int));
    static_assert(pieces >= 1 && slice % vec == 0, "whole pieces per tile row");
    static_assert(32 % pieces == 0, "a lane moves the same piece of every tile row (run_range)");
    static_assert(row * int(sizeof(E)) % 16 == 0, "16-byte aligned tile rows");
    static_assert(stage_bytes % 16 == 0, "16-byte aligned stages");
};

// A warp's pass over blocks [ga, gb) of the window at positions p0 .. p0 + 31: the
// products of those blocks added into acc. `before[r]`: entries of the lane's row of row
// group r in the window's blocks before ga.
template <class P, int T>
__device__ __forceinline__ void run_range(const kernel_args<typename P::scalar>& a, int ga, int gb, int p0,
                                          const int (&before)[kRowGroups], std::int64_t j0,
                                          unsigned char* stages, int lane,
                                          typename P::acc (&acc)[kRowGroups][T][P::acc_regs]) {
    using E = typename P::element;
    using shape = tile_shape<P, T>;
    constexpr unsigned kFull = 0xffffffffu;
    constexpr int S = shape::stages;
    const E* b = static_cast<const E*>(a.b);

    // The columns of block g: lane l holds slot l & 15 (both half-warps alike); the lane
    // moving a piece of tile row kk takes its column from lane kk of the half-warp that
    // holds the block (the prologue reads two blocks per load).
    auto read_cols = [&](int g) {
        return g < gb ? a.cols[std::int64_t(g) * formats::kGroupColumns + (lane & 15)] : -1;
    };
    // A tile row is `pieces` pieces and a power of two that divides 32, so the lane's
    // piece of every row it moves is the same (lane % pieces): its column of op(B), its
    // bytes inside op(B) (zero past column n) and its place in a tile row are fixed for
    // the range, and moving a piece costs a shuffle, an address and the copy.
    const int piece = lane % shape::pieces;
    const std::int64_t piece_left = (a.n - (j0 + piece * shape::vec)) * std::int64_t(sizeof(E));
    const int piece_bytes = piece_left <= 0 ? 0 : piece_left >= 16 ? 16 : int(piece_left);
    const E* piece_b = b + (j0 + piece * shape::vec);
    const int piece_at = ((lane / shape::pieces) * shape::row + piece * shape::vec) * int(sizeof(E));
    auto issue = [&](int g, int stage, int cols, int half) {
        if (g < gb) {
            unsigned char* st = stages + stage * shape::stage_bytes + piece_at;
#pragma unroll
            for (int l = 0; l < shape::loads; ++l) {
                const int kk = lane / shape::pieces + l * shape::rows_per_load;
                const int col = __shfl_sync(kFull, cols, 16 * half + (kk & 15));
                unsigned char* dst = st + l * shape::rows_per_load * shape::row * int(sizeof(E));
                if (a.b_vector) {
                    const bool copies = col >= 0 && piece_bytes > 0;
                    const E* src = copies ? piece_b + std::int64_t(col) * a.ldb : b;
                    mma::cp_async<16>(dst, src, copies ? piece_bytes : 0);
                } else {
                    load_piece<E, shape::vec>(dst, b, a.ldb, false, col, j0 + piece * shape::vec, a.n);
                }
            }
            if (lane < formats::kWindowRows * 2 / 16)
                mma::cp_async<16>(st - piece_at + shape::tile_bytes + lane * 16,
                                  a.masks + std::int64_t(g) * formats::kWindowRows + lane * 8);
        }
        mma::cp_async_commit();
    };

    // The lane's rows (row group r: row 8r + lane / 4 of the window): where their next
    // entries are.
    const bool indexed = a.summary->indexed != 0;
    const E* values = static_cast<const E*>(a.values);
    int next[kRowGroups];
#pragma unroll
    for (int r = 0; r < kRowGroups; ++r) {
        const int p = p0 + 8 * r + (lane >> 2);
        next[r] = p < a.rows ? a.starts[p] + before[r] : 0;
    }
    // A's values of the lane's slots of block `stage`, as MMA operands; the row groups
    // holding any. below[i]: the slots before the lane's i-th (their entries come first).
    // Positions are computed for every slot and the loads predicated, so the gather has no
    // branch; the indexed variant (unsorted rows, BSR) is a second copy of it, chosen once.
    unsigned below[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) below[i] = (1u << P::slot(lane, i)) - 1u;
    using frag = typename P::frag;
    auto gather = [&](const std::uint16_t* ms, frag (&f)[kRowGroups], auto position) {
#pragma unroll
        for (int r = 0; r < kRowGroups; ++r) {
            const unsigned mask = ms[8 * r + (lane >> 2)];
            E v[4];
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                const bool has = (mask & (below[i] + 1u)) != 0u;
                const int at = next[r] + __popc(mask & below[i]);
                v[i] = E{};
                if (has) v[i] = values[position(at)];
            }
            f[r] = P::pack(v);
            next[r] += __popc(mask);
        }
    };
    auto fetch = [&](int stage, frag (&f)[kRowGroups]) {
        const std::uint16_t* ms =
            reinterpret_cast<const std::uint16_t*>(stages + stage * shape::stage_bytes + shape::tile_bytes);
        const unsigned rows_live = __ballot_sync(kFull, ms[lane] != 0);
        unsigned live = 0;
#pragma unroll
        for (int r = 0; r < kRowGroups; ++r)
            if ((rows_live >> (8 * r)) & 0xffu) live |= 1u << r;
        if (indexed)
            gather(ms, f, [&](int at) { return a.value_index[at]; });
        else
            gather(ms, f, [](int at) { return at; });
        return live;
    };

    // Prologue: blocks ga .. ga + S - 2 in flight, the first one's values read. The
    // columns of blocks ga .. ga + 3 come in two loads, lane l holding block ga + l / 16
    // (and ga + 2 + l / 16), slot l & 15: the blocks' columns are contiguous.
    static_assert(S <= 4, "the prologue reads the columns of four blocks");
    auto read_pair = [&](int g) {
        const int mine = g + (lane >> 4);
        return mine < gb ? a.cols[std::int64_t(g) * formats::kGroupColumns + lane] : -1;
    };
    const int cols01 = read_pair(ga), cols23 = read_pair(ga + 2);
#pragma unroll
    for (int s = 0; s < S - 1; ++s) issue(ga + s, s, s < 2 ? cols01 : cols23, s & 1);
    int cols = cols23, half = (S - 1) & 1;  // block ga + S - 1's columns
    // With P::prefetch the values of block g + 1 are gathered while block g multiplies
    // (their latency hidden by a block's work, at the registers of a second set);
    // without, right before their own MMAs.
    frag next_f[kRowGroups];
    unsigned next_live = 0;
    mma::cp_async_wait<S - 2>();
    __syncwarp();
    if (P::prefetch && ga < gb) next_live = fetch(0, next_f);
    for (int g = ga; g < gb; ++g) {
        const int i = g - ga;
        // Every lane is done with block g - 1's stage: block g + S - 1 goes there.
        __syncwarp();
        const int following = read_cols(g + S);
        issue(g + S - 1, (i + S - 1) % S, cols, half);
        cols = following;
        half = 0;
        // Blocks g and g + 1 are in, every lane's copies.
        mma::cp_async_wait<S - 2>();
        __syncwarp();
        frag f[kRowGroups];
        unsigned live;
        if constexpr (P::prefetch) {
#pragma unroll
            for (int r = 0; r < kRowGroups; ++r) f[r] = next_f[r];
            live = next_live;
            if (g + 1 < gb) next_live = fetch((i + 1) % S, next_f);
        } else {
            live = fetch(i % S, f);
        }
        if (live != 0u)
            P::template multiply<T, kRowGroups>(
                acc, f, live, reinterpret_cast<const E*>(stages + (i % S) * shape::stage_bytes), shape::row, lane);
    }
    mma::cp_async_wait<0>();
}

// C's element as a double (exact for every type), and an accumulator rounded to C's type.
__device__ __forceinline__ double c_value(double x) { return x; }
__device__ __forceinline__ double c_value(float x) { return x; }
__device__ __forceinline__ double c_value(__half x) { return __half2float(x); }
__device__ __forceinline__ double c_value(__nv_bfloat16 x) { return __bfloat162float(x); }
template <class C, class Acc>
__device__ __forceinline__ C c_of(Acc x) {
    if constexpr (std::is_same_v<C, double>) return double(x);
    else if constexpr (std::is_same_v<C, float>) return float(x);
    else if constexpr (std::is_same_v<C, __half>) return __float2half_rn(float(x));
    else return __float2bfloat16_rn(float(x));
}

// C[at] = alpha * x + beta * C[at] (beta == 0 never reads C), C's element type C a
// parameter of the kernel: a switch per element on the type cost more instructions than
// the block's MMAs, and a switch per window with a copy of the write-back per type more
// registers (past 128 at T = 4).
template <class C, class Acc>
__device__ __forceinline__ void combine(C* at, Acc x, Acc alpha, Acc beta) {
    x *= alpha;
    if (beta != Acc(0)) x += beta * Acc(c_value(*at));
    *at = c_of<C>(x);
}

// The lane's accumulators into rows p0 .. p0 + 31 of the window (C's rows order[p]),
// each row of C looked up once; alpha and beta are read once per window (a scalar on the
// device is not re-read between the stores to C).
template <class P, int T, class C>
__device__ __forceinline__ void write_c(const kernel_args<typename P::scalar>& a, int p0, std::int64_t j0,
                                        int lane, const typename P::acc (&acc)[kRowGroups][T][P::acc_regs]) {
    using Acc = typename P::acc;
    const Acc alpha = Acc(a.alpha.get()), beta = Acc(a.beta.get());
#pragma unroll
    for (int r = 0; r < kRowGroups; ++r)
#pragma unroll
        for (int i = 0; i < P::acc_regs; ++i) {
            const int p = p0 + 8 * r + P::acc_row(lane, i);
            if (p >= a.rows) continue;
            C* row = static_cast<C*>(a.c) + std::int64_t(a.order[p]) * a.c_row_stride;
#pragma unroll
            for (int t = 0; t < T; ++t) {
                const std::int64_t j = j0 + t * P::tile_cols + P::acc_col(lane, i);
                if (j < a.n) combine(row + j * a.c_col_stride, acc[r][t][i], alpha, beta);
            }
        }
}

// One accumulator, (r, t, i) of `lane`: write_c's element, for the cut windows' sums.
template <class P, int T, class C>
__device__ __forceinline__ void write_one(const kernel_args<typename P::scalar>& a, int p0, std::int64_t j0,
                                          int r, int t, int i, int lane, typename P::acc x,
                                          typename P::acc alpha, typename P::acc beta) {
    const int p = p0 + 8 * r + P::acc_row(lane, i);
    const std::int64_t j = j0 + t * P::tile_cols + P::acc_col(lane, i);
    if (p < a.rows && j < a.n)
        combine(static_cast<C*>(a.c) + std::int64_t(a.order[p]) * a.c_row_stride + j * a.c_col_stride, x, alpha,
                beta);
}

template <class P, int T, int W, class C>
__global__ void __launch_bounds__(W * 32) blocks_kernel(const kernel_args<typename P::scalar> a) {
    using Acc = typename P::acc;
    using shape = tile_shape<P, T, W>;
    // A format that did not fit its capacity was not built (only corrupt structure gets
    // here with TCS_SPMM_BSR_TC): C stays as it was rather than reading a stale format.
    if (a.summary->overflow) return;
    unsigned char* smem = dynamic_smem<unsigned char>();
    int* counts = reinterpret_cast<int*>(smem + shape::counts_at);
    Acc* partials = reinterpret_cast<Acc*>(smem);
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    unsigned char* stages = smem + warp * shape::warp_bytes;
    const int split = a.summary->split_windows;
    const int tasks = split + (a.windows - split + W - 1) / W;
    const std::int64_t items = std::int64_t(tasks) * a.slices;

    Acc acc[kRowGroups][T][P::acc_regs];
    for (std::int64_t item = blockIdx.x; item < items; item += gridDim.x) {
        const int task = int(item / a.slices);
        const std::int64_t j0 = (item % a.slices) * shape::slice;
#pragma unroll
        for (int r = 0; r < kRowGroups; ++r)
#pragma unroll
            for (int t = 0; t < T; ++t)
#pragma unroll
                for (int i = 0; i < P::acc_regs; ++i) acc[r][t][i] = Acc(0);
        // The warp's range of one window: a quarter of a cut window, or a whole one.
        const bool cut = task < split;
        int w = -1, ga = 0, gb = 0;
        int before[kRowGroups] = {0, 0, 0, 0};
        if (cut) {
            w = a.schedule[task];
            const int g0 = a.group_start[w], blocks = a.group_start[w + 1] - g0;
            ga = g0 + blocks * warp / W;
            gb = g0 + blocks * (warp + 1) / W;
            // Each warp counts its range's entries per row, so that every warp knows where
            // its rows' entries start.
            int entries = 0;
            for (int g = ga; g < gb; ++g) entries += __popc(a.masks[std::int64_t(g) * formats::kWindowRows + lane]);
            counts[warp * 32 + lane] = entries;
            __syncthreads();
#pragma unroll
            for (int r = 0; r < kRowGroups; ++r)
                for (int u = 0; u < warp; ++u) before[r] += counts[u * 32 + 8 * r + (lane >> 2)];
        } else {
            const int k = split + (task - split) * W + warp;
            if (k < a.windows) {
                w = a.schedule[k];
                ga = a.group_start[w];
                gb = a.group_start[w + 1];
            }
        }
        const int p0 = w * formats::kWindowRows;
        if (w >= 0) run_range<P, T>(a, ga, gb, p0, before, j0, stages, lane, acc);
        if (!cut) {
            if (w >= 0) write_c<P, T, C>(a, p0, j0, lane, acc);
            continue;
        }
        __syncthreads();  // every pipeline is done: its stages hold the partial sums now
        Acc* mine = partials + warp * shape::partial_values;
#pragma unroll
        for (int r = 0; r < kRowGroups; ++r)
#pragma unroll
            for (int t = 0; t < T; ++t)
#pragma unroll
                for (int i = 0; i < P::acc_regs; ++i)
                    mine[((r * T + t) * P::acc_regs + i) * 32 + lane] = acc[r][t][i];
        __syncthreads();
        // Each thread adds some of the window's elements over the warps, in warp order.
        const Acc alpha = Acc(a.alpha.get()), beta = Acc(a.beta.get());
        for (int v = threadIdx.x; v < shape::partial_values; v += W * 32) {
            Acc x = partials[v];
            for (int u = 1; u < W; ++u) x += partials[u * shape::partial_values + v];
            const int owner = v % 32, slot = v / 32;
            const int i = slot % P::acc_regs, t = slot / P::acc_regs % T, r = slot / P::acc_regs / T;
            write_one<P, T, C>(a, p0, j0, r, t, i, owner, x, alpha, beta);
        }
        __syncthreads();  // the partials are read before any stage is refilled
    }
}

template <class E>
constexpr value_type type_of_element() {
    if constexpr (std::is_same_v<E, double>) return value_type::f64;
    else if constexpr (std::is_same_v<E, float>) return value_type::f32;
    else if constexpr (std::is_same_v<E, __half>) return value_type::f16;
    else return value_type::bf16;
}

template <class S>
kernel_args<S> args_of(const product& x) {
    kernel_args<S> a;
    a.rows = x.rows;
    a.windows = x.windows;
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
    a.alpha = x.alpha.as<S>();
    a.beta = x.beta.as<S>();
    return a;
}

template <class P, int T, int W, class C>
void launch_warps(const product& x) {
    using shape = tile_shape<P, T, W>;
    const auto kernel = blocks_kernel<P, T, W, C>;
    allow_smem(kernel, shape::smem_bytes);
    // As many thread blocks as the device holds at once (they loop over the tasks), never
    // more than windows x slices (the most items there can be).
    const std::int64_t resident = std::int64_t(resident_blocks(kernel, W * 32, shape::smem_bytes)) *
                                  (x.sm_count > 0 ? x.sm_count : 1);
    const std::int64_t most = std::int64_t(x.windows) * x.slices;
    const int grid = grid_for(most, 1, resident);
    launch("blocks_kernel", kernel, grid, W * 32, std::size_t(shape::smem_bytes), x.stream,
           args_of<typename P::scalar>(x));
}

template <class P, int T, class C>
void launch_warps_of(const product& x) {
    if (x.wide && std::size_t(tile_shape<P, T, kWideWarps>::smem_bytes) <= x.smem_limit)
        return launch_warps<P, T, kWideWarps, C>(x);
    launch_warps<P, T, kWarps, C>(x);
}

// C's element type: A's, or fp32 for 16-bit data (the C API's pairings, lib/spmm_rules.hpp).
template <class P, int T>
void launch_tiles(const product& x) {
    using E = typename P::element;
    using Wide = std::conditional_t<sizeof(typename P::acc) == 8, E, float>;  // fp32 beside 16-bit data
    if (x.c_type == type_of_element<E>()) return launch_warps_of<P, T, E>(x);
    if constexpr (!std::is_same_v<Wide, E>)
        if (x.c_type == value_type::f32) return launch_warps_of<P, T, float>(x);
    fail(errc::internal_error, "SpMM blocks: C's type does not pair with A's");
}

// The kernel for the product's tiles per task (1, 2 or 4 MMA tiles of columns, at most
// the policy's max_tiles: blocks_spmm.cu sizes the tasks the same way).
template <class P>
void launch_policy(const product& x) {
    switch (x.tiles) {
    case 1: return launch_tiles<P, 1>(x);
    case 2: return launch_tiles<P, 2>(x);
    default:
        if constexpr (P::max_tiles >= 4) return launch_tiles<P, 4>(x);
        fail(errc::internal_error, "SpMM blocks: more tiles than the policy holds");
    }
}

}  // namespace tcs::spmm::blocks
