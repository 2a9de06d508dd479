/* CSR SpMV on a GPU against the CPU reference (in double), through the public API:
 * y = alpha * op(A) * x + beta * y with opA N and T, fp32, fp64, fp16/bf16 (y of the
 * input type or fp32), host and device alpha/beta, index bases 0 and 1, unsorted
 * columns, beta == 0 with NaN in y, beta != 0, alpha == 0, empty rows, rows of
 * thousands of entries, nnz == 0, m or k == 0 or 1, rectangular shapes, vectors off
 * 16-byte alignment, the DEFAULT, CSR_ALG1 and CSR_ALG2 algorithms (bitwise the same
 * y, but for the atomic scatter of DEFAULT and CSR_ALG1 with op T, which is checked
 * against the reference; from 4 Mi nonzeros, after preprocess, the copy where it reads A
 * close together, bitwise CSR_ALG2's y, the scatter where not), preprocess then new
 * values of A, runs without preprocess (bitwise the same), bitwise the same y as
 * tcsSpMM with one column (the path it is built on), op T with CSR_ALG2 bitwise as op N
 * over the host's transpose (values read in place), CUDA graph capture and replay,
 * Matrix Market files.
 *
 * Every entry must satisfy |y - ref| <= tol * (sum of |products| + |beta*y0|), tol
 * 1e-5 for fp32, 1e-12 for fp64, 1e-2 for fp16/bf16 (plus one fp16 subnormal step for
 * an fp16 y). Inputs are rounded to their type first, so the bound measures the
 * arithmetic only. y lives in an allocation filled with 0xFF bytes (NaN): an entry left
 * unwritten fails. Exits 77 (skipped) without a GPU; the seed is printed and
 * TCST_SEED=<seed> reproduces a run. TCS_TEST_QUICK=1 (the compute-sanitizer run) uses
 * smaller matrices. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tcs_test_support.h"
#include "tcst_shard.h"
#include "tcsparse.h"
#include "tcst_index_types.h"
#include "tcst_status.h"
#include "tcst_gpu_group.h"

#include <cuda_runtime_api.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    cudaDataType ax, y, compute;
    double tol;
    const char* name;
} types_t;

enum { FP32, FP64, FP16, FP16_Y32, BF16, BF16_Y32, TYPE_COUNT };
static const types_t TYPES[TYPE_COUNT] = {
    {CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, 1e-5, "fp32"},
    {CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, 1e-12, "fp64"},
    {CUDA_R_16F, CUDA_R_16F, CUDA_R_32F, 1e-2, "fp16"},
    {CUDA_R_16F, CUDA_R_32F, CUDA_R_32F, 1e-2, "fp16 -> fp32 y"},
    {CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F, 1e-2, "bf16"},
    {CUDA_R_16BF, CUDA_R_32F, CUDA_R_32F, 1e-2, "bf16 -> fp32 y"},
};

static tcst_gpu_fixture fx;

static void* xmalloc(size_t bytes) {
    void* p = malloc(bytes > 0 ? bytes : 1);
    assert_non_null(p);
    return p;
}

/* Device memory of a test, released after it (also a failed one). */
#define MAX_HELD 32
static void* held[MAX_HELD];
static int n_held;

static void* device(size_t bytes) {
    void* p = tcst_device_poisoned(bytes > 0 ? bytes : 16);
    assert_non_null(p);
    assert_true(n_held < MAX_HELD);
    return held[n_held++] = p;
}

static int release_all(void** state) {
    (void)state;
    for (int i = 0; i < n_held; ++i) tcst_device_free(held[i]);
    n_held = 0;
    tcsSetPointerMode(fx.handle, TCS_POINTER_MODE_HOST);
    tcsSetStream(fx.handle, NULL);
    return 0;
}

static void upload(void* dst, const void* src, size_t bytes) {
    if (bytes > 0) CUDA_OK(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
}

/* ---- one product ---------------------------------------------------------------- */

typedef struct {
    int type;            /* index into TYPES */
    int trans;           /* op(A) = A^T */
    int base;            /* index base of A */
    int device_scalars;  /* alpha and beta in device memory */
    double alpha, beta;  /* beta == 0: y starts as NaN */
    tcsSpMVAlg_t alg;
    int preprocess;      /* tcsSpMV_preprocess before the call */
    int misalign;        /* x and y one element past a 256-byte boundary */
    int wide;            /* A's row offsets and columns are TCS_INDEX_64I */
} spmv_case;

static spmv_case plain_case(int type) {
    spmv_case c;
    memset(&c, 0, sizeof c);
    c.type = type;
    c.alpha = 1.0;
    c.alg = TCS_SPMV_ALG_DEFAULT;
    c.preprocess = 1;
    return c;
}

/* A on the device (values of type ax) and its descriptor. */
typedef struct {
    void *rp, *ci;
    void* val;
    tcsConstSpMatDescr_t descr;
} device_matrix;

/* wide: the indices as TCS_INDEX_64I. */
static device_matrix upload_matrix(const tcst_csr* a, int base, cudaDataType type, int wide) {
    device_matrix d;
    assert_int_equal(tcst_csr_upload_indices(a, base, wide, &d.rp, &d.ci), 0);
    if (d.rp) held[n_held++] = d.rp;
    if (d.ci) held[n_held++] = d.ci;
    const size_t vs = tcst_value_size(type);
    void* host = xmalloc((size_t)a->nnz * vs);
    for (int64_t e = 0; e < a->nnz; ++e) tcst_value_put(host, (size_t)e, type, a->val[e]);
    d.val = a->nnz > 0 ? device((size_t)a->nnz * vs) : NULL;
    upload(d.val, host, (size_t)a->nnz * vs);
    free(host);
    const tcsIndexType_t it = wide ? TCS_INDEX_64I : TCS_INDEX_32I;
    assert_ok(tcsCreateConstCsr(&d.descr, a->rows, a->cols, a->nnz, d.rp, d.ci, d.val, it, it,
                                base ? TCS_INDEX_BASE_ONE : TCS_INDEX_BASE_ZERO, type));
    return d;
}

/* A random vector of n values of `type`, rounded to it (host copy in double). */
static double* random_vector(int64_t n, cudaDataType type) {
    double* v = (double*)xmalloc((size_t)n * sizeof(double));
    for (int64_t i = 0; i < n; ++i) v[i] = tcst_value_rounded(tcst_rng_symmetric(&fx.rng), type);
    return v;
}

/* A device vector holding v (or poison for NULL), at `offset` elements into its
 * allocation. */
static void* vector_on_device(const double* v, int64_t n, cudaDataType type, int offset) {
    const size_t vs = tcst_value_size(type);
    char* base = (char*)device((size_t)(n + offset) * vs);
    char* at = base + (size_t)offset * vs;
    if (v != NULL) {
        void* host = xmalloc((size_t)n * vs);
        for (int64_t i = 0; i < n; ++i) tcst_value_put(host, (size_t)i, type, v[i]);
        upload(at, host, (size_t)n * vs);
        free(host);
    }
    return at;
}

/* The y the GPU computed, in double. */
typedef struct {
    int64_t m;
    double* y;
    void* raw; /* the bytes, for bitwise comparisons */
    size_t bytes;
} outcome;

static void outcome_free(outcome* o) {
    free(o->y), free(o->raw);
    memset(o, 0, sizeof *o);
}

/* Runs y = alpha*op(A)*x + beta*y0 on the GPU with the case's options; A's values are
 * a's rounded to the type (a is changed in place to hold them). `given`: A already on
 * the device; `kept`: a buffer to use again (allocated on the first call). */
static outcome run_spmv(tcst_csr* a, const spmv_case* c, const double* x, const double* y0,
                        const device_matrix* given, void** kept) {
    const types_t* t = &TYPES[c->type];
    for (int64_t e = 0; e < a->nnz; ++e) a->val[e] = tcst_value_rounded(a->val[e], t->ax);
    const int64_t m = c->trans ? a->cols : a->rows, k = c->trans ? a->rows : a->cols;
    const device_matrix d = given != NULL ? *given : upload_matrix(a, c->base, t->ax, c->wide);
    const int offset = c->misalign ? 1 : 0;
    void* dx = vector_on_device(x, k, t->ax, offset);
    void* dy = vector_on_device(c->beta != 0.0 ? y0 : NULL, m, t->y, offset);
    tcsConstDnVecDescr_t vx = NULL;
    tcsDnVecDescr_t vy = NULL;
    assert_ok(tcsCreateConstDnVec(&vx, k, dx, t->ax));
    assert_ok(tcsCreateDnVec(&vy, m, dy, t->y));

    double scalars_d[2] = {c->alpha, c->beta};
    float scalars_f[2] = {(float)c->alpha, (float)c->beta};
    const void* host_scalars = t->compute == CUDA_R_64F ? (const void*)scalars_d : (const void*)scalars_f;
    const size_t ss = tcst_value_size(t->compute);
    const void *alpha = host_scalars, *beta = (const char*)host_scalars + ss;
    if (c->device_scalars) {
        void* ds = device(2 * ss);
        upload(ds, host_scalars, 2 * ss);
        alpha = ds, beta = (const char*)ds + ss;
        assert_ok(tcsSetPointerMode(fx.handle, TCS_POINTER_MODE_DEVICE));
    }
    const tcsOperation_t op = c->trans ? TCS_OPERATION_TRANSPOSE : TCS_OPERATION_NON_TRANSPOSE;
    size_t bytes = 0, again = 0;
    assert_ok(tcsSpMV_bufferSize(fx.handle, op, alpha, d.descr, vx, beta, vy, t->compute, c->alg, &bytes));
    assert_ok(tcsSpMV_bufferSize(fx.handle, op, alpha, d.descr, vx, beta, vy, t->compute, c->alg, &again));
    assert_int_equal(bytes, again);
    void* buffer = kept != NULL && *kept != NULL ? *kept : bytes > 0 ? device(bytes) : NULL;
    if (kept != NULL) *kept = buffer;
    if (c->preprocess)
        assert_ok(tcsSpMV_preprocess(fx.handle, op, alpha, d.descr, vx, beta, vy, t->compute, c->alg, buffer));
    assert_ok(tcsSpMV(fx.handle, op, alpha, d.descr, vx, beta, vy, t->compute, c->alg, buffer));
    CUDA_OK(cudaDeviceSynchronize());
    assert_ok(tcsSetPointerMode(fx.handle, TCS_POINTER_MODE_HOST));

    outcome o;
    o.m = m;
    o.bytes = (size_t)m * tcst_value_size(t->y);
    o.raw = xmalloc(o.bytes);
    assert_int_equal(tcst_device_download(o.raw, dy, o.bytes), 0);
    o.y = (double*)xmalloc((size_t)m * sizeof(double));
    for (int64_t i = 0; i < m; ++i) o.y[i] = tcst_value_get(o.raw, (size_t)i, t->y);
    tcsDestroyDnVec(vx);
    tcsDestroyDnVec(vy);
    if (given == NULL) tcsDestroySpMat(d.descr);
    return o;
}

/* y against alpha*op(A)*x + beta*y0 in double, entry by entry. */
static void check_y(const char* name, const tcst_csr* a, const spmv_case* c, const double* x,
                    const double* y0, const outcome* o) {
    const types_t* t = &TYPES[c->type];
    const int64_t m = o->m;
    double* ref = (double*)calloc((size_t)(m > 0 ? m : 1), sizeof(double));
    double* mag = (double*)calloc((size_t)(m > 0 ? m : 1), sizeof(double));
    assert_true(ref != NULL && mag != NULL);
    for (int64_t i = 0; i < a->rows; ++i)
        for (int e = a->row_ptr[i]; e < a->row_ptr[i + 1]; ++e) {
            const int64_t j = a->col_idx[e];
            const int64_t out = c->trans ? j : i, in = c->trans ? i : j;
            ref[out] += a->val[e] * x[in];
            mag[out] += fabs(a->val[e] * x[in]);
        }
    /* the scalars as the GPU sees them: in the compute type */
    const double alpha = tcst_value_rounded(c->alpha, t->compute);
    const double beta = tcst_value_rounded(c->beta, t->compute);
    for (int64_t i = 0; i < m; ++i) {
        ref[i] = alpha * ref[i] + (beta != 0.0 ? beta * y0[i] : 0.0);
        mag[i] = fabs(alpha) * mag[i] + (beta != 0.0 ? fabs(beta * y0[i]) : 0.0);
        /* an fp16 or bf16 y also holds the rounding of the result itself */
        const double slack = t->y == CUDA_R_16F ? 6e-8 : 0.0;
        const double err = fabs(o->y[i] - ref[i]);
        if (!(err <= t->tol * mag[i] + slack + 1e-300))
            fail_msg("%s (%s, op %s, base %d, alpha %g, beta %g, alg %d): y[%lld] = %.17g, "
                     "reference %.17g (magnitude %g)",
                     name, t->name, c->trans ? "T" : "N", c->base, c->alpha, c->beta, (int)c->alg,
                     (long long)i, o->y[i], ref[i], mag[i]);
    }
    free(ref), free(mag);
}

/* One case: fresh x and y0, the run, the check. */
static void check_case(const char* name, tcst_csr* a, const spmv_case* c) {
    const types_t* t = &TYPES[c->type];
    const int64_t m = c->trans ? a->cols : a->rows, k = c->trans ? a->rows : a->cols;
    double* x = random_vector(k, t->ax);
    double* y0 = random_vector(m, t->y);
    outcome o = run_spmv(a, c, x, y0, NULL, NULL);
    check_y(name, a, c, x, y0, &o);
    outcome_free(&o);
    free(x), free(y0);
    release_all(NULL);
}

/* Every type, both ops, scalars and bases in turn, on one matrix. */
static void sweep(const char* name, const tcst_csr* original) {
    for (int type = 0; type < TYPE_COUNT; ++type)
        for (int trans = 0; trans < 2; ++trans) {
            tcst_csr a;
            assert_int_equal(tcst_csr_copy(original, &a), 0);
            spmv_case c = plain_case(type);
            c.trans = trans;
            c.base = (type + trans) % 2;
            c.device_scalars = type % 3 == 1;
            c.alpha = trans ? -1.5 : 2.0;
            c.beta = type % 2 == 0 ? 0.0 : 0.5;
            c.misalign = type == FP32 && trans;
            c.preprocess = type != FP64;
            check_case(name, &a, &c);
            if (trans) { /* DEFAULT scattered above (but for 16-bit y): the copy too */
                c.alg = TCS_SPMV_CSR_ALG2;
                c.preprocess = !c.preprocess;
                check_case(name, &a, &c);
            }
            tcst_csr_free(&a);
        }
}

/* rows x cols, rows empty with probability p_empty, else 1..max_len entries; every
 * `long_every`-th row (0: none) has long_len entries. Columns distinct, unsorted. */
static void gen(tcst_csr* out, int64_t rows, int64_t cols, int max_len, double p_empty,
                int long_every, int long_len) {
    int64_t nnz = 0;
    int* len = (int*)xmalloc((size_t)(rows > 0 ? rows : 1) * sizeof(int));
    for (int64_t i = 0; i < rows; ++i) {
        len[i] = tcst_rng_uniform(&fx.rng) < p_empty ? 0 : 1 + (int)tcst_rng_below(&fx.rng, (uint64_t)max_len);
        if (long_every > 0 && i % long_every == long_every / 2) len[i] = long_len;
        if (len[i] > cols) len[i] = (int)cols;
        nnz += len[i];
    }
    assert_int_equal(tcst_csr_alloc(out, rows, cols, nnz), 0);
    int* pool = (int*)xmalloc((size_t)(cols > 0 ? cols : 1) * sizeof(int));
    for (int64_t j = 0; j < cols; ++j) pool[j] = (int)j;
    for (int64_t i = 0; i < rows; ++i) {
        const int start = out->row_ptr[i];
        for (int e = 0; e < len[i]; ++e) { /* partial Fisher-Yates: distinct columns */
            const int pick = e + (int)tcst_rng_below(&fx.rng, (uint64_t)(cols - e));
            const int keep = pool[e];
            pool[e] = pool[pick];
            pool[pick] = keep;
            out->col_idx[start + e] = pool[e];
            out->val[start + e] = tcst_rng_symmetric(&fx.rng);
        }
        out->row_ptr[i + 1] = start + len[i];
    }
    free(len), free(pool);
}

/* ---- tests ---------------------------------------------------------------------- */

static void test_shapes_and_edges(void** state) {
    (void)state;
    const struct {
        const char* name;
        int64_t rows, cols;
        int max_len;
        double p_empty;
    } shapes[] = {
        {"1 x 1", 1, 1, 1, 0.0},          {"m = 0", 0, 7, 1, 0.0},
        {"k = 0", 9, 0, 1, 0.0},          {"nnz = 0", 13, 11, 1, 1.0},
        {"one row", 1, 300, 40, 0.0},     {"one column", 250, 1, 1, 0.3},
        {"tall", 1003, 37, 9, 0.2},       {"wide", 29, 2011, 60, 0.1},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
        tcst_csr a;
        gen(&a, shapes[i].rows, shapes[i].cols, shapes[i].max_len, shapes[i].p_empty, 0, 0);
        sweep(shapes[i].name, &a);
        tcst_csr_free(&a);
    }
}

static void test_long_rows_and_empty_rows(void** state) {
    (void)state;
    tcst_csr a;
    const int64_t m = fx.quick ? 3000 : 60000;
    gen(&a, m, m / 2 + 5, 12, 0.3, fx.quick ? 700 : 3000, fx.quick ? 1500 : 9000);
    sweep("long and empty rows", &a);
    tcst_csr_free(&a);
}

static void test_alpha_zero_and_nan_y(void** state) {
    (void)state;
    tcst_csr a;
    gen(&a, 400, 350, 20, 0.1, 0, 0);
    for (int type = 0; type < TYPE_COUNT; ++type) {
        spmv_case c = plain_case(type);
        c.alpha = 0.0;
        c.beta = -2.0; /* y = beta * y0 */
        check_case("alpha == 0", &a, &c);
        c.alpha = 1.0;
        c.beta = 0.0; /* y starts as NaN and must be overwritten */
        check_case("beta == 0 over NaN", &a, &c);
    }
    tcst_csr_free(&a);
}

static void test_generators(void** state) {
    (void)state;
    tcst_csr s, r, b;
    assert_int_equal(tcst_gen_stencil27(fx.quick ? 12 : 40, 20, 17, 3, fx.seed + 1, &s), 0);
    assert_int_equal(tcst_gen_rmat(fx.quick ? 10 : 15, 12, 0.57, 0.19, 0.19, fx.seed + 2, &r), 0);
    assert_int_equal(tcst_gen_banded(fx.quick ? 5000 : 200001, 4, fx.seed + 3, &b), 0);
    sweep("stencil27 dof 3", &s);
    sweep("rmat", &r);
    sweep("banded", &b);
    tcst_csr_free(&s), tcst_csr_free(&r), tcst_csr_free(&b);
}

/* tcsSpMV_bufferSize for the case, with host scalars. */
static size_t spmv_buffer_bytes(const tcst_csr* a, const spmv_case* c) {
    const types_t* t = &TYPES[c->type];
    const int64_t m = c->trans ? a->cols : a->rows, k = c->trans ? a->rows : a->cols;
    const device_matrix d = upload_matrix(a, c->base, t->ax, c->wide);
    void* dx = vector_on_device(NULL, k, t->ax, 0);
    void* dy = vector_on_device(NULL, m, t->y, 0);
    tcsConstDnVecDescr_t vx = NULL;
    tcsDnVecDescr_t vy = NULL;
    assert_ok(tcsCreateConstDnVec(&vx, k, dx, t->ax));
    assert_ok(tcsCreateDnVec(&vy, m, dy, t->y));
    const double scalars_d[2] = {c->alpha, c->beta};
    const float scalars_f[2] = {(float)c->alpha, (float)c->beta};
    const int wide_scalars = t->compute == CUDA_R_64F;
    size_t bytes = 1;
    assert_ok(tcsSpMV_bufferSize(fx.handle, c->trans ? TCS_OPERATION_TRANSPOSE : TCS_OPERATION_NON_TRANSPOSE,
                                 wide_scalars ? (const void*)&scalars_d[0] : (const void*)&scalars_f[0], d.descr, vx,
                                 wide_scalars ? (const void*)&scalars_d[1] : (const void*)&scalars_f[1], vy,
                                 t->compute, c->alg, &bytes));
    tcsDestroyDnVec(vx), tcsDestroyDnVec(vy), tcsDestroySpMat(d.descr);
    return bytes;
}

/* The three CSR algorithms, with and without preprocess, twice each: one y, bitwise
 * (CSR_ALG2 first), and the same bits as tcsSpMM with one row-major column. With op T,
 * DEFAULT and CSR_ALG1 without preprocess scatter with atomics: each y within the
 * reference's tolerance instead. */
static void test_bitwise_same(void** state) {
    (void)state;
    tcst_csr a;
    gen(&a, fx.quick ? 2000 : 30000, fx.quick ? 1800 : 25000, 30, 0.05, 97, 2000);
    for (int type = FP32; type <= FP64; ++type)
        for (int trans = 0; trans < 2; ++trans) {
            const types_t* t = &TYPES[type];
            const int64_t m = trans ? a.cols : a.rows, k = trans ? a.rows : a.cols;
            double* x = random_vector(k, t->ax);
            outcome first;
            memset(&first, 0, sizeof first);
            const tcsSpMVAlg_t algs[] = {TCS_SPMV_CSR_ALG2, TCS_SPMV_ALG_DEFAULT, TCS_SPMV_CSR_ALG1};
            for (int g = 0; g < 3; ++g)
                for (int pre = 0; pre < 2; ++pre)
                    for (int rep = 0; rep < 2; ++rep) {
                        spmv_case c = plain_case(type);
                        c.trans = trans;
                        c.alg = algs[g];
                        c.preprocess = pre;
                        outcome o = run_spmv(&a, &c, x, NULL, NULL, NULL);
                        if (trans && algs[g] != TCS_SPMV_CSR_ALG2 && !pre) {
                            /* below kScatterMin nonzeros: scattered without preprocess,
                             * the copy (bitwise CSR_ALG2) after it */
                            check_y("scatter", &a, &c, x, NULL, &o);
                            outcome_free(&o);
                        } else if (first.raw == NULL) {
                            check_y("algorithms", &a, &c, x, NULL, &o);
                            first = o;
                        } else {
                            if (memcmp(first.raw, o.raw, o.bytes) != 0)
                                fail_msg("%s, op %s: alg %d, preprocess %d differs from the first run",
                                         t->name, trans ? "T" : "N", (int)algs[g], pre);
                            outcome_free(&o);
                        }
                        release_all(NULL);
                    }

            /* SpMM with B = x as a k x 1 row-major matrix: the same bits */
            const device_matrix d = upload_matrix(&a, 0, t->ax, 0);
            void* dx = vector_on_device(x, k, t->ax, 0);
            void* dc = device((size_t)m * tcst_value_size(t->y));
            tcsConstDnMatDescr_t b = NULL;
            tcsDnMatDescr_t cm = NULL;
            assert_ok(tcsCreateConstDnMat(&b, k, 1, 1, dx, t->ax, TCS_ORDER_ROW));
            assert_ok(tcsCreateDnMat(&cm, m, 1, 1, dc, t->y, TCS_ORDER_ROW));
            const double one_d = 1.0, zero_d = 0.0;
            const float one_f = 1.0f, zero_f = 0.0f;
            const void* one = type == FP64 ? (const void*)&one_d : (const void*)&one_f;
            const void* zero = type == FP64 ? (const void*)&zero_d : (const void*)&zero_f;
            const tcsOperation_t op = trans ? TCS_OPERATION_TRANSPOSE : TCS_OPERATION_NON_TRANSPOSE;
            size_t bytes = 0;
            assert_ok(tcsSpMM_bufferSize(fx.handle, op, TCS_OPERATION_NON_TRANSPOSE, one, d.descr, b,
                                         zero, cm, t->compute, TCS_SPMM_ALG_DEFAULT, &bytes));
            void* buffer = bytes > 0 ? device(bytes) : NULL;
            assert_ok(tcsSpMM(fx.handle, op, TCS_OPERATION_NON_TRANSPOSE, one, d.descr, b, zero, cm,
                              t->compute, TCS_SPMM_ALG_DEFAULT, buffer));
            void* spmm = xmalloc(first.bytes);
            assert_int_equal(tcst_device_download(spmm, dc, first.bytes), 0);
            if (memcmp(spmm, first.raw, first.bytes) != 0)
                fail_msg("%s, op %s: SpMV differs from SpMM with one column", t->name, trans ? "T" : "N");
            free(spmm);
            tcsDestroyDnMat(b), tcsDestroyDnMat(cm), tcsDestroySpMat(d.descr);
            outcome_free(&first);
            free(x);
            release_all(NULL);
        }
    tcst_csr_free(&a);
}

/* op T with DEFAULT and CSR_ALG1 from 4 Mi nonzeros on random rows (the scatter with
 * and without preprocess: its windows of rows read A far apart, test_large_local_copy
 * has the other side): a buffer that holds the partition of A's merge path (4 bytes per
 * 256 rows and nonzeros) and the transposed copy the rule might have taken (4 bytes per
 * column and 8 per nonzero at least), the same y with and without preprocess (with it
 * the warps read their start rows from the partition, without it they search), within the
 * reference's tolerance, every value type, both bases, 32- and 64-bit indices, device
 * scalars and beta != 0. Two matrices: rows of 0-19 entries (rows found by the window of
 * row ends) and of 1-100 (mean about 50: rows found by the walk), with a few rows of
 * tens of thousands in each (many warps' parts inside one row). */
static void test_large_scatter(void** state) {
    (void)state;
    if (fx.quick) return; /* a size, not a path, that the sanitizer run can leave out */
    tcst_csr originals[2];
    gen(&originals[0], 560000, 390000, 19, 0.2, 50000, 30000); /* about 4.8 million entries */
    gen(&originals[1], 90000, 70000, 100, 0.0, 20000, 40000);  /* about 4.7 million */
    for (int shape = 0; shape < 2; ++shape) {
        const tcst_csr* original = &originals[shape];
        assert_true(original->nnz >= (int64_t)4 << 20);
        const double mean = (double)original->nnz / (double)original->rows;
        assert_true(shape == 0 ? mean < 32.0 : mean >= 32.0); /* rules.hpp's kScatterWalkMeanRow */
        for (int type = 0; type < TYPE_COUNT; ++type) {
            tcst_csr a;
            assert_int_equal(tcst_csr_copy(original, &a), 0);
            spmv_case c = plain_case(type);
            c.trans = 1;
            c.alg = type % 2 ? TCS_SPMV_CSR_ALG1 : TCS_SPMV_ALG_DEFAULT;
            c.base = (type + shape) % 2;
            c.wide = (type + shape) % 3 == 0;
            c.device_scalars = type == FP64;
            c.alpha = 0.75;
            c.beta = type % 3 == 0 ? 0.0 : -0.5;
            const size_t bytes = spmv_buffer_bytes(&a, &c);
            const types_t* t = &TYPES[type];
            const int scatters = t->y == CUDA_R_32F || t->y == CUDA_R_64F;
            if (scatters) {
                const size_t partition = 4 * ((size_t)(a.rows + a.nnz) / 256 + 2);
                const size_t copy = 4 * ((size_t)a.cols + 1 + 2 * (size_t)a.nnz);
                if (bytes < partition + copy)
                    fail_msg("%s, large op T: buffer %zu bytes, the partition and the copy take %zu",
                             t->name, bytes, partition + copy);
            }
            for (int pre = 0; pre < 2; ++pre) {
                c.preprocess = pre;
                check_case(shape == 0 ? "large, op T, short rows" : "large, op T, long rows", &a, &c);
            }
            tcst_csr_free(&a);
        }
    }
    tcst_csr_free(&originals[0]);
    tcst_csr_free(&originals[1]);
}

/* op T with DEFAULT and CSR_ALG1 from 4 Mi nonzeros after preprocess: the transposed
 * copy where its windows of 32 rows read A close together (cpp/spmm/csr/rules.hpp,
 * copy_reads_locally): on a band of half-width 4 (470,000 rows of 9, about 4.2 million
 * entries) the y is bitwise CSR_ALG2's, twice; the scatter where they do not (uniform
 * random rows of 4 over 1,100,000 columns): within the reference. Without preprocess both
 * scatter: within the reference. fp32 and fp64, bases 0 and 1, 32- and 64-bit indices,
 * beta 0 and != 0. */
static void test_large_local_copy(void** state) {
    (void)state;
    if (fx.quick) return; /* a size, not a path, that the sanitizer run can leave out */
    tcst_csr originals[2];
    assert_int_equal(tcst_gen_banded(470000, 4, fx.seed, &originals[0]), 0);
    assert_int_equal(tcst_gen_uniform(1100000, 1100000, 4, fx.seed + 1, &originals[1]), 0);
    for (int shape = 0; shape < 2; ++shape) {
        assert_true(originals[shape].nnz >= (int64_t)4 << 20);
        for (int type = FP32; type <= FP64; ++type) {
            const types_t* t = &TYPES[type];
            tcst_csr a;
            assert_int_equal(tcst_csr_copy(&originals[shape], &a), 0);
            spmv_case c = plain_case(type);
            c.trans = 1;
            c.base = (type + shape) % 2;
            c.wide = type == FP64;
            c.alpha = -1.25;
            c.beta = type == FP32 ? 0.0 : 0.5;
            double* x = random_vector(a.rows, t->ax);
            double* y0 = random_vector(a.cols, t->y);
            c.alg = TCS_SPMV_CSR_ALG2;
            outcome copy = run_spmv(&a, &c, x, y0, NULL, NULL);
            check_y("large op T, CSR_ALG2", &a, &c, x, y0, &copy);
            release_all(NULL);
            for (int pre = 1; pre >= 0; --pre)
                for (int rep = 0; rep < 2; ++rep) {
                    c.alg = rep == 0 ? TCS_SPMV_ALG_DEFAULT : TCS_SPMV_CSR_ALG1;
                    c.preprocess = pre;
                    outcome o = run_spmv(&a, &c, x, y0, NULL, NULL);
                    check_y(shape == 0 ? "large op T, band" : "large op T, random rows", &a, &c, x,
                            y0, &o);
                    if (shape == 0 && pre && memcmp(copy.raw, o.raw, o.bytes) != 0)
                        fail_msg("%s, band, alg %d after preprocess: y differs from CSR_ALG2's (the "
                                 "copy was expected)", t->name, (int)c.alg);
                    outcome_free(&o);
                    release_all(NULL);
                }
            outcome_free(&copy);
            free(x), free(y0);
            tcst_csr_free(&a);
        }
    }
    tcst_csr_free(&originals[0]);
    tcst_csr_free(&originals[1]);
}

/* 64-bit indices (TCS_INDEX_64I row offsets and columns): every type, both ops and
 * both bases give bitwise the y of 32-bit indices, within the reference's tolerance.
 * The matrix has long and very long rows, so that the long-row lists and the
 * transposed copy's build read the 64-bit arrays too. */
static void test_index64(void** state) {
    (void)state;
    tcst_csr original;
    gen(&original, fx.quick ? 3000 : 20000, fx.quick ? 2600 : 17000, 24, 0.05, 211,
        fx.quick ? 2500 : 16000);
    for (int type = 0; type < TYPE_COUNT; ++type)
        for (int trans = 0; trans < 2; ++trans)
            for (int base = 0; base < 2; ++base) {
                tcst_csr a;
                assert_int_equal(tcst_csr_copy(&original, &a), 0);
                const types_t* t = &TYPES[type];
                spmv_case c = plain_case(type);
                c.trans = trans;
                c.base = base;
                c.alpha = -1.25;
                c.beta = (type + base) % 2 == 0 ? 0.0 : 0.75;
                c.preprocess = (trans + base) % 2;
                c.alg = trans ? TCS_SPMV_CSR_ALG2 : TCS_SPMV_ALG_DEFAULT; /* bitwise: no atomics */
                const int64_t m = trans ? a.cols : a.rows, k = trans ? a.rows : a.cols;
                double* x = random_vector(k, t->ax);
                double* y0 = random_vector(m, t->y);
                outcome narrow = run_spmv(&a, &c, x, y0, NULL, NULL);
                c.wide = 1;
                outcome wide = run_spmv(&a, &c, x, y0, NULL, NULL);
                check_y("64-bit indices", &a, &c, x, y0, &wide);
                if (memcmp(narrow.raw, wide.raw, narrow.bytes) != 0)
                    fail_msg("%s, op %s, base %d: 64-bit indices differ from 32-bit ones", t->name,
                             trans ? "T" : "N", base);
                outcome_free(&narrow), outcome_free(&wide);
                if (trans) { /* the scatter reads the 64-bit arrays as stored */
                    c.alg = TCS_SPMV_ALG_DEFAULT;
                    c.preprocess = 0; /* below 4 Mi nonzeros only a call without it scatters */
                    wide = run_spmv(&a, &c, x, y0, NULL, NULL);
                    check_y("64-bit indices, scatter", &a, &c, x, y0, &wide);
                    outcome_free(&wide);
                }
                free(x), free(y0);
                tcst_csr_free(&a);
                release_all(NULL);
            }
    tcst_csr_free(&original);
}

/* op T with CSR_ALG2 reads A's values in place through the transposed copy's permutation
 * (no gather into the copy; cpp/spmm/csr/rules.hpp, reads_transpose_in_place): every
 * y, with and without preprocess, twice each, with 32- and 64-bit indices and index
 * base 0 and 1, is bitwise the y of op N over A^T formed on the host (each row in
 * ascending rows of A, the copy's order: the sums of the copy with gathered values) and
 * meets the reference; beta == 0 over a NaN y, and beta != 0. Matrices with empty, long
 * and very long rows of A^T (the long-row blocks and parts read the values in place too)
 * and, but in the quick run, one of about 1.5 million entries. */
static void test_alg2_transpose_in_place(void** state) {
    (void)state;
    tcst_csr originals[2];
    /* few rows of A: A^T's rows (A's columns) hold up to about 1000 entries */
    gen(&originals[0], fx.quick ? 3000 : 12000, fx.quick ? 400 : 700, 40, 0.1, 53,
        fx.quick ? 350 : 650);
    gen(&originals[1], fx.quick ? 20000 : 200000, fx.quick ? 18000 : 180000, 14, 0.05, 0, 0);
    for (int shape = 0; shape < 2; ++shape)
        for (int type = FP32; type <= FP64; ++type)
            for (int wide = 0; wide < 2; ++wide)
                for (int base = 0; base < 2; ++base) {
                    const types_t* t = &TYPES[type];
                    tcst_csr a, at;
                    assert_int_equal(tcst_csr_copy(&originals[shape], &a), 0);
                    assert_int_equal(tcst_csr_transpose(&a, &at), 0);
                    spmv_case c = plain_case(type);
                    c.trans = 1;
                    c.alg = TCS_SPMV_CSR_ALG2;
                    c.base = base;
                    c.wide = wide;
                    c.alpha = -0.75;
                    c.beta = (shape + type + base) % 2 ? 0.5 : 0.0;
                    const int64_t m = a.cols, k = a.rows;
                    double* x = random_vector(k, t->ax);
                    double* y0 = random_vector(m, t->y);
                    spmv_case n = c; /* op N over the host's A^T, 32-bit indices */
                    n.trans = 0;
                    n.wide = 0;
                    n.alg = TCS_SPMV_ALG_DEFAULT;
                    outcome direct = run_spmv(&at, &n, x, y0, NULL, NULL);
                    release_all(NULL);
                    for (int pre = 0; pre < 2; ++pre)
                        for (int rep = 0; rep < 2; ++rep) {
                            c.preprocess = pre;
                            outcome o = run_spmv(&a, &c, x, y0, NULL, NULL);
                            check_y("ALG2 op T in place", &a, &c, x, y0, &o);
                            if (memcmp(direct.raw, o.raw, o.bytes) != 0)
                                fail_msg("%s, shape %d, %s indices, base %d, preprocess %d, run %d: "
                                         "ALG2 op T differs from op N over the host's A^T",
                                         t->name, shape, wide ? "64-bit" : "32-bit", base, pre, rep);
                            outcome_free(&o);
                            release_all(NULL);
                        }
                    outcome_free(&direct);
                    free(x), free(y0);
                    tcst_csr_free(&a), tcst_csr_free(&at);
                }
    tcst_csr_free(&originals[0]);
    tcst_csr_free(&originals[1]);
}

/* tcsSpMV_bufferSize's status for A of an index-type case. */
static tcsStatus_t spmv_size_status(tcsConstSpMatDescr_t a, int64_t side, int trans,
                                    void* arrays) {
    const float one = 1.0f, zero = 0.0f;
    tcsConstDnVecDescr_t x = NULL;
    tcsDnVecDescr_t y = NULL;
    assert_ok(tcsCreateConstDnVec(&x, side, arrays, CUDA_R_32F));
    assert_ok(tcsCreateDnVec(&y, side, arrays, CUDA_R_32F));
    size_t bytes = 0;
    const tcsStatus_t got = tcsSpMV_bufferSize(
        fx.handle, trans ? TCS_OPERATION_TRANSPOSE : TCS_OPERATION_NON_TRANSPOSE, &one, a, x,
        &zero, y, CUDA_R_32F, TCS_SPMV_ALG_DEFAULT, &bytes);
    tcsDestroyDnVec(x), tcsDestroyDnVec(y);
    return got;
}

/* The index types of tcst_index_types.h get their statuses, with either opA. */
static void test_index_type_statuses(void** state) {
    (void)state;
    tcst_check_index_cases(device(1024), spmv_size_status);
}

/* Preprocess once, then new values in A's array (the same pattern) and SpMV with the
 * same buffer: the analysis is reused and y follows the new values. */
static void test_preprocess_then_new_values(void** state) {
    (void)state;
    tcst_csr a;
    gen(&a, 5000, 4000, 16, 0.1, 500, 3000);
    for (int type = FP32; type <= FP64; ++type) {
        const types_t* t = &TYPES[type];
        spmv_case c = plain_case(type);
        c.trans = type == FP64;
        const int64_t k = c.trans ? a.rows : a.cols;
        const device_matrix d = upload_matrix(&a, 0, t->ax, 0);
        double* x = random_vector(k, t->ax);
        void* buffer = NULL;
        outcome o = run_spmv(&a, &c, x, NULL, &d, &buffer);
        check_y("before new values", &a, &c, x, NULL, &o);
        outcome_free(&o);
        void* host = xmalloc((size_t)a.nnz * tcst_value_size(t->ax));
        for (int64_t e = 0; e < a.nnz; ++e) {
            a.val[e] = tcst_value_rounded(tcst_rng_symmetric(&fx.rng), t->ax);
            tcst_value_put(host, (size_t)e, t->ax, a.val[e]);
        }
        upload(d.val, host, (size_t)a.nnz * tcst_value_size(t->ax));
        free(host);
        c.preprocess = 0; /* the analysis of the first call stays active on A */
        o = run_spmv(&a, &c, x, NULL, &d, &buffer);
        check_y("new values", &a, &c, x, NULL, &o);
        outcome_free(&o);
        free(x);
        tcsDestroySpMat(d.descr);
        release_all(NULL);
    }
    tcst_csr_free(&a);
}

/* Preprocess outside, SpMV (fp32, DEFAULT) captured into a CUDA graph and replayed: the
 * same bits as a direct call. op N on rows with long ones; op T on a band of 4 Mi
 * nonzeros and more, where the preprocessed call takes the transposed copy
 * (test_large_local_copy). */
static void capture_and_compare(const tcst_csr* a, tcsOperation_t op) {
    const int trans = op != TCS_OPERATION_NON_TRANSPOSE;
    const int64_t m = trans ? a->cols : a->rows, k = trans ? a->rows : a->cols;
    const types_t* t = &TYPES[FP32];
    const device_matrix d = upload_matrix(a, 0, t->ax, 0);
    double* x = random_vector(k, t->ax);
    void* dx = vector_on_device(x, k, t->ax, 0);
    void* dy = vector_on_device(NULL, m, t->y, 0);
    tcsConstDnVecDescr_t vx = NULL;
    tcsDnVecDescr_t vy = NULL;
    assert_ok(tcsCreateConstDnVec(&vx, k, dx, t->ax));
    assert_ok(tcsCreateDnVec(&vy, m, dy, t->y));
    cudaStream_t stream;
    CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    assert_ok(tcsSetStream(fx.handle, stream));
    const float one = 1.0f, zero = 0.0f;
    size_t bytes = 0;
    assert_ok(tcsSpMV_bufferSize(fx.handle, op, &one, d.descr, vx, &zero, vy, CUDA_R_32F,
                                 TCS_SPMV_ALG_DEFAULT, &bytes));
    void* buffer = bytes > 0 ? device(bytes) : NULL;
    assert_ok(tcsSpMV_preprocess(fx.handle, op, &one, d.descr, vx, &zero, vy, CUDA_R_32F,
                                 TCS_SPMV_ALG_DEFAULT, buffer));
    assert_ok(tcsSpMV(fx.handle, op, &one, d.descr, vx, &zero, vy, CUDA_R_32F, TCS_SPMV_ALG_DEFAULT, buffer));
    CUDA_OK(cudaStreamSynchronize(stream));
    const size_t ybytes = (size_t)m * sizeof(float);
    void* direct = xmalloc(ybytes);
    void* replayed = xmalloc(ybytes);
    assert_int_equal(tcst_device_download(direct, dy, ybytes), 0);
    CUDA_OK(cudaMemset(dy, 0xFF, ybytes));
    CUDA_OK(cudaDeviceSynchronize());
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CUDA_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    const tcsStatus_t captured = tcsSpMV(fx.handle, op, &one, d.descr, vx, &zero, vy, CUDA_R_32F,
                                         TCS_SPMV_ALG_DEFAULT, buffer);
    CUDA_OK(cudaStreamEndCapture(stream, &graph));
    assert_ok(captured);
    CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
    CUDA_OK(cudaGraphLaunch(exec, stream));
    CUDA_OK(cudaStreamSynchronize(stream));
    assert_int_equal(tcst_device_download(replayed, dy, ybytes), 0);
    if (memcmp(direct, replayed, ybytes) != 0)
        fail_msg("op %s: the replayed graph gave another y", trans ? "T" : "N");
    CUDA_OK(cudaGraphExecDestroy(exec));
    CUDA_OK(cudaGraphDestroy(graph));
    assert_ok(tcsSetStream(fx.handle, NULL));
    CUDA_OK(cudaStreamDestroy(stream));
    free(direct), free(replayed), free(x);
    tcsDestroyDnVec(vx), tcsDestroyDnVec(vy), tcsDestroySpMat(d.descr);
}

static void test_graph_capture(void** state) {
    (void)state;
    tcst_csr a;
    gen(&a, 3000, 3000, 20, 0.05, 300, 2500);
    capture_and_compare(&a, TCS_OPERATION_NON_TRANSPOSE);
    tcst_csr_free(&a);
    if (fx.quick) return;
    release_all(NULL);
    assert_int_equal(tcst_gen_banded(470000, 4, fx.seed, &a), 0);
    capture_and_compare(&a, TCS_OPERATION_TRANSPOSE);
    tcst_csr_free(&a);
}

/* Every real Matrix Market file of the shared folder (quick: three small ones), fp32
 * and fp64, op N and T. */
static void test_matrix_market(void** state) {
    (void)state;
    tcst_mm_folder folder;
    if (tcst_mm_folder_open(&folder, NULL) != 0) {
        printf("gpu_spmv: no matrix folder %s: Matrix Market cases left out\n", folder.folder);
        return;
    }
    int done = 0, got;
    char err[256] = "";
    tcst_csr a;
    while ((got = tcst_mm_folder_next(&folder, fx.seed, &a, err, sizeof err)) != 0) {
        if (got < 0) continue;
        const char* name = folder.name;
        if (fx.quick && strncmp(name, "nos3", 4) != 0 && strncmp(name, "aa3", 3) != 0 &&
            strncmp(name, "bcsstk13", 8) != 0) {
            tcst_csr_free(&a);
            continue;
        }
        for (int type = FP32; type <= FP64; ++type)
            for (int trans = 0; trans < 2; ++trans) {
                spmv_case c = plain_case(type);
                c.trans = trans;
                c.beta = trans ? 1.0 : 0.0;
                tcst_csr copy;
                assert_int_equal(tcst_csr_copy(&a, &copy), 0);
                check_case(name, &copy, &c);
                tcst_csr_free(&copy);
            }
        tcst_csr_free(&a);
        ++done;
    }
    tcst_mm_folder_close(&folder);
    printf("gpu_spmv: %d Matrix Market files\n", done);
}

TCST_GPU_FIXTURE("gpu_spmv", fx)

int main(void) {
    if (tcst_no_gpu("gpu_spmv")) return TCST_SKIP;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_shapes_and_edges, release_all),
        cmocka_unit_test_teardown(test_long_rows_and_empty_rows, release_all),
        cmocka_unit_test_teardown(test_alpha_zero_and_nan_y, release_all),
        cmocka_unit_test_teardown(test_generators, release_all),
        cmocka_unit_test_teardown(test_bitwise_same, release_all),
        cmocka_unit_test_teardown(test_index64, release_all),
        cmocka_unit_test_teardown(test_large_scatter, release_all),
        cmocka_unit_test_teardown(test_large_local_copy, release_all),
        cmocka_unit_test_teardown(test_alg2_transpose_in_place, release_all),
        cmocka_unit_test_teardown(test_index_type_statuses, release_all),
        cmocka_unit_test_teardown(test_preprocess_then_new_values, release_all),
        cmocka_unit_test_teardown(test_graph_capture, release_all),
        cmocka_unit_test_teardown(test_matrix_market, release_all),
    };
    return tcst_run_group_tests(tests, group_setup, group_teardown);
}
