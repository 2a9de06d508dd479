// The emulated library of gpu_spgemm_tiles_emulated leaves out the GPU matrix checks
// (cpp/check is not emulated): its handles never check their inputs, as without
// TCS_CHECK_INPUTS. gpu_check_matrix tests the checks on a GPU. And it always has code
// for the device it runs on.
#include "core/device.hpp"
#include "input_check.hpp"

namespace tcs::api {

bool input_checking_requested() noexcept { return false; }
std::size_t input_check_scratch_bytes() { return 0; }
void check_input(const tcsContext&, const tcsSpMatDescr&, int, const char*) {}
void check_device_code(const tcsContext&) {}

}  // namespace tcs::api

namespace tcs {

// The emulation compiles every kernel for the CPU, so this build always has code for
// the emulated device (cpp/core/device_code.cu asks the CUDA runtime on a real one).
bool build_has_code_for_current_device() { return true; }

}  // namespace tcs
