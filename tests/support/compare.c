/* Comparison of GPU results with the reference, with error bounds scaled by the
 * magnitude of the products that form each entry (so cancellation is not punished)
 * and messages that name the first mismatch. */
#include "internal.h"

#include <float.h>
#include <math.h>

int tcst_compare_csr(const tcst_csr* ref, const double* mag, const int* row_ptr,
                     const int* col_idx, const void* values, int is_double, int base,
                     double rtol, char* msg, size_t msglen) {
    if (ref == NULL || row_ptr == NULL || (ref->nnz > 0 && (col_idx == NULL || values == NULL)))
        return tcst_i_fail(msg, msglen, "missing array to compare");
    /* The whole row structure first: after it matches, every column index read below is
     * within the nnz(ref) entries the caller downloaded. */
    for (int64_t i = 0; i <= ref->rows; ++i) {
        if ((int64_t)row_ptr[i] - base != ref->row_ptr[i]) {
            if (i == 0)
                return tcst_i_fail(msg, msglen, "row_ptr[0] = %d, expected the index base %d",
                                   row_ptr[0], base);
            return tcst_i_fail(msg, msglen,
                               "row %lld has %lld entries (row_ptr %d..%d), expected %d "
                               "(reference %d..%d with base %d)",
                               (long long)(i - 1), (long long)row_ptr[i] - row_ptr[i - 1],
                               row_ptr[i - 1], row_ptr[i], ref->row_ptr[i] - ref->row_ptr[i - 1],
                               ref->row_ptr[i - 1] + base, ref->row_ptr[i] + base, base);
        }
    }
    const float* vf = (const float*)values;
    const double* vd = (const double*)values;
    for (int64_t i = 0; i < ref->rows; ++i) {
        for (int e = ref->row_ptr[i]; e < ref->row_ptr[i + 1]; ++e) {
            if ((int64_t)col_idx[e] - base != ref->col_idx[e])
                return tcst_i_fail(msg, msglen,
                                   "row %lld entry %d: column %lld, expected %d (0-based; base %d)",
                                   (long long)i, e - ref->row_ptr[i],
                                   (long long)col_idx[e] - base, ref->col_idx[e], base);
            const double x = is_double ? vd[e] : (double)vf[e];
            const double r = ref->val[e];
            double bound;
            if (mag != NULL) {
                /* Products below the value type's smallest normal number underflow in
                 * the GPU's arithmetic (bayer10 has entries near 1e-57, which are 0 in
                 * fp32), so the bound has an absolute floor of a few such numbers. */
                bound = rtol * mag[e] + 64.0 * (is_double ? DBL_MIN : (double)FLT_MIN);
            } else {
                bound = rtol * (fabs(r) + 1e-300);
                if (bound < rtol) bound = rtol;
            }
            const double diff = fabs(x - r);
            if (!(diff <= bound)) /* also catches NaN */
                return tcst_i_fail(msg, msglen,
                                   "row %lld column %d: value %.17g, expected %.17g "
                                   "(|difference| %.3g > bound %.3g = rtol %.3g x %s %.3g)",
                                   (long long)i, ref->col_idx[e], x, r, diff, bound, rtol,
                                   mag ? "magnitude" : "max(|ref|, 1)",
                                   mag ? mag[e] : fabs(r) > 1.0 ? fabs(r) : 1.0);
        }
    }
    return 0;
}

double tcst_compare_dense(const double* ref, const double* mag, const double* x, int64_t count) {
    double worst = 0.0;
    for (int64_t i = 0; i < count; ++i) {
        if (x[i] == ref[i]) continue; /* also equal infinities */
        const double scale = (mag != NULL ? mag[i] : fabs(ref[i])) + DBL_MIN;
        const double ratio = fabs(x[i] - ref[i]) / scale;
        if (isnan(ratio)) return INFINITY;
        if (ratio > worst) worst = ratio;
    }
    return worst;
}
