/* cuSPARSE SpGEMM (all seven functions) and SpMM (all three), forwarded to tcsparse.
 * The protocol state (stage reached, buffers remembered until copy) lives in the
 * tcsparse descriptor, so the shim only converts the argument types. */
#include "shim.h"

/* The arguments every SpGEMM stage shares, converted to the tcs types. */
#define TCS_SHIM_SPGEMM_ARGS                                                              \
    (tcsHandle_t)handle, (tcsOperation_t)opA, (tcsOperation_t)opB, alpha,                 \
        (tcsConstSpMatDescr_t)matA, (tcsConstSpMatDescr_t)matB, beta,                     \
        (tcsSpMatDescr_t)matC, computeType, (tcsSpGEMMAlg_t)alg, (tcsSpGEMMDescr_t)spgemmDescr

/* The arguments the three SpMM calls share. */
#define TCS_SHIM_SPMM_ARGS                                                                \
    (tcsHandle_t)handle, (tcsOperation_t)opA, (tcsOperation_t)opB, alpha,                 \
        (tcsConstSpMatDescr_t)matA, (tcsConstDnMatDescr_t)matB, beta, (tcsDnMatDescr_t)matC, \
        computeType, (tcsSpMMAlg_t)alg

/* ---- SpGEMM ---- */

cusparseStatus_t CUSPARSEAPI cusparseSpGEMM_createDescr(cusparseSpGEMMDescr_t* descr) {
    tcsSpGEMMDescr_t d = NULL;
    const tcsStatus_t status = tcsSpGEMM_createDescr(TCS_SHIM_OUT(descr, d));
    if (status == TCS_STATUS_SUCCESS) *descr = (cusparseSpGEMMDescr_t)d;
    return TCS_SHIM_STATUS(status);
}

cusparseStatus_t CUSPARSEAPI cusparseSpGEMM_destroyDescr(cusparseSpGEMMDescr_t descr) {
    return TCS_SHIM_STATUS(tcsSpGEMM_destroyDescr((tcsSpGEMMDescr_t)descr));
}

cusparseStatus_t CUSPARSEAPI cusparseSpGEMM_workEstimation(
    cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB, const void* alpha,
    cusparseConstSpMatDescr_t matA, cusparseConstSpMatDescr_t matB, const void* beta,
    cusparseSpMatDescr_t matC, cudaDataType computeType, cusparseSpGEMMAlg_t alg,
    cusparseSpGEMMDescr_t spgemmDescr, size_t* bufferSize1, void* externalBuffer1) {
    return TCS_SHIM_STATUS(
        tcsSpGEMM_workEstimation(TCS_SHIM_SPGEMM_ARGS, bufferSize1, externalBuffer1));
}

cusparseStatus_t CUSPARSEAPI cusparseSpGEMM_getNumProducts(cusparseSpGEMMDescr_t spgemmDescr,
                                                           int64_t* num_prods) {
    return TCS_SHIM_STATUS(tcsSpGEMM_getNumProducts((tcsSpGEMMDescr_t)spgemmDescr, num_prods));
}

cusparseStatus_t CUSPARSEAPI cusparseSpGEMM_estimateMemory(
    cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB, const void* alpha,
    cusparseConstSpMatDescr_t matA, cusparseConstSpMatDescr_t matB, const void* beta,
    cusparseSpMatDescr_t matC, cudaDataType computeType, cusparseSpGEMMAlg_t alg,
    cusparseSpGEMMDescr_t spgemmDescr, float chunk_fraction, size_t* bufferSize3,
    void* externalBuffer3, size_t* bufferSize2) {
    return TCS_SHIM_STATUS(tcsSpGEMM_estimateMemory(TCS_SHIM_SPGEMM_ARGS, chunk_fraction,
                                                    bufferSize3, externalBuffer3, bufferSize2));
}

cusparseStatus_t CUSPARSEAPI cusparseSpGEMM_compute(
    cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB, const void* alpha,
    cusparseConstSpMatDescr_t matA, cusparseConstSpMatDescr_t matB, const void* beta,
    cusparseSpMatDescr_t matC, cudaDataType computeType, cusparseSpGEMMAlg_t alg,
    cusparseSpGEMMDescr_t spgemmDescr, size_t* bufferSize2, void* externalBuffer2) {
    return TCS_SHIM_STATUS(tcsSpGEMM_compute(TCS_SHIM_SPGEMM_ARGS, bufferSize2, externalBuffer2));
}

cusparseStatus_t CUSPARSEAPI cusparseSpGEMM_copy(
    cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB, const void* alpha,
    cusparseConstSpMatDescr_t matA, cusparseConstSpMatDescr_t matB, const void* beta,
    cusparseSpMatDescr_t matC, cudaDataType computeType, cusparseSpGEMMAlg_t alg,
    cusparseSpGEMMDescr_t spgemmDescr) {
    return TCS_SHIM_STATUS(tcsSpGEMM_copy(TCS_SHIM_SPGEMM_ARGS));
}

/* ---- SpMM ---- */

cusparseStatus_t CUSPARSEAPI cusparseSpMM_bufferSize(
    cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB, const void* alpha,
    cusparseConstSpMatDescr_t matA, cusparseConstDnMatDescr_t matB, const void* beta,
    cusparseDnMatDescr_t matC, cudaDataType computeType, cusparseSpMMAlg_t alg,
    size_t* bufferSize) {
    return TCS_SHIM_STATUS(tcsSpMM_bufferSize(TCS_SHIM_SPMM_ARGS, bufferSize));
}

cusparseStatus_t CUSPARSEAPI cusparseSpMM_preprocess(
    cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB, const void* alpha,
    cusparseConstSpMatDescr_t matA, cusparseConstDnMatDescr_t matB, const void* beta,
    cusparseDnMatDescr_t matC, cudaDataType computeType, cusparseSpMMAlg_t alg,
    void* externalBuffer) {
    return TCS_SHIM_STATUS(tcsSpMM_preprocess(TCS_SHIM_SPMM_ARGS, externalBuffer));
}

cusparseStatus_t CUSPARSEAPI cusparseSpMM(cusparseHandle_t handle, cusparseOperation_t opA,
                                          cusparseOperation_t opB, const void* alpha,
                                          cusparseConstSpMatDescr_t matA,
                                          cusparseConstDnMatDescr_t matB, const void* beta,
                                          cusparseDnMatDescr_t matC, cudaDataType computeType,
                                          cusparseSpMMAlg_t alg, void* externalBuffer) {
    return TCS_SHIM_STATUS(tcsSpMM(TCS_SHIM_SPMM_ARGS, externalBuffer));
}
