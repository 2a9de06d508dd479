/* cuSPARSE handle, stream, pointer mode, error strings, version and property. The
 * shim's handle wraps a tcsparse handle and, made on the first forwarded call, a real
 * cuSPARSE handle that the setters here keep on the same stream and pointer mode. */
#include "shim.h"

#include <stdlib.h>

cusparseStatus_t CUSPARSEAPI cusparseCreate(cusparseHandle_t* handle) {
    tcsHandle_t t = NULL;
    const tcsStatus_t status = tcsCreate(TCS_SHIM_OUT(handle, t));
    if (status != TCS_STATUS_SUCCESS) {
        if (handle != NULL) *handle = NULL; /* as tcsCreate */
        return TCS_SHIM_STATUS(status);
    }
    tcs_shim_handle* h = calloc(1, sizeof *h);
    if (h == NULL) {
        tcsDestroy(t);
        *handle = NULL;
        return CUSPARSE_STATUS_ALLOC_FAILED;
    }
    h->tcs = t;
    h->stream = NULL;
    h->pointer_mode = CUSPARSE_POINTER_MODE_HOST;
    const cusparseStatus_t published = tcs_shim_publish(h, TCS_SHIM_HANDLE_KIND, handle);
    if (published != CUSPARSE_STATUS_SUCCESS) {
        tcsDestroy(t);
        *handle = NULL;
    }
    return published;
}

cusparseStatus_t CUSPARSEAPI cusparseDestroy(cusparseHandle_t handle) {
    tcs_shim_handle* h = tcs_shim_withdraw(handle, TCS_SHIM_HANDLE_KIND);
    if (h == NULL) return TCS_SHIM_STATUS(tcsDestroy((tcsHandle_t)handle));
    const tcsStatus_t status = tcsDestroy(h->tcs);
    if (h->real != NULL) tcs_shim_forward_cusparseDestroy_real(h->real);
    free(h);
    return TCS_SHIM_STATUS(status);
}

cusparseStatus_t CUSPARSEAPI cusparseSetStream(cusparseHandle_t handle, cudaStream_t streamId) {
    tcs_shim_handle* h = tcs_shim_handle_of(handle);
    const tcsStatus_t status = tcsSetStream(tcs_shim_tcs_handle(handle), streamId);
    if (status != TCS_STATUS_SUCCESS || h == NULL) return TCS_SHIM_STATUS(status);
    tcs_shim_lock(); /* the first forwarded call makes the real handle from these fields */
    h->stream = streamId;
    cusparseHandle_t real = __atomic_load_n(&h->real, __ATOMIC_ACQUIRE);
    const cusparseStatus_t s =
        real != NULL ? tcs_shim_forward_cusparseSetStream_real(real, streamId) : CUSPARSE_STATUS_SUCCESS;
    tcs_shim_unlock();
    return s;
}

cusparseStatus_t CUSPARSEAPI cusparseGetStream(cusparseHandle_t handle, cudaStream_t* streamId) {
    return TCS_SHIM_STATUS(tcsGetStream(tcs_shim_tcs_handle(handle), streamId));
}

cusparseStatus_t CUSPARSEAPI cusparseSetPointerMode(cusparseHandle_t handle,
                                                    cusparsePointerMode_t mode) {
    tcs_shim_handle* h = tcs_shim_handle_of(handle);
    const tcsStatus_t status = tcsSetPointerMode(tcs_shim_tcs_handle(handle), (tcsPointerMode_t)mode);
    if (status != TCS_STATUS_SUCCESS || h == NULL) return TCS_SHIM_STATUS(status);
    tcs_shim_lock(); /* the first forwarded call makes the real handle from these fields */
    h->pointer_mode = mode;
    cusparseHandle_t real = __atomic_load_n(&h->real, __ATOMIC_ACQUIRE);
    const cusparseStatus_t s =
        real != NULL ? tcs_shim_forward_cusparseSetPointerMode_real(real, mode) : CUSPARSE_STATUS_SUCCESS;
    tcs_shim_unlock();
    return s;
}

cusparseStatus_t CUSPARSEAPI cusparseGetPointerMode(cusparseHandle_t handle,
                                                    cusparsePointerMode_t* mode) {
    tcsPointerMode_t m = TCS_POINTER_MODE_HOST;
    const tcsStatus_t status = tcsGetPointerMode(tcs_shim_tcs_handle(handle), TCS_SHIM_OUT(mode, m));
    if (status == TCS_STATUS_SUCCESS) *mode = (cusparsePointerMode_t)m;
    return TCS_SHIM_STATUS(status);
}

/* The tcsparse names ("TCS_STATUS_NOT_SUPPORTED"): a solver's error message then says
 * which library answered, and real.c tells a shim from the real library by them. */
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
    const tcsStatus_t status = tcsGetVersion(tcs_shim_tcs_handle(handle), version);
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
