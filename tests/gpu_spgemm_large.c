/* The hash SpGEMM beyond 32-bit counts, on a GPU, through the public API: C = A*A for
 * generated 27-point stencils (n^3 nodes: (9n-10)^3 products, (5n-6)^3 entries in C).
 *  - 2^31 products or more (n = 145: 2.17e9 products, 3.7e8 entries), fp64: C with
 *    32-bit and with 64-bit indices and C under a memory budget (estimateMemory with
 *    chunk_fraction 0.1) all bitwise the same; checked against the double CPU reference
 *    by row sums (every row) and by 512 sampled rows entry by entry.
 *  - nnz(C) >= 2^31 (n = 260: 1.27e10 products, 2.17e9 entries), fp32: a 32-bit C
 *    returns INSUFFICIENT_RESOURCES at workEstimation; a 64-bit C is computed and
 *    checked the same way.
 * Each case is sized from its exact counts and skipped, with the bytes it needs and the
 * bytes free, where the GPU (cudaMemGetInfo) or the host is too small. Exits 77 without
 * a GPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tcs_test_support.h"
#include "tcsparse.h"
#include "tcst_status.h"
#include "tcst_gpu_group.h"

#include <cuda_runtime_api.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static tcsHandle_t handle;
static uint64_t seed;

static void* device_alloc(size_t bytes) {
    void* p = NULL;
    if (bytes == 0) bytes = 256;
    assert_int_equal(cudaMalloc(&p, bytes), cudaSuccess);
    return p;
}

static void download(void* host, const void* dev, size_t bytes) {
    if (bytes > 0) assert_int_equal(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
}

static size_t free_device_bytes(void) {
    size_t free_b = 0, total = 0;
    assert_int_equal(cudaMemGetInfo(&free_b, &total), cudaSuccess);
    return free_b;
}

static size_t host_bytes(void) {
    const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && size > 0 ? (size_t)pages * (size_t)size : 0;
}

/* Skips the test (with the numbers) unless `device` bytes are free on the GPU and
 * `host` bytes exist on the host. */
static int fits(const char* what, size_t device, size_t host) {
    const size_t dfree = free_device_bytes(), htotal = host_bytes();
    if (device + (size_t)(1u << 30) > dfree || host > htotal / 2) {
        printf("gpu_spgemm_large: %s skipped: needs %.1f GB of GPU memory (%.1f GB free) and "
               "%.1f GB of host memory (%.1f GB present)\n",
               what, (double)device / 1e9, (double)dfree / 1e9, (double)host / 1e9,
               (double)htotal / 1e9);
        return 0;
    }
    return 1;
}

/* A on the device, 32-bit indices. */
typedef struct {
    const tcst_csr* host;
    int* rp;
    int* ci;
    void* val;
    int is_double;
    tcsConstSpMatDescr_t descr;
} operand;

static operand upload_a(const tcst_csr* m, int is_double) {
    operand a;
    a.host = m;
    a.is_double = is_double;
    assert_int_equal(tcst_csr_upload(m, 0, is_double, &a.rp, &a.ci, &a.val), 0);
    assert_ok(tcsCreateConstCsr(&a.descr, m->rows, m->cols, m->nnz, a.rp, a.ci, a.val, TCS_INDEX_32I,
                                TCS_INDEX_32I, TCS_INDEX_BASE_ZERO, is_double ? CUDA_R_64F : CUDA_R_32F));
    return a;
}

static void free_a(operand* a) {
    tcsDestroySpMat(a->descr);
    cudaFree(a->rp), cudaFree(a->ci), cudaFree(a->val);
}

/* C on the device. */
typedef struct {
    int wide;
    int64_t nnz;
    void *rp, *ci, *val;
    size_t size1, size2;
    double seconds;
} product;

static void free_c(product* c) {
    cudaFree(c->rp), cudaFree(c->ci), cudaFree(c->val);
    memset(c, 0, sizeof *c);
}

/* C = A*A through the protocol (chunk < 1: estimateMemory with that chunk_fraction
 * first). Returns workEstimation's status where it fails, and then nothing is left. */
static tcsStatus_t multiply(const operand* a, int wide, float chunk, product* c) {
    memset(c, 0, sizeof *c);
    c->wide = wide;
    const cudaDataType t = a->is_double ? CUDA_R_64F : CUDA_R_32F;
    const double one = 1.0, zero = 0.0;
    const float onef = 1.0f, zerof = 0.0f;
    const void* alpha = a->is_double ? (const void*)&one : (const void*)&onef;
    const void* beta = a->is_double ? (const void*)&zero : (const void*)&zerof;
    const int64_t m = a->host->rows;
    const tcsIndexType_t it = wide ? TCS_INDEX_64I : TCS_INDEX_32I;
    const size_t is = wide ? 8 : 4, vs = a->is_double ? 8 : 4;
    c->rp = device_alloc((size_t)(m + 1) * is);
    tcsSpMatDescr_t cd;
    tcsSpGEMMDescr_t d;
    assert_ok(tcsCreateCsr(&cd, m, m, 0, c->rp, NULL, NULL, it, it, TCS_INDEX_BASE_ZERO, t));
    assert_ok(tcsSpGEMM_createDescr(&d));
#define ARGS handle, TCS_OPERATION_NON_TRANSPOSE, TCS_OPERATION_NON_TRANSPOSE, alpha, a->descr, \
             a->descr, beta, cd, t, TCS_SPGEMM_ALG_HASH, d
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    const double t0 = tcst_seconds();
    assert_ok(tcsSpGEMM_workEstimation(ARGS, &c->size1, NULL));
    void* buf1 = device_alloc(c->size1);
    const tcsStatus_t s = tcsSpGEMM_workEstimation(ARGS, &c->size1, buf1);
    if (s != TCS_STATUS_SUCCESS) {
        cudaFree(buf1);
        tcsSpGEMM_destroyDescr(d);
        tcsDestroySpMat(cd);
        free_c(c);
        return s;
    }
    if (chunk < 1.0f) {
        size_t size3 = 0;
        assert_ok(tcsSpGEMM_estimateMemory(ARGS, chunk, &size3, NULL, NULL));
        void* buf3 = device_alloc(size3);
        assert_ok(tcsSpGEMM_estimateMemory(ARGS, chunk, &size3, buf3, &c->size2));
        cudaFree(buf3);
    }
    size_t size2 = 0;
    assert_ok(tcsSpGEMM_compute(ARGS, &size2, NULL));
    if (chunk < 1.0f) assert_int_equal(size2, c->size2);
    c->size2 = size2;
    void* buf2 = device_alloc(size2);
    assert_ok(tcsSpGEMM_compute(ARGS, &size2, buf2));
    int64_t rows = 0, cols = 0;
    assert_ok(tcsSpMatGetSize(cd, &rows, &cols, &c->nnz));
    c->ci = device_alloc((size_t)c->nnz * is);
    c->val = device_alloc((size_t)c->nnz * vs);
    assert_ok(tcsCsrSetPointers(cd, c->rp, c->ci, c->val));
    assert_ok(tcsSpGEMM_copy(ARGS));
#undef ARGS
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    c->seconds = tcst_seconds() - t0;
    cudaFree(buf1), cudaFree(buf2);
    tcsSpGEMM_destroyDescr(d);
    tcsDestroySpMat(cd);
    printf("  %s C, chunk_fraction %.2f: nnz(C) %lld in %.3f s (buffer1 %.1f MB, buffer2 %.1f MB)\n",
           wide ? "64-bit" : "32-bit", (double)chunk, (long long)c->nnz, c->seconds,
           (double)c->size1 / 1e6, (double)c->size2 / 1e6);
    return TCS_STATUS_SUCCESS;
}

/* C's row offsets on the host, as 64-bit. */
static int64_t* offsets_of(const product* c, int64_t m) {
    int64_t* rp = (int64_t*)malloc((size_t)(m + 1) * 8);
    assert_non_null(rp);
    if (c->wide) {
        download(rp, c->rp, (size_t)(m + 1) * 8);
    } else {
        int* narrow = (int*)malloc((size_t)(m + 1) * 4);
        assert_non_null(narrow);
        download(narrow, c->rp, (size_t)(m + 1) * 4);
        for (int64_t i = 0; i <= m; ++i) rp[i] = narrow[i];
        free(narrow);
    }
    return rp;
}

/* The double reference of C = A*A: row sums (sum_k a_ik * sum_j a_kj) with their
 * magnitudes, every row against C's values; then sampled rows entry by entry. */
static void check_against_reference(const tcst_csr* a, const product* c, int is_double) {
    const int64_t m = a->rows;
    const double tol = is_double ? 1e-12 : 2e-5;
    int64_t* rp = offsets_of(c, m);
    assert_int_equal(rp[0], 0);
    assert_int_equal(rp[m], c->nnz);
    double *b_sum = (double*)malloc((size_t)m * 8), *b_mag = (double*)malloc((size_t)m * 8);
    assert_true(b_sum != NULL && b_mag != NULL);
    for (int64_t k = 0; k < m; ++k) {
        double s = 0, g = 0;
        for (int e = a->row_ptr[k]; e < a->row_ptr[k + 1]; ++e) {
            const double v = is_double ? a->val[e] : (double)(float)a->val[e];
            s += v;
            g += fabs(v);
        }
        b_sum[k] = s, b_mag[k] = g;
    }
    /* C's values in slices of 2^26 entries: each row's sum against the reference */
    const int64_t slice = (int64_t)1 << 26;
    const size_t vs = is_double ? 8 : 4;
    void* host = malloc((size_t)slice * vs);
    assert_non_null(host);
    int64_t row = 0, bad = 0;
    double sum = 0;
    for (int64_t first = 0; first <= c->nnz; first += slice) {
        const int64_t count = c->nnz - first < slice ? c->nnz - first : slice;
        if (count > 0) download(host, (const char*)c->val + (size_t)first * vs, (size_t)count * vs);
        /* e == nnz closes the rows that end there */
        for (int64_t e = first; e < first + count || (e == c->nnz && e == first + count); ++e) {
            while (row < m && rp[row + 1] <= e) {
                double ref = 0, mag = 0;
                for (int t = a->row_ptr[row]; t < a->row_ptr[row + 1]; ++t) {
                    const double v = is_double ? a->val[t] : (double)(float)a->val[t];
                    ref += v * b_sum[a->col_idx[t]];
                    mag += fabs(v) * b_mag[a->col_idx[t]];
                }
                if (fabs(sum - ref) > tol * mag && bad++ < 5)
                    print_error("row %lld: sum %.17g, reference %.17g (magnitude %g)\n",
                                (long long)row, sum, ref, mag);
                sum = 0;
                ++row;
            }
            if (e == c->nnz) break;
            sum += is_double ? ((const double*)host)[e - first] : (double)((const float*)host)[e - first];
        }
        if (count < slice) break;
    }
    assert_int_equal(row, m);
    free(host);
    assert_int_equal(bad, 0);

    /* sampled rows: pattern exact, values within tol of the magnitude */
    tcst_rng rng;
    tcst_rng_seed(&rng, seed);
    double* acc = (double*)calloc((size_t)m, 8);
    double* accm = (double*)calloc((size_t)m, 8);
    char* seen = (char*)calloc((size_t)m, 1);
    int64_t* cols = (int64_t*)malloc((size_t)m * 8 > 4096 ? 4096 * 8 : (size_t)m * 8);
    assert_true(acc != NULL && accm != NULL && seen != NULL && cols != NULL);
    for (int s = 0; s < 512; ++s) {
        const int64_t i = s == 0 ? 0 : s == 1 ? m - 1 : (int64_t)tcst_rng_below(&rng, (uint64_t)m);
        int64_t n = 0;
        for (int t = a->row_ptr[i]; t < a->row_ptr[i + 1]; ++t) {
            const int k = a->col_idx[t];
            const double av = is_double ? a->val[t] : (double)(float)a->val[t];
            for (int u = a->row_ptr[k]; u < a->row_ptr[k + 1]; ++u) {
                const int j = a->col_idx[u];
                const double bv = is_double ? a->val[u] : (double)(float)a->val[u];
                if (!seen[j]) {
                    seen[j] = 1;
                    assert_true(n < 4096);
                    cols[n++] = j;
                }
                acc[j] += av * bv;
                accm[j] += fabs(av * bv);
            }
        }
        /* insertion sort: rows of C hold at most 125 entries */
        for (int64_t x = 1; x < n; ++x)
            for (int64_t y = x; y > 0 && cols[y - 1] > cols[y]; --y) {
                const int64_t tmp = cols[y];
                cols[y] = cols[y - 1];
                cols[y - 1] = tmp;
            }
        const int64_t len = rp[i + 1] - rp[i];
        assert_int_equal(len, n);
        int64_t got_c[4096];
        unsigned char got_v[4096 * 8];
        if (c->wide) {
            download(got_c, (const int64_t*)c->ci + rp[i], (size_t)len * 8);
        } else {
            int narrow[4096];
            download(narrow, (const int*)c->ci + rp[i], (size_t)len * 4);
            for (int64_t x = 0; x < len; ++x) got_c[x] = narrow[x];
        }
        download(got_v, (const char*)c->val + (size_t)rp[i] * vs, (size_t)len * vs);
        for (int64_t x = 0; x < len; ++x) {
            const int64_t j = cols[x];
            if (got_c[x] != j) fail_msg("row %lld entry %lld: column %lld, reference %lld", (long long)i,
                                        (long long)x, (long long)got_c[x], (long long)j);
            const double v = is_double ? ((double*)got_v)[x] : (double)((float*)got_v)[x];
            if (fabs(v - acc[j]) > tol * accm[j])
                fail_msg("row %lld column %lld: %.17g, reference %.17g", (long long)i, (long long)j, v, acc[j]);
            acc[j] = accm[j] = 0;
            seen[j] = 0;
        }
    }
    free(acc), free(accm), free(seen), free(cols);
    free(b_sum), free(b_mag), free(rp);
}

/* Whole C on the host: offsets and columns as 64-bit, values as bytes. */
typedef struct {
    int64_t *rp, *ci;
    unsigned char* val;
} host_c;

static host_c fetch(const product* c, int64_t m, size_t vs) {
    host_c h;
    h.rp = offsets_of(c, m);
    h.ci = (int64_t*)malloc((size_t)c->nnz * 8);
    h.val = (unsigned char*)malloc((size_t)c->nnz * vs);
    assert_true(h.ci != NULL && h.val != NULL);
    if (c->wide) {
        download(h.ci, c->ci, (size_t)c->nnz * 8);
    } else {
        download(h.ci, c->ci, (size_t)c->nnz * 4); /* widened in place, from the end */
        const int* narrow = (const int*)h.ci;
        for (int64_t e = c->nnz - 1; e >= 0; --e) h.ci[e] = narrow[e];
    }
    download(h.val, c->val, (size_t)c->nnz * vs);
    return h;
}

static void assert_same_c(const char* what, const host_c* x, const host_c* y, int64_t m, int64_t nnz,
                          size_t vs) {
    if (memcmp(x->rp, y->rp, (size_t)(m + 1) * 8) != 0 || memcmp(x->ci, y->ci, (size_t)nnz * 8) != 0 ||
        memcmp(x->val, y->val, (size_t)nnz * vs) != 0)
        fail_msg("%s: C differs", what);
}

static void free_host_c(host_c* h) { free(h->rp), free(h->ci), free(h->val); }

/* (9n-10)^3 products, (5n-6)^3 entries of C, (3n-2)^3 of A, for the n^3 stencil. */
static int64_t cube(int64_t x) { return x * x * x; }

static void test_products_beyond_2_31(void** state) {
    (void)state;
    const int n = 145;
    const int64_t m = cube(n), products = cube(9 * n - 10), nnz_c = cube(5 * n - 6), nnz_a = cube(3 * n - 2);
    assert_true(products >= ((int64_t)1 << 31));
    /* A, the 64-bit C and the 32-bit C, the largest at once; the host holds A and two Cs */
    const size_t device = (size_t)nnz_a * 12 + (size_t)nnz_c * 16 + (size_t)m * 64;
    const size_t host = (size_t)nnz_a * 12 + (size_t)nnz_c * 32 + (size_t)m * 64;
    if (!fits("2^31 products", device, host)) skip();
    tcst_csr a;
    assert_int_equal(tcst_gen_stencil27(n, n, n, 1, seed, &a), 0);
    printf("  stencil %d^3: %lld rows, %lld products, nnz(C) %lld\n", n, (long long)m,
           (long long)products, (long long)nnz_c);
    operand d = upload_a(&a, 1);
    product wide;
    assert_ok(multiply(&d, 1, 1.0f, &wide));
    assert_int_equal(wide.nnz, nnz_c);
    const size_t whole_size2 = wide.size2;
    check_against_reference(&a, &wide, 1);
    host_c hw = fetch(&wide, m, 8);
    free_c(&wide);

    product narrow;
    assert_ok(multiply(&d, 0, 1.0f, &narrow));
    host_c hn = fetch(&narrow, m, 8);
    free_c(&narrow);
    assert_same_c("32-bit C against 64-bit C", &hw, &hn, m, nnz_c, 8);
    free_host_c(&hn);

    product budget;
    assert_ok(multiply(&d, 1, 0.1f, &budget));
    assert_true(budget.size2 < whole_size2);
    host_c hb = fetch(&budget, m, 8);
    free_c(&budget);
    assert_same_c("chunk_fraction 0.1 against the whole product", &hw, &hb, m, nnz_c, 8);
    free_host_c(&hb);
    free_host_c(&hw);
    free_a(&d);
    tcst_csr_free(&a);
}

static void test_nnz_c_beyond_2_31(void** state) {
    (void)state;
    const int n = 260;
    const int64_t m = cube(n), products = cube(9 * n - 10), nnz_c = cube(5 * n - 6), nnz_a = cube(3 * n - 2);
    assert_true(nnz_c >= ((int64_t)1 << 31) && nnz_a < ((int64_t)1 << 31));
    const size_t device = (size_t)nnz_a * 8 + (size_t)nnz_c * 12 + (size_t)m * 64;
    const size_t host = (size_t)nnz_a * 16 + (size_t)m * 64 + ((size_t)1 << 30);
    if (!fits("nnz(C) >= 2^31", device, host)) skip();
    tcst_csr a;
    assert_int_equal(tcst_gen_stencil27(n, n, n, 1, seed + 1, &a), 0);
    printf("  stencil %d^3: %lld rows, %lld products, nnz(C) %lld\n", n, (long long)m,
           (long long)products, (long long)nnz_c);
    operand d = upload_a(&a, 0);
    product c;
    /* a 32-bit C cannot hold the offsets: refused once nnz(C) is known */
    assert_int_equal(multiply(&d, 0, 1.0f, &c), TCS_STATUS_INSUFFICIENT_RESOURCES);
    assert_ok(multiply(&d, 1, 1.0f, &c));
    assert_int_equal(c.nnz, nnz_c);
    check_against_reference(&a, &c, 0);
    free_c(&c);
    free_a(&d);
    tcst_csr_free(&a);
}

TCST_GPU_GROUP_FIXTURE("gpu_spgemm_large", handle, seed, NULL)

int main(void) {
    if (tcst_no_gpu("gpu_spgemm_large")) return TCST_SKIP;
    if (tcst_quick()) {
        printf("gpu_spgemm_large: TCS_TEST_QUICK: skipped (sizes of 2^31 cannot be made small)\n");
        return TCST_SKIP;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_products_beyond_2_31),
        cmocka_unit_test(test_nnz_c_beyond_2_31),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
