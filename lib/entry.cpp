#include "entry.hpp"

#include "core/error.hpp"
#include "objects.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <new>

namespace tcs::api {

int log_level() noexcept {
    static const int level = [] {
        const char* s = std::getenv("TCS_LOG_LEVEL");
        return s ? std::atoi(s) : 0;
    }();
    return level;
}

void trace(const char* func) noexcept {
    if (log_level() >= 2) std::fprintf(stderr, "tcsparse: %s\n", func);
}

namespace {
std::int64_t now_ns() noexcept {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
}  // namespace

call_timer::call_timer(const char* func) noexcept : func_(func) {
    if (log_level() >= 3) start_ns_ = now_ns();
}

call_timer::~call_timer() {
    if (!on()) return;
    std::fprintf(stderr, "tcsparse: %s %.1f us host %s\n", func_,
                 double(now_ns() - start_ns_) * 1e-3, detail);
}

void reject(int index, const char* name, const char* why, tcsStatus_t status) {
    throw bad_argument{status, index, name, why};
}

tcsContext* live_handle(tcsHandle_t handle, int index) {
    check(handle != nullptr, index, "handle", "must not be NULL");
    tcsContext* context = live(handle);
    check(context != nullptr, index, "handle", "is not a live tcsHandle_t",
          TCS_STATUS_NOT_INITIALIZED);
    return context;
}

bool valid(tcsOperation_t v) noexcept {
    return v == TCS_OPERATION_NON_TRANSPOSE || v == TCS_OPERATION_TRANSPOSE ||
           v == TCS_OPERATION_CONJUGATE_TRANSPOSE;
}
bool valid(tcsIndexBase_t v) noexcept { return v == TCS_INDEX_BASE_ZERO || v == TCS_INDEX_BASE_ONE; }
bool valid(tcsIndexType_t v) noexcept {
    return v == TCS_INDEX_16U || v == TCS_INDEX_32I || v == TCS_INDEX_64I;
}
bool valid(tcsOrder_t v) noexcept { return v == TCS_ORDER_COL || v == TCS_ORDER_ROW; }
bool valid(tcsPointerMode_t v) noexcept {
    return v == TCS_POINTER_MODE_HOST || v == TCS_POINTER_MODE_DEVICE;
}
bool valid(tcsMath_t v) noexcept {
    return v == TCS_DEFAULT_MATH || v == TCS_PEDANTIC_MATH || v == TCS_TF32_TENSOR_OP_MATH ||
           v == TCS_FP16_TENSOR_OP_MATH;
}
bool valid(tcsSpGEMMAlg_t v) noexcept {
    switch (v) {
    case TCS_SPGEMM_DEFAULT:
    case TCS_SPGEMM_CSR_ALG_DETERMINISTIC:
    case TCS_SPGEMM_CSR_ALG_NONDETERMINISTIC:
    case TCS_SPGEMM_ALG1:
    case TCS_SPGEMM_ALG2:
    case TCS_SPGEMM_ALG3:
    case TCS_SPGEMM_ALG_HASH:
    case TCS_SPGEMM_ALG_TILE:
    case TCS_SPGEMM_ALG_TILE_TC: return true;
    }
    return false;
}
bool valid(tcsSpMMAlg_t v) noexcept {
    switch (v) {
    case TCS_SPMM_ALG_DEFAULT:
    case TCS_SPMM_COO_ALG1:
    case TCS_SPMM_COO_ALG2:
    case TCS_SPMM_COO_ALG3:
    case TCS_SPMM_CSR_ALG1:
    case TCS_SPMM_COO_ALG4:
    case TCS_SPMM_CSR_ALG2:
    case TCS_SPMM_CSR_ALG3:
    case TCS_SPMM_BLOCKED_ELL_ALG1:
    case TCS_SPMM_BSR_ALG1:
    case TCS_SPMM_CSR_ROWSPLIT:
    case TCS_SPMM_CSR_MERGE:
    case TCS_SPMM_BSR_TC: return true;
    }
    return false;
}
bool valid(tcsSpMVAlg_t v) noexcept {
    switch (v) {
    case TCS_SPMV_ALG_DEFAULT:
    case TCS_SPMV_COO_ALG1:
    case TCS_SPMV_CSR_ALG1:
    case TCS_SPMV_CSR_ALG2:
    case TCS_SPMV_COO_ALG2:
    case TCS_SPMV_SELL_ALG1:
    case TCS_SPMV_BSR_ALG1: return true;
    }
    return false;
}
bool valid_data_type(cudaDataType v) noexcept {
    return v == CUDA_R_32F || v == CUDA_R_64F || v == CUDA_R_16F || v == CUDA_R_16BF;
}

tcsStatus_t status_from_exception(const char* func) noexcept {
    tcsStatus_t status = TCS_STATUS_INTERNAL_ERROR;
    const char* detail = "unknown exception";
    const char* cuda = nullptr;  // the CUDA error's name, where one caused it
    try {
        throw;
    } catch (const bad_argument& e) {
        if (log_level() >= 1)
            std::fprintf(stderr, "tcsparse: %s: argument %d (%s) %s -> %s\n", func, e.index,
                         e.name, e.why, tcsGetErrorName(e.status));
        return e.status;
    } catch (const tcs::error& e) {
        status = static_cast<tcsStatus_t>(e.code());
        detail = e.what();
        if (e.cuda() != cudaSuccess) cuda = cudaGetErrorName(e.cuda());
    } catch (const std::bad_alloc&) {
        status = TCS_STATUS_ALLOC_FAILED;
        detail = "out of host memory";
    } catch (const std::exception& e) {
        detail = e.what();
    } catch (...) {
    }
    if (log_level() >= 1)
        std::fprintf(stderr, "tcsparse: %s: %s%s%s%s -> %s\n", func, detail, cuda ? " (" : "",
                     cuda ? cuda : "", cuda ? ")" : "", tcsGetErrorName(status));
    return status;
}

}  // namespace tcs::api
