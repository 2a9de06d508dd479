// The machinery every exported function uses: logging switched on by TCS_LOG_LEVEL,
// argument checks that name the bad argument, and the firewall that turns any
// exception into a status so that nothing thrown ever crosses the C boundary.
//
// Shape of an entry point:
//   extern "C" tcsStatus_t tcsFoo(tcsHandle_t handle, int* out) try {
//       tcs::api::trace(__func__);
//       tcsContext* context = tcs::api::live_handle(handle, 0);
//       tcs::api::check_not_null(out, 1, "out");
//       ...
//       return TCS_STATUS_SUCCESS;
//   } catch (...) {
//       return tcs::api::status_from_exception(__func__);
//   }
#pragma once

#include "tcsparse.h"

#include <cstddef>
#include <cstdint>

namespace tcs::api {

// 0: silent (default); 1: errors, naming the bad argument; 2: also every call; 3: also
// the host time of every product call (SpMV, SpMM) and what it ran with.
int log_level() noexcept;
void trace(const char* func) noexcept;

// At TCS_LOG_LEVEL >= 3, one line when it goes out of scope: the call, the host time since
// construction, and `detail` (set by the call). Host time is what a caller that does not
// wait for the stream pays; it is what a held-stream benchmark cannot see.
class call_timer {
public:
    explicit call_timer(const char* func) noexcept;
    ~call_timer();
    call_timer(const call_timer&) = delete;
    call_timer& operator=(const call_timer&) = delete;
    char detail[160] = {0};
    bool on() const noexcept { return start_ns_ != 0; }

private:
    const char* func_;
    std::int64_t start_ns_ = 0;
};

// Thrown by the checks below; carries what the log prints.
struct bad_argument {
    tcsStatus_t status;
    int index;         // position in the call's argument list, from 0
    const char* name;  // the argument's name
    const char* why;   // a literal
};

[[noreturn]] void reject(int index, const char* name, const char* why,
                         tcsStatus_t status = TCS_STATUS_INVALID_VALUE);

inline void check(bool ok, int index, const char* name, const char* why,
                  tcsStatus_t status = TCS_STATUS_INVALID_VALUE) {
    if (!ok) reject(index, name, why, status);
}
template <class T>
inline void check_not_null(const T* p, int index, const char* name) {
    check(p != nullptr, index, name, "must not be NULL");
}
// The context of a live handle; NOT_INITIALIZED for a destroyed or foreign one.
tcsContext* live_handle(tcsHandle_t handle, int index);

// Enum ranges: ints from Fortran, Python or Julia callers are untrusted.
bool valid(tcsOperation_t v) noexcept;
bool valid(tcsIndexBase_t v) noexcept;
bool valid(tcsIndexType_t v) noexcept;
bool valid(tcsOrder_t v) noexcept;
bool valid(tcsPointerMode_t v) noexcept;
bool valid(tcsMath_t v) noexcept;
bool valid(tcsSpGEMMAlg_t v) noexcept;
bool valid(tcsSpMMAlg_t v) noexcept;
bool valid(tcsSpMVAlg_t v) noexcept;
bool valid_data_type(cudaDataType v) noexcept;  // the four value types tcsparse knows
// Bytes of one element of a type valid_data_type accepts.
inline std::size_t value_bytes(cudaDataType t) noexcept {
    return t == CUDA_R_64F ? 8 : t == CUDA_R_32F ? 4 : 2;
}
inline bool aligned(const void* p, std::size_t bytes) noexcept {
    return reinterpret_cast<std::uintptr_t>(p) % bytes == 0;
}
template <class E>
inline void check_enum(E v, int index, const char* name) {
    check(valid(v), index, name, "value outside the enum");
}

// The firewall: call only inside a catch handler.
tcsStatus_t status_from_exception(const char* func) noexcept;

}  // namespace tcs::api
