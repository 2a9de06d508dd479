/* CSR SpMM on a GPU against the CPU reference (tcst_ref_spmm, in double), through the
 * public API: every layout of B and C (row/column-major, ld above the minimum,
 * values pointers off 16-byte alignment), opA and opB N/T, n in {1, 7, 8, 33, 128},
 * fp32, fp64, fp16/bf16 (C of the input type or fp32), host and device alpha/beta,
 * index bases 0 and 1, unsorted columns, beta == 0 with NaN in C, beta != 0,
 * alpha == 0, empty rows, rows of thousands of entries, nnz == 0, m/k/n == 1 or 0,
 * the ROWSPLIT, MERGE, DEFAULT and CSR_ALG1/2/3 algorithms (the last four reach the
 * CSR-vector family for column-wise op(B) at n = 2), preprocess then new values
 * of A, runs without preprocess, CUDA graph capture and replay, bitwise-identical
 * repeated runs, runs of rows with one pattern (the kernel preprocess picks for them,
 * read from a captured call, and bitwise the same C without them), a row-major op(B)
 * whose n is no multiple of a 16-byte vector read through its padded copy (the kernel
 * read from a captured call), Matrix Market files, element offsets beyond 2^31.
 *
 * Every entry must satisfy |x - ref| <= tol * (sum of |products| + |beta*C|), tol 1e-5
 * for fp32, 1e-12 for fp64, 1e-2 for fp16/bf16 (plus one fp16 subnormal step for
 * fp16 C). Inputs are rounded to their type first, so the bound measures the
 * arithmetic only. Outputs live in allocations filled with 0xFF bytes (NaN): an entry
 * left unwritten, or a write outside C, fails. Exits 77 (skipped) without a GPU; the
 * seed is printed and TCST_SEED=<seed> reproduces a run. TCS_TEST_QUICK=1 (the
 * compute-sanitizer run) sweeps fewer n and leaves out the multi-GB cases. */
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
#include "tcst_spmm_operands.h"

#include <cuda.h> /* types only: driver functions come from cudaGetDriverEntryPointByVersion,
                   * so the program links no libcuda and still loads (and skips) where no
                   * driver is installed */
#include <cuda_runtime_api.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- element types -------------------------------------------------------------- */

typedef struct {
    cudaDataType ab, c, compute;
    double tol;
    const char* name;
} types_t;

enum { FP32, FP64, FP16, FP16_C32, BF16, BF16_C32 };
static const types_t TYPES[] = {
    {CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, 1e-5, "fp32"},
    {CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, 1e-12, "fp64"},
    {CUDA_R_16F, CUDA_R_16F, CUDA_R_32F, 1e-2, "fp16"},
    {CUDA_R_16F, CUDA_R_32F, CUDA_R_32F, 1e-2, "fp16 -> fp32 C"},
    {CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F, 1e-2, "bf16"},
    {CUDA_R_16BF, CUDA_R_32F, CUDA_R_32F, 1e-2, "bf16 -> fp32 C"},
};

static size_t type_size(cudaDataType t) { return tcst_value_size(t); }
static void put(void* base, size_t i, cudaDataType t, double x) { tcst_value_put(base, i, t, x); }
static double get(const void* base, size_t i, cudaDataType t) { return tcst_value_get(base, i, t); }
static double rounded(double x, cudaDataType t) { return tcst_value_rounded(x, t); }

/* ---- fixture -------------------------------------------------------------------- */

static tcst_gpu_fixture fx;
TCST_GPU_FIXTURE("gpu_spmm_csr", fx)

static int random_below(int bound) { return (int)(tcst_rng_next(&fx.rng) % (uint64_t)bound); }

/* The grid (blocks in x) of the first kernel of a captured graph whose mangled name
 * contains `what` and `also` (the driver's names: which kernel and which template
 * arguments a call launched), 0 if it holds none. */
typedef CUresult (*get_nodes_fn)(CUgraph, CUgraphNode*, size_t*);
typedef CUresult (*node_type_fn)(CUgraphNode, CUgraphNodeType*);
typedef CUresult (*kernel_params_fn)(CUgraphNode, CUDA_KERNEL_NODE_PARAMS*);
typedef CUresult (*func_name_fn)(const char**, CUfunction);
typedef CUresult (*kernel_name_fn)(const char**, CUkernel);

static void* driver_function(const char* name) {
    void* fn = NULL;
    enum cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    CUDA_OK(cudaGetDriverEntryPointByVersion(name, &fn, 12030, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || fn == NULL) fail_msg("driver function %s", name);
    return fn;
}

static unsigned graph_kernel_grid(cudaGraph_t graph, const char* what, const char* also) {
    const get_nodes_fn get_nodes = (get_nodes_fn)driver_function("cuGraphGetNodes");
    const node_type_fn node_type = (node_type_fn)driver_function("cuGraphNodeGetType");
    const kernel_params_fn params_of = (kernel_params_fn)driver_function("cuGraphKernelNodeGetParams");
    const func_name_fn func_name = (func_name_fn)driver_function("cuFuncGetName");
    const kernel_name_fn kernel_name = (kernel_name_fn)driver_function("cuKernelGetName");
    size_t count = 0;
    assert_int_equal(get_nodes((CUgraph)graph, NULL, &count), CUDA_SUCCESS);
    CUgraphNode* nodes = (CUgraphNode*)tcst_xmalloc((count > 0 ? count : 1) * sizeof(CUgraphNode));
    assert_int_equal(get_nodes((CUgraph)graph, nodes, &count), CUDA_SUCCESS);
    unsigned grid = 0;
    for (size_t i = 0; i < count && grid == 0; ++i) {
        CUgraphNodeType type;
        assert_int_equal(node_type(nodes[i], &type), CUDA_SUCCESS);
        if (type != CU_GRAPH_NODE_TYPE_KERNEL) continue;
        CUDA_KERNEL_NODE_PARAMS params;
        memset(&params, 0, sizeof params);
        assert_int_equal(params_of(nodes[i], &params), CUDA_SUCCESS);
        const char* name = NULL;
        if (params.func != NULL)
            assert_int_equal(func_name(&name, params.func), CUDA_SUCCESS);
        else
            assert_int_equal(kernel_name(&name, params.kern), CUDA_SUCCESS);
        if (name != NULL && strstr(name, what) != NULL && strstr(name, also) != NULL)
            grid = params.gridDimX;
    }
    free(nodes);
    return grid;
}

static int graph_has_kernel(cudaGraph_t graph, const char* what, const char* also) {
    return graph_kernel_grid(graph, what, also) != 0;
}

/* ---- matrices ------------------------------------------------------------------- */

static int compare_int(const void* x, const void* y) {
    const int a = *(const int*)x, b = *(const int*)y;
    return (a > b) - (a < b);
}

/* rows x cols with len[i] distinct random columns in row i (sorted), random values, the
 * first entry of a row moved to column 0 with probability `heavy`. */
static void gen_lengths(tcst_csr* out, int64_t rows, int64_t cols, const int* len, double heavy) {
    int* pool = (int*)tcst_xmalloc((size_t)(cols > 0 ? cols : 1) * sizeof(int));
    int64_t nnz = 0;
    for (int64_t i = 0; i < rows; ++i) nnz += len[i];
    assert_int_equal(tcst_csr_alloc(out, rows, cols, nnz), 0);
    for (int64_t c = 0; c < cols; ++c) pool[c] = (int)c;
    for (int64_t i = 0; i < rows; ++i) {
        const int start = out->row_ptr[i];
        int* row = out->col_idx + start;
        /* a partial Fisher-Yates draw keeps the pool a permutation: distinct columns */
        for (int e = 0; e < len[i]; ++e) {
            const int pick = e + random_below((int)cols - e);
            const int t = pool[e];
            pool[e] = pool[pick];
            pool[pick] = t;
            row[e] = pool[e];
        }
        if (len[i] > 0 && tcst_rng_uniform(&fx.rng) < heavy) {
            int has0 = 0;
            for (int e = 0; e < len[i]; ++e) has0 |= row[e] == 0;
            if (!has0) row[0] = 0;
        }
        qsort(row, (size_t)len[i], sizeof(int), compare_int);
        for (int e = 0; e < len[i]; ++e) out->val[start + e] = tcst_rng_symmetric(&fx.rng);
        out->row_ptr[i + 1] = start + len[i];
    }
    assert_int_equal(out->row_ptr[rows], nnz);
    free(pool);
}

/* rows x cols: a row is empty with probability p_empty, else of 1..max_len entries;
 * `long_rows` rows have long_len entries; column 0 appears in a fraction `heavy` of the
 * rows (a long row of A^T). Columns distinct and sorted; values uniform in [-1, 1). */
static void gen_mixed(tcst_csr* out, int64_t rows, int64_t cols, int max_len, double p_empty,
                      int long_rows, int long_len, double heavy) {
    int* len = (int*)tcst_xmalloc((size_t)(rows > 0 ? rows : 1) * sizeof(int));
    for (int64_t i = 0; i < rows; ++i) {
        len[i] = tcst_rng_uniform(&fx.rng) < p_empty ? 0 : 1 + random_below(max_len);
        if (i % (rows / (long_rows + 1) + 1) == 1 && long_rows > 0) len[i] = long_len;
        if (len[i] > cols) len[i] = (int)cols;
    }
    gen_lengths(out, rows, cols, len, heavy);
    free(len);
}

/* The matrix of the layout sweeps: 150 x 120, rows of 0..12 entries, two long rows, a
 * heavy column; `shuffled` gives unsorted columns. */
static void gen_sweep_matrix(tcst_csr* out, int shuffled) {
    gen_mixed(out, 150, 120, 12, 0.15, 2, 120, 0.6);
    if (shuffled) tcst_csr_shuffle_columns(out, tcst_rng_next(&fx.rng));
}

/* rows x cols in runs: consecutive rows with the same column indices in the same order,
 * as the unknowns of one mesh node share their neighbours. The rows come in blocks of
 * `block` (the last may be shorter), each one run, or in about one block of twenty two
 * runs split at a random row. A run's pattern has 0..max_len distinct columns in random
 * order (unsorted), or long_len columns in about one run of long_every (rows the
 * long-row blocks take). Traps for the comparison of patterns, each in about one row
 * of 256 after a run's first: the run's columns in another order (the first and last
 * swapped), the last column another one, the pattern without its last column. Values
 * random. */
static void gen_runs(tcst_csr* out, int64_t rows, int64_t cols, int block, int max_len,
                     int long_every, int long_len) {
    int* len = (int*)tcst_xmalloc((size_t)rows * sizeof(int));
    int* kind = (int*)tcst_xmalloc((size_t)rows * sizeof(int));
    int* pool = (int*)tcst_xmalloc((size_t)cols * sizeof(int));
    int64_t nnz = 0;
    for (int64_t i = 0; i < rows;) {
        const int64_t end = i + block < rows ? i + block : rows;
        /* Inside the block: the last block may hold a single row (no split). */
        const int64_t split = end - i >= 2 && random_below(20) == 0
                                  ? i + 1 + random_below((int)(end - i - 1))
                                  : end;
        while (i < end) {
            const int64_t stop = i < split ? split : end;
            int l = long_every > 0 && random_below(long_every) == 0 ? long_len
                                                                    : random_below(max_len + 1);
            if (l >= cols) l = (int)cols - 1;
            /* kind: < 0 a run's first row (-1 - its pattern's length), 0 the pattern,
             * 1-3 the traps */
            for (int64_t j = i; j < stop; ++j) {
                const int trap = random_below(256);
                kind[j] = j == i ? -l - 1 : trap >= 1 && trap <= 3 && l >= 2 ? trap : 0;
                len[j] = kind[j] == 3 ? l - 1 : l;
                nnz += len[j];
            }
            i = stop;
        }
    }
    assert_int_equal(tcst_csr_alloc(out, rows, cols, nnz), 0);
    for (int64_t c = 0; c < cols; ++c) pool[c] = (int)c;
    int l = 0;
    for (int64_t i = 0; i < rows; ++i) {
        if (kind[i] < 0) { /* a new pattern: pool[0..l) in random order, pool[l] unused */
            l = -kind[i] - 1;
            for (int e = 0; e <= l && e < cols; ++e) {
                const int pick = e + random_below((int)cols - e);
                const int t = pool[e];
                pool[e] = pool[pick];
                pool[pick] = t;
            }
        }
        const int start = out->row_ptr[i];
        int* row = out->col_idx + start;
        for (int e = 0; e < len[i]; ++e) row[e] = pool[e];
        if (kind[i] == 1) {
            row[0] = pool[len[i] - 1];
            row[len[i] - 1] = pool[0];
        }
        if (kind[i] == 2) row[len[i] - 1] = pool[l];
        for (int e = 0; e < len[i]; ++e) out->val[start + e] = tcst_rng_symmetric(&fx.rng);
        out->row_ptr[i + 1] = start + len[i];
    }
    free(len);
    free(kind);
    free(pool);
}

/* Runs per row that windows of z rows from multiples of z find (cpp/spmm/csr/runs.hpp):
 * one for each row that starts a window or differs from the row before. */
static double runs_per_row(const tcst_csr* a, int z) {
    int64_t runs = 0;
    for (int64_t i = 0; i < a->rows; ++i) {
        const int begin = a->row_ptr[i], length = a->row_ptr[i + 1] - begin;
        int same = i > 0 && length == begin - a->row_ptr[i - 1];
        if (same)
            same = memcmp(a->col_idx + a->row_ptr[i - 1], a->col_idx + begin,
                          (size_t)length * sizeof(int)) == 0;
        runs += i % z == 0 || !same;
    }
    return (double)runs / (double)a->rows;
}

/* ---- the reference and the comparison ------------------------------------------- */

typedef struct {
    int type;
    int trans_a, trans_b, b_row, c_row;
    int64_t n;
    int base;
    tcsSpMMAlg_t alg;
    int device_scalars;
    double alpha, beta;
    int b_pad, c_pad, b_offset, c_offset; /* ld - minimum; element offset of the pointer */
    int preprocess;                       /* preprocess first (else the run analyses) */
    int new_values;                       /* then new values of A, same structure, run again */
    int64_t same_buffer_as_n; /* > 0: the buffer must be the size the same call with this
                               * n (fewer columns of op(B) and C) asks for */
    size_t pass_copy_bytes;   /* with same_buffer_as_n, where the narrower call has no copy
                               * of op(B): instead, the buffer holds one pass's copy of this
                               * many bytes and less than twice that (the plan of passes
                               * with a copy may differ in the rest of the buffer) */
    int plain_too;            /* also run on a buffer preprocess never saw: bitwise the
                               * same C as the first run */
    int wide;                 /* A with TCS_INDEX_64I offsets and columns; the same call
                               * with 32-bit indices must give bitwise the same C */
} spmm_case;

static const char* describe(const spmm_case* s, const char* what) {
    static char text[512];
    snprintf(text, sizeof text,
             "%s: %s opA=%c opB=%c B %s (pad %d, off %d) C %s (pad %d, off %d) n=%lld base=%d "
             "alg=%d scalars on %s alpha=%g beta=%g %s%s (seed %llu)",
             what, TYPES[s->type].name, s->trans_a ? 'T' : 'N', s->trans_b ? 'T' : 'N',
             s->b_row ? "row" : "col", s->b_pad, s->b_offset, s->c_row ? "row" : "col", s->c_pad,
             s->c_offset, (long long)s->n, s->base, (int)s->alg,
             s->device_scalars ? "device" : "host", s->alpha, s->beta,
             s->preprocess ? "preprocessed" : "not preprocessed",
             s->wide ? ", 64-bit indices" : "", (unsigned long long)fx.seed);
    return text;
}

/* ref = alpha*op(A)*op(B) + beta*C0 and its magnitude |alpha|*|op(A)|*|op(B)| +
 * |beta*C0|, both m x n column-major. b is B as stored, column-major (ldb), bsize
 * elements. */
static void reference(const tcst_csr* a, int trans_a, int trans_b, const double* b, int64_t ldb,
                      size_t bsize, int64_t m, int64_t n, double alpha, double beta,
                      const double* c0, double* ref, double* mag) {
    const size_t mn = (size_t)(m * n);
    tcst_csr abs_a;
    double* abs_b = (double*)tcst_xmalloc(bsize * sizeof(double));
    assert_int_equal(tcst_csr_copy(a, &abs_a), 0);
    for (int64_t e = 0; e < abs_a.nnz; ++e) abs_a.val[e] = fabs(abs_a.val[e]);
    for (size_t i = 0; i < bsize; ++i) abs_b[i] = fabs(b[i]);
    for (size_t i = 0; i < mn; ++i) {
        ref[i] = c0 != NULL ? c0[i] : 0.0;
        mag[i] = c0 != NULL ? fabs(c0[i]) : 0.0;
    }
    tcst_ref_spmm(trans_a, trans_b, alpha, a, b, ldb, n, beta, ref, m);
    tcst_ref_spmm(trans_a, trans_b, fabs(alpha), &abs_a, abs_b, ldb, n, fabs(beta), mag, m);
    tcst_csr_free(&abs_a);
    free(abs_b);
}

/* Checks the downloaded image of C: entries within the bound, every byte outside C
 * still 0xFF. */
/* op(A)'s source of the case being checked, for dump_failure. */
static const tcst_csr* checked_a = NULL;

/* With TCST_DUMP_DIR set, a failing comparison leaves A (after rounding, Matrix Market,
 * 1-based) and every wrong element of C (i j result reference) in that folder: a
 * failure that needs the whole seeded sequence of tests to recur can then be studied
 * off the GPU. */
static void dump_failure(const double* x, const double* ref, const double* bound, int64_t m,
                         int64_t n, double tol, const char* what) {
    const char* dir = getenv("TCST_DUMP_DIR");
    if (dir == NULL || checked_a == NULL) return;
    char path[4096];
    snprintf(path, sizeof path, "%s/A.mtx", dir);
    FILE* f = fopen(path, "w");
    if (f == NULL) return;
    const tcst_csr* a = checked_a;
    fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n%% %s\n", what);
    fprintf(f, "%lld %lld %lld\n", (long long)a->rows, (long long)a->cols, (long long)a->nnz);
    for (int64_t i = 0; i < a->rows; ++i)
        for (int e = a->row_ptr[i]; e < a->row_ptr[i + 1]; ++e)
            fprintf(f, "%lld %d %.17g\n", (long long)i + 1, a->col_idx[e] + 1, a->val[e]);
    fclose(f);
    snprintf(path, sizeof path, "%s/wrong.txt", dir);
    f = fopen(path, "w");
    if (f == NULL) return;
    fprintf(f, "# %s\n# i j result reference magnitude\n", what);
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < m; ++i) {
            const size_t q = (size_t)(i + j * m);
            if (!(fabs(x[q] - ref[q]) <= tol * bound[q]))
                fprintf(f, "%lld %lld %.17g %.17g %g\n", (long long)i, (long long)j, x[q], ref[q],
                        bound[q]);
        }
    fclose(f);
}

static void compare(const tcst_dense* c, const unsigned char* image, const double* ref,
                    const double* mag, const types_t* ty, const char* what) {
    const int64_t m = c->rows, n = c->cols;
    const size_t mn = (size_t)(m * n), esize = type_size(c->type);
    double* x = (double*)tcst_xmalloc(mn * sizeof(double));
    double* bound = (double*)tcst_xmalloc(mn * sizeof(double));
    char* inside = (char*)calloc(c->count, 1);
    assert_non_null(inside);
    /* fp16 C: a subnormal result may be rounded off by a whole step, 2^-24 (two
     * roundings where merge-path adds a carry-out to a stored row), whatever the
     * magnitude. */
    const double floor_mag = c->type == CUDA_R_16F ? ldexp(1.0, -24) / ty->tol : 0.0;
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < m; ++i) {
            const size_t q = tcst_dense_index(c, i, j);
            x[i + j * m] = get(image, q, c->type);
            bound[i + j * m] = mag[i + j * m] + floor_mag;
            inside[q] = 1;
        }
    const double worst = tcst_compare_dense(ref, bound, x, (int64_t)mn);
    if (!(worst <= ty->tol)) {
        dump_failure(x, ref, bound, m, n, ty->tol, what);
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < m; ++i) {
                const size_t q = (size_t)(i + j * m);
                if (!(fabs(x[q] - ref[q]) <= ty->tol * bound[q]))
                    fail_msg("%s: C(%lld,%lld) = %.17g, reference %.17g, magnitude %g (worst "
                             "error/magnitude %g)",
                             what, (long long)i, (long long)j, x[q], ref[q], mag[q], worst);
            }
        fail_msg("%s: worst error/magnitude %g", what, worst);
    }
    for (size_t q = 0; q < c->count; ++q) {
        if (inside[q]) continue;
        for (size_t z = 0; z < esize; ++z)
            if (image[q * esize + z] != 0xFF)
                fail_msg("%s: element %zu of C's allocation, outside C, was written", what, q);
    }
    free(x);
    free(bound);
    free(inside);
}

/* ---- one product ---------------------------------------------------------------- */

/* A uploaded with its values in the case's type. */
typedef struct {
    void *rp, *ci;
    void* val;
    tcsConstSpMatDescr_t descr;
} device_csr;

static void* upload_values(const double* v, int64_t count, cudaDataType t) {
    if (count == 0) return NULL;
    void* host = tcst_xmalloc((size_t)count * type_size(t));
    void* dev = NULL;
    for (int64_t e = 0; e < count; ++e) put(host, (size_t)e, t, v[e]);
    CUDA_OK(cudaMalloc(&dev, (size_t)count * type_size(t)));
    CUDA_OK(cudaMemcpy(dev, host, (size_t)count * type_size(t), cudaMemcpyHostToDevice));
    free(host);
    return dev;
}

/* wide: the indices as TCS_INDEX_64I. */
static void csr_upload(device_csr* d, const tcst_csr* a, int base, cudaDataType t, int wide) {
    assert_int_equal(tcst_csr_upload_indices(a, base, wide, &d->rp, &d->ci), 0);
    d->val = upload_values(a->val, a->nnz, t);
    const tcsIndexType_t it = wide ? TCS_INDEX_64I : TCS_INDEX_32I;
    assert_ok(tcsCreateConstCsr(&d->descr, a->rows, a->cols, a->nnz, d->rp, d->ci, d->val, it,
                                it, base ? TCS_INDEX_BASE_ONE : TCS_INDEX_BASE_ZERO, t));
}

static void csr_free(device_csr* d) {
    assert_ok(tcsDestroySpMat(d->descr));
    tcst_device_free(d->rp);
    tcst_device_free(d->ci);
    tcst_device_free(d->val);
}

/* Frees one product's operands: B's and C's descriptors and images, and A on the device. */
static void free_operands(tcsConstDnMatDescr_t db, tcsDnMatDescr_t dc, device_csr* da,
                          tcst_dense* b, tcst_dense* c) {
    assert_ok(tcsDestroyDnMat(db));
    assert_ok(tcsDestroyDnMat(dc));
    csr_free(da);
    tcst_dense_free(b);
    tcst_dense_free(c);
}

static void round_values(tcst_csr* a, cudaDataType t) {
    for (int64_t e = 0; e < a->nnz; ++e) a->val[e] = rounded(a->val[e], t);
}

static const void* scalar_ptr(const tcst_scalars* s, const spmm_case* sc, int which) {
    return tcst_scalar_ptr(s, TYPES[sc->type].compute, which);
}

static tcsOperation_t op_of(int transposed, int variant) {
    if (!transposed) return TCS_OPERATION_NON_TRANSPOSE;
    return variant ? TCS_OPERATION_CONJUGATE_TRANSPOSE : TCS_OPERATION_TRANSPOSE;
}

/* The case's operations: TRANSPOSE or CONJUGATE_TRANSPOSE (the same for real types)
 * when transposed. */
static tcsOperation_t op_a(const spmm_case* sc) { return op_of(sc->trans_a, sc->b_pad & 1); }
static tcsOperation_t op_b(const spmm_case* sc) { return op_of(sc->trans_b, sc->c_pad & 1); }

static void pointer_mode(const spmm_case* sc) {
    assert_ok(tcsSetPointerMode(fx.handle, sc->device_scalars ? TCS_POINTER_MODE_DEVICE
                                                               : TCS_POINTER_MODE_HOST));
}

static size_t buffer_size(const spmm_case* sc, const tcst_scalars* s, tcsConstSpMatDescr_t a,
                          tcsConstDnMatDescr_t b, tcsDnMatDescr_t c) {
    size_t bytes = 0;
    pointer_mode(sc);
    assert_ok(tcsSpMM_bufferSize(fx.handle, op_a(sc), op_b(sc), scalar_ptr(s, sc, 0), a, b,
                                 scalar_ptr(s, sc, 1), c, TYPES[sc->type].compute, sc->alg,
                                 &bytes));
    assert_ok(tcsSetPointerMode(fx.handle, TCS_POINTER_MODE_HOST));
    return bytes;
}

/* preprocess (if asked) and run on the handle's stream, then wait. */
static void spmm_call(const spmm_case* sc, const tcst_scalars* s, tcsConstSpMatDescr_t a,
                      tcsConstDnMatDescr_t b, tcsDnMatDescr_t c, void* buffer, int preprocess) {
    const types_t* ty = &TYPES[sc->type];
    const tcsOperation_t opa = op_a(sc), opb = op_b(sc);
    pointer_mode(sc);
    if (preprocess)
        assert_ok(tcsSpMM_preprocess(fx.handle, opa, opb, scalar_ptr(s, sc, 0), a, b,
                                     scalar_ptr(s, sc, 1), c, ty->compute, sc->alg, buffer));
    assert_ok(tcsSpMM(fx.handle, opa, opb, scalar_ptr(s, sc, 0), a, b, scalar_ptr(s, sc, 1), c,
                      ty->compute, sc->alg, buffer));
    CUDA_OK(cudaDeviceSynchronize());
    assert_ok(tcsSetPointerMode(fx.handle, TCS_POINTER_MODE_HOST));
}

/* The whole check of one case on matrix a_in (as stored, 0-based, double values). */
static void check_case(const tcst_csr* a_in, const spmm_case* sc) {
    const types_t* ty = &TYPES[sc->type];
    tcst_csr a;
    assert_int_equal(tcst_csr_copy(a_in, &a), 0);
    round_values(&a, ty->ab);
    const int64_t m = sc->trans_a ? a.cols : a.rows, k = sc->trans_a ? a.rows : a.cols, n = sc->n;
    const int64_t b_rows = sc->trans_b ? n : k, b_cols = sc->trans_b ? k : n;
    device_csr da;
    tcst_dense b, c;
    tcst_scalars s;
    tcsConstDnMatDescr_t db;
    tcsDnMatDescr_t dc;
    csr_upload(&da, &a, sc->base, ty->ab, sc->wide);
    tcst_dense_make(&b, b_rows, b_cols, sc->b_row, sc->b_pad, sc->b_offset, ty->ab);
    double* bh = tcst_dense_fill_random(&b, &fx.rng);
    tcst_dense_upload(&b);
    tcst_dense_make(&c, m, n, sc->c_row, sc->c_pad, sc->c_offset, ty->c);
    /* else C stays NaN */
    double* c0 = sc->beta != 0.0 ? tcst_dense_fill_random(&c, &fx.rng) : NULL;
    tcst_dense_upload(&c);
    tcst_scalars_make(&s, ty->compute, sc->alpha, sc->beta, sc->device_scalars);
    assert_ok(tcsCreateConstDnMat(&db, b_rows, b_cols, b.ld, tcst_dense_values(&b), ty->ab,
                                  sc->b_row ? TCS_ORDER_ROW : TCS_ORDER_COL));
    assert_ok(tcsCreateDnMat(&dc, m, n, c.ld, tcst_dense_values(&c), ty->c,
                             sc->c_row ? TCS_ORDER_ROW : TCS_ORDER_COL));

    const size_t bytes = buffer_size(sc, &s, da.descr, db, dc);
    if (sc->same_buffer_as_n > 0) {
        /* The narrower operands as views of the same memory: a size query reads none. */
        const int64_t w = sc->same_buffer_as_n;
        tcsConstDnMatDescr_t nb;
        tcsDnMatDescr_t nc;
        assert_ok(tcsCreateConstDnMat(&nb, sc->trans_b ? w : k, sc->trans_b ? k : w, b.ld,
                                      tcst_dense_values(&b), ty->ab,
                                      sc->b_row ? TCS_ORDER_ROW : TCS_ORDER_COL));
        assert_ok(tcsCreateDnMat(&nc, m, w, c.ld, tcst_dense_values(&c), ty->c,
                                 sc->c_row ? TCS_ORDER_ROW : TCS_ORDER_COL));
        const size_t narrow = buffer_size(sc, &s, da.descr, nb, nc);
        if (sc->pass_copy_bytes == 0 && bytes != narrow)
            fail_msg("%s: buffer %zu bytes, %zu at n = %lld", describe(sc, "buffer size"), bytes,
                     narrow, (long long)w);
        if (sc->pass_copy_bytes > 0 && (bytes < sc->pass_copy_bytes || bytes >= 2 * sc->pass_copy_bytes))
            fail_msg("%s: buffer %zu bytes, expected one pass's copy of %zu and less than twice that",
                     describe(sc, "buffer size"), bytes, sc->pass_copy_bytes);
        assert_ok(tcsDestroyDnMat(nb));
        assert_ok(tcsDestroyDnMat(nc));
    }
    void* buffer = tcst_device_poisoned(bytes); /* stale analysis would show */
    assert_true(bytes == 0 || buffer != NULL);

    const size_t mn = (size_t)(m * n), image_bytes = c.count * type_size(ty->c);
    double* ref = (double*)tcst_xmalloc(mn * sizeof(double));
    double* mag = (double*)tcst_xmalloc(mn * sizeof(double));
    unsigned char* first = (unsigned char*)tcst_xmalloc(image_bytes);
    unsigned char* again = (unsigned char*)tcst_xmalloc(image_bytes);
    reference(&a, sc->trans_a, sc->trans_b, bh, b_rows > 0 ? b_rows : 1, (size_t)(b_rows * b_cols),
              m, n, sc->alpha, sc->beta, c0, ref, mag);
    checked_a = &a;

    spmm_call(sc, &s, da.descr, db, dc, buffer, sc->preprocess);
    CUDA_OK(cudaMemcpy(first, c.dev, image_bytes, cudaMemcpyDeviceToHost));
    compare(&c, first, ref, mag, ty, describe(sc, "first run"));

    if (sc->wide) {
        /* The same product with 32-bit indices (its own buffer: with opA = T the sizes
         * differ) gives bitwise the same C. */
        device_csr narrow;
        csr_upload(&narrow, &a, sc->base, ty->ab, 0);
        const size_t narrow_bytes = buffer_size(sc, &s, narrow.descr, db, dc);
        void* other = tcst_device_poisoned(narrow_bytes);
        assert_true(narrow_bytes == 0 || other != NULL);
        tcst_dense_upload(&c);
        spmm_call(sc, &s, narrow.descr, db, dc, other, sc->preprocess);
        CUDA_OK(cudaMemcpy(again, c.dev, image_bytes, cudaMemcpyDeviceToHost));
        if (memcmp(first, again, image_bytes) != 0)
            fail_msg("%s", describe(sc, "64-bit indices differ bitwise from 32-bit ones"));
        csr_free(&narrow);
        tcst_device_free(other);
    }

    /* The same call again from the same C: bitwise the same result. */
    tcst_dense_upload(&c);
    spmm_call(sc, &s, da.descr, db, dc, buffer, 0);
    CUDA_OK(cudaMemcpy(again, c.dev, image_bytes, cudaMemcpyDeviceToHost));
    if (memcmp(first, again, image_bytes) != 0)
        fail_msg("%s", describe(sc, "a repeated run differs bitwise from the first"));

    if (sc->plain_too) {
        void* fresh = tcst_device_poisoned(bytes);
        assert_true(bytes == 0 || fresh != NULL);
        tcst_dense_upload(&c);
        spmm_call(sc, &s, da.descr, db, dc, fresh, 0);
        CUDA_OK(cudaMemcpy(again, c.dev, image_bytes, cudaMemcpyDeviceToHost));
        if (memcmp(first, again, image_bytes) != 0)
            fail_msg("%s", describe(sc, "a run without preprocess differs bitwise from the "
                                        "preprocessed one"));
        tcst_device_free(fresh);
    }

    if (sc->new_values && a.nnz > 0) {
        /* New values in A's value array, same structure and buffer: an analysis kept
         * from preprocess must not keep the old values. */
        for (int64_t e = 0; e < a.nnz; ++e) a.val[e] = rounded(tcst_rng_symmetric(&fx.rng), ty->ab);
        void* host = tcst_xmalloc((size_t)a.nnz * type_size(ty->ab));
        for (int64_t e = 0; e < a.nnz; ++e) put(host, (size_t)e, ty->ab, a.val[e]);
        CUDA_OK(
            cudaMemcpy(da.val, host, (size_t)a.nnz * type_size(ty->ab), cudaMemcpyHostToDevice));
        free(host);
        reference(&a, sc->trans_a, sc->trans_b, bh, b_rows > 0 ? b_rows : 1,
                  (size_t)(b_rows * b_cols), m, n, sc->alpha, sc->beta, c0, ref, mag);
        tcst_dense_upload(&c);
        spmm_call(sc, &s, da.descr, db, dc, buffer, 0);
        CUDA_OK(cudaMemcpy(again, c.dev, image_bytes, cudaMemcpyDeviceToHost));
        compare(&c, again, ref, mag, ty, describe(sc, "run with new values of A"));
    }

    checked_a = NULL;
    free_operands(db, dc, &da, &b, &c);
    tcst_device_free(buffer);
    tcst_scalars_free(&s);
    free(bh);
    free(c0);
    free(ref);
    free(mag);
    free(first);
    free(again);
    tcst_csr_free(&a);
}

static spmm_case plain_case(int type, int64_t n, tcsSpMMAlg_t alg) {
    spmm_case sc;
    memset(&sc, 0, sizeof sc);
    sc.type = type;
    sc.n = n;
    sc.alg = alg;
    sc.b_row = sc.c_row = 1;
    sc.alpha = 1.5;
    sc.beta = 0.0;
    sc.preprocess = 1;
    sc.new_values = 1;
    return sc;
}

/* ---- layout sweeps -------------------------------------------------------------- */

static const tcsSpMMAlg_t DEFAULT_LIKE[] = {TCS_SPMM_ALG_DEFAULT, TCS_SPMM_CSR_ALG1,
                                            TCS_SPMM_CSR_ALG2, TCS_SPMM_CSR_ALG3};

/* Every combination of opA, opB, B and C order, n in {1, 7, 8, 33, 128} and algorithm
 * (ROWSPLIT, MERGE, one of the automatic ones); base, pointer mode, beta, alpha,
 * sortedness and preprocess rotate with a counter so that all their combinations come
 * up; leading-dimension padding and pointer offsets are drawn at random. */
static void sweep(int type) {
    static const int64_t all_ns[] = {1, 7, 8, 33, 128}, quick_ns[] = {8, 33};
    static const int pads[] = {0, 0, 8, 3};
    const int64_t* ns = fx.quick ? quick_ns : all_ns;
    const int n_count = fx.quick ? 2 : 5;
    tcst_csr sorted, shuffled;
    gen_sweep_matrix(&sorted, 0);
    gen_sweep_matrix(&shuffled, 1);
    int count = 0;
    for (int ta = 0; ta < 2; ++ta)
        for (int tb = 0; tb < 2; ++tb)
            for (int b_row = 0; b_row < 2; ++b_row)
                for (int c_row = 0; c_row < 2; ++c_row)
                    for (int ni = 0; ni < n_count; ++ni)
                        for (int slot = 0; slot < 3; ++slot, ++count) {
                            const tcsSpMMAlg_t alg = slot == 0   ? TCS_SPMM_CSR_ROWSPLIT
                                                     : slot == 1 ? TCS_SPMM_CSR_MERGE
                                                                 : DEFAULT_LIKE[(count / 3) % 4];
                            spmm_case sc = plain_case(type, ns[ni], alg);
                            sc.trans_a = ta;
                            sc.trans_b = tb;
                            sc.b_row = b_row;
                            sc.c_row = c_row;
                            sc.base = count % 2;
                            sc.device_scalars = (count / 2) % 2;
                            sc.beta = (count / 4) % 2 ? -0.75 : 0.0;
                            sc.alpha = count % 13 == 5 ? 0.0 : 1.5;
                            sc.preprocess = (count / 8) % 2;
                            sc.b_pad = pads[random_below(4)];
                            sc.c_pad = pads[random_below(4)];
                            sc.b_offset = random_below(4) == 0;
                            sc.c_offset = random_below(4) == 0;
                            check_case((count / 16) % 2 ? &shuffled : &sorted, &sc);
                        }
    tcst_csr_free(&sorted);
    tcst_csr_free(&shuffled);
}

static void test_layouts_fp32(void** state) { (void)state; sweep(FP32); }
static void test_layouts_fp64(void** state) { (void)state; sweep(FP64); }
static void test_layouts_fp16(void** state) { (void)state; sweep(FP16); }
static void test_layouts_fp16_to_fp32(void** state) { (void)state; sweep(FP16_C32); }
static void test_layouts_bf16(void** state) { (void)state; sweep(BF16); }
static void test_layouts_bf16_to_fp32(void** state) { (void)state; sweep(BF16_C32); }

/* ---- row lengths ---------------------------------------------------------------- */

/* Rows of thousands of entries among empty and short ones: a row spans many
 * merge-path segments (carry-outs and their fix-up), and for opA = T the long rows
 * become thousands of rows with one entry. B is column-major at n = 8 and 128, where
 * row-split reads its row-wise copy from the buffer (its long-row and very long
 * rows' blocks included, the latter in parts at n = 8). */
static void test_long_rows(void** state) {
    (void)state;
    static const int64_t ns[] = {1, 8, 33, 128};
    static const tcsSpMMAlg_t algs[] = {TCS_SPMM_CSR_ROWSPLIT, TCS_SPMM_CSR_MERGE,
                                        TCS_SPMM_ALG_DEFAULT};
    tcst_csr a;
    gen_mixed(&a, 60, 6000, 6, 0.5, 5, 5000, 0.0);
    tcst_csr_shuffle_columns(&a, tcst_rng_next(&fx.rng));
    for (int type = FP32; type <= FP64; ++type)
        for (int ta = 0; ta < 2; ++ta)
            for (int ni = 0; ni < 4; ++ni)
                for (int ai = 0; ai < 3; ++ai) {
                    spmm_case sc = plain_case(type, ns[ni], algs[ai]);
                    sc.trans_a = ta;
                    sc.beta = ai == 1 ? 0.5 : 0.0;
                    sc.c_row = ni != 2;
                    sc.b_row = ni % 2 == 0;
                    sc.base = ni % 2;
                    check_case(&a, &sc);
                }
    tcst_csr_free(&a);
}

/* Merge-path (TCS_SPMM_CSR_MERGE), whose blocks stage a tile of the merge path in shared
 * memory and carry partial sums between their groups and (through the fix-up) between
 * tiles: a matrix with hub rows of 3000 and 2100 entries (longer than a tile), a run of
 * 2500 empty rows (more than a tile's items at n = 1) and short and empty rows around
 * them, and a single row of 2900 entries; n = 1, 2, 8, 33, 128, 512 (one column lane up
 * to two vectors on a warp); fp32, fp64, fp16; both bases, 32- and 64-bit indices
 * (bitwise the same), beta reading C or not. Every case is also run on a buffer
 * preprocess never saw: bitwise the same C. */
static void test_merge_path(void** state) {
    (void)state;
    static const int64_t ns[] = {1, 2, 8, 33, 128, 512};
    static const int types[] = {FP32, FP64, FP16};
    enum { ROWS = 3010 };
    int* len = (int*)tcst_xmalloc(ROWS * sizeof(int));
    for (int i = 0; i < ROWS; ++i) len[i] = i < 300 ? (i % 7 == 2 ? 0 : 1 + i % 5) : i < 2800 ? 0 : i % 3;
    len[150] = 3000;
    len[2800] = 2100;
    len[ROWS - 1] = 0;
    tcst_csr gaps, single;
    gen_lengths(&gaps, ROWS, 3200, len, 0.0);
    len[0] = 2900;
    gen_lengths(&single, 1, 3000, len, 0.0);
    free(len);
    const tcst_csr* mats[] = {&gaps, &single};
    int count = 0;
    for (int mi = 0; mi < 2; ++mi)
        for (int ni = 0; ni < 6; ++ni)
            for (int ti = 0; ti < 3; ++ti, ++count) {
                if (fx.quick && count % 4 != 0) continue;
                spmm_case sc = plain_case(types[ti], ns[ni], TCS_SPMM_CSR_MERGE);
                sc.plain_too = 1;
                sc.wide = count % 2;
                sc.base = (count / 2) % 2;
                sc.beta = count % 3 == 1 ? 0.5 : 0.0;
                sc.device_scalars = (count / 3) % 2;
                sc.trans_a = mi == 0 && count % 5 == 4;
                sc.b_row = count % 7 != 6;
                sc.c_row = count % 4 != 3;
                check_case(mats[mi], &sc);
            }
    tcst_csr_free(&gaps);
    tcst_csr_free(&single);
}

/* 64-bit indices (TCS_INDEX_64I offsets and columns) through every kernel: all types,
 * opA N and T, both bases, row-split (with long and very long rows), merge-path, the
 * automatic rule (CSR-vector at small n) and the block family (TCS_SPMM_BSR_TC and
 * DEFAULT, which read A as CSR to build their blocks), each within the reference's
 * tolerance and bitwise equal to the same call with 32-bit indices (check_case). */
static void test_index64(void** state) {
    (void)state;
    static const int64_t ns[] = {1, 8, 33};
    static const tcsSpMMAlg_t algs[] = {TCS_SPMM_CSR_ROWSPLIT, TCS_SPMM_CSR_MERGE,
                                        TCS_SPMM_CSR_ALG2, TCS_SPMM_ALG_DEFAULT, TCS_SPMM_BSR_TC};
    const int type_count = (int)(sizeof TYPES / sizeof TYPES[0]);
    tcst_csr a;
    gen_mixed(&a, 400, 3000, 10, 0.1, 3, 2800, 0.3);
    tcst_csr_shuffle_columns(&a, tcst_rng_next(&fx.rng));
    int count = 0;
    for (int type = 0; type < type_count; ++type)
        for (int ta = 0; ta < 2; ++ta)
            for (int ni = 0; ni < 3; ++ni)
                for (int ai = 0; ai < 5; ++ai, ++count) {
                    if (ta && algs[ai] == TCS_SPMM_BSR_TC) continue; /* A as stored only */
                    if (fx.quick && count % 3 != 0) continue;
                    spmm_case sc = plain_case(type, ns[ni], algs[ai]);
                    sc.wide = 1;
                    sc.trans_a = ta;
                    sc.base = count % 2;
                    sc.beta = (count / 2) % 2 ? 0.5 : 0.0;
                    sc.b_row = (count / 4) % 2;
                    sc.c_row = ni != 1;
                    sc.device_scalars = (count / 3) % 2;
                    sc.preprocess = (count / 5) % 2;
                    check_case(&a, &sc);
                }
    tcst_csr_free(&a);
}

/* tcsSpMM_bufferSize's status for A of an index-type case (B and C of 4 columns). */
static tcsStatus_t spmm_size_status(tcsConstSpMatDescr_t a, int64_t side, int ta, void* arrays) {
    const float one = 1.0f, zero = 0.0f;
    tcsConstDnMatDescr_t b = NULL;
    tcsDnMatDescr_t c = NULL;
    assert_ok(tcsCreateConstDnMat(&b, side, 4, 4, arrays, CUDA_R_32F, TCS_ORDER_ROW));
    assert_ok(tcsCreateDnMat(&c, side, 4, 4, arrays, CUDA_R_32F, TCS_ORDER_ROW));
    size_t bytes = 0;
    const tcsStatus_t got = tcsSpMM_bufferSize(
        fx.handle, ta ? TCS_OPERATION_TRANSPOSE : TCS_OPERATION_NON_TRANSPOSE,
        TCS_OPERATION_NON_TRANSPOSE, &one, a, b, &zero, c, CUDA_R_32F, TCS_SPMM_ALG_DEFAULT,
        &bytes);
    assert_ok(tcsDestroyDnMat(b));
    assert_ok(tcsDestroyDnMat(c));
    return got;
}

/* The index types of tcst_index_types.h get their statuses, with either opA. */
static void test_index_type_statuses(void** state) {
    (void)state;
    void* arrays = NULL;
    CUDA_OK(cudaMalloc(&arrays, 1024));
    tcst_check_index_cases(arrays, spmm_size_status);
    CUDA_OK(cudaFree(arrays));
}

/* A power-law graph (R-MAT): rows from empty to hundreds of entries. At n = 1 the
 * rows beyond the groups' threshold go a warp each, the longest to blocks in parts
 * (cpp/spmm/csr/single_column.cuh). */
static void test_power_law(void** state) {
    (void)state;
    static const tcsSpMMAlg_t algs[] = {TCS_SPMM_CSR_ROWSPLIT, TCS_SPMM_CSR_MERGE,
                                        TCS_SPMM_ALG_DEFAULT};
    tcst_csr a;
    assert_int_equal(tcst_gen_rmat(12, 8, 0.57, 0.19, 0.19, tcst_rng_next(&fx.rng), &a), 0);
    for (int ta = 0; ta < 2; ++ta)
        for (int ai = 0; ai < 3; ++ai)
            for (int ni = 0; ni < 3; ++ni) {
                static const int64_t ns[] = {1, 8, 32};
                spmm_case sc = plain_case(FP32, ns[ni], algs[ai]);
                sc.trans_a = ta;
                check_case(&a, &sc);
                sc.type = FP16;
                check_case(&a, &sc);
            }
    tcst_csr_free(&a);
}

/* Enough rows that row-split's groups make several waves of the device (its "busy"
 * geometry: one nonzero lane per row and, where a warp of column lanes would cover
 * the slab with one vector each, two rows per warp with two vectors per lane): n = 96
 * and 128 in fp32, 40 and 64 in fp64 (slabs wider than C; B's columns read element by
 * element for n = 33), with long rows listed beside the groups, empty rows,
 * unsorted columns, base one, beta 0 with NaN in C or beta 0.5, and B or C
 * column-major. The long rows have 700 nonzeros, then 2500: with two vectors per lane
 * on a busy device, the long rows' tier, then the very long rows' (beyond 2048). */
static void test_busy_device(void** state) {
    (void)state;
    static const int64_t ns32[] = {33, 96, 128}, ns64[] = {40, 64, 128};
    static const int long_lens[] = {700, 2500};
    for (int li = 0; li < 2; ++li) {
        tcst_csr a;
        gen_mixed(&a, fx.quick ? 24000 : 60000, 9000, 12, 0.1, 40, long_lens[li], 0.2);
        tcst_csr_shuffle_columns(&a, tcst_rng_next(&fx.rng));
        for (int type = FP32; type <= FP64; ++type)
            for (int ni = 0; ni < 3; ++ni) {
                spmm_case sc = plain_case(type, type == FP32 ? ns32[ni] : ns64[ni],
                                          ni == 0 ? TCS_SPMM_CSR_ROWSPLIT : TCS_SPMM_ALG_DEFAULT);
                sc.base = random_below(2);
                sc.beta = random_below(2) ? 0.5 : 0.0;
                sc.device_scalars = random_below(2);
                sc.preprocess = ni != 1;
                check_case(&a, &sc);
                sc.b_row = ni == 2 ? 0 : 1;
                sc.c_row = ni == 1 ? 0 : 1;
                check_case(&a, &sc);
            }
        tcst_csr_free(&a);
    }
}

/* Groups of one or two column lanes (fp32 n <= 8, fp64 n <= 4, fp16 n <= 16) on a
 * device they fill give each listed long row a warp instead of a block, and cut rows
 * beyond 8 of a warp's load batches (1024 nonzeros with two column lanes, 2048 with
 * one) into parts (geometry.hpp, plan_long_rows). 150000 rows of 1-12 nonzeros keep
 * an H100's 132 SMs from being underfilled at these n (one column lane needs more than
 * 118272 rows). The long rows: 5000 rows of 40 nonzeros (more tasks than the wave of
 * long-row blocks has warps: warps take several), 40 rows of 700 (the warps' tier),
 * 40 rows of 2500 (the parts). Cases: fp32 n = 8 (two column lanes), 4 (one), 5
 * (element by element), fp64 n = 4, fp16 n = 16; unsorted columns, empty rows; base,
 * beta (0 with NaN in C, or 0.5) and pointer mode drawn at random; with and without
 * preprocess. */
static void test_long_rows_on_warps(void** state) {
    (void)state;
    static const struct {
        int type;
        int64_t n;
    } cases[] = {{FP32, 8}, {FP32, 4}, {FP32, 5}, {FP64, 4}, {FP16, 16}};
    static const int long_rows[] = {5000, 40, 40}, long_lens[] = {40, 700, 2500};
    for (int li = 0; li < 3; ++li) {
        tcst_csr a;
        gen_mixed(&a, 150000, 20000, 12, 0.1, long_rows[li], long_lens[li], 0.2);
        tcst_csr_shuffle_columns(&a, tcst_rng_next(&fx.rng));
        for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ++ci) {
            spmm_case sc = plain_case(cases[ci].type, cases[ci].n,
                                      ci % 2 ? TCS_SPMM_CSR_ROWSPLIT : TCS_SPMM_ALG_DEFAULT);
            sc.base = random_below(2);
            sc.beta = random_below(2) ? 0.5 : 0.0;
            sc.device_scalars = random_below(2);
            sc.preprocess = (int)((ci + (size_t)li) % 2);
            check_case(&a, &sc);
        }
        tcst_csr_free(&a);
    }
}

/* ---- runs of rows with one pattern ---------------------------------------------- */

/* Row-split's busy geometry with 16 or more column lanes shares the loads of B among
 * consecutive rows with one pattern (cpp/spmm/csr/row_runs.cuh), in windows of 3 or 4 rows
 * that tcsSpMM_preprocess picks where they find at most 0.4 runs per row (runs.hpp):
 * 40000 rows in blocks of 3 (windows of 3: about 0.36 runs per row) and of 8 (windows
 * of 4: about 0.28), with runs split inside blocks, unsorted columns, runs of empty
 * rows, runs of 700-column rows (the long-row blocks'), and rows that look like their
 * run but are not (columns in another order, the last column another, one column
 * fewer). Cases: fp32 n = 64 (one vector per lane), 128, 512 (two slabs) and 97 (B read
 * element by element), fp64 n = 64 and 130, column-major B and C (the row-wise copies)
 * and opA = T (A^T: whatever runs it has). Each first run is preprocessed, and must
 * equal bitwise a run on a buffer preprocess never saw (no runs: the plain groups);
 * assert_window checks, on captured calls, which kernel each of the two launches.
 * Base, beta (0 with NaN in C, or not) and pointer mode drawn at random. */
/* Captures two tcsSpMM calls on A (fp32, n columns, row-major B and C, the default
 * algorithm), one on a buffer tcsSpMM_preprocess saw, one on a buffer it never saw, and
 * writes the grid of the kernel each launches whose name holds `kernel` and
 * `also[call]` (0: none) to grids[call]. */
static void captured_grids(const tcst_csr* a, int64_t n, const char* kernel,
                           const char* const also[2], unsigned grids[2]) {
    const float alpha = 1.0f, beta = 0.0f;
    device_csr da;
    tcst_dense b, c;
    tcsConstDnMatDescr_t db;
    tcsDnMatDescr_t dc;
    cudaStream_t stream;
    csr_upload(&da, a, 0, CUDA_R_32F, 0);
    tcst_dense_make(&b, a->cols, n, 1, 0, 0, CUDA_R_32F);
    free(tcst_dense_fill_random(&b, &fx.rng));
    tcst_dense_upload(&b);
    tcst_dense_make(&c, a->rows, n, 1, 0, 0, CUDA_R_32F);
    tcst_dense_upload(&c);
    assert_ok(tcsCreateConstDnMat(&db, a->cols, n, b.ld, tcst_dense_values(&b), CUDA_R_32F,
                                  TCS_ORDER_ROW));
    assert_ok(tcsCreateDnMat(&dc, a->rows, n, c.ld, tcst_dense_values(&c), CUDA_R_32F,
                             TCS_ORDER_ROW));
    CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    assert_ok(tcsSetStream(fx.handle, stream));
    const tcsOperation_t op = TCS_OPERATION_NON_TRANSPOSE;
    size_t bytes = 0;
    /* CSR_ALG2: the CSR family's own rule (DEFAULT may take the block family after
     * preprocess, see gpu_spmm_blocks). */
    assert_ok(tcsSpMM_bufferSize(fx.handle, op, op, &alpha, da.descr, db, &beta, dc, CUDA_R_32F,
                                 TCS_SPMM_CSR_ALG2, &bytes));
    void* kept = tcst_device_poisoned(bytes);
    void* fresh = tcst_device_poisoned(bytes);
    assert_true(kept != NULL && fresh != NULL);
    assert_ok(tcsSpMM_preprocess(fx.handle, op, op, &alpha, da.descr, db, &beta, dc, CUDA_R_32F,
                                 TCS_SPMM_CSR_ALG2, kept));
    CUDA_OK(cudaStreamSynchronize(stream));
    for (int g = 0; g < 2; ++g) {
        cudaGraph_t graph;
        CUDA_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
        const tcsStatus_t st = tcsSpMM(fx.handle, op, op, &alpha, da.descr, db, &beta, dc,
                                       CUDA_R_32F, TCS_SPMM_CSR_ALG2, g == 0 ? kept : fresh);
        CUDA_OK(cudaStreamEndCapture(stream, &graph));
        assert_int_equal(st, TCS_STATUS_SUCCESS);
        grids[g] = graph_kernel_grid(graph, kernel, also[g]);
        CUDA_OK(cudaGraphDestroy(graph));
    }
    assert_ok(tcsSetStream(fx.handle, NULL));
    CUDA_OK(cudaStreamDestroy(stream));
    free_operands(db, dc, &da, &b, &c);
    tcst_device_free(kept);
    tcst_device_free(fresh);
}

/* That preprocess chose windows of `window` rows for A (fp32, n = 128) and that a call
 * on a buffer preprocess never saw runs the plain groups: row_split_kernel with Z =
 * window, then Z = 1 (the template argument before the index type: "Li<Z>EiE" at the end
 * of the mangled arguments, 32-bit indices). */
static void assert_window(const tcst_csr* a, int window) {
    char z[16];
    snprintf(z, sizeof z, "Li%dEiEEv", window);
    const char* const also[2] = {z, "Li1EiEEv"};
    unsigned grids[2];
    captured_grids(a, 128, "row_split_kernel", also, grids);
    if (grids[0] == 0) fail_msg("preprocessed call: no row_split_kernel with Z = %d", window);
    if (grids[1] == 0) fail_msg("plain call: no row_split_kernel with Z = 1");
}

static void test_row_runs(void** state) {
    (void)state;
    static const struct {
        int block, type, trans_a, b_row, c_row;
        int64_t n;
    } cases[] = {{3, FP32, 0, 1, 1, 128}, {8, FP32, 0, 1, 1, 512}, {3, FP64, 0, 1, 1, 64},
                 {8, FP64, 0, 1, 1, 130}, {3, FP32, 0, 1, 1, 512}, {3, FP32, 0, 1, 1, 64},
                 {3, FP32, 0, 1, 1, 97},  {8, FP32, 0, 1, 1, 128}, {3, FP32, 0, 0, 0, 128},
                 {3, FP32, 1, 1, 1, 128}};
    const size_t count = fx.quick ? 4 : sizeof cases / sizeof cases[0];
    for (int block = 3; block <= 8; block += 5) {
        tcst_csr a;
        gen_runs(&a, 40000, 30000, block, 24, 400, 700);
        /* The matrix must take the windows the cases are meant for. */
        const double r3 = runs_per_row(&a, 3), r4 = runs_per_row(&a, 4);
        if (block == 3 ? !(r3 <= 0.38 && r3 < r4) : !(r4 <= 0.38 && r4 < r3))
            fail_msg("blocks of %d: %.3f runs per row in windows of 3, %.3f in windows of 4",
                     block, r3, r4);
        assert_window(&a, block == 3 ? 3 : 4);
        for (size_t i = 0; i < count; ++i) {
            if (cases[i].block != block) continue;
            spmm_case sc = plain_case(cases[i].type, cases[i].n, TCS_SPMM_CSR_ALG2);
            sc.trans_a = cases[i].trans_a;
            sc.b_row = cases[i].b_row;
            sc.c_row = cases[i].c_row;
            sc.base = random_below(2);
            sc.beta = random_below(2) ? 0.5 : 0.0;
            sc.device_scalars = random_below(2);
            sc.new_values = i < 2;
            sc.plain_too = 1;
            check_case(&a, &sc);
        }
        tcst_csr_free(&a);
    }
}

/* ---- blocks for long rows ------------------------------------------------------- */

/* Long-row blocks from preprocess's counts (cpp/spmm/spmm.cu, count_found): a call
 * without them plans a wave of blocks for the long rows from the lists' bound; a
 * preprocessed one gives the long rows only the blocks their tasks need. On 20000 x
 * 15000 with rows of 0-12 nonzeros (unsorted), without long rows and with eight of
 * 3000 (very long: cut into parts), at n = 1 (single_column_kernel) and 8
 * (row_split_kernel), the preprocessed call must launch fewer blocks than the other,
 * and C must equal the reference and, bitwise, the call without preprocess. Base, beta
 * (0 with NaN in C, or not) and pointer mode drawn at random. */
static void test_long_row_blocks_counted(void** state) {
    (void)state;
    for (int long_rows = 0; long_rows <= 8; long_rows += 8) {
        tcst_csr a;
        gen_mixed(&a, 20000, 15000, 12, 0.1, long_rows, 3000, 0.0);
        tcst_csr_shuffle_columns(&a, tcst_rng_next(&fx.rng));
        for (int64_t n = 1; n <= 8; n += 7) {
            const char* const any[2] = {"", ""};
            unsigned grids[2];
            captured_grids(&a, n, n == 1 ? "single_column_kernel" : "row_split_kernel", any, grids);
            if (grids[0] == 0 || grids[1] == 0 || grids[0] >= grids[1])
                fail_msg("%d long rows, n = %lld: %u blocks preprocessed, %u without", long_rows,
                         (long long)n, grids[0], grids[1]);
            spmm_case sc = plain_case(FP32, n, TCS_SPMM_CSR_ALG2);
            sc.base = random_below(2);
            sc.beta = random_below(2) ? 0.5 : 0.0;
            sc.device_scalars = random_below(2);
            sc.plain_too = 1;
            check_case(&a, &sc);
        }
        tcst_csr_free(&a);
    }
}

/* ---- row-wise copies ------------------------------------------------------------ */

/* Column-wise op(B) (B column-major, or row-major and transposed) and column-major C
 * through the buffer's row-wise copies (cpp/spmm/csr/rowwise.hpp): sizes past both
 * copies' thresholds (op(B) of 2^18 elements or more; C of 2^19 with 16 or more column
 * lanes and a mean row of 32 nonzeros or fewer), every element type, opA both ways,
 * n = 100 (the copies' rows padded to whole vectors) and 128, rows of 3000 nonzeros
 * among short and empty ones, with padding, offsets, base, beta (0 with NaN in C, or
 * not), pointer mode and preprocess drawn at random. Then n = 8 over an op(B) of 2^18
 * elements, where row-split reads the copy of B for rows of 5000 nonzeros cut into
 * parts, and C column-major or not. */
static void test_rowwise_copies(void** state) {
    (void)state;
    tcst_csr a;
    gen_mixed(&a, 6000, 6000, 20, 0.1, 8, 3000, 0.2);
    tcst_csr_shuffle_columns(&a, tcst_rng_next(&fx.rng));
    const int last_type = fx.quick ? FP64 : BF16_C32;
    for (int type = FP32; type <= last_type; ++type)
        for (int ta = 0; ta < 2; ++ta)
            for (int ni = 0; ni < 2; ++ni) {
                spmm_case sc = plain_case(type, ni ? 128 : 100,
                                          ni ? TCS_SPMM_ALG_DEFAULT : TCS_SPMM_CSR_ROWSPLIT);
                sc.trans_a = ta;
                sc.trans_b = random_below(2);
                sc.b_row = sc.trans_b; /* op(B) column-wise either way */
                sc.c_row = 0;
                sc.base = random_below(2);
                sc.beta = random_below(2) ? 0.5 : 0.0;
                sc.device_scalars = random_below(2);
                sc.preprocess = random_below(2);
                sc.b_pad = random_below(2) * 3;
                sc.c_pad = random_below(2) * 5;
                sc.b_offset = random_below(2);
                sc.c_offset = random_below(2);
                check_case(&a, &sc);
            }
    tcst_csr_free(&a);

    gen_mixed(&a, 60, 1 << 15, 6, 0.5, 5, 5000, 0.0);
    for (int type = FP32; type <= FP16; ++type)
        for (int c_row = 0; c_row < 2; ++c_row) {
            spmm_case sc = plain_case(type, 8, TCS_SPMM_CSR_ROWSPLIT);
            sc.b_row = 0;
            sc.c_row = c_row;
            sc.base = random_below(2);
            sc.beta = c_row ? 0.0 : -0.75;
            check_case(&a, &sc);
        }
    tcst_csr_free(&a);
}

/* Row-wise copies of more than 128 MiB for all n columns: row-split then does the
 * columns 32 at a time, and the buffer is the one of 32 columns. A 300000 x 300000
 * matrix (rows of 0-8 nonzeros, six of 5000 in the very long rows' tier, unsorted
 * columns): fp32 at n = 72 with both copies (passes of 32, 32 and 8 columns: at 32
 * columns C is written directly), fp64 with opA = T at n = 40 with both copies at every
 * width (the last pass of 8 columns through the C copy), and fp32 with op(B) = B^T of a
 * row-major B into row-major C at n = 128 (the B copy alone over the budget); and the
 * padded copy of a row-major op(B) (B row-major, n = 65 in fp64: 4.1 nonzeros per row
 * of op(B), passes of 32, 32 and 1 columns, the last on the one-column kernel reading B
 * as it is; n = 67 with opA = T, its last pass of 3 columns copied and on groups of two
 * column lanes: the last pass's own geometry), whose buffer holds the copy of 32 columns,
 * less than twice that (the copy of all 65 would be more): not the one of n = 32 plus the
 * copy, since row-split's geometry, and with it the long rows' partial sums, is chosen
 * for reading the copy. Base, beta (0 with NaN in C, or not),
 * pointer mode, preprocess, padding and offsets drawn at random. Also in the quick mode:
 * under compute-sanitizer memcheck it took 10 s on the H100. */
static void test_rowwise_chunks(void** state) {
    (void)state;
    static const struct {
        int type, trans_a, trans_b, padded;
        int64_t n;
    } cases[] = {{FP32, 0, 0, 0, 72}, {FP64, 1, 0, 0, 40}, {FP32, 0, 1, 0, 128}, {FP64, 0, 0, 1, 65},
                 {FP64, 1, 0, 1, 67}};
    const size_t count = sizeof cases / sizeof cases[0];
    tcst_csr a;
    gen_mixed(&a, 300000, 300000, 8, 0.1, 6, 5000, 0.0);
    tcst_csr_shuffle_columns(&a, tcst_rng_next(&fx.rng));
    for (size_t i = 0; i < count; ++i) {
        spmm_case sc = plain_case(cases[i].type, cases[i].n, TCS_SPMM_ALG_DEFAULT);
        sc.trans_a = cases[i].trans_a;
        sc.trans_b = cases[i].trans_b;
        sc.b_row = cases[i].padded ? !sc.trans_b : sc.trans_b; /* op(B) row- or column-wise */
        sc.c_row = sc.trans_b || cases[i].padded;
        sc.base = random_below(2);
        sc.beta = random_below(2) ? 0.5 : 0.0;
        sc.device_scalars = random_below(2);
        sc.preprocess = random_below(2);
        sc.new_values = 0;
        sc.b_pad = random_below(2) * 3;
        sc.c_pad = random_below(2) * 5;
        sc.b_offset = random_below(2);
        sc.c_offset = random_below(2);
        sc.same_buffer_as_n = 32;
        if (cases[i].padded) sc.pass_copy_bytes = (size_t)a.cols * 32 * type_size(TYPES[sc.type].ab);
        check_case(&a, &sc);
    }
    tcst_csr_free(&a);
}

/* ---- the padded copy of a row-major op(B) --------------------------------------- */

/* Row-major op(B) (B row-major, or column-major with opB = T) whose n is no whole number
 * of 16-byte vectors (n = 33, 65, 129; ldb = n or odd beyond it), where row-split reads a
 * padded copy of it from the buffer (cpp/spmm/csr/rules.hpp, padded_b_pays: op(B)'s
 * rows read by 4 or more nonzeros on average, 2^22 products or more): a 40000 x 8000
 * matrix of rows of 1-24 nonzeros among empty ones, eight of 3000 (the long and very
 * long rows' blocks read the copy too), unsorted columns; every element type, opA both
 * ways, C row-major with odd ldc (column-major in two cases, through C's row-wise copy
 * too), alpha 1.5, beta nonzero (C read) or 0 with NaN in C, preprocess or not, and the
 * call without preprocess bitwise the same. Captured calls (fp32, n = 33, ld = n)
 * launch padded_rows_kernel there and not where op(B)'s rows are read too rarely (the
 * same rows over 400000 columns). The copy over 128 MiB, in passes of 32 columns, is
 * test_rowwise_chunks'. */
static void test_rowmajor_padded(void** state) {
    (void)state;
    static const struct {
        int type, trans_a, trans_b, c_row, b_pad, c_pad;
        int64_t n;
        tcsSpMMAlg_t alg;
        double beta;
    } cases[] = {
        {FP32, 0, 0, 1, 0, 0, 33, TCS_SPMM_ALG_DEFAULT, 0.0},
        {FP64, 0, 0, 1, 2, 4, 33, TCS_SPMM_ALG_DEFAULT, -0.75},
        {FP32, 0, 0, 1, 2, 2, 65, TCS_SPMM_CSR_ROWSPLIT, 0.5},
        {FP64, 1, 0, 1, 4, 2, 129, TCS_SPMM_ALG_DEFAULT, 0.0},
        {FP32, 0, 0, 1, 4, 0, 129, TCS_SPMM_ALG_DEFAULT, -0.75},
        {FP64, 0, 1, 1, 0, 2, 65, TCS_SPMM_CSR_ALG2, 0.5},
        {FP32, 1, 1, 0, 2, 1, 33, TCS_SPMM_CSR_ROWSPLIT, 0.5},
        {FP64, 0, 0, 0, 4, 3, 129, TCS_SPMM_ALG_DEFAULT, 0.0},
        {FP16, 0, 0, 1, 2, 2, 33, TCS_SPMM_ALG_DEFAULT, 0.5},
        {FP16_C32, 0, 0, 1, 0, 2, 65, TCS_SPMM_ALG_DEFAULT, 0.0},
        {BF16, 1, 0, 1, 4, 0, 129, TCS_SPMM_CSR_ROWSPLIT, -0.75},
        {BF16_C32, 0, 1, 1, 2, 4, 33, TCS_SPMM_ALG_DEFAULT, 0.5},
    };
    const size_t count = fx.quick ? 4 : sizeof cases / sizeof cases[0];
    tcst_csr a;
    gen_mixed(&a, 40000, 8000, 24, 0.1, 8, 3000, 0.0);
    tcst_csr_shuffle_columns(&a, tcst_rng_next(&fx.rng));
    const char* const any[2] = {"", ""};
    unsigned grids[2];
    captured_grids(&a, 33, "padded_rows_kernel", any, grids);
    if (grids[0] == 0 || grids[1] == 0)
        fail_msg("n = 33, 8000 rows of op(B) for %lld nonzeros: no padded_rows_kernel (%u, %u)",
                 (long long)a.nnz, grids[0], grids[1]);
    for (size_t i = 0; i < count; ++i) {
        spmm_case sc = plain_case(cases[i].type, cases[i].n, cases[i].alg);
        sc.trans_a = cases[i].trans_a;
        sc.trans_b = cases[i].trans_b;
        sc.b_row = !cases[i].trans_b; /* op(B) row-wise either way */
        sc.c_row = cases[i].c_row;
        sc.b_pad = cases[i].b_pad;
        sc.c_pad = cases[i].c_pad;
        sc.beta = cases[i].beta;
        sc.base = random_below(2);
        sc.device_scalars = random_below(2);
        sc.preprocess = random_below(2);
        sc.new_values = i < 2;
        sc.plain_too = 1;
        sc.b_offset = i % 5 == 4;
        check_case(&a, &sc);
    }
    tcst_csr_free(&a);

    gen_mixed(&a, 40000, 400000, 24, 0.1, 8, 3000, 0.0);
    captured_grids(&a, 33, "padded_rows_kernel", any, grids);
    if (grids[0] != 0 || grids[1] != 0)
        fail_msg("n = 33, 400000 rows of op(B) for %lld nonzeros: padded_rows_kernel ran",
                 (long long)a.nnz);
    tcst_csr_free(&a);
}

/* ---- CSR-vector ----------------------------------------------------------------- */

/* The automatic rule's CSR-vector family (column-wise op(B) at n = 2 only; n == 1 and
 * n >= 3 reach row-split and its long-row blocks), which no algorithm value forces:
 * lanes per row from 2 to 32 (mean row lengths of about 0.9, 5.8, 9.5 and 41: 2, 8, 16
 * and 32 lanes; in their transposes 1.4, 2.3, 7.1 and 41: 2, 4, 8 and 32 lanes), two
 * rows of 4000 entries (long rows, which CSR-vector's long rows' kernel sums:
 * test_vector_long_rows), empty rows, unsorted columns, a tile of columns partly
 * outside C (n = 2 with tiles of 4 columns), n = 2 and 3 on either side of the rule's
 * limit, 7 and 16 beyond it on row-split. op(B) is column-wise (B column-major, or
 * row-major and transposed); for n == 1 also plain row-major B. Every element type;
 * base, beta (0 with NaN in C, or not), pointer mode, preprocess, which automatic
 * algorithm value, C's order, padding and offsets drawn at random for each case. */
static void test_vector_rows(void** state) {
    (void)state;
    static const int64_t all_ns[] = {1, 2, 3, 7, 2, 16}, quick_ns[] = {1, 2};
    static const int all_types[] = {FP32, FP64, FP16, FP16_C32, BF16, BF16_C32};
    static const int quick_types[] = {FP64, FP16};
    static const int pads[] = {0, 0, 8, 3};
    const int64_t* ns = fx.quick ? quick_ns : all_ns;
    const int* types = fx.quick ? quick_types : all_types;
    const int n_count = fx.quick ? 2 : 6, type_count = fx.quick ? 2 : 6;
    tcst_csr mats[4];
    gen_mixed(&mats[0], 2000, 5000, 4, 0.3, 1, 4000, 0.05);
    gen_mixed(&mats[1], 300, 400, 20, 0.1, 0, 0, 0.3);
    tcst_csr_shuffle_columns(&mats[1], tcst_rng_next(&fx.rng));
    assert_int_equal(tcst_gen_banded(3000, 20, tcst_rng_next(&fx.rng), &mats[2]), 0);
    gen_mixed(&mats[3], 3000, 2000, 2, 0.4, 0, 0, 0.0);
    for (int mi = 0; mi < 4; ++mi)
        for (int ta = 0; ta < 2; ++ta)
            for (int ti = 0; ti < type_count; ++ti)
                for (int ni = 0; ni < n_count; ++ni)
                    for (int layout = 0; layout < 2; ++layout) {
                        spmm_case sc = plain_case(types[ti], ns[ni], DEFAULT_LIKE[random_below(4)]);
                        sc.trans_a = ta;
                        sc.b_row = layout;
                        sc.trans_b = layout && ns[ni] > 1;
                        sc.c_row = random_below(3) == 0;
                        sc.base = random_below(2);
                        sc.beta = random_below(2) ? 0.5 : 0.0;
                        sc.device_scalars = random_below(2);
                        sc.preprocess = random_below(2);
                        sc.b_pad = pads[random_below(4)];
                        sc.c_pad = pads[random_below(4)];
                        sc.b_offset = random_below(4) == 0;
                        sc.c_offset = random_below(4) == 0;
                        check_case(&mats[mi], &sc);
                    }
    for (int mi = 0; mi < 4; ++mi) tcst_csr_free(&mats[mi]);
}

/* CSR-vector's long rows (cpp/spmm/csr/vector_rows.cuh, plan_vector_long_rows in
 * geometry.hpp): the automatic rule takes CSR-vector for a column-wise op(B) at n = 2
 * (row-split, with its own long-row blocks, at n = 3 and beyond), and rows beyond the plan's threshold are listed in the buffer by every call (by
 * preprocess, or by the call itself) and summed by the long rows' kernel, so that a
 * call gives bitwise the same C with and without preprocess. Hub rows among short
 * ones: an R-MAT graph of 65536 rows (scale 16: its groups fill an H100 or H200, long
 * rows a warp each, hubs of thousands cut into parts at small n; opA = T too) and 500
 * rows with four of 5000 (groups that leave the device underfilled: a block per long
 * row). B and C column-major, n = 2 (three times: opA = T once), 3, 8, 16, fp32 and fp64, every automatic
 * algorithm value; each case preprocessed, then made on a buffer preprocess never saw
 * (bitwise the same C), with 64-bit indices against 32-bit ones (bitwise), all against
 * the reference; base, beta and pointer mode rotate. */
static void test_vector_long_rows(void** state) {
    (void)state;
    static const int64_t all_ns[] = {2, 3, 2, 8, 2, 16}, quick_ns[] = {2, 16};
    const int64_t* ns = fx.quick ? quick_ns : all_ns;
    const int n_count = fx.quick ? 2 : 6;
    tcst_csr mats[2];
    assert_int_equal(
        tcst_gen_rmat(fx.quick ? 14 : 16, 8, 0.57, 0.19, 0.19, tcst_rng_next(&fx.rng), &mats[0]), 0);
    gen_mixed(&mats[1], 500, 6000, 6, 0.1, 4, 5000, 0.0);
    tcst_csr_shuffle_columns(&mats[1], tcst_rng_next(&fx.rng));
    int count = 0;
    for (int mi = 0; mi < 2; ++mi)
        for (int type = FP32; type <= FP64; ++type)
            for (int ni = 0; ni < n_count; ++ni, ++count) {
                spmm_case sc = plain_case(type, ns[ni], DEFAULT_LIKE[count % 4]);
                sc.b_row = 0;
                sc.c_row = 0;
                sc.trans_a = mi == 0 && ni % 3 == 1;
                sc.wide = 1;
                sc.plain_too = 1;
                sc.base = count % 2;
                sc.beta = (count / 2) % 2 ? 0.5 : 0.0;
                sc.device_scalars = (count / 3) % 2;
                check_case(&mats[mi], &sc);
            }
    tcst_csr_free(&mats[0]);
    tcst_csr_free(&mats[1]);
}

/* Millions of nonzeros: merge-path segments longer than the minimum, a carry-out in
 * almost every segment, the radix sort of opA = T at scale. */
static void test_large(void** state) {
    (void)state;
    tcst_csr a, b;
    spmm_case sc;
    if (!fx.quick) {
        assert_int_equal(tcst_gen_uniform(300000, 300000, 15, tcst_rng_next(&fx.rng), &a), 0);
        sc = plain_case(FP32, 8, TCS_SPMM_CSR_MERGE);
        sc.new_values = 0;
        check_case(&a, &sc);
        sc.trans_a = 1;
        sc.beta = 1.0;
        check_case(&a, &sc);
        tcst_csr_free(&a);
    }
    assert_int_equal(tcst_gen_uniform(60000, 60000, 10, tcst_rng_next(&fx.rng), &b), 0);
    sc = plain_case(FP32, fx.quick ? 8 : 128, TCS_SPMM_CSR_MERGE);
    sc.new_values = 0;
    check_case(&b, &sc);
    sc.alg = TCS_SPMM_CSR_ROWSPLIT;
    check_case(&b, &sc);
    tcst_csr_free(&b);
}

/* ---- degenerate shapes ---------------------------------------------------------- */

/* nnz == 0 (NULL column and value arrays): C = beta*C, zeros for beta == 0 (C held
 * NaN). Also k == 0: A with no columns (opA = N) or no rows (opA = T). */
static void test_no_nonzeros(void** state) {
    (void)state;
    static const tcsSpMMAlg_t algs[] = {TCS_SPMM_CSR_ROWSPLIT, TCS_SPMM_CSR_MERGE,
                                        TCS_SPMM_ALG_DEFAULT};
    tcst_csr empty, no_cols, no_rows;
    assert_int_equal(tcst_csr_alloc(&empty, 20, 10, 0), 0);
    assert_int_equal(tcst_csr_alloc(&no_cols, 12, 0, 0), 0);
    assert_int_equal(tcst_csr_alloc(&no_rows, 0, 9, 0), 0);
    for (int ai = 0; ai < 3; ++ai)
        for (int ta = 0; ta < 2; ++ta)
            for (int with_beta = 0; with_beta < 2; ++with_beta) {
                spmm_case sc = plain_case(FP32, 7, algs[ai]);
                sc.trans_a = ta;
                sc.beta = with_beta ? 2.0 : 0.0;
                sc.c_row = ai != 1;
                sc.device_scalars = ta;
                check_case(&empty, &sc);
                check_case(ta ? &no_rows : &no_cols, &sc);
                sc.type = FP16;
                check_case(&empty, &sc);
            }
    tcst_csr_free(&empty);
    tcst_csr_free(&no_cols);
    tcst_csr_free(&no_rows);
}

/* m == 0 or n == 0: success, nothing written. */
static void test_empty_output(void** state) {
    (void)state;
    tcst_csr a;
    gen_mixed(&a, 6, 5, 3, 0.0, 0, 0, 0.0);
    device_csr da;
    csr_upload(&da, &a, 0, CUDA_R_32F, 0);
    float* poison = (float*)tcst_device_poisoned(64 * sizeof(float));
    assert_non_null(poison);
    const float alpha = 1.0f, beta = 0.0f;
    for (int ta = 0; ta < 2; ++ta) {
        const int64_t m = ta ? a.cols : a.rows, k = ta ? a.rows : a.cols;
        tcsConstDnMatDescr_t b;
        tcsDnMatDescr_t c;
        /* n == 0 */
        assert_ok(tcsCreateConstDnMat(&b, k, 0, 1, poison, CUDA_R_32F, TCS_ORDER_ROW));
        assert_ok(tcsCreateDnMat(&c, m, 0, 1, poison, CUDA_R_32F, TCS_ORDER_ROW));
        size_t bytes = 1;
        assert_ok(tcsSpMM_bufferSize(fx.handle, op_of(ta, 0), TCS_OPERATION_NON_TRANSPOSE, &alpha,
                                     da.descr, b, &beta, c, CUDA_R_32F, TCS_SPMM_ALG_DEFAULT,
                                     &bytes));
        assert_int_equal(bytes, 0);
        assert_ok(tcsSpMM_preprocess(fx.handle, op_of(ta, 0), TCS_OPERATION_NON_TRANSPOSE, &alpha,
                                     da.descr, b, &beta, c, CUDA_R_32F, TCS_SPMM_CSR_MERGE, NULL));
        assert_ok(tcsSpMM(fx.handle, op_of(ta, 0), TCS_OPERATION_NON_TRANSPOSE, &alpha, da.descr, b,
                          &beta, c, CUDA_R_32F, TCS_SPMM_CSR_MERGE, NULL));
        assert_ok(tcsDestroyDnMat(b));
        assert_ok(tcsDestroyDnMat(c));
    }
    /* m == 0: A with no rows (opA = N) */
    tcst_csr no_rows;
    assert_int_equal(tcst_csr_alloc(&no_rows, 0, 5, 0), 0);
    device_csr dz;
    csr_upload(&dz, &no_rows, 0, CUDA_R_32F, 0);
    tcsConstDnMatDescr_t b;
    tcsDnMatDescr_t c;
    assert_ok(tcsCreateConstDnMat(&b, 5, 4, 4, poison, CUDA_R_32F, TCS_ORDER_ROW));
    assert_ok(tcsCreateDnMat(&c, 0, 4, 4, poison, CUDA_R_32F, TCS_ORDER_ROW));
    assert_ok(tcsSpMM(fx.handle, TCS_OPERATION_NON_TRANSPOSE, TCS_OPERATION_NON_TRANSPOSE, &alpha,
                      dz.descr, b, &beta, c, CUDA_R_32F, TCS_SPMM_CSR_ROWSPLIT, NULL));
    CUDA_OK(cudaDeviceSynchronize());
    unsigned char image[64 * sizeof(float)];
    CUDA_OK(cudaMemcpy(image, poison, sizeof image, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < sizeof image; ++i) assert_int_equal(image[i], 0xFF);
    assert_ok(tcsDestroyDnMat(b));
    assert_ok(tcsDestroyDnMat(c));
    csr_free(&dz);
    csr_free(&da);
    tcst_device_free(poison);
    tcst_csr_free(&a);
    tcst_csr_free(&no_rows);
}

/* One row of A (m == 1 for opA = N, k == 1 for opA = T) and one column (the
 * reverse), dense. */
static void test_single_row_or_column(void** state) {
    (void)state;
    static const int64_t ns[] = {1, 8, 33};
    static const tcsSpMMAlg_t algs[] = {TCS_SPMM_CSR_ROWSPLIT, TCS_SPMM_CSR_MERGE,
                                        TCS_SPMM_ALG_DEFAULT};
    tcst_csr row, col;
    gen_mixed(&row, 1, 300, 300, 0.0, 1, 300, 0.0);
    gen_mixed(&col, 300, 1, 1, 0.2, 0, 0, 0.0);
    for (int ta = 0; ta < 2; ++ta)
        for (int ni = 0; ni < 3; ++ni)
            for (int ai = 0; ai < 3; ++ai) {
                spmm_case sc = plain_case(ai == 2 ? FP64 : FP32, ns[ni], algs[ai]);
                sc.trans_a = ta;
                sc.beta = ni == 1 ? 0.25 : 0.0;
                sc.b_row = ai != 1;
                check_case(&row, &sc);
                check_case(&col, &sc);
            }
    tcst_csr_free(&row);
    tcst_csr_free(&col);
}

/* ---- preprocess ----------------------------------------------------------------- */

/* preprocess, run, new values of A, run again with the same buffer; and runs that
 * analyse themselves (no preprocess), for every algorithm family and opA. */
static void test_preprocess_then_new_values(void** state) {
    (void)state;
    static const tcsSpMMAlg_t algs[] = {TCS_SPMM_CSR_ROWSPLIT, TCS_SPMM_CSR_MERGE,
                                        TCS_SPMM_ALG_DEFAULT, TCS_SPMM_CSR_ALG3};
    tcst_csr a;
    gen_mixed(&a, 400, 300, 20, 0.1, 3, 300, 0.3);
    for (int ai = 0; ai < 4; ++ai)
        for (int ta = 0; ta < 2; ++ta)
            for (int pre = 0; pre < 2; ++pre) {
                spmm_case sc = plain_case(ai % 2 ? FP16 : FP32, 32, algs[ai]);
                sc.trans_a = ta;
                sc.preprocess = pre;
                sc.beta = 1.0;
                check_case(&a, &sc);
            }
    tcst_csr_free(&a);
}

/* ---- CUDA graph capture --------------------------------------------------------- */

/* tcsSpMM captured on a non-default stream (set with tcsSetStream) and replayed: once
 * after preprocess (the graph holds the product only) and once without (the graph
 * holds the analysis too: the opA = T radix sort, the partition). New values of A
 * between replays reach the result. The last two runs take the automatic rule's
 * row-split at n == 1 (its one-column kernel, which the captured call must launch; very
 * long rows cut into parts) and CSR-vector (column-major B, n = 7), the last with two
 * rows of 400 among rows of up to 16, which CSR-vector's long rows' kernel sums from
 * the lists the call without preprocess makes itself. */
static void test_graph_capture(void** state) {
    (void)state;
    static const struct {
        tcsSpMMAlg_t alg;
        int trans_a;
        int64_t n;
        int b_row;
    } runs[] = {{TCS_SPMM_CSR_MERGE, 1, 32, 1},   {TCS_SPMM_CSR_ROWSPLIT, 0, 32, 1},
                {TCS_SPMM_ALG_DEFAULT, 1, 32, 1}, {TCS_SPMM_CSR_MERGE, 0, 32, 1},
                {TCS_SPMM_ALG_DEFAULT, 0, 1, 1},  {TCS_SPMM_ALG_DEFAULT, 1, 7, 0},
                {TCS_SPMM_ALG_DEFAULT, 0, 7, 0}};
    cudaStream_t stream;
    CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    assert_ok(tcsSetStream(fx.handle, stream));
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; ++r) {
        tcst_csr a;
        /* n == 1: two rows of 5000, long enough to be cut into parts whose partial sums
         * the last block adds (tickets left at zero by every replay) */
        if (runs[r].n == 1)
            gen_mixed(&a, 500, 6000, 16, 0.1, 2, 5000, 0.2);
        else
            gen_mixed(&a, 500, 400, 16, 0.1, 2, 400, 0.2);
        round_values(&a, CUDA_R_32F);
        const int ta = runs[r].trans_a;
        const tcsOperation_t opa = op_of(ta, 0), opb = TCS_OPERATION_NON_TRANSPOSE;
        const int64_t m = ta ? a.cols : a.rows, k = ta ? a.rows : a.cols, n = runs[r].n;
        const float alpha = 2.0f, beta = 0.0f;
        device_csr da;
        tcst_dense b, c;
        tcsConstDnMatDescr_t db;
        tcsDnMatDescr_t dc;
        csr_upload(&da, &a, 1, CUDA_R_32F, 0);
        tcst_dense_make(&b, k, n, runs[r].b_row, 0, 0, CUDA_R_32F);
        double* bh = tcst_dense_fill_random(&b, &fx.rng);
        tcst_dense_upload(&b);
        tcst_dense_make(&c, m, n, 1, 4, 0, CUDA_R_32F);
        assert_ok(tcsCreateConstDnMat(&db, k, n, b.ld, tcst_dense_values(&b), CUDA_R_32F,
                                      runs[r].b_row ? TCS_ORDER_ROW : TCS_ORDER_COL));
        assert_ok(tcsCreateDnMat(&dc, m, n, c.ld, tcst_dense_values(&c), CUDA_R_32F,
                                 TCS_ORDER_ROW));
        size_t bytes = 0;
        assert_ok(tcsSpMM_bufferSize(fx.handle, opa, opb, &alpha, da.descr, db, &beta, dc,
                                     CUDA_R_32F, runs[r].alg, &bytes));
        void* kept = tcst_device_poisoned(bytes);
        void* fresh = tcst_device_poisoned(bytes);
        assert_true(bytes == 0 || (kept != NULL && fresh != NULL));
        assert_ok(tcsSpMM_preprocess(fx.handle, opa, opb, &alpha, da.descr, db, &beta, dc,
                                     CUDA_R_32F, runs[r].alg, kept));
        CUDA_OK(cudaStreamSynchronize(stream));

        cudaGraph_t graphs[2];
        cudaGraphExec_t execs[2];
        for (int g = 0; g < 2; ++g) {
            CUDA_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
            const tcsStatus_t st = tcsSpMM(fx.handle, opa, opb, &alpha, da.descr, db, &beta, dc,
                                           CUDA_R_32F, runs[r].alg, g == 0 ? kept : fresh);
            CUDA_OK(cudaStreamEndCapture(stream, &graphs[g]));
            assert_int_equal(st, TCS_STATUS_SUCCESS);
            if (n == 1 && !graph_has_kernel(graphs[g], "single_column_kernel", ""))
                fail_msg("n = 1: no single_column_kernel in the captured call");
            CUDA_OK(cudaGraphInstantiate(&execs[g], graphs[g], 0));
        }

        const size_t mn = (size_t)(m * n), image_bytes = c.count * sizeof(float);
        double* ref = (double*)tcst_xmalloc(mn * sizeof(double));
        double* mag = (double*)tcst_xmalloc(mn * sizeof(double));
        unsigned char* got = (unsigned char*)tcst_xmalloc(image_bytes);
        unsigned char* first = (unsigned char*)tcst_xmalloc(image_bytes);
        reference(&a, ta, 0, bh, k, (size_t)(k * n), m, n, alpha, beta, NULL, ref, mag);
        for (int replay = 0; replay < 3; ++replay) {
            if (replay == 1) { /* new values of A between replays */
                for (int64_t e = 0; e < a.nnz; ++e)
                    a.val[e] = rounded(tcst_rng_symmetric(&fx.rng), CUDA_R_32F);
                float* host = (float*)tcst_xmalloc((size_t)a.nnz * sizeof(float));
                for (int64_t e = 0; e < a.nnz; ++e) host[e] = (float)a.val[e];
                CUDA_OK(cudaMemcpy(da.val, host, (size_t)a.nnz * sizeof(float),
                                   cudaMemcpyHostToDevice));
                CUDA_OK(cudaDeviceSynchronize()); /* see tcst_upload_and_wait */
                free(host);
                reference(&a, ta, 0, bh, k, (size_t)(k * n), m, n, alpha, beta, NULL, ref, mag);
            }
            for (int g = 0; g < 2; ++g) {
                tcst_dense_upload(&c); /* C back to NaN: beta == 0 must not read it */
                CUDA_OK(cudaGraphLaunch(execs[g], stream));
                CUDA_OK(cudaStreamSynchronize(stream));
                CUDA_OK(cudaMemcpy(got, c.dev, image_bytes, cudaMemcpyDeviceToHost));
                char what[160];
                snprintf(what, sizeof what, "graph %s (alg %d, opA %c), replay %d (seed %llu)",
                         g == 0 ? "after preprocess" : "with analysis", (int)runs[r].alg,
                         ta ? 'T' : 'N', replay, (unsigned long long)fx.seed);
                compare(&c, got, ref, mag, &TYPES[FP32], what);
                if (replay == 2 && g == 0) memcpy(first, got, image_bytes);
                /* Both graphs run the same product kernels (a run without preprocess
                 * first writes what preprocess would have): bitwise equal. */
                if (replay == 2 && g == 1) assert_memory_equal(first, got, image_bytes);
            }
        }
        for (int g = 0; g < 2; ++g) {
            CUDA_OK(cudaGraphExecDestroy(execs[g]));
            CUDA_OK(cudaGraphDestroy(graphs[g]));
        }
        free_operands(db, dc, &da, &b, &c);
        tcst_device_free(kept);
        tcst_device_free(fresh);
        free(bh), free(ref), free(mag), free(got), free(first);
        tcst_csr_free(&a);
    }
    assert_ok(tcsSetStream(fx.handle, NULL));
    CUDA_OK(cudaStreamDestroy(stream));
}

/* ---- real matrices -------------------------------------------------------------- */

static void test_matrix_market(void** state) {
    (void)state;
    static const char* files[] = {"bcsstk13.mtx.gz", "aa3.mtx.gz", "wiki-Vote.mtx.gz"};
    static const tcsSpMMAlg_t algs[] = {TCS_SPMM_CSR_ROWSPLIT, TCS_SPMM_CSR_MERGE,
                                        TCS_SPMM_ALG_DEFAULT};
    int read = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; ++f) {
        char path[1024], err[256];
        tcst_csr a;
        snprintf(path, sizeof path, "%s/%s", tcst_matrix_dir(), files[f]);
        if (tcst_mm_read(path, fx.seed | 1u, &a, err, sizeof err) != 0) {
            printf("gpu_spmm_csr: %s not read (%s)\n", path, err);
            continue;
        }
        ++read;
        for (int ai = 0; ai < 3; ++ai)
            for (int ta = 0; ta < 2; ++ta)
                for (int64_t n = 8; n <= 32; n += 24) {
                    spmm_case sc = plain_case(FP32, n, algs[ai]);
                    sc.trans_a = ta;
                    sc.new_values = 0;
                    check_case(&a, &sc);
                }
        tcst_csr_free(&a);
    }
    if (read == 0) skip();
}

/* ---- 64-bit offsets ------------------------------------------------------------- */

/* Element offsets beyond 2^31 in B and C (huge leading dimensions): the index math is
 * 64-bit. Each allocation is about 8.6 GB; skipped where the GPU has not that much.
 * Column-major cases need n = 9: column 8 is the one past 2^31. */
static void large_offsets_case(int row_major, int64_t n, tcsSpMMAlg_t alg) {
    const int64_t m = 3, k = 5;
    tcst_csr a; /* dense, so that every row of B is read */
    assert_int_equal(tcst_csr_alloc(&a, m, k, m * k), 0);
    for (int64_t e = 0; e < m * k; ++e) {
        a.col_idx[e] = (int)(e % k);
        a.val[e] = rounded(tcst_rng_symmetric(&fx.rng), CUDA_R_32F);
    }
    for (int64_t i = 0; i <= m; ++i) a.row_ptr[i] = (int)(i * k);
    /* row-major: B row 4 and C row 2 start past 2^31; column-major: column 8 */
    const int64_t ldb = row_major ? (INT64_C(1) << 29) + 16 : (INT64_C(1) << 28) + 16;
    const int64_t ldc = row_major ? (INT64_C(1) << 30) + 16 : (INT64_C(1) << 28) + 8;
    const size_t b_count = (size_t)((row_major ? k - 1 : n - 1) * ldb + (row_major ? n : k));
    /* one more element than C needs: the probe after C's last entry stays inside */
    const size_t c_count = (size_t)((row_major ? m - 1 : n - 1) * ldc + (row_major ? n : m)) + 1;
    float *b = NULL, *c = NULL;
    if (cudaMalloc((void**)&b, b_count * sizeof(float)) != cudaSuccess ||
        cudaMalloc((void**)&c, c_count * sizeof(float)) != cudaSuccess) {
        (void)cudaGetLastError();
        cudaFree(b);
        printf("gpu_spmm_csr: no room for 2 x 8.6 GB: 64-bit offset case skipped\n");
        tcst_csr_free(&a);
        skip();
    }
    CUDA_OK(cudaMemset(b, 0xFF, b_count * sizeof(float)));
    CUDA_OK(cudaMemset(c, 0xFF, c_count * sizeof(float)));
    double* bh = (double*)tcst_xmalloc((size_t)(k * n) * sizeof(double));
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < k; ++i) {
            const float v = (float)tcst_rng_symmetric(&fx.rng);
            bh[i + j * k] = v;
            const size_t at = (size_t)(row_major ? i * ldb + j : i + j * ldb);
            CUDA_OK(cudaMemcpy(b + at, &v, sizeof v, cudaMemcpyHostToDevice));
        }
    device_csr da;
    csr_upload(&da, &a, 0, CUDA_R_32F, 0);
    tcsConstDnMatDescr_t db;
    tcsDnMatDescr_t dc;
    const tcsOrder_t order = row_major ? TCS_ORDER_ROW : TCS_ORDER_COL;
    assert_ok(tcsCreateConstDnMat(&db, k, n, ldb, b, CUDA_R_32F, order));
    assert_ok(tcsCreateDnMat(&dc, m, n, ldc, c, CUDA_R_32F, order));
    const float alpha = 1.0f, beta = 0.0f;
    size_t bytes = 0;
    assert_ok(tcsSpMM_bufferSize(fx.handle, TCS_OPERATION_NON_TRANSPOSE,
                                 TCS_OPERATION_NON_TRANSPOSE, &alpha, da.descr, db, &beta, dc,
                                 CUDA_R_32F, alg, &bytes));
    void* buffer = tcst_device_poisoned(bytes);
    assert_true(bytes == 0 || buffer != NULL);
    assert_ok(tcsSpMM(fx.handle, TCS_OPERATION_NON_TRANSPOSE, TCS_OPERATION_NON_TRANSPOSE, &alpha,
                      da.descr, db, &beta, dc, CUDA_R_32F, alg, buffer));
    CUDA_OK(cudaDeviceSynchronize());
    double* ref = (double*)tcst_xmalloc((size_t)(m * n) * sizeof(double));
    double* mag = (double*)tcst_xmalloc((size_t)(m * n) * sizeof(double));
    reference(&a, 0, 0, bh, k, (size_t)(k * n), m, n, alpha, beta, NULL, ref, mag);
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < m; ++i) {
            float x, after;
            const size_t at = (size_t)(row_major ? i * ldc + j : i + j * ldc);
            CUDA_OK(cudaMemcpy(&x, c + at, sizeof x, cudaMemcpyDeviceToHost));
            CUDA_OK(cudaMemcpy(&after, c + at + 1, sizeof after, cudaMemcpyDeviceToHost));
            if (!(fabs(x - ref[i + j * m]) <= 1e-5 * mag[i + j * m]))
                fail_msg(
                    "64-bit offsets (%s, alg %d): C(%lld,%lld) = %.9g, reference %.9g (seed %llu)",
                    row_major ? "row-major" : "column-major", (int)alg, (long long)i, (long long)j,
                    x, ref[i + j * m], (unsigned long long)fx.seed);
            const int last = row_major ? j == n - 1 : i == m - 1;
            if (last && !isnan(after))
                fail_msg("64-bit offsets: written past the end of a line of C");
        }
    assert_ok(tcsDestroyDnMat(db));
    assert_ok(tcsDestroyDnMat(dc));
    csr_free(&da);
    tcst_device_free(buffer);
    CUDA_OK(cudaFree(b));
    CUDA_OK(cudaFree(c));
    free(bh), free(ref), free(mag);
    tcst_csr_free(&a);
}

static void test_offsets_beyond_2_31(void** state) {
    (void)state;
    if (fx.quick) {
        printf("gpu_spmm_csr: TCS_TEST_QUICK: 64-bit offset cases (2 x 8.6 GB) skipped\n");
        skip();
    }
    large_offsets_case(1, 8, TCS_SPMM_CSR_ROWSPLIT);
    large_offsets_case(1, 8, TCS_SPMM_CSR_MERGE);
    large_offsets_case(0, 9, TCS_SPMM_CSR_ROWSPLIT);
    large_offsets_case(0, 9, TCS_SPMM_CSR_MERGE);
    /* the automatic rule's CSR-vector: column-major n = 9 (column 8 in a second tile),
     * and n = 1 with row-major B and C (rows 4 of B and 2 of C past 2^31) */
    large_offsets_case(0, 9, TCS_SPMM_ALG_DEFAULT);
    large_offsets_case(1, 1, TCS_SPMM_ALG_DEFAULT);
}

int main(void) {
    if (tcst_no_gpu("gpu_spmm_csr")) return TCST_SKIP;
    /* TCS_TEST_FILTER=test_rowwise_chunks runs only the tests the pattern names (cmocka's
     * * and ? wildcards), e.g. one heavy test under compute-sanitizer. */
    const char* filter = getenv("TCS_TEST_FILTER");
    if (filter != NULL && *filter != '\0') cmocka_set_test_filter(filter);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layouts_fp32),
        cmocka_unit_test(test_layouts_fp64),
        cmocka_unit_test(test_layouts_fp16),
        cmocka_unit_test(test_layouts_fp16_to_fp32),
        cmocka_unit_test(test_layouts_bf16),
        cmocka_unit_test(test_layouts_bf16_to_fp32),
        cmocka_unit_test(test_long_rows),
        cmocka_unit_test(test_merge_path),
        cmocka_unit_test(test_power_law),
        cmocka_unit_test(test_busy_device),
        cmocka_unit_test(test_long_rows_on_warps),
        cmocka_unit_test(test_row_runs),
        cmocka_unit_test(test_long_row_blocks_counted),
        cmocka_unit_test(test_rowwise_copies),
        cmocka_unit_test(test_rowwise_chunks),
        cmocka_unit_test(test_rowmajor_padded),
        cmocka_unit_test(test_vector_rows),
        cmocka_unit_test(test_vector_long_rows),
        cmocka_unit_test(test_large),
        cmocka_unit_test(test_no_nonzeros),
        cmocka_unit_test(test_empty_output),
        cmocka_unit_test(test_single_row_or_column),
        cmocka_unit_test(test_preprocess_then_new_values),
        cmocka_unit_test(test_graph_capture),
        cmocka_unit_test(test_matrix_market),
        cmocka_unit_test(test_offsets_beyond_2_31),
        cmocka_unit_test(test_index64),
        cmocka_unit_test(test_index_type_statuses),
    };
    return tcst_run_group_tests(tests, group_setup, group_teardown);
}
