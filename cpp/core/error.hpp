// Errors inside tcsparse's C++ core. The core throws tcs::error; the C layer (lib/)
// turns it into a tcsStatus_t at the boundary. The numeric values of errc equal the
// public statuses so that the conversion is a cast, but the core never includes the
// public header.
#pragma once

#include <cuda_runtime_api.h>

#include <exception>

namespace tcs {

enum class errc : int {
    not_initialized        = 1,
    alloc_failed           = 2,
    invalid_value          = 3,
    arch_mismatch          = 4,
    execution_failed       = 6,
    internal_error         = 7,
    not_supported          = 10,
    insufficient_resources = 11,
};

class error : public std::exception {
public:
    error(errc code, const char* what, cudaError_t cuda = cudaSuccess) noexcept
        : code_(code), what_(what), cuda_(cuda) {}
    errc code() const noexcept { return code_; }
    const char* what() const noexcept override { return what_; }
    // The CUDA runtime error behind it (cudaSuccess for errors of tcsparse's own), for
    // the log: which kernel failed is in what(), how only here.
    cudaError_t cuda() const noexcept { return cuda_; }

private:
    errc code_;
    const char* what_;  // always a string literal
    cudaError_t cuda_;
};

[[noreturn]] inline void fail(errc code, const char* what) { throw error(code, what); }

// The one place CUDA runtime errors become tcs errors.
inline errc errc_from_cuda(cudaError_t e) noexcept {
    switch (e) {
    case cudaErrorMemoryAllocation: return errc::alloc_failed;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorInitializationError: return errc::not_initialized;
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorInvalidDeviceFunction:  // a kernel without code for this device
    case cudaErrorUnsupportedPtxVersion: return errc::arch_mismatch;
    default: return errc::execution_failed;
    }
}

inline void check_cuda(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        (void)cudaGetLastError();  // clear a non-sticky error so the handle stays usable
        throw error(errc_from_cuda(e), what, e);
    }
}

// The CUDA runtime keeps one last error per host thread and per runtime. libtcsparse
// links its runtime statically, so a caller's error lives in another runtime and is never
// seen here; one pending in ours comes from an earlier failure inside tcsparse (an
// asynchronous fault, say). A stage then refuses to start (execution_failed) and leaves
// the error in place, and a launch is never reported as failed because of it.
inline void check_no_pending_error() {
    const cudaError_t pending = cudaPeekAtLastError();
    if (pending != cudaSuccess)
        throw error(errc::execution_failed,
                    "a CUDA error was already pending in tcsparse's runtime (an earlier failure)",
                    pending);
}

// After a kernel launch: reports launch-configuration errors without synchronizing. The
// launch helpers call check_no_pending_error first, so the error taken here is ours.
inline void check_launch(const char* what) { check_cuda(cudaGetLastError(), what); }

}  // namespace tcs
