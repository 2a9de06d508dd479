/*
 * A cuSPARSE program that interleaves the calls the shim forwards to the real cuSPARSE
 * with the ones tcsparse accelerates, on the same handle (on a stream of its own) and
 * the same descriptors, written against the real <cusparse.h> only. Built three ways
 * (tests/swapin.cmake): linked with libtcsparse_cusparse.so, linked with the real
 * libcusparse (proof that it is a correct cuSPARSE program), and the latter run with
 * the shim preloaded. Every result is checked against the CPU (exactly for the integer
 * and permutation outputs, within 1e-12 of the products' magnitude for fp64 values).
 *
 *   forwarded                          accelerated (tcsparse under the shim)
 *   Xcsrsort, Gather (DnVec -> SpVec)   SpMV (DnVec x, y), also with device scalars
 *   Xcsr2coo, Csr2cscEx2                SpMM
 *   SpMV on a COO matrix                SpGEMM C = A*A, then SparseToDense of C (forwarded)
 *   SpSV (fill-mode attribute on A)     SpGEMMreuse with new values
 *   SpMV with 64-bit offsets and        SpMV and SpMM with 64-bit indices
 *     32-bit columns (mixed widths)
 *
 * With TCS_SWAPIN_DUMP=<file> it also writes every result, labelled "exact" (outputs
 * the real cuSPARSE computes from inputs the program uploaded: they must be bitwise the
 * same under the shim) or "close" (tcsparse's, or computed from them), for
 * compare_dumps.py. Exit: 0 passed, 1 failed, 77 no GPU.
 */
#include <cusparse.h>

#include <cuda_runtime_api.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcs_test_support.h"

#define SWAPIN_PROGRAM "interleaved"
#include "checks.h"

static FILE* dump;

static void* xmalloc(size_t bytes) {
    void* p = malloc(bytes > 0 ? bytes : 1);
    if (p == NULL) exit(1);
    return p;
}

/* bytes of device memory, holding a copy of `host` (NULL: left as cudaMalloc gives it) */
static void* to_device(const void* host, size_t bytes) {
    void* d = NULL;
    CUDA(cudaMalloc(&d, bytes > 0 ? bytes : 1));
    if (bytes > 0 && host != NULL) CUDA(cudaMemcpy(d, host, bytes, cudaMemcpyHostToDevice));
    return d;
}

static void* from_device(const void* device, size_t bytes) {
    void* h = xmalloc(bytes);
    CUDA(cudaDeviceSynchronize());
    if (bytes > 0) CUDA(cudaMemcpy(h, device, bytes, cudaMemcpyDeviceToHost));
    return h;
}

static void record(const char* kind, const char* label, const double* v, int64_t n) {
    if (dump == NULL) return;
    fprintf(dump, "%s %s %lld\n", kind, label, (long long)n);
    for (int64_t i = 0; i < n; ++i) fprintf(dump, "%a\n", v[i]);
}

static void record_ints(const char* label, const int* v, int64_t n) {
    double* d = (double*)xmalloc((size_t)n * sizeof(double));
    for (int64_t i = 0; i < n; ++i) d[i] = v[i];
    record("exact", label, d, n);
    free(d);
}

/* |got - ref| <= 1e-12 * magnitude, entry by entry. */
static void expect_close(const char* what, const double* got, const double* ref, const double* mag,
                         int64_t n) {
    for (int64_t i = 0; i < n; ++i)
        if (!(fabs(got[i] - ref[i]) <= 1e-12 * mag[i] + 1e-300)) {
            FAIL("%s[%lld] = %.17g, reference %.17g", what, (long long)i, got[i], ref[i]);
            return;
        }
}

static void expect_same_ints(const char* what, const int* got, const int* ref, int64_t n) {
    for (int64_t i = 0; i < n; ++i)
        if (got[i] != ref[i]) {
            FAIL("%s[%lld] = %d, expected %d", what, (long long)i, got[i], ref[i]);
            return;
        }
}

/* y = alpha * op(A) x + beta * y0 and its magnitude, in double on the host. */
static void reference_spmv(const tcst_csr* a, int trans, double alpha, const double* x, double beta,
                           const double* y0, double* y, double* mag) {
    const int64_t m = trans ? a->cols : a->rows;
    for (int64_t i = 0; i < m; ++i) {
        y[i] = beta != 0.0 ? beta * y0[i] : 0.0;
        mag[i] = beta != 0.0 ? fabs(beta * y0[i]) : 0.0;
    }
    for (int64_t i = 0; i < a->rows; ++i)
        for (int e = a->row_ptr[i]; e < a->row_ptr[i + 1]; ++e) {
            const int64_t out = trans ? a->col_idx[e] : i, in = trans ? i : a->col_idx[e];
            y[out] += alpha * a->val[e] * x[in];
            mag[out] += fabs(alpha * a->val[e] * x[in]);
        }
}

int main(void) {
    if (!tcst_gpu_available()) {
        printf("interleaved: no GPU: skipped\n");
        return 77;
    }
    const char* dump_path = getenv("TCS_SWAPIN_DUMP");
    if (dump_path != NULL && (dump = fopen(dump_path, "w")) == NULL) return 1;
    const int n = tcst_quick() ? 300 : 2000;
    const uint64_t seed = 20240611; /* fixed: the dumps of two runs must be comparable */

    /* A: n x n, 8 random off-diagonal entries and a dominant diagonal per row, sorted */
    tcst_csr a;
    if (tcst_gen_uniform(n, n, 8, seed, &a) != 0) return 1;
    tcst_csr full;
    if (tcst_csr_alloc(&full, n, n, a.nnz + n) != 0) return 1;
    int64_t nnz = 0;
    for (int64_t i = 0; i < n; ++i) {
        int placed = 0;
        for (int e = a.row_ptr[i]; e <= a.row_ptr[i + 1]; ++e) {
            const int col = e < a.row_ptr[i + 1] ? a.col_idx[e] : n;
            if (!placed && col >= i) {
                full.col_idx[nnz] = (int)i;
                full.val[nnz++] = 10.0 + a.val[a.row_ptr[i]];
                placed = 1;
            }
            if (e < a.row_ptr[i + 1] && col != i) {
                full.col_idx[nnz] = col;
                full.val[nnz++] = a.val[e];
            }
        }
        full.row_ptr[i + 1] = (int)nnz;
    }
    full.nnz = nnz;
    tcst_csr_free(&a);
    a = full; /* sorted columns: the reference of everything below */

    /* the same matrix with its columns shuffled in each row: what the program uploads */
    tcst_csr shuffled;
    if (tcst_csr_copy(&a, &shuffled) != 0) return 1;
    tcst_csr_shuffle_columns(&shuffled, seed + 1);

    cusparseHandle_t h;
    CU(cusparseCreate(&h));
    cudaStream_t stream;
    CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CU(cusparseSetStream(h, stream));

    int* d_rp = (int*)to_device(a.row_ptr, (size_t)(n + 1) * sizeof(int));
    int* d_ci = (int*)to_device(shuffled.col_idx, (size_t)nnz * sizeof(int));
    double* d_unsorted = (double*)to_device(shuffled.val, (size_t)nnz * sizeof(double));
    double* d_val = (double*)to_device(NULL, (size_t)nnz * sizeof(double));

    /* ---- forwarded: sort the columns, permute the values with Gather ---- */
    size_t bytes = 0;
    CU(cusparseXcsrsort_bufferSizeExt(h, n, n, (int)nnz, d_rp, d_ci, &bytes));
    void* sort_buffer = to_device(NULL, bytes);
    int* d_perm = (int*)to_device(NULL, (size_t)nnz * sizeof(int));
    CU(cusparseCreateIdentityPermutation(h, (int)nnz, d_perm));
    cusparseMatDescr_t legacy;
    CU(cusparseCreateMatDescr(&legacy));
    CU(cusparseXcsrsort(h, n, n, (int)nnz, legacy, d_rp, d_ci, d_perm, sort_buffer));
    cusparseDnVecDescr_t unsorted_values;
    cusparseSpVecDescr_t sorted_values;
    CU(cusparseCreateDnVec(&unsorted_values, nnz, d_unsorted, CUDA_R_64F));
    CU(cusparseCreateSpVec(&sorted_values, nnz, nnz, d_perm, d_val, CUSPARSE_INDEX_32I,
                           CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    CU(cusparseGather(h, unsorted_values, sorted_values));
    {
        int* ci = (int*)from_device(d_ci, (size_t)nnz * sizeof(int));
        double* val = (double*)from_device(d_val, (size_t)nnz * sizeof(double));
        expect_same_ints("sorted columns", ci, a.col_idx, nnz);
        for (int64_t e = 0; e < nnz; ++e)
            if (val[e] != a.val[e]) {
                FAIL("gathered value %lld = %g, expected %g", (long long)e, val[e], a.val[e]);
                break;
            }
        record_ints("sorted_columns", ci, nnz);
        record("exact", "gathered_values", val, nnz);
        free(ci), free(val);
    }

    cusparseSpMatDescr_t mat_a;
    CU(cusparseCreateCsr(&mat_a, n, n, nnz, d_rp, d_ci, d_val, CUSPARSE_INDEX_32I,
                         CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));

    /* ---- accelerated: SpMV on the sorted matrix ---- */
    double* x = (double*)xmalloc((size_t)n * sizeof(double));
    double* rhs = (double*)xmalloc((size_t)n * sizeof(double));
    tcst_rng rng;
    tcst_rng_seed(&rng, seed + 2);
    for (int i = 0; i < n; ++i) x[i] = tcst_rng_symmetric(&rng), rhs[i] = tcst_rng_symmetric(&rng);
    double* d_x = (double*)to_device(x, (size_t)n * sizeof(double));
    double* d_y = (double*)to_device(NULL, (size_t)n * sizeof(double));
    cusparseDnVecDescr_t vec_x, vec_y;
    CU(cusparseCreateDnVec(&vec_x, n, d_x, CUDA_R_64F));
    CU(cusparseCreateDnVec(&vec_y, n, d_y, CUDA_R_64F));
    const double one = 1.0, zero = 0.0;
    CU(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat_a, vec_x, &zero,
                               vec_y, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
    void* spmv_buffer = to_device(NULL, bytes);
    CU(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat_a, vec_x, &zero, vec_y,
                    CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, spmv_buffer));
    double* ref = (double*)xmalloc((size_t)n * sizeof(double));
    double* mag = (double*)xmalloc((size_t)n * sizeof(double));
    reference_spmv(&a, 0, 1.0, x, 0.0, NULL, ref, mag);
    double* y1 = (double*)from_device(d_y, (size_t)n * sizeof(double));
    expect_close("A x", y1, ref, mag, n);
    record("close", "spmv", y1, n);

    /* ---- forwarded: CSR -> COO rows, CSR -> CSC ---- */
    int* d_coo_rows = (int*)to_device(NULL, (size_t)nnz * sizeof(int));
    CU(cusparseXcsr2coo(h, d_rp, (int)nnz, n, d_coo_rows, CUSPARSE_INDEX_BASE_ZERO));
    {
        int* rows = (int*)from_device(d_coo_rows, (size_t)nnz * sizeof(int));
        int* expected = (int*)xmalloc((size_t)nnz * sizeof(int));
        for (int64_t i = 0; i < n; ++i)
            for (int e = a.row_ptr[i]; e < a.row_ptr[i + 1]; ++e) expected[e] = (int)i;
        expect_same_ints("COO rows", rows, expected, nnz);
        record_ints("coo_rows", rows, nnz);
        free(rows), free(expected);
    }
    int* d_csc_ptr = (int*)to_device(NULL, (size_t)(n + 1) * sizeof(int));
    int* d_csc_rows = (int*)to_device(NULL, (size_t)nnz * sizeof(int));
    double* d_csc_val = (double*)to_device(NULL, (size_t)nnz * sizeof(double));
    CU(cusparseCsr2cscEx2_bufferSize(h, n, n, (int)nnz, d_val, d_rp, d_ci, d_csc_val, d_csc_ptr,
                                     d_csc_rows, CUDA_R_64F, CUSPARSE_ACTION_NUMERIC,
                                     CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, &bytes));
    void* csc_buffer = to_device(NULL, bytes);
    CU(cusparseCsr2cscEx2(h, n, n, (int)nnz, d_val, d_rp, d_ci, d_csc_val, d_csc_ptr, d_csc_rows,
                          CUDA_R_64F, CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO,
                          CUSPARSE_CSR2CSC_ALG1, csc_buffer));
    {
        tcst_csr t;
        if (tcst_csr_transpose(&a, &t) != 0) return 1;
        int* ptr = (int*)from_device(d_csc_ptr, (size_t)(n + 1) * sizeof(int));
        int* rows = (int*)from_device(d_csc_rows, (size_t)nnz * sizeof(int));
        double* val = (double*)from_device(d_csc_val, (size_t)nnz * sizeof(double));
        expect_same_ints("CSC offsets", ptr, t.row_ptr, n + 1);
        expect_same_ints("CSC rows", rows, t.col_idx, nnz);
        for (int64_t e = 0; e < nnz; ++e)
            if (val[e] != t.val[e]) {
                FAIL("CSC value %lld differs", (long long)e);
                break;
            }
        record_ints("csc_rows", rows, nnz);
        record("exact", "csc_values", val, nnz);
        free(ptr), free(rows), free(val);
        tcst_csr_free(&t);
    }

    /* ---- forwarded: SpMV on a COO view of A, into the same DnVec y (COO_ALG2: cuSPARSE's
     * deterministic one, so two runs agree bitwise) ---- */
    cusparseSpMatDescr_t mat_coo;
    CU(cusparseCreateCoo(&mat_coo, n, n, nnz, d_coo_rows, d_ci, d_val, CUSPARSE_INDEX_32I,
                         CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    CU(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat_coo, vec_x, &zero,
                               vec_y, CUDA_R_64F, CUSPARSE_SPMV_COO_ALG2, &bytes));
    void* coo_buffer = to_device(NULL, bytes);
    CU(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat_coo, vec_x, &zero, vec_y,
                    CUDA_R_64F, CUSPARSE_SPMV_COO_ALG2, coo_buffer));
    reference_spmv(&a, 0, 1.0, x, 0.0, NULL, ref, mag);
    {
        double* y = (double*)from_device(d_y, (size_t)n * sizeof(double));
        expect_close("A x (COO)", y, ref, mag, n);
        record("exact", "coo_spmv", y, n);
        free(y);
    }

    /* ---- forwarded: the lower triangle of A solved with SpSV ----
     * On a descriptor of its own over A's arrays: the real cuSPARSE refuses SpMM on a
     * matrix that carries triangular attributes, so a program keeps them apart. */
    cusparseSpMatDescr_t mat_l;
    CU(cusparseCreateCsr(&mat_l, n, n, nnz, d_rp, d_ci, d_val, CUSPARSE_INDEX_32I,
                         CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    cusparseFillMode_t fill = CUSPARSE_FILL_MODE_LOWER;
    cusparseDiagType_t diag = CUSPARSE_DIAG_TYPE_NON_UNIT;
    CU(cusparseSpMatSetAttribute(mat_l, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill));
    CU(cusparseSpMatSetAttribute(mat_l, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof diag));
    double* d_rhs = (double*)to_device(rhs, (size_t)n * sizeof(double));
    double* d_z = (double*)to_device(NULL, (size_t)n * sizeof(double));
    cusparseDnVecDescr_t vec_rhs, vec_z;
    CU(cusparseCreateDnVec(&vec_rhs, n, d_rhs, CUDA_R_64F));
    CU(cusparseCreateDnVec(&vec_z, n, d_z, CUDA_R_64F));
    cusparseSpSVDescr_t spsv;
    CU(cusparseSpSV_createDescr(&spsv));
    CU(cusparseSpSV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat_l, vec_rhs, vec_z,
                               CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, spsv, &bytes));
    void* spsv_buffer = to_device(NULL, bytes);
    CU(cusparseSpSV_analysis(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat_l, vec_rhs, vec_z,
                             CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, spsv, spsv_buffer));
    CU(cusparseSpSV_solve(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat_l, vec_rhs, vec_z,
                          CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, spsv));
    {
        double* z = (double*)from_device(d_z, (size_t)n * sizeof(double));
        for (int64_t i = 0; i < n; ++i) { /* the residual of L z = rhs */
            double r = -rhs[i], m = fabs(rhs[i]);
            for (int e = a.row_ptr[i]; e < a.row_ptr[i + 1]; ++e)
                if (a.col_idx[e] <= i) {
                    r += a.val[e] * z[a.col_idx[e]];
                    m += fabs(a.val[e] * z[a.col_idx[e]]);
                }
            if (!(fabs(r) <= 1e-12 * m)) {
                FAIL("SpSV: residual %g in row %lld", r, (long long)i);
                break;
            }
        }
        record("exact", "spsv", z, n);
        free(z);
    }

    /* ---- accelerated: SpMM, A times 4 columns ---- */
    const int cols = 4;
    double* b = (double*)xmalloc((size_t)n * cols * sizeof(double));
    for (int64_t i = 0; i < (int64_t)n * cols; ++i) b[i] = tcst_rng_symmetric(&rng);
    double* d_b = (double*)to_device(b, (size_t)n * cols * sizeof(double));
    double* d_c = (double*)to_device(NULL, (size_t)n * cols * sizeof(double));
    cusparseDnMatDescr_t mat_b, mat_c;
    CU(cusparseCreateDnMat(&mat_b, n, cols, cols, d_b, CUDA_R_64F, CUSPARSE_ORDER_ROW));
    CU(cusparseCreateDnMat(&mat_c, n, cols, cols, d_c, CUDA_R_64F, CUSPARSE_ORDER_ROW));
    CU(cusparseSpMM_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                               &one, mat_a, mat_b, &zero, mat_c, CUDA_R_64F, CUSPARSE_SPMM_ALG_DEFAULT,
                               &bytes));
    void* spmm_buffer = to_device(NULL, bytes);
    CU(cusparseSpMM(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one,
                    mat_a, mat_b, &zero, mat_c, CUDA_R_64F, CUSPARSE_SPMM_ALG_DEFAULT, spmm_buffer));
    double* c_host = (double*)from_device(d_c, (size_t)n * cols * sizeof(double));
    for (int j = 0; j < cols; ++j) {
        double* column = (double*)xmalloc((size_t)n * sizeof(double));
        double* got = (double*)xmalloc((size_t)n * sizeof(double));
        for (int i = 0; i < n; ++i) column[i] = b[(int64_t)i * cols + j], got[i] = c_host[(int64_t)i * cols + j];
        reference_spmv(&a, 0, 1.0, column, 0.0, NULL, ref, mag);
        expect_close("A B", got, ref, mag, n);
        free(column), free(got);
    }
    record("close", "spmm", c_host, (int64_t)n * cols);

    /* ---- device pointer mode: accelerated CSR SpMV and forwarded COO SpMV ---- */
    const double scalars[2] = {2.0, 0.5};
    double* d_scalars = (double*)to_device(scalars, sizeof scalars);
    CU(cusparseSetPointerMode(h, CUSPARSE_POINTER_MODE_DEVICE));
    CUDA(cudaMemcpy(d_y, y1, (size_t)n * sizeof(double), cudaMemcpyHostToDevice));
    CU(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, d_scalars, mat_a, vec_x, d_scalars + 1,
                    vec_y, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, spmv_buffer));
    reference_spmv(&a, 0, 2.0, x, 0.5, y1, ref, mag);
    {
        double* y = (double*)from_device(d_y, (size_t)n * sizeof(double));
        expect_close("2 A x + y/2 (device scalars)", y, ref, mag, n);
        free(y);
    }
    CUDA(cudaMemcpy(d_y, y1, (size_t)n * sizeof(double), cudaMemcpyHostToDevice));
    CU(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, d_scalars, mat_coo, vec_x, d_scalars + 1,
                    vec_y, CUDA_R_64F, CUSPARSE_SPMV_COO_ALG2, coo_buffer));
    {
        double* y = (double*)from_device(d_y, (size_t)n * sizeof(double));
        expect_close("2 A x + y/2 (COO, device scalars)", y, ref, mag, n);
        free(y);
    }
    CU(cusparseSetPointerMode(h, CUSPARSE_POINTER_MODE_HOST));

    /* ---- accelerated: SpGEMM C = A*A; forwarded: C to dense ---- */
    tcst_csr c_ref;
    if (tcst_ref_spgemm(&a, &a, &c_ref) != 0) return 1;
    double* c_mag = tcst_ref_spgemm_magnitude(&a, &a, &c_ref);
    int* d_c_rp = (int*)to_device(NULL, (size_t)(n + 1) * sizeof(int));
    cusparseSpMatDescr_t mat_cc;
    CU(cusparseCreateCsr(&mat_cc, n, n, 0, d_c_rp, NULL, NULL, CUSPARSE_INDEX_32I,
                         CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    cusparseSpGEMMDescr_t spgemm;
    CU(cusparseSpGEMM_createDescr(&spgemm));
    const cusparseOperation_t nt = CUSPARSE_OPERATION_NON_TRANSPOSE;
    size_t size1 = 0, size2 = 0;
    CU(cusparseSpGEMM_workEstimation(h, nt, nt, &one, mat_a, mat_a, &zero, mat_cc, CUDA_R_64F,
                                     CUSPARSE_SPGEMM_DEFAULT, spgemm, &size1, NULL));
    void* buffer1 = to_device(NULL, size1);
    CU(cusparseSpGEMM_workEstimation(h, nt, nt, &one, mat_a, mat_a, &zero, mat_cc, CUDA_R_64F,
                                     CUSPARSE_SPGEMM_DEFAULT, spgemm, &size1, buffer1));
    CU(cusparseSpGEMM_compute(h, nt, nt, &one, mat_a, mat_a, &zero, mat_cc, CUDA_R_64F,
                              CUSPARSE_SPGEMM_DEFAULT, spgemm, &size2, NULL));
    void* buffer2 = to_device(NULL, size2);
    CU(cusparseSpGEMM_compute(h, nt, nt, &one, mat_a, mat_a, &zero, mat_cc, CUDA_R_64F,
                              CUSPARSE_SPGEMM_DEFAULT, spgemm, &size2, buffer2));
    int64_t c_rows = 0, c_cols = 0, c_nnz = 0;
    CU(cusparseSpMatGetSize(mat_cc, &c_rows, &c_cols, &c_nnz));
    if (c_nnz != c_ref.nnz) FAIL("nnz(A*A) = %lld, expected %lld", (long long)c_nnz, (long long)c_ref.nnz);
    int* d_c_ci = (int*)to_device(NULL, (size_t)c_nnz * sizeof(int));
    double* d_c_val = (double*)to_device(NULL, (size_t)c_nnz * sizeof(double));
    CU(cusparseCsrSetPointers(mat_cc, d_c_rp, d_c_ci, d_c_val));
    CU(cusparseSpGEMM_copy(h, nt, nt, &one, mat_a, mat_a, &zero, mat_cc, CUDA_R_64F,
                           CUSPARSE_SPGEMM_DEFAULT, spgemm));
    {
        int* rp = (int*)from_device(d_c_rp, (size_t)(n + 1) * sizeof(int));
        int* ci = (int*)from_device(d_c_ci, (size_t)c_nnz * sizeof(int));
        double* val = (double*)from_device(d_c_val, (size_t)c_nnz * sizeof(double));
        char msg[256] = "";
        if (tcst_compare_csr(&c_ref, c_mag, rp, ci, val, 1, 0, 1e-12, msg, sizeof msg) != 0)
            FAIL("A*A: %s", msg);
        record("close", "spgemm", val, c_nnz);
        /* C's descriptor in a forwarded call: its real side follows the nnz and arrays
         * tcsparse's compute and CsrSetPointers gave it */
        double* d_dense = (double*)to_device(NULL, (size_t)n * n * sizeof(double));
        cusparseDnMatDescr_t mat_dense;
        CU(cusparseCreateDnMat(&mat_dense, n, n, n, d_dense, CUDA_R_64F, CUSPARSE_ORDER_ROW));
        CU(cusparseSparseToDense_bufferSize(h, mat_cc, mat_dense, CUSPARSE_SPARSETODENSE_ALG_DEFAULT,
                                            &bytes));
        void* s2d_buffer = to_device(NULL, bytes);
        CU(cusparseSparseToDense(h, mat_cc, mat_dense, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, s2d_buffer));
        double* dense = (double*)from_device(d_dense, (size_t)n * n * sizeof(double));
        int64_t placed = 0;
        for (int64_t i = 0; i < n && failures == 0; ++i)
            for (int e = rp[i]; e < rp[i + 1]; ++e) {
                if (dense[i * n + ci[e]] != val[e]) {
                    FAIL("SparseToDense(C)(%lld, %d) = %g, C holds %g", (long long)i, ci[e],
                         dense[i * n + ci[e]], val[e]);
                    break;
                }
                ++placed;
            }
        int64_t nonzero = 0;
        for (int64_t i = 0; i < (int64_t)n * n; ++i) nonzero += dense[i] != 0.0;
        if (nonzero > placed) FAIL("SparseToDense(C) has %lld entries outside C", (long long)(nonzero - placed));
        CU(cusparseDestroyDnMat(mat_dense));
        CUDA(cudaFree(d_dense));
        CUDA(cudaFree(s2d_buffer));
        free(dense), free(rp), free(ci), free(val);
    }

    /* ---- accelerated: SpGEMMreuse, then new values in A (twice A) ---- */
    int* d_r_rp = (int*)to_device(NULL, (size_t)(n + 1) * sizeof(int));
    cusparseSpMatDescr_t mat_r;
    CU(cusparseCreateCsr(&mat_r, n, n, 0, d_r_rp, NULL, NULL, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                         CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    cusparseSpGEMMDescr_t reuse;
    CU(cusparseSpGEMM_createDescr(&reuse));
    size_t s[6] = {0};
    void* rb[6] = {NULL};
    CU(cusparseSpGEMMreuse_workEstimation(h, nt, nt, mat_a, mat_a, mat_r, CUSPARSE_SPGEMM_DEFAULT,
                                          reuse, &s[1], NULL));
    rb[1] = to_device(NULL, s[1]);
    CU(cusparseSpGEMMreuse_workEstimation(h, nt, nt, mat_a, mat_a, mat_r, CUSPARSE_SPGEMM_DEFAULT,
                                          reuse, &s[1], rb[1]));
    CU(cusparseSpGEMMreuse_nnz(h, nt, nt, mat_a, mat_a, mat_r, CUSPARSE_SPGEMM_DEFAULT, reuse, &s[2],
                               NULL, &s[3], NULL, &s[4], NULL));
    for (int i = 2; i <= 4; ++i) rb[i] = to_device(NULL, s[i]);
    CU(cusparseSpGEMMreuse_nnz(h, nt, nt, mat_a, mat_a, mat_r, CUSPARSE_SPGEMM_DEFAULT, reuse, &s[2],
                               rb[2], &s[3], rb[3], &s[4], rb[4]));
    CUDA(cudaFree(rb[1]));
    CUDA(cudaFree(rb[2]));
    int64_t r_nnz = 0;
    CU(cusparseSpMatGetSize(mat_r, &c_rows, &c_cols, &r_nnz));
    int* d_r_ci = (int*)to_device(NULL, (size_t)r_nnz * sizeof(int));
    double* d_r_val = (double*)to_device(NULL, (size_t)r_nnz * sizeof(double));
    CU(cusparseCsrSetPointers(mat_r, d_r_rp, d_r_ci, d_r_val));
    CU(cusparseSpGEMMreuse_copy(h, nt, nt, mat_a, mat_a, mat_r, CUSPARSE_SPGEMM_DEFAULT, reuse, &s[5],
                                NULL));
    rb[5] = to_device(NULL, s[5]);
    CU(cusparseSpGEMMreuse_copy(h, nt, nt, mat_a, mat_a, mat_r, CUSPARSE_SPGEMM_DEFAULT, reuse, &s[5],
                                rb[5]));
    CUDA(cudaFree(rb[3]));
    for (int64_t e = 0; e < nnz; ++e) a.val[e] *= 2.0; /* new values, the same pattern */
    CUDA(cudaMemcpy(d_val, a.val, (size_t)nnz * sizeof(double), cudaMemcpyHostToDevice));
    CU(cusparseSpGEMMreuse_compute(h, nt, nt, &one, mat_a, mat_a, &zero, mat_r, CUDA_R_64F,
                                   CUSPARSE_SPGEMM_DEFAULT, reuse));
    {
        for (int64_t e = 0; e < c_ref.nnz; ++e) c_ref.val[e] *= 4.0, c_mag[e] *= 4.0;
        int* rp = (int*)from_device(d_r_rp, (size_t)(n + 1) * sizeof(int));
        int* ci = (int*)from_device(d_r_ci, (size_t)r_nnz * sizeof(int));
        double* val = (double*)from_device(d_r_val, (size_t)r_nnz * sizeof(double));
        char msg[256] = "";
        if (r_nnz != c_ref.nnz ||
            tcst_compare_csr(&c_ref, c_mag, rp, ci, val, 1, 0, 1e-12, msg, sizeof msg) != 0)
            FAIL("(2A)*(2A) by SpGEMMreuse: %s", msg);
        record("close", "spgemm_reuse", val, r_nnz);
        free(rp), free(ci), free(val);
    }
    for (int64_t e = 0; e < nnz; ++e) a.val[e] /= 2.0;
    CUDA(cudaMemcpy(d_val, a.val, (size_t)nnz * sizeof(double), cudaMemcpyHostToDevice));

    /* ---- 64-bit indices: SpMV and SpMM, which tcsparse runs on the 64-bit arrays ---- */
    int64_t* rp64 = (int64_t*)xmalloc((size_t)(n + 1) * sizeof(int64_t));
    int64_t* ci64 = (int64_t*)xmalloc((size_t)nnz * sizeof(int64_t));
    for (int64_t i = 0; i <= n; ++i) rp64[i] = a.row_ptr[i];
    for (int64_t e = 0; e < nnz; ++e) ci64[e] = a.col_idx[e];
    int64_t* d_rp64 = (int64_t*)to_device(rp64, (size_t)(n + 1) * sizeof(int64_t));
    int64_t* d_ci64 = (int64_t*)to_device(ci64, (size_t)nnz * sizeof(int64_t));
    cusparseSpMatDescr_t mat_64;
    CU(cusparseCreateCsr(&mat_64, n, n, nnz, d_rp64, d_ci64, d_val, CUSPARSE_INDEX_64I,
                         CUSPARSE_INDEX_64I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    CU(cusparseSpMV_bufferSize(h, nt, &one, mat_64, vec_x, &zero, vec_y, CUDA_R_64F,
                               CUSPARSE_SPMV_CSR_ALG2, &bytes));
    void* spmv64_buffer = to_device(NULL, bytes);
    CU(cusparseSpMV(h, nt, &one, mat_64, vec_x, &zero, vec_y, CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG2,
                    spmv64_buffer));
    reference_spmv(&a, 0, 1.0, x, 0.0, NULL, ref, mag);
    {
        double* y = (double*)from_device(d_y, (size_t)n * sizeof(double));
        expect_close("A x, 64-bit indices", y, ref, mag, n);
        record("close", "spmv64", y, n);
        free(y);
    }
    /* 64-bit offsets with 32-bit columns: cuSPARSE 12.6 refuses the descriptor itself
     * (NOT_SUPPORTED from cusparseCreateCsr), and tcsparse alike; where a cuSPARSE takes
     * the descriptor, the shim forwards the SpMV, which cuSPARSE computes or refuses
     * alike on every route. Statuses and y are recorded as they come. */
    cusparseSpMatDescr_t mat_mixed = NULL;
    const cusparseStatus_t made =
        cusparseCreateCsr(&mat_mixed, n, n, nnz, d_rp64, d_ci, d_val, CUSPARSE_INDEX_64I,
                          CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
    if (made != CUSPARSE_STATUS_SUCCESS && made != CUSPARSE_STATUS_NOT_SUPPORTED)
        FAIL("CreateCsr with mixed index widths: status %d", (int)made);
    if (made == CUSPARSE_STATUS_SUCCESS) {
        size_t mixed_bytes = 0;
        const cusparseStatus_t mixed =
            cusparseSpMV_bufferSize(h, nt, &one, mat_mixed, vec_x, &zero, vec_y, CUDA_R_64F,
                                    CUSPARSE_SPMV_CSR_ALG2, &mixed_bytes);
        if (mixed == CUSPARSE_STATUS_SUCCESS) {
            void* mixed_buffer = to_device(NULL, mixed_bytes);
            CU(cusparseSpMV(h, nt, &one, mat_mixed, vec_x, &zero, vec_y, CUDA_R_64F,
                            CUSPARSE_SPMV_CSR_ALG2, mixed_buffer));
            double* y = (double*)from_device(d_y, (size_t)n * sizeof(double));
            expect_close("A x, 64-bit offsets and 32-bit columns", y, ref, mag, n);
            record("exact", "spmv_mixed", y, n);
            free(y);
            cudaFree(mixed_buffer);
        } else if (mixed != CUSPARSE_STATUS_NOT_SUPPORTED) {
            FAIL("SpMV with mixed index widths: status %d", (int)mixed);
        }
        CU(cusparseDestroySpMat(mat_mixed));
    }
    CU(cusparseSpMM_bufferSize(h, nt, nt, &one, mat_64, mat_b, &zero, mat_c, CUDA_R_64F,
                               CUSPARSE_SPMM_ALG_DEFAULT, &bytes));
    void* spmm64_buffer = to_device(NULL, bytes);
    CU(cusparseSpMM(h, nt, nt, &one, mat_64, mat_b, &zero, mat_c, CUDA_R_64F,
                    CUSPARSE_SPMM_ALG_DEFAULT, spmm64_buffer));
    {
        double* got = (double*)from_device(d_c, (size_t)n * cols * sizeof(double));
        for (int64_t i = 0; i < (int64_t)n * cols; ++i)
            if (!(fabs(got[i] - c_host[i]) <= 1e-12 * (fabs(c_host[i]) + 1e3))) {
                FAIL("A B with 64-bit indices differs at %lld: %g vs %g", (long long)i, got[i], c_host[i]);
                break;
            }
        record("close", "spmm64", got, (int64_t)n * cols);
        free(got);
    }

    /* teardown: every object through the shim's destroy functions */
    CU(cusparseDestroySpMat(mat_64));
    CU(cusparseDestroySpMat(mat_r));
    CU(cusparseSpGEMM_destroyDescr(reuse));
    CU(cusparseSpGEMM_destroyDescr(spgemm));
    CU(cusparseDestroySpMat(mat_cc));
    CU(cusparseDestroyDnMat(mat_b));
    CU(cusparseDestroyDnMat(mat_c));
    CU(cusparseSpSV_destroyDescr(spsv));
    CU(cusparseDestroyDnVec(vec_rhs));
    CU(cusparseDestroyDnVec(vec_z));
    CU(cusparseDestroySpMat(mat_coo));
    CU(cusparseDestroyDnVec(vec_x));
    CU(cusparseDestroyDnVec(vec_y));
    CU(cusparseDestroySpMat(mat_l));
    CU(cusparseDestroySpMat(mat_a));
    CU(cusparseDestroySpVec(sorted_values));
    CU(cusparseDestroyDnVec(unsorted_values));
    CU(cusparseDestroyMatDescr(legacy));
    CU(cusparseDestroy(h));
    CUDA(cudaStreamDestroy(stream));
    if (dump != NULL) fclose(dump);
    free(x), free(rhs), free(ref), free(mag), free(y1), free(b), free(c_host), free(rp64), free(ci64);
    free(c_mag);
    tcst_csr_free(&c_ref), tcst_csr_free(&a), tcst_csr_free(&shuffled);
    /* device arrays are released with the context at exit */
    if (failures > 0) {
        fprintf(stderr, "interleaved: %d check(s) failed\n", failures);
        return 1;
    }
    printf("interleaved: every result equals the CPU's (n = %d, nnz = %lld)\n", n, (long long)nnz);
    return 0;
}
