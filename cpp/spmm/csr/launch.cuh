// From a resolved product (product.hpp) to kernel launches for one pair of element
// types: the geometry (or CSR-vector's row group) and the B access mode become template
// arguments here, once.
// Included only by the multiply/*.cu units (one per A/B element type, C type and index
// width) and the single_*.cu files.
#pragma once

#include "core/error.hpp"
#include "core/grid.hpp"
#include "formats/dense.hpp"
#include "core/kernel_launch.hpp"
#include "spmm/csr/merge_path.cuh"
#include "spmm/csr/product.hpp"
#include "spmm/csr/reachable.hpp"
#include "spmm/csr/row_split.cuh"
#include "spmm/csr/scatter_column.cuh"
#include "spmm/csr/rules.hpp"
#include "spmm/csr/single_column.cuh"
#include "spmm/csr/vector_rows.cuh"

#include <algorithm>
#include <type_traits>

namespace tcs::spmm::csr {

// op(A), op(B), C and the scalars as the kernels take them.
template <class I, class T, class TC> struct operands {
    sparse_rows<T, I> A;
    dense_in<T> B;
    dense_out<TC> C;
    scalar<acc_t<T>> alpha, beta;

    explicit operands(const product& p) {
        A.rows = p.rows;
        A.cols = p.cols;
        A.nnz = int(p.nnz);
        A.row_ptr = static_cast<const I*>(p.row_ptr);
        A.col_idx = static_cast<const I*>(p.col_idx);
        A.values = static_cast<const T*>(p.values);
        A.base = p.base;
        B.values = static_cast<const T*>(p.b);
        B.row_stride = p.b_row_stride;
        B.col_stride = p.b_col_stride;
        C.values = static_cast<TC*>(p.c);
        C.row_stride = p.c_row_stride;
        C.col_stride = p.c_col_stride;
        C.cols = p.n;
        C.slabs = p.slabs;
        C.vector = p.c_vector;
        alpha = p.alpha.as<acc_t<T>>();
        beta = p.beta.as<acc_t<T>>();
    }
};

// Row-split: the long rows' blocks, then row_blocks blocks per slab, as many as a grid
// holds (the kernel walks the rest). Z > 1: runs (row_runs.cuh, rules.hpp), each segment
// of G column lanes (R = 1) taking a window of Z rows.
template <class I, class T, class TC, int G, int R, int NV, bool Vector, int Z = 1>
void launch_row_split(const product& p) {
    const operands<I, T, TC> o(p);
    split_view S = p.split;
    constexpr std::int64_t rows_per_block = kThreads / (G * R) * Z;
    S.row_blocks = grid_for(p.rows, rows_per_block, kBlockPerItem);
    const std::int64_t limit = 0x7fffffff;
    const std::int64_t blocks = S.long_blocks + std::min(S.row_blocks * p.slabs, limit - S.long_blocks);
    // Parts are planned only where a very long row has at most 2 slabs of 2 column
    // lanes, i.e. n <= 4 vectors: G <= 4. Elsewhere kWhole takes the rows whole, right
    // for any plan.
    auto kernel = row_split_kernel<T, TC, G, R, NV, Vector, kWhole, Z, I>;
    if constexpr (G <= 4 && Z == 1) {
        constexpr bool filled_kernel =
            row_split_kernel_blocks(sizeof(T), Vector, NV, kPartsFilled) !=
            row_split_kernel_blocks(sizeof(T), Vector, NV, kParts);
        if (S.parts > 1) kernel = row_split_kernel<T, TC, G, R, NV, Vector, kParts, 1, I>;
        if constexpr (filled_kernel)
            if (S.parts > 1 && !S.underfilled)
                kernel = row_split_kernel<T, TC, G, R, NV, Vector, kPartsFilled, 1, I>;
    }
    launch("row_split_kernel", kernel, dim3(unsigned(blocks)), kThreads, 0, p.stream, o.A, o.B,
           o.C, o.alpha, o.beta, S);
}

// R nonzero lanes, where the selection makes them (reachable.hpp).
template <class I, class T, class TC, int G, int R, int NV, bool Vector>
void launch_split_lanes(const product& p) {
    if constexpr (split_reachable(sizeof(T), G, NV, R, 1))
        launch_row_split<I, T, TC, G, R, NV, Vector>(p);
    else
        fail(errc::internal_error, "SpMM row-split nonzero lanes without kernel");
}

template <class I, class T, class TC, int G, int NV, bool Vector>
void launch_split(const product& p) {
    if (p.runs > 1) {
        // Only the combinations the selection makes (reachable.hpp).
        static_assert(run_window(0) == 3 && run_window(1) == 4, "the windows compiled");
        if constexpr (split_reachable(sizeof(T), G, NV, 1, 3))
            if (p.runs == 3) return launch_row_split<I, T, TC, G, 1, NV, Vector, 3>(p);
        if constexpr (split_reachable(sizeof(T), G, NV, 1, 4))
            if (p.runs == 4) return launch_row_split<I, T, TC, G, 1, NV, Vector, 4>(p);
        fail(errc::internal_error, "SpMM runs without kernel");
    }
    switch (p.geo.rows_lanes) {
    case 1: return launch_split_lanes<I, T, TC, G, 1, NV, Vector>(p);
    case 2: return launch_split_lanes<I, T, TC, G, 2, NV, Vector>(p);
    case 4: return launch_split_lanes<I, T, TC, G, 4, NV, Vector>(p);
    case 8: return launch_split_lanes<I, T, TC, G, 8, NV, Vector>(p);
    case 16: return launch_split_lanes<I, T, TC, G, 16, NV, Vector>(p);
    case 32: return launch_split_lanes<I, T, TC, G, 32, NV, Vector>(p);
    default: break;
    }
    fail(errc::internal_error, "SpMM row-split nonzero lanes without kernel");
}

// One column (single_column.cuh): the long rows' blocks, then groups of W lanes. With
// p.perm, op(A) is the transposed copy (32-bit indices) with A's values read in place.
template <class I, class T, class TC, int W>
void launch_single_lanes(const product& p) {
    const operands<I, T, TC> o(p);
    split_view S = p.split;
    constexpr std::int64_t rows_per_block = kThreads / W;
    S.row_blocks = grid_for(p.rows, rows_per_block, kBlockPerItem);
    const std::int64_t limit = 0x7fffffff;
    const std::int64_t blocks = S.long_blocks + std::min(S.row_blocks, limit - S.long_blocks);
    if (p.perm != nullptr) {
        if constexpr (std::is_same_v<I, int>) {
            const permuted_rows<T> A{o.A, p.perm};
            return launch("single_column_kernel", single_column_kernel<T, TC, W, permuted_rows<T>>,
                          dim3(unsigned(blocks)), kThreads, 0, p.stream, A, o.B, o.C, o.alpha,
                          o.beta, S);
        } else {
            fail(errc::internal_error, "SpMV in-place A^T with 64-bit indices");
        }
    }
    launch("single_column_kernel", single_column_kernel<T, TC, W, sparse_rows<T, I>>,
           dim3(unsigned(blocks)), kThreads, 0, p.stream, o.A, o.B, o.C, o.alpha, o.beta, S);
}

// op(A) = A^T by atomics (scatter_column.cuh): y = beta*y (not for beta == 1 on the host),
// then the scatter. p.rows x p.cols is A as stored; y has p.cols elements, x p.rows.
template <class I, class T, class TC>
void launch_scatter(const product& p) {
    using acc = acc_t<T>;
    if constexpr (!std::is_same_v<TC, acc>) {
        fail(errc::internal_error, "SpMV scatter into a y of another type than the sums'");
    } else {
        if (p.b_row_stride != 1 || p.c_row_stride != 1 || p.n != 1)
            fail(errc::internal_error, "SpMV scatter of other than contiguous vectors");
        if (!p.beta.is_host_one()) {
            dense_view y;  // p.cols elements, contiguous
            y.rows = p.cols;
            y.cols = 1;
            y.ld = 1;
            y.values = p.c;
            y.type = p.c_type;
            formats::scale(y, p.beta, p.stream);
        }
        const operands<I, T, TC> o(p);
        const std::int64_t items = std::int64_t(p.rows) + p.nnz;
        const int blocks = grid_for(items, std::int64_t(kScatterItems) * (kThreads / 32), kBlockPerItem);
        const auto scatter = [&](auto lookup) {
            using Lookup = decltype(lookup);
            launch("scatter_column_kernel", scatter_column_kernel<kScatterItems, Lookup, T, I>,
                   dim3(unsigned(blocks)), kThreads, 0, p.stream, o.A, o.B.values, o.C.values,
                   o.alpha, items, p.merge.limits);
        };
        if (scatter_rows_by_window(p.rows, p.nnz)) return scatter(rows_by_window{});
        scatter(rows_by_walk{});
    }
}

template <class I, class T, class TC>
void launch_single(const product& p) {
    if (p.kernel == csr_kernel::scatter) return launch_scatter<I, T, TC>(p);
    switch (p.geo.rows_lanes) {
    case 1: return launch_single_lanes<I, T, TC, 1>(p);
    case 2: return launch_single_lanes<I, T, TC, 2>(p);
    case 4: return launch_single_lanes<I, T, TC, 4>(p);
    case 8: return launch_single_lanes<I, T, TC, 8>(p);
    case 16: return launch_single_lanes<I, T, TC, 16>(p);
    case 32: return launch_single_lanes<I, T, TC, 32>(p);
    default: break;
    }
    fail(errc::internal_error, "SpMM one-column lanes without kernel");
}

// Merge-path: a block per (tile, slab), then the fix-up of the rows that tiles share.
template <class I, class T, class TC, int G, int NV, bool Vector>
void launch_merge(const product& p) {
    using acc = acc_t<T>;
    const operands<I, T, TC> o(p);
    const unsigned grid_y = unsigned(std::min<std::int64_t>(p.slabs, 65535));
    acc* records = static_cast<acc*>(p.records);
    const int blocks = grid_for(p.merge.count, 1, kBlockPerItem);
    launch("merge_path_kernel", merge_path_kernel<T, TC, G, NV, Vector, I>,
           dim3(unsigned(blocks), grid_y), kThreads, 0, p.stream, o.A, o.B, o.C, o.alpha, o.beta,
           p.merge, records);
    if (p.merge.count < 2) return;  // one tile holds every row: nothing to carry
    const int fix_blocks = grid_for(p.merge.count, kThreads / 32, kBlockPerItem);  // a warp each
    launch("fixup_kernel", fixup_kernel<acc, TC, I>, dim3(unsigned(fix_blocks)), kThreads, 0,
           p.stream, o.A.row_ptr, o.A.base, o.A.rows, o.A.nnz, p.merge,
           static_cast<const acc*>(records), o.C, o.alpha, o.beta);
}

template <class I, class T, class TC, int G, int NV, bool Vector>
void launch_product(const product& p) {
    if (p.kernel == csr_kernel::row_split) return launch_split<I, T, TC, G, NV, Vector>(p);
    // Two vectors on fewer than 32 lanes is row-split's busy geometry only
    // (choose_split); merge-path's choose_geometry never makes it.
    if constexpr (NV == 2 && G < 32) {
        fail(errc::internal_error, "SpMM merge-path geometry without kernel");
    } else {
        launch_merge<I, T, TC, G, NV, Vector>(p);
    }
}

template <class I, class T, class TC, int G, int NV>
void launch_shape(const product& p) {
    if (p.b_vector)
        launch_product<I, T, TC, G, NV, true>(p);
    else
        launch_product<I, T, TC, G, NV, false>(p);
}

// CSR-vector: the long rows' kernel where the plan has long rows (preprocess's counts,
// or the lists' bound: plan_vector_long_rows, geometry.hpp), then the groups' kernel, L
// lanes per row, TN columns per pass (rules.hpp). Very long rows cut into parts take
// the kernel with part tasks (the lean ones: one column lane), the rest kWhole.
template <class I, class T, class TC, int L, int TN>
void launch_vector_rows(const product& p) {
    const operands<I, T, TC> o(p);
    const split_view& S = p.split;
    if (S.long_blocks > 0) {
        auto long_rows = vector_long_rows_kernel<T, TC, kWhole, I>;
        if (S.parts > 1) long_rows = vector_long_rows_kernel<T, TC, kPartsFilled, I>;
        launch("vector_long_rows_kernel", long_rows, dim3(unsigned(S.long_blocks)), kThreads, 0,
               p.stream, o.A, o.B, o.C, o.alpha, o.beta, S);
    }
    constexpr std::int64_t rows_per_block = kThreads / L;
    const int blocks = grid_for(p.rows, rows_per_block, kBlockPerItem);
    launch("vector_rows_kernel", vector_rows_kernel<T, TC, L, TN, I>, dim3(unsigned(blocks)),
           kThreads, 0, p.stream, o.A, o.B, o.C, o.alpha, o.beta, S.threshold);
}

template <class I, class T, class TC, int TN>
void launch_vector_tile(const product& p) {
    switch (p.group.lanes) {
    case 2: return launch_vector_rows<I, T, TC, 2, TN>(p);
    case 4: return launch_vector_rows<I, T, TC, 4, TN>(p);
    case 8: return launch_vector_rows<I, T, TC, 8, TN>(p);
    case 16: return launch_vector_rows<I, T, TC, 16, TN>(p);
    case 32: return launch_vector_rows<I, T, TC, 32, TN>(p);
    default: break;
    }
    fail(errc::internal_error, "SpMM CSR-vector lanes without kernel");
}

template <class I, class T, class TC>
void launch_vector(const product& p) {
    switch (p.group.tile) {
    case 4: return launch_vector_tile<I, T, TC, 4>(p);
    case kVectorTile: return launch_vector_tile<I, T, TC, kVectorTile>(p);
    default: break;
    }
    fail(errc::internal_error, "SpMM CSR-vector tile without kernel");
}

// The one-column path of element type T: single_*.cu (product.hpp says why).
template <class T>
void launch_single_unit(const product& p);
template <>
inline void launch_single_unit<float>(const product& p) { single_f32(p); }
template <>
inline void launch_single_unit<double>(const product& p) { single_f64(p); }
template <>
inline void launch_single_unit<__half>(const product& p) { single_f16(p); }
template <>
inline void launch_single_unit<__nv_bfloat16>(const product& p) { single_bf16(p); }

// C's element type: A's, or float for 16-bit A and B (cuSPARSE's combinations).
template <class T, class F>
void with_c_type(const product& p, F&& f) {
    if constexpr (std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>) {
        if (p.c_type == value_type::f32) return f(float{});
    }
    f(T{});
}

// The one-column kernels of both index widths and every C type of A's element type T,
// for single_*.cu.
template <class T>
void launch_single_typed(const product& p) {
    with_c_type<T>(p, [&](auto c) {
        with_index(p.index, [&](auto i) { launch_single<decltype(i), T, decltype(c)>(p); });
    });
}

template <class I, class T, class TC>
void launch_indexed(const product& p) {
    if (p.kernel == csr_kernel::vector_rows) return launch_vector<I, T, TC>(p);
    if (p.kernel == csr_kernel::scatter) return launch_single_unit<T>(p);
    if (p.geo.width != vector_width<T>) fail(errc::internal_error, "SpMM geometry of another type");
    if (p.geo.single && p.kernel == csr_kernel::row_split) return launch_single_unit<T>(p);
    if (p.geo.vectors == 2 && p.geo.lanes == 32) return launch_shape<I, T, TC, 32, 2>(p);
    if (p.geo.vectors == 2 && p.geo.lanes == 16) return launch_shape<I, T, TC, 16, 2>(p);
    if (p.geo.vectors == 1) {
        switch (p.geo.lanes) {
        case 1: return launch_shape<I, T, TC, 1, 1>(p);
        case 2: return launch_shape<I, T, TC, 2, 1>(p);
        case 4: return launch_shape<I, T, TC, 4, 1>(p);
        case 8: return launch_shape<I, T, TC, 8, 1>(p);
        case 16: return launch_shape<I, T, TC, 16, 1>(p);
        case 32: return launch_shape<I, T, TC, 32, 1>(p);
        default: break;
        }
    }
    fail(errc::internal_error, "SpMM geometry without kernel");
}

// The entry of the multiply/*.cu units, one per element type, C type and index width
// (product.hpp).
template <class T, class TC, class I>
void multiply_unit(const product& p) {
    launch_indexed<I, T, TC>(p);
}

}  // namespace tcs::spmm::csr
