// What the tests that run kernels on the CPU emulation share: the failure count and
// CHECK (report a failed condition, count it, and return false from the check), the
// poisoned host memory that stands in for device buffers, and an H100-like device with
// a small grid; and the end of a program's main (launches, verdict). Header-only C++.
#pragma once

#include "core/device.hpp"
#include "simt.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace tcst {

inline int failures = 0;

// 256-byte aligned host memory filled with a poison byte (a "device" buffer).
struct poisoned_buffer {
    std::unique_ptr<unsigned char, decltype(&std::free)> p{nullptr, &std::free};
    explicit poisoned_buffer(std::size_t bytes, int poison = 0xFF) {
        const std::size_t rounded = (bytes + 255) / 256 * 256 + 256;
        p.reset(static_cast<unsigned char*>(std::aligned_alloc(256, rounded)));
        std::memset(p.get(), poison, rounded);
    }
    void* get() const { return p.get(); }
};

// Two SMs: small grids, so that the kernels' loops over rows take the rest.
inline tcs::device_info h100_like() {
    tcs::device_info d;
    d.sm_count = 2;
    d.cc_major = 9;
    d.smem_per_block_optin = 232448;
    d.smem_per_sm = 233472;
    d.l2_bytes = 50u << 20;
    d.max_threads_per_sm = 2048;
    return d;
}

// The end of an emulation program's main: the kernels it launched and the verdict;
// returns the exit status (0: all passed).
inline int finish(const char* program) {
    std::printf("kernels launched:\n");
    emu::print_launches();
    if (failures != 0) {
        std::printf("%s: %d failures\n", program, failures);
        return 1;
    }
    std::printf("%s: all passed\n", program);
    return 0;
}

}  // namespace tcst

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            std::fprintf(stderr, "FAILED %s:%d: ", __FILE__, __LINE__);                            \
            std::fprintf(stderr, __VA_ARGS__);                                                     \
            std::fprintf(stderr, "\n");                                                            \
            ++::tcst::failures;                                                                    \
            return false;                                                                          \
        }                                                                                          \
    } while (0)
