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

static size_t value_size(int is_double) { return is_double ? sizeof(double) : sizeof(float); }

/* Values in the compute type, written into existing device memory. */
static void upload_values(void* dst, const double* v, int64_t n, int is_double) {
    if (n == 0) return;
    void* stage = malloc((size_t)n * value_size(is_double));
    assert_non_null(stage);
    for (int64_t i = 0; i < n; ++i) {
        if (is_double)
            ((double*)stage)[i] = v[i];
        else
            ((float*)stage)[i] = (float)v[i];
    }
    const cudaError_t e = cudaMemcpy(dst, stage, (size_t)n * value_size(is_double), cudaMemcpyHostToDevice);
    free(stage);
    assert_int_equal(e, cudaSuccess);
}

static void download(void* host, const void* dev, size_t bytes) {
    assert_int_equal(tcst_device_download(host, dev, bytes), 0);
}

/* ---- one product through the protocol ---- */

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

/* A matrix on the device and its descriptor. */
typedef struct {
    void *rp, *ci;
    void* val;
    tcsConstSpMatDescr_t descr;
} device_csr;

static tcsIndexType_t index_type(int wide) { return wide ? TCS_INDEX_64I : TCS_INDEX_32I; }
static size_t index_size(int wide) { return wide ? sizeof(int64_t) : sizeof(int); }

/* wide: the indices as TCS_INDEX_64I. */
static device_csr upload(const tcst_csr* m, int base, int is_double, int wide) {
    device_csr d;
    int *rp = NULL, *ci = NULL;
    assert_int_equal(tcst_csr_upload(m, base, is_double, &rp, &ci, &d.val), 0);
    tcst_device_free(rp), tcst_device_free(ci);
    assert_int_equal(tcst_csr_upload_indices(m, base, wide, &d.rp, &d.ci), 0);
    tcst_track(d.rp), tcst_track(d.ci), tcst_track(d.val);
    assert_ok(tcsCreateConstCsr(&d.descr, m->rows, m->cols, m->nnz, d.rp, d.ci, d.val,
                                index_type(wide), index_type(wide),
                                base ? TCS_INDEX_BASE_ONE : TCS_INDEX_BASE_ZERO,
                                is_double ? CUDA_R_64F : CUDA_R_32F));
    tcst_track_mat(d.descr);
    return d;
}



/* The C the protocol produced, on the host. */
typedef struct {
    int64_t rows, nnz;
    int *rp, *ci;
    void* val;
} result;

static void result_free(result* r) {
    free(r->rp), free(r->ci), free(r->val);
    memset(r, 0, sizeof *r);
}

/* The state of one run: inputs on the device, C, buffers, scalars. */
typedef struct {
    const options* o;
    device_csr a, b;
    tcsSpMatDescr_t c;
    int64_t m, n;
    void* c_rp;
    void* c_ci;
    void* c_val;
    const double* c_old; /* beta != 0: C's values before copy (reference order) */
    tcsSpGEMMDescr_t d;
    size_t size2;
    void* buf2;
    const void *alpha, *beta;
    double host_scalars[2];
    float host_scalars_f[2];
} run;

static cudaDataType type_of(const options* o) { return o->is_double ? CUDA_R_64F : CUDA_R_32F; }

static void set_scalars(run* r) {
    const options* o = r->o;
    r->host_scalars[0] = o->alpha;
    r->host_scalars[1] = o->beta;
    r->host_scalars_f[0] = (float)o->alpha;
    r->host_scalars_f[1] = (float)o->beta;
    const void* host = o->is_double ? (const void*)r->host_scalars : (const void*)r->host_scalars_f;
    const size_t vs = value_size(o->is_double);
    if (o->device_scalars) {
        void* dev = tcst_poisoned(2 * vs);
        assert_int_equal(cudaMemcpy(dev, host, 2 * vs, cudaMemcpyHostToDevice), cudaSuccess);
        assert_ok(tcsSetPointerMode(handle, TCS_POINTER_MODE_DEVICE));
        r->alpha = dev;
        r->beta = (const char*)dev + vs;
    } else {
        assert_ok(tcsSetPointerMode(handle, TCS_POINTER_MODE_HOST));
        r->alpha = host;
        r->beta = (const char*)host + vs;
    }
}

#define ARGS(r)                                                                                    \
    handle, TCS_OPERATION_NON_TRANSPOSE, TCS_OPERATION_NON_TRANSPOSE, (r)->alpha, (r)->a.descr,  \
        (r)->b.descr, (r)->beta, (r)->c, type_of((r)->o), (r)->o->alg, (r)->d

/* compute (with the caller's buffer2) and copy into C's arrays, then C on the host. */
static result compute_and_copy(run* r, int64_t expected_nnz) {
    const options* o = r->o;
    const size_t vs = value_size(o->is_double);
    assert_ok(tcsSpGEMM_compute(ARGS(r), &r->size2, r->buf2));
    int64_t rows = -1, cols = -1, nnz = -1;
    assert_ok(tcsSpMatGetSize(r->c, &rows, &cols, &nnz));
    assert_int_equal(rows, r->m);
    assert_int_equal(cols, r->n);
    assert_int_equal(nnz, expected_nnz);
    if (r->c_ci == NULL && nnz > 0) {
        r->c_ci = tcst_poisoned((size_t)nnz * index_size(o->wide_c));
        r->c_val = tcst_poisoned((size_t)nnz * vs);
    }
    if (o->beta != 0.0) upload_values(r->c_val, r->c_old, nnz, o->is_double);
    assert_ok(tcsCsrSetPointers(r->c, r->c_rp, r->c_ci, r->c_val));
    assert_ok(tcsSpGEMM_copy(ARGS(r)));
    result out;
    out.rows = r->m;
    out.nnz = nnz;
    out.rp = (int*)malloc((size_t)(r->m + 1) * sizeof(int));
    out.ci = (int*)malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof(int));
    out.val = malloc((size_t)(nnz > 0 ? nnz : 1) * vs);
    assert_true(out.rp != NULL && out.ci != NULL && out.val != NULL);
    assert_int_equal(tcst_device_download_indices(out.rp, r->c_rp, r->m + 1, o->wide_c), 0);
    assert_int_equal(tcst_device_download_indices(out.ci, r->c_ci, nnz, o->wide_c), 0);
    download(out.val, r->c_val, (size_t)nnz * vs);
    return out;
}

/* workEstimation, the size of buffer2 (compute's query or estimateMemory), then
 * compute_and_copy. */
static result full_protocol(run* r, const tcst_csr* a, const tcst_csr* b, int64_t expected_nnz) {
    const options* o = r->o;
    r->c_rp = tcst_poisoned((size_t)(r->m + 1) * index_size(o->wide_c));
    r->c_ci = NULL;
    r->c_val = NULL;
    assert_ok(tcsCreateCsr(&r->c, r->m, r->n, 0, r->c_rp, NULL, NULL, index_type(o->wide_c),
                           index_type(o->wide_c), o->c_base ? TCS_INDEX_BASE_ONE : TCS_INDEX_BASE_ZERO,
                           type_of(o)));
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

    if (o->estimate) {
        const float chunk = o->chunk > 0.0f ? o->chunk : 0.2f;
        size_t size3 = 0, size3_again = 0, size2 = 0, size2_again = 0;
        assert_ok(tcsSpGEMM_estimateMemory(ARGS(r), chunk, &size3, NULL, NULL));
        assert_ok(tcsSpGEMM_estimateMemory(ARGS(r), chunk, &size3_again, NULL, NULL));
        assert_int_equal(size3, size3_again);
        void* buf3 = tcst_device_poisoned(size3);
        assert_non_null(buf3);
        const tcsStatus_t s1 = tcsSpGEMM_estimateMemory(ARGS(r), chunk, &size3, buf3, &size2);
        const tcsStatus_t s2 = tcsSpGEMM_estimateMemory(ARGS(r), chunk, &size3, buf3, &size2_again);
        tcst_device_free(buf3); /* AmgX frees buffer3 at once */
        assert_ok(s1);
        assert_ok(s2);
        assert_int_equal(size2, size2_again);
        /* compute's size query reports the budget too */
        assert_ok(tcsSpGEMM_compute(ARGS(r), &size2_again, NULL));
        assert_int_equal(size2, size2_again);
        r->size2 = size2;
    } else {
        size_t size2_again = 0;
        assert_ok(tcsSpGEMM_compute(ARGS(r), &r->size2, NULL));
        assert_ok(tcsSpGEMM_compute(ARGS(r), &size2_again, NULL));
        assert_int_equal(r->size2, size2_again);
    }
    r->buf2 = tcst_poisoned(r->size2);
    return compute_and_copy(r, expected_nnz);
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
                         const double* old, const result* got) {
    tcst_csr ref;
    assert_int_equal(tcst_ref_spgemm(a, b, &ref), 0);
    double* mag = tcst_ref_spgemm_magnitude(a, b, &ref);
    assert_non_null(mag);
    expected_values(o, &ref, mag, old);
    char msg[512] = "";
    const int bad = tcst_compare_csr(&ref, mag, got->rp, got->ci, got->val, o->is_double, o->c_base,
                                     o->is_double ? 1e-12 : 1e-5, msg, sizeof msg);
    free(mag);
    tcst_csr_free(&ref);
    if (bad) fail_msg("%s (%s): %s", name, o->is_double ? "fp64" : "fp32", msg);
}

static void assert_same(const char* name, const result* x, const result* y, int is_double) {
    assert_int_equal(x->nnz, y->nnz);
    if (memcmp(x->rp, y->rp, (size_t)(x->rows + 1) * sizeof(int)) != 0 ||
        memcmp(x->ci, y->ci, (size_t)x->nnz * sizeof(int)) != 0 ||
        memcmp(x->val, y->val, (size_t)x->nnz * value_size(is_double)) != 0)
        fail_msg("%s (%s): two runs differ", name, is_double ? "fp64" : "fp32");
}

/* Random values on the pattern of m (new values for reuse, C's old values). */
static double* random_values(int64_t n, uint64_t s) {
    double* v = (double*)malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    assert_non_null(v);
    tcst_rng r;
    tcst_rng_seed(&r, s);
    for (int64_t i = 0; i < n; ++i) v[i] = tcst_rng_symmetric(&r);
    return v;
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
    double* old = o->beta != 0.0 ? random_values(nnz, seed ^ 0xC0FFEEu) : NULL;
    if (old != NULL && !o->is_double)
        for (int64_t e = 0; e < nnz; ++e) old[e] = (double)(float)old[e];

    run r;
    memset(&r, 0, sizeof r);
    r.o = o;
    r.m = a->rows;
    r.n = b->cols;
    r.c_old = old;
    r.a = upload(a, o->a_base, o->is_double, o->wide_a);
    r.b = upload(b, o->b_base, o->is_double, o->wide_b);
    set_scalars(&r);
    result first = full_protocol(&r, a, b, nnz);
    check_result(name, o, a, b, old, &first);

    /* copy again on the same descriptor: the numeric pass alone, bitwise the same */
    result again = compute_and_copy(&r, nnz);
    assert_same(name, &first, &again, o->is_double);
    result_free(&again);

    if (o->repeat) {
        run r2 = r;
        result second = full_protocol(&r2, a, b, nnz);
        assert_same(name, &first, &second, o->is_double);
        result_free(&second);
    }

    if (o->reuse) {
        /* PETSc: new values in A's and B's arrays, compute + copy on the same descriptor */
        tcst_csr a2, b2;
        assert_int_equal(tcst_csr_copy(a, &a2), 0);
        assert_int_equal(tcst_csr_copy(b, &b2), 0);
        free(a2.val), free(b2.val);
        a2.val = random_values(a2.nnz, seed + 11);
        b2.val = random_values(b2.nnz, seed + 12);
        upload_values(r.a.val, a2.val, a2.nnz, o->is_double);
        upload_values(r.b.val, b2.val, b2.nnz, o->is_double);
        result reused = compute_and_copy(&r, nnz);
        check_result(name, o, &a2, &b2, old, &reused);
        result_free(&reused);
        tcst_csr_free(&a2);
        tcst_csr_free(&b2);
    }
    if (o->wide_a || o->wide_b || o->wide_c) {
        /* the same product with 32-bit indices: bitwise the same C */
        options narrow = *o;
        narrow.wide_a = narrow.wide_b = narrow.wide_c = 0;
        run r32 = r;
        r32.o = &narrow;
        r32.a = upload(a, o->a_base, o->is_double, 0);
        r32.b = upload(b, o->b_base, o->is_double, 0);
        result n32 = full_protocol(&r32, a, b, nnz);
        assert_same(name, &first, &n32, o->is_double);
        result_free(&n32);
    }
    result_free(&first);
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

static tcst_csr uniform(int64_t rows, int64_t cols, int per_row, uint64_t s) {
    tcst_csr m;
    assert_int_equal(tcst_gen_uniform(rows, cols, per_row, s, &m), 0);
    return m;
}

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

/* m without the entries of every `every`-th row (those rows become empty). */
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
        {"m = 0", 0, 5, 4, 2, 2},       {"n = 0", 4, 5, 0, 2, 0},
        {"k = 0", 4, 0, 3, 0, 0},       {"nnz(A) = 0", 4, 5, 3, 0, 2},
        {"nnz(B) = 0", 4, 5, 3, 2, 0},  {"1 x 1", 1, 1, 1, 1, 1},
        {"rectangular", 30, 50, 7, 6, 3}, {"1 x 1 x 200", 1, 1, 200, 1, 150},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        tcst_csr a = uniform(cases[i].m, cases[i].k, cases[i].a_per_row, seed + i);
        tcst_csr b = uniform(cases[i].k, cases[i].n, cases[i].b_per_row, seed + 100 + i);
        options o = defaults();
        o.c_base = (int)(i & 1);
        check_both_types(cases[i].name, &a, &b, o);
        tcst_csr_free(&a);
        tcst_csr_free(&b);
    }
}

/* A's columns reach only empty rows of B: nnz(C) = 0 with m > 0. */
static void test_nnz_c_zero(void** state) {
    (void)state;
    tcst_csr a = uniform(40, 10, 3, seed);
    tcst_csr b;
    assert_int_equal(tcst_csr_alloc(&b, 10, 6, 0), 0);
    options o = defaults();
    o.c_base = 1;
    check_product("nnz(C) = 0", &a, &b, &o);
    tcst_csr_free(&a);
    tcst_csr_free(&b);
}

/* Every combination of index bases, with empty rows in A and in B. */
static void test_index_bases(void** state) {
    (void)state;
    tcst_csr full_a = uniform(300, 200, 7, seed), full_b = uniform(200, 250, 9, seed + 1);
    tcst_csr a = with_empty_rows(&full_a, 5), b = with_empty_rows(&full_b, 3);
    tcst_csr_free(&full_a);
    tcst_csr_free(&full_b);
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
    const int64_t m = 50;
    tcst_csr half = uniform(m, 300, 20, seed);
    tcst_csr a, b;
    assert_int_equal(tcst_gen_cancelling(&half, &a, &b), 0);
    options o = defaults();
    check_both_types("exact cancellation", &a, &b, o);
    /* The check above allows rounding; here the zeros must be exact. */
    tcst_csr ref;
    assert_int_equal(tcst_ref_spgemm(&a, &b, &ref), 0);
    assert_int_equal(ref.nnz, half.nnz);
    run r;
    memset(&r, 0, sizeof r);
    r.o = &o;
    r.m = a.rows;
    r.n = b.cols;
    r.a = upload(&a, 0, 0, 0);
    r.b = upload(&b, 0, 0, 0);
    set_scalars(&r);
    result got = full_protocol(&r, &a, &b, ref.nnz);
    for (int64_t e = 0; e < got.nnz; ++e) assert_true(((const float*)got.val)[e] == 0.0f);
    result_free(&got);
    tcst_csr_free(&ref);
    tcst_csr_free(&half);
    tcst_csr_free(&a);
    tcst_csr_free(&b);
}

/* A row of B with thousands of entries, reached by many rows of A. */
static void test_long_row_of_b(void** state) {
    (void)state;
    tcst_csr a = uniform(400, 500, 6, seed);
    tcst_csr base = uniform(500, 20000, 5, seed + 1);
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
        tcst_csr b = uniform(k, cases[i].n, cases[i].b_per_row, seed + i);
        /* row 0 of A: all k columns; rows 1..63: a few */
        tcst_csr few = uniform(64, k, 3, seed + 10 + i);
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
    tcst_csr a = uniform(m, k, quick ? 20 : 75, seed);
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
    tcst_csr b = uniform(8192, quick ? 20000 : 60000, 6, seed + 1);
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
    const int s = quick ? 1 : 2; /* size scale */
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

/* Every Matrix Market file in tcst_matrix_dir(): A*A when square, else A*A^T. Pattern
 * files get random values. Complex files (qc324) are skipped. */
static void test_matrix_market(void** state) {
    (void)state;
    tcst_mm_folder folder;
    if (tcst_mm_folder_open(&folder, NULL) != 0) {
        printf("gpu_spgemm_hash: no matrix directory %s: skipped\n", folder.folder);
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
        options o = defaults();
        o.is_double = index & 1;
        o.a_base = (index >> 1) & 1;
        o.c_base = (index >> 2) & 1;
        o.device_scalars = index % 5 == 0;
        check_product(folder.name, &a, &b, &o);
        teardown(NULL);
        tcst_csr_free(&a);
        tcst_csr_free(&b);
        ++done;
    }
    tcst_mm_folder_close(&folder);
    printf("gpu_spgemm_hash: %d Matrix Market files checked\n", done);
    assert_true(done > 0);
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
    tcst_csr full_a = uniform(300, 200, 7, seed), b0 = uniform(200, quick ? 3000 : 20000, 9, seed + 1);
    tcst_csr a0 = with_empty_rows(&full_a, 5);
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
    run whole;
    memset(&whole, 0, sizeof whole);
    whole.o = &whole_o;
    whole.m = a->rows;
    whole.n = b->cols;
    whole.a = upload(a, o.a_base, o.is_double, o.wide_a);
    whole.b = upload(b, o.b_base, o.is_double, o.wide_b);
    set_scalars(&whole);
    result x = full_protocol(&whole, a, b, nnz);
    options part_o = o;
    part_o.estimate = 1;
    part_o.chunk = chunk;
    run part = whole;
    part.o = &part_o;
    result y = full_protocol(&part, a, b, nnz);
    char label[160];
    snprintf(label, sizeof label, "%s, chunk_fraction %g", name, (double)chunk);
    print_message("%s: buffer2 %zu bytes whole, %zu under the budget\n", label, whole.size2, part.size2);
    assert_same(label, &x, &y, o.is_double);
    if (part.size2 > whole.size2 && alg_whole == o.alg)
        fail_msg("%s: buffer2 of %zu bytes under the budget, %zu without", label, part.size2, whole.size2);
    check_result(label, &part_o, a, b, NULL, &y);
    result_free(&x);
    result_free(&y);
    teardown(NULL);
}

static void test_budget(void** state) {
    (void)state;
    tcst_csr st, lad, lb, few, wa, wb, blocks;
    assert_int_equal(tcst_gen_stencil27(quick ? 8 : 16, 12, 10, 1, seed, &st), 0);
    lad = ladder(quick ? 28 : 140, 8192, seed);
    lb = uniform(8192, quick ? 20000 : 60000, 6, seed + 1);
    wb = uniform(300, 3000000, 400, seed + 2); /* wide rows, bitmaps in global memory */
    few = uniform(200, 300, 3, seed + 3);
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
    run r;
    memset(&r, 0, sizeof r);
    r.o = &o;
    r.m = r.n = blocks.rows;
    r.a = upload(&blocks, 0, 0, 0);
    r.b = r.a;
    set_scalars(&r);
    r.c_rp = tcst_poisoned((size_t)(r.m + 1) * sizeof(int));
    assert_ok(tcsCreateCsr(&r.c, r.m, r.n, 0, r.c_rp, NULL, NULL, TCS_INDEX_32I, TCS_INDEX_32I,
                           TCS_INDEX_BASE_ZERO, CUDA_R_32F));
    tcst_track_mat(r.c);
    assert_ok(tcsSpGEMM_createDescr(&r.d));
    tcst_track_gemm(r.d);
    size_t size1 = 0, size3 = 0, size2 = 0;
    assert_ok(tcsSpGEMM_workEstimation(ARGS(&r), &size1, NULL));
    assert_ok(tcsSpGEMM_workEstimation(ARGS(&r), &size1, tcst_poisoned(size1)));
    assert_ok(tcsSpGEMM_estimateMemory(ARGS(&r), 0.5f, &size3, NULL, NULL));
    assert_status(tcsSpGEMM_estimateMemory(ARGS(&r), 0.5f, &size3, tcst_poisoned(size3), &size2),
                  TCS_STATUS_INSUFFICIENT_RESOURCES);
    assert_ok(tcsSpGEMM_estimateMemory(ARGS(&r), 1.0f, &size3, tcst_poisoned(size3), &size2));
    r.size2 = size2;
    r.buf2 = tcst_poisoned(size2);
    tcst_csr ref;
    assert_int_equal(tcst_ref_spgemm(&blocks, &blocks, &ref), 0);
    result got = compute_and_copy(&r, ref.nnz);
    tcst_csr_free(&ref);
    check_result("dense blocks, tiles, chunk_fraction 1", &o, &blocks, &blocks, NULL, &got);
    result_free(&got);
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

static int group_setup(void** state) {
    (void)state;
    seed = tcst_fresh_seed();
    quick = tcst_quick();
    printf("gpu_spgemm_hash: seed %llu (TCST_SEED=%llu reproduces)%s\n", (unsigned long long)seed,
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
        printf("gpu_spgemm_hash: no usable CUDA device: skipped\n");
        return TCST_SKIP;
    }
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
