/* Matrix Market coordinate reader, and where the shared test matrices live. */
#define _POSIX_C_SOURCE 200809L

#include "internal.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifndef TCS_DEFAULT_MATRIX_DIR
#define TCS_DEFAULT_MATRIX_DIR "."
#endif

const char* tcst_matrix_dir(void) {
    const char* env = getenv("TCS_MATRIX_DIR");
    return env != NULL && *env != '\0' ? env : TCS_DEFAULT_MATRIX_DIR;
}

/* An open input: a plain file, or the output of `gzip -dc`. Decompressing through a
 * pipe keeps the support library free of a zlib dependency. */
typedef struct {
    FILE* f;
    int is_pipe;
} source;

static int ends_with(const char* s, const char* suffix) {
    const size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int open_source(const char* path, source* src, char* err, size_t errlen) {
    src->f = NULL;
    src->is_pipe = ends_with(path, ".gz");
    if (!src->is_pipe) {
        src->f = fopen(path, "r");
        if (src->f == NULL)
            return tcst_i_fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return 0;
    }
    /* Open it once ourselves: a missing file then gets errno's message, not gzip's. */
    FILE* probe = fopen(path, "rb");
    if (probe == NULL)
        return tcst_i_fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    fclose(probe);
    /* popen passes the command to sh: quote the path in single quotes, with each
     * embedded quote written as '\''. */
    size_t quotes = 0;
    for (const char* p = path; *p; ++p) quotes += *p == '\'';
    const size_t len = strlen("gzip -dc -- ''") + strlen(path) + 3 * quotes + 1;
    char* cmd = (char*)malloc(len);
    if (cmd == NULL) return tcst_i_fail(err, errlen, "%s: out of memory", path);
    char* w = cmd + sprintf(cmd, "gzip -dc -- '");
    for (const char* p = path; *p; ++p) {
        if (*p == '\'') {
            memcpy(w, "'\\''", 4);
            w += 4;
        } else {
            *w++ = *p;
        }
    }
    strcpy(w, "'");
    src->f = popen(cmd, "r");
    free(cmd);
    if (src->f == NULL)
        return tcst_i_fail(err, errlen, "%s: cannot start gzip: %s", path, strerror(errno));
    return 0;
}

/* Closes; for a pipe, reports whether gzip failed (missing or corrupt file). */
static int close_source(source* src) {
    if (src->f == NULL) return 0;
    const int status = src->is_pipe ? pclose(src->f) : fclose(src->f);
    src->f = NULL;
    return status;
}

/* Lower-cases word i (0-based) of the banner into out; returns 0 if present. */
static int banner_word(const char* line, int i, char* out, size_t outlen) {
    const char* p = line;
    for (int w = 0;; ++w) {
        while (*p && isspace((unsigned char)*p)) ++p;
        if (!*p) return -1;
        const char* start = p;
        while (*p && !isspace((unsigned char)*p)) ++p;
        if (w == i) {
            size_t n = (size_t)(p - start);
            if (n >= outlen) n = outlen - 1;
            for (size_t k = 0; k < n; ++k) out[k] = (char)tolower((unsigned char)start[k]);
            out[n] = '\0';
            return 0;
        }
    }
}

enum field { FIELD_REAL, FIELD_INTEGER, FIELD_PATTERN };
enum symmetry { SYM_GENERAL, SYM_SYMMETRIC, SYM_SKEW };

static int parse_banner(const char* path, const char* line, enum field* field,
                        enum symmetry* sym, char* err, size_t errlen) {
    char w[5][32];
    for (int i = 0; i < 5; ++i)
        if (banner_word(line, i, w[i], sizeof w[i]) != 0)
            return tcst_i_fail(err, errlen, "%s: not a Matrix Market file (banner '%.60s')", path,
                               line);
    if (strcmp(w[0], "%%matrixmarket") != 0 || strcmp(w[1], "matrix") != 0)
        return tcst_i_fail(err, errlen, "%s: not a Matrix Market matrix (banner '%.60s')", path,
                           line);
    if (strcmp(w[2], "coordinate") != 0)
        return tcst_i_fail(err, errlen, "%s: format '%s' is not supported: only sparse "
                           "'coordinate' files are read ('array' is dense storage)", path, w[2]);
    if (strcmp(w[3], "real") == 0 || strcmp(w[3], "double") == 0)
        *field = FIELD_REAL;
    else if (strcmp(w[3], "integer") == 0)
        *field = FIELD_INTEGER;
    else if (strcmp(w[3], "pattern") == 0)
        *field = FIELD_PATTERN;
    else if (strcmp(w[3], "complex") == 0)
        return tcst_i_fail(err, errlen, "%s: complex values are not supported (tcsparse has no "
                           "complex type)", path);
    else
        return tcst_i_fail(err, errlen, "%s: unknown field '%s'", path, w[3]);
    if (strcmp(w[4], "general") == 0)
        *sym = SYM_GENERAL;
    else if (strcmp(w[4], "symmetric") == 0)
        *sym = SYM_SYMMETRIC;
    else if (strcmp(w[4], "skew-symmetric") == 0)
        *sym = SYM_SKEW;
    else if (strcmp(w[4], "hermitian") == 0)
        return tcst_i_fail(err, errlen, "%s: hermitian matrices are not supported (they are "
                           "complex)", path);
    else
        return tcst_i_fail(err, errlen, "%s: unknown symmetry '%s'", path, w[4]);
    return 0;
}

static int is_blank(const char* s) {
    while (*s && isspace((unsigned char)*s)) ++s;
    return *s == '\0';
}

/* The entries, before they become CSR. */
typedef struct {
    int64_t n, cap;
    int* row;
    int* col;
    double* val;
} triplets;

static void push(triplets* t, int i, int j, double v) {
    t->row[t->n] = i;
    t->col[t->n] = j;
    t->val[t->n] = v;
    ++t->n;
}

/* Counting sort of the triplets by row into out, then sorted rows with duplicates
 * summed. Frees t's arrays as soon as they are no longer needed. The row offsets are
 * the only array of the matrix's height: they serve as the cursors too, each row's
 * start moving to its end as it fills, then everything moves back one row. */
static int assemble(triplets* t, int64_t rows, int64_t cols, tcst_csr* out) {
    int rc = tcst_csr_alloc(out, rows, cols, t->n);
    if (rc == 0) {
        int* rp = out->row_ptr;
        for (int64_t e = 0; e < t->n; ++e) rp[t->row[e] + 1]++;
        for (int64_t i = 0; i < rows; ++i) rp[i + 1] += rp[i];
        for (int64_t e = 0; e < t->n; ++e) {
            const int at = rp[t->row[e]]++;
            out->col_idx[at] = t->col[e];
            out->val[at] = t->val[e];
        }
        memmove(rp + 1, rp, (size_t)rows * sizeof(int));
        rp[0] = 0;
    }
    free(t->row);
    free(t->col);
    free(t->val);
    t->row = t->col = NULL;
    t->val = NULL;
    if (rc == 0) rc = tcst_i_sort_merge_rows(out, 1);
    if (rc != 0) tcst_csr_free(out);
    return rc;
}

/* Room for `more` entries, growing geometrically up to `limit`. Returns 0 on success. */
static int reserve(triplets* t, int more, int64_t limit) {
    if (t->n + more <= t->cap) return 0;
    int64_t cap = t->cap < 1024 ? 1024 : 2 * t->cap;
    if (cap > limit) cap = limit;
    if (cap < t->n + more) return -1; /* more entries than the size line announced */
    int* row = (int*)realloc(t->row, (size_t)cap * sizeof(int));
    if (row != NULL) t->row = row;
    int* col = (int*)realloc(t->col, (size_t)cap * sizeof(int));
    if (col != NULL) t->col = col;
    double* val = (double*)realloc(t->val, (size_t)cap * sizeof(double));
    if (val != NULL) t->val = val;
    if (row == NULL || col == NULL || val == NULL) return -1;
    t->cap = cap;
    return 0;
}

/* Reads "rows cols entries" as three non-negative integers that fit in int64, with
 * nothing but blanks after them. Returns 0 on success. */
static int parse_sizes(const char* line, long long* rows, long long* cols, long long* entries) {
    long long* out[3] = {rows, cols, entries};
    const char* p = line;
    for (int k = 0; k < 3; ++k) {
        char* end;
        errno = 0;
        const long long v = strtoll(p, &end, 10);
        if (end == p || errno != 0 || v < 0) return -1;
        *out[k] = v;
        p = end;
    }
    return is_blank(p) ? 0 : -1;
}

/* Reads "i j [value]" from an entry line; returns the number of fields read. */
static int parse_entry(const char* line, long long* i, long long* j, double* v) {
    char* end;
    errno = 0;
    *i = strtoll(line, &end, 10);
    if (end == line || errno) return 0;
    const char* p = end;
    *j = strtoll(p, &end, 10);
    if (end == p || errno) return 1;
    p = end;
    *v = strtod(p, &end);
    if (end == p) return 2;
    return 3;
}

static int read_stream(const char* path, FILE* f, uint64_t pattern_seed, tcst_csr* out, char* err,
                       size_t errlen) {
    char* line = NULL;
    size_t cap = 0;
    triplets t = {0, 0, NULL, NULL, NULL};
    int rc = -1;
    enum field field = FIELD_REAL;
    enum symmetry sym = SYM_GENERAL;

    if (getline(&line, &cap, f) < 0) {
        tcst_i_fail(err, errlen, "%s: empty file, or gzip could not read it", path);
        goto done;
    }
    if (parse_banner(path, line, &field, &sym, err, errlen) != 0) goto done;

    long long rows = -1, cols = -1, entries = -1;
    for (;;) {
        if (getline(&line, &cap, f) < 0) {
            tcst_i_fail(err, errlen, "%s: no size line", path);
            goto done;
        }
        if (line[0] == '%' || is_blank(line)) continue;
        if (parse_sizes(line, &rows, &cols, &entries) != 0) {
            tcst_i_fail(err, errlen, "%s: bad size line '%.60s'", path, line);
            goto done;
        }
        break;
    }
    if (rows >= TCST_MAX_NNZ || cols > TCST_MAX_NNZ) {
        tcst_i_fail(err, errlen, "%s: %lld x %lld exceeds 32-bit indices", path, rows, cols);
        goto done;
    }
    /* The row offsets are the one array a header sizes by itself (every other grows with
     * the entries read): a short file must not make the reader allocate gigabytes. */
    if (rows > TCST_MM_MAX_ROWS) {
        tcst_i_fail(err, errlen, "%s: %lld rows exceed the reader's cap of %lld (TCST_MM_MAX_ROWS)",
                    path, rows, (long long)TCST_MM_MAX_ROWS);
        goto done;
    }
    if (sym != SYM_GENERAL && rows != cols) {
        tcst_i_fail(err, errlen, "%s: a symmetric matrix must be square, not %lld x %lld", path,
                    rows, cols);
        goto done;
    }
    if (entries > TCST_MAX_NNZ || (sym != SYM_GENERAL && 2 * entries > TCST_MAX_NNZ)) {
        tcst_i_fail(err, errlen, "%s: %lld entries exceed 32-bit indices", path, entries);
        goto done;
    }
    /* The size line is a claim: room grows with the entries actually read, so a short
     * file that announces billions of entries allocates little. */
    const int64_t limit = sym == SYM_GENERAL ? entries : 2 * entries;
    tcst_rng rng;
    tcst_rng_seed(&rng, pattern_seed);
    const int want = field == FIELD_PATTERN ? 2 : 3;
    for (long long k = 0; k < entries;) {
        if (getline(&line, &cap, f) < 0) {
            tcst_i_fail(err, errlen, "%s: the file ends after %lld of %lld entries", path, k,
                        entries);
            goto done;
        }
        if (line[0] == '%' || is_blank(line)) continue;
        long long i, j;
        double v = 0.0;
        if (parse_entry(line, &i, &j, &v) < want) {
            tcst_i_fail(err, errlen, "%s: entry %lld: cannot read '%.60s'", path, k + 1, line);
            goto done;
        }
        if (i < 1 || i > rows || j < 1 || j > cols) {
            tcst_i_fail(err, errlen, "%s: entry %lld: (%lld, %lld) outside 1..%lld x 1..%lld",
                        path, k + 1, i, j, rows, cols);
            goto done;
        }
        if (field == FIELD_PATTERN) v = pattern_seed != 0 ? tcst_rng_symmetric(&rng) : 1.0;
        if (reserve(&t, sym == SYM_GENERAL ? 1 : 2, limit) != 0) {
            tcst_i_fail(err, errlen, "%s: out of memory at entry %lld", path, k + 1);
            goto done;
        }
        push(&t, (int)(i - 1), (int)(j - 1), v);
        if (sym != SYM_GENERAL && i != j)
            push(&t, (int)(j - 1), (int)(i - 1), sym == SYM_SKEW ? -v : v);
        ++k;
    }
    rc = assemble(&t, rows, cols, out);
    if (rc != 0) tcst_i_fail(err, errlen, "%s: out of memory while sorting", path);
done:
    free(line);
    free(t.row);
    free(t.col);
    free(t.val);
    return rc;
}

int tcst_mm_read(const char* path, uint64_t pattern_seed, tcst_csr* out, char* err, size_t errlen) {
    if (out == NULL) return tcst_i_fail(err, errlen, "no output matrix");
    memset(out, 0, sizeof *out);
    if (path == NULL) return tcst_i_fail(err, errlen, "no path");
    source src;
    if (open_source(path, &src, err, errlen) != 0) return -1;
    int rc = read_stream(path, src.f, pattern_seed, out, err, errlen);
    if (rc != 0) {
        /* Drain a pipe before closing it so gzip is not killed by SIGPIPE mid-write. */
        if (src.is_pipe) {
            char buf[4096];
            while (fread(buf, 1, sizeof buf, src.f) > 0) {
            }
        }
        close_source(&src);
        return rc;
    }
    if (close_source(&src) != 0) {
        tcst_csr_free(out);
        return tcst_i_fail(err, errlen, "%s: gzip reported an error (truncated or corrupt file)",
                           path);
    }
    return 0;
}

int tcst_mm_folder_open(tcst_mm_folder* f, const char* folder) {
    memset(f, 0, sizeof *f);
    snprintf(f->folder, sizeof f->folder, "%s", folder != NULL ? folder : tcst_matrix_dir());
    f->dir = opendir(f->folder);
    return f->dir != NULL ? 0 : -1;
}

int tcst_mm_folder_next(tcst_mm_folder* f, uint64_t seed, tcst_csr* out, char* err, size_t errlen) {
    if (f->dir == NULL) return 0;
    struct dirent* e;
    while ((e = readdir((DIR*)f->dir)) != NULL) {
        if (!ends_with(e->d_name, ".mtx") && !ends_with(e->d_name, ".mtx.gz")) continue;
        ++f->index;
        snprintf(f->name, sizeof f->name, "%s", e->d_name);
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", f->folder, e->d_name);
        if (tcst_mm_read(path, seed + (uint64_t)f->index, out, err, errlen) == 0) return 1;
        if (strstr(err, "complex") == NULL) return -1;
    }
    return 0;
}

void tcst_mm_folder_close(tcst_mm_folder* f) {
    if (f->dir != NULL) closedir((DIR*)f->dir);
    f->dir = NULL;
}
