// cub::DeviceScan for the emulation: a sequential exclusive sum or scan (in place allowed).
#pragma once

#include "../../cuda_runtime.h"

#include <cstddef>

namespace cub {

struct DeviceScan {
    template <class In, class Out>
    static cudaError_t ExclusiveSum(void* temp, std::size_t& bytes, In in, Out out, int n,
                                    cudaStream_t = nullptr) {
        if (temp == nullptr) {
            bytes = 64;
            return cudaSuccess;
        }
        long long sum = 0;
        for (int i = 0; i < n; ++i) {
            const long long v = in[i];
            out[i] = decltype(+out[i])(sum);
            sum += v;
        }
        return cudaSuccess;
    }

    template <class In, class Out, class Op, class Init>
    static cudaError_t ExclusiveScan(void* temp, std::size_t& bytes, In in, Out out, Op op, Init init,
                                     int n, cudaStream_t = nullptr) {
        if (temp == nullptr) {
            bytes = 64;
            return cudaSuccess;
        }
        Init acc = init;
        for (int i = 0; i < n; ++i) {
            const Init v = in[i];
            out[i] = acc;
            acc = op(acc, v);
        }
        return cudaSuccess;
    }
};

}  // namespace cub
