// What the core needs to know about the GPU, read once when a handle is created.
#pragma once

#include <cstddef>

namespace tcs {

struct device_info {
    int ordinal = 0;
    int sm_count = 0;
    int cc_major = 0, cc_minor = 0;
    std::size_t smem_per_block_optin = 0;  // bytes a block may use after opting in
    std::size_t smem_per_sm = 0;
    std::size_t l2_bytes = 0;
    int max_threads_per_sm = 0;
    bool has_code = true;  // this build has kernels for the device (device_code.cu)
};

// Reads the current device's properties; throws tcs::error (not_initialized) when no
// usable device or driver is present.
device_info query_current_device();

// False when this build has no kernel code for the current device (built for other
// architectures, without PTX it could compile). Needs a kernel: defined in
// device_code.cu, apart from query_current_device, which the host emulations compile.
bool build_has_code_for_current_device();

}  // namespace tcs
