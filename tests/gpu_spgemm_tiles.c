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
#include "tcst_gpu_group.h"
#include "tcst_spgemm_protocol.h"

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
static double rounded(double v, vtype t) { return tcst_value_rounded(v, data_type(t)); }

/* ---- resources released after every test, also a failed one (tcst_tracked.h) ---- */

static int teardown(void** state) {
    (void)state;
    tcst_release_tracked();
    tcsSetPointerMode(handle, TCS_POINTER_MODE_HOST);
    tcsSetMathMode(handle, TCS_DEFAULT_MATH);
    return 0;
}

/* ---- one product through the protocol (tcst_spgemm_protocol.h) ---- */

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

/* What the protocol is asked for options o. */
static tcst_spgemm_settings settings_of(const options* o) {
    const tcst_spgemm_settings s = {.handle = handle, .type = data_type(o->type),
                                    .compute_type = compute_type(o->type), .alg = o->alg,
                                    .math = o->math, .c_base = o->c_base, .c_wide = o->wide,
                                    .device_scalars = o->device_scalars, .alpha = o->alpha,
                                    .beta = o->beta}; /* no estimateMemory here */
    return s;
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
                         const double* old, const tcst_spgemm_result* got) {
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

/* Runs the product (B == A when b is NULL: the same device arrays), checks it, and as
 * o asks: a second full run (bitwise equal) and a reuse with new values. Returns C. */
static tcst_spgemm_result product(const char* name, const tcst_csr* a0, const tcst_csr* b0, const options* o) {
    tcst_csr a = as_stored(a0, o->type);
    tcst_csr b = as_stored(b0 != NULL ? b0 : a0, o->type);
    assert_int_equal(a.cols, b.rows);
    tcst_csr ref;
    assert_int_equal(tcst_ref_spgemm(&a, &b, &ref), 0);
    const int64_t nnz = ref.nnz;
    tcst_csr_free(&ref);
    const cudaDataType t = data_type(o->type);
    double* old = o->beta != 0.0 ? tcst_random_values(nnz, seed ^ 0xC0FFEEu, t) : NULL;

    const int same = b0 == NULL; /* B is A's very arrays (C = A*A) */
    tcst_spgemm_run r = tcst_spgemm_prepare(settings_of(o), &a, o->a_base, o->wide, same ? NULL : &b,
                                            o->b_base, o->wide);
    r.c_old = old;
    tcst_spgemm_result first = tcst_spgemm_full_protocol(&r, &a, &b, nnz);
    check_result(name, o, &a, &b, old, &first);

    tcst_spgemm_result again = tcst_spgemm_compute_and_copy(&r, nnz); /* copy again: bitwise the same */
    tcst_spgemm_assert_same(name, &first, &again);
    tcst_spgemm_result_free(&again);

    if (o->repeat) {
        tcst_spgemm_run r2 = r;
        tcst_spgemm_result second = tcst_spgemm_full_protocol(&r2, &a, &b, nnz);
        tcst_spgemm_assert_same(name, &first, &second);
        tcst_spgemm_result_free(&second);
    }
    if (o->reuse) { /* new values in A's and B's arrays, compute + copy on the same descriptor */
        tcst_csr a2, b2;
        assert_int_equal(tcst_csr_copy(&a, &a2), 0);
        assert_int_equal(tcst_csr_copy(&b, &b2), 0);
        free(a2.val), free(b2.val);
        a2.val = tcst_random_values(a2.nnz, seed + 11, t);
        b2.val = tcst_random_values(b2.nnz, seed + 12, t);
        tcst_upload_values(r.a.val, a2.val, a2.nnz, t);
        if (!same) tcst_upload_values(r.b.val, b2.val, b2.nnz, t);
        tcst_spgemm_result reused = tcst_spgemm_compute_and_copy(&r, nnz);
        check_result(name, o, &a2, same ? &a2 : &b2, old, &reused);
        tcst_spgemm_result_free(&reused);
        tcst_csr_free(&a2);
        tcst_csr_free(&b2);
    }
    free(old);
    tcst_csr_free(&a);
    tcst_csr_free(&b);
    return first;
}

static void check_product(const char* name, const tcst_csr* a, const tcst_csr* b, const options* o) {
    tcst_spgemm_result r = product(name, a, b, o);
    tcst_spgemm_result_free(&r);
    teardown(NULL);
}

/* The product with 64-bit indices in A, B and C equals bitwise the one with 32-bit. */
static void check_index64(const char* name, const tcst_csr* a, const tcst_csr* b, options o) {
    o.wide = 1;
    tcst_spgemm_result wide = product(name, a, b, &o);
    o.wide = 0;
    tcst_spgemm_result narrow = product(name, a, b, &o);
    tcst_spgemm_assert_same(name, &wide, &narrow);
    tcst_spgemm_result_free(&wide), tcst_spgemm_result_free(&narrow);
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

static tcst_csr spread(int64_t rows, int64_t cols, int len, int step, uint64_t s) {
    tcst_csr m;
    assert_int_equal(tcst_gen_spread(rows, cols, len, step, s, &m), 0);
    return m;
}

/* ---- tests ---- */

static void check_edge_shape(const char* name, int index, const tcst_csr* a, const tcst_csr* b) {
    options o = defaults(TCS_SPGEMM_ALG_TILE_TC, F32);
    o.c_base = index & 1;
    check_tiles(name, a, b, o);
}

static void test_empty_shapes(void** state) {
    (void)state;
    tcst_spgemm_for_each_edge_shape(seed, check_edge_shape);
}

static void test_index_bases(void** state) {
    (void)state;
    tcst_csr a, b;
    tcst_spgemm_empty_rows_operands(seed, &a, &b);
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

static void test_nnz_c_zero(void** state) {
    (void)state;
    tcst_csr a, b;
    tcst_spgemm_empty_c_operands(seed, &a, &b);
    options o = defaults(TCS_SPGEMM_ALG_TILE_TC, F32);
    o.c_base = 1;
    check_tiles("nnz(C) = 0", &a, &b, o);
    tcst_csr_free(&a);
    tcst_csr_free(&b);
}

/* 64-bit indices (tcsparse's extension: cuSPARSE's SpGEMM has 32-bit only) through
 * both tile algorithms, the default's choice and the hash algorithm, every type the
 * algorithm takes, both bases: the conversion reads A's and B's 64-bit arrays, copy
 * writes C's. */
static void test_index64(void** state) {
    (void)state;
    tcst_csr full_a = tcst_uniform(quick ? 70 : 300, 90, 7, seed), b = tcst_uniform(90, quick ? 60 : 250, 9, seed + 1);
    tcst_csr a = tcst_with_empty_rows(&full_a, 5);
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
    tcst_csr half, a, b;
    tcst_spgemm_cancelling_operands(seed, &half, &a, &b);
    const tcsSpGEMMAlg_t algs[] = {TCS_SPGEMM_ALG_TILE_TC, TCS_SPGEMM_ALG_TILE};
    for (int i = 0; i < 2; ++i)
        for (int t = 0; t < 4; ++t) {
            options o = defaults(algs[i], (vtype)t);
            tcst_spgemm_result got = product("exact cancellation", &a, &b, &o);
            assert_int_equal(got.nnz, half.nnz); /* the zeros are kept */
            /* 1.5*h - 1.5*h: zero where the products are exact, else (fp64 data on an fma or
             * DMMA, which keeps the second product unrounded) the first one's rounding
             * error, within the bound of the magnitude 3|h|. */
            check_result("exact cancellation", &o, &a, &b, NULL, &got);
            tcst_spgemm_result_free(&got);
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
    tcst_csr b_gaps = tcst_with_empty_rows(&b_full, 2);
    o.c_base = 1;
    check_tiles("single-element tiles, empty rows of B", &single, &b_gaps, o);

    tcst_csr two = spread(27, 420, 45, 8, seed + 4), b2 = tcst_uniform(420, 310, 9, seed + 5);
    tcst_csr many = spread(19, 1000, 110, 8, seed + 6), b3 = tcst_uniform(1000, 90, 5, seed + 7);
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
    tcst_spgemm_run r = tcst_spgemm_prepare(settings_of(&o), a, 0, 0, b, 0, 0);
    tcst_spgemm_create_c(&r); /* fp64, 32-bit indices, base 0 */
    size_t size1 = 0;
    assert_ok(tcsSpGEMM_workEstimation(TCST_SPGEMM_ARGS(&r), &size1, NULL));
    teardown(NULL);
    return size1;
}

/* DEFAULT's shape rule, seen in its size query: rows long enough for tiles, but an inner
 * dimension at least twice both outer ones (an AMG restriction times A*P) is decided for
 * hash on the host, where a square product of the same rows asks room for both plans. */
static void test_default_short_fat(void** state) {
    (void)state;
    tcst_csr r = tcst_uniform(64, 640, 40, seed), ap = tcst_uniform(640, 64, 24, seed + 1);
    tcst_csr sq_a = tcst_uniform(640, 640, 40, seed + 2), sq_b = tcst_uniform(640, 640, 24, seed + 3);
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

/* The sizes DEFAULT's plan choice shows for C = A*A (fp64): buffer1 from the size query,
 * then buffer2 from compute's size query after workEstimation ran in a poisoned buffer1. */
static void sizes_after_estimation(const tcst_csr* a, tcsSpGEMMAlg_t alg, size_t* size1, size_t* size2) {
    options o = defaults(alg, F64);
    tcst_spgemm_run r = tcst_spgemm_prepare(settings_of(&o), a, 0, 0, NULL, 0, 0);
    tcst_spgemm_create_c(&r);
    assert_ok(tcsSpGEMM_workEstimation(TCST_SPGEMM_ARGS(&r), size1, NULL));
    void* buffer1 = tcst_poisoned(*size1);
    assert_ok(tcsSpGEMM_workEstimation(TCST_SPGEMM_ARGS(&r), size1, buffer1));
    assert_ok(tcsSpGEMM_compute(TCST_SPGEMM_ARGS(&r), size2, NULL));
    teardown(NULL);
}

/* DEFAULT's probe (issue 37): short rows in dense tiles. A band of half-width 4 (rows of
 * 9, 24 entries per tile) of 2^22 entries or more is sampled by the size query, which
 * asks room for both plans, and runs on tiles (compute's size query gives the tile
 * plan's buffer2); a uniform random matrix of rows of 8 of the same size is sampled and
 * sized and run as hash; the same band below 2^22 entries is decided for hash on the
 * host (its size query gives the hash plan's size). */
static void test_default_probe(void** state) {
    (void)state;
    if (quick) {
        printf("default probe: skipped in quick mode (it needs 2^22 entries)\n");
        return;
    }
    tcst_csr band, uni, small;
    assert_int_equal(tcst_gen_banded(480000, 4, seed, &band), 0);
    assert_int_equal(tcst_gen_uniform(600000, 600000, 8, seed + 1, &uni), 0);
    assert_int_equal(tcst_gen_banded(100000, 4, seed + 2, &small), 0);
    assert_true(band.nnz >= (1 << 22) && uni.nnz >= (1 << 22) && small.nnz < (1 << 22));
    size_t h1, h2, t1, t2, d1, d2;
    sizes_after_estimation(&band, TCS_SPGEMM_ALG_HASH, &h1, &h2);
    sizes_after_estimation(&band, TCS_SPGEMM_ALG_TILE_TC, &t1, &t2);
    sizes_after_estimation(&band, TCS_SPGEMM_DEFAULT, &d1, &d2);
    assert_true(t2 != h2); /* else buffer2 could not tell the plans apart */
    assert_int_equal(d1, t1 > h1 ? t1 : h1);
    assert_int_equal(d2, t2);
    sizes_after_estimation(&uni, TCS_SPGEMM_ALG_HASH, &h1, &h2);
    sizes_after_estimation(&uni, TCS_SPGEMM_ALG_TILE_TC, &t1, &t2);
    sizes_after_estimation(&uni, TCS_SPGEMM_DEFAULT, &d1, &d2);
    assert_true(t1 > h1);     /* else buffer1 could not tell the verdicts apart */
    assert_int_equal(d1, h1); /* the sample's verdict sized buffer1 for hash alone */
    assert_int_equal(d2, h2);
    sizes_after_estimation(&small, TCS_SPGEMM_ALG_HASH, &h1, &h2);
    sizes_after_estimation(&small, TCS_SPGEMM_DEFAULT, &d1, &d2);
    assert_int_equal(d1, h1);
    assert_int_equal(d2, h2);
    /* The band's product under DEFAULT (on tiles), against the reference. */
    options o = defaults(TCS_SPGEMM_DEFAULT, F32);
    check_product("band of 2^22 entries, DEFAULT", &band, &band, &o);
    tcst_csr_free(&band), tcst_csr_free(&uni), tcst_csr_free(&small);
}

static void test_generators(void** state) {
    (void)state;
    for (int g = 0; g < TCST_SPGEMM_GENERATED; ++g) {
        tcst_csr a;
        const char* name = tcst_spgemm_generated(g, quick, seed, &a);
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

/* One Matrix Market file (tcst_for_each_mm_product): A*A (A*A^T when rectangular) with
 * TILE_TC in a type that changes from file to file, and the pattern must equal the hash
 * algorithm's. */
static void check_matrix_market_file(const char* name, int index, const tcst_csr* a, const tcst_csr* b) {
    options o = defaults(index % 3 == 2 ? TCS_SPGEMM_ALG_TILE : TCS_SPGEMM_ALG_TILE_TC, (vtype)(index % 4));
    o.a_base = (index >> 1) & 1;
    o.c_base = (index >> 2) & 1;
    o.device_scalars = index % 5 == 0;
    tcst_spgemm_result tiles = product(name, a, a->rows == a->cols ? NULL : b, &o);
    teardown(NULL);
    /* The hash algorithm's pattern, fp32, same bases. */
    options h = o;
    h.alg = TCS_SPGEMM_ALG_HASH;
    h.type = F32;
    tcst_spgemm_result hashed = product(name, a, a->rows == a->cols ? NULL : b, &h);
    teardown(NULL);
    assert_int_equal(tiles.nnz, hashed.nnz);
    if (memcmp(tiles.rp, hashed.rp, (size_t)(tiles.rows + 1) * sizeof(int)) != 0 ||
        memcmp(tiles.ci, hashed.ci, (size_t)tiles.nnz * sizeof(int)) != 0)
        fail_msg("%s: the tile pattern differs from the hash algorithm's", name);
    tcst_spgemm_result_free(&tiles);
    tcst_spgemm_result_free(&hashed);
}

static void test_matrix_market(void** state) {
    (void)state;
    tcst_for_each_mm_product("gpu_spgemm_tiles", seed, quick, check_matrix_market_file);
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
static double smape(const tcst_spgemm_result* got, const tcst_csr* ref) {
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
            tcst_spgemm_result got = product("smape", &a, NULL, &o);
            const double own = smape(&got, &ref), total = smape(&got, &unrounded);
            printf("gpu_spgemm_tiles: %s %s SMAPE %.4f%% against the stored inputs' product, "
                   "%.4f%% against the unrounded values' (%lld entries)\n",
                   alg_name(o.alg), type_names[t], own, total, (long long)got.nnz);
            if (t == F16 && own > 0.05) fail_msg("fp16 SMAPE %.4f%% > 0.05%%", own);
            tcst_spgemm_result_free(&got);
            tcst_csr_free(&ref);
            tcst_csr_free(&stored);
            teardown(NULL);
        }
    tcst_csr_free(&unrounded);
    tcst_csr_free(&a);
}

TCST_GPU_GROUP_FIXTURE("gpu_spgemm_tiles", handle, seed, &quick)

int main(void) {
    if (tcst_no_gpu("gpu_spgemm_tiles")) return TCST_SKIP;
#define T(f) cmocka_unit_test_teardown(f, teardown)
    const struct CMUnitTest tests[] = {
        T(test_empty_shapes),       T(test_nnz_c_zero),     T(test_index_bases),
        T(test_unsorted_columns),   T(test_exact_cancellation), T(test_tile_shapes),
        T(test_generators),         T(test_matrix_market),  T(test_scalars_and_beta),
        T(test_math_modes),         T(test_fp16_smape),     T(test_index64),
        T(test_default_short_fat),
        T(test_default_probe),
    };
    /* TCST_ONLY=<pattern> runs the matching tests only (cmocka's filter). */
    if (getenv("TCST_ONLY") != NULL) cmocka_set_test_filter(getenv("TCST_ONLY"));
    return tcst_run_group_tests(tests, group_setup, group_teardown);
}
