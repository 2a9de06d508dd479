#include "views.hpp"

#include "entry.hpp"

#include "core/error.hpp"

#include <climits>

namespace tcs::api {

const tcsSpMatDescr* live_sparse(tcsConstSpMatDescr_t d, int index, const char* name) {
    check(d != nullptr, index, name, "must not be NULL");
    const tcsSpMatDescr* o = live(d);
    check(o != nullptr, index, name, "is not a live sparse descriptor",
          TCS_STATUS_NOT_INITIALIZED);
    return o;
}
tcsSpMatDescr* live_sparse_mutable(tcsSpMatDescr_t d, int index, const char* name) {
    auto* o = const_cast<tcsSpMatDescr*>(live_sparse(d, index, name));
    check(!o->is_const, index, name, "was created const");
    return o;
}
const tcsDnMatDescr* live_dense(tcsConstDnMatDescr_t d, int index, const char* name) {
    check(d != nullptr, index, name, "must not be NULL");
    const tcsDnMatDescr* o = live(d);
    check(o != nullptr, index, name, "is not a live dense descriptor",
          TCS_STATUS_NOT_INITIALIZED);
    return o;
}
tcsDnMatDescr* live_dense_mutable(tcsDnMatDescr_t d, int index, const char* name) {
    auto* o = const_cast<tcsDnMatDescr*>(live_dense(d, index, name));
    check(!o->is_const, index, name, "was created const");
    return o;
}

const tcsDnVecDescr* live_vector(tcsConstDnVecDescr_t d, int index, const char* name) {
    check(d != nullptr, index, name, "must not be NULL");
    const tcsDnVecDescr* o = live(d);
    check(o != nullptr, index, name, "is not a live dense vector",
          TCS_STATUS_NOT_INITIALIZED);
    return o;
}
tcsDnVecDescr* live_vector_mutable(tcsDnVecDescr_t d, int index, const char* name) {
    auto* o = const_cast<tcsDnVecDescr*>(live_vector(d, index, name));
    check(!o->is_const, index, name, "was created const");
    return o;
}

tcs::value_type value_type_of(cudaDataType t) {
    switch (t) {
    case CUDA_R_32F: return tcs::value_type::f32;
    case CUDA_R_64F: return tcs::value_type::f64;
    case CUDA_R_16F: return tcs::value_type::f16;
    case CUDA_R_16BF: return tcs::value_type::bf16;
    default: break;
    }
    throw tcs::error(tcs::errc::internal_error, "value type not validated");
}

tcs::index_type index_type_of(tcsIndexType_t t) {
    switch (t) {
    case TCS_INDEX_32I: return tcs::index_type::i32;
    case TCS_INDEX_64I: return tcs::index_type::i64;
    default: break;
    }
    throw tcs::error(tcs::errc::internal_error, "index type not validated");
}

tcs::math_mode math_mode_of(tcsMath_t m) {
    switch (m) {
    case TCS_TF32_TENSOR_OP_MATH: return tcs::math_mode::tf32;
    case TCS_FP16_TENSOR_OP_MATH: return tcs::math_mode::fp16;
    default: return tcs::math_mode::standard;
    }
}

namespace {

// The fields csr_view and csr_out share: sizes, index widths, value type and base.
template <class View> View csr_fields_of(const tcsSpMatDescr& d) {
    View v;
    v.rows = d.rows;
    v.cols = d.cols;
    v.nnz = d.nnz;
    v.offsets = index_type_of(d.offsets_type);
    v.columns = index_type_of(d.columns_type);
    v.type = value_type_of(d.value_type);
    v.base = d.base == TCS_INDEX_BASE_ONE ? 1 : 0;
    return v;
}

}  // namespace

tcs::csr_view csr_view_of(const tcsSpMatDescr& d) {
    auto v = csr_fields_of<tcs::csr_view>(d);
    v.row_ptr = d.offsets;
    v.col_idx = d.columns;
    v.values = d.values;
    return v;
}

tcs::bsr_view bsr_view_of(const tcsSpMatDescr& d) {
    tcs::bsr_view v;
    v.brows = d.rows;
    v.bcols = d.cols;
    v.bnnz = d.nnz;
    v.rbs = d.row_block;
    v.cbs = d.col_block;
    v.row_ptr = static_cast<const int*>(d.offsets);
    v.col_idx = static_cast<const int*>(d.columns);
    v.values = d.values;
    v.type = value_type_of(d.value_type);
    v.base = d.base == TCS_INDEX_BASE_ONE ? 1 : 0;
    v.row_major_blocks = d.block_order == TCS_ORDER_ROW;
    return v;
}

tcs::dense_view dense_view_of(const tcsDnMatDescr& d) {
    tcs::dense_view v;
    v.rows = d.rows;
    v.cols = d.cols;
    v.ld = d.ld;
    v.values = d.values;
    v.type = value_type_of(d.value_type);
    v.row_major = d.order == TCS_ORDER_ROW;
    return v;
}

tcs::scalar_arg scalar_of(const tcsContext& h, const void* p, cudaDataType compute) {
    tcs::scalar_arg s;
    s.ptr = p;
    s.on_device = h.pointer_mode == TCS_POINTER_MODE_DEVICE;
    s.type = value_type_of(compute);
    return s;
}

void check_csr_indices(const tcsSpMatDescr& d, int index, const char* name) {
    check(d.format == TCS_FORMAT_CSR, index, name, "must be CSR", TCS_STATUS_NOT_SUPPORTED);
    const bool same = d.offsets_type == d.columns_type;
    check(same && (d.offsets_type == TCS_INDEX_32I || d.offsets_type == TCS_INDEX_64I), index,
          name,
          "must have row offsets and column indices both TCS_INDEX_32I or both TCS_INDEX_64I",
          TCS_STATUS_NOT_SUPPORTED);
}

void check_c_fits(const tcsSpMatDescr& c, std::int64_t nnz) {
    const std::int64_t last = nnz + (c.base == TCS_INDEX_BASE_ONE ? 1 : 0);
    if (c.offsets_type == TCS_INDEX_32I && last > std::int64_t(INT32_MAX))
        tcs::fail(tcs::errc::insufficient_resources,
                  "SpGEMM: nnz(C) >= 2^31 does not fit matC's 32-bit indices (TCS_INDEX_32I); "
                  "create C with TCS_INDEX_64I");
}

void check_csr(const tcsSpMatDescr& d, int index, const char* name) {
    check_csr_indices(d, index, name);
    check(d.rows == 0 || d.offsets != nullptr, index, name,
          "has no row offsets (NULL csrRowOffsets with rows > 0)");
    // The kernels keep rows, columns and positions in 32 bits whatever the stored width;
    // larger 64-bit matrices are the real cuSPARSE's (the shim forwards NOT_SUPPORTED).
    check(d.offsets_type != TCS_INDEX_64I ||
              (d.rows < INT_MAX && d.cols < INT_MAX && d.nnz <= INT_MAX),
          index, name,
          "has 64-bit indices and 2^31 - 1 or more rows or columns, or 2^31 or more nonzeros",
          TCS_STATUS_NOT_SUPPORTED);
}

tcs::csr_out csr_out_of(const tcsSpMatDescr& d, void* values) {
    auto out = csr_fields_of<tcs::csr_out>(d);
    out.row_ptr = d.offsets;
    out.col_idx = d.columns;
    out.values = values;
    return out;
}

void check_bsr32(const tcsSpMatDescr& d, int index, const char* name) {
    check(d.format == TCS_FORMAT_BSR, index, name, "must be BSR", TCS_STATUS_NOT_SUPPORTED);
    check(d.offsets_type == TCS_INDEX_32I && d.columns_type == TCS_INDEX_32I, index, name,
          "must have 32-bit indices (TCS_INDEX_32I)", TCS_STATUS_NOT_SUPPORTED);
    check(d.rows == 0 || d.offsets != nullptr, index, name,
          "has no block row offsets (NULL bsrRowOffsets with brows > 0)");
}

}  // namespace tcs::api
