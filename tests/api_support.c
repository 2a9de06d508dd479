/* Tests of the test-support library itself (tests/support): the oracle must be right
 * before anything is compared with it. Host only; the device helpers are checked for
 * a clean failure without a GPU and for a round trip with one. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tcs_test_support.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- helpers ---- */

/* A host CSR matrix from literal arrays (copied). */
static tcst_csr make_csr(int rows, int cols, const int* rp, const int* ci, const double* v) {
    tcst_csr m;
    assert_int_equal(tcst_csr_alloc(&m, rows, cols, rp[rows]), 0);
    memcpy(m.row_ptr, rp, (size_t)(rows + 1) * sizeof(int));
    if (rp[rows] > 0) {
        memcpy(m.col_idx, ci, (size_t)rp[rows] * sizeof(int));
        memcpy(m.val, v, (size_t)rp[rows] * sizeof(double));
    }
    return m;
}

#define assert_valid_csr(m, sorted)                                        \
    do {                                                                   \
        char msg_[256];                                                    \
        if (tcst_csr_check((m), (sorted), msg_, sizeof msg_) != 0)         \
            fail_msg("invalid CSR: %s", msg_);                             \
    } while (0)

#define assert_near(x, y, tol)                                                               \
    do {                                                                                     \
        const double x_ = (x), y_ = (y);                                                     \
        if (!(fabs(x_ - y_) <= (tol))) fail_msg("%s = %.17g, expected %.17g", #x, x_, y_); \
    } while (0)

static void assert_csr_identical(const tcst_csr* a, const tcst_csr* b) {
    assert_int_equal(a->rows, b->rows);
    assert_int_equal(a->cols, b->cols);
    assert_int_equal(a->nnz, b->nnz);
    assert_memory_equal(a->row_ptr, b->row_ptr, (size_t)(a->rows + 1) * sizeof(int));
    if (a->nnz > 0) {
        assert_memory_equal(a->col_idx, b->col_idx, (size_t)a->nnz * sizeof(int));
        assert_memory_equal(a->val, b->val, (size_t)a->nnz * sizeof(double));
    }
}

/* Dense row-major copy of m (rows*cols doubles) and, in mask, which entries exist. */
static void to_dense(const tcst_csr* m, double* d, char* mask) {
    memset(d, 0, (size_t)(m->rows * m->cols) * sizeof(double));
    if (mask) memset(mask, 0, (size_t)(m->rows * m->cols));
    for (int64_t i = 0; i < m->rows; ++i)
        for (int e = m->row_ptr[i]; e < m->row_ptr[i + 1]; ++e) {
            d[i * m->cols + m->col_idx[e]] += m->val[e];
            if (mask) mask[i * m->cols + m->col_idx[e]] = 1;
        }
}

/* ---- random numbers ---- */

static void test_rng_sequence(void** state) {
    (void)state;
    /* xoshiro256** seeded by splitmix64(42), from an independent implementation (whose
     * splitmix64(0) gives the published 0xe220a8397b1dcdaf). */
    tcst_rng r;
    tcst_rng_seed(&r, 42);
    assert_true(tcst_rng_next(&r) == 0x15780b2e0c2ec716ull);
    assert_true(tcst_rng_next(&r) == 0x6104d9866d113a7eull);
    assert_true(tcst_rng_next(&r) == 0xae17533239e499a1ull);

    tcst_rng a, b;
    tcst_rng_seed(&a, 7);
    tcst_rng_seed(&b, 7);
    double sum = 0.0;
    const int n = 100000;
    for (int i = 0; i < n; ++i) {
        const double u = tcst_rng_uniform(&a);
        assert_true(u >= 0.0 && u < 1.0);
        assert_true(u == tcst_rng_uniform(&b));
        const double s = tcst_rng_symmetric(&a);
        assert_true(s >= -1.0 && s < 1.0);
        (void)tcst_rng_symmetric(&b);
        sum += u;
    }
    assert_near(sum / n, 0.5, 0.01);

    int hist[7] = {0};
    for (int i = 0; i < 70000; ++i) {
        const uint64_t k = tcst_rng_below(&a, 7);
        assert_true(k < 7);
        hist[k]++;
    }
    for (int k = 0; k < 7; ++k) assert_in_range(hist[k], 9500, 10500);
    assert_true(tcst_rng_below(&a, 0) == 0);
    assert_true(tcst_rng_below(&a, 1) == 0);
}

static void test_fresh_seed_honours_env(void** state) {
    (void)state;
    const char* old = getenv("TCST_SEED");
    char* saved = old ? strdup(old) : NULL;
    setenv("TCST_SEED", "12345", 1);
    assert_true(tcst_fresh_seed() == 12345u);
    setenv("TCST_SEED", "0xdeadbeefcafe", 1);
    assert_true(tcst_fresh_seed() == 0xdeadbeefcafeull);
    unsetenv("TCST_SEED");
    /* Fresh seeds differ from call to call (the clock moves) with overwhelming odds. */
    const uint64_t s1 = tcst_fresh_seed();
    uint64_t s2 = s1;
    for (int i = 0; i < 1000 && s2 == s1; ++i) s2 = tcst_fresh_seed();
    assert_true(s1 != s2);
    if (saved) {
        setenv("TCST_SEED", saved, 1);
        free(saved);
    }
}

/* ---- CSR basics ---- */

static void test_csr_check_finds_problems(void** state) {
    (void)state;
    const int rp[] = {0, 2, 3}, ci[] = {0, 2, 1};
    const double v[] = {1, 2, 3};
    tcst_csr m = make_csr(2, 3, rp, ci, v);
    char msg[256];
    assert_int_equal(tcst_csr_check(&m, 1, msg, sizeof msg), 0);
    m.col_idx[1] = 0; /* duplicate column in row 0 */
    assert_int_equal(tcst_csr_check(&m, 0, msg, sizeof msg), 0);
    assert_int_not_equal(tcst_csr_check(&m, 1, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "row 0"));
    m.col_idx[1] = 3; /* out of range */
    assert_int_not_equal(tcst_csr_check(&m, 0, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "outside"));
    m.col_idx[1] = 2;
    m.row_ptr[2] = 2; /* row_ptr[rows] != nnz */
    assert_int_not_equal(tcst_csr_check(&m, 0, msg, sizeof msg), 0);
    m.row_ptr[2] = 3;

    tcst_csr c;
    assert_int_equal(tcst_csr_copy(&m, &c), 0);
    assert_csr_identical(&m, &c);
    tcst_csr_free(&c);
    assert_null(c.row_ptr);
    tcst_csr_free(&c); /* twice is harmless */
    tcst_csr_free(&m);

    assert_int_not_equal(tcst_csr_alloc(&m, -1, 3, 0), 0);
    assert_int_not_equal(tcst_csr_alloc(&m, 3, 3, (int64_t)1 << 40), 0);
    assert_null(m.row_ptr);
    assert_int_equal(tcst_csr_alloc(&m, 0, 0, 0), 0);
    assert_valid_csr(&m, 1);
    tcst_csr_free(&m);
}

static void test_shuffle_and_transpose(void** state) {
    (void)state;
    tcst_csr a, t, tt, s, st;
    assert_int_equal(tcst_gen_uniform(60, 45, 9, 11, &a), 0);
    assert_int_equal(tcst_csr_transpose(&a, &t), 0);
    assert_int_equal(t.rows, 45);
    assert_int_equal(t.cols, 60);
    assert_valid_csr(&t, 1);
    assert_int_equal(tcst_csr_transpose(&t, &tt), 0);
    assert_csr_identical(&a, &tt);

    /* Shuffling keeps every row's entries (as a set) but changes their order. */
    assert_int_equal(tcst_csr_copy(&a, &s), 0);
    tcst_csr_shuffle_columns(&s, 5);
    assert_valid_csr(&s, 0);
    assert_memory_equal(a.row_ptr, s.row_ptr, (size_t)(a.rows + 1) * sizeof(int));
    assert_true(memcmp(a.col_idx, s.col_idx, (size_t)a.nnz * sizeof(int)) != 0);
    /* The transpose of a shuffled matrix is the same sorted transpose. */
    assert_int_equal(tcst_csr_transpose(&s, &st), 0);
    assert_csr_identical(&t, &st);

    tcst_csr_free(&a);
    tcst_csr_free(&t);
    tcst_csr_free(&tt);
    tcst_csr_free(&s);
    tcst_csr_free(&st);
}

/* ---- reference SpGEMM ---- */

static void test_ref_spgemm_by_hand(void** state) {
    (void)state;
    /* A = [1 2 0; 0 0 3; 0 0 0], B = [1 0 2; -0.5 4 0; 0 1 0].
     * C(0,0) = 1*1 + 2*(-0.5) = 0 must stay stored; row 2 of C is empty. */
    const int arp[] = {0, 2, 3, 3}, aci[] = {0, 1, 2};
    const double av[] = {1.0, 2.0, 3.0};
    const int brp[] = {0, 2, 4, 5}, bci[] = {0, 2, 0, 1, 1};
    const double bv[] = {1.0, 2.0, -0.5, 4.0, 1.0};
    tcst_csr a = make_csr(3, 3, arp, aci, av), b = make_csr(3, 3, brp, bci, bv), c;
    assert_int_equal(tcst_ref_spgemm(&a, &b, &c), 0);
    const int crp[] = {0, 3, 4, 4}, cci[] = {0, 1, 2, 1};
    const double cv[] = {0.0, 8.0, 2.0, 3.0};
    tcst_csr expect = make_csr(3, 3, crp, cci, cv);
    assert_csr_identical(&c, &expect);
    assert_true(tcst_ref_num_products(&a, &b) == 5);

    double* mag = tcst_ref_spgemm_magnitude(&a, &b, &c);
    assert_non_null(mag);
    const double mag_expect[] = {2.0, 8.0, 2.0, 3.0};
    for (int e = 0; e < 4; ++e) assert_near(mag[e], mag_expect[e], 0.0);

    /* The comparison accepts the exact result, 1-based, as floats. */
    int rp1[4], ci1[4];
    float vf[4];
    for (int i = 0; i < 4; ++i) rp1[i] = crp[i] + 1;
    for (int e = 0; e < 4; ++e) {
        ci1[e] = cci[e] + 1;
        vf[e] = (float)cv[e];
    }
    char msg[512];
    assert_int_equal(tcst_compare_csr(&c, mag, rp1, ci1, vf, 0, 1, 1e-6, msg, sizeof msg), 0);
    /* ... and names what differs. */
    vf[0] = 1e-3f;
    assert_int_not_equal(tcst_compare_csr(&c, mag, rp1, ci1, vf, 0, 1, 1e-6, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "row 0 column 0"));
    vf[0] = NAN;
    assert_int_not_equal(tcst_compare_csr(&c, mag, rp1, ci1, vf, 0, 1, 1e-6, msg, sizeof msg), 0);
    vf[0] = 0.0f;
    ci1[2] = 2;
    assert_int_not_equal(tcst_compare_csr(&c, mag, rp1, ci1, vf, 0, 1, 1e-6, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "column"));
    ci1[2] = 3;
    rp1[1] = 3; /* row 0 one entry short */
    assert_int_not_equal(tcst_compare_csr(&c, mag, rp1, ci1, vf, 0, 1, 1e-6, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "row 0 has 2 entries"));
    rp1[1] = 4;
    rp1[0] = 0; /* 0-based offsets given as 1-based */
    assert_int_not_equal(tcst_compare_csr(&c, mag, rp1, ci1, vf, 0, 1, 1e-6, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "row_ptr[0]"));
    /* Without magnitudes the bound is relative to max(|ref|, 1). */
    const double dv[] = {0.5e-9, 8.0 * (1 + 0.5e-9), 2.0, 3.0};
    assert_int_equal(tcst_compare_csr(&c, NULL, crp, cci, dv, 1, 0, 1e-9, msg, sizeof msg), 0);
    const double dbad[] = {2e-9, 8.0, 2.0, 3.0};
    assert_int_not_equal(tcst_compare_csr(&c, NULL, crp, cci, dbad, 1, 0, 1e-9, msg, sizeof msg), 0);

    /* Mismatched inner dimensions are refused. */
    tcst_csr bad;
    const int rp2[] = {0, 0, 0};
    tcst_csr two = make_csr(2, 2, rp2, NULL, NULL);
    assert_int_not_equal(tcst_ref_spgemm(&a, &two, &bad), 0);
    assert_null(bad.row_ptr);

    free(mag);
    tcst_csr_free(&a);
    tcst_csr_free(&b);
    tcst_csr_free(&c);
    tcst_csr_free(&expect);
    tcst_csr_free(&two);
}

/* The reference against a dense product, on random matrices with shuffled columns. */
static void test_ref_spgemm_matches_dense(void** state) {
    (void)state;
    const uint64_t seed = tcst_fresh_seed();
    print_message("seed %llu (TCST_SEED=%llu reproduces)\n", (unsigned long long)seed,
                  (unsigned long long)seed);
    const int m = 37, k = 23, n = 41;
    tcst_csr a, b, c, as, bs, cs;
    assert_int_equal(tcst_gen_uniform(m, k, 4, seed, &a), 0);
    assert_int_equal(tcst_gen_uniform(k, n, 3, seed + 1, &b), 0);
    assert_int_equal(tcst_ref_spgemm(&a, &b, &c), 0);
    assert_valid_csr(&c, 1);

    double *da = malloc(sizeof(double) * m * k), *db = malloc(sizeof(double) * k * n),
           *dc = malloc(sizeof(double) * m * n), *dref = malloc(sizeof(double) * m * n);
    char *ma = malloc((size_t)m * k), *mb = malloc((size_t)k * n), *mc = malloc((size_t)m * n);
    assert_true(da && db && dc && dref && ma && mb && mc);
    to_dense(&a, da, ma);
    to_dense(&b, db, mb);
    to_dense(&c, dc, mc);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            double s = 0.0;
            int reached = 0;
            for (int p = 0; p < k; ++p) {
                s += da[i * k + p] * db[p * n + j];
                reached |= ma[i * k + p] && mb[p * n + j];
            }
            if (reached != mc[i * n + j]) fail_msg("pattern differs at (%d, %d)", i, j);
            assert_near(dc[i * n + j], s, 1e-12);
        }
    assert_true(tcst_ref_num_products(&a, &b) > c.nnz / 2);

    /* Unsorted inputs: the same pattern, values equal up to summation order. */
    assert_int_equal(tcst_csr_copy(&a, &as), 0);
    assert_int_equal(tcst_csr_copy(&b, &bs), 0);
    tcst_csr_shuffle_columns(&as, seed + 2);
    tcst_csr_shuffle_columns(&bs, seed + 3);
    assert_int_equal(tcst_ref_spgemm(&as, &bs, &cs), 0);
    double* mag = tcst_ref_spgemm_magnitude(&a, &b, &c);
    assert_non_null(mag);
    char msg[512];
    if (tcst_compare_csr(&c, mag, cs.row_ptr, cs.col_idx, cs.val, 1, 0, 1e-14, msg, sizeof msg))
        fail_msg("shuffled inputs: %s", msg);

    free(mag);
    free(da), free(db), free(dc), free(dref), free(ma), free(mb), free(mc);
    tcst_csr_free(&a), tcst_csr_free(&b), tcst_csr_free(&c);
    tcst_csr_free(&as), tcst_csr_free(&bs), tcst_csr_free(&cs);
}

/* ---- reference SpMM ---- */

static void test_ref_spmm_all_transposes(void** state) {
    (void)state;
    /* A (3 x 4), dense copy in ad (row-major). */
    const int rp[] = {0, 2, 2, 5}, ci[] = {1, 3, 0, 2, 3};
    const double v[] = {2.0, -1.0, 0.5, 3.0, 4.0};
    tcst_csr a = make_csr(3, 4, rp, ci, v);
    double ad[12];
    to_dense(&a, ad, NULL);
    const int n = 2;
    for (int ta = 0; ta < 2; ++ta)
        for (int tb = 0; tb < 2; ++tb) {
            const int m = ta ? 4 : 3, k = ta ? 3 : 4;
            const int ldb = (tb ? n : k) + 1, ldc = m + 2; /* padded leading dimensions */
            double b[16], c[16], expect[16];
            for (int i = 0; i < 16; ++i) {
                b[i] = 0.25 * i - 1.0;
                c[i] = 1.0 + i;
            }
            /* op(B)(p, j) is b[p + j*ldb], or b[j + p*ldb] when stored as n x k. */
            for (int j = 0; j < n; ++j)
                for (int i = 0; i < ldc; ++i) {
                    double s = 0.0;
                    for (int p = 0; p < k && i < m; ++p) {
                        const double aip = ta ? ad[p * 4 + i] : ad[i * 4 + p];
                        s += aip * (tb ? b[j + p * ldb] : b[p + j * ldb]);
                    }
                    expect[i + j * ldc] = i < m ? 1.5 * s - 0.5 * c[i + j * ldc] : c[i + j * ldc];
                }
            tcst_ref_spmm(ta, tb, 1.5, &a, b, ldb, n, -0.5, c, ldc);
            for (int i = 0; i < n * ldc; ++i) assert_near(c[i], expect[i], 1e-14);

            /* beta = 0 never reads C. */
            for (int i = 0; i < 16; ++i) c[i] = NAN;
            tcst_ref_spmm(ta, tb, 1.5, &a, b, ldb, n, 0.0, c, ldc);
            for (int j = 0; j < n; ++j)
                for (int i = 0; i < m; ++i) {
                    const double want = expect[i + j * ldc] + 0.5 * (1.0 + i + j * ldc);
                    assert_near(c[i + j * ldc], want, 1e-14);
                }
        }
    tcst_csr_free(&a);
}

static void test_compare_dense(void** state) {
    (void)state;
    const double ref[] = {1.0, -2.0, 0.0, INFINITY};
    double x[] = {1.0, -2.0, 0.0, INFINITY};
    assert_true(tcst_compare_dense(ref, NULL, x, 4) == 0.0);
    x[1] = -2.002;
    assert_near(tcst_compare_dense(ref, NULL, x, 4), 1e-3, 1e-12);
    const double mag[] = {1.0, 20.0, 1.0, 1.0};
    assert_near(tcst_compare_dense(ref, mag, x, 4), 1e-4, 1e-12);
    x[2] = NAN;
    assert_true(isinf(tcst_compare_dense(ref, mag, x, 4)));
}

/* ---- Matrix Market ---- */

static char tmp_dir[256];

static int make_tmp_dir(void** state) {
    (void)state;
    const char* base = getenv("TMPDIR");
    snprintf(tmp_dir, sizeof tmp_dir, "%s/tcst_mm_XXXXXX", base && *base ? base : "/tmp");
    return mkdtemp(tmp_dir) == NULL ? -1 : 0;
}

static int remove_tmp_dir(void** state) {
    (void)state;
    DIR* d = opendir(tmp_dir);
    if (d == NULL) return 0;
    struct dirent* e;
    char path[600];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        snprintf(path, sizeof path, "%s/%s", tmp_dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(tmp_dir);
    return 0;
}

static const char* write_file(const char* name, const char* text) {
    static char path[600];
    snprintf(path, sizeof path, "%s/%s", tmp_dir, name);
    FILE* f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* Reads text as a Matrix Market file; returns the status and the message. */
static int read_text(const char* text, uint64_t seed, tcst_csr* out, char* err, size_t errlen) {
    return tcst_mm_read(write_file("m.mtx", text), seed, out, err, errlen);
}

static void test_mm_general_duplicates_zeros(void** state) {
    (void)state;
    tcst_csr m;
    char err[256] = "";
    const int rc = read_text("%%MatrixMarket matrix coordinate real general\n"
                             "% a comment\n"
                             "\n"
                             "3 4 5\n"
                             "1 1 1.5\n"
                             "3 4 -2e0\n"
                             "1 1 0.5\n"
                             "2 3 7\n"
                             "1 2 0\n",
                             0, &m, err, sizeof err);
    if (rc != 0) fail_msg("%s", err);
    /* The duplicate (1,1) is summed; the explicit zero (1,2) is kept. */
    const int rp[] = {0, 2, 3, 4}, ci[] = {0, 1, 2, 3};
    const double v[] = {2.0, 0.0, 7.0, -2.0};
    tcst_csr expect = make_csr(3, 4, rp, ci, v);
    assert_csr_identical(&m, &expect);
    tcst_csr_free(&m);
    tcst_csr_free(&expect);
}

static void test_mm_symmetric_and_skew(void** state) {
    (void)state;
    tcst_csr m;
    char err[256] = "";
    int rc = read_text("%%MatrixMarket matrix coordinate integer symmetric\n"
                       "3 3 3\n1 1 4\n2 1 -1\n3 2 5\n",
                       0, &m, err, sizeof err);
    if (rc != 0) fail_msg("%s", err);
    const int rp[] = {0, 2, 4, 5}, ci[] = {0, 1, 0, 2, 1};
    const double v[] = {4.0, -1.0, -1.0, 5.0, 5.0};
    tcst_csr expect = make_csr(3, 3, rp, ci, v);
    assert_csr_identical(&m, &expect);
    tcst_csr_free(&m);
    tcst_csr_free(&expect);

    rc = read_text("%%MatrixMarket matrix coordinate real skew-symmetric\n"
                   "2 2 1\n2 1 3\n",
                   0, &m, err, sizeof err);
    if (rc != 0) fail_msg("%s", err);
    const int srp[] = {0, 1, 2}, sci[] = {1, 0};
    const double sv[] = {-3.0, 3.0};
    expect = make_csr(2, 2, srp, sci, sv);
    assert_csr_identical(&m, &expect);
    tcst_csr_free(&m);
    tcst_csr_free(&expect);
}

static void test_mm_pattern_values(void** state) {
    (void)state;
    const char* text = "%%MatrixMarket matrix coordinate pattern symmetric\n"
                       "4 4 4\n1 1\n2 1\n4 3\n4 2\n";
    tcst_csr ones, r1, r2;
    char err[256] = "";
    assert_int_equal(read_text(text, 0, &ones, err, sizeof err), 0);
    assert_int_equal(ones.nnz, 7);
    for (int e = 0; e < 7; ++e) assert_true(ones.val[e] == 1.0);
    assert_int_equal(read_text(text, 99, &r1, err, sizeof err), 0);
    assert_int_equal(read_text(text, 99, &r2, err, sizeof err), 0);
    assert_csr_identical(&r1, &r2); /* the seed fixes the values */
    assert_memory_equal(ones.col_idx, r1.col_idx, 7 * sizeof(int));
    tcst_csr t;
    assert_int_equal(tcst_csr_transpose(&r1, &t), 0);
    assert_csr_identical(&r1, &t); /* mirrored entries get the same value */
    for (int e = 0; e < 7; ++e) assert_true(r1.val[e] >= -1.0 && r1.val[e] < 1.0);
    tcst_csr_free(&ones);
    tcst_csr_free(&r1);
    tcst_csr_free(&r2);
    tcst_csr_free(&t);
}

static void expect_rejected(const char* text, const char* phrase) {
    tcst_csr m;
    char err[256] = "";
    if (read_text(text, 0, &m, err, sizeof err) == 0) fail_msg("accepted, expected '%s'", phrase);
    if (strstr(err, phrase) == NULL) fail_msg("message '%s' lacks '%s'", err, phrase);
    assert_null(m.row_ptr);
}

static void test_mm_rejections(void** state) {
    (void)state;
    expect_rejected("%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", "complex");
    expect_rejected("%%MatrixMarket matrix coordinate complex hermitian\n1 1 1\n1 1 1 0\n",
                    "complex");
    expect_rejected("%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n", "hermitian");
    expect_rejected("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", "array");
    expect_rejected("%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1\n2 2 2\n",
                    "ends after 2 of 3");
    expect_rejected("%%MatrixMarket matrix coordinate real general\n3 3 1\n4 1 1\n", "outside");
    expect_rejected("%%MatrixMarket matrix coordinate real general\n3 3 1\n1 0 1\n", "outside");
    expect_rejected("%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1\n", "cannot read");
    expect_rejected("%%MatrixMarket matrix coordinate real symmetric\n3 2 0\n", "square");
    expect_rejected("%%MatrixMarket matrix coordinate real general\n3 x 1\n", "size line");
    expect_rejected("3 3 1\n1 1 1\n", "not a Matrix Market");
    expect_rejected("", "empty");

    tcst_csr m;
    char err[256] = "";
    char path[600];
    snprintf(path, sizeof path, "%s/missing.mtx.gz", tmp_dir);
    assert_int_not_equal(tcst_mm_read(path, 0, &m, err, sizeof err), 0);
    assert_non_null(strstr(err, "cannot open"));
}

static void test_mm_gzip(void** state) {
    (void)state;
    /* A quote in the name checks the shell quoting of the gzip command. */
    const char* text = "%%MatrixMarket matrix coordinate real general\n2 3 3\n1 3 0.25\n2 1 -4\n"
                       "2 2 8\n";
    const char* plain = write_file("it's.mtx", text);
    char cmd[1500], gz[700];
    snprintf(gz, sizeof gz, "%s.gz", plain);
    snprintf(cmd, sizeof cmd, "gzip -c \"%s\" > \"%s\"", plain, gz);
    assert_int_equal(system(cmd), 0);
    tcst_csr a, b;
    char err[256] = "";
    if (tcst_mm_read(plain, 0, &a, err, sizeof err) != 0) fail_msg("%s", err);
    if (tcst_mm_read(gz, 0, &b, err, sizeof err) != 0) fail_msg("%s", err);
    assert_csr_identical(&a, &b);
    assert_int_equal(b.nnz, 3);
    tcst_csr_free(&a);
    tcst_csr_free(&b);

    /* A corrupt .gz is an error, not a silently short matrix. */
    FILE* f = fopen(gz, "r+b");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    const long size = ftell(f);
    assert_int_equal(ftruncate(fileno(f), size / 2 + 5), 0);
    fclose(f);
    assert_int_not_equal(tcst_mm_read(gz, 0, &b, err, sizeof err), 0);
}

/* /work/shared/matrices/MANIFEST.md: rows, cols and nnz of the full matrix
 * (symmetric files expanded); complex ones must be rejected. */
static const struct {
    const char* file;
    int64_t rows, cols, nnz;
    int symmetric, complex_values;
} manifest[] = {
    {"copter2.mtx.gz", 55476, 55476, 759952, 1, 0},
    {"email-Enron.mtx.gz", 36692, 36692, 367662, 1, 0},
    {"a2nnsnsl.mtx.gz", 80016, 80016, 347222, 1, 0},
    {"rgg_n_2_15_s0.mtx.gz", 32768, 32768, 320480, 1, 0},
    {"bcsstk16.mtx.gz", 4884, 4884, 290378, 1, 0},
    {"Dubcova1.mtx.gz", 16129, 16129, 253009, 1, 0},
    {"astro-ph.mtx.gz", 16706, 16706, 242502, 1, 0},
    {"luxembourg_osm.mtx.gz", 114599, 114599, 239332, 1, 0},
    {"delaunay_n15.mtx.gz", 32768, 32768, 196548, 1, 0},
    {"ca-CondMat.mtx.gz", 23133, 23133, 186936, 1, 0},
    {"p2p-Gnutella31.mtx.gz", 62586, 62586, 147892, 0, 0},
    {"as-caida.mtx.gz", 31379, 31379, 106762, 0, 0},
    {"wiki-Vote.mtx.gz", 8297, 8297, 103689, 0, 0},
    {"bayer10.mtx.gz", 13436, 13436, 94926, 0, 0},
    {"bcsstk13.mtx.gz", 2003, 2003, 83883, 1, 0},
    {"aa3.mtx.gz", 825, 8627, 70806, 0, 0},
    {"ex36.mtx.gz", 3079, 3079, 53843, 0, 0},
    {"ca-HepTh.mtx.gz", 9877, 9877, 51971, 1, 0},
    {"lock1074.mtx.gz", 1074, 1074, 51588, 1, 0},
    {"mbeacxc.mtx.gz", 496, 496, 49920, 0, 0},
    {"PGPgiantcompo.mtx.gz", 10680, 10680, 48632, 1, 0},
    {"rajat01.mtx.gz", 6833, 6833, 43250, 0, 0},
    {"bips98_606.mtx.gz", 7135, 7135, 34738, 0, 0},
    {"hep-th.mtx.gz", 8361, 8361, 31502, 1, 0},
    {"qc324.mtx.gz", 324, 324, 26730, 0, 1},
    {"Si2.mtx.gz", 769, 769, 17801, 1, 0},
    {"nos3.mtx.gz", 960, 960, 15844, 1, 0},
};
#define MANIFEST_SIZE (sizeof manifest / sizeof manifest[0])

static int is_matrix_file(const char* name) {
    const size_t n = strlen(name);
    return (n > 4 && strcmp(name + n - 4, ".mtx") == 0) ||
           (n > 7 && strcmp(name + n - 7, ".mtx.gz") == 0);
}

/* The folder iterator the GPU tests use: every real matrix of the folder in turn, valid,
 * the complex one skipped and still counted in `index`; a missing folder refuses to open. */
static void test_mm_folder(void** state) {
    (void)state;
    tcst_mm_folder f;
    assert_int_not_equal(tcst_mm_folder_open(&f, "/nonexistent/tcs-matrices"), 0);
    if (tcst_mm_folder_open(&f, NULL) != 0) {
        print_message("no matrix directory %s (set TCS_MATRIX_DIR): skipped\n", f.folder);
        skip();
    }
    int matrices = 0, got;
    char err[512] = "", msg[256] = "";
    tcst_csr m;
    while ((got = tcst_mm_folder_next(&f, 3, &m, err, sizeof err)) != 0) {
        if (got < 0) fail_msg("%s", err);
        if (tcst_csr_check(&m, 1, msg, sizeof msg) != 0) fail_msg("%s: %s", f.name, msg);
        assert_true(strstr(f.name, ".mtx") != NULL);
        tcst_csr_free(&m);
        ++matrices;
    }
    const int files = f.index;
    tcst_mm_folder_close(&f);
    print_message("%d matrices of %d Matrix Market files\n", matrices, files);
    assert_true(matrices > 0 && matrices <= files);
}

static void test_mm_collection(void** state) {
    (void)state;
    const char* dir = tcst_matrix_dir();
    DIR* d = opendir(dir);
    if (d == NULL) {
        print_message("no matrix directory %s (set TCS_MATRIX_DIR): skipped\n", dir);
        skip();
    }
    int read = 0, known = 0, failures = 0;
    struct dirent* ent;
    while ((ent = readdir(d)) != NULL) {
        if (!is_matrix_file(ent->d_name)) continue;
        char path[1200], err[512] = "";
        snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
        size_t k = 0;
        while (k < MANIFEST_SIZE && strcmp(manifest[k].file, ent->d_name) != 0) ++k;
        tcst_csr m;
        const int rc = tcst_mm_read(path, 1, &m, err, sizeof err);
        ++read;
        if (k == MANIFEST_SIZE) {
            /* Not in the table: it must still read as a valid matrix. */
            print_message("%s: not in the manifest table, checked for validity only\n",
                          ent->d_name);
            if (rc != 0 && strstr(err, "complex") == NULL) {
                print_error("%s\n", err);
                ++failures;
            }
        } else if (manifest[k].complex_values) {
            ++known;
            if (rc == 0 || strstr(err, "complex") == NULL) {
                print_error("%s: expected a rejection naming 'complex', got '%s'\n", ent->d_name,
                            rc == 0 ? "success" : err);
                ++failures;
            }
        } else if (rc != 0) {
            ++known;
            print_error("%s\n", err);
            ++failures;
        } else {
            ++known;
            if (m.rows != manifest[k].rows || m.cols != manifest[k].cols ||
                m.nnz != manifest[k].nnz) {
                print_error("%s: %lld x %lld with %lld nonzeros, manifest says %lld x %lld, %lld\n",
                            ent->d_name, (long long)m.rows, (long long)m.cols, (long long)m.nnz,
                            (long long)manifest[k].rows, (long long)manifest[k].cols,
                            (long long)manifest[k].nnz);
                ++failures;
            }
            if (manifest[k].symmetric) {
                tcst_csr t;
                assert_int_equal(tcst_csr_transpose(&m, &t), 0);
                if (t.nnz != m.nnz ||
                    memcmp(t.col_idx, m.col_idx, (size_t)m.nnz * sizeof(int)) != 0 ||
                    memcmp(t.val, m.val, (size_t)m.nnz * sizeof(double)) != 0) {
                    print_error("%s: symmetric file does not read as a symmetric matrix\n",
                                ent->d_name);
                    ++failures;
                }
                tcst_csr_free(&t);
            }
        }
        if (rc == 0) {
            if (tcst_csr_check(&m, 1, err, sizeof err) != 0) {
                print_error("%s: %s\n", ent->d_name, err);
                ++failures;
            }
            tcst_csr_free(&m);
        }
    }
    closedir(d);
    print_message("read %d matrix files from %s (%d in the manifest table)\n", read, dir, known);
    assert_true(read > 0);
    assert_int_equal(failures, 0);
}

/* ---- generators ---- */

/* Every row of m lies in [-1, 1) and m is valid with strictly sorted rows. */
static void assert_generated(const tcst_csr* m, int64_t rows, int64_t cols) {
    assert_int_equal(m->rows, rows);
    assert_int_equal(m->cols, cols);
    assert_valid_csr(m, 1);
    for (int64_t e = 0; e < m->nnz; ++e) assert_true(m->val[e] >= -1.0 && m->val[e] < 1.0);
}

static void test_gen_stencil(void** state) {
    (void)state;
    tcst_csr m, again, t;
    assert_int_equal(tcst_gen_stencil27(4, 3, 2, 1, 3, &m), 0);
    assert_generated(&m, 24, 24);
    assert_int_equal(m.nnz, 10 * 7 * 4); /* (3n-2) per dimension */
    /* Interior node (1,1,0) of a 4x3x2 grid has 3*3*2 neighbours. */
    const int node = 1 + 4 * 1;
    assert_int_equal(m.row_ptr[node + 1] - m.row_ptr[node], 18);
    assert_int_equal(tcst_csr_transpose(&m, &t), 0);
    assert_memory_equal(t.col_idx, m.col_idx, (size_t)m.nnz * sizeof(int)); /* symmetric pattern */
    assert_int_equal(tcst_gen_stencil27(4, 3, 2, 1, 3, &again), 0);
    assert_csr_identical(&m, &again);
    tcst_csr_free(&m), tcst_csr_free(&again), tcst_csr_free(&t);

    assert_int_equal(tcst_gen_stencil27(4, 3, 2, 3, 3, &m), 0);
    assert_generated(&m, 72, 72);
    assert_int_equal(m.nnz, 10 * 7 * 4 * 9);
    tcst_csr_free(&m);
    assert_int_equal(tcst_gen_stencil27(1, 1, 1, 1, 3, &m), 0);
    assert_int_equal(m.nnz, 1);
    tcst_csr_free(&m);
    assert_int_not_equal(tcst_gen_stencil27(0, 3, 2, 1, 3, &m), 0);
    assert_int_not_equal(tcst_gen_stencil27(4, 3, 2, 0, 3, &m), 0);
    assert_int_not_equal(tcst_gen_stencil27(2000, 2000, 2000, 1, 3, &m), 0); /* > 2^31 rows */
    assert_null(m.row_ptr);
}

static void test_gen_banded(void** state) {
    (void)state;
    tcst_csr m;
    assert_int_equal(tcst_gen_banded(10, 2, 1, &m), 0);
    assert_generated(&m, 10, 10);
    assert_int_equal(m.nnz, 10 * 5 - 2 * 3);
    assert_int_equal(m.row_ptr[1], 3);
    assert_int_equal(m.col_idx[m.row_ptr[5]], 3);
    tcst_csr_free(&m);
    assert_int_equal(tcst_gen_banded(6, 100, 1, &m), 0);
    assert_int_equal(m.nnz, 36);
    tcst_csr_free(&m);
    assert_int_equal(tcst_gen_banded(0, 1, 1, &m), 0);
    assert_int_equal(m.nnz, 0);
    tcst_csr_free(&m);
    assert_int_not_equal(tcst_gen_banded(-1, 1, 1, &m), 0);
}

static void test_gen_uniform(void** state) {
    (void)state;
    tcst_csr m, other;
    assert_int_equal(tcst_gen_uniform(100, 50, 7, 4, &m), 0);
    assert_generated(&m, 100, 50);
    assert_int_equal(m.nnz, 700);
    for (int i = 0; i < 100; ++i) assert_int_equal(m.row_ptr[i + 1] - m.row_ptr[i], 7);
    assert_int_equal(tcst_gen_uniform(100, 50, 7, 5, &other), 0);
    assert_true(memcmp(m.col_idx, other.col_idx, 700 * sizeof(int)) != 0);
    tcst_csr_free(&m), tcst_csr_free(&other);
    /* Dense rows take the selection-sampling path. */
    assert_int_equal(tcst_gen_uniform(20, 50, 40, 4, &m), 0);
    assert_generated(&m, 20, 50);
    assert_int_equal(m.nnz, 800);
    tcst_csr_free(&m);
    assert_int_equal(tcst_gen_uniform(5, 9, 9, 4, &m), 0);
    for (int e = 0; e < 45; ++e) assert_int_equal(m.col_idx[e], e % 9);
    tcst_csr_free(&m);
    assert_int_not_equal(tcst_gen_uniform(5, 9, 10, 4, &m), 0);
}

static void test_gen_rmat(void** state) {
    (void)state;
    tcst_csr m, again;
    assert_int_equal(tcst_gen_rmat(10, 8, 0.57, 0.19, 0.19, 21, &m), 0);
    assert_generated(&m, 1024, 1024);
    assert_true(m.nnz > 4096 && m.nnz <= 8192);
    /* Power law: with a = 0.57 row 0 is far longer than the average of 8. */
    assert_true(m.row_ptr[1] - m.row_ptr[0] > 64);
    assert_int_equal(tcst_gen_rmat(10, 8, 0.57, 0.19, 0.19, 21, &again), 0);
    assert_csr_identical(&m, &again);
    tcst_csr_free(&m), tcst_csr_free(&again);
    /* a = b = c = 0.25: uniform, few duplicates. */
    assert_int_equal(tcst_gen_rmat(12, 4, 0.25, 0.25, 0.25, 21, &m), 0);
    assert_true(m.nnz > 16000 && m.nnz <= 16384);
    tcst_csr_free(&m);
    assert_int_not_equal(tcst_gen_rmat(10, 8, 0.6, 0.3, 0.3, 21, &m), 0);
    assert_int_not_equal(tcst_gen_rmat(0, 8, 0.57, 0.19, 0.19, 21, &m), 0);
}

static void test_gen_dense_blocks(void** state) {
    (void)state;
    tcst_csr m;
    assert_int_equal(tcst_gen_dense_blocks(50, 37, 8, 1.0, 2, &m), 0);
    assert_generated(&m, 50, 37);
    assert_int_equal(m.nnz, 50 * 37);
    tcst_csr_free(&m);
    assert_int_equal(tcst_gen_dense_blocks(50, 37, 8, 0.0, 2, &m), 0);
    assert_int_equal(m.nnz, 0);
    tcst_csr_free(&m);

    /* 200 x 200 blocks of 4: about 30% present; rows of a block row share a pattern
     * made of whole blocks. */
    assert_int_equal(tcst_gen_dense_blocks(800, 800, 4, 0.3, 2, &m), 0);
    assert_generated(&m, 800, 800);
    const double blocks = (double)m.nnz / 16.0;
    assert_true(fabs(blocks - 12000.0) < 5 * sqrt(40000 * 0.3 * 0.7));
    for (int i = 0; i < 800; ++i) {
        const int lead = i - i % 4, len = m.row_ptr[i + 1] - m.row_ptr[i];
        assert_int_equal(len, m.row_ptr[lead + 1] - m.row_ptr[lead]);
        assert_int_equal(len % 4, 0);
        for (int t = 0; t < len; ++t) {
            const int c = m.col_idx[m.row_ptr[i] + t];
            assert_int_equal(c, m.col_idx[m.row_ptr[lead] + t]);
            if (t % 4 == 0) assert_int_equal(c % 4, 0);
        }
    }
    tcst_csr_free(&m);
    assert_int_not_equal(tcst_gen_dense_blocks(50, 37, 0, 0.5, 2, &m), 0);
    assert_int_not_equal(tcst_gen_dense_blocks(50, 37, 8, 1.5, 2, &m), 0);
}

/* Sizes that would take hours with rows*cols work finish in about a second. */
static void test_gen_large(void** state) {
    (void)state;
    tcst_csr m;
    assert_int_equal(tcst_gen_stencil27(64, 64, 64, 1, 1, &m), 0);
    assert_int_equal(m.nnz, (int64_t)190 * 190 * 190);
    tcst_csr_free(&m);
    /* 125000^2 possible blocks, about 156000 present: O(present) work only. */
    assert_int_equal(tcst_gen_dense_blocks(1000000, 1000000, 8, 1e-5, 1, &m), 0);
    assert_true(m.nnz > 9000000 && m.nnz < 11000000);
    tcst_csr_free(&m);
    assert_int_equal(tcst_gen_uniform(1000000, 1000000000, 8, 1, &m), 0);
    assert_int_equal(m.nnz, 8000000);
    tcst_csr_free(&m);
    assert_int_equal(tcst_gen_rmat(18, 16, 0.57, 0.19, 0.19, 1, &m), 0);
    assert_true(m.nnz > 2000000);
    assert_valid_csr(&m, 1);
    tcst_csr_free(&m);
}

/* ---- device helpers ---- */

static void test_device_helpers_without_gpu(void** state) {
    (void)state;
    if (tcst_gpu_available()) skip();
    const int rp[] = {0, 1}, ci[] = {0};
    const double v[] = {1.0};
    tcst_csr m = make_csr(1, 1, rp, ci, v);
    int *d_rp = (int*)&m, *d_ci = (int*)&m; /* must be reset to NULL */
    void* d_val = &m;
    assert_int_not_equal(tcst_csr_upload(&m, 0, 1, &d_rp, &d_ci, &d_val), 0);
    assert_null(d_rp);
    assert_null(d_ci);
    assert_null(d_val);
    assert_null(tcst_device_poisoned(64));
    assert_true(tcst_device_used_bytes() == 0);
    double x = 0.0;
    assert_int_not_equal(tcst_device_download(&x, (void*)(uintptr_t)0x1000, sizeof x), 0);
    tcst_device_free(NULL);
    tcst_csr_free(&m);
}

static void test_device_helpers_with_gpu(void** state) {
    (void)state;
    if (!tcst_gpu_available()) skip();
    tcst_csr m;
    assert_int_equal(tcst_gen_uniform(30, 20, 5, 8, &m), 0);
    for (int base = 0; base <= 1; ++base)
        for (int is_double = 0; is_double <= 1; ++is_double) {
            int *d_rp, *d_ci;
            void* d_val;
            assert_int_equal(tcst_csr_upload(&m, base, is_double, &d_rp, &d_ci, &d_val), 0);
            int rp[31], ci[150];
            double vals[150];
            assert_int_equal(tcst_device_download(rp, d_rp, sizeof rp), 0);
            assert_int_equal(tcst_device_download(ci, d_ci, sizeof ci), 0);
            assert_int_equal(
                tcst_device_download(vals, d_val, 150 * (is_double ? sizeof(double) : sizeof(float))),
                0);
            char msg[512];
            if (tcst_compare_csr(&m, NULL, rp, ci, vals, is_double, base, 1e-7, msg, sizeof msg))
                fail_msg("base %d, double %d: %s", base, is_double, msg);
            tcst_device_free(d_rp);
            tcst_device_free(d_ci);
            tcst_device_free(d_val);
        }
    unsigned char* p = tcst_device_poisoned(1000);
    assert_non_null(p);
    unsigned char host[1000];
    assert_int_equal(tcst_device_download(host, p, sizeof host), 0);
    for (int i = 0; i < 1000; ++i) assert_int_equal(host[i], 0xFF);
    assert_true(tcst_device_used_bytes() >= 1000);
    tcst_device_free(p);
    assert_null(tcst_device_poisoned(0));
    tcst_csr_free(&m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rng_sequence),
        cmocka_unit_test(test_fresh_seed_honours_env),
        cmocka_unit_test(test_csr_check_finds_problems),
        cmocka_unit_test(test_shuffle_and_transpose),
        cmocka_unit_test(test_ref_spgemm_by_hand),
        cmocka_unit_test(test_ref_spgemm_matches_dense),
        cmocka_unit_test(test_ref_spmm_all_transposes),
        cmocka_unit_test(test_compare_dense),
        cmocka_unit_test(test_mm_general_duplicates_zeros),
        cmocka_unit_test(test_mm_symmetric_and_skew),
        cmocka_unit_test(test_mm_pattern_values),
        cmocka_unit_test(test_mm_rejections),
        cmocka_unit_test(test_mm_gzip),
        cmocka_unit_test(test_mm_collection),
        cmocka_unit_test(test_mm_folder),
        cmocka_unit_test(test_gen_stencil),
        cmocka_unit_test(test_gen_banded),
        cmocka_unit_test(test_gen_uniform),
        cmocka_unit_test(test_gen_rmat),
        cmocka_unit_test(test_gen_dense_blocks),
        cmocka_unit_test(test_gen_large),
        cmocka_unit_test(test_device_helpers_without_gpu),
        cmocka_unit_test(test_device_helpers_with_gpu),
    };
    return cmocka_run_group_tests(tests, make_tmp_dir, remove_tmp_dir);
}
