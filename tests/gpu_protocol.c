/* The SpGEMM protocol on a GPU: the stages must come in order (workEstimation with a
 * buffer, compute with a buffer, copy), with the same algorithm and the same A and B
 * structure, buffers at least as large as queried; size queries are stable; and the
 * order the header documents, run to its end, gives the reference product. Small
 * uploaded matrices; exits 77 (skipped) without a GPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tcs_test_support.h"
#include "tcst_shard.h"
#include "tcsparse.h"
#include "tcst_status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INVALID TCS_STATUS_INVALID_VALUE
#define NOT_INIT TCS_STATUS_NOT_INITIALIZED
#define DEFAULT_ALG TCS_SPGEMM_DEFAULT

static const float one = 1.0f, zero = 0.0f;

/* A device copy of a host matrix and its descriptor. */
typedef struct {
    tcst_csr host;
    int *rp, *ci;
    void* val;
    tcsConstSpMatDescr_t descr;
} input;

/* Shared by all tests: the handle and the inputs A (30 x 20), A2 (same size, another
 * pattern) and B (20 x 25). Per test: the output C and the SpGEMM descriptor. */
static struct {
    tcsHandle_t handle;
    input a, a2, b;
    int* c_rp;
    tcsSpMatDescr_t c;
    tcsSpGEMMDescr_t d;
    void* buffers[8]; /* freed after each test */
    int n_buffers;
} fx;

static int upload(input* in, int64_t rows, int64_t cols, int per_row, uint64_t seed) {
    if (tcst_gen_uniform(rows, cols, per_row, seed, &in->host) != 0 ||
        tcst_csr_upload(&in->host, 0, 0, &in->rp, &in->ci, &in->val) != 0)
        return -1;
    return tcsCreateConstCsr(&in->descr, rows, cols, in->host.nnz, in->rp, in->ci, in->val,
                             TCS_INDEX_32I, TCS_INDEX_32I, TCS_INDEX_BASE_ZERO,
                             CUDA_R_32F) == TCS_STATUS_SUCCESS
               ? 0
               : -1;
}

static void release(input* in) {
    tcsDestroySpMat(in->descr);
    tcst_device_free(in->rp);
    tcst_device_free(in->ci);
    tcst_device_free(in->val);
    tcst_csr_free(&in->host);
}

static int group_setup(void** state) {
    (void)state;
    const uint64_t seed = tcst_fresh_seed();
    printf("gpu_protocol: seed %llu (TCST_SEED=%llu reproduces)\n", (unsigned long long)seed,
           (unsigned long long)seed);
    if (tcsCreate(&fx.handle) != TCS_STATUS_SUCCESS) return -1;
    if (upload(&fx.a, 30, 20, 4, seed) != 0 || upload(&fx.a2, 30, 20, 5, seed + 1) != 0 ||
        upload(&fx.b, 20, 25, 3, seed + 2) != 0)
        return -1;
    fx.c_rp = (int*)tcst_device_poisoned(31 * sizeof(int));
    return fx.c_rp != NULL ? 0 : -1;
}

static int group_teardown(void** state) {
    (void)state;
    release(&fx.a);
    release(&fx.a2);
    release(&fx.b);
    tcst_device_free(fx.c_rp);
    tcsDestroy(fx.handle);
    return 0;
}

static int setup(void** state) {
    (void)state;
    fx.n_buffers = 0;
    if (tcsCreateCsr(&fx.c, 30, 25, 0, fx.c_rp, NULL, NULL, TCS_INDEX_32I, TCS_INDEX_32I,
                     TCS_INDEX_BASE_ZERO, CUDA_R_32F) != TCS_STATUS_SUCCESS)
        return -1;
    return tcsSpGEMM_createDescr(&fx.d) == TCS_STATUS_SUCCESS ? 0 : -1;
}

static int teardown(void** state) {
    (void)state;
    tcsSpGEMM_destroyDescr(fx.d);
    tcsDestroySpMat(fx.c);
    for (int i = 0; i < fx.n_buffers; ++i) tcst_device_free(fx.buffers[i]);
    fx.n_buffers = 0;
    return 0;
}

/* A device buffer that lives until the end of the test. */
static void* buffer(size_t bytes) {
    assert_true(fx.n_buffers < 8);
    void* p = tcst_device_poisoned(bytes);
    assert_non_null(p);
    fx.buffers[fx.n_buffers++] = p;
    return p;
}

/* The stages with the fixed arguments filled in: only A, the algorithm and the
 * buffer vary between the tests. */
static tcsStatus_t work(tcsConstSpMatDescr_t a, tcsSpGEMMAlg_t alg, size_t* size, void* buf) {
    return tcsSpGEMM_workEstimation(fx.handle, TCS_OPERATION_NON_TRANSPOSE,
                                    TCS_OPERATION_NON_TRANSPOSE, &one, a, fx.b.descr, &zero, fx.c,
                                    CUDA_R_32F, alg, fx.d, size, buf);
}
static tcsStatus_t compute(tcsConstSpMatDescr_t a, tcsSpGEMMAlg_t alg, size_t* size, void* buf) {
    return tcsSpGEMM_compute(fx.handle, TCS_OPERATION_NON_TRANSPOSE, TCS_OPERATION_NON_TRANSPOSE,
                             &one, a, fx.b.descr, &zero, fx.c, CUDA_R_32F, alg, fx.d, size, buf);
}
static tcsStatus_t copy(tcsConstSpMatDescr_t a, tcsSpGEMMAlg_t alg) {
    return tcsSpGEMM_copy(fx.handle, TCS_OPERATION_NON_TRANSPOSE, TCS_OPERATION_NON_TRANSPOSE,
                          &one, a, fx.b.descr, &zero, fx.c, CUDA_R_32F, alg, fx.d);
}
static tcsStatus_t estimate(float chunk, size_t* size3, void* buf3, size_t* size2) {
    return tcsSpGEMM_estimateMemory(fx.handle, TCS_OPERATION_NON_TRANSPOSE,
                                    TCS_OPERATION_NON_TRANSPOSE, &one, fx.a.descr, fx.b.descr,
                                    &zero, fx.c, CUDA_R_32F, DEFAULT_ALG, fx.d, chunk, size3,
                                    buf3, size2);
}

/* workEstimation (query + analysis) with A and DEFAULT_ALG. */
static void estimated(void) {
    size_t size1 = 0;
    assert_ok(work(fx.a.descr, DEFAULT_ALG, &size1, NULL));
    assert_ok(work(fx.a.descr, DEFAULT_ALG, &size1, buffer(size1)));
}

/* C's arrays after compute. */
static void give_c_arrays(void) {
    int64_t rows, cols, nnz;
    assert_ok(tcsSpMatGetSize(fx.c, &rows, &cols, &nnz));
    assert_ok(tcsCsrSetPointers(fx.c, fx.c_rp, buffer((size_t)(nnz > 0 ? nnz : 1) * sizeof(int)),
                                buffer((size_t)(nnz > 0 ? nnz : 1) * sizeof(float))));
}

static void test_compute_and_copy_before_work_estimation(void** state) {
    (void)state;
    size_t size2 = 4096;
    assert_status(compute(fx.a.descr, DEFAULT_ALG, &size2, NULL), NOT_INIT);
    assert_status(compute(fx.a.descr, DEFAULT_ALG, &size2, buffer(size2)), NOT_INIT);
    assert_status(copy(fx.a.descr, DEFAULT_ALG), NOT_INIT);
    /* A size query of workEstimation does not start the protocol. */
    size_t size1 = 0;
    assert_ok(work(fx.a.descr, DEFAULT_ALG, &size1, NULL));
    assert_status(compute(fx.a.descr, DEFAULT_ALG, &size2, NULL), NOT_INIT);
    assert_status(copy(fx.a.descr, DEFAULT_ALG), NOT_INIT);
}

static void test_estimate_memory_and_products_before_work_estimation(void** state) {
    (void)state;
    size_t size3 = 0, size2 = 0;
    int64_t products = -1;
    assert_status(estimate(0.5f, &size3, NULL, &size2), NOT_INIT);
    assert_status(tcsSpGEMM_getNumProducts(fx.d, &products), NOT_INIT);
    assert_int_equal(products, -1);
}

static void test_copy_before_compute(void** state) {
    (void)state;
    estimated();
    assert_status(copy(fx.a.descr, DEFAULT_ALG), NOT_INIT);
    /* The descriptor is still usable: compute then copy succeed. */
    size_t size2 = 0;
    assert_ok(compute(fx.a.descr, DEFAULT_ALG, &size2, NULL));
    assert_ok(compute(fx.a.descr, DEFAULT_ALG, &size2, buffer(size2)));
    give_c_arrays();
    assert_ok(copy(fx.a.descr, DEFAULT_ALG));
}

static void test_size_queries_are_stable(void** state) {
    (void)state;
    size_t first = 0, second = 0;
    assert_ok(work(fx.a.descr, DEFAULT_ALG, &first, NULL));
    assert_ok(work(fx.a.descr, DEFAULT_ALG, &second, NULL));
    assert_true(first > 0);
    assert_true(first == second);
    assert_ok(work(fx.a.descr, DEFAULT_ALG, &first, buffer(first)));
    first = second = 0;
    assert_ok(compute(fx.a.descr, DEFAULT_ALG, &first, NULL));
    assert_ok(compute(fx.a.descr, DEFAULT_ALG, &second, NULL));
    assert_true(first > 0);
    assert_true(first == second);
}

/* After workEstimation with A and DEFAULT_ALG, compute (query and run) and copy refuse
 * the changed pair (a, alg), and then still accept the original arguments. */
static void later_stages_refuse(tcsConstSpMatDescr_t a, tcsSpGEMMAlg_t alg) {
    estimated();
    size_t size2 = 0;
    assert_status(compute(a, alg, &size2, NULL), INVALID);
    assert_ok(compute(fx.a.descr, DEFAULT_ALG, &size2, NULL));
    void* buf2 = buffer(size2);
    assert_status(compute(a, alg, &size2, buf2), INVALID);
    assert_ok(compute(fx.a.descr, DEFAULT_ALG, &size2, buf2));
    give_c_arrays();
    assert_status(copy(a, alg), INVALID);
    assert_ok(copy(fx.a.descr, DEFAULT_ALG));
}

static void test_algorithm_changed_between_stages(void** state) {
    (void)state;
    later_stages_refuse(fx.a.descr, TCS_SPGEMM_ALG1);
    assert_status(copy(fx.a.descr, TCS_SPGEMM_ALG_HASH), INVALID); /* same kernels, other value */
}

static void test_structure_changed_between_stages(void** state) {
    (void)state;
    later_stages_refuse(fx.a2.descr, DEFAULT_ALG);
    /* B's structure is checked as well: another column array is another pattern. */
    tcsConstSpMatDescr_t b_other = NULL;
    assert_ok(tcsCreateConstCsr(&b_other, 20, 25, fx.b.host.nnz, fx.b.rp, fx.a2.ci, fx.b.val,
                                TCS_INDEX_32I, TCS_INDEX_32I, TCS_INDEX_BASE_ZERO, CUDA_R_32F));
    const tcsStatus_t s = tcsSpGEMM_copy(fx.handle, TCS_OPERATION_NON_TRANSPOSE,
                                         TCS_OPERATION_NON_TRANSPOSE, &one, fx.a.descr, b_other,
                                         &zero, fx.c, CUDA_R_32F, DEFAULT_ALG, fx.d);
    tcsDestroySpMat(b_other);
    assert_status(s, INVALID);
}

static void test_buffer_smaller_than_queried(void** state) {
    (void)state;
    size_t size1 = 0;
    assert_ok(work(fx.a.descr, DEFAULT_ALG, &size1, NULL));
    void* buf1 = buffer(size1);
    size_t short1 = size1 - 1;
    assert_status(work(fx.a.descr, DEFAULT_ALG, &short1, buf1), INVALID);
    /* Refused before any work: the protocol has not started. */
    size_t size2 = 0;
    assert_status(compute(fx.a.descr, DEFAULT_ALG, &size2, NULL), NOT_INIT);
    assert_ok(work(fx.a.descr, DEFAULT_ALG, &size1, buf1));

    assert_ok(compute(fx.a.descr, DEFAULT_ALG, &size2, NULL));
    void* buf2 = buffer(size2);
    size_t short2 = size2 - 1;
    assert_status(compute(fx.a.descr, DEFAULT_ALG, &short2, buf2), INVALID);
    assert_status(copy(fx.a.descr, DEFAULT_ALG), NOT_INIT);
    assert_ok(compute(fx.a.descr, DEFAULT_ALG, &size2, buf2));
}

static void test_estimate_memory(void** state) {
    (void)state;
    estimated();
    size_t size3 = 0, size2 = 0, size2_compute = 0;
    assert_ok(estimate(0.5f, &size3, NULL, &size2));
    assert_true(size3 > 0);
    void* buf3 = buffer(size3);
    assert_ok(estimate(0.5f, &size3, buf3, &size2));
    assert_ok(compute(fx.a.descr, DEFAULT_ALG, &size2_compute, NULL));
    assert_true(size2 > 0);
    assert_true(size2 == size2_compute);
    /* The hash algorithm needs no chunking: the fraction does not change the size. */
    size_t size2_whole = 0;
    assert_ok(estimate(1.0f, &size3, buf3, &size2_whole));
    assert_true(size2_whole == size2);
    assert_status(estimate(1.0f, &size3, buf3, NULL), INVALID);
}

/* The documented order, to the end, twice (the reuse path), against the reference. */
static void test_full_protocol_matches_reference(void** state) {
    (void)state;
    estimated();
    size_t size2 = 0;
    assert_ok(compute(fx.a.descr, DEFAULT_ALG, &size2, NULL));
    void* buf2 = buffer(size2);
    assert_ok(compute(fx.a.descr, DEFAULT_ALG, &size2, buf2));
    int64_t products = -1;
    assert_ok(tcsSpGEMM_getNumProducts(fx.d, &products));
    assert_int_equal(products, tcst_ref_num_products(&fx.a.host, &fx.b.host));

    tcst_csr ref;
    assert_int_equal(tcst_ref_spgemm(&fx.a.host, &fx.b.host, &ref), 0);
    double* mag = tcst_ref_spgemm_magnitude(&fx.a.host, &fx.b.host, &ref);
    assert_non_null(mag);
    int64_t rows, cols, nnz;
    assert_ok(tcsSpMatGetSize(fx.c, &rows, &cols, &nnz));
    assert_int_equal(rows, 30);
    assert_int_equal(cols, 25);
    assert_int_equal(nnz, ref.nnz);
    give_c_arrays();

    int* rp = malloc(31 * sizeof(int));
    int* ci = malloc((size_t)(nnz + 1) * sizeof(int));
    float* val = malloc((size_t)(nnz + 1) * sizeof(float));
    float* first_val = malloc((size_t)(nnz + 1) * sizeof(float));
    assert_true(rp && ci && val && first_val);
    void *d_ci, *d_val, *d_rp;
    tcsIndexType_t rpt, cit;
    tcsIndexBase_t base;
    cudaDataType vt;
    assert_ok(tcsCsrGet(fx.c, &rows, &cols, &nnz, &d_rp, &d_ci, &d_val, &rpt, &cit, &base, &vt));
    char msg[512];
    for (int round = 0; round < 2; ++round) {
        /* Reuse: compute and copy again on the same descriptor and buffers. */
        if (round == 1) assert_ok(compute(fx.a.descr, DEFAULT_ALG, &size2, buf2));
        assert_ok(copy(fx.a.descr, DEFAULT_ALG));
        assert_int_equal(tcst_device_download(rp, d_rp, 31 * sizeof(int)), 0);
        assert_int_equal(tcst_device_download(ci, d_ci, (size_t)nnz * sizeof(int)), 0);
        assert_int_equal(tcst_device_download(val, d_val, (size_t)nnz * sizeof(float)), 0);
        if (tcst_compare_csr(&ref, mag, rp, ci, val, 0, 0, 1e-5, msg, sizeof msg) != 0)
            fail_msg("round %d: %s", round, msg);
        if (round == 0)
            memcpy(first_val, val, (size_t)nnz * sizeof(float));
        else
            assert_memory_equal(first_val, val, (size_t)nnz * sizeof(float)); /* bitwise */
    }
    free(rp), free(ci), free(val), free(first_val), free(mag);
    tcst_csr_free(&ref);
}

int main(void) {
    if (!tcst_gpu_available()) {
        printf("gpu_protocol: no usable CUDA device: skipped\n");
        return TCST_SKIP;
    }
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_compute_and_copy_before_work_estimation),
        T(test_estimate_memory_and_products_before_work_estimation),
        T(test_copy_before_compute),
        T(test_size_queries_are_stable),
        T(test_algorithm_changed_between_stages),
        T(test_structure_changed_between_stages),
        T(test_buffer_smaller_than_queried),
        T(test_estimate_memory),
        T(test_full_protocol_matches_reference),
    };
    return tcst_run_group_tests(tests, group_setup, group_teardown);
}
