/* Host-only argument checks of tcsCheckMatrixCsr_bufferSize and tcsCheckMatrixCsr (the
 * GPU behaviour is tests/gpu_check_matrix.c): a NULL handle or descriptor, a non-CSR
 * descriptor and an out-of-range level get their documented statuses before any device
 * work, with or without a GPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tcs_test_support.h"
#include "tcsparse.h"
#include "tcst_status.h"

#define FAKE(addr) ((void*)(uintptr_t)(addr))

static void test_arguments(void** state) {
    (void)state;
    tcsHandle_t h = NULL;
    if (tcst_gpu_available()) assert_ok(tcsCreate(&h));
    tcsSpMatDescr_t csr = NULL, coo = NULL;
    assert_ok(tcsCreateCsr(&csr, 4, 5, 6, FAKE(0x10000), FAKE(0x20000), FAKE(0x30000),
                           TCS_INDEX_64I, TCS_INDEX_64I, TCS_INDEX_BASE_ONE, CUDA_R_16F));
    assert_ok(tcsCreateCoo(&coo, 4, 5, 6, FAKE(0x10000), FAKE(0x20000), FAKE(0x30000),
                           TCS_INDEX_32I, TCS_INDEX_BASE_ZERO, CUDA_R_32F));
    size_t bytes = 0;
    tcsDataStatus_t st;
    assert_status(tcsCheckMatrixCsr_bufferSize(NULL, csr, TCS_CHECK_STRUCTURE, &bytes),
                  TCS_STATUS_INVALID_VALUE);
    assert_status(tcsCheckMatrixCsr(NULL, csr, TCS_CHECK_STRUCTURE, &st, FAKE(0x40000)),
                  TCS_STATUS_INVALID_VALUE);
    if (h != NULL) {
        assert_status(tcsCheckMatrixCsr_bufferSize(h, NULL, TCS_CHECK_STRUCTURE, &bytes),
                      TCS_STATUS_INVALID_VALUE);
        assert_status(tcsCheckMatrixCsr_bufferSize(h, coo, TCS_CHECK_STRUCTURE, &bytes),
                      TCS_STATUS_NOT_SUPPORTED);
        assert_status(tcsCheckMatrixCsr_bufferSize(h, csr, (tcsMatrixCheck_t)3, &bytes),
                      TCS_STATUS_INVALID_VALUE);
        assert_status(tcsCheckMatrixCsr_bufferSize(h, csr, (tcsMatrixCheck_t)-1, &bytes),
                      TCS_STATUS_INVALID_VALUE);
        assert_status(tcsCheckMatrixCsr_bufferSize(h, csr, TCS_CHECK_STRUCTURE, NULL),
                      TCS_STATUS_INVALID_VALUE);
        assert_ok(tcsCheckMatrixCsr_bufferSize(h, csr, TCS_CHECK_STRUCTURE, &bytes));
        assert_true(bytes > 0);
        size_t unique = 0;
        assert_ok(tcsCheckMatrixCsr_bufferSize(h, csr, TCS_CHECK_UNIQUE, &unique));
        assert_true(unique > bytes); /* the sorted copy of the columns */
        assert_status(tcsCheckMatrixCsr(h, csr, TCS_CHECK_STRUCTURE, NULL, FAKE(0x40000)),
                      TCS_STATUS_INVALID_VALUE);
        assert_status(tcsCheckMatrixCsr(h, csr, TCS_CHECK_STRUCTURE, &st, NULL),
                      TCS_STATUS_INVALID_VALUE);
        assert_status(tcsCheckMatrixCsr(h, coo, TCS_CHECK_STRUCTURE, &st, FAKE(0x40000)),
                      TCS_STATUS_NOT_SUPPORTED);
    }
    assert_ok(tcsDestroySpMat(coo));
    assert_ok(tcsDestroySpMat(csr));
    assert_ok(tcsDestroy(h));
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_arguments)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
