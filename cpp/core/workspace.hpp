// Carves typed, aligned pieces out of one caller-provided buffer. The size query
// runs exactly the same carving with a null base, so the size returned by a query
// and the layout used by the real run can never disagree.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tcs {

class carver {
public:
    static constexpr std::size_t alignment = 256;

    explicit carver(void* base = nullptr) : base_(static_cast<char*>(base)) {}

    template <class T>
    T* take(std::size_t count) {
        offset_ = (offset_ + alignment - 1) / alignment * alignment;
        T* p = base_ ? reinterpret_cast<T*>(base_ + offset_) : nullptr;
        offset_ += count * sizeof(T);
        return p;
    }
    std::size_t bytes() const { return offset_; }
    bool sizing() const { return base_ == nullptr; }

private:
    char* base_;
    std::size_t offset_ = 0;
};

}  // namespace tcs
