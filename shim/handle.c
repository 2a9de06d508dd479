/* cuSPARSE handle, stream, pointer mode, error strings, version and property,
 * forwarded to tcsparse. */
#include "shim.h"

cusparseStatus_t CUSPARSEAPI cusparseCreate(cusparseHandle_t* handle) {
    tcsHandle_t h = NULL;
    const tcsStatus_t status = tcsCreate(TCS_SHIM_OUT(handle, h));
    if (handle != NULL) *handle = (cusparseHandle_t)h; /* NULL on failure, as tcsCreate */
    return TCS_SHIM_STATUS(status);
}

cusparseStatus_t CUSPARSEAPI cusparseDestroy(cusparseHandle_t handle) {
    return TCS_SHIM_STATUS(tcsDestroy((tcsHandle_t)handle));
}

cusparseStatus_t CUSPARSEAPI cusparseSetStream(cusparseHandle_t handle, cudaStream_t streamId) {
    return TCS_SHIM_STATUS(tcsSetStream((tcsHandle_t)handle, streamId));
}

cusparseStatus_t CUSPARSEAPI cusparseGetStream(cusparseHandle_t handle, cudaStream_t* streamId) {
    return TCS_SHIM_STATUS(tcsGetStream((tcsHandle_t)handle, streamId));
}

cusparseStatus_t CUSPARSEAPI cusparseSetPointerMode(cusparseHandle_t handle,
                                                    cusparsePointerMode_t mode) {
    return TCS_SHIM_STATUS(tcsSetPointerMode((tcsHandle_t)handle, (tcsPointerMode_t)mode));
}

cusparseStatus_t CUSPARSEAPI cusparseGetPointerMode(cusparseHandle_t handle,
                                                    cusparsePointerMode_t* mode) {
    tcsPointerMode_t m = TCS_POINTER_MODE_HOST;
    const tcsStatus_t status = tcsGetPointerMode((tcsHandle_t)handle, TCS_SHIM_OUT(mode, m));
    if (status == TCS_STATUS_SUCCESS) *mode = (cusparsePointerMode_t)m;
    return TCS_SHIM_STATUS(status);
}

/* The tcsparse names ("TCS_STATUS_NOT_SUPPORTED"): a solver's error message then says
 * which library answered. */
const char* CUSPARSEAPI cusparseGetErrorName(cusparseStatus_t status) {
    return tcsGetErrorName((tcsStatus_t)status);
}

const char* CUSPARSEAPI cusparseGetErrorString(cusparseStatus_t status) {
    return tcsGetErrorString((tcsStatus_t)status);
}

/* The version and properties are those of the cuSPARSE whose header the shim was
 * compiled against: callers compare them with cuSPARSE versions (hipSPARSE decodes
 * cusparseGetVersion as MAJOR*1000 + MINOR*100 + PATCH), and the shim exports exactly
 * that header's ABI. tcsGetVersion stays the way to ask for tcsparse's own version.
 * The tcs calls run first for their argument checks (and the TCS_LOG_LEVEL trace). */
cusparseStatus_t CUSPARSEAPI cusparseGetVersion(cusparseHandle_t handle, int* version) {
    const tcsStatus_t status = tcsGetVersion((tcsHandle_t)handle, version);
    if (status == TCS_STATUS_SUCCESS) *version = CUSPARSE_VERSION;
    return TCS_SHIM_STATUS(status);
}

cusparseStatus_t CUSPARSEAPI cusparseGetProperty(libraryPropertyType type, int* value) {
    const tcsStatus_t status = tcsGetProperty(type, value);
    if (status == TCS_STATUS_SUCCESS)
        *value = type == MAJOR_VERSION   ? CUSPARSE_VER_MAJOR
                 : type == MINOR_VERSION ? CUSPARSE_VER_MINOR
                                         : CUSPARSE_VER_PATCH;
    return TCS_SHIM_STATUS(status);
}
