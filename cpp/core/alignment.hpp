// Whether an address allows 16-byte vector loads and stores (cp.async, uint4): the one
// test every family makes before it picks a vector path.
#pragma once

#include <cstdint>

namespace tcs {

inline bool aligned16(const void* ptr) { return reinterpret_cast<std::uintptr_t>(ptr) % 16 == 0; }

}  // namespace tcs
