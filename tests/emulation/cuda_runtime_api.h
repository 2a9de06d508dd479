/* The CUDA runtime API calls the emulation provides (runtime.cpp), for C and C++:
 * "device" memory is host memory, the one "device" is H100-like with 2 SMs (small
 * grids; the kernels loop over their rows). */
#ifndef TCS_EMU_CUDA_RUNTIME_API_H_
#define TCS_EMU_CUDA_RUNTIME_API_H_

#include "driver_types.h"

/* Function qualifiers vanish (as the real header's host_defines.h would define them). */
#define __host__
#define __device__
#define __global__
#define __forceinline__ inline

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t cudaMalloc(void** p, size_t bytes);
cudaError_t cudaFree(void* p);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, enum cudaMemcpyKind kind);
cudaError_t cudaMemset(void* p, int value, size_t bytes);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, enum cudaMemcpyKind kind,
                            cudaStream_t stream);
cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                              size_t height, enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t cudaMemsetAsync(void* p, int value, size_t bytes, cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus* status);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp* prop, int device);
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char* cudaGetErrorString(cudaError_t e);
const char* cudaGetErrorName(cudaError_t e);

#ifdef __cplusplus
}
#endif

#endif
