// The CSR checks: one pass over the row offsets, one over the rows (a warp per row, its
// range clamped to the arrays), and for level::unique a segmented sort of each row's
// columns into the buffer followed by the same row pass over the sorted copy.
#include "check/csr_check.hpp"

#include "core/error.hpp"
#include "core/grid.hpp"
#include "core/kernel_launch.hpp"
#include "core/workspace.hpp"

#include <cub/device/device_segmented_sort.cuh>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <climits>
#include <cstdint>

namespace tcs::check {
namespace {

// Per rule, the first row that breaks it, stored as row + 1 (0: the offsets' ends), so
// that atomicMin over an initial ULLONG_MAX finds it.
struct report {
    unsigned broken;
    unsigned long long first[kRules];
};

constexpr int kThreads = 256;
constexpr long long kMaxBlocks = 4096;

__device__ __forceinline__ void flag(report* r, rule x, long long row, unsigned& seen) {
    const unsigned bit = 1u << int(x);
    if (seen & bit) return;  // a thread's rows only grow: its first sighting is its minimum
    seen |= bit;
    atomicOr(&r->broken, bit);
    atomicMin(&r->first[int(x)], static_cast<unsigned long long>(row + 1));
}

__device__ __forceinline__ double widen(float x) { return x; }
__device__ __forceinline__ double widen(double x) { return x; }
__device__ __forceinline__ double widen(__half x) { return __half2float(x); }
__device__ __forceinline__ double widen(__nv_bfloat16 x) { return __bfloat162float(x); }

template <class R>
__global__ void offsets_kernel(const R* rp, long long rows, long long nnz, int base, report* r) {
    unsigned seen = 0;
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i <= rows;
         i += stride) {
        const long long v = static_cast<long long>(rp[i]);
        if ((i == 0 && v != base) || (i == rows && v != nnz + base)) flag(r, rule::offsets, -1, seen);
        if (i < rows && static_cast<long long>(rp[i + 1]) < v) flag(r, rule::decreasing, i, seen);
    }
}

// ordered: also compare each column with its predecessor in the row.
template <class R, class C, class V>
__global__ void rows_kernel(const R* rp, const C* ci, const V* val, long long rows, long long cols,
                            long long nnz, int base, bool ordered, report* r) {
    unsigned seen = 0;
    const int lane = threadIdx.x & 31;
    const long long warps = static_cast<long long>(gridDim.x) * (blockDim.x / 32);
    for (long long row = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
         row < rows; row += warps) {
        const long long s = std::max(static_cast<long long>(rp[row]) - base, 0LL);
        const long long e = std::min(static_cast<long long>(rp[row + 1]) - base, nnz);
        for (long long j = s + lane; j < e; j += 32) {
            const long long c = static_cast<long long>(ci[j]) - base;
            if (c < 0 || c >= cols) flag(r, rule::index, row, seen);
            if (ordered && j > s) {
                const long long prev = static_cast<long long>(ci[j - 1]) - base;
                if (c == prev) flag(r, rule::duplicate, row, seen);
                else if (c < prev) flag(r, rule::unsorted, row, seen);
            }
            if (val != nullptr) {
                const double x = widen(val[j]);
                if (isnan(x)) flag(r, rule::nan, row, seen);
                else if (isinf(x)) flag(r, rule::inf, row, seen);
            }
        }
    }
}

// Row offsets of either width minus the base, as the segmented sort's segment bounds:
// one iterator type for both widths, so the sort is compiled once.
struct offsets_of {
    const void* row_ptr;
    bool wide;
    long long base;
    __host__ __device__ long long operator()(long long r) const {
        const long long v = wide ? static_cast<const long long*>(row_ptr)[r]
                                 : static_cast<const int*>(row_ptr)[r];
        return v - base;
    }
};

auto segment_begins(const csr_arrays& a) {
    return thrust::make_transform_iterator(thrust::counting_iterator<long long>(0),
                                           offsets_of{a.row_ptr, a.row_ptr_64, a.base});
}

// The columns, widened to 64 bits: the sort then has one key type too.
template <class C>
__global__ void widen_kernel(const C* ci, long long nnz, long long* out) {
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long j = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; j < nnz; j += stride)
        out[j] = static_cast<long long>(ci[j]);
}

struct layout {
    report* rep = nullptr;
    long long* keys = nullptr;    // level::unique: the columns, widened
    long long* sorted = nullptr;  // level::unique: the columns, sorted per row
    void* temp = nullptr;         // level::unique: the sort's scratch
    std::size_t temp_bytes = 0;
    std::size_t bytes = 0;
};

std::size_t sort_bytes(const csr_arrays& a) {
    std::size_t bytes = 0;
    const auto begin = segment_begins(a);
    check_cuda(cub::DeviceSegmentedSort::SortKeys(nullptr, bytes, static_cast<const long long*>(nullptr),
                                                  static_cast<long long*>(nullptr), a.nnz, a.rows,
                                                  begin, begin + 1),
               "check: sort size");
    return bytes;
}

layout carve(const csr_arrays& a, level lv, void* buffer) {
    layout out;
    carver cv(buffer);
    out.rep = cv.take<report>(1);
    if (lv == level::unique && a.nnz > 0) {
        out.keys = cv.take<long long>(std::size_t(a.nnz));
        out.sorted = cv.take<long long>(std::size_t(a.nnz));
        out.temp_bytes = sort_bytes(a);
        out.temp = cv.take<unsigned char>(out.temp_bytes);
    }
    out.bytes = cv.bytes();
    return out;
}

template <class R, class C, class V>
void pass_rows(const csr_arrays& a, const C* columns, const V* values, bool ordered, report* rep,
               cudaStream_t s) {
    if (a.rows == 0) return;
    launch("check: rows", rows_kernel<R, C, V>, grid_for(a.rows, kThreads / 32, kMaxBlocks), kThreads, 0,
           s, static_cast<const R*>(a.row_ptr), columns, values, a.rows, a.cols, a.nnz, a.base, ordered,
           rep);
}

template <class R, class C>
void pass_rows_typed(const csr_arrays& a, bool ordered, report* rep, cudaStream_t s) {
    const C* ci = static_cast<const C*>(a.col_idx);
    switch (a.values == nullptr ? value_type::f32 : a.type) {
    case value_type::f32:
        return pass_rows<R, C, float>(a, ci, static_cast<const float*>(a.values), ordered, rep, s);
    case value_type::f64:
        return pass_rows<R, C, double>(a, ci, static_cast<const double*>(a.values), ordered, rep, s);
    case value_type::f16:
        return pass_rows<R, C, __half>(a, ci, static_cast<const __half*>(a.values), ordered, rep, s);
    case value_type::bf16:
        return pass_rows<R, C, __nv_bfloat16>(a, ci, static_cast<const __nv_bfloat16*>(a.values),
                                              ordered, rep, s);
    }
}

report read_back(const report* rep, cudaStream_t s) {
    report host{};
    check_cuda(cudaMemcpyAsync(&host, rep, sizeof host, cudaMemcpyDeviceToHost, s), "check: read");
    check_cuda(cudaStreamSynchronize(s), "check: wait");
    return host;
}

void reset(report* rep, cudaStream_t s) {
    check_cuda(cudaMemsetAsync(rep, 0xFF, sizeof(report), s), "check: reset rows");
    check_cuda(cudaMemsetAsync(&rep->broken, 0, sizeof(unsigned), s), "check: reset flags");
}

constexpr unsigned kStructure = (1u << int(rule::offsets)) | (1u << int(rule::decreasing)) |
                                (1u << int(rule::index));

template <class R, class C>
result run(const csr_arrays& a, level lv, void* buffer, cudaStream_t s) {
    const layout b = carve(a, lv, buffer);
    reset(b.rep, s);
    if (a.row_ptr != nullptr) {
        launch("check: offsets", offsets_kernel<R>, grid_for(a.rows + 1, kThreads, kMaxBlocks), kThreads,
               0, s, static_cast<const R*>(a.row_ptr), a.rows, a.nnz, a.base, b.rep);
        pass_rows_typed<R, C>(a, lv == level::sorted, b.rep, s);
    }
    report host = read_back(b.rep, s);
    if (lv == level::unique && a.nnz > 0 && (host.broken & kStructure) == 0) {
        // Valid offsets and columns: sort each row's columns and look for equal neighbours.
        launch("check: widen", widen_kernel<C>, grid_for(a.nnz, kThreads, kMaxBlocks), kThreads, 0, s,
               static_cast<const C*>(a.col_idx), a.nnz, b.keys);
        const auto begin = segment_begins(a);
        std::size_t temp_bytes = b.temp_bytes;
        check_cuda(cub::DeviceSegmentedSort::SortKeys(b.temp, temp_bytes,
                                                      static_cast<const long long*>(b.keys), b.sorted,
                                                      a.nnz, a.rows, begin, begin + 1, s),
                   "check: sort rows");
        pass_rows<R, long long, float>(a, b.sorted, nullptr, true, b.rep, s);
        host = read_back(b.rep, s);
    }
    result out;
    out.broken = host.broken;
    for (int x = 1; x < kRules; ++x) {
        if (host.broken & (1u << x)) {
            out.first = static_cast<rule>(x);
            out.row = static_cast<std::int64_t>(host.first[x]) - 1;
            break;
        }
    }
    return out;
}

template <class F>
auto by_index_types(const csr_arrays& a, F&& f) {
    if (a.row_ptr_64) {
        if (a.col_idx_64) return f(static_cast<long long*>(nullptr), static_cast<long long*>(nullptr));
        return f(static_cast<long long*>(nullptr), static_cast<int*>(nullptr));
    }
    if (a.col_idx_64) return f(static_cast<int*>(nullptr), static_cast<long long*>(nullptr));
    return f(static_cast<int*>(nullptr), static_cast<int*>(nullptr));
}

}  // namespace

std::size_t buffer_size(const csr_arrays& a, level lv) { return carve(a, lv, nullptr).bytes; }

result check(const csr_arrays& a, level lv, void* buffer, cudaStream_t stream) {
    return by_index_types(a, [&](auto* r, auto* c) {
        using R = std::remove_pointer_t<decltype(r)>;
        using C = std::remove_pointer_t<decltype(c)>;
        return run<R, C>(a, lv, buffer, stream);
    });
}

}  // namespace tcs::check
