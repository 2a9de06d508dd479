// Handle, stream, pointer mode, math mode, version and properties.
#include "entry.hpp"
#include "input_check.hpp"
#include "objects.hpp"

#include "core/error.hpp"

#include <memory>

#include <new>

using namespace tcs::api;

extern "C" TCS_API tcsStatus_t tcsCreate(tcsHandle_t* handle) try {
    trace(__func__);
    check_not_null(handle, 0, "handle");
    *handle = nullptr;
    // Read the device first: with no GPU nothing is allocated.
    tcs::device_info device = tcs::query_current_device();
    device.has_code = tcs::build_has_code_for_current_device();
    auto h = std::make_unique<tcsContext>();
    h->device = device;
    if (input_checking_requested())  // the one device allocation of the library
        tcs::check_cuda(cudaMalloc(&h->check_scratch, input_check_scratch_bytes()),
                        "tcsCreate: input-check scratch");
    *handle = publish(h.release());
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsDestroy(tcsHandle_t handle) try {
    trace(__func__);
    if (handle == nullptr) return TCS_STATUS_SUCCESS;
    std::unique_ptr<tcsContext> context(withdraw(handle));
    check(context != nullptr, 0, "handle", "is not a live tcsHandle_t", TCS_STATUS_NOT_INITIALIZED);
    if (context->check_scratch != nullptr) (void)cudaFree(context->check_scratch);
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsSetStream(tcsHandle_t handle, cudaStream_t streamId) try {
    trace(__func__);
    handle = live_handle(handle, 0);
    handle->stream = streamId;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsGetStream(tcsHandle_t handle, cudaStream_t* streamId) try {
    trace(__func__);
    handle = live_handle(handle, 0);
    check_not_null(streamId, 1, "streamId");
    *streamId = handle->stream;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsSetPointerMode(tcsHandle_t handle, tcsPointerMode_t mode) try {
    trace(__func__);
    handle = live_handle(handle, 0);
    check_enum(mode, 1, "mode");
    handle->pointer_mode = mode;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsGetPointerMode(tcsHandle_t handle, tcsPointerMode_t* mode) try {
    trace(__func__);
    handle = live_handle(handle, 0);
    check_not_null(mode, 1, "mode");
    *mode = handle->pointer_mode;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsSetMathMode(tcsHandle_t handle, tcsMath_t mode) try {
    trace(__func__);
    handle = live_handle(handle, 0);
    check_enum(mode, 1, "mode");
    handle->math_mode = mode;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsGetMathMode(tcsHandle_t handle, tcsMath_t* mode) try {
    trace(__func__);
    handle = live_handle(handle, 0);
    check_not_null(mode, 1, "mode");
    *mode = handle->math_mode;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsGetVersion(tcsHandle_t handle, int* version) try {
    trace(__func__);
    (void)handle;  // the version does not depend on a handle; NULL is accepted
    check_not_null(version, 1, "version");
    *version = TCS_VERSION;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsGetProperty(libraryPropertyType type, int* value) try {
    trace(__func__);
    check_not_null(value, 1, "value");
    switch (type) {
    case MAJOR_VERSION: *value = TCS_VERSION_MAJOR; break;
    case MINOR_VERSION: *value = TCS_VERSION_MINOR; break;
    case PATCH_LEVEL: *value = TCS_VERSION_PATCH; break;
    default: reject(0, "type", "is not MAJOR_VERSION, MINOR_VERSION or PATCH_LEVEL");
    }
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}
