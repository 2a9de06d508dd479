/*
 * A solver's sparse products, written against the cuSPARSE generic API in exactly the
 * call sequence PETSc (MatProduct on MATSEQAIJCUSPARSE) and hypre (its vendor SpGEMM
 * and SpMM paths) use. The source is plain cuSPARSE code; tests/swapin.cmake builds it
 *   - as swapin_solver_style: with tcsparse_cusparse.h forced in first
 *     (-include), so the #include <cusparse.h> below becomes a no-op, linked with
 *     tcsparse only;
 *   - as solver_style_cusparse: against the real cuSPARSE, which the LD_PRELOAD test
 *     then runs unmodified with libtcsparse_cusparse.so preloaded.
 * Every result is checked against the CPU reference of tests/support. Exit status: 0
 * when all products are right, 1 otherwise, 77 without a GPU (ctest: skipped).
 */
#include <cusparse.h>

#include <cuda_runtime_api.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tcs_test_support.h"

#define CHECK_CUDA(call)                                                                 \
    do {                                                                                 \
        const cudaError_t e_ = (call);                                                   \
        if (e_ != cudaSuccess) {                                                         \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                \
                    cudaGetErrorString(e_));                                             \
            goto done;                                                                   \
        }                                                                                \
    } while (0)

#define CHECK_CUSPARSE(call)                                                             \
    do {                                                                                 \
        const cusparseStatus_t s_ = (call);                                              \
        if (s_ != CUSPARSE_STATUS_SUCCESS) {                                             \
            fprintf(stderr, "%s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #call,           \
                    cusparseGetErrorName(s_), cusparseGetErrorString(s_));               \
            goto done;                                                                   \
        }                                                                                \
    } while (0)

#define EXPECT(cond, ...)                                                                \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, __VA_ARGS__);                                                \
            goto done;                                                                   \
        }                                                                                \
    } while (0)

/* The device side of a host CSR matrix (0-based, double). */
typedef struct {
    int* row_ptr;
    int* col_idx;
    void* val;
} device_csr;

static void device_csr_free(device_csr* d) {
    tcst_device_free(d->row_ptr);
    tcst_device_free(d->col_idx);
    tcst_device_free(d->val);
}

/* Downloads C (rows+1 offsets, nnz columns and values) and compares it with the
 * reference product of a and b. Returns 0 when equal within 1e-12 of the magnitudes. */
static int check_product(const tcst_csr* a, const tcst_csr* b, const int* d_rp,
                         const int* d_ci, const double* d_val, int64_t nnz, const char* what) {
    tcst_csr ref = {0};
    double* mag = NULL;
    int* rp = malloc(sizeof(int) * (size_t)(a->rows + 1));
    int* ci = malloc(sizeof(int) * (size_t)(nnz > 0 ? nnz : 1));
    double* val = malloc(sizeof(double) * (size_t)(nnz > 0 ? nnz : 1));
    char msg[512] = "";
    int rc = 1;
    if (rp == NULL || ci == NULL || val == NULL || tcst_ref_spgemm(a, b, &ref) != 0) goto out;
    if (nnz != ref.nnz) {
        fprintf(stderr, "%s: nnz(C) = %lld, reference %lld\n", what, (long long)nnz,
                (long long)ref.nnz);
        goto out;
    }
    mag = tcst_ref_spgemm_magnitude(a, b, &ref);
    if (mag == NULL ||
        cudaMemcpy(rp, d_rp, sizeof(int) * (size_t)(a->rows + 1), cudaMemcpyDeviceToHost) !=
            cudaSuccess ||
        cudaMemcpy(ci, d_ci, sizeof(int) * (size_t)nnz, cudaMemcpyDeviceToHost) != cudaSuccess ||
        cudaMemcpy(val, d_val, sizeof(double) * (size_t)nnz, cudaMemcpyDeviceToHost) !=
            cudaSuccess)
        goto out;
    rc = tcst_compare_csr(&ref, mag, rp, ci, val, 1, 0, 1e-12, msg, sizeof msg);
    if (rc != 0) fprintf(stderr, "%s: %s\n", what, msg);
out:
    free(rp);
    free(ci);
    free(val);
    free(mag);
    tcst_csr_free(&ref);
    return rc;
}

int main(void) {
    if (!tcst_gpu_available()) {
        printf("solver_style: no CUDA GPU, skipped\n");
        return TCST_SKIP;
    }
    const uint64_t seed = tcst_fresh_seed();
    printf("solver_style: seed %llu (TCST_SEED=%llu reproduces it)\n", (unsigned long long)seed,
           (unsigned long long)seed);

    int ok = 0;
    tcst_csr a = {0}, p = {0}, abs_a = {0};
    device_csr da = {0}, dp = {0};
    int* c_rp = NULL;
    int* c_ci = NULL;
    double* c_val = NULL;
    double* d_scalars = NULL; /* alpha = 1, beta = 0 on the device, as PETSc keeps them */
    void *buffer1 = NULL, *buffer2 = NULL, *spmm_buffer = NULL;
    double *x = NULL, *y = NULL, *dx = NULL, *dy = NULL, *y_ref = NULL, *y_mag = NULL,
           *abs_x = NULL, *abs_y = NULL;
    cudaStream_t stream = NULL;
    cusparseHandle_t handle = NULL;
    cusparseSpMatDescr_t mat_a = NULL, mat_p = NULL, mat_c = NULL;
    cusparseSpGEMMDescr_t spgemm = NULL;
    cusparseDnMatDescr_t mat_x = NULL, mat_y = NULL;

    /* A: a 3D 27-point operator; P: a tall "prolongation" with 4 entries per row. */
    EXPECT(tcst_gen_stencil27(10, 10, 10, 1, seed, &a) == 0, "generating A failed\n");
    EXPECT(tcst_gen_uniform(a.cols, 211, 4, seed + 1, &p) == 0, "generating P failed\n");
    const int64_t m = a.rows, k = a.cols, n = p.cols;
    EXPECT(tcst_csr_upload(&a, 0, 1, &da.row_ptr, &da.col_idx, &da.val) == 0, "upload A\n");
    EXPECT(tcst_csr_upload(&p, 0, 1, &dp.row_ptr, &dp.col_idx, &dp.val) == 0, "upload P\n");

    CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CHECK_CUSPARSE(cusparseCreate(&handle));
    CHECK_CUSPARSE(cusparseSetStream(handle, stream));

    /* ---- SpGEMM C = A * P, the PETSc symbolic + numeric sequence ---- */
    const double scalars[2] = {1.0, 0.0};
    CHECK_CUDA(cudaMalloc((void**)&d_scalars, sizeof scalars));
    CHECK_CUDA(cudaMemcpy(d_scalars, scalars, sizeof scalars, cudaMemcpyHostToDevice));
    const double* alpha = d_scalars;
    const double* beta = d_scalars + 1;
    /* [petsc] */
    CHECK_CUSPARSE(cusparseSetPointerMode(handle, CUSPARSE_POINTER_MODE_DEVICE));

    CHECK_CUSPARSE(cusparseCreateCsr(&mat_a, m, k, a.nnz, da.row_ptr, da.col_idx, da.val,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    CHECK_CUSPARSE(cusparseCreateCsr(&mat_p, k, n, p.nnz, dp.row_ptr, dp.col_idx, dp.val,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    /* C: nnz 0, no column or value array, but the caller's row pointer already given
     * ("cuda-12.2 requires non-null csrRowOffsets", says PETSc) */
    CHECK_CUDA(cudaMalloc((void**)&c_rp, sizeof(int) * (size_t)(m + 1)));
    CHECK_CUSPARSE(cusparseCreateCsr(&mat_c, m, n, 0, c_rp, NULL, NULL, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    CHECK_CUSPARSE(cusparseSpGEMM_createDescr(&spgemm));

    const cusparseOperation_t op = CUSPARSE_OPERATION_NON_TRANSPOSE;
    size_t size1 = 0, size2 = 0;
    CHECK_CUSPARSE(cusparseSpGEMM_workEstimation(handle, op, op, alpha, mat_a, mat_p, beta,
                                                 mat_c, CUDA_R_64F, CUSPARSE_SPGEMM_DEFAULT,
                                                 spgemm, &size1, NULL));
    CHECK_CUDA(cudaMalloc(&buffer1, size1));
    CHECK_CUSPARSE(cusparseSpGEMM_workEstimation(handle, op, op, alpha, mat_a, mat_p, beta,
                                                 mat_c, CUDA_R_64F, CUSPARSE_SPGEMM_DEFAULT,
                                                 spgemm, &size1, buffer1));
    CHECK_CUSPARSE(cusparseSpGEMM_compute(handle, op, op, alpha, mat_a, mat_p, beta, mat_c,
                                          CUDA_R_64F, CUSPARSE_SPGEMM_DEFAULT, spgemm, &size2,
                                          NULL));
    CHECK_CUDA(cudaMalloc(&buffer2, size2));
    CHECK_CUSPARSE(cusparseSpGEMM_compute(handle, op, op, alpha, mat_a, mat_p, beta, mat_c,
                                          CUDA_R_64F, CUSPARSE_SPGEMM_DEFAULT, spgemm, &size2,
                                          buffer2));
    int64_t c_rows = 0, c_cols = 0, c_nnz = 0;
    CHECK_CUSPARSE(cusparseSpMatGetSize(mat_c, &c_rows, &c_cols, &c_nnz));
    EXPECT(c_rows == m && c_cols == n, "C is %lld x %lld\n", (long long)c_rows,
           (long long)c_cols);
    CHECK_CUDA(cudaMalloc((void**)&c_ci, sizeof(int) * (size_t)(c_nnz > 0 ? c_nnz : 1)));
    CHECK_CUDA(cudaMalloc((void**)&c_val, sizeof(double) * (size_t)(c_nnz > 0 ? c_nnz : 1)));
    CHECK_CUSPARSE(cusparseCsrSetPointers(mat_c, c_rp, c_ci, c_val));
    CHECK_CUSPARSE(cusparseSpGEMM_copy(handle, op, op, alpha, mat_a, mat_p, beta, mat_c,
                                       CUDA_R_64F, CUSPARSE_SPGEMM_DEFAULT, spgemm));
    /* [petsc] */
    CHECK_CUDA(cudaStreamSynchronize(stream));
    EXPECT(check_product(&a, &p, c_rp, c_ci, c_val, c_nnz, "C = A*P") == 0, "wrong C\n");

    /* Numeric reuse: new values in A (same pattern), compute + copy again on the same
     * descriptor and buffers, as PETSc's MatProductNumeric does. */
    tcst_rng rng;
    tcst_rng_seed(&rng, seed + 2);
    for (int64_t i = 0; i < a.nnz; ++i) a.val[i] = tcst_rng_symmetric(&rng);
    CHECK_CUDA(cudaMemcpy(da.val, a.val, sizeof(double) * (size_t)a.nnz, cudaMemcpyHostToDevice));
    /* [petsc_numeric] */
    CHECK_CUSPARSE(cusparseSpGEMM_compute(handle, op, op, alpha, mat_a, mat_p, beta, mat_c,
                                          CUDA_R_64F, CUSPARSE_SPGEMM_DEFAULT, spgemm, &size2,
                                          buffer2));
    CHECK_CUSPARSE(cusparseSpGEMM_copy(handle, op, op, alpha, mat_a, mat_p, beta, mat_c,
                                       CUDA_R_64F, CUSPARSE_SPGEMM_DEFAULT, spgemm));
    /* [petsc_numeric] */
    CHECK_CUDA(cudaStreamSynchronize(stream));
    EXPECT(check_product(&a, &p, c_rp, c_ci, c_val, c_nnz, "C = A'*P (reuse)") == 0,
           "wrong C after reuse\n");

    /* ---- SpMM Y = alpha*A*X + beta*Y, hypre's multivector product: column-major,
     * host scalars, CUSPARSE_SPMM_CSR_ALG3 ---- */
    const int64_t nv = 5;
    const double h_alpha = 1.5, h_beta = -0.5;
    x = malloc(sizeof(double) * (size_t)(k * nv));
    y = malloc(sizeof(double) * (size_t)(m * nv));
    y_ref = malloc(sizeof(double) * (size_t)(m * nv));
    y_mag = malloc(sizeof(double) * (size_t)(m * nv));
    abs_x = malloc(sizeof(double) * (size_t)(k * nv));
    abs_y = malloc(sizeof(double) * (size_t)(m * nv));
    EXPECT(x && y && y_ref && y_mag && abs_x && abs_y, "out of host memory\n");
    for (int64_t i = 0; i < k * nv; ++i) abs_x[i] = fabs(x[i] = tcst_rng_symmetric(&rng));
    for (int64_t i = 0; i < m * nv; ++i)
        abs_y[i] = y_mag[i] = fabs(y_ref[i] = y[i] = tcst_rng_symmetric(&rng));
    CHECK_CUDA(cudaMalloc((void**)&dx, sizeof(double) * (size_t)(k * nv)));
    CHECK_CUDA(cudaMalloc((void**)&dy, sizeof(double) * (size_t)(m * nv)));
    CHECK_CUDA(cudaMemcpy(dx, x, sizeof(double) * (size_t)(k * nv), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dy, y, sizeof(double) * (size_t)(m * nv), cudaMemcpyHostToDevice));

    /* [hypre_spmm] */
    CHECK_CUSPARSE(cusparseSetPointerMode(handle, CUSPARSE_POINTER_MODE_HOST));
    CHECK_CUSPARSE(cusparseCreateDnMat(&mat_x, k, nv, k, dx, CUDA_R_64F, CUSPARSE_ORDER_COL));
    CHECK_CUSPARSE(cusparseCreateDnMat(&mat_y, m, nv, m, dy, CUDA_R_64F, CUSPARSE_ORDER_COL));
    size_t spmm_size = 0;
    CHECK_CUSPARSE(cusparseSpMM_bufferSize(handle, op, op, &h_alpha, mat_a, mat_x, &h_beta,
                                           mat_y, CUDA_R_64F, CUSPARSE_SPMM_CSR_ALG3,
                                           &spmm_size));
    if (spmm_size > 0) CHECK_CUDA(cudaMalloc(&spmm_buffer, spmm_size));
    CHECK_CUSPARSE(cusparseSpMM(handle, op, op, &h_alpha, mat_a, mat_x, &h_beta, mat_y,
                                CUDA_R_64F, CUSPARSE_SPMM_CSR_ALG3, spmm_buffer));
    /* [hypre_spmm] */
    CHECK_CUDA(cudaStreamSynchronize(stream));
    CHECK_CUDA(cudaMemcpy(y, dy, sizeof(double) * (size_t)(m * nv), cudaMemcpyDeviceToHost));

    /* reference and the magnitude |alpha|*|A|*|X| + |beta|*|Y| that bounds its error */
    EXPECT(tcst_csr_copy(&a, &abs_a) == 0, "out of host memory\n");
    for (int64_t i = 0; i < abs_a.nnz; ++i) abs_a.val[i] = fabs(abs_a.val[i]);
    tcst_ref_spmm(0, 0, h_alpha, &a, x, k, nv, h_beta, y_ref, m);
    tcst_ref_spmm(0, 0, fabs(h_alpha), &abs_a, abs_x, k, nv, fabs(h_beta), y_mag, m);
    const double worst = tcst_compare_dense(y_ref, y_mag, y, m * nv);
    EXPECT(worst <= 1e-12, "Y = alpha*A*X + beta*Y: worst error %.3g of the magnitude\n", worst);
    printf("solver_style: C = A*P (%lld x %lld, nnz %lld) twice and Y = A*X (%lld columns) "
           "match the reference\n",
           (long long)m, (long long)n, (long long)c_nnz, (long long)nv);
    ok = 1;

done:
    cusparseDestroyDnMat(mat_x);
    cusparseDestroyDnMat(mat_y);
    cusparseSpGEMM_destroyDescr(spgemm);
    cusparseDestroySpMat(mat_a);
    cusparseDestroySpMat(mat_p);
    cusparseDestroySpMat(mat_c);
    cusparseDestroy(handle);
    if (stream != NULL) cudaStreamDestroy(stream);
    tcst_device_free(buffer1);
    tcst_device_free(buffer2);
    tcst_device_free(spmm_buffer);
    tcst_device_free(d_scalars);
    tcst_device_free(c_rp);
    tcst_device_free(c_ci);
    tcst_device_free(c_val);
    tcst_device_free(dx);
    tcst_device_free(dy);
    device_csr_free(&da);
    device_csr_free(&dp);
    tcst_csr_free(&a);
    tcst_csr_free(&p);
    tcst_csr_free(&abs_a);
    free(x);
    free(y);
    free(y_ref);
    free(y_mag);
    free(abs_x);
    free(abs_y);
    return ok ? 0 : 1;
}
