/*
 * What the documentation's example programs share and do not show: checks that end the
 * program with a message, a small host CSR matrix, and the host products that check the
 * GPU's answers. Not part of tcsparse; copy what you need.
 */
#ifndef TCS_SNIPPET_UTIL_H_
#define TCS_SNIPPET_UTIL_H_

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcsparse.h"

/* [check] */
/* Every tcsparse call returns a status; an example simply stops on the first failure. */
#define CHECK_TCS(call)                                                                   \
    do {                                                                                  \
        const tcsStatus_t status_ = (call);                                               \
        if (status_ != TCS_STATUS_SUCCESS) {                                              \
            fprintf(stderr, "%s:%d: %s -> %s (%s)\n", __FILE__, __LINE__, #call,          \
                    tcsGetErrorName(status_), tcsGetErrorString(status_));                \
            exit(EXIT_FAILURE);                                                           \
        }                                                                                 \
    } while (0)
/* [check] */

#define CHECK_CUDA(call)                                                                  \
    do {                                                                                  \
        const cudaError_t error_ = (call);                                                \
        if (error_ != cudaSuccess) {                                                      \
            fprintf(stderr, "%s:%d: %s -> %s\n", __FILE__, __LINE__, #call,               \
                    cudaGetErrorString(error_));                                          \
            exit(EXIT_FAILURE);                                                           \
        }                                                                                 \
    } while (0)

/* Exit status of an example that found no GPU: ctest reports it as skipped. */
#define SNIPPET_NO_GPU 77

static inline void* snippet_malloc(size_t bytes) {
    void* p = malloc(bytes > 0 ? bytes : 1);
    if (p == NULL) {
        fprintf(stderr, "out of host memory\n");
        exit(EXIT_FAILURE);
    }
    return p;
}

/* A host CSR matrix: 0-based, 32-bit indices, double values, sorted columns. */
typedef struct {
    int rows, cols, nnz;
    int* row_ptr;
    int* col;
    double* val;
} host_csr;

static inline void host_csr_free(host_csr* m) {
    free(m->row_ptr);
    free(m->col);
    free(m->val);
    memset(m, 0, sizeof *m);
}

/* The 5-point Laplacian of an nx x nx grid, with values varied a little so that a
 * wrong index shows in the product. */
static inline host_csr laplacian_2d(int nx) {
    host_csr a;
    a.rows = a.cols = nx * nx;
    a.row_ptr = (int*)snippet_malloc(sizeof(int) * (size_t)(a.rows + 1));
    a.col = (int*)snippet_malloc(sizeof(int) * (size_t)a.rows * 5);
    a.val = (double*)snippet_malloc(sizeof(double) * (size_t)a.rows * 5);
    a.nnz = 0;
    for (int i = 0; i < a.rows; ++i) {
        const int x = i % nx, y = i / nx;
        const int neighbours[5] = {y > 0 ? i - nx : -1, x > 0 ? i - 1 : -1, i,
                                   x < nx - 1 ? i + 1 : -1, y < nx - 1 ? i + nx : -1};
        a.row_ptr[i] = a.nnz;
        for (int t = 0; t < 5; ++t) {
            if (neighbours[t] < 0) continue;
            a.col[a.nnz] = neighbours[t];
            a.val[a.nnz] = neighbours[t] == i ? 4.0 + (i % 3) : -1.0 - (neighbours[t] % 5) / 10.0;
            ++a.nnz;
        }
    }
    a.row_ptr[a.rows] = a.nnz;
    return a;
}

/* C = A * B on the host with the symbolic pattern (products that cancel stay as
 * zeros), sorted columns: what the GPU must reproduce. */
static inline host_csr host_spgemm(const host_csr* a, const host_csr* b) {
    host_csr c;
    c.rows = a->rows;
    c.cols = b->cols;
    double* acc = (double*)snippet_malloc(sizeof(double) * (size_t)b->cols);
    char* used = (char*)snippet_malloc((size_t)b->cols);
    memset(used, 0, (size_t)b->cols);
    c.row_ptr = (int*)snippet_malloc(sizeof(int) * (size_t)(c.rows + 1));
    size_t capacity = (size_t)a->nnz + 16;
    c.col = (int*)snippet_malloc(sizeof(int) * capacity);
    c.val = (double*)snippet_malloc(sizeof(double) * capacity);
    c.nnz = 0;
    for (int i = 0; i < a->rows; ++i) {
        c.row_ptr[i] = c.nnz;
        for (int p = a->row_ptr[i]; p < a->row_ptr[i + 1]; ++p)
            for (int q = b->row_ptr[a->col[p]]; q < b->row_ptr[a->col[p] + 1]; ++q) {
                if (!used[b->col[q]]) acc[b->col[q]] = 0.0;
                used[b->col[q]] = 1;
                acc[b->col[q]] += a->val[p] * b->val[q];
            }
        for (int j = 0; j < b->cols; ++j) { /* O(cols) per row: fine for examples */
            if (!used[j]) continue;
            if ((size_t)c.nnz == capacity) {
                capacity *= 2;
                c.col = (int*)realloc(c.col, sizeof(int) * capacity);
                c.val = (double*)realloc(c.val, sizeof(double) * capacity);
                if (c.col == NULL || c.val == NULL) exit(EXIT_FAILURE);
            }
            c.col[c.nnz] = j;
            c.val[c.nnz] = acc[j];
            ++c.nnz;
            used[j] = 0;
        }
    }
    c.row_ptr[c.rows] = c.nnz;
    free(acc);
    free(used);
    return c;
}

/* Compares C's device arrays with the host reference: same pattern, values within a
 * relative 1e-12. Returns 0 when they agree. */
static inline int check_device_csr(const host_csr* ref, const int* d_row_ptr, const int* d_col,
                                   const double* d_val) {
    int* row_ptr = (int*)snippet_malloc(sizeof(int) * (size_t)(ref->rows + 1));
    int* col = (int*)snippet_malloc(sizeof(int) * (size_t)ref->nnz);
    double* val = (double*)snippet_malloc(sizeof(double) * (size_t)ref->nnz);
    CHECK_CUDA(cudaMemcpy(row_ptr, d_row_ptr, sizeof(int) * (size_t)(ref->rows + 1),
                          cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(col, d_col, sizeof(int) * (size_t)ref->nnz, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(val, d_val, sizeof(double) * (size_t)ref->nnz, cudaMemcpyDeviceToHost));
    int bad = memcmp(row_ptr, ref->row_ptr, sizeof(int) * (size_t)(ref->rows + 1)) != 0 ||
              memcmp(col, ref->col, sizeof(int) * (size_t)ref->nnz) != 0;
    for (int p = 0; !bad && p < ref->nnz; ++p)
        bad = fabs(val[p] - ref->val[p]) > 1e-12 * (fabs(ref->val[p]) + 1.0);
    free(row_ptr);
    free(col);
    free(val);
    return bad;
}

/* C = alpha * A * B on the host, B (a.cols x n) and C (a.rows x n) dense row-major.
 * Returns the largest |C - gpu| relative to |alpha| * sum |a_ik * b_kj| + 1e-300. */
static inline double host_spmm_error(const host_csr* a, const double* b, int n, double alpha,
                                     const double* gpu) {
    double worst = 0.0;
    for (int i = 0; i < a->rows; ++i)
        for (int j = 0; j < n; ++j) {
            double sum = 0.0, magnitude = 0.0;
            for (int p = a->row_ptr[i]; p < a->row_ptr[i + 1]; ++p) {
                sum += a->val[p] * b[(size_t)a->col[p] * (size_t)n + (size_t)j];
                magnitude += fabs(a->val[p] * b[(size_t)a->col[p] * (size_t)n + (size_t)j]);
            }
            const double error = fabs(alpha * sum - gpu[(size_t)i * (size_t)n + (size_t)j]) /
                                 (fabs(alpha) * magnitude + 1e-300);
            if (error > worst) worst = error;
        }
    return worst;
}

/* A new device array holding a copy of `bytes` bytes of host memory. */
static inline void* to_device(const void* host, size_t bytes) {
    void* d = NULL;
    CHECK_CUDA(cudaMalloc(&d, bytes > 0 ? bytes : 1));
    CHECK_CUDA(cudaMemcpy(d, host, bytes, cudaMemcpyHostToDevice));
    return d;
}

#endif /* TCS_SNIPPET_UTIL_H_ */
