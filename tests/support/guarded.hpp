// Host memory of exactly `bytes` between two 4 KiB guard zones of a known byte, for the
// emulated kernels' corrupt-input runs: a write past either end shows in the zones, and
// in a build with AddressSanitizer the zones are poisoned, so that a read past the end
// stops the run too.
#pragma once

#include <cstddef>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define TCST_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define TCST_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define TCST_POISON(p, n) ((void)(p), (void)(n))
#define TCST_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace tcst {

class guarded {
public:
    static constexpr std::size_t kGuard = 4096;
    static constexpr unsigned char kByte = 0xA5;

    explicit guarded(std::size_t bytes) : mem_(bytes + 2 * kGuard, kByte), bytes_(bytes) {
        TCST_POISON(mem_.data(), kGuard);
        TCST_POISON(mem_.data() + kGuard + bytes_, kGuard);
    }
    ~guarded() { TCST_UNPOISON(mem_.data(), mem_.size()); }
    guarded(const guarded&) = delete;
    guarded& operator=(const guarded&) = delete;

    void* get() { return mem_.data() + kGuard; }

    bool intact() {
        TCST_UNPOISON(mem_.data(), mem_.size());
        bool ok = true;
        for (std::size_t i = 0; i < kGuard; ++i)
            ok = ok && mem_[i] == kByte && mem_[kGuard + bytes_ + i] == kByte;
        TCST_POISON(mem_.data(), kGuard);
        TCST_POISON(mem_.data() + kGuard + bytes_, kGuard);
        return ok;
    }

private:
    std::vector<unsigned char> mem_;
    std::size_t bytes_;
};

}  // namespace tcst
