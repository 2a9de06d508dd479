// The tensor-core block family of SpMM (SMaT family, with condensed columns): A, CSR or
// BSR, is turned into the dense-block format (formats/dense_blocks.hpp) in the caller's
// buffer, and the blocks are multiplied on tensor cores (kernel.cuh). spmm.cu hands a
// problem here for TCS_SPMM_BSR_TC, for BSR matrices, and when the automatic rule
// (select.hpp) picked the family after preprocess.
#pragma once

#include "spmm/spmm.hpp"

#include <cstddef>

namespace tcs::spmm::blocks {

// Throws arch_mismatch on a device older than sm_80 (no mma.sync of these shapes), and
// insufficient_resources when A has 2^31 entries or more (BSR: every element of its
// blocks). opA must be non-transposed (cuSPARSE's rule for BSR): the C layer checks it.
void check_supported(const problem& p);

// Same contracts as tcs::spmm::buffer_size / preprocess / run (spmm.hpp). The buffer
// holds the format (bounded by A's entries and rows, never by what the analysis finds,
// so the size query needs no data: docs/algorithms/spmm-blocks.md) and the build's
// scratch, which a run later shares with a row-wise copy of a column-wise op(B).
// preprocess builds the format and waits for the stream once to read its counts (not
// while the stream is being captured: then the counts stay -1); the caller decides what
// duplicate entries mean. A run without preprocess builds the format first, on the
// stream, without waiting.
std::size_t buffer_size(const problem& p);
analysis preprocess(const problem& p, void* buffer);
void run(const problem& p, void* buffer, bool preprocessed);

}  // namespace tcs::spmm::blocks
