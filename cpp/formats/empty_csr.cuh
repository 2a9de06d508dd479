// C's row offsets when C has no rows: the one entry, the index base. Both SpGEMM families
// write it from copy (an m == 0 product has nothing else to write). A header so that every
// build of the families (the library, the CPU emulations) gets it with them.
#pragma once

#include "core/index_array.cuh"
#include "core/kernel_launch.hpp"

#include <cuda_runtime.h>

namespace tcs::formats {

template <class = void>
__global__ void write_offset_kernel(index_out rp, int value) {
    rp.set(0, value);
}

inline void write_empty_offsets(const index_out& rp, int base, cudaStream_t stream) {
    launch("SpGEMM: row offsets of an empty C", write_offset_kernel<>, 1, 1, 0, stream, rp, base);
}

}  // namespace tcs::formats
