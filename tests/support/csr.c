/* Host CSR matrices: allocation, copies, validity checks, and the transformations
 * that make edge cases (shuffled columns, transposes). */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tcst_i_fail(char* msg, size_t msglen, const char* fmt, ...) {
    if (msg != NULL && msglen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, msglen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

void tcst_csr_free(tcst_csr* m) {
    if (m == NULL) return;
    free(m->row_ptr);
    free(m->col_idx);
    free(m->val);
    memset(m, 0, sizeof *m);
}

int tcst_csr_alloc(tcst_csr* m, int64_t rows, int64_t cols, int64_t nnz) {
    if (m == NULL) return -1;
    memset(m, 0, sizeof *m);
    if (rows < 0 || cols < 0 || nnz < 0 || rows >= TCST_MAX_NNZ || cols > TCST_MAX_NNZ ||
        nnz > TCST_MAX_NNZ)
        return -1;
    m->row_ptr = (int*)calloc((size_t)rows + 1, sizeof(int));
    if (nnz > 0) {
        m->col_idx = (int*)malloc((size_t)nnz * sizeof(int));
        m->val = (double*)malloc((size_t)nnz * sizeof(double));
    }
    if (m->row_ptr == NULL || (nnz > 0 && (m->col_idx == NULL || m->val == NULL))) {
        tcst_csr_free(m);
        return -1;
    }
    m->rows = rows;
    m->cols = cols;
    m->nnz = nnz;
    return 0;
}

int tcst_csr_copy(const tcst_csr* src, tcst_csr* dst) {
    if (src == NULL || dst == NULL || tcst_csr_alloc(dst, src->rows, src->cols, src->nnz) != 0)
        return -1;
    memcpy(dst->row_ptr, src->row_ptr, ((size_t)src->rows + 1) * sizeof(int));
    if (src->nnz > 0) {
        memcpy(dst->col_idx, src->col_idx, (size_t)src->nnz * sizeof(int));
        memcpy(dst->val, src->val, (size_t)src->nnz * sizeof(double));
    }
    return 0;
}

int tcst_csr_check(const tcst_csr* m, int strictly_sorted, char* msg, size_t msglen) {
    if (m == NULL || m->row_ptr == NULL) return tcst_i_fail(msg, msglen, "no matrix");
    if (m->rows < 0 || m->cols < 0 || m->nnz < 0 || m->nnz > TCST_MAX_NNZ)
        return tcst_i_fail(msg, msglen, "bad sizes %lld x %lld, nnz %lld", (long long)m->rows,
                           (long long)m->cols, (long long)m->nnz);
    if (m->nnz > 0 && (m->col_idx == NULL || m->val == NULL))
        return tcst_i_fail(msg, msglen, "nnz %lld but no column or value array", (long long)m->nnz);
    if (m->row_ptr[0] != 0)
        return tcst_i_fail(msg, msglen, "row_ptr[0] = %d, expected 0", m->row_ptr[0]);
    for (int64_t i = 0; i < m->rows; ++i) {
        const int lo = m->row_ptr[i], hi = m->row_ptr[i + 1];
        if (hi < lo || hi > m->nnz)
            return tcst_i_fail(msg, msglen, "row %lld: row_ptr %d..%d is not within 0..%lld",
                               (long long)i, lo, hi, (long long)m->nnz);
        for (int e = lo; e < hi; ++e) {
            const int c = m->col_idx[e];
            if (c < 0 || c >= m->cols)
                return tcst_i_fail(msg, msglen, "row %lld entry %d: column %d outside [0, %lld)",
                                   (long long)i, e, c, (long long)m->cols);
            if (strictly_sorted && e > lo && c <= m->col_idx[e - 1])
                return tcst_i_fail(msg, msglen,
                                   "row %lld entry %d: column %d after %d (not strictly increasing)",
                                   (long long)i, e, c, m->col_idx[e - 1]);
        }
    }
    if (m->row_ptr[m->rows] != m->nnz)
        return tcst_i_fail(msg, msglen, "row_ptr[rows] = %d, nnz = %lld", m->row_ptr[m->rows],
                           (long long)m->nnz);
    return 0;
}

void tcst_csr_shuffle_columns(tcst_csr* m, uint64_t seed) {
    tcst_rng r;
    tcst_rng_seed(&r, seed);
    for (int64_t i = 0; i < m->rows; ++i) {
        const int lo = m->row_ptr[i];
        /* Fisher-Yates within the row. */
        for (int n = m->row_ptr[i + 1] - lo; n > 1; --n) {
            const int k = lo + (int)tcst_rng_below(&r, (uint64_t)n);
            const int last = lo + n - 1;
            const int c = m->col_idx[k];
            const double v = m->val[k];
            m->col_idx[k] = m->col_idx[last];
            m->val[k] = m->val[last];
            m->col_idx[last] = c;
            m->val[last] = v;
        }
    }
}

int tcst_csr_without_rows(const tcst_csr* m, int every, tcst_csr* out) {
    if (m == NULL || out == NULL || every < 1 || tcst_csr_alloc(out, m->rows, m->cols, m->nnz) != 0)
        return -1;
    int64_t pos = 0;
    for (int64_t i = 0; i < m->rows; ++i) {
        out->row_ptr[i] = (int)pos;
        if (i % every == 0) continue;
        for (int e = m->row_ptr[i]; e < m->row_ptr[i + 1]; ++e, ++pos) {
            out->col_idx[pos] = m->col_idx[e];
            out->val[pos] = m->val[e];
        }
    }
    out->row_ptr[m->rows] = (int)pos;
    out->nnz = pos;
    return 0;
}

int tcst_csr_transpose(const tcst_csr* a, tcst_csr* out) {
    if (a == NULL || out == NULL || tcst_csr_alloc(out, a->cols, a->rows, a->nnz) != 0) return -1;
    for (int64_t e = 0; e < a->nnz; ++e) {
        const int c = a->col_idx[e];
        if (c < 0 || c >= a->cols) {
            tcst_csr_free(out);
            return -1;
        }
        out->row_ptr[c + 1]++;
    }
    for (int64_t j = 0; j < a->cols; ++j) out->row_ptr[j + 1] += out->row_ptr[j];
    /* Counting sort by column: rows of A are visited in order, so every row of the
     * transpose comes out sorted whatever the column order inside A's rows. */
    int* next = (int*)malloc(((size_t)a->cols + 1) * sizeof(int));
    if (next == NULL) {
        tcst_csr_free(out);
        return -1;
    }
    memcpy(next, out->row_ptr, ((size_t)a->cols + 1) * sizeof(int));
    for (int64_t i = 0; i < a->rows; ++i) {
        for (int e = a->row_ptr[i]; e < a->row_ptr[i + 1]; ++e) {
            const int at = next[a->col_idx[e]]++;
            out->col_idx[at] = (int)i;
            out->val[at] = a->val[e];
        }
    }
    free(next);
    return 0;
}

/* Stable merge sort of n (column, value) pairs by column; vals may be NULL. The
 * scratch arrays hold n entries. Short runs use insertion sort. */
static void sort_pairs(int* cols, double* vals, int n, int* tc, double* tv) {
    if (n <= 24) {
        for (int i = 1; i < n; ++i) {
            const int c = cols[i];
            const double v = vals ? vals[i] : 0.0;
            int j = i - 1;
            while (j >= 0 && cols[j] > c) {
                cols[j + 1] = cols[j];
                if (vals) vals[j + 1] = vals[j];
                --j;
            }
            cols[j + 1] = c;
            if (vals) vals[j + 1] = v;
        }
        return;
    }
    const int h = n / 2;
    sort_pairs(cols, vals, h, tc, tv);
    sort_pairs(cols + h, vals ? vals + h : NULL, n - h, tc, tv);
    if (cols[h - 1] <= cols[h]) return; /* already in order */
    memcpy(tc, cols, (size_t)n * sizeof(int));
    if (vals) memcpy(tv, vals, (size_t)n * sizeof(double));
    int i = 0, j = h, k = 0;
    while (i < h && j < n) {
        const int from = tc[j] < tc[i] ? j++ : i++;
        cols[k] = tc[from];
        if (vals) vals[k] = tv[from];
        ++k;
    }
    for (; i < h; ++i, ++k) {
        cols[k] = tc[i];
        if (vals) vals[k] = tv[i];
    }
    for (; j < n; ++j, ++k) {
        cols[k] = tc[j];
        if (vals) vals[k] = tv[j];
    }
}

int tcst_i_sort_merge_rows(tcst_csr* m, int sum_duplicates) {
    int longest = 0;
    for (int64_t i = 0; i < m->rows; ++i) {
        const int len = m->row_ptr[i + 1] - m->row_ptr[i];
        if (len > longest) longest = len;
    }
    int* tc = (int*)malloc((size_t)(longest > 0 ? longest : 1) * sizeof(int));
    double* tv = (double*)malloc((size_t)(longest > 0 ? longest : 1) * sizeof(double));
    if (tc == NULL || tv == NULL) {
        free(tc);
        free(tv);
        return -1;
    }
    int w = 0; /* next free slot: never passes the read position, so compaction is in place */
    int lo = m->row_ptr[0];
    for (int64_t i = 0; i < m->rows; ++i) {
        const int hi = m->row_ptr[i + 1];
        sort_pairs(m->col_idx + lo, m->val ? m->val + lo : NULL, hi - lo, tc, tv);
        const int row_start = w;
        for (int e = lo; e < hi; ++e) {
            if (w > row_start && m->col_idx[w - 1] == m->col_idx[e]) {
                if (sum_duplicates && m->val) m->val[w - 1] += m->val[e];
                continue;
            }
            m->col_idx[w] = m->col_idx[e];
            if (m->val) m->val[w] = m->val[e];
            ++w;
        }
        m->row_ptr[i] = row_start;
        lo = hi;
    }
    m->row_ptr[m->rows] = w;
    free(tc);
    free(tv);
    if (w < m->nnz && w > 0) {
        /* Shrinking cannot lose data; when realloc refuses, the larger block stays. */
        int* c = (int*)realloc(m->col_idx, (size_t)w * sizeof(int));
        if (c) m->col_idx = c;
        if (m->val) {
            double* v = (double*)realloc(m->val, (size_t)w * sizeof(double));
            if (v) m->val = v;
        }
    }
    m->nnz = w;
    return 0;
}
