// C = beta*C, for a product without nonzeros (k == 0, nnz == 0) or with alpha == 0.
// beta == 0 writes zeros without reading C. Consecutive threads walk C's contiguous
// dimension.
#pragma once

#include "spmm/csr/operands.cuh"

namespace tcs::spmm::csr {

template <class TC, class A>
__global__ void scale_kernel(dense_out<TC> C, std::int64_t rows, scalar<A> beta) {
    const A be = beta.get();
    const std::int64_t total = rows * C.cols;
    const bool row_major = C.col_stride == 1;
    const std::int64_t step = std::int64_t(gridDim.x) * blockDim.x;
    for (std::int64_t t = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; t < total;
         t += step) {
        const std::int64_t i = row_major ? t / C.cols : t % rows;
        const std::int64_t j = row_major ? t % C.cols : t / rows;
        TC* where = C.at(i, j);
        *where = element<TC>::narrow(be == A(0) ? A(0) : be * element<TC>::widen(*where));
    }
}

}  // namespace tcs::spmm::csr
