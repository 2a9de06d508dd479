// The tensor-core block family of SpMM (SMaT family, with condensed columns) behind
// plan.hpp's interface (blocks_family_plan): A, CSR or BSR, is turned into the
// dense-block format (formats/dense_blocks.hpp) in the caller's buffer, and the blocks are
// multiplied on tensor cores (kernel.cuh). Here: what a call needs (shape), where it
// lives in the caller's buffer (carve), the build of the format (analyse), and how a run
// becomes a product launch for its precision (product.hpp).
//
// check_supported throws arch_mismatch on a device older than sm_80 (no mma.sync of these
// shapes), and insufficient_resources when A has 2^31 entries or more (BSR: every element
// of its blocks); opA must be non-transposed (cuSPARSE's rule for BSR: the C layer checks
// it). The buffer holds the format, bounded by A's entries and rows, never by what the
// analysis finds, so the size query needs no data
// (docs/algorithms/spmm-blocks.md, "Buffer size without an analysis"). preprocess
// builds the format and waits for the stream once to read its counts (not while the
// stream is being captured: then the counts stay -1); a run without preprocess builds
// the format first, on the stream, without waiting.
//
// Buffer layout (one carving serves the size query, preprocess and run):
//   shared region  the build's scratch (sortedness flags, row signatures and their sort,
//                  block counts per window for both orders, the schedule's sort); during
//                  a run, the row-wise copy of a column-wise op(B)
//   kept           the format: order, row starts, block offsets, schedule, columns and
//                  masks of at most group_bound blocks, value_index, the summary
#include "spmm/plan.hpp"

#include "core/alignment.hpp"
#include "core/error.hpp"
#include "core/workspace.hpp"
#include "formats/dense.hpp"
#include "formats/dense_blocks.hpp"
#include "spmm/blocks/product.hpp"
#include "spmm/blocks/rules.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>

namespace tcs::spmm::blocks {
namespace {

struct shape {
    std::int64_t m = 0, k = 0, n = 0, entries = 0;
    bool empty = false;        // m == 0 or n == 0: nothing to do
    bool no_products = false;  // no entries or k == 0: C = beta * C
    precision kind = precision::f16;
    int tiles = 1, slices = 1;
    bool copy_b = false;        // op(B) is column-wise: the run copies it row-wise
    std::int64_t b_stride = 0;  // row stride of that copy
};

value_type a_type(const problem& p) { return p.a_is_bsr ? p.bsr.type : p.a.type; }

precision precision_of(const problem& p) {
    switch (a_type(p)) {
    case value_type::f16: return precision::f16;
    case value_type::bf16: return precision::bf16;
    case value_type::f64: return precision::f64;
    default: return p.math == math_mode::tf32 ? precision::tf32 : precision::f32_on_f64;
    }
}

// Columns of C per MMA tile, and MMA tiles per task at most (the policies' max_tiles in
// policies.cuh, from rules.hpp: a warp holds 32 rows x that many tiles of accumulators).
bool on_dmma(precision k) { return k == precision::f64 || k == precision::f32_on_f64; }
int tile_width(precision k) { return on_dmma(k) ? 8 : 16; }
int max_tiles(precision k) { return on_dmma(k) ? kMaxTilesDmma : kMaxTilesHmma; }

shape shape_of(const problem& p) {
    shape s;
    if (p.a_is_bsr) {
        s.m = p.bsr.brows * p.bsr.rbs;
        s.k = p.bsr.bcols * p.bsr.cbs;
        s.entries = p.bsr.bnnz * p.bsr.rbs * p.bsr.cbs;
    } else {
        s.m = p.a.rows;
        s.k = p.a.cols;
        s.entries = p.a.nnz;
    }
    s.n = p.c.cols;
    s.empty = s.m == 0 || s.n == 0;
    s.no_products = s.entries == 0 || s.k == 0;
    if (s.empty || s.no_products) return s;
    if (s.m >= INT_MAX || s.k >= INT_MAX || s.entries >= INT_MAX)
        fail(errc::insufficient_resources, "SpMM blocks: A exceeds 32-bit positions");
    s.kind = precision_of(p);
    const int width = tile_width(s.kind);
    while (s.tiles < max_tiles(s.kind) && std::int64_t(s.tiles) * width < s.n) s.tiles *= 2;
    const std::int64_t slice = std::int64_t(s.tiles) * width;
    const std::int64_t slices = (s.n + slice - 1) / slice;
    const std::int64_t windows = (s.m + formats::kWindowRows - 1) / formats::kWindowRows;
    if (slices * windows >= INT_MAX) fail(errc::insufficient_resources, "SpMM blocks: grid too large");
    s.slices = int(slices);
    s.copy_b = p.b.row_major == p.trans_b;
    if (s.copy_b) s.b_stride = formats::rowwise_stride(s.n, size_of(p.b.type));
    return s;
}

struct carved {
    formats::dense_blocks blocks;
    void* b_copy = nullptr;  // the shared region, during a run
    std::size_t bytes = 0;
};

// What the format must hold. For the block algorithm (TCS_SPMM_BSR_TC, BSR A) any
// matrix: group_bound blocks and value_index. For DEFAULT, which keeps the blocks only
// where a row of op(B) serves at least blocks_min_reuse nonzeros (rules.hpp), only the
// blocks such a matrix can have (at most E / blocks_min_reuse distinct columns over the
// windows), and no value_index (rows with unsorted columns go to the CSR family): the
// buffer DEFAULT asks for stays near A's own size. A matrix beyond that capacity is
// counted, not built, and computed by the CSR family.
formats::block_capacity capacity_of(const problem& p, const shape& s) {
    const std::int64_t windows = (s.m + formats::kWindowRows - 1) / formats::kWindowRows;
    formats::block_capacity cap;
    cap.blocks = formats::group_bound(s.entries, windows);
    if (p.requested_family == family::automatic) {
        const auto distinct = std::int64_t(double(s.entries) / blocks_min_reuse(p.a.type));
        cap.blocks = std::min(cap.blocks, formats::group_bound(distinct, windows));
        cap.value_index = false;
    }
    return cap;
}

carved carve(const problem& p, const shape& s, void* buffer) {
    carved out;
    if (s.empty || s.no_products) return out;
    const formats::block_capacity cap = capacity_of(p, s);
    carver kept_size, scratch_size;
    formats::carve_dense_blocks(s.m, s.entries, cap, kept_size, scratch_size);
    const std::size_t copy_bytes =
        s.copy_b ? std::size_t(s.k) * std::size_t(s.b_stride) * size_of(p.b.type) : 0;
    carver kept(buffer);
    char* shared = kept.take<char>(std::max(scratch_size.bytes(), copy_bytes));
    carver scratch(shared);
    out.blocks = formats::carve_dense_blocks(s.m, s.entries, cap, kept, scratch);
    out.blocks.split_groups = split_groups_for(out.blocks.windows);
    out.b_copy = shared;
    out.bytes = kept.bytes();
    return out;
}

// natural keeps A's row order, signature always takes the signature order; automatic
// lets the build pick the order with fewer blocks. A diagnostic knob (TCS_SPMM_REORDER):
// the order changes only the rounding of C.
formats::reorder_mode reorder_of(row_order order) {
    switch (order) {
    case row_order::natural: return formats::reorder_mode::never;
    case row_order::signature: return formats::reorder_mode::always;
    default: return formats::reorder_mode::automatic;
    }
}

void analyse(const problem& p, const shape& s, const carved& b) {
    const formats::reorder_mode mode = reorder_of(p.block_rows);
    if (p.a_is_bsr) {
        formats::bsr_rows rows;
        rows.rows = int(s.m);
        rows.block_columns = int(p.bsr.bcols);
        rows.blocks = int(p.bsr.bnnz);
        rows.block_row_ptr = p.bsr.row_ptr;
        rows.block_col_idx = p.bsr.col_idx;
        rows.rbs = int(p.bsr.rbs);
        rows.cbs = int(p.bsr.cbs);
        rows.base = p.bsr.base;
        rows.row_major = p.bsr.row_major_blocks;
        formats::build_dense_blocks(rows, b.blocks, mode, p.stream);
    } else {
        with_index(p.a.offsets, [&](auto i) {
            using I = decltype(i);
            formats::csr_rows_of<I> rows;
            rows.rows = int(s.m);
            rows.columns = int(s.k);
            rows.nnz = int(s.entries);
            rows.row_ptr = offsets_as<I>(p.a);
            rows.col_idx = columns_as<I>(p.a);
            rows.base = p.a.base;
            formats::build_dense_blocks(rows, b.blocks, mode, p.stream);
        });
    }
}

// The build's summary, read back with one wait (not while the stream is being captured).
block_counts read_counts(const problem& p, const shape& s, const carved& b) {
    block_counts c;
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    check_cuda(cudaStreamIsCapturing(p.stream, &capture), "SpMM blocks: capture status");
    if (capture != cudaStreamCaptureStatusNone) return c;
    formats::block_summary h{};
    check_cuda(cudaMemcpyAsync(&h, b.blocks.summary, sizeof h, cudaMemcpyDeviceToHost, p.stream),
               "SpMM blocks: counts");
    check_cuda(cudaStreamSynchronize(p.stream), "SpMM blocks: counts");
    const int used = h.chosen != 0 ? 1 : 0;
    c.windows = b.blocks.windows;
    c.blocks_natural = std::int64_t(h.groups[0]);
    c.blocks_reordered = std::int64_t(h.groups[1]);
    c.blocks = std::int64_t(h.groups[used]);
    c.distinct = std::int64_t(h.distinct[used]);
    c.entries = s.entries;
    c.max_blocks = h.max_groups;
    c.unsorted_rows = std::int64_t(h.unsorted_rows);
    c.duplicates = std::int64_t(h.duplicates);
    c.reordered = used == 1;
    c.built = h.overflow == 0;
    return c;
}

void multiply(const product& x) {
    switch (x.kind) {
    case precision::f16: return multiply_f16(x);
    case precision::bf16: return multiply_bf16(x);
    case precision::f64: return multiply_f64(x);
    default: return multiply_f32(x);
    }
}

// The family behind plan.hpp's interface. A run after preprocess reuses the format in
// the buffer and needs nothing else of the analysis.
class family_plan final : public plan {
public:
    void check_supported(const problem& p) const override {
        if (p.device != nullptr && p.device->cc_major < 8)
            fail(errc::arch_mismatch, "SpMM blocks: needs compute capability 8.0 or newer");
        (void)shape_of(p);
    }

    std::size_t buffer_size(const problem& p) const override {
        return carve(p, shape_of(p), nullptr).bytes;
    }

    analysis preprocess(const problem& p, void* buffer) const override {
        analysis out;
        out.blocks = true;
        const shape s = shape_of(p);
        if (s.empty || s.no_products) return out;
        const carved b = carve(p, s, buffer);
        analyse(p, s, b);
        out.counts = read_counts(p, s, b);
        return out;
    }

    void run(const problem& p, void* buffer, bool preprocessed, const analysis&) const override {
        const shape s = shape_of(p);
        if (s.empty) return;
        if (s.no_products || p.alpha.is_host_zero()) return formats::scale(p.c, p.beta, p.stream);
        const carved b = carve(p, s, buffer);
        if (!preprocessed) analyse(p, s, b);

        product x;
        x.kind = s.kind;
        x.rows = int(s.m);
        x.windows = int(b.blocks.windows);
        x.tiles = s.tiles;
        x.slices = s.slices;
        x.sm_count = p.device != nullptr ? p.device->sm_count : 0;
        x.wide = wide_for(x.windows);
        x.smem_limit = p.device != nullptr ? p.device->smem_per_block_optin : 0;
        x.n = s.n;
        x.blocks = b.blocks;
        x.values = p.a_is_bsr ? p.bsr.values : p.a.values;
        const std::size_t element_bytes = size_of(p.b.type);
        if (s.copy_b) {
            // op(B) is column-wise: element (kk, j) at b[kk + j * ld].
            formats::copy_rowwise(p.b.values, p.b.ld, s.k, s.n, element_bytes, b.b_copy, s.b_stride,
                                  p.stream);
            x.b = b.b_copy;
            x.ldb = s.b_stride;
            x.b_vector = true;
        } else {
            x.b = p.b.values;
            x.ldb = p.b.ld;
            x.b_vector = aligned16(x.b) && (std::uint64_t(x.ldb) * element_bytes) % 16 == 0;
        }
        x.c = p.c.values;
        x.c_row_stride = p.c.row_major ? p.c.ld : 1;
        x.c_col_stride = p.c.row_major ? 1 : p.c.ld;
        x.c_type = p.c.type;
        x.alpha = p.alpha;
        x.beta = p.beta;
        x.stream = p.stream;
        multiply(x);
    }
};

}  // namespace
}  // namespace tcs::spmm::blocks

namespace tcs::spmm {

const plan& blocks_family_plan() {
    static const blocks::family_plan instance;
    return instance;
}

}  // namespace tcs::spmm
