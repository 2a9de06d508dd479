/* The CUDA runtime types the emulation needs (see cuda_runtime.h), for C and C++. */
#ifndef TCS_EMU_DRIVER_TYPES_H_
#define TCS_EMU_DRIVER_TYPES_H_

#include <stddef.h>

typedef struct CUstream_st* cudaStream_t;

typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorInsufficientDriver = 35,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorNoDevice = 100,
    cudaErrorNoKernelImageForDevice = 209,
    cudaErrorUnsupportedPtxVersion = 222
} cudaError_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};

enum cudaStreamCaptureStatus {
    cudaStreamCaptureStatusNone = 0,
    cudaStreamCaptureStatusActive = 1,
    cudaStreamCaptureStatusInvalidated = 2
};

struct cudaDeviceProp {
    int multiProcessorCount, major, minor;
    size_t sharedMemPerBlockOptin, sharedMemPerMultiprocessor;
    int l2CacheSize, maxThreadsPerMultiProcessor;
};

#endif
