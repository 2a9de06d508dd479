/* A CUDA error the caller left pending (issue 38, item 2). The runtime keeps one last
 * error per host thread and per runtime; a failed cudaMalloc leaves
 * cudaErrorMemoryAllocation in this program's (the shared libcudart). libtcsparse links
 * the runtime statically, so it neither sees that error nor clears it: its calls run and
 * meet the CPU reference while the error is pending, and the caller's cudaGetLastError
 * still returns the error afterwards, exactly once (tcsparse neither blames itself for
 * it nor erases it). SpMV, SpMM (preprocess and compute), SpGEMM's workEstimation and
 * tcsCheckMatrixCsr, on fresh random matrices. Exits 77 (skipped) without a GPU. Under
 * compute-sanitizer the deliberate failed cudaMalloc is reported as an API error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tcs_test_support.h"
#include "tcsparse.h"
#include "tcst_status.h"

#include <cuda_runtime_api.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t seed;

static void leave_error_pending(void) {
    void* p = NULL;
    assert_int_equal(cudaMalloc(&p, (size_t)1 << 60), cudaErrorMemoryAllocation);
    assert_int_equal(cudaPeekAtLastError(), cudaErrorMemoryAllocation);
}

/* The caller's error is still there, exactly once. */
static void take_pending_error(void) {
    assert_int_equal(cudaGetLastError(), cudaErrorMemoryAllocation);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
}

typedef struct {
    tcst_csr a;
    int *rp, *ci;
    void* val;
    tcsHandle_t h;
    tcsSpMatDescr_t mat;
} operand;

static void make_operand(operand* o, int64_t rows, int64_t cols, int per_row, uint64_t s) {
    assert_int_equal(tcst_gen_uniform(rows, cols, per_row, s, &o->a), 0);
    assert_int_equal(tcst_csr_upload(&o->a, 0, 1, &o->rp, &o->ci, &o->val), 0);
    assert_ok(tcsCreate(&o->h));
    assert_ok(tcsCreateCsr(&o->mat, rows, cols, o->a.nnz, o->rp, o->ci, o->val, TCS_INDEX_32I,
                           TCS_INDEX_32I, TCS_INDEX_BASE_ZERO, CUDA_R_64F));
}

static void free_operand(operand* o) {
    assert_ok(tcsDestroySpMat(o->mat));
    assert_ok(tcsDestroy(o->h));
    tcst_device_free(o->rp);
    tcst_device_free(o->ci);
    tcst_device_free(o->val);
    tcst_csr_free(&o->a);
}

static double* random_doubles(int64_t count, tcst_rng* r) {
    double* x = malloc((size_t)count * sizeof(double));
    assert_non_null(x);
    for (int64_t i = 0; i < count; ++i) x[i] = tcst_rng_symmetric(r);
    return x;
}

static void* upload_doubles(const double* x, int64_t count) {
    void* d = tcst_device_poisoned((size_t)count * sizeof(double));
    assert_non_null(d);
    assert_int_equal(cudaMemcpy(d, x, (size_t)count * sizeof(double), cudaMemcpyHostToDevice), cudaSuccess);
    return d;
}

/* Runs C = A * B (n columns, column-major) through SpMM (n > 1) or SpMV (n == 1) with a
 * pending error first, then without. */
static void check_product(int64_t n) {
    tcst_rng r;
    tcst_rng_seed(&r, seed + (uint64_t)n);
    const int64_t m = 200 + (int64_t)tcst_rng_below(&r, 300), k = 100 + (int64_t)tcst_rng_below(&r, 300);
    operand o;
    make_operand(&o, m, k, 1 + (int)tcst_rng_below(&r, 12), seed + 11 * (uint64_t)n);
    double* b = random_doubles(k * n, &r);
    double* c0 = random_doubles(m * n, &r);
    void* db = upload_doubles(b, k * n);
    void* dc = upload_doubles(c0, m * n);
    const double alpha = 1.25, beta = -0.5;
    size_t bytes = 0;
    void* buffer = NULL;
    tcsDnMatDescr_t mb = NULL, mc = NULL;
    tcsDnVecDescr_t vx = NULL, vy = NULL;
    if (n == 1) {
        assert_ok(tcsCreateDnVec(&vx, k, db, CUDA_R_64F));
        assert_ok(tcsCreateDnVec(&vy, m, dc, CUDA_R_64F));
        leave_error_pending(); /* size queries do not look at it */
        assert_ok(tcsSpMV_bufferSize(o.h, TCS_OPERATION_NON_TRANSPOSE, &alpha, o.mat, vx, &beta, vy,
                                     CUDA_R_64F, TCS_SPMV_ALG_DEFAULT, &bytes));
        take_pending_error();
    } else {
        assert_ok(tcsCreateDnMat(&mb, k, n, k, db, CUDA_R_64F, TCS_ORDER_COL));
        assert_ok(tcsCreateDnMat(&mc, m, n, m, dc, CUDA_R_64F, TCS_ORDER_COL));
        leave_error_pending();
        assert_ok(tcsSpMM_bufferSize(o.h, TCS_OPERATION_NON_TRANSPOSE, TCS_OPERATION_NON_TRANSPOSE,
                                     &alpha, o.mat, mb, &beta, mc, CUDA_R_64F, TCS_SPMM_ALG_DEFAULT,
                                     &bytes));
        take_pending_error();
    }
    buffer = tcst_device_poisoned(bytes > 0 ? bytes : 1);
    assert_non_null(buffer);

    for (int pass = 0; pass < 2; ++pass) {
        const int pending = pass == 0;
        /* Each pass from the same C (beta != 0). */
        assert_int_equal(cudaMemcpy(dc, c0, (size_t)(m * n) * sizeof(double), cudaMemcpyHostToDevice),
                         cudaSuccess);
        if (pending) leave_error_pending();
        tcsStatus_t pre, st;
        if (n == 1) {
            pre = tcsSpMV_preprocess(o.h, TCS_OPERATION_NON_TRANSPOSE, &alpha, o.mat, vx, &beta, vy,
                                     CUDA_R_64F, TCS_SPMV_ALG_DEFAULT, buffer);
            st = tcsSpMV(o.h, TCS_OPERATION_NON_TRANSPOSE, &alpha, o.mat, vx, &beta, vy, CUDA_R_64F,
                         TCS_SPMV_ALG_DEFAULT, buffer);
        } else {
            pre = tcsSpMM_preprocess(o.h, TCS_OPERATION_NON_TRANSPOSE, TCS_OPERATION_NON_TRANSPOSE,
                                     &alpha, o.mat, mb, &beta, mc, CUDA_R_64F, TCS_SPMM_ALG_DEFAULT,
                                     buffer);
            st = tcsSpMM(o.h, TCS_OPERATION_NON_TRANSPOSE, TCS_OPERATION_NON_TRANSPOSE, &alpha, o.mat,
                         mb, &beta, mc, CUDA_R_64F, TCS_SPMM_ALG_DEFAULT, buffer);
        }
        assert_ok(pre);
        assert_ok(st);
        /* The caller's error is still there, exactly once: not taken by tcsparse. */
        if (pending) take_pending_error();
        {
            assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
            double* ref = malloc((size_t)(m * n) * sizeof(double));
            double* got = malloc((size_t)(m * n) * sizeof(double));
            assert_non_null(ref);
            assert_non_null(got);
            double* mag = malloc((size_t)(m * n) * sizeof(double));
            double* abs_b = malloc((size_t)(k * n) * sizeof(double));
            assert_non_null(mag);
            assert_non_null(abs_b);
            tcst_csr abs_a;
            assert_int_equal(tcst_csr_copy(&o.a, &abs_a), 0);
            for (int64_t e = 0; e < abs_a.nnz; ++e) abs_a.val[e] = fabs(abs_a.val[e]);
            for (int64_t i = 0; i < k * n; ++i) abs_b[i] = fabs(b[i]);
            for (int64_t i = 0; i < m * n; ++i) {
                ref[i] = c0[i];
                mag[i] = fabs(c0[i]);
            }
            tcst_ref_spmm(0, 0, alpha, &o.a, b, k, n, beta, ref, m);
            tcst_ref_spmm(0, 0, fabs(alpha), &abs_a, abs_b, k, n, fabs(beta), mag, m);
            assert_int_equal(tcst_device_download(got, dc, (size_t)(m * n) * sizeof(double)), 0);
            const double worst = tcst_compare_dense(ref, mag, got, m * n);
            tcst_csr_free(&abs_a);
            free(abs_b);
            free(mag);
            if (!(worst <= 1e-12)) fail_msg("n=%lld: C off the reference by %g (relative)", (long long)n, worst);
            free(ref);
            free(got);
        }
    }
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    if (vx != NULL) assert_ok(tcsDestroyDnVec(vx));
    if (vy != NULL) assert_ok(tcsDestroyDnVec(vy));
    if (mb != NULL) assert_ok(tcsDestroyDnMat(mb));
    if (mc != NULL) assert_ok(tcsDestroyDnMat(mc));
    tcst_device_free(buffer);
    tcst_device_free(db);
    tcst_device_free(dc);
    free(b);
    free(c0);
    free_operand(&o);
}

static void test_spmv(void** state) {
    (void)state;
    check_product(1);
}

static void test_spmm(void** state) {
    (void)state;
    check_product(8);
}

static void test_spgemm_and_check(void** state) {
    (void)state;
    operand o;
    make_operand(&o, 300, 300, 6, seed + 5);
    int* crp = NULL;
    assert_int_equal(cudaMalloc((void**)&crp, 301 * sizeof(int)), cudaSuccess);
    tcsSpMatDescr_t c = NULL;
    assert_ok(tcsCreateCsr(&c, 300, 300, 0, crp, NULL, NULL, TCS_INDEX_32I, TCS_INDEX_32I,
                           TCS_INDEX_BASE_ZERO, CUDA_R_64F));
    tcsSpGEMMDescr_t d = NULL;
    assert_ok(tcsSpGEMM_createDescr(&d));
    const double alpha = 1.0, beta = 0.0;
    size_t bytes1 = 0;
    leave_error_pending();
    assert_ok(tcsSpGEMM_workEstimation(o.h, TCS_OPERATION_NON_TRANSPOSE, TCS_OPERATION_NON_TRANSPOSE,
                                       &alpha, o.mat, o.mat, &beta, c, CUDA_R_64F, TCS_SPGEMM_DEFAULT,
                                       d, &bytes1, NULL));
    take_pending_error();
    void* buffer1 = tcst_device_poisoned(bytes1 > 0 ? bytes1 : 1);
    assert_non_null(buffer1);
    leave_error_pending();
    assert_ok(tcsSpGEMM_workEstimation(o.h, TCS_OPERATION_NON_TRANSPOSE, TCS_OPERATION_NON_TRANSPOSE,
                                       &alpha, o.mat, o.mat, &beta, c, CUDA_R_64F, TCS_SPGEMM_DEFAULT,
                                       d, &bytes1, buffer1));
    take_pending_error();
    int64_t products = -1;
    assert_ok(tcsSpGEMM_getNumProducts(d, &products));
    assert_int_equal(products, tcst_ref_num_products(&o.a, &o.a));

    size_t check_bytes = 0;
    assert_ok(tcsCheckMatrixCsr_bufferSize(o.h, o.mat, TCS_CHECK_STRUCTURE, &check_bytes));
    void* scratch = tcst_device_poisoned(check_bytes > 0 ? check_bytes : 1);
    assert_non_null(scratch);
    tcsDataStatus_t ds = (tcsDataStatus_t)-1;
    leave_error_pending();
    assert_ok(tcsCheckMatrixCsr(o.h, o.mat, TCS_CHECK_STRUCTURE, &ds, scratch));
    take_pending_error();
    assert_int_equal(ds, TCS_DATA_STATUS_SUCCESS);
    assert_int_equal(cudaGetLastError(), cudaSuccess);

    tcst_device_free(scratch);
    tcst_device_free(buffer1);
    assert_ok(tcsSpGEMM_destroyDescr(d));
    assert_ok(tcsDestroySpMat(c));
    tcst_device_free(crp);
    free_operand(&o);
}

int main(void) {
    if (!tcst_gpu_available()) {
        printf("no GPU: skipped\n");
        return 77;
    }
    seed = tcst_fresh_seed();
    printf("seed %llu (TCST_SEED=%llu reproduces)\n", (unsigned long long)seed, (unsigned long long)seed);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spmv),
        cmocka_unit_test(test_spmm),
        cmocka_unit_test(test_spgemm_and_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
