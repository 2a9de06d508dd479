/* Every tcsparse enum value equals the cuSPARSE (and, for math modes, cuBLAS) value
 * of the same name, so code written against cuSPARSE can switch by renaming, and
 * integers from Fortran or Python bindings mean the same in both. Header-only use of
 * cusparse.h and cublas_api.h: nothing links cuSPARSE or cuBLAS. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <cublas_api.h>
#include <cusparse.h>

#include "tcsparse.h"

typedef struct {
    const char* name;
    long long tcs, other;
} pair;

#define SAME(tcs_name, other_name) {#tcs_name " == " #other_name, (long long)(tcs_name), (long long)(other_name)}

static void expect_pairs(const pair* p, size_t n) {
    int bad = 0;
    for (size_t i = 0; i < n; ++i)
        if (p[i].tcs != p[i].other) {
            print_error("%s: %lld != %lld\n", p[i].name, p[i].tcs, p[i].other);
            ++bad;
        }
    assert_int_equal(bad, 0);
}
#define EXPECT_PAIRS(table) expect_pairs((table), sizeof(table) / sizeof((table)[0]))

static void test_status(void** state) {
    (void)state;
    const pair t[] = {
        SAME(TCS_STATUS_SUCCESS, CUSPARSE_STATUS_SUCCESS),
        SAME(TCS_STATUS_NOT_INITIALIZED, CUSPARSE_STATUS_NOT_INITIALIZED),
        SAME(TCS_STATUS_ALLOC_FAILED, CUSPARSE_STATUS_ALLOC_FAILED),
        SAME(TCS_STATUS_INVALID_VALUE, CUSPARSE_STATUS_INVALID_VALUE),
        SAME(TCS_STATUS_ARCH_MISMATCH, CUSPARSE_STATUS_ARCH_MISMATCH),
        SAME(TCS_STATUS_MAPPING_ERROR, CUSPARSE_STATUS_MAPPING_ERROR),
        SAME(TCS_STATUS_EXECUTION_FAILED, CUSPARSE_STATUS_EXECUTION_FAILED),
        SAME(TCS_STATUS_INTERNAL_ERROR, CUSPARSE_STATUS_INTERNAL_ERROR),
        SAME(TCS_STATUS_MATRIX_TYPE_NOT_SUPPORTED, CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED),
        SAME(TCS_STATUS_ZERO_PIVOT, CUSPARSE_STATUS_ZERO_PIVOT),
        SAME(TCS_STATUS_NOT_SUPPORTED, CUSPARSE_STATUS_NOT_SUPPORTED),
        SAME(TCS_STATUS_INSUFFICIENT_RESOURCES, CUSPARSE_STATUS_INSUFFICIENT_RESOURCES),
    };
    EXPECT_PAIRS(t);
}

static void test_modes_and_layouts(void** state) {
    (void)state;
    const pair t[] = {
        SAME(TCS_POINTER_MODE_HOST, CUSPARSE_POINTER_MODE_HOST),
        SAME(TCS_POINTER_MODE_DEVICE, CUSPARSE_POINTER_MODE_DEVICE),
        SAME(TCS_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE),
        SAME(TCS_OPERATION_TRANSPOSE, CUSPARSE_OPERATION_TRANSPOSE),
        SAME(TCS_OPERATION_CONJUGATE_TRANSPOSE, CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE),
        SAME(TCS_INDEX_BASE_ZERO, CUSPARSE_INDEX_BASE_ZERO),
        SAME(TCS_INDEX_BASE_ONE, CUSPARSE_INDEX_BASE_ONE),
        SAME(TCS_INDEX_16U, CUSPARSE_INDEX_16U),
        SAME(TCS_INDEX_32I, CUSPARSE_INDEX_32I),
        SAME(TCS_INDEX_64I, CUSPARSE_INDEX_64I),
        SAME(TCS_ORDER_COL, CUSPARSE_ORDER_COL),
        SAME(TCS_ORDER_ROW, CUSPARSE_ORDER_ROW),
        SAME(TCS_FORMAT_CSR, CUSPARSE_FORMAT_CSR),
        SAME(TCS_FORMAT_COO, CUSPARSE_FORMAT_COO),
        SAME(TCS_FORMAT_BSR, CUSPARSE_FORMAT_BSR),
        SAME(TCS_DEFAULT_MATH, CUBLAS_DEFAULT_MATH),
        SAME(TCS_PEDANTIC_MATH, CUBLAS_PEDANTIC_MATH),
        SAME(TCS_TF32_TENSOR_OP_MATH, CUBLAS_TF32_TENSOR_OP_MATH),
    };
    EXPECT_PAIRS(t);
}

static void test_algorithms(void** state) {
    (void)state;
    const pair t[] = {
        SAME(TCS_SPGEMM_DEFAULT, CUSPARSE_SPGEMM_DEFAULT),
        /* cuSPARSE's spelling, through tcsparse's alias and its corrected name */
        SAME(TCS_SPGEMM_CSR_ALG_DETERMINITIC, CUSPARSE_SPGEMM_CSR_ALG_DETERMINITIC),
        SAME(TCS_SPGEMM_CSR_ALG_NONDETERMINITIC, CUSPARSE_SPGEMM_CSR_ALG_NONDETERMINITIC),
        SAME(TCS_SPGEMM_CSR_ALG_DETERMINISTIC, CUSPARSE_SPGEMM_CSR_ALG_DETERMINITIC),
        SAME(TCS_SPGEMM_CSR_ALG_NONDETERMINISTIC, CUSPARSE_SPGEMM_CSR_ALG_NONDETERMINITIC),
        SAME(TCS_SPGEMM_ALG1, CUSPARSE_SPGEMM_ALG1),
        SAME(TCS_SPGEMM_ALG2, CUSPARSE_SPGEMM_ALG2),
        SAME(TCS_SPGEMM_ALG3, CUSPARSE_SPGEMM_ALG3),
        SAME(TCS_SPMM_ALG_DEFAULT, CUSPARSE_SPMM_ALG_DEFAULT),
        SAME(TCS_SPMM_COO_ALG1, CUSPARSE_SPMM_COO_ALG1),
        SAME(TCS_SPMM_COO_ALG2, CUSPARSE_SPMM_COO_ALG2),
        SAME(TCS_SPMM_COO_ALG3, CUSPARSE_SPMM_COO_ALG3),
        SAME(TCS_SPMM_COO_ALG4, CUSPARSE_SPMM_COO_ALG4),
        SAME(TCS_SPMM_CSR_ALG1, CUSPARSE_SPMM_CSR_ALG1),
        SAME(TCS_SPMM_CSR_ALG2, CUSPARSE_SPMM_CSR_ALG2),
        SAME(TCS_SPMM_CSR_ALG3, CUSPARSE_SPMM_CSR_ALG3),
        SAME(TCS_SPMM_BLOCKED_ELL_ALG1, CUSPARSE_SPMM_BLOCKED_ELL_ALG1),
        SAME(TCS_SPMM_BSR_ALG1, CUSPARSE_SPMM_BSR_ALG1),
        SAME(TCS_SPMV_ALG_DEFAULT, CUSPARSE_SPMV_ALG_DEFAULT),
        SAME(TCS_SPMV_COO_ALG1, CUSPARSE_SPMV_COO_ALG1),
        SAME(TCS_SPMV_CSR_ALG1, CUSPARSE_SPMV_CSR_ALG1),
        SAME(TCS_SPMV_CSR_ALG2, CUSPARSE_SPMV_CSR_ALG2),
        SAME(TCS_SPMV_COO_ALG2, CUSPARSE_SPMV_COO_ALG2),
        SAME(TCS_SPMV_SELL_ALG1, CUSPARSE_SPMV_SELL_ALG1),
        SAME(TCS_SPMV_BSR_ALG1, CUSPARSE_SPMV_BSR_ALG1),
    };
    EXPECT_PAIRS(t);
    /* tcsparse's own algorithms start at 100, clear of any cuSPARSE value. */
    assert_true(TCS_SPGEMM_ALG_HASH >= 100 && TCS_SPGEMM_ALG_TILE >= 100 &&
                TCS_SPGEMM_ALG_TILE_TC >= 100);
    assert_true(TCS_SPMM_CSR_ROWSPLIT >= 100 && TCS_SPMM_CSR_MERGE >= 100 &&
                TCS_SPMM_BSR_TC >= 100);
}

/* An enum passed by value through a C ABI, or bound as a Fortran integer(c_int), must
 * have the size of int on both sides. */
static void test_sizes(void** state) {
    (void)state;
    const pair t[] = {
        SAME(sizeof(tcsStatus_t), sizeof(cusparseStatus_t)),
        SAME(sizeof(tcsPointerMode_t), sizeof(cusparsePointerMode_t)),
        SAME(sizeof(tcsOperation_t), sizeof(cusparseOperation_t)),
        SAME(sizeof(tcsIndexBase_t), sizeof(cusparseIndexBase_t)),
        SAME(sizeof(tcsIndexType_t), sizeof(cusparseIndexType_t)),
        SAME(sizeof(tcsOrder_t), sizeof(cusparseOrder_t)),
        SAME(sizeof(tcsFormat_t), sizeof(cusparseFormat_t)),
        SAME(sizeof(tcsSpGEMMAlg_t), sizeof(cusparseSpGEMMAlg_t)),
        SAME(sizeof(tcsSpMMAlg_t), sizeof(cusparseSpMMAlg_t)),
        SAME(sizeof(tcsSpMVAlg_t), sizeof(cusparseSpMVAlg_t)),
        SAME(sizeof(tcsMath_t), sizeof(cublasMath_t)),
        SAME(sizeof(tcsStatus_t), 4),
        SAME(sizeof(tcsPointerMode_t), 4),
        SAME(sizeof(tcsOperation_t), 4),
        SAME(sizeof(tcsIndexBase_t), 4),
        SAME(sizeof(tcsIndexType_t), 4),
        SAME(sizeof(tcsOrder_t), 4),
        SAME(sizeof(tcsFormat_t), 4),
        SAME(sizeof(tcsSpGEMMAlg_t), 4),
        SAME(sizeof(tcsSpMMAlg_t), 4),
        SAME(sizeof(tcsSpMVAlg_t), 4),
        SAME(sizeof(tcsMath_t), 4),
    };
    EXPECT_PAIRS(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status),
        cmocka_unit_test(test_modes_and_layouts),
        cmocka_unit_test(test_algorithms),
        cmocka_unit_test(test_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
