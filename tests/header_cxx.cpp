// Compiled as C++11 with -Wall -Wextra -pedantic -Werror (tests/header.cmake): the
// public header has C linkage for C++ callers, and its enums are int-sized.
#include "tcsparse.h"
#include "tcsparse.h"

#include <cstdio>
#include <type_traits>

static_assert(sizeof(tcsStatus_t) == sizeof(int), "enums pass as int through the C ABI");
static_assert(sizeof(tcsSpGEMMAlg_t) == sizeof(int), "enums pass as int through the C ABI");
static_assert(std::is_convertible<tcsSpMatDescr_t, tcsConstSpMatDescr_t>::value,
              "a mutable descriptor is accepted where a const one is expected");
static_assert(!std::is_convertible<tcsConstSpMatDescr_t, tcsSpMatDescr_t>::value,
              "a const descriptor is not accepted where a mutable one is expected");

int main() {
    // Taking the address checks the C++ declaration matches the exported C symbol.
    tcsStatus_t (*get_version)(tcsHandle_t, int*) = &tcsGetVersion;
    int version = 0;
    std::printf("TCS_VERSION %d\n", TCS_VERSION);
    if (get_version(nullptr, &version) != TCS_STATUS_SUCCESS || version != TCS_VERSION) {
        std::printf("the library reports version %d, the header %d\n", version, TCS_VERSION);
        return 1;
    }
    return 0;
}
