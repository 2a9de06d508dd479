/*
 * Test and benchmark support for tcsparse, in C: host CSR matrices in double
 * precision, a Matrix Market reader, matrix generators, the CPU reference products
 * (the oracle of every GPU test), comparison with error bounds, device upload
 * helpers and GPU detection. Shared by tests/ and bench/.
 */
#ifndef TCS_TEST_SUPPORT_H_
#define TCS_TEST_SUPPORT_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Exit code a test program returns when it cannot run here (no GPU): ctest's
 * SKIP_RETURN_CODE. */
#define TCST_SKIP 77

/* A host CSR matrix, 0-based, double values, 32-bit indices. Columns in a row are
 * sorted unless a function says otherwise. All arrays are malloc'ed. */
typedef struct {
    int64_t rows, cols, nnz;
    int* row_ptr;  /* rows + 1 */
    int* col_idx;  /* nnz */
    double* val;   /* nnz */
} tcst_csr;

void tcst_csr_free(tcst_csr* m);
/* Deep copy; returns 0 on success. */
int tcst_csr_copy(const tcst_csr* src, tcst_csr* dst);
/* Allocates an empty rows x cols matrix with room for nnz entries (row_ptr zeroed). */
int tcst_csr_alloc(tcst_csr* m, int64_t rows, int64_t cols, int64_t nnz);
/* Checks that m is a valid 0-based CSR matrix: row_ptr[0] == 0, nondecreasing,
 * row_ptr[rows] == nnz, columns in [0, cols), and with strictly_sorted columns
 * strictly increasing in each row (sorted, no duplicates). Returns 0 when valid, else
 * describes the first problem in msg. */
int tcst_csr_check(const tcst_csr* m, int strictly_sorted, char* msg, size_t msglen);

/* ---- Random numbers: a fixed, portable generator (splitmix64 / xoshiro) ---- */
typedef struct { uint64_t s[4]; } tcst_rng;
void tcst_rng_seed(tcst_rng* r, uint64_t seed);
uint64_t tcst_rng_next(tcst_rng* r);
double tcst_rng_uniform(tcst_rng* r);          /* [0, 1) */
double tcst_rng_symmetric(tcst_rng* r);        /* [-1, 1) */
uint64_t tcst_rng_below(tcst_rng* r, uint64_t n); /* uniform in [0, n), unbiased; 0 if n == 0 */
/* Corrupts one or two entries of a CSR structure (offsets with their base, rows + 1;
 * columns, nnz; both as int64): an offset moved far (past nnz, negative) or a little
 * (backwards against its neighbours), or a column moved anywhere in 32 bits or near the
 * matrix's range. Often still valid, often not (corrupt.c). */
void tcst_corrupt_structure(int64_t* row_ptr, int64_t rows, int64_t* col_idx, int64_t nnz, int64_t cols,
                            tcst_rng* rng);
/* A seed from the clock and the process id, printed by tests so a failure can be
 * reproduced with TCST_SEED=<value> in the environment (which it then returns). */
uint64_t tcst_fresh_seed(void);
/* Seconds on a monotonic clock (clock.c): differences time a test's calls. */
double tcst_seconds(void);
/* Whether TCS_TEST_QUICK asks for quick sizes (set, not empty, not "0"; quick.c): the
 * compute-sanitizer runs set it. */
int tcst_quick(void);

/* ---- 16-bit floating point (halves.c): round to nearest even, subnormals, infinities
 * and NaN kept ---- */
uint16_t tcst_half_bits(float f);
float tcst_half_value(uint16_t h);
uint16_t tcst_bf16_bits(float f);
float tcst_bf16_value(uint16_t b);

/* ---- Matrix Market ----
 * Reads a coordinate file (plain or .gz, the latter through `gzip -dc`, so no zlib
 * dependency): real, integer or pattern; general, symmetric or skew-symmetric
 * (expanded to full storage). Pattern entries get values from `pattern_seed`
 * (uniform in [-1,1)) or 1.0 when pattern_seed is 0. Duplicates are summed. Complex
 * and array files are rejected with a message in err. Returns 0 on success. Memory
 * follows the entries actually read, not the header's claims; the one array the header
 * sizes, the row offsets, is capped: more than TCST_MM_MAX_ROWS rows (2^27, 512 MB of
 * offsets) are refused with a message. */
#define TCST_MM_MAX_ROWS ((int64_t)1 << 27)
int tcst_mm_read(const char* path, uint64_t pattern_seed, tcst_csr* out, char* err, size_t errlen);

/* Directory of the bundled/shared matrices: $TCS_MATRIX_DIR if set, else the
 * compile-time default TCS_DEFAULT_MATRIX_DIR. */
const char* tcst_matrix_dir(void);

/* The Matrix Market files (.mtx, .mtx.gz) of a folder, one after the other in the
 * folder's order. `index` counts the files seen (complex ones too) from 1; `name` is the
 * current file's name. */
typedef struct {
    void* dir;
    char folder[512];
    int index;
    char name[256];
} tcst_mm_folder;
/* Opens `folder` (tcst_matrix_dir() when NULL). Returns 0 on success. */
int tcst_mm_folder_open(tcst_mm_folder* f, const char* folder);
/* Reads the next file into *out, pattern values from seed + its index, complex files
 * skipped. Returns 1 with a matrix, 0 after the last file, -1 on a read error (err). */
int tcst_mm_folder_next(tcst_mm_folder* f, uint64_t seed, tcst_csr* out, char* err, size_t errlen);
void tcst_mm_folder_close(tcst_mm_folder* f);

/* ---- Generators (values uniform in [-1,1) from seed; columns sorted) ---- */
/* 3D 27-point stencil on nx*ny*nz nodes with dof unknowns per node (dof 1 or 3). */
int tcst_gen_stencil27(int nx, int ny, int nz, int dof, uint64_t seed, tcst_csr* out);
/* Star stencil on nx*ny*nz nodes, one unknown per node: each node and its neighbours
 * at distance 1 along one axis (the 7-point Laplacian's pattern in 3D; 5-point with
 * nz = 1). */
int tcst_gen_stencil_star(int nx, int ny, int nz, uint64_t seed, tcst_csr* out);
/* n x n banded matrix: entries j with |i - j| <= half_bandwidth. */
int tcst_gen_banded(int64_t n, int half_bandwidth, uint64_t seed, tcst_csr* out);
/* R-MAT power-law graph: 2^scale vertices, edge_factor * 2^scale edges drawn with
 * probabilities (a, b, c, 1-a-b-c), duplicates merged, no self-loop removal. */
int tcst_gen_rmat(int scale, int edge_factor, double a, double b, double c, uint64_t seed,
                  tcst_csr* out);
/* rows x cols with nnz_per_row distinct uniformly random columns in each row. */
int tcst_gen_uniform(int64_t rows, int64_t cols, int nnz_per_row, uint64_t seed, tcst_csr* out);
/* rows x cols made of block x block dense blocks, each present with probability
 * block_density; inside a present block every entry is stored. */
int tcst_gen_dense_blocks(int64_t rows, int64_t cols, int block, double block_density,
                          uint64_t seed, tcst_csr* out);

/* rows x cols with rows of `len` entries every `step` columns from a random start in
 * [0, step) (fewer where the row ends): with step 8 every entry is alone in its 8x8
 * tile, and a row reaches `len` tile columns. */
int tcst_gen_spread(int64_t rows, int64_t cols, int len, int step, uint64_t seed, tcst_csr* out);
/* A product that cancels exactly: from `half` (m x n), A (m x 2m) has 1.5 at (i, 2i)
 * and (i, 2i+1), and B (2m x n) has half's row i as its row 2i and minus it as its row
 * 2i+1, so every entry of A*B is 1.5*x - 1.5*x = 0 (and still in the symbolic
 * pattern, which equals half's). */
int tcst_gen_cancelling(const tcst_csr* half, tcst_csr* a, tcst_csr* b);

/* ---- Transformations for edge cases ---- */
/* Shuffles column order within every row (values follow). */
void tcst_csr_shuffle_columns(tcst_csr* m, uint64_t seed);
/* m without the entries of every `every`-th row (rows 0, every, 2*every, ... become
 * empty). */
int tcst_csr_without_rows(const tcst_csr* m, int every, tcst_csr* out);
/* Transpose (sorted output). */
int tcst_csr_transpose(const tcst_csr* a, tcst_csr* out);

/* ---- CPU reference (double), the oracle ----
 * C = A * B with the symbolic pattern: every (i, j) reached by some product is stored,
 * also when the values cancel to zero. Columns sorted. Inputs may have unsorted
 * columns. Returns 0 on success. */
int tcst_ref_spgemm(const tcst_csr* a, const tcst_csr* b, tcst_csr* c);
/* Number of scalar products of A*B (sum over A's entries of the length of B's row). */
int64_t tcst_ref_num_products(const tcst_csr* a, const tcst_csr* b);
/* Dense C (m x n, column-major, ldc) = alpha * op(A) * op(B) + beta * C, where B is
 * given column-major with ldb as stored (k x n, or n x k when trans_b), all double. */
void tcst_ref_spmm(int trans_a, int trans_b, double alpha, const tcst_csr* a, const double* b,
                   int64_t ldb, int64_t n, double beta, double* c, int64_t ldc);
/* (The per-entry magnitude of an SpMM, for tcst_compare_dense, is tcst_ref_spmm run on
 * |A|, |B|, |alpha|, |beta| and |C|.) */

/* ---- The block SpMM's format, counted on the CPU (block_counts.c) ----
 * The signature order of cpp/formats/row_reorder: two min-hashes of each row's columns,
 * rows sorted by them, ties in row order; writes a->rows row numbers into order. Returns
 * 0, or -1 when out of memory. */
int tcst_signature_order(const tcst_csr* a, int* order);
/* Blocks of 32 rows x 16 distinct columns: the rows in windows of 32 in the given order
 * (NULL: natural), each window's distinct columns in blocks of 16. -1 when out of
 * memory. */
int64_t tcst_count_blocks(const tcst_csr* a, const int* order);

/* ---- Comparison ----
 * Compares a CSR result downloaded from the GPU (row_ptr/col_idx with index base
 * `base`, values float (is_double 0) or double (is_double 1)) with the reference:
 * exact pattern, and per entry |x - ref| <= rtol * (sum over the products of |a*b|)
 * when `mag` (the reference's per-entry magnitude, may be NULL: then |ref| + 1e-300
 * is used, with an absolute floor of rtol). Writes a description of the first
 * mismatch into msg. Returns 0 when equal within the bounds. */
int tcst_compare_csr(const tcst_csr* ref, const double* mag, const int* row_ptr,
                     const int* col_idx, const void* values, int is_double, int base,
                     double rtol, char* msg, size_t msglen);
/* Per-entry magnitude of the reference product: sum of |a_ik * b_kj| over the
 * products that form C(i,j), in the order of ref's entries. Caller frees. */
double* tcst_ref_spgemm_magnitude(const tcst_csr* a, const tcst_csr* b, const tcst_csr* ref);
/* The same with every |a_ik| and |b_kj| raised to at least input_floor: the bound for
 * inputs that a kernel rounds to a type whose subnormals round by an absolute step
 * (fp32 data under fp16 math: below 2^-14, pass 2^-14). */
double* tcst_ref_spgemm_magnitude_floored(const tcst_csr* a, const tcst_csr* b, const tcst_csr* ref,
                                          double input_floor);
/* Dense comparison: max over entries of |x - ref| / (mag + tiny), with mag the sum of
 * |products| per entry (pass NULL to use |ref|). Returns the worst ratio. */
double tcst_compare_dense(const double* ref, const double* mag, const double* x, int64_t count);

/* ---- Values of the types tcsparse computes on ----
 * `type` is a cudaDataType: CUDA_R_64F, CUDA_R_32F, CUDA_R_16F or CUDA_R_16BF (any
 * other value is taken as bf16). fp16 and bf16 are written with round-to-nearest-even. */
size_t tcst_value_size(int type);
void tcst_value_put(void* base, size_t i, int type, double x);
double tcst_value_get(const void* base, size_t i, int type);
/* x rounded to `type` and back. */
double tcst_value_rounded(double x, int type);

/* ---- Device helpers (CUDA runtime) ---- */
/* 1 when a CUDA device is usable, 0 otherwise (any error counts as none). */
int tcst_gpu_available(void);
/* Uploads m to the device with index base `base`, values as float (is_double 0) or
 * double. Returns 0 on success; *d_rp, *d_ci, *d_val are cudaMalloc'ed (NULL when the
 * array is empty). */
int tcst_csr_upload(const tcst_csr* m, int base, int is_double, int** d_rp, int** d_ci,
                    void** d_val);
/* Uploads m's row offsets and column indices with index base `base`, as int64_t where
 * `wide` (TCS_INDEX_64I descriptors), else int. Returns 0 on success; *d_rp and *d_ci
 * are cudaMalloc'ed (*d_ci NULL when nnz is 0). */
int tcst_csr_upload_indices(const tcst_csr* m, int base, int wide, void** d_rp, void** d_ci);
/* Downloads count entries of an index array of either width as ints; -1 when a 64-bit
 * entry does not fit 32 bits (or on a CUDA error), 0 otherwise. */
int tcst_device_download_indices(int* host, const void* device, int64_t count, int wide);
/* cudaMalloc's bytes and fills them with the byte pattern 0xFF (NaN for floats, -1
 * for ints) so unwritten outputs are caught. Returns NULL on failure or bytes == 0. */
void* tcst_device_poisoned(size_t bytes);
/* cudaMemcpy of bytes from device to host (synchronous). Returns 0 on success. */
int tcst_device_download(void* host, const void* device, size_t bytes);
void tcst_device_free(void* p);
/* Device memory currently in use on the device (total - free), for peak tracking. */
size_t tcst_device_used_bytes(void);

#ifdef __cplusplus
}
#endif

#endif /* TCS_TEST_SUPPORT_H_ */
