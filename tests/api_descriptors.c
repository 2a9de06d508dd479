/* Descriptor round trips through the public API, on the host: what is created is what
 * the getters return, setters check alignment and NULL rules, const descriptors
 * refuse writes, destroy accepts NULL. Descriptors store pointers only, so fake,
 * aligned, never dereferenced addresses stand in for device arrays. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tcsparse.h"
#include "tcst_status.h"

#define FAKE(addr) ((void*)(uintptr_t)(addr))
#define RP FAKE(0x10000)
#define CI FAKE(0x20000)
#define VAL FAKE(0x30000)

static void test_csr_round_trip(void** state) {
    (void)state;
    tcsSpMatDescr_t d = NULL;
    assert_ok(tcsCreateCsr(&d, 5, 7, 12, RP, CI, VAL, TCS_INDEX_64I, TCS_INDEX_64I,
                           TCS_INDEX_BASE_ONE, CUDA_R_64F));
    assert_non_null(d);
    int64_t rows = 0, cols = 0, nnz = 0;
    void *rp = NULL, *ci = NULL, *val = NULL;
    tcsIndexType_t rpt = TCS_INDEX_16U, cit = TCS_INDEX_16U;
    tcsIndexBase_t base = TCS_INDEX_BASE_ZERO;
    cudaDataType vt = CUDA_R_32F;
    assert_ok(tcsCsrGet(d, &rows, &cols, &nnz, &rp, &ci, &val, &rpt, &cit, &base, &vt));
    assert_int_equal(rows, 5);
    assert_int_equal(cols, 7);
    assert_int_equal(nnz, 12);
    assert_ptr_equal(rp, RP);
    assert_ptr_equal(ci, CI);
    assert_ptr_equal(val, VAL);
    assert_int_equal(rpt, TCS_INDEX_64I);
    assert_int_equal(cit, TCS_INDEX_64I);
    assert_int_equal(base, TCS_INDEX_BASE_ONE);
    assert_int_equal(vt, CUDA_R_64F);

    rows = cols = nnz = -1;
    assert_ok(tcsSpMatGetSize(d, &rows, &cols, &nnz));
    assert_int_equal(rows, 5);
    assert_int_equal(cols, 7);
    assert_int_equal(nnz, 12);
    tcsFormat_t format = TCS_FORMAT_COO;
    assert_ok(tcsSpMatGetFormat(d, &format));
    assert_int_equal(format, TCS_FORMAT_CSR);
    base = TCS_INDEX_BASE_ZERO;
    assert_ok(tcsSpMatGetIndexBase(d, &base));
    assert_int_equal(base, TCS_INDEX_BASE_ONE);

    /* Values: set, get. */
    assert_ok(tcsSpMatSetValues(d, FAKE(0x40000)));
    val = NULL;
    assert_ok(tcsSpMatGetValues(d, &val));
    assert_ptr_equal(val, FAKE(0x40000));
    assert_status(tcsSpMatSetValues(d, NULL), TCS_STATUS_INVALID_VALUE); /* nnz > 0 */
    assert_status(tcsSpMatSetValues(d, FAKE(0x40004)), TCS_STATUS_INVALID_VALUE); /* fp64 */
    val = NULL;
    assert_ok(tcsSpMatGetValues(d, &val));
    assert_ptr_equal(val, FAKE(0x40000)); /* the rejected calls changed nothing */

    /* The const view of the same descriptor works for the read-only queries. */
    tcsConstSpMatDescr_t cd = d;
    assert_ok(tcsSpMatGetSize(cd, &rows, &cols, &nnz));
    assert_ok(tcsDestroySpMat(d));
}

/* Offsets and columns of one width, as cuSPARSE 12.6 takes them: different widths are
 * refused when the descriptor is made (NOT_SUPPORTED, CSR and BSR, const or not), 16U
 * for both is made (the products refuse it). */
static void test_index_widths(void** state) {
    (void)state;
    static const tcsIndexType_t types[] = {TCS_INDEX_16U, TCS_INDEX_32I, TCS_INDEX_64I};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            const tcsStatus_t want = i == j ? TCS_STATUS_SUCCESS : TCS_STATUS_NOT_SUPPORTED;
            tcsSpMatDescr_t d = NULL;
            tcsConstSpMatDescr_t cd = NULL;
            assert_status(tcsCreateCsr(&d, 4, 4, 6, RP, CI, VAL, types[i], types[j],
                                       TCS_INDEX_BASE_ZERO, CUDA_R_32F),
                          want);
            assert_status(tcsCreateConstCsr(&cd, 4, 4, 6, RP, CI, VAL, types[i], types[j],
                                            TCS_INDEX_BASE_ZERO, CUDA_R_32F),
                          want);
            if (i == j) {
                assert_ok(tcsDestroySpMat(d));
                assert_ok(tcsDestroySpMat(cd));
            } else {
                assert_null(d);
                assert_null(cd);
            }
            d = NULL;
            assert_status(tcsCreateBsr(&d, 4, 4, 6, 2, 2, RP, CI, VAL, types[i], types[j],
                                       TCS_INDEX_BASE_ZERO, CUDA_R_32F, TCS_ORDER_ROW),
                          want);
            if (i == j) assert_ok(tcsDestroySpMat(d));
        }
}

static void test_csr_set_pointers(void** state) {
    (void)state;
    tcsSpMatDescr_t d = NULL;
    assert_ok(tcsCreateCsr(&d, 4, 4, 6, RP, CI, VAL, TCS_INDEX_64I, TCS_INDEX_64I,
                           TCS_INDEX_BASE_ZERO, CUDA_R_32F));
    assert_ok(tcsCsrSetPointers(d, FAKE(0x50008), FAKE(0x60008), FAKE(0x70004)));
    int64_t rows, cols, nnz;
    void *rp, *ci, *val;
    tcsIndexType_t rpt, cit;
    tcsIndexBase_t base;
    cudaDataType vt;
    assert_ok(tcsCsrGet(d, &rows, &cols, &nnz, &rp, &ci, &val, &rpt, &cit, &base, &vt));
    assert_ptr_equal(rp, FAKE(0x50008));
    assert_ptr_equal(ci, FAKE(0x60008));
    assert_ptr_equal(val, FAKE(0x70004));

    /* Alignment to each array's own type: 64-bit offsets and columns, fp32 values. */
    assert_status(tcsCsrSetPointers(d, FAKE(0x50004), CI, VAL), TCS_STATUS_INVALID_VALUE);
    assert_status(tcsCsrSetPointers(d, RP, FAKE(0x60004), VAL), TCS_STATUS_INVALID_VALUE);
    assert_status(tcsCsrSetPointers(d, RP, CI, FAKE(0x70002)), TCS_STATUS_INVALID_VALUE);
    /* NULL: offsets with rows > 0, columns or values with nnz > 0. */
    assert_status(tcsCsrSetPointers(d, NULL, CI, VAL), TCS_STATUS_INVALID_VALUE);
    assert_status(tcsCsrSetPointers(d, RP, NULL, VAL), TCS_STATUS_INVALID_VALUE);
    assert_status(tcsCsrSetPointers(d, RP, CI, NULL), TCS_STATUS_INVALID_VALUE);
    assert_status(tcsCsrSetPointers(NULL, RP, CI, VAL), TCS_STATUS_INVALID_VALUE);
    /* Nothing changed. */
    assert_ok(tcsCsrGet(d, &rows, &cols, &nnz, &rp, &ci, &val, &rpt, &cit, &base, &vt));
    assert_ptr_equal(rp, FAKE(0x50008));
    assert_ptr_equal(ci, FAKE(0x60008));
    assert_ptr_equal(val, FAKE(0x70004));
    assert_ok(tcsDestroySpMat(d));

    /* fp16 values need 2-byte alignment only. */
    assert_ok(tcsCreateCsr(&d, 4, 4, 6, RP, CI, VAL, TCS_INDEX_32I, TCS_INDEX_32I,
                           TCS_INDEX_BASE_ZERO, CUDA_R_16F));
    assert_ok(tcsCsrSetPointers(d, RP, CI, FAKE(0x70002)));
    assert_status(tcsCsrSetPointers(d, RP, CI, FAKE(0x70001)), TCS_STATUS_INVALID_VALUE);
    assert_ok(tcsDestroySpMat(d));
}

/* The output C of SpGEMM: nnz 0, NULL columns and values, with or without offsets. */
static void test_empty_output_matrix(void** state) {
    (void)state;
    tcsSpMatDescr_t c = NULL;
    assert_ok(tcsCreateCsr(&c, 100, 80, 0, RP, NULL, NULL, TCS_INDEX_32I, TCS_INDEX_32I,
                           TCS_INDEX_BASE_ZERO, CUDA_R_32F));
    int64_t rows, cols, nnz = -1;
    assert_ok(tcsSpMatGetSize(c, &rows, &cols, &nnz));
    assert_int_equal(nnz, 0);
    void* val = VAL;
    assert_ok(tcsSpMatGetValues(c, &val));
    assert_null(val);
    assert_ok(tcsSpMatSetValues(c, NULL)); /* allowed while nnz is 0 */
    /* The usual sequence after compute: the offsets stay, columns and values arrive;
     * with nnz 0 they may stay NULL. */
    assert_ok(tcsCsrSetPointers(c, RP, NULL, NULL));
    assert_ok(tcsCsrSetPointers(c, RP, CI, VAL));
    assert_ok(tcsDestroySpMat(c));

    assert_ok(tcsCreateCsr(&c, 100, 80, 0, NULL, NULL, NULL, TCS_INDEX_32I, TCS_INDEX_32I,
                           TCS_INDEX_BASE_ONE, CUDA_R_64F));
    assert_ok(tcsDestroySpMat(c));
    /* A 0 x 0 matrix needs no array at all. */
    assert_ok(tcsCreateCsr(&c, 0, 0, 0, NULL, NULL, NULL, TCS_INDEX_32I, TCS_INDEX_32I,
                           TCS_INDEX_BASE_ZERO, CUDA_R_32F));
    assert_ok(tcsCsrSetPointers(c, NULL, NULL, NULL));
    assert_ok(tcsDestroySpMat(c));
}

static void test_const_csr_refuses_writes(void** state) {
    (void)state;
    tcsConstSpMatDescr_t d = NULL;
    assert_ok(tcsCreateConstCsr(&d, 3, 3, 4, RP, CI, VAL, TCS_INDEX_32I, TCS_INDEX_32I,
                                TCS_INDEX_BASE_ZERO, CUDA_R_32F));
    int64_t rows = 0, cols = 0, nnz = 0;
    assert_ok(tcsSpMatGetSize(d, &rows, &cols, &nnz));
    assert_int_equal(rows, 3);
    assert_int_equal(nnz, 4);
    tcsFormat_t format;
    assert_ok(tcsSpMatGetFormat(d, &format));
    assert_int_equal(format, TCS_FORMAT_CSR);
    tcsIndexBase_t base;
    assert_ok(tcsSpMatGetIndexBase(d, &base));
    assert_int_equal(base, TCS_INDEX_BASE_ZERO);

    /* A caller that casts const away still cannot write or get writable pointers. */
    tcsSpMatDescr_t w = (tcsSpMatDescr_t)(uintptr_t)d;
    void* val = NULL;
    void *rp, *ci;
    tcsIndexType_t rpt, cit;
    cudaDataType vt;
    assert_status(tcsSpMatGetValues(w, &val), TCS_STATUS_INVALID_VALUE);
    assert_null(val);
    assert_status(tcsSpMatSetValues(w, FAKE(0x40000)), TCS_STATUS_INVALID_VALUE);
    assert_status(tcsCsrGet(w, &rows, &cols, &nnz, &rp, &ci, &val, &rpt, &cit, &base, &vt),
                  TCS_STATUS_INVALID_VALUE);
    assert_status(tcsCsrSetPointers(w, RP, CI, VAL), TCS_STATUS_INVALID_VALUE);
    assert_ok(tcsDestroySpMat(d));
}

static void test_coo_and_bsr(void** state) {
    (void)state;
    tcsSpMatDescr_t coo = NULL, bsr = NULL;
    assert_ok(tcsCreateCoo(&coo, 6, 9, 10, RP, CI, VAL, TCS_INDEX_64I, TCS_INDEX_BASE_ONE,
                           CUDA_R_16BF));
    int64_t rows, cols, nnz;
    assert_ok(tcsSpMatGetSize(coo, &rows, &cols, &nnz));
    assert_int_equal(rows, 6);
    assert_int_equal(cols, 9);
    assert_int_equal(nnz, 10);
    tcsFormat_t format = TCS_FORMAT_CSR;
    assert_ok(tcsSpMatGetFormat(coo, &format));
    assert_int_equal(format, TCS_FORMAT_COO);
    tcsIndexBase_t base;
    assert_ok(tcsSpMatGetIndexBase(coo, &base));
    assert_int_equal(base, TCS_INDEX_BASE_ONE);
    void* val = NULL;
    assert_ok(tcsSpMatGetValues(coo, &val));
    assert_ptr_equal(val, VAL);
    /* CSR-only calls refuse a COO descriptor. */
    void *rp, *ci;
    tcsIndexType_t rpt, cit;
    cudaDataType vt;
    assert_status(tcsCsrGet(coo, &rows, &cols, &nnz, &rp, &ci, &val, &rpt, &cit, &base, &vt),
                  TCS_STATUS_INVALID_VALUE);
    assert_status(tcsCsrSetPointers(coo, RP, CI, VAL), TCS_STATUS_INVALID_VALUE);

    /* BSR sizes are in blocks. */
    assert_ok(tcsCreateBsr(&bsr, 4, 5, 7, 3, 2, RP, CI, VAL, TCS_INDEX_32I, TCS_INDEX_32I,
                           TCS_INDEX_BASE_ZERO, CUDA_R_32F, TCS_ORDER_ROW));
    assert_ok(tcsSpMatGetSize(bsr, &rows, &cols, &nnz));
    assert_int_equal(rows, 4);
    assert_int_equal(cols, 5);
    assert_int_equal(nnz, 7);
    assert_ok(tcsSpMatGetFormat(bsr, &format));
    assert_int_equal(format, TCS_FORMAT_BSR);
    assert_status(tcsCsrSetPointers(bsr, RP, CI, VAL), TCS_STATUS_INVALID_VALUE);
    assert_ok(tcsSpMatSetValues(bsr, FAKE(0x80000)));
    assert_ok(tcsSpMatGetValues(bsr, &val));
    assert_ptr_equal(val, FAKE(0x80000));

    assert_ok(tcsDestroySpMat(coo));
    assert_ok(tcsDestroySpMat(bsr));
}

static void test_dense_round_trip(void** state) {
    (void)state;
    tcsDnMatDescr_t d = NULL;
    assert_ok(tcsCreateDnMat(&d, 10, 3, 12, VAL, CUDA_R_64F, TCS_ORDER_COL));
    int64_t rows = 0, cols = 0, ld = 0;
    void* val = NULL;
    cudaDataType vt = CUDA_R_32F;
    tcsOrder_t order = TCS_ORDER_ROW;
    assert_ok(tcsDnMatGet(d, &rows, &cols, &ld, &val, &vt, &order));
    assert_int_equal(rows, 10);
    assert_int_equal(cols, 3);
    assert_int_equal(ld, 12);
    assert_ptr_equal(val, VAL);
    assert_int_equal(vt, CUDA_R_64F);
    assert_int_equal(order, TCS_ORDER_COL);
    assert_ok(tcsDnMatSetValues(d, FAKE(0x90000)));
    assert_ok(tcsDnMatGetValues(d, &val));
    assert_ptr_equal(val, FAKE(0x90000));
    assert_status(tcsDnMatSetValues(d, NULL), TCS_STATUS_INVALID_VALUE); /* non-empty */
    assert_ok(tcsDnMatGetValues(d, &val));
    assert_ptr_equal(val, FAKE(0x90000));
    assert_ok(tcsDestroyDnMat(d));

    /* The leading dimension bounds the stored dimension: rows for column-major,
     * columns for row-major. */
    assert_ok(tcsCreateDnMat(&d, 10, 3, 3, VAL, CUDA_R_32F, TCS_ORDER_ROW));
    assert_ok(tcsDnMatGet(d, &rows, &cols, &ld, &val, &vt, &order));
    assert_int_equal(order, TCS_ORDER_ROW);
    assert_int_equal(ld, 3);
    assert_ok(tcsDestroyDnMat(d));
    d = FAKE(0x1230);
    assert_status(tcsCreateDnMat(&d, 10, 3, 9, VAL, CUDA_R_32F, TCS_ORDER_COL),
                  TCS_STATUS_INVALID_VALUE);
    assert_status(tcsCreateDnMat(&d, 10, 3, 2, VAL, CUDA_R_32F, TCS_ORDER_ROW),
                  TCS_STATUS_INVALID_VALUE);
    assert_ptr_equal(d, FAKE(0x1230)); /* untouched by the rejected calls */

    /* An empty matrix needs no array. */
    assert_ok(tcsCreateDnMat(&d, 0, 5, 1, NULL, CUDA_R_32F, TCS_ORDER_COL));
    assert_ok(tcsDnMatSetValues(d, NULL));
    assert_ok(tcsDestroyDnMat(d));
}

static void test_const_dense_refuses_writes(void** state) {
    (void)state;
    tcsConstDnMatDescr_t d = NULL;
    assert_ok(tcsCreateConstDnMat(&d, 4, 4, 4, VAL, CUDA_R_16F, TCS_ORDER_COL));
    tcsDnMatDescr_t w = (tcsDnMatDescr_t)(uintptr_t)d;
    int64_t rows, cols, ld;
    void* val = NULL;
    cudaDataType vt;
    tcsOrder_t order;
    assert_status(tcsDnMatGet(w, &rows, &cols, &ld, &val, &vt, &order), TCS_STATUS_INVALID_VALUE);
    assert_status(tcsDnMatGetValues(w, &val), TCS_STATUS_INVALID_VALUE);
    assert_null(val);
    assert_status(tcsDnMatSetValues(w, FAKE(0x90000)), TCS_STATUS_INVALID_VALUE);
    assert_ok(tcsDestroyDnMat(d));
}

static void test_destroy_null(void** state) {
    (void)state;
    assert_ok(tcsDestroySpMat(NULL));
    assert_ok(tcsDestroyDnMat(NULL));
    assert_ok(tcsSpGEMM_destroyDescr(NULL));
    assert_ok(tcsDestroy(NULL));
}

static void test_spgemm_descriptor(void** state) {
    (void)state;
    tcsSpGEMMDescr_t d = NULL;
    assert_ok(tcsSpGEMM_createDescr(&d));
    assert_non_null(d);
    int64_t products = -7;
    assert_status(tcsSpGEMM_getNumProducts(d, &products), TCS_STATUS_NOT_INITIALIZED);
    assert_int_equal(products, -7);
    tcsSpGEMMDescr_t d2 = NULL;
    assert_ok(tcsSpGEMM_createDescr(&d2));
    assert_true(d2 != d);
    assert_ok(tcsSpGEMM_destroyDescr(d));
    assert_ok(tcsSpGEMM_destroyDescr(d2));
}

/* Descriptors of one kind passed where another is expected are recognised, not used. */
static void test_wrong_kind_of_descriptor(void** state) {
    (void)state;
    tcsDnMatDescr_t dense = NULL;
    tcsSpMatDescr_t sparse = NULL;
    tcsSpGEMMDescr_t spgemm = NULL;
    assert_ok(tcsCreateDnMat(&dense, 4, 4, 4, VAL, CUDA_R_32F, TCS_ORDER_COL));
    assert_ok(tcsCreateCsr(&sparse, 4, 4, 4, RP, CI, VAL, TCS_INDEX_32I, TCS_INDEX_32I,
                           TCS_INDEX_BASE_ZERO, CUDA_R_32F));
    assert_ok(tcsSpGEMM_createDescr(&spgemm));
    int64_t rows, cols, nnz;
    void* val;
    assert_status(tcsSpMatGetSize((tcsConstSpMatDescr_t)(void*)dense, &rows, &cols, &nnz),
                  TCS_STATUS_NOT_INITIALIZED);
    assert_status(tcsSpMatGetValues((tcsSpMatDescr_t)(void*)spgemm, &val),
                  TCS_STATUS_NOT_INITIALIZED);
    assert_status(tcsDnMatGetValues((tcsDnMatDescr_t)(void*)sparse, &val),
                  TCS_STATUS_NOT_INITIALIZED);
    assert_status(tcsSpGEMM_getNumProducts((tcsSpGEMMDescr_t)(void*)dense, &nnz),
                  TCS_STATUS_NOT_INITIALIZED);
    assert_status(tcsDestroySpMat((tcsConstSpMatDescr_t)(void*)dense), TCS_STATUS_NOT_INITIALIZED);
    assert_status(tcsDestroyDnMat((tcsConstDnMatDescr_t)(void*)sparse), TCS_STATUS_NOT_INITIALIZED);
    assert_status(tcsSpGEMM_destroyDescr((tcsSpGEMMDescr_t)(void*)sparse),
                  TCS_STATUS_NOT_INITIALIZED);
    /* ... and the objects are intact afterwards. */
    assert_ok(tcsSpMatGetSize(sparse, &rows, &cols, &nnz));
    assert_int_equal(nnz, 4);
    assert_ok(tcsDnMatGetValues(dense, &val));
    assert_ptr_equal(val, VAL);
    assert_ok(tcsDestroyDnMat(dense));
    assert_ok(tcsDestroySpMat(sparse));
    assert_ok(tcsSpGEMM_destroyDescr(spgemm));
}

/* ---- stale handles ---------------------------------------------------------------
 * Destroyed, then another object of the same kind made (glibc hands it the freed
 * address, the case a check of the address or of a magic number alone misses): every
 * destroy or use of the stale handle is NOT_INITIALIZED and frees nothing, and the new
 * object is intact. Under AddressSanitizer a double free or a read of the freed object
 * fails the run (scripts/asan_host_tests.sh). */
typedef struct stale_kind {
    const char* name;
    tcsStatus_t (*make)(void** out, int64_t tag);         /* an object that answers `tag` */
    tcsStatus_t (*tag_of)(const void* object, int64_t* tag); /* NULL: nothing to read */
    tcsStatus_t (*destroy)(const void* object);
} stale_kind;

static tcsStatus_t make_csr(void** out, int64_t tag) {
    return tcsCreateCsr((tcsSpMatDescr_t*)out, tag, 8, 4, RP, CI, VAL, TCS_INDEX_32I,
                        TCS_INDEX_32I, TCS_INDEX_BASE_ZERO, CUDA_R_32F);
}
static tcsStatus_t make_const_csr(void** out, int64_t tag) {
    return tcsCreateConstCsr((tcsConstSpMatDescr_t*)out, tag, 8, 4, RP, CI, VAL, TCS_INDEX_32I,
                             TCS_INDEX_32I, TCS_INDEX_BASE_ZERO, CUDA_R_32F);
}
static tcsStatus_t make_coo(void** out, int64_t tag) {
    return tcsCreateCoo((tcsSpMatDescr_t*)out, tag, 8, 4, RP, CI, VAL, TCS_INDEX_32I,
                        TCS_INDEX_BASE_ZERO, CUDA_R_32F);
}
static tcsStatus_t make_bsr(void** out, int64_t tag) {
    return tcsCreateBsr((tcsSpMatDescr_t*)out, tag, 8, 4, 2, 2, RP, CI, VAL, TCS_INDEX_32I,
                        TCS_INDEX_32I, TCS_INDEX_BASE_ZERO, CUDA_R_32F, TCS_ORDER_ROW);
}
static tcsStatus_t sparse_rows(const void* object, int64_t* tag) {
    int64_t cols, nnz;
    return tcsSpMatGetSize((tcsConstSpMatDescr_t)object, tag, &cols, &nnz);
}
static tcsStatus_t destroy_sparse(const void* object) {
    return tcsDestroySpMat((tcsConstSpMatDescr_t)object);
}
static tcsStatus_t make_dense(void** out, int64_t tag) {
    return tcsCreateDnMat((tcsDnMatDescr_t*)out, tag, 3, 128, VAL, CUDA_R_32F, TCS_ORDER_COL);
}
static tcsStatus_t make_const_dense(void** out, int64_t tag) {
    return tcsCreateConstDnMat((tcsConstDnMatDescr_t*)out, tag, 3, 128, VAL, CUDA_R_32F,
                               TCS_ORDER_COL);
}
static tcsStatus_t dense_rows(const void* object, int64_t* tag) {
    int64_t cols, ld;
    void* values;
    cudaDataType type;
    tcsOrder_t order;
    return tcsDnMatGet((tcsDnMatDescr_t)(uintptr_t)object, tag, &cols, &ld, &values, &type,
                       &order);
}
static tcsStatus_t destroy_dense(const void* object) {
    return tcsDestroyDnMat((tcsConstDnMatDescr_t)object);
}
static tcsStatus_t make_vector(void** out, int64_t tag) {
    return tcsCreateDnVec((tcsDnVecDescr_t*)out, tag, VAL, CUDA_R_32F);
}
static tcsStatus_t make_const_vector(void** out, int64_t tag) {
    return tcsCreateConstDnVec((tcsConstDnVecDescr_t*)out, tag, VAL, CUDA_R_32F);
}
static tcsStatus_t vector_size(const void* object, int64_t* tag) {
    const void* values;
    cudaDataType type;
    return tcsConstDnVecGet((tcsConstDnVecDescr_t)object, tag, &values, &type);
}
static tcsStatus_t destroy_vector(const void* object) {
    return tcsDestroyDnVec((tcsConstDnVecDescr_t)object);
}
static tcsStatus_t make_spgemm(void** out, int64_t tag) {
    (void)tag;
    return tcsSpGEMM_createDescr((tcsSpGEMMDescr_t*)out);
}
static tcsStatus_t destroy_spgemm(const void* object) {
    return tcsSpGEMM_destroyDescr((tcsSpGEMMDescr_t)(uintptr_t)object);
}

static const stale_kind kStaleKinds[] = {
    {"CSR", make_csr, sparse_rows, destroy_sparse},
    {"const CSR", make_const_csr, sparse_rows, destroy_sparse},
    {"COO", make_coo, sparse_rows, destroy_sparse},
    {"BSR", make_bsr, sparse_rows, destroy_sparse},
    {"DnMat", make_dense, dense_rows, destroy_dense},
    {"const DnMat", make_const_dense, NULL, destroy_dense}, /* no getter takes const */
    {"DnVec", make_vector, vector_size, destroy_vector},
    {"const DnVec", make_const_vector, vector_size, destroy_vector},
    {"SpGEMM", make_spgemm, NULL, destroy_spgemm},
};

static void check_stale(const stale_kind* k, int64_t round) {
    void* stale = NULL;
    void* fresh = NULL;
    int64_t tag = -1;
    assert_ok(k->make(&stale, 3 + round));
    assert_ok(k->destroy(stale));
    assert_ok(k->make(&fresh, 5 + round));
    if (k->destroy(stale) != TCS_STATUS_NOT_INITIALIZED)
        fail_msg("%s: destroying a stale handle did not return NOT_INITIALIZED", k->name);
    if (k->tag_of != NULL) {
        assert_status(k->tag_of(stale, &tag), TCS_STATUS_NOT_INITIALIZED);
        assert_ok(k->tag_of(fresh, &tag));
        if (tag != 5 + round) fail_msg("%s: the live object was changed", k->name);
    }
    assert_ok(k->destroy(fresh));
    assert_status(k->destroy(fresh), TCS_STATUS_NOT_INITIALIZED);
    assert_status(k->destroy(stale), TCS_STATUS_NOT_INITIALIZED);
}

static void test_stale_handles(void** state) {
    (void)state;
    for (int64_t round = 0; round < 64; ++round)
        for (size_t i = 0; i < sizeof kStaleKinds / sizeof kStaleKinds[0]; ++i)
            check_stale(&kStaleKinds[i], round);
}

/* A stale handle of one kind is not taken for a live object of another kind made in
 * its place, nor is a pointer to ordinary memory. */
static void test_stale_across_kinds(void** state) {
    (void)state;
    for (size_t i = 0; i < sizeof kStaleKinds / sizeof kStaleKinds[0]; ++i) {
        const stale_kind* was = &kStaleKinds[i];
        const stale_kind* now = &kStaleKinds[(i + 4) % (sizeof kStaleKinds / sizeof kStaleKinds[0])];
        void* stale = NULL;
        void* fresh = NULL;
        assert_ok(was->make(&stale, 2));
        assert_ok(was->destroy(stale));
        assert_ok(now->make(&fresh, 7));
        assert_status(was->destroy(stale), TCS_STATUS_NOT_INITIALIZED);
        assert_status(now->destroy(stale), TCS_STATUS_NOT_INITIALIZED);
        assert_ok(now->destroy(fresh));
    }
    int64_t words[16] = {0};
    assert_status(tcsDestroySpMat((tcsConstSpMatDescr_t)(void*)words), TCS_STATUS_NOT_INITIALIZED);
    assert_status(tcsDestroyDnMat((tcsConstDnMatDescr_t)(void*)&words[1]), TCS_STATUS_NOT_INITIALIZED);
    assert_status(tcsDestroy((tcsHandle_t)(void*)&words[2]), TCS_STATUS_NOT_INITIALIZED);
    for (int w = 0; w < 16; ++w) assert_int_equal(words[w], 0);
}

/* The handle, where tcsCreate has a device (a GPU, or the CPU emulation that
 * api_descriptors_emulated links): destroyed, another made, the stale one NOT_INITIALIZED
 * everywhere and the new one intact. */
static void test_stale_handle(void** state) {
    (void)state;
    for (int round = 0; round < 16; ++round) {
        tcsHandle_t stale = NULL, fresh = NULL;
        if (tcsCreate(&stale) != TCS_STATUS_SUCCESS) skip();
        assert_ok(tcsSetMathMode(stale, TCS_PEDANTIC_MATH));
        assert_ok(tcsDestroy(stale));
        assert_ok(tcsCreate(&fresh));
        assert_status(tcsDestroy(stale), TCS_STATUS_NOT_INITIALIZED);
        assert_status(tcsSetMathMode(stale, TCS_TF32_TENSOR_OP_MATH), TCS_STATUS_NOT_INITIALIZED);
        tcsMath_t math = TCS_FP16_TENSOR_OP_MATH;
        assert_status(tcsGetMathMode(stale, &math), TCS_STATUS_NOT_INITIALIZED);
        assert_ok(tcsGetMathMode(fresh, &math));
        assert_int_equal(math, TCS_DEFAULT_MATH);
        assert_status(tcsSpGEMM_destroyDescr((tcsSpGEMMDescr_t)(void*)fresh),
                      TCS_STATUS_NOT_INITIALIZED);
        assert_ok(tcsDestroy(fresh));
        assert_status(tcsDestroy(fresh), TCS_STATUS_NOT_INITIALIZED);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csr_round_trip),
        cmocka_unit_test(test_index_widths),
        cmocka_unit_test(test_csr_set_pointers),
        cmocka_unit_test(test_empty_output_matrix),
        cmocka_unit_test(test_const_csr_refuses_writes),
        cmocka_unit_test(test_coo_and_bsr),
        cmocka_unit_test(test_dense_round_trip),
        cmocka_unit_test(test_const_dense_refuses_writes),
        cmocka_unit_test(test_destroy_null),
        cmocka_unit_test(test_spgemm_descriptor),
        cmocka_unit_test(test_wrong_kind_of_descriptor),
        cmocka_unit_test(test_stale_handles),
        cmocka_unit_test(test_stale_across_kinds),
        cmocka_unit_test(test_stale_handle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
