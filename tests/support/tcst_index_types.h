/*
 * The index types of a CSR A and the statuses they get (include after <cmocka.h> and
 * "tcsparse.h"): offsets and columns of different widths are refused when the
 * descriptor is made (NOT_SUPPORTED, as cuSPARSE 12.6 refuses them); 16U/16U is made,
 * as in cuSPARSE, and refused by tcsSpMV and tcsSpMM; both 32-bit or both 64-bit are
 * what cuSPARSE's SpMV and SpMM take, NOT_SUPPORTED for a 64-bit A of 2^31 nonzeros or
 * more (the kernels keep positions in 32 bits). Only sizes are asked, so a test needs
 * no arrays behind the descriptors.
 */
#ifndef TCST_INDEX_TYPES_H_
#define TCST_INDEX_TYPES_H_

#include <stdint.h>

typedef struct {
    tcsIndexType_t offsets, columns;
    int64_t nnz; /* of a square matrix with tcst_index_side(nnz) rows */
    tcsStatus_t made; /* tcsCreateConstCsr's status */
    tcsStatus_t want; /* the product's, when made */
} tcst_index_case;

static const tcst_index_case tcst_index_cases[] = {
    {TCS_INDEX_32I, TCS_INDEX_32I, 16, TCS_STATUS_SUCCESS, TCS_STATUS_SUCCESS},
    {TCS_INDEX_64I, TCS_INDEX_64I, 16, TCS_STATUS_SUCCESS, TCS_STATUS_SUCCESS},
    {TCS_INDEX_64I, TCS_INDEX_32I, 16, TCS_STATUS_NOT_SUPPORTED, TCS_STATUS_NOT_SUPPORTED},
    {TCS_INDEX_32I, TCS_INDEX_64I, 16, TCS_STATUS_NOT_SUPPORTED, TCS_STATUS_NOT_SUPPORTED},
    {TCS_INDEX_32I, TCS_INDEX_16U, 16, TCS_STATUS_NOT_SUPPORTED, TCS_STATUS_NOT_SUPPORTED},
    {TCS_INDEX_16U, TCS_INDEX_16U, 16, TCS_STATUS_SUCCESS, TCS_STATUS_NOT_SUPPORTED},
    {TCS_INDEX_64I, TCS_INDEX_64I, (int64_t)1 << 31, TCS_STATUS_SUCCESS, TCS_STATUS_NOT_SUPPORTED},
};
#define TCST_INDEX_CASES ((int)(sizeof tcst_index_cases / sizeof tcst_index_cases[0]))

/* Rows and columns of the square matrix of a case: 8 (64 entries at most), or 2^16
 * where nnz needs more. */
static inline int64_t tcst_index_side(int64_t nnz) { return nnz > 64 ? (int64_t)1 << 16 : 8; }

/* The case's fp32 matrix over `arrays` (any device address), or NULL where the case is
 * refused when made; fails unless creation gives the case's status. */
static inline tcsConstSpMatDescr_t tcst_index_case_csr(const tcst_index_case* ic, void* arrays) {
    const int64_t side = tcst_index_side(ic->nnz);
    tcsConstSpMatDescr_t a = NULL;
    const tcsStatus_t got = tcsCreateConstCsr(&a, side, side, ic->nnz, arrays, arrays, arrays,
                                              ic->offsets, ic->columns, TCS_INDEX_BASE_ZERO,
                                              CUDA_R_32F);
    if (got != ic->made)
        fail_msg("tcsCreateConstCsr, offsets %d, columns %d: %s, expected %s", (int)ic->offsets,
                 (int)ic->columns, tcsGetErrorName(got), tcsGetErrorName(ic->made));
    return got == TCS_STATUS_SUCCESS ? a : NULL;
}

/* Fails unless `got` is the case's status. */
static inline void tcst_index_case_expect(const tcst_index_case* ic, int trans, tcsStatus_t got) {
    if (got != ic->want)
        fail_msg("offsets %d, columns %d, nnz %lld, op %s: %s, expected %s", (int)ic->offsets,
                 (int)ic->columns, (long long)ic->nnz, trans ? "T" : "N", tcsGetErrorName(got),
                 tcsGetErrorName(ic->want));
}

/* Every case with op(A) = N and T: makes A over `arrays`, skips the cases refused when
 * made, and checks the status `query` returns for A (a square side x side matrix; the
 * query makes its dense operands over `arrays` too). */
typedef tcsStatus_t (*tcst_index_query)(tcsConstSpMatDescr_t a, int64_t side, int trans,
                                         void* arrays);
static inline void tcst_check_index_cases(void* arrays, tcst_index_query query) {
    for (int i = 0; i < TCST_INDEX_CASES; ++i)
        for (int trans = 0; trans < 2; ++trans) {
            const tcst_index_case* ic = &tcst_index_cases[i];
            tcsConstSpMatDescr_t a = tcst_index_case_csr(ic, arrays);
            if (a == NULL) continue; /* refused when made, as it must be */
            tcst_index_case_expect(ic, trans, query(a, tcst_index_side(ic->nnz), trans, arrays));
            if (tcsDestroySpMat(a) != TCS_STATUS_SUCCESS) fail_msg("tcsDestroySpMat failed");
        }
}

#endif /* TCST_INDEX_TYPES_H_ */
