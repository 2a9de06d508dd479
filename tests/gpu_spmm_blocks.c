/* The tensor-core block SpMM (TCS_SPMM_BSR_TC, BSR matrices, and DEFAULT where it picks
 * the block family) on a GPU against the CPU reference (tcst_ref_spmm, in double),
 * through the public API: every precision (fp16 and bf16 with C of the input type or
 * fp32, fp32 on DMMA in fp64, fp32 as TF32 under TCS_TF32_TENSOR_OP_MATH, fp64), n in
 * {1, 8, 16, 33, 128}, B and C row- and column-major with ld above the minimum and
 * pointers off 16-byte alignment, opB N/T/C, index bases 0 and 1, host and device
 * alpha/beta, beta == 0 with NaN in C, alpha == 0, the generators (banded, 3-unknowns-
 * per-node stencil, random dense blocks, R-MAT, rows of very different lengths), Matrix
 * Market files, sizes that are no multiple of a block, unsorted columns, BSR input with
 * both block orders and square and rectangular blocks, preprocess then new values of A,
 * runs without preprocess (bitwise the same C), repeated runs (bitwise the same),
 * reordering forced on and off (the same up to rounding; block counts against a CPU
 * count of the same format), DEFAULT's choice, duplicate entries, CUDA graph capture,
 * and a matrix of two million rows.
 *
 * Precision asserted per entry, |x - ref| <= tol * (sum of |alpha*a*b| + |beta*C|) plus
 * half an ulp of C's type: fp64 1e-13 (DMMA sums exactly rounded fp64 products);
 * fp32 1e-6 (products and sums in fp64, one rounding to fp32); TF32 4e-3 (A and B
 * rounded to 10-bit mantissas); fp16/bf16 1e-3 with fp32 C and 1e-2 with 16-bit C
 * (exact products, fp32 accumulation). Inputs are rounded to their type first, so the
 * bound measures the arithmetic only. Outputs live in allocations of 0xFF bytes (NaN):
 * an entry left unwritten or a write outside C fails. Exits 77 (skipped) without a GPU;
 * the seed is printed and TCST_SEED=<seed> reproduces a run. TCS_TEST_QUICK=1 (the
 * compute-sanitizer run) sweeps fewer n and leaves out the large matrix. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tcs_test_support.h"
#include "tcst_shard.h"
#include "tcsparse.h"
#include "tcst_status.h"
#include "tcst_spmm_operands.h"

#include <cuda_runtime_api.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- element types -------------------------------------------------------------- */

typedef struct {
    cudaDataType ab, c, compute;
    tcsMath_t math;
    double tol;
    const char* name;
} types_t;

enum { FP16, FP16_C32, BF16, BF16_C32, FP32, TF32, FP64, TYPE_COUNT };
static const types_t TYPES[] = {
    {CUDA_R_16F, CUDA_R_16F, CUDA_R_32F, TCS_DEFAULT_MATH, 1e-2, "fp16"},
    {CUDA_R_16F, CUDA_R_32F, CUDA_R_32F, TCS_DEFAULT_MATH, 1e-3, "fp16 -> fp32 C"},
    {CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F, TCS_DEFAULT_MATH, 1e-2, "bf16"},
    {CUDA_R_16BF, CUDA_R_32F, CUDA_R_32F, TCS_DEFAULT_MATH, 1e-3, "bf16 -> fp32 C"},
    {CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, TCS_DEFAULT_MATH, 1e-6, "fp32 (on DMMA)"},
    {CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, TCS_TF32_TENSOR_OP_MATH, 4e-3, "fp32 as TF32"},
    {CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, TCS_DEFAULT_MATH, 1e-13, "fp64"},
};

/* Half an ulp of |x| in C's type: the rounding of the result itself. */
static double output_ulp(double x, cudaDataType t) {
    if (t == CUDA_R_16F) return ldexp(fabs(x), -11) + ldexp(1.0, -25);
    if (t == CUDA_R_16BF) return ldexp(fabs(x), -8);
    if (t == CUDA_R_32F) return ldexp(fabs(x), -24);
    return 0.0;
}

/* ---- fixture -------------------------------------------------------------------- */

static struct {
    tcsHandle_t handle;
    tcst_rng rng;
    uint64_t seed;
    int quick;
    const char* reorder; /* TCS_SPMM_REORDER as the process started: "0", "1" or NULL */
} fx;

static int group_setup(void** state) {
    (void)state;
    fx.seed = tcst_fresh_seed();
    printf("gpu_spmm_blocks: seed %llu (TCST_SEED=%llu reproduces)\n", (unsigned long long)fx.seed,
           (unsigned long long)fx.seed);
    tcst_rng_seed(&fx.rng, fx.seed);
    fx.quick = tcst_quick();
    /* tcsparse reads TCS_SPMM_REORDER once per process: ctest runs the reorder tests
     * again with it set to 0 and to 1 (tests/CMakeLists.txt). */
    static char reorder_at_start[8];
    const char* reorder = getenv("TCS_SPMM_REORDER");
    if (reorder != NULL) snprintf(reorder_at_start, sizeof reorder_at_start, "%s", reorder);
    fx.reorder = reorder != NULL ? reorder_at_start : NULL; /* a copy: a setenv may free it */
    return tcsCreate(&fx.handle) == TCS_STATUS_SUCCESS ? 0 : -1;
}

static int group_teardown(void** state) {
    (void)state;
    return tcsDestroy(fx.handle) == TCS_STATUS_SUCCESS ? 0 : -1;
}

static int random_below(int bound) { return (int)(tcst_rng_next(&fx.rng) % (uint64_t)bound); }

/* ---- matrices ------------------------------------------------------------------- */

static void generated(int rc) { assert_int_equal(rc, 0); }

/* Rows drawn from `patterns` column sets in random order: the signature order puts equal
 * rows together, the natural order mixes them in every window. */
static void gen_interleaved(tcst_csr* m, int64_t rows, int64_t cols, int patterns, int per_row) {
    int* sets = (int*)tcst_xmalloc((size_t)(patterns * per_row) * sizeof(int));
    for (int p = 0; p < patterns; ++p)
        for (int e = 0; e < per_row;) {
            const int c = random_below((int)cols);
            int seen = 0;
            for (int q = 0; q < e; ++q) seen |= sets[p * per_row + q] == c;
            if (seen) continue;
            /* insertion keeps the set sorted */
            int at = e++;
            while (at > 0 && sets[p * per_row + at - 1] > c) {
                sets[p * per_row + at] = sets[p * per_row + at - 1];
                --at;
            }
            sets[p * per_row + at] = c;
        }
    assert_int_equal(tcst_csr_alloc(m, rows, cols, rows * per_row), 0);
    for (int64_t i = 0; i < rows; ++i) {
        const int p = random_below(patterns);
        m->row_ptr[i + 1] = m->row_ptr[i] + per_row;
        for (int e = 0; e < per_row; ++e) {
            m->col_idx[m->row_ptr[i] + e] = sets[p * per_row + e];
            m->val[m->row_ptr[i] + e] = tcst_rng_symmetric(&fx.rng);
        }
    }
    free(sets);
}

/* Empty rows (one in five), a row of every column, rows of 1-6 random columns in random
 * order (unsorted). */
static void gen_ragged(tcst_csr* m, int64_t rows, int64_t cols) {
    int64_t nnz = 0;
    int* len = (int*)tcst_xmalloc((size_t)rows * sizeof(int));
    for (int64_t i = 0; i < rows; ++i) {
        len[i] = i == rows / 3 ? (int)cols : i % 5 == 2 ? 0 : 1 + random_below(6);
        nnz += len[i];
    }
    assert_int_equal(tcst_csr_alloc(m, rows, cols, nnz), 0);
    for (int64_t i = 0; i < rows; ++i) {
        int* row = m->col_idx + m->row_ptr[i];
        int e = 0;
        while (e < len[i]) {
            const int c = len[i] == (int)cols ? e : random_below((int)cols);
            int seen = 0;
            for (int q = 0; q < e; ++q) seen |= row[q] == c;
            if (!seen) row[e++] = c;
        }
        m->row_ptr[i + 1] = m->row_ptr[i] + len[i];
    }
    for (int64_t e = 0; e < nnz; ++e) m->val[e] = tcst_rng_symmetric(&fx.rng);
    free(len);
}

/* The matrices most tests rotate through. */
enum { BANDED, STENCIL, DENSE_BLOCKS, RMAT, RAGGED, INTERLEAVED, MATRIX_COUNT };
static void make_matrix(int which, tcst_csr* m) {
    const uint64_t s = tcst_rng_next(&fx.rng);
    switch (which) {
    case BANDED: generated(tcst_gen_banded(1000, 4, s, m)); break;
    case STENCIL: generated(tcst_gen_stencil27(6, 5, 4, 3, s, m)); break;
    case DENSE_BLOCKS: generated(tcst_gen_dense_blocks(300, 260, 8, 0.05, s, m)); break;
    case RMAT: generated(tcst_gen_rmat(10, 8, 0.57, 0.19, 0.19, s, m)); break;
    case RAGGED: gen_ragged(m, 97, 70); break;
    default: gen_interleaved(m, 330, 200, 4, 14); break;
    }
}
static const char* const MATRIX_NAMES[] = {"banded", "stencil 3 dof", "dense blocks", "rmat",
                                           "ragged", "interleaved"};

/* ---- A on the device: CSR, or BSR of the matrix's blocks ---------------------------- */

typedef struct {
    tcsSpMatDescr_t descr;
    int* rp;
    int* ci;
    void* val;
    int64_t values; /* entries of the value array */
    cudaDataType type;
    tcst_csr ref; /* what the reference multiplies: values rounded; BSR: the expanded
                   * matrix, every block element an entry */
} device_a;

static void* upload(const void* host, size_t bytes) {
    void* dev = NULL;
    if (bytes == 0) return NULL;
    CUDA_OK(cudaMalloc(&dev, bytes));
    CUDA_OK(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice));
    return dev;
}

static void upload_values(device_a* d, const double* v) {
    void* host = tcst_xmalloc((size_t)d->values * tcst_value_size(d->type) + 1);
    for (int64_t e = 0; e < d->values; ++e) tcst_value_put(host, (size_t)e, d->type, v[e]);
    CUDA_OK(cudaMemcpy(d->val, host, (size_t)d->values * tcst_value_size(d->type),
                       cudaMemcpyHostToDevice));
    free(host);
}

static void upload_csr(device_a* d, const tcst_csr* m, int base, cudaDataType t) {
    memset(d, 0, sizeof *d);
    d->type = t;
    assert_int_equal(tcst_csr_copy(m, &d->ref), 0);
    for (int64_t e = 0; e < d->ref.nnz; ++e) d->ref.val[e] = tcst_value_rounded(d->ref.val[e], t);
    int* rp = (int*)tcst_xmalloc((size_t)(m->rows + 1) * sizeof(int));
    int* ci = (int*)tcst_xmalloc((size_t)m->nnz * sizeof(int) + 1);
    for (int64_t i = 0; i <= m->rows; ++i) rp[i] = m->row_ptr[i] + base;
    for (int64_t e = 0; e < m->nnz; ++e) ci[e] = m->col_idx[e] + base;
    d->rp = (int*)upload(rp, (size_t)(m->rows + 1) * sizeof(int));
    d->ci = (int*)upload(ci, (size_t)m->nnz * sizeof(int));
    d->values = m->nnz;
    d->val = m->nnz > 0 ? tcst_device_poisoned((size_t)m->nnz * tcst_value_size(t)) : NULL;
    if (m->nnz > 0) upload_values(d, d->ref.val);
    assert_ok(tcsCreateCsr(&d->descr, m->rows, m->cols, m->nnz, d->rp, d->ci, d->val,
                           TCS_INDEX_32I, TCS_INDEX_32I,
                           base ? TCS_INDEX_BASE_ONE : TCS_INDEX_BASE_ZERO, t));
    free(rp);
    free(ci);
}

/* The blocks of rbs x cbs holding an entry of m (rows and columns rounded up to whole
 * blocks), each block's elements row- or column-major, block columns ascending. */
static void upload_bsr(device_a* d, const tcst_csr* m, int rbs, int cbs, int row_major, int base,
                       cudaDataType t) {
    memset(d, 0, sizeof *d);
    d->type = t;
    const int64_t brows = (m->rows + rbs - 1) / rbs, bcols = (m->cols + cbs - 1) / cbs;
    int* rp = (int*)tcst_xmalloc((size_t)(brows + 1) * sizeof(int));
    int* ci = (int*)tcst_xmalloc((size_t)(m->nnz + 1) * sizeof(int));
    char* mark = (char*)tcst_xmalloc((size_t)bcols + 1);
    int64_t bnnz = 0;
    rp[0] = 0;
    for (int64_t br = 0; br < brows; ++br) {
        memset(mark, 0, (size_t)bcols + 1);
        for (int64_t i = br * rbs; i < (br + 1) * rbs && i < m->rows; ++i)
            for (int e = m->row_ptr[i]; e < m->row_ptr[i + 1]; ++e) mark[m->col_idx[e] / cbs] = 1;
        for (int64_t bc = 0; bc < bcols; ++bc)
            if (mark[bc]) ci[bnnz++] = (int)bc;
        rp[br + 1] = (int)bnnz;
    }
    const int64_t bs = (int64_t)rbs * cbs;
    d->values = bnnz * bs;
    double* v = (double*)calloc((size_t)d->values + 1, sizeof(double));
    assert_non_null(v);
    for (int64_t i = 0; i < m->rows; ++i) {
        const int64_t br = i / rbs, rr = i % rbs;
        for (int e = m->row_ptr[i]; e < m->row_ptr[i + 1]; ++e) {
            const int bc = m->col_idx[e] / cbs, cc = m->col_idx[e] % cbs;
            int b = rp[br];
            while (ci[b] != bc) ++b;
            v[b * bs + (row_major ? rr * cbs + cc : cc * rbs + rr)] =
                tcst_value_rounded(m->val[e], t);
        }
    }
    /* the expanded matrix the reference multiplies */
    assert_int_equal(tcst_csr_alloc(&d->ref, brows * rbs, bcols * cbs, d->values), 0);
    int64_t at = 0;
    for (int64_t i = 0; i < brows * rbs; ++i) {
        const int64_t br = i / rbs, rr = i % rbs;
        d->ref.row_ptr[i] = (int)at;
        for (int b = rp[br]; b < rp[br + 1]; ++b)
            for (int cc = 0; cc < cbs; ++cc) {
                d->ref.col_idx[at] = ci[b] * cbs + cc;
                d->ref.val[at++] = v[b * bs + (row_major ? rr * cbs + cc : cc * rbs + rr)];
            }
    }
    d->ref.row_ptr[brows * rbs] = (int)at;
    for (int64_t i = 0; i <= brows; ++i) rp[i] += base;
    for (int64_t b = 0; b < bnnz; ++b) ci[b] += base;
    d->rp = (int*)upload(rp, (size_t)(brows + 1) * sizeof(int));
    d->ci = (int*)upload(ci, (size_t)bnnz * sizeof(int));
    d->val = d->values > 0 ? tcst_device_poisoned((size_t)d->values * tcst_value_size(t)) : NULL;
    if (d->values > 0) upload_values(d, v);
    assert_ok(tcsCreateBsr(&d->descr, brows, bcols, bnnz, rbs, cbs, d->rp, d->ci, d->val,
                           TCS_INDEX_32I, TCS_INDEX_32I,
                           base ? TCS_INDEX_BASE_ONE : TCS_INDEX_BASE_ZERO, t,
                           row_major ? TCS_ORDER_ROW : TCS_ORDER_COL));
    free(rp);
    free(ci);
    free(mark);
    free(v);
}

static void free_a(device_a* d) {
    assert_ok(tcsDestroySpMat(d->descr));
    CUDA_OK(cudaFree(d->rp));
    CUDA_OK(cudaFree(d->ci));
    tcst_device_free(d->val);
    tcst_csr_free(&d->ref);
}

/* ---- one product ---------------------------------------------------------------- */

typedef struct {
    int type;
    int64_t n;
    tcsSpMMAlg_t alg;
    int trans_b, b_row, c_row, b_pad, c_pad, b_offset, c_offset;
    int base, device_scalars;
    double alpha, beta;
    int preprocess, new_values, plain_too;
    int bsr, rbs, cbs, block_row; /* A as BSR of rbs x cbs blocks */
    const char* matrix;
} spmm_case;

static spmm_case plain_case(int type, int64_t n) {
    spmm_case sc;
    memset(&sc, 0, sizeof sc);
    sc.type = type;
    sc.n = n;
    sc.alg = TCS_SPMM_BSR_TC;
    sc.b_row = sc.c_row = 1;
    sc.alpha = 1.25;
    sc.preprocess = 1;
    sc.matrix = "";
    return sc;
}

static const char* describe(const spmm_case* s, const char* what) {
    static char text[600];
    snprintf(text, sizeof text,
             "%s: %s, %s %s n=%lld alg=%d opB=%c B %s (pad %d, off %d) C %s (pad %d, off %d) "
             "base=%d scalars on %s alpha=%g beta=%g %s%s (seed %llu)",
             what, s->matrix, TYPES[s->type].name, s->bsr ? "BSR" : "CSR", (long long)s->n,
             (int)s->alg, s->trans_b ? 'T' : 'N', s->b_row ? "row" : "col", s->b_pad, s->b_offset,
             s->c_row ? "row" : "col", s->c_pad, s->c_offset, s->base,
             s->device_scalars ? "device" : "host", s->alpha, s->beta,
             s->preprocess ? "preprocessed" : "not preprocessed", s->new_values ? ", new values" : "",
             (unsigned long long)fx.seed);
    return text;
}

static const void* scalar_at(const tcst_scalars* s, const spmm_case* sc, int which) {
    return tcst_scalar_ptr(s, TYPES[sc->type].compute, which);
}

static tcsOperation_t op_b(const spmm_case* sc) {
    return !sc->trans_b ? TCS_OPERATION_NON_TRANSPOSE
                        : sc->c_pad & 1 ? TCS_OPERATION_CONJUGATE_TRANSPOSE : TCS_OPERATION_TRANSPOSE;
}

/* The handle set for the case (pointer mode, math mode), a call, the handle reset. */
static void handle_for(const spmm_case* sc) {
    assert_ok(tcsSetPointerMode(fx.handle, sc->device_scalars ? TCS_POINTER_MODE_DEVICE
                                                               : TCS_POINTER_MODE_HOST));
    assert_ok(tcsSetMathMode(fx.handle, TYPES[sc->type].math));
}
static void handle_reset(void) {
    assert_ok(tcsSetPointerMode(fx.handle, TCS_POINTER_MODE_HOST));
    assert_ok(tcsSetMathMode(fx.handle, TCS_DEFAULT_MATH));
}

static tcsStatus_t call(const spmm_case* sc, const tcst_scalars* s, const device_a* a,
                        tcsConstDnMatDescr_t b, tcsDnMatDescr_t c, void* buffer, int preprocess) {
    const types_t* ty = &TYPES[sc->type];
    const tcsOperation_t n = TCS_OPERATION_NON_TRANSPOSE;
    handle_for(sc);
    tcsStatus_t st = TCS_STATUS_SUCCESS;
    if (preprocess)
        st = tcsSpMM_preprocess(fx.handle, n, op_b(sc), scalar_at(s, sc, 0), a->descr, b,
                                scalar_at(s, sc, 1), c, ty->compute, sc->alg, buffer);
    if (st == TCS_STATUS_SUCCESS)
        st = tcsSpMM(fx.handle, n, op_b(sc), scalar_at(s, sc, 0), a->descr, b, scalar_at(s, sc, 1),
                     c, ty->compute, sc->alg, buffer);
    CUDA_OK(cudaDeviceSynchronize());
    handle_reset();
    return st;
}

/* Every entry of C within the bound, every byte around C's entries still 0xFF. */
static void compare(const tcst_dense* c, const unsigned char* got, const double* ref,
                    const double* mag, const types_t* ty, const char* what) {
    const size_t es = tcst_value_size(c->type);
    char* is_entry = (char*)calloc(c->count, 1);
    assert_non_null(is_entry);
    for (int64_t j = 0; j < c->cols; ++j)
        for (int64_t i = 0; i < c->rows; ++i) {
            const size_t at = tcst_dense_index(c, i, j);
            is_entry[at] = 1;
            const double x = tcst_value_get(got, at, c->type), r = ref[i + j * c->rows];
            const double bound = ty->tol * mag[i + j * c->rows] + output_ulp(r, c->type) + 1e-300;
            if (!(fabs(x - r) <= bound))
                fail_msg("%s: C(%lld,%lld) = %.17g, reference %.17g (bound %.3g)", what, (long long)i,
                         (long long)j, x, r, bound);
        }
    for (size_t at = 0; at < c->count; ++at)
        if (!is_entry[at])
            for (size_t b = 0; b < es; ++b)
                if (got[at * es + b] != 0xFF) fail_msg("%s: wrote outside C at element %zu", what, at);
    free(is_entry);
}

/* ref = alpha * A * op(B) + beta * C0 and its magnitude; op(B) given column-major k x n. */
static void reference(const tcst_csr* a, const double* opb, int64_t n, double alpha, double beta,
                      const double* c0, double* ref, double* mag) {
    const int64_t m = a->rows, k = a->cols;
    tcst_csr abs_a;
    assert_int_equal(tcst_csr_copy(a, &abs_a), 0);
    for (int64_t e = 0; e < abs_a.nnz; ++e) abs_a.val[e] = fabs(abs_a.val[e]);
    double* abs_b = (double*)tcst_xmalloc((size_t)(k * n) * sizeof(double) + 8);
    for (int64_t i = 0; i < k * n; ++i) abs_b[i] = fabs(opb[i]);
    for (int64_t i = 0; i < m * n; ++i) {
        ref[i] = c0 != NULL ? c0[i] : 0.0;
        mag[i] = c0 != NULL ? fabs(c0[i]) : 0.0;
    }
    tcst_ref_spmm(0, 0, alpha, a, opb, k, n, beta, ref, m);
    tcst_ref_spmm(0, 0, fabs(alpha), &abs_a, abs_b, k, n, fabs(beta), mag, m);
    free(abs_b);
    tcst_csr_free(&abs_a);
}

/* The whole check of one case on matrix m (0-based, double values). Returns what
 * tcsSpMM_getBlockCounts says after preprocess: 1 the block family computed, 0 the
 * blocks were counted and the CSR family computed, -1 no block analysis. */
static int check_case(const tcst_csr* m, const spmm_case* sc) {
    const types_t* ty = &TYPES[sc->type];
    device_a a;
    if (sc->bsr)
        upload_bsr(&a, m, sc->rbs, sc->cbs, sc->block_row, sc->base, ty->ab);
    else
        upload_csr(&a, m, sc->base, ty->ab);
    const int64_t rows = a.ref.rows, k = a.ref.cols, n = sc->n;
    /* op(B) = B (k x n) or B^T (B n x k) */
    const int64_t b_rows = sc->trans_b ? n : k, b_cols = sc->trans_b ? k : n;
    tcst_dense b, c;
    tcst_dense_make(&b, b_rows, b_cols, sc->b_row, sc->b_pad, sc->b_offset, ty->ab);
    double* bh = tcst_dense_fill_random(&b, &fx.rng);
    double* opb = (double*)tcst_xmalloc((size_t)(k * n) * sizeof(double) + 8);
    for (int64_t kk = 0; kk < k; ++kk)
        for (int64_t j = 0; j < n; ++j)
            opb[kk + j * k] = sc->trans_b ? bh[j + kk * b_rows] : bh[kk + j * b_rows];
    tcst_dense_upload(&b);
    tcst_dense_make(&c, rows, n, sc->c_row, sc->c_pad, sc->c_offset, ty->c);
    double* c0 = sc->beta != 0.0 ? tcst_dense_fill_random(&c, &fx.rng) : NULL; /* else NaN */
    tcst_dense_upload(&c);
    tcst_scalars s;
    tcst_scalars_make(&s, ty->compute, sc->alpha, sc->beta, sc->device_scalars);
    tcsConstDnMatDescr_t db;
    tcsDnMatDescr_t dc;
    assert_ok(tcsCreateConstDnMat(&db, b_rows, b_cols, b.ld, tcst_dense_values(&b), ty->ab,
                                  sc->b_row ? TCS_ORDER_ROW : TCS_ORDER_COL));
    assert_ok(tcsCreateDnMat(&dc, rows, n, c.ld, tcst_dense_values(&c), ty->c,
                             sc->c_row ? TCS_ORDER_ROW : TCS_ORDER_COL));
    size_t bytes = 0;
    handle_for(sc);
    assert_ok(tcsSpMM_bufferSize(fx.handle, TCS_OPERATION_NON_TRANSPOSE, op_b(sc), scalar_at(&s, sc, 0),
                                 a.descr, db, scalar_at(&s, sc, 1), dc, ty->compute, sc->alg, &bytes));
    handle_reset();
    void* buffer = tcst_device_poisoned(bytes);
    assert_true(bytes == 0 || buffer != NULL);

    const size_t mn = (size_t)(rows * n), image = c.count * tcst_value_size(ty->c);
    double* ref = (double*)tcst_xmalloc(mn * sizeof(double) + 8);
    double* mag = (double*)tcst_xmalloc(mn * sizeof(double) + 8);
    unsigned char* first = (unsigned char*)tcst_xmalloc(image);
    unsigned char* again = (unsigned char*)tcst_xmalloc(image);
    reference(&a.ref, opb, n, sc->alpha, sc->beta, c0, ref, mag);

    const tcsStatus_t st = call(sc, &s, &a, db, dc, buffer, sc->preprocess);
    if (st != TCS_STATUS_SUCCESS) fail_msg("%s: %s", describe(sc, "call"), tcsGetErrorName(st));
    CUDA_OK(cudaMemcpy(first, c.dev, image, cudaMemcpyDeviceToHost));
    compare(&c, first, ref, mag, ty, describe(sc, "first run"));
    int uses_blocks = -1;
    if (sc->preprocess) {
        int64_t br, bc, nat, re, used;
        if (tcsSpMM_getBlockCounts(a.descr, &br, &bc, &nat, &re, &used, &uses_blocks) !=
            TCS_STATUS_SUCCESS)
            uses_blocks = -1;
    }

    tcst_dense_upload(&c); /* the same call again: bitwise the same */
    assert_ok(call(sc, &s, &a, db, dc, buffer, 0));
    CUDA_OK(cudaMemcpy(again, c.dev, image, cudaMemcpyDeviceToHost));
    if (memcmp(first, again, image) != 0) fail_msg("%s", describe(sc, "a repeated run differs bitwise"));

    if (sc->plain_too) { /* a buffer preprocess never saw: bitwise the same C */
        void* fresh = tcst_device_poisoned(bytes);
        tcst_dense_upload(&c);
        assert_ok(call(sc, &s, &a, db, dc, fresh, 0));
        CUDA_OK(cudaMemcpy(again, c.dev, image, cudaMemcpyDeviceToHost));
        /* BSR_TC's preprocess handed A to the CSR family (too few nonzeros per row of
         * op(B) loaded); without preprocess the blocks compute: right, other rounding */
        if (sc->alg == TCS_SPMM_BSR_TC && !sc->bsr && uses_blocks == 0)
            compare(&c, again, ref, mag, ty, describe(sc, "run without preprocess (blocks)"));
        else if (memcmp(first, again, image) != 0)
            fail_msg("%s", describe(sc, "a run without preprocess differs bitwise"));
        tcst_device_free(fresh);
    }
    if (sc->new_values && !sc->bsr && a.values > 0) {
        /* New values, same structure and buffer: the format keeps no values. */
        for (int64_t e = 0; e < a.ref.nnz; ++e)
            a.ref.val[e] = tcst_value_rounded(tcst_rng_symmetric(&fx.rng), ty->ab);
        upload_values(&a, a.ref.val);
        reference(&a.ref, opb, n, sc->alpha, sc->beta, c0, ref, mag);
        tcst_dense_upload(&c);
        assert_ok(call(sc, &s, &a, db, dc, buffer, 0));
        CUDA_OK(cudaMemcpy(again, c.dev, image, cudaMemcpyDeviceToHost));
        compare(&c, again, ref, mag, ty, describe(sc, "run with new values of A"));
    }
    assert_ok(tcsDestroyDnMat(db));
    assert_ok(tcsDestroyDnMat(dc));
    tcst_dense_free(&b);
    tcst_dense_free(&c);
    free_a(&a);
    tcst_device_free(buffer);
    tcst_scalars_free(&s);
    free(bh);
    free(opb);
    free(c0);
    free(ref);
    free(mag);
    free(first);
    free(again);
    return uses_blocks;
}

/* Layout, scalars and preprocess drawn at random around a plain case. */
static spmm_case random_case(int type, int64_t n, const char* matrix) {
    static const int pads[] = {0, 0, 8, 3};
    spmm_case sc = plain_case(type, n);
    sc.matrix = matrix;
    sc.trans_b = random_below(3) == 0;
    sc.b_row = random_below(3) != 0;
    sc.c_row = random_below(4) != 0;
    sc.b_pad = pads[random_below(4)];
    sc.c_pad = pads[random_below(4)];
    sc.b_offset = random_below(4) == 0;
    sc.c_offset = random_below(4) == 0;
    sc.base = random_below(2);
    sc.device_scalars = random_below(2);
    sc.beta = random_below(2) ? -0.75 : 0.0;
    sc.alpha = random_below(13) == 5 ? 0.0 : 1.25;
    sc.preprocess = random_below(3) != 0;
    sc.plain_too = sc.preprocess;
    sc.new_values = sc.preprocess && random_below(2);
    return sc;
}

/* ---- tests ---------------------------------------------------------------------- */

/* Every precision at every n, over the generators, layouts drawn at random. */
static void test_precisions(void** state) {
    (void)state;
    static const int64_t all_ns[] = {1, 8, 16, 33, 128}, quick_ns[] = {8, 33};
    const int64_t* ns = fx.quick ? quick_ns : all_ns;
    const int n_count = fx.quick ? 2 : 5;
    int count = 0;
    for (int which = 0; which < MATRIX_COUNT; ++which) {
        tcst_csr m;
        make_matrix(which, &m);
        for (int type = 0; type < TYPE_COUNT; ++type)
            for (int ni = 0; ni < n_count; ++ni, ++count) {
                if ((count + which) % 2 != 0 && fx.quick) continue;
                spmm_case sc = random_case(type, ns[ni], MATRIX_NAMES[which]);
                check_case(&m, &sc);
            }
        tcst_csr_free(&m);
    }
}

/* Every combination of opB, B and C order, base and pointer mode, fp16 and fp64 on the
 * stencil, with padding and offsets: B's rows off 16-byte alignment take the element-wise
 * loads, column-wise op(B) the buffer's row-wise copy. */
static void test_layouts(void** state) {
    (void)state;
    tcst_csr m;
    make_matrix(STENCIL, &m);
    for (int type = FP16; type <= FP64; type += FP64 - FP16)
        for (int tb = 0; tb < 2; ++tb)
            for (int b_row = 0; b_row < 2; ++b_row)
                for (int c_row = 0; c_row < 2; ++c_row)
                    for (int v = 0; v < 2; ++v) {
                        spmm_case sc = plain_case(type, v ? 33 : 24);
                        sc.matrix = "stencil 3 dof";
                        sc.trans_b = tb;
                        sc.b_row = b_row;
                        sc.c_row = c_row;
                        sc.base = v;
                        sc.device_scalars = v ^ tb;
                        sc.beta = v ? 0.5 : 0.0;
                        sc.b_pad = v ? 3 : 0;
                        sc.c_pad = v ? 0 : 5;
                        sc.b_offset = v;
                        sc.c_offset = !v;
                        check_case(&m, &sc);
                    }
    tcst_csr_free(&m);
}

/* BSR input: both block orders, square and rectangular blocks, through DEFAULT,
 * cuSPARSE's BSR_ALG1 and BSR_TC, bases 0 and 1, rows and columns of the matrix no
 * multiple of the block (the blocks' extra rows and columns are explicit zeros). */
static void test_bsr(void** state) {
    (void)state;
    static const struct {
        int rbs, cbs, row_major;
    } shapes[] = {{1, 1, 1}, {2, 2, 1}, {3, 3, 0}, {4, 2, 1}, {2, 5, 0}, {8, 8, 0}};
    static const tcsSpMMAlg_t algs[] = {TCS_SPMM_ALG_DEFAULT, TCS_SPMM_BSR_ALG1, TCS_SPMM_BSR_TC};
    static const int types[] = {FP16, FP32, FP64, BF16_C32};
    tcst_csr m;
    make_matrix(STENCIL, &m);
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
        for (int t = 0; t < 4; ++t) {
            if (fx.quick && (s + (size_t)t) % 2) continue;
            spmm_case sc = random_case(types[t], t == 0 ? 33 : 16, "stencil 3 dof");
            sc.bsr = 1;
            sc.rbs = shapes[s].rbs;
            sc.cbs = shapes[s].cbs;
            sc.block_row = shapes[s].row_major;
            sc.alg = algs[(s + (size_t)t) % 3];
            sc.new_values = 0;
            check_case(&m, &sc);
        }
    tcst_csr_free(&m);
}

/* ---- block counts: the library's against the CPU's (tcst_signature_order, tcst_count_blocks) */

/* Preprocess with BSR_TC under the process's reorder setting, then the counts. */
static void counts_of(const tcst_csr* m, int64_t out[3], int* uses) {
    device_a a;
    upload_csr(&a, m, 0, CUDA_R_16F);
    tcst_dense b, c;
    tcst_dense_make(&b, m->cols, 16, 1, 0, 0, CUDA_R_16F);
    tcst_dense_make(&c, m->rows, 16, 1, 0, 0, CUDA_R_16F);
    tcsConstDnMatDescr_t db;
    tcsDnMatDescr_t dc;
    assert_ok(tcsCreateConstDnMat(&db, m->cols, 16, 16, b.dev, CUDA_R_16F, TCS_ORDER_ROW));
    assert_ok(tcsCreateDnMat(&dc, m->rows, 16, 16, c.dev, CUDA_R_16F, TCS_ORDER_ROW));
    const float one = 1.0f, zero = 0.0f;
    size_t bytes = 0;
    const tcsOperation_t op = TCS_OPERATION_NON_TRANSPOSE;
    assert_ok(tcsSpMM_bufferSize(fx.handle, op, op, &one, a.descr, db, &zero, dc, CUDA_R_32F,
                                 TCS_SPMM_BSR_TC, &bytes));
    void* buffer = tcst_device_poisoned(bytes);
    assert_ok(tcsSpMM_preprocess(fx.handle, op, op, &one, a.descr, db, &zero, dc, CUDA_R_32F,
                                 TCS_SPMM_BSR_TC, buffer));
    int64_t br = 0, bc = 0;
    assert_ok(tcsSpMM_getBlockCounts(a.descr, &br, &bc, &out[0], &out[1], &out[2], uses));
    assert_int_equal(br, 32);
    assert_int_equal(bc, 16);
    assert_ok(tcsDestroyDnMat(db));
    assert_ok(tcsDestroyDnMat(dc));
    tcst_dense_free(&b);
    tcst_dense_free(&c);
    free_a(&a);
    tcst_device_free(buffer);
}

/* The counts preprocess reports equal the CPU's, in both orders; the automatic choice
 * takes the signature order only where it saves more than 1/32 of the blocks; the
 * knob (TCS_SPMM_REORDER=0 or =1 for the process) forces either. The interleaved matrix
 * is where reordering pays, the banded one where it does not. */
static void test_reorder_block_counts(void** state) {
    (void)state;
    for (int which = 0; which < MATRIX_COUNT; ++which) {
        tcst_csr m;
        make_matrix(which, &m);
        int* order = (int*)tcst_xmalloc((size_t)m.rows * sizeof(int) + 4);
        assert_int_equal(tcst_signature_order(&m, order), 0);
        const int64_t natural = tcst_count_blocks(&m, NULL), reordered = tcst_count_blocks(&m, order);
        free(order);
        assert_true(natural >= 0 && reordered >= 0);
        int64_t got[3];
        int uses = 0;
        counts_of(&m, got, &uses);
        if (got[0] != natural || got[1] != reordered)
            fail_msg("%s: blocks %lld natural / %lld reordered, the CPU counts %lld / %lld (seed %llu)",
                     MATRIX_NAMES[which], (long long)got[0], (long long)got[1], (long long)natural,
                     (long long)reordered, (unsigned long long)fx.seed);
        const int64_t chosen = reordered + natural / 32 < natural ? reordered : natural;
        const int64_t want = fx.reorder == NULL            ? chosen
                             : strcmp(fx.reorder, "0") == 0 ? natural
                             : strcmp(fx.reorder, "1") == 0 ? reordered
                                                            : chosen;
        assert_int_equal(got[2], want);
        /* BSR_TC hands a CSR A whose blocks serve too few nonzeros per row of op(B)
         * loaded to the CSR family (select.hpp, blocks_hand_off): the band keeps the
         * blocks, the graph does not; the counts are reported either way */
        /* (forced into the signature order, the band's rows scatter over more blocks,
         * which then serve too few nonzeros: handed off too) */
        if (which == BANDED && got[2] == natural) assert_int_equal(uses, 1);
        if (which == RMAT) assert_int_equal(uses, 0);
        if (which == INTERLEAVED) assert_true(reordered < natural);
        if (which == BANDED && want == chosen) assert_true(got[2] == natural);
        printf("  %-14s blocks: %lld natural, %lld reordered\n", MATRIX_NAMES[which],
               (long long)natural, (long long)reordered);
        tcst_csr_free(&m);
    }
}

/* TCS_SPMM_REORDER is read once per process (include/tcsparse.h, "Environment"): a
 * setenv after the library's first block preprocess changes no later analysis. The
 * interleaved matrix, where the two orders give different block counts, is preprocessed
 * before and after the knob is flipped to the order the process would not use; the
 * blocks used must stay the same. A library that read the variable per call (issue 38,
 * item 4) fails here. */
static void test_reorder_read_once(void** state) {
    (void)state;
    tcst_csr m;
    make_matrix(INTERLEAVED, &m);
    int64_t before[3], after[3];
    int uses_before = -1, uses_after = -1;
    counts_of(&m, before, &uses_before);
    assert_true(before[0] != before[1]);  /* the order matters here */
    /* Ask for the order the process did not use. */
    const int used_natural = before[2] == before[0];
    assert_int_equal(setenv("TCS_SPMM_REORDER", used_natural ? "1" : "0", 1), 0);
    counts_of(&m, after, &uses_after);
    if (fx.reorder != NULL)
        assert_int_equal(setenv("TCS_SPMM_REORDER", fx.reorder, 1), 0);
    else
        assert_int_equal(unsetenv("TCS_SPMM_REORDER"), 0);
    if (after[2] != before[2])
        fail_msg("blocks used %lld before the setenv, %lld after: TCS_SPMM_REORDER was read again",
                 (long long)before[2], (long long)after[2]);
    assert_int_equal(uses_after, uses_before);
    tcst_csr_free(&m);
}

/* Reordering forced on or off (TCS_SPMM_REORDER=1 or =0 for the process; ctest runs
 * both): the result within the bound of the reference (hence the two of each other, up
 * to rounding). Without the knob the other tests cover the automatic order. */
static void test_reorder_on_off(void** state) {
    (void)state;
    if (fx.reorder == NULL) skip();
    static const int which[] = {INTERLEAVED, BANDED, RMAT};
    for (int w = 0; w < 3; ++w) {
        tcst_csr m;
        make_matrix(which[w], &m);
        for (int type = FP16_C32; type <= FP64; type += FP64 - FP16_C32) {
            spmm_case sc = random_case(type, 33, MATRIX_NAMES[which[w]]);
            check_case(&m, &sc);
        }
        tcst_csr_free(&m);
    }
}

/* DEFAULT on a CSR A: correct either way; where the build lets DEFAULT consider the
 * block family (cpp/spmm/select.hpp, kDefaultConsidersBlocks), it must take it on dense
 * blocks (every row of op(B) a block loads serves 8 nonzeros) and keep the CSR family on
 * an R-MAT graph (one or two); where it does not, no block analysis is left on A. A BSR
 * A is always computed by the block family. */
static void test_default_rule(void** state) {
    (void)state;
    /* DEFAULT analyses only matrices of 2^20 entries or more at 32 columns or more, and
     * takes the blocks where a row of op(B) serves enough nonzeros (select.hpp): the band
     * of half-width 12 (about 14 per row of op(B)) in every precision, an R-MAT graph
     * (about 1) in none; a small blocky matrix is not analysed at all. */
    tcst_csr band, graph, small;
    generated(tcst_gen_banded(48000, 12, tcst_rng_next(&fx.rng), &band));
    generated(tcst_gen_rmat(17, 10, 0.57, 0.19, 0.19, tcst_rng_next(&fx.rng), &graph));
    generated(tcst_gen_dense_blocks(4000, 4000, 8, 0.02, tcst_rng_next(&fx.rng), &small));
    assert_true(band.nnz >= (1 << 20) && graph.nnz >= (1 << 20) && small.nnz < (1 << 20));
    for (int type = FP16; type <= FP64; type += FP64 - FP16) {
        spmm_case sc = plain_case(type, 32);
        sc.alg = TCS_SPMM_ALG_DEFAULT;
        sc.matrix = "band 48000, half-width 12";
        const int on_band = check_case(&band, &sc);
        sc.matrix = "rmat 2^17";
        const int on_graph = check_case(&graph, &sc);
        sc.matrix = "dense blocks 4000";
        const int on_small = check_case(&small, &sc);
        if (on_band == -1) {
            if (on_graph != -1) fail_msg("%s", describe(&sc, "DEFAULT analysed one matrix only"));
            printf("  DEFAULT does not consider the block family in this build (CSR family)\n");
        } else {
            if (on_band != 1) fail_msg("%s", describe(&sc, "DEFAULT did not take the blocks"));
            if (on_graph != 0) fail_msg("%s", describe(&sc, "DEFAULT took the blocks"));
        }
        if (on_small != -1) fail_msg("%s", describe(&sc, "DEFAULT analysed a matrix under 2^20 entries"));
        sc.alg = TCS_SPMM_ALG_DEFAULT;
        sc.matrix = "dense blocks 4000 as BSR 8 x 8";
        sc.bsr = 1;
        sc.rbs = sc.cbs = 8;
        if (check_case(&small, &sc) != 1) fail_msg("%s", describe(&sc, "BSR not on the blocks"));
    }
    tcst_csr_free(&band);
    tcst_csr_free(&graph);
    tcst_csr_free(&small);
}

/* Unsorted columns (sorted through value_index) and rows holding a column twice: the
 * block algorithm refuses those after preprocess (NOT_SUPPORTED), DEFAULT computes them
 * with the CSR family (the duplicates summed). */
static void test_unsorted_and_duplicates(void** state) {
    (void)state;
    tcst_csr m;
    make_matrix(STENCIL, &m);
    tcst_csr_shuffle_columns(&m, tcst_rng_next(&fx.rng));
    for (int type = FP16; type < TYPE_COUNT; type += 3) {
        spmm_case sc = random_case(type, 16, "stencil, unsorted columns");
        check_case(&m, &sc);
    }
    /* a copy of m with row 5's first entry repeated at its end */
    tcst_csr d;
    assert_int_equal(tcst_csr_alloc(&d, m.rows, m.cols, m.nnz + 1), 0);
    int64_t at = 0;
    for (int64_t i = 0; i < m.rows; ++i) {
        for (int e = m.row_ptr[i]; e < m.row_ptr[i + 1]; ++e) {
            d.col_idx[at] = m.col_idx[e];
            d.val[at++] = m.val[e];
        }
        if (i == 5) {
            d.col_idx[at] = m.col_idx[m.row_ptr[5]];
            d.val[at++] = 0.5;
        }
        d.row_ptr[i + 1] = (int)at;
    }
    spmm_case sc = plain_case(FP64, 32);
    sc.matrix = "duplicate entry";
    device_a a;
    upload_csr(&a, &d, 0, CUDA_R_64F);
    tcst_dense b, c;
    tcst_dense_make(&b, d.cols, 32, 1, 0, 0, CUDA_R_64F);
    free(tcst_dense_fill_random(&b, &fx.rng));
    tcst_dense_upload(&b);
    tcst_dense_make(&c, d.rows, 32, 1, 0, 0, CUDA_R_64F);
    tcsConstDnMatDescr_t db;
    tcsDnMatDescr_t dc;
    assert_ok(tcsCreateConstDnMat(&db, d.cols, 32, 32, b.dev, CUDA_R_64F, TCS_ORDER_ROW));
    assert_ok(tcsCreateDnMat(&dc, d.rows, 32, 32, c.dev, CUDA_R_64F, TCS_ORDER_ROW));
    const double one = 1.0, zero = 0.0;
    size_t bytes = 0;
    const tcsOperation_t op = TCS_OPERATION_NON_TRANSPOSE;
    assert_ok(tcsSpMM_bufferSize(fx.handle, op, op, &one, a.descr, db, &zero, dc, CUDA_R_64F,
                                 TCS_SPMM_BSR_TC, &bytes));
    void* buffer = tcst_device_poisoned(bytes);
    assert_int_equal(tcsSpMM_preprocess(fx.handle, op, op, &one, a.descr, db, &zero, dc, CUDA_R_64F,
                                        TCS_SPMM_BSR_TC, buffer),
                     TCS_STATUS_NOT_SUPPORTED);
    tcst_device_free(buffer);
    assert_ok(tcsDestroyDnMat(db));
    assert_ok(tcsDestroyDnMat(dc));
    tcst_dense_free(&b);
    tcst_dense_free(&c);
    free_a(&a);
    sc.alg = TCS_SPMM_ALG_DEFAULT;
    if (check_case(&d, &sc) == 1) fail_msg("DEFAULT took the blocks with a duplicate entry");
    tcst_csr_free(&d);
    tcst_csr_free(&m);
}

/* alpha == 0 (C = beta * C), no entries at all, 1 x 1, n = 1, one window of 3 rows. */
static void test_edges(void** state) {
    (void)state;
    tcst_csr m;
    make_matrix(BANDED, &m);
    spmm_case sc = plain_case(FP32, 8);
    sc.matrix = "banded, alpha 0";
    sc.alpha = 0.0;
    sc.beta = 2.0;
    check_case(&m, &sc);
    tcst_csr_free(&m);
    assert_int_equal(tcst_csr_alloc(&m, 50, 40, 0), 0);
    sc = plain_case(FP16, 16);
    sc.matrix = "no entries";
    sc.beta = -1.5;
    check_case(&m, &sc);
    sc.bsr = 1;
    sc.rbs = sc.cbs = 4;
    check_case(&m, &sc);
    tcst_csr_free(&m);
    generated(tcst_gen_banded(1, 0, tcst_rng_next(&fx.rng), &m));
    for (int type = 0; type < TYPE_COUNT; ++type) {
        sc = plain_case(type, 1);
        sc.matrix = "1 x 1";
        check_case(&m, &sc);
    }
    tcst_csr_free(&m);
    generated(tcst_gen_uniform(3, 5000, 700, tcst_rng_next(&fx.rng), &m));
    sc = plain_case(BF16, 128);
    sc.matrix = "3 rows of 700";
    sc.beta = 1.0;
    check_case(&m, &sc);
    tcst_csr_free(&m);
}

/* A few Matrix Market files, fp64 and fp16. */
static void test_matrix_market(void** state) {
    (void)state;
    static const char* const files[] = {"bcsstk13", "lock1074", "wiki-Vote", "Si2"};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; ++f) {
        if (fx.quick && f > 0) break;
        char path[1024], err[256];
        snprintf(path, sizeof path, "%s/%s.mtx.gz", tcst_matrix_dir(), files[f]);
        tcst_csr m;
        if (tcst_mm_read(path, 7, &m, err, sizeof err) != 0) {
            printf("  %s: not read (%s), skipped\n", files[f], err);
            continue;
        }
        double largest = 0.0; /* scaled into fp16's range (bcsstk13's stiffnesses reach 1e9) */
        for (int64_t e = 0; e < m.nnz; ++e) largest = fmax(largest, fabs(m.val[e]));
        for (int64_t e = 0; e < m.nnz && largest > 0.0; ++e) m.val[e] /= largest;
        for (int type = FP16_C32; type <= FP64; type += FP64 - FP16_C32) {
            spmm_case sc = random_case(type, 32, files[f]);
            check_case(&m, &sc);
        }
        tcst_csr_free(&m);
    }
}

/* A call without preprocess captured in a CUDA graph (the format is built inside the
 * call, on the stream, without waiting) and replayed twice; preprocess while capturing
 * does not wait either, and leaves no counts to report. */
static void test_graph_capture(void** state) {
    (void)state;
    tcst_csr m;
    make_matrix(DENSE_BLOCKS, &m);
    device_a a;
    upload_csr(&a, &m, 1, CUDA_R_16F);
    const int64_t n = 40;
    tcst_dense b, c;
    tcst_dense_make(&b, m.cols, n, 1, 0, 0, CUDA_R_16F);
    double* bh = tcst_dense_fill_random(&b, &fx.rng);
    tcst_dense_upload(&b);
    tcst_dense_make(&c, m.rows, n, 1, 0, 0, CUDA_R_32F);
    tcsConstDnMatDescr_t db;
    tcsDnMatDescr_t dc;
    assert_ok(tcsCreateConstDnMat(&db, m.cols, n, n, b.dev, CUDA_R_16F, TCS_ORDER_ROW));
    assert_ok(tcsCreateDnMat(&dc, m.rows, n, n, c.dev, CUDA_R_32F, TCS_ORDER_ROW));
    const float one = 1.0f, zero = 0.0f;
    const tcsOperation_t op = TCS_OPERATION_NON_TRANSPOSE;
    size_t bytes = 0;
    assert_ok(tcsSpMM_bufferSize(fx.handle, op, op, &one, a.descr, db, &zero, dc, CUDA_R_32F,
                                 TCS_SPMM_BSR_TC, &bytes));
    void* buffer = tcst_device_poisoned(bytes);
    cudaStream_t stream;
    CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    assert_ok(tcsSetStream(fx.handle, stream));
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CUDA_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    const tcsStatus_t pre = tcsSpMM_preprocess(fx.handle, op, op, &one, a.descr, db, &zero, dc,
                                               CUDA_R_32F, TCS_SPMM_BSR_TC, buffer);
    const tcsStatus_t st = tcsSpMM(fx.handle, op, op, &one, a.descr, db, &zero, dc, CUDA_R_32F,
                                   TCS_SPMM_BSR_TC, buffer);
    CUDA_OK(cudaStreamEndCapture(stream, &graph));
    assert_ok(pre);
    assert_ok(st);
    int64_t x[5];
    int uses;
    assert_int_equal(tcsSpMM_getBlockCounts(a.descr, &x[0], &x[1], &x[2], &x[3], &x[4], &uses),
                     TCS_STATUS_NOT_INITIALIZED);
    CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
    double* ref = (double*)tcst_xmalloc((size_t)(m.rows * n) * sizeof(double));
    double* mag = (double*)tcst_xmalloc((size_t)(m.rows * n) * sizeof(double));
    reference(&a.ref, bh, n, 1.0, 0.0, NULL, ref, mag);
    unsigned char* got = (unsigned char*)tcst_xmalloc(c.count * 4);
    for (int replay = 0; replay < 2; ++replay) {
        CUDA_OK(cudaMemset(c.dev, 0xFF, c.count * 4));
        CUDA_OK(cudaGraphLaunch(exec, stream));
        CUDA_OK(cudaStreamSynchronize(stream));
        CUDA_OK(cudaMemcpy(got, c.dev, c.count * 4, cudaMemcpyDeviceToHost));
        compare(&c, got, ref, mag, &TYPES[FP16_C32], "graph replay");
    }
    CUDA_OK(cudaGraphExecDestroy(exec));
    CUDA_OK(cudaGraphDestroy(graph));
    assert_ok(tcsSetStream(fx.handle, NULL));
    CUDA_OK(cudaStreamDestroy(stream));
    assert_ok(tcsDestroyDnMat(db));
    assert_ok(tcsDestroyDnMat(dc));
    tcst_dense_free(&b);
    tcst_dense_free(&c);
    free_a(&a);
    tcst_device_free(buffer);
    free(bh);
    free(ref);
    free(mag);
    free(got);
    tcst_csr_free(&m);
}

/* Two million rows (65536 windows), fp16 and fp64. */
static void test_large(void** state) {
    (void)state;
    if (fx.quick) skip();
    tcst_csr m;
    generated(tcst_gen_banded(2000003, 4, tcst_rng_next(&fx.rng), &m));
    spmm_case sc = plain_case(FP16_C32, 8);
    sc.matrix = "banded, 2M rows";
    check_case(&m, &sc);
    sc = plain_case(FP64, 16);
    sc.matrix = "banded, 2M rows";
    sc.preprocess = 0;
    check_case(&m, &sc);
    tcst_csr_free(&m);
}

int main(void) {
    if (!tcst_gpu_available()) {
        printf("gpu_spmm_blocks: no GPU, skipped\n");
        return TCST_SKIP;
    }
    /* TCS_TEST_FILTER=pattern runs the tests whose names match it (cmocka's filter). */
    const char* filter = getenv("TCS_TEST_FILTER");
    if (filter != NULL && *filter != '\0') cmocka_set_test_filter(filter);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_precisions),   cmocka_unit_test(test_layouts),
        cmocka_unit_test(test_bsr),          cmocka_unit_test(test_reorder_block_counts),
        cmocka_unit_test(test_reorder_on_off),
        cmocka_unit_test(test_reorder_read_once), cmocka_unit_test(test_default_rule),
        cmocka_unit_test(test_unsorted_and_duplicates), cmocka_unit_test(test_edges),
        cmocka_unit_test(test_matrix_market), cmocka_unit_test(test_graph_capture),
        cmocka_unit_test(test_large),
    };
    return tcst_run_group_tests(tests, group_setup, group_teardown);
}
