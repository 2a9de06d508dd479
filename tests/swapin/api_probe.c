/*
 * Host checks of the cuSPARSE swap-in, written against the cuSPARSE names only. One
 * source, built for every route a user can take (tests/swapin.cmake):
 *   - with tcsparse_cusparse.h forced in first (C and C++), linked with tcsparse;
 *   - against the real <cusparse.h>, linked with libtcsparse_cusparse.so instead of
 *     libcusparse;
 *   - against the real <cusparse.h>, linked with the REAL libcusparse, and run with
 *     LD_PRELOAD=libtcsparse_cusparse.so: then every answer below proves that the call
 *     was interposed (the real library names its statuses "CUSPARSE_STATUS_*");
 *   - both shim routes again with TCS_CUSPARSE_LIBRARY naming no library, where the
 *     functions tcsparse does not implement answer NOT_SUPPORTED.
 * No GPU is needed: descriptors only store pointers, so fake aligned addresses that
 * are never dereferenced stand in for device arrays. With a GPU, the handle checks
 * run on a real handle.
 */
#include <cusparse.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#if defined(TCSPARSE_CUSPARSE_H_)
#  define SOURCE_ROUTE 1 /* the functions tcsparse lacks are not even declared */
#else
#  define SOURCE_ROUTE 0
#endif

#define FAKE(address) ((void*)(uintptr_t)(address))

/* Every status answered through cuSPARSE names must come from tcsparse. */
static void test_answers_come_from_tcsparse(void** state) {
    (void)state;
    assert_string_equal(cusparseGetErrorName(CUSPARSE_STATUS_SUCCESS), "TCS_STATUS_SUCCESS");
    assert_string_equal(cusparseGetErrorName(CUSPARSE_STATUS_INSUFFICIENT_RESOURCES),
                        "TCS_STATUS_INSUFFICIENT_RESOURCES");
    /* 12: outside the enum, yet inside its range, so the cast is valid C++ too */
    assert_string_equal(cusparseGetErrorName((cusparseStatus_t)12), "TCS_STATUS_UNKNOWN");
    for (int s = 0; s <= 11; ++s) {
        const char* text = cusparseGetErrorString((cusparseStatus_t)s);
        assert_non_null(text);
        assert_true(strlen(text) > 0);
    }
}

/* The version the caller compiled against is the one it is told at run time. */
static void test_version_and_properties(void** state) {
    (void)state;
    int version = 0;
    assert_int_equal(cusparseGetVersion(NULL, &version), CUSPARSE_STATUS_SUCCESS);
    assert_int_equal(version, CUSPARSE_VERSION);
    assert_true(version >= 11000); /* selects the generic-API paths of hypre and PETSc */
    assert_int_equal(cusparseGetVersion(NULL, NULL), CUSPARSE_STATUS_INVALID_VALUE);

    int value = -1;
    assert_int_equal(cusparseGetProperty(MAJOR_VERSION, &value), CUSPARSE_STATUS_SUCCESS);
    assert_int_equal(value, CUSPARSE_VER_MAJOR);
    assert_int_equal(cusparseGetProperty(MINOR_VERSION, &value), CUSPARSE_STATUS_SUCCESS);
    assert_int_equal(value, CUSPARSE_VER_MINOR);
    assert_int_equal(cusparseGetProperty(PATCH_LEVEL, &value), CUSPARSE_STATUS_SUCCESS);
    assert_int_equal(value, CUSPARSE_VER_PATCH);
    assert_int_equal(cusparseGetProperty((libraryPropertyType)3, &value),
                     CUSPARSE_STATUS_INVALID_VALUE);
    assert_int_equal(cusparseGetProperty(MAJOR_VERSION, NULL), CUSPARSE_STATUS_INVALID_VALUE);
}

static void test_handle(void** state) {
    (void)state;
    assert_int_equal(cusparseCreate(NULL), CUSPARSE_STATUS_INVALID_VALUE);
    assert_int_equal(cusparseSetStream(NULL, NULL), CUSPARSE_STATUS_INVALID_VALUE);
    cusparsePointerMode_t mode = CUSPARSE_POINTER_MODE_HOST;
    assert_int_equal(cusparseGetPointerMode(NULL, &mode), CUSPARSE_STATUS_INVALID_VALUE);
    assert_int_equal(cusparseDestroy(NULL), CUSPARSE_STATUS_SUCCESS);

    cusparseHandle_t handle = (cusparseHandle_t)FAKE(0x10);
    const cusparseStatus_t created = cusparseCreate(&handle);
    if (created == CUSPARSE_STATUS_NOT_INITIALIZED) { /* no GPU here */
        assert_null(handle);
        return;
    }
    assert_int_equal(created, CUSPARSE_STATUS_SUCCESS);
    cudaStream_t stream = (cudaStream_t)FAKE(0x20);
    assert_int_equal(cusparseGetStream(handle, &stream), CUSPARSE_STATUS_SUCCESS);
    assert_null(stream); /* the legacy default stream, as cuSPARSE */
    assert_int_equal(cusparseGetPointerMode(handle, &mode), CUSPARSE_STATUS_SUCCESS);
    assert_int_equal(mode, CUSPARSE_POINTER_MODE_HOST);
    assert_int_equal(cusparseSetPointerMode(handle, CUSPARSE_POINTER_MODE_DEVICE),
                     CUSPARSE_STATUS_SUCCESS);
    assert_int_equal(cusparseGetPointerMode(handle, &mode), CUSPARSE_STATUS_SUCCESS);
    assert_int_equal(mode, CUSPARSE_POINTER_MODE_DEVICE);
#if !defined(__cplusplus) /* C++ cannot even form this value */
    assert_int_equal(cusparseSetPointerMode(handle, (cusparsePointerMode_t)5),
                     CUSPARSE_STATUS_INVALID_VALUE);
#endif
    assert_int_equal(cusparseDestroy(handle), CUSPARSE_STATUS_SUCCESS);

    /* A stale handle, its address possibly reused by the next: NOT_INITIALIZED. */
    cusparseHandle_t fresh = NULL;
    assert_int_equal(cusparseCreate(&fresh), CUSPARSE_STATUS_SUCCESS);
    assert_int_equal(cusparseDestroy(handle), CUSPARSE_STATUS_NOT_INITIALIZED);
    assert_int_equal(cusparseGetPointerMode(handle, &mode), CUSPARSE_STATUS_NOT_INITIALIZED);
    assert_int_equal(cusparseGetPointerMode(fresh, &mode), CUSPARSE_STATUS_SUCCESS);
    assert_int_equal(mode, CUSPARSE_POINTER_MODE_HOST);
    assert_int_equal(cusparseDestroy(fresh), CUSPARSE_STATUS_SUCCESS);
    assert_int_equal(cusparseDestroy(fresh), CUSPARSE_STATUS_NOT_INITIALIZED);
}

static void test_csr_descriptor(void** state) {
    (void)state;
    cusparseSpMatDescr_t a = NULL;
    assert_int_equal(cusparseCreateCsr(NULL, 4, 5, 6, FAKE(0x1000), FAKE(0x2000), FAKE(0x3000),
                                       CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                       CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
                     CUSPARSE_STATUS_INVALID_VALUE);
    assert_int_equal(cusparseCreateCsr(&a, 4, 5, 6, FAKE(0x1000), FAKE(0x2000), FAKE(0x3000),
                                       CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                       CUSPARSE_INDEX_BASE_ONE, CUDA_R_64F),
                     CUSPARSE_STATUS_SUCCESS);
    assert_non_null(a);

    int64_t rows = 0, cols = 0, nnz = 0;
    void *offsets = NULL, *columns = NULL, *values = NULL;
    cusparseIndexType_t offsets_type = CUSPARSE_INDEX_16U, columns_type = CUSPARSE_INDEX_16U;
    cusparseIndexBase_t base = CUSPARSE_INDEX_BASE_ZERO;
    cudaDataType type = CUDA_R_32F;
    assert_int_equal(cusparseCsrGet(a, &rows, &cols, &nnz, &offsets, &columns, &values,
                                    &offsets_type, &columns_type, &base, &type),
                     CUSPARSE_STATUS_SUCCESS);
    assert_int_equal(rows, 4);
    assert_int_equal(cols, 5);
    assert_int_equal(nnz, 6);
    assert_ptr_equal(offsets, FAKE(0x1000));
    assert_ptr_equal(columns, FAKE(0x2000));
    assert_ptr_equal(values, FAKE(0x3000));
    assert_int_equal(offsets_type, CUSPARSE_INDEX_32I);
    assert_int_equal(columns_type, CUSPARSE_INDEX_32I);
    assert_int_equal(base, CUSPARSE_INDEX_BASE_ONE);
    assert_int_equal(type, CUDA_R_64F);
    assert_int_equal(cusparseCsrGet(a, &rows, &cols, &nnz, &offsets, &columns, &values,
                                    &offsets_type, NULL, &base, &type),
                     CUSPARSE_STATUS_INVALID_VALUE);

    cusparseFormat_t format = CUSPARSE_FORMAT_COO;
    assert_int_equal(cusparseSpMatGetFormat(a, &format), CUSPARSE_STATUS_SUCCESS);
    assert_int_equal(format, CUSPARSE_FORMAT_CSR);
    base = CUSPARSE_INDEX_BASE_ZERO;
    assert_int_equal(cusparseSpMatGetIndexBase(a, &base), CUSPARSE_STATUS_SUCCESS);
    assert_int_equal(base, CUSPARSE_INDEX_BASE_ONE);

    assert_int_equal(cusparseSpMatSetValues(a, FAKE(0x3800)), CUSPARSE_STATUS_SUCCESS);
    assert_int_equal(cusparseSpMatGetValues(a, &values), CUSPARSE_STATUS_SUCCESS);
    assert_ptr_equal(values, FAKE(0x3800));
    assert_int_equal(cusparseCsrSetPointers(a, FAKE(0x1100), FAKE(0x2100), FAKE(0x3100)),
                     CUSPARSE_STATUS_SUCCESS);
    assert_int_equal(cusparseCsrSetPointers(a, FAKE(0x1100), FAKE(0x2101), FAKE(0x3100)),
                     CUSPARSE_STATUS_INVALID_VALUE); /* misaligned column indices */
    assert_int_equal(cusparseCsrGet(a, &rows, &cols, &nnz, &offsets, &columns, &values,
                                    &offsets_type, &columns_type, &base, &type),
                     CUSPARSE_STATUS_SUCCESS);
    assert_ptr_equal(offsets, FAKE(0x1100));
    assert_ptr_equal(columns, FAKE(0x2100));
    assert_ptr_equal(values, FAKE(0x3100));
    assert_int_equal(cusparseDestroySpMat(a), CUSPARSE_STATUS_SUCCESS);
    assert_int_equal(cusparseDestroySpMat(NULL), CUSPARSE_STATUS_SUCCESS);
}

/* The SpGEMM output as PETSc and hypre create it: nnz 0, a caller row pointer, no
 * column or value array; and the inputs as const descriptors. */
static void test_spgemm_operands(void** state) {
    (void)state;
    cusparseSpMatDescr_t c = NULL;
    assert_int_equal(cusparseCreateCsr(&c, 7, 3, 0, FAKE(0x1000), NULL, NULL,
                                       CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                       CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
                     CUSPARSE_STATUS_SUCCESS);
    int64_t rows = 0, cols = 0, nnz = -1;
    assert_int_equal(cusparseSpMatGetSize(c, &rows, &cols, &nnz), CUSPARSE_STATUS_SUCCESS);
    assert_int_equal(rows, 7);
    assert_int_equal(cols, 3);
    assert_int_equal(nnz, 0);

    cusparseConstSpMatDescr_t a = NULL;
    assert_int_equal(cusparseCreateConstCsr(&a, 7, 5, 9, FAKE(0x1000), FAKE(0x2000),
                                            FAKE(0x3000), CUSPARSE_INDEX_32I,
                                            CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                            CUDA_R_32F),
                     CUSPARSE_STATUS_SUCCESS);
    assert_int_equal(cusparseSpMatGetSize(a, &rows, &cols, &nnz), CUSPARSE_STATUS_SUCCESS);
    assert_int_equal(nnz, 9);

    cusparseSpGEMMDescr_t d = NULL;
    assert_int_equal(cusparseSpGEMM_createDescr(&d), CUSPARSE_STATUS_SUCCESS);
    int64_t products = 0;
    assert_int_equal(cusparseSpGEMM_getNumProducts(d, &products),
                     CUSPARSE_STATUS_NOT_INITIALIZED);
    /* forwarded, not refused: a missing handle is an invalid argument */
    size_t size1 = 0;
    const float one = 1.0f, zero = 0.0f;
    assert_int_equal(cusparseSpGEMM_workEstimation(NULL, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                                   CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a,
                                                   a, &zero, c, CUDA_R_32F,
                                                   CUSPARSE_SPGEMM_DEFAULT, d, &size1, NULL),
                     CUSPARSE_STATUS_INVALID_VALUE);
    assert_int_equal(cusparseSpGEMM_destroyDescr(d), CUSPARSE_STATUS_SUCCESS);
    assert_int_equal(cusparseSpGEMM_destroyDescr(NULL), CUSPARSE_STATUS_SUCCESS);
    assert_int_equal(cusparseDestroySpMat(a), CUSPARSE_STATUS_SUCCESS);
    assert_int_equal(cusparseDestroySpMat(c), CUSPARSE_STATUS_SUCCESS);
}

static void test_dense_descriptor(void** state) {
    (void)state;
    cusparseDnMatDescr_t b = NULL;
    assert_int_equal(cusparseCreateDnMat(&b, 6, 3, 8, FAKE(0x4000), CUDA_R_64F,
                                         CUSPARSE_ORDER_ROW),
                     CUSPARSE_STATUS_SUCCESS);
    int64_t rows = 0, cols = 0, ld = 0;
    void* values = NULL;
    cudaDataType type = CUDA_R_32F;
    cusparseOrder_t order = CUSPARSE_ORDER_COL;
    assert_int_equal(cusparseDnMatGet(b, &rows, &cols, &ld, &values, &type, &order),
                     CUSPARSE_STATUS_SUCCESS);
    assert_int_equal(rows, 6);
    assert_int_equal(cols, 3);
    assert_int_equal(ld, 8);
    assert_ptr_equal(values, FAKE(0x4000));
    assert_int_equal(type, CUDA_R_64F);
    assert_int_equal(order, CUSPARSE_ORDER_ROW);
    assert_int_equal(cusparseDnMatSetValues(b, FAKE(0x4800)), CUSPARSE_STATUS_SUCCESS);
    assert_int_equal(cusparseDnMatGetValues(b, &values), CUSPARSE_STATUS_SUCCESS);
    assert_ptr_equal(values, FAKE(0x4800));
    assert_int_equal(cusparseDestroyDnMat(b), CUSPARSE_STATUS_SUCCESS);

    cusparseConstDnMatDescr_t x = NULL;
    assert_int_equal(cusparseCreateConstDnMat(&x, 6, 3, 2, FAKE(0x4000), CUDA_R_32F,
                                              CUSPARSE_ORDER_COL),
                     CUSPARSE_STATUS_INVALID_VALUE); /* ld < rows in column-major */
    assert_int_equal(cusparseCreateConstDnMat(&x, 6, 3, 6, FAKE(0x4000), CUDA_R_32F,
                                              CUSPARSE_ORDER_COL),
                     CUSPARSE_STATUS_SUCCESS);
    assert_int_equal(cusparseDestroyDnMat(x), CUSPARSE_STATUS_SUCCESS);
}

/* Stale handles: destroyed, then another object of the kind made (glibc hands it the
 * freed address), then the stale one destroyed and used again: NOT_INITIALIZED, nothing
 * freed twice, the new object intact. Through the shim these are the shim's objects;
 * through the header, tcsparse's. */
static void test_stale_descriptors(void** state) {
    (void)state;
    for (int round = 0; round < 32; ++round) {
        int64_t rows = 0, cols = 0, nnz = 0;
        cusparseSpMatDescr_t stale_a = NULL, fresh_a = NULL;
        assert_int_equal(cusparseCreateCsr(&stale_a, 4, 4, 2, FAKE(0x1000), FAKE(0x2000),
                                           FAKE(0x3000), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                           CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
                         CUSPARSE_STATUS_SUCCESS);
        assert_int_equal(cusparseDestroySpMat(stale_a), CUSPARSE_STATUS_SUCCESS);
        assert_int_equal(cusparseCreateCsr(&fresh_a, 6, 4, 3, FAKE(0x1000), FAKE(0x2000),
                                           FAKE(0x3000), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                           CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
                         CUSPARSE_STATUS_SUCCESS);
        assert_int_equal(cusparseDestroySpMat(stale_a), CUSPARSE_STATUS_NOT_INITIALIZED);
        assert_int_equal(cusparseSpMatGetSize(stale_a, &rows, &cols, &nnz),
                         CUSPARSE_STATUS_NOT_INITIALIZED);
        assert_int_equal(cusparseSpMatGetSize(fresh_a, &rows, &cols, &nnz), CUSPARSE_STATUS_SUCCESS);
        assert_int_equal(rows, 6);
        assert_int_equal(nnz, 3);

        cusparseDnMatDescr_t stale_b = NULL, fresh_b = NULL;
        assert_int_equal(cusparseCreateDnMat(&stale_b, 4, 2, 4, FAKE(0x4000), CUDA_R_32F,
                                             CUSPARSE_ORDER_COL),
                         CUSPARSE_STATUS_SUCCESS);
        assert_int_equal(cusparseDestroyDnMat(stale_b), CUSPARSE_STATUS_SUCCESS);
        assert_int_equal(cusparseCreateDnMat(&fresh_b, 6, 2, 6, FAKE(0x4000), CUDA_R_32F,
                                             CUSPARSE_ORDER_COL),
                         CUSPARSE_STATUS_SUCCESS);
        assert_int_equal(cusparseDestroyDnMat(stale_b), CUSPARSE_STATUS_NOT_INITIALIZED);
        void* values = NULL;
        assert_int_equal(cusparseDnMatGetValues(stale_b, &values), CUSPARSE_STATUS_NOT_INITIALIZED);
        assert_int_equal(cusparseDnMatSetValues(fresh_b, FAKE(0x4800)), CUSPARSE_STATUS_SUCCESS);
        assert_int_equal(cusparseDnMatGetValues(fresh_b, &values), CUSPARSE_STATUS_SUCCESS);
        assert_ptr_equal(values, FAKE(0x4800));

        cusparseDnVecDescr_t stale_x = NULL, fresh_x = NULL;
        assert_int_equal(cusparseCreateDnVec(&stale_x, 4, FAKE(0x5000), CUDA_R_32F),
                         CUSPARSE_STATUS_SUCCESS);
        assert_int_equal(cusparseDestroyDnVec(stale_x), CUSPARSE_STATUS_SUCCESS);
        assert_int_equal(cusparseCreateDnVec(&fresh_x, 9, FAKE(0x5000), CUDA_R_32F),
                         CUSPARSE_STATUS_SUCCESS);
        assert_int_equal(cusparseDestroyDnVec(stale_x), CUSPARSE_STATUS_NOT_INITIALIZED);
        assert_int_equal(cusparseDnVecGetValues(stale_x, &values), CUSPARSE_STATUS_NOT_INITIALIZED);
        assert_int_equal(cusparseDnVecGetValues(fresh_x, &values), CUSPARSE_STATUS_SUCCESS);
        assert_ptr_equal(values, FAKE(0x5000));

        cusparseSpGEMMDescr_t stale_d = NULL, fresh_d = NULL;
        assert_int_equal(cusparseSpGEMM_createDescr(&stale_d), CUSPARSE_STATUS_SUCCESS);
        assert_int_equal(cusparseSpGEMM_destroyDescr(stale_d), CUSPARSE_STATUS_SUCCESS);
        assert_int_equal(cusparseSpGEMM_createDescr(&fresh_d), CUSPARSE_STATUS_SUCCESS);
        assert_int_equal(cusparseSpGEMM_destroyDescr(stale_d), CUSPARSE_STATUS_NOT_INITIALIZED);

        assert_int_equal(cusparseSpGEMM_destroyDescr(fresh_d), CUSPARSE_STATUS_SUCCESS);
        assert_int_equal(cusparseSpGEMM_destroyDescr(fresh_d), CUSPARSE_STATUS_NOT_INITIALIZED);
        assert_int_equal(cusparseDestroyDnVec(fresh_x), CUSPARSE_STATUS_SUCCESS);
        assert_int_equal(cusparseDestroyDnVec(fresh_x), CUSPARSE_STATUS_NOT_INITIALIZED);
        assert_int_equal(cusparseDestroyDnMat(fresh_b), CUSPARSE_STATUS_SUCCESS);
        assert_int_equal(cusparseDestroyDnMat(fresh_b), CUSPARSE_STATUS_NOT_INITIALIZED);
        assert_int_equal(cusparseDestroySpMat(fresh_a), CUSPARSE_STATUS_SUCCESS);
        assert_int_equal(cusparseDestroySpMat(fresh_a), CUSPARSE_STATUS_NOT_INITIALIZED);
    }
}

#if !SOURCE_ROUTE
/* Through the shim, what tcsparse does not implement goes to the real cuSPARSE, on the
 * shim's own objects; with TCS_PROBE_NO_CUSPARSE=1 the test runs with
 * TCS_CUSPARSE_LIBRARY naming no library, and the same calls return NOT_SUPPORTED.
 * Descriptor calls need no GPU, in either library. */
static int real_cusparse_expected(void) {
    const char* absent = getenv("TCS_PROBE_NO_CUSPARSE");
    return absent == NULL || strcmp(absent, "1") != 0;
}

static void test_forwarded_to_cusparse(void** state) {
    (void)state;
    const int real = real_cusparse_expected();
    const cusparseStatus_t forwarded = real ? CUSPARSE_STATUS_SUCCESS : CUSPARSE_STATUS_NOT_SUPPORTED;

    /* COO and CSC: cuSPARSE's objects behind the shim's */
    cusparseSpMatDescr_t coo = NULL;
    assert_int_equal(cusparseCreateCoo(&coo, 4, 4, 2, FAKE(0x1000), FAKE(0x2000), FAKE(0x3000),
                                       CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                       CUDA_R_32F),
                     forwarded);
    if (real) {
        cusparseFormat_t format = CUSPARSE_FORMAT_CSR;
        assert_int_equal(cusparseSpMatGetFormat(coo, &format), CUSPARSE_STATUS_SUCCESS);
        assert_int_equal(format, CUSPARSE_FORMAT_COO);
        int64_t rows = 0, cols = 0, nnz = 0;
        assert_int_equal(cusparseSpMatGetSize(coo, &rows, &cols, &nnz), CUSPARSE_STATUS_SUCCESS);
        assert_true(rows == 4 && cols == 4 && nnz == 2);
        void *ri = NULL, *ci = NULL, *val = NULL;
        cusparseIndexType_t it = CUSPARSE_INDEX_16U;
        cusparseIndexBase_t base = CUSPARSE_INDEX_BASE_ONE;
        cudaDataType type = CUDA_R_64F;
        assert_int_equal(cusparseCooGet(coo, &rows, &cols, &nnz, &ri, &ci, &val, &it, &base, &type),
                         CUSPARSE_STATUS_SUCCESS);
        assert_ptr_equal(ci, FAKE(0x2000));
        assert_int_equal(cusparseDestroySpMat(coo), CUSPARSE_STATUS_SUCCESS);
    }
    cusparseSpMatDescr_t csc = NULL;
    assert_int_equal(cusparseCreateCsc(&csc, 4, 4, 2, FAKE(0x1000), FAKE(0x2000), FAKE(0x3000),
                                       CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                       CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
                     forwarded);
    if (real) assert_int_equal(cusparseDestroySpMat(csc), CUSPARSE_STATUS_SUCCESS);

    /* A CSR matrix of tcsparse's: an attribute set and read through cuSPARSE's side,
     * which the shim makes from the same pointers; the shim's fields still answer. */
    cusparseSpMatDescr_t a = NULL;
    assert_int_equal(cusparseCreateCsr(&a, 4, 4, 2, FAKE(0x1000), FAKE(0x2000), FAKE(0x3000),
                                       CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                       CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
                     CUSPARSE_STATUS_SUCCESS);
    cusparseFillMode_t fill = CUSPARSE_FILL_MODE_UPPER;
    assert_int_equal(cusparseSpMatSetAttribute(a, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill),
                     forwarded);
    fill = CUSPARSE_FILL_MODE_LOWER;
    assert_int_equal(cusparseSpMatGetAttribute(a, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill),
                     forwarded);
    if (real) assert_int_equal(fill, CUSPARSE_FILL_MODE_UPPER);
    /* new arrays reach cuSPARSE's side before its next call */
    assert_int_equal(cusparseCsrSetPointers(a, FAKE(0x1100), FAKE(0x2100), FAKE(0x3100)),
                     CUSPARSE_STATUS_SUCCESS);
    if (real) {
        const void *rp = NULL, *ci = NULL, *val = NULL;
        int64_t rows = 0, cols = 0, nnz = 0;
        cusparseIndexType_t rpt, cit;
        cusparseIndexBase_t base;
        cudaDataType type;
        /* ConstCsrGet is kept by the shim; CooGet on a CSR matrix is cuSPARSE's to refuse */
        assert_int_equal(cusparseConstCsrGet(a, &rows, &cols, &nnz, &rp, &ci, &val, &rpt, &cit,
                                             &base, &type),
                         CUSPARSE_STATUS_SUCCESS);
        assert_ptr_equal(ci, FAKE(0x2100));
        int batches = 0;
        assert_int_equal(cusparseSpMatGetStridedBatch(a, &batches), CUSPARSE_STATUS_SUCCESS);
        assert_int_equal(batches, 1);
    }

    /* A dense vector of tcsparse's, and one of a type only cuSPARSE has. */
    cusparseDnVecDescr_t x = NULL, z = NULL;
    assert_int_equal(cusparseCreateDnVec(&x, 4, FAKE(0x4000), CUDA_R_32F), CUSPARSE_STATUS_SUCCESS);
    int64_t size = 0;
    void* values = NULL;
    cudaDataType type = CUDA_R_64F;
    assert_int_equal(cusparseDnVecGet(x, &size, &values, &type), CUSPARSE_STATUS_SUCCESS);
    assert_true(size == 4 && values == FAKE(0x4000) && type == CUDA_R_32F);
    assert_int_equal(cusparseCreateDnVec(&z, 4, FAKE(0x4000), CUDA_C_64F), forwarded);
    if (real) {
        assert_int_equal(cusparseDnVecGet(z, &size, &values, &type), CUSPARSE_STATUS_SUCCESS);
        assert_int_equal(type, CUDA_C_64F);
        assert_int_equal(cusparseDestroyDnVec(z), CUSPARSE_STATUS_SUCCESS);
    }

    /* accelerated calls keep tcsparse's checks: no handle is an invalid argument */
    const float one = 1.0f;
    assert_int_equal(cusparseSpMV(NULL, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, x, &one, x,
                                  CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, NULL),
                     CUSPARSE_STATUS_INVALID_VALUE);
    size_t bytes = 0;
    assert_int_equal(cusparseSpGEMMreuse_workEstimation(
                         NULL, CUSPARSE_OPERATION_NON_TRANSPOSE,
                         CUSPARSE_OPERATION_NON_TRANSPOSE, a, a, a, CUSPARSE_SPGEMM_DEFAULT,
                         NULL, &bytes, NULL),
                     CUSPARSE_STATUS_INVALID_VALUE);

    /* the legacy API, which touches no shim object */
    cusparseMatDescr_t legacy = NULL;
    assert_int_equal(cusparseCreateMatDescr(&legacy), forwarded);
    if (real) {
        assert_int_equal(cusparseSetMatIndexBase(legacy, CUSPARSE_INDEX_BASE_ONE), CUSPARSE_STATUS_SUCCESS);
        assert_int_equal(cusparseGetMatIndexBase(legacy), CUSPARSE_INDEX_BASE_ONE);
        assert_int_equal(cusparseDestroyMatDescr(legacy), CUSPARSE_STATUS_SUCCESS);
    }
    assert_int_equal(cusparseDestroyDnVec(x), CUSPARSE_STATUS_SUCCESS);
    assert_int_equal(cusparseDestroySpMat(a), CUSPARSE_STATUS_SUCCESS);
}
#endif

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_answers_come_from_tcsparse),
        cmocka_unit_test(test_version_and_properties),
        cmocka_unit_test(test_handle),
        cmocka_unit_test(test_csr_descriptor),
        cmocka_unit_test(test_spgemm_operands),
        cmocka_unit_test(test_dense_descriptor),
        cmocka_unit_test(test_stale_descriptors),
#if !SOURCE_ROUTE
        cmocka_unit_test(test_forwarded_to_cusparse),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
