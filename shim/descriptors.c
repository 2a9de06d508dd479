/* cuSPARSE CSR and dense matrix descriptors, forwarded to tcsparse: the descriptors the
 * products take. COO, CSC, BSR, ELL, SpVec and DnVec descriptors are NOT_SUPPORTED
 * (generated, unsupported.c): no tcsparse product takes them, so failing at creation
 * tells the caller at the first call instead of at the product. */
#include "shim.h"

/* ---- Sparse ---- */

cusparseStatus_t CUSPARSEAPI cusparseCreateCsr(cusparseSpMatDescr_t* spMatDescr, int64_t rows,
                                               int64_t cols, int64_t nnz, void* csrRowOffsets,
                                               void* csrColInd, void* csrValues,
                                               cusparseIndexType_t csrRowOffsetsType,
                                               cusparseIndexType_t csrColIndType,
                                               cusparseIndexBase_t idxBase,
                                               cudaDataType valueType) {
    tcsSpMatDescr_t d = NULL;
    const tcsStatus_t status =
        tcsCreateCsr(TCS_SHIM_OUT(spMatDescr, d), rows, cols, nnz, csrRowOffsets, csrColInd,
                     csrValues, (tcsIndexType_t)csrRowOffsetsType, (tcsIndexType_t)csrColIndType,
                     (tcsIndexBase_t)idxBase, valueType);
    if (status == TCS_STATUS_SUCCESS) *spMatDescr = (cusparseSpMatDescr_t)d;
    return TCS_SHIM_STATUS(status);
}

cusparseStatus_t CUSPARSEAPI cusparseCreateConstCsr(
    cusparseConstSpMatDescr_t* spMatDescr, int64_t rows, int64_t cols, int64_t nnz,
    const void* csrRowOffsets, const void* csrColInd, const void* csrValues,
    cusparseIndexType_t csrRowOffsetsType, cusparseIndexType_t csrColIndType,
    cusparseIndexBase_t idxBase, cudaDataType valueType) {
    tcsConstSpMatDescr_t d = NULL;
    const tcsStatus_t status = tcsCreateConstCsr(
        TCS_SHIM_OUT(spMatDescr, d), rows, cols, nnz, csrRowOffsets, csrColInd, csrValues,
        (tcsIndexType_t)csrRowOffsetsType, (tcsIndexType_t)csrColIndType,
        (tcsIndexBase_t)idxBase, valueType);
    if (status == TCS_STATUS_SUCCESS) *spMatDescr = (cusparseConstSpMatDescr_t)d;
    return TCS_SHIM_STATUS(status);
}

cusparseStatus_t CUSPARSEAPI cusparseDestroySpMat(cusparseConstSpMatDescr_t spMatDescr) {
    return TCS_SHIM_STATUS(tcsDestroySpMat((tcsConstSpMatDescr_t)spMatDescr));
}

cusparseStatus_t CUSPARSEAPI cusparseSpMatGetSize(cusparseConstSpMatDescr_t spMatDescr,
                                                  int64_t* rows, int64_t* cols, int64_t* nnz) {
    return TCS_SHIM_STATUS(tcsSpMatGetSize((tcsConstSpMatDescr_t)spMatDescr, rows, cols, nnz));
}

cusparseStatus_t CUSPARSEAPI cusparseSpMatGetFormat(cusparseConstSpMatDescr_t spMatDescr,
                                                    cusparseFormat_t* format) {
    tcsFormat_t f = TCS_FORMAT_CSR;
    const tcsStatus_t status =
        tcsSpMatGetFormat((tcsConstSpMatDescr_t)spMatDescr, TCS_SHIM_OUT(format, f));
    if (status == TCS_STATUS_SUCCESS) *format = (cusparseFormat_t)f;
    return TCS_SHIM_STATUS(status);
}

cusparseStatus_t CUSPARSEAPI cusparseSpMatGetIndexBase(cusparseConstSpMatDescr_t spMatDescr,
                                                       cusparseIndexBase_t* idxBase) {
    tcsIndexBase_t b = TCS_INDEX_BASE_ZERO;
    const tcsStatus_t status =
        tcsSpMatGetIndexBase((tcsConstSpMatDescr_t)spMatDescr, TCS_SHIM_OUT(idxBase, b));
    if (status == TCS_STATUS_SUCCESS) *idxBase = (cusparseIndexBase_t)b;
    return TCS_SHIM_STATUS(status);
}

cusparseStatus_t CUSPARSEAPI cusparseSpMatGetValues(cusparseSpMatDescr_t spMatDescr,
                                                    void** values) {
    return TCS_SHIM_STATUS(tcsSpMatGetValues((tcsSpMatDescr_t)spMatDescr, values));
}

cusparseStatus_t CUSPARSEAPI cusparseSpMatSetValues(cusparseSpMatDescr_t spMatDescr,
                                                    void* values) {
    return TCS_SHIM_STATUS(tcsSpMatSetValues((tcsSpMatDescr_t)spMatDescr, values));
}

cusparseStatus_t CUSPARSEAPI cusparseCsrGet(cusparseSpMatDescr_t spMatDescr, int64_t* rows,
                                            int64_t* cols, int64_t* nnz, void** csrRowOffsets,
                                            void** csrColInd, void** csrValues,
                                            cusparseIndexType_t* csrRowOffsetsType,
                                            cusparseIndexType_t* csrColIndType,
                                            cusparseIndexBase_t* idxBase,
                                            cudaDataType* valueType) {
    tcsIndexType_t offsets_type = TCS_INDEX_32I, columns_type = TCS_INDEX_32I;
    tcsIndexBase_t base = TCS_INDEX_BASE_ZERO;
    const tcsStatus_t status = tcsCsrGet(
        (tcsSpMatDescr_t)spMatDescr, rows, cols, nnz, csrRowOffsets, csrColInd, csrValues,
        TCS_SHIM_OUT(csrRowOffsetsType, offsets_type), TCS_SHIM_OUT(csrColIndType, columns_type),
        TCS_SHIM_OUT(idxBase, base), valueType);
    if (status == TCS_STATUS_SUCCESS) {
        *csrRowOffsetsType = (cusparseIndexType_t)offsets_type;
        *csrColIndType = (cusparseIndexType_t)columns_type;
        *idxBase = (cusparseIndexBase_t)base;
    }
    return TCS_SHIM_STATUS(status);
}

cusparseStatus_t CUSPARSEAPI cusparseCsrSetPointers(cusparseSpMatDescr_t spMatDescr,
                                                    void* csrRowOffsets, void* csrColInd,
                                                    void* csrValues) {
    return TCS_SHIM_STATUS(
        tcsCsrSetPointers((tcsSpMatDescr_t)spMatDescr, csrRowOffsets, csrColInd, csrValues));
}

/* ---- Dense ---- */

cusparseStatus_t CUSPARSEAPI cusparseCreateDnMat(cusparseDnMatDescr_t* dnMatDescr, int64_t rows,
                                                 int64_t cols, int64_t ld, void* values,
                                                 cudaDataType valueType, cusparseOrder_t order) {
    tcsDnMatDescr_t d = NULL;
    const tcsStatus_t status = tcsCreateDnMat(TCS_SHIM_OUT(dnMatDescr, d), rows, cols, ld,
                                              values, valueType, (tcsOrder_t)order);
    if (status == TCS_STATUS_SUCCESS) *dnMatDescr = (cusparseDnMatDescr_t)d;
    return TCS_SHIM_STATUS(status);
}

cusparseStatus_t CUSPARSEAPI cusparseCreateConstDnMat(cusparseConstDnMatDescr_t* dnMatDescr,
                                                      int64_t rows, int64_t cols, int64_t ld,
                                                      const void* values, cudaDataType valueType,
                                                      cusparseOrder_t order) {
    tcsConstDnMatDescr_t d = NULL;
    const tcsStatus_t status = tcsCreateConstDnMat(TCS_SHIM_OUT(dnMatDescr, d), rows, cols, ld,
                                                   values, valueType, (tcsOrder_t)order);
    if (status == TCS_STATUS_SUCCESS) *dnMatDescr = (cusparseConstDnMatDescr_t)d;
    return TCS_SHIM_STATUS(status);
}

cusparseStatus_t CUSPARSEAPI cusparseDestroyDnMat(cusparseConstDnMatDescr_t dnMatDescr) {
    return TCS_SHIM_STATUS(tcsDestroyDnMat((tcsConstDnMatDescr_t)dnMatDescr));
}

cusparseStatus_t CUSPARSEAPI cusparseDnMatGet(cusparseDnMatDescr_t dnMatDescr, int64_t* rows,
                                              int64_t* cols, int64_t* ld, void** values,
                                              cudaDataType* type, cusparseOrder_t* order) {
    tcsOrder_t o = TCS_ORDER_COL;
    const tcsStatus_t status = tcsDnMatGet((tcsDnMatDescr_t)dnMatDescr, rows, cols, ld, values,
                                           type, TCS_SHIM_OUT(order, o));
    if (status == TCS_STATUS_SUCCESS) *order = (cusparseOrder_t)o;
    return TCS_SHIM_STATUS(status);
}

cusparseStatus_t CUSPARSEAPI cusparseDnMatGetValues(cusparseDnMatDescr_t dnMatDescr,
                                                    void** values) {
    return TCS_SHIM_STATUS(tcsDnMatGetValues((tcsDnMatDescr_t)dnMatDescr, values));
}

cusparseStatus_t CUSPARSEAPI cusparseDnMatSetValues(cusparseDnMatDescr_t dnMatDescr,
                                                    void* values) {
    return TCS_SHIM_STATUS(tcsDnMatSetValues((tcsDnMatDescr_t)dnMatDescr, values));
}
