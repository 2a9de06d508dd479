/* The tile SpGEMM (TCS_SPGEMM_ALG_TILE on CUDA cores, TCS_SPGEMM_ALG_TILE_TC on tensor
 * cores) and TCS_SPGEMM_DEFAULT on a GPU, through the public API and the full cuSPARSE
 * protocol (each size query twice, C created with nnz 0 and a caller-allocated
 * row-offset array, buffers kept until copy), in fp32, fp64, fp16 and bf16 (16-bit data
 * with computeType CUDA_R_32F) and under the math modes, against the double-precision
 * CPU reference of the values the GPU holds: exact pattern (the symbolic product,
 * identical to the hash algorithm's), per-entry error within
 *   fp64 (DMMA or FMA)             1e-13 of the sum of |a*b| over the entry's products
 *   fp32 (fp64 sums, one rounding) 1.2e-7 of it (at least fp32 accuracy)
 *   fp32 under TF32 or fp16 math   4e-3 of it (inputs rounded to 10-bit mantissas; under
 *                                  fp16 each |input| counted as at least 2^-14, where
 *                                  fp16 subnormals round by an absolute 2^-25)
 *   fp16 / bf16 (fp32 sums)        2e-3 / 1e-2 of it (the output's rounding)
 * Outputs and buffers are poisoned first. Cases: every case of gpu_spgemm_hash (empty
 * shapes, nnz(C) = 0, 1 x 1, rectangular, index bases, unsorted input columns, exact
 * cancellation kept as zeros, device scalars, beta != 0, reuse with new values, bitwise
 * determinism), dimensions that are not multiples of 8, fully dense and single-element
 * tiles, a row of A meeting empty rows of B inside a tile, panels of A with 33..64 and
 * with more than 64 tile columns, every shared Matrix Market file, the generators; the
 * fp16 SMAPE is printed and bounded (0.05% on values in [-1, 1]). Seeds are fresh and
 * printed (TCST_SEED=<seed> reproduces); TCS_TEST_QUICK=1 (the sanitizer run) uses
 * smaller sizes. Exits 77 without a GPU. */
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

#include <cuda_runtime_api.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static tcsHandle_t handle;
static uint64_t seed;
static int quick; /* TCS_TEST_QUICK: smaller sizes */

/* ---- value types ---- */

typedef enum { F32, F64, F16, BF16 } vtype;
static const char* const type_names[] = {"fp32", "fp64", "fp16", "bf16"};

static cudaDataType data_type(vtype t) {
    static const cudaDataType map[] = {CUDA_R_32F, CUDA_R_64F, CUDA_R_16F, CUDA_R_16BF};
    return map[t];
}
static cudaDataType compute_type(vtype t) { return t == F64 ? CUDA_R_64F : CUDA_R_32F; }
static size_t value_size(vtype t) { return tcst_value_size(data_type(t)); }

/* v as stored in type t, written to dst[i]; read back; what v becomes in type t
 * (tests/support/values.c). */
static void put_value(void* dst, int64_t i, double v, vtype t) {
    tcst_value_put(dst, (size_t)i, data_type(t), v);
}
static double get_value(const void* src, int64_t i, vtype t) {
    return tcst_value_get(src, (size_t)i, data_type(t));
}
static double rounded(double v, vtype t) { return tcst_value_rounded(v, data_type(t)); }

/* ---- resources released after every test, also a failed one (tcst_tracked.h) ---- */

static int teardown(void** state) {
    (void)state;
    tcst_release_tracked();
    tcsSetPointerMode(handle, TCS_POINTER_MODE_HOST);
    tcsSetMathMode(handle, TCS_DEFAULT_MATH);
    return 0;
}

static void upload_bytes(void* dst, const void* src, size_t bytes) {
    if (bytes == 0) return;
    assert_int_equal(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice), cudaSuccess);
}

/* Values (of the reference's order) in type t, into existing device memory. */
static void upload_values(void* dst, const double* v, int64_t n, vtype t) {
    if (n == 0) return;
    void* stage = malloc((size_t)n * value_size(t));
    assert_non_null(stage);
    for (int64_t i = 0; i < n; ++i) put_value(stage, i, v[i], t);
    upload_bytes(dst, stage, (size_t)n * value_size(t));
    free(stage);
}

static void download(void* host, const void* dev, size_t bytes) {
    assert_int_equal(tcst_device_download(host, dev, bytes), 0);
}

/* ---- one product through the protocol ---- */

typedef struct {
    int a_base, b_base, c_base;
    vtype type;
    tcsSpGEMMAlg_t alg;
    tcsMath_t math;
    int device_scalars;
    double alpha, beta;
    int reuse;  /* compute + copy again after new values in A and B */
    int repeat; /* a second full run, bitwise identical */
    int wide;   /* A, B and C with TCS_INDEX_64I offsets and columns */
} options;

static options defaults(tcsSpGEMMAlg_t alg, vtype t) {
    options o;
    memset(&o, 0, sizeof o);
    o.alg = alg;
    o.type = t;
    o.math = TCS_DEFAULT_MATH;
    o.alpha = 1.0;
    return o;
}

static const char* alg_name(tcsSpGEMMAlg_t a) {
    return a == TCS_SPGEMM_ALG_TILE      ? "TILE"
           : a == TCS_SPGEMM_ALG_TILE_TC ? "TILE_TC"
           : a == TCS_SPGEMM_ALG_HASH    ? "HASH"
                                         : "DEFAULT";
}

/* Whether explicit tile algorithms may hand fp32/fp64 products to the hash algorithm
 * (the library's default; TCS_HANDOFF=0 in gpu_spgemm_tiles_no_handoff turns it off). */
static int hand_off_on(void) {
    const char* v = getenv("TCS_HANDOFF");
    return !(v != NULL && strcmp(v, "0") == 0);
}

/* The per-entry bound relative to the magnitude of the products. */
static double tolerance(const options* o) {
    switch (o->type) {
    case F64: return 1e-13;
    case F16: return 2e-3;
    case BF16: return 1e-2;
    default:
        if (o->alg == TCS_SPGEMM_ALG_TILE_TC &&
            (o->math == TCS_TF32_TENSOR_OP_MATH || o->math == TCS_FP16_TENSOR_OP_MATH))
            return 4e-3;
        /* The tile algorithms' fp64 sums round once; where fp32 inputs are handed to
         * the hash algorithm (TCS_HANDOFF unset), its fp32 sums, as DEFAULT's. */
        if ((o->alg == TCS_SPGEMM_ALG_TILE || o->alg == TCS_SPGEMM_ALG_TILE_TC) && !hand_off_on())
            return 1.2e-7;
        return 1e-5;
    }
}

typedef struct {
    void *rp, *ci;
    void* val;
    tcsConstSpMatDescr_t descr;
} device_csr;

static tcsIndexType_t index_type(int wide) { return wide ? TCS_INDEX_64I : TCS_INDEX_32I; }
static size_t index_size(int wide) { return wide ? sizeof(int64_t) : sizeof(int); }

/* m (values already as the type stores them) on the device; wide: 64-bit indices. */
static device_csr upload(const tcst_csr* m, int base, vtype t, int wide) {
    device_csr d;
    const int is_wide = t == F64;
    int *rp = NULL, *ci = NULL;
    assert_int_equal(tcst_csr_upload(m, base, is_wide, &rp, &ci, &d.val), 0);
    tcst_device_free(rp), tcst_device_free(ci);
    assert_int_equal(tcst_csr_upload_indices(m, base, wide, &d.rp, &d.ci), 0);
    tcst_track(d.rp), tcst_track(d.ci), tcst_track(d.val);
    if (t == F16 || t == BF16) upload_values(d.val, m->val, m->nnz, t); /* over the fp32 copy */
    assert_ok(tcsCreateConstCsr(&d.descr, m->rows, m->cols, m->nnz, d.rp, d.ci, d.val,
                                index_type(wide), index_type(wide),
                                base ? TCS_INDEX_BASE_ONE : TCS_INDEX_BASE_ZERO, data_type(t)));
    tcst_track_mat(d.descr);
    return d;
}

typedef struct {
    int64_t rows, nnz;
    int *rp, *ci;
    double* val; /* converted from the data type */
} result;

static void result_free(result* r) {
    free(r->rp), free(r->ci), free(r->val);
    memset(r, 0, sizeof *r);
}

typedef struct {
    const options* o;
    device_csr a, b;
    int same; /* B is A's very arrays (C = A*A) */
    tcsSpMatDescr_t c;
    int64_t m, n;
    void* c_rp;
    void* c_ci;
    void* c_val;
    const double* c_old;
    tcsSpGEMMDescr_t d;
    size_t size2;
    void* buf2;
    const void *alpha, *beta;
    double host_scalars[2];
    float host_scalars_f[2];
} run;

static void set_scalars(run* r) {
    const options* o = r->o;
    r->host_scalars[0] = o->alpha;
    r->host_scalars[1] = o->beta;
    r->host_scalars_f[0] = (float)o->alpha;
    r->host_scalars_f[1] = (float)o->beta;
    const int dbl = o->type == F64;
    const void* host = dbl ? (const void*)r->host_scalars : (const void*)r->host_scalars_f;
    const size_t vs = dbl ? 8 : 4;
    if (o->device_scalars) {
        void* dev = tcst_poisoned(2 * vs);
        upload_bytes(dev, host, 2 * vs);
        assert_ok(tcsSetPointerMode(handle, TCS_POINTER_MODE_DEVICE));
        r->alpha = dev;
        r->beta = (const char*)dev + vs;
    } else {
        assert_ok(tcsSetPointerMode(handle, TCS_POINTER_MODE_HOST));
        r->alpha = host;
        r->beta = (const char*)host + vs;
    }
    assert_ok(tcsSetMathMode(handle, o->math));
}

#define ARGS(r)                                                                                    \
    handle, TCS_OPERATION_NON_TRANSPOSE, TCS_OPERATION_NON_TRANSPOSE, (r)->alpha, (r)->a.descr,  \
        (r)->same ? (r)->a.descr : (r)->b.descr, (r)->beta, (r)->c, compute_type((r)->o->type),   \
        (r)->o->alg, (r)->d

static result compute_and_copy(run* r, int64_t expected_nnz) {
    const options* o = r->o;
    const size_t vs = value_size(o->type);
    assert_ok(tcsSpGEMM_compute(ARGS(r), &r->size2, r->buf2));
    int64_t rows = -1, cols = -1, nnz = -1;
    assert_ok(tcsSpMatGetSize(r->c, &rows, &cols, &nnz));
    assert_int_equal(rows, r->m);
    assert_int_equal(cols, r->n);
    assert_int_equal(nnz, expected_nnz);
    if (r->c_ci == NULL && nnz > 0) {
        r->c_ci = tcst_poisoned((size_t)nnz * index_size(o->wide));
        r->c_val = tcst_poisoned((size_t)nnz * vs);
    }
    if (o->beta != 0.0) upload_values(r->c_val, r->c_old, nnz, o->type);
    assert_ok(tcsCsrSetPointers(r->c, r->c_rp, r->c_ci, r->c_val));
    assert_ok(tcsSpGEMM_copy(ARGS(r)));
    result out;
    out.rows = r->m;
    out.nnz = nnz;
    out.rp = (int*)malloc((size_t)(r->m + 1) * sizeof(int));
    out.ci = (int*)malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof(int));
    out.val = (double*)malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof(double));
    void* raw = malloc((size_t)(nnz > 0 ? nnz : 1) * vs);
    assert_true(out.rp != NULL && out.ci != NULL && out.val != NULL && raw != NULL);
    assert_int_equal(tcst_device_download_indices(out.rp, r->c_rp, r->m + 1, o->wide), 0);
    assert_int_equal(tcst_device_download_indices(out.ci, r->c_ci, nnz, o->wide), 0);
    download(raw, r->c_val, (size_t)nnz * vs);
    for (int64_t e = 0; e < nnz; ++e) out.val[e] = get_value(raw, e, o->type);
    free(raw);
    return out;
}

static result full_protocol(run* r, const tcst_csr* a, const tcst_csr* b, int64_t expected_nnz) {
    const options* o = r->o;
    r->c_rp = tcst_poisoned((size_t)(r->m + 1) * index_size(o->wide));
    r->c_ci = NULL;
    r->c_val = NULL;
    assert_ok(tcsCreateCsr(&r->c, r->m, r->n, 0, r->c_rp, NULL, NULL, index_type(o->wide),
                           index_type(o->wide), o->c_base ? TCS_INDEX_BASE_ONE : TCS_INDEX_BASE_ZERO,
                           data_type(o->type)));
    tcst_track_mat(r->c);
    assert_ok(tcsSpGEMM_createDescr(&r->d));
    tcst_track_gemm(r->d);

    size_t size1 = 0, again = 0;
    assert_ok(tcsSpGEMM_workEstimation(ARGS(r), &size1, NULL));
    assert_ok(tcsSpGEMM_workEstimation(ARGS(r), &again, NULL));
    assert_int_equal(size1, again);
    assert_ok(tcsSpGEMM_workEstimation(ARGS(r), &size1, tcst_poisoned(size1)));
    int64_t products = -1;
    assert_ok(tcsSpGEMM_getNumProducts(r->d, &products));
    assert_int_equal(products, tcst_ref_num_products(a, b));
    size_t size2_again = 0;
    assert_ok(tcsSpGEMM_compute(ARGS(r), &r->size2, NULL));
    assert_ok(tcsSpGEMM_compute(ARGS(r), &size2_again, NULL));
    assert_int_equal(r->size2, size2_again);
    r->buf2 = tcst_poisoned(r->size2);
    return compute_and_copy(r, expected_nnz);
}

/* A copy of m with values as type t stores them (16-bit data: scaled into [-1, 1] first,
 * so that no product overflows). */
static tcst_csr as_stored(const tcst_csr* m, vtype t) {
    tcst_csr out;
    assert_int_equal(tcst_csr_copy(m, &out), 0);
    double scale = 1.0;
    if (t == F16 || t == BF16) {
        double top = 0.0;
        for (int64_t e = 0; e < m->nnz; ++e) top = fabs(m->val[e]) > top ? fabs(m->val[e]) : top;
        if (top > 1.0) scale = 1.0 / top;
    }
    for (int64_t e = 0; e < m->nnz; ++e) out.val[e] = rounded(m->val[e] * scale, t);
    return out;
}

static void check_result(const char* name, const options* o, const tcst_csr* a, const tcst_csr* b,
                         const double* old, const result* got) {
    tcst_csr ref;
    assert_int_equal(tcst_ref_spgemm(a, b, &ref), 0);
    /* fp16 math rounds fp32 inputs below 2^-14 by an absolute 2^-25 (fp16 subnormals). */
    const int half_inputs = o->type == F32 && o->alg == TCS_SPGEMM_ALG_TILE_TC &&
                            o->math == TCS_FP16_TENSOR_OP_MATH;
    double* mag = tcst_ref_spgemm_magnitude_floored(a, b, &ref, half_inputs ? ldexp(1.0, -14) : 0);
    assert_non_null(mag);
    /* Subnormal results round by an absolute half step of the output type, whatever their
     * magnitude: 2^-25 in fp16, 2^-134 in bf16, 2^-150 in fp32 (seen on the H100: bayer10's
     * fp32 entries near 1e-44, correctly rounded, outside rtol * magnitude). */
    static const int half_step[] = {-150, -1075, -25, -134}; /* F32, F64, F16, BF16 */
    const double floor = ldexp(1.0, half_step[o->type]) / tolerance(o);
    for (int64_t e = 0; e < ref.nnz; ++e) {
        ref.val[e] = o->alpha * ref.val[e];
        mag[e] = fabs(o->alpha) * mag[e];
        if (o->beta != 0.0) {
            ref.val[e] += o->beta * old[e];
            mag[e] += fabs(o->beta * old[e]);
        }
        mag[e] = fmax(mag[e], floor);
    }
    char msg[512] = "";
    const int bad = tcst_compare_csr(&ref, mag, got->rp, got->ci, got->val, 1, o->c_base,
                                     tolerance(o), msg, sizeof msg);
    free(mag);
    tcst_csr_free(&ref);
    if (bad)
        fail_msg("%s (%s, %s, math %d): %s", name, alg_name(o->alg), type_names[o->type], (int)o->math,
                 msg);
}

static void assert_same(const char* name, const result* x, const result* y) {
    assert_int_equal(x->nnz, y->nnz);
    if (memcmp(x->rp, y->rp, (size_t)(x->rows + 1) * sizeof(int)) != 0 ||
        memcmp(x->ci, y->ci, (size_t)x->nnz * sizeof(int)) != 0 ||
        memcmp(x->val, y->val, (size_t)x->nnz * sizeof(double)) != 0)
        fail_msg("%s: two runs differ", name);
}

static double* random_values(int64_t n, uint64_t s, vtype t) {
    double* v = (double*)malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    assert_non_null(v);
    tcst_rng r;
    tcst_rng_seed(&r, s);
    for (int64_t i = 0; i < n; ++i) v[i] = rounded(tcst_rng_symmetric(&r), t);
    return v;
}

/* Runs the product (B == A when b is NULL: the same device arrays), checks it, and as
 * o asks: a second full run (bitwise equal) and a reuse with new values. Returns C. */
static result product(const char* name, const tcst_csr* a0, const tcst_csr* b0, const options* o) {
    tcst_csr a = as_stored(a0, o->type);
    tcst_csr b = as_stored(b0 != NULL ? b0 : a0, o->type);
    assert_int_equal(a.cols, b.rows);
    tcst_csr ref;
    assert_int_equal(tcst_ref_spgemm(&a, &b, &ref), 0);
    const int64_t nnz = ref.nnz;
    tcst_csr_free(&ref);
    double* old = o->beta != 0.0 ? random_values(nnz, seed ^ 0xC0FFEEu, o->type) : NULL;

    run r;
    memset(&r, 0, sizeof r);
    r.o = o;
    r.m = a.rows;
    r.n = b.cols;
    r.c_old = old;
    r.a = upload(&a, o->a_base, o->type, o->wide);
    r.same = b0 == NULL;
    if (!r.same) r.b = upload(&b, o->b_base, o->type, o->wide);
    set_scalars(&r);
    result first = full_protocol(&r, &a, &b, nnz);
    check_result(name, o, &a, &b, old, &first);

    result again = compute_and_copy(&r, nnz); /* copy again: bitwise the same */
    assert_same(name, &first, &again);
    result_free(&again);

    if (o->repeat) {
        run r2 = r;
        result second = full_protocol(&r2, &a, &b, nnz);
        assert_same(name, &first, &second);
        result_free(&second);
    }
    if (o->reuse) { /* new values in A's and B's arrays, compute + copy on the same descriptor */
        tcst_csr a2, b2;
        assert_int_equal(tcst_csr_copy(&a, &a2), 0);
        assert_int_equal(tcst_csr_copy(&b, &b2), 0);
        free(a2.val), free(b2.val);
        a2.val = random_values(a2.nnz, seed + 11, o->type);
        b2.val = random_values(b2.nnz, seed + 12, o->type);
        upload_values(r.a.val, a2.val, a2.nnz, o->type);
        if (!r.same) upload_values(r.b.val, b2.val, b2.nnz, o->type);
        result reused = compute_and_copy(&r, nnz);
        check_result(name, o, &a2, r.same ? &a2 : &b2, old, &reused);
        result_free(&reused);
        tcst_csr_free(&a2);
        tcst_csr_free(&b2);
    }
    free(old);
    tcst_csr_free(&a);
    tcst_csr_free(&b);
    return first;
}

static void check_product(const char* name, const tcst_csr* a, const tcst_csr* b, const options* o) {
    result r = product(name, a, b, o);
    result_free(&r);
    teardown(NULL);
}

/* The product with 64-bit indices in A, B and C equals bitwise the one with 32-bit. */
static void check_index64(const char* name, const tcst_csr* a, const tcst_csr* b, options o) {
    o.wide = 1;
    result wide = product(name, a, b, &o);
    o.wide = 0;
    result narrow = product(name, a, b, &o);
    assert_same(name, &wide, &narrow);
    result_free(&wide), result_free(&narrow);
    teardown(NULL);
}

/* Both tile algorithms in every type (o's other fields kept). */
static void check_tiles(const char* name, const tcst_csr* a, const tcst_csr* b, options o) {
    const tcsSpGEMMAlg_t algs[] = {TCS_SPGEMM_ALG_TILE_TC, TCS_SPGEMM_ALG_TILE};
    for (int i = 0; i < 2; ++i)
        for (int t = 0; t < 4; ++t) {
            o.alg = algs[i];
            o.type = (vtype)t;
            check_product(name, a, b, &o);
        }
}

/* ---- matrices ---- */

static tcst_csr uniform(int64_t rows, int64_t cols, int per_row, uint64_t s) {
    tcst_csr m;
    assert_int_equal(tcst_gen_uniform(rows, cols, per_row, s, &m), 0);
    return m;
}

static tcst_csr spread(int64_t rows, int64_t cols, int len, int step, uint64_t s) {
    tcst_csr m;
    assert_int_equal(tcst_gen_spread(rows, cols, len, step, s, &m), 0);
    return m;
}

static tcst_csr with_empty_rows(const tcst_csr* m, int every) {
    tcst_csr out;
    assert_int_equal(tcst_csr_without_rows(m, every, &out), 0);
    return out;
}

/* ---- tests ---- */

static void test_empty_shapes(void** state) {
    (void)state;
    struct {
        const char* name;
        int64_t m, k, n;
        int a_per_row, b_per_row;
    } cases[] = {
        {"m = 0", 0, 5, 4, 2, 2},         {"n = 0", 4, 5, 0, 2, 0},
        {"k = 0", 4, 0, 3, 0, 0},         {"nnz(A) = 0", 4, 5, 3, 0, 2},
        {"nnz(B) = 0", 4, 5, 3, 2, 0},    {"1 x 1", 1, 1, 1, 1, 1},
        {"rectangular", 30, 50, 7, 6, 3}, {"1 x 1 x 200", 1, 1, 200, 1, 150},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        tcst_csr a = uniform(cases[i].m, cases[i].k, cases[i].a_per_row, seed + i);
        tcst_csr b = uniform(cases[i].k, cases[i].n, cases[i].b_per_row, seed + 100 + i);
        options o = defaults(TCS_SPGEMM_ALG_TILE_TC, F32);
        o.c_base = (int)(i & 1);
        check_tiles(cases[i].name, &a, &b, o);
        tcst_csr_free(&a);
        tcst_csr_free(&b);
    }
}

static void test_nnz_c_zero(void** state) {
    (void)state;
    tcst_csr a = uniform(40, 10, 3, seed);
    tcst_csr b;
    assert_int_equal(tcst_csr_alloc(&b, 10, 6, 0), 0);
    options o = defaults(TCS_SPGEMM_ALG_TILE_TC, F32);
    o.c_base = 1;
    check_tiles("nnz(C) = 0", &a, &b, o);
    tcst_csr_free(&a);
    tcst_csr_free(&b);
}

static void test_index_bases(void** state) {
    (void)state;
    tcst_csr full_a = uniform(300, 200, 7, seed), full_b = uniform(200, 250, 9, seed + 1);
    tcst_csr a = with_empty_rows(&full_a, 5), b = with_empty_rows(&full_b, 3);
    tcst_csr_free(&full_a);
    tcst_csr_free(&full_b);
    for (int bases = 0; bases < 8; ++bases) {
        options o = defaults(bases & 1 ? TCS_SPGEMM_ALG_TILE : TCS_SPGEMM_ALG_TILE_TC, (vtype)(bases % 4));
        o.a_base = bases & 1;
        o.b_base = (bases >> 1) & 1;
        o.c_base = (bases >> 2) & 1;
        char name[64];
        snprintf(name, sizeof name, "bases A %d B %d C %d", o.a_base, o.b_base, o.c_base);
        check_product(name, &a, &b, &o);
    }
    tcst_csr_free(&a);
    tcst_csr_free(&b);
}

/* 64-bit indices (tcsparse's extension: cuSPARSE's SpGEMM has 32-bit only) through
 * both tile algorithms, the default's choice and the hash algorithm, every type the
 * algorithm takes, both bases: the conversion reads A's and B's 64-bit arrays, copy
 * writes C's. */
static void test_index64(void** state) {
    (void)state;
    tcst_csr full_a = uniform(quick ? 70 : 300, 90, 7, seed), b = uniform(90, quick ? 60 : 250, 9, seed + 1);
    tcst_csr a = with_empty_rows(&full_a, 5);
    tcst_csr_free(&full_a);
    const tcsSpGEMMAlg_t algs[] = {TCS_SPGEMM_ALG_TILE_TC, TCS_SPGEMM_ALG_TILE, TCS_SPGEMM_DEFAULT,
                                   TCS_SPGEMM_ALG_HASH};
    for (int g = 0; g < 4; ++g)
        for (int t = 0; t < 4; ++t) {
            if (algs[g] == TCS_SPGEMM_ALG_HASH && t >= 2) continue; /* no 16-bit path */
            if (quick && (g + t) % 2 != 0) continue;
            options o = defaults(algs[g], (vtype)t);
            o.a_base = t % 2;
            o.b_base = g % 2;
            o.c_base = (g + t) % 2;
            o.beta = t == 1 ? 0.5 : 0.0;
            o.reuse = g == 0;
            char name[80];
            snprintf(name, sizeof name, "64-bit indices, %s", alg_name(algs[g]));
            check_index64(name, &a, &b, o);
        }
    tcst_csr_free(&a);
    tcst_csr_free(&b);
}

static void test_unsorted_columns(void** state) {
    (void)state;
    tcst_csr a, s3, b;
    assert_int_equal(tcst_gen_rmat(quick ? 9 : 11, 8, 0.57, 0.19, 0.19, seed, &a), 0);
    assert_int_equal(tcst_gen_stencil27(quick ? 4 : 7, 5, 5, 3, seed, &s3), 0);
    assert_int_equal(tcst_csr_copy(&a, &b), 0);
    tcst_csr_shuffle_columns(&a, seed + 1);
    tcst_csr_shuffle_columns(&b, seed + 2);
    tcst_csr_shuffle_columns(&s3, seed + 3);
    options o = defaults(TCS_SPGEMM_ALG_TILE_TC, F64);
    o.a_base = 1;
    o.repeat = 1;
    check_tiles("unsorted rmat", &a, &b, o);
    check_tiles("unsorted stencil27 dof 3 (A*A)", &s3, NULL, o);
    tcst_csr_free(&a);
    tcst_csr_free(&b);
    tcst_csr_free(&s3);
}

static void test_exact_cancellation(void** state) {
    (void)state;
    const int64_t m = 50;
    tcst_csr half = uniform(m, 300, 20, seed);
    tcst_csr a, b;
    assert_int_equal(tcst_gen_cancelling(&half, &a, &b), 0);
    const tcsSpGEMMAlg_t algs[] = {TCS_SPGEMM_ALG_TILE_TC, TCS_SPGEMM_ALG_TILE};
    for (int i = 0; i < 2; ++i)
        for (int t = 0; t < 4; ++t) {
            options o = defaults(algs[i], (vtype)t);
            result got = product("exact cancellation", &a, &b, &o);
            assert_int_equal(got.nnz, half.nnz); /* the zeros are kept */
            /* 1.5*h - 1.5*h: zero where the products are exact, else (fp64 data on an fma or
             * DMMA, which keeps the second product unrounded) the first one's rounding
             * error, within the bound of the magnitude 3|h|. */
            check_result("exact cancellation", &o, &a, &b, NULL, &got);
            result_free(&got);
            teardown(NULL);
        }
    tcst_csr_free(&half);
    tcst_csr_free(&a);
    tcst_csr_free(&b);
}

/* The tile geometry: ragged edges, dense and single-element tiles, empty rows of B met
 * inside a tile, panels with one or two cursors per lane or searched ones. */
static void test_tile_shapes(void** state) {
    (void)state;
    tcst_csr d8, d5;
    assert_int_equal(tcst_gen_dense_blocks(96, 96, 8, 0.3, seed, &d8), 0);
    assert_int_equal(tcst_gen_dense_blocks(77, 77, 5, 0.3, seed + 1, &d5), 0);
    options o = defaults(TCS_SPGEMM_ALG_TILE_TC, F32);
    check_tiles("fully dense 8x8 tiles (A*A)", &d8, NULL, o);
    check_tiles("5x5 dense blocks, 77 x 77", &d5, &d5, o);

    tcst_csr single = spread(45, 200, 16, 8, seed + 2);
    tcst_csr b_full = spread(200, 130, 7, 8, seed + 3);
    tcst_csr b_gaps = with_empty_rows(&b_full, 2);
    o.c_base = 1;
    check_tiles("single-element tiles, empty rows of B", &single, &b_gaps, o);

    tcst_csr two = spread(27, 420, 45, 8, seed + 4), b2 = uniform(420, 310, 9, seed + 5);
    tcst_csr many = spread(19, 1000, 110, 8, seed + 6), b3 = uniform(1000, 90, 5, seed + 7);
    o.repeat = 1;
    check_tiles("33..64 tiles per panel", &two, &b2, o);
    check_tiles("more than 64 tiles per panel", &many, &b3, o);
    tcst_csr_free(&d8), tcst_csr_free(&d5), tcst_csr_free(&single), tcst_csr_free(&b_full);
    tcst_csr_free(&b_gaps), tcst_csr_free(&two), tcst_csr_free(&b2), tcst_csr_free(&many);
    tcst_csr_free(&b3);
}

/* buffer1's size as the size query of workEstimation gives it for C = A*B (fp64). */
static size_t size_query(const tcst_csr* a, const tcst_csr* b, tcsSpGEMMAlg_t alg) {
    options o = defaults(alg, F64);
    run r;
    memset(&r, 0, sizeof r);
    r.o = &o;
    r.m = a->rows;
    r.n = b->cols;
    r.a = upload(a, 0, F64, 0);
    r.b = upload(b, 0, F64, 0);
    set_scalars(&r);
    r.c_rp = tcst_poisoned((size_t)(r.m + 1) * sizeof(int));
    assert_ok(tcsCreateCsr(&r.c, r.m, r.n, 0, r.c_rp, NULL, NULL, TCS_INDEX_32I, TCS_INDEX_32I,
                           TCS_INDEX_BASE_ZERO, CUDA_R_64F));
    tcst_track_mat(r.c);
    assert_ok(tcsSpGEMM_createDescr(&r.d));
    tcst_track_gemm(r.d);
    size_t size1 = 0;
    assert_ok(tcsSpGEMM_workEstimation(ARGS(&r), &size1, NULL));
    teardown(NULL);
    return size1;
}

/* DEFAULT's shape rule, seen in its size query: rows long enough for tiles, but an inner
 * dimension at least twice both outer ones (an AMG restriction times A*P) is decided for
 * hash on the host, where a square product of the same rows asks room for both plans. */
static void test_default_short_fat(void** state) {
    (void)state;
    tcst_csr r = uniform(64, 640, 40, seed), ap = uniform(640, 64, 24, seed + 1);
    tcst_csr sq_a = uniform(640, 640, 40, seed + 2), sq_b = uniform(640, 640, 24, seed + 3);
    const size_t hash = size_query(&r, &ap, TCS_SPGEMM_ALG_HASH);
    const size_t tiles = size_query(&r, &ap, TCS_SPGEMM_ALG_TILE_TC);
    /* TILE_TC hands such a product to hash by shape too (issue 37), except under
     * TCS_HANDOFF=0 (gpu_spgemm_tiles_no_handoff), where its size tells the plans apart */
    if (!hand_off_on())
        assert_true(tiles > hash); /* else the sizes could not tell the plans apart */
    else
        assert_int_equal(tiles, hash);
    assert_int_equal(size_query(&r, &ap, TCS_SPGEMM_DEFAULT), hash);
    const size_t sq_hash = size_query(&sq_a, &sq_b, TCS_SPGEMM_ALG_HASH);
    const size_t sq_tiles = size_query(&sq_a, &sq_b, TCS_SPGEMM_ALG_TILE_TC);
    assert_int_equal(size_query(&sq_a, &sq_b, TCS_SPGEMM_DEFAULT), sq_tiles > sq_hash ? sq_tiles : sq_hash);
    assert_true(sq_tiles > sq_hash);
    /* The product itself, under DEFAULT, against the reference. */
    options o = defaults(TCS_SPGEMM_DEFAULT, F32);
    check_product("short-fat R times tall-skinny AP", &r, &ap, &o);
    tcst_csr_free(&r), tcst_csr_free(&ap), tcst_csr_free(&sq_a), tcst_csr_free(&sq_b);
}

static void test_generators(void** state) {
    (void)state;
    const int s = quick ? 1 : 2;
    for (int g = 0; g < 6; ++g) {
        tcst_csr a;
        const char* name = "";
        switch (g) {
        case 0: name = "stencil27 dof 1"; assert_int_equal(tcst_gen_stencil27(8 * s, 8 * s, 8 * s, 1, seed, &a), 0); break;
        case 1: name = "stencil27 dof 3"; assert_int_equal(tcst_gen_stencil27(6 * s, 6 * s, 5 * s, 3, seed, &a), 0); break;
        case 2: name = "banded"; assert_int_equal(tcst_gen_banded(1500 * s, 24, seed, &a), 0); break;
        case 3: name = "rmat"; assert_int_equal(tcst_gen_rmat(quick ? 10 : 13, 8, 0.57, 0.19, 0.19, seed, &a), 0); break;
        case 4: name = "uniform"; assert_int_equal(tcst_gen_uniform(1500 * s, 1500 * s, 12, seed, &a), 0); break;
        default: name = "dense blocks"; assert_int_equal(tcst_gen_dense_blocks(300 * s, 300 * s, 24, 0.3, seed, &a), 0); break;
        }
        const tcsSpGEMMAlg_t algs[] = {TCS_SPGEMM_ALG_TILE_TC, TCS_SPGEMM_ALG_TILE, TCS_SPGEMM_DEFAULT};
        for (int i = 0; i < 3; ++i)
            for (int t = 0; t < 2; ++t) {
                options o = defaults(algs[i], t ? F64 : F32);
                o.a_base = g & 1;
                o.c_base = (g >> 1) & 1;
                o.repeat = g == 3 || g == 5;
                o.reuse = 1;
                o.device_scalars = g == 2;
                o.alpha = g == 4 ? -0.75 : 1.0;
                check_product(name, &a, NULL, &o);
            }
        tcst_csr_free(&a);
    }
}

/* Every Matrix Market file: A*A (A*A^T when rectangular) with TILE_TC in a type that
 * changes from file to file, and the pattern must equal the hash algorithm's. */
static void test_matrix_market(void** state) {
    (void)state;
    tcst_mm_folder folder;
    if (tcst_mm_folder_open(&folder, NULL) != 0) {
        printf("gpu_spgemm_tiles: no matrix directory %s: skipped\n", folder.folder);
        skip();
    }
    int done = 0, got;
    char err[256] = "";
    tcst_csr a;
    while ((got = tcst_mm_folder_next(&folder, seed, &a, err, sizeof err)) != 0) {
        if (got < 0) {
            tcst_mm_folder_close(&folder);
            fail_msg("%s", err);
        }
        const int index = folder.index;
        if (quick && a.nnz > 60000) {
            tcst_csr_free(&a);
            continue;
        }
        tcst_csr b;
        if (a.rows == a.cols)
            assert_int_equal(tcst_csr_copy(&a, &b), 0);
        else
            assert_int_equal(tcst_csr_transpose(&a, &b), 0);
        options o = defaults(index % 3 == 2 ? TCS_SPGEMM_ALG_TILE : TCS_SPGEMM_ALG_TILE_TC, (vtype)(index % 4));
        o.a_base = (index >> 1) & 1;
        o.c_base = (index >> 2) & 1;
        o.device_scalars = index % 5 == 0;
        result tiles = product(folder.name, &a, a.rows == a.cols ? NULL : &b, &o);
        teardown(NULL);
        /* The hash algorithm's pattern, fp32, same bases. */
        options h = o;
        h.alg = TCS_SPGEMM_ALG_HASH;
        h.type = F32;
        result hashed = product(folder.name, &a, a.rows == a.cols ? NULL : &b, &h);
        teardown(NULL);
        assert_int_equal(tiles.nnz, hashed.nnz);
        if (memcmp(tiles.rp, hashed.rp, (size_t)(tiles.rows + 1) * sizeof(int)) != 0 ||
            memcmp(tiles.ci, hashed.ci, (size_t)tiles.nnz * sizeof(int)) != 0)
            fail_msg("%s: the tile pattern differs from the hash algorithm's", folder.name);
        result_free(&tiles);
        result_free(&hashed);
        tcst_csr_free(&a);
        tcst_csr_free(&b);
        ++done;
    }
    tcst_mm_folder_close(&folder);
    printf("gpu_spgemm_tiles: %d Matrix Market files checked\n", done);
    assert_true(done > 0);
}

static void test_scalars_and_beta(void** state) {
    (void)state;
    tcst_csr a;
    assert_int_equal(tcst_gen_stencil27(quick ? 4 : 6, 5, 5, 3, seed, &a), 0);
    for (int v = 0; v < 16; ++v) {
        options o = defaults(v & 8 ? TCS_SPGEMM_ALG_TILE : TCS_SPGEMM_ALG_TILE_TC, (vtype)(v % 4));
        o.device_scalars = (v >> 1) & 1;
        o.alpha = (v >> 2) & 1 ? 2.5 : 1.0;
        o.beta = (v & 2) ? -0.5 : (v >> 2) & 1 ? 1.0 : 0.0;
        o.reuse = 1;
        check_product("scalars", &a, NULL, &o);
    }
    tcst_csr_free(&a);
}

/* fp32 data under TF32 and fp16 tensor-core math (opted in), and the default's fp32
 * accuracy on the same product. */
static void test_math_modes(void** state) {
    (void)state;
    tcst_csr a;
    assert_int_equal(tcst_gen_stencil27(quick ? 4 : 8, 6, 6, 3, seed, &a), 0);
    const tcsMath_t modes[] = {TCS_DEFAULT_MATH, TCS_PEDANTIC_MATH, TCS_TF32_TENSOR_OP_MATH,
                               TCS_FP16_TENSOR_OP_MATH};
    for (int i = 0; i < 4; ++i) {
        options o = defaults(TCS_SPGEMM_ALG_TILE_TC, F32);
        o.math = modes[i];
        o.reuse = 1;
        check_product("math mode", &a, NULL, &o);
        o.type = F64; /* fp64 data is exact double whatever the mode */
        check_product("math mode", &a, NULL, &o);
    }
    tcst_csr_free(&a);
}

/* fp16 accuracy: the symmetric mean absolute percentage error
 * (100/n) sum |x - r| / ((|x| + |r|) / 2) against the double product of the values as
 * stored (what the computation controls: the fp32 sums and the result's rounding to the
 * data type; the bar, 0.05%), and, reported, against the product of the unrounded values
 * in [-1, 1], where rounding the inputs to fp16 alone costs about 0.16% on this matrix
 * (measured with exact sums on the CPU). */
static double smape(const result* got, const tcst_csr* ref) {
    double sum = 0.0;
    int64_t counted = 0;
    for (int64_t e = 0; e < got->nnz; ++e) {
        const double x = got->val[e], r = ref->val[e];
        if (x == 0.0 && r == 0.0) continue;
        sum += fabs(x - r) / ((fabs(x) + fabs(r)) / 2.0);
        ++counted;
    }
    return 100.0 * sum / (double)(counted > 0 ? counted : 1);
}

static void test_fp16_smape(void** state) {
    (void)state;
    tcst_csr a;
    assert_int_equal(tcst_gen_stencil27(quick ? 6 : 12, 10, 10, 3, seed, &a), 0);
    tcst_csr unrounded;
    assert_int_equal(tcst_ref_spgemm(&a, &a, &unrounded), 0);
    const tcsSpGEMMAlg_t algs[] = {TCS_SPGEMM_ALG_TILE_TC, TCS_SPGEMM_ALG_TILE};
    for (int i = 0; i < 2; ++i)
        for (int t = F16; t <= BF16; ++t) {
            options o = defaults(algs[i], (vtype)t);
            tcst_csr stored = as_stored(&a, (vtype)t), ref;
            assert_int_equal(tcst_ref_spgemm(&stored, &stored, &ref), 0);
            result got = product("smape", &a, NULL, &o);
            const double own = smape(&got, &ref), total = smape(&got, &unrounded);
            printf("gpu_spgemm_tiles: %s %s SMAPE %.4f%% against the stored inputs' product, "
                   "%.4f%% against the unrounded values' (%lld entries)\n",
                   alg_name(o.alg), type_names[t], own, total, (long long)got.nnz);
            if (t == F16 && own > 0.05) fail_msg("fp16 SMAPE %.4f%% > 0.05%%", own);
            result_free(&got);
            tcst_csr_free(&ref);
            tcst_csr_free(&stored);
            teardown(NULL);
        }
    tcst_csr_free(&unrounded);
    tcst_csr_free(&a);
}

static int group_setup(void** state) {
    (void)state;
    seed = tcst_fresh_seed();
    quick = tcst_quick();
    printf("gpu_spgemm_tiles: seed %llu (TCST_SEED=%llu reproduces)%s\n", (unsigned long long)seed,
           (unsigned long long)seed, quick ? ", quick sizes" : "");
    return tcsCreate(&handle) == TCS_STATUS_SUCCESS ? 0 : -1;
}

static int group_teardown(void** state) {
    (void)state;
    tcsDestroy(handle);
    return 0;
}

int main(void) {
    if (!tcst_gpu_available()) {
        printf("gpu_spgemm_tiles: no usable CUDA device: skipped\n");
        return TCST_SKIP;
    }
#define T(f) cmocka_unit_test_teardown(f, teardown)
    const struct CMUnitTest tests[] = {
        T(test_empty_shapes),       T(test_nnz_c_zero),     T(test_index_bases),
        T(test_unsorted_columns),   T(test_exact_cancellation), T(test_tile_shapes),
        T(test_generators),         T(test_matrix_market),  T(test_scalars_and_beta),
        T(test_math_modes),         T(test_fp16_smape),     T(test_index64),
        T(test_default_short_fat),
    };
    /* TCST_ONLY=<pattern> runs the matching tests only (cmocka's filter). */
    if (getenv("TCST_ONLY") != NULL) cmocka_set_test_filter(getenv("TCST_ONLY"));
    return tcst_run_group_tests(tests, group_setup, group_teardown);
}
