#include "device_csr.hpp"

#include "gpu.hpp"

namespace bench {

device_csr upload(const tcst_csr& m, cudaDataType type) {
    int* rp = nullptr;
    int* ci = nullptr;
    void* val = nullptr;
    if (tcst_csr_upload(&m, 0, type == CUDA_R_64F, &rp, &ci, &val) != 0)
        throw failure("uploading a " + std::to_string(m.rows) + "x" + std::to_string(m.cols) +
                      " matrix failed");
    device_csr d;
    d.rows = m.rows;
    d.cols = m.cols;
    d.nnz = m.nnz;
    d.type = type;
    d.row_ptr = device_buffer::adopt(rp, std::size_t(m.rows + 1) * sizeof(int));
    d.col_idx = device_buffer::adopt(ci, std::size_t(m.nnz) * sizeof(int));
    d.values = device_buffer::adopt(val, std::size_t(m.nnz) * value_size(type));
    // cudaMemcpy from pageable memory may return before its DMA ends; the benchmark
    // stream does not order itself after the legacy stream, so wait here.
    check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize after upload");
    return d;
}

void download(void* host, const void* device, std::size_t bytes) {
    const cudaStream_t s = gpu().stream;
    if (bytes > 0)
        check_cuda(cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync D2H");
    check_cuda(cudaStreamSynchronize(s), "cudaStreamSynchronize");
}

}  // namespace bench
