/* Bad-argument tests for every exported function, in the style of rocSPARSE's
 * auto_testing_bad_arg: start from a call whose arguments are all valid, replace one
 * argument at a time by an invalid value (NULL, an enum outside its range, a negative
 * size, a descriptor of the wrong kind or constness, a size that does not match) and
 * check the documented status. The order of the checks in lib/ makes every case
 * fail on the argument it replaces; cases expecting NOT_SUPPORTED or NOT_INITIALIZED
 * also show that every argument checked before the replaced one was accepted.
 *
 * Descriptors store pointers only, so fake aligned addresses stand in for device
 * arrays; nothing here ever reaches a kernel. Functions taking a handle are checked
 * with a NULL handle everywhere; with a GPU present (tcsCreate succeeds) each of their
 * other arguments is checked as well, and without one tcsCreate must report
 * NOT_INITIALIZED. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tcs_test_support.h"
#include "tcsparse.h"

#include <math.h>

#define FAKE(addr) ((void*)(uintptr_t)(addr))
#define RP FAKE(0x10000)
#define CI FAKE(0x20000)
#define VAL FAKE(0x30000)

#define OK TCS_STATUS_SUCCESS
#define INVALID TCS_STATUS_INVALID_VALUE
#define UNSUPPORTED TCS_STATUS_NOT_SUPPORTED
#define NOT_INIT TCS_STATUS_NOT_INITIALIZED

/* Every mismatch of a test is listed before the test fails (FINISH). Tables shared by
 * several functions name the one they run in `current`. */
static int mismatches;
static const char* current = "";

static void expect_status(tcsStatus_t got, tcsStatus_t want, const char* what, int line) {
    if (got == want) return;
    print_error("line %d: %s%s%s returned %s, expected %s\n", line, current, *current ? ": " : "",
                what, tcsGetErrorName(got), tcsGetErrorName(want));
    ++mismatches;
}
#define FINISH()                                                            \
    do {                                                                    \
        if (mismatches > 0) fail_msg("%d call(s) above returned the wrong status", mismatches); \
    } while (0)
#define EXPECT(call, want) expect_status((call), (want), #call, __LINE__)

/* One argument of a struct-described call replaced; the rest from `base`. */
#define WITH(type, base, run, field, value, want)                                       \
    do {                                                                                \
        type a_ = (base);                                                               \
        a_.field = (value);                                                             \
        expect_status(run(&a_), (want), #run " with " #field " = " #value, __LINE__);  \
    } while (0)
#define BASE(type, base, run, want)                                                     \
    do {                                                                                \
        type a_ = (base);                                                               \
        expect_status(run(&a_), (want), #run " with valid arguments", __LINE__);       \
    } while (0)

static int begin(void** state) {
    (void)state;
    mismatches = 0;
    current = "";
    return 0;
}
#define TEST(f) cmocka_unit_test_setup(f, begin)

/* ---- the objects the calls use ---- */

static const float one = 1.0f, zero = 0.0f;
static size_t size_slot;

static struct {
    tcsHandle_t handle; /* NULL without a GPU */
    /* SpGEMM: A (4 x 5) * B (5 x 3) = C (4 x 3); SpMM: A * Bd (5 x 2) = Cd (4 x 2). */
    tcsSpMatDescr_t a, b, c;
    tcsSpMatDescr_t a_idx64, a_idx16;  /* 64/64 and 16U/16U offsets/columns */
    tcsSpMatDescr_t c_idx64;
    tcsSpMatDescr_t a_coo, a_bsr, a_bsr64, a_f64, a_no_offsets, b_rows4, c_rows5, c_idx16,
        c_f64;
    tcsConstSpMatDescr_t c_const;
    tcsDnMatDescr_t bd, cd, bd_rows4, cd_cols3, bd_f64, cd_f64;
    tcsConstDnMatDescr_t cd_const;
    /* SpMV: A (4 x 5) * x (5) = y (4) */
    tcsDnVecDescr_t x, y, x_f64, y_f64;
    tcsConstDnVecDescr_t y_const;
    tcsSpGEMMDescr_t spgemm;
} fx;

static tcsDnVecDescr_t vector(int64_t size, cudaDataType vt) {
    tcsDnVecDescr_t d = NULL;
    if (tcsCreateDnVec(&d, size, VAL, vt) != OK) return NULL;
    return d;
}

static tcsSpMatDescr_t csr_typed(int64_t rows, int64_t cols, int64_t nnz, void* rp,
                                 tcsIndexType_t rpt, tcsIndexType_t cit, cudaDataType vt) {
    tcsSpMatDescr_t d = NULL;
    void* ci = nnz > 0 ? CI : NULL;
    void* val = nnz > 0 ? VAL : NULL;
    if (tcsCreateCsr(&d, rows, cols, nnz, rp, ci, val, rpt, cit, TCS_INDEX_BASE_ZERO, vt) != OK)
        return NULL;
    return d;
}

static tcsSpMatDescr_t csr(int64_t rows, int64_t cols, int64_t nnz, void* rp, tcsIndexType_t rpt,
                           cudaDataType vt) {
    return csr_typed(rows, cols, nnz, rp, rpt, TCS_INDEX_32I, vt);
}

static tcsDnMatDescr_t dense(int64_t rows, int64_t cols, cudaDataType vt) {
    tcsDnMatDescr_t d = NULL;
    if (tcsCreateDnMat(&d, rows, cols, rows, VAL, vt, TCS_ORDER_COL) != OK) return NULL;
    return d;
}

static int create_objects(void** state) {
    (void)state;
    if (tcst_gpu_available() && tcsCreate(&fx.handle) != OK) return -1;
    fx.a = csr(4, 5, 6, RP, TCS_INDEX_32I, CUDA_R_32F);
    fx.b = csr(5, 3, 4, RP, TCS_INDEX_32I, CUDA_R_32F);
    fx.c = csr(4, 3, 0, RP, TCS_INDEX_32I, CUDA_R_32F);
    fx.a_idx64 = csr_typed(4, 5, 6, RP, TCS_INDEX_64I, TCS_INDEX_64I, CUDA_R_32F);
    fx.a_idx16 = csr_typed(4, 5, 6, RP, TCS_INDEX_16U, TCS_INDEX_16U, CUDA_R_32F);
    fx.c_idx64 = csr_typed(4, 3, 0, RP, TCS_INDEX_64I, TCS_INDEX_64I, CUDA_R_32F);
    fx.a_f64 = csr(4, 5, 6, RP, TCS_INDEX_32I, CUDA_R_64F);
    fx.a_no_offsets = csr(4, 5, 0, NULL, TCS_INDEX_32I, CUDA_R_32F);
    fx.b_rows4 = csr(4, 3, 4, RP, TCS_INDEX_32I, CUDA_R_32F);
    fx.c_rows5 = csr(5, 3, 0, RP, TCS_INDEX_32I, CUDA_R_32F);
    fx.c_idx16 = csr_typed(4, 3, 0, RP, TCS_INDEX_16U, TCS_INDEX_16U, CUDA_R_32F);
    fx.c_f64 = csr(4, 3, 0, RP, TCS_INDEX_32I, CUDA_R_64F);
    if (tcsCreateCoo(&fx.a_coo, 4, 5, 6, RP, CI, VAL, TCS_INDEX_32I, TCS_INDEX_BASE_ZERO,
                     CUDA_R_32F) != OK ||
        tcsCreateBsr(&fx.a_bsr, 4, 5, 6, 1, 1, RP, CI, VAL, TCS_INDEX_32I, TCS_INDEX_32I,
                     TCS_INDEX_BASE_ZERO, CUDA_R_32F, TCS_ORDER_ROW) != OK ||
        tcsCreateBsr(&fx.a_bsr64, 4, 5, 6, 1, 1, RP, CI, VAL, TCS_INDEX_64I, TCS_INDEX_64I,
                     TCS_INDEX_BASE_ZERO, CUDA_R_32F, TCS_ORDER_ROW) != OK ||
        tcsCreateConstCsr(&fx.c_const, 4, 3, 0, RP, NULL, NULL, TCS_INDEX_32I, TCS_INDEX_32I,
                          TCS_INDEX_BASE_ZERO, CUDA_R_32F) != OK ||
        tcsCreateConstDnMat(&fx.cd_const, 4, 2, 4, VAL, CUDA_R_32F, TCS_ORDER_COL) != OK ||
        tcsSpGEMM_createDescr(&fx.spgemm) != OK)
        return -1;
    fx.bd = dense(5, 2, CUDA_R_32F);
    fx.cd = dense(4, 2, CUDA_R_32F);
    fx.bd_rows4 = dense(4, 2, CUDA_R_32F);
    fx.cd_cols3 = dense(4, 3, CUDA_R_32F);
    fx.bd_f64 = dense(5, 2, CUDA_R_64F);
    fx.cd_f64 = dense(4, 2, CUDA_R_64F);
    fx.x = vector(5, CUDA_R_32F);
    fx.y = vector(4, CUDA_R_32F);
    fx.x_f64 = vector(5, CUDA_R_64F);
    fx.y_f64 = vector(4, CUDA_R_64F);
    if (tcsCreateConstDnVec(&fx.y_const, 4, VAL, CUDA_R_32F) != OK) return -1;
    const void* all[] = {fx.a,      fx.b,    fx.c,        fx.a_idx64, fx.a_idx16,
                         fx.c_idx64, fx.a_f64, fx.a_no_offsets,
                         fx.b_rows4, fx.c_rows5, fx.c_idx16, fx.c_f64, fx.bd,    fx.cd,
                         fx.bd_rows4, fx.cd_cols3, fx.bd_f64, fx.cd_f64, fx.x, fx.y,
                         fx.x_f64, fx.y_f64};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        if (all[i] == NULL) return -1;
    return 0;
}

static int destroy_objects(void** state) {
    (void)state;
    tcsSpMatDescr_t sp[] = {fx.a,       fx.b,       fx.c,       fx.a_coo,  fx.a_bsr, fx.a_bsr64,
                            fx.a_idx64, fx.a_idx16, fx.c_idx64, fx.a_f64,
                            fx.a_no_offsets, fx.b_rows4,
                            fx.c_rows5, fx.c_idx16, fx.c_f64};
    for (size_t i = 0; i < sizeof sp / sizeof sp[0]; ++i) tcsDestroySpMat(sp[i]);
    tcsDestroySpMat(fx.c_const);
    tcsDnMatDescr_t dn[] = {fx.bd, fx.cd, fx.bd_rows4, fx.cd_cols3, fx.bd_f64, fx.cd_f64};
    for (size_t i = 0; i < sizeof dn / sizeof dn[0]; ++i) tcsDestroyDnMat(dn[i]);
    tcsDestroyDnMat(fx.cd_const);
    tcsDnVecDescr_t dv[] = {fx.x, fx.y, fx.x_f64, fx.y_f64};
    for (size_t i = 0; i < sizeof dv / sizeof dv[0]; ++i) tcsDestroyDnVec(dv[i]);
    tcsDestroyDnVec(fx.y_const);
    tcsSpGEMM_destroyDescr(fx.spgemm);
    tcsDestroy(fx.handle);
    return 0;
}

/* Descriptors of another kind, as a caller's cast would pass them. */
#define DENSE_AS_SPARSE ((tcsSpMatDescr_t)(void*)fx.cd)
#define SPARSE_AS_DENSE ((tcsDnMatDescr_t)(void*)fx.c)
#define DENSE_AS_SPGEMM ((tcsSpGEMMDescr_t)(void*)fx.cd)
#define CONST_AS_MUTABLE ((tcsSpMatDescr_t)(uintptr_t)fx.c_const)
#define CONST_DENSE_AS_MUTABLE ((tcsDnMatDescr_t)(uintptr_t)fx.cd_const)
#define DENSE_AS_VECTOR ((tcsDnVecDescr_t)(void*)fx.cd)
#define CONST_VECTOR_AS_MUTABLE ((tcsDnVecDescr_t)(uintptr_t)fx.y_const)

/* A created descriptor is destroyed; a rejected create must leave its output alone.
 * is_dense: 0 sparse, 1 dense matrix, 2 dense vector. */
#define SENTINEL FAKE(0x5e11)
static tcsStatus_t settle(tcsStatus_t s, void* out, int is_dense, int line) {
    if (s == OK) {
        if (out == SENTINEL || out == NULL) {
            print_error("line %d: a successful create wrote no descriptor\n", line);
            ++mismatches;
        } else if (is_dense == 2) {
            tcsDestroyDnVec((tcsConstDnVecDescr_t)out);
        } else if (is_dense) {
            tcsDestroyDnMat((tcsConstDnMatDescr_t)out);
        } else {
            tcsDestroySpMat((tcsConstSpMatDescr_t)out);
        }
    } else if (out != SENTINEL) {
        print_error("line %d: a rejected create wrote its output\n", line);
        ++mismatches;
    }
    return s;
}

/* ---- version, properties, error strings ---- */

static void test_version_and_property(void** state) {
    (void)state;
    int v = 0;
    EXPECT(tcsGetVersion(NULL, &v), OK); /* the handle is not needed */
    EXPECT(tcsGetVersion(NULL, NULL), INVALID);
    EXPECT(tcsGetProperty(MAJOR_VERSION, &v), OK);
    EXPECT(tcsGetProperty((libraryPropertyType)3, &v), INVALID);
    EXPECT(tcsGetProperty((libraryPropertyType)-1, &v), INVALID);
    EXPECT(tcsGetProperty(PATCH_LEVEL, NULL), INVALID);
    /* The error-table functions take any value and never return NULL. */
    assert_non_null(tcsGetErrorName((tcsStatus_t)-1));
    assert_non_null(tcsGetErrorString((tcsStatus_t)12));
    FINISH();
}

/* ---- handle ---- */

static void test_create_without_gpu(void** state) {
    (void)state;
    if (tcst_gpu_available()) skip();
    tcsHandle_t h = (tcsHandle_t)SENTINEL;
    EXPECT(tcsCreate(&h), NOT_INIT);
    assert_null(h);
    FINISH();
}

static void test_handle_functions_with_null_handle(void** state) {
    (void)state;
    cudaStream_t stream;
    tcsPointerMode_t pm;
    tcsMath_t mm;
    EXPECT(tcsCreate(NULL), INVALID);
    EXPECT(tcsDestroy(NULL), OK);
    EXPECT(tcsSetStream(NULL, (cudaStream_t)0), INVALID);
    EXPECT(tcsGetStream(NULL, &stream), INVALID);
    EXPECT(tcsSetPointerMode(NULL, TCS_POINTER_MODE_HOST), INVALID);
    EXPECT(tcsGetPointerMode(NULL, &pm), INVALID);
    EXPECT(tcsSetMathMode(NULL, TCS_DEFAULT_MATH), INVALID);
    EXPECT(tcsGetMathMode(NULL, &mm), INVALID);
    const tcsOperation_t n = TCS_OPERATION_NON_TRANSPOSE;
    size_t s1 = 0, s2 = 0, s3 = 0;
    EXPECT(tcsSpGEMM_workEstimation(NULL, n, n, &one, fx.a, fx.b, &zero, fx.c, CUDA_R_32F,
                                    TCS_SPGEMM_DEFAULT, fx.spgemm, &s1, NULL),
           INVALID);
    EXPECT(tcsSpGEMM_estimateMemory(NULL, n, n, &one, fx.a, fx.b, &zero, fx.c, CUDA_R_32F,
                                    TCS_SPGEMM_DEFAULT, fx.spgemm, 0.5f, &s3, NULL, &s2),
           INVALID);
    EXPECT(tcsSpGEMM_compute(NULL, n, n, &one, fx.a, fx.b, &zero, fx.c, CUDA_R_32F,
                             TCS_SPGEMM_DEFAULT, fx.spgemm, &s2, NULL),
           INVALID);
    EXPECT(tcsSpGEMM_copy(NULL, n, n, &one, fx.a, fx.b, &zero, fx.c, CUDA_R_32F,
                          TCS_SPGEMM_DEFAULT, fx.spgemm),
           INVALID);
    EXPECT(tcsSpMM_bufferSize(NULL, n, n, &one, fx.a, fx.bd, &zero, fx.cd, CUDA_R_32F,
                              TCS_SPMM_ALG_DEFAULT, &s1),
           INVALID);
    EXPECT(tcsSpMM_preprocess(NULL, n, n, &one, fx.a, fx.bd, &zero, fx.cd, CUDA_R_32F,
                              TCS_SPMM_ALG_DEFAULT, FAKE(0x40000)),
           INVALID);
    EXPECT(tcsSpMM(NULL, n, n, &one, fx.a, fx.bd, &zero, fx.cd, CUDA_R_32F, TCS_SPMM_ALG_DEFAULT,
                   FAKE(0x40000)),
           INVALID);
    EXPECT(tcsSpMV_bufferSize(NULL, n, &one, fx.a, fx.x, &zero, fx.y, CUDA_R_32F,
                              TCS_SPMV_ALG_DEFAULT, &s1),
           INVALID);
    EXPECT(tcsSpMV_preprocess(NULL, n, &one, fx.a, fx.x, &zero, fx.y, CUDA_R_32F,
                              TCS_SPMV_ALG_DEFAULT, FAKE(0x40000)),
           INVALID);
    EXPECT(tcsSpMV(NULL, n, &one, fx.a, fx.x, &zero, fx.y, CUDA_R_32F, TCS_SPMV_ALG_DEFAULT,
                   FAKE(0x40000)),
           INVALID);
    EXPECT(tcsSpGEMMreuse_workEstimation(NULL, n, n, fx.a, fx.b, fx.c, TCS_SPGEMM_DEFAULT,
                                         fx.spgemm, &s1, NULL),
           INVALID);
    EXPECT(tcsSpGEMMreuse_nnz(NULL, n, n, fx.a, fx.b, fx.c, TCS_SPGEMM_DEFAULT, fx.spgemm, &s1,
                              NULL, &s2, NULL, &s3, NULL),
           INVALID);
    EXPECT(tcsSpGEMMreuse_copy(NULL, n, n, fx.a, fx.b, fx.c, TCS_SPGEMM_DEFAULT, fx.spgemm, &s1,
                               NULL),
           INVALID);
    EXPECT(tcsSpGEMMreuse_compute(NULL, n, n, &one, fx.a, fx.b, &zero, fx.c, CUDA_R_32F,
                                  TCS_SPGEMM_DEFAULT, fx.spgemm),
           INVALID);
    FINISH();
}

static void test_handle_arguments(void** state) {
    (void)state;
    if (fx.handle == NULL) skip();
    tcsHandle_t h = fx.handle;
    EXPECT(tcsGetStream(h, NULL), INVALID);
    EXPECT(tcsSetPointerMode(h, (tcsPointerMode_t)2), INVALID);
    EXPECT(tcsSetPointerMode(h, (tcsPointerMode_t)-1), INVALID);
    EXPECT(tcsGetPointerMode(h, NULL), INVALID);
    EXPECT(tcsSetMathMode(h, (tcsMath_t)1), INVALID);
    EXPECT(tcsSetMathMode(h, (tcsMath_t)7), INVALID);
    EXPECT(tcsSetMathMode(h, (tcsMath_t)-1), INVALID);
    EXPECT(tcsGetMathMode(h, NULL), INVALID);
    FINISH();
}

/* ---- sparse descriptor creation ---- */

typedef struct {
    int null_out;
    int64_t rows, cols, nnz;
    void *rp, *ci, *val;
    tcsIndexType_t rpt, cit;
    tcsIndexBase_t base;
    cudaDataType vt;
} csr_args;

static const csr_args csr_ok = {0,   4,  5,   6, RP, CI, VAL, TCS_INDEX_32I, TCS_INDEX_32I,
                                TCS_INDEX_BASE_ZERO, CUDA_R_32F};

static tcsStatus_t create_csr(const csr_args* a) {
    tcsSpMatDescr_t d = SENTINEL;
    const tcsStatus_t s = tcsCreateCsr(a->null_out ? NULL : &d, a->rows, a->cols, a->nnz, a->rp,
                                       a->ci, a->val, a->rpt, a->cit, a->base, a->vt);
    return settle(s, d, 0, __LINE__);
}

static tcsStatus_t create_const_csr(const csr_args* a) {
    tcsConstSpMatDescr_t d = SENTINEL;
    const tcsStatus_t s = tcsCreateConstCsr(a->null_out ? NULL : &d, a->rows, a->cols, a->nnz,
                                            a->rp, a->ci, a->val, a->rpt, a->cit, a->base, a->vt);
    return settle(s, (void*)(uintptr_t)d, 0, __LINE__);
}

/* The same table for tcsCreateCsr and tcsCreateConstCsr. */
static void csr_cases(tcsStatus_t (*run)(const csr_args*), const char* name) {
    current = name;
#define CSR(field, value, want) WITH(csr_args, csr_ok, run, field, value, want)
    BASE(csr_args, csr_ok, run, OK);
    CSR(null_out, 1, INVALID);
    CSR(rows, -1, INVALID);
    CSR(cols, -1, INVALID);
    CSR(nnz, -1, INVALID);
    CSR(nnz, 21, INVALID); /* > rows * cols = 20 */
    CSR(nnz, 20, OK);
    CSR(rows, 0, INVALID); /* nnz 6 in a 0 x 5 matrix */
    CSR(cols, 0, INVALID);
    CSR(rp, NULL, INVALID);
    CSR(ci, NULL, INVALID);
    CSR(val, NULL, INVALID);
    CSR(rp, FAKE(0x10002), INVALID); /* not 4-byte aligned */
    CSR(ci, FAKE(0x20001), INVALID);
    CSR(val, FAKE(0x30002), INVALID);
    CSR(rpt, TCS_INDEX_16U, UNSUPPORTED); /* widths differ: refused when made, as in cuSPARSE */
    CSR(rpt, (tcsIndexType_t)0, INVALID);
    CSR(rpt, (tcsIndexType_t)4, INVALID);
    CSR(rpt, (tcsIndexType_t)-1, INVALID);
    CSR(rpt, TCS_INDEX_64I, UNSUPPORTED);
    CSR(cit, (tcsIndexType_t)0, INVALID);
    CSR(cit, (tcsIndexType_t)7, INVALID);
    CSR(cit, TCS_INDEX_16U, UNSUPPORTED);
    CSR(cit, TCS_INDEX_64I, UNSUPPORTED);
    CSR(base, (tcsIndexBase_t)2, INVALID);
    CSR(base, (tcsIndexBase_t)-1, INVALID);
    CSR(base, TCS_INDEX_BASE_ONE, OK);
    CSR(vt, CUDA_C_32F, INVALID); /* no complex types */
    CSR(vt, CUDA_R_8I, INVALID);
    CSR(vt, (cudaDataType)77, INVALID);
    CSR(vt, (cudaDataType)-1, INVALID);
    CSR(vt, CUDA_R_64F, OK);
    CSR(vt, CUDA_R_16F, OK);
    CSR(vt, CUDA_R_16BF, OK);
#undef CSR
    /* The empty output matrix of SpGEMM: no columns or values, with or without offsets. */
    csr_args empty = csr_ok;
    empty.nnz = 0;
    empty.ci = empty.val = NULL;
    BASE(csr_args, empty, run, OK);
    WITH(csr_args, empty, run, rp, NULL, OK);
    WITH(csr_args, empty, run, rows, -1, INVALID);
}

static void test_create_csr(void** state) {
    (void)state;
    csr_cases(create_csr, "tcsCreateCsr");
    FINISH();
}

static void test_create_const_csr(void** state) {
    (void)state;
    csr_cases(create_const_csr, "tcsCreateConstCsr");
    FINISH();
}

typedef struct {
    int null_out;
    int64_t rows, cols, nnz;
    void *ri, *ci, *val;
    tcsIndexType_t it;
    tcsIndexBase_t base;
    cudaDataType vt;
} coo_args;

static const coo_args coo_ok = {0, 4, 5, 6, RP, CI, VAL, TCS_INDEX_32I, TCS_INDEX_BASE_ZERO,
                                CUDA_R_32F};

static tcsStatus_t create_coo(const coo_args* a) {
    tcsSpMatDescr_t d = SENTINEL;
    const tcsStatus_t s = tcsCreateCoo(a->null_out ? NULL : &d, a->rows, a->cols, a->nnz, a->ri,
                                       a->ci, a->val, a->it, a->base, a->vt);
    return settle(s, d, 0, __LINE__);
}

static void test_create_coo(void** state) {
    (void)state;
#define COO(field, value, want) WITH(coo_args, coo_ok, create_coo, field, value, want)
    BASE(coo_args, coo_ok, create_coo, OK);
    COO(null_out, 1, INVALID);
    COO(rows, -1, INVALID);
    COO(cols, -1, INVALID);
    COO(nnz, -1, INVALID);
    COO(nnz, 21, INVALID);
    COO(ri, NULL, INVALID);
    COO(ci, NULL, INVALID);
    COO(val, NULL, INVALID);
    COO(it, (tcsIndexType_t)0, INVALID);
    COO(it, (tcsIndexType_t)-1, INVALID);
    COO(it, TCS_INDEX_64I, OK);
    COO(base, (tcsIndexBase_t)2, INVALID);
    COO(vt, (cudaDataType)77, INVALID);
    COO(vt, CUDA_C_64F, INVALID);
#undef COO
    FINISH();
}

typedef struct {
    int null_out;
    int64_t brows, bcols, bnnz, rb, cb;
    void *rp, *ci, *val;
    tcsIndexType_t rpt, cit;
    tcsIndexBase_t base;
    cudaDataType vt;
    tcsOrder_t order;
} bsr_args;

static const bsr_args bsr_ok = {0,  2,  3,  4,   2, 3, RP, CI, VAL, TCS_INDEX_32I, TCS_INDEX_32I,
                                TCS_INDEX_BASE_ZERO, CUDA_R_32F, TCS_ORDER_ROW};

static tcsStatus_t create_bsr(const bsr_args* a) {
    tcsSpMatDescr_t d = SENTINEL;
    const tcsStatus_t s =
        tcsCreateBsr(a->null_out ? NULL : &d, a->brows, a->bcols, a->bnnz, a->rb, a->cb, a->rp,
                     a->ci, a->val, a->rpt, a->cit, a->base, a->vt, a->order);
    return settle(s, d, 0, __LINE__);
}

static void test_create_bsr(void** state) {
    (void)state;
#define BSR(field, value, want) WITH(bsr_args, bsr_ok, create_bsr, field, value, want)
    BASE(bsr_args, bsr_ok, create_bsr, OK);
    BSR(null_out, 1, INVALID);
    BSR(brows, -1, INVALID);
    BSR(bcols, -1, INVALID);
    BSR(bnnz, -1, INVALID);
    BSR(bnnz, 7, INVALID); /* > 2 x 3 blocks */
    BSR(bnnz, 6, OK);
    BSR(rb, 0, INVALID);
    BSR(rb, -2, INVALID);
    BSR(cb, 0, INVALID);
    BSR(rp, NULL, INVALID);
    BSR(ci, NULL, INVALID);
    BSR(val, NULL, INVALID);
    BSR(rpt, TCS_INDEX_16U, UNSUPPORTED); /* widths differ */
    BSR(cit, TCS_INDEX_64I, UNSUPPORTED);
    BSR(rpt, (tcsIndexType_t)9, INVALID);
    BSR(cit, (tcsIndexType_t)0, INVALID);
    BSR(base, (tcsIndexBase_t)-1, INVALID);
    BSR(vt, CUDA_C_32F, INVALID);
    BSR(order, (tcsOrder_t)0, INVALID);
    BSR(order, (tcsOrder_t)3, INVALID);
    BSR(order, TCS_ORDER_COL, OK);
#undef BSR
    FINISH();
}

/* ---- sparse descriptor accessors ---- */

static void test_sparse_accessors(void** state) {
    (void)state;
    int64_t r = -5, c = -5, n = -5;
    tcsFormat_t format = (tcsFormat_t)-5;
    tcsIndexBase_t base = (tcsIndexBase_t)-5;
    void *rp = SENTINEL, *ci = SENTINEL, *val = SENTINEL;
    tcsIndexType_t rpt = (tcsIndexType_t)-5, cit = (tcsIndexType_t)-5;
    cudaDataType vt = (cudaDataType)-5;
    tcsSpMatDescr_t d = fx.a;

    EXPECT(tcsDestroySpMat(NULL), OK);
    EXPECT(tcsDestroySpMat(DENSE_AS_SPARSE), NOT_INIT);

    EXPECT(tcsSpMatGetSize(NULL, &r, &c, &n), INVALID);
    EXPECT(tcsSpMatGetSize(DENSE_AS_SPARSE, &r, &c, &n), NOT_INIT);
    EXPECT(tcsSpMatGetSize(d, NULL, &c, &n), INVALID);
    EXPECT(tcsSpMatGetSize(d, &r, NULL, &n), INVALID);
    EXPECT(tcsSpMatGetSize(d, &r, &c, NULL), INVALID);

    EXPECT(tcsSpMatGetFormat(NULL, &format), INVALID);
    EXPECT(tcsSpMatGetFormat(DENSE_AS_SPARSE, &format), NOT_INIT);
    EXPECT(tcsSpMatGetFormat(d, NULL), INVALID);

    EXPECT(tcsSpMatGetIndexBase(NULL, &base), INVALID);
    EXPECT(tcsSpMatGetIndexBase(DENSE_AS_SPARSE, &base), NOT_INIT);
    EXPECT(tcsSpMatGetIndexBase(d, NULL), INVALID);

    EXPECT(tcsSpMatGetValues(NULL, &val), INVALID);
    EXPECT(tcsSpMatGetValues(DENSE_AS_SPARSE, &val), NOT_INIT);
    EXPECT(tcsSpMatGetValues(CONST_AS_MUTABLE, &val), INVALID);
    EXPECT(tcsSpMatGetValues(d, NULL), INVALID);

    EXPECT(tcsSpMatSetValues(NULL, VAL), INVALID);
    EXPECT(tcsSpMatSetValues(DENSE_AS_SPARSE, VAL), NOT_INIT);
    EXPECT(tcsSpMatSetValues(CONST_AS_MUTABLE, VAL), INVALID);
    EXPECT(tcsSpMatSetValues(d, NULL), INVALID);         /* nnz > 0 */
    EXPECT(tcsSpMatSetValues(d, FAKE(0x30002)), INVALID); /* fp32 alignment */

#define CSR_GET(d_, r_, c_, n_, rp_, ci_, val_, rpt_, cit_, base_, vt_) \
    tcsCsrGet(d_, r_, c_, n_, rp_, ci_, val_, rpt_, cit_, base_, vt_)
    EXPECT(CSR_GET(NULL, &r, &c, &n, &rp, &ci, &val, &rpt, &cit, &base, &vt), INVALID);
    EXPECT(CSR_GET(DENSE_AS_SPARSE, &r, &c, &n, &rp, &ci, &val, &rpt, &cit, &base, &vt), NOT_INIT);
    EXPECT(CSR_GET(CONST_AS_MUTABLE, &r, &c, &n, &rp, &ci, &val, &rpt, &cit, &base, &vt), INVALID);
    EXPECT(CSR_GET(fx.a_coo, &r, &c, &n, &rp, &ci, &val, &rpt, &cit, &base, &vt), INVALID);
    EXPECT(CSR_GET(fx.a_bsr, &r, &c, &n, &rp, &ci, &val, &rpt, &cit, &base, &vt), INVALID);
    EXPECT(CSR_GET(d, NULL, &c, &n, &rp, &ci, &val, &rpt, &cit, &base, &vt), INVALID);
    EXPECT(CSR_GET(d, &r, NULL, &n, &rp, &ci, &val, &rpt, &cit, &base, &vt), INVALID);
    EXPECT(CSR_GET(d, &r, &c, NULL, &rp, &ci, &val, &rpt, &cit, &base, &vt), INVALID);
    EXPECT(CSR_GET(d, &r, &c, &n, NULL, &ci, &val, &rpt, &cit, &base, &vt), INVALID);
    EXPECT(CSR_GET(d, &r, &c, &n, &rp, NULL, &val, &rpt, &cit, &base, &vt), INVALID);
    EXPECT(CSR_GET(d, &r, &c, &n, &rp, &ci, NULL, &rpt, &cit, &base, &vt), INVALID);
    EXPECT(CSR_GET(d, &r, &c, &n, &rp, &ci, &val, NULL, &cit, &base, &vt), INVALID);
    EXPECT(CSR_GET(d, &r, &c, &n, &rp, &ci, &val, &rpt, NULL, &base, &vt), INVALID);
    EXPECT(CSR_GET(d, &r, &c, &n, &rp, &ci, &val, &rpt, &cit, NULL, &vt), INVALID);
    EXPECT(CSR_GET(d, &r, &c, &n, &rp, &ci, &val, &rpt, &cit, &base, NULL), INVALID);
#undef CSR_GET

    /* None of the rejected calls wrote an output. */
    assert_true(r == -5 && c == -5 && n == -5 && format == (tcsFormat_t)-5 &&
                base == (tcsIndexBase_t)-5 && rp == SENTINEL && ci == SENTINEL &&
                val == SENTINEL && rpt == (tcsIndexType_t)-5 && cit == (tcsIndexType_t)-5 &&
                vt == (cudaDataType)-5);

    /* tcsCsrSetPointers on a scratch descriptor, so fx.a keeps its arrays. */
    tcsSpMatDescr_t s = csr(4, 5, 6, RP, TCS_INDEX_32I, CUDA_R_32F);
    assert_non_null(s);
    EXPECT(tcsCsrSetPointers(s, RP, CI, VAL), OK);
    EXPECT(tcsCsrSetPointers(NULL, RP, CI, VAL), INVALID);
    EXPECT(tcsCsrSetPointers(DENSE_AS_SPARSE, RP, CI, VAL), NOT_INIT);
    EXPECT(tcsCsrSetPointers(CONST_AS_MUTABLE, RP, CI, VAL), INVALID);
    EXPECT(tcsCsrSetPointers(fx.a_coo, RP, CI, VAL), INVALID);
    EXPECT(tcsCsrSetPointers(s, NULL, CI, VAL), INVALID);
    EXPECT(tcsCsrSetPointers(s, RP, NULL, VAL), INVALID);
    EXPECT(tcsCsrSetPointers(s, RP, CI, NULL), INVALID);
    EXPECT(tcsCsrSetPointers(s, FAKE(0x10001), CI, VAL), INVALID);
    EXPECT(tcsCsrSetPointers(s, RP, FAKE(0x20002), VAL), INVALID);
    EXPECT(tcsCsrSetPointers(s, RP, CI, FAKE(0x30003)), INVALID);
    tcsDestroySpMat(s);
    FINISH();
}

/* ---- dense descriptors ---- */

typedef struct {
    int null_out;
    int64_t rows, cols, ld;
    void* val;
    cudaDataType vt;
    tcsOrder_t order;
} dn_args;

static const dn_args dn_col_ok = {0, 4, 3, 4, VAL, CUDA_R_32F, TCS_ORDER_COL};
static const dn_args dn_row_ok = {0, 4, 3, 3, VAL, CUDA_R_32F, TCS_ORDER_ROW};

static tcsStatus_t create_dn(const dn_args* a) {
    tcsDnMatDescr_t d = SENTINEL;
    const tcsStatus_t s = tcsCreateDnMat(a->null_out ? NULL : &d, a->rows, a->cols, a->ld,
                                         a->val, a->vt, a->order);
    return settle(s, d, 1, __LINE__);
}

static tcsStatus_t create_const_dn(const dn_args* a) {
    tcsConstDnMatDescr_t d = SENTINEL;
    const tcsStatus_t s = tcsCreateConstDnMat(a->null_out ? NULL : &d, a->rows, a->cols, a->ld,
                                              a->val, a->vt, a->order);
    return settle(s, (void*)(uintptr_t)d, 1, __LINE__);
}

static void dn_cases(tcsStatus_t (*run)(const dn_args*), const char* name) {
    current = name;
#define DN(field, value, want) WITH(dn_args, dn_col_ok, run, field, value, want)
    BASE(dn_args, dn_col_ok, run, OK);
    DN(null_out, 1, INVALID);
    DN(rows, -1, INVALID);
    DN(cols, -1, INVALID);
    DN(ld, 3, INVALID); /* column-major: ld >= rows */
    DN(ld, -4, INVALID);
    DN(ld, 9, OK);
    DN(val, NULL, INVALID);
    DN(vt, CUDA_C_32F, INVALID);
    DN(vt, (cudaDataType)77, INVALID);
    DN(order, (tcsOrder_t)0, INVALID);
    DN(order, (tcsOrder_t)3, INVALID);
#undef DN
    BASE(dn_args, dn_row_ok, run, OK);
    WITH(dn_args, dn_row_ok, run, ld, 2, INVALID); /* row-major: ld >= cols */
    WITH(dn_args, dn_row_ok, run, ld, 4, OK);
}

static void test_create_dense(void** state) {
    (void)state;
    dn_cases(create_dn, "tcsCreateDnMat");
    FINISH();
}

static void test_create_const_dense(void** state) {
    (void)state;
    dn_cases(create_const_dn, "tcsCreateConstDnMat");
    FINISH();
}

static void test_dense_accessors(void** state) {
    (void)state;
    int64_t r = -5, c = -5, ld = -5;
    void* val = SENTINEL;
    cudaDataType vt = (cudaDataType)-5;
    tcsOrder_t order = (tcsOrder_t)-5;
    tcsDnMatDescr_t d = fx.cd;

    EXPECT(tcsDestroyDnMat(NULL), OK);
    EXPECT(tcsDestroyDnMat((tcsConstDnMatDescr_t)SPARSE_AS_DENSE), NOT_INIT);

    EXPECT(tcsDnMatGet(NULL, &r, &c, &ld, &val, &vt, &order), INVALID);
    EXPECT(tcsDnMatGet(SPARSE_AS_DENSE, &r, &c, &ld, &val, &vt, &order), NOT_INIT);
    EXPECT(tcsDnMatGet(CONST_DENSE_AS_MUTABLE, &r, &c, &ld, &val, &vt, &order), INVALID);
    EXPECT(tcsDnMatGet(d, NULL, &c, &ld, &val, &vt, &order), INVALID);
    EXPECT(tcsDnMatGet(d, &r, NULL, &ld, &val, &vt, &order), INVALID);
    EXPECT(tcsDnMatGet(d, &r, &c, NULL, &val, &vt, &order), INVALID);
    EXPECT(tcsDnMatGet(d, &r, &c, &ld, NULL, &vt, &order), INVALID);
    EXPECT(tcsDnMatGet(d, &r, &c, &ld, &val, NULL, &order), INVALID);
    EXPECT(tcsDnMatGet(d, &r, &c, &ld, &val, &vt, NULL), INVALID);

    EXPECT(tcsDnMatGetValues(NULL, &val), INVALID);
    EXPECT(tcsDnMatGetValues(SPARSE_AS_DENSE, &val), NOT_INIT);
    EXPECT(tcsDnMatGetValues(CONST_DENSE_AS_MUTABLE, &val), INVALID);
    EXPECT(tcsDnMatGetValues(d, NULL), INVALID);
    assert_true(r == -5 && c == -5 && ld == -5 && val == SENTINEL && vt == (cudaDataType)-5 &&
                order == (tcsOrder_t)-5);

    EXPECT(tcsDnMatSetValues(NULL, VAL), INVALID);
    EXPECT(tcsDnMatSetValues(SPARSE_AS_DENSE, VAL), NOT_INIT);
    EXPECT(tcsDnMatSetValues(CONST_DENSE_AS_MUTABLE, VAL), INVALID);
    EXPECT(tcsDnMatSetValues(d, NULL), INVALID); /* non-empty */
    EXPECT(tcsDnMatSetValues(d, VAL), OK);
    FINISH();
}

/* ---- SpGEMM ---- */

static void test_spgemm_descriptor_functions(void** state) {
    (void)state;
    int64_t products = -5;
    EXPECT(tcsSpGEMM_createDescr(NULL), INVALID);
    EXPECT(tcsSpGEMM_destroyDescr(NULL), OK);
    EXPECT(tcsSpGEMM_destroyDescr(DENSE_AS_SPGEMM), NOT_INIT);
    EXPECT(tcsSpGEMM_getNumProducts(NULL, &products), INVALID);
    EXPECT(tcsSpGEMM_getNumProducts(DENSE_AS_SPGEMM, &products), NOT_INIT);
    EXPECT(tcsSpGEMM_getNumProducts(fx.spgemm, NULL), INVALID);
    EXPECT(tcsSpGEMM_getNumProducts(fx.spgemm, &products), NOT_INIT); /* before workEstimation */
    assert_int_equal(products, -5);
    FINISH();
}

typedef struct {
    tcsHandle_t handle;
    tcsOperation_t opA, opB;
    const void* alpha;
    tcsConstSpMatDescr_t A, B;
    const void* beta;
    tcsSpMatDescr_t C;
    cudaDataType ct;
    tcsSpGEMMAlg_t alg;
    tcsSpGEMMDescr_t descr;
    size_t* size1;
    void* buffer1;
    float chunk;
    size_t* size3;
    void* buffer3;
    size_t* size2;
    void* buffer2;
} spgemm_args;

static spgemm_args spgemm_ok(void) {
    const spgemm_args a = {fx.handle, TCS_OPERATION_NON_TRANSPOSE, TCS_OPERATION_NON_TRANSPOSE,
                           &one, fx.a, fx.b, &zero, fx.c, CUDA_R_32F, TCS_SPGEMM_DEFAULT,
                           fx.spgemm, &size_slot, NULL, 0.5f, &size_slot, NULL, &size_slot,
                           NULL};
    return a;
}

static tcsStatus_t work_estimation(const spgemm_args* a) {
    return tcsSpGEMM_workEstimation(a->handle, a->opA, a->opB, a->alpha, a->A, a->B, a->beta,
                                    a->C, a->ct, a->alg, a->descr, a->size1, a->buffer1);
}
static tcsStatus_t estimate_memory(const spgemm_args* a) {
    return tcsSpGEMM_estimateMemory(a->handle, a->opA, a->opB, a->alpha, a->A, a->B, a->beta,
                                    a->C, a->ct, a->alg, a->descr, a->chunk, a->size3,
                                    a->buffer3, a->size2);
}
static tcsStatus_t compute(const spgemm_args* a) {
    return tcsSpGEMM_compute(a->handle, a->opA, a->opB, a->alpha, a->A, a->B, a->beta, a->C,
                             a->ct, a->alg, a->descr, a->size2, a->buffer2);
}
static tcsStatus_t copy(const spgemm_args* a) {
    return tcsSpGEMM_copy(a->handle, a->opA, a->opB, a->alpha, a->A, a->B, a->beta, a->C, a->ct,
                          a->alg, a->descr);
}

/* The checks the four stages share, in the order of the C signature. */
static void spgemm_common_cases(tcsStatus_t (*run)(const spgemm_args*), const char* name) {
    current = name;
    const spgemm_args ok = spgemm_ok();
#define SPGEMM(field, value, want) WITH(spgemm_args, ok, run, field, value, want)
    SPGEMM(handle, NULL, INVALID);
    SPGEMM(opA, (tcsOperation_t)3, INVALID);
    SPGEMM(opA, (tcsOperation_t)-1, INVALID);
    SPGEMM(opA, TCS_OPERATION_TRANSPOSE, UNSUPPORTED);
    SPGEMM(opA, TCS_OPERATION_CONJUGATE_TRANSPOSE, UNSUPPORTED);
    SPGEMM(opB, (tcsOperation_t)7, INVALID);
    SPGEMM(opB, TCS_OPERATION_TRANSPOSE, UNSUPPORTED);
    SPGEMM(alpha, NULL, INVALID);
    SPGEMM(A, NULL, INVALID);
    SPGEMM(A, DENSE_AS_SPARSE, NOT_INIT);
    SPGEMM(A, fx.a_coo, UNSUPPORTED);
    SPGEMM(A, fx.a_bsr, UNSUPPORTED);
    SPGEMM(A, fx.a_idx16, UNSUPPORTED);
    SPGEMM(A, fx.a_no_offsets, INVALID);
    SPGEMM(A, fx.a_f64, UNSUPPORTED); /* value type differs from computeType */
    SPGEMM(B, NULL, INVALID);
    SPGEMM(B, DENSE_AS_SPARSE, NOT_INIT);
    SPGEMM(B, fx.b_rows4, INVALID); /* rows of B != columns of A */
    SPGEMM(beta, NULL, INVALID);
    SPGEMM(C, NULL, INVALID);
    SPGEMM(C, DENSE_AS_SPARSE, NOT_INIT);
    SPGEMM(C, CONST_AS_MUTABLE, INVALID);
    SPGEMM(C, fx.c_rows5, INVALID);
    SPGEMM(C, fx.c_idx16, UNSUPPORTED);
    SPGEMM(C, fx.c_f64, UNSUPPORTED);
    SPGEMM(ct, (cudaDataType)77, INVALID);
    SPGEMM(ct, CUDA_C_32F, INVALID);
    SPGEMM(ct, CUDA_R_16F, UNSUPPORTED);
    SPGEMM(ct, CUDA_R_64F, UNSUPPORTED); /* A, B and C are fp32 */
    SPGEMM(alg, (tcsSpGEMMAlg_t)6, INVALID);
    SPGEMM(alg, (tcsSpGEMMAlg_t)-1, INVALID);
    SPGEMM(alg, (tcsSpGEMMAlg_t)99, INVALID);
    SPGEMM(descr, NULL, INVALID);
    SPGEMM(descr, DENSE_AS_SPGEMM, NOT_INIT);
#undef SPGEMM
}

static void test_spgemm_arguments(void** state) {
    (void)state;
    if (fx.handle == NULL) skip();
    const spgemm_args ok = spgemm_ok();

    /* Stage 1: the size query is host-only work, so the valid call can run. */
    spgemm_common_cases(work_estimation, "tcsSpGEMM_workEstimation");
    /* 64-bit indices, per matrix (tcsparse's extension of cuSPARSE's SpGEMM) */
    WITH(spgemm_args, ok, work_estimation, A, fx.a_idx64, OK);
    WITH(spgemm_args, ok, work_estimation, C, fx.c_idx64, OK);
    BASE(spgemm_args, ok, work_estimation, OK);
    WITH(spgemm_args, ok, work_estimation, size1, NULL, INVALID);

    /* The later stages with valid arguments stop at the protocol (no workEstimation
     * has run with a buffer on this descriptor), after every argument check. */
    spgemm_common_cases(estimate_memory, "tcsSpGEMM_estimateMemory");
    BASE(spgemm_args, ok, estimate_memory, NOT_INIT);
    WITH(spgemm_args, ok, estimate_memory, chunk, 0.0f, INVALID);
    WITH(spgemm_args, ok, estimate_memory, chunk, -0.5f, INVALID);
    WITH(spgemm_args, ok, estimate_memory, chunk, 1.5f, INVALID);
    WITH(spgemm_args, ok, estimate_memory, chunk, (float)NAN, INVALID);
    WITH(spgemm_args, ok, estimate_memory, chunk, 1.0f, NOT_INIT);
    WITH(spgemm_args, ok, estimate_memory, size3, NULL, INVALID);
    WITH(spgemm_args, ok, estimate_memory, chunk, 1e-30f, NOT_INIT);
    WITH(spgemm_args, ok, estimate_memory, chunk, (float)INFINITY, INVALID);
    WITH(spgemm_args, ok, estimate_memory, buffer3, FAKE(0x40000), NOT_INIT);
    {
        /* with a buffer3, bufferSize2 receives the budgeted size: checked before the
         * protocol */
        spgemm_args x = spgemm_ok();
        x.buffer3 = FAKE(0x40000);
        x.size2 = NULL;
        expect_status(estimate_memory(&x), INVALID, "estimate_memory with buffer3 and size2 = NULL",
                      __LINE__);
        x.size2 = &size_slot;
        x.chunk = 0.0f;
        expect_status(estimate_memory(&x), INVALID, "estimate_memory with buffer3 and chunk = 0",
                      __LINE__);
    }

    spgemm_common_cases(compute, "tcsSpGEMM_compute");
    BASE(spgemm_args, ok, compute, NOT_INIT);
    WITH(spgemm_args, ok, compute, size2, NULL, INVALID);
    WITH(spgemm_args, ok, compute, buffer2, FAKE(0x40000), NOT_INIT);

    spgemm_common_cases(copy, "tcsSpGEMM_copy");
    BASE(spgemm_args, ok, copy, NOT_INIT);
    FINISH();
}

/* fp16/bf16 data: computeType CUDA_R_32F, the tile algorithms (and DEFAULT and the
 * cuSPARSE values, which run tiles for 16-bit data); not the hash algorithm. The size
 * query of the tile algorithms is host-only work, so valid calls run. */
static void test_spgemm_16bit_arguments(void** state) {
    (void)state;
    if (fx.handle == NULL) skip();
    tcsSpMatDescr_t a16 = csr(4, 5, 6, RP, TCS_INDEX_32I, CUDA_R_16F);
    tcsSpMatDescr_t b16 = csr(5, 3, 4, RP, TCS_INDEX_32I, CUDA_R_16F);
    tcsSpMatDescr_t c16 = csr(4, 3, 0, RP, TCS_INDEX_32I, CUDA_R_16F);
    tcsSpMatDescr_t abf = csr(4, 5, 6, RP, TCS_INDEX_32I, CUDA_R_16BF);
    tcsSpMatDescr_t bbf = csr(5, 3, 4, RP, TCS_INDEX_32I, CUDA_R_16BF);
    tcsSpMatDescr_t cbf = csr(4, 3, 0, RP, TCS_INDEX_32I, CUDA_R_16BF);
    assert_true(a16 && b16 && c16 && abf && bbf && cbf);
    spgemm_args ok = spgemm_ok();
    ok.A = a16, ok.B = b16, ok.C = c16;
    current = "16-bit data";
    const tcsSpGEMMAlg_t runs_tiles[] = {TCS_SPGEMM_DEFAULT, TCS_SPGEMM_ALG_TILE, TCS_SPGEMM_ALG_TILE_TC,
                                         TCS_SPGEMM_ALG1, TCS_SPGEMM_CSR_ALG_DETERMINISTIC};
    for (size_t i = 0; i < sizeof runs_tiles / sizeof runs_tiles[0]; ++i)
        WITH(spgemm_args, ok, work_estimation, alg, runs_tiles[i], OK);
    WITH(spgemm_args, ok, work_estimation, alg, TCS_SPGEMM_ALG_HASH, UNSUPPORTED);
    WITH(spgemm_args, ok, work_estimation, ct, CUDA_R_64F, UNSUPPORTED);
    WITH(spgemm_args, ok, work_estimation, ct, CUDA_R_16F, UNSUPPORTED);
    WITH(spgemm_args, ok, work_estimation, B, bbf, UNSUPPORTED); /* B's type differs from A's */
    WITH(spgemm_args, ok, work_estimation, C, fx.c, UNSUPPORTED); /* C is fp32 */
    WITH(spgemm_args, ok, work_estimation, B, fx.b, UNSUPPORTED);
    WITH(spgemm_args, ok, compute, alg, TCS_SPGEMM_ALG_HASH, UNSUPPORTED);
    WITH(spgemm_args, ok, copy, alg, TCS_SPGEMM_ALG_HASH, UNSUPPORTED);
    spgemm_args bf = ok;
    bf.A = abf, bf.B = bbf, bf.C = cbf;
    BASE(spgemm_args, bf, work_estimation, OK);
    WITH(spgemm_args, bf, work_estimation, ct, CUDA_R_16BF, UNSUPPORTED);
    WITH(spgemm_args, bf, work_estimation, C, c16, UNSUPPORTED);
    /* fp32 data with the tile algorithms: the size query runs. */
    spgemm_args f32 = spgemm_ok();
    WITH(spgemm_args, f32, work_estimation, alg, TCS_SPGEMM_ALG_TILE, OK);
    WITH(spgemm_args, f32, work_estimation, alg, TCS_SPGEMM_ALG_TILE_TC, OK);
    WITH(spgemm_args, f32, work_estimation, A, a16, UNSUPPORTED); /* fp16 A, fp32 B, C */
    tcsSpMatDescr_t all[] = {a16, b16, c16, abf, bbf, cbf};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) tcsDestroySpMat(all[i]);
    FINISH();
}

/* ---- SpMM ---- */

typedef struct {
    tcsHandle_t handle;
    tcsOperation_t opA, opB;
    const void* alpha;
    tcsConstSpMatDescr_t A;
    tcsConstDnMatDescr_t B;
    const void* beta;
    tcsDnMatDescr_t C;
    cudaDataType ct;
    tcsSpMMAlg_t alg;
    size_t* size;
    void* buffer;
} spmm_args;

static spmm_args spmm_ok(void) {
    const spmm_args a = {fx.handle, TCS_OPERATION_NON_TRANSPOSE, TCS_OPERATION_NON_TRANSPOSE,
                         &one, fx.a, fx.bd, &zero, fx.cd, CUDA_R_32F, TCS_SPMM_ALG_DEFAULT,
                         &size_slot, FAKE(0x40000)};
    return a;
}

static tcsStatus_t spmm_buffer_size(const spmm_args* a) {
    return tcsSpMM_bufferSize(a->handle, a->opA, a->opB, a->alpha, a->A, a->B, a->beta, a->C,
                              a->ct, a->alg, a->size);
}
static tcsStatus_t spmm_preprocess(const spmm_args* a) {
    return tcsSpMM_preprocess(a->handle, a->opA, a->opB, a->alpha, a->A, a->B, a->beta, a->C,
                              a->ct, a->alg, a->buffer);
}
static tcsStatus_t spmm(const spmm_args* a) {
    return tcsSpMM(a->handle, a->opA, a->opB, a->alpha, a->A, a->B, a->beta, a->C, a->ct, a->alg,
                   a->buffer);
}

static void spmm_common_cases(tcsStatus_t (*run)(const spmm_args*), const char* name) {
    current = name;
    const spmm_args ok = spmm_ok();
#define SPMM(field, value, want) WITH(spmm_args, ok, run, field, value, want)
    SPMM(handle, NULL, INVALID);
    SPMM(opA, (tcsOperation_t)3, INVALID);
    SPMM(opA, (tcsOperation_t)-1, INVALID);
    SPMM(opB, (tcsOperation_t)5, INVALID);
    SPMM(alpha, NULL, INVALID);
    SPMM(A, NULL, INVALID);
    SPMM(A, DENSE_AS_SPARSE, NOT_INIT);
    SPMM(A, fx.a_coo, UNSUPPORTED);
    SPMM(A, fx.a_bsr64, UNSUPPORTED); /* BSR with 64-bit block column indices */
    SPMM(A, fx.a_idx16, UNSUPPORTED);
    SPMM(A, fx.a_no_offsets, INVALID);
    SPMM(A, fx.a_f64, UNSUPPORTED); /* B is fp32 */
    SPMM(B, NULL, INVALID);
    SPMM(B, (tcsConstDnMatDescr_t)SPARSE_AS_DENSE, NOT_INIT);
    SPMM(B, fx.bd_rows4, INVALID); /* rows of B != columns of A */
    SPMM(B, fx.bd_f64, UNSUPPORTED);
    SPMM(beta, NULL, INVALID);
    SPMM(C, NULL, INVALID);
    SPMM(C, SPARSE_AS_DENSE, NOT_INIT);
    SPMM(C, CONST_DENSE_AS_MUTABLE, INVALID);
    SPMM(C, fx.cd_cols3, INVALID);
    SPMM(C, fx.cd_f64, UNSUPPORTED);
    SPMM(ct, (cudaDataType)77, INVALID);
    SPMM(ct, CUDA_C_32F, INVALID);
    SPMM(ct, CUDA_R_64F, UNSUPPORTED);
    SPMM(ct, CUDA_R_16F, UNSUPPORTED);
    SPMM(alg, (tcsSpMMAlg_t)7, INVALID);
    SPMM(alg, (tcsSpMMAlg_t)-1, INVALID);
    SPMM(alg, (tcsSpMMAlg_t)103, INVALID);
    SPMM(alg, TCS_SPMM_COO_ALG1, UNSUPPORTED); /* an algorithm of another format */
    SPMM(alg, TCS_SPMM_COO_ALG4, UNSUPPORTED);
    SPMM(alg, TCS_SPMM_BLOCKED_ELL_ALG1, UNSUPPORTED);
    SPMM(alg, TCS_SPMM_BSR_ALG1, UNSUPPORTED); /* cuSPARSE's BSR algorithm on a CSR A */
#undef SPMM
    /* The block family (BSR matrices, TCS_SPMM_BSR_TC) takes A as stored, as cuSPARSE's
     * BSR SpMM does; a BSR A takes no CSR algorithm. */
    spmm_args bsr = ok;
    bsr.A = fx.a_bsr;
    bsr.opA = TCS_OPERATION_TRANSPOSE;
    expect_status(run(&bsr), UNSUPPORTED, "BSR matA with opA = T", __LINE__);
    bsr.opA = TCS_OPERATION_CONJUGATE_TRANSPOSE;
    expect_status(run(&bsr), UNSUPPORTED, "BSR matA with opA = C", __LINE__);
    bsr.opA = TCS_OPERATION_NON_TRANSPOSE;
    static const tcsSpMMAlg_t csr_only[] = {TCS_SPMM_CSR_ALG1, TCS_SPMM_CSR_ALG2, TCS_SPMM_CSR_ALG3,
                                            TCS_SPMM_CSR_ROWSPLIT, TCS_SPMM_CSR_MERGE,
                                            TCS_SPMM_COO_ALG4, TCS_SPMM_BLOCKED_ELL_ALG1};
    for (size_t i = 0; i < sizeof csr_only / sizeof csr_only[0]; ++i) {
        bsr.alg = csr_only[i];
        expect_status(run(&bsr), UNSUPPORTED, "BSR matA with an algorithm of another format",
                      __LINE__);
    }
    spmm_args tc = ok;
    tc.alg = TCS_SPMM_BSR_TC;
    tc.opA = TCS_OPERATION_TRANSPOSE;
    expect_status(run(&tc), UNSUPPORTED, "TCS_SPMM_BSR_TC with opA = T", __LINE__);
}

static void test_spmm_arguments(void** state) {
    (void)state;
    if (fx.handle == NULL) skip();
    const spmm_args ok = spmm_ok();
    /* bufferSize is host-only, so the valid call can run; preprocess and SpMM would
     * launch kernels on the fake arrays and are only given invalid arguments. */
    spmm_common_cases(spmm_buffer_size, "tcsSpMM_bufferSize");
    /* The size query of the block family (BSR A, TCS_SPMM_BSR_TC, BSR_ALG1) is host-only
     * too: its buffer is bounded by A's sizes, never by an analysis. */
    WITH(spmm_args, ok, spmm_buffer_size, A, fx.a_bsr, OK);
    WITH(spmm_args, ok, spmm_buffer_size, A, fx.a_idx64, OK); /* both 64-bit */
    WITH(spmm_args, ok, spmm_buffer_size, alg, TCS_SPMM_BSR_TC, OK);
    spmm_args bsr_alg1 = ok;
    bsr_alg1.A = fx.a_bsr;
    bsr_alg1.alg = TCS_SPMM_BSR_ALG1;
    BASE(spmm_args, bsr_alg1, spmm_buffer_size, OK);
    size_slot = 0;
    BASE(spmm_args, ok, spmm_buffer_size, OK);
    const size_t needed = size_slot;
    WITH(spmm_args, ok, spmm_buffer_size, size, NULL, INVALID);
    spmm_common_cases(spmm_preprocess, "tcsSpMM_preprocess");
    if (needed > 0) WITH(spmm_args, ok, spmm_preprocess, buffer, NULL, INVALID);
    spmm_common_cases(spmm, "tcsSpMM");
    if (needed > 0) WITH(spmm_args, ok, spmm, buffer, NULL, INVALID);
    FINISH();
}

/* ---- dense vectors ---- */

typedef struct {
    int null_out;
    int64_t size;
    void* val;
    cudaDataType vt;
} dv_args;

static const dv_args dv_ok = {0, 5, VAL, CUDA_R_32F};

static tcsStatus_t create_dv(const dv_args* a) {
    tcsDnVecDescr_t d = SENTINEL;
    const tcsStatus_t s = tcsCreateDnVec(a->null_out ? NULL : &d, a->size, a->val, a->vt);
    return settle(s, d, 2, __LINE__);
}

static tcsStatus_t create_const_dv(const dv_args* a) {
    tcsConstDnVecDescr_t d = SENTINEL;
    const tcsStatus_t s = tcsCreateConstDnVec(a->null_out ? NULL : &d, a->size, a->val, a->vt);
    return settle(s, (void*)(uintptr_t)d, 2, __LINE__);
}

static void dv_cases(tcsStatus_t (*run)(const dv_args*), const char* name) {
    current = name;
#define DV(field, value, want) WITH(dv_args, dv_ok, run, field, value, want)
    BASE(dv_args, dv_ok, run, OK);
    DV(null_out, 1, INVALID);
    DV(size, -1, INVALID);
    DV(val, NULL, INVALID);
    DV(val, FAKE(0x30002), INVALID); /* not 4-byte aligned for fp32 */
    DV(vt, CUDA_C_32F, INVALID);
    DV(vt, CUDA_R_8I, INVALID);
    DV(vt, (cudaDataType)77, INVALID);
    DV(vt, (cudaDataType)-1, INVALID);
    DV(vt, CUDA_R_64F, OK);
    DV(vt, CUDA_R_16F, OK);
    DV(vt, CUDA_R_16BF, OK);
#undef DV
    dv_args empty = dv_ok;
    empty.size = 0;
    empty.val = NULL;
    BASE(dv_args, empty, run, OK); /* an empty vector needs no array */
    dv_args half = dv_ok;
    half.vt = CUDA_R_16F;
    WITH(dv_args, half, run, val, FAKE(0x30002), OK); /* 2-byte aligned is enough */
    WITH(dv_args, half, run, val, FAKE(0x30001), INVALID);
}

static void test_create_dense_vector(void** state) {
    (void)state;
    dv_cases(create_dv, "tcsCreateDnVec");
    FINISH();
}

static void test_create_const_dense_vector(void** state) {
    (void)state;
    dv_cases(create_const_dv, "tcsCreateConstDnVec");
    FINISH();
}

static void test_dense_vector_accessors(void** state) {
    (void)state;
    int64_t size = -5;
    void* val = SENTINEL;
    const void* cval = SENTINEL;
    cudaDataType vt = (cudaDataType)-5;
    tcsDnVecDescr_t d = fx.x;

    EXPECT(tcsDestroyDnVec(NULL), OK);
    EXPECT(tcsDestroyDnVec((tcsConstDnVecDescr_t)DENSE_AS_VECTOR), NOT_INIT);

    EXPECT(tcsDnVecGet(NULL, &size, &val, &vt), INVALID);
    EXPECT(tcsDnVecGet(DENSE_AS_VECTOR, &size, &val, &vt), NOT_INIT);
    EXPECT(tcsDnVecGet(CONST_VECTOR_AS_MUTABLE, &size, &val, &vt), INVALID);
    EXPECT(tcsDnVecGet(d, NULL, &val, &vt), INVALID);
    EXPECT(tcsDnVecGet(d, &size, NULL, &vt), INVALID);
    EXPECT(tcsDnVecGet(d, &size, &val, NULL), INVALID);
    EXPECT(tcsConstDnVecGet(NULL, &size, &cval, &vt), INVALID);
    EXPECT(tcsConstDnVecGet((tcsConstDnVecDescr_t)DENSE_AS_VECTOR, &size, &cval, &vt), NOT_INIT);
    EXPECT(tcsConstDnVecGet(fx.y_const, NULL, &cval, &vt), INVALID);
    EXPECT(tcsConstDnVecGet(fx.y_const, &size, NULL, &vt), INVALID);
    EXPECT(tcsConstDnVecGet(fx.y_const, &size, &cval, NULL), INVALID);
    EXPECT(tcsDnVecGetValues(NULL, &val), INVALID);
    EXPECT(tcsDnVecGetValues(DENSE_AS_VECTOR, &val), NOT_INIT);
    EXPECT(tcsDnVecGetValues(CONST_VECTOR_AS_MUTABLE, &val), INVALID);
    EXPECT(tcsDnVecGetValues(d, NULL), INVALID);
    EXPECT(tcsConstDnVecGetValues(NULL, &cval), INVALID);
    EXPECT(tcsConstDnVecGetValues(fx.y_const, NULL), INVALID);
    assert_true(size == -5 && val == SENTINEL && cval == SENTINEL && vt == (cudaDataType)-5);

    /* the accessors that succeed report what was created */
    EXPECT(tcsConstDnVecGet(fx.y_const, &size, &cval, &vt), OK);
    assert_true(size == 4 && cval == VAL && vt == CUDA_R_32F);
    EXPECT(tcsConstDnVecGetValues((tcsConstDnVecDescr_t)fx.x_f64, &cval), OK);
    EXPECT(tcsDnVecGet(fx.x_f64, &size, &val, &vt), OK);
    assert_true(size == 5 && val == VAL && vt == CUDA_R_64F);

    EXPECT(tcsDnVecSetValues(NULL, VAL), INVALID);
    EXPECT(tcsDnVecSetValues(DENSE_AS_VECTOR, VAL), NOT_INIT);
    EXPECT(tcsDnVecSetValues(CONST_VECTOR_AS_MUTABLE, VAL), INVALID);
    EXPECT(tcsDnVecSetValues(d, NULL), INVALID);          /* size > 0 */
    EXPECT(tcsDnVecSetValues(d, FAKE(0x30002)), INVALID); /* fp32 alignment */
    EXPECT(tcsDnVecSetValues(d, FAKE(0x30004)), OK);
    EXPECT(tcsDnVecGetValues(d, &val), OK);
    assert_ptr_equal(val, FAKE(0x30004));
    EXPECT(tcsDnVecSetValues(d, VAL), OK);
    FINISH();
}

/* ---- SpMV ---- */

typedef struct {
    tcsHandle_t handle;
    tcsOperation_t opA;
    const void* alpha;
    tcsConstSpMatDescr_t A;
    tcsConstDnVecDescr_t X;
    const void* beta;
    tcsDnVecDescr_t Y;
    cudaDataType ct;
    tcsSpMVAlg_t alg;
    size_t* size;
    void* buffer;
} spmv_args;

static spmv_args spmv_ok(void) {
    const spmv_args a = {fx.handle, TCS_OPERATION_NON_TRANSPOSE, &one, fx.a, fx.x, &zero, fx.y,
                         CUDA_R_32F, TCS_SPMV_ALG_DEFAULT, &size_slot, FAKE(0x40000)};
    return a;
}

static tcsStatus_t spmv_buffer_size(const spmv_args* a) {
    return tcsSpMV_bufferSize(a->handle, a->opA, a->alpha, a->A, a->X, a->beta, a->Y, a->ct,
                              a->alg, a->size);
}
static tcsStatus_t spmv_preprocess(const spmv_args* a) {
    return tcsSpMV_preprocess(a->handle, a->opA, a->alpha, a->A, a->X, a->beta, a->Y, a->ct,
                              a->alg, a->buffer);
}
static tcsStatus_t spmv(const spmv_args* a) {
    return tcsSpMV(a->handle, a->opA, a->alpha, a->A, a->X, a->beta, a->Y, a->ct, a->alg,
                   a->buffer);
}

static void spmv_common_cases(tcsStatus_t (*run)(const spmv_args*), const char* name) {
    current = name;
    const spmv_args ok = spmv_ok();
#define SPMV(field, value, want) WITH(spmv_args, ok, run, field, value, want)
    SPMV(handle, NULL, INVALID);
    SPMV(opA, (tcsOperation_t)3, INVALID);
    SPMV(opA, (tcsOperation_t)-1, INVALID);
    SPMV(opA, TCS_OPERATION_TRANSPOSE, INVALID); /* op(A) is 5 x 4: x and y do not fit */
    SPMV(alpha, NULL, INVALID);
    SPMV(A, NULL, INVALID);
    SPMV(A, DENSE_AS_SPARSE, NOT_INIT);
    SPMV(A, fx.a_coo, UNSUPPORTED);
    SPMV(A, fx.a_bsr, UNSUPPORTED);
    SPMV(A, fx.a_idx16, UNSUPPORTED);
    SPMV(A, fx.a_no_offsets, INVALID);
    SPMV(A, fx.a_f64, UNSUPPORTED); /* x is fp32 */
    SPMV(X, NULL, INVALID);
    SPMV(X, (tcsConstDnVecDescr_t)DENSE_AS_VECTOR, NOT_INIT);
    SPMV(X, fx.y, INVALID); /* 4 elements, op(A) has 5 columns */
    SPMV(X, fx.x_f64, UNSUPPORTED);
    SPMV(beta, NULL, INVALID);
    SPMV(Y, NULL, INVALID);
    SPMV(Y, DENSE_AS_VECTOR, NOT_INIT);
    SPMV(Y, CONST_VECTOR_AS_MUTABLE, INVALID);
    SPMV(Y, fx.x, INVALID); /* 5 elements, op(A) has 4 rows */
    SPMV(Y, fx.y_f64, UNSUPPORTED);
    SPMV(ct, (cudaDataType)77, INVALID);
    SPMV(ct, CUDA_C_32F, INVALID);
    SPMV(ct, CUDA_R_64F, UNSUPPORTED);
    SPMV(ct, CUDA_R_16F, UNSUPPORTED);
    SPMV(alg, (tcsSpMVAlg_t)7, INVALID);
    SPMV(alg, (tcsSpMVAlg_t)-1, INVALID);
    SPMV(alg, (tcsSpMVAlg_t)100, INVALID);
    SPMV(alg, TCS_SPMV_COO_ALG1, UNSUPPORTED); /* an algorithm of another format */
    SPMV(alg, TCS_SPMV_COO_ALG2, UNSUPPORTED);
    SPMV(alg, TCS_SPMV_SELL_ALG1, UNSUPPORTED);
    SPMV(alg, TCS_SPMV_BSR_ALG1, UNSUPPORTED);
#undef SPMV
}

static void test_spmv_arguments(void** state) {
    (void)state;
    if (fx.handle == NULL) skip();
    const spmv_args ok = spmv_ok();
    /* bufferSize is host-only, so the valid calls can run; preprocess and SpMV would
     * launch kernels on the fake arrays and are only given invalid arguments. */
    spmv_common_cases(spmv_buffer_size, "tcsSpMV_bufferSize");
    BASE(spmv_args, ok, spmv_buffer_size, OK);
    WITH(spmv_args, ok, spmv_buffer_size, A, fx.a_idx64, OK); /* both 64-bit */
    const size_t needed = size_slot;
    WITH(spmv_args, ok, spmv_buffer_size, alg, TCS_SPMV_CSR_ALG1, OK);
    WITH(spmv_args, ok, spmv_buffer_size, alg, TCS_SPMV_CSR_ALG2, OK);
    WITH(spmv_args, ok, spmv_buffer_size, size, NULL, INVALID);
    spmv_common_cases(spmv_preprocess, "tcsSpMV_preprocess");
    if (needed > 0) WITH(spmv_args, ok, spmv_preprocess, buffer, NULL, INVALID);
    spmv_common_cases(spmv, "tcsSpMV");
    if (needed > 0) WITH(spmv_args, ok, spmv, buffer, NULL, INVALID);
    FINISH();
}

/* ---- SpGEMMreuse ---- */

typedef struct {
    tcsHandle_t handle;
    tcsOperation_t opA, opB;
    const void* alpha;
    tcsConstSpMatDescr_t A, B;
    const void* beta;
    tcsSpMatDescr_t C;
    cudaDataType ct;
    tcsSpGEMMAlg_t alg;
    tcsSpGEMMDescr_t descr;
    size_t *size1, *size2, *size3, *size4, *size5;
    void *buffer1, *buffer2, *buffer3, *buffer4, *buffer5;
} reuse_args;

static reuse_args reuse_ok(void) {
    const reuse_args a = {fx.handle, TCS_OPERATION_NON_TRANSPOSE, TCS_OPERATION_NON_TRANSPOSE,
                          &one, fx.a, fx.b, &zero, fx.c, CUDA_R_32F, TCS_SPGEMM_DEFAULT, fx.spgemm,
                          &size_slot, &size_slot, &size_slot, &size_slot, &size_slot,
                          NULL, NULL, NULL, NULL, NULL};
    return a;
}

static tcsStatus_t reuse_work_estimation(const reuse_args* a) {
    return tcsSpGEMMreuse_workEstimation(a->handle, a->opA, a->opB, a->A, a->B, a->C, a->alg,
                                         a->descr, a->size1, a->buffer1);
}
static tcsStatus_t reuse_nnz(const reuse_args* a) {
    return tcsSpGEMMreuse_nnz(a->handle, a->opA, a->opB, a->A, a->B, a->C, a->alg, a->descr,
                              a->size2, a->buffer2, a->size3, a->buffer3, a->size4, a->buffer4);
}
static tcsStatus_t reuse_copy(const reuse_args* a) {
    return tcsSpGEMMreuse_copy(a->handle, a->opA, a->opB, a->A, a->B, a->C, a->alg, a->descr,
                               a->size5, a->buffer5);
}
static tcsStatus_t reuse_compute(const reuse_args* a) {
    return tcsSpGEMMreuse_compute(a->handle, a->opA, a->opB, a->alpha, a->A, a->B, a->beta, a->C,
                                  a->ct, a->alg, a->descr);
}

/* The checks the four stages share (compute adds alpha, beta and computeType). */
static void reuse_common_cases(tcsStatus_t (*run)(const reuse_args*), const char* name) {
    current = name;
    const reuse_args ok = reuse_ok();
#define REUSE(field, value, want) WITH(reuse_args, ok, run, field, value, want)
    REUSE(handle, NULL, INVALID);
    REUSE(opA, (tcsOperation_t)3, INVALID);
    REUSE(opA, TCS_OPERATION_TRANSPOSE, UNSUPPORTED);
    REUSE(opB, (tcsOperation_t)-1, INVALID);
    REUSE(opB, TCS_OPERATION_CONJUGATE_TRANSPOSE, UNSUPPORTED);
    REUSE(A, NULL, INVALID);
    REUSE(A, DENSE_AS_SPARSE, NOT_INIT);
    REUSE(A, fx.a_coo, UNSUPPORTED);
    REUSE(A, fx.a_bsr, UNSUPPORTED);
    REUSE(A, fx.a_idx16, UNSUPPORTED);
    REUSE(A, fx.a_no_offsets, INVALID);
    REUSE(A, fx.a_f64, UNSUPPORTED); /* value type differs from C's */
    REUSE(B, NULL, INVALID);
    REUSE(B, DENSE_AS_SPARSE, NOT_INIT);
    REUSE(B, fx.b_rows4, INVALID);
    REUSE(C, NULL, INVALID);
    REUSE(C, DENSE_AS_SPARSE, NOT_INIT);
    REUSE(C, CONST_AS_MUTABLE, INVALID);
    REUSE(C, fx.c_rows5, INVALID);
    REUSE(C, fx.c_idx16, UNSUPPORTED);
    REUSE(C, fx.c_f64, UNSUPPORTED);
    REUSE(alg, (tcsSpGEMMAlg_t)6, INVALID);
    REUSE(alg, (tcsSpGEMMAlg_t)-1, INVALID);
    REUSE(descr, NULL, INVALID);
    REUSE(descr, DENSE_AS_SPGEMM, NOT_INIT);
#undef REUSE
}

static void test_spgemm_reuse_arguments(void** state) {
    (void)state;
    if (fx.handle == NULL) skip();
    tcsSpGEMMDescr_t fresh = NULL;
    assert_int_equal(tcsSpGEMM_createDescr(&fresh), OK);
    reuse_args ok = reuse_ok();
    ok.descr = fresh; /* no protocol has run on it */

    /* Stage 1: the size query is host-only work, so the valid call can run. */
    reuse_common_cases(reuse_work_estimation, "tcsSpGEMMreuse_workEstimation");
    BASE(reuse_args, ok, reuse_work_estimation, OK);
    WITH(reuse_args, ok, reuse_work_estimation, A, fx.a_idx64, OK); /* 64-bit indices */
    WITH(reuse_args, ok, reuse_work_estimation, C, fx.c_idx64, OK);
    WITH(reuse_args, ok, reuse_work_estimation, size1, NULL, INVALID);

    /* The later stages stop at the protocol, after every argument check. */
    reuse_common_cases(reuse_nnz, "tcsSpGEMMreuse_nnz");
    BASE(reuse_args, ok, reuse_nnz, NOT_INIT);
    WITH(reuse_args, ok, reuse_nnz, size2, NULL, INVALID);
    WITH(reuse_args, ok, reuse_nnz, size3, NULL, INVALID);
    WITH(reuse_args, ok, reuse_nnz, size4, NULL, INVALID);

    reuse_common_cases(reuse_copy, "tcsSpGEMMreuse_copy");
    BASE(reuse_args, ok, reuse_copy, NOT_INIT);
    WITH(reuse_args, ok, reuse_copy, size5, NULL, INVALID);

    reuse_common_cases(reuse_compute, "tcsSpGEMMreuse_compute");
    current = "tcsSpGEMMreuse_compute";
    BASE(reuse_args, ok, reuse_compute, NOT_INIT);
    WITH(reuse_args, ok, reuse_compute, alpha, NULL, INVALID);
    WITH(reuse_args, ok, reuse_compute, beta, NULL, INVALID);
    WITH(reuse_args, ok, reuse_compute, ct, (cudaDataType)77, INVALID);
    WITH(reuse_args, ok, reuse_compute, ct, CUDA_R_64F, UNSUPPORTED); /* A, B and C are fp32 */
    WITH(reuse_args, ok, reuse_compute, ct, CUDA_R_16F, UNSUPPORTED);

    /* The plain protocol's stages do not see the reuse protocol's state, and the other
     * way round: a workEstimation of one leaves the other unstarted. */
    current = "tcsSpGEMM_compute";
    size_t bytes = 0;
    EXPECT(tcsSpGEMM_compute(fx.handle, ok.opA, ok.opB, &one, fx.a, fx.b, &zero, fx.c,
                             CUDA_R_32F, TCS_SPGEMM_DEFAULT, fresh, &bytes, NULL),
           NOT_INIT);
    tcsSpGEMM_destroyDescr(fresh);
    FINISH();
}

/* tcsSpMM_getBlockCounts needs no handle: it reads what preprocess left on matA. */
static void test_spmm_block_counts(void** state) {
    (void)state;
    int64_t r = 0, c = 0, nat = 0, re = 0, used = 0;
    int blocks = 0;
    EXPECT(tcsSpMM_getBlockCounts(NULL, &r, &c, &nat, &re, &used, &blocks), INVALID);
    EXPECT(tcsSpMM_getBlockCounts(DENSE_AS_SPARSE, &r, &c, &nat, &re, &used, &blocks), NOT_INIT);
    EXPECT(tcsSpMM_getBlockCounts(fx.a, NULL, &c, &nat, &re, &used, &blocks), INVALID);
    EXPECT(tcsSpMM_getBlockCounts(fx.a, &r, NULL, &nat, &re, &used, &blocks), INVALID);
    EXPECT(tcsSpMM_getBlockCounts(fx.a, &r, &c, NULL, &re, &used, &blocks), INVALID);
    EXPECT(tcsSpMM_getBlockCounts(fx.a, &r, &c, &nat, NULL, &used, &blocks), INVALID);
    EXPECT(tcsSpMM_getBlockCounts(fx.a, &r, &c, &nat, &re, NULL, &blocks), INVALID);
    EXPECT(tcsSpMM_getBlockCounts(fx.a, &r, &c, &nat, &re, &used, NULL), INVALID);
    /* never preprocessed: no block analysis to report */
    EXPECT(tcsSpMM_getBlockCounts(fx.a, &r, &c, &nat, &re, &used, &blocks), NOT_INIT);
    EXPECT(tcsSpMM_getBlockCounts(fx.a_bsr, &r, &c, &nat, &re, &used, &blocks), NOT_INIT);
    FINISH();
}

int main(void) {
    const struct CMUnitTest tests[] = {
        TEST(test_version_and_property),
        TEST(test_create_without_gpu),
        TEST(test_handle_functions_with_null_handle),
        TEST(test_handle_arguments),
        TEST(test_create_csr),
        TEST(test_create_const_csr),
        TEST(test_create_coo),
        TEST(test_create_bsr),
        TEST(test_sparse_accessors),
        TEST(test_create_dense),
        TEST(test_create_const_dense),
        TEST(test_dense_accessors),
        TEST(test_spgemm_descriptor_functions),
        TEST(test_spgemm_arguments),
        TEST(test_spgemm_16bit_arguments),
        TEST(test_spmm_arguments),
        TEST(test_create_dense_vector),
        TEST(test_create_const_dense_vector),
        TEST(test_dense_vector_accessors),
        TEST(test_spmv_arguments),
        TEST(test_spgemm_reuse_arguments),
        TEST(test_spmm_block_counts),
    };
    return cmocka_run_group_tests(tests, create_objects, destroy_objects);
}
