/*
 * tcsparse_cusparse.h: source-level swap-in of tcsparse for cuSPARSE.
 *
 * A program written against the cuSPARSE generic API switches to tcsparse with one
 * include and a relink:
 *
 *     #include <tcsparse_cusparse.h>      instead of   #include <cusparse.h>
 *     cc ... -ltcsparse                   instead of   cc ... -lcusparse
 *
 * or without editing the source at all, by forcing this header in first:
 *
 *     cc -include tcsparse_cusparse.h ... -ltcsparse     (nvcc: --pre-include)
 *
 * This header defines the include guard of the real <cusparse.h> (CUSPARSE_H_), so a
 * later #include <cusparse.h> or <cusparse_v2.h> in the same translation unit becomes
 * a no-op; including the real header *first* is an error, because the two cannot
 * describe the same names. Like the real header it brings in <cuComplex.h>,
 * <cuda_runtime_api.h>, <library_types.h>, <stdint.h> and <stdio.h> (and <cuda_fp16.h>
 * in C++), which code that includes <cusparse.h> often relies on.
 *
 * What is mapped (docs/migration.md has the whole table):
 *  - the types, as typedefs of the tcs types: cusparseStatus_t, cusparseHandle_t,
 *    cusparsePointerMode_t, cusparseOperation_t, cusparseIndexBase_t,
 *    cusparseIndexType_t, cusparseOrder_t, cusparseFormat_t, cusparse(Const)SpMatDescr_t,
 *    cusparse(Const)DnMatDescr_t, cusparse(Const)DnVecDescr_t, cusparseSpGEMMDescr_t,
 *    cusparseSpGEMMAlg_t, cusparseSpMMAlg_t, cusparseSpMVAlg_t; every enum value is
 *    numerically the cuSPARSE one;
 *  - the CUSPARSE_* constants of those enums, including cuSPARSE's own misspellings
 *    CUSPARSE_SPGEMM_CSR_ALG_DETERMINITIC and _NONDETERMINITIC;
 *  - the functions tcsparse implements, as #define cusparseX tcsX: handle, stream,
 *    pointer mode, error strings, version and property; CSR and dense matrix
 *    descriptors (create, const create, get, set, destroy); dense vectors (all eight
 *    functions); SpGEMM (all seven); the SpGEMMreuse family (all four); SpMM (all
 *    three); SpMV (all three).
 *
 * What is not mapped: every other cuSPARSE function and type (SpVec, COO, CSC, BSR
 * and ELL descriptors, which no tcsparse product takes yet, SpSV, conversions, the
 * Const*Get accessors of matrices, the legacy API). The binary shim,
 * libtcsparse_cusparse.so, forwards those to the real cuSPARSE; this header, which
 * builds against tcsparse alone, cannot. A call to
 * one of them does not compile or does not link, which names exactly what tcsparse
 * lacks; nothing is silently routed to a stub. Mixing is possible per translation
 * unit: files compiled with this header use tcsparse, the others cuSPARSE, and a
 * handle or descriptor must never cross between the two.
 *
 * Two functions differ on purpose: cusparseGetVersion and cusparseGetProperty report
 * the cuSPARSE API level this header emulates (CUSPARSE_VERSION, 12.6.0), because
 * callers compare them with cuSPARSE versions; tcsGetVersion gives tcsparse's own.
 * cusparseGetErrorName returns the tcsparse names ("TCS_STATUS_INVALID_VALUE"), which
 * tells a reader of a solver's log which library answered.
 */
#ifndef TCSPARSE_CUSPARSE_H_
#define TCSPARSE_CUSPARSE_H_

#if defined(CUSPARSE_H_)
#  error "tcsparse_cusparse.h replaces <cusparse.h>: include it instead of <cusparse.h> (or before it, which makes <cusparse.h> a no-op), never after it"
#endif
/* The real header's include guard: a later #include <cusparse.h> becomes a no-op. */
#define CUSPARSE_H_

#include <cuComplex.h>
#include <cuda_runtime_api.h>
#include <library_types.h>
#include <stdint.h>
#include <stdio.h>
#if defined(__cplusplus)
#  include <cuda_fp16.h>
#endif

#include "tcsparse.h"

/* The cuSPARSE API level emulated: cuSPARSE 12.6, the generic API with const
 * descriptors. Solvers test CUSPARSE_VERSION (MAJOR*1000 + MINOR*100 + PATCH, the
 * real header's formula) to select their generic-API code paths. */
#define CUSPARSE_VER_MAJOR 12
#define CUSPARSE_VER_MINOR 6
#define CUSPARSE_VER_PATCH 0
#define CUSPARSE_VER_BUILD 0
#define CUSPARSE_VERSION (CUSPARSE_VER_MAJOR * 1000 + CUSPARSE_VER_MINOR * 100 + CUSPARSE_VER_PATCH)

#if !defined(CUSPARSEAPI)
#  define CUSPARSEAPI
#endif

/* ---- Types ---------------------------------------------------------------------- */

typedef tcsStatus_t           cusparseStatus_t;
typedef tcsHandle_t           cusparseHandle_t;
typedef tcsPointerMode_t      cusparsePointerMode_t;
typedef tcsOperation_t        cusparseOperation_t;
typedef tcsIndexBase_t        cusparseIndexBase_t;
typedef tcsIndexType_t        cusparseIndexType_t;
typedef tcsOrder_t            cusparseOrder_t;
typedef tcsFormat_t           cusparseFormat_t;
typedef tcsSpMatDescr_t       cusparseSpMatDescr_t;
typedef tcsConstSpMatDescr_t  cusparseConstSpMatDescr_t;
typedef tcsDnMatDescr_t       cusparseDnMatDescr_t;
typedef tcsConstDnMatDescr_t  cusparseConstDnMatDescr_t;
typedef tcsSpGEMMDescr_t      cusparseSpGEMMDescr_t;
typedef tcsSpGEMMAlg_t        cusparseSpGEMMAlg_t;
typedef tcsSpMMAlg_t          cusparseSpMMAlg_t;
typedef tcsSpMVAlg_t          cusparseSpMVAlg_t;
typedef tcsDnVecDescr_t       cusparseDnVecDescr_t;
typedef tcsConstDnVecDescr_t  cusparseConstDnVecDescr_t;

/* ---- Enum constants ------------------------------------------------------------- */

#define CUSPARSE_STATUS_SUCCESS                   TCS_STATUS_SUCCESS
#define CUSPARSE_STATUS_NOT_INITIALIZED           TCS_STATUS_NOT_INITIALIZED
#define CUSPARSE_STATUS_ALLOC_FAILED              TCS_STATUS_ALLOC_FAILED
#define CUSPARSE_STATUS_INVALID_VALUE             TCS_STATUS_INVALID_VALUE
#define CUSPARSE_STATUS_ARCH_MISMATCH             TCS_STATUS_ARCH_MISMATCH
#define CUSPARSE_STATUS_MAPPING_ERROR             TCS_STATUS_MAPPING_ERROR
#define CUSPARSE_STATUS_EXECUTION_FAILED          TCS_STATUS_EXECUTION_FAILED
#define CUSPARSE_STATUS_INTERNAL_ERROR            TCS_STATUS_INTERNAL_ERROR
#define CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED TCS_STATUS_MATRIX_TYPE_NOT_SUPPORTED
#define CUSPARSE_STATUS_ZERO_PIVOT                TCS_STATUS_ZERO_PIVOT
#define CUSPARSE_STATUS_NOT_SUPPORTED             TCS_STATUS_NOT_SUPPORTED
#define CUSPARSE_STATUS_INSUFFICIENT_RESOURCES    TCS_STATUS_INSUFFICIENT_RESOURCES

#define CUSPARSE_POINTER_MODE_HOST   TCS_POINTER_MODE_HOST
#define CUSPARSE_POINTER_MODE_DEVICE TCS_POINTER_MODE_DEVICE

#define CUSPARSE_OPERATION_NON_TRANSPOSE       TCS_OPERATION_NON_TRANSPOSE
#define CUSPARSE_OPERATION_TRANSPOSE           TCS_OPERATION_TRANSPOSE
#define CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE TCS_OPERATION_CONJUGATE_TRANSPOSE

#define CUSPARSE_INDEX_BASE_ZERO TCS_INDEX_BASE_ZERO
#define CUSPARSE_INDEX_BASE_ONE  TCS_INDEX_BASE_ONE

#define CUSPARSE_INDEX_16U TCS_INDEX_16U
#define CUSPARSE_INDEX_32I TCS_INDEX_32I
#define CUSPARSE_INDEX_64I TCS_INDEX_64I

#define CUSPARSE_ORDER_COL TCS_ORDER_COL
#define CUSPARSE_ORDER_ROW TCS_ORDER_ROW

#define CUSPARSE_FORMAT_CSR TCS_FORMAT_CSR
#define CUSPARSE_FORMAT_COO TCS_FORMAT_COO
#define CUSPARSE_FORMAT_BSR TCS_FORMAT_BSR

/* The real header's spellings first; the correct ones (hipSPARSE's) as a courtesy. */
#define CUSPARSE_SPGEMM_DEFAULT                  TCS_SPGEMM_DEFAULT
#define CUSPARSE_SPGEMM_CSR_ALG_DETERMINITIC     TCS_SPGEMM_CSR_ALG_DETERMINISTIC
#define CUSPARSE_SPGEMM_CSR_ALG_NONDETERMINITIC  TCS_SPGEMM_CSR_ALG_NONDETERMINISTIC
#define CUSPARSE_SPGEMM_CSR_ALG_DETERMINISTIC    TCS_SPGEMM_CSR_ALG_DETERMINISTIC
#define CUSPARSE_SPGEMM_CSR_ALG_NONDETERMINISTIC TCS_SPGEMM_CSR_ALG_NONDETERMINISTIC
#define CUSPARSE_SPGEMM_ALG1                     TCS_SPGEMM_ALG1
#define CUSPARSE_SPGEMM_ALG2                     TCS_SPGEMM_ALG2
#define CUSPARSE_SPGEMM_ALG3                     TCS_SPGEMM_ALG3

#define CUSPARSE_SPMM_ALG_DEFAULT      TCS_SPMM_ALG_DEFAULT
#define CUSPARSE_SPMM_COO_ALG1         TCS_SPMM_COO_ALG1
#define CUSPARSE_SPMM_COO_ALG2         TCS_SPMM_COO_ALG2
#define CUSPARSE_SPMM_COO_ALG3         TCS_SPMM_COO_ALG3
#define CUSPARSE_SPMM_COO_ALG4         TCS_SPMM_COO_ALG4
#define CUSPARSE_SPMM_CSR_ALG1         TCS_SPMM_CSR_ALG1
#define CUSPARSE_SPMM_CSR_ALG2         TCS_SPMM_CSR_ALG2
#define CUSPARSE_SPMM_CSR_ALG3         TCS_SPMM_CSR_ALG3
#define CUSPARSE_SPMM_BLOCKED_ELL_ALG1 TCS_SPMM_BLOCKED_ELL_ALG1
#define CUSPARSE_SPMM_BSR_ALG1         TCS_SPMM_BSR_ALG1

#define CUSPARSE_SPMV_ALG_DEFAULT TCS_SPMV_ALG_DEFAULT
#define CUSPARSE_SPMV_COO_ALG1    TCS_SPMV_COO_ALG1
#define CUSPARSE_SPMV_CSR_ALG1    TCS_SPMV_CSR_ALG1
#define CUSPARSE_SPMV_CSR_ALG2    TCS_SPMV_CSR_ALG2
#define CUSPARSE_SPMV_COO_ALG2    TCS_SPMV_COO_ALG2
#define CUSPARSE_SPMV_SELL_ALG1   TCS_SPMV_SELL_ALG1
#define CUSPARSE_SPMV_BSR_ALG1    TCS_SPMV_BSR_ALG1

/* ---- Functions ------------------------------------------------------------------ */

#define cusparseCreate            tcsCreate
#define cusparseDestroy           tcsDestroy
#define cusparseSetStream         tcsSetStream
#define cusparseGetStream         tcsGetStream
#define cusparseSetPointerMode    tcsSetPointerMode
#define cusparseGetPointerMode    tcsGetPointerMode
#define cusparseGetErrorName      tcsGetErrorName
#define cusparseGetErrorString    tcsGetErrorString
#define cusparseGetVersion        tcs_cusparse_get_version
#define cusparseGetProperty       tcs_cusparse_get_property

#define cusparseCreateCsr         tcsCreateCsr
#define cusparseCreateConstCsr    tcsCreateConstCsr
#define cusparseDestroySpMat      tcsDestroySpMat
#define cusparseSpMatGetSize      tcsSpMatGetSize
#define cusparseSpMatGetFormat    tcsSpMatGetFormat
#define cusparseSpMatGetIndexBase tcsSpMatGetIndexBase
#define cusparseSpMatGetValues    tcsSpMatGetValues
#define cusparseSpMatSetValues    tcsSpMatSetValues
#define cusparseCsrGet            tcsCsrGet
#define cusparseCsrSetPointers    tcsCsrSetPointers

#define cusparseCreateDnMat       tcsCreateDnMat
#define cusparseCreateConstDnMat  tcsCreateConstDnMat
#define cusparseDestroyDnMat      tcsDestroyDnMat
#define cusparseDnMatGet          tcsDnMatGet
#define cusparseDnMatGetValues    tcsDnMatGetValues
#define cusparseDnMatSetValues    tcsDnMatSetValues

#define cusparseCreateDnVec         tcsCreateDnVec
#define cusparseCreateConstDnVec    tcsCreateConstDnVec
#define cusparseDestroyDnVec        tcsDestroyDnVec
#define cusparseDnVecGet            tcsDnVecGet
#define cusparseConstDnVecGet       tcsConstDnVecGet
#define cusparseDnVecGetValues      tcsDnVecGetValues
#define cusparseConstDnVecGetValues tcsConstDnVecGetValues
#define cusparseDnVecSetValues      tcsDnVecSetValues

#define cusparseSpGEMM_createDescr    tcsSpGEMM_createDescr
#define cusparseSpGEMM_destroyDescr   tcsSpGEMM_destroyDescr
#define cusparseSpGEMM_workEstimation tcsSpGEMM_workEstimation
#define cusparseSpGEMM_getNumProducts tcsSpGEMM_getNumProducts
#define cusparseSpGEMM_estimateMemory tcsSpGEMM_estimateMemory
#define cusparseSpGEMM_compute        tcsSpGEMM_compute
#define cusparseSpGEMM_copy           tcsSpGEMM_copy

#define cusparseSpGEMMreuse_workEstimation tcsSpGEMMreuse_workEstimation
#define cusparseSpGEMMreuse_nnz            tcsSpGEMMreuse_nnz
#define cusparseSpGEMMreuse_copy           tcsSpGEMMreuse_copy
#define cusparseSpGEMMreuse_compute        tcsSpGEMMreuse_compute

#define cusparseSpMM_bufferSize   tcsSpMM_bufferSize
#define cusparseSpMM_preprocess   tcsSpMM_preprocess
#define cusparseSpMM              tcsSpMM

#define cusparseSpMV_bufferSize   tcsSpMV_bufferSize
#define cusparseSpMV_preprocess   tcsSpMV_preprocess
#define cusparseSpMV              tcsSpMV

#ifdef __cplusplus
extern "C" {
#endif

/* cusparseGetVersion: the argument checks of tcsGetVersion, the emulated level. */
static inline tcsStatus_t tcs_cusparse_get_version(tcsHandle_t handle, int* version) {
    const tcsStatus_t status = tcsGetVersion(handle, version);
    if (status == TCS_STATUS_SUCCESS) *version = CUSPARSE_VERSION;
    return status;
}

/* cusparseGetProperty: the argument checks of tcsGetProperty, the emulated level. */
static inline tcsStatus_t tcs_cusparse_get_property(libraryPropertyType type, int* value) {
    const tcsStatus_t status = tcsGetProperty(type, value);
    if (status == TCS_STATUS_SUCCESS)
        *value = type == MAJOR_VERSION   ? CUSPARSE_VER_MAJOR
                 : type == MINOR_VERSION ? CUSPARSE_VER_MINOR
                                         : CUSPARSE_VER_PATCH;
    return status;
}

#ifdef __cplusplus
}
#endif

#endif /* TCSPARSE_CUSPARSE_H_ */
