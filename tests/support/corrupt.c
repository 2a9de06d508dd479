/* Random corruption of a CSR structure (tcs_test_support.h): the bad data of
 * gpu_check_matrix and of the emulated kernels' corrupt-input runs. */
#include "tcs_test_support.h"

void tcst_corrupt_structure(int64_t* row_ptr, int64_t rows, int64_t* col_idx, int64_t nnz, int64_t cols,
                            tcst_rng* rng) {
    const int count = 1 + (int)tcst_rng_below(rng, 2);
    for (int k = 0; k < count; ++k) {
        if (nnz == 0 || tcst_rng_below(rng, 2) == 0) {
            /* An offset: far off (often past nnz or negative) or a little off (often
             * backwards against its neighbours). */
            const int64_t i = (int64_t)tcst_rng_below(rng, (uint64_t)rows + 1);
            row_ptr[i] = tcst_rng_below(rng, 3) == 0 ? (int64_t)tcst_rng_below(rng, (uint64_t)nnz * 4 + 1) - nnz
                                                     : row_ptr[i] + (int64_t)tcst_rng_below(rng, 41) - 20;
        } else {
            /* A column: anywhere in 32 bits, or near the matrix (in range, or just out). */
            const int64_t j = (int64_t)tcst_rng_below(rng, (uint64_t)nnz);
            col_idx[j] = tcst_rng_below(rng, 4) == 0
                             ? (int64_t)(tcst_rng_next(rng) >> 33) * (tcst_rng_below(rng, 2) ? 1 : -1)
                             : (int64_t)tcst_rng_below(rng, (uint64_t)cols * 3) - cols;
        }
    }
}
