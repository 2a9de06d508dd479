/* The SpGEMMreuse protocol on a GPU, through the public API, against the double-
 * precision CPU reference: every size query twice (the answers must agree), buffers
 * 1 and 2 freed right after tcsSpGEMMreuse_nnz and buffer 3 right after
 * tcsSpGEMMreuse_copy (cuSPARSE's contract: what the later calls read must live in
 * buffers 4 and 5), C's values poisoned before copy and still poisoned after it (copy
 * writes C's structure only), then tcsSpGEMMreuse_compute with the values A and B hold,
 * again with new values (bitwise the same C for the same input), with beta != 0 on C's
 * old values, and with device scalars. Exact pattern (symbolic zeros kept), per-entry
 * error within 1e-5 (fp32) or 1e-12 (fp64) of the magnitude of the products. Cases:
 * empty shapes, nnz(A) == 0, 1 x 1, rectangular, index bases 0 and 1 mixed, unsorted
 * input columns, cancellation to zero, rows of C beyond shared memory, the generators,
 * a Matrix Market file, a descriptor that also runs the plain protocol, and a changed
 * pattern (INVALID_VALUE). Seeds are fresh and printed (TCST_SEED=<seed> reproduces);
 * TCS_TEST_QUICK=1 uses smaller sizes. Exits 77 without a GPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tcs_test_support.h"
#include "tcst_shard.h"
#include "tcsparse.h"
#include "tcst_status.h"
#include "tcst_tracked.h"
#include "tcst_gpu_group.h"

#include <cuda_runtime_api.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static tcsHandle_t handle;
static uint64_t seed;
static int quick;

/* Device allocations and descriptors of one test, released after it (also a failed one):
 * tcst_tracked.h. */
static int teardown(void** state) {
    (void)state;
    tcst_release_tracked();
    tcsSetPointerMode(handle, TCS_POINTER_MODE_HOST);
    return 0;
}

static size_t vsize(int is_double) { return is_double ? sizeof(double) : sizeof(float); }

/* Values of m (rounded to fp32 when !is_double, so the reference sees what the GPU
 * multiplies) into the device array dst. */
static void put_values(void* dst, tcst_csr* m, int is_double) {
    if (m->nnz == 0) return;
    void* stage = malloc((size_t)m->nnz * vsize(is_double));
    assert_non_null(stage);
    for (int64_t e = 0; e < m->nnz; ++e) {
        if (!is_double) m->val[e] = (double)(float)m->val[e];
        if (is_double)
            ((double*)stage)[e] = m->val[e];
        else
            ((float*)stage)[e] = (float)m->val[e];
    }
    const cudaError_t err = cudaMemcpy(dst, stage, (size_t)m->nnz * vsize(is_double), cudaMemcpyHostToDevice);
    free(stage);
    assert_int_equal(err, cudaSuccess);
}

static void new_values(tcst_csr* m, uint64_t s) {
    tcst_rng r;
    tcst_rng_seed(&r, s);
    for (int64_t e = 0; e < m->nnz; ++e) m->val[e] = tcst_rng_symmetric(&r);
}

typedef struct {
    void *rp, *ci;
    void* val;
    tcsConstSpMatDescr_t d;
} operand;

static tcsIndexType_t index_type(int wide) { return wide ? TCS_INDEX_64I : TCS_INDEX_32I; }
static size_t index_size(int wide) { return wide ? sizeof(int64_t) : sizeof(int); }

/* wide: the indices as TCS_INDEX_64I. */
static operand upload(tcst_csr* m, int base, int is_double, int wide) {
    operand o;
    int *rp = NULL, *ci = NULL;
    assert_int_equal(tcst_csr_upload(m, base, is_double, &rp, &ci, &o.val), 0);
    tcst_device_free(rp), tcst_device_free(ci);
    assert_int_equal(tcst_csr_upload_indices(m, base, wide, &o.rp, &o.ci), 0);
    if (o.rp) tcst_track(o.rp);
    if (o.ci) tcst_track(o.ci);
    if (o.val) tcst_track(o.val);
    put_values(o.val, m, is_double); /* the rounded values, also on the host */
    assert_ok(tcsCreateConstCsr(&o.d, m->rows, m->cols, m->nnz, o.rp, o.ci, o.val,
                                index_type(wide), index_type(wide),
                                base ? TCS_INDEX_BASE_ONE : TCS_INDEX_BASE_ZERO,
                                is_double ? CUDA_R_64F : CUDA_R_32F));
    tcst_track_mat(o.d);
    return o;
}

typedef struct {
    int a_base, b_base, c_base, is_double;
    int device_scalars;
    tcsSpGEMMAlg_t alg;
    int wide; /* A, B and C with TCS_INDEX_64I offsets and columns */
} config;

/* C after the reuse protocol, ready for tcsSpGEMMreuse_compute. */
typedef struct {
    const config* k;
    operand a, b;
    tcsSpMatDescr_t c;
    tcsSpGEMMDescr_t descr;
    int64_t m, n, nnz;
    void *c_rp, *c_ci;
    void* c_val;
    void *alpha, *beta; /* host or device, in the compute type */
} product;

#define REUSE_ARGS(p)                                                                          \
    handle, TCS_OPERATION_NON_TRANSPOSE, TCS_OPERATION_NON_TRANSPOSE, (p)->a.d, (p)->b.d, (p)->c, \
        (p)->k->alg, (p)->descr
#define COMPUTE_ARGS(p)                                                                        \
    handle, TCS_OPERATION_NON_TRANSPOSE, TCS_OPERATION_NON_TRANSPOSE, (p)->alpha, (p)->a.d,     \
        (p)->b.d, (p)->beta, (p)->c, (p)->k->is_double ? CUDA_R_64F : CUDA_R_32F, (p)->k->alg,  \
        (p)->descr

/* Stages 1-3: sizes asked twice, buffers freed as early as cuSPARSE allows. */
static void set_up(product* p, int64_t expected_nnz) {
    const config* k = p->k;
    p->c_rp = tcst_poisoned((size_t)(p->m + 1) * index_size(k->wide));
    assert_ok(tcsCreateCsr(&p->c, p->m, p->n, 0, p->c_rp, NULL, NULL, index_type(k->wide),
                           index_type(k->wide), k->c_base ? TCS_INDEX_BASE_ONE : TCS_INDEX_BASE_ZERO,
                           k->is_double ? CUDA_R_64F : CUDA_R_32F));
    tcst_track_mat(p->c);
    if (p->descr == NULL) {
        assert_ok(tcsSpGEMM_createDescr(&p->descr));
        tcst_track_gemm(p->descr);
    }

    size_t s1 = 0, s1_again = 0;
    assert_ok(tcsSpGEMMreuse_workEstimation(REUSE_ARGS(p), &s1, NULL));
    assert_ok(tcsSpGEMMreuse_workEstimation(REUSE_ARGS(p), &s1_again, NULL));
    assert_int_equal(s1, s1_again);
    void* b1 = tcst_poisoned(s1);
    assert_ok(tcsSpGEMMreuse_workEstimation(REUSE_ARGS(p), &s1, b1));

    size_t s2 = 0, s3 = 0, s4 = 0, again[3] = {0, 0, 0};
    assert_ok(tcsSpGEMMreuse_nnz(REUSE_ARGS(p), &s2, NULL, &s3, NULL, &s4, NULL));
    assert_ok(tcsSpGEMMreuse_nnz(REUSE_ARGS(p), &again[0], NULL, &again[1], NULL, &again[2], NULL));
    assert_true(s2 == again[0] && s3 == again[1] && s4 == again[2]);
    assert_true(s2 > 0 && s3 > 0 && s4 > 0);
    void* b2 = tcst_poisoned(s2);
    void* b3 = tcst_poisoned(s3);
    void* b4 = tcst_poisoned(s4);
    /* some buffers given and others not: an invalid call that changes nothing */
    assert_status(tcsSpGEMMreuse_nnz(REUSE_ARGS(p), &s2, b2, &s3, NULL, &s4, b4),
                  TCS_STATUS_INVALID_VALUE);
    assert_ok(tcsSpGEMMreuse_nnz(REUSE_ARGS(p), &s2, b2, &s3, b3, &s4, b4));
    tcst_free_tracked(b1); /* cudaFree: the reuse contract allows it from here on */
    tcst_free_tracked(b2);
    int64_t rows = -1, cols = -1, nnz = -1;
    assert_ok(tcsSpMatGetSize(p->c, &rows, &cols, &nnz));
    assert_true(rows == p->m && cols == p->n);
    assert_int_equal(nnz, expected_nnz);
    p->nnz = nnz;

    p->c_ci = tcst_poisoned((size_t)nnz * index_size(k->wide));
    p->c_val = tcst_poisoned((size_t)nnz * vsize(k->is_double));
    assert_ok(tcsCsrSetPointers(p->c, p->c_rp, p->c_ci, p->c_val));
    size_t s5 = 0, s5_again = 0;
    assert_ok(tcsSpGEMMreuse_copy(REUSE_ARGS(p), &s5, NULL));
    assert_ok(tcsSpGEMMreuse_copy(REUSE_ARGS(p), &s5_again, NULL));
    assert_int_equal(s5, s5_again);
    void* b5 = tcst_poisoned(s5);
    (void)b5;
    assert_ok(tcsSpGEMMreuse_copy(REUSE_ARGS(p), &s5, b5));
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    tcst_free_tracked(b3);

    /* copy wrote the structure and left C's values alone: still all 0xFF bytes */
    const size_t bytes = (size_t)nnz * vsize(k->is_double);
    unsigned char* v = (unsigned char*)malloc(bytes > 0 ? bytes : 1);
    assert_non_null(v);
    assert_int_equal(tcst_device_download(v, p->c_val, bytes), 0);
    for (size_t i = 0; i < bytes; ++i)
        if (v[i] != 0xFF) fail_msg("reuse_copy wrote C's values (byte %zu)", i);
    free(v);
}

static void set_scalars(product* p, double alpha, double beta) {
    const int dbl = p->k->is_double;
    static double hd[2];
    static float hf[2];
    hd[0] = alpha, hd[1] = beta, hf[0] = (float)alpha, hf[1] = (float)beta;
    void* host = dbl ? (void*)hd : (void*)hf;
    if (p->k->device_scalars) {
        void* dev = tcst_poisoned(2 * vsize(dbl));
        assert_int_equal(cudaMemcpy(dev, host, 2 * vsize(dbl), cudaMemcpyHostToDevice), cudaSuccess);
        assert_ok(tcsSetPointerMode(handle, TCS_POINTER_MODE_DEVICE));
        p->alpha = dev;
        p->beta = (char*)dev + vsize(dbl);
    } else {
        assert_ok(tcsSetPointerMode(handle, TCS_POINTER_MODE_HOST));
        p->alpha = host;
        p->beta = (char*)host + vsize(dbl);
    }
}

/* The C on the device against alpha*A*B + beta*old (old: C's values before, in the
 * reference's order, or NULL for beta == 0); returns C's values, caller frees. */
static void* check_c(const char* name, const product* p, const tcst_csr* a, const tcst_csr* b,
                     double alpha, double beta, const double* old) {
    const int dbl = p->k->is_double;
    tcst_csr ref;
    assert_int_equal(tcst_ref_spgemm(a, b, &ref), 0);
    double* mag = tcst_ref_spgemm_magnitude(a, b, &ref);
    assert_non_null(mag);
    for (int64_t e = 0; e < ref.nnz; ++e) {
        ref.val[e] *= alpha;
        mag[e] *= fabs(alpha);
        if (beta != 0.0) {
            ref.val[e] += beta * old[e];
            mag[e] += fabs(beta * old[e]);
        }
    }
    const size_t n = (size_t)(p->nnz > 0 ? p->nnz : 1);
    int* rp = (int*)malloc((size_t)(p->m + 1) * sizeof(int));
    int* ci = (int*)malloc(n * sizeof(int));
    void* val = malloc(n * vsize(dbl));
    assert_true(rp && ci && val);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    assert_int_equal(tcst_device_download_indices(rp, p->c_rp, p->m + 1, p->k->wide), 0);
    assert_int_equal(tcst_device_download_indices(ci, p->c_ci, p->nnz, p->k->wide), 0);
    assert_int_equal(tcst_device_download(val, p->c_val, (size_t)p->nnz * vsize(dbl)), 0);
    char msg[512] = "";
    const int bad = tcst_compare_csr(&ref, mag, rp, ci, val, dbl, p->k->c_base,
                                     dbl ? 1e-12 : 1e-5, msg, sizeof msg);
    free(rp), free(ci), free(mag);
    tcst_csr_free(&ref);
    if (bad) fail_msg("%s (%s): %s", name, dbl ? "fp64" : "fp32", msg);
    return val;
}

/* The whole protocol on a and b (values changed in place), then compute three ways. */
static void check_reuse(const char* name, tcst_csr* a, tcst_csr* b, const config* k) {
    tcst_csr ref;
    assert_int_equal(tcst_ref_spgemm(a, b, &ref), 0);
    const int64_t nnz = ref.nnz;
    tcst_csr_free(&ref);

    product p;
    memset(&p, 0, sizeof p);
    p.k = k;
    p.m = a->rows;
    p.n = b->cols;
    p.a = upload(a, k->a_base, k->is_double, k->wide);
    p.b = upload(b, k->b_base, k->is_double, k->wide);
    set_up(&p, nnz);

    /* 1: the values A and B were created with */
    set_scalars(&p, 1.0, 0.0);
    assert_ok(tcsSpGEMMreuse_compute(COMPUTE_ARGS(&p)));
    void* first = check_c(name, &p, a, b, 1.0, 0.0, NULL);

    /* 2: new values, the numeric pass only; twice, bitwise the same */
    new_values(a, seed + 101);
    new_values(b, seed + 102);
    put_values(p.a.val, a, k->is_double);
    put_values(p.b.val, b, k->is_double);
    set_scalars(&p, -0.5, 0.0);
    assert_ok(tcsSpGEMMreuse_compute(COMPUTE_ARGS(&p)));
    void* second = check_c(name, &p, a, b, -0.5, 0.0, NULL);
    assert_ok(tcsSpGEMMreuse_compute(COMPUTE_ARGS(&p)));
    void* third = check_c(name, &p, a, b, -0.5, 0.0, NULL);
    if (memcmp(second, third, (size_t)nnz * vsize(k->is_double)) != 0)
        fail_msg("%s: two computes on the same input differ", name);

    /* 3: beta != 0 on C's current values */
    double* old = (double*)malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof(double));
    assert_non_null(old);
    for (int64_t e = 0; e < nnz; ++e)
        old[e] = k->is_double ? ((double*)third)[e] : (double)((float*)third)[e];
    set_scalars(&p, 2.0, 0.75);
    assert_ok(tcsSpGEMMreuse_compute(COMPUTE_ARGS(&p)));
    free(check_c(name, &p, a, b, 2.0, 0.75, old));
    free(old), free(first), free(second), free(third);
}

static void both_types(const char* name, tcst_csr* a, tcst_csr* b, config k) {
    for (int dbl = 0; dbl < 2; ++dbl) {
        k.is_double = dbl;
        check_reuse(name, a, b, &k);
        teardown(NULL);
    }
}

static config plain(void) {
    config k;
    memset(&k, 0, sizeof k);
    k.alg = TCS_SPGEMM_DEFAULT;
    return k;
}

static tcst_csr uniform(int64_t rows, int64_t cols, int per_row, uint64_t s) {
    tcst_csr m;
    assert_int_equal(tcst_gen_uniform(rows, cols, per_row, s, &m), 0);
    return m;
}

/* ---- tests ---- */

static void test_generated(void** state) {
    (void)state;
    const int n = quick ? 3000 : 40000;
    tcst_csr a = uniform(n, n / 2, 9, seed + 1);
    tcst_csr b = uniform(n / 2, n + 17, 7, seed + 2); /* rectangular */
    both_types("uniform", &a, &b, plain());
    tcst_csr_free(&a), tcst_csr_free(&b);
    tcst_csr s;
    assert_int_equal(tcst_gen_stencil27(quick ? 10 : 24, 12, 9, 1, seed + 3, &s), 0);
    config k = plain();
    k.alg = TCS_SPGEMM_ALG_HASH;
    both_types("stencil27", &s, &s, k);
    tcst_csr_free(&s);
    tcst_csr r;
    assert_int_equal(tcst_gen_rmat(quick ? 10 : 13, 8, 0.57, 0.19, 0.19, seed + 4, &r), 0);
    k.alg = TCS_SPGEMM_ALG2;
    both_types("rmat", &r, &r, k);
    tcst_csr_free(&r);
}

/* 64-bit indices in A, B and C (tcsparse's extension), both bases, every algorithm
 * family, both types: the whole protocol against the reference (check_reuse). */
static void test_index64(void** state) {
    (void)state;
    tcst_csr a = uniform(quick ? 400 : 3000, 300, 9, seed + 50);
    tcst_csr b = uniform(300, quick ? 500 : 4000, 7, seed + 51);
    tcst_csr_shuffle_columns(&a, seed + 52);
    const tcsSpGEMMAlg_t algs[] = {TCS_SPGEMM_ALG_HASH, TCS_SPGEMM_DEFAULT, TCS_SPGEMM_ALG_TILE_TC};
    for (int g = 0; g < 3; ++g) {
        config k = plain();
        k.wide = 1;
        k.alg = algs[g];
        k.a_base = g % 2;
        k.c_base = (g + 1) % 2;
        k.device_scalars = g == 1;
        both_types("64-bit indices", &a, &b, k);
    }
    tcst_csr_free(&a), tcst_csr_free(&b);
}

static void test_empty_shapes(void** state) {
    (void)state;
    const int64_t shapes[][3] = {{0, 5, 4}, {6, 0, 3}, {4, 5, 0}, {0, 0, 0}, {1, 1, 1}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
        tcst_csr a = uniform(shapes[i][0], shapes[i][1], shapes[i][1] > 0 ? 1 : 0, seed + 10 + i);
        tcst_csr b = uniform(shapes[i][1], shapes[i][2], shapes[i][2] > 0 ? 1 : 0, seed + 20 + i);
        both_types("empty shapes", &a, &b, plain());
        tcst_csr_free(&a), tcst_csr_free(&b);
    }
    /* nnz(A) == 0 in a matrix with rows and columns, and rows of A left empty */
    tcst_csr z, b = uniform(30, 20, 3, seed + 30);
    assert_int_equal(tcst_csr_alloc(&z, 40, 30, 0), 0);
    both_types("nnz(A) == 0", &z, &b, plain());
    tcst_csr a = uniform(40, 30, 4, seed + 31);
    const int dropped = a.row_ptr[20]; /* rows 0..19 emptied: their entries dropped */
    for (int64_t i = 0; i <= a.rows; ++i) a.row_ptr[i] = i < 20 ? 0 : a.row_ptr[i] - dropped;
    a.nnz = a.row_ptr[a.rows];
    memmove(a.col_idx, a.col_idx + dropped, (size_t)a.nnz * sizeof(int));
    memmove(a.val, a.val + dropped, (size_t)a.nnz * sizeof(double));
    both_types("empty rows", &a, &b, plain());
    tcst_csr_free(&z), tcst_csr_free(&b), tcst_csr_free(&a);
}

static void test_bases_unsorted_and_scalars(void** state) {
    (void)state;
    tcst_csr a = uniform(500, 300, 11, seed + 40);
    tcst_csr b = uniform(300, 400, 6, seed + 41);
    tcst_csr_shuffle_columns(&a, seed + 42);
    tcst_csr_shuffle_columns(&b, seed + 43);
    config k = plain();
    k.a_base = 1;
    k.c_base = 1;
    both_types("one-based A and C, unsorted", &a, &b, k);
    k.a_base = 0;
    k.b_base = 1;
    k.c_base = 0;
    k.device_scalars = 1;
    both_types("one-based B, device scalars", &a, &b, k);
    tcst_csr_free(&a), tcst_csr_free(&b);
}

/* C(0,0) = 1*1 + 1*(-1) = 0: kept as an explicit zero */
static void test_cancellation(void** state) {
    (void)state;
    tcst_csr a, b;
    assert_int_equal(tcst_csr_alloc(&a, 1, 2, 2), 0);
    assert_int_equal(tcst_csr_alloc(&b, 2, 1, 2), 0);
    a.row_ptr[1] = 2, a.col_idx[0] = 0, a.col_idx[1] = 1, a.val[0] = 1.0, a.val[1] = 1.0;
    b.row_ptr[1] = 1, b.row_ptr[2] = 2, b.col_idx[0] = 0, b.col_idx[1] = 0;
    b.val[0] = 1.0, b.val[1] = -1.0;
    for (int dbl = 0; dbl < 2; ++dbl) {
        config k = plain();
        k.is_double = dbl;
        product p;
        memset(&p, 0, sizeof p);
        p.k = &k, p.m = 1, p.n = 1;
        p.a = upload(&a, 0, dbl, 0);
        p.b = upload(&b, 0, dbl, 0);
        set_up(&p, 1);
        set_scalars(&p, 1.0, 0.0);
        assert_ok(tcsSpGEMMreuse_compute(COMPUTE_ARGS(&p)));
        void* v = check_c("cancellation", &p, &a, &b, 1.0, 0.0, NULL);
        assert_true(dbl ? ((double*)v)[0] == 0.0 : ((float*)v)[0] == 0.0f);
        free(v);
        teardown(NULL);
    }
    tcst_csr_free(&a), tcst_csr_free(&b);
}

/* Rows of C with more entries than the shared-memory tables hold (the wide path):
 * every row of A takes all k rows of B, ~126k entries in each row of C. */
static void test_wide_rows(void** state) {
    (void)state;
    const int64_t k = quick ? 100 : 400;
    tcst_csr a = uniform(8, k, (int)k, seed + 50);
    tcst_csr b = uniform(k, 200000, 500, seed + 51);
    both_types("wide rows", &a, &b, plain());
    tcst_csr_free(&a), tcst_csr_free(&b);
}

static void test_matrix_market(void** state) {
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", tcst_matrix_dir(), "nos3.mtx.gz");
    tcst_csr m;
    char err[256] = "";
    if (tcst_mm_read(path, 7, &m, err, sizeof err) != 0) {
        printf("gpu_spgemm_reuse: %s not read (%s): case left out\n", path, err);
        return;
    }
    both_types("nos3", &m, &m, plain());
    tcst_csr_free(&m);
}

/* One descriptor running both protocols, each on its own product; and a pattern that
 * changes after stage 1 is refused. */
static void test_protocols_side_by_side(void** state) {
    (void)state;
    tcst_csr a = uniform(300, 200, 5, seed + 60);
    tcst_csr b = uniform(200, 250, 4, seed + 61);
    config k = plain();
    k.is_double = 1;
    product p;
    memset(&p, 0, sizeof p);
    p.k = &k, p.m = a.rows, p.n = b.cols;
    p.a = upload(&a, 0, 1, 0);
    p.b = upload(&b, 0, 1, 0);
    tcst_csr ref;
    assert_int_equal(tcst_ref_spgemm(&a, &b, &ref), 0);
    set_up(&p, ref.nnz);
    tcst_csr_free(&ref);

    /* the plain protocol on the same descriptor: B * A^T-like product of other sizes */
    tcst_csr a2 = uniform(80, 200, 3, seed + 62);
    operand x = upload(&a2, 0, 1, 0);
    int* c2_rp = (int*)tcst_poisoned(81 * sizeof(int));
    tcsSpMatDescr_t c2 = NULL;
    assert_ok(tcsCreateCsr(&c2, 80, 250, 0, c2_rp, NULL, NULL, TCS_INDEX_32I, TCS_INDEX_32I,
                           TCS_INDEX_BASE_ZERO, CUDA_R_64F));
    tcst_track_mat(c2);
    const double one = 1.0, zero = 0.0;
    const tcsOperation_t nt = TCS_OPERATION_NON_TRANSPOSE;
    size_t s1 = 0, s2 = 0;
    assert_ok(tcsSetPointerMode(handle, TCS_POINTER_MODE_HOST));
    assert_ok(tcsSpGEMM_workEstimation(handle, nt, nt, &one, x.d, p.b.d, &zero, c2, CUDA_R_64F,
                                       TCS_SPGEMM_DEFAULT, p.descr, &s1, NULL));
    assert_ok(tcsSpGEMM_workEstimation(handle, nt, nt, &one, x.d, p.b.d, &zero, c2, CUDA_R_64F,
                                       TCS_SPGEMM_DEFAULT, p.descr, &s1, tcst_poisoned(s1)));
    assert_ok(tcsSpGEMM_compute(handle, nt, nt, &one, x.d, p.b.d, &zero, c2, CUDA_R_64F,
                                TCS_SPGEMM_DEFAULT, p.descr, &s2, NULL));
    assert_ok(tcsSpGEMM_compute(handle, nt, nt, &one, x.d, p.b.d, &zero, c2, CUDA_R_64F,
                                TCS_SPGEMM_DEFAULT, p.descr, &s2, tcst_poisoned(s2)));
    int64_t r2 = 0, c2cols = 0, nnz2 = 0;
    assert_ok(tcsSpMatGetSize(c2, &r2, &c2cols, &nnz2));
    assert_ok(tcsCsrSetPointers(c2, c2_rp, tcst_poisoned((size_t)nnz2 * sizeof(int)),
                                tcst_poisoned((size_t)nnz2 * sizeof(double))));
    assert_ok(tcsSpGEMM_copy(handle, nt, nt, &one, x.d, p.b.d, &zero, c2, CUDA_R_64F,
                             TCS_SPGEMM_DEFAULT, p.descr));

    /* the reuse protocol still computes its own product */
    new_values(&a, seed + 63);
    put_values(p.a.val, &a, 1);
    set_scalars(&p, 1.0, 0.0);
    assert_ok(tcsSpGEMMreuse_compute(COMPUTE_ARGS(&p)));
    free(check_c("after the plain protocol", &p, &a, &b, 1.0, 0.0, NULL));

    /* A's pattern moved (another offsets array): refused, C untouched */
    tcsConstSpMatDescr_t moved = NULL;
    assert_ok(tcsCreateConstCsr(&moved, a.rows, a.cols, a.nnz, x.rp, p.a.ci, p.a.val,
                                TCS_INDEX_32I, TCS_INDEX_32I, TCS_INDEX_BASE_ZERO, CUDA_R_64F));
    tcst_track_mat(moved);
    assert_status(tcsSpGEMMreuse_compute(handle, nt, nt, &one, moved, p.b.d, &zero, p.c,
                                         CUDA_R_64F, TCS_SPGEMM_DEFAULT, p.descr),
                  TCS_STATUS_INVALID_VALUE);
    /* another algorithm than stage 1's */
    assert_status(tcsSpGEMMreuse_compute(handle, nt, nt, &one, p.a.d, p.b.d, &zero, p.c,
                                         CUDA_R_64F, TCS_SPGEMM_ALG3, p.descr),
                  TCS_STATUS_INVALID_VALUE);
    tcst_csr_free(&a), tcst_csr_free(&b), tcst_csr_free(&a2);
}

TCST_GPU_GROUP_FIXTURE("gpu_spgemm_reuse", handle, seed, &quick)

int main(void) {
    if (tcst_no_gpu("gpu_spgemm_reuse")) return TCST_SKIP;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_generated, teardown),
        cmocka_unit_test_teardown(test_empty_shapes, teardown),
        cmocka_unit_test_teardown(test_bases_unsorted_and_scalars, teardown),
        cmocka_unit_test_teardown(test_cancellation, teardown),
        cmocka_unit_test_teardown(test_wide_rows, teardown),
        cmocka_unit_test_teardown(test_matrix_market, teardown),
        cmocka_unit_test_teardown(test_protocols_side_by_side, teardown),
        cmocka_unit_test_teardown(test_index64, teardown),
    };
    return tcst_run_group_tests(tests, group_setup, group_teardown);
}
