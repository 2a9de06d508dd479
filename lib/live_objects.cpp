// The library's table of live objects: the one translation unit that includes
// live_table.h, so the library has one table.
#include "objects.hpp"

#include "live_table.h"

namespace tcs::api {

std::uint64_t add_live(void* object, unsigned kind) { return live_table_add(object, kind); }
void* find_live(const void* handle, unsigned kind) {
    return live_table_find(reinterpret_cast<std::uintptr_t>(handle), kind);
}
void* remove_live(const void* handle, unsigned kind) {
    return live_table_remove(reinterpret_cast<std::uintptr_t>(handle), kind);
}

}  // namespace tcs::api
