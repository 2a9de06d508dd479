// Plain views of the caller's data that the core works on. The C layer fills them
// from the public descriptors; kernels never see a descriptor.
#pragma once

#include "core/error.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace tcs {

enum class value_type { f32, f64, f16, bf16 };

// The arithmetic the caller allows beyond the data's precision (tcsSetMathMode), for
// SpGEMM and SpMM alike: tf32 lets fp32 data round to TF32 on tensor cores, fp16 to fp16.
enum class math_mode { standard, tf32, fp16 };

inline std::size_t size_of(value_type t) {
    switch (t) {
    case value_type::f32: return 4;
    case value_type::f64: return 8;
    default: return 2;
    }
}

// The width of a stored index array: int (32-bit) or std::int64_t.
enum class index_type { i32, i64 };

inline std::size_t size_of(index_type t) { return t == index_type::i64 ? 8 : 4; }

// Calls f(I{}) with I the C++ type of t, std::int32_t or std::int64_t: the one switch a
// kernel family's entry makes before its templates take over.
template <class F> decltype(auto) with_index(index_type t, F&& f) {
    if (t == index_type::i64) return f(std::int64_t{});
    return f(std::int32_t{});
}

// A CSR matrix. Row offsets and column indices are arrays of `offsets` and `columns`
// width: untyped here so that no reader takes a 64-bit array for a 32-bit one (each
// casts after a dispatch on the width, see with_index). `base` is 0 or 1 and applies to
// both arrays. Column indices within a row may be unsorted.
struct csr_view {
    std::int64_t rows = 0, cols = 0, nnz = 0;
    const void* row_ptr = nullptr;  // rows+1 entries (may be null when rows == 0 or nnz == 0 and rows == 0)
    const void* col_idx = nullptr;  // nnz entries
    const void* values = nullptr;   // nnz entries of `type`
    index_type offsets = index_type::i32, columns = index_type::i32;
    value_type type = value_type::f32;
    int base = 0;

    // Offsets and columns of one width (the combinations the products take).
    bool one_width() const { return offsets == columns; }
};

template <class I> constexpr index_type index_type_of() {
    return sizeof(I) == 8 ? index_type::i64 : index_type::i32;
}

// The arrays as I, for a reader that takes one width only; internal_error when they
// are stored with the other (the C layer lets no such call through).
template <class I> const I* offsets_as(const csr_view& m) {
    if (m.offsets != index_type_of<I>()) fail(errc::internal_error, "CSR row offsets of another width");
    return static_cast<const I*>(m.row_ptr);
}
template <class I> const I* columns_as(const csr_view& m) {
    if (m.columns != index_type_of<I>()) fail(errc::internal_error, "CSR column indices of another width");
    return static_cast<const I*>(m.col_idx);
}

// A BSR matrix with 32-bit block row offsets and block column indices: brows x bcols
// blocks of rbs x cbs scalars, bnnz of them stored, each block's rbs*cbs values in row-
// or column-major order. `base` applies to both index arrays.
struct bsr_view {
    std::int64_t brows = 0, bcols = 0, bnnz = 0, rbs = 1, cbs = 1;
    const int* row_ptr = nullptr;  // brows + 1
    const int* col_idx = nullptr;  // bnnz
    const void* values = nullptr;  // bnnz * rbs * cbs
    value_type type = value_type::f32;
    int base = 0;
    bool row_major_blocks = true;
};

// The output CSR matrix C of SpGEMM: arrays the caller allocated, the index arrays of
// `offsets` and `columns` width.
struct csr_out {
    std::int64_t rows = 0, cols = 0, nnz = 0;
    void* row_ptr = nullptr;
    void* col_idx = nullptr;
    index_type offsets = index_type::i32, columns = index_type::i32;
    void* values = nullptr;
    value_type type = value_type::f32;
    int base = 0;
};

// A dense matrix. Element (i, j) is at values[i*ld + j] (row_major) or values[i + j*ld].
struct dense_view {
    std::int64_t rows = 0, cols = 0, ld = 0;
    void* values = nullptr;
    value_type type = value_type::f32;
    bool row_major = true;
};

// alpha or beta after the pointer mode is resolved: either a value read on the host
// at the call, or the address the kernel reads it from. The C layer builds these in
// one place (it alone knows the pointer mode); kernels call get().
template <class T>
struct scalar {
    T host = T(0);
    const T* device = nullptr;
    __host__ __device__ T get() const { return device ? *device : host; }
};

// Type-erased scalar as the C layer hands it to the core; `as<T>()` converts.
struct scalar_arg {
    const void* ptr = nullptr;  // host or device address of a value of the compute type
    bool on_device = false;
    value_type type = value_type::f32;

    template <class T>
    scalar<T> as() const {
        scalar<T> s;
        if (on_device) {
            s.device = static_cast<const T*>(ptr);
        } else {
            s.host = type == value_type::f64 ? T(*static_cast<const double*>(ptr))
                                             : T(*static_cast<const float*>(ptr));
        }
        return s;
    }
    // True only when the value is known on the host to be exactly zero (one).
    bool is_host_zero() const { return is_host(0.0); }
    bool is_host_one() const { return is_host(1.0); }

private:
    bool is_host(double value) const {
        if (on_device) return false;
        return type == value_type::f64 ? *static_cast<const double*>(ptr) == value
                                       : *static_cast<const float*>(ptr) == float(value);
    }
};

}  // namespace tcs
