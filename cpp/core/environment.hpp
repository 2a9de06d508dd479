// Environment variables the C++ layer reads itself, each once per process: an inline
// function's static is one object across the library's translation units.
#pragma once

#include <cstdlib>
#include <cstring>

namespace tcs {

// TCS_HANDOFF=0: the explicit tile SpGEMM algorithms and TCS_SPMM_BSR_TC never hand an
// input to another family (a diagnostic, and what the tests use to run the tile and
// block kernels on any input; include/tcsparse.h). Read at the first product that asks.
inline bool explicit_hand_off_enabled() {
    static const bool on = [] {
        const char* v = std::getenv("TCS_HANDOFF");
        return !(v != nullptr && std::strcmp(v, "0") == 0);
    }();
    return on;
}

}  // namespace tcs
