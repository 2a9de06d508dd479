// Input checking (TCS_CHECK_INPUTS=1): the products' hook into cpp/check. A handle
// created with checking on owns a small device scratch; check_input runs the structural
// CSR checks there and rejects the argument with INVALID_VALUE when a rule fails.
#pragma once

#include "objects.hpp"

#include "check/csr_check.hpp"

namespace tcs::api {

// The arrays of a CSR descriptor, with their index widths.
tcs::check::csr_arrays csr_arrays_of(const tcsSpMatDescr& d);

// Whether handles check their inputs: TCS_CHECK_INPUTS=1 when the process first asks.
bool input_checking_requested() noexcept;

// Bytes of the scratch a checking handle allocates.
std::size_t input_check_scratch_bytes();

// ARCH_MISMATCH where this build has no code for the handle's device (a host-side
// fact, known since tcsCreate): the products' size queries ask it first, so that a
// caller that can take another library (the shim) learns it before sizing a buffer.
void check_device_code(const tcsContext& h);

// Before any GPU work of a call: ARCH_MISMATCH where this build has no code for the
// handle's device, EXECUTION_FAILED over a CUDA error already pending in tcsparse's own
// runtime (left in place: tcs::check_no_pending_error).
void check_device_runs(const tcsContext& h);

// Called by every product stage right before its GPU work: check_device_runs, then,
// with input checking on the handle, checks the CSR matrix
// `m` (argument `index`, `name`) and throws INVALID_VALUE naming the first broken
// structural rule and row.
void check_input(const tcsContext& h, const tcsSpMatDescr& m, int index, const char* name);

}  // namespace tcs::api
