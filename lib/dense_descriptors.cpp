// Dense matrix descriptors: create, get, set, destroy.
#include "entry.hpp"
#include "objects.hpp"
#include "views.hpp"

#include <cstdint>

using namespace tcs::api;

namespace {


tcsDnMatDescr* make_dense(int64_t rows, int64_t cols, int64_t ld, const void* values,
                          cudaDataType vt, tcsOrder_t order, bool is_const) {
    check(rows >= 0, 1, "rows", "must not be negative");
    check(cols >= 0, 2, "cols", "must not be negative");
    check(valid_data_type(vt), 5, "valueType", "is not CUDA_R_32F/64F/16F/16BF");
    check_enum(order, 6, "order");
    const int64_t min_ld = order == TCS_ORDER_COL ? rows : cols;
    check(ld >= (min_ld > 1 ? min_ld : 1), 3, "ld", "is smaller than the stored dimension");
    check(rows == 0 || cols == 0 || values != nullptr, 4, "values",
          "must not be NULL for a non-empty matrix");
    check(aligned(values, value_bytes(vt)), 4, "values", "is not aligned to its type");
    // ld times the other dimension is the span the kernels index: it must be representable
    // in bytes, so that no offset or size computed from it can wrap.
    const int64_t lines = order == TCS_ORDER_COL ? cols : rows;
    int64_t elements = 0, bytes = 0;
    check(!__builtin_mul_overflow(ld, lines, &elements) &&
              !__builtin_mul_overflow(elements, int64_t(value_bytes(vt)), &bytes),
          3, "ld", "times the stored dimension makes the array's bytes pass int64");
    auto* d = new tcsDnMatDescr();
    d->is_const = is_const;
    d->rows = rows;
    d->cols = cols;
    d->ld = ld;
    d->values = const_cast<void*>(values);
    d->value_type = vt;
    d->order = order;
    return d;
}

}  // namespace

extern "C" TCS_API tcsStatus_t tcsCreateDnMat(tcsDnMatDescr_t* dnMatDescr, int64_t rows,
                                              int64_t cols, int64_t ld, void* values,
                                              cudaDataType valueType, tcsOrder_t order) try {
    trace(__func__);
    check_not_null(dnMatDescr, 0, "dnMatDescr");
    *dnMatDescr = publish(make_dense(rows, cols, ld, values, valueType, order, false));
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsCreateConstDnMat(tcsConstDnMatDescr_t* dnMatDescr, int64_t rows,
                                                   int64_t cols, int64_t ld, const void* values,
                                                   cudaDataType valueType, tcsOrder_t order) try {
    trace(__func__);
    check_not_null(dnMatDescr, 0, "dnMatDescr");
    *dnMatDescr = publish(make_dense(rows, cols, ld, values, valueType, order, true));
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsDestroyDnMat(tcsConstDnMatDescr_t dnMatDescr) try {
    trace(__func__);
    if (dnMatDescr == nullptr) return TCS_STATUS_SUCCESS;
    destroy_live(dnMatDescr, "dnMatDescr", "is not a live dense descriptor");
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsDnMatGet(tcsDnMatDescr_t dnMatDescr, int64_t* rows,
                                           int64_t* cols, int64_t* ld, void** values,
                                           cudaDataType* type, tcsOrder_t* order) try {
    trace(__func__);
    tcsDnMatDescr* d = live_dense_mutable(dnMatDescr, 0, "dnMatDescr");
    check_not_null(rows, 1, "rows");
    check_not_null(cols, 2, "cols");
    check_not_null(ld, 3, "ld");
    check_not_null(values, 4, "values");
    check_not_null(type, 5, "type");
    check_not_null(order, 6, "order");
    *rows = d->rows;
    *cols = d->cols;
    *ld = d->ld;
    *values = d->values;
    *type = d->value_type;
    *order = d->order;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsDnMatGetValues(tcsDnMatDescr_t dnMatDescr, void** values) try {
    trace(__func__);
    tcsDnMatDescr* d = live_dense_mutable(dnMatDescr, 0, "dnMatDescr");
    check_not_null(values, 1, "values");
    *values = d->values;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsDnMatSetValues(tcsDnMatDescr_t dnMatDescr, void* values) try {
    trace(__func__);
    tcsDnMatDescr* d = live_dense_mutable(dnMatDescr, 0, "dnMatDescr");
    check(d->rows == 0 || d->cols == 0 || values != nullptr, 1, "values",
          "must not be NULL for a non-empty matrix");
    check(aligned(values, value_bytes(d->value_type)), 1, "values", "is not aligned to its type");
    d->values = values;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}
