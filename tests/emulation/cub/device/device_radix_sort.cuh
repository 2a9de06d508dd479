// cub::DeviceRadixSort::SortPairs for the emulation: a stable sort by the key bits
// [begin_bit, end_bit), as CUB's (stable) radix sort orders them.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

namespace cub {

struct DeviceRadixSort {
    template <class K, class V>
    static cudaError_t SortPairs(void* temp, std::size_t& bytes, const K* keys_in, K* keys_out,
                                 const V* values_in, V* values_out, int n, int begin_bit = 0,
                                 int end_bit = int(sizeof(K) * 8), cudaStream_t = nullptr) {
        if (temp == nullptr) {
            bytes = 64;
            return cudaSuccess;
        }
        const int width = end_bit - begin_bit;
        const std::uint64_t mask = width >= 64 ? ~0ull : ((1ull << width) - 1);
        auto bits = [&](int i) { return (std::uint64_t(keys_in[i]) >> begin_bit) & mask; };
        std::vector<int> order(static_cast<std::size_t>(n));
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return bits(x) < bits(y); });
        std::vector<K> k(order.size());
        std::vector<V> v(order.size());
        for (std::size_t i = 0; i < order.size(); ++i) {
            k[i] = keys_in[order[i]];
            v[i] = values_in[order[i]];
        }
        std::copy(k.begin(), k.end(), keys_out);
        std::copy(v.begin(), v.end(), values_out);
        return cudaSuccess;
    }
};

}  // namespace cub
