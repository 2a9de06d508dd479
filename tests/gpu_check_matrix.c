/* tcsCheckMatrixCsr and input checking (TCS_CHECK_INPUTS=1) on a GPU, through the public
 * API. The oracle is an independent host checker (host_rule below) with the same rule
 * order as the header. Cases: valid matrices of every index width, base and value type
 * at every level (empty shapes, 1x1, rows without entries); one corruption of each rule
 * placed by hand; 200 random corruptions of the offsets, columns and values per index
 * base, each named as the host checker names it; the products (SpGEMM, SpMM) on a
 * checking handle, which refuse corrupt inputs with INVALID_VALUE and still compute
 * valid ones; and 200 corrupt inputs per base with checking off, on which the hash
 * SpGEMM and every CSR SpMM must return within a second and write nothing outside
 * their outputs (guard zones around every output and buffer). Seeds are fresh and printed (TCST_SEED=<seed> reproduces). Exits 77
 * without a GPU. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tcs_test_support.h"
#include "tcst_shard.h"
#include "tcsparse.h"
#include "tcst_status.h"
#include "tcst_gpu_group.h"

#include <cuda_runtime_api.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static tcsHandle_t handle;
static uint64_t seed;
static int quick;

/* ---- a CSR matrix as raw host arrays of any index width and value type ---- */

typedef struct {
    int64_t rows, cols, nnz;
    int base;
    int rp64, ci64;        /* 64-bit offsets / columns */
    cudaDataType type;     /* CUDA_R_32F, 64F, 16F, 16BF */
    int64_t* rp;           /* rows + 1, with the base; kept as int64 on the host */
    int64_t* ci;           /* nnz, with the base */
    double* val;           /* nnz; NaN and Inf allowed */
} raw_csr;

static void raw_free(raw_csr* m) {
    free(m->rp), free(m->ci), free(m->val);
    memset(m, 0, sizeof *m);
}

/* wide: offsets and columns both 64-bit (a descriptor takes one width for both, as in
 * cuSPARSE). */
static raw_csr raw_from(const tcst_csr* a, int base, int wide, cudaDataType type) {
    const int rp64 = wide, ci64 = wide;
    raw_csr m;
    memset(&m, 0, sizeof m);
    m.rows = a->rows, m.cols = a->cols, m.nnz = a->nnz;
    m.base = base, m.rp64 = rp64, m.ci64 = ci64, m.type = type;
    m.rp = malloc((size_t)(a->rows + 1) * sizeof(int64_t));
    m.ci = malloc((size_t)(a->nnz > 0 ? a->nnz : 1) * sizeof(int64_t));
    m.val = malloc((size_t)(a->nnz > 0 ? a->nnz : 1) * sizeof(double));
    assert_true(m.rp && m.ci && m.val);
    for (int64_t i = 0; i <= a->rows; ++i) m.rp[i] = a->row_ptr[i] + base;
    for (int64_t j = 0; j < a->nnz; ++j) {
        m.ci[j] = a->col_idx[j] + base;
        m.val[j] = a->val[j];
    }
    return m;
}

/* ---- the host oracle: the first rule broken, in the header's order ---- */

static int cmp_i64(const void* x, const void* y) {
    const int64_t a = *(const int64_t*)x, b = *(const int64_t*)y;
    return (a > b) - (a < b);
}

static tcsDataStatus_t host_rule(const raw_csr* m, tcsMatrixCheck_t level) {
    const int64_t b = m->base;
    if (m->rp[0] != b || m->rp[m->rows] != m->nnz + b) return TCS_DATA_STATUS_INVALID_OFFSETS;
    for (int64_t i = 0; i < m->rows; ++i)
        if (m->rp[i + 1] < m->rp[i]) return TCS_DATA_STATUS_OFFSETS_DECREASE;
    for (int64_t j = 0; j < m->nnz; ++j)
        if (m->ci[j] < b || m->ci[j] >= m->cols + b) return TCS_DATA_STATUS_INVALID_INDEX;
    if (level == TCS_CHECK_SORTED) {
        int unsorted = 0;
        for (int64_t i = 0; i < m->rows; ++i)
            for (int64_t j = m->rp[i] - b + 1; j < m->rp[i + 1] - b; ++j) {
                if (m->ci[j] == m->ci[j - 1]) return TCS_DATA_STATUS_DUPLICATE;
                if (m->ci[j] < m->ci[j - 1]) unsorted = 1;
            }
        if (unsorted) return TCS_DATA_STATUS_UNSORTED;
    } else if (level == TCS_CHECK_UNIQUE) {
        for (int64_t i = 0; i < m->rows; ++i) {
            const int64_t s = m->rp[i] - b, len = m->rp[i + 1] - m->rp[i];
            if (len < 2) continue;
            int64_t* row = malloc((size_t)len * sizeof(int64_t));
            assert_non_null(row);
            memcpy(row, m->ci + s, (size_t)len * sizeof(int64_t));
            qsort(row, (size_t)len, sizeof(int64_t), cmp_i64);
            int dup = 0;
            for (int64_t j = 1; j < len; ++j) dup |= row[j] == row[j - 1];
            free(row);
            if (dup) return TCS_DATA_STATUS_DUPLICATE;
        }
    }
    for (int64_t j = 0; j < m->nnz; ++j)
        if (isnan(m->val[j])) return TCS_DATA_STATUS_NAN;
    for (int64_t j = 0; j < m->nnz; ++j)
        if (isinf(m->val[j])) return TCS_DATA_STATUS_INF;
    return TCS_DATA_STATUS_SUCCESS;
}

/* ---- upload in the declared widths and type ---- */

typedef struct {
    void *rp, *ci, *val;
    tcsSpMatDescr_t descr;
} device_raw;

static void* to_device(const void* host, size_t bytes) {
    void* d = NULL;
    if (bytes == 0) return NULL;
    assert_int_equal(cudaMalloc(&d, bytes), cudaSuccess);
    assert_int_equal(cudaMemcpy(d, host, bytes, cudaMemcpyHostToDevice), cudaSuccess);
    return d;
}

static void* indices_to_device(const int64_t* x, int64_t count, int wide) {
    if (count == 0) return NULL;
    const size_t w = wide ? 8 : 4;
    void* stage = malloc((size_t)count * w);
    assert_non_null(stage);
    for (int64_t i = 0; i < count; ++i) {
        if (wide)
            ((int64_t*)stage)[i] = x[i];
        else
            ((int32_t*)stage)[i] = (int32_t)x[i];
    }
    void* d = to_device(stage, (size_t)count * w);
    free(stage);
    return d;
}

static void* values_to_device(const double* v, int64_t count, cudaDataType type) {
    if (count == 0) return NULL;
    const size_t w = tcst_value_size(type);
    void* stage = malloc((size_t)count * w);
    assert_non_null(stage);
    for (int64_t i = 0; i < count; ++i) tcst_value_put(stage, (size_t)i, type, v[i]);
    void* d = to_device(stage, (size_t)count * w);
    free(stage);
    return d;
}

static device_raw upload(const raw_csr* m) {
    device_raw d;
    d.rp = indices_to_device(m->rp, m->rows + 1, m->rp64);
    d.ci = indices_to_device(m->ci, m->nnz, m->ci64);
    d.val = values_to_device(m->val, m->nnz, m->type);
    assert_ok(tcsCreateCsr(&d.descr, m->rows, m->cols, m->nnz, d.rp, d.ci, d.val,
                           m->rp64 ? TCS_INDEX_64I : TCS_INDEX_32I,
                           m->ci64 ? TCS_INDEX_64I : TCS_INDEX_32I,
                           m->base ? TCS_INDEX_BASE_ONE : TCS_INDEX_BASE_ZERO, m->type));
    return d;
}

static void device_free(device_raw* d) {
    tcsDestroySpMat(d->descr);
    cudaFree(d->rp), cudaFree(d->ci), cudaFree(d->val);
    memset(d, 0, sizeof *d);
}

/* tcsCheckMatrixCsr through the two-phase protocol; the buffer is poisoned first. */
static tcsDataStatus_t gpu_rule(tcsHandle_t h, tcsSpMatDescr_t a, tcsMatrixCheck_t level) {
    size_t bytes = 0;
    assert_ok(tcsCheckMatrixCsr_bufferSize(h, a, level, &bytes));
    assert_true(bytes > 0);
    void* buffer = tcst_device_poisoned(bytes);
    assert_non_null(buffer);
    tcsDataStatus_t st = (tcsDataStatus_t)-1;
    assert_ok(tcsCheckMatrixCsr(h, a, level, &st, buffer));
    tcst_device_free(buffer);
    return st;
}

static const tcsMatrixCheck_t levels[] = {TCS_CHECK_STRUCTURE, TCS_CHECK_UNIQUE, TCS_CHECK_SORTED};
static const cudaDataType types[] = {CUDA_R_32F, CUDA_R_64F, CUDA_R_16F, CUDA_R_16BF};

static void expect_same(const raw_csr* m, const char* what) {
    device_raw d = upload(m);
    for (int l = 0; l < 3; ++l) {
        const tcsDataStatus_t want = host_rule(m, levels[l]);
        const tcsDataStatus_t got = gpu_rule(handle, d.descr, levels[l]);
        if (got != want)
            fail_msg("%s (base %d, %d/%d-bit, type %d, level %d): GPU says %d, host %d", what,
                     m->base, m->rp64 ? 64 : 32, m->ci64 ? 64 : 32, (int)m->type, (int)levels[l],
                     (int)got, (int)want);
    }
    device_free(&d);
}

/* ---- tests ---- */

static void test_valid_matrices(void** state) {
    (void)state;
    tcst_csr mats[5];
    memset(mats, 0, sizeof mats);
    assert_int_equal(tcst_gen_uniform(quick ? 300 : 3000, 500, 7, seed, &mats[0]), 0);
    assert_int_equal(tcst_gen_stencil27(6, 5, 4, 3, seed + 1, &mats[1]), 0);
    assert_int_equal(tcst_csr_alloc(&mats[2], 0, 0, 0), 0);   /* empty */
    assert_int_equal(tcst_csr_alloc(&mats[3], 40, 30, 0), 0); /* rows, no entries */
    assert_int_equal(tcst_gen_uniform(1, 1, 1, seed + 2, &mats[4]), 0); /* 1x1 */
    for (int k = 0; k < 5; ++k)
        for (int base = 0; base < 2; ++base)
            for (int w = 0; w < 4; ++w) {
                raw_csr m = raw_from(&mats[k], base, w & 1, types[(k + w + base) % 4]);
                for (int l = 0; l < 3; ++l)
                    assert_int_equal(host_rule(&m, levels[l]), TCS_DATA_STATUS_SUCCESS);
                expect_same(&m, "valid matrix");
                raw_free(&m);
            }
    for (int k = 0; k < 5; ++k) tcst_csr_free(&mats[k]);
}

/* Each rule broken once, by hand, in a matrix whose rows all hold entries. */
static void test_each_rule(void** state) {
    (void)state;
    tcst_csr a;
    assert_int_equal(tcst_gen_uniform(200, 150, 6, seed, &a), 0);
    for (int base = 0; base < 2; ++base) {
        const int64_t b = base;
        struct {
            const char* what;
            tcsDataStatus_t want[3]; /* per level: STRUCTURE, UNIQUE, SORTED */
        } cases[] = {
            {"first offset", {1, 1, 1}},     {"last offset", {1, 1, 1}},
            {"decreasing", {2, 2, 2}},       {"column past the end", {3, 3, 3}},
            {"column below base", {3, 3, 3}}, {"duplicate", {0, 4, 4}},
            {"unsorted", {0, 0, 5}},         {"NaN", {6, 6, 6}},
            {"Inf", {7, 7, 7}},
        };
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
            raw_csr m = raw_from(&a, base, (int)((c / 2) % 2), types[c % 4]);
            const int64_t row = 17 + (int64_t)c, s = m.rp[row] - b;
            switch (c) {
            case 0: m.rp[0] = b + 1; break;
            case 1: m.rp[m.rows] = m.nnz + b + 3; break;
            case 2: m.rp[row] = m.rp[row + 1] + 1; break;
            case 3: m.ci[s + 2] = m.cols + b; break;
            case 4: m.ci[s + 1] = b - 1; break;
            case 5: m.ci[s + 3] = m.ci[s + 2]; break;
            case 6: { int64_t t = m.ci[s]; m.ci[s] = m.ci[s + 4]; m.ci[s + 4] = t; } break;
            case 7: m.val[s + 1] = NAN; break;
            case 8: m.val[s + 5] = -INFINITY; break;
            }
            for (int l = 0; l < 3; ++l)
                if (host_rule(&m, levels[l]) != cases[c].want[l])
                    fail_msg("host oracle: %s at level %d gives %d", cases[c].what, l,
                             (int)host_rule(&m, levels[l]));
            expect_same(&m, cases[c].what);
            raw_free(&m);
        }
    }
    tcst_csr_free(&a);
}

/* ---- products over corrupt data, with checking off ----
 * Every output and buffer lies between guard zones of 0xFF bytes; the products may
 * compute garbage or refuse, but must return within a second and leave the guards and
 * everything outside their outputs untouched. */

enum { kGuard = 4096 };

typedef struct {
    unsigned char* base; /* kGuard | bytes | kGuard */
    size_t bytes;
} guarded;

static guarded guarded_alloc(size_t bytes) {
    guarded g;
    g.bytes = bytes;
    g.base = tcst_device_poisoned(bytes + 2 * kGuard);
    assert_non_null(g.base);
    return g;
}
static void* inside(const guarded* g) { return g->base + kGuard; }
static int guards_intact(const guarded* g) {
    unsigned char host[2 * kGuard];
    if (tcst_device_download(host, g->base, kGuard) != 0) return 0;
    if (tcst_device_download(host + kGuard, g->base + kGuard + g->bytes, kGuard) != 0) return 0;
    for (int i = 0; i < 2 * kGuard; ++i)
        if (host[i] != 0xFF) return 0;
    return 1;
}
static void guarded_free(guarded* g) {
    tcst_device_free(g->base);
    g->base = NULL;
}

/* Corrupts one or two of m's offsets or columns. */
static void corrupt(raw_csr* m, tcst_rng* rng) {
    tcst_corrupt_structure(m->rp, m->rows, m->ci, m->nnz, m->cols, rng);
}

/* A call on corrupt data must return within 1 s; under compute-sanitizer (which slows
 * kernels 10-100x; scripts/sanitize.sh sets TCS_TEST_SANITIZER) within 60 s, which still
 * tells a hang from a slow run. */
static double call_limit_s = 1.0;

typedef struct {
    int calls, refused, slow;
    double slowest;
} outcome;

/* status of one timed call (synchronized: a hang or a fault shows here). */
static tcsStatus_t timed(tcsStatus_t st, double t0, outcome* o) {
    const cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) fail_msg("the device failed after a product on corrupt data: %s", cudaGetErrorString(e));
    const double dt = tcst_seconds() - t0;
    o->calls++;
    if (dt > o->slowest) o->slowest = dt;
    if (dt > call_limit_s) o->slow++;
    if (st != TCS_STATUS_SUCCESS) o->refused++;
    return st;
}

static void spgemm_on(const device_raw* a, const device_raw* b, int64_t rows, int64_t cols,
                      tcsSpGEMMAlg_t alg, outcome* o) {
    const double one = 1.0, zero = 0.0;
    const tcsOperation_t n = TCS_OPERATION_NON_TRANSPOSE;
    guarded rp = guarded_alloc((size_t)(rows + 1) * sizeof(int));
    tcsSpMatDescr_t c;
    assert_ok(tcsCreateCsr(&c, rows, cols, 0, inside(&rp), NULL, NULL, TCS_INDEX_32I, TCS_INDEX_32I,
                           TCS_INDEX_BASE_ZERO, CUDA_R_64F));
    tcsSpGEMMDescr_t g;
    assert_ok(tcsSpGEMM_createDescr(&g));
    size_t s1 = 0, s2 = 0;
    assert_ok(tcsSpGEMM_workEstimation(handle, n, n, &one, a->descr, b->descr, &zero, c, CUDA_R_64F,
                                       alg, g, &s1, NULL));
    guarded b1 = guarded_alloc(s1), b2 = {NULL, 0}, ci = {NULL, 0}, val = {NULL, 0};
    double t0 = tcst_seconds();
    if (timed(tcsSpGEMM_workEstimation(handle, n, n, &one, a->descr, b->descr, &zero, c, CUDA_R_64F,
                                       alg, g, &s1, inside(&b1)),
              t0, o) == TCS_STATUS_SUCCESS) {
        assert_ok(tcsSpGEMM_compute(handle, n, n, &one, a->descr, b->descr, &zero, c, CUDA_R_64F,
                                    alg, g, &s2, NULL));
        b2 = guarded_alloc(s2);
        t0 = tcst_seconds();
        timed(tcsSpGEMM_compute(handle, n, n, &one, a->descr, b->descr, &zero, c, CUDA_R_64F,
                                alg, g, &s2, inside(&b2)),
              t0, o);
        int64_t r, k, nnz;
        assert_ok(tcsSpMatGetSize(c, &r, &k, &nnz));
        if (nnz <= (int64_t)1 << 26) {
            ci = guarded_alloc((size_t)nnz * sizeof(int));
            val = guarded_alloc((size_t)nnz * sizeof(double));
            assert_ok(tcsCsrSetPointers(c, inside(&rp), nnz ? inside(&ci) : NULL, nnz ? inside(&val) : NULL));
            t0 = tcst_seconds();
            timed(tcsSpGEMM_copy(handle, n, n, &one, a->descr, b->descr, &zero, c, CUDA_R_64F,
                                 alg, g),
                  t0, o);
        }
    }
    const guarded* all[] = {&rp, &b1, &b2, &ci, &val};
    for (int i = 0; i < 5; ++i)
        if (all[i]->base != NULL && !guards_intact(all[i])) fail_msg("SpGEMM (alg %d) wrote past output %d", (int)alg, i);
    for (int i = 0; i < 5; ++i)
        if (all[i]->base != NULL) guarded_free((guarded*)all[i]);
    tcsSpGEMM_destroyDescr(g);
    tcsDestroySpMat(c);
}

static void spmm_on(const device_raw* a, int64_t rows, int64_t cols, tcsOperation_t op_a,
                    int64_t n, tcsSpMMAlg_t alg, tcst_rng* rng, outcome* o) {
    const double one = 1.0, half = 0.5;
    const int64_t m = op_a ? cols : rows, k = op_a ? rows : cols;
    const size_t b_count = (size_t)(k * n), c_count = (size_t)(m * n);
    double* bh = malloc(b_count * sizeof(double));
    assert_non_null(bh);
    for (size_t i = 0; i < b_count; ++i) bh[i] = tcst_rng_symmetric(rng);
    void* bd = to_device(bh, b_count * sizeof(double));
    free(bh);
    guarded c = guarded_alloc(c_count * sizeof(double));
    tcsDnMatDescr_t bm, cm;
    assert_ok(tcsCreateDnMat(&bm, k, n, n, bd, CUDA_R_64F, TCS_ORDER_ROW));
    assert_ok(tcsCreateDnMat(&cm, m, n, n, inside(&c), CUDA_R_64F, TCS_ORDER_ROW));
    size_t bytes = 0;
    assert_ok(tcsSpMM_bufferSize(handle, op_a, TCS_OPERATION_NON_TRANSPOSE, &one, a->descr, bm,
                                 &half, cm, CUDA_R_64F, alg, &bytes));
    guarded buf = guarded_alloc(bytes);
    double t0 = tcst_seconds();
    timed(tcsSpMM_preprocess(handle, op_a, TCS_OPERATION_NON_TRANSPOSE, &one, a->descr, bm, &half,
                             cm, CUDA_R_64F, alg, inside(&buf)),
          t0, o);
    t0 = tcst_seconds();
    timed(tcsSpMM(handle, op_a, TCS_OPERATION_NON_TRANSPOSE, &one, a->descr, bm, &half, cm,
                  CUDA_R_64F, alg, inside(&buf)),
          t0, o);
    if (!guards_intact(&c) || !guards_intact(&buf))
        fail_msg("SpMM (opA %d, n %lld, alg %d) wrote past C or its buffer", (int)op_a, (long long)n,
                 (int)alg);
    guarded_free(&c), guarded_free(&buf);
    tcsDestroyDnMat(bm), tcsDestroyDnMat(cm);
    cudaFree(bd);
}

/* 200 corrupt inputs per index base (40 quick), checking off: SpGEMM (A or B corrupt;
 * hash, both tile algorithms and DEFAULT in turn) and SpMM (every CSR algorithm with opA
 * N and T, the tensor-core blocks with opA N; n = 1, 8, 33) on each. */
static void test_products_on_corrupt_data(void** state) {
    (void)state;
    tcst_rng rng;
    tcst_rng_seed(&rng, seed + 77);
    tcst_csr a;
    assert_int_equal(tcst_gen_rmat(quick ? 8 : 10, 8, 0.57, 0.19, 0.19, seed + 3, &a), 0);
    outcome o = {0, 0, 0, 0.0};
    const int rounds = quick ? 40 : 200;
    const tcsSpMMAlg_t algs[] = {TCS_SPMM_ALG_DEFAULT, TCS_SPMM_CSR_ROWSPLIT, TCS_SPMM_CSR_MERGE,
                                 TCS_SPMM_BSR_TC};
    const tcsSpGEMMAlg_t spgemm_algs[] = {TCS_SPGEMM_ALG_HASH, TCS_SPGEMM_ALG_TILE,
                                          TCS_SPGEMM_ALG_TILE_TC, TCS_SPGEMM_DEFAULT};
    const int64_t widths[] = {1, 8, 33};
    for (int base = 0; base < 2; ++base)
        for (int t = 0; t < rounds; ++t) {
            raw_csr good = raw_from(&a, base, 0, CUDA_R_64F);
            raw_csr bad = raw_from(&a, base, 0, CUDA_R_64F);
            corrupt(&bad, &rng);
            device_raw dg = upload(&good), db = upload(&bad);
            const tcsSpGEMMAlg_t ga = spgemm_algs[(t / 2) % 4];
            if (t % 2 == 0)
                spgemm_on(&db, &dg, a.rows, a.cols, ga, &o);
            else
                spgemm_on(&dg, &db, a.rows, a.cols, ga, &o);
            const tcsSpMMAlg_t ma = algs[(t / 3) % 4];
            const tcsOperation_t op = ma == TCS_SPMM_BSR_TC ? TCS_OPERATION_NON_TRANSPOSE
                                                            : (tcsOperation_t)(t % 3 == 0);
            spmm_on(&db, a.rows, a.cols, op, widths[t % 3], ma, &rng, &o);
            device_free(&dg), device_free(&db);
            raw_free(&good), raw_free(&bad);
        }
    print_message("%d calls on corrupt data: %d refused, slowest %.3f s, %d over %.0f s; no "
                  "write outside the outputs\n",
                  o.calls, o.refused, o.slowest, o.slow, call_limit_s);
    assert_int_equal(o.slow, 0);
    tcst_csr_free(&a);
}

/* 200 random corruptions per index base: an offset, a column or a value replaced by a
 * random value (often valid, often not), in random index widths and types. */
static void test_random_corruptions(void** state) {
    (void)state;
    tcst_rng rng;
    tcst_rng_seed(&rng, seed);
    tcst_csr a;
    assert_int_equal(tcst_gen_rmat(quick ? 9 : 11, 6, 0.55, 0.15, 0.15, seed, &a), 0);
    tcst_csr_shuffle_columns(&a, seed + 5);
    int named[8] = {0};
    for (int base = 0; base < 2; ++base)
        for (int t = 0; t < 200; ++t) {
            raw_csr m = raw_from(&a, base, (int)tcst_rng_below(&rng, 2), types[tcst_rng_below(&rng, 4)]);
            const int count = 1 + (int)tcst_rng_below(&rng, 3);
            for (int k = 0; k < count; ++k) {
                switch (tcst_rng_below(&rng, 3)) {
                case 0: {
                    const int64_t i = (int64_t)tcst_rng_below(&rng, (uint64_t)m.rows + 1);
                    m.rp[i] += (int64_t)tcst_rng_below(&rng, 9) - 4;
                    if (i > 0 && i < m.rows && tcst_rng_below(&rng, 8) == 0)
                        m.rp[i] = (int64_t)tcst_rng_below(&rng, (uint64_t)m.nnz * 4) - m.nnz;
                } break;
                case 1: {
                    const int64_t j = (int64_t)tcst_rng_below(&rng, (uint64_t)m.nnz);
                    m.ci[j] = (int64_t)tcst_rng_below(&rng, (uint64_t)m.cols * 3) - m.cols;
                } break;
                default: {
                    const int64_t j = (int64_t)tcst_rng_below(&rng, (uint64_t)m.nnz);
                    m.val[j] = tcst_rng_below(&rng, 2) ? NAN : INFINITY;
                } break;
                }
            }
            named[host_rule(&m, TCS_CHECK_UNIQUE)]++;
            expect_same(&m, "random corruption");
            raw_free(&m);
        }
    print_message("random corruptions named (UNIQUE level): ok %d, offsets %d, decreasing %d, "
                  "index %d, duplicate %d, unsorted %d, NaN %d, Inf %d\n",
                  named[0], named[1], named[2], named[3], named[4], named[5], named[6], named[7]);
    assert_true(named[1] + named[2] > 0 && named[3] > 0 && named[6] + named[7] > 0);
    tcst_csr_free(&a);
}

/* A checking handle (TCS_CHECK_INPUTS=1, which tcsparse reads once per process: ctest
 * runs this test in a process of its own with it set, gpu_check_matrix_inputs): corrupt
 * inputs are refused with INVALID_VALUE before a product touches them; valid ones are
 * still multiplied right. */
static void test_input_checking(void** state) {
    (void)state;
    const char* requested = getenv("TCS_CHECK_INPUTS");
    if (requested == NULL || strcmp(requested, "1") != 0) skip();
    tcsHandle_t checking = NULL;
    assert_ok(tcsCreate(&checking));

    tcst_csr a;
    assert_int_equal(tcst_gen_uniform(120, 120, 5, seed, &a), 0);
    for (int corrupt = 0; corrupt < 2; ++corrupt) {
        raw_csr m = raw_from(&a, corrupt, 0, CUDA_R_64F);
        if (corrupt) m.ci[m.nnz / 2] = m.cols + 7;
        device_raw d = upload(&m);
        const tcsStatus_t want = corrupt ? TCS_STATUS_INVALID_VALUE : TCS_STATUS_SUCCESS;

        /* SpGEMM C = A*A through the protocol. */
        const double one = 1.0, zero = 0.0;
        int* c_rp = NULL;
        assert_int_equal(cudaMalloc((void**)&c_rp, (size_t)(a.rows + 1) * sizeof(int)), cudaSuccess);
        tcsSpMatDescr_t c;
        assert_ok(tcsCreateCsr(&c, a.rows, a.cols, 0, c_rp, NULL, NULL, TCS_INDEX_32I, TCS_INDEX_32I,
                               TCS_INDEX_BASE_ZERO, CUDA_R_64F));
        tcsSpGEMMDescr_t g;
        assert_ok(tcsSpGEMM_createDescr(&g));
        size_t size1 = 0;
        const tcsOperation_t n = TCS_OPERATION_NON_TRANSPOSE;
        assert_ok(tcsSpGEMM_workEstimation(checking, n, n, &one, d.descr, d.descr, &zero, c,
                                           CUDA_R_64F, TCS_SPGEMM_DEFAULT, g, &size1, NULL));
        void* b1 = tcst_device_poisoned(size1);
        assert_status(tcsSpGEMM_workEstimation(checking, n, n, &one, d.descr, d.descr, &zero, c,
                                               CUDA_R_64F, TCS_SPGEMM_DEFAULT, g, &size1, b1),
                      want);
        if (!corrupt) {
            size_t size2 = 0;
            assert_ok(tcsSpGEMM_compute(checking, n, n, &one, d.descr, d.descr, &zero, c, CUDA_R_64F,
                                        TCS_SPGEMM_DEFAULT, g, &size2, NULL));
            void* b2 = tcst_device_poisoned(size2);
            assert_ok(tcsSpGEMM_compute(checking, n, n, &one, d.descr, d.descr, &zero, c, CUDA_R_64F,
                                        TCS_SPGEMM_DEFAULT, g, &size2, b2));
            int64_t rows, cols, nnz;
            assert_ok(tcsSpMatGetSize(c, &rows, &cols, &nnz));
            tcst_csr ref;
            assert_int_equal(tcst_ref_spgemm(&a, &a, &ref), 0);
            assert_int_equal(nnz, ref.nnz);
            void* ci = tcst_device_poisoned((size_t)nnz * sizeof(int));
            void* val = tcst_device_poisoned((size_t)nnz * sizeof(double));
            assert_ok(tcsCsrSetPointers(c, c_rp, ci, val));
            assert_ok(tcsSpGEMM_copy(checking, n, n, &one, d.descr, d.descr, &zero, c, CUDA_R_64F,
                                     TCS_SPGEMM_DEFAULT, g));
            int* h_rp = malloc((size_t)(rows + 1) * sizeof(int));
            int* h_ci = malloc((size_t)nnz * sizeof(int));
            double* h_val = malloc((size_t)nnz * sizeof(double));
            assert_int_equal(tcst_device_download(h_rp, c_rp, (size_t)(rows + 1) * sizeof(int)), 0);
            assert_int_equal(tcst_device_download(h_ci, ci, (size_t)nnz * sizeof(int)), 0);
            assert_int_equal(tcst_device_download(h_val, val, (size_t)nnz * sizeof(double)), 0);
            char msg[256];
            double* mag = tcst_ref_spgemm_magnitude(&a, &a, &ref);
            if (tcst_compare_csr(&ref, mag, h_rp, h_ci, h_val, 1, 0, 1e-12, msg, sizeof msg) != 0)
                fail_msg("checked SpGEMM: %s", msg);
            free(mag), free(h_rp), free(h_ci), free(h_val);
            tcst_csr_free(&ref);
            tcst_device_free(ci), tcst_device_free(val), tcst_device_free(b2);
        }
        tcst_device_free(b1);
        tcsSpGEMM_destroyDescr(g);
        tcsDestroySpMat(c);
        cudaFree(c_rp);

        /* SpMM C = A * B, B 120 x 4. */
        const int64_t cols_b = 4;
        double* bh = malloc((size_t)(a.cols * cols_b) * sizeof(double));
        tcst_rng rng;
        tcst_rng_seed(&rng, seed + 9);
        for (int64_t i = 0; i < a.cols * cols_b; ++i) bh[i] = tcst_rng_symmetric(&rng);
        void* bd = to_device(bh, (size_t)(a.cols * cols_b) * sizeof(double));
        void* cd = tcst_device_poisoned((size_t)(a.rows * cols_b) * sizeof(double));
        tcsDnMatDescr_t bm, cm;
        assert_ok(tcsCreateDnMat(&bm, a.cols, cols_b, a.cols, bd, CUDA_R_64F, TCS_ORDER_COL));
        assert_ok(tcsCreateDnMat(&cm, a.rows, cols_b, a.rows, cd, CUDA_R_64F, TCS_ORDER_COL));
        size_t bytes = 0;
        assert_ok(tcsSpMM_bufferSize(checking, n, n, &one, d.descr, bm, &zero, cm, CUDA_R_64F,
                                     TCS_SPMM_ALG_DEFAULT, &bytes));
        void* buf = bytes ? tcst_device_poisoned(bytes) : NULL;
        assert_status(tcsSpMM_preprocess(checking, n, n, &one, d.descr, bm, &zero, cm, CUDA_R_64F,
                                         TCS_SPMM_ALG_DEFAULT, buf),
                      want);
        assert_status(tcsSpMM(checking, n, n, &one, d.descr, bm, &zero, cm, CUDA_R_64F,
                              TCS_SPMM_ALG_DEFAULT, buf),
                      want);
        if (!corrupt) {
            const size_t count = (size_t)(a.rows * cols_b);
            double* ch = malloc(count * sizeof(double));
            double* ref = calloc(count, sizeof(double));
            double* mag = calloc(count, sizeof(double));
            double* babs = malloc((size_t)(a.cols * cols_b) * sizeof(double));
            tcst_csr aabs;
            assert_int_equal(tcst_csr_copy(&a, &aabs), 0);
            for (int64_t j = 0; j < aabs.nnz; ++j) aabs.val[j] = fabs(aabs.val[j]);
            for (int64_t i = 0; i < a.cols * cols_b; ++i) babs[i] = fabs(bh[i]);
            assert_int_equal(tcst_device_download(ch, cd, count * sizeof(double)), 0);
            tcst_ref_spmm(0, 0, 1.0, &a, bh, a.cols, cols_b, 0.0, ref, a.rows);
            tcst_ref_spmm(0, 0, 1.0, &aabs, babs, a.cols, cols_b, 0.0, mag, a.rows);
            assert_true(tcst_compare_dense(ref, mag, ch, (int64_t)count) < 1e-13);
            tcst_csr_free(&aabs);
            free(ch), free(ref), free(mag), free(babs);
        }
        tcst_device_free(buf);
        tcsDestroyDnMat(bm), tcsDestroyDnMat(cm);
        cudaFree(bd), tcst_device_free(cd);
        free(bh);
        device_free(&d);
        raw_free(&m);
    }
    tcst_csr_free(&a);
    assert_ok(tcsDestroy(checking));
}

/* TCS_CHECK_INPUTS is read once per process, at the first tcsCreate (include/tcsparse.h,
 * "Environment"): flipping it afterwards changes nothing for a handle made later. The
 * test runs in both processes (gpu_check_matrix, checking off; gpu_check_matrix_inputs,
 * on) and flips the variable to the other setting before making a second handle. A has
 * one column past its width (checking refuses it); x's allocation is wide enough that
 * an unchecked SpMV reads nothing outside it. Where the process checks: INVALID_VALUE.
 * Where it does not: SUCCESS, and every row but the corrupt one equal to the reference
 * (that row's value is undefined: a kernel may stage x by its width). A library that
 * read the variable per call or per handle (issue 38, item 4) fails. */
static void test_input_checking_read_once(void** state) {
    (void)state;
    const char* at_start = getenv("TCS_CHECK_INPUTS");
    const int checking = at_start != NULL && strcmp(at_start, "1") == 0;
    assert_int_equal(setenv("TCS_CHECK_INPUTS", checking ? "0" : "1", 1), 0);
    tcsHandle_t later = NULL;
    const tcsStatus_t made = tcsCreate(&later);
    if (checking)
        assert_int_equal(setenv("TCS_CHECK_INPUTS", "1", 1), 0);
    else
        assert_int_equal(unsetenv("TCS_CHECK_INPUTS"), 0);
    assert_ok(made);

    tcst_csr a;
    assert_int_equal(tcst_gen_uniform(120, 120, 5, seed + 11, &a), 0);
    raw_csr m = raw_from(&a, 0, 0, CUDA_R_64F);
    const int64_t past = m.cols + 7, allocated = 256;
    m.ci[m.nnz / 2] = past;  /* columns in a row need not be sorted for SpMV */
    device_raw d = upload(&m);

    double xh[256];
    tcst_rng rng;
    tcst_rng_seed(&rng, seed + 12);
    for (int64_t j = 0; j < allocated; ++j) xh[j] = tcst_rng_symmetric(&rng);
    void* xd = to_device(xh, sizeof xh);
    void* yd = tcst_device_poisoned((size_t)m.rows * sizeof(double));
    tcsDnVecDescr_t x, y;
    assert_ok(tcsCreateDnVec(&x, m.cols, xd, CUDA_R_64F));
    assert_ok(tcsCreateDnVec(&y, m.rows, yd, CUDA_R_64F));
    const double one = 1.0, zero = 0.0;
    const tcsOperation_t n = TCS_OPERATION_NON_TRANSPOSE;
    size_t bytes = 0;
    assert_ok(tcsSpMV_bufferSize(later, n, &one, d.descr, x, &zero, y, CUDA_R_64F, TCS_SPMV_ALG_DEFAULT,
                                 &bytes));
    void* buffer = bytes ? tcst_device_poisoned(bytes) : NULL;
    const tcsStatus_t got =
        tcsSpMV(later, n, &one, d.descr, x, &zero, y, CUDA_R_64F, TCS_SPMV_ALG_DEFAULT, buffer);
    if (checking) {
        if (got != TCS_STATUS_INVALID_VALUE)
            fail_msg("status %d: the process checks inputs (TCS_CHECK_INPUTS=1 at the start), a "
                     "handle made after unsetting it must still refuse A",
                     (int)got);
    } else {
        if (got != TCS_STATUS_SUCCESS)
            fail_msg("status %d: the process does not check inputs, a handle made after "
                     "TCS_CHECK_INPUTS=1 was set must not either",
                     (int)got);
        double yh[120], ref[120], mag[120];
        assert_true(m.rows <= 120);
        assert_int_equal(tcst_device_download(yh, yd, (size_t)m.rows * sizeof(double)), 0);
        for (int64_t i = 0; i < m.rows; ++i) {
            ref[i] = mag[i] = 0.0;
            for (int64_t e = m.rp[i]; e < m.rp[i + 1]; ++e) {
                ref[i] += m.val[e] * xh[m.ci[e]];
                mag[i] += fabs(m.val[e] * xh[m.ci[e]]);
            }
            if (m.rp[i] <= m.nnz / 2 && m.nnz / 2 < m.rp[i + 1]) yh[i] = ref[i];  /* undefined */
        }
        assert_true(tcst_compare_dense(ref, mag, yh, m.rows) < 1e-13);
    }
    tcst_device_free(buffer);
    tcsDestroyDnVec(x), tcsDestroyDnVec(y);
    cudaFree(xd), tcst_device_free(yd);
    device_free(&d);
    raw_free(&m);
    tcst_csr_free(&a);
    assert_ok(tcsDestroy(later));
}

static void test_bad_arguments(void** state) {
    (void)state;
    tcst_csr a;
    assert_int_equal(tcst_gen_uniform(10, 10, 2, seed, &a), 0);
    raw_csr m = raw_from(&a, 0, 0, CUDA_R_32F);
    device_raw d = upload(&m);
    size_t bytes = 0;
    tcsDataStatus_t st;
    assert_status(tcsCheckMatrixCsr_bufferSize(NULL, d.descr, TCS_CHECK_SORTED, &bytes),
                  TCS_STATUS_INVALID_VALUE);
    assert_status(tcsCheckMatrixCsr_bufferSize(handle, NULL, TCS_CHECK_SORTED, &bytes),
                  TCS_STATUS_INVALID_VALUE);
    assert_status(tcsCheckMatrixCsr_bufferSize(handle, d.descr, (tcsMatrixCheck_t)7, &bytes),
                  TCS_STATUS_INVALID_VALUE);
    assert_status(tcsCheckMatrixCsr_bufferSize(handle, d.descr, TCS_CHECK_SORTED, NULL),
                  TCS_STATUS_INVALID_VALUE);
    assert_ok(tcsCheckMatrixCsr_bufferSize(handle, d.descr, TCS_CHECK_UNIQUE, &bytes));
    void* buf = tcst_device_poisoned(bytes);
    assert_status(tcsCheckMatrixCsr(handle, d.descr, TCS_CHECK_UNIQUE, NULL, buf),
                  TCS_STATUS_INVALID_VALUE);
    assert_status(tcsCheckMatrixCsr(handle, d.descr, TCS_CHECK_UNIQUE, &st, NULL),
                  TCS_STATUS_INVALID_VALUE);
    tcst_device_free(buf);
    device_free(&d);
    raw_free(&m);
    tcst_csr_free(&a);
}

TCST_GPU_GROUP_FIXTURE("gpu_check_matrix", handle, seed, &quick)

int main(void) {
    if (tcst_no_gpu("gpu_check_matrix")) return TCST_SKIP;
    if (getenv("TCS_TEST_SANITIZER") != NULL) call_limit_s = 60.0;
    /* TCS_TEST_FILTER=pattern runs the tests whose names match it (cmocka's filter). */
    const char* filter = getenv("TCS_TEST_FILTER");
    if (filter != NULL && *filter != '\0') cmocka_set_test_filter(filter);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_matrices),     cmocka_unit_test(test_each_rule),
        cmocka_unit_test(test_random_corruptions), cmocka_unit_test(test_input_checking),
        cmocka_unit_test(test_input_checking_read_once),
        cmocka_unit_test(test_products_on_corrupt_data), cmocka_unit_test(test_bad_arguments),
    };
    return tcst_run_group_tests(tests, group_setup, group_teardown);
}
