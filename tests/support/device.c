/* Device helpers over the CUDA runtime: GPU detection, uploads, poisoned outputs and
 * memory accounting. Every CUDA call is checked; a failure is reported on stderr and
 * returned, never fatal, so a test can fail cleanly. */
#include "internal.h"

#include <cuda_runtime_api.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cuda_ok(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return 1;
    fprintf(stderr, "tcst: %s: %s (%s)\n", what, cudaGetErrorString(e), cudaGetErrorName(e));
    (void)cudaGetLastError(); /* clear it, so the next call does not report it again */
    return 0;
}

int tcst_gpu_available(void) {
    int count = 0;
    /* Without a driver this returns cudaErrorInsufficientDriver or NoDevice; any error
     * at all means there is nothing to test on. */
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return count > 0;
}

/* cudaMalloc + cudaMemcpy of bytes from host; *dst is NULL when bytes is 0. */
static int upload(void** dst, const void* src, size_t bytes, const char* what) {
    *dst = NULL;
    if (bytes == 0) return 0;
    if (!cuda_ok(cudaMalloc(dst, bytes), what)) {
        *dst = NULL;
        return -1;
    }
    if (!cuda_ok(cudaMemcpy(*dst, src, bytes, cudaMemcpyHostToDevice), what)) {
        (void)cudaFree(*dst);
        *dst = NULL;
        return -1;
    }
    return 0;
}

int tcst_csr_upload(const tcst_csr* m, int base, int is_double, int** d_rp, int** d_ci,
                    void** d_val) {
    if (d_rp == NULL || d_ci == NULL || d_val == NULL) return -1;
    *d_rp = NULL;
    *d_ci = NULL;
    *d_val = NULL;
    if (m == NULL || m->row_ptr == NULL || (base != 0 && base != 1)) return -1;
    const size_t n_rp = (size_t)m->rows + 1, nnz = (size_t)m->nnz;
    const size_t vbytes = is_double ? sizeof(double) : sizeof(float);
    size_t stage_bytes = n_rp * sizeof(int);
    if (nnz * vbytes > stage_bytes) stage_bytes = nnz * vbytes;
    void* stage = malloc(stage_bytes);
    if (stage == NULL) return -1;
    int* si = (int*)stage;
    int rc = 0;
    for (size_t i = 0; i < n_rp; ++i) si[i] = m->row_ptr[i] + base;
    rc = upload((void**)d_rp, stage, n_rp * sizeof(int), "cudaMalloc/cudaMemcpy of row offsets");
    if (rc == 0) {
        for (size_t e = 0; e < nnz; ++e) si[e] = m->col_idx[e] + base;
        rc = upload((void**)d_ci, stage, nnz * sizeof(int), "cudaMalloc/cudaMemcpy of columns");
    }
    if (rc == 0) {
        if (is_double) {
            memcpy(stage, m->val, nnz * sizeof(double));
        } else {
            float* sf = (float*)stage;
            for (size_t e = 0; e < nnz; ++e) sf[e] = (float)m->val[e];
        }
        rc = upload(d_val, stage, nnz * vbytes, "cudaMalloc/cudaMemcpy of values");
    }
    free(stage);
    if (rc != 0) {
        tcst_device_free(*d_rp);
        tcst_device_free(*d_ci);
        tcst_device_free(*d_val);
        *d_rp = NULL;
        *d_ci = NULL;
        *d_val = NULL;
    }
    return rc;
}

int tcst_csr_upload_indices(const tcst_csr* m, int base, int wide, void** d_rp, void** d_ci) {
    if (d_rp == NULL || d_ci == NULL) return -1;
    *d_rp = NULL;
    *d_ci = NULL;
    if (m == NULL || m->row_ptr == NULL || (base != 0 && base != 1)) return -1;
    const size_t n_rp = (size_t)m->rows + 1, nnz = (size_t)m->nnz;
    const size_t bytes = wide ? sizeof(int64_t) : sizeof(int);
    int64_t* stage64 = (int64_t*)malloc((n_rp > nnz ? n_rp : nnz) * sizeof(int64_t));
    if (stage64 == NULL) return -1;
    int* stage32 = (int*)stage64;
    for (size_t i = 0; i < n_rp; ++i) {
        if (wide)
            stage64[i] = (int64_t)m->row_ptr[i] + base;
        else
            stage32[i] = m->row_ptr[i] + base;
    }
    int rc = upload(d_rp, stage64, n_rp * bytes, "cudaMalloc/cudaMemcpy of row offsets");
    if (rc == 0) {
        for (size_t e = 0; e < nnz; ++e) {
            if (wide)
                stage64[e] = (int64_t)m->col_idx[e] + base;
            else
                stage32[e] = m->col_idx[e] + base;
        }
        rc = upload(d_ci, stage64, nnz * bytes, "cudaMalloc/cudaMemcpy of columns");
    }
    free(stage64);
    if (rc != 0) {
        tcst_device_free(*d_rp);
        *d_rp = NULL;
    }
    return rc;
}

int tcst_device_download_indices(int* host, const void* device, int64_t count, int wide) {
    if (count <= 0) return 0;
    if (!wide) return tcst_device_download(host, device, (size_t)count * sizeof(int));
    int64_t* stage = (int64_t*)malloc((size_t)count * sizeof(int64_t));
    if (stage == NULL) return -1;
    int rc = tcst_device_download(stage, device, (size_t)count * sizeof(int64_t));
    for (int64_t i = 0; rc == 0 && i < count; ++i) {
        if (stage[i] != (int64_t)(int)stage[i]) {
            fprintf(stderr, "tcst: 64-bit index %lld at %lld does not fit 32 bits\n",
                    (long long)stage[i], (long long)i);
            rc = -1;
        }
        host[i] = (int)stage[i];
    }
    free(stage);
    return rc;
}

int tcst_device_download(void* host, const void* device, size_t bytes) {
    if (bytes == 0) return 0;
    if (host == NULL || device == NULL) return -1;
    return cuda_ok(cudaMemcpy(host, device, bytes, cudaMemcpyDeviceToHost),
                   "cudaMemcpy device to host")
               ? 0
               : -1;
}

void* tcst_device_poisoned(size_t bytes) {
    if (bytes == 0) return NULL;
    void* p = NULL;
    if (!cuda_ok(cudaMalloc(&p, bytes), "cudaMalloc")) return NULL;
    /* Synchronized, so the poison is in place before work on any stream (also a
     * non-blocking one) can read it. */
    if (!cuda_ok(cudaMemset(p, 0xFF, bytes), "cudaMemset") ||
        !cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize after cudaMemset")) {
        (void)cudaFree(p);
        return NULL;
    }
    return p;
}

void tcst_device_free(void* p) {
    if (p != NULL) (void)cuda_ok(cudaFree(p), "cudaFree");
}

size_t tcst_device_used_bytes(void) {
    size_t free_bytes = 0, total = 0;
    if (!cuda_ok(cudaMemGetInfo(&free_bytes, &total), "cudaMemGetInfo")) return 0;
    return total - free_bytes;
}
