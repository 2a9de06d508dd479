/* Matrix generators. Each one does work proportional to the nonzeros it makes (never
 * rows*cols), so they reach 10^7-10^8 nonzeros in seconds: structures whose row
 * lengths are known are written straight into CSR; random structures are drawn twice
 * from the same seed, once to count and once to fill, so no coordinate list is kept. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Value and structure streams are separate so that a structure does not depend on how
 * many values were drawn. */
static uint64_t value_seed(uint64_t seed) { return seed ^ 0x5bd1e995a4c3f1b7ull; }

static void fill_values(tcst_csr* m, uint64_t seed) {
    tcst_rng r;
    tcst_rng_seed(&r, value_seed(seed));
    for (int64_t e = 0; e < m->nnz; ++e) m->val[e] = tcst_rng_symmetric(&r);
}

/* Neighbours of x in [0, n) within distance 1: first one and how many. */
static void span(int x, int n, int* first, int* count) {
    *first = x > 0 ? x - 1 : 0;
    *count = (x + 1 < n ? x + 1 : n - 1) - *first + 1;
}

int tcst_gen_stencil27(int nx, int ny, int nz, int dof, uint64_t seed, tcst_csr* out) {
    if (out == NULL) return -1;
    memset(out, 0, sizeof *out);
    if (nx < 1 || ny < 1 || nz < 1 || dof < 1) return -1;
    /* Per dimension the neighbour counts add up to 3n - 2 (1 when n = 1). */
    const int64_t sx = nx == 1 ? 1 : 3 * (int64_t)nx - 2, sy = ny == 1 ? 1 : 3 * (int64_t)ny - 2,
                  sz = nz == 1 ? 1 : 3 * (int64_t)nz - 2;
    /* Each product is checked before the next, so none can overflow 64 bits. */
    const int64_t nodes_xy = (int64_t)nx * ny;
    if (nodes_xy >= TCST_MAX_NNZ || nodes_xy * nz >= TCST_MAX_NNZ ||
        nodes_xy * nz * dof >= TCST_MAX_NNZ || sx * sy * sz > TCST_MAX_NNZ / dof / dof)
        return -1;
    const int64_t rows = nodes_xy * nz * dof;
    const int64_t nnz = sx * sy * sz * dof * dof;
    if (tcst_csr_alloc(out, rows, rows, nnz) != 0) return -1;
    int e = 0;
    int64_t r = 0;
    for (int z = 0; z < nz; ++z) {
        int z0, zc;
        span(z, nz, &z0, &zc);
        for (int y = 0; y < ny; ++y) {
            int y0, yc;
            span(y, ny, &y0, &yc);
            for (int x = 0; x < nx; ++x) {
                int x0, xc;
                span(x, nx, &x0, &xc);
                for (int d = 0; d < dof; ++d, ++r) {
                    out->row_ptr[r] = e;
                    /* z, y, x ascending: neighbour nodes, hence columns, come sorted. */
                    for (int zz = z0; zz < z0 + zc; ++zz)
                        for (int yy = y0; yy < y0 + yc; ++yy)
                            for (int xx = x0; xx < x0 + xc; ++xx) {
                                const int node = xx + nx * (yy + ny * zz);
                                for (int f = 0; f < dof; ++f) out->col_idx[e++] = node * dof + f;
                            }
                }
            }
        }
    }
    out->row_ptr[rows] = e;
    fill_values(out, seed);
    return 0;
}

int tcst_gen_stencil_star(int nx, int ny, int nz, uint64_t seed, tcst_csr* out) {
    if (out == NULL) return -1;
    memset(out, 0, sizeof *out);
    if (nx < 1 || ny < 1 || nz < 1) return -1;
    const int64_t nodes_xy = (int64_t)nx * ny;
    if (nodes_xy >= TCST_MAX_NNZ || nodes_xy * nz >= TCST_MAX_NNZ / 7) return -1;
    const int64_t rows = nodes_xy * nz;
    /* Each node and its neighbours at distance 1 along one axis: the inner links of
     * each axis count twice (once from each end). */
    const int64_t nnz = rows + 2 * ((int64_t)(nx - 1) * ny * nz + (int64_t)nx * (ny - 1) * nz +
                                    (int64_t)nx * ny * (nz - 1));
    if (tcst_csr_alloc(out, rows, rows, nnz) != 0) return -1;
    int64_t e = 0, r = 0;
    for (int z = 0; z < nz; ++z)
        for (int y = 0; y < ny; ++y)
            for (int x = 0; x < nx; ++x, ++r) {
                out->row_ptr[r] = (int)e;
                /* Ascending node index: -z, -y, -x, self, +x, +y, +z. */
                if (z > 0) out->col_idx[e++] = (int)(r - nodes_xy);
                if (y > 0) out->col_idx[e++] = (int)(r - nx);
                if (x > 0) out->col_idx[e++] = (int)(r - 1);
                out->col_idx[e++] = (int)r;
                if (x + 1 < nx) out->col_idx[e++] = (int)(r + 1);
                if (y + 1 < ny) out->col_idx[e++] = (int)(r + nx);
                if (z + 1 < nz) out->col_idx[e++] = (int)(r + nodes_xy);
            }
    out->row_ptr[rows] = (int)e;
    fill_values(out, seed);
    return 0;
}

int tcst_gen_banded(int64_t n, int half_bandwidth, uint64_t seed, tcst_csr* out) {
    if (out == NULL) return -1;
    memset(out, 0, sizeof *out);
    if (n < 0 || half_bandwidth < 0 || n >= TCST_MAX_NNZ) return -1;
    int64_t nnz = 0;
    for (int64_t i = 0; i < n; ++i) {
        const int64_t lo = i - half_bandwidth > 0 ? i - half_bandwidth : 0;
        const int64_t hi = i + half_bandwidth < n - 1 ? i + half_bandwidth : n - 1;
        nnz += hi - lo + 1;
        if (nnz > TCST_MAX_NNZ) return -1;
    }
    if (tcst_csr_alloc(out, n, n, nnz) != 0) return -1;
    int e = 0;
    for (int64_t i = 0; i < n; ++i) {
        out->row_ptr[i] = e;
        const int64_t lo = i - half_bandwidth > 0 ? i - half_bandwidth : 0;
        const int64_t hi = i + half_bandwidth < n - 1 ? i + half_bandwidth : n - 1;
        for (int64_t j = lo; j <= hi; ++j) out->col_idx[e++] = (int)j;
    }
    out->row_ptr[n] = e;
    fill_values(out, seed);
    return 0;
}

/* Quadrant thresholds of R-MAT on a 32-bit scale: a draw u below `a` picks the top-left
 * quadrant, below `ab` top-right, below `abc` bottom-left, else bottom-right. Each
 * 64-bit random number serves two levels, which halves the cost of the generator. */
typedef struct {
    uint64_t a, ab, abc;
} rmat_thresholds;

static uint64_t scaled(double p) { return (uint64_t)(p * 4294967296.0); }

/* One R-MAT edge: at each of `scale` levels pick a quadrant and descend. */
static void rmat_edge(tcst_rng* r, int scale, const rmat_thresholds* t, int* row, int* col) {
    int i = 0, j = 0;
    uint64_t bits = 0;
    for (int level = scale - 1; level >= 0; --level) {
        if ((level & 1) == ((scale - 1) & 1)) bits = tcst_rng_next(r);
        else bits >>= 32;
        const uint64_t u = bits & 0xffffffffu;
        if (u >= t->abc) {
            i |= 1 << level;
            j |= 1 << level;
        } else if (u >= t->ab) {
            i |= 1 << level;
        } else if (u >= t->a) {
            j |= 1 << level;
        }
    }
    *row = i;
    *col = j;
}

int tcst_gen_rmat(int scale, int edge_factor, double a, double b, double c, uint64_t seed,
                  tcst_csr* out) {
    if (out == NULL) return -1;
    memset(out, 0, sizeof *out);
    if (scale < 1 || scale > 30 || edge_factor < 1 || !(a >= 0) || !(b >= 0) || !(c >= 0) ||
        a + b + c > 1.0)
        return -1;
    const int64_t n = (int64_t)1 << scale;
    const int64_t edges = n * edge_factor;
    if (edges > TCST_MAX_NNZ || n >= TCST_MAX_NNZ) return -1;
    if (tcst_csr_alloc(out, n, n, edges) != 0) return -1;
    free(out->val); /* values are drawn after duplicates are merged */
    out->val = NULL;
    const rmat_thresholds t = {scaled(a), scaled(a + b), scaled(a + b + c)};
    tcst_rng r;
    int i, j;
    tcst_rng_seed(&r, seed);
    for (int64_t e = 0; e < edges; ++e) {
        rmat_edge(&r, scale, &t, &i, &j);
        out->row_ptr[i + 1]++;
    }
    for (int64_t v = 0; v < n; ++v) out->row_ptr[v + 1] += out->row_ptr[v];
    int* next = (int*)malloc((size_t)n * sizeof(int));
    if (next == NULL) {
        tcst_csr_free(out);
        return -1;
    }
    memcpy(next, out->row_ptr, (size_t)n * sizeof(int));
    tcst_rng_seed(&r, seed); /* the same edges again, now placed */
    for (int64_t e = 0; e < edges; ++e) {
        rmat_edge(&r, scale, &t, &i, &j);
        out->col_idx[next[i]++] = j;
    }
    free(next);
    if (tcst_i_sort_merge_rows(out, 0) != 0) {
        tcst_csr_free(out);
        return -1;
    }
    out->val = (double*)malloc((size_t)(out->nnz > 0 ? out->nnz : 1) * sizeof(double));
    if (out->val == NULL) {
        tcst_csr_free(out);
        return -1;
    }
    fill_values(out, seed);
    return 0;
}

static int compare_int(const void* x, const void* y) {
    const int a = *(const int*)x, b = *(const int*)y;
    return (a > b) - (a < b);
}

/* k distinct sorted columns out of n into cols. */
static void sample_row(tcst_rng* r, int64_t n, int k, int* cols) {
    if (2 * (int64_t)k > n) {
        /* Dense row: selection sampling over all columns, O(n) <= O(2k). */
        int chosen = 0;
        for (int64_t j = 0; j < n && chosen < k; ++j)
            if ((double)(n - j) * tcst_rng_uniform(r) < (double)(k - chosen)) cols[chosen++] = (int)j;
        return;
    }
    /* Sparse row: draw, sort, drop repeats, redraw the missing ones. At most half the
     * columns are taken, so each redraw keeps at least half its draws. */
    int have = 0;
    while (have < k) {
        for (int t = have; t < k; ++t) cols[t] = (int)tcst_rng_below(r, (uint64_t)n);
        qsort(cols, (size_t)k, sizeof(int), compare_int);
        have = 0;
        for (int t = 0; t < k; ++t)
            if (have == 0 || cols[t] != cols[have - 1]) cols[have++] = cols[t];
    }
}

int tcst_gen_uniform(int64_t rows, int64_t cols, int nnz_per_row, uint64_t seed, tcst_csr* out) {
    if (out == NULL) return -1;
    memset(out, 0, sizeof *out);
    if (rows < 0 || cols < 0 || nnz_per_row < 0 || nnz_per_row > cols || rows >= TCST_MAX_NNZ ||
        cols > TCST_MAX_NNZ || (nnz_per_row > 0 && rows > TCST_MAX_NNZ / nnz_per_row))
        return -1;
    if (tcst_csr_alloc(out, rows, cols, rows * nnz_per_row) != 0) return -1;
    tcst_rng r;
    tcst_rng_seed(&r, seed);
    for (int64_t i = 0; i < rows; ++i) {
        out->row_ptr[i] = (int)(i * nnz_per_row);
        sample_row(&r, cols, nnz_per_row, out->col_idx + i * nnz_per_row);
    }
    out->row_ptr[rows] = (int)(rows * nnz_per_row);
    fill_values(out, seed);
    return 0;
}

/* The present blocks of one block row: each of the nb blocks independently with
 * probability p. Geometric gaps between present blocks make the cost proportional to
 * the blocks drawn, not to nb. */
static int present_blocks(tcst_rng* r, int64_t nb, double p, int* list) {
    int n = 0;
    if (p >= 1.0) {
        for (int64_t j = 0; j < nb; ++j) list[n++] = (int)j;
        return n;
    }
    if (!(p > 0.0)) return 0;
    const double log_q = log1p(-p);
    double j = -1.0;
    for (;;) {
        const double u = 1.0 - tcst_rng_uniform(r); /* (0, 1]: log is finite */
        j += 1.0 + floor(log(u) / log_q);
        if (j >= (double)nb) return n;
        list[n++] = (int)j;
    }
}

int tcst_gen_dense_blocks(int64_t rows, int64_t cols, int block, double block_density,
                          uint64_t seed, tcst_csr* out) {
    if (out == NULL) return -1;
    memset(out, 0, sizeof *out);
    if (rows < 0 || cols < 0 || block < 1 || !(block_density >= 0.0) || block_density > 1.0 ||
        rows >= TCST_MAX_NNZ || cols > TCST_MAX_NNZ)
        return -1;
    const int64_t brows = (rows + block - 1) / block, bcols = (cols + block - 1) / block;
    int* list = (int*)malloc((size_t)(bcols > 0 ? bcols : 1) * sizeof(int));
    if (list == NULL) return -1;
    tcst_rng r;
    /* Pass 1 counts, pass 2 fills from the same structure stream. */
    int64_t nnz = 0;
    tcst_rng_seed(&r, seed);
    for (int64_t ib = 0; ib < brows; ++ib) {
        const int n = present_blocks(&r, bcols, block_density, list);
        int64_t width = 0;
        for (int t = 0; t < n; ++t) {
            const int64_t c0 = (int64_t)list[t] * block;
            width += cols - c0 < block ? cols - c0 : block;
        }
        const int64_t height = rows - ib * block < block ? rows - ib * block : block;
        nnz += width * height;
        if (nnz > TCST_MAX_NNZ) {
            free(list);
            return -1;
        }
    }
    if (tcst_csr_alloc(out, rows, cols, nnz) != 0) {
        free(list);
        return -1;
    }
    tcst_rng_seed(&r, seed);
    int e = 0;
    for (int64_t ib = 0; ib < brows; ++ib) {
        const int n = present_blocks(&r, bcols, block_density, list);
        const int64_t row_end = (ib + 1) * block < rows ? (ib + 1) * block : rows;
        for (int64_t i = ib * block; i < row_end; ++i) {
            out->row_ptr[i] = e;
            for (int t = 0; t < n; ++t) {
                const int64_t c0 = (int64_t)list[t] * block;
                const int64_t c1 = c0 + block < cols ? c0 + block : cols;
                for (int64_t j = c0; j < c1; ++j) out->col_idx[e++] = (int)j;
            }
        }
    }
    out->row_ptr[rows] = e;
    free(list);
    fill_values(out, seed);
    return 0;
}

int tcst_gen_spread(int64_t rows, int64_t cols, int len, int step, uint64_t seed, tcst_csr* out) {
    if (out == NULL) return -1;
    memset(out, 0, sizeof *out);
    if (rows < 0 || cols < 0 || len < 0 || step < 1 || rows * (int64_t)len > TCST_MAX_NNZ ||
        tcst_csr_alloc(out, rows, cols, rows * (int64_t)len) != 0)
        return -1;
    tcst_rng r;
    tcst_rng_seed(&r, seed);
    int64_t pos = 0;
    for (int64_t i = 0; i < rows; ++i) {
        out->row_ptr[i] = (int)pos;
        const int64_t start = (int64_t)tcst_rng_below(&r, (uint64_t)step);
        for (int t = 0; t < len && start + (int64_t)t * step < cols; ++t, ++pos) {
            out->col_idx[pos] = (int)(start + (int64_t)t * step);
            out->val[pos] = tcst_rng_symmetric(&r);
        }
    }
    out->row_ptr[rows] = (int)pos;
    out->nnz = pos;
    return 0;
}

int tcst_gen_cancelling(const tcst_csr* half, tcst_csr* a, tcst_csr* b) {
    if (half == NULL || a == NULL || b == NULL) return -1;
    const int64_t m = half->rows;
    if (tcst_csr_alloc(a, m, 2 * m, 2 * m) != 0) return -1;
    if (tcst_csr_alloc(b, 2 * m, half->cols, 2 * half->nnz) != 0) {
        tcst_csr_free(a);
        return -1;
    }
    int64_t pos = 0;
    for (int64_t i = 0; i < m; ++i) {
        a->row_ptr[i] = (int)(2 * i);
        a->col_idx[2 * i] = (int)(2 * i);
        a->col_idx[2 * i + 1] = (int)(2 * i + 1);
        a->val[2 * i] = a->val[2 * i + 1] = 1.5;
        for (int sign = 1; sign >= -1; sign -= 2) {
            b->row_ptr[2 * i + (sign < 0)] = (int)pos;
            for (int e = half->row_ptr[i]; e < half->row_ptr[i + 1]; ++e, ++pos) {
                b->col_idx[pos] = half->col_idx[e];
                b->val[pos] = sign * half->val[e];
            }
        }
    }
    a->row_ptr[m] = (int)(2 * m);
    b->row_ptr[2 * m] = (int)pos;
    return 0;
}
