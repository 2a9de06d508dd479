/* The hash SpGEMM on a GPU, through the public API and the full cuSPARSE protocol (each
 * size query twice, C created with nnz 0 and a caller-allocated row-offset array,
 * buffers kept until copy), against the double-precision CPU reference: exact pattern,
 * per-entry error within 1e-5 (fp32) or 1e-12 (fp64) of the magnitude of the products.
 * Outputs and buffers are poisoned first. Cases: empty shapes, index bases, unsorted
 * input columns, exact cancellation, long rows of B, rows of C beyond shared memory
 * (the wide path), the generators, every shared Matrix Market file, device scalars,
 * beta != 0, reuse with new values, bitwise determinism, every algorithm value, the
 * estimateMemory protocol and its memory budget (rows in chunks: bitwise the whole C),
 * the shape of PETSc's MPI PtAP's last product (k of millions, B empty but a band).
 * Seeds are fresh and printed (TCST_SEED=<seed> reproduces); TCS_TEST_QUICK=1 (the
 * sanitizer run) uses smaller sizes. Exits 77 without a GPU. */
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

/* ---- resources released after every test, also a failed one (tcst_tracked.h) ---- */

static int teardown(void** state) {
    (void)state;
    tcst_release_tracked();
    tcsSetPointerMode(handle, TCS_POINTER_MODE_HOST);
    return 0;
}

/* ---- one product through the protocol (tcst_spgemm_protocol.h) ---- */

typedef struct {
    int a_base, b_base, c_base;
    int is_double;
    tcsSpGEMMAlg_t alg;
    int device_scalars; /* alpha and beta in device memory */
    double alpha, beta; /* beta != 0: C holds old values on its pattern before copy */
    int estimate;       /* the estimateMemory (ALG2/ALG3) protocol instead of compute's query */
    int reuse;          /* compute + copy again after new values in A and B */
    int repeat;         /* a second full run, bitwise identical */
    int wide_a, wide_b, wide_c; /* TCS_INDEX_64I offsets and columns */
    float chunk;                /* estimate: the chunk_fraction (0: 0.2) */
} options;

static options defaults(void) {
    options o;
    memset(&o, 0, sizeof o);
    o.alg = TCS_SPGEMM_DEFAULT;
    o.alpha = 1.0;
    return o;
}

static cudaDataType type_of(const options* o) { return o->is_double ? CUDA_R_64F : CUDA_R_32F; }

/* What the protocol is asked for options o. */
static tcst_spgemm_settings settings_of(const options* o) {
    tcst_spgemm_settings s;
    memset(&s, 0, sizeof s);
    s.handle = handle;
    s.type = s.compute_type = type_of(o);
    s.alg = o->alg;
    s.math = TCS_DEFAULT_MATH;
    s.c_base = o->c_base;
    s.c_wide = o->wide_c;
    s.device_scalars = o->device_scalars;
    s.alpha = o->alpha;
    s.beta = o->beta;
    s.estimate = o->estimate;
    s.chunk = o->chunk;
    return s;
}

/* alpha*ref + beta*old and its magnitude |alpha|*mag + |beta*old|, in place. */
static void expected_values(const options* o, tcst_csr* ref, double* mag, const double* old) {
    for (int64_t e = 0; e < ref->nnz; ++e) {
        ref->val[e] = o->alpha * ref->val[e];
        mag[e] = fabs(o->alpha) * mag[e];
        if (o->beta != 0.0) {
            ref->val[e] += o->beta * old[e];
            mag[e] += fabs(o->beta * old[e]);
        }
    }
}

static void check_result(const char* name, const options* o, const tcst_csr* a, const tcst_csr* b,
                         const double* old, const tcst_spgemm_result* got) {
    tcst_csr ref;
    assert_int_equal(tcst_ref_spgemm(a, b, &ref), 0);
    double* mag = tcst_ref_spgemm_magnitude(a, b, &ref);
    assert_non_null(mag);
    expected_values(o, &ref, mag, old);
    char msg[512] = "";
    const int bad = tcst_compare_csr(&ref, mag, got->rp, got->ci, got->raw, o->is_double, o->c_base,
                                     o->is_double ? 1e-12 : 1e-5, msg, sizeof msg);
    free(mag);
    tcst_csr_free(&ref);
    if (bad) fail_msg("%s (%s): %s", name, o->is_double ? "fp64" : "fp32", msg);
}

/* C = alpha*A*B + beta*C through the protocol with options o, checked against the
 * reference; then as o asks, a second full run (bitwise equal) and a reuse with new
 * values in A and B. */
static void check_product(const char* name, const tcst_csr* a, const tcst_csr* b, const options* o) {
    assert_int_equal(a->cols, b->rows);
    tcst_csr ref;
    assert_int_equal(tcst_ref_spgemm(a, b, &ref), 0);
    const int64_t nnz = ref.nnz;
    tcst_csr_free(&ref);
    double* old = o->beta != 0.0 ? tcst_random_values(nnz, seed ^ 0xC0FFEEu, type_of(o)) : NULL;

    tcst_spgemm_run r = tcst_spgemm_prepare(settings_of(o), a, o->a_base, o->wide_a, b, o->b_base, o->wide_b);
    r.c_old = old;
    tcst_spgemm_result first = tcst_spgemm_full_protocol(&r, a, b, nnz);
    check_result(name, o, a, b, old, &first);

    /* copy again on the same descriptor: the numeric pass alone, bitwise the same */
    tcst_spgemm_result again = tcst_spgemm_compute_and_copy(&r, nnz);
    tcst_spgemm_assert_same(name, &first, &again);
    tcst_spgemm_result_free(&again);

    if (o->repeat) {
        tcst_spgemm_run r2 = r;
        tcst_spgemm_result second = tcst_spgemm_full_protocol(&r2, a, b, nnz);
        tcst_spgemm_assert_same(name, &first, &second);
        tcst_spgemm_result_free(&second);
    }

    if (o->reuse) {
        /* PETSc: new values in A's and B's arrays, compute + copy on the same descriptor;
         * the reference multiplies them as drawn (CUDA_R_64F), fp32 rounds them on upload */
        tcst_csr a2, b2;
        assert_int_equal(tcst_csr_copy(a, &a2), 0);
        assert_int_equal(tcst_csr_copy(b, &b2), 0);
        free(a2.val), free(b2.val);
        a2.val = tcst_random_values(a2.nnz, seed + 11, CUDA_R_64F);
        b2.val = tcst_random_values(b2.nnz, seed + 12, CUDA_R_64F);
        tcst_upload_values(r.a.val, a2.val, a2.nnz, type_of(o));
        tcst_upload_values(r.b.val, b2.val, b2.nnz, type_of(o));
        tcst_spgemm_result reused = tcst_spgemm_compute_and_copy(&r, nnz);
        check_result(name, o, &a2, &b2, old, &reused);
        tcst_spgemm_result_free(&reused);
        tcst_csr_free(&a2);
        tcst_csr_free(&b2);
    }
    if (o->wide_a || o->wide_b || o->wide_c) {
        /* the same product with 32-bit indices: bitwise the same C */
        tcst_spgemm_run r32 = r;
        r32.s.c_wide = 0;
        r32.a = tcst_upload_csr(a, o->a_base, type_of(o), 0);
        r32.b = tcst_upload_csr(b, o->b_base, type_of(o), 0);
        tcst_spgemm_result n32 = tcst_spgemm_full_protocol(&r32, a, b, nnz);
        tcst_spgemm_assert_same(name, &first, &n32);
        tcst_spgemm_result_free(&n32);
    }
    tcst_spgemm_result_free(&first);
    free(old);
}

/* check_product in fp32, then in fp64 (o.is_double is overridden); resources are
 * released after each. */
static void check_both_types(const char* name, const tcst_csr* a, const tcst_csr* b, options o) {
    for (int dbl = 0; dbl < 2; ++dbl) {
        o.is_double = dbl;
        check_product(name, a, b, &o);
        teardown(NULL);
    }
}

/* ---- matrices ---- */

/* Rows of A with 1, 2, 4, ... 2^13 entries over and over (k columns): the products and
 * nnz per row sweep every bin from the smallest group to the wide one. */
static tcst_csr ladder(int64_t rows, int k, uint64_t s) {
    int64_t nnz = 0;
    for (int64_t i = 0; i < rows; ++i) {
        const int len = 1 << (int)(i % 14);
        nnz += len < k ? len : k;
    }
    tcst_csr m;
    assert_int_equal(tcst_csr_alloc(&m, rows, k, nnz), 0);
    int* perm = (int*)malloc((size_t)k * sizeof(int));
    assert_non_null(perm);
    for (int j = 0; j < k; ++j) perm[j] = j;
    tcst_rng r;
    tcst_rng_seed(&r, s);
    int64_t pos = 0;
    for (int64_t i = 0; i < rows; ++i) {
        const int len = (1 << (int)(i % 14)) < k ? 1 << (int)(i % 14) : k;
        m.row_ptr[i] = (int)pos;
        for (int t = 0; t < len; ++t) { /* a partial Fisher-Yates shuffle: distinct columns */
            const int u = t + (int)tcst_rng_below(&r, (uint64_t)(k - t));
            const int tmp = perm[t];
            perm[t] = perm[u];
            perm[u] = tmp;
            m.col_idx[pos] = perm[t];
            m.val[pos] = tcst_rng_symmetric(&r);
            ++pos;
        }
    }
    m.row_ptr[rows] = (int)pos;
    free(perm);
    return m; /* columns unsorted within rows, which the API accepts */
}

/* m with row `row` replaced by `len` distinct columns (every (cols/len)-th one). */
static tcst_csr with_long_row(const tcst_csr* m, int64_t row, int len, uint64_t s) {
    assert_true(len <= m->cols);
    const int old_len = m->row_ptr[row + 1] - m->row_ptr[row];
    tcst_csr out;
    assert_int_equal(tcst_csr_alloc(&out, m->rows, m->cols, m->nnz - old_len + len), 0);
    tcst_rng r;
    tcst_rng_seed(&r, s);
    int64_t pos = 0;
    const int64_t step = m->cols / len;
    for (int64_t i = 0; i < m->rows; ++i) {
        out.row_ptr[i] = (int)pos;
        if (i == row) {
            for (int t = 0; t < len; ++t, ++pos) {
                out.col_idx[pos] = (int)(t * step);
                out.val[pos] = tcst_rng_symmetric(&r);
            }
        } else {
            for (int e = m->row_ptr[i]; e < m->row_ptr[i + 1]; ++e, ++pos) {
                out.col_idx[pos] = m->col_idx[e];
                out.val[pos] = m->val[e];
            }
        }
    }
    out.row_ptr[m->rows] = (int)pos;
    return out;
}

/* ---- tests ---- */

static void check_edge_shape(const char* name, int index, const tcst_csr* a, const tcst_csr* b) {
    options o = defaults();
    o.c_base = index & 1;
    check_both_types(name, a, b, o);
}

static void test_empty_shapes(void** state) {
    (void)state;
    tcst_spgemm_for_each_edge_shape(seed, check_edge_shape);
}

/* A's columns reach only empty rows of B: nnz(C) = 0 with m > 0. */
static void test_nnz_c_zero(void** state) {
    (void)state;
    tcst_csr a, b;
    tcst_spgemm_empty_c_operands(seed, &a, &b);
    options o = defaults();
    o.c_base = 1;
    check_product("nnz(C) = 0", &a, &b, &o);
    tcst_csr_free(&a);
    tcst_csr_free(&b);
}

/* Every combination of index bases, with empty rows in A and in B. */
static void test_index_bases(void** state) {
    (void)state;
    tcst_csr a, b;
    tcst_spgemm_empty_rows_operands(seed, &a, &b);
    for (int bases = 0; bases < 8; ++bases) {
        options o = defaults();
        o.a_base = bases & 1;
        o.b_base = (bases >> 1) & 1;
        o.c_base = (bases >> 2) & 1;
        o.is_double = bases % 3 == 0;
        char name[64];
        snprintf(name, sizeof name, "bases A %d B %d C %d", o.a_base, o.b_base, o.c_base);
        check_product(name, &a, &b, &o);
        teardown(NULL);
    }
    tcst_csr_free(&a);
    tcst_csr_free(&b);
}

static void test_unsorted_columns(void** state) {
    (void)state;
    tcst_csr a, b;
    assert_int_equal(tcst_gen_rmat(quick ? 9 : 11, 8, 0.57, 0.19, 0.19, seed, &a), 0);
    assert_int_equal(tcst_csr_copy(&a, &b), 0);
    tcst_csr_shuffle_columns(&a, seed + 1);
    tcst_csr_shuffle_columns(&b, seed + 2);
    options o = defaults();
    o.a_base = 1;
    o.repeat = 1;
    check_both_types("unsorted rmat", &a, &b, o);
    tcst_csr_free(&a);
    tcst_csr_free(&b);
}

/* Row i of A: 1.5 at columns 2i and 2i+1; row 2i+1 of B is minus row 2i. Every entry of
 * C is x + (-x): exactly zero, and still stored. */
static void test_exact_cancellation(void** state) {
    (void)state;
    tcst_csr half, a, b;
    tcst_spgemm_cancelling_operands(seed, &half, &a, &b);
    options o = defaults();
    check_both_types("exact cancellation", &a, &b, o);
    /* The check above allows rounding; here the zeros must be exact. */
    tcst_csr ref;
    assert_int_equal(tcst_ref_spgemm(&a, &b, &ref), 0);
    assert_int_equal(ref.nnz, half.nnz);
    tcst_spgemm_run r = tcst_spgemm_prepare(settings_of(&o), &a, 0, 0, &b, 0, 0);
    tcst_spgemm_result got = tcst_spgemm_full_protocol(&r, &a, &b, ref.nnz);
    for (int64_t e = 0; e < got.nnz; ++e) assert_true(((const float*)got.raw)[e] == 0.0f);
    tcst_spgemm_result_free(&got);
    tcst_csr_free(&ref);
    tcst_csr_free(&half);
    tcst_csr_free(&a);
    tcst_csr_free(&b);
}

/* A row of B with thousands of entries, reached by many rows of A. */
static void test_long_row_of_b(void** state) {
    (void)state;
    tcst_csr a = tcst_uniform(400, 500, 6, seed);
    tcst_csr base = tcst_uniform(500, 20000, 5, seed + 1);
    tcst_csr b = with_long_row(&base, 7, quick ? 3000 : 9000, seed + 2);
    /* every tenth row of A reaches row 7 of B (its first column becomes 7, unless the
     * row has 7 already: no duplicates) */
    for (int64_t i = 0; i < a.rows; i += 10) {
        int has = 0;
        for (int e = a.row_ptr[i]; e < a.row_ptr[i + 1]; ++e) has |= a.col_idx[e] == 7;
        if (!has) a.col_idx[a.row_ptr[i]] = 7;
    }
    options o = defaults();
    o.repeat = 1;
    check_both_types("long row of B", &a, &b, o);
    tcst_csr_free(&a);
    tcst_csr_free(&base);
    tcst_csr_free(&b);
}

/* Rows of C longer than any shared-memory table: the wide (bitmap) path of both passes.
 * With n beyond what a bitmap in shared memory covers, the symbolic bitmaps live in
 * buffer1. */
static void test_wide_rows(void** state) {
    (void)state;
    const struct {
        const char* name;
        int64_t k, n;
        int b_per_row, a_row_len;
    } cases[] = {
        {"wide row", 400, 200000, 500, 400},        /* ~126k entries in row 0 */
        {"wide row, huge n", 300, 3000000, 400, 300}, /* bitmaps in global memory */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        if (quick && i == 1) continue;
        const int64_t k = quick ? cases[i].k / 4 : cases[i].k;
        tcst_csr b = tcst_uniform(k, cases[i].n, cases[i].b_per_row, seed + i);
        /* row 0 of A: all k columns; rows 1..63: a few */
        tcst_csr few = tcst_uniform(64, k, 3, seed + 10 + i);
        tcst_csr a = with_long_row(&few, 0, (int)k, seed + 20 + i);
        options o = defaults();
        o.c_base = 1;
        o.repeat = 1;
        check_both_types(cases[i].name, &a, &b, o);
        tcst_csr_free(&a);
        tcst_csr_free(&few);
        tcst_csr_free(&b);
    }
}

/* The shape of PETSc's MPI PtAP's last product (P_loc^T times the off-process part, issue
 * 29): A short and very wide (k of millions, uniform columns), B with all its rows empty
 * but a band of k/100 (a rank's boundary) of 3-8 entries each, for n across the hash
 * plan's table sizes, up to PETSc's 359359 at 8 million unknowns on 2 ranks: a bitmap of
 * 45 KB in shared memory, which with the wide kernel's static memory passed the default
 * 48 KB and failed to launch until allow_smem counted the static part.
 * TCS_SPGEMM_DEFAULT, as PETSc calls it. */
static void test_sparse_band_of_b(void** state) {
    (void)state;
    const int64_t m = quick ? 8000 : 150000, k = quick ? 400000 : 4000000;
    const int64_t band = quick ? k / 10 : k / 100; /* over 32768 entries: every bin launches */
    tcst_csr a = tcst_uniform(m, k, quick ? 20 : 75, seed);
    const int64_t widths[] = {1000, 3000, 6000, 20000, 359359};
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; ++w) {
        const int64_t n = widths[w];
        tcst_rng r;
        tcst_rng_seed(&r, seed + 100 + w);
        int* len = (int*)malloc((size_t)band * sizeof(int));
        assert_non_null(len);
        int64_t nnz = 0;
        for (int64_t i = 0; i < band; ++i) nnz += len[i] = 3 + (int)tcst_rng_below(&r, 6);
        tcst_csr b;
        assert_int_equal(tcst_csr_alloc(&b, k, n, nnz), 0);
        int64_t pos = 0;
        for (int64_t i = 0; i < k; ++i) {
            b.row_ptr[i] = (int)pos;
            if (i < k - band) continue;
            const int l = len[i - (k - band)];
            const int64_t first = (int64_t)tcst_rng_below(&r, (uint64_t)(n - 8));
            for (int t = 0; t < l; ++t) { /* distinct, increasing columns */
                b.col_idx[pos] = (int)(first + t);
                b.val[pos++] = tcst_rng_symmetric(&r);
            }
        }
        b.row_ptr[k] = (int)pos;
        free(len);
        char name[64];
        snprintf(name, sizeof name, "sparse band of B, n = %lld", (long long)n);
        check_both_types(name, &a, &b, defaults());
        tcst_csr_free(&b);
    }
    tcst_csr_free(&a);
}

/* Every bin, from 4 lanes per row to the wide one, in one product. */
static void test_all_bins(void** state) {
    (void)state;
    tcst_csr a = ladder(quick ? 28 : 140, 8192, seed);
    tcst_csr b = tcst_uniform(8192, quick ? 20000 : 60000, 6, seed + 1);
    options o = defaults();
    o.b_base = 1;
    o.repeat = 1;
    o.reuse = 1;
    check_both_types("all bins", &a, &b, o);
    tcst_csr_free(&a);
    tcst_csr_free(&b);
}

static void test_generators(void** state) {
    (void)state;
    for (int g = 0; g < TCST_SPGEMM_GENERATED; ++g) {
        tcst_csr a;
        const char* name = tcst_spgemm_generated(g, quick, seed, &a);
        options o = defaults();
        o.a_base = g & 1;
        o.c_base = (g >> 1) & 1;
        o.repeat = g == 3 || g == 5;
        o.device_scalars = g == 2;
        o.alpha = g == 4 ? -0.75 : 1.0;
        check_both_types(name, &a, &a, o);
        tcst_csr_free(&a);
    }
}

/* One Matrix Market file (tcst_for_each_mm_product): A*A when square, else A*A^T;
 * pattern files get random values. */
static void check_matrix_market_file(const char* name, int index, const tcst_csr* a, const tcst_csr* b) {
    options o = defaults();
    o.is_double = index & 1;
    o.a_base = (index >> 1) & 1;
    o.c_base = (index >> 2) & 1;
    o.device_scalars = index % 5 == 0;
    check_product(name, a, b, &o);
    teardown(NULL);
}

/* Every Matrix Market file in tcst_matrix_dir(). Complex files (qc324) are skipped. */
static void test_matrix_market(void** state) {
    (void)state;
    tcst_for_each_mm_product("gpu_spgemm_hash", seed, quick, check_matrix_market_file);
}

/* alpha and beta from host and device memory; beta != 0 adds beta*C_old. */
static void test_scalars_and_beta(void** state) {
    (void)state;
    tcst_csr a;
    assert_int_equal(tcst_gen_rmat(quick ? 9 : 11, 6, 0.57, 0.19, 0.19, seed, &a), 0);
    for (int v = 0; v < 8; ++v) {
        options o = defaults();
        o.is_double = v & 1;
        o.device_scalars = (v >> 1) & 1;
        o.alpha = (v >> 2) ? 2.5 : 1.0;
        o.beta = (v & 2) ? -0.5 : (v >> 2) ? 1.0 : 0.0;
        o.reuse = 1;
        check_product("scalars", &a, &a, &o);
        teardown(NULL);
    }
    tcst_csr_free(&a);
}

/* 64-bit indices (tcsparse's extension: cuSPARSE's SpGEMM has 32-bit only): A, B and C
 * each TCS_INDEX_64I or not, every base, both types, every algorithm family, rows from
 * empty to long (the group, block and wide bins), within the reference and bitwise the
 * C of 32-bit indices (check_product). */
static void test_index64(void** state) {
    (void)state;
    tcst_csr full_a = tcst_uniform(300, 200, 7, seed), b0 = tcst_uniform(200, quick ? 3000 : 20000, 9, seed + 1);
    tcst_csr a0 = tcst_with_empty_rows(&full_a, 5);
    tcst_csr a = with_long_row(&a0, 7, 180, seed + 2);
    tcst_csr_free(&full_a);
    tcst_csr_free(&a0);
    const tcsSpGEMMAlg_t algs[] = {TCS_SPGEMM_ALG_HASH, TCS_SPGEMM_DEFAULT, TCS_SPGEMM_ALG_TILE,
                                   TCS_SPGEMM_ALG_TILE_TC};
    for (int w = 1; w < 8; ++w)
        for (int g = 0; g < 4; ++g) {
            if (quick && (w + g) % 2 != 0) continue;
            options o = defaults();
            o.wide_a = w & 1;
            o.wide_b = (w >> 1) & 1;
            o.wide_c = (w >> 2) & 1;
            o.a_base = (w + g) % 2;
            o.b_base = g % 2;
            o.c_base = (w / 2 + g) % 2;
            o.is_double = (w + g) % 3 == 0;
            o.alg = algs[g];
            o.beta = w == 7 ? 0.5 : 0.0;
            o.reuse = g == 0;
            char name[96];
            snprintf(name, sizeof name, "64-bit indices A %d B %d C %d, algorithm %d", o.wide_a,
                     o.wide_b, o.wide_c, (int)o.alg);
            check_product(name, &a, &b0, &o);
            teardown(NULL);
        }
    tcst_csr_free(&a);
    tcst_csr_free(&b0);
}

/* The product under a memory budget (estimateMemory's chunk_fraction: rows in chunks)
 * against the whole one: bitwise the same C, a buffer2 no larger; checked against the
 * reference too. alg_whole: the algorithm of the whole product. */
static void check_budget(const char* name, const tcst_csr* a, const tcst_csr* b, options o,
                         tcsSpGEMMAlg_t alg_whole, float chunk) {
    tcst_csr ref;
    assert_int_equal(tcst_ref_spgemm(a, b, &ref), 0);
    const int64_t nnz = ref.nnz;
    tcst_csr_free(&ref);
    options whole_o = o;
    whole_o.alg = alg_whole;
    whole_o.estimate = 0;
    tcst_spgemm_run whole =
        tcst_spgemm_prepare(settings_of(&whole_o), a, o.a_base, o.wide_a, b, o.b_base, o.wide_b);
    tcst_spgemm_result x = tcst_spgemm_full_protocol(&whole, a, b, nnz);
    options part_o = o;
    part_o.estimate = 1;
    part_o.chunk = chunk;
    tcst_spgemm_run part = whole;
    part.s = settings_of(&part_o);
    tcst_spgemm_result y = tcst_spgemm_full_protocol(&part, a, b, nnz);
    char label[160];
    snprintf(label, sizeof label, "%s, chunk_fraction %g", name, (double)chunk);
    print_message("%s: buffer2 %zu bytes whole, %zu under the budget\n", label, whole.size2, part.size2);
    tcst_spgemm_assert_same(label, &x, &y);
    if (part.size2 > whole.size2 && alg_whole == o.alg)
        fail_msg("%s: buffer2 of %zu bytes under the budget, %zu without", label, part.size2, whole.size2);
    check_result(label, &part_o, a, b, NULL, &y);
    tcst_spgemm_result_free(&x);
    tcst_spgemm_result_free(&y);
    teardown(NULL);
}

static void test_budget(void** state) {
    (void)state;
    tcst_csr st, lad, lb, few, wa, wb, blocks;
    assert_int_equal(tcst_gen_stencil27(quick ? 8 : 16, 12, 10, 1, seed, &st), 0);
    lad = ladder(quick ? 28 : 140, 8192, seed);
    lb = tcst_uniform(8192, quick ? 20000 : 60000, 6, seed + 1);
    wb = tcst_uniform(300, 3000000, 400, seed + 2); /* wide rows, bitmaps in global memory */
    few = tcst_uniform(200, 300, 3, seed + 3);
    wa = with_long_row(&few, 17, 300, seed + 4);
    assert_int_equal(tcst_gen_dense_blocks(1024, 1024, 16, 0.3, seed + 5, &blocks), 0);
    const float chunks[] = {0.5f, 0.05f, 1e-6f};
    for (int dbl = 0; dbl < 2; ++dbl)
        for (int c = 0; c < 3; ++c) {
            if (quick && c == 1) continue;
            options o = defaults();
            o.is_double = dbl;
            o.alg = TCS_SPGEMM_ALG_HASH;
            o.c_base = c & 1;
            o.wide_c = c == 2;
            check_budget("stencil", &st, &st, o, TCS_SPGEMM_ALG_HASH, chunks[c]);
            check_budget("all bins", &lad, &lb, o, TCS_SPGEMM_ALG_HASH, chunks[c]);
            if (!quick) check_budget("wide rows, huge n", &wa, &wb, o, TCS_SPGEMM_ALG_HASH, chunks[c]);
            /* ALG3, cuSPARSE's chunked algorithm, runs hash */
            o.alg = TCS_SPGEMM_ALG3;
            check_budget("stencil, ALG3", &st, &st, o, TCS_SPGEMM_ALG_HASH, chunks[c]);
            /* the default takes tiles on dense blocks, and hash under a budget */
            o.alg = TCS_SPGEMM_DEFAULT;
            check_budget("dense blocks, DEFAULT", &blocks, &blocks, o, TCS_SPGEMM_ALG_HASH, chunks[c]);
        }
    /* an explicit tile algorithm does not chunk: INSUFFICIENT_RESOURCES, and the
     * descriptor still computes the whole product */
    options o = defaults();
    o.alg = TCS_SPGEMM_ALG_TILE_TC;
    tcst_spgemm_run r = tcst_spgemm_prepare(settings_of(&o), &blocks, 0, 0, NULL, 0, 0);
    tcst_spgemm_create_c(&r); /* fp32, 32-bit indices, base 0 */
    size_t size1 = 0, size3 = 0, size2 = 0;
    assert_ok(tcsSpGEMM_workEstimation(TCST_SPGEMM_ARGS(&r), &size1, NULL));
    assert_ok(tcsSpGEMM_workEstimation(TCST_SPGEMM_ARGS(&r), &size1, tcst_poisoned(size1)));
    assert_ok(tcsSpGEMM_estimateMemory(TCST_SPGEMM_ARGS(&r), 0.5f, &size3, NULL, NULL));
    assert_status(tcsSpGEMM_estimateMemory(TCST_SPGEMM_ARGS(&r), 0.5f, &size3, tcst_poisoned(size3), &size2),
                  TCS_STATUS_INSUFFICIENT_RESOURCES);
    assert_ok(tcsSpGEMM_estimateMemory(TCST_SPGEMM_ARGS(&r), 1.0f, &size3, tcst_poisoned(size3), &size2));
    r.size2 = size2;
    r.buf2 = tcst_poisoned(size2);
    tcst_csr ref;
    assert_int_equal(tcst_ref_spgemm(&blocks, &blocks, &ref), 0);
    tcst_spgemm_result got = tcst_spgemm_compute_and_copy(&r, ref.nnz);
    tcst_csr_free(&ref);
    check_result("dense blocks, tiles, chunk_fraction 1", &o, &blocks, &blocks, NULL, &got);
    tcst_spgemm_result_free(&got);
    tcst_csr_free(&st), tcst_csr_free(&lad), tcst_csr_free(&lb), tcst_csr_free(&wb);
    tcst_csr_free(&few), tcst_csr_free(&wa), tcst_csr_free(&blocks);
}

/* Every algorithm value runs the hash algorithm; ALG2/ALG3 through estimateMemory. */
static void test_algorithms(void** state) {
    (void)state;
    const tcsSpGEMMAlg_t algs[] = {TCS_SPGEMM_DEFAULT,
                                   TCS_SPGEMM_CSR_ALG_DETERMINISTIC,
                                   TCS_SPGEMM_CSR_ALG_NONDETERMINISTIC,
                                   TCS_SPGEMM_ALG1,
                                   TCS_SPGEMM_ALG2,
                                   TCS_SPGEMM_ALG3,
                                   TCS_SPGEMM_ALG_HASH};
    tcst_csr a;
    assert_int_equal(tcst_gen_stencil27(quick ? 6 : 10, quick ? 6 : 10, quick ? 6 : 10, 1, seed, &a), 0);
    for (size_t i = 0; i < sizeof algs / sizeof algs[0]; ++i) {
        options o = defaults();
        o.alg = algs[i];
        o.is_double = (int)(i & 1);
        o.estimate = algs[i] == TCS_SPGEMM_ALG2 || algs[i] == TCS_SPGEMM_ALG3;
        o.reuse = algs[i] == TCS_SPGEMM_ALG_HASH;
        char name[48];
        snprintf(name, sizeof name, "algorithm %d", (int)algs[i]);
        check_product(name, &a, &a, &o);
        teardown(NULL);
    }
    tcst_csr_free(&a);
}

TCST_GPU_GROUP_FIXTURE("gpu_spgemm_hash", handle, seed, &quick)

int main(void) {
    if (tcst_no_gpu("gpu_spgemm_hash")) return TCST_SKIP;
#define T(f) cmocka_unit_test_teardown(f, teardown)
    const struct CMUnitTest tests[] = {
        T(test_empty_shapes),      T(test_nnz_c_zero),       T(test_index_bases),
        T(test_unsorted_columns),  T(test_exact_cancellation), T(test_long_row_of_b),
        T(test_wide_rows),         T(test_all_bins),         T(test_generators),
        T(test_matrix_market),     T(test_scalars_and_beta), T(test_algorithms),
        T(test_index64),           T(test_budget),           T(test_sparse_band_of_b),
    };
    return tcst_run_group_tests(tests, group_setup, group_teardown);
}
