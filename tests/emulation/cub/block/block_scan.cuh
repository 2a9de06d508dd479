// cub::BlockScan for the emulation: ExclusiveSum through its TempStorage.
#pragma once

#include "../../cuda_runtime.h"

namespace cub {

template <class T, int NT>
class BlockScan {
public:
    struct TempStorage {
        T v[NT];
    };
    explicit BlockScan(TempStorage& t) : t_(t) {}
    void ExclusiveSum(T in, T& out) {
        const int tid = int(threadIdx.x);
        t_.v[tid] = in;
        __syncthreads();
        T s = T(0);
        for (int i = 0; i < tid; ++i) s += t_.v[i];
        out = s;
        __syncthreads();
    }

private:
    TempStorage& t_;
};

}  // namespace cub
