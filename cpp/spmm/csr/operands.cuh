// What the SpMM kernels read and write, as the kernels see it: op(A) as CSR, op(B)
// and C as strided dense matrices, element types with their accumulation type, the
// columns a lane owns, a chunk of nonzeros with their rows of B in flight, and the
// epilogue C = alpha*acc + beta*C. Shared by row_split.cuh and merge_path.cuh.
//
// All element offsets are 64-bit. Nothing here talks to other threads (no shuffles,
// no shared memory): every lane group computes its own outputs alone.
#pragma once

#include "core/types.hpp"
#include "spmm/csr/geometry.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <vector_types.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace tcs::spmm::csr {

// ---- element types --------------------------------------------------------------
// acc: the type products are summed in (fp32 for 16-bit inputs, as cuSPARSE does).
template <class T> struct element;
template <> struct element<float> {
    using acc = float;
    static __host__ __device__ float widen(float x) { return x; }
    static __host__ __device__ float narrow(float x) { return x; }
};
template <> struct element<double> {
    using acc = double;
    static __host__ __device__ double widen(double x) { return x; }
    static __host__ __device__ double narrow(double x) { return x; }
};
template <> struct element<__half> {
    using acc = float;
    static __host__ __device__ float widen(__half x) { return __half2float(x); }
    static __host__ __device__ __half narrow(float x) { return __float2half_rn(x); }
};
template <> struct element<__nv_bfloat16> {
    using acc = float;
    static __host__ __device__ float widen(__nv_bfloat16 x) { return __bfloat162float(x); }
    static __host__ __device__ __nv_bfloat16 narrow(float x) { return __float2bfloat16_rn(x); }
};
template <class T> using acc_t = typename element<T>::acc;

// Elements of T in one 16-byte vector.
template <class T> inline constexpr int vector_width = kVectorBytes / int(sizeof(T));

// Unsigned integer of the same size as T, for read-only loads of any element type.
template <std::size_t Bytes> struct bits_of;
template <> struct bits_of<2> { using type = unsigned short; };
template <> struct bits_of<4> { using type = unsigned int; };
template <> struct bits_of<8> { using type = unsigned long long; };

// A load through the read-only path (A, B and the partition never change during a
// kernel).
template <class T> __device__ __forceinline__ T load_ro(const T* p) {
    using bits = typename bits_of<sizeof(T)>::type;
    const bits b = __ldg(reinterpret_cast<const bits*>(p));
    T t;
    std::memcpy(&t, &b, sizeof(T));
    return t;
}

// Rounded arithmetic, spelled out: the kernels promise bitwise the same C whichever of
// them runs a row (row-split's groups or its runs, row_runs.cuh), and left to itself
// the compiler contracts alpha*sum + beta*c into an fma either way round, differently
// from kernel to kernel (seen with n = 97 and beta = 0.5).
__device__ __forceinline__ float mul_rn(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ double mul_rn(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ float fma_rn(float a, float b, float c) { return __fmaf_rn(a, b, c); }
__device__ __forceinline__ double fma_rn(double a, double b, double c) { return __fma_rn(a, b, c); }

// ---- operands -------------------------------------------------------------------
// A stored row offset as a position in [0, nnz]. nnz < 2^31 (the host checks), so the
// position fits an int whatever the width I the offsets are stored in.
template <class I>
__device__ __forceinline__ int bounded_offset(I offset, int base, int nnz) {
    if constexpr (sizeof(I) == 4) {
        return min(max(int(offset) - base, 0), nnz);
    } else {
        const long long position = (long long)offset - base;
        return int(min(max(position, 0ll), (long long)nnz));
    }
}

// op(A) as CSR: for opA = T this is the transposed copy in the buffer (base 0). I is the
// stored width of both index arrays (int or std::int64_t); they are read as I and
// narrowed only after bounding, so positions and columns live in 32-bit registers.
//
// Every read of A's structure goes through the three accessors below, which bound it:
// offsets to [0, nnz], a row's length to >= 0, a column to [0, cols). With valid input
// they change nothing; with corrupt input (offsets out of order or beyond nnz, columns
// outside op(A)) C is garbage, but no access leaves A, B or C and every loop ends.
template <class T, class I = int> struct sparse_rows {
    int rows = 0;
    int cols = 0;  // columns of op(A): rows of op(B)
    int nnz = 0;
    const I* row_ptr = nullptr;  // rows + 1 entries, offsets include `base`
    const I* col_idx = nullptr;
    const T* values = nullptr;
    int base = 0;

    __device__ __forceinline__ int row_begin(int r) const { return bounded_offset(load_ro(row_ptr + r), base, nnz); }
    __device__ __forceinline__ int row_end(int r) const { return bounded_offset(load_ro(row_ptr + r + 1), base, nnz); }
    // Nonzeros of row r, which starts at begin = row_begin(r).
    __device__ __forceinline__ unsigned row_length(int r, int begin) const {
        return unsigned(max(row_end(r) - begin, 0));
    }
    // The value of nonzero j (permuted_rows reads it through its permutation).
    __device__ __forceinline__ T value(int j) const { return load_ro(values + j); }
    // The 0-based column of nonzero j: the row of op(B) it multiplies.
    __device__ __forceinline__ int column(int j) const {
        const unsigned last = unsigned(cols - 1);
        if constexpr (sizeof(I) == 4) {
            return int(min(unsigned(load_ro(col_idx + j) - base), last));
        } else {
            // Negative or beyond 2^32 - 1: high bits set, the last column as for 32-bit
            // indices; the low word alone is compared after that.
            const long long c = (long long)load_ro(col_idx + j) - base;
            return int((c >> 32) != 0 ? last : min(unsigned(c), last));
        }
    }
};

// op(A) = A^T read in place by the one-column kernel (single_column.cuh; rules.hpp,
// reads_transpose_in_place): the transposed copy's structure (32-bit, base 0) with A's own
// values, entry j of the copy being A's nonzero perm[j]. The same products in the same
// order as over a copy with the values gathered into it, without the gather's writes and
// their reading back. perm is the copy's own (a permutation of [0, nnz) by construction);
// it is bounded all the same, as the accessors above bound A's structure.
template <class T> struct permuted_rows : sparse_rows<T, int> {
    const int* perm = nullptr;  // nnz: A's position of each entry of the copy

    __device__ __forceinline__ T value(int j) const {
        const unsigned last = unsigned(this->nnz - 1);
        return load_ro(this->values + min(unsigned(load_ro(perm + j)), last));
    }
};

// The row of op(A) a row-split group takes: its nonzeros [begin, begin + length), or
// none (mine == false) past the last row and for a row longer than `threshold` (a
// listed long row, the long-row blocks'). A group without a row walks an empty one, so
// that every lane of the warp still reaches the shuffles.
struct group_row {
    int begin = 0;
    unsigned length = 0;
    bool mine = false;
};
template <class T, class I>
__device__ __forceinline__ group_row group_row_of(const sparse_rows<T, I>& A, std::int64_t row,
                                                  int threshold) {
    group_row r;
    if (row < A.rows) {
        r.begin = A.row_begin(int(row));
        r.length = A.row_length(int(row), r.begin);
    }
    r.mine = row < A.rows && r.length <= unsigned(threshold);
    if (!r.mine) r.length = 0;
    return r;
}

// op(B): element (kk, j) at values[kk*row_stride + j*col_stride]. `vector` kernels
// require col_stride == 1, 16-byte aligned rows and whole vectors up to column n: n % V
// == 0, or the buffer's row-wise copy with rows padded to whole vectors (checked on the
// host).
template <class T> struct dense_in {
    const T* values = nullptr;
    std::int64_t row_stride = 0, col_stride = 0;
};

// C: element (i, j) at values[i*row_stride + j*col_stride]; `vector` when the same
// conditions hold for C (then a lane's V columns are stored with 16-byte accesses).
template <class TC> struct dense_out {
    TC* values = nullptr;
    std::int64_t row_stride = 0, col_stride = 0;
    std::int64_t cols = 0;   // n
    std::int64_t slabs = 0;  // column slabs of the geometry
    bool vector = false;

    __device__ __forceinline__ TC* at(std::int64_t i, std::int64_t j) const {
        return values + i * row_stride + j * col_stride;
    }
};

// The columns lane `lane` of a group owns in slab `slab`: NV vectors of V columns.
template <int G, int NV, int V> struct columns {
    std::int64_t first[NV];
    bool owned[NV];  // the vector starts inside C (for vector kernels: lies inside)

    __device__ __forceinline__ columns(std::int64_t slab, int lane, std::int64_t n) {
#pragma unroll
        for (int v = 0; v < NV; ++v) {
            first[v] = slab * (G * NV * V) + std::int64_t(v * G + lane) * V;
            owned[v] = first[v] < n;
        }
    }
};

// ---- reading B ------------------------------------------------------------------
// V elements of row kk of op(B) from column j0, packed in 16 bytes; zero where the
// vector is not owned or (strided kernels) columns fall outside C.
template <class T, int V, bool Vector>
__device__ __forceinline__ uint4 load_b(const dense_in<T>& b, int kk, std::int64_t j0, bool owned,
                                        std::int64_t n) {
    uint4 r = make_uint4(0u, 0u, 0u, 0u);
    if (!owned) return r;
    const T* row = b.values + std::int64_t(kk) * b.row_stride;
    if constexpr (Vector) {
        r = __ldg(reinterpret_cast<const uint4*>(row + j0));
    } else {
        T t[V];
        std::memcpy(t, &r, sizeof(t));  // zeros
#pragma unroll
        for (int e = 0; e < V; ++e)
            if (j0 + e < n) t[e] = load_ro(row + (j0 + e) * b.col_stride);
        std::memcpy(&r, t, sizeof(t));
    }
    return r;
}

template <class T, int V> __device__ __forceinline__ void unpack(uint4 r, T (&t)[V]) {
    static_assert(sizeof(T) * V == sizeof(uint4), "a vector is 16 bytes");
    std::memcpy(t, &r, sizeof(r));
}

// Unroll depth over nonzeros: 128 bytes of B in flight per lane. Half that for strided
// B, whose element-by-element loads and bounds checks would otherwise spill registers
// at the kernels' occupancy (-Xptxas -v, sm_90). Only the speed depends on it: every
// lane still sums its nonzeros in order.
template <int NV, bool Vector> inline constexpr int unroll = (Vector ? 8 : 4) / NV;

// Up to U nonzeros of A, `stride` apart, with their rows of op(B), loaded together so
// that all U*NV loads of B are in flight at once (the latency hiding of the kernels).
template <class T, int G, int NV, bool Vector> struct chunk {
    static constexpr int V = vector_width<T>;
    static constexpr int U = unroll<NV, Vector>;
    using acc = acc_t<T>;

    acc a[U];
    uint4 b[U][NV];

    // Loads nonzeros j, j + stride, ..., the first count <= U of them.
    template <class I>
    __device__ __forceinline__ void load(const sparse_rows<T, I>& A, const dense_in<T>& B, int j,
                                         int stride, int count, const columns<G, NV, V>& cols,
                                         std::int64_t n) {
        int kk[U];
#pragma unroll
        for (int u = 0; u < U; ++u) {
            kk[u] = 0;
            a[u] = acc(0);
            if (u < count) {
                kk[u] = A.column(j + u * stride);
                a[u] = element<T>::widen(load_ro(A.values + j + u * stride));
            }
        }
        load_rows(B, kk, count, cols, n);
    }

    // The rows kk[u] of op(B) for the first count nonzeros (a[] already set).
    __device__ __forceinline__ void load_rows(const dense_in<T>& B, const int (&kk)[U], int count,
                                              const columns<G, NV, V>& cols, std::int64_t n) {
#pragma unroll
        for (int u = 0; u < U; ++u)
#pragma unroll
            for (int v = 0; v < NV; ++v)
                b[u][v] =
                    load_b<T, V, Vector>(B, kk[u], cols.first[v], cols.owned[v] && u < count, n);
    }

    // acc += a[u] * B(kk[u], owned columns), in nonzero order, one fma each
    // (deterministic).
    __device__ __forceinline__ void accumulate(int u, acc (&sum)[NV][V]) const {
#pragma unroll
        for (int v = 0; v < NV; ++v) {
            T t[V];
            unpack(b[u][v], t);
#pragma unroll
            for (int e = 0; e < V; ++e) sum[v][e] = fma_rn(a[u], element<T>::widen(t[e]), sum[v][e]);
        }
    }
};

template <class A, int NV, int V> __device__ __forceinline__ void clear(A (&sum)[NV][V]) {
#pragma unroll
    for (int v = 0; v < NV; ++v)
#pragma unroll
        for (int e = 0; e < V; ++e) sum[v][e] = A(0);
}

// ---- writing C ------------------------------------------------------------------
// C(i, j..j+V) = alpha*sum + beta*C with 16-byte accesses. beta == 0 never reads C.
template <class TC, class A, int V>
__device__ __forceinline__ void store_vector(TC* p, const A (&sum)[V], A alpha, A beta) {
    constexpr int per = kVectorBytes / int(sizeof(TC));
    static_assert(V % per == 0, "C vector is a whole number of 16-byte pieces");
#pragma unroll
    for (int q = 0; q < V / per; ++q) {
        uint4* where = reinterpret_cast<uint4*>(p + q * per);
        TC t[per];
        if (beta != A(0)) {
            const uint4 old = *where;
            std::memcpy(t, &old, sizeof(t));
        }
#pragma unroll
        for (int e = 0; e < per; ++e) {
            A x = mul_rn(alpha, sum[q * per + e]);
            if (beta != A(0)) x = fma_rn(beta, element<TC>::widen(t[e]), x);
            t[e] = element<TC>::narrow(x);
        }
        uint4 w;
        std::memcpy(&w, t, sizeof(t));
        *where = w;
    }
}

// The same element by element, for any layout and for the columns < n only.
template <class TC, class A, int V>
__device__ __forceinline__ void store_strided(const dense_out<TC>& c, std::int64_t i,
                                              std::int64_t j0, const A (&sum)[V], A alpha,
                                              A beta) {
#pragma unroll
    for (int e = 0; e < V; ++e) {
        if (j0 + e >= c.cols) break;
        TC* where = c.at(i, j0 + e);
        A x = mul_rn(alpha, sum[e]);
        if (beta != A(0)) x = fma_rn(beta, element<TC>::widen(*where), x);
        *where = element<TC>::narrow(x);
    }
}

// Writes the owned columns of row i of C.
template <class TC, class A, int G, int NV, int V>
__device__ __forceinline__ void store_row(const dense_out<TC>& c, std::int64_t i,
                                          const columns<G, NV, V>& cols, const A (&sum)[NV][V],
                                          A alpha, A beta) {
#pragma unroll
    for (int v = 0; v < NV; ++v) {
        if (!cols.owned[v]) continue;
        if (c.vector)
            store_vector<TC, A, V>(c.at(i, cols.first[v]), sum[v], alpha, beta);
        else
            store_strided<TC, A, V>(c, i, cols.first[v], sum[v], alpha, beta);
    }
}

}  // namespace tcs::spmm::csr
