#include "formats/dense.hpp"

#include "core/grid.hpp"
#include "core/kernel_launch.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <vector_types.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace tcs::formats {
namespace {

// The accumulation types' conversions of the element types (fp32 for 16-bit data).
__device__ __forceinline__ float widen(float x) { return x; }
__device__ __forceinline__ double widen(double x) { return x; }
__device__ __forceinline__ float widen(__half x) { return __half2float(x); }
__device__ __forceinline__ float widen(__nv_bfloat16 x) { return __bfloat162float(x); }
template <class T, class A> __device__ __forceinline__ T narrow(A x) { return T(x); }
template <> __device__ __forceinline__ __half narrow<__half, float>(float x) { return __float2half_rn(x); }
template <> __device__ __forceinline__ __nv_bfloat16 narrow<__nv_bfloat16, float>(float x) {
    return __float2bfloat16_rn(x);
}

// A block moves a tile of kTile x kTile elements through shared memory: it reads
// columns of op(B) (contiguous in src) and writes rows (contiguous in dst), both
// coalesced. The extra column of the tile keeps the transposed reads free of bank
// conflicts. kTile x kTileRows threads, thread t at (t % kTile, t / kTile): each warp
// one row of the tile at a time.
constexpr int kTile = 32;
constexpr int kTileRows = 8;
constexpr int kTileThreads = kTile * kTileRows;

// One tile through shared memory: tile(a, b) = load(a, b) with b running along the
// lanes, then store(a, b, tile(b, a)), b again along the lanes. load's b and store's b
// are the contiguous dimensions of the source and of the destination.
template <class E, class Load, class Store>
__device__ __forceinline__ void through_tile(E (&tile)[kTile][kTile + 1], Load load, Store store) {
    const int lane = int(threadIdx.x) % kTile, row = int(threadIdx.x) / kTile;
    for (int r = row; r < kTile; r += kTileRows) tile[r][lane] = load(r, lane);
    __syncthreads();
    for (int r = row; r < kTile; r += kTileRows) store(r, lane, tile[lane][r]);
    __syncthreads();
}

template <class Bits>
__global__ void __launch_bounds__(kTileThreads)
    rowwise_kernel(const Bits* __restrict__ src, std::int64_t ld, std::int64_t k,
                   std::int64_t n, Bits* __restrict__ dst, std::int64_t dst_stride) {
    __shared__ Bits tile[kTile][kTile + 1];
    const std::int64_t kk0 = std::int64_t(blockIdx.x) * kTile;
    const std::int64_t column_tiles = (dst_stride + kTile - 1) / kTile;
    for (std::int64_t jt = blockIdx.y; jt < column_tiles; jt += gridDim.y) {
        const std::int64_t j0 = jt * kTile;
        through_tile(
            tile,
            [&](int a, int b) {  // column j0 + a of op(B), row kk0 + b
                const std::int64_t j = j0 + a, kk = kk0 + b;
                return j < n && kk < k ? src[kk + j * ld] : Bits(0);
            },
            [&](int a, int b, Bits v) {  // row kk0 + a of the copy, column j0 + b
                const std::int64_t kk = kk0 + a, j = j0 + b;
                if (kk < k && j < dst_stride) dst[kk * dst_stride + j] = v;
            });
    }
}

// The padded copy of a row-major op(B): a thread per 16-byte vector of the copy (V
// elements of one row, read one by one: src's rows start anywhere), consecutive threads
// on consecutive vectors, so that both the reads of src's rows and the writes of the copy
// are coalesced. The threads walk the copy's k * row_vectors vectors with the grid's
// stride, which is step_rows rows and step_vectors vectors: one division per thread, not
// per vector.
constexpr int kPadThreads = 256;
// Blocks at most (the threads loop over the rest): a few waves of any device, each thread
// walking several vectors.
constexpr std::int64_t kPadBlocks = 4096;

template <class Bits>
__global__ void __launch_bounds__(kPadThreads)
    padded_rows_kernel(const Bits* __restrict__ src, std::int64_t ld, std::int64_t k,
                       std::int64_t n, Bits* __restrict__ dst, std::int64_t row_vectors,
                       std::int64_t step_rows, std::int64_t step_vectors) {
    constexpr int V = 16 / int(sizeof(Bits));
    const std::int64_t first = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    std::int64_t kk = first / row_vectors, v = first % row_vectors;
    while (kk < k) {
        const Bits* row = src + kk * ld;
        Bits e[V];
#pragma unroll
        for (int q = 0; q < V; ++q) {
            const std::int64_t j = v * V + q;
            e[q] = j < n ? row[j] : Bits(0);
        }
        uint4 w;
        std::memcpy(&w, e, sizeof w);
        reinterpret_cast<uint4*>(dst + kk * row_vectors * V)[v] = w;
        kk += step_rows;
        v += step_vectors;
        if (v >= row_vectors) {
            v -= row_vectors;
            ++kk;
        }
    }
}

// The way back for C: a tile of rows of tmp becomes a tile of columns of C, with
// beta * C added on the way.
template <class TC, class A>
__global__ void __launch_bounds__(kTileThreads)
    columnwise_kernel(const A* __restrict__ tmp, std::int64_t tmp_stride, std::int64_t m,
                      std::int64_t n, TC* __restrict__ c, std::int64_t ldc, scalar<A> beta) {
    __shared__ A tile[kTile][kTile + 1];
    const A be = beta.get();
    const std::int64_t i0 = std::int64_t(blockIdx.x) * kTile;
    const std::int64_t column_tiles = (n + kTile - 1) / kTile;
    for (std::int64_t jt = blockIdx.y; jt < column_tiles; jt += gridDim.y) {
        const std::int64_t j0 = jt * kTile;
        through_tile(
            tile,
            [&](int a, int b) {  // row i0 + a of tmp, column j0 + b
                const std::int64_t i = i0 + a, j = j0 + b;
                return i < m && j < n ? tmp[i * tmp_stride + j] : A(0);
            },
            [&](int a, int b, A x) {  // column j0 + a of C, row i0 + b
                const std::int64_t i = i0 + b, j = j0 + a;
                if (i >= m || j >= n) return;
                TC* where = c + i + j * ldc;
                if (be != A(0)) x += be * widen(*where);
                *where = narrow<TC>(x);
            });
    }
}

// C = beta*C. Consecutive threads walk C's contiguous dimension.
template <class TC, class A>
__global__ void scale_kernel(TC* c, std::int64_t rows, std::int64_t cols, std::int64_t row_stride,
                             std::int64_t col_stride, scalar<A> beta) {
    const A be = beta.get();
    const std::int64_t total = rows * cols;
    const bool row_major = col_stride == 1;
    const std::int64_t step = std::int64_t(gridDim.x) * blockDim.x;
    for (std::int64_t t = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; t < total;
         t += step) {
        const std::int64_t i = row_major ? t / cols : t % rows;
        const std::int64_t j = row_major ? t % cols : t / rows;
        TC* where = c + i * row_stride + j * col_stride;
        *where = narrow<TC>(be == A(0) ? A(0) : be * widen(*where));
    }
}

// Row tiles along x, column tiles along y (the kernels loop over y beyond 65535).
dim3 tiles_of(std::int64_t rows, std::int64_t cols) {
    return dim3(unsigned(grid_for(rows, kTile, kBlockPerItem)), unsigned(grid_for(cols, kTile, 65535)));
}

template <class TC, class A>
void finish_as(const void* tmp, std::int64_t tmp_stride, std::int64_t m, std::int64_t n, void* c,
               std::int64_t ldc, const scalar_arg& beta, cudaStream_t stream) {
    launch("columnwise_kernel", columnwise_kernel<TC, A>, tiles_of(m, n), kTileThreads, 0, stream,
           static_cast<const A*>(tmp), tmp_stride, m, n, static_cast<TC*>(c), ldc, beta.as<A>());
}

template <class Bits>
void copy_as(const void* src, std::int64_t ld, std::int64_t k, std::int64_t n, void* dst,
             std::int64_t dst_stride, cudaStream_t stream) {
    launch("rowwise_kernel", rowwise_kernel<Bits>, tiles_of(k, dst_stride), kTileThreads, 0, stream,
           static_cast<const Bits*>(src), ld, k, n, static_cast<Bits*>(dst), dst_stride);
}

template <class Bits>
void pad_as(const void* src, std::int64_t ld, std::int64_t k, std::int64_t n, void* dst,
            std::int64_t dst_stride, cudaStream_t stream) {
    const std::int64_t row_vectors = dst_stride * std::int64_t(sizeof(Bits)) / 16;
    const int blocks = grid_for(k * row_vectors, kPadThreads, kPadBlocks);
    const std::int64_t step = std::int64_t(blocks) * kPadThreads;
    launch("padded_rows_kernel", padded_rows_kernel<Bits>, blocks, kPadThreads, 0, stream,
           static_cast<const Bits*>(src), ld, k, n, static_cast<Bits*>(dst), row_vectors,
           step / row_vectors, step % row_vectors);
}

template <class TC, class A>
void scale_as(const dense_view& c, const scalar_arg& beta, cudaStream_t stream) {
    const std::int64_t row_stride = c.row_major ? c.ld : 1, col_stride = c.row_major ? 1 : c.ld;
    launch("scale_kernel", scale_kernel<TC, A>, grid_for(c.rows * c.cols, 256), 256, 0, stream,
           static_cast<TC*>(c.values), c.rows, c.cols, row_stride, col_stride, beta.as<A>());
}

}  // namespace

std::int64_t rowwise_stride(std::int64_t n, std::size_t element_bytes) {
    const std::int64_t per = 16 / std::int64_t(element_bytes);
    return (n + per - 1) / per * per;
}

void copy_rowwise(const void* src, std::int64_t ld, std::int64_t k, std::int64_t n,
                  std::size_t element_bytes, void* dst, std::int64_t dst_stride,
                  cudaStream_t stream) {
    switch (element_bytes) {
    case 8: return copy_as<std::uint64_t>(src, ld, k, n, dst, dst_stride, stream);
    case 4: return copy_as<std::uint32_t>(src, ld, k, n, dst, dst_stride, stream);
    default: return copy_as<std::uint16_t>(src, ld, k, n, dst, dst_stride, stream);
    }
}

void copy_rows_padded(const void* src, std::int64_t ld, std::int64_t k, std::int64_t n,
                      std::size_t element_bytes, void* dst, std::int64_t dst_stride,
                      cudaStream_t stream) {
    if (k == 0 || dst_stride == 0) return;
    switch (element_bytes) {
    case 8: return pad_as<std::uint64_t>(src, ld, k, n, dst, dst_stride, stream);
    case 4: return pad_as<std::uint32_t>(src, ld, k, n, dst, dst_stride, stream);
    default: return pad_as<std::uint16_t>(src, ld, k, n, dst, dst_stride, stream);
    }
}

void finish_columnwise(const void* tmp, std::int64_t tmp_stride, value_type acc, std::int64_t m,
                       std::int64_t n, void* c, std::int64_t ldc, value_type c_type,
                       const scalar_arg& beta, cudaStream_t stream) {
    if (acc == value_type::f64) return finish_as<double, double>(tmp, tmp_stride, m, n, c, ldc, beta, stream);
    switch (c_type) {
    case value_type::f16: return finish_as<__half, float>(tmp, tmp_stride, m, n, c, ldc, beta, stream);
    case value_type::bf16:
        return finish_as<__nv_bfloat16, float>(tmp, tmp_stride, m, n, c, ldc, beta, stream);
    default: return finish_as<float, float>(tmp, tmp_stride, m, n, c, ldc, beta, stream);
    }
}

void scale(const dense_view& c, const scalar_arg& beta, cudaStream_t stream) {
    if (c.rows == 0 || c.cols == 0) return;
    switch (c.type) {
    case value_type::f64: return scale_as<double, double>(c, beta, stream);
    case value_type::f16: return scale_as<__half, float>(c, beta, stream);
    case value_type::bf16: return scale_as<__nv_bfloat16, float>(c, beta, stream);
    default: return scale_as<float, float>(c, beta, stream);
    }
}

}  // namespace tcs::formats
