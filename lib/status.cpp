// The one error table: tcsGetErrorName and tcsGetErrorString are both generated from
// it, so names and messages cannot drift apart.
#include "entry.hpp"

#define TCS_STATUS_TABLE(X)                                                                  \
    X(TCS_STATUS_SUCCESS, "the operation completed successfully")                            \
    X(TCS_STATUS_NOT_INITIALIZED, "no usable GPU, or an object that was never created")      \
    X(TCS_STATUS_ALLOC_FAILED, "memory could not be allocated")                              \
    X(TCS_STATUS_INVALID_VALUE, "an argument is invalid (set TCS_LOG_LEVEL=1 to see which)") \
    X(TCS_STATUS_ARCH_MISMATCH, "the GPU lacks a feature this operation needs")              \
    X(TCS_STATUS_MAPPING_ERROR, "a memory mapping failed")                                   \
    X(TCS_STATUS_EXECUTION_FAILED, "a GPU kernel or CUDA call failed")                       \
    X(TCS_STATUS_INTERNAL_ERROR, "an internal error in tcsparse")                            \
    X(TCS_STATUS_MATRIX_TYPE_NOT_SUPPORTED, "the matrix type is not supported")              \
    X(TCS_STATUS_ZERO_PIVOT, "a zero pivot was found")                                       \
    X(TCS_STATUS_NOT_SUPPORTED, "the operation or argument combination is not supported")    \
    X(TCS_STATUS_INSUFFICIENT_RESOURCES,                                                     \
      "the problem exceeds 32-bit indices or the resources available")

extern "C" TCS_API const char* tcsGetErrorName(tcsStatus_t status) {
    switch (status) {
#define TCS_NAME_CASE(code, text) \
    case code: return #code;
        TCS_STATUS_TABLE(TCS_NAME_CASE)
#undef TCS_NAME_CASE
    }
    return "TCS_STATUS_UNKNOWN";
}

extern "C" TCS_API const char* tcsGetErrorString(tcsStatus_t status) {
    switch (status) {
#define TCS_TEXT_CASE(code, text) \
    case code: return text;
        TCS_STATUS_TABLE(TCS_TEXT_CASE)
#undef TCS_TEXT_CASE
    }
    return "unknown status";
}
