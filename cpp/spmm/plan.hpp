// The SpMM family interface. The C layer (lib/spmm.cpp, lib/spmv.cpp) owns the protocol:
// argument checks, which buffer was given, the preprocess memo on matA (cuSPARSE's
// active buffer). A plan owns the arithmetic: what the product needs, how many bytes of
// buffer, what preprocess writes there and counts, and the run.
//
// Call order, as the C layer drives it (every call with the same problem p):
//   check_supported(p)                   each call, after the argument checks
//   buffer_size(p)                       tcsSpMM_bufferSize, and each later call's check
//   preprocess(p, buffer) -> found       tcsSpMM_preprocess (optional), kept in the memo
//   run(p, buffer, preprocessed, found)  tcsSpMM: found is the memo's when it matches
// Plans hold no state (one instance each, shared by every call and thread). Every stage
// runs on p.stream, allocates nothing, and throws tcs::error; only preprocess may wait
// for the stream (the counts of long rows and runs, the block counts).
#pragma once

#include "spmm/spmm.hpp"

#include <cstddef>

namespace tcs::spmm {

class plan {
public:
    virtual ~plan() = default;

    // Throws when this plan cannot compute p here (the block family: arch_mismatch before
    // sm_80, insufficient_resources for 2^31 entries or more in A).
    virtual void check_supported(const problem& p) const = 0;

    // Bytes of external buffer needed by preprocess and run (may be 0): from the
    // problem's sizes and types alone, never from A's structure.
    virtual std::size_t buffer_size(const problem& p) const = 0;

    // Writes what depends only on A's structure into buffer (the CSR family: the
    // transposed copy, row-split's list of long rows, merge-path's partition; the block
    // family: its format), then counts what run can use and waits for the counts (not
    // while the stream is being captured). Returns what run is to be given.
    virtual analysis preprocess(const problem& p, void* buffer) const = 0;

    // Runs the product, asynchronously. `preprocessed`: preprocess ran earlier on this
    // same buffer with the same parameters, so what it wrote is reused, and `found` is
    // what it returned; otherwise the run writes it first and ignores `found` (the
    // results are the same bits either way).
    virtual void run(const problem& p, void* buffer, bool preprocessed, const analysis& found) const = 0;
};

// The CSR family (cpp/spmm/csr/): row-split, merge-path, CSR-vector, one column and the
// scatter, its own rule picking the kernel where p.requested_kernel is automatic.
const plan& csr_family_plan();

// The tensor-core block family (cpp/spmm/blocks/): A, CSR or BSR, turned into dense
// blocks in the buffer and multiplied on tensor cores. Its preprocess reports duplicate
// entries in the counts and leaves their meaning to the caller.
const plan& blocks_family_plan();

// The plan for p.requested_family (select.cpp): the CSR family; for family::automatic
// (DEFAULT with a CSR A) the CSR family unless the block family may pay, weighed after
// preprocess; for family::blocks the block family, which TCS_SPMM_BSR_TC's preprocess may
// hand to the CSR family for a CSR A (select.hpp has the rules).
const plan& plan_for(const problem& p);

}  // namespace tcs::spmm
