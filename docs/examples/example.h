/*
 * What the main example (spgemm_spmm_example.c) and its cuSPARSE comparison
 * (cusparse_comparison.c) share: a CSR matrix in device memory, the tcsparse calls the
 * comparison times, error checks and timing.
 */
#ifndef TCS_EXAMPLE_H_
#define TCS_EXAMPLE_H_

#include <tcsparse.h>

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define EXAMPLE_CHECK_CUDA(call)                                                             \
    do {                                                                                     \
        cudaError_t e_ = (call);                                                             \
        if (e_ != cudaSuccess) {                                                             \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,             \
                    cudaGetErrorString(e_));                                                 \
            exit(EXIT_FAILURE);                                                              \
        }                                                                                    \
    } while (0)

/* A rows x cols CSR matrix in device memory: 0-based, 32-bit indices, double values. */
typedef struct {
    int64_t rows, cols, nnz;
    int* row_ptr;
    int* col_idx;
    double* val;
} example_csr;

void example_csr_free(example_csr* m);

/* C = A*A through the whole SpGEMM protocol; *bytes receives the device memory the
 * protocol allocated (buffer1 + buffer2 + C's three arrays). */
example_csr example_spgemm(tcsHandle_t handle, const example_csr* a, size_t* bytes);

/* SpMM C = A*B with B (A.cols x n) and C (A.rows x n) row-major on the device: the
 * descriptors, the buffer and preprocess are made once, then each product is one
 * tcsSpMM call, as in a solver that multiplies by the same A many times. */
typedef struct {
    tcsHandle_t handle;
    tcsConstSpMatDescr_t a;
    tcsConstDnMatDescr_t b;
    tcsDnMatDescr_t c;
    void* buffer;
} example_spmm;

void example_spmm_prepare(example_spmm* s, tcsHandle_t handle, const example_csr* a,
                          const double* d_b, double* d_c, int64_t n);
void example_spmm_run(const example_spmm* s);
void example_spmm_release(example_spmm* s);

/* Median time in milliseconds of `runs` calls of op(ctx), measured with CUDA events on
 * the default stream (the stream of both libraries' handles here), after one untimed
 * warm-up call. */
double example_median_ms(void (*op)(void* ctx), void* ctx, int runs);

/* Times the same SpGEMM and SpMM through tcsparse and through cuSPARSE and prints both
 * (cusparse_comparison.c). */
void compare_with_cusparse(tcsHandle_t handle, const example_csr* a, const double* d_b,
                           double* d_c, int64_t n);

#endif
