#include "formats/dense_blocks.hpp"

#include "core/error.hpp"
#include "core/grid.hpp"
#include "core/kernel_launch.hpp"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <climits>
#include <type_traits>

namespace tcs::formats {
namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr unsigned kFull = 0xffffffffu;

// A warp per row: whether its columns ascend; ascending rows with an equal neighbour
// hold a column twice (unsorted rows are checked when ranked).
template <class Rows>
__global__ void __launch_bounds__(kThreads)
    check_rows_kernel(Rows rows, unsigned char* sorted, block_summary* s) {
    const int lane = threadIdx.x & 31;
    for (int i = blockIdx.x * kWarps + (threadIdx.x >> 5); i < rows.rows; i += gridDim.x * kWarps) {
        const auto r = rows.row(i);
        bool ascending = true, repeated = false;
        for (int k = lane; k + 1 < r.length; k += 32) {
            const int a = r.column(k), b = r.column(k + 1);
            ascending = ascending && a <= b;
            repeated = repeated || a == b;
        }
        ascending = __all_sync(kFull, ascending);
        repeated = __any_sync(kFull, repeated);
        if (lane == 0) {
            sorted[i] = ascending ? 1 : 0;
            if (!ascending) atomicAdd(&s->unsorted_rows, 1ull);
            if (ascending && repeated) atomicAdd(&s->duplicates, 1ull);
        }
    }
}

// A warp per row with unsorted columns (sorted rows are skipped): the rank of each of
// its entries in column order (ties, a column held twice, by position), and the entry
// at each rank into value_index[start + rank], where the merge reads the row in column
// order (and the build then overwrites each slot with the entry's value position, after
// reading it). Each lane compares its entries with all of the row's: L^2 / 32 steps for
// a row of L entries, paid by unsorted input only, once per build.
template <class Rows>
__global__ void __launch_bounds__(kThreads)
    rank_unsorted_kernel(Rows rows, const unsigned char* sorted, int* value_index, block_summary* s) {
    const int lane = threadIdx.x & 31;
    if (value_index == nullptr) return;  // counted only (block_capacity)
    for (int i = blockIdx.x * kWarps + (threadIdx.x >> 5); i < rows.rows; i += gridDim.x * kWarps) {
        if (sorted[i]) continue;
        const auto r = rows.row(i);
        bool repeated = false;
        for (int k = lane; k < r.length; k += 32) {
            const int c = r.column(k);
            int rank = 0;
            for (int q = 0; q < r.length; ++q) {
                const int d = r.column(q);
                rank += d < c || (d == c && q < k);
                repeated = repeated || (d == c && q != k);
            }
            value_index[r.start + rank] = k;
        }
        if (__any_sync(kFull, repeated) && lane == 0) atomicAdd(&s->duplicates, 1ull);
    }
}

// One lane's row in a window, read in column order: `column` is the next column the row
// has not yet given (INT_MAX when none), `entry` the index of that entry in the row
// (sorted rows in place, unsorted ones through the ranks in value_index; without it,
// in stored order: counts then miss, and nothing is built, see block_capacity).
template <class Row>
struct row_cursor {
    Row r;
    bool ascending = true;
    const int* ranked = nullptr;  // value_index
    int taken = 0;                // entries given so far
    int column = INT_MAX, entry = -1;

    __device__ void advance() {
        if (taken >= r.length) {
            column = INT_MAX;
            return;
        }
        entry = ascending || ranked == nullptr ? taken : ranked[r.start + taken];
        // Rows of corrupt offsets can overlap and overwrite each other's ranks: an entry
        // stays inside its row whatever the slot holds (valid rows never meet this).
        entry = entry < 0 ? 0 : entry >= r.length ? r.length - 1 : entry;
        column = r.column(entry);
    }
};

// A warp per window: the union of its 32 rows' columns, ascending, by a 32-way merge
// (lane l holds row l of the window). Counting (Build false): the window's blocks into
// groups_out and the totals into summary slot `which`. Building: each distinct column
// into its block's column slot, each row's 16-bit mask per block, each row's entries'
// value positions in column order, and the rows' starts.
template <class Rows, bool Build>
__global__ void __launch_bounds__(kThreads)
    merge_windows_kernel(Rows rows, const int* order, const unsigned char* sorted, int windows,
                         int* groups_out, int which, dense_blocks d) {
    using row_t = decltype(rows.row(0));
    const int lane = threadIdx.x & 31;
    if (Build && d.summary->overflow) return;
    for (int w = blockIdx.x * kWarps + (threadIdx.x >> 5); w < windows; w += gridDim.x * kWarps) {
        const int p = w * kWindowRows + lane;
        row_cursor<row_t> cur;
        if (p < rows.rows) {
            const int i = order != nullptr ? order[p] : p;
            cur.r = rows.row(i);
            cur.ascending = sorted[i] != 0;
            cur.ranked = d.value_index;
            if (Build) d.starts[p] = cur.r.start;
        }
        cur.advance();
        const int first = Build ? d.group_start[w] : 0;
        // The window's blocks as counted: the build writes no more (rows of corrupt
        // offsets that overlap can change each other's ranks between count and build).
        const int limit = Build ? d.group_start[w + 1] : 0;
        unsigned mask = 0;
        int distinct = 0;
        for (;;) {
            const int c = __reduce_min_sync(kFull, cur.column);
            if (c == INT_MAX) break;
            const bool has = cur.column == c;
            if (Build && first + distinct / kGroupColumns < limit) {
                const int slot = distinct % kGroupColumns;
                const int g = first + distinct / kGroupColumns;
                if (lane == 0) d.cols[std::int64_t(g) * kGroupColumns + slot] = c;
                if (has) {
                    mask |= 1u << slot;
                    if (d.value_index != nullptr)
                        d.value_index[cur.r.start + cur.taken] = cur.r.position(cur.entry);
                }
                if (slot == kGroupColumns - 1) {
                    d.masks[std::int64_t(g) * kWindowRows + lane] = std::uint16_t(mask);
                    mask = 0;
                }
            }
            if (has) {
                ++cur.taken;
                cur.advance();
            }
            ++distinct;
        }
        if (Build) {
            const int used = distinct % kGroupColumns;
            if (used != 0 && first + distinct / kGroupColumns < limit) {
                const std::int64_t g = first + distinct / kGroupColumns;
                d.masks[g * kWindowRows + lane] = std::uint16_t(mask);
                if (lane >= used && lane < kGroupColumns) d.cols[g * kGroupColumns + lane] = -1;
            }
            // Blocks counted but not met again (corrupt structure only): empty, padding.
            for (std::int64_t g = first + (distinct + kGroupColumns - 1) / kGroupColumns; g < limit; ++g) {
                d.masks[g * kWindowRows + lane] = 0;
                if (lane < kGroupColumns) d.cols[g * kGroupColumns + lane] = -1;
            }
        } else if (lane == 0) {
            const int g = (distinct + kGroupColumns - 1) / kGroupColumns;
            groups_out[w] = g;
            atomicAdd(&d.summary->groups[which], (unsigned long long)g);
            atomicAdd(&d.summary->distinct[which], (unsigned long long)distinct);
        }
    }
}

__global__ void choose_kernel(block_summary* s, int mode, int bsr, long long capacity, int indexable) {
    const unsigned long long natural = s->groups[0], reordered = s->groups[1];
    s->chosen = mode == int(reorder_mode::always)  ? 1
                : mode == int(reorder_mode::never) ? 0
                                                   : (reordered + natural / 32 < natural ? 1 : 0);
    s->indexed = bsr != 0 || s->unsorted_rows > 0 ? 1 : 0;
    s->overflow = s->groups[s->chosen] > (unsigned long long)capacity || (s->indexed && !indexable) ? 1 : 0;
}

// The chosen order and the chosen block counts (group_start before its scan), the keys
// of the schedule (windows with more blocks first) and how many windows have at least
// split_groups blocks (the first ones of the schedule).
__global__ void __launch_bounds__(kThreads)
    finalize_kernel(const int* signature_order, int rows, int windows, dense_blocks d) {
    if (d.summary->overflow) return;
    const int chosen = d.summary->chosen;
    const int stride = gridDim.x * kThreads;
    for (int i = blockIdx.x * kThreads + threadIdx.x; i < rows; i += stride)
        d.order[i] = chosen ? signature_order[i] : i;
    for (int w = blockIdx.x * kThreads + threadIdx.x; w <= windows; w += stride) {
        if (w == windows) {
            d.group_start[w] = 0;
            continue;
        }
        const int g = d.groups[chosen][w];
        d.group_start[w] = g;
        d.schedule_keys[0][w] = unsigned(INT_MAX - g);
        d.window_ids[w] = w;
        atomicMax(&d.summary->max_groups, g);
        if (g >= d.split_groups) atomicAdd(&d.summary->split_windows, 1);
    }
}

}  // namespace

dense_blocks carve_dense_blocks(std::int64_t rows, std::int64_t entries, const block_capacity& cap,
                                carver& kept, carver& scratch) {
    dense_blocks d;
    d.rows = rows;
    d.entries = entries;
    d.windows = (rows + kWindowRows - 1) / kWindowRows;
    d.capacity = cap.blocks;
    const auto m = std::size_t(rows), w = std::size_t(d.windows), g = std::size_t(cap.blocks);
    d.summary = kept.take<block_summary>(1);
    d.order = kept.take<int>(m);
    d.starts = kept.take<int>(m);
    d.group_start = kept.take<int>(w + 1);
    d.schedule = kept.take<int>(w);
    d.cols = kept.take<int>(g * kGroupColumns);
    d.masks = kept.take<std::uint16_t>(g * kWindowRows);
    if (cap.value_index) d.value_index = kept.take<int>(std::size_t(entries));

    d.sorted = scratch.take<unsigned char>(m);
    d.groups[0] = scratch.take<int>(w);
    d.groups[1] = scratch.take<int>(w);
    d.schedule_keys[0] = scratch.take<unsigned>(w);
    d.schedule_keys[1] = scratch.take<unsigned>(w);
    d.window_ids = scratch.take<int>(w);
    check_cuda(cub::DeviceScan::ExclusiveSum(nullptr, d.scan_temp_bytes, static_cast<int*>(nullptr),
                                             static_cast<int*>(nullptr), int(w + 1)),
               "dense blocks: scan size");
    d.scan_temp = scratch.take<char>(d.scan_temp_bytes);
    check_cuda(cub::DeviceRadixSort::SortPairs(nullptr, d.sort_temp_bytes,
                                               static_cast<const unsigned*>(nullptr),
                                               static_cast<unsigned*>(nullptr),
                                               static_cast<const int*>(nullptr),
                                               static_cast<int*>(nullptr), int(w)),
               "dense blocks: schedule sort size");
    d.sort_temp = scratch.take<char>(d.sort_temp_bytes);
    d.signatures = carve_signatures(rows, scratch);
    return d;
}

template <class Rows>
void build_dense_blocks(const Rows& rows, const dense_blocks& d, reorder_mode mode, cudaStream_t stream) {
    constexpr bool bsr = std::is_same_v<Rows, bsr_rows>;
    const int m = int(d.rows), windows = int(d.windows);
    check_cuda(cudaMemsetAsync(d.summary, 0, sizeof(block_summary), stream), "dense blocks: summary");
    launch("check_rows_kernel", check_rows_kernel<Rows>, grid_for(m, kWarps), kThreads, 0, stream, rows,
           d.sorted, d.summary);
    launch("rank_unsorted_kernel", rank_unsorted_kernel<Rows>, grid_for(m, kWarps), kThreads, 0,
           stream, rows, static_cast<const unsigned char*>(d.sorted), d.value_index, d.summary);
    order_by_signature(rows, d.signatures, stream);
    const int merge_grid = grid_for(windows, kWarps);
    launch("merge_windows_kernel (count)", merge_windows_kernel<Rows, false>, merge_grid, kThreads, 0,
           stream, rows, static_cast<const int*>(nullptr), static_cast<const unsigned char*>(d.sorted),
           windows, d.groups[0], 0, d);
    launch("merge_windows_kernel (count)", merge_windows_kernel<Rows, false>, merge_grid, kThreads, 0,
           stream, rows, static_cast<const int*>(d.signatures.rows_out),
           static_cast<const unsigned char*>(d.sorted), windows, d.groups[1], 1, d);
    launch("choose_kernel", choose_kernel, 1, 1, 0, stream, d.summary, int(mode), bsr ? 1 : 0,
           (long long)d.capacity, d.value_index != nullptr ? 1 : 0);
    launch("finalize_kernel", finalize_kernel, grid_for(m > windows ? m : windows + 1, kThreads),
           kThreads, 0, stream, static_cast<const int*>(d.signatures.rows_out), m, windows, d);
    std::size_t bytes = d.scan_temp_bytes;
    check_cuda(cub::DeviceScan::ExclusiveSum(d.scan_temp, bytes, d.group_start, d.group_start,
                                             windows + 1, stream),
               "dense blocks: block offsets");
    launch("merge_windows_kernel (build)", merge_windows_kernel<Rows, true>, merge_grid, kThreads, 0,
           stream, rows, static_cast<const int*>(d.order), static_cast<const unsigned char*>(d.sorted),
           windows, static_cast<int*>(nullptr), 0, d);
    bytes = d.sort_temp_bytes;
    check_cuda(cub::DeviceRadixSort::SortPairs(d.sort_temp, bytes,
                                               static_cast<const unsigned*>(d.schedule_keys[0]),
                                               d.schedule_keys[1], static_cast<const int*>(d.window_ids),
                                               d.schedule, windows, 0, 32, stream),
               "dense blocks: schedule");
}

template void build_dense_blocks<csr_rows>(const csr_rows&, const dense_blocks&, reorder_mode, cudaStream_t);
template void build_dense_blocks<csr_rows64>(const csr_rows64&, const dense_blocks&, reorder_mode, cudaStream_t);
template void build_dense_blocks<bsr_rows>(const bsr_rows&, const dense_blocks&, reorder_mode, cudaStream_t);

}  // namespace tcs::formats
