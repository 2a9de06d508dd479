// A bitmap over C's columns, one bit per column: how both passes handle the rows too
// long for a shared-memory hash table (the wide bin). Setting the bits of a row's
// products gives its column set exactly; popcounts give its nnz (symbolic) and the rank
// of each column, hence each product's position in the sorted row (numeric).
#pragma once

#include "spgemm/hash/ordered_commit.cuh"

#include <cuda_runtime.h>

#include <climits>

namespace tcs::spgemm::hash {

// Sets the bits of the columns of A's row entries [t.x, t.y) and folds the smallest and
// largest of them into *lo and *hi (shared memory, INT_MAX and -1 before the first row).
// Every thread of the block calls it.
template <int NT>
__device__ void mark_columns(const operands& x, int2 t, unsigned* bits, int* lo, int* hi) {
    int my_lo = INT_MAX, my_hi = -1;
    for_each_product<NT>(x, t.x, t.y, [&](int col) {
        atomicOr(bits + (col >> 5), 1u << (col & 31));
        my_lo = min(my_lo, col);
        my_hi = max(my_hi, col);
        return false;
    });
    my_lo = __reduce_min_sync(kFullMask, my_lo);
    my_hi = __reduce_max_sync(kFullMask, my_hi);
    if (lane_id() == 0 && my_hi >= 0) {
        atomicMin(lo, my_lo);
        atomicMax(hi, my_hi);
    }
}

}  // namespace tcs::spgemm::hash
