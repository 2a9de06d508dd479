/*
 * The example's comparison: the same SpGEMM and SpMM as spgemm_spmm_example.c, through
 * cuSPARSE with the same call sequence (tcsparse mirrors cuSPARSE's generic API: the
 * calls below differ from tcsparse's only in their prefix), both libraries timed on
 * the same data. tcs_bench (bench/) measures the same way on many matrices.
 */
#include <cusparse.h>

#include "example.h"

#define CHECK_CUSPARSE(call)                                                                 \
    do {                                                                                     \
        cusparseStatus_t s_ = (call);                                                        \
        if (s_ != CUSPARSE_STATUS_SUCCESS) {                                                 \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,             \
                    cusparseGetErrorName(s_));                                               \
            exit(EXIT_FAILURE);                                                              \
        }                                                                                    \
    } while (0)

enum { kRuns = 10 };

/* cuSPARSE's SpGEMM protocol (its DEFAULT algorithm), the same stages as
 * example_spgemm. */
static example_csr cusparse_spgemm(cusparseHandle_t handle, const example_csr* a, size_t* bytes) {
    const double alpha = 1.0, beta = 0.0;
    const cusparseOperation_t op = CUSPARSE_OPERATION_NON_TRANSPOSE;
    const cusparseSpGEMMAlg_t alg = CUSPARSE_SPGEMM_DEFAULT;
    example_csr c = {a->rows, a->cols, 0, NULL, NULL, NULL};
    cusparseConstSpMatDescr_t mat_a, mat_b;
    cusparseSpMatDescr_t mat_c;
    cusparseSpGEMMDescr_t descr;
    size_t size1 = 0, size2 = 0;
    void *buffer1 = NULL, *buffer2 = NULL;
    int64_t rows = 0, cols = 0;

    CHECK_CUSPARSE(cusparseCreateConstCsr(&mat_a, a->rows, a->cols, a->nnz, a->row_ptr,
                                          a->col_idx, a->val, CUSPARSE_INDEX_32I,
                                          CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    CHECK_CUSPARSE(cusparseCreateConstCsr(&mat_b, a->rows, a->cols, a->nnz, a->row_ptr,
                                          a->col_idx, a->val, CUSPARSE_INDEX_32I,
                                          CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    EXAMPLE_CHECK_CUDA(cudaMalloc((void**)&c.row_ptr, (size_t)(c.rows + 1) * sizeof(int)));
    CHECK_CUSPARSE(cusparseCreateCsr(&mat_c, c.rows, c.cols, 0, c.row_ptr, NULL, NULL,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    CHECK_CUSPARSE(cusparseSpGEMM_createDescr(&descr));
    CHECK_CUSPARSE(cusparseSpGEMM_workEstimation(handle, op, op, &alpha, mat_a, mat_b, &beta, mat_c,
                                                 CUDA_R_64F, alg, descr, &size1, NULL));
    EXAMPLE_CHECK_CUDA(cudaMalloc(&buffer1, size1));
    CHECK_CUSPARSE(cusparseSpGEMM_workEstimation(handle, op, op, &alpha, mat_a, mat_b, &beta, mat_c,
                                                 CUDA_R_64F, alg, descr, &size1, buffer1));
    CHECK_CUSPARSE(cusparseSpGEMM_compute(handle, op, op, &alpha, mat_a, mat_b, &beta, mat_c,
                                          CUDA_R_64F, alg, descr, &size2, NULL));
    EXAMPLE_CHECK_CUDA(cudaMalloc(&buffer2, size2));
    CHECK_CUSPARSE(cusparseSpGEMM_compute(handle, op, op, &alpha, mat_a, mat_b, &beta, mat_c,
                                          CUDA_R_64F, alg, descr, &size2, buffer2));
    CHECK_CUSPARSE(cusparseSpMatGetSize(mat_c, &rows, &cols, &c.nnz));
    EXAMPLE_CHECK_CUDA(cudaMalloc((void**)&c.col_idx, (size_t)c.nnz * sizeof(int)));
    EXAMPLE_CHECK_CUDA(cudaMalloc((void**)&c.val, (size_t)c.nnz * sizeof(double)));
    CHECK_CUSPARSE(cusparseCsrSetPointers(mat_c, c.row_ptr, c.col_idx, c.val));
    CHECK_CUSPARSE(cusparseSpGEMM_copy(handle, op, op, &alpha, mat_a, mat_b, &beta, mat_c,
                                       CUDA_R_64F, alg, descr));
    *bytes = size1 + size2 + (size_t)(c.rows + 1) * sizeof(int) +
             (size_t)c.nnz * (sizeof(int) + sizeof(double));
    EXAMPLE_CHECK_CUDA(cudaFree(buffer1));
    EXAMPLE_CHECK_CUDA(cudaFree(buffer2));
    CHECK_CUSPARSE(cusparseSpGEMM_destroyDescr(descr));
    CHECK_CUSPARSE(cusparseDestroySpMat(mat_a));
    CHECK_CUSPARSE(cusparseDestroySpMat(mat_b));
    CHECK_CUSPARSE(cusparseDestroySpMat(mat_c));
    return c;
}

/* What one timed call needs: the library's handle, the operands, and the device memory
 * the last SpGEMM allocated. */
typedef struct {
    tcsHandle_t tcs;
    cusparseHandle_t cusparse;
    const example_csr* a;
    size_t bytes;
    /* SpMM */
    example_spmm tcs_spmm;
    cusparseConstSpMatDescr_t spmm_a;
    cusparseConstDnMatDescr_t spmm_b;
    cusparseDnMatDescr_t spmm_c;
    void* spmm_buffer;
} comparison;

/* Each timed SpGEMM is the whole protocol, C's allocation and release included. */
static void time_tcs_spgemm(void* ctx) {
    comparison* k = (comparison*)ctx;
    example_csr c = example_spgemm(k->tcs, k->a, &k->bytes);
    example_csr_free(&c);
}

static void time_cusparse_spgemm(void* ctx) {
    comparison* k = (comparison*)ctx;
    example_csr c = cusparse_spgemm(k->cusparse, k->a, &k->bytes);
    example_csr_free(&c);
}

static void time_tcs_spmm(void* ctx) { example_spmm_run(&((comparison*)ctx)->tcs_spmm); }

static void time_cusparse_spmm(void* ctx) {
    const comparison* k = (const comparison*)ctx;
    const double alpha = 1.0, beta = 0.0;
    CHECK_CUSPARSE(cusparseSpMM(k->cusparse, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, k->spmm_a, k->spmm_b,
                                &beta, k->spmm_c, CUDA_R_64F, CUSPARSE_SPMM_ALG_DEFAULT,
                                k->spmm_buffer));
}

double example_median_ms(void (*op)(void* ctx), void* ctx, int runs) {
    cudaEvent_t start, stop;
    float times[64];
    if (runs > 64) runs = 64;
    EXAMPLE_CHECK_CUDA(cudaEventCreate(&start));
    EXAMPLE_CHECK_CUDA(cudaEventCreate(&stop));
    op(ctx); /* warm-up */
    for (int r = 0; r < runs; ++r) {
        EXAMPLE_CHECK_CUDA(cudaEventRecord(start, 0));
        op(ctx);
        EXAMPLE_CHECK_CUDA(cudaEventRecord(stop, 0));
        EXAMPLE_CHECK_CUDA(cudaEventSynchronize(stop));
        EXAMPLE_CHECK_CUDA(cudaEventElapsedTime(&times[r], start, stop));
        /* insertion sort: times[0..r] stays sorted */
        for (int i = r; i > 0 && times[i - 1] > times[i]; --i) {
            const float t = times[i];
            times[i] = times[i - 1];
            times[i - 1] = t;
        }
    }
    EXAMPLE_CHECK_CUDA(cudaEventDestroy(start));
    EXAMPLE_CHECK_CUDA(cudaEventDestroy(stop));
    return runs % 2 ? times[runs / 2] : 0.5 * (times[runs / 2 - 1] + times[runs / 2]);
}

static void print_row(const char* what, double tcs_ms, double cusparse_ms) {
    printf("  %-44s tcsparse %9.3f ms   cuSPARSE %9.3f ms   speedup %.2fx\n", what, tcs_ms,
           cusparse_ms, cusparse_ms / tcs_ms);
}

void compare_with_cusparse(tcsHandle_t handle, const example_csr* a, const double* d_b,
                           double* d_c, int64_t n) {
    comparison k;
    const double alpha = 1.0, beta = 0.0;
    size_t spmm_size = 0;
    int device = 0;
    struct cudaDeviceProp props;
    EXAMPLE_CHECK_CUDA(cudaGetDevice(&device));
    EXAMPLE_CHECK_CUDA(cudaGetDeviceProperties(&props, device));
    k.tcs = handle;
    k.a = a;
    k.bytes = 0;
    k.spmm_buffer = NULL;
    CHECK_CUSPARSE(cusparseCreate(&k.cusparse));

    printf("timing on %s, fp64, median of %d runs:\n", props.name, kRuns);
    const double tcs_spgemm = example_median_ms(time_tcs_spgemm, &k, kRuns);
    const size_t tcs_bytes = k.bytes;
    const double cusparse_spgemm_ms = example_median_ms(time_cusparse_spgemm, &k, kRuns);
    print_row("SpGEMM C = A*A, whole protocol with mallocs", tcs_spgemm, cusparse_spgemm_ms);
    printf("  %-44s tcsparse %9.1f MB   cuSPARSE %9.1f MB\n", "SpGEMM device memory (buffers + C)",
           tcs_bytes / 1e6, k.bytes / 1e6);

    example_spmm_prepare(&k.tcs_spmm, handle, a, d_b, d_c, n);
    CHECK_CUSPARSE(cusparseCreateConstCsr(&k.spmm_a, a->rows, a->cols, a->nnz, a->row_ptr,
                                          a->col_idx, a->val, CUSPARSE_INDEX_32I,
                                          CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    CHECK_CUSPARSE(cusparseCreateConstDnMat(&k.spmm_b, a->cols, n, n, d_b, CUDA_R_64F,
                                            CUSPARSE_ORDER_ROW));
    CHECK_CUSPARSE(cusparseCreateDnMat(&k.spmm_c, a->rows, n, n, d_c, CUDA_R_64F, CUSPARSE_ORDER_ROW));
    CHECK_CUSPARSE(cusparseSpMM_bufferSize(k.cusparse, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                           CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, k.spmm_a,
                                           k.spmm_b, &beta, k.spmm_c, CUDA_R_64F,
                                           CUSPARSE_SPMM_ALG_DEFAULT, &spmm_size));
    if (spmm_size > 0) EXAMPLE_CHECK_CUDA(cudaMalloc(&k.spmm_buffer, spmm_size));
    CHECK_CUSPARSE(cusparseSpMM_preprocess(k.cusparse, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                           CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, k.spmm_a,
                                           k.spmm_b, &beta, k.spmm_c, CUDA_R_64F,
                                           CUSPARSE_SPMM_ALG_DEFAULT, k.spmm_buffer));
    char what[64];
    snprintf(what, sizeof what, "SpMM n = %lld, row-major, after preprocess", (long long)n);
    const double tcs_spmm_ms = example_median_ms(time_tcs_spmm, &k, kRuns);
    print_row(what, tcs_spmm_ms, example_median_ms(time_cusparse_spmm, &k, kRuns));

    example_spmm_release(&k.tcs_spmm);
    EXAMPLE_CHECK_CUDA(cudaFree(k.spmm_buffer));
    CHECK_CUSPARSE(cusparseDestroySpMat(k.spmm_a));
    CHECK_CUSPARSE(cusparseDestroyDnMat(k.spmm_b));
    CHECK_CUSPARSE(cusparseDestroyDnMat(k.spmm_c));
    CHECK_CUSPARSE(cusparseDestroy(k.cusparse));
}
