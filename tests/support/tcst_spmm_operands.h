/*
 * The dense operands and the scalars of an SpMM, as gpu_spmm_csr and gpu_spmm_blocks set
 * them up (include after <cmocka.h>, "tcsparse.h" and "tcs_test_support.h"): a dense
 * matrix inside a device allocation of 0xFF bytes (NaN in every type), so that an entry
 * left unwritten or a write outside the matrix shows, with a host image of the whole
 * allocation to fill and to compare against; alpha and beta in host memory or copied to
 * the device. Header-only, like the other cmocka helpers here. Values are written with
 * tcst_value_put, in the matrix's type.
 */
#ifndef TCST_SPMM_OPERANDS_H_
#define TCST_SPMM_OPERANDS_H_

#include <cuda_runtime_api.h>
#include <library_types.h>

#include "tcst_status.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* malloc that fails the test where it returns NULL (bytes 0 allocates one). */
static inline void* tcst_xmalloc(size_t bytes) {
    void* p = malloc(bytes > 0 ? bytes : 1);
    assert_non_null(p);
    return p;
}

/* cudaMemcpy of host to device, then a device-wide wait: a pageable host-to-device
 * cudaMemcpy may return before its DMA completes, and work on a non-blocking stream (a
 * graph test's) is not ordered after it. */
static inline void tcst_upload_and_wait(void* dev, const void* host, size_t bytes) {
    CUDA_OK(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice));
    CUDA_OK(cudaDeviceSynchronize());
}

/* A rows x cols matrix inside an allocation of 0xFF bytes: `image` is the host copy of
 * the whole allocation; element (r, c) at offset + (row-major ? r*ld + c : r + c*ld). */
typedef struct {
    int64_t rows, cols, ld, offset;
    int row_major;
    cudaDataType type;
    size_t count; /* elements allocated */
    unsigned char* image;
    void* dev;
} tcst_dense;

static inline size_t tcst_dense_index(const tcst_dense* d, int64_t r, int64_t c) {
    return (size_t)(d->offset + (d->row_major ? r * d->ld + c : r + c * d->ld));
}

/* ld is the minimum plus `pad`; the matrix starts `offset` elements into the allocation
 * (off 16-byte alignment where offset is odd). Host image and device memory all 0xFF. */
static inline void tcst_dense_make(tcst_dense* d, int64_t rows, int64_t cols, int row_major, int pad,
                                   int offset, cudaDataType type) {
    d->rows = rows;
    d->cols = cols;
    d->row_major = row_major;
    d->ld = (row_major ? cols : rows) + pad;
    if (d->ld < 1) d->ld = 1;
    d->offset = offset;
    d->type = type;
    d->count = (size_t)((row_major ? rows : cols) * d->ld + offset);
    if (d->count == 0) d->count = 1;
    const size_t bytes = d->count * tcst_value_size(type);
    d->image = (unsigned char*)tcst_xmalloc(bytes);
    memset(d->image, 0xFF, bytes);
    d->dev = tcst_device_poisoned(bytes);
    assert_non_null(d->dev);
}

/* The host image over the whole device allocation, waited for. */
static inline void tcst_dense_upload(const tcst_dense* d) {
    tcst_upload_and_wait(d->dev, d->image, d->count * tcst_value_size(d->type));
}

/* The pointer a dense descriptor takes: the first element. */
static inline void* tcst_dense_values(const tcst_dense* d) {
    return (char*)d->dev + (size_t)d->offset * tcst_value_size(d->type);
}

/* Fills d's image with values uniform in [-1, 1) from rng, rounded to d's type, and
 * returns them column-major (leading dimension rows), as tcst_ref_spmm wants them. */
static inline double* tcst_dense_fill_random(tcst_dense* d, tcst_rng* rng) {
    double* host = (double*)tcst_xmalloc((size_t)(d->rows * d->cols) * sizeof(double));
    for (int64_t c = 0; c < d->cols; ++c)
        for (int64_t r = 0; r < d->rows; ++r) {
            const double v = tcst_value_rounded(tcst_rng_symmetric(rng), d->type);
            host[r + c * d->rows] = v;
            tcst_value_put(d->image, tcst_dense_index(d, r, c), d->type, v);
        }
    return host;
}

static inline void tcst_dense_free(tcst_dense* d) {
    free(d->image);
    tcst_device_free(d->dev);
}

/* alpha and beta in `type` (the compute type), in host memory and, where asked, copied
 * to the device. */
typedef struct {
    unsigned char host[16];
    void* dev;
} tcst_scalars;

static inline void tcst_scalars_make(tcst_scalars* s, cudaDataType type, double alpha, double beta,
                                     int on_device) {
    const size_t size = tcst_value_size(type);
    tcst_value_put(s->host, 0, type, alpha);
    tcst_value_put(s->host + size, 0, type, beta);
    s->dev = NULL;
    if (on_device) {
        CUDA_OK(cudaMalloc(&s->dev, 2 * size));
        tcst_upload_and_wait(s->dev, s->host, 2 * size);
    }
}

/* alpha (which 0) or beta (which 1), where the call reads it. */
static inline const void* tcst_scalar_ptr(const tcst_scalars* s, cudaDataType type, int which) {
    const size_t offset = (size_t)which * tcst_value_size(type);
    return s->dev != NULL ? (const void*)((const char*)s->dev + offset) : (const void*)(s->host + offset);
}

static inline void tcst_scalars_free(tcst_scalars* s) {
    if (s->dev != NULL) CUDA_OK(cudaFree(s->dev));
    s->dev = NULL;
}

#endif /* TCST_SPMM_OPERANDS_H_ */
