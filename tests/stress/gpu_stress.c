/* Concurrency and long runs on a GPU, through the public API:
 *  - 8 host threads, each with its own handle and stream, run SpGEMM pipelines and SpMM
 *    calls on matrices of their own for 30 s (3 s with TCS_TEST_QUICK=1), every result
 *    checked against the double CPU reference computed before the threads start;
 *  - two handles on one shared stream, their calls interleaved;
 *  - 10^4 consecutive SpGEMM pipelines and 10^5 SpMM calls (10^2 and 10^3 quick), then
 *    everything destroyed: device memory (cudaMemGetInfo) back where it started, host
 *    memory (resident set) grown by less than 16 MiB, and 1000 handles created and
 *    destroyed on top.
 * The header's rule: one handle per thread (a handle is not locked). Seeds are fresh and
 * printed (TCST_SEED=<seed> reproduces). Exits 77 without a GPU. */
#define _POSIX_C_SOURCE 200809L
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
#include <unistd.h>

static uint64_t seed;
static int quick;

/* ---- one problem: A on the device, the references of A*A and A*B ---- */

typedef struct {
    tcst_csr a, c_ref;
    double* c_mag;
    int *rp, *ci;
    double* val;
    tcsSpMatDescr_t descr;
    int64_t n;          /* SpMM: columns of B and C */
    double *b_host, *spmm_ref, *spmm_mag;
    double *b, *c;      /* device, column-major */
    tcsDnMatDescr_t bd, cd;
} problem;

static int problem_make(problem* p, int64_t rows, int per_row, int64_t n, uint64_t s) {
    memset(p, 0, sizeof *p);
    if (tcst_gen_uniform(rows, rows, per_row, s, &p->a) != 0) return -1;
    if (tcst_ref_spgemm(&p->a, &p->a, &p->c_ref) != 0) return -1;
    p->c_mag = tcst_ref_spgemm_magnitude(&p->a, &p->a, &p->c_ref);
    if (tcst_csr_upload(&p->a, 0, 1, &p->rp, &p->ci, (void**)&p->val) != 0) return -1;
    if (tcsCreateCsr(&p->descr, rows, rows, p->a.nnz, p->rp, p->ci, p->val, TCS_INDEX_32I,
                     TCS_INDEX_32I, TCS_INDEX_BASE_ZERO, CUDA_R_64F) != TCS_STATUS_SUCCESS)
        return -1;
    p->n = n;
    const size_t count = (size_t)(rows * n);
    p->b_host = malloc(count * sizeof(double));
    double* b_abs = malloc(count * sizeof(double));
    p->spmm_ref = calloc(count, sizeof(double));
    p->spmm_mag = calloc(count, sizeof(double));
    if (!p->b_host || !b_abs || !p->spmm_ref || !p->spmm_mag) return -1;
    tcst_rng rng;
    tcst_rng_seed(&rng, s + 1);
    for (size_t i = 0; i < count; ++i) {
        p->b_host[i] = tcst_rng_symmetric(&rng);
        b_abs[i] = fabs(p->b_host[i]);
    }
    tcst_csr a_abs;
    if (tcst_csr_copy(&p->a, &a_abs) != 0) return -1;
    for (int64_t j = 0; j < a_abs.nnz; ++j) a_abs.val[j] = fabs(a_abs.val[j]);
    tcst_ref_spmm(0, 0, 1.0, &p->a, p->b_host, rows, n, 0.0, p->spmm_ref, rows);
    tcst_ref_spmm(0, 0, 1.0, &a_abs, b_abs, rows, n, 0.0, p->spmm_mag, rows);
    tcst_csr_free(&a_abs);
    free(b_abs);
    if (cudaMalloc((void**)&p->b, count * sizeof(double)) != cudaSuccess) return -1;
    if (cudaMemcpy(p->b, p->b_host, count * sizeof(double), cudaMemcpyHostToDevice) != cudaSuccess)
        return -1;
    p->c = tcst_device_poisoned(count * sizeof(double));
    if (p->c == NULL) return -1;
    if (tcsCreateDnMat(&p->bd, rows, n, rows, p->b, CUDA_R_64F, TCS_ORDER_COL) != TCS_STATUS_SUCCESS)
        return -1;
    if (tcsCreateDnMat(&p->cd, rows, n, rows, p->c, CUDA_R_64F, TCS_ORDER_COL) != TCS_STATUS_SUCCESS)
        return -1;
    return 0;
}

static void problem_free(problem* p) {
    tcsDestroyDnMat(p->bd), tcsDestroyDnMat(p->cd), tcsDestroySpMat(p->descr);
    cudaFree(p->b), tcst_device_free(p->c);
    tcst_device_free(p->rp), tcst_device_free(p->ci), tcst_device_free(p->val);
    free(p->b_host), free(p->spmm_ref), free(p->spmm_mag), free(p->c_mag);
    tcst_csr_free(&p->a), tcst_csr_free(&p->c_ref);
    memset(p, 0, sizeof *p);
}

/* ---- the products, each checked; they return 0 on success and describe a failure ---- */

#define TRY(call)                                                                        \
    do {                                                                                 \
        const tcsStatus_t st_ = (call);                                                  \
        if (st_ != TCS_STATUS_SUCCESS) {                                                 \
            snprintf(msg, msglen, "%s -> %s", #call, tcsGetErrorName(st_));              \
            goto done;                                                                   \
        }                                                                                \
    } while (0)
#define TRY_CUDA(call)                                                                   \
    do {                                                                                 \
        const cudaError_t e_ = (call);                                                   \
        if (e_ != cudaSuccess) {                                                         \
            snprintf(msg, msglen, "%s -> %s", #call, cudaGetErrorString(e_));            \
            goto done;                                                                   \
        }                                                                                \
    } while (0)

/* The whole SpGEMM protocol C = A*A, every buffer allocated and freed by the call, the
 * result downloaded and compared when `verify`. */
static int spgemm_once(tcsHandle_t h, cudaStream_t s, const problem* p, tcsSpGEMMAlg_t alg,
                       int verify, char* msg, size_t msglen) {
    int rc = -1;
    const double one = 1.0, zero = 0.0;
    const tcsOperation_t op = TCS_OPERATION_NON_TRANSPOSE;
    tcsSpMatDescr_t c = NULL;
    tcsSpGEMMDescr_t d = NULL;
    void *rp = NULL, *ci = NULL, *val = NULL, *b1 = NULL, *b2 = NULL;
    int *h_rp = NULL, *h_ci = NULL;
    double* h_val = NULL;
    const int64_t m = p->a.rows;
    TRY_CUDA(cudaMalloc(&rp, (size_t)(m + 1) * sizeof(int)));
    TRY(tcsCreateCsr(&c, m, m, 0, rp, NULL, NULL, TCS_INDEX_32I, TCS_INDEX_32I, TCS_INDEX_BASE_ZERO,
                     CUDA_R_64F));
    TRY(tcsSpGEMM_createDescr(&d));
    size_t s1 = 0, s2 = 0;
    TRY(tcsSpGEMM_workEstimation(h, op, op, &one, p->descr, p->descr, &zero, c, CUDA_R_64F, alg, d,
                                 &s1, NULL));
    TRY_CUDA(cudaMalloc(&b1, s1));
    TRY(tcsSpGEMM_workEstimation(h, op, op, &one, p->descr, p->descr, &zero, c, CUDA_R_64F, alg, d,
                                 &s1, b1));
    TRY(tcsSpGEMM_compute(h, op, op, &one, p->descr, p->descr, &zero, c, CUDA_R_64F, alg, d, &s2,
                          NULL));
    TRY_CUDA(cudaMalloc(&b2, s2));
    TRY(tcsSpGEMM_compute(h, op, op, &one, p->descr, p->descr, &zero, c, CUDA_R_64F, alg, d, &s2,
                          b2));
    int64_t rows, cols, nnz;
    TRY(tcsSpMatGetSize(c, &rows, &cols, &nnz));
    if (nnz != p->c_ref.nnz) {
        snprintf(msg, msglen, "nnz(C) %lld, reference %lld", (long long)nnz,
                 (long long)p->c_ref.nnz);
        goto done;
    }
    TRY_CUDA(cudaMalloc(&ci, (size_t)nnz * sizeof(int)));
    TRY_CUDA(cudaMalloc(&val, (size_t)nnz * sizeof(double)));
    TRY(tcsCsrSetPointers(c, rp, ci, val));
    TRY(tcsSpGEMM_copy(h, op, op, &one, p->descr, p->descr, &zero, c, CUDA_R_64F, alg, d));
    if (verify) {
        h_rp = malloc((size_t)(m + 1) * sizeof(int));
        h_ci = malloc((size_t)nnz * sizeof(int));
        h_val = malloc((size_t)nnz * sizeof(double));
        TRY_CUDA(cudaMemcpyAsync(h_rp, rp, (size_t)(m + 1) * sizeof(int), cudaMemcpyDeviceToHost, s));
        TRY_CUDA(cudaMemcpyAsync(h_ci, ci, (size_t)nnz * sizeof(int), cudaMemcpyDeviceToHost, s));
        TRY_CUDA(cudaMemcpyAsync(h_val, val, (size_t)nnz * sizeof(double), cudaMemcpyDeviceToHost, s));
        TRY_CUDA(cudaStreamSynchronize(s));
        if (tcst_compare_csr(&p->c_ref, p->c_mag, h_rp, h_ci, h_val, 1, 0, 1e-12, msg, msglen) != 0)
            goto done;
    } else {
        TRY_CUDA(cudaStreamSynchronize(s));
    }
    rc = 0;
done:
    free(h_rp), free(h_ci), free(h_val);
    tcsSpGEMM_destroyDescr(d);
    tcsDestroySpMat(c);
    cudaFree(b1), cudaFree(b2), cudaFree(rp), cudaFree(ci), cudaFree(val);
    return rc;
}

/* `calls` SpMM calls C = A*B (beta 0) on one buffer, then C downloaded and compared. */
static int spmm_calls(tcsHandle_t h, cudaStream_t s, const problem* p, long calls, char* msg,
                      size_t msglen) {
    int rc = -1;
    const double one = 1.0, zero = 0.0;
    const tcsOperation_t op = TCS_OPERATION_NON_TRANSPOSE;
    void* buf = NULL;
    double* host = NULL;
    size_t bytes = 0;
    TRY(tcsSpMM_bufferSize(h, op, op, &one, p->descr, p->bd, &zero, p->cd, CUDA_R_64F,
                           TCS_SPMM_ALG_DEFAULT, &bytes));
    if (bytes > 0) TRY_CUDA(cudaMalloc(&buf, bytes));
    TRY(tcsSpMM_preprocess(h, op, op, &one, p->descr, p->bd, &zero, p->cd, CUDA_R_64F,
                           TCS_SPMM_ALG_DEFAULT, buf));
    for (long i = 0; i < calls; ++i)
        TRY(tcsSpMM(h, op, op, &one, p->descr, p->bd, &zero, p->cd, CUDA_R_64F,
                    TCS_SPMM_ALG_DEFAULT, buf));
    const size_t count = (size_t)(p->a.rows * p->n);
    host = malloc(count * sizeof(double));
    TRY_CUDA(cudaMemcpyAsync(host, p->c, count * sizeof(double), cudaMemcpyDeviceToHost, s));
    TRY_CUDA(cudaStreamSynchronize(s));
    const double worst = tcst_compare_dense(p->spmm_ref, p->spmm_mag, host, (int64_t)count);
    if (!(worst < 1e-13)) {
        snprintf(msg, msglen, "SpMM off by %g of the magnitude", worst);
        goto done;
    }
    rc = 0;
done:
    free(host);
    cudaFree(buf);
    return rc;
}

/* ---- 8 threads, own handles and streams ---- */

typedef struct {
    int id;
    double seconds;
    problem* p;
    long pipelines, spmm;
    char msg[256];
    int failed;
} worker;

static void* work(void* arg) {
    worker* w = arg;
    tcsHandle_t h = NULL;
    cudaStream_t s = NULL;
    if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess ||
        tcsCreate(&h) != TCS_STATUS_SUCCESS || tcsSetStream(h, s) != TCS_STATUS_SUCCESS) {
        snprintf(w->msg, sizeof w->msg, "thread %d: no handle or stream", w->id);
        w->failed = 1;
        return NULL;
    }
    const double end = tcst_seconds() + w->seconds;
    while (tcst_seconds() < end && !w->failed) {
        if (spgemm_once(h, s, w->p, TCS_SPGEMM_DEFAULT, 1, w->msg, sizeof w->msg) != 0) {
            w->failed = 1;
            break;
        }
        ++w->pipelines;
        if (spmm_calls(h, s, w->p, 10, w->msg, sizeof w->msg) != 0) {
            w->failed = 1;
            break;
        }
        w->spmm += 10;
    }
    tcsDestroy(h);
    cudaStreamDestroy(s);
    return NULL;
}

static void test_threads(void** state) {
    (void)state;
    enum { kThreads = 8 };
    problem probs[kThreads];
    worker workers[kThreads];
    pthread_t threads[kThreads];
    for (int t = 0; t < kThreads; ++t) {
        assert_int_equal(problem_make(&probs[t], (quick ? 400 : 3000) + 137 * t, 5 + t % 4,
                                      1 + 7 * (t % 5), seed + 100 * (uint64_t)t),
                         0);
        memset(&workers[t], 0, sizeof workers[t]);
        workers[t].id = t;
        workers[t].seconds = quick ? 3.0 : 30.0;
        workers[t].p = &probs[t];
    }
    for (int t = 0; t < kThreads; ++t)
        assert_int_equal(pthread_create(&threads[t], NULL, work, &workers[t]), 0);
    long pipelines = 0, spmm = 0;
    int failed = 0;
    for (int t = 0; t < kThreads; ++t) {
        pthread_join(threads[t], NULL);
        pipelines += workers[t].pipelines;
        spmm += workers[t].spmm;
        if (workers[t].failed) {
            print_error("thread %d: %s\n", t, workers[t].msg);
            failed = 1;
        }
    }
    print_message("%d threads: %ld SpGEMM pipelines and %ld SpMM calls, all checked\n", kThreads,
                  pipelines, spmm);
    for (int t = 0; t < kThreads; ++t) problem_free(&probs[t]);
    assert_false(failed);
    assert_true(pipelines >= kThreads);
}

/* Two handles on one stream, their calls interleaved: stream order is the only order. */
static void test_shared_stream(void** state) {
    (void)state;
    cudaStream_t s;
    assert_int_equal(cudaStreamCreate(&s), cudaSuccess);
    tcsHandle_t h1, h2;
    assert_ok(tcsCreate(&h1));
    assert_ok(tcsCreate(&h2));
    assert_ok(tcsSetStream(h1, s));
    assert_ok(tcsSetStream(h2, s));
    problem p1, p2;
    assert_int_equal(problem_make(&p1, 1500, 7, 8, seed + 7), 0);
    assert_int_equal(problem_make(&p2, 1100, 6, 3, seed + 8), 0);
    char msg[256];
    for (int i = 0; i < (quick ? 3 : 20); ++i) {
        if (spgemm_once(h1, s, &p2, TCS_SPGEMM_DEFAULT, 1, msg, sizeof msg) != 0) fail_msg("%s", msg);
        if (spmm_calls(h2, s, &p1, 3, msg, sizeof msg) != 0) fail_msg("%s", msg);
        if (spgemm_once(h2, s, &p1, TCS_SPGEMM_ALG_HASH, 1, msg, sizeof msg) != 0) fail_msg("%s", msg);
        if (spmm_calls(h1, s, &p2, 3, msg, sizeof msg) != 0) fail_msg("%s", msg);
    }
    problem_free(&p1), problem_free(&p2);
    assert_ok(tcsDestroy(h1));
    assert_ok(tcsDestroy(h2));
    assert_int_equal(cudaStreamDestroy(s), cudaSuccess);
}

/* ---- long runs ---- */

static size_t device_free_bytes(void) {
    size_t free_b = 0, total = 0;
    assert_int_equal(cudaMemGetInfo(&free_b, &total), cudaSuccess);
    return free_b;
}

static long resident_kib(void) {
    FILE* f = fopen("/proc/self/statm", "r");
    long pages = 0, resident = 0;
    if (f == NULL) return 0;
    if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    fclose(f);
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static void test_long_runs(void** state) {
    (void)state;
    const long pipelines = quick ? 100 : 10000, calls = quick ? 1000 : 100000;
    char msg[256];
    tcsHandle_t warm;
    assert_ok(tcsCreate(&warm));
    problem p;
    assert_int_equal(problem_make(&p, 800, 6, 8, seed + 11), 0);
    /* One of each first, so that module loading and the runtime's own pools are in the
     * baseline. */
    if (spgemm_once(warm, NULL, &p, TCS_SPGEMM_DEFAULT, 1, msg, sizeof msg) != 0) fail_msg("%s", msg);
    if (spmm_calls(warm, NULL, &p, 1, msg, sizeof msg) != 0) fail_msg("%s", msg);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    const size_t device_before = device_free_bytes();
    const long host_before = resident_kib();
    const double t0 = tcst_seconds();

    tcsHandle_t h;
    assert_ok(tcsCreate(&h));
    for (long i = 0; i < pipelines; ++i) {
        const int verify = i % 1000 == 0 || i == pipelines - 1;
        if (spgemm_once(h, NULL, &p, TCS_SPGEMM_DEFAULT, verify, msg, sizeof msg) != 0)
            fail_msg("pipeline %ld: %s", i, msg);
    }
    const double t1 = tcst_seconds();
    if (spmm_calls(h, NULL, &p, calls, msg, sizeof msg) != 0) fail_msg("%s", msg);
    const double t2 = tcst_seconds();
    assert_ok(tcsDestroy(h));
    for (int i = 0; i < 1000; ++i) {
        tcsHandle_t extra;
        assert_ok(tcsCreate(&extra));
        assert_ok(tcsDestroy(extra));
    }
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    const size_t device_after = device_free_bytes();
    const long host_after = resident_kib();
    print_message("%ld SpGEMM pipelines in %.2f s, %ld SpMM calls in %.2f s; device free %zu -> "
                  "%zu bytes, resident %ld -> %ld KiB\n",
                  pipelines, t1 - t0, calls, t2 - t1, device_before, device_after, host_before,
                  host_after);
    assert_true(device_after == device_before);
    assert_true(host_after - host_before < 16 * 1024);
    problem_free(&p);
    assert_ok(tcsDestroy(warm));
}

static int group_setup(void** state) {
    (void)state;
    quick = tcst_quick();
    seed = tcst_fresh_seed();
    printf("gpu_stress: seed %llu (TCST_SEED=%llu reproduces)\n", (unsigned long long)seed,
           (unsigned long long)seed);
    return 0;
}

int main(void) {
    if (!tcst_gpu_available()) {
        printf("gpu_stress: no usable CUDA device: skipped\n");
        return TCST_SKIP;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_shared_stream),
        cmocka_unit_test(test_long_runs),
    };
    return cmocka_run_group_tests(tests, group_setup, NULL);
}
