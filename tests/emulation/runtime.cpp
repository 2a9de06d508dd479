// The emulation's CUDA runtime calls (cuda_runtime_api.h) over host memory.
#include "cuda_runtime_api.h"

#include <cstdlib>
#include <cstring>

extern "C" {

cudaError_t cudaMalloc(void** p, size_t bytes) {
    *p = std::aligned_alloc(256, (bytes + 255) / 256 * 256 + 256);
    return *p != nullptr ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaFree(void* p) {
    std::free(p);
    return cudaSuccess;
}
cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, enum cudaMemcpyKind) {
    if (bytes != 0) std::memcpy(dst, src, bytes);
    return cudaSuccess;
}
cudaError_t cudaMemset(void* p, int value, size_t bytes) {
    if (bytes != 0) std::memset(p, value, bytes);
    return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, enum cudaMemcpyKind kind,
                            cudaStream_t) {
    return cudaMemcpy(dst, src, bytes, kind);
}
cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                              size_t height, enum cudaMemcpyKind kind, cudaStream_t) {
    if (width > dpitch || width > spitch) return cudaErrorInvalidValue;
    for (size_t r = 0; r < height; ++r)
        cudaMemcpy(static_cast<char*>(dst) + r * dpitch, static_cast<const char*>(src) + r * spitch, width, kind);
    return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void* p, int value, size_t bytes, cudaStream_t) {
    return cudaMemset(p, value, bytes);
}
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }
cudaError_t cudaStreamIsCapturing(cudaStream_t, enum cudaStreamCaptureStatus* status) {
    *status = cudaStreamCaptureStatusNone;
    return cudaSuccess;
}
cudaError_t cudaGetDeviceCount(int* count) {
    *count = 1;
    return cudaSuccess;
}
cudaError_t cudaGetDevice(int* device) {
    *device = 0;
    return cudaSuccess;
}
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp* prop, int) {
    prop->multiProcessorCount = 2;
    prop->major = 9;
    prop->minor = 0;
    prop->sharedMemPerBlockOptin = 232448;
    prop->sharedMemPerMultiprocessor = 233472;
    prop->l2CacheSize = 50 << 20;
    prop->maxThreadsPerMultiProcessor = 2048;
    return cudaSuccess;
}
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total) {
    *free_bytes = size_t(64) << 30;
    *total = size_t(80) << 30;
    return cudaSuccess;
}
cudaError_t cudaGetLastError(void) { return cudaSuccess; }
cudaError_t cudaPeekAtLastError(void) { return cudaSuccess; }
const char* cudaGetErrorString(cudaError_t) { return "emulated error"; }
const char* cudaGetErrorName(cudaError_t) { return "cudaErrorEmulated"; }

}  // extern "C"
