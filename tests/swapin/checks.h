/* The checks of the swap-in programs written against <cusparse.h>: FAIL counts a failed
 * check in `failures` and goes on; CU and CUDA stop the program on a call that fails.
 * Define SWAPIN_PROGRAM (the name the messages start with) before including. */
#ifndef TCS_SWAPIN_CHECKS_H
#define TCS_SWAPIN_CHECKS_H

#include <cusparse.h>

#include <cuda_runtime_api.h>

#include <stdio.h>
#include <stdlib.h>

static int failures;

#define FAIL(...)                                                                        \
    do {                                                                                 \
        fprintf(stderr, SWAPIN_PROGRAM ": line %d: ", __LINE__);                         \
        fprintf(stderr, __VA_ARGS__);                                                    \
        fprintf(stderr, "\n");                                                           \
        ++failures;                                                                      \
    } while (0)

#define CU(call)                                                                         \
    do {                                                                                 \
        const cusparseStatus_t s_ = (call);                                              \
        if (s_ != CUSPARSE_STATUS_SUCCESS) {                                             \
            fprintf(stderr, SWAPIN_PROGRAM ": line %d: %s returned %s\n", __LINE__,      \
                    #call, cusparseGetErrorName(s_));                                    \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

#define CUDA(call)                                                                       \
    do {                                                                                 \
        const cudaError_t e_ = (call);                                                   \
        if (e_ != cudaSuccess) {                                                         \
            fprintf(stderr, SWAPIN_PROGRAM ": line %d: %s: %s\n", __LINE__, #call,       \
                    cudaGetErrorString(e_));                                             \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

#endif
