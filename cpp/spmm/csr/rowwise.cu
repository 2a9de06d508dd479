#include "spmm/csr/rowwise.hpp"

#include "spmm/csr/geometry.hpp"
#include "spmm/csr/kernel_launch.cuh"
#include "spmm/csr/operands.cuh"

#include <algorithm>
#include <cstdint>

namespace tcs::spmm::csr {
namespace {

// A block moves a tile of kTile x kTile elements through shared memory: it reads
// columns of op(B) (contiguous in src) and writes rows (contiguous in dst), both
// coalesced. The extra column of the tile keeps the transposed reads free of bank
// conflicts.
constexpr int kTile = 32;
constexpr int kTileRows = 8;  // threads per block: kTile x kTileRows

// One tile through shared memory: tile(a, b) = load(a, b) with b running along the
// lanes, then store(a, b, tile(b, a)), b again along the lanes. load's b and store's b
// are the contiguous dimensions of the source and of the destination.
template <class E, class Load, class Store>
__device__ __forceinline__ void through_tile(E (&tile)[kTile][kTile + 1], Load load, Store store) {
    for (int r = threadIdx.y; r < kTile; r += kTileRows) tile[r][threadIdx.x] = load(r, threadIdx.x);
    __syncthreads();
    for (int r = threadIdx.y; r < kTile; r += kTileRows) store(r, threadIdx.x, tile[threadIdx.x][r]);
    __syncthreads();
}

template <class Bits>
__global__ void __launch_bounds__(kTile * kTileRows)
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

// The way back for C: a tile of rows of tmp becomes a tile of columns of C, with
// beta * C added on the way.
template <class TC, class A>
__global__ void __launch_bounds__(kTile * kTileRows)
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
                if (be != A(0)) x += be * element<TC>::widen(*where);
                *where = element<TC>::narrow(x);
            });
    }
}

template <class TC, class A>
void finish_as(const void* tmp, std::int64_t tmp_stride, std::int64_t m, std::int64_t n, void* c,
               std::int64_t ldc, const scalar_arg& beta, cudaStream_t stream) {
    const std::int64_t row_tiles = (m + kTile - 1) / kTile;
    const std::int64_t column_tiles = (n + kTile - 1) / kTile;
    const dim3 grid(unsigned(row_tiles), unsigned(std::min<std::int64_t>(column_tiles, 65535)));
    launch_kernel("columnwise_kernel", columnwise_kernel<TC, A>, grid, dim3(kTile, kTileRows),
                  stream, static_cast<const A*>(tmp), tmp_stride, m, n, static_cast<TC*>(c), ldc,
                  beta.as<A>());
}

template <class Bits>
void copy_as(const void* src, std::int64_t ld, std::int64_t k, std::int64_t n, void* dst,
             std::int64_t dst_stride, cudaStream_t stream) {
    const std::int64_t row_tiles = (k + kTile - 1) / kTile;
    const std::int64_t column_tiles = (dst_stride + kTile - 1) / kTile;
    const dim3 grid(unsigned(row_tiles), unsigned(std::min<std::int64_t>(column_tiles, 65535)));
    launch_kernel("rowwise_kernel", rowwise_kernel<Bits>, grid, dim3(kTile, kTileRows), stream,
                  static_cast<const Bits*>(src), ld, k, n, static_cast<Bits*>(dst), dst_stride);
}

}  // namespace

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

std::int64_t rowwise_stride(std::int64_t n, std::size_t element_bytes) {
    const std::int64_t per = kVectorBytes / std::int64_t(element_bytes);
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

}  // namespace tcs::spmm::csr
