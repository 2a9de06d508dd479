/* Malformed Matrix Market files for the reader that ships with the tests and benchmarks
 * (tests/support/matrix_market.c; the Python module reads no files): every file either
 * reads into a valid CSR matrix or fails with a message, never a crash, a hang or a huge
 * allocation. Cases written by hand (truncated, wrong banner, unsupported formats,
 * out-of-range and malformed entries, sizes beyond 32 bits, claims of billions of
 * entries in a short file, a truncated .gz), then 1000 random mutations of a valid file
 * (bytes flipped, lines dropped or duplicated, cut at random points). Host only. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tcs_test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static char dir[64];
static char path[128];

static void write_file(const char* name, const char* text, size_t len) {
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE* f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    fclose(f);
}

/* Reads `path`; a success must be a valid matrix, a failure must say why. */
static int read_checked(int* failed) {
    tcst_csr m;
    char err[512] = "";
    const int rc = tcst_mm_read(path, 7, &m, err, sizeof err);
    if (rc == 0) {
        char msg[256];
        if (tcst_csr_check(&m, 1, msg, sizeof msg) != 0) fail_msg("%s read as an invalid CSR: %s", path, msg);
        tcst_csr_free(&m);
        *failed = 0;
    } else {
        if (err[0] == '\0') fail_msg("%s: the reader failed without a message", path);
        *failed = 1;
    }
    return rc;
}

static const char* valid =
    "%%MatrixMarket matrix coordinate real general\n"
    "% a comment\n"
    "5 4 7\n"
    "1 1 0.5\n2 3 -1.25\n3 2 2\n4 4 1e-3\n5 1 -7\n1 4 3.5\n5 4 0.25\n";

static void test_hand_written(void** state) {
    (void)state;
    struct {
        const char* name;
        const char* text;
        int ok; /* 1: must read */
    } cases[] = {
        {"valid.mtx", NULL, 1},
        {"empty.mtx", "", 0},
        {"banner_only.mtx", "%%MatrixMarket matrix coordinate real general\n", 0},
        {"no_banner.mtx", "5 4 1\n1 1 1.0\n", 0},
        {"vector.mtx", "%%MatrixMarket vector coordinate real general\n2 2 1\n1 1 1\n", 0},
        {"array.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", 0},
        {"complex.mtx", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", 0},
        {"hermitian.mtx", "%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n", 0},
        {"unknown_field.mtx", "%%MatrixMarket matrix coordinate quaternion general\n1 1 0\n", 0},
        {"short_banner.mtx", "%%MatrixMarket matrix\n1 1 0\n", 0},
        {"truncated_entries.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 4\n1 1 1\n2 2 2\n", 0},
        {"row_zero.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 1\n0 1 1\n", 0},
        {"row_past_end.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 1\n4 1 1\n", 0},
        {"negative_col.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 -2 1\n", 0},
        {"missing_value.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2\n", 0},
        {"text_entry.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 1\none two 3\n", 0},
        {"negative_size.mtx", "%%MatrixMarket matrix coordinate real general\n-3 3 1\n1 1 1\n", 0},
        {"size_junk.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 1 x\n1 1 1\n", 0},
        {"size_overflow.mtx", "%%MatrixMarket matrix coordinate real general\n99999999999999999999999 3 1\n1 1 1\n", 0},
        {"rows_beyond_32bit.mtx", "%%MatrixMarket matrix coordinate real general\n4000000000 3 1\n1 1 1\n", 0},
        /* 512 MB of offsets and 1 entry: refused, whatever memory there is. */
        {"rows_beyond_cap.mtx", "%%MatrixMarket matrix coordinate real general\n134217729 3 1\n1 1 1\n", 0},
        {"rows_at_cap.mtx", "%%MatrixMarket matrix coordinate real general\n134217728 3 1\n134217728 3 1\n", 1},
        {"billions_claimed.mtx", "%%MatrixMarket matrix coordinate real general\n100000 100000 2000000000\n1 1 1\n", 0},
        {"entries_beyond_32bit.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n100000 100000 1500000000\n1 1\n", 0},
        {"symmetric_rect.mtx", "%%MatrixMarket matrix coordinate real symmetric\n3 4 1\n1 1 1\n", 0},
        {"pattern.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 3\n", 1},
        {"integer_skew.mtx", "%%MatrixMarket matrix coordinate integer skew-symmetric\n3 3 1\n2 1 4\n", 1},
        {"nan_inf.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 nan\n2 2 -inf\n", 1},
        {"duplicates.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1\n1 1 2\n2 1 3\n", 1},
        {"empty_matrix.mtx", "%%MatrixMarket matrix coordinate real general\n0 0 0\n", 1},
        {"binary.mtx", "\x7f" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0", 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        const char* text = cases[c].text ? cases[c].text : valid;
        const size_t len = strcmp(cases[c].name, "binary.mtx") == 0 ? 20 : strlen(text);
        write_file(cases[c].name, text, len);
        int failed = 0;
        read_checked(&failed);
        if (failed == cases[c].ok) fail_msg("%s: expected %s", cases[c].name, cases[c].ok ? "a matrix" : "an error");
    }
    /* A gzip file cut in half: gzip's error must come back as the reader's. */
    write_file("cut.mtx", valid, strlen(valid));
    char cmd[512];
    snprintf(cmd, sizeof cmd, "gzip -c '%s' > '%s.gz' && truncate -s 20 '%s.gz'", path, path, path);
    if (system(cmd) == 0) {
        strcat(path, ".gz");
        int failed = 0;
        read_checked(&failed);
        assert_int_equal(failed, 1);
    }
}

/* The issue 38 file: 70 bytes declaring 2147483646 x 2147483646 with no entries. It is
 * refused for its height before anything of that size is allocated (not for lack of
 * memory under this test's 4 GB address space), and the rows that fit the cap are read
 * with offsets only. */
static void test_header_cannot_allocate(void** state) {
    (void)state;
    const char* text = "%%MatrixMarket matrix coordinate real general\n2147483646 2147483646 0\n";
    write_file("tall_empty.mtx", text, strlen(text));
    tcst_csr m;
    char err[512] = "";
    assert_int_not_equal(tcst_mm_read(path, 7, &m, err, sizeof err), 0);
    if (strstr(err, "TCST_MM_MAX_ROWS") == NULL) fail_msg("refused for another reason: %s", err);
    const char* fits = "%%MatrixMarket matrix coordinate real general\n1000000 1000000 0\n";
    write_file("tall_fits.mtx", fits, strlen(fits));
    assert_int_equal(tcst_mm_read(path, 7, &m, err, sizeof err), 0);
    assert_int_equal(m.rows, 1000000);
    assert_int_equal(m.nnz, 0);
    assert_int_equal(m.row_ptr[m.rows], 0);
    tcst_csr_free(&m);
}

/* 1000 mutations of the valid file; the reader never crashes and never gives an invalid
 * matrix. */
static void test_mutations(void** state) {
    (void)state;
    const uint64_t seed = tcst_fresh_seed();
    print_message("seed %llu (TCST_SEED=%llu reproduces)\n", (unsigned long long)seed,
                  (unsigned long long)seed);
    tcst_rng rng;
    tcst_rng_seed(&rng, seed);
    const size_t n = strlen(valid);
    char buf[1024] = {0};
    int read = 0, refused = 0;
    for (int t = 0; t < 1000; ++t) {
        memcpy(buf, valid, n);
        size_t len = n;
        const int edits = 1 + (int)tcst_rng_below(&rng, 4);
        for (int e = 0; e < edits && len > 0; ++e) {
            const size_t at = (size_t)tcst_rng_below(&rng, len);
            switch (tcst_rng_below(&rng, 5)) {
            case 0: buf[at] = (char)tcst_rng_below(&rng, 256); break;       /* any byte */
            case 1: buf[at] = "0123456789 -.e\n%"[tcst_rng_below(&rng, 16)]; break;
            case 2: len = at; break;                                           /* cut */
            case 3:                                                            /* drop a byte */
                memmove(buf + at, buf + at + 1, len - at - 1);
                --len;
                break;
            default:                                                           /* repeat a span */
                if (len + 16 < sizeof buf && at + 16 <= len) {
                    memmove(buf + at + 16, buf + at, len - at);
                    len += 16;
                }
                break;
            }
        }
        write_file("mutant.mtx", buf, len);
        int failed = 0;
        read_checked(&failed);
        failed ? ++refused : ++read;
    }
    print_message("1000 mutants: %d read as valid matrices, %d refused with a message\n", read, refused);
    assert_true(refused > 0);
}

static int setup(void** state) {
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/tcs_mm_fuzz_XXXXXX");
    if (mkdtemp(dir) == NULL) return -1;
    /* A claim of billions of entries must not reserve them: cap the address space. */
    struct rlimit r = {(rlim_t)4 << 30, (rlim_t)4 << 30};
    setrlimit(RLIMIT_AS, &r);
    return 0;
}

static int teardown(void** state) {
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_written),
        cmocka_unit_test(test_header_cannot_allocate),
        cmocka_unit_test(test_mutations),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
