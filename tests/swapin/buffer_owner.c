/*
 * The library that sized a buffer can use it (issue 38, item 12). A product call that
 * tcsparse sized may still go to the real cuSPARSE when it runs: with TCS_CHECK_INPUTS=1
 * (set by the test) while the stream is captured, tcsparse cannot check A and answers
 * NOT_SUPPORTED, and the shim hands the call over. So the shim's size queries must be
 * at least the real cuSPARSE's for the same call: checked here against the real library
 * opened beside the shim (RTLD_LOCAL) on its own handle and descriptors, for SpMV and
 * SpMM over algorithms, operations, orders and widths n, and for SpGEMM's
 * workEstimation. Then SpMV and SpMM captured in a graph through the shim (handed to
 * cuSPARSE with the shim-sized buffer) and replayed must meet the CPU reference.
 * Linked with libtcsparse_cusparse.so. Exits 77 without a GPU or the real cuSPARSE.
 */
#define _GNU_SOURCE
#include <cusparse.h>

#include <cuda_runtime_api.h>

#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tcs_test_support.h"

#define SWAPIN_PROGRAM "buffer_owner"
#include "checks.h"

/* The real library's functions this test calls directly. */
static struct {
    cusparseStatus_t (*create)(cusparseHandle_t*);
    cusparseStatus_t (*destroy)(cusparseHandle_t);
    cusparseStatus_t (*create_csr)(cusparseSpMatDescr_t*, int64_t, int64_t, int64_t, void*, void*,
                                   void*, cusparseIndexType_t, cusparseIndexType_t,
                                   cusparseIndexBase_t, cudaDataType);
    cusparseStatus_t (*destroy_spmat)(cusparseConstSpMatDescr_t);
    cusparseStatus_t (*create_dnmat)(cusparseDnMatDescr_t*, int64_t, int64_t, int64_t, void*,
                                     cudaDataType, cusparseOrder_t);
    cusparseStatus_t (*destroy_dnmat)(cusparseConstDnMatDescr_t);
    cusparseStatus_t (*create_dnvec)(cusparseDnVecDescr_t*, int64_t, void*, cudaDataType);
    cusparseStatus_t (*destroy_dnvec)(cusparseConstDnVecDescr_t);
    cusparseStatus_t (*spmv_size)(cusparseHandle_t, cusparseOperation_t, const void*,
                                  cusparseConstSpMatDescr_t, cusparseConstDnVecDescr_t, const void*,
                                  cusparseDnVecDescr_t, cudaDataType, cusparseSpMVAlg_t, size_t*);
    cusparseStatus_t (*spmm_size)(cusparseHandle_t, cusparseOperation_t, cusparseOperation_t,
                                  const void*, cusparseConstSpMatDescr_t, cusparseConstDnMatDescr_t,
                                  const void*, cusparseDnMatDescr_t, cudaDataType, cusparseSpMMAlg_t,
                                  size_t*);
} real;

/* The real cuSPARSE: TCS_CUSPARSE_LIBRARY's, else the build machine's toolkit's file,
 * else by its SONAME (a GPU machine's toolkit may keep it elsewhere). */
static const char* real_path = TCS_REAL_CUSPARSE;

static int open_real(void) {
    const char* candidates[] = {getenv("TCS_CUSPARSE_LIBRARY"), TCS_REAL_CUSPARSE, "libcusparse.so.12"};
    void* lib = NULL;
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0] && lib == NULL; ++i) {
        if (candidates[i] == NULL || candidates[i][0] == '\0') continue;
        lib = dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL);
        if (lib != NULL) real_path = candidates[i];
    }
    if (lib == NULL) return 0;
#define REAL(field, name) *(void**)&real.field = dlsym(lib, name)
    REAL(create, "cusparseCreate");
    REAL(destroy, "cusparseDestroy");
    REAL(create_csr, "cusparseCreateCsr");
    REAL(destroy_spmat, "cusparseDestroySpMat");
    REAL(create_dnmat, "cusparseCreateDnMat");
    REAL(destroy_dnmat, "cusparseDestroyDnMat");
    REAL(create_dnvec, "cusparseCreateDnVec");
    REAL(destroy_dnvec, "cusparseDestroyDnVec");
    REAL(spmv_size, "cusparseSpMV_bufferSize");
    REAL(spmm_size, "cusparseSpMM_bufferSize");
#undef REAL
    return real.create && real.destroy && real.create_csr && real.destroy_spmat &&
           real.create_dnmat && real.destroy_dnmat && real.create_dnvec && real.destroy_dnvec &&
           real.spmv_size && real.spmm_size;
}

static void* to_device(const void* host, size_t bytes) {
    void* d = NULL;
    CUDA(cudaMalloc(&d, bytes > 0 ? bytes : 1));
    if (bytes > 0) CUDA(cudaMemcpy(d, host, bytes, cudaMemcpyHostToDevice));
    return d;
}

typedef struct {
    tcst_csr a;
    int *rp, *ci;
    void* val; /* double */
} matrix;

/* Size queries: the shim's against the real library's, for every (algorithm, op, order,
 * n) of SpMM and (algorithm, op) of SpMV, fp64 and fp32 values of one pattern. */
static void check_sizes(cusparseHandle_t shim_h, cusparseHandle_t real_h, const matrix* m,
                        cudaDataType type, void* dense) {
    const int64_t rows = m->a.rows, cols = m->a.cols;
    cusparseSpMatDescr_t sa = NULL, ra = NULL;
    CU(cusparseCreateCsr(&sa, rows, cols, m->a.nnz, m->rp, m->ci, m->val, CUSPARSE_INDEX_32I,
                         CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, type));
    CU(real.create_csr(&ra, rows, cols, m->a.nnz, m->rp, m->ci, m->val, CUSPARSE_INDEX_32I,
                       CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, type));
    const double one = 1.0, zero = 0.0;
    const float one_f = 1.0f, zero_f = 0.0f;
    const void* alpha = type == CUDA_R_64F ? (const void*)&one : (const void*)&one_f;
    const void* beta = type == CUDA_R_64F ? (const void*)&zero : (const void*)&zero_f;
    const cusparseSpMVAlg_t mv_algs[] = {CUSPARSE_SPMV_ALG_DEFAULT, CUSPARSE_SPMV_CSR_ALG1,
                                         CUSPARSE_SPMV_CSR_ALG2};
    for (int op = 0; op < 2; ++op)
        for (size_t g = 0; g < sizeof mv_algs / sizeof mv_algs[0]; ++g) {
            const int64_t in = op ? rows : cols, out = op ? cols : rows;
            cusparseDnVecDescr_t sx, sy, rx, ry;
            CU(cusparseCreateDnVec(&sx, in, dense, type));
            CU(cusparseCreateDnVec(&sy, out, dense, type));
            CU(real.create_dnvec(&rx, in, dense, type));
            CU(real.create_dnvec(&ry, out, dense, type));
            size_t shim_bytes = 0, real_bytes = 0;
            const cusparseStatus_t s = cusparseSpMV_bufferSize(shim_h, (cusparseOperation_t)op, alpha, sa,
                                                               sx, beta, sy, type, mv_algs[g], &shim_bytes);
            const cusparseStatus_t r = real.spmv_size(real_h, (cusparseOperation_t)op, alpha, ra, rx,
                                                      beta, ry, type, mv_algs[g], &real_bytes);
            if (s == CUSPARSE_STATUS_SUCCESS && r == CUSPARSE_STATUS_SUCCESS && shim_bytes < real_bytes)
                FAIL("SpMV op %d alg %d type %d: the shim sizes %zu bytes, cuSPARSE needs %zu", op,
                     (int)mv_algs[g], (int)type, shim_bytes, real_bytes);
            CU(cusparseDestroyDnVec(sx));
            CU(cusparseDestroyDnVec(sy));
            CU(real.destroy_dnvec(rx));
            CU(real.destroy_dnvec(ry));
        }
    const cusparseSpMMAlg_t mm_algs[] = {CUSPARSE_SPMM_ALG_DEFAULT, CUSPARSE_SPMM_CSR_ALG1,
                                         CUSPARSE_SPMM_CSR_ALG2, CUSPARSE_SPMM_CSR_ALG3};
    const int64_t ns[] = {1, 2, 7, 16, 33, 64, 200};
    for (int op = 0; op < 2; ++op)
        for (size_t g = 0; g < sizeof mm_algs / sizeof mm_algs[0]; ++g)
            for (size_t j = 0; j < sizeof ns / sizeof ns[0]; ++j)
                for (int order = 0; order < 2; ++order) {
                    const int64_t n = ns[j], k = op ? rows : cols, mm = op ? cols : rows;
                    const cusparseOrder_t ord = order ? CUSPARSE_ORDER_ROW : CUSPARSE_ORDER_COL;
                    const int64_t ldb = order ? n : k, ldc = order ? n : mm;
                    cusparseDnMatDescr_t sb, sc, rb, rc;
                    CU(cusparseCreateDnMat(&sb, k, n, ldb, dense, type, ord));
                    CU(cusparseCreateDnMat(&sc, mm, n, ldc, dense, type, ord));
                    CU(real.create_dnmat(&rb, k, n, ldb, dense, type, ord));
                    CU(real.create_dnmat(&rc, mm, n, ldc, dense, type, ord));
                    size_t shim_bytes = 0, real_bytes = 0;
                    const cusparseStatus_t s = cusparseSpMM_bufferSize(
                        shim_h, (cusparseOperation_t)op, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, sa, sb,
                        beta, sc, type, mm_algs[g], &shim_bytes);
                    const cusparseStatus_t r = real.spmm_size(
                        real_h, (cusparseOperation_t)op, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, ra, rb,
                        beta, rc, type, mm_algs[g], &real_bytes);
                    if (s == CUSPARSE_STATUS_SUCCESS && r == CUSPARSE_STATUS_SUCCESS &&
                        shim_bytes < real_bytes)
                        FAIL("SpMM op %d alg %d n %lld order %d type %d: the shim sizes %zu bytes, "
                             "cuSPARSE needs %zu",
                             op, (int)mm_algs[g], (long long)n, order, (int)type, shim_bytes, real_bytes);
                    CU(cusparseDestroyDnMat(sb));
                    CU(cusparseDestroyDnMat(sc));
                    CU(real.destroy_dnmat(rb));
                    CU(real.destroy_dnmat(rc));
                }
    CU(cusparseDestroySpMat(sa));
    CU(real.destroy_spmat(ra));
}

/* C = A * B (n columns, column-major; n == 1: SpMV) captured through the shim on a
 * stream, replayed, and compared with the reference. */
static void check_captured(cusparseHandle_t h, const matrix* m, int64_t n, uint64_t seed) {
    const int64_t rows = m->a.rows, cols = m->a.cols;
    tcst_rng r;
    tcst_rng_seed(&r, seed);
    double* b = malloc((size_t)(cols * n) * sizeof(double));
    double* c = malloc((size_t)(rows * n) * sizeof(double));
    double* ref = calloc((size_t)(rows * n), sizeof(double));
    double* mag = calloc((size_t)(rows * n), sizeof(double));
    double* abs_b = malloc((size_t)(cols * n) * sizeof(double));
    if (!b || !c || !ref || !mag || !abs_b) exit(1);
    for (int64_t i = 0; i < cols * n; ++i) {
        b[i] = tcst_rng_symmetric(&r);
        abs_b[i] = fabs(b[i]);
    }
    void* db = to_device(b, (size_t)(cols * n) * sizeof(double));
    void* dc = tcst_device_poisoned((size_t)(rows * n) * sizeof(double));
    cusparseSpMatDescr_t a = NULL;
    CU(cusparseCreateCsr(&a, rows, cols, m->a.nnz, m->rp, m->ci, m->val, CUSPARSE_INDEX_32I,
                         CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    const double alpha = 1.0, beta = 0.0;
    cudaStream_t stream;
    CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CU(cusparseSetStream(h, stream));
    size_t bytes = 0;
    cusparseDnVecDescr_t x = NULL, y = NULL;
    cusparseDnMatDescr_t mb = NULL, mc = NULL;
    if (n == 1) {
        CU(cusparseCreateDnVec(&x, cols, db, CUDA_R_64F));
        CU(cusparseCreateDnVec(&y, rows, dc, CUDA_R_64F));
        CU(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, a, x, &beta, y,
                                   CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
    } else {
        CU(cusparseCreateDnMat(&mb, cols, n, cols, db, CUDA_R_64F, CUSPARSE_ORDER_COL));
        CU(cusparseCreateDnMat(&mc, rows, n, rows, dc, CUDA_R_64F, CUSPARSE_ORDER_COL));
        CU(cusparseSpMM_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                   &alpha, a, mb, &beta, mc, CUDA_R_64F, CUSPARSE_SPMM_ALG_DEFAULT,
                                   &bytes));
    }
    /* Exactly the size the shim asked for, so that a library needing more overruns it
     * (compute-sanitizer sees that). */
    void* buffer = tcst_device_poisoned(bytes > 0 ? bytes : 1);
    cudaGraph_t graph;
    CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    cusparseStatus_t st;
    if (n == 1)
        st = cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, a, x, &beta, y, CUDA_R_64F,
                          CUSPARSE_SPMV_ALG_DEFAULT, buffer);
    else
        st = cusparseSpMM(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
                          a, mb, &beta, mc, CUDA_R_64F, CUSPARSE_SPMM_ALG_DEFAULT, buffer);
    CUDA(cudaStreamEndCapture(stream, &graph));
    if (st != CUSPARSE_STATUS_SUCCESS) {
        FAIL("n %lld: the captured product returned %d", (long long)n, (int)st);
    } else {
        cudaGraphExec_t exec;
        CUDA(cudaGraphInstantiate(&exec, graph, 0));
        CUDA(cudaGraphLaunch(exec, stream));
        CUDA(cudaStreamSynchronize(stream));
        CUDA(cudaGraphExecDestroy(exec));
        CUDA(cudaMemcpy(c, dc, (size_t)(rows * n) * sizeof(double), cudaMemcpyDeviceToHost));
        tcst_csr abs_a;
        if (tcst_csr_copy(&m->a, &abs_a) != 0) exit(1);
        for (int64_t e = 0; e < abs_a.nnz; ++e) abs_a.val[e] = fabs(abs_a.val[e]);
        tcst_ref_spmm(0, 0, 1.0, &m->a, b, cols, n, 0.0, ref, rows);
        tcst_ref_spmm(0, 0, 1.0, &abs_a, abs_b, cols, n, 0.0, mag, rows);
        tcst_csr_free(&abs_a);
        const double worst = tcst_compare_dense(ref, mag, c, rows * n);
        if (!(worst <= 1e-12)) FAIL("n %lld: captured C off the reference by %g", (long long)n, worst);
    }
    CUDA(cudaGraphDestroy(graph));
    if (x) CU(cusparseDestroyDnVec(x));
    if (y) CU(cusparseDestroyDnVec(y));
    if (mb) CU(cusparseDestroyDnMat(mb));
    if (mc) CU(cusparseDestroyDnMat(mc));
    CU(cusparseDestroySpMat(a));
    CU(cusparseSetStream(h, NULL));
    CUDA(cudaStreamDestroy(stream));
    tcst_device_free(buffer);
    tcst_device_free(db);
    tcst_device_free(dc);
    free(b);
    free(c);
    free(ref);
    free(mag);
    free(abs_b);
}

int main(void) {
    if (!tcst_gpu_available()) {
        printf("buffer_owner: no GPU: skipped\n");
        return 77;
    }
    if (!open_real()) {
        printf("buffer_owner: no usable cuSPARSE (%s, libcusparse.so.12): skipped\n", TCS_REAL_CUSPARSE);
        return 77;
    }
    printf("buffer_owner: real cuSPARSE %s\n", real_path);
    const uint64_t seed = tcst_fresh_seed();
    printf("buffer_owner: seed %llu (TCST_SEED=%llu reproduces)\n", (unsigned long long)seed,
           (unsigned long long)seed);
    tcst_rng r;
    tcst_rng_seed(&r, seed);
    matrix m;
    const int64_t rows = 2000 + (int64_t)tcst_rng_below(&r, 3000);
    const int64_t cols = 1000 + (int64_t)tcst_rng_below(&r, 3000);
    if (tcst_gen_uniform(rows, cols, 2 + (int)tcst_rng_below(&r, 30), seed + 1, &m.a) != 0) return 1;
    if (tcst_csr_upload(&m.a, 0, 1, &m.rp, &m.ci, &m.val) != 0) return 1;
    void* dense = tcst_device_poisoned((size_t)(rows > cols ? rows : cols) * 200 * sizeof(double));

    cusparseHandle_t shim_h = NULL, real_h = NULL;
    CU(cusparseCreate(&shim_h));
    CU(real.create(&real_h));
    check_sizes(shim_h, real_h, &m, CUDA_R_64F, dense);
    check_sizes(shim_h, real_h, &m, CUDA_R_32F, dense);
    check_captured(shim_h, &m, 1, seed + 2);
    check_captured(shim_h, &m, 24, seed + 3);
    CU(real.destroy(real_h));
    CU(cusparseDestroy(shim_h));
    tcst_device_free(dense);
    tcst_device_free(m.rp);
    tcst_device_free(m.ci);
    tcst_device_free(m.val);
    tcst_csr_free(&m.a);
    if (failures != 0) {
        printf("buffer_owner: %d failures\n", failures);
        return 1;
    }
    printf("buffer_owner: all passed\n");
    return 0;
}
