/*
 * The cuSPARSE SpGEMM protocol through the public API, as gpu_spgemm_hash and
 * gpu_spgemm_tiles drive it (include after <cmocka.h>, "tcsparse.h",
 * "tcs_test_support.h", "tcst_status.h" and "tcst_tracked.h"): A and B on the device
 * (an index base, 32- or 64-bit indices, values of any of the four types), C created
 * with nnz 0 and a caller-allocated row-offset array, each size query asked twice,
 * every buffer and output poisoned first and kept until copy, alpha and beta in host or
 * device memory, and C read back as the GPU wrote it. What it makes is tracked
 * (tcst_tracked.h) and released by the test's teardown. The checks against the
 * reference stay in each test: their oracles differ.
 */
#ifndef TCST_SPGEMM_PROTOCOL_H_
#define TCST_SPGEMM_PROTOCOL_H_

#include <cuda_runtime_api.h>

#include "tcst_edge_shapes.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline tcsIndexType_t tcst_index_type(int wide) { return wide ? TCS_INDEX_64I : TCS_INDEX_32I; }
static inline size_t tcst_index_size(int wide) { return wide ? sizeof(int64_t) : sizeof(int); }

static inline const char* tcst_type_name(cudaDataType type) {
    return type == CUDA_R_64F ? "fp64" : type == CUDA_R_32F ? "fp32" : type == CUDA_R_16F ? "fp16" : "bf16";
}

/* n values (in the reference's order) as `type` stores them, into existing device memory. */
static inline void tcst_upload_values(void* dst, const double* v, int64_t n, cudaDataType type) {
    if (n == 0) return;
    const size_t bytes = (size_t)n * tcst_value_size(type);
    void* stage = malloc(bytes);
    assert_non_null(stage);
    for (int64_t i = 0; i < n; ++i) tcst_value_put(stage, (size_t)i, type, v[i]);
    const cudaError_t e = cudaMemcpy(dst, stage, bytes, cudaMemcpyHostToDevice);
    free(stage);
    assert_int_equal(e, cudaSuccess);
}

/* n values uniform in [-1, 1) from seed s, as `type` stores them (CUDA_R_64F: as drawn). */
static inline double* tcst_random_values(int64_t n, uint64_t s, cudaDataType type) {
    double* v = (double*)malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    assert_non_null(v);
    tcst_rng r;
    tcst_rng_seed(&r, s);
    for (int64_t i = 0; i < n; ++i) v[i] = tcst_value_rounded(tcst_rng_symmetric(&r), type);
    return v;
}

/* A CSR matrix on the device (its arrays tracked) and its descriptor (tracked). */
typedef struct {
    void *rp, *ci;
    void* val;
    tcsConstSpMatDescr_t descr;
} tcst_device_csr;

/* m on the device with index base `base`, values as `type` stores them, and 64-bit
 * (TCS_INDEX_64I) offsets and columns where `wide`. */
static inline tcst_device_csr tcst_upload_csr(const tcst_csr* m, int base, cudaDataType type, int wide) {
    tcst_device_csr d;
    int *rp = NULL, *ci = NULL;
    assert_int_equal(tcst_csr_upload(m, base, type == CUDA_R_64F, &rp, &ci, &d.val), 0);
    tcst_device_free(rp), tcst_device_free(ci);
    assert_int_equal(tcst_csr_upload_indices(m, base, wide, &d.rp, &d.ci), 0);
    tcst_track(d.rp), tcst_track(d.ci), tcst_track(d.val);
    if (type == CUDA_R_16F || type == CUDA_R_16BF)
        tcst_upload_values(d.val, m->val, m->nnz, type); /* over the fp32 copy */
    assert_ok(tcsCreateConstCsr(&d.descr, m->rows, m->cols, m->nnz, d.rp, d.ci, d.val,
                                tcst_index_type(wide), tcst_index_type(wide),
                                base ? TCS_INDEX_BASE_ONE : TCS_INDEX_BASE_ZERO, type));
    tcst_track_mat(d.descr);
    return d;
}

/* What one run of the protocol asks. */
typedef struct {
    tcsHandle_t handle;
    cudaDataType type;         /* of A's, B's and C's values */
    cudaDataType compute_type; /* also the type of alpha and beta */
    tcsSpGEMMAlg_t alg;
    tcsMath_t math;            /* set on the handle with the scalars */
    int c_base;
    int c_wide;                /* C with TCS_INDEX_64I offsets and columns */
    int device_scalars;        /* alpha and beta in device memory */
    double alpha, beta;        /* beta != 0: C holds c_old on its pattern before copy */
    int estimate;              /* the estimateMemory (ALG2/ALG3) protocol instead of compute's query */
    float chunk;               /* estimate: the chunk_fraction (0: 0.2) */
} tcst_spgemm_settings;

/* The state of one run: the operands on the device, C, the descriptor, buffer2, the
 * scalars. */
typedef struct {
    tcst_spgemm_settings s;
    tcst_device_csr a, b;
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
} tcst_spgemm_run;

/* The arguments every SpGEMM call of run r takes, up to its sizes and buffers. */
#define TCST_SPGEMM_ARGS(r)                                                                        \
    (r)->s.handle, TCS_OPERATION_NON_TRANSPOSE, TCS_OPERATION_NON_TRANSPOSE, (r)->alpha,           \
        (r)->a.descr, (r)->b.descr, (r)->beta, (r)->c, (r)->s.compute_type, (r)->s.alg, (r)->d

/* alpha and beta in the compute type, in host memory or in poisoned device memory with
 * the pointer mode to match; then the math mode. */
static inline void tcst_spgemm_set_scalars(tcst_spgemm_run* r) {
    const tcst_spgemm_settings* s = &r->s;
    r->host_scalars[0] = s->alpha;
    r->host_scalars[1] = s->beta;
    r->host_scalars_f[0] = (float)s->alpha;
    r->host_scalars_f[1] = (float)s->beta;
    const int dbl = s->compute_type == CUDA_R_64F;
    const void* host = dbl ? (const void*)r->host_scalars : (const void*)r->host_scalars_f;
    const size_t vs = dbl ? sizeof(double) : sizeof(float);
    if (s->device_scalars) {
        void* dev = tcst_poisoned(2 * vs);
        assert_int_equal(cudaMemcpy(dev, host, 2 * vs, cudaMemcpyHostToDevice), cudaSuccess);
        assert_ok(tcsSetPointerMode(s->handle, TCS_POINTER_MODE_DEVICE));
        r->alpha = dev;
        r->beta = (const char*)dev + vs;
    } else {
        assert_ok(tcsSetPointerMode(s->handle, TCS_POINTER_MODE_HOST));
        r->alpha = host;
        r->beta = (const char*)host + vs;
    }
    assert_ok(tcsSetMathMode(s->handle, s->math));
}

/* A run of C = A*B as s asks: A and B on the device (b NULL: B is A's very arrays),
 * alpha and beta set. */
static inline tcst_spgemm_run tcst_spgemm_prepare(tcst_spgemm_settings s, const tcst_csr* a, int a_base,
                                                  int a_wide, const tcst_csr* b, int b_base, int b_wide) {
    tcst_spgemm_run r;
    memset(&r, 0, sizeof r);
    r.s = s;
    r.m = a->rows;
    r.n = b != NULL ? b->cols : a->cols;
    r.a = tcst_upload_csr(a, a_base, s.type, a_wide);
    r.b = b != NULL ? tcst_upload_csr(b, b_base, s.type, b_wide) : r.a;
    tcst_spgemm_set_scalars(&r);
    return r;
}

/* C with nnz 0 over a poisoned row-offset array, and the SpGEMM descriptor. */
static inline void tcst_spgemm_create_c(tcst_spgemm_run* r) {
    const tcst_spgemm_settings* s = &r->s;
    r->c_rp = tcst_poisoned((size_t)(r->m + 1) * tcst_index_size(s->c_wide));
    r->c_ci = NULL;
    r->c_val = NULL;
    assert_ok(tcsCreateCsr(&r->c, r->m, r->n, 0, r->c_rp, NULL, NULL, tcst_index_type(s->c_wide),
                           tcst_index_type(s->c_wide), s->c_base ? TCS_INDEX_BASE_ONE : TCS_INDEX_BASE_ZERO,
                           s->type));
    tcst_track_mat(r->c);
    assert_ok(tcsSpGEMM_createDescr(&r->d));
    tcst_track_gemm(r->d);
}

/* C as a run left it, on the host: 32-bit indices with C's base, the values as the GPU
 * wrote them (raw, for bitwise comparisons) and converted to double (val). */
typedef struct {
    int64_t rows, nnz;
    int *rp, *ci;
    void* raw;
    double* val;
    cudaDataType type;
} tcst_spgemm_result;

static inline void tcst_spgemm_result_free(tcst_spgemm_result* r) {
    free(r->rp), free(r->ci), free(r->raw), free(r->val);
    memset(r, 0, sizeof *r);
}

/* compute (with the run's buffer2) and copy into C's arrays (poisoned ones, made at the
 * first call; beta != 0: c_old written into them first), then C on the host. */
static inline tcst_spgemm_result tcst_spgemm_compute_and_copy(tcst_spgemm_run* r, int64_t expected_nnz) {
    const tcst_spgemm_settings* s = &r->s;
    const size_t vs = tcst_value_size(s->type);
    assert_ok(tcsSpGEMM_compute(TCST_SPGEMM_ARGS(r), &r->size2, r->buf2));
    int64_t rows = -1, cols = -1, nnz = -1;
    assert_ok(tcsSpMatGetSize(r->c, &rows, &cols, &nnz));
    assert_int_equal(rows, r->m);
    assert_int_equal(cols, r->n);
    assert_int_equal(nnz, expected_nnz);
    if (r->c_ci == NULL && nnz > 0) {
        r->c_ci = tcst_poisoned((size_t)nnz * tcst_index_size(s->c_wide));
        r->c_val = tcst_poisoned((size_t)nnz * vs);
    }
    if (s->beta != 0.0) tcst_upload_values(r->c_val, r->c_old, nnz, s->type);
    assert_ok(tcsCsrSetPointers(r->c, r->c_rp, r->c_ci, r->c_val));
    assert_ok(tcsSpGEMM_copy(TCST_SPGEMM_ARGS(r)));
    tcst_spgemm_result out;
    out.rows = r->m;
    out.nnz = nnz;
    out.type = s->type;
    const size_t count = (size_t)(nnz > 0 ? nnz : 1);
    out.rp = (int*)malloc((size_t)(r->m + 1) * sizeof(int));
    out.ci = (int*)malloc(count * sizeof(int));
    out.raw = malloc(count * vs);
    out.val = (double*)malloc(count * sizeof(double));
    assert_true(out.rp != NULL && out.ci != NULL && out.raw != NULL && out.val != NULL);
    assert_int_equal(tcst_device_download_indices(out.rp, r->c_rp, r->m + 1, s->c_wide), 0);
    assert_int_equal(tcst_device_download_indices(out.ci, r->c_ci, nnz, s->c_wide), 0);
    assert_int_equal(tcst_device_download(out.raw, r->c_val, (size_t)nnz * vs), 0);
    for (int64_t e = 0; e < nnz; ++e) out.val[e] = tcst_value_get(out.raw, (size_t)e, s->type);
    return out;
}

/* The whole protocol: C created, workEstimation (its size query twice, then a poisoned
 * buffer1), the number of products against the reference's, the size of buffer2 (compute's
 * query twice, or with `estimate` estimateMemory's protocol), then compute_and_copy. */
static inline tcst_spgemm_result tcst_spgemm_full_protocol(tcst_spgemm_run* r, const tcst_csr* a,
                                                           const tcst_csr* b, int64_t expected_nnz) {
    const tcst_spgemm_settings* s = &r->s;
    tcst_spgemm_create_c(r);
    size_t size1 = 0, again = 0;
    assert_ok(tcsSpGEMM_workEstimation(TCST_SPGEMM_ARGS(r), &size1, NULL));
    assert_ok(tcsSpGEMM_workEstimation(TCST_SPGEMM_ARGS(r), &again, NULL));
    assert_int_equal(size1, again);
    assert_ok(tcsSpGEMM_workEstimation(TCST_SPGEMM_ARGS(r), &size1, tcst_poisoned(size1)));
    int64_t products = -1;
    assert_ok(tcsSpGEMM_getNumProducts(r->d, &products));
    assert_int_equal(products, tcst_ref_num_products(a, b));

    if (s->estimate) {
        const float chunk = s->chunk > 0.0f ? s->chunk : 0.2f;
        size_t size3 = 0, size3_again = 0, size2 = 0, size2_again = 0;
        assert_ok(tcsSpGEMM_estimateMemory(TCST_SPGEMM_ARGS(r), chunk, &size3, NULL, NULL));
        assert_ok(tcsSpGEMM_estimateMemory(TCST_SPGEMM_ARGS(r), chunk, &size3_again, NULL, NULL));
        assert_int_equal(size3, size3_again);
        void* buf3 = tcst_device_poisoned(size3);
        assert_non_null(buf3);
        const tcsStatus_t s1 = tcsSpGEMM_estimateMemory(TCST_SPGEMM_ARGS(r), chunk, &size3, buf3, &size2);
        const tcsStatus_t s2 = tcsSpGEMM_estimateMemory(TCST_SPGEMM_ARGS(r), chunk, &size3, buf3, &size2_again);
        tcst_device_free(buf3); /* AmgX frees buffer3 at once */
        assert_ok(s1);
        assert_ok(s2);
        assert_int_equal(size2, size2_again);
        /* compute's size query reports the budget too */
        assert_ok(tcsSpGEMM_compute(TCST_SPGEMM_ARGS(r), &size2_again, NULL));
        assert_int_equal(size2, size2_again);
        r->size2 = size2;
    } else {
        size_t size2_again = 0;
        assert_ok(tcsSpGEMM_compute(TCST_SPGEMM_ARGS(r), &r->size2, NULL));
        assert_ok(tcsSpGEMM_compute(TCST_SPGEMM_ARGS(r), &size2_again, NULL));
        assert_int_equal(r->size2, size2_again);
    }
    r->buf2 = tcst_poisoned(r->size2);
    return tcst_spgemm_compute_and_copy(r, expected_nnz);
}

/* Fails unless two runs gave the same C bit for bit: pattern, and values as written. */
static inline void tcst_spgemm_assert_same(const char* name, const tcst_spgemm_result* x,
                                           const tcst_spgemm_result* y) {
    assert_int_equal(x->type, y->type);
    assert_int_equal(x->nnz, y->nnz);
    if (memcmp(x->rp, y->rp, (size_t)(x->rows + 1) * sizeof(int)) != 0 ||
        memcmp(x->ci, y->ci, (size_t)x->nnz * sizeof(int)) != 0 ||
        memcmp(x->raw, y->raw, (size_t)x->nnz * tcst_value_size(x->type)) != 0)
        fail_msg("%s (%s): two runs differ", name, tcst_type_name(x->type));
}

/* ---- the inputs both SpGEMM tests share ---- */

/* rows x cols with per_row distinct uniformly random columns in each row. */
static inline tcst_csr tcst_uniform(int64_t rows, int64_t cols, int per_row, uint64_t s) {
    tcst_csr m;
    assert_int_equal(tcst_gen_uniform(rows, cols, per_row, s, &m), 0);
    return m;
}

/* m without the entries of every `every`-th row (those rows become empty). */
static inline tcst_csr tcst_with_empty_rows(const tcst_csr* m, int every) {
    tcst_csr out;
    assert_int_equal(tcst_csr_without_rows(m, every, &out), 0);
    return out;
}

/* check(name, index, A, B) for each shape of tcst_edge_shapes.h, index from 0; A and B
 * uniform, from seed + index and seed + 100 + index. */
typedef void (*tcst_spgemm_case_check)(const char* name, int index, const tcst_csr* a, const tcst_csr* b);
static inline void tcst_spgemm_for_each_edge_shape(uint64_t seed, tcst_spgemm_case_check check) {
    for (int i = 0; i < TCST_EDGE_SHAPES; ++i) {
        const tcst_edge_shape* sh = &tcst_edge_shapes[i];
        tcst_csr a = tcst_uniform(sh->m, sh->k, sh->a_per_row, seed + i);
        tcst_csr b = tcst_uniform(sh->k, sh->n, sh->b_per_row, seed + 100 + i);
        check(sh->name, i, &a, &b);
        tcst_csr_free(&a);
        tcst_csr_free(&b);
    }
}

/* A (40 x 10) whose columns reach only empty rows of B (10 x 6, no entries): nnz(C) = 0
 * with m > 0. */
static inline void tcst_spgemm_empty_c_operands(uint64_t seed, tcst_csr* a, tcst_csr* b) {
    *a = tcst_uniform(40, 10, 3, seed);
    assert_int_equal(tcst_csr_alloc(b, 10, 6, 0), 0);
}

/* A (300 x 200, every 5th row empty) and B (200 x 250, every 3rd row empty). */
static inline void tcst_spgemm_empty_rows_operands(uint64_t seed, tcst_csr* a, tcst_csr* b) {
    tcst_csr full_a = tcst_uniform(300, 200, 7, seed), full_b = tcst_uniform(200, 250, 9, seed + 1);
    *a = tcst_with_empty_rows(&full_a, 5);
    *b = tcst_with_empty_rows(&full_b, 3);
    tcst_csr_free(&full_a);
    tcst_csr_free(&full_b);
}

/* A product that cancels exactly (tcst_gen_cancelling) from `half` (50 x 300, uniform):
 * every entry of C is 1.5*x - 1.5*x, and C's pattern is half's. */
static inline void tcst_spgemm_cancelling_operands(uint64_t seed, tcst_csr* half, tcst_csr* a, tcst_csr* b) {
    *half = tcst_uniform(50, 300, 20, seed);
    assert_int_equal(tcst_gen_cancelling(half, a, b), 0);
}

/* The g-th (0..5) of the generated matrices the SpGEMM tests square: 27-point stencils
 * with 1 and 3 unknowns per node, banded, R-MAT, uniform, dense blocks; quick: smaller.
 * Returns its name. */
#define TCST_SPGEMM_GENERATED 6
static inline const char* tcst_spgemm_generated(int g, int quick, uint64_t seed, tcst_csr* a) {
    const int s = quick ? 1 : 2; /* size scale */
    switch (g) {
    case 0: assert_int_equal(tcst_gen_stencil27(8 * s, 8 * s, 8 * s, 1, seed, a), 0); return "stencil27 dof 1";
    case 1: assert_int_equal(tcst_gen_stencil27(6 * s, 6 * s, 5 * s, 3, seed, a), 0); return "stencil27 dof 3";
    case 2: assert_int_equal(tcst_gen_banded(1500 * s, 24, seed, a), 0); return "banded";
    case 3: assert_int_equal(tcst_gen_rmat(quick ? 10 : 13, 8, 0.57, 0.19, 0.19, seed, a), 0); return "rmat";
    case 4: assert_int_equal(tcst_gen_uniform(1500 * s, 1500 * s, 12, seed, a), 0); return "uniform";
    default: assert_int_equal(tcst_gen_dense_blocks(300 * s, 300 * s, 24, 0.3, seed, a), 0); return "dense blocks";
    }
}

/* check(name, index, A, B) for every Matrix Market file of tcst_matrix_dir() (complex
 * ones passed over; quick: those of more than 60000 entries too): A as read, pattern
 * values from seed, and B the matrix the SpGEMM tests multiply it by, A itself where
 * square, else A^T. index counts the folder's files from 1. Skips the test where there
 * is no folder, fails where a file cannot be read or none was checked. */
typedef void (*tcst_mm_product_check)(const char* name, int index, const tcst_csr* a, const tcst_csr* b);
static inline void tcst_for_each_mm_product(const char* program, uint64_t seed, int quick,
                                            tcst_mm_product_check check) {
    tcst_mm_folder folder;
    if (tcst_mm_folder_open(&folder, NULL) != 0) {
        printf("%s: no matrix directory %s: skipped\n", program, folder.folder);
        skip();
    }
    int done = 0, got;
    char err[256] = "";
    tcst_csr a, b;
    while ((got = tcst_mm_folder_next(&folder, seed, &a, err, sizeof err)) != 0) {
        if (got < 0) {
            tcst_mm_folder_close(&folder);
            fail_msg("%s", err);
        }
        if (quick && a.nnz > 60000) {
            tcst_csr_free(&a);
            continue;
        }
        if (a.rows == a.cols)
            assert_int_equal(tcst_csr_copy(&a, &b), 0);
        else
            assert_int_equal(tcst_csr_transpose(&a, &b), 0);
        check(folder.name, folder.index, &a, &b);
        tcst_csr_free(&a);
        tcst_csr_free(&b);
        ++done;
    }
    tcst_mm_folder_close(&folder);
    printf("%s: %d Matrix Market files checked\n", program, done);
    assert_true(done > 0);
}

#endif /* TCST_SPGEMM_PROTOCOL_H_ */
