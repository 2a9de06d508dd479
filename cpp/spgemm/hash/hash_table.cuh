// A shared-memory hash set of column indices: power-of-two size, multiplicative
// (Fibonacci) hashing so that runs of neighbouring columns spread evenly, linear probing,
// lock-free insertion with atomicCAS. A slot goes from empty to a key once and never
// changes again while the row is processed, which is what makes the plain reads safe.
#pragma once

#include <cuda_runtime.h>

namespace tcs::spgemm::hash {

constexpr int kEmpty = -1;

constexpr int log2_exact(int t) { return t <= 1 ? 0 : 1 + log2_exact(t / 2); }

template <int T>
__device__ __forceinline__ int home_slot(int key) {
    static_assert(T >= 2 && (T & (T - 1)) == 0, "table size: a power of two");
    return int((unsigned(key) * 0x9E3779B1u) >> (32 - log2_exact(T)));
}

// Finds key or inserts it. Returns its slot and sets `inserted` when this call put it
// there. Returns -1 only if all T slots hold other keys, which the bins rule out unless
// A's or B's pattern changed between the stages (then the row's result is undefined,
// but nothing runs out of bounds or hangs).
template <int T>
__device__ __forceinline__ int insert_key(int* keys, int key, bool& inserted) {
    inserted = false;
    int s = home_slot<T>(key);
    for (int probe = 0; probe < T; ++probe) {
        int k = *static_cast<volatile int*>(keys + s);
        if (k == kEmpty) {
            k = atomicCAS(keys + s, kEmpty, key);
            if (k == kEmpty) {
                inserted = true;
                return s;
            }
        }
        if (k == key) return s;
        s = (s + 1) & (T - 1);
    }
    return -1;
}

}  // namespace tcs::spgemm::hash
