#include "formats/row_reorder.hpp"

#include "core/error.hpp"
#include "core/grid.hpp"
#include "core/kernel_launch.hpp"

#include <cub/device/device_radix_sort.cuh>

namespace tcs::formats {
namespace {

constexpr int kThreads = 256;
constexpr unsigned kFull = 0xffffffffu;

// A 32-bit mix of a column and a seed (murmur3's finalizer): two seeds give two
// independent min-hashes.
__device__ __forceinline__ unsigned column_hash(int column, unsigned seed) {
    unsigned h = unsigned(column) * 0x9E3779B1u + seed;
    h ^= h >> 16;
    h *= 0x85EBCA6Bu;
    h ^= h >> 13;
    h *= 0xC2B2AE35u;
    h ^= h >> 16;
    return h;
}

// A warp per row: the minimum of each hash over the row's columns, as one 64-bit key.
template <class Rows>
__global__ void __launch_bounds__(kThreads) signature_kernel(Rows rows, std::uint64_t* keys, int* ids) {
    const int lane = threadIdx.x & 31;
    const int warps = kThreads / 32;
    for (int i = blockIdx.x * warps + (threadIdx.x >> 5); i < rows.rows; i += gridDim.x * warps) {
        const auto r = rows.row(i);
        unsigned h0 = 0xffffffffu, h1 = 0xffffffffu;
        for (int k = lane; k < r.length; k += 32) {
            const int c = r.column(k);
            h0 = min(h0, column_hash(c, 0x2545F491u));
            h1 = min(h1, column_hash(c, 0x9E3779B9u));
        }
        h0 = __reduce_min_sync(kFull, h0);
        h1 = __reduce_min_sync(kFull, h1);
        if (lane == 0) {
            keys[i] = (std::uint64_t(h0) << 32) | h1;  // an empty row: all ones, last
            ids[i] = i;
        }
    }
}

}  // namespace

signature_scratch carve_signatures(std::int64_t rows, carver& scratch) {
    signature_scratch s;
    const auto n = std::size_t(rows);
    s.keys_in = scratch.take<std::uint64_t>(n);
    s.keys_out = scratch.take<std::uint64_t>(n);
    s.rows_in = scratch.take<int>(n);
    s.rows_out = scratch.take<int>(n);
    check_cuda(cub::DeviceRadixSort::SortPairs(nullptr, s.temp_bytes,
                                               static_cast<const std::uint64_t*>(nullptr),
                                               static_cast<std::uint64_t*>(nullptr),
                                               static_cast<const int*>(nullptr),
                                               static_cast<int*>(nullptr), int(rows)),
               "row signatures: sort size");
    s.temp = scratch.take<char>(s.temp_bytes);
    return s;
}

template <class Rows>
void order_by_signature(const Rows& rows, const signature_scratch& s, cudaStream_t stream) {
    launch("signature_kernel", signature_kernel<Rows>, grid_for(rows.rows, kThreads / 32), kThreads,
           0, stream, rows, s.keys_in, s.rows_in);
    std::size_t bytes = s.temp_bytes;
    check_cuda(cub::DeviceRadixSort::SortPairs(s.temp, bytes, static_cast<const std::uint64_t*>(s.keys_in),
                                               s.keys_out, static_cast<const int*>(s.rows_in),
                                               s.rows_out, rows.rows, 0, 64, stream),
               "row signatures: sort");
}

template void order_by_signature<csr_rows>(const csr_rows&, const signature_scratch&, cudaStream_t);
template void order_by_signature<csr_rows64>(const csr_rows64&, const signature_scratch&, cudaStream_t);
template void order_by_signature<bsr_rows>(const bsr_rows&, const signature_scratch&, cudaStream_t);

}  // namespace tcs::formats
