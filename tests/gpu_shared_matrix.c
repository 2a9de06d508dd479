/* One matA shared by 8 threads, each with its own handle, stream, B, C, x, y and
 * buffer, all preprocessing and multiplying at once (the header's thread rule for a
 * shared matA): tcsSpMM_preprocess / tcsSpMV_preprocess replace the analysis memo on matA
 * while the other threads' products read it. Every product must still meet the CPU
 * reference: a product that finds the analysis of its own buffer uses it, one that finds
 * another thread's runs without it, and none may pair one thread's buffer with
 * another's analysis. The threads take turns of algorithm (DEFAULT, CSR_ALG2, BSR_TC,
 * which keeps a block analysis in its buffer) and of width n, so consecutive analyses
 * differ in kind (the test asserts it first: blocks for BSR_TC, the CSR family's for
 * the others). fp64 data, bound 1e-12 of the sum of |products|. C and y are poisoned (NaN)
 * before each product. Exits 77 without a GPU; TCST_SEED reproduces a run. */
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
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kThreads = 8 };

static struct {
    uint64_t seed;
    int rounds;
    tcst_csr a, abs_a;
    int *rp, *ci;
    void* val;
    tcsConstSpMatDescr_t shared;
    pthread_barrier_t start;
} fx;

typedef struct {
    int id;
    char failure[256];  /* empty: every product met the reference */
} worker;

static void fail_with(worker* w, const char* what, long long detail) {
    if (w->failure[0] == '\0')
        snprintf(w->failure, sizeof w->failure, "thread %d: %s (%lld)", w->id, what, detail);
}

static void* upload(const double* host, int64_t count) {
    void* dev = NULL;
    if (cudaMalloc(&dev, (size_t)count * sizeof(double)) != cudaSuccess) return NULL;
    cudaMemcpy(dev, host, (size_t)count * sizeof(double), cudaMemcpyHostToDevice);
    return dev;
}

/* One product's dense operands, n columns (SpMV: n = 1): a random k x n input on the
 * device, the m x n output poisoned, and the reference with its magnitude. */
typedef struct {
    int64_t m, k, n;
    double *ref, *mag;
    void *in, *out;
} operands;

static operands operands_make(tcst_rng* rng, int64_t n) {
    operands o = {fx.a.rows, fx.a.cols, n, NULL, NULL, NULL, NULL};
    double* in = malloc((size_t)(o.k * n) * sizeof *in);
    double* abs_in = malloc((size_t)(o.k * n) * sizeof *abs_in);
    for (int64_t i = 0; i < o.k * n; ++i) {
        in[i] = tcst_rng_symmetric(rng);
        abs_in[i] = fabs(in[i]);
    }
    o.ref = calloc((size_t)(o.m * n), sizeof *o.ref);
    o.mag = calloc((size_t)(o.m * n), sizeof *o.mag);
    tcst_ref_spmm(0, 0, 1.0, &fx.a, in, o.k, n, 0.0, o.ref, o.m);
    tcst_ref_spmm(0, 0, 1.0, &fx.abs_a, abs_in, o.k, n, 0.0, o.mag, o.m);
    o.in = upload(in, o.k * n);
    o.out = tcst_device_poisoned((size_t)(o.m * n) * sizeof(double));
    free(in);
    free(abs_in);
    return o;
}

/* The status of a product's calls, then its output against the reference. */
static void judge(worker* w, tcsStatus_t s, const operands* o, const char* what, int alg) {
    double* got = malloc((size_t)(o->m * o->n) * sizeof *got);
    if (s != TCS_STATUS_SUCCESS)
        fail_with(w, what, s);
    else if (tcst_device_download(got, o->out, (size_t)(o->m * o->n) * sizeof(double)) != 0)
        fail_with(w, "downloading the output failed, algorithm", alg);
    else if (!(tcst_compare_dense(o->ref, o->mag, got, o->m * o->n) <= 1e-12))
        fail_with(w, "the output is off the reference, algorithm", alg);
    free(got);
}

static void operands_free(operands* o) {
    tcst_device_free(o->in);
    tcst_device_free(o->out);
    free(o->ref);
    free(o->mag);
}

static const double kOne = 1.0, kZero = 0.0;

/* C = A * B (m x n, column-major) through preprocess then SpMM, twice. */
static void spmm_round(worker* w, tcsHandle_t h, tcst_rng* rng, int round) {
    static const tcsSpMMAlg_t algs[] = {TCS_SPMM_ALG_DEFAULT, TCS_SPMM_CSR_ALG2, TCS_SPMM_BSR_TC};
    const tcsSpMMAlg_t alg = algs[(w->id + round) % 3];
    operands o = operands_make(rng, 8 + (w->id + round) % 5 * 8);
    tcsConstDnMatDescr_t mb = NULL;
    tcsDnMatDescr_t mc = NULL;
    const tcsOperation_t op = TCS_OPERATION_NON_TRANSPOSE;
    size_t bytes = 0;
    void* buffer = NULL;
    tcsStatus_t s = tcsCreateConstDnMat(&mb, o.k, o.n, o.k, o.in, CUDA_R_64F, TCS_ORDER_COL);
    if (s == TCS_STATUS_SUCCESS)
        s = tcsCreateDnMat(&mc, o.m, o.n, o.m, o.out, CUDA_R_64F, TCS_ORDER_COL);
    if (s == TCS_STATUS_SUCCESS)
        s = tcsSpMM_bufferSize(h, op, op, &kOne, fx.shared, mb, &kZero, mc, CUDA_R_64F, alg,
                               &bytes);
    if (s == TCS_STATUS_SUCCESS && bytes > 0) buffer = tcst_device_poisoned(bytes);
    if (s == TCS_STATUS_SUCCESS)
        s = tcsSpMM_preprocess(h, op, op, &kOne, fx.shared, mb, &kZero, mc, CUDA_R_64F, alg,
                               buffer);
    for (int again = 0; again < 2 && s == TCS_STATUS_SUCCESS; ++again)
        s = tcsSpMM(h, op, op, &kOne, fx.shared, mb, &kZero, mc, CUDA_R_64F, alg, buffer);
    judge(w, s, &o, "an SpMM call failed with status", alg);
    tcsDestroyDnMat(mb);
    tcsDestroyDnMat(mc);
    tcst_device_free(buffer);
    operands_free(&o);
}

/* y = A * x through preprocess then SpMV, twice. */
static void spmv_round(worker* w, tcsHandle_t h, tcst_rng* rng, int round) {
    const tcsSpMVAlg_t alg = round % 2 ? TCS_SPMV_CSR_ALG2 : TCS_SPMV_ALG_DEFAULT;
    operands o = operands_make(rng, 1);
    tcsConstDnVecDescr_t vx = NULL;
    tcsDnVecDescr_t vy = NULL;
    const tcsOperation_t op = TCS_OPERATION_NON_TRANSPOSE;
    size_t bytes = 0;
    void* buffer = NULL;
    tcsStatus_t s = tcsCreateConstDnVec(&vx, o.k, o.in, CUDA_R_64F);
    if (s == TCS_STATUS_SUCCESS) s = tcsCreateDnVec(&vy, o.m, o.out, CUDA_R_64F);
    if (s == TCS_STATUS_SUCCESS)
        s = tcsSpMV_bufferSize(h, op, &kOne, fx.shared, vx, &kZero, vy, CUDA_R_64F, alg, &bytes);
    if (s == TCS_STATUS_SUCCESS && bytes > 0) buffer = tcst_device_poisoned(bytes);
    if (s == TCS_STATUS_SUCCESS)
        s = tcsSpMV_preprocess(h, op, &kOne, fx.shared, vx, &kZero, vy, CUDA_R_64F, alg, buffer);
    for (int again = 0; again < 2 && s == TCS_STATUS_SUCCESS; ++again)
        s = tcsSpMV(h, op, &kOne, fx.shared, vx, &kZero, vy, CUDA_R_64F, alg, buffer);
    judge(w, s, &o, "an SpMV call failed with status", alg);
    tcsDestroyDnVec(vx);
    tcsDestroyDnVec(vy);
    tcst_device_free(buffer);
    operands_free(&o);
}

static void* work(void* arg) {
    worker* w = arg;
    tcst_rng rng;
    tcst_rng_seed(&rng, fx.seed + 7919u * (uint64_t)(w->id + 1));
    tcsHandle_t h = NULL;
    cudaStream_t stream = NULL;
    const tcsStatus_t created = tcsCreate(&h);
    if (created == TCS_STATUS_SUCCESS && cudaStreamCreate(&stream) == cudaSuccess)
        tcsSetStream(h, stream);
    else
        fail_with(w, "tcsCreate or cudaStreamCreate failed", created);
    pthread_barrier_wait(&fx.start);
    for (int round = 0; round < fx.rounds && w->failure[0] == '\0' && h != NULL; ++round) {
        if ((w->id + round) % 2 == 0)
            spmm_round(w, h, &rng, round);
        else
            spmv_round(w, h, &rng, round);
    }
    if (stream != NULL) cudaStreamDestroy(stream);
    tcsDestroy(h);
    return NULL;
}

/* Whether preprocess with `alg` leaves a block analysis on matA (tcsSpMM_getBlockCounts'
 * usesBlocks), on one thread. */
static int uses_blocks_after(tcsSpMMAlg_t alg) {
    tcst_rng rng;
    tcst_rng_seed(&rng, fx.seed + 1);
    operands o = operands_make(&rng, 8);
    tcsHandle_t h = NULL;
    tcsConstDnMatDescr_t mb = NULL;
    tcsDnMatDescr_t mc = NULL;
    const tcsOperation_t op = TCS_OPERATION_NON_TRANSPOSE;
    size_t bytes = 0;
    void* buffer = NULL;
    int64_t br = 0, bc = 0, natural = 0, reordered = 0, used = 0;
    int uses = -1;
    assert_int_equal(tcsCreate(&h), TCS_STATUS_SUCCESS);
    assert_int_equal(tcsCreateConstDnMat(&mb, o.k, o.n, o.k, o.in, CUDA_R_64F, TCS_ORDER_COL), TCS_STATUS_SUCCESS);
    assert_int_equal(tcsCreateDnMat(&mc, o.m, o.n, o.m, o.out, CUDA_R_64F, TCS_ORDER_COL), TCS_STATUS_SUCCESS);
    assert_int_equal(tcsSpMM_bufferSize(h, op, op, &kOne, fx.shared, mb, &kZero, mc, CUDA_R_64F, alg, &bytes),
                     TCS_STATUS_SUCCESS);
    if (bytes > 0) buffer = tcst_device_poisoned(bytes);
    assert_int_equal(tcsSpMM_preprocess(h, op, op, &kOne, fx.shared, mb, &kZero, mc, CUDA_R_64F, alg, buffer),
                     TCS_STATUS_SUCCESS);
    if (tcsSpMM_getBlockCounts(fx.shared, &br, &bc, &natural, &reordered, &used, &uses) != TCS_STATUS_SUCCESS)
        uses = 0;  /* no block analysis on matA */
    tcsDestroyDnMat(mb);
    tcsDestroyDnMat(mc);
    tcst_device_free(buffer);
    operands_free(&o);
    tcsDestroy(h);
    return uses;
}

static void test_shared_matrix_across_threads(void** state) {
    (void)state;
    /* The test's premise: the threads' analyses differ in kind (blocks for BSR_TC, the CSR
     * family's for DEFAULT and CSR_ALG2 on a matrix this small), so a product run with
     * another thread's analysis computes garbage and fails the reference. */
    assert_int_equal(uses_blocks_after(TCS_SPMM_BSR_TC), 1);
    assert_int_equal(uses_blocks_after(TCS_SPMM_ALG_DEFAULT), 0);
    worker workers[kThreads];
    pthread_t threads[kThreads];
    assert_int_equal(pthread_barrier_init(&fx.start, NULL, kThreads), 0);
    for (int t = 0; t < kThreads; ++t) {
        memset(&workers[t], 0, sizeof workers[t]);
        workers[t].id = t;
        assert_int_equal(pthread_create(&threads[t], NULL, work, &workers[t]), 0);
    }
    for (int t = 0; t < kThreads; ++t) pthread_join(threads[t], NULL);
    pthread_barrier_destroy(&fx.start);
    for (int t = 0; t < kThreads; ++t)
        if (workers[t].failure[0] != '\0')
            fail_msg("%s (seed %llu)", workers[t].failure, (unsigned long long)fx.seed);
}

static int group_setup(void** state) {
    (void)state;
    fx.seed = tcst_fresh_seed();
    printf("gpu_shared_matrix: seed %llu (TCST_SEED=%llu reproduces)\n",
           (unsigned long long)fx.seed, (unsigned long long)fx.seed);
    fx.rounds = tcst_quick() ? 6 : 40;
    const int64_t rows = tcst_quick() ? 300 : 3000;
    /* Dense 8 x 8 blocks: BSR_TC keeps its block analysis on them (it hands a graph-like A
     * to the CSR family), so the analyses the threads publish differ in kind. */
    if (tcst_gen_dense_blocks(rows, rows - 37, 8, 0.03, fx.seed, &fx.a) != 0) return -1;
    if (tcst_csr_copy(&fx.a, &fx.abs_a) != 0) return -1;
    for (int64_t e = 0; e < fx.abs_a.nnz; ++e) fx.abs_a.val[e] = fabs(fx.abs_a.val[e]);
    if (tcst_csr_upload(&fx.a, 0, 1, &fx.rp, &fx.ci, &fx.val) != 0) return -1;
    return tcsCreateConstCsr(&fx.shared, fx.a.rows, fx.a.cols, fx.a.nnz, fx.rp, fx.ci, fx.val,
                             TCS_INDEX_32I, TCS_INDEX_32I, TCS_INDEX_BASE_ZERO,
                             CUDA_R_64F) == TCS_STATUS_SUCCESS
               ? 0
               : -1;
}

static int group_teardown(void** state) {
    (void)state;
    tcsDestroySpMat(fx.shared);
    tcst_device_free(fx.rp);
    tcst_device_free(fx.ci);
    tcst_device_free(fx.val);
    tcst_csr_free(&fx.a);
    tcst_csr_free(&fx.abs_a);
    return 0;
}

int main(void) {
    if (!tcst_gpu_available()) {
        printf("gpu_shared_matrix: no GPU, skipped\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_matrix_across_threads),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
