/* What a descriptor refuses when it is made (issue 38, items 5 and 6): COO, BSR and dense
 * matrices with a misaligned array, and sizes whose products (elements of a BSR matrix,
 * bytes of an array, a dense matrix's ld times its other dimension) pass int64. Each
 * refusal is INVALID_VALUE and writes no descriptor; the largest sizes that still fit
 * are accepted. Descriptors store pointers only, so fake, never dereferenced addresses
 * stand in for device arrays. Host only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tcsparse.h"
#include "tcst_status.h"

#define FAKE(addr) ((void*)(uintptr_t)(addr))
#define ROWS FAKE(0x10000)
#define COLS FAKE(0x20000)
#define VALS FAKE(0x30000)
#define POISON ((void*)(uintptr_t)0xDEAD0)

static const tcsIndexType_t kIndexTypes[] = {TCS_INDEX_32I, TCS_INDEX_64I};
static const size_t kIndexBytes[] = {4, 8};
static const cudaDataType kValueTypes[] = {CUDA_R_16F, CUDA_R_16BF, CUDA_R_32F, CUDA_R_64F};
static const size_t kValueBytes[] = {2, 2, 4, 8};

/* A creation's outcome: a descriptor made is destroyed, a refusal must not have written
 * one. Returns the status. */
static tcsStatus_t destroy_sparse(const void* d) { return tcsDestroySpMat((tcsConstSpMatDescr_t)d); }
static tcsStatus_t destroy_dense(const void* d) { return tcsDestroyDnMat((tcsConstDnMatDescr_t)d); }
static tcsStatus_t settle(tcsStatus_t st, const void* made, tcsStatus_t (*destroy)(const void*)) {
    if (st == TCS_STATUS_SUCCESS)
        assert_ok(destroy(made));
    else
        assert_ptr_equal(made, POISON);
    return st;
}

static void test_coo_misaligned(void** state) {
    (void)state;
    for (int i = 0; i < 2; ++i)
        for (int v = 0; v < 4; ++v)
            for (size_t off = 1; off < 8; ++off) {
                const void* row = ROWS;
                const void* col = COLS;
                const void* val = VALS;
                for (int which = 0; which < 3; ++which) {
                    const size_t bytes = which < 2 ? kIndexBytes[i] : kValueBytes[v];
                    void* shifted = FAKE(0x40000 + off);
                    tcsSpMatDescr_t d = POISON;
                    const tcsStatus_t st =
                        tcsCreateCoo(&d, 6, 9, 10, which == 0 ? shifted : (void*)row,
                                     which == 1 ? shifted : (void*)col,
                                     which == 2 ? shifted : (void*)val, kIndexTypes[i],
                                     TCS_INDEX_BASE_ZERO, kValueTypes[v]);
                    assert_status(settle(st, d, destroy_sparse),
                                  off % bytes == 0 ? TCS_STATUS_SUCCESS : TCS_STATUS_INVALID_VALUE);
                }
            }
}

static void test_bsr_misaligned(void** state) {
    (void)state;
    for (int i = 0; i < 2; ++i)
        for (int v = 0; v < 4; ++v)
            for (size_t off = 1; off < 8; ++off)
                for (int which = 0; which < 3; ++which) {
                    const size_t bytes = which < 2 ? kIndexBytes[i] : kValueBytes[v];
                    void* shifted = FAKE(0x40000 + off);
                    tcsSpMatDescr_t d = POISON;
                    const tcsStatus_t st = tcsCreateBsr(
                        &d, 4, 5, 7, 3, 2, which == 0 ? shifted : ROWS, which == 1 ? shifted : COLS,
                        which == 2 ? shifted : VALS, kIndexTypes[i], kIndexTypes[i],
                        TCS_INDEX_BASE_ZERO, kValueTypes[v], TCS_ORDER_ROW);
                    assert_status(settle(st, d, destroy_sparse),
                                  off % bytes == 0 ? TCS_STATUS_SUCCESS : TCS_STATUS_INVALID_VALUE);
                }
}

static tcsStatus_t make_bsr(int64_t brows, int64_t bcols, int64_t bnnz, int64_t rb, int64_t cb,
                            cudaDataType vt) {
    tcsSpMatDescr_t d = POISON;
    const tcsStatus_t st = tcsCreateBsr(&d, brows, bcols, bnnz, rb, cb, ROWS, COLS, VALS,
                                        TCS_INDEX_64I, TCS_INDEX_64I, TCS_INDEX_BASE_ZERO, vt,
                                        TCS_ORDER_COL);
    return settle(st, d, destroy_sparse);
}

static void test_bsr_sizes_that_wrap(void** state) {
    (void)state;
    const int64_t two62 = INT64_C(1) << 62, two32 = INT64_C(1) << 32;
    /* The cases: brows*rowBlockSize = 2^63 wraps, as do 2^32 x 2^32 blocks of
     * 2^32 x 2^32 elements. */
    assert_status(make_bsr(two62, 1, 0, 2, 1, CUDA_R_32F), TCS_STATUS_INVALID_VALUE);
    assert_status(make_bsr(1, two62, 0, 1, 2, CUDA_R_32F), TCS_STATUS_INVALID_VALUE);
    assert_status(make_bsr(1, 1, 1, two32, two32, CUDA_R_32F), TCS_STATUS_INVALID_VALUE);
    /* The block fits, the values of all blocks do not: 2^31 blocks of 2^15 x 2^15 fp32
     * elements are 2^63 bytes. */
    const int64_t two15 = INT64_C(1) << 15, two31 = INT64_C(1) << 31;
    assert_status(make_bsr(two31, two31, two31, two15, two15, CUDA_R_32F),
                  TCS_STATUS_INVALID_VALUE);
    /* Half as many bytes per element fits: 2^62 bytes of fp16. */
    assert_ok(make_bsr(two31, two31, two31, two15, two15, CUDA_R_16F));
    /* Near the edge: 2^60 - 2 block rows (2^63 - 8 bytes of 64-bit offsets) of 8 rows
     * fit int64, of 9 rows they do not; one block row more and the offsets do not. */
    const int64_t two60 = INT64_C(1) << 60;
    assert_ok(make_bsr(two60 - 2, 1, 0, 8, 1, CUDA_R_32F));
    assert_status(make_bsr(two60 - 2, 1, 0, 9, 1, CUDA_R_32F), TCS_STATUS_INVALID_VALUE);
    assert_status(make_bsr(two60 - 1, 1, 0, 1, 1, CUDA_R_32F), TCS_STATUS_INVALID_VALUE);
    /* Offsets of 2^62 block rows pass int64 in bytes, whatever the block size. */
    assert_status(make_bsr(two62, 1, 0, 1, 1, CUDA_R_32F), TCS_STATUS_INVALID_VALUE);
}

static tcsStatus_t make_dense(int64_t rows, int64_t cols, int64_t ld, const void* values,
                              cudaDataType vt, tcsOrder_t order) {
    tcsDnMatDescr_t d = POISON;
    const tcsStatus_t st = tcsCreateDnMat(&d, rows, cols, ld, (void*)values, vt, order);
    settle(st, d, destroy_dense);
    tcsConstDnMatDescr_t c = POISON;
    const tcsStatus_t const_st = tcsCreateConstDnMat(&c, rows, cols, ld, values, vt, order);
    assert_int_equal(settle(const_st, c, destroy_dense), st);
    return st;
}

static void test_dense_misaligned(void** state) {
    (void)state;
    for (int v = 0; v < 4; ++v)
        for (size_t off = 0; off < 8; ++off) {
            const tcsStatus_t want = off % kValueBytes[v] == 0 ? TCS_STATUS_SUCCESS
                                                              : TCS_STATUS_INVALID_VALUE;
            assert_status(make_dense(5, 3, 7, FAKE(0x40000 + off), kValueTypes[v], TCS_ORDER_COL),
                          want);
            tcsDnMatDescr_t d = NULL;
            assert_ok(tcsCreateDnMat(&d, 5, 3, 7, VALS, kValueTypes[v], TCS_ORDER_ROW));
            assert_status(tcsDnMatSetValues(d, FAKE(0x40000 + off)), want);
            void* now = NULL;
            assert_ok(tcsDnMatGetValues(d, &now));
            assert_ptr_equal(now, want == TCS_STATUS_SUCCESS ? FAKE(0x40000 + off) : VALS);
            assert_ok(tcsDestroyDnMat(d));
        }
}

static void test_dense_sizes_that_wrap(void** state) {
    (void)state;
    const int64_t two40 = INT64_C(1) << 40, two30 = INT64_C(1) << 30;
    /* The case, in both orders: 2^80 elements. */
    assert_status(make_dense(two40, two40, two40, VALS, CUDA_R_32F, TCS_ORDER_COL),
                  TCS_STATUS_INVALID_VALUE);
    assert_status(make_dense(two40, two40, two40, VALS, CUDA_R_32F, TCS_ORDER_ROW),
                  TCS_STATUS_INVALID_VALUE);
    /* ld*cols elements fit, their bytes do not: 2^60 fp64 elements are 2^63 bytes. */
    assert_status(make_dense(two30, two30, two30, VALS, CUDA_R_64F, TCS_ORDER_COL),
                  TCS_STATUS_INVALID_VALUE);
    assert_ok(make_dense(two30, two30, two30, VALS, CUDA_R_32F, TCS_ORDER_COL));
    /* ld counts, not rows: a thin matrix on a huge stride. */
    assert_status(make_dense(4, 1 << 20, INT64_C(1) << 43, VALS, CUDA_R_32F, TCS_ORDER_COL),
                  TCS_STATUS_INVALID_VALUE);
    assert_ok(make_dense(4, 1 << 20, INT64_C(1) << 40, VALS, CUDA_R_32F, TCS_ORDER_COL));
    /* An empty dimension multiplies to nothing. */
    assert_ok(make_dense(two40, 0, two40, NULL, CUDA_R_64F, TCS_ORDER_COL));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coo_misaligned),       cmocka_unit_test(test_bsr_misaligned),
        cmocka_unit_test(test_bsr_sizes_that_wrap),  cmocka_unit_test(test_dense_misaligned),
        cmocka_unit_test(test_dense_sizes_that_wrap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
