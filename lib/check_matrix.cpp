// tcsCheckMatrixCsr and input checking: the C layer over cpp/check.
#include "entry.hpp"
#include "input_check.hpp"
#include "objects.hpp"
#include "views.hpp"

#include "core/error.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace tcs::api;
namespace chk = tcs::check;

namespace tcs::api {

chk::csr_arrays csr_arrays_of(const tcsSpMatDescr& d) {
    chk::csr_arrays a;
    a.rows = d.rows;
    a.cols = d.cols;
    a.nnz = d.nnz;
    a.row_ptr = d.offsets;
    a.row_ptr_64 = d.offsets_type == TCS_INDEX_64I;
    a.col_idx = d.columns;
    a.col_idx_64 = d.columns_type == TCS_INDEX_64I;
    a.values = d.values;
    a.type = value_type_of(d.value_type);
    a.base = d.base == TCS_INDEX_BASE_ONE ? 1 : 0;
    return a;
}

bool input_checking_requested() noexcept {
    static const bool requested = [] {  // read once, as TCS_LOG_LEVEL is
        const char* s = std::getenv("TCS_CHECK_INPUTS");
        return s != nullptr && std::strcmp(s, "1") == 0;
    }();
    return requested;
}

std::size_t input_check_scratch_bytes() {
    return chk::buffer_size(chk::csr_arrays{}, chk::level::structure);
}

namespace {

const char* rule_text(chk::rule r) {
    switch (r) {
    case chk::rule::ok: return "holds every rule";
    case chk::rule::offsets: return "has row offsets that do not start at the base or end at nnz + base";
    case chk::rule::decreasing: return "has row offsets that decrease";
    case chk::rule::index: return "has a column index outside [base, base + cols)";
    case chk::rule::duplicate: return "has a column index twice in a row";
    case chk::rule::unsorted: return "has unsorted column indices in a row";
    case chk::rule::nan: return "has a NaN value";
    case chk::rule::inf: return "has an infinite value";
    }
    return "breaks an unknown rule";
}

void log_rule(const char* func, int index, const char* name, const chk::result& r) {
    if (log_level() < 1 || r.first == chk::rule::ok) return;
    if (r.row >= 0)
        std::fprintf(stderr, "tcsparse: %s: argument %d (%s) %s (first in row %lld)\n", func, index,
                     name, rule_text(r.first), static_cast<long long>(r.row));
    else
        std::fprintf(stderr, "tcsparse: %s: argument %d (%s) %s\n", func, index, name,
                     rule_text(r.first));
}

bool structural(chk::rule r) {
    return r == chk::rule::offsets || r == chk::rule::decreasing || r == chk::rule::index;
}

const tcsSpMatDescr* checkable(tcsConstSpMatDescr_t matA, int index) {
    const tcsSpMatDescr* a = live_sparse(matA, index, "matA");
    check(a->format == TCS_FORMAT_CSR, index, "matA", "must be CSR", TCS_STATUS_NOT_SUPPORTED);
    check(a->offsets_type != TCS_INDEX_16U, index, "matA", "has 16-bit indices",
          TCS_STATUS_NOT_SUPPORTED);
    check(a->rows == 0 || a->nnz == 0 || a->offsets != nullptr, index, "matA",
          "has no row offsets");
    return a;
}

chk::level level_of(tcsMatrixCheck_t c) {
    switch (c) {
    case TCS_CHECK_STRUCTURE: return chk::level::structure;
    case TCS_CHECK_UNIQUE: return chk::level::unique;
    case TCS_CHECK_SORTED: return chk::level::sorted;
    }
    reject(2, "check", "value outside the enum");
}

}  // namespace

void check_device_code(const tcsContext& h) {
    if (!h.device.has_code)
        throw tcs::error(tcs::errc::arch_mismatch,
                         "this build of tcsparse has no code for the GPU's architecture "
                         "(CMAKE_CUDA_ARCHITECTURES)");
}

void check_device_runs(const tcsContext& h) {
    check_device_code(h);
    tcs::check_no_pending_error();
}

void check_input(const tcsContext& h, const tcsSpMatDescr& m, int index, const char* name) {
    check_device_runs(h);
    if (h.check_scratch == nullptr || m.format != TCS_FORMAT_CSR) return;
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    tcs::check_cuda(cudaStreamIsCapturing(h.stream, &capture), "input check: capture status");
    check(capture == cudaStreamCaptureStatusNone, index, name,
          "cannot be checked while the stream is captured (TCS_CHECK_INPUTS=1)",
          TCS_STATUS_NOT_SUPPORTED);
    chk::csr_arrays a = csr_arrays_of(m);
    a.values = nullptr;  // NaN and Inf are valid inputs of a product
    const chk::result r = chk::check(a, chk::level::structure, h.check_scratch, h.stream);
    if (!structural(r.first)) return;
    log_rule("input check", index, name, r);
    reject(index, name, rule_text(r.first));
}

}  // namespace tcs::api

extern "C" TCS_API tcsStatus_t tcsCheckMatrixCsr_bufferSize(tcsHandle_t handle,
                                                            tcsConstSpMatDescr_t matA,
                                                            tcsMatrixCheck_t check,
                                                            size_t* bufferSize) try {
    trace(__func__);
    handle = live_handle(handle, 0);
    const tcsSpMatDescr* a = checkable(matA, 1);
    const chk::level lv = level_of(check);
    check_not_null(bufferSize, 3, "bufferSize");
    *bufferSize = chk::buffer_size(csr_arrays_of(*a), lv);
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsCheckMatrixCsr(tcsHandle_t handle, tcsConstSpMatDescr_t matA,
                                                 tcsMatrixCheck_t check,
                                                 tcsDataStatus_t* dataStatus,
                                                 void* externalBuffer) try {
    trace(__func__);
    handle = live_handle(handle, 0);
    const tcsSpMatDescr* a = checkable(matA, 1);
    const chk::level lv = level_of(check);
    check_not_null(dataStatus, 3, "dataStatus");
    check_not_null(externalBuffer, 4, "externalBuffer");
    check_device_runs(*handle);
    const chk::result r = chk::check(csr_arrays_of(*a), lv, externalBuffer, handle->stream);
    log_rule(__func__, 1, "matA", r);
    *dataStatus = static_cast<tcsDataStatus_t>(r.first);
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}
