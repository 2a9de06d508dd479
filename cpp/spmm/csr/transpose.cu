#include "spmm/csr/transpose.hpp"

#include "core/error.hpp"
#include "core/grid.hpp"
#include "core/kernel_launch.hpp"
#include "spmm/csr/rules.hpp"
#include "spmm/csr/transpose.cuh"

#include <cub/device/device_radix_sort.cuh>

#include <cstdint>

namespace tcs::spmm::csr {
namespace {

// Bits of the largest stored column index (at least 1): the radix sort looks at no more.
int key_bits(const csr_view& a) {
    const std::int64_t largest = a.cols - 1 + a.base;
    int bits = 1;
    while (bits < 32 && (largest >> bits) != 0) ++bits;
    return bits;
}

template <class Bits>
void gather_as(const csr_view& a, const transposed_csr& t, cudaStream_t stream) {
    const int nnz = int(a.nnz);
    launch("gather", gather<Bits>, grid_for(nnz, kTransposeThreads, kBlockPerItem),
           kTransposeThreads, 0, stream, static_cast<const Bits*>(a.values),
           static_cast<const int*>(t.perm), nnz, static_cast<Bits*>(t.values));
}

}  // namespace

transposed_csr carve_transposed(const csr_view& a, bool gathered, carver& kept, carver& scratch) {
    transposed_csr t;
    const auto nnz = std::size_t(a.nnz);
    t.row_ptr = kept.take<int>(std::size_t(a.cols) + 1);
    t.col_idx = kept.take<int>(nnz);
    t.perm = kept.take<int>(nnz);
    if (gathered) t.values = kept.take<char>(nnz * size_of(a.type));
    t.sorted_keys = scratch.take<unsigned>(nnz);
    if (a.columns == index_type::i64) t.column_keys = scratch.take<unsigned>(nnz);
    t.positions = scratch.take<int>(nnz);
    check_cuda(cub::DeviceRadixSort::SortPairs(nullptr, t.sort_temp_bytes,
                                               static_cast<const unsigned*>(nullptr),
                                               static_cast<unsigned*>(nullptr),
                                               static_cast<const int*>(nullptr),
                                               static_cast<int*>(nullptr), int(a.nnz), 0,
                                               key_bits(a)),
               "cub::DeviceRadixSort::SortPairs (size)");
    t.sort_temp = scratch.take<char>(t.sort_temp_bytes);
    return t;
}

void build_transposed_structure(const csr_view& a, const transposed_csr& t, cudaStream_t stream) {
    const int nnz = int(a.nnz);
    const int entry_blocks = grid_for(nnz, kTransposeThreads, kBlockPerItem);  // a thread per entry
    launch("fill_positions", fill_positions, entry_blocks, kTransposeThreads, 0, stream,
           t.positions, nnz);
    const unsigned* keys = static_cast<const unsigned*>(a.col_idx);
    if (a.columns == index_type::i64) {
        launch("column_keys", column_keys, entry_blocks, kTransposeThreads, 0, stream,
               columns_as<std::int64_t>(a), nnz, t.column_keys);
        keys = t.column_keys;
    }
    // Stable: entries of one column keep A's order, i.e. ascending rows.
    std::size_t bytes = t.sort_temp_bytes;
    check_cuda(cub::DeviceRadixSort::SortPairs(t.sort_temp, bytes, keys,
                                               t.sorted_keys, static_cast<const int*>(t.positions),
                                               t.perm, nnz, 0, key_bits(a), stream),
               "cub::DeviceRadixSort::SortPairs");
    launch("column_starts", column_starts, grid_for(a.cols + 1, kTransposeThreads, kBlockPerItem),
           kTransposeThreads, 0, stream, static_cast<const unsigned*>(t.sorted_keys), nnz,
           int(a.cols), a.base, t.row_ptr);
    with_index(a.offsets, [&](auto i) {
        using I = decltype(i);
        launch("entry_rows", entry_rows<I>, entry_blocks, kTransposeThreads, 0, stream,
               static_cast<const int*>(t.perm), nnz, offsets_as<I>(a), int(a.rows), a.base,
               t.col_idx);
    });
}

void count_local_entries(const csr_view& a, const transposed_csr& t, std::int64_t span_limit,
                         unsigned long long* local, cudaStream_t stream) {
    launch("local_entries_kernel", local_entries_kernel,
           grid_for(a.cols, kTransposeThreads, kBlockPerItem), kTransposeThreads, 0, stream,
           static_cast<const int*>(t.row_ptr), static_cast<const int*>(t.perm), int(a.cols),
           (long long)span_limit, local);
}

void gather_transposed_values(const csr_view& a, const transposed_csr& t, cudaStream_t stream) {
    switch (size_of(a.type)) {
    case 8: return gather_as<std::uint64_t>(a, t, stream);
    case 4: return gather_as<std::uint32_t>(a, t, stream);
    default: return gather_as<std::uint16_t>(a, t, stream);
    }
}

}  // namespace tcs::spmm::csr
