// Sparse matrix descriptors: CSR, COO, BSR; create, get, set, destroy.
#include "entry.hpp"
#include "objects.hpp"
#include "views.hpp"

#include <cstdint>

using namespace tcs::api;

namespace {

std::size_t index_bytes(tcsIndexType_t t) { return t == TCS_INDEX_16U ? 2 : t == TCS_INDEX_32I ? 4 : 8; }
// nnz <= rows*cols without overflow: nnz/rows rounded up must not exceed cols
// (rounded down, 21 entries would fit a 4 x 5 matrix).
bool fits(std::int64_t nnz, std::int64_t rows, std::int64_t cols) {
    if (rows == 0 || cols == 0) return nnz == 0;
    return nnz / rows + (nnz % rows != 0) <= cols;
}
// a*b*c of non-negative sizes, false when it passes int64: the element and byte counts
// of every array a descriptor describes must be representable, so that no later size
// computation (a kernel's grid, a buffer's bytes) can wrap.
bool product_fits(std::int64_t a, std::int64_t b, std::int64_t c = 1) {
    std::int64_t ab = 0, abc = 0;
    return !__builtin_mul_overflow(a, b, &ab) && !__builtin_mul_overflow(ab, c, &abc);
}


// Checks shared by CSR, COO and BSR creation. `slots` is rows*cols (elements or blocks).
void check_common(std::int64_t rows, std::int64_t cols, std::int64_t nnz, tcsIndexType_t off_t,
                  tcsIndexType_t col_t, tcsIndexBase_t base, cudaDataType vt, int first) {
    check(rows >= 0, first, "rows", "must not be negative");
    check(cols >= 0, first + 1, "cols", "must not be negative");
    check(nnz >= 0, first + 2, "nnz", "must not be negative");
    check(fits(nnz, rows, cols), first + 2, "nnz", "exceeds rows*cols");
    check_enum(off_t, first + 6, "offsetsType");
    check_enum(col_t, first + 7, "colIndType");
    check_enum(base, first + 8, "idxBase");
    check(valid_data_type(vt), first + 9, "valueType", "is not CUDA_R_32F/64F/16F/16BF");
}

tcsSpMatDescr* make_csr(std::int64_t rows, std::int64_t cols, std::int64_t nnz, const void* rp,
                        const void* ci, const void* val, tcsIndexType_t rp_t, tcsIndexType_t ci_t,
                        tcsIndexBase_t base, cudaDataType vt, bool is_const) {
    check_common(rows, cols, nnz, rp_t, ci_t, base, vt, 1);
    // cuSPARSE refuses offsets and columns of different widths when the descriptor is made.
    check(ci_t == rp_t, 8, "csrColIndType", "differs in width from csrRowOffsetsType",
          TCS_STATUS_NOT_SUPPORTED);
    check(nnz == 0 || rp != nullptr, 4, "csrRowOffsets", "must not be NULL when nnz > 0");
    check(nnz == 0 || ci != nullptr, 5, "csrColInd", "must not be NULL when nnz > 0");
    check(nnz == 0 || val != nullptr, 6, "csrValues", "must not be NULL when nnz > 0");
    check(aligned(rp, index_bytes(rp_t)), 4, "csrRowOffsets", "is not aligned to its type");
    check(aligned(ci, index_bytes(ci_t)), 5, "csrColInd", "is not aligned to its type");
    check(aligned(val, value_bytes(vt)), 6, "csrValues", "is not aligned to its type");
    auto* d = new tcsSpMatDescr();
    d->is_const = is_const;
    d->format = TCS_FORMAT_CSR;
    d->rows = rows;
    d->cols = cols;
    d->nnz = nnz;
    d->offsets = const_cast<void*>(rp);
    d->columns = const_cast<void*>(ci);
    d->values = const_cast<void*>(val);
    d->offsets_type = rp_t;
    d->columns_type = ci_t;
    d->base = base;
    d->value_type = vt;
    return d;
}

}  // namespace

extern "C" TCS_API tcsStatus_t tcsCreateCsr(tcsSpMatDescr_t* spMatDescr, int64_t rows,
                                            int64_t cols, int64_t nnz, void* csrRowOffsets,
                                            void* csrColInd, void* csrValues,
                                            tcsIndexType_t csrRowOffsetsType,
                                            tcsIndexType_t csrColIndType, tcsIndexBase_t idxBase,
                                            cudaDataType valueType) try {
    trace(__func__);
    check_not_null(spMatDescr, 0, "spMatDescr");
    *spMatDescr = publish(make_csr(rows, cols, nnz, csrRowOffsets, csrColInd, csrValues,
                                   csrRowOffsetsType, csrColIndType, idxBase, valueType, false));
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsCreateConstCsr(tcsConstSpMatDescr_t* spMatDescr, int64_t rows,
                                                 int64_t cols, int64_t nnz,
                                                 const void* csrRowOffsets, const void* csrColInd,
                                                 const void* csrValues,
                                                 tcsIndexType_t csrRowOffsetsType,
                                                 tcsIndexType_t csrColIndType,
                                                 tcsIndexBase_t idxBase,
                                                 cudaDataType valueType) try {
    trace(__func__);
    check_not_null(spMatDescr, 0, "spMatDescr");
    *spMatDescr = publish(make_csr(rows, cols, nnz, csrRowOffsets, csrColInd, csrValues,
                                   csrRowOffsetsType, csrColIndType, idxBase, valueType, true));
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsCreateCoo(tcsSpMatDescr_t* spMatDescr, int64_t rows,
                                            int64_t cols, int64_t nnz, void* cooRowInd,
                                            void* cooColInd, void* cooValues,
                                            tcsIndexType_t cooIdxType, tcsIndexBase_t idxBase,
                                            cudaDataType valueType) try {
    trace(__func__);
    check_not_null(spMatDescr, 0, "spMatDescr");
    check(rows >= 0, 1, "rows", "must not be negative");
    check(cols >= 0, 2, "cols", "must not be negative");
    check(nnz >= 0, 3, "nnz", "must not be negative");
    check(fits(nnz, rows, cols), 3, "nnz", "exceeds rows*cols");
    check_enum(cooIdxType, 7, "cooIdxType");
    check_enum(idxBase, 8, "idxBase");
    check(valid_data_type(valueType), 9, "valueType", "is not CUDA_R_32F/64F/16F/16BF");
    check(nnz == 0 || cooRowInd != nullptr, 4, "cooRowInd", "must not be NULL when nnz > 0");
    check(nnz == 0 || cooColInd != nullptr, 5, "cooColInd", "must not be NULL when nnz > 0");
    check(nnz == 0 || cooValues != nullptr, 6, "cooValues", "must not be NULL when nnz > 0");
    check(aligned(cooRowInd, index_bytes(cooIdxType)), 4, "cooRowInd", "is not aligned to its type");
    check(aligned(cooColInd, index_bytes(cooIdxType)), 5, "cooColInd", "is not aligned to its type");
    check(aligned(cooValues, value_bytes(valueType)), 6, "cooValues", "is not aligned to its type");
    check(product_fits(nnz, std::int64_t(index_bytes(cooIdxType))), 3, "nnz",
          "makes the index arrays' bytes pass int64");
    check(product_fits(nnz, std::int64_t(value_bytes(valueType))), 3, "nnz",
          "makes the value array's bytes pass int64");
    auto* d = new tcsSpMatDescr();
    d->format = TCS_FORMAT_COO;
    d->rows = rows;
    d->cols = cols;
    d->nnz = nnz;
    d->offsets = cooRowInd;
    d->columns = cooColInd;
    d->values = cooValues;
    d->offsets_type = d->columns_type = cooIdxType;
    d->base = idxBase;
    d->value_type = valueType;
    *spMatDescr = publish(d);
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsCreateBsr(tcsSpMatDescr_t* spMatDescr, int64_t brows,
                                            int64_t bcols, int64_t bnnz, int64_t rowBlockSize,
                                            int64_t colBlockSize, void* bsrRowOffsets,
                                            void* bsrColInd, void* bsrValues,
                                            tcsIndexType_t bsrRowOffsetsType,
                                            tcsIndexType_t bsrColIndType, tcsIndexBase_t idxBase,
                                            cudaDataType valueType, tcsOrder_t order) try {
    trace(__func__);
    check_not_null(spMatDescr, 0, "spMatDescr");
    check(brows >= 0, 1, "brows", "must not be negative");
    check(bcols >= 0, 2, "bcols", "must not be negative");
    check(bnnz >= 0, 3, "bnnz", "must not be negative");
    check(fits(bnnz, brows, bcols), 3, "bnnz", "exceeds brows*bcols");
    check(rowBlockSize >= 1, 4, "rowBlockSize", "must be positive");
    check(colBlockSize >= 1, 5, "colBlockSize", "must be positive");
    check_enum(bsrRowOffsetsType, 9, "bsrRowOffsetsType");
    check_enum(bsrColIndType, 10, "bsrColIndType");
    check(bsrColIndType == bsrRowOffsetsType, 10, "bsrColIndType",
          "differs in width from bsrRowOffsetsType", TCS_STATUS_NOT_SUPPORTED);
    check_enum(idxBase, 11, "idxBase");
    check(valid_data_type(valueType), 12, "valueType", "is not CUDA_R_32F/64F/16F/16BF");
    check_enum(order, 13, "order");
    check(bnnz == 0 || bsrRowOffsets != nullptr, 6, "bsrRowOffsets", "must not be NULL when bnnz > 0");
    check(bnnz == 0 || bsrColInd != nullptr, 7, "bsrColInd", "must not be NULL when bnnz > 0");
    check(bnnz == 0 || bsrValues != nullptr, 8, "bsrValues", "must not be NULL when bnnz > 0");
    check(aligned(bsrRowOffsets, index_bytes(bsrRowOffsetsType)), 6, "bsrRowOffsets",
          "is not aligned to its type");
    check(aligned(bsrColInd, index_bytes(bsrColIndType)), 7, "bsrColInd", "is not aligned to its type");
    check(aligned(bsrValues, value_bytes(valueType)), 8, "bsrValues", "is not aligned to its type");
    check(product_fits(brows, rowBlockSize), 4, "rowBlockSize",
          "makes brows*rowBlockSize pass int64");
    check(product_fits(bcols, colBlockSize), 5, "colBlockSize",
          "makes bcols*colBlockSize pass int64");
    check(product_fits(rowBlockSize, colBlockSize, std::int64_t(value_bytes(valueType))), 5,
          "colBlockSize", "makes a block's bytes pass int64");
    check(product_fits(bnnz, rowBlockSize * colBlockSize, std::int64_t(value_bytes(valueType))), 3,
          "bnnz", "makes bsrValues' bytes (bnnz*rowBlockSize*colBlockSize) pass int64");
    check(product_fits(brows + 1, std::int64_t(index_bytes(bsrRowOffsetsType))) &&
              product_fits(bnnz, std::int64_t(index_bytes(bsrColIndType))),
          3, "bnnz", "makes the index arrays' bytes pass int64");
    auto* d = new tcsSpMatDescr();
    d->format = TCS_FORMAT_BSR;
    d->rows = brows;
    d->cols = bcols;
    d->nnz = bnnz;
    d->offsets = bsrRowOffsets;
    d->columns = bsrColInd;
    d->values = bsrValues;
    d->offsets_type = bsrRowOffsetsType;
    d->columns_type = bsrColIndType;
    d->base = idxBase;
    d->value_type = valueType;
    d->row_block = rowBlockSize;
    d->col_block = colBlockSize;
    d->block_order = order;
    *spMatDescr = publish(d);
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsDestroySpMat(tcsConstSpMatDescr_t spMatDescr) try {
    trace(__func__);
    if (spMatDescr == nullptr) return TCS_STATUS_SUCCESS;
    destroy_live(spMatDescr, "spMatDescr", "is not a live sparse descriptor");
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsSpMatGetSize(tcsConstSpMatDescr_t spMatDescr, int64_t* rows,
                                               int64_t* cols, int64_t* nnz) try {
    trace(__func__);
    const tcsSpMatDescr* d = live_sparse(spMatDescr, 0, "spMatDescr");
    check_not_null(rows, 1, "rows");
    check_not_null(cols, 2, "cols");
    check_not_null(nnz, 3, "nnz");
    *rows = d->rows;
    *cols = d->cols;
    *nnz = d->nnz;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsSpMatGetFormat(tcsConstSpMatDescr_t spMatDescr,
                                                 tcsFormat_t* format) try {
    trace(__func__);
    const tcsSpMatDescr* d = live_sparse(spMatDescr, 0, "spMatDescr");
    check_not_null(format, 1, "format");
    *format = d->format;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsSpMatGetIndexBase(tcsConstSpMatDescr_t spMatDescr,
                                                    tcsIndexBase_t* idxBase) try {
    trace(__func__);
    const tcsSpMatDescr* d = live_sparse(spMatDescr, 0, "spMatDescr");
    check_not_null(idxBase, 1, "idxBase");
    *idxBase = d->base;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsSpMatGetValues(tcsSpMatDescr_t spMatDescr, void** values) try {
    trace(__func__);
    tcsSpMatDescr* d = live_sparse_mutable(spMatDescr, 0, "spMatDescr");
    check_not_null(values, 1, "values");
    *values = d->values;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsSpMatSetValues(tcsSpMatDescr_t spMatDescr, void* values) try {
    trace(__func__);
    tcsSpMatDescr* d = live_sparse_mutable(spMatDescr, 0, "spMatDescr");
    check(d->nnz == 0 || values != nullptr, 1, "values", "must not be NULL when nnz > 0");
    check(aligned(values, value_bytes(d->value_type)), 1, "values", "is not aligned to its type");
    d->values = values;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsCsrGet(tcsSpMatDescr_t spMatDescr, int64_t* rows, int64_t* cols,
                                         int64_t* nnz, void** csrRowOffsets, void** csrColInd,
                                         void** csrValues, tcsIndexType_t* csrRowOffsetsType,
                                         tcsIndexType_t* csrColIndType, tcsIndexBase_t* idxBase,
                                         cudaDataType* valueType) try {
    trace(__func__);
    tcsSpMatDescr* d = live_sparse_mutable(spMatDescr, 0, "spMatDescr");
    check(d->format == TCS_FORMAT_CSR, 0, "spMatDescr", "is not CSR");
    check_not_null(rows, 1, "rows");
    check_not_null(cols, 2, "cols");
    check_not_null(nnz, 3, "nnz");
    check_not_null(csrRowOffsets, 4, "csrRowOffsets");
    check_not_null(csrColInd, 5, "csrColInd");
    check_not_null(csrValues, 6, "csrValues");
    check_not_null(csrRowOffsetsType, 7, "csrRowOffsetsType");
    check_not_null(csrColIndType, 8, "csrColIndType");
    check_not_null(idxBase, 9, "idxBase");
    check_not_null(valueType, 10, "valueType");
    *rows = d->rows;
    *cols = d->cols;
    *nnz = d->nnz;
    *csrRowOffsets = d->offsets;
    *csrColInd = d->columns;
    *csrValues = d->values;
    *csrRowOffsetsType = d->offsets_type;
    *csrColIndType = d->columns_type;
    *idxBase = d->base;
    *valueType = d->value_type;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsCsrSetPointers(tcsSpMatDescr_t spMatDescr, void* csrRowOffsets,
                                                 void* csrColInd, void* csrValues) try {
    trace(__func__);
    tcsSpMatDescr* d = live_sparse_mutable(spMatDescr, 0, "spMatDescr");
    check(d->format == TCS_FORMAT_CSR, 0, "spMatDescr", "is not CSR");
    check(d->rows == 0 || csrRowOffsets != nullptr, 1, "csrRowOffsets",
          "must not be NULL when rows > 0");
    check(d->nnz == 0 || csrColInd != nullptr, 2, "csrColInd", "must not be NULL when nnz > 0");
    check(d->nnz == 0 || csrValues != nullptr, 3, "csrValues", "must not be NULL when nnz > 0");
    check(aligned(csrRowOffsets, index_bytes(d->offsets_type)), 1, "csrRowOffsets",
          "is not aligned to its type");
    check(aligned(csrColInd, index_bytes(d->columns_type)), 2, "csrColInd",
          "is not aligned to its type");
    check(aligned(csrValues, value_bytes(d->value_type)), 3, "csrValues",
          "is not aligned to its type");
    d->offsets = csrRowOffsets;
    d->columns = csrColInd;
    d->values = csrValues;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}
