// The CSR family of SpMM (merge-spmm) behind plan.hpp's interface (csr_family_plan):
// what a call needs (shape), where it lives in the caller's buffer (carve),
// what preprocess caches (A^T, row-split's and CSR-vector's lists of long rows,
// merge-path's partition)
// and how a run becomes a product launch for the element type (product.hpp,
// launch.cuh).
//
// Buffer layout (one carving serves the size query, preprocess and run: the algorithm
// and geometry follow from the problem's sizes alone; CSR-vector uses only A^T and the
// long rows' counts, lists, tickets and partial sums):
//   shared region  transpose build scratch (sorted keys, positions, CUB temp) during
//                  analyse; during the product, merge-path's carry-out records or
//                  row-split's row-wise copy of a column-wise op(B) (rules.hpp): no
//                  two of them are alive at once on the stream; or row-split's
//                  padded copy of a row-major op(B) whose rows are no whole number
//                  of 16-byte vectors (padded_b_pays)
//   kept           opA = T: A^T's row offsets, column indices, permutation, values
//                  (none where the one-column kernel reads A's in place: rules.hpp,
//                  reads_transpose_in_place)
//                  the scatter from kScatterMinNonzeros: the partition of A's merge
//                  path (warp start rows), and preprocess's count of the copy's
//                  entries that read A close together (rules.hpp, copy_reads_locally)
//                  row-split and CSR-vector: the counts and lists of long rows, the
//                  very long rows' tickets (zero between runs) and partial sums;
//                  row-split: the row-wise copy of a column-major C
//                  merge-path: the partition (tile start rows)
// Row-split's copies hold the columns of one pass: all n, or kChunkColumns where all n
// would take more than kCopyBudgetBytes (rules.hpp).
#include "spmm/plan.hpp"

#include "core/alignment.hpp"
#include "core/error.hpp"
#include "core/workspace.hpp"
#include "formats/dense.hpp"
#include "spmm/csr/geometry.hpp"
#include "core/kernel_launch.hpp"
#include "spmm/csr/merge_path.cuh"
#include "spmm/csr/product.hpp"
#include "spmm/csr/row_split.cuh"
#include "spmm/csr/row_runs.cuh"
#include "spmm/csr/rules.hpp"
#include "spmm/csr/transpose.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>

namespace tcs::spmm::csr {
namespace {

// One pass of row-split over columns of C: its width, copies and geometry.
struct pass_plan {
    std::int64_t width = 0;  // columns (0: no such pass)
    bool rowwise_b = false;  // reads a row-wise copy of op(B) (see shape)
    bool rowwise_c = false;  // writes column-major C through a row-wise copy
    geometry geo;
    bool own_geometry = false;  // not the plan's (s.geo): long rows' slabs of its own
};

// Everything decided from the problem's sizes and types (never from values or
// addresses), so that preprocess and run agree.
struct shape {
    std::int64_t m = 0, k = 0, n = 0, nnz = 0;
    std::int64_t width = 0;    // columns per pass of the product: n, or kChunkColumns
    bool empty = false;        // m == 0 or n == 0: nothing to do
    bool no_products = false;  // nnz == 0 or k == 0: C = beta*C
    csr_kernel kernel = csr_kernel::row_split;
    bool rowwise_b = false;  // row-split reads a row-wise copy of op(B): of a column-wise
                             // one, or a padded copy of a row-major one (padded_b_pays)
    bool rowwise_c = false;  // row-split writes column-major C through a row-wise copy
    geometry geo;              // for passes of `width` columns
    pass_plan rest;            // row-split capped: the last pass, of n % width columns
    long_plan longs;   // row-split, CSR-vector (for passes of `width` columns)
    bool runs_possible = false;  // row-split: preprocess counts runs of rows (rules.hpp)
    segmentation seg;  // merge-path; the scatter: segments of A's merge path as stored
    // SpMV with opA = T from kScatterMinNonzeros where atomics are allowed: the copy
    // (kernel, geometry and long rows as planned here) after a preprocess that found it
    // reading A's values close together (analysis::transpose_local), the scatter (seg)
    // in every other call. The buffer holds both.
    bool scatter_unless_local = false;
    row_group group;   // CSR-vector
};

// op(B) is column-wise (op(B)(kk, :) strided, column j contiguous) when B is column-major
// and not transposed, or row-major and transposed.
bool b_columnwise(const problem& p) { return p.b.row_major == p.trans_b; }

// What products are summed in: fp64 for fp64, fp32 for every other type.
value_type accumulator_type(const problem& p) {
    return p.a.type == value_type::f64 ? value_type::f64 : value_type::f32;
}
std::size_t accumulator_bytes(const problem& p) { return size_of(accumulator_type(p)); }

// SpMV with opA = T may scatter A's nonzeros into y with atomic adds (scatter_column.cuh)
// where the caller allows run-to-run differences and y is of the accumulation type: a
// 16-bit y would be rounded at every addition.
bool may_scatter(const problem& p, std::int64_t n) {
    return p.trans_a && p.atomics && n == 1 && p.c.type == accumulator_type(p);
}

// Bytes of row-split's row-wise copies of op(B) and of C for passes of s.width columns
// (rows padded to whole vectors of B's element type).
std::size_t rowwise_b_bytes(const problem& p, const shape& s) {
    const std::size_t element_bytes = size_of(p.b.type);
    return s.rowwise_b ? checked_product(std::size_t(s.k),
                                         std::size_t(formats::rowwise_stride(s.width, element_bytes)),
                                         element_bytes)
                       : 0;
}
std::size_t rowwise_c_bytes(const problem& p, const shape& s) {
    return s.rowwise_c ? checked_product(std::size_t(s.m),
                                         std::size_t(formats::rowwise_stride(s.width, size_of(p.b.type))),
                                         accumulator_bytes(p))
                       : 0;
}

// Elements of B's type in one 16-byte vector (the geometry's V).
int vector_width_of(value_type t) { return int(kVectorBytes / size_of(t)); }

// Row-split's copies and geometry for passes of `width` columns.
void plan_split(const problem& p, shape& s, std::int64_t width) {
    s.width = width;
    // A row-major op(B) by its whole n: every pass's rows are n elements apart in B.
    s.rowwise_b = b_columnwise(p) ? rowwise_b_pays(s.k, s.nnz, width)
                                  : padded_b_pays(s.k, s.nnz, s.n, vector_width_of(p.b.type));
    s.geo = choose_split(s.m, s.nnz, width, size_of(p.a.type), p.device, s.rowwise_b);
    s.rowwise_c = !p.c.row_major && rowwise_c_pays(s.m, s.nnz, width, s.geo.lanes);
}

// The last pass where the copies are capped and n is no multiple of kChunkColumns: its
// own geometry, for its own width, so that a pass of one column costs the lanes of one
// (with the geometry of 32 columns it cost as much as a pass of 32), and a copy of
// op(B) only where that width gains from one: a column-wise op(B) where
// rowwise_b_pays holds at that width, a row-major one only beyond one vector (its rows
// are still no whole number of vectors apart; up to V columns a row's elements cost no
// more loads than its vector would). Its copies never exceed the other passes' (the
// buffer holds theirs). It keeps the plan's long rows (lists, thresholds) with slabs of
// its own (pass_long_slabs); where it could not (fits_long_plan), or where its width
// asks for the same geometry, it is planned like the other passes.
// Measured: docs/algorithms/spmm-csr.md, "The width cliff".
void plan_rest(const problem& p, shape& s) {
    const std::int64_t w = s.n % s.width;
    if (s.width == s.n || w == 0) return;
    pass_plan r;
    r.width = w;
    r.rowwise_b = s.rowwise_b && (b_columnwise(p) ? rowwise_b_pays(s.k, s.nnz, w)
                                                  : w > vector_width_of(p.b.type));
    r.geo = choose_split(s.m, s.nnz, w, size_of(p.a.type), p.device, r.rowwise_b);
    r.rowwise_c = s.rowwise_c && rowwise_c_pays(s.m, s.nnz, w, r.geo.lanes);
    r.own_geometry = fits_long_plan(s.longs, r.geo, w);
    if (!r.own_geometry) {
        r.rowwise_b = s.rowwise_b;
        r.rowwise_c = s.rowwise_c;
        r.geo = s.geo;
    }
    s.rest = r;
}

// Row-split's pass over columns j0 .. j0 + width - 1: the plan's copies and geometry,
// or, for the last pass of a capped product, plan_rest's where it made one.
pass_plan pass_at(const shape& s, std::int64_t j0) {
    if (s.n - j0 < s.width && s.rest.width == s.n - j0) return s.rest;
    pass_plan pass;
    pass.width = std::min(s.width, s.n - j0);
    pass.rowwise_b = s.rowwise_b;
    pass.rowwise_c = s.rowwise_c;
    pass.geo = s.geo;
    return pass;
}

// The scatter's warps: kScatterItems items each of A's merge path as stored (A's rows
// and nonzeros, not op(A)'s).
segmentation scatter_segments(const problem& p) {
    segmentation seg;
    seg.length = kScatterItems;
    seg.count = (p.a.rows + p.a.nnz + kScatterItems - 1) / kScatterItems;
    return seg;
}

shape shape_of(const problem& p) {
    shape s;
    s.m = p.trans_a ? p.a.cols : p.a.rows;
    s.k = p.trans_a ? p.a.rows : p.a.cols;
    s.n = p.c.cols;
    s.nnz = p.a.nnz;
    s.empty = s.m == 0 || s.n == 0;
    s.no_products = s.nnz == 0 || s.k == 0;
    if (s.empty || s.no_products) return s;
    // Rows, columns and positions are int in the kernels whatever the width A's indices
    // are stored in (operands.cuh).
    if (!p.a.one_width()) fail(errc::not_supported, "SpMM: A's offsets and columns differ in width");
    if (p.a.rows >= INT_MAX || p.a.cols >= INT_MAX || s.nnz > INT_MAX)
        fail(errc::insufficient_resources, "SpMM: A has 2^31 or more rows, columns or nonzeros");
    // Column positions of B and C are int in the kernels' grids and slabs, as A's are; the
    // strides are int64 and bounded by the descriptors (no ld times rows passes int64).
    if (s.n >= INT_MAX) fail(errc::insufficient_resources, "SpMM: C has 2^31 or more columns");
    if (may_scatter(p, s.n) && s.nnz >= kScatterMinNonzeros) {
        s.scatter_unless_local = true;
        s.seg = scatter_segments(p);
    }
    const std::size_t element_bytes = size_of(p.a.type);
    s.kernel = choose_kernel(p.requested_kernel, s.n, b_columnwise(p));
    s.width = s.n;
    if (s.kernel == csr_kernel::row_split) {
        plan_split(p, s, s.n);
        if (s.n > kChunkColumns &&
            double(rowwise_b_bytes(p, s)) + double(rowwise_c_bytes(p, s)) > kCopyBudgetBytes)
            plan_split(p, s, kChunkColumns);
        s.longs = plan_long_rows(s.geo, s.m, s.nnz, s.width, p.device);
        s.runs_possible = runs_possible(s.geo.busy, s.geo.rows_lanes, s.geo.lanes,
                                         s.longs.tiers[1].parts, element_bytes);
        plan_rest(p, s);
    } else {
        s.geo = choose_geometry(s.n, element_bytes);
    }
    s.group = choose_row_group(s.m, s.nnz, s.n);
    if (s.kernel == csr_kernel::vector_rows)
        s.longs = plan_vector_long_rows(s.group.lanes, s.m, s.k, s.nnz, s.n, element_bytes, p.device);
    if (s.kernel == csr_kernel::merge_path)  // one pass of all n columns
        s.seg = choose_segments(s.m + s.nnz, s.m, s.geo, slab_count(s.n, s.geo), p.device);
    return s;
}

struct carved {
    transposed_csr t;        // opA = T, but for the scatter
    int* long_counts = nullptr;          // row-split, CSR-vector: a count per tier of long rows,
    std::size_t long_zeroed = 0;         // followed by the tickets: ints zeroed by analyse
    int* long_lists[2] = {nullptr, nullptr};
    void* partials = nullptr;
    int* limits = nullptr;   // merge-path and the scatter: seg.count + 1
    unsigned long long* local_count = nullptr;  // scatter_unless_local: the copy's local entries
    void* records = nullptr; // merge-path: 2 * seg.count * n accumulators
    void* rowwise_b = nullptr;  // row-split's copy of op(B): k x formats::rowwise_stride(width)
    void* rowwise_c = nullptr;  // row-split, column-major C: m x formats::rowwise_stride(width) sums
    unsigned long long* run_counts = nullptr;  // row-split: runs per window size (preprocess)
    std::size_t bytes = 0;
};

// op(A) = A^T is read from a transposed copy in the buffer, whose room every shape with
// opA = T holds (the scatter, which reads A as stored, is never the shape's kernel: a call
// takes it where it may and has no copy it may use, see scatters).
// Whether the copy holds no values: the product reads A's through its permutation.
bool transpose_in_place(const problem& p, const shape& s) {
    return p.trans_a && reads_transpose_in_place(s.kernel, s.n);
}

carved carve(const problem& p, const shape& s, void* buffer) {
    carved out;
    if (s.empty || s.no_products) return out;
    const bool merge = s.kernel == csr_kernel::merge_path;
    const bool copy = p.trans_a;
    std::size_t build_bytes = 0;
    if (copy) {
        carver kept_size, scratch_size;
        carve_transposed(p.a, !transpose_in_place(p, s), kept_size, scratch_size);
        build_bytes = scratch_size.bytes();
    }
    // Two records per tile (its head and its tail), n accumulators each.
    const std::size_t record_bytes =
        merge ? checked_product(2 * std::size_t(s.seg.count), std::size_t(s.n), accumulator_bytes(p))
              : 0;
    carver kept(buffer);
    char* shared = kept.take<char>(std::max({build_bytes, record_bytes, rowwise_b_bytes(p, s)}));
    if (copy) {
        carver scratch(shared);
        out.t = carve_transposed(p.a, !transpose_in_place(p, s), kept, scratch);
    }
    if (s.longs.any()) {
        const long_tier& very = s.longs.tiers[1];
        out.long_zeroed = 2 + std::size_t(very.tickets());
        out.long_counts = kept.take<int>(out.long_zeroed);
        for (int tier = 0; tier < 2; ++tier)
            out.long_lists[tier] = kept.take<int>(std::size_t(s.longs.tiers[tier].capacity));
        out.partials = kept.take<char>(checked_product(std::size_t(very.partials()), accumulator_bytes(p)));
    }
    if (merge) {
        out.limits = kept.take<int>(std::size_t(s.seg.count) + 1);
        out.records = shared;
    }
    if (s.scatter_unless_local) {
        out.limits = kept.take<int>(std::size_t(s.seg.count) + 1);
        out.local_count = kept.take<unsigned long long>(1);
    }
    if (s.rowwise_b) out.rowwise_b = shared;
    if (s.rowwise_c) out.rowwise_c = kept.take<char>(rowwise_c_bytes(p, s));
    if (s.runs_possible) out.run_counts = kept.take<unsigned long long>(2);
    out.bytes = kept.bytes();
    return out;
}

// op(A) as CSR: A itself, or the transposed copy in the buffer (32-bit indices).
struct csr_rows {
    const void* row_ptr;
    const void* col_idx;
    index_type index;  // width of both arrays
    const void* values;
    int base;

    template <class I> const I* offsets() const { return static_cast<const I*>(row_ptr); }
    template <class I> const I* columns() const { return static_cast<const I*>(col_idx); }
};

// A as stored (what the scatter reads for opA = T too).
csr_rows as_stored(const problem& p) {
    return {p.a.row_ptr, p.a.col_idx, p.a.offsets, p.a.values, p.a.base};
}

csr_rows op_a(const problem& p, const carved& b) {
    if (p.trans_a) return {b.t.row_ptr, b.t.col_idx, index_type::i32, b.t.values, 0};
    return as_stored(p);
}

// The product's sparse operand.
void take_rows(product& x, const csr_rows& a) {
    x.row_ptr = a.row_ptr;
    x.col_idx = a.col_idx;
    x.index = a.index;
    x.values = a.values;
    x.base = a.base;
}

merge_view merge_of(const shape& s, const carved& b) {
    merge_view v;
    v.limits = b.limits;
    v.length = s.seg.length;
    v.count = s.seg.count;
    v.items = s.m + s.nnz;
    return v;
}

// The partition preprocess leaves in the buffer: of op(A)'s merge path for merge-path,
// of A's as stored for the scatter.
merge_view partition_of(const problem& p, const shape& s, const carved& b) {
    merge_view v = merge_of(s, b);
    if (s.scatter_unless_local) v.items = p.a.rows + s.nnz;
    return v;
}

// What depends only on A's structure, part 2: the merge-path partition (part 1 is
// A^T's structure, built first), of op(A) for merge-path and of A as stored for the
// scatter.
void partition(const problem& p, const shape& s, const carved& b) {
    const bool scatter = s.scatter_unless_local;
    if (s.kernel != csr_kernel::merge_path && !scatter) return;
    const csr_rows a = scatter ? as_stored(p) : op_a(p, b);
    const std::int64_t rows = scatter ? p.a.rows : s.m;
    const std::int64_t threads = s.seg.count + 1;
    with_index(a.index, [&](auto i) {
        using I = decltype(i);
        launch("partition_kernel", partition_kernel<I>, dim3(grid_for(threads, 256, kBlockPerItem)), 256,
               0, p.stream, a.offsets<I>(), a.base, int(rows), s.nnz, partition_of(p, s, b), b.limits);
    });
}

// Row-split's (or CSR-vector's) plan with its lists in the buffer (row_blocks is the
// launcher's).
split_view split_of(const shape& s, const carved& b) {
    split_view v;
    if (!s.longs.any()) return v;
    v.threshold = int(s.longs.tiers[0].threshold);
    v.very_threshold = int(s.longs.tiers[1].threshold);
    v.counts = b.long_counts;
    for (int tier = 0; tier < 2; ++tier) {
        v.lists[tier] = b.long_lists[tier];
        v.capacity[tier] = s.longs.tiers[tier].capacity;
        v.slabs[tier] = s.longs.tiers[tier].slabs;
    }
    v.parts = s.longs.tiers[1].parts;
    v.tickets = b.long_counts + 2;
    v.partials = b.partials;
    v.long_blocks = s.longs.blocks;
    v.underfilled = s.longs.underfilled;
    v.warp_rows = s.longs.warp_rows;
    return v;
}

// What depends only on A's structure, part 2 for row-split and CSR-vector: the list of
// long rows, left on the device (the kernel reads its count there).
void list_long_rows(const problem& p, const shape& s, const carved& b) {
    if (!s.longs.any()) return;
    const csr_rows a = op_a(p, b);
    check_cuda(cudaMemsetAsync(b.long_counts, 0, b.long_zeroed * sizeof(int), p.stream),
               "SpMM long rows reset");
    with_index(a.index, [&](auto i) {
        using I = decltype(i);
        launch("long_rows_kernel", long_rows_kernel<I>, dim3(grid_for(s.m, 256, kBlockPerItem)), 256, 0,
               p.stream, a.offsets<I>(), a.base, int(s.m), int(s.nnz), split_of(s, b),
               b.long_counts);
    });
}

// Everything that depends only on A's structure, for preprocess or a run without it.
void analyse(const problem& p, const shape& s, const carved& b) {
    if (p.trans_a) build_transposed_structure(p.a, b.t, p.stream);
    list_long_rows(p, s, b);
    partition(p, s, b);
}

// Preprocess's counts, read back with one wait for the stream:
//   - the long rows analyse listed per tier: a preprocessed run then gives them the
//     blocks their tasks need, where a run without the counts plans a wave from the
//     lists' bounds (at most one row in threshold + 1 nonzeros), whose blocks find
//     nothing to do on a matrix without long rows and still hold the device's slots
//     until they have read the count (measured:
//     docs/algorithms/spmm-csr.md, "Preprocess's counted long-row blocks");
//   - the runs of rows with one pattern in op(A), and the window they make row-split
//     use (rules.hpp): the host chooses the kernel;
//   - SpMV with opA = T from kScatterMinNonzeros: the copy's entries in windows of rows
//     that read A's values close together, whether the copy or the scatter runs
//     (rules.hpp, copy_reads_locally).
// Not while the stream is being captured (a graph cannot wait): the bound's wave, no
// runs and the scatter then, the same results (the scatter's within rounding).
analysis count_found(const problem& p, const shape& s, const carved& b) {
    analysis out;
    if (!s.longs.any() && !s.runs_possible && !s.scatter_unless_local) return out;
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    check_cuda(cudaStreamIsCapturing(p.stream, &capture), "SpMM counts: capture status");
    if (capture != cudaStreamCaptureStatusNone) return out;
    unsigned long long runs[2] = {0, 0};
    if (s.runs_possible) {
        const csr_rows a = op_a(p, b);
        check_cuda(cudaMemsetAsync(b.run_counts, 0, sizeof runs, p.stream), "SpMM runs reset");
        const std::int64_t blocks =
            std::min<std::int64_t>((s.m + 7) / 8, sm_count_of(p.device) * 16);  // a warp per row
        with_index(a.index, [&](auto i) {
            using I = decltype(i);
            launch("count_runs_kernel", count_runs_kernel<I>, dim3(unsigned(blocks)), 256, 0,
                   p.stream, a.offsets<I>(), a.columns<I>(), a.base, int(s.m), int(s.nnz),
                   b.run_counts);
        });
        check_cuda(cudaMemcpyAsync(runs, b.run_counts, sizeof runs, cudaMemcpyDeviceToHost,
                                   p.stream),
                   "SpMM runs count");
    }
    int listed[2] = {0, 0};
    if (s.longs.any())
        check_cuda(cudaMemcpyAsync(listed, b.long_counts, sizeof listed, cudaMemcpyDeviceToHost,
                                   p.stream),
                   "SpMM long rows count");
    unsigned long long local = 0;
    if (s.scatter_unless_local) {
        check_cuda(cudaMemsetAsync(b.local_count, 0, sizeof local, p.stream), "SpMV locality reset");
        count_local_entries(p.a, b.t, local_span_limit(p.device->l2_bytes, size_of(p.a.type)),
                            b.local_count, p.stream);
        check_cuda(cudaMemcpyAsync(&local, b.local_count, sizeof local, cudaMemcpyDeviceToHost,
                                   p.stream),
                   "SpMV locality count");
    }
    check_cuda(cudaStreamSynchronize(p.stream), "SpMM counts");
    if (s.scatter_unless_local) out.transpose_local = copy_reads_locally(std::int64_t(local), s.nnz);
    if (s.runs_possible) out.runs = choose_runs(runs, s.m);
    if (s.longs.any())
        for (int tier = 0; tier < 2; ++tier)
            out.listed[tier] = std::min<std::int64_t>(listed[tier], s.longs.tiers[tier].capacity);
    return out;
}

// 16-byte vectors of V elements fit row by row: unit column stride, aligned start,
// rows a whole number of 16-byte pieces apart, and n a multiple of V.
bool vectorizable(const void* ptr, std::int64_t row_stride, std::int64_t col_stride,
                  std::size_t element_bytes, std::int64_t n, int V) {
    return col_stride == 1 && aligned16(ptr) &&
           (std::uint64_t(row_stride) * element_bytes) % 16 == 0 && n % V == 0;
}

// The dense operands and scalars of a product; op(A) and the algorithm come later.
product dense_part(const problem& p, const shape& s) {
    product x;
    x.rows = int(s.m);
    x.cols = int(s.k);
    x.nnz = s.nnz;
    x.n = s.n;
    const bool b_rowwise = !b_columnwise(p);
    x.b = p.b.values;
    x.b_row_stride = b_rowwise ? p.b.ld : 1;
    x.b_col_stride = b_rowwise ? 1 : p.b.ld;
    x.c = p.c.values;
    x.c_row_stride = p.c.row_major ? p.c.ld : 1;
    x.c_col_stride = p.c.row_major ? 1 : p.c.ld;
    x.c_type = p.c.type;
    x.alpha = p.alpha;
    x.beta = p.beta;
    x.stream = p.stream;
    return x;
}

void multiply(const problem& p, const product& x) {
    switch (p.a.type) {
    case value_type::f32: return multiply_f32(x);
    case value_type::f64: return multiply_f64(x);
    case value_type::f16: return multiply_f16(x);
    case value_type::bf16: return multiply_bf16(x);
    }
    fail(errc::internal_error, "SpMM value type");
}

// One pass of the product over columns j0 .. j0 + w - 1 of op(B) and C (all n columns
// unless the copies are capped, see kChunkColumns), w = pass.width: op(B)'s row-wise
// copy in, the product, C's row-wise copy out. x holds the whole operands; a pass moves
// its pointers to column j0. listed: preprocess's counts of long rows per tier, or null.
void run_columns(const problem& p, const shape& s, const pass_plan& pass, const carved& b,
                 product x, std::int64_t j0, const std::int64_t* listed) {
    const std::size_t b_bytes = size_of(p.b.type);
    const std::int64_t w = pass.width;
    x.n = w;
    x.geo = pass.geo;
    x.slabs = slab_count(w, pass.geo);
    x.b = static_cast<const char*>(x.b) + j0 * x.b_col_stride * std::int64_t(b_bytes);
    x.c = static_cast<char*>(x.c) + j0 * x.c_col_stride * std::int64_t(size_of(p.c.type));
    if (s.longs.any()) {  // a narrower pass has fewer slabs of long rows
        std::int64_t bound[2];
        for (int tier = 0; tier < 2; ++tier) {
            x.split.slabs[tier] = pass.own_geometry ? pass_long_slabs(pass.geo, tier, w)
                                                    : s.longs.tiers[tier].slabs_for(w);
            bound[tier] = listed ? listed[tier] : s.longs.tiers[tier].capacity;
        }
        x.split.long_blocks = s.longs.long_row_blocks(bound, x.split.slabs);
    }
    // The runs' kernels exist for the plan's geometry (runs_possible); a last pass of
    // another geometry takes them only where its own allows them too.
    if (x.runs > 1 && !runs_possible(pass.geo.busy, pass.geo.rows_lanes, pass.geo.lanes,
                                     s.longs.tiers[1].parts, size_of(p.a.type)))
        x.runs = 1;
    x.b_vector = vectorizable(x.b, x.b_row_stride, x.b_col_stride, b_bytes, w, pass.geo.width);
    const std::int64_t stride = formats::rowwise_stride(w, b_bytes);
    if (pass.rowwise_b) {
        // After analyse, which may have used the shared region for A^T's build. A
        // column-wise op(B) has column j at x.b + j * b_col_stride, a row-major one row kk
        // at x.b + kk * b_row_stride.
        if (b_columnwise(p))
            formats::copy_rowwise(x.b, x.b_col_stride, s.k, w, b_bytes, b.rowwise_b, stride, p.stream);
        else
            formats::copy_rows_padded(x.b, x.b_row_stride, s.k, w, b_bytes, b.rowwise_b, stride,
                                      p.stream);
        x.b = b.rowwise_b;
        x.b_row_stride = stride;
        x.b_col_stride = 1;
        x.b_vector = true;  // padded rows: 16-byte loads in bounds at any n
    }
    x.c_vector = vectorizable(x.c, x.c_row_stride, x.c_col_stride, size_of(p.c.type), w,
                              pass.geo.width);
    void* const c = x.c;
    const value_type acc = accumulator_type(p);
    if (pass.rowwise_c) {
        // The kernel writes alpha*op(A)*op(B) in the accumulation type; the way back
        // adds beta*C, so C is rounded once, as on the direct path.
        static const double zero = 0.0;
        x.c = b.rowwise_c;
        x.c_row_stride = stride;
        x.c_col_stride = 1;
        x.c_vector = true;  // padded rows, as for B
        x.c_type = acc;
        x.beta.ptr = &zero;
        x.beta.on_device = false;
        x.beta.type = value_type::f64;
    }
    multiply(p, x);
    if (pass.rowwise_c)
        formats::finish_columnwise(b.rowwise_c, stride, acc, s.m, w, c, p.c.ld, p.c.type, p.beta,
                                   p.stream);
}

// Whether a run scatters (SpMV with opA = T where atomics are allowed): without
// preprocess (rather than sorting A's entries into the copy on every call), and from
// kScatterMinNonzeros unless preprocess found the copy reading A close together.
bool scatters(const problem& p, const shape& s, bool preprocessed, const analysis& found) {
    if (!may_scatter(p, s.n)) return false;
    return !preprocessed || (s.scatter_unless_local && !found.transpose_local);
}

// The family behind plan.hpp's interface: nothing it cannot compute (the C layer checks
// the index widths), its choices all made by shape_of.
class family_plan final : public plan {
public:
    void check_supported(const problem&) const override {}

    std::size_t buffer_size(const problem& p) const override {
        return carve(p, shape_of(p), nullptr).bytes;
    }

    analysis preprocess(const problem& p, void* buffer) const override {
        const shape s = shape_of(p);
        if (s.empty || s.no_products) return {};
        const carved b = carve(p, s, buffer);
        analyse(p, s, b);
        return count_found(p, s, b);
    }

    void run(const problem& p, void* buffer, bool preprocessed,
             const analysis& found) const override {
        const shape s = shape_of(p);
        if (s.empty) return;
        if (s.no_products || p.alpha.is_host_zero()) return formats::scale(p.c, p.beta, p.stream);
        product x = dense_part(p, s);
        if (scatters(p, s, preprocessed, found)) {
            // A as stored: a.rows x a.cols, y of a.cols; the partition where preprocess
            // left it, else each warp searches.
            if (preprocessed && s.scatter_unless_local) x.merge = partition_of(p, s, carve(p, s, buffer));
            x.rows = int(p.a.rows);
            x.cols = int(p.a.cols);
            take_rows(x, as_stored(p));
            x.kernel = csr_kernel::scatter;
            return multiply(p, x);
        }
        const carved b = carve(p, s, buffer);
        if (!preprocessed) analyse(p, s, b);
        take_rows(x, op_a(p, b));
        if (transpose_in_place(p, s)) {
            x.values = p.a.values;
            x.perm = b.t.perm;
        } else if (p.trans_a) {
            gather_transposed_values(p.a, b.t, p.stream);
        }
        x.kernel = s.kernel;
        x.geo = s.geo;  // row-split: each pass's (run_columns)
        x.group = s.group;
        if (s.kernel == csr_kernel::row_split || s.kernel == csr_kernel::vector_rows)
            x.split = split_of(s, b);
        if (preprocessed && s.runs_possible &&
            (found.runs == run_window(0) || found.runs == run_window(1)))
            x.runs = found.runs;
        const std::int64_t* listed = preprocessed && found.listed[0] >= 0 ? found.listed : nullptr;
        if (s.kernel == csr_kernel::merge_path) {
            x.merge = merge_of(s, b);
            x.records = b.records;
        }
        for (std::int64_t j0 = 0; j0 < s.n; j0 += s.width) run_columns(p, s, pass_at(s, j0), b, x, j0, listed);
    }
};

}  // namespace

std::vector<column_pass> column_passes(const problem& p) {
    const shape s = shape_of(p);
    std::vector<column_pass> out;
    if (s.empty || s.no_products || s.kernel != csr_kernel::row_split) return out;
    for (std::int64_t j0 = 0; j0 < s.n; j0 += s.width) {
        const pass_plan pass = pass_at(s, j0);
        column_pass c;
        c.first = j0;
        c.width = pass.width;
        c.geo = pass.geo;
        c.copies_b = pass.rowwise_b;
        c.copies_c = pass.rowwise_c;
        out.push_back(c);
    }
    return out;
}

}  // namespace tcs::spmm::csr

namespace tcs::spmm {

const plan& csr_family_plan() {
    static const csr::family_plan instance;
    return instance;
}

}  // namespace tcs::spmm
