// A caller's CSR index array (row offsets or column indices) as the SpGEMM kernels see
// it: 32- or 64-bit, one flag for the whole launch, so that one compiled kernel reads or
// writes either width in place (a uniform branch, no copy, no second instantiation).
// The values the kernels keep fit 32 bits (the plans check the sizes); only the
// arrays are wide.
#pragma once

#include "core/types.hpp"

#include <cuda_runtime.h>

#include <cstdint>

namespace tcs {

struct index_in {
    const void* data = nullptr;
    bool wide = false;  // std::int64_t entries, else int

    index_in() = default;
    index_in(const void* p, index_type t) : data(p), wide(t == index_type::i64) {}

    __host__ __device__ long long at(std::int64_t i) const {
        return wide ? static_cast<const long long*>(data)[i] : static_cast<const int*>(data)[i];
    }
    // Entry i minus `base`, clamped to [lo, hi]: an offset bounded to its array.
    __device__ __forceinline__ int ldg_bounded(std::int64_t i, int base, int lo, int hi) const {
        if (!wide) return min(max(__ldg(static_cast<const int*>(data) + i) - base, lo), hi);
        const long long v = __ldg(static_cast<const long long*>(data) + i) - base;
        return int(min(max(v, (long long)lo), (long long)hi));
    }
    // Entry i minus `base` when it lies in [0, limit), else -1: an index to check.
    __device__ __forceinline__ int ldg_index(std::int64_t i, int base, int limit) const {
        if (!wide) {
            const int v = __ldg(static_cast<const int*>(data) + i) - base;
            return unsigned(v) < unsigned(limit) ? v : -1;
        }
        const long long v = __ldg(static_cast<const long long*>(data) + i) - base;
        return (unsigned long long)v < (unsigned long long)limit ? int(v) : -1;
    }
    // The array from entry i on.
    __host__ __device__ index_in from(std::int64_t i) const {
        index_in o;
        o.data = static_cast<const char*>(data) + i * (wide ? 8 : 4);
        o.wide = wide;
        return o;
    }
};

struct index_out {
    void* data = nullptr;
    bool wide = false;

    index_out() = default;
    index_out(void* p, index_type t) : data(p), wide(t == index_type::i64) {}

    __host__ __device__ void set(std::int64_t i, long long v) const {
        if (wide)
            static_cast<long long*>(data)[i] = v;
        else
            static_cast<int*>(data)[i] = int(v);
    }
    // The array from entry i on.
    __host__ __device__ index_out from(std::int64_t i) const {
        index_out o;
        o.data = static_cast<char*>(data) + i * (wide ? 8 : 4);
        o.wide = wide;
        return o;
    }
    __host__ __device__ explicit operator bool() const { return data != nullptr; }
};

}  // namespace tcs
