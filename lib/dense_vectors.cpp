// Dense vector descriptors (the x and y of SpMV): create, get, set, destroy.
#include "entry.hpp"
#include "objects.hpp"
#include "views.hpp"

#include <cstdint>

using namespace tcs::api;

namespace {

void check_values(std::int64_t size, const void* values, cudaDataType vt, int index) {
    check(size == 0 || values != nullptr, index, "values", "must not be NULL when size > 0");
    check(aligned(values, value_bytes(vt)), index, "values", "is not aligned to its type");
}

tcsDnVecDescr* make_vector(std::int64_t size, const void* values, cudaDataType vt,
                           bool is_const) {
    check(size >= 0, 1, "size", "must not be negative");
    check(valid_data_type(vt), 3, "valueType", "is not CUDA_R_32F/64F/16F/16BF");
    check_values(size, values, vt, 2);
    auto* d = new tcsDnVecDescr();
    d->is_const = is_const;
    d->size = size;
    d->values = const_cast<void*>(values);
    d->value_type = vt;
    return d;
}

}  // namespace

extern "C" TCS_API tcsStatus_t tcsCreateDnVec(tcsDnVecDescr_t* dnVecDescr, int64_t size,
                                              void* values, cudaDataType valueType) try {
    trace(__func__);
    check_not_null(dnVecDescr, 0, "dnVecDescr");
    *dnVecDescr = publish(make_vector(size, values, valueType, false));
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsCreateConstDnVec(tcsConstDnVecDescr_t* dnVecDescr,
                                                   int64_t size, const void* values,
                                                   cudaDataType valueType) try {
    trace(__func__);
    check_not_null(dnVecDescr, 0, "dnVecDescr");
    *dnVecDescr = publish(make_vector(size, values, valueType, true));
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsDestroyDnVec(tcsConstDnVecDescr_t dnVecDescr) try {
    trace(__func__);
    if (dnVecDescr == nullptr) return TCS_STATUS_SUCCESS;
    destroy_live(dnVecDescr, "dnVecDescr", "is not a live dense vector");
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsDnVecGet(tcsDnVecDescr_t dnVecDescr, int64_t* size,
                                           void** values, cudaDataType* valueType) try {
    trace(__func__);
    const tcsDnVecDescr* d = live_vector_mutable(dnVecDescr, 0, "dnVecDescr");
    check_not_null(size, 1, "size");
    check_not_null(values, 2, "values");
    check_not_null(valueType, 3, "valueType");
    *size = d->size;
    *values = d->values;
    *valueType = d->value_type;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsConstDnVecGet(tcsConstDnVecDescr_t dnVecDescr, int64_t* size,
                                                const void** values, cudaDataType* valueType) try {
    trace(__func__);
    const tcsDnVecDescr* d = live_vector(dnVecDescr, 0, "dnVecDescr");
    check_not_null(size, 1, "size");
    check_not_null(values, 2, "values");
    check_not_null(valueType, 3, "valueType");
    *size = d->size;
    *values = d->values;
    *valueType = d->value_type;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsDnVecGetValues(tcsDnVecDescr_t dnVecDescr, void** values) try {
    trace(__func__);
    const tcsDnVecDescr* d = live_vector_mutable(dnVecDescr, 0, "dnVecDescr");
    check_not_null(values, 1, "values");
    *values = d->values;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsConstDnVecGetValues(tcsConstDnVecDescr_t dnVecDescr,
                                                      const void** values) try {
    trace(__func__);
    const tcsDnVecDescr* d = live_vector(dnVecDescr, 0, "dnVecDescr");
    check_not_null(values, 1, "values");
    *values = d->values;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsDnVecSetValues(tcsDnVecDescr_t dnVecDescr, void* values) try {
    trace(__func__);
    tcsDnVecDescr* d = live_vector_mutable(dnVecDescr, 0, "dnVecDescr");
    check_values(d->size, values, d->value_type, 1);
    d->values = values;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}
