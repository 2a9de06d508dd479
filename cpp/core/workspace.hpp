// Carves typed, aligned pieces out of one caller-provided buffer. The size query
// runs exactly the same carving with a null base, so the size returned by a query
// and the layout used by the real run can never disagree.
#pragma once

#include "core/error.hpp"

#include <cstddef>
#include <cstdint>

namespace tcs {

// a*b as a byte or element count; a product that passes size_t is a problem too large
// for any buffer (insufficient_resources), never a size that wrapped.
inline std::size_t checked_product(std::size_t a, std::size_t b) {
    std::size_t out = 0;
    if (__builtin_mul_overflow(a, b, &out))
        fail(errc::insufficient_resources, "buffer size passes size_t");
    return out;
}
inline std::size_t checked_product(std::size_t a, std::size_t b, std::size_t c) {
    return checked_product(checked_product(a, b), c);
}

class carver {
public:
    static constexpr std::size_t alignment = 256;

    explicit carver(void* base = nullptr) : base_(static_cast<char*>(base)) {}

    template <class T>
    T* take(std::size_t count) {
        const std::size_t bytes = checked_product(count, sizeof(T));
        if (bytes > SIZE_MAX - alignment || offset_ > SIZE_MAX - alignment - bytes)
            fail(errc::insufficient_resources, "buffer size passes size_t");
        offset_ = (offset_ + alignment - 1) / alignment * alignment;
        T* p = base_ ? reinterpret_cast<T*>(base_ + offset_) : nullptr;
        offset_ += bytes;
        return p;
    }
    std::size_t bytes() const { return offset_; }
    bool sizing() const { return base_ == nullptr; }

private:
    char* base_;
    std::size_t offset_ = 0;
};

}  // namespace tcs
