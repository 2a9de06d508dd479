/*
 * tcsparse's main example: the two products of the library on a real matrix, through
 * the public C API only.
 *
 *   1. SpGEMM  C = A*A, through the whole four-stage protocol (workEstimation, compute,
 *      copy, with the caller allocating every buffer and C's arrays);
 *   2. SpMM    C = A*B, B dense with 32 columns (row-major), after a one-time preprocess;
 *
 * each result checked against a CPU double-precision reference. With a GPU, the same
 * two operations are then timed through tcsparse and cuSPARSE and printed side by side.
 *
 *   spgemm_spmm_example [--ctest] [matrix.mtx | matrix.mtx.gz]
 *
 * Without a file argument it reads the bundled data/bcsstk13.mtx.gz (an SPD stiffness
 * matrix, 2003 x 2003, 83883 nonzeros). Without a GPU it says so and exits 0 (with
 * --ctest it exits 77, which ctest reports as "skipped").
 *
 * The Matrix Market reader and the CPU reference come from the project's test support
 * library (tests/support/tcs_test_support.h); everything on the GPU is tcsparse.
 */
#include <tcsparse.h>

#include <math.h>
#include <string.h>

#include "example.h"
#include "tcs_test_support.h"

#define CHECK_TCS(call)                                                                      \
    do {                                                                                     \
        tcsStatus_t s_ = (call);                                                             \
        if (s_ != TCS_STATUS_SUCCESS) {                                                      \
            fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call,        \
                    tcsGetErrorName(s_), tcsGetErrorString(s_));                             \
            exit(EXIT_FAILURE);                                                              \
        }                                                                                    \
    } while (0)

enum { kSpmmColumns = 32 };
/* Results are fp64; an entry may differ from the reference by this much relative to
 * the sum of the magnitudes of its products (rounding in a different order). */
static const double kTolerance = 1e-12;

/* ---- SpGEMM: C = A*A ---------------------------------------------------------------- */

example_csr example_spgemm(tcsHandle_t handle, const example_csr* a, size_t* bytes) {
    const double alpha = 1.0, beta = 0.0;
    const tcsOperation_t op = TCS_OPERATION_NON_TRANSPOSE;
    const tcsSpGEMMAlg_t alg = TCS_SPGEMM_DEFAULT;
    example_csr c = {a->rows, a->cols, 0, NULL, NULL, NULL};

    /* A is both operands; C starts with no entries and caller-allocated row offsets. */
    tcsConstSpMatDescr_t mat_a, mat_b;
    tcsSpMatDescr_t mat_c;
    CHECK_TCS(tcsCreateConstCsr(&mat_a, a->rows, a->cols, a->nnz, a->row_ptr, a->col_idx, a->val,
                                TCS_INDEX_32I, TCS_INDEX_32I, TCS_INDEX_BASE_ZERO, CUDA_R_64F));
    CHECK_TCS(tcsCreateConstCsr(&mat_b, a->rows, a->cols, a->nnz, a->row_ptr, a->col_idx, a->val,
                                TCS_INDEX_32I, TCS_INDEX_32I, TCS_INDEX_BASE_ZERO, CUDA_R_64F));
    EXAMPLE_CHECK_CUDA(cudaMalloc((void**)&c.row_ptr, (size_t)(c.rows + 1) * sizeof(int)));
    CHECK_TCS(tcsCreateCsr(&mat_c, c.rows, c.cols, 0, c.row_ptr, NULL, NULL, TCS_INDEX_32I,
                           TCS_INDEX_32I, TCS_INDEX_BASE_ZERO, CUDA_R_64F));
    tcsSpGEMMDescr_t descr;
    CHECK_TCS(tcsSpGEMM_createDescr(&descr));

    /* Stage 1: ask for buffer1's size, then analyse A and B in it. */
    size_t size1 = 0, size2 = 0;
    void *buffer1 = NULL, *buffer2 = NULL;
    CHECK_TCS(tcsSpGEMM_workEstimation(handle, op, op, &alpha, mat_a, mat_b, &beta, mat_c,
                                       CUDA_R_64F, alg, descr, &size1, NULL));
    EXAMPLE_CHECK_CUDA(cudaMalloc(&buffer1, size1));
    CHECK_TCS(tcsSpGEMM_workEstimation(handle, op, op, &alpha, mat_a, mat_b, &beta, mat_c,
                                       CUDA_R_64F, alg, descr, &size1, buffer1));
    /* Stage 2: the same for buffer2; after it, nnz(C) is known. */
    CHECK_TCS(tcsSpGEMM_compute(handle, op, op, &alpha, mat_a, mat_b, &beta, mat_c, CUDA_R_64F,
                                alg, descr, &size2, NULL));
    EXAMPLE_CHECK_CUDA(cudaMalloc(&buffer2, size2));
    CHECK_TCS(tcsSpGEMM_compute(handle, op, op, &alpha, mat_a, mat_b, &beta, mat_c, CUDA_R_64F,
                                alg, descr, &size2, buffer2));
    /* Stage 3: allocate C's columns and values, hand them over, let copy write C. */
    int64_t rows = 0, cols = 0;
    CHECK_TCS(tcsSpMatGetSize(mat_c, &rows, &cols, &c.nnz));
    EXAMPLE_CHECK_CUDA(cudaMalloc((void**)&c.col_idx, (size_t)c.nnz * sizeof(int)));
    EXAMPLE_CHECK_CUDA(cudaMalloc((void**)&c.val, (size_t)c.nnz * sizeof(double)));
    CHECK_TCS(tcsCsrSetPointers(mat_c, c.row_ptr, c.col_idx, c.val));
    CHECK_TCS(tcsSpGEMM_copy(handle, op, op, &alpha, mat_a, mat_b, &beta, mat_c, CUDA_R_64F,
                             alg, descr));

    *bytes = size1 + size2 + (size_t)(c.rows + 1) * sizeof(int) +
             (size_t)c.nnz * (sizeof(int) + sizeof(double));
    EXAMPLE_CHECK_CUDA(cudaFree(buffer1));
    EXAMPLE_CHECK_CUDA(cudaFree(buffer2));
    CHECK_TCS(tcsSpGEMM_destroyDescr(descr));
    CHECK_TCS(tcsDestroySpMat(mat_a));
    CHECK_TCS(tcsDestroySpMat(mat_b));
    CHECK_TCS(tcsDestroySpMat(mat_c));
    return c;
}

/* ---- SpMM: C = A*B ------------------------------------------------------------------ */

void example_spmm_prepare(example_spmm* s, tcsHandle_t handle, const example_csr* a,
                          const double* d_b, double* d_c, int64_t n) {
    const double alpha = 1.0, beta = 0.0; /* beta = 0: C is written, never read */
    const tcsOperation_t op = TCS_OPERATION_NON_TRANSPOSE;
    size_t size = 0;
    s->handle = handle;
    s->buffer = NULL;
    CHECK_TCS(tcsCreateConstCsr(&s->a, a->rows, a->cols, a->nnz, a->row_ptr, a->col_idx, a->val,
                                TCS_INDEX_32I, TCS_INDEX_32I, TCS_INDEX_BASE_ZERO, CUDA_R_64F));
    /* Row-major: leading dimension n. */
    CHECK_TCS(tcsCreateConstDnMat(&s->b, a->cols, n, n, d_b, CUDA_R_64F, TCS_ORDER_ROW));
    CHECK_TCS(tcsCreateDnMat(&s->c, a->rows, n, n, d_c, CUDA_R_64F, TCS_ORDER_ROW));
    CHECK_TCS(tcsSpMM_bufferSize(handle, op, op, &alpha, s->a, s->b, &beta, s->c, CUDA_R_64F,
                                 TCS_SPMM_ALG_DEFAULT, &size));
    if (size > 0) EXAMPLE_CHECK_CUDA(cudaMalloc(&s->buffer, size));
    CHECK_TCS(tcsSpMM_preprocess(handle, op, op, &alpha, s->a, s->b, &beta, s->c, CUDA_R_64F,
                                 TCS_SPMM_ALG_DEFAULT, s->buffer));
}

void example_spmm_run(const example_spmm* s) {
    const double alpha = 1.0, beta = 0.0;
    const tcsOperation_t op = TCS_OPERATION_NON_TRANSPOSE;
    CHECK_TCS(tcsSpMM(s->handle, op, op, &alpha, s->a, s->b, &beta, s->c, CUDA_R_64F,
                      TCS_SPMM_ALG_DEFAULT, s->buffer));
}

void example_spmm_release(example_spmm* s) {
    EXAMPLE_CHECK_CUDA(cudaFree(s->buffer));
    CHECK_TCS(tcsDestroySpMat(s->a));
    CHECK_TCS(tcsDestroyDnMat(s->b));
    CHECK_TCS(tcsDestroyDnMat(s->c));
}

/* ---- Data movement and checks --------------------------------------------------------- */

void example_csr_free(example_csr* m) {
    EXAMPLE_CHECK_CUDA(cudaFree(m->row_ptr));
    EXAMPLE_CHECK_CUDA(cudaFree(m->col_idx));
    EXAMPLE_CHECK_CUDA(cudaFree(m->val));
    m->row_ptr = m->col_idx = NULL;
    m->val = NULL;
}

static void* to_device(const void* host, size_t bytes) {
    void* d = NULL;
    if (bytes == 0) return NULL;
    EXAMPLE_CHECK_CUDA(cudaMalloc(&d, bytes));
    EXAMPLE_CHECK_CUDA(cudaMemcpy(d, host, bytes, cudaMemcpyHostToDevice));
    return d;
}

static void* to_host(const void* device, size_t bytes) {
    void* h = malloc(bytes > 0 ? bytes : 1);
    if (h == NULL) {
        fprintf(stderr, "out of host memory\n");
        exit(EXIT_FAILURE);
    }
    if (bytes > 0) EXAMPLE_CHECK_CUDA(cudaMemcpy(h, device, bytes, cudaMemcpyDeviceToHost));
    return h;
}

static example_csr upload(const tcst_csr* m) {
    example_csr d = {m->rows, m->cols, m->nnz, NULL, NULL, NULL};
    d.row_ptr = (int*)to_device(m->row_ptr, (size_t)(m->rows + 1) * sizeof(int));
    d.col_idx = (int*)to_device(m->col_idx, (size_t)m->nnz * sizeof(int));
    d.val = (double*)to_device(m->val, (size_t)m->nnz * sizeof(double));
    return d;
}

/* 1 when the GPU's C equals the CPU's A*A within the tolerance. */
static int spgemm_matches(const tcst_csr* a, const example_csr* c) {
    tcst_csr ref;
    char msg[512] = "";
    if (tcst_ref_spgemm(a, a, &ref) != 0) {
        fprintf(stderr, "CPU reference SpGEMM failed\n");
        return 0;
    }
    double* mag = tcst_ref_spgemm_magnitude(a, a, &ref);
    int ok = c->nnz == ref.nnz;
    if (!ok) {
        snprintf(msg, sizeof msg, "nnz(C) = %lld, reference %lld", (long long)c->nnz,
                 (long long)ref.nnz);
    } else {
        int* row_ptr = (int*)to_host(c->row_ptr, (size_t)(c->rows + 1) * sizeof(int));
        int* col_idx = (int*)to_host(c->col_idx, (size_t)c->nnz * sizeof(int));
        double* val = (double*)to_host(c->val, (size_t)c->nnz * sizeof(double));
        ok = tcst_compare_csr(&ref, mag, row_ptr, col_idx, val, 1, 0, kTolerance, msg,
                              sizeof msg) == 0;
        free(row_ptr);
        free(col_idx);
        free(val);
    }
    if (!ok) fprintf(stderr, "SpGEMM result differs from the CPU reference: %s\n", msg);
    free(mag);
    tcst_csr_free(&ref);
    return ok;
}

/* 1 when the GPU's row-major C (rows x n) equals A*B within the tolerance. */
static int spmm_matches(const tcst_csr* a, const double* b, const double* d_c, int64_t n) {
    const int64_t m = a->rows, k = a->cols;
    const size_t count = (size_t)(m * n);
    double* got = (double*)to_host(d_c, count * sizeof(double));
    double* got_cm = (double*)malloc(count * sizeof(double));
    double* ref = (double*)calloc(count, sizeof(double));
    double* mag = (double*)calloc(count, sizeof(double));
    double* b_abs = (double*)malloc((size_t)(k * n) * sizeof(double));
    tcst_csr a_abs;
    if (got_cm == NULL || ref == NULL || mag == NULL || b_abs == NULL || tcst_csr_copy(a, &a_abs)) {
        fprintf(stderr, "out of host memory\n");
        exit(EXIT_FAILURE);
    }
    /* The reference takes B column-major: a row-major k x n B is B^T column-major (ldb n). */
    tcst_ref_spmm(0, 1, 1.0, a, b, n, n, 0.0, ref, m);
    for (int64_t e = 0; e < a_abs.nnz; ++e) a_abs.val[e] = fabs(a_abs.val[e]);
    for (int64_t e = 0; e < k * n; ++e) b_abs[e] = fabs(b[e]);
    tcst_ref_spmm(0, 1, 1.0, &a_abs, b_abs, n, n, 0.0, mag, m);
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) got_cm[j * m + i] = got[i * n + j];
    const double worst = tcst_compare_dense(ref, mag, got_cm, (int64_t)count);
    const int ok = worst <= kTolerance;
    if (!ok) fprintf(stderr, "SpMM result differs from the CPU reference (worst relative error %g)\n", worst);
    free(got);
    free(got_cm);
    free(ref);
    free(mag);
    free(b_abs);
    tcst_csr_free(&a_abs);
    return ok;
}

/* ---- The example ---------------------------------------------------------------------- */

int main(int argc, char** argv) {
    int ctest = 0;
    const char* path = TCS_EXAMPLE_MATRIX;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--ctest") == 0)
            ctest = 1;
        else
            path = argv[i];
    }

    tcst_csr host_a;
    char err[512] = "";
    if (tcst_mm_read(path, 1, &host_a, err, sizeof err) != 0) {
        fprintf(stderr, "cannot read %s: %s\n", path, err);
        return EXIT_FAILURE;
    }
    printf("matrix %s: %lld x %lld, %lld nonzeros\n", path, (long long)host_a.rows,
           (long long)host_a.cols, (long long)host_a.nnz);
    if (host_a.rows != host_a.cols) {
        fprintf(stderr, "C = A*A needs a square matrix\n");
        return EXIT_FAILURE;
    }

    /* tcsCreate is the first call that needs a GPU; without one it says so. */
    tcsHandle_t handle = NULL;
    const tcsStatus_t created = tcsCreate(&handle);
    if (created == TCS_STATUS_NOT_INITIALIZED) {
        printf("no CUDA GPU found: tcsparse needs an NVIDIA GPU to run the products; "
               "nothing was computed\n");
        tcst_csr_free(&host_a);
        return ctest ? TCST_SKIP : EXIT_SUCCESS;
    }
    CHECK_TCS(created);

    example_csr a = upload(&host_a);

    /* 1. SpGEMM */
    size_t bytes = 0;
    example_csr c = example_spgemm(handle, &a, &bytes);
    int ok = spgemm_matches(&host_a, &c);
    printf("SpGEMM C = A*A: nnz(C) = %lld, %lld products, %.1f MB of device memory: %s\n",
           (long long)c.nnz, (long long)tcst_ref_num_products(&host_a, &host_a), bytes / 1e6,
           ok ? "matches the CPU reference" : "WRONG");
    example_csr_free(&c);

    /* 2. SpMM with a dense B of uniform values in [-1, 1) */
    const int64_t n = kSpmmColumns;
    double* host_b = (double*)malloc((size_t)(a.cols * n) * sizeof(double));
    if (host_b == NULL) return EXIT_FAILURE;
    tcst_rng rng;
    tcst_rng_seed(&rng, 2024);
    for (int64_t e = 0; e < a.cols * n; ++e) host_b[e] = tcst_rng_symmetric(&rng);
    double* d_b = (double*)to_device(host_b, (size_t)(a.cols * n) * sizeof(double));
    double* d_c = NULL;
    EXAMPLE_CHECK_CUDA(cudaMalloc((void**)&d_c, (size_t)(a.rows * n) * sizeof(double)));
    example_spmm spmm;
    example_spmm_prepare(&spmm, handle, &a, d_b, d_c, n);
    example_spmm_run(&spmm);
    const int spmm_ok = spmm_matches(&host_a, host_b, d_c, n);
    printf("SpMM C = A*B, B %lld x %lld row-major: %s\n", (long long)a.cols, (long long)n,
           spmm_ok ? "matches the CPU reference" : "WRONG");
    example_spmm_release(&spmm);
    ok = ok && spmm_ok;

    /* 3. The same operations through cuSPARSE, timed beside tcsparse */
    if (ok) compare_with_cusparse(handle, &a, d_b, d_c, n);

    EXAMPLE_CHECK_CUDA(cudaFree(d_b));
    EXAMPLE_CHECK_CUDA(cudaFree(d_c));
    example_csr_free(&a);
    free(host_b);
    tcst_csr_free(&host_a);
    CHECK_TCS(tcsDestroy(handle));
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
