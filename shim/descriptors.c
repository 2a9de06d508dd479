/* cuSPARSE sparse matrix, dense matrix and dense vector descriptors, kept by the shim.
 *
 * A CSR matrix, a dense matrix or a dense vector of a value type tcsparse knows (fp32,
 * fp64, fp16, bf16) is created by tcsparse and gets its real counterpart when a
 * forwarded call first needs it (objects.c). Its getters answer from the shim's
 * fields; its setters go through tcsparse (which checks them) and reach the real side
 * when that is next used. Everything else (COO, CSC, BSR, Blocked-ELL, Sliced-ELL,
 * complex and integer types, and what tcsparse's checks refuse while cuSPARSE's
 * accept) is created by the real cuSPARSE and every call on it is forwarded; without
 * the real library, tcsparse's status answers. */
#include "shim.h"

#include <stdlib.h>

static int tcsparse_knows(cudaDataType t) {
    return t == CUDA_R_32F || t == CUDA_R_64F || t == CUDA_R_16F || t == CUDA_R_16BF;
}

#define TCS_SHIM_NOT_NULL(function, p)                                                   \
    do {                                                                                 \
        if ((p) == NULL) return tcs_shim_reject(function, #p, "must not be NULL");       \
    } while (0)

/* A new shim object for `real`, made by a forwarded create (or the create's status). */
static cusparseStatus_t wrapped_spmat(cusparseStatus_t s, const void* real, int is_const,
                                      void* out) {
    return s == CUSPARSE_STATUS_SUCCESS
               ? tcs_shim_wrap_real_spmat((cusparseSpMatDescr_t)(uintptr_t)real, is_const, out)
               : s;
}

/* ---- CSR: both sides ------------------------------------------------------------ */

static cusparseStatus_t create_csr(void* out, int is_const, int64_t rows, int64_t cols,
                                   int64_t nnz, void* offsets, void* columns, void* values,
                                   cusparseIndexType_t offsets_type,
                                   cusparseIndexType_t columns_type, cusparseIndexBase_t base,
                                   cudaDataType value_type) {
    tcsStatus_t status = TCS_STATUS_NOT_SUPPORTED;
    tcsSpMatDescr_t t = NULL;
    tcsConstSpMatDescr_t tc = NULL;
    if (tcsparse_knows(value_type) || out == NULL)
        status = is_const ? tcsCreateConstCsr(out != NULL ? &tc : NULL, rows, cols, nnz, offsets,
                                              columns, values, (tcsIndexType_t)offsets_type,
                                              (tcsIndexType_t)columns_type, (tcsIndexBase_t)base,
                                              value_type)
                          : tcsCreateCsr(out != NULL ? &t : NULL, rows, cols, nnz, offsets, columns,
                                         values, (tcsIndexType_t)offsets_type,
                                         (tcsIndexType_t)columns_type, (tcsIndexBase_t)base,
                                         value_type);
    /* What tcsparse refuses, cuSPARSE may take (a type tcsparse lacks, or arguments the
     * two judge differently): then the matrix is cuSPARSE's alone. */
    if (status != TCS_STATUS_SUCCESS && out != NULL &&
        (!tcsparse_knows(value_type) || tcs_shim_real_available())) {
        cusparseSpMatDescr_t real = NULL;
        const cusparseStatus_t s =
            is_const ? tcs_shim_forward_cusparseCreateConstCsr(
                           (cusparseConstSpMatDescr_t*)&real, rows, cols, nnz, offsets, columns,
                           values, offsets_type, columns_type, base, value_type)
                     : tcs_shim_forward_cusparseCreateCsr(&real, rows, cols, nnz, offsets,
                                                          columns, values, offsets_type,
                                                          columns_type, base, value_type);
        return wrapped_spmat(s, real, is_const, out);
    }
    if (status != TCS_STATUS_SUCCESS) return TCS_SHIM_STATUS(status);
    if (is_const) t = (tcsSpMatDescr_t)(uintptr_t)tc;
    tcs_shim_spmat* d = calloc(1, sizeof *d);
    if (d == NULL) {
        tcsDestroySpMat(t);
        return CUSPARSE_STATUS_ALLOC_FAILED;
    }
    d->is_const = is_const;
    d->tcs = t;
    d->rows = rows;
    d->cols = cols;
    d->nnz = nnz;
    d->offsets = offsets;
    d->columns = columns;
    d->values = values;
    d->offsets_type = offsets_type;
    d->columns_type = columns_type;
    d->base = base;
    d->value_type = value_type;
    d->tcs_has.nnz = nnz;
    d->tcs_has.offsets = offsets;
    d->tcs_has.columns = columns;
    d->tcs_has.values = values;
    d->real_has.nnz = -1; /* no real side yet */
    const cusparseStatus_t published = tcs_shim_publish(d, TCS_SHIM_SPMAT_KIND, out);
    if (published != CUSPARSE_STATUS_SUCCESS) tcsDestroySpMat(t);
    return published;
}

cusparseStatus_t CUSPARSEAPI cusparseCreateCsr(cusparseSpMatDescr_t* spMatDescr, int64_t rows,
                                               int64_t cols, int64_t nnz, void* csrRowOffsets,
                                               void* csrColInd, void* csrValues,
                                               cusparseIndexType_t csrRowOffsetsType,
                                               cusparseIndexType_t csrColIndType,
                                               cusparseIndexBase_t idxBase,
                                               cudaDataType valueType) {
    return create_csr(spMatDescr, 0, rows, cols, nnz, csrRowOffsets, csrColInd, csrValues,
                      csrRowOffsetsType, csrColIndType, idxBase, valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseCreateConstCsr(
    cusparseConstSpMatDescr_t* spMatDescr, int64_t rows, int64_t cols, int64_t nnz,
    const void* csrRowOffsets, const void* csrColInd, const void* csrValues,
    cusparseIndexType_t csrRowOffsetsType, cusparseIndexType_t csrColIndType,
    cusparseIndexBase_t idxBase, cudaDataType valueType) {
    return create_csr(spMatDescr, 1, rows, cols, nnz, (void*)(uintptr_t)csrRowOffsets,
                      (void*)(uintptr_t)csrColInd, (void*)(uintptr_t)csrValues, csrRowOffsetsType,
                      csrColIndType, idxBase, valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseDestroySpMat(cusparseConstSpMatDescr_t spMatDescr) {
    if (spMatDescr == NULL) return CUSPARSE_STATUS_SUCCESS;
    tcs_shim_spmat* d = tcs_shim_withdraw(spMatDescr, TCS_SHIM_SPMAT_KIND);
    if (d == NULL) return TCS_SHIM_STATUS(tcsDestroySpMat((tcsConstSpMatDescr_t)(uintptr_t)spMatDescr));
    if (d->tcs != NULL) tcsDestroySpMat(d->tcs);
    if (d->real != NULL) tcs_shim_forward_cusparseDestroySpMat_real(d->real);
    free(d);
    return CUSPARSE_STATUS_SUCCESS;
}

/* The shim's fields answer for a CSR matrix tcsparse holds; cuSPARSE for the others. */
static tcs_shim_spmat* shim_csr(const void* p) {
    tcs_shim_spmat* d = tcs_shim_spmat_of(p);
    return d != NULL && d->tcs != NULL ? d : NULL;
}

cusparseStatus_t CUSPARSEAPI cusparseSpMatGetSize(cusparseConstSpMatDescr_t spMatDescr,
                                                  int64_t* rows, int64_t* cols, int64_t* nnz) {
    const tcs_shim_spmat* d = shim_csr(spMatDescr);
    if (d == NULL) return tcs_shim_forward_cusparseSpMatGetSize(spMatDescr, rows, cols, nnz);
    TCS_SHIM_NOT_NULL(__func__, rows);
    TCS_SHIM_NOT_NULL(__func__, cols);
    TCS_SHIM_NOT_NULL(__func__, nnz);
    *rows = d->rows;
    *cols = d->cols;
    *nnz = d->nnz;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseSpMatGetFormat(cusparseConstSpMatDescr_t spMatDescr,
                                                    cusparseFormat_t* format) {
    if (shim_csr(spMatDescr) == NULL) return tcs_shim_forward_cusparseSpMatGetFormat(spMatDescr, format);
    TCS_SHIM_NOT_NULL(__func__, format);
    *format = CUSPARSE_FORMAT_CSR;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseSpMatGetIndexBase(cusparseConstSpMatDescr_t spMatDescr,
                                                       cusparseIndexBase_t* idxBase) {
    const tcs_shim_spmat* d = shim_csr(spMatDescr);
    if (d == NULL) return tcs_shim_forward_cusparseSpMatGetIndexBase(spMatDescr, idxBase);
    TCS_SHIM_NOT_NULL(__func__, idxBase);
    *idxBase = d->base;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseSpMatGetValues(cusparseSpMatDescr_t spMatDescr,
                                                    void** values) {
    const tcs_shim_spmat* d = shim_csr(spMatDescr);
    if (d == NULL) return tcs_shim_forward_cusparseSpMatGetValues(spMatDescr, values);
    TCS_SHIM_NOT_NULL(__func__, values);
    *values = d->values;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseConstSpMatGetValues(cusparseConstSpMatDescr_t spMatDescr,
                                                         const void** values) {
    const tcs_shim_spmat* d = shim_csr(spMatDescr);
    if (d == NULL) return tcs_shim_forward_cusparseConstSpMatGetValues(spMatDescr, values);
    TCS_SHIM_NOT_NULL(__func__, values);
    *values = d->values;
    return CUSPARSE_STATUS_SUCCESS;
}

/* New arrays, checked by tcsparse: its setter where its descriptor has the current nnz
 * (so what SpMM's preprocess stored stays), a new descriptor where a forwarded call
 * changed nnz. The real side follows when it is next used. */
static cusparseStatus_t set_csr_arrays(tcs_shim_spmat* d, void* offsets, void* columns,
                                       void* values, int values_only) {
    tcs_shim_lock();
    tcsStatus_t s = TCS_STATUS_SUCCESS;
    if (d->tcs_has.nnz == d->nnz || d->is_const) {
        s = values_only ? tcsSpMatSetValues(d->tcs, values)
                        : tcsCsrSetPointers(d->tcs, offsets, columns, values);
    } else {
        tcsSpMatDescr_t fresh = NULL;
        s = tcsCreateCsr(&fresh, d->rows, d->cols, d->nnz, offsets, columns, values,
                         (tcsIndexType_t)d->offsets_type, (tcsIndexType_t)d->columns_type,
                         (tcsIndexBase_t)d->base, d->value_type);
        if (s == TCS_STATUS_SUCCESS) {
            tcsDestroySpMat(d->tcs);
            d->tcs = fresh;
        }
    }
    if (s == TCS_STATUS_SUCCESS) {
        d->offsets = offsets;
        d->columns = columns;
        d->values = values;
        d->tcs_has.nnz = d->nnz;
        d->tcs_has.offsets = offsets;
        d->tcs_has.columns = columns;
        d->tcs_has.values = values;
    }
    tcs_shim_unlock();
    return TCS_SHIM_STATUS(s);
}

cusparseStatus_t CUSPARSEAPI cusparseSpMatSetValues(cusparseSpMatDescr_t spMatDescr,
                                                    void* values) {
    tcs_shim_spmat* d = shim_csr(spMatDescr);
    if (d == NULL) return tcs_shim_forward_cusparseSpMatSetValues(spMatDescr, values);
    return set_csr_arrays(d, d->offsets, d->columns, values, 1);
}

cusparseStatus_t CUSPARSEAPI cusparseCsrSetPointers(cusparseSpMatDescr_t spMatDescr,
                                                    void* csrRowOffsets, void* csrColInd,
                                                    void* csrValues) {
    tcs_shim_spmat* d = shim_csr(spMatDescr);
    if (d == NULL)
        return tcs_shim_forward_cusparseCsrSetPointers(spMatDescr, csrRowOffsets, csrColInd,
                                                       csrValues);
    return set_csr_arrays(d, csrRowOffsets, csrColInd, csrValues, 0);
}

static cusparseStatus_t csr_get(const tcs_shim_spmat* d, int64_t* rows, int64_t* cols,
                                int64_t* nnz, const void** offsets, const void** columns,
                                const void** values, cusparseIndexType_t* offsets_type,
                                cusparseIndexType_t* columns_type, cusparseIndexBase_t* base,
                                cudaDataType* value_type) {
    const char* f = "cusparseCsrGet";
    TCS_SHIM_NOT_NULL(f, rows);
    TCS_SHIM_NOT_NULL(f, cols);
    TCS_SHIM_NOT_NULL(f, nnz);
    TCS_SHIM_NOT_NULL(f, offsets);
    TCS_SHIM_NOT_NULL(f, columns);
    TCS_SHIM_NOT_NULL(f, values);
    TCS_SHIM_NOT_NULL(f, offsets_type);
    TCS_SHIM_NOT_NULL(f, columns_type);
    TCS_SHIM_NOT_NULL(f, base);
    TCS_SHIM_NOT_NULL(f, value_type);
    *rows = d->rows;
    *cols = d->cols;
    *nnz = d->nnz;
    *offsets = d->offsets;
    *columns = d->columns;
    *values = d->values;
    *offsets_type = d->offsets_type;
    *columns_type = d->columns_type;
    *base = d->base;
    *value_type = d->value_type;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseCsrGet(cusparseSpMatDescr_t spMatDescr, int64_t* rows,
                                            int64_t* cols, int64_t* nnz, void** csrRowOffsets,
                                            void** csrColInd, void** csrValues,
                                            cusparseIndexType_t* csrRowOffsetsType,
                                            cusparseIndexType_t* csrColIndType,
                                            cusparseIndexBase_t* idxBase,
                                            cudaDataType* valueType) {
    const tcs_shim_spmat* d = shim_csr(spMatDescr);
    if (d == NULL)
        return tcs_shim_forward_cusparseCsrGet(spMatDescr, rows, cols, nnz, csrRowOffsets,
                                               csrColInd, csrValues, csrRowOffsetsType,
                                               csrColIndType, idxBase, valueType);
    return csr_get(d, rows, cols, nnz, (const void**)csrRowOffsets, (const void**)csrColInd,
                   (const void**)csrValues, csrRowOffsetsType, csrColIndType, idxBase, valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseConstCsrGet(cusparseConstSpMatDescr_t spMatDescr,
                                                 int64_t* rows, int64_t* cols, int64_t* nnz,
                                                 const void** csrRowOffsets,
                                                 const void** csrColInd, const void** csrValues,
                                                 cusparseIndexType_t* csrRowOffsetsType,
                                                 cusparseIndexType_t* csrColIndType,
                                                 cusparseIndexBase_t* idxBase,
                                                 cudaDataType* valueType) {
    const tcs_shim_spmat* d = shim_csr(spMatDescr);
    if (d == NULL)
        return tcs_shim_forward_cusparseConstCsrGet(spMatDescr, rows, cols, nnz, csrRowOffsets,
                                                    csrColInd, csrValues, csrRowOffsetsType,
                                                    csrColIndType, idxBase, valueType);
    return csr_get(d, rows, cols, nnz, csrRowOffsets, csrColInd, csrValues, csrRowOffsetsType,
                   csrColIndType, idxBase, valueType);
}

/* A strided batch and the attributes are cuSPARSE's to check and keep; the shim notes
 * them to set them again on a real descriptor made anew, and a batch of more than one
 * matrix sends the products to cuSPARSE. */
cusparseStatus_t CUSPARSEAPI cusparseCsrSetStridedBatch(cusparseSpMatDescr_t spMatDescr,
                                                        int batchCount,
                                                        int64_t offsetsBatchStride,
                                                        int64_t columnsValuesBatchStride) {
    const cusparseStatus_t s = tcs_shim_forward_cusparseCsrSetStridedBatch(
        spMatDescr, batchCount, offsetsBatchStride, columnsValuesBatchStride);
    tcs_shim_spmat* d = shim_csr(spMatDescr);
    if (s == CUSPARSE_STATUS_SUCCESS && d != NULL) {
        d->batch_count = batchCount;
        d->offsets_batch_stride = offsetsBatchStride;
        d->columns_values_batch_stride = columnsValuesBatchStride;
    }
    return s;
}

cusparseStatus_t CUSPARSEAPI cusparseSpMatSetAttribute(cusparseSpMatDescr_t spMatDescr,
                                                       cusparseSpMatAttribute_t attribute,
                                                       void* data, size_t dataSize) {
    const cusparseStatus_t s =
        tcs_shim_forward_cusparseSpMatSetAttribute(spMatDescr, attribute, data, dataSize);
    tcs_shim_spmat* d = shim_csr(spMatDescr);
    if (s != CUSPARSE_STATUS_SUCCESS || d == NULL) return s;
    if (attribute == CUSPARSE_SPMAT_FILL_MODE && dataSize == sizeof d->fill_mode) {
        d->fill_mode = *(const cusparseFillMode_t*)data;
        d->has_fill_mode = 1;
    } else if (attribute == CUSPARSE_SPMAT_DIAG_TYPE && dataSize == sizeof d->diag_type) {
        d->diag_type = *(const cusparseDiagType_t*)data;
        d->has_diag_type = 1;
    }
    return s;
}

/* ---- the other formats: cuSPARSE's alone ---------------------------------------- */

cusparseStatus_t CUSPARSEAPI cusparseCreateCoo(cusparseSpMatDescr_t* spMatDescr, int64_t rows,
                                               int64_t cols, int64_t nnz, void* cooRowInd,
                                               void* cooColInd, void* cooValues,
                                               cusparseIndexType_t cooIdxType,
                                               cusparseIndexBase_t idxBase,
                                               cudaDataType valueType) {
    cusparseSpMatDescr_t real = NULL;
    const cusparseStatus_t s = tcs_shim_forward_cusparseCreateCoo(
        TCS_SHIM_OUT(spMatDescr, real), rows, cols, nnz, cooRowInd, cooColInd, cooValues,
        cooIdxType, idxBase, valueType);
    return wrapped_spmat(s, real, 0, spMatDescr);
}

cusparseStatus_t CUSPARSEAPI cusparseCreateConstCoo(cusparseConstSpMatDescr_t* spMatDescr,
                                                    int64_t rows, int64_t cols, int64_t nnz,
                                                    const void* cooRowInd, const void* cooColInd,
                                                    const void* cooValues,
                                                    cusparseIndexType_t cooIdxType,
                                                    cusparseIndexBase_t idxBase,
                                                    cudaDataType valueType) {
    cusparseConstSpMatDescr_t real = NULL;
    const cusparseStatus_t s = tcs_shim_forward_cusparseCreateConstCoo(
        TCS_SHIM_OUT(spMatDescr, real), rows, cols, nnz, cooRowInd, cooColInd, cooValues,
        cooIdxType, idxBase, valueType);
    return wrapped_spmat(s, real, 1, spMatDescr);
}

cusparseStatus_t CUSPARSEAPI cusparseCreateCsc(cusparseSpMatDescr_t* spMatDescr, int64_t rows,
                                               int64_t cols, int64_t nnz, void* cscColOffsets,
                                               void* cscRowInd, void* cscValues,
                                               cusparseIndexType_t cscColOffsetsType,
                                               cusparseIndexType_t cscRowIndType,
                                               cusparseIndexBase_t idxBase,
                                               cudaDataType valueType) {
    cusparseSpMatDescr_t real = NULL;
    const cusparseStatus_t s = tcs_shim_forward_cusparseCreateCsc(
        TCS_SHIM_OUT(spMatDescr, real), rows, cols, nnz, cscColOffsets, cscRowInd, cscValues,
        cscColOffsetsType, cscRowIndType, idxBase, valueType);
    return wrapped_spmat(s, real, 0, spMatDescr);
}

cusparseStatus_t CUSPARSEAPI cusparseCreateConstCsc(
    cusparseConstSpMatDescr_t* spMatDescr, int64_t rows, int64_t cols, int64_t nnz,
    const void* cscColOffsets, const void* cscRowInd, const void* cscValues,
    cusparseIndexType_t cscColOffsetsType, cusparseIndexType_t cscRowIndType,
    cusparseIndexBase_t idxBase, cudaDataType valueType) {
    cusparseConstSpMatDescr_t real = NULL;
    const cusparseStatus_t s = tcs_shim_forward_cusparseCreateConstCsc(
        TCS_SHIM_OUT(spMatDescr, real), rows, cols, nnz, cscColOffsets, cscRowInd, cscValues,
        cscColOffsetsType, cscRowIndType, idxBase, valueType);
    return wrapped_spmat(s, real, 1, spMatDescr);
}

cusparseStatus_t CUSPARSEAPI cusparseCreateBsr(
    cusparseSpMatDescr_t* spMatDescr, int64_t brows, int64_t bcols, int64_t bnnz,
    int64_t rowBlockSize, int64_t colBlockSize, void* bsrRowOffsets, void* bsrColInd,
    void* bsrValues, cusparseIndexType_t bsrRowOffsetsType, cusparseIndexType_t bsrColIndType,
    cusparseIndexBase_t idxBase, cudaDataType valueType, cusparseOrder_t order) {
    cusparseSpMatDescr_t real = NULL;
    const cusparseStatus_t s = tcs_shim_forward_cusparseCreateBsr(
        TCS_SHIM_OUT(spMatDescr, real), brows, bcols, bnnz, rowBlockSize, colBlockSize,
        bsrRowOffsets, bsrColInd, bsrValues, bsrRowOffsetsType, bsrColIndType, idxBase,
        valueType, order);
    return wrapped_spmat(s, real, 0, spMatDescr);
}

cusparseStatus_t CUSPARSEAPI cusparseCreateConstBsr(
    cusparseConstSpMatDescr_t* spMatDescr, int64_t brows, int64_t bcols, int64_t bnnz,
    int64_t rowBlockDim, int64_t colBlockDim, const void* bsrRowOffsets, const void* bsrColInd,
    const void* bsrValues, cusparseIndexType_t bsrRowOffsetsType,
    cusparseIndexType_t bsrColIndType, cusparseIndexBase_t idxBase, cudaDataType valueType,
    cusparseOrder_t order) {
    cusparseConstSpMatDescr_t real = NULL;
    const cusparseStatus_t s = tcs_shim_forward_cusparseCreateConstBsr(
        TCS_SHIM_OUT(spMatDescr, real), brows, bcols, bnnz, rowBlockDim, colBlockDim,
        bsrRowOffsets, bsrColInd, bsrValues, bsrRowOffsetsType, bsrColIndType, idxBase,
        valueType, order);
    return wrapped_spmat(s, real, 1, spMatDescr);
}

cusparseStatus_t CUSPARSEAPI cusparseCreateBlockedEll(cusparseSpMatDescr_t* spMatDescr,
                                                      int64_t rows, int64_t cols,
                                                      int64_t ellBlockSize, int64_t ellCols,
                                                      void* ellColInd, void* ellValue,
                                                      cusparseIndexType_t ellIdxType,
                                                      cusparseIndexBase_t idxBase,
                                                      cudaDataType valueType) {
    cusparseSpMatDescr_t real = NULL;
    const cusparseStatus_t s = tcs_shim_forward_cusparseCreateBlockedEll(
        TCS_SHIM_OUT(spMatDescr, real), rows, cols, ellBlockSize, ellCols, ellColInd, ellValue,
        ellIdxType, idxBase, valueType);
    return wrapped_spmat(s, real, 0, spMatDescr);
}

cusparseStatus_t CUSPARSEAPI cusparseCreateConstBlockedEll(
    cusparseConstSpMatDescr_t* spMatDescr, int64_t rows, int64_t cols, int64_t ellBlockSize,
    int64_t ellCols, const void* ellColInd, const void* ellValue,
    cusparseIndexType_t ellIdxType, cusparseIndexBase_t idxBase, cudaDataType valueType) {
    cusparseConstSpMatDescr_t real = NULL;
    const cusparseStatus_t s = tcs_shim_forward_cusparseCreateConstBlockedEll(
        TCS_SHIM_OUT(spMatDescr, real), rows, cols, ellBlockSize, ellCols, ellColInd, ellValue,
        ellIdxType, idxBase, valueType);
    return wrapped_spmat(s, real, 1, spMatDescr);
}

cusparseStatus_t CUSPARSEAPI cusparseCreateSlicedEll(
    cusparseSpMatDescr_t* spMatDescr, int64_t rows, int64_t cols, int64_t nnz,
    int64_t sellValuesSize, int64_t sliceSize, void* sellSliceOffsets, void* sellColInd,
    void* sellValues, cusparseIndexType_t sellSliceOffsetsType,
    cusparseIndexType_t sellColIndType, cusparseIndexBase_t idxBase, cudaDataType valueType) {
    cusparseSpMatDescr_t real = NULL;
    const cusparseStatus_t s = tcs_shim_forward_cusparseCreateSlicedEll(
        TCS_SHIM_OUT(spMatDescr, real), rows, cols, nnz, sellValuesSize, sliceSize,
        sellSliceOffsets, sellColInd, sellValues, sellSliceOffsetsType, sellColIndType, idxBase,
        valueType);
    return wrapped_spmat(s, real, 0, spMatDescr);
}

cusparseStatus_t CUSPARSEAPI cusparseCreateConstSlicedEll(
    cusparseConstSpMatDescr_t* spMatDescr, int64_t rows, int64_t cols, int64_t nnz,
    int64_t sellValuesSize, int64_t sliceSize, const void* sellSliceOffsets,
    const void* sellColInd, const void* sellValues, cusparseIndexType_t sellSliceOffsetsType,
    cusparseIndexType_t sellColIndType, cusparseIndexBase_t idxBase, cudaDataType valueType) {
    cusparseConstSpMatDescr_t real = NULL;
    const cusparseStatus_t s = tcs_shim_forward_cusparseCreateConstSlicedEll(
        TCS_SHIM_OUT(spMatDescr, real), rows, cols, nnz, sellValuesSize, sliceSize,
        sellSliceOffsets, sellColInd, sellValues, sellSliceOffsetsType, sellColIndType, idxBase,
        valueType);
    return wrapped_spmat(s, real, 1, spMatDescr);
}

/* ---- dense matrices ------------------------------------------------------------- */

static cusparseStatus_t create_dnmat(void* out, int is_const, int64_t rows, int64_t cols,
                                     int64_t ld, void* values, cudaDataType value_type,
                                     cusparseOrder_t order) {
    tcsStatus_t status = TCS_STATUS_NOT_SUPPORTED;
    tcsDnMatDescr_t t = NULL;
    tcsConstDnMatDescr_t tc = NULL;
    if (tcsparse_knows(value_type) || out == NULL)
        status = is_const ? tcsCreateConstDnMat(out != NULL ? &tc : NULL, rows, cols, ld, values,
                                                value_type, (tcsOrder_t)order)
                          : tcsCreateDnMat(out != NULL ? &t : NULL, rows, cols, ld, values,
                                           value_type, (tcsOrder_t)order);
    if (status != TCS_STATUS_SUCCESS && out != NULL &&
        (!tcsparse_knows(value_type) || tcs_shim_real_available())) {
        cusparseDnMatDescr_t real = NULL;
        const cusparseStatus_t s =
            is_const ? tcs_shim_forward_cusparseCreateConstDnMat(
                           (cusparseConstDnMatDescr_t*)&real, rows, cols, ld, values, value_type,
                           order)
                     : tcs_shim_forward_cusparseCreateDnMat(&real, rows, cols, ld, values,
                                                            value_type, order);
        return s == CUSPARSE_STATUS_SUCCESS ? tcs_shim_wrap_real_dnmat(real, is_const, out) : s;
    }
    if (status != TCS_STATUS_SUCCESS) return TCS_SHIM_STATUS(status);
    if (is_const) t = (tcsDnMatDescr_t)(uintptr_t)tc;
    tcs_shim_dnmat* d = calloc(1, sizeof *d);
    if (d == NULL) {
        tcsDestroyDnMat(t);
        return CUSPARSE_STATUS_ALLOC_FAILED;
    }
    d->is_const = is_const;
    d->tcs = t;
    d->rows = rows;
    d->cols = cols;
    d->ld = ld;
    d->values = d->tcs_values = values;
    d->value_type = value_type;
    d->order = order;
    const cusparseStatus_t published = tcs_shim_publish(d, TCS_SHIM_DNMAT_KIND, out);
    if (published != CUSPARSE_STATUS_SUCCESS) tcsDestroyDnMat(t);
    return published;
}

cusparseStatus_t CUSPARSEAPI cusparseCreateDnMat(cusparseDnMatDescr_t* dnMatDescr, int64_t rows,
                                                 int64_t cols, int64_t ld, void* values,
                                                 cudaDataType valueType, cusparseOrder_t order) {
    return create_dnmat(dnMatDescr, 0, rows, cols, ld, values, valueType, order);
}

cusparseStatus_t CUSPARSEAPI cusparseCreateConstDnMat(cusparseConstDnMatDescr_t* dnMatDescr,
                                                      int64_t rows, int64_t cols, int64_t ld,
                                                      const void* values, cudaDataType valueType,
                                                      cusparseOrder_t order) {
    return create_dnmat(dnMatDescr, 1, rows, cols, ld, (void*)(uintptr_t)values, valueType, order);
}

cusparseStatus_t CUSPARSEAPI cusparseDestroyDnMat(cusparseConstDnMatDescr_t dnMatDescr) {
    if (dnMatDescr == NULL) return CUSPARSE_STATUS_SUCCESS;
    tcs_shim_dnmat* d = tcs_shim_withdraw(dnMatDescr, TCS_SHIM_DNMAT_KIND);
    if (d == NULL) return TCS_SHIM_STATUS(tcsDestroyDnMat((tcsConstDnMatDescr_t)(uintptr_t)dnMatDescr));
    if (d->tcs != NULL) tcsDestroyDnMat(d->tcs);
    if (d->real != NULL) tcs_shim_forward_cusparseDestroyDnMat_real(d->real);
    free(d);
    return CUSPARSE_STATUS_SUCCESS;
}

static tcs_shim_dnmat* shim_dnmat(const void* p) {
    tcs_shim_dnmat* d = tcs_shim_dnmat_of(p);
    return d != NULL && d->tcs != NULL ? d : NULL;
}

static cusparseStatus_t dnmat_get(const tcs_shim_dnmat* d, int64_t* rows, int64_t* cols,
                                  int64_t* ld, const void** values, cudaDataType* type,
                                  cusparseOrder_t* order) {
    const char* f = "cusparseDnMatGet";
    TCS_SHIM_NOT_NULL(f, rows);
    TCS_SHIM_NOT_NULL(f, cols);
    TCS_SHIM_NOT_NULL(f, ld);
    TCS_SHIM_NOT_NULL(f, values);
    TCS_SHIM_NOT_NULL(f, type);
    TCS_SHIM_NOT_NULL(f, order);
    *rows = d->rows;
    *cols = d->cols;
    *ld = d->ld;
    *values = d->values;
    *type = d->value_type;
    *order = d->order;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseDnMatGet(cusparseDnMatDescr_t dnMatDescr, int64_t* rows,
                                              int64_t* cols, int64_t* ld, void** values,
                                              cudaDataType* type, cusparseOrder_t* order) {
    const tcs_shim_dnmat* d = shim_dnmat(dnMatDescr);
    if (d == NULL)
        return tcs_shim_forward_cusparseDnMatGet(dnMatDescr, rows, cols, ld, values, type, order);
    return dnmat_get(d, rows, cols, ld, (const void**)values, type, order);
}

cusparseStatus_t CUSPARSEAPI cusparseConstDnMatGet(cusparseConstDnMatDescr_t dnMatDescr,
                                                   int64_t* rows, int64_t* cols, int64_t* ld,
                                                   const void** values, cudaDataType* type,
                                                   cusparseOrder_t* order) {
    const tcs_shim_dnmat* d = shim_dnmat(dnMatDescr);
    if (d == NULL)
        return tcs_shim_forward_cusparseConstDnMatGet(dnMatDescr, rows, cols, ld, values, type,
                                                      order);
    return dnmat_get(d, rows, cols, ld, values, type, order);
}

cusparseStatus_t CUSPARSEAPI cusparseDnMatGetValues(cusparseDnMatDescr_t dnMatDescr,
                                                    void** values) {
    const tcs_shim_dnmat* d = shim_dnmat(dnMatDescr);
    if (d == NULL) return tcs_shim_forward_cusparseDnMatGetValues(dnMatDescr, values);
    TCS_SHIM_NOT_NULL(__func__, values);
    *values = d->values;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseConstDnMatGetValues(cusparseConstDnMatDescr_t dnMatDescr,
                                                         const void** values) {
    const tcs_shim_dnmat* d = shim_dnmat(dnMatDescr);
    if (d == NULL) return tcs_shim_forward_cusparseConstDnMatGetValues(dnMatDescr, values);
    TCS_SHIM_NOT_NULL(__func__, values);
    *values = d->values;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseDnMatSetValues(cusparseDnMatDescr_t dnMatDescr,
                                                    void* values) {
    tcs_shim_dnmat* d = shim_dnmat(dnMatDescr);
    if (d == NULL) return tcs_shim_forward_cusparseDnMatSetValues(dnMatDescr, values);
    tcs_shim_lock();
    const tcsStatus_t s = tcsDnMatSetValues(d->tcs, values);
    if (s == TCS_STATUS_SUCCESS) d->values = d->tcs_values = values;
    tcs_shim_unlock();
    return TCS_SHIM_STATUS(s);
}

cusparseStatus_t CUSPARSEAPI cusparseDnMatSetStridedBatch(cusparseDnMatDescr_t dnMatDescr,
                                                          int batchCount, int64_t batchStride) {
    const cusparseStatus_t s =
        tcs_shim_forward_cusparseDnMatSetStridedBatch(dnMatDescr, batchCount, batchStride);
    tcs_shim_dnmat* d = shim_dnmat(dnMatDescr);
    if (s == CUSPARSE_STATUS_SUCCESS && d != NULL) {
        d->batch_count = batchCount;
        d->batch_stride = batchStride;
    }
    return s;
}

/* ---- dense vectors -------------------------------------------------------------- */

static cusparseStatus_t create_dnvec(void* out, int is_const, int64_t size, void* values,
                                     cudaDataType value_type) {
    tcsStatus_t status = TCS_STATUS_NOT_SUPPORTED;
    tcsDnVecDescr_t t = NULL;
    tcsConstDnVecDescr_t tc = NULL;
    if (tcsparse_knows(value_type) || out == NULL)
        status = is_const ? tcsCreateConstDnVec(out != NULL ? &tc : NULL, size, values, value_type)
                          : tcsCreateDnVec(out != NULL ? &t : NULL, size, values, value_type);
    if (status != TCS_STATUS_SUCCESS && out != NULL &&
        (!tcsparse_knows(value_type) || tcs_shim_real_available())) {
        cusparseDnVecDescr_t real = NULL;
        const cusparseStatus_t s =
            is_const ? tcs_shim_forward_cusparseCreateConstDnVec((cusparseConstDnVecDescr_t*)&real,
                                                                 size, values, value_type)
                     : tcs_shim_forward_cusparseCreateDnVec(&real, size, values, value_type);
        return s == CUSPARSE_STATUS_SUCCESS ? tcs_shim_wrap_real_dnvec(real, is_const, out) : s;
    }
    if (status != TCS_STATUS_SUCCESS) return TCS_SHIM_STATUS(status);
    if (is_const) t = (tcsDnVecDescr_t)(uintptr_t)tc;
    tcs_shim_dnvec* d = calloc(1, sizeof *d);
    if (d == NULL) {
        tcsDestroyDnVec(t);
        return CUSPARSE_STATUS_ALLOC_FAILED;
    }
    d->is_const = is_const;
    d->tcs = t;
    d->size = size;
    d->values = d->tcs_values = values;
    d->value_type = value_type;
    const cusparseStatus_t published = tcs_shim_publish(d, TCS_SHIM_DNVEC_KIND, out);
    if (published != CUSPARSE_STATUS_SUCCESS) tcsDestroyDnVec(t);
    return published;
}

cusparseStatus_t CUSPARSEAPI cusparseCreateDnVec(cusparseDnVecDescr_t* dnVecDescr, int64_t size,
                                                 void* values, cudaDataType valueType) {
    return create_dnvec(dnVecDescr, 0, size, values, valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseCreateConstDnVec(cusparseConstDnVecDescr_t* dnVecDescr,
                                                      int64_t size, const void* values,
                                                      cudaDataType valueType) {
    return create_dnvec(dnVecDescr, 1, size, (void*)(uintptr_t)values, valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseDestroyDnVec(cusparseConstDnVecDescr_t dnVecDescr) {
    if (dnVecDescr == NULL) return CUSPARSE_STATUS_SUCCESS;
    tcs_shim_dnvec* d = tcs_shim_withdraw(dnVecDescr, TCS_SHIM_DNVEC_KIND);
    if (d == NULL) return TCS_SHIM_STATUS(tcsDestroyDnVec((tcsConstDnVecDescr_t)(uintptr_t)dnVecDescr));
    if (d->tcs != NULL) tcsDestroyDnVec(d->tcs);
    if (d->real != NULL) tcs_shim_forward_cusparseDestroyDnVec_real(d->real);
    free(d);
    return CUSPARSE_STATUS_SUCCESS;
}

static tcs_shim_dnvec* shim_dnvec(const void* p) {
    tcs_shim_dnvec* d = tcs_shim_dnvec_of(p);
    return d != NULL && d->tcs != NULL ? d : NULL;
}

static cusparseStatus_t dnvec_get(const tcs_shim_dnvec* d, int64_t* size, const void** values,
                                  cudaDataType* value_type) {
    const char* f = "cusparseDnVecGet";
    TCS_SHIM_NOT_NULL(f, size);
    TCS_SHIM_NOT_NULL(f, values);
    TCS_SHIM_NOT_NULL(f, value_type);
    *size = d->size;
    *values = d->values;
    *value_type = d->value_type;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseDnVecGet(cusparseDnVecDescr_t dnVecDescr, int64_t* size,
                                              void** values, cudaDataType* valueType) {
    const tcs_shim_dnvec* d = shim_dnvec(dnVecDescr);
    if (d == NULL) return tcs_shim_forward_cusparseDnVecGet(dnVecDescr, size, values, valueType);
    return dnvec_get(d, size, (const void**)values, valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseConstDnVecGet(cusparseConstDnVecDescr_t dnVecDescr,
                                                   int64_t* size, const void** values,
                                                   cudaDataType* valueType) {
    const tcs_shim_dnvec* d = shim_dnvec(dnVecDescr);
    if (d == NULL)
        return tcs_shim_forward_cusparseConstDnVecGet(dnVecDescr, size, values, valueType);
    return dnvec_get(d, size, values, valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseDnVecGetValues(cusparseDnVecDescr_t dnVecDescr,
                                                    void** values) {
    const tcs_shim_dnvec* d = shim_dnvec(dnVecDescr);
    if (d == NULL) return tcs_shim_forward_cusparseDnVecGetValues(dnVecDescr, values);
    TCS_SHIM_NOT_NULL(__func__, values);
    *values = d->values;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseConstDnVecGetValues(cusparseConstDnVecDescr_t dnVecDescr,
                                                         const void** values) {
    const tcs_shim_dnvec* d = shim_dnvec(dnVecDescr);
    if (d == NULL) return tcs_shim_forward_cusparseConstDnVecGetValues(dnVecDescr, values);
    TCS_SHIM_NOT_NULL(__func__, values);
    *values = d->values;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseDnVecSetValues(cusparseDnVecDescr_t dnVecDescr,
                                                    void* values) {
    tcs_shim_dnvec* d = shim_dnvec(dnVecDescr);
    if (d == NULL) return tcs_shim_forward_cusparseDnVecSetValues(dnVecDescr, values);
    tcs_shim_lock();
    const tcsStatus_t s = tcsDnVecSetValues(d->tcs, values);
    if (s == TCS_STATUS_SUCCESS) d->values = d->tcs_values = values;
    tcs_shim_unlock();
    return TCS_SHIM_STATUS(s);
}
