// The dense-block format of the tensor-core SpMM (spmm/blocks/), built on the GPU from a
// CSR or BSR matrix into the caller's buffer.
//
// The rows, in a chosen order (row_reorder.hpp), are cut into windows of kWindowRows = 32
// rows: the four warps of a thread block take 8 rows each, the 8-row side of the MMAs.
// The distinct columns of a window, ascending, are cut into groups of kGroupColumns = 16
// (the k of one m16n8k16 MMA, two m16n8k8 or four m8n8k4). A block is one window x one
// group: a dense 32 x 16 matrix over the window's own columns. Unlike SMaT's blocks,
// aligned to multiples of 16 in both directions, no column of a block is empty, so fill
// is lost only to rows of a window that lack a column other rows of it have (and to the
// last group's unused columns): the fill this gives, and what the windows' sizes buy, is
// measured in docs/algorithms/spmm-blocks.md.
//
// What is stored per block: its 16 column indices (-1 past the window's last column) and
// one 16-bit mask per row of the window (bit s: the row has the block's column s). The
// values stay in the caller's array: counting a row's set bits block by block, the k-th
// set bit is the row's k-th entry in column order, which sits at the row's start + k
// when the row's columns are sorted, and at value_index[start + k] otherwise (rows with
// unsorted columns, and every row of a BSR matrix, whose values are in block order). So
// the SpMM reads A's values where the caller keeps them, new values included, at 2 to 8
// bytes per nonzero, and only the masks and columns of the structure.
//
// A row appears at most once per column: with duplicate entries in a row the counting
// above breaks. The build counts such rows (block_summary::duplicates); the SpMM refuses
// them after preprocess.
#pragma once

#include "core/workspace.hpp"
#include "formats/row_reorder.hpp"
#include "formats/row_source.cuh"

#include <cuda_runtime_api.h>

#include <climits>
#include <cstddef>
#include <cstdint>

namespace tcs::formats {

inline constexpr int kWindowRows = 32;
inline constexpr int kGroupColumns = 16;

// What the build found, on the device; preprocess copies it to the host.
struct block_summary {
    unsigned long long groups[2];    // blocks in the natural order, in signature order
    unsigned long long distinct[2];  // the windows' distinct columns, summed, per order
    unsigned long long unsorted_rows;
    unsigned long long duplicates;   // rows with a column more than once
    int chosen;                      // 1: the signature order is used
    int indexed;                     // values through value_index (unsorted rows, BSR)
    int max_groups;                  // blocks of the longest window (chosen order)
    int overflow;                    // the chosen order's blocks exceed the capacity:
                                     // nothing was built
    int split_windows;               // windows of at least dense_blocks::split_groups
                                     // blocks: the first ones of the schedule
};

enum class reorder_mode : int { automatic = 0, never = 1, always = 2 };

struct dense_blocks {
    std::int64_t rows = 0, windows = 0, entries = 0;
    std::int64_t capacity = 0;  // blocks the arrays below hold
    int split_groups = INT_MAX;  // the build counts the windows of this many blocks or more
    // kept from preprocess to the runs
    int* order = nullptr;        // rows: window position -> row of A
    int* starts = nullptr;       // rows: start of row order[p] in the entry space
    int* group_start = nullptr;  // windows + 1: first block of each window
    int* schedule = nullptr;     // windows: the windows by descending block count
    int* cols = nullptr;         // kGroupColumns per block
    std::uint16_t* masks = nullptr;  // kWindowRows per block
    int* value_index = nullptr;  // entries: value position of the k-th entry of a row
                                 // (null where the caller takes sorted CSR rows only)
    block_summary* summary = nullptr;
    // scratch of the build
    unsigned char* sorted = nullptr;  // rows: 1 when the row's columns ascend
    int* groups[2] = {nullptr, nullptr};  // windows: blocks per window in either order
    unsigned* schedule_keys[2] = {nullptr, nullptr};
    int* window_ids = nullptr;
    void* scan_temp = nullptr;
    std::size_t scan_temp_bytes = 0;
    void* sort_temp = nullptr;
    std::size_t sort_temp_bytes = 0;
    signature_scratch signatures;
};

// Blocks of `entries` entries in `windows` windows, at most: a window of d distinct
// columns has ceil(d / 16) blocks and d never exceeds its entries.
inline std::int64_t group_bound(std::int64_t entries, std::int64_t windows) {
    return (entries + std::int64_t(kGroupColumns - 1) * windows) / kGroupColumns;
}

// What the arrays are sized for: `capacity` blocks (group_bound: any matrix), and
// value_index or not (without it, rows with unsorted columns are counted, never built,
// and a BSR matrix cannot be built).
struct block_capacity {
    std::int64_t blocks = 0;
    bool value_index = true;
};

// Carves the kept arrays from `kept` and the build's scratch from `scratch` (null bases
// size only). rows > 0, entries > 0, entries < 2^31.
dense_blocks carve_dense_blocks(std::int64_t rows, std::int64_t entries, const block_capacity& cap,
                                carver& kept, carver& scratch);

// Builds the format: sortedness of the rows, the signature order, the block counts of
// both orders, the choice (mode; automatic: the signature order when it saves more
// than 1/32 of the blocks), then, if they fit the capacity (else summary->overflow),
// the chosen order's blocks and the schedule. Entirely on the device, asynchronous on
// `stream`, deterministic. BSR rows take their values through value_index always.
template <class Rows>
void build_dense_blocks(const Rows& rows, const dense_blocks& d, reorder_mode mode, cudaStream_t stream);

}  // namespace tcs::formats
