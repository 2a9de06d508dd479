// Warp-level tensor-core primitives shared by every tensor-core family (tile SpGEMM,
// block SpMM): the mma.sync shapes tcsparse uses, the register layout of each
// fragment (which element of the tile a lane holds in which register), ldmatrix, and
// cp.async. Thread scope and warp scope only: what a kernel tiles and how it feeds
// these lives in the family's folder.
//
// The layouts are those of the PTX ISA ("Matrix Fragments for mma.m16n8k16",
// "... m16n8k8", "... m8n8k4 with .f64"). Every one of them is written in terms of
//   group = lane / 4   (the "groupID")       and   quad = lane % 4   ("threadID_in_group")
// and is exposed as a function below so that kernels never spell an index formula of
// their own: a wrong formula gives wrong numbers, never a crash, so there is one place
// to check it (tests compare every path with the CPU reference).
//
// Precision of each shape:
//   f64   m8n8k4    fp64 products and sums (DMMA): the rounding of an fp64 dot product.
//   f16   m16n8k16  fp16 inputs, fp32 accumulation (HMMA).
//   bf16  m16n8k16  bf16 inputs, fp32 accumulation (HMMA).
//   tf32  m16n8k8   fp32 inputs rounded to tf32 (10-bit mantissa), fp32 accumulation
//                   (HMMA): only under TCS_TF32_TENSOR_OP_MATH.
// All shapes need sm_80 or newer; on older targets the functions trap, and the C layer
// never dispatches a tensor-core path to such a device (ARCH_MISMATCH).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define TCS_MMA_UNAVAILABLE 1
#endif

namespace tcs::mma {

// ---- lane coordinates -------------------------------------------------------------
__device__ __forceinline__ int lane_id() { return int(threadIdx.x) & 31; }
__host__ __device__ __forceinline__ int group_of(int lane) { return lane >> 2; }
__host__ __device__ __forceinline__ int quad_of(int lane) { return lane & 3; }

// ---- m8n8k4, f64 ------------------------------------------------------------------
// A 8x4 (row): one double, A(group, quad).
// B 4x8 (col): one double, B(quad, group).
// C 8x8:       two doubles, C(group, 2*quad + i), i = 0, 1.
namespace f64_8x8x4 {
__host__ __device__ constexpr int a_row(int lane) { return lane >> 2; }
__host__ __device__ constexpr int a_col(int lane) { return lane & 3; }
__host__ __device__ constexpr int b_row(int lane) { return lane & 3; }
__host__ __device__ constexpr int b_col(int lane) { return lane >> 2; }
__host__ __device__ constexpr int c_row(int lane, int /*i*/) { return lane >> 2; }
__host__ __device__ constexpr int c_col(int lane, int i) { return 2 * (lane & 3) + i; }
}  // namespace f64_8x8x4

// d += a * b on the fp64 tensor cores.
__device__ __forceinline__ void mma_f64(double (&d)[2], double a, double b) {
#ifndef TCS_MMA_UNAVAILABLE
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};\n"
                 : "+d"(d[0]), "+d"(d[1])
                 : "d"(a), "d"(b));
#else
    __trap();
#endif
}

// ---- m16n8k16, f16 / bf16 inputs, f32 accumulators ---------------------------------
// A 16x16 (row): four 32-bit registers of two elements each (low half first):
//   reg r, element e: row = group + 8*(r & 1), col = 2*quad + e + 8*(r >> 1).
// B 16x8 (col): two 32-bit registers of two elements each:
//   reg r, element e: row (k) = 2*quad + e + 8*r, col = group.
// C 16x8: four floats: c[i]: row = group + 8*(i >> 1), col = 2*quad + (i & 1).
namespace x16x8x16 {
__host__ __device__ constexpr int a_row(int lane, int r) { return (lane >> 2) + 8 * (r & 1); }
__host__ __device__ constexpr int a_col(int lane, int r, int e) {
    return 2 * (lane & 3) + e + 8 * (r >> 1);
}
__host__ __device__ constexpr int b_row(int lane, int r, int e) { return 2 * (lane & 3) + e + 8 * r; }
__host__ __device__ constexpr int b_col(int lane) { return lane >> 2; }
__host__ __device__ constexpr int c_row(int lane, int i) { return (lane >> 2) + 8 * (i >> 1); }
__host__ __device__ constexpr int c_col(int lane, int i) { return 2 * (lane & 3) + (i & 1); }
}  // namespace x16x8x16

__device__ __forceinline__ void mma_f16(float (&d)[4], const std::uint32_t (&a)[4],
                                        const std::uint32_t (&b)[2]) {
#ifndef TCS_MMA_UNAVAILABLE
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
    __trap();
#endif
}

__device__ __forceinline__ void mma_bf16(float (&d)[4], const std::uint32_t (&a)[4],
                                         const std::uint32_t (&b)[2]) {
#ifndef TCS_MMA_UNAVAILABLE
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
    __trap();
#endif
}

// Two 16-bit elements in one register, `lo` in the low half (the element with the
// smaller column of A, or the smaller row of B).
__device__ __forceinline__ std::uint32_t pack(__half lo, __half hi) {
    return std::uint32_t(__half_as_ushort(lo)) | (std::uint32_t(__half_as_ushort(hi)) << 16);
}
__device__ __forceinline__ std::uint32_t pack(__nv_bfloat16 lo, __nv_bfloat16 hi) {
    return std::uint32_t(__bfloat16_as_ushort(lo)) |
           (std::uint32_t(__bfloat16_as_ushort(hi)) << 16);
}

// ---- m16n8k8, tf32 inputs, f32 accumulators ----------------------------------------
// A 16x8 (row): four registers: a[r]: row = group + 8*(r & 1), col = quad + 4*(r >> 1).
// B 8x8 (col): two registers: b[r]: row (k) = quad + 4*r, col = group.
// C 16x8: as m16n8k16.
namespace tf32_16x8x8 {
__host__ __device__ constexpr int a_row(int lane, int r) { return (lane >> 2) + 8 * (r & 1); }
__host__ __device__ constexpr int a_col(int lane, int r) { return (lane & 3) + 4 * (r >> 1); }
__host__ __device__ constexpr int b_row(int lane, int r) { return (lane & 3) + 4 * r; }
__host__ __device__ constexpr int b_col(int lane) { return lane >> 2; }
__host__ __device__ constexpr int c_row(int lane, int i) { return (lane >> 2) + 8 * (i >> 1); }
__host__ __device__ constexpr int c_col(int lane, int i) { return 2 * (lane & 3) + (i & 1); }
}  // namespace tf32_16x8x8

// fp32 -> tf32, rounded to nearest (ties away), as cuBLAS's TF32 mode does.
__device__ __forceinline__ std::uint32_t to_tf32(float x) {
#ifndef TCS_MMA_UNAVAILABLE
    std::uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
    return r;
#else
    __trap();
    return 0;
#endif
}

__device__ __forceinline__ void mma_tf32(float (&d)[4], const std::uint32_t (&a)[4],
                                         const std::uint32_t (&b)[2]) {
#ifndef TCS_MMA_UNAVAILABLE
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
    __trap();
#endif
}

// ---- ldmatrix: 8x8 matrices of 16-bit elements from shared memory -------------------
// Lanes 8*j .. 8*j+7 give the row addresses of matrix j (16 bytes each, 16-byte
// aligned); matrix j lands in register j with the m16n8k16 element order (lane holds
// row group, elements 2*quad, 2*quad+1). .trans delivers the transpose, i.e. B
// fragments from a row-major k x n tile.
__device__ __forceinline__ std::uint32_t smem_address(const void* p) {
    return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void ldmatrix_x4(std::uint32_t (&r)[4], const void* row) {
#ifndef TCS_MMA_UNAVAILABLE
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(smem_address(row)));
#else
    __trap();
#endif
}
__device__ __forceinline__ void ldmatrix_x2(std::uint32_t (&r)[2], const void* row) {
#ifndef TCS_MMA_UNAVAILABLE
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];\n"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(smem_address(row)));
#else
    __trap();
#endif
}
__device__ __forceinline__ void ldmatrix_x4_trans(std::uint32_t (&r)[4], const void* row) {
#ifndef TCS_MMA_UNAVAILABLE
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(smem_address(row)));
#else
    __trap();
#endif
}
__device__ __forceinline__ void ldmatrix_x2_trans(std::uint32_t (&r)[2], const void* row) {
#ifndef TCS_MMA_UNAVAILABLE
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];\n"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(smem_address(row)));
#else
    __trap();
#endif
}

// ---- cp.async: global -> shared without a register round trip ----------------------
// `bytes` of 4, 8 or 16; `valid` bytes are read (0..bytes) and the rest zero-filled, so
// ragged edges need no branch around the copy (the source address must still be a
// valid address when valid == 0: pass the tile's base).
template <int Bytes>
__device__ __forceinline__ void cp_async(void* smem, const void* global, int valid = Bytes) {
    static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async copies 4, 8 or 16 bytes");
#ifndef TCS_MMA_UNAVAILABLE
    if constexpr (Bytes == 16) {
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_address(smem)),
                     "l"(global), "r"(valid));
    } else {
        asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(smem_address(smem)),
                     "l"(global), "n"(Bytes), "r"(valid));
    }
#else
    __trap();
#endif
}
__device__ __forceinline__ void cp_async_commit() {
#ifndef TCS_MMA_UNAVAILABLE
    asm volatile("cp.async.commit_group;\n" ::);
#endif
}
// Waits until at most `Pending` committed groups are still in flight.
template <int Pending>
__device__ __forceinline__ void cp_async_wait() {
#ifndef TCS_MMA_UNAVAILABLE
    asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending));
#endif
}

}  // namespace tcs::mma
