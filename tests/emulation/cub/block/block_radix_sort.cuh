// cub::BlockRadixSort for the emulation: the same interface and the same result (keys
// sorted on bits [begin_bit, end_bit), stable), gathered and sorted by one thread.
// TempStorage is about as large as CUB's and is overwritten, so that code reading the
// memory it aliased after the sort fails in the emulation as it would on the GPU.
#pragma once

#include "../../cuda_runtime.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace cub {

struct NullType {};

template <class Key, int NT, int IPT, class Value = NullType>
class BlockRadixSort {
public:
    struct TempStorage {
        unsigned char bytes[std::max(NT * 36, NT * IPT * 4 + NT * IPT / 8 + 64)];
    };
    explicit BlockRadixSort(TempStorage& t) : t_(t) {}

    void SortBlockedToStriped(Key (&keys)[IPT], Value (&values)[IPT], int begin_bit = 0,
                              int end_bit = int(sizeof(Key) * 8)) {
        static std::vector<std::pair<Key, Value>> all;
        const int tid = int(threadIdx.x);
        __syncthreads();
        if (tid == 0) all.assign(std::size_t(NT) * IPT, {});
        __syncthreads();
        for (int i = 0; i < IPT; ++i) all[std::size_t(tid) * IPT + i] = {keys[i], values[i]};
        __syncthreads();
        if (tid == 0) {
            const Key mask = end_bit - begin_bit >= int(sizeof(Key) * 8)
                                 ? Key(~Key(0))
                                 : Key(((Key(1) << (end_bit - begin_bit)) - 1) << begin_bit);
            std::stable_sort(all.begin(), all.end(), [&](const auto& a, const auto& b) {
                return (a.first & mask) < (b.first & mask);
            });
            std::fill(std::begin(t_.bytes), std::end(t_.bytes), 0xAB);
        }
        __syncthreads();
        for (int i = 0; i < IPT; ++i) {
            keys[i] = all[std::size_t(i) * NT + tid].first;
            values[i] = all[std::size_t(i) * NT + tid].second;
        }
        __syncthreads();
    }

private:
    TempStorage& t_;
};

}  // namespace cub
