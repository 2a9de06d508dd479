/* The CPU reference products in double precision: the oracle of every GPU test and
 * benchmark check. Written for clarity first; the SpGEMM is O(products) with a dense
 * accumulator and a marker per column, plus a sort of each output row. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int64_t tcst_ref_num_products(const tcst_csr* a, const tcst_csr* b) {
    int64_t total = 0;
    for (int64_t e = 0; e < a->nnz; ++e) {
        const int k = a->col_idx[e];
        total += b->row_ptr[k + 1] - b->row_ptr[k];
    }
    return total;
}

static int compare_int(const void* x, const void* y) {
    const int a = *(const int*)x, b = *(const int*)y;
    return (a > b) - (a < b);
}

int tcst_ref_spgemm(const tcst_csr* a, const tcst_csr* b, tcst_csr* c) {
    if (c == NULL) return -1;
    memset(c, 0, sizeof *c);
    if (a == NULL || b == NULL || a->cols != b->rows) return -1;
    const size_t n = (size_t)(b->cols > 0 ? b->cols : 1);
    int* marker = (int*)malloc(n * sizeof(int));
    double* acc = (double*)malloc(n * sizeof(double));
    if (marker == NULL || acc == NULL) goto fail;

    /* Symbolic pass: nnz(C), counting every column reached, whatever the values. */
    for (size_t j = 0; j < n; ++j) marker[j] = -1;
    int64_t nnz = 0;
    for (int64_t i = 0; i < a->rows; ++i) {
        for (int e = a->row_ptr[i]; e < a->row_ptr[i + 1]; ++e) {
            const int k = a->col_idx[e];
            for (int f = b->row_ptr[k]; f < b->row_ptr[k + 1]; ++f) {
                const int j = b->col_idx[f];
                if (marker[j] != (int)i) {
                    marker[j] = (int)i;
                    ++nnz;
                }
            }
        }
        if (nnz > TCST_MAX_NNZ) goto fail;
    }
    if (tcst_csr_alloc(c, a->rows, b->cols, nnz) != 0) goto fail;

    /* Numeric pass: each entry summed in the order of A's row, then B's row. */
    for (size_t j = 0; j < n; ++j) marker[j] = -1;
    int pos = 0;
    for (int64_t i = 0; i < a->rows; ++i) {
        const int start = pos;
        c->row_ptr[i] = start;
        for (int e = a->row_ptr[i]; e < a->row_ptr[i + 1]; ++e) {
            const int k = a->col_idx[e];
            const double av = a->val[e];
            for (int f = b->row_ptr[k]; f < b->row_ptr[k + 1]; ++f) {
                const int j = b->col_idx[f];
                if (marker[j] != (int)i) {
                    marker[j] = (int)i;
                    acc[j] = 0.0;
                    c->col_idx[pos++] = j;
                }
                acc[j] += av * b->val[f];
            }
        }
        qsort(c->col_idx + start, (size_t)(pos - start), sizeof(int), compare_int);
        for (int t = start; t < pos; ++t) c->val[t] = acc[c->col_idx[t]];
    }
    c->row_ptr[a->rows] = pos;
    free(marker);
    free(acc);
    return 0;
fail:
    free(marker);
    free(acc);
    tcst_csr_free(c);
    return -1;
}

double* tcst_ref_spgemm_magnitude(const tcst_csr* a, const tcst_csr* b, const tcst_csr* ref) {
    return tcst_ref_spgemm_magnitude_floored(a, b, ref, 0.0);
}

double* tcst_ref_spgemm_magnitude_floored(const tcst_csr* a, const tcst_csr* b, const tcst_csr* ref,
                                          double input_floor) {
    if (a == NULL || b == NULL || ref == NULL || a->cols != b->rows || ref->rows != a->rows ||
        ref->cols != b->cols)
        return NULL;
    double* mag = (double*)malloc((size_t)(ref->nnz > 0 ? ref->nnz : 1) * sizeof(double));
    double* acc = (double*)calloc((size_t)(b->cols > 0 ? b->cols : 1), sizeof(double));
    if (mag == NULL || acc == NULL) {
        free(mag);
        free(acc);
        return NULL;
    }
    for (int64_t i = 0; i < a->rows; ++i) {
        for (int e = a->row_ptr[i]; e < a->row_ptr[i + 1]; ++e) {
            const int k = a->col_idx[e];
            for (int f = b->row_ptr[k]; f < b->row_ptr[k + 1]; ++f)
                acc[b->col_idx[f]] += fmax(fabs(a->val[e]), input_floor) *
                                      fmax(fabs(b->val[f]), input_floor);
        }
        for (int t = ref->row_ptr[i]; t < ref->row_ptr[i + 1]; ++t) mag[t] = acc[ref->col_idx[t]];
        /* Clear exactly the columns this row touched: O(products), not O(cols). */
        for (int e = a->row_ptr[i]; e < a->row_ptr[i + 1]; ++e) {
            const int k = a->col_idx[e];
            for (int f = b->row_ptr[k]; f < b->row_ptr[k + 1]; ++f) acc[b->col_idx[f]] = 0.0;
        }
    }
    free(acc);
    return mag;
}

void tcst_ref_spmm(int trans_a, int trans_b, double alpha, const tcst_csr* a, const double* b,
                   int64_t ldb, int64_t n, double beta, double* c, int64_t ldc) {
    const int64_t m = trans_a ? a->cols : a->rows;
    for (int64_t j = 0; j < n; ++j) {
        double* cj = c + j * ldc;
        /* beta == 0 never reads C, as in the library: C may hold NaN. */
        for (int64_t i = 0; i < m; ++i) cj[i] = beta == 0.0 ? 0.0 : beta * cj[i];
        for (int64_t r = 0; r < a->rows; ++r) {
            for (int e = a->row_ptr[r]; e < a->row_ptr[r + 1]; ++e) {
                /* A(r, p) is op(A)(r, p), or op(A)(p, r) when transposed. */
                const int64_t p = a->col_idx[e];
                const int64_t i = trans_a ? p : r, k = trans_a ? r : p;
                const double bkj = trans_b ? b[j + k * ldb] : b[k + j * ldb];
                cj[i] += alpha * a->val[e] * bkj;
            }
        }
    }
}
