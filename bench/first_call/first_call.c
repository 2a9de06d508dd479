/*
 * tcs_first_call: what the first call of a process costs, beside the calls after it,
 * for tcsparse and cuSPARSE in one process (the CUDA context made before either).
 *
 * CUDA loads a kernel's module at its first launch (lazy loading, the default), and a
 * module is loaded whole: a solver that multiplies a few hundred times pays the first
 * call's load in full. Google Benchmark's warm-up hides it, so tcs_bench cannot show it.
 *
 *   tcs_first_call [N]   N^3 7-point Laplacian (default 100), fp64, prints one line per
 *                        measurement: the first call's host time and call + sync, then
 *                        the median of 200 calls after 10 more (each synchronized, as a
 *                        Krylov solver's reduction does)
 *
 * SpMV y = A x (device scalars, as PETSc passes them) and the SpGEMM pipeline C = A*A
 * (workEstimation twice, compute twice, copy: cuSPARSE's ALG1 protocol; tcsparse's
 * DEFAULT). Run it once with CUDA_MODULE_LOADING=EAGER to see the loads move out of
 * the calls. Exit: 0 done, 1 a call failed, 77 no GPU.
 */
#include <cuda_runtime_api.h>
#include <cusparse.h>

#include "tcsparse.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define REPEATS 200

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return 1e6 * (double)t.tv_sec + 1e-3 * (double)t.tv_nsec;
}

static int compare_doubles(const void* a, const void* b) {
    const double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

#define CHECK(call)                                                                     \
    do {                                                                                \
        if ((int)(call) != 0) {                                                         \
            fprintf(stderr, "tcs_first_call: line %d: %s returned %d\n", __LINE__, #call, \
                    (int)(call));                                                       \
            exit(1);                                                                    \
        }                                                                               \
    } while (0)

typedef struct {
    int n, rows, nnz;
    int *rp, *ci;
    double* val;
} laplacian;

/* The 7-point Laplacian of an n^3 grid, columns sorted; values 6 and -1. */
static laplacian make_laplacian(int n) {
    laplacian l;
    l.n = n;
    l.rows = n * n * n;
    l.rp = (int*)malloc(((size_t)l.rows + 1) * sizeof(int));
    l.ci = (int*)malloc((size_t)l.rows * 7 * sizeof(int));
    l.val = (double*)malloc((size_t)l.rows * 7 * sizeof(double));
    int k = 0;
    for (int i = 0; i < l.rows; ++i) {
        const int z = i / (n * n), y = (i / n) % n, x = i % n;
        const int nb[7] = {z > 0 ? i - n * n : -1, y > 0 ? i - n : -1, x > 0 ? i - 1 : -1, i,
                           x < n - 1 ? i + 1 : -1, y < n - 1 ? i + n : -1,
                           z < n - 1 ? i + n * n : -1};
        l.rp[i] = k;
        for (int j = 0; j < 7; ++j)
            if (nb[j] >= 0) {
                l.ci[k] = nb[j];
                l.val[k++] = nb[j] == i ? 6.0 : -1.0;
            }
    }
    l.rp[l.rows] = l.nnz = k;
    return l;
}

static void* upload(const void* host, size_t bytes) {
    void* d = NULL;
    CHECK(cudaMalloc(&d, bytes > 0 ? bytes : 1));
    if (host != NULL) CHECK(cudaMemcpy(d, host, bytes, cudaMemcpyHostToDevice));
    return d;
}

typedef struct {
    double first_host, first_sync, median_sync;
} timing;

static void report(const char* lib, const char* what, const laplacian* l, timing t) {
    printf("%-9s %-7s n=%d rows=%d nnz=%d: first call %.1f us host, %.1f us with sync; "
           "then %.1f us per call with sync (median of %d)\n",
           lib, what, l->n, l->rows, l->nnz, t.first_host, t.first_sync, t.median_sync, REPEATS);
}

/* Times `call` (a function of one context pointer): the first run, then REPEATS runs
 * after 10 unrecorded ones. */
static timing time_calls(void (*call)(void*), void* ctx, cudaStream_t s) {
    static double samples[REPEATS];
    timing t;
    CHECK(cudaStreamSynchronize(s));
    double t0 = now_us();
    call(ctx);
    t.first_host = now_us() - t0;
    CHECK(cudaStreamSynchronize(s));
    t.first_sync = now_us() - t0;
    for (int i = 0; i < 10 + REPEATS; ++i) {
        t0 = now_us();
        call(ctx);
        CHECK(cudaStreamSynchronize(s));
        if (i >= 10) samples[i - 10] = now_us() - t0;
    }
    qsort(samples, REPEATS, sizeof samples[0], compare_doubles);
    t.median_sync = samples[REPEATS / 2];
    return t;
}

/* ---- tcsparse ---- */

typedef struct {
    tcsHandle_t h;
    tcsSpMatDescr_t a, c;
    tcsDnVecDescr_t x, y;
    const double *one, *zero; /* device */
    void* buffer;
    void* c_rp;
    int64_t rows;
} tcs_ctx;

static void tcs_spmv(void* p) {
    tcs_ctx* k = (tcs_ctx*)p;
    CHECK(tcsSpMV(k->h, TCS_OPERATION_NON_TRANSPOSE, k->one, k->a, k->x, k->zero, k->y,
                  CUDA_R_64F, TCS_SPMV_CSR_ALG1, k->buffer));
}

/* The pipeline with its allocations, as a caller pays them. */
static void tcs_spgemm(void* p) {
    tcs_ctx* k = (tcs_ctx*)p;
    const double one = 1.0, zero = 0.0;
    const tcsOperation_t n = TCS_OPERATION_NON_TRANSPOSE;
    tcsSpGEMMDescr_t g;
    size_t b1 = 0, b2 = 0;
    void *w1 = NULL, *w2 = NULL;
    int64_t rows, cols, nnz;
    CHECK(tcsSetPointerMode(k->h, TCS_POINTER_MODE_HOST));
    CHECK(tcsCreateCsr(&k->c, k->rows, k->rows, 0, k->c_rp, NULL, NULL, TCS_INDEX_32I,
                       TCS_INDEX_32I, TCS_INDEX_BASE_ZERO, CUDA_R_64F));
    CHECK(tcsSpGEMM_createDescr(&g));
    CHECK(tcsSpGEMM_workEstimation(k->h, n, n, &one, k->a, k->a, &zero, k->c, CUDA_R_64F,
                                   TCS_SPGEMM_DEFAULT, g, &b1, NULL));
    w1 = upload(NULL, b1);
    CHECK(tcsSpGEMM_workEstimation(k->h, n, n, &one, k->a, k->a, &zero, k->c, CUDA_R_64F,
                                   TCS_SPGEMM_DEFAULT, g, &b1, w1));
    CHECK(tcsSpGEMM_compute(k->h, n, n, &one, k->a, k->a, &zero, k->c, CUDA_R_64F,
                            TCS_SPGEMM_DEFAULT, g, &b2, NULL));
    w2 = upload(NULL, b2);
    CHECK(tcsSpGEMM_compute(k->h, n, n, &one, k->a, k->a, &zero, k->c, CUDA_R_64F,
                            TCS_SPGEMM_DEFAULT, g, &b2, w2));
    CHECK(tcsSpMatGetSize(k->c, &rows, &cols, &nnz));
    void* ci = upload(NULL, (size_t)nnz * sizeof(int));
    void* val = upload(NULL, (size_t)nnz * sizeof(double));
    CHECK(tcsCsrSetPointers(k->c, k->c_rp, ci, val));
    CHECK(tcsSpGEMM_copy(k->h, n, n, &one, k->a, k->a, &zero, k->c, CUDA_R_64F,
                         TCS_SPGEMM_DEFAULT, g));
    CHECK(tcsSpGEMM_destroyDescr(g));
    CHECK(tcsDestroySpMat(k->c));
    CHECK(cudaFree(ci));
    CHECK(cudaFree(val));
    CHECK(cudaFree(w1));
    CHECK(cudaFree(w2));
    CHECK(tcsSetPointerMode(k->h, TCS_POINTER_MODE_DEVICE));
}

static void run_tcsparse(const laplacian* l, const void* rp, const void* ci, const void* val,
                         double* x, double* y, const double* scalars, cudaStream_t s) {
    tcs_ctx k = {0};
    k.one = scalars, k.zero = scalars + 1;
    CHECK(tcsCreate(&k.h));
    CHECK(tcsSetStream(k.h, s));
    CHECK(tcsSetPointerMode(k.h, TCS_POINTER_MODE_DEVICE));
    CHECK(tcsCreateCsr(&k.a, l->rows, l->rows, l->nnz, (void*)rp, (void*)ci, (void*)val,
                       TCS_INDEX_32I, TCS_INDEX_32I, TCS_INDEX_BASE_ZERO, CUDA_R_64F));
    CHECK(tcsCreateDnVec(&k.x, l->rows, x, CUDA_R_64F));
    CHECK(tcsCreateDnVec(&k.y, l->rows, y, CUDA_R_64F));
    size_t bytes = 0;
    CHECK(tcsSpMV_bufferSize(k.h, TCS_OPERATION_NON_TRANSPOSE, k.one, k.a, k.x, k.zero, k.y,
                             CUDA_R_64F, TCS_SPMV_CSR_ALG1, &bytes));
    k.buffer = upload(NULL, bytes);
    CHECK(tcsSpMV_preprocess(k.h, TCS_OPERATION_NON_TRANSPOSE, k.one, k.a, k.x, k.zero, k.y,
                             CUDA_R_64F, TCS_SPMV_CSR_ALG1, k.buffer));
    report("tcsparse", "SpMV", l, time_calls(tcs_spmv, &k, s));

    k.c_rp = upload(NULL, ((size_t)l->rows + 1) * sizeof(int));
    k.rows = l->rows;
    report("tcsparse", "SpGEMM", l, time_calls(tcs_spgemm, &k, s));
    CHECK(tcsDestroySpMat(k.a));
    CHECK(tcsDestroyDnVec(k.x));
    CHECK(tcsDestroyDnVec(k.y));
    CHECK(tcsDestroy(k.h));
    CHECK(cudaFree(k.buffer));
    CHECK(cudaFree(k.c_rp));
}

/* ---- cuSPARSE ---- */

typedef struct {
    cusparseHandle_t h;
    cusparseSpMatDescr_t a, c;
    cusparseDnVecDescr_t x, y;
    const double *one, *zero;
    void* buffer;
    void* c_rp;
    int64_t rows;
} cus_ctx;

static void cus_spmv(void* p) {
    cus_ctx* k = (cus_ctx*)p;
    CHECK(cusparseSpMV(k->h, CUSPARSE_OPERATION_NON_TRANSPOSE, k->one, k->a, k->x, k->zero,
                       k->y, CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG1, k->buffer));
}

static void cus_spgemm(void* p) {
    cus_ctx* k = (cus_ctx*)p;
    const double one = 1.0, zero = 0.0;
    const cusparseOperation_t n = CUSPARSE_OPERATION_NON_TRANSPOSE;
    cusparseSpGEMMDescr_t g;
    size_t b1 = 0, b2 = 0;
    void *w1 = NULL, *w2 = NULL;
    int64_t rows, cols, nnz;
    CHECK(cusparseSetPointerMode(k->h, CUSPARSE_POINTER_MODE_HOST));
    CHECK(cusparseCreateCsr(&k->c, k->rows, k->rows, 0, k->c_rp, NULL, NULL,
                            CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                            CUDA_R_64F));
    CHECK(cusparseSpGEMM_createDescr(&g));
    CHECK(cusparseSpGEMM_workEstimation(k->h, n, n, &one, k->a, k->a, &zero, k->c, CUDA_R_64F,
                                        CUSPARSE_SPGEMM_DEFAULT, g, &b1, NULL));
    w1 = upload(NULL, b1);
    CHECK(cusparseSpGEMM_workEstimation(k->h, n, n, &one, k->a, k->a, &zero, k->c, CUDA_R_64F,
                                        CUSPARSE_SPGEMM_DEFAULT, g, &b1, w1));
    CHECK(cusparseSpGEMM_compute(k->h, n, n, &one, k->a, k->a, &zero, k->c, CUDA_R_64F,
                                 CUSPARSE_SPGEMM_DEFAULT, g, &b2, NULL));
    w2 = upload(NULL, b2);
    CHECK(cusparseSpGEMM_compute(k->h, n, n, &one, k->a, k->a, &zero, k->c, CUDA_R_64F,
                                 CUSPARSE_SPGEMM_DEFAULT, g, &b2, w2));
    CHECK(cusparseSpMatGetSize(k->c, &rows, &cols, &nnz));
    void* ci = upload(NULL, (size_t)nnz * sizeof(int));
    void* val = upload(NULL, (size_t)nnz * sizeof(double));
    CHECK(cusparseCsrSetPointers(k->c, k->c_rp, ci, val));
    CHECK(cusparseSpGEMM_copy(k->h, n, n, &one, k->a, k->a, &zero, k->c, CUDA_R_64F,
                              CUSPARSE_SPGEMM_DEFAULT, g));
    CHECK(cusparseSpGEMM_destroyDescr(g));
    CHECK(cusparseDestroySpMat(k->c));
    CHECK(cudaFree(ci));
    CHECK(cudaFree(val));
    CHECK(cudaFree(w1));
    CHECK(cudaFree(w2));
    CHECK(cusparseSetPointerMode(k->h, CUSPARSE_POINTER_MODE_DEVICE));
}

static void run_cusparse(const laplacian* l, void* rp, void* ci, void* val, double* x,
                         double* y, const double* scalars, cudaStream_t s) {
    cus_ctx k = {0};
    k.one = scalars, k.zero = scalars + 1;
    CHECK(cusparseCreate(&k.h));
    CHECK(cusparseSetStream(k.h, s));
    CHECK(cusparseSetPointerMode(k.h, CUSPARSE_POINTER_MODE_DEVICE));
    CHECK(cusparseCreateCsr(&k.a, l->rows, l->rows, l->nnz, rp, ci, val, CUSPARSE_INDEX_32I,
                            CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    CHECK(cusparseCreateDnVec(&k.x, l->rows, x, CUDA_R_64F));
    CHECK(cusparseCreateDnVec(&k.y, l->rows, y, CUDA_R_64F));
    size_t bytes = 0;
    CHECK(cusparseSpMV_bufferSize(k.h, CUSPARSE_OPERATION_NON_TRANSPOSE, k.one, k.a, k.x,
                                  k.zero, k.y, CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG1, &bytes));
    k.buffer = upload(NULL, bytes);
    CHECK(cusparseSpMV_preprocess(k.h, CUSPARSE_OPERATION_NON_TRANSPOSE, k.one, k.a, k.x,
                                  k.zero, k.y, CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG1, k.buffer));
    report("cuSPARSE", "SpMV", l, time_calls(cus_spmv, &k, s));

    k.c_rp = upload(NULL, ((size_t)l->rows + 1) * sizeof(int));
    k.rows = l->rows;
    report("cuSPARSE", "SpGEMM", l, time_calls(cus_spgemm, &k, s));
    CHECK(cusparseDestroySpMat(k.a));
    CHECK(cusparseDestroyDnVec(k.x));
    CHECK(cusparseDestroyDnVec(k.y));
    CHECK(cusparseDestroy(k.h));
    CHECK(cudaFree(k.buffer));
    CHECK(cudaFree(k.c_rp));
}

int main(int argc, char** argv) {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        fprintf(stderr, "tcs_first_call: no CUDA GPU\n");
        return 77;
    }
    const int n = argc > 1 ? atoi(argv[1]) : 100;
    if (n < 2 || n > 400) {
        fprintf(stderr, "usage: tcs_first_call [N in 2..400]\n");
        return 2;
    }
    const laplacian l = make_laplacian(n);
    void* rp = upload(l.rp, ((size_t)l.rows + 1) * sizeof(int));
    void* ci = upload(l.ci, (size_t)l.nnz * sizeof(int));
    void* val = upload(l.val, (size_t)l.nnz * sizeof(double));
    double* x = (double*)upload(l.val, (size_t)l.rows * sizeof(double)); /* any values */
    double* y = (double*)upload(NULL, (size_t)l.rows * sizeof(double));
    const double scalars_host[2] = {1.0, 0.0};
    const double* scalars = (const double*)upload(scalars_host, sizeof scalars_host);
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    const char* loading = getenv("CUDA_MODULE_LOADING");
    printf("CUDA_MODULE_LOADING=%s\n", loading != NULL ? loading : "(unset: LAZY)");
    run_tcsparse(&l, rp, ci, val, x, y, scalars, s);
    run_cusparse(&l, rp, ci, val, x, y, scalars, s);
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(rp));
    CHECK(cudaFree(ci));
    CHECK(cudaFree(val));
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    CHECK(cudaFree((void*)scalars));
    free(l.rp), free(l.ci), free(l.val);
    return 0;
}
