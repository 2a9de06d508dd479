// The precision policies of the block SpMM (kernel.cuh): which MMA multiplies a block of
// the dense-block format (formats/dense_blocks.hpp: 32 rows x 16 columns, four row groups
// of 8, the 8-row side of every MMA) by the matching 16 rows of op(B) staged in shared
// memory, which 4 of the block's 16 slots a lane reads from A in each row group, where
// its accumulators sit in C, and how rows of the staged tile are padded against bank
// conflicts. One warp multiplies the whole block: each operand fragment of the tile is
// loaded once and serves the four row groups (those holding none of the block's columns
// are skipped, `live`).
//
//   half_policy<__half / __nv_bfloat16>  m16n8k16, fp32 accumulation. The block is the
//       MMA's B operand (k16 x n8: slots x rows), the tile of op(B) transposed its A
//       operand (16 columns of C x 16 slots, by ldmatrix.trans): one MMA gives a 16 x 8
//       tile of C^T, and the 8-row side of the MMA is the warp's 8 rows.
//   tf32_policy   m16n8k8 twice per block, fp32 data rounded to TF32 (cvt.rna), fp32
//       accumulation; the same orientation. Only under TCS_TF32_TENSOR_OP_MATH.
//   f64_policy<double>   m8n8k4 four times per block (DMMA), fp64 throughout; the block
//       is the A operand (8 rows x 4 slots), the tile the B operand.
//   f64_policy<float>    fp32 data multiplied and summed in fp64 on the same DMMA, the
//       result rounded to fp32 once: at least as accurate as fp32 arithmetic, so it is
//       the default-math path of fp32 data.
#pragma once

#include "core/mma.cuh"
#include "spmm/blocks/rules.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

namespace tcs::spmm::blocks {

__device__ __forceinline__ void mma_of(float (&d)[4], const std::uint32_t (&a)[4],
                                       const std::uint32_t (&b)[2], __half) {
    mma::mma_f16(d, a, b);
}
__device__ __forceinline__ void mma_of(float (&d)[4], const std::uint32_t (&a)[4],
                                       const std::uint32_t (&b)[2], __nv_bfloat16) {
    mma::mma_bf16(d, a, b);
}

template <class E>
struct half_policy {
    using element = E;    // A and B
    using acc = float;    // accumulators
    using scalar = float; // alpha and beta (the compute type)
    static constexpr int tile_cols = 16;  // columns of C per MMA
    static constexpr int acc_regs = 4;
    // Rows an odd number of 16-byte pieces apart: ldmatrix's 8 rows in 8 bank groups.
    static constexpr int row_elements(int cols) { return (cols * 2 / 16) % 2 == 0 ? cols + 8 : cols; }
    // Slot (column of the block) of the lane's v-th value: B fragment, k = 2q + e + 8r.
    __device__ static int slot(int lane, int v) { return 2 * (lane & 3) + (v & 1) + 8 * (v >> 1); }
    // Row of the warp's 8 and column of the MMA tile of accumulator i (C^T fragment).
    __device__ static int acc_row(int lane, int i) { return 2 * (lane & 3) + (i & 1); }
    __device__ static int acc_col(int lane, int i) { return (lane >> 2) + 8 * (i >> 1); }

    static constexpr int max_tiles = kMaxTilesHmma;  // rules.hpp
    static constexpr bool prefetch = true;  // gather the next block's values a block ahead

    // A lane's 4 values of a row group, as the MMA's B operand holds them.
    struct frag {
        std::uint32_t b[2];
    };
    __device__ static frag pack(const E (&v)[4]) { return {{mma::pack(v[0], v[1]), mma::pack(v[2], v[3])}}; }

    template <int T, int R>
    __device__ static void multiply(float (&acc)[R][T][4], const frag (&f)[R], unsigned live, const E* tile,
                                    int row, int lane) {
        // ldmatrix.x4.trans: lanes 8j..8j+7 address the rows of matrix j = register j,
        // which holds columns 8(j & 1).. of the tile and slots 8(j >> 1)..
        const int j = lane >> 3;
        const E* base = tile + ((lane & 7) + 8 * (j >> 1)) * row + 8 * (j & 1);
#pragma unroll
        for (int t = 0; t < T; ++t) {
            std::uint32_t a[4];
            mma::ldmatrix_x4_trans(a, base + 16 * t);
#pragma unroll
            for (int r = 0; r < R; ++r)
                if ((live >> r) & 1u) mma_of(acc[r][t], a, f[r].b, E());
        }
    }
};

struct tf32_policy {
    using element = float;
    using acc = float;
    using scalar = float;
    static constexpr int tile_cols = 16;
    static constexpr int acc_regs = 4;
    // 4-byte loads at slot q + 4r, column g + 8r': rows 8 or 24 banks apart.
    static constexpr int row_elements(int cols) { return cols + 8; }
    __device__ static int slot(int lane, int v) { return (lane & 3) + 4 * v; }
    __device__ static int acc_row(int lane, int i) { return 2 * (lane & 3) + (i & 1); }
    __device__ static int acc_col(int lane, int i) { return (lane >> 2) + 8 * (i >> 1); }

    static constexpr int max_tiles = kMaxTilesHmma;
    static constexpr bool prefetch = true;

    struct frag {
        std::uint32_t b[4];  // TF32 bits of slots q, q + 4 (first MMA), q + 8, q + 12
    };
    __device__ static frag pack(const float (&v)[4]) {
        return {{mma::to_tf32(v[0]), mma::to_tf32(v[1]), mma::to_tf32(v[2]), mma::to_tf32(v[3])}};
    }

    template <int T, int R>
    __device__ static void multiply(float (&acc)[R][T][4], const frag (&f)[R], unsigned live, const float* tile,
                                    int row, int lane) {
        const int q = lane & 3, g = lane >> 2;
#pragma unroll
        for (int h = 0; h < 2; ++h) {  // slots 8h .. 8h + 7
            std::uint32_t b[R][2];
#pragma unroll
            for (int r = 0; r < R; ++r) {
                b[r][0] = f[r].b[2 * h];
                b[r][1] = f[r].b[2 * h + 1];
            }
            const float* lo = tile + (8 * h + q) * row + g;
            const float* hi = lo + 4 * row;
#pragma unroll
            for (int t = 0; t < T; ++t) {
                const std::uint32_t a[4] = {mma::to_tf32(lo[16 * t]), mma::to_tf32(lo[16 * t + 8]),
                                            mma::to_tf32(hi[16 * t]), mma::to_tf32(hi[16 * t + 8])};
#pragma unroll
                for (int r = 0; r < R; ++r)
                    if ((live >> r) & 1u) mma::mma_tf32(acc[r][t], a, b[r]);
            }
        }
    }
};

template <class E>
struct f64_policy {
    using element = E;
    using acc = double;
    using scalar = E;
    static constexpr int tile_cols = 8;
    static constexpr int acc_regs = 2;
    // Loads at slot 4h + q, column 8t + g: for doubles rows 4 or 12 elements apart mod 16
    // (conflict-free halves of a warp), for floats 8 or 24 banks.
    static constexpr int row_elements(int cols) {
        return sizeof(E) == 8 ? cols + 4 : (cols == 8 ? cols + 16 : cols + 8);
    }
    __device__ static int slot(int lane, int v) { return (lane & 3) + 4 * v; }
    __device__ static int acc_row(int lane, int) { return lane >> 2; }
    __device__ static int acc_col(int lane, int i) { return 2 * (lane & 3) + i; }

    // 32 rows x 16 columns of C: 32 registers of accumulators, which leave room for the
    // gathered values at four thread blocks per SM (128 registers; rules.hpp).
    static constexpr int max_tiles = kMaxTilesDmma;
    // 8-byte values: a second set would cost 32 registers and an SM's fourth thread block.
    static constexpr bool prefetch = sizeof(E) < 8;

    struct frag {
        E a[4];  // slots q, q + 4, q + 8, q + 12: the A operands of the four k steps
    };
    __device__ static frag pack(const E (&v)[4]) { return {{v[0], v[1], v[2], v[3]}}; }

    template <int T, int R>
    __device__ static void multiply(double (&acc)[R][T][2], const frag (&f)[R], unsigned live, const E* tile,
                                    int row, int lane) {
        const E* base = tile + (lane & 3) * row + (lane >> 2);
#pragma unroll
        for (int h = 0; h < 4; ++h) {  // slots 4h .. 4h + 3
#pragma unroll
            for (int t = 0; t < T; ++t) {
                const double b = double(base[4 * h * row + 8 * t]);
#pragma unroll
                for (int r = 0; r < R; ++r)
                    if ((live >> r) & 1u) mma::mma_f64(acc[r][t], double(f[r].a[h]), b);
            }
        }
    }
};

}  // namespace tcs::spmm::blocks
