// The block SpMM (cpp/spmm/blocks) and its format (cpp/formats/dense_blocks, row_reorder),
// unchanged, run on the CPU through the SIMT emulation of tests/emulation, with
// mma.sync, ldmatrix and cp.async emulated from the PTX ISA's fragment tables
// (tests/emulation/core/mma.cuh). No GPU needed, so the kernels' logic is tested everywhere; what the
// emulation cannot see (timing, the memory model, the real tensor cores' rounding) the
// GPU test gpu_spmm_blocks covers.
//
// Checked against the CPU reference of tests/support (double): every precision (fp16 and
// bf16 with fp16/bf16/fp32 C, fp32 on DMMA, TF32, fp64), n in {1, 8, 16, 33, 128}, B
// and C row- and column-major with ld above the minimum, opB transposed, index bases 0
// and 1, alpha/beta on the host and "on the device", beta == 0 with NaN in C, unsorted
// columns, empty rows and a row of every column, sizes that are no multiple of a window,
// BSR input with both block orders and rectangular blocks, runs with and without
// preprocess (bitwise the same), two thread interleavings (bitwise the same), the block
// counts against a CPU count of the same format (natural and signature order), the
// reorder knob, duplicate entries detected, and CSR input with 64-bit offsets and columns
// (bitwise the C of 32-bit ones).
#include "core/device.hpp"
#include "core/error.hpp"
#include "guarded.hpp"
#include "emulated_indices.hpp"
#include "emulation_check.hpp"
#include "simt.hpp"
#include "spmm/plan.hpp"
#include "spmm/select.hpp"
#include "tcs_test_support.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

namespace {

using tcs::value_type;

std::uint64_t seed = 1;

std::size_t bytes_of(value_type t) { return t == value_type::f64 ? 8 : t == value_type::f32 ? 4 : 2; }

void put(void* base, std::size_t i, value_type t, double x) {
    switch (t) {
    case value_type::f64: static_cast<double*>(base)[i] = x; break;
    case value_type::f32: static_cast<float*>(base)[i] = float(x); break;
    case value_type::f16: static_cast<__half*>(base)[i] = __float2half_rn(float(x)); break;
    default: static_cast<__nv_bfloat16*>(base)[i] = __float2bfloat16_rn(float(x)); break;
    }
}
double get(const void* base, std::size_t i, value_type t) {
    switch (t) {
    case value_type::f64: return static_cast<const double*>(base)[i];
    case value_type::f32: return static_cast<const float*>(base)[i];
    case value_type::f16: return __half2float(static_cast<const __half*>(base)[i]);
    default: return __bfloat162float(static_cast<const __nv_bfloat16*>(base)[i]);
    }
}
double rounded(double x, value_type t) {
    double slot[1];
    put(slot, 0, t, x);
    return get(slot, 0, t);
}

using buffer = tcst::poisoned_buffer;

struct config {
    const char* name = "";
    value_type type = value_type::f16;  // A and B
    value_type c_type = value_type::f16;
    bool tf32 = false;
    std::int64_t n = 8;
    bool b_row_major = true, c_row_major = true, trans_b = false;
    std::int64_t ld_extra = 0;
    int base = 0;
    double alpha = 1.0, beta = 0.0;
    bool device_scalars = false;
    bool preprocess = true;
    bool families = false;          // DEFAULT's smaller format (no value_index, fewer blocks)
    const char* reorder = nullptr;  // TCS_SPMM_REORDER's value ("0" or "1"), or unset
    // BSR: A given as blocks of rbs x cbs (the matrix's rows and columns multiples of them)
    bool bsr = false;
    int rbs = 1, cbs = 1;
    bool block_row_major = true;
    bool wide = false;  // CSR A with 64-bit offsets and columns
};

// Tolerance per precision, relative to the sum of |products| (and |beta * C|).
double tolerance(const config& c) {
    if (c.type == value_type::f64) return 1e-13;
    if (c.type == value_type::f32) return c.tf32 ? 4e-3 : 1e-6;
    return c.c_type == value_type::f32 ? 1e-5 : 1e-2;
}

// ---- one product ----------------------------------------------------------------------

struct outcome {
    std::vector<unsigned char> c;
    tcs::spmm::analysis found;
};

// A, stored as the config says (CSR with its base, or BSR of the expanded matrix's blocks),
// in the "device" memory; `dense` is the matrix the reference multiplies (values rounded).
struct operand_a {
    tcst::host_indices csr_indices;
    std::vector<int> rp, ci;
    std::unique_ptr<buffer> val;
    tcs::csr_view csr;
    tcs::bsr_view bsr;
};

operand_a make_a(const tcst_csr& m, const config& c) {
    operand_a o;
    if (!c.bsr) {
        o.val = std::make_unique<buffer>(std::size_t(m.nnz) * 8 + 8);
        o.csr_indices.fill(m, c.base, c.wide, o.csr);
        for (std::int64_t e = 0; e < m.nnz; ++e) put(o.val->get(), std::size_t(e), c.type, m.val[e]);
        o.csr.rows = m.rows;
        o.csr.cols = m.cols;
        o.csr.nnz = m.nnz;
        o.csr.values = o.val->get();
        o.csr.type = c.type;
        o.csr.base = c.base;
        return o;
    }
    // BSR: every block of rbs x cbs holding an entry of m is stored, in block-column
    // order, its absent entries as explicit zeros.
    const std::int64_t brows = m.rows / c.rbs, bcols = m.cols / c.cbs;
    std::vector<std::vector<int>> block_cols(static_cast<std::size_t>(brows));
    for (std::int64_t i = 0; i < m.rows; ++i)
        for (int e = m.row_ptr[i]; e < m.row_ptr[i + 1]; ++e)
            block_cols[std::size_t(i / c.rbs)].push_back(m.col_idx[e] / c.cbs);
    o.rp.push_back(c.base);
    for (auto& bc : block_cols) {
        std::sort(bc.begin(), bc.end());
        bc.erase(std::unique(bc.begin(), bc.end()), bc.end());
        for (int b : bc) o.ci.push_back(b + c.base);
        o.rp.push_back(int(o.ci.size()) + c.base);
    }
    const std::size_t bnnz = o.ci.size(), bs = std::size_t(c.rbs) * std::size_t(c.cbs);
    o.val = std::make_unique<buffer>(bnnz * bs * 8 + 8, 0);
    for (std::size_t e = 0; e < bnnz * bs; ++e) put(o.val->get(), e, c.type, 0.0);
    for (std::int64_t i = 0; i < m.rows; ++i) {
        const std::int64_t br = i / c.rbs, rr = i % c.rbs;
        for (int e = m.row_ptr[i]; e < m.row_ptr[i + 1]; ++e) {
            const int bc = m.col_idx[e] / c.cbs, cc = m.col_idx[e] % c.cbs;
            std::size_t b = std::size_t(o.rp[std::size_t(br)] - c.base);
            while (o.ci[b] - c.base != bc) ++b;
            const std::size_t at = b * bs + std::size_t(c.block_row_major ? rr * c.cbs + cc : cc * c.rbs + rr);
            put(o.val->get(), at, c.type, m.val[e]);
        }
    }
    if (o.ci.empty()) o.ci.push_back(0);
    o.bsr.brows = brows;
    o.bsr.bcols = bcols;
    o.bsr.bnnz = std::int64_t(bnnz);
    o.bsr.rbs = c.rbs;
    o.bsr.cbs = c.cbs;
    o.bsr.row_ptr = o.rp.data();
    o.bsr.col_idx = o.ci.data();
    o.bsr.values = o.val->get();
    o.bsr.type = c.type;
    o.bsr.base = c.base;
    o.bsr.row_major_blocks = c.block_row_major;
    return o;
}

// The expanded matrix of a BSR operand as a 0-based CSR (every block element an entry).
tcst_csr expanded(const operand_a& o, const config& c) {
    tcst_csr e;
    const std::int64_t rows = o.bsr.brows * c.rbs, cols = o.bsr.bcols * c.cbs;
    const std::int64_t nnz = o.bsr.bnnz * c.rbs * c.cbs;
    if (tcst_csr_alloc(&e, rows, cols, nnz) != 0) std::abort();
    std::int64_t at = 0;
    for (std::int64_t i = 0; i < rows; ++i) {
        const std::int64_t br = i / c.rbs, rr = i % c.rbs;
        e.row_ptr[i] = int(at);
        for (int b = o.rp[std::size_t(br)] - c.base; b < o.rp[std::size_t(br) + 1] - c.base; ++b)
            for (int cc = 0; cc < c.cbs; ++cc) {
                e.col_idx[at] = (o.ci[std::size_t(b)] - c.base) * c.cbs + cc;
                e.val[at] = get(o.bsr.values,
                                std::size_t(b) * std::size_t(c.rbs * c.cbs) +
                                    std::size_t(c.block_row_major ? rr * c.cbs + cc : cc * c.rbs + rr),
                                c.type);
                ++at;
            }
    }
    e.row_ptr[rows] = int(at);
    return e;
}

outcome multiply(const operand_a& A, const config& c, std::int64_t m, std::int64_t k,
                 const std::vector<double>& b_host, const std::vector<double>& c_host,
                 const tcs::device_info& dev, bool preprocess, std::uint64_t schedule) {
    emu::set_seed(schedule);
    const std::int64_t n = c.n;
    // op(B) is k x n: B is k x n, or n x k when transposed; stored in its order with ld.
    const std::int64_t b_rows = c.trans_b ? n : k, b_cols = c.trans_b ? k : n;
    const std::int64_t ldb = (c.b_row_major ? b_cols : b_rows) + c.ld_extra;
    buffer bdev(std::size_t((c.b_row_major ? b_rows : b_cols) * ldb) * bytes_of(c.type) + 16);
    for (std::int64_t r = 0; r < b_rows; ++r)
        for (std::int64_t q = 0; q < b_cols; ++q) {
            const double x = c.trans_b ? b_host[std::size_t(r * k + q)] : b_host[std::size_t(q * k + r)];
            put(bdev.get(), std::size_t(c.b_row_major ? r * ldb + q : r + q * ldb), c.type, x);
        }
    const std::int64_t ldc = (c.c_row_major ? n : m) + c.ld_extra;
    buffer cdev(std::size_t((c.c_row_major ? m : n) * ldc) * bytes_of(c.c_type) + 16);
    if (c.beta != 0.0)
        for (std::int64_t i = 0; i < m; ++i)
            for (std::int64_t j = 0; j < n; ++j)
                put(cdev.get(), std::size_t(c.c_row_major ? i * ldc + j : i + j * ldc), c.c_type,
                    c_host[std::size_t(i + j * m)]);

    tcs::spmm::problem p;
    p.trans_b = c.trans_b;
    // What lib/ makes of TCS_SPMM_REORDER=0 / =1.
    p.block_rows = c.reorder == nullptr   ? tcs::spmm::row_order::automatic
                   : c.reorder[0] == '0' ? tcs::spmm::row_order::natural
                                         : tcs::spmm::row_order::signature;
    if (c.bsr) {
        p.a_is_bsr = true;
        p.bsr = A.bsr;
    } else {
        p.a = A.csr;
    }
    p.b.rows = b_rows;
    p.b.cols = b_cols;
    p.b.ld = ldb;
    p.b.values = bdev.get();
    p.b.type = c.type;
    p.b.row_major = c.b_row_major;
    p.c.rows = m;
    p.c.cols = n;
    p.c.ld = ldc;
    p.c.values = cdev.get();
    p.c.type = c.c_type;
    p.c.row_major = c.c_row_major;
    const bool dbl = c.type == value_type::f64;
    p.compute = dbl ? value_type::f64 : value_type::f32;
    double scalars[2] = {c.alpha, c.beta};
    float scalars_f[2] = {float(c.alpha), float(c.beta)};
    p.alpha.ptr = dbl ? static_cast<const void*>(&scalars[0]) : &scalars_f[0];
    p.beta.ptr = dbl ? static_cast<const void*>(&scalars[1]) : &scalars_f[1];
    p.alpha.on_device = p.beta.on_device = c.device_scalars;
    p.alpha.type = p.beta.type = p.compute;
    p.requested_family = c.families ? tcs::spmm::family::automatic : tcs::spmm::family::blocks;
    p.math = c.tf32 ? tcs::math_mode::tf32 : tcs::math_mode::standard;
    p.device = &dev;

    const std::size_t bytes = tcs::spmm::blocks_family_plan().buffer_size(p);
    if (tcs::spmm::blocks_family_plan().buffer_size(p) != bytes) std::abort();
    buffer work(bytes);
    outcome out;
    if (preprocess) out.found = tcs::spmm::blocks_family_plan().preprocess(p, work.get());
    tcs::spmm::blocks_family_plan().run(p, work.get(), preprocess, out.found);
    const auto* bytes_c = static_cast<const unsigned char*>(cdev.get());
    out.c.assign(bytes_c, bytes_c + std::size_t((c.c_row_major ? m : n) * ldc) * bytes_of(c.c_type));
    return out;
}

bool check(const tcst_csr& matrix, const config& c, const tcs::device_info& dev) {
    std::printf("  %-28s %s n=%lld%s%s%s%s base %d%s%s%s\n", c.name,
                c.type == value_type::f64   ? "fp64"
                : c.type == value_type::f32 ? (c.tf32 ? "tf32" : "fp32/dmma")
                : c.type == value_type::f16 ? "fp16"
                                            : "bf16",
                (long long)c.n, c.b_row_major ? "" : " B col", c.c_row_major ? "" : " C col",
                c.trans_b ? " B^T" : "", c.bsr ? " bsr" : "", c.base, c.beta != 0.0 ? " beta" : "",
                c.device_scalars ? " dev-scalars" : "", c.preprocess ? "" : " no-preprocess");
    std::fflush(stdout);
    const operand_a A = make_a(matrix, c);
    tcst_csr ref_a;  // what the reference multiplies: values rounded to the type
    if (c.bsr) {
        ref_a = expanded(A, c);
    } else {
        if (tcst_csr_copy(&matrix, &ref_a) != 0) std::abort();
        for (std::int64_t e = 0; e < ref_a.nnz; ++e) ref_a.val[e] = rounded(ref_a.val[e], c.type);
    }
    const std::int64_t m = ref_a.rows, k = ref_a.cols, n = c.n;
    tcst_rng rng;
    tcst_rng_seed(&rng, seed * 977 + std::uint64_t(n));
    std::vector<double> b(std::size_t(k * n)), cc(std::size_t(m * n)), babs(b.size()), cabs(cc.size());
    for (auto& x : b) x = rounded(tcst_rng_symmetric(&rng), c.type);
    for (auto& x : cc) x = rounded(tcst_rng_symmetric(&rng), c.c_type);
    for (std::size_t i = 0; i < b.size(); ++i) babs[i] = std::fabs(b[i]);
    for (std::size_t i = 0; i < cc.size(); ++i) cabs[i] = std::fabs(cc[i]);
    std::vector<double> ref(cc), mag(cabs);
    tcst_csr a_abs;
    if (tcst_csr_copy(&ref_a, &a_abs) != 0) std::abort();
    for (std::int64_t e = 0; e < a_abs.nnz; ++e) a_abs.val[e] = std::fabs(a_abs.val[e]);
    tcst_ref_spmm(0, 0, c.alpha, &ref_a, b.data(), k, n, c.beta, ref.data(), m);
    tcst_ref_spmm(0, 0, std::fabs(c.alpha), &a_abs, babs.data(), k, n, std::fabs(c.beta), mag.data(), m);

    const outcome first = multiply(A, c, m, k, b, cc, dev, c.preprocess, seed * 31 + 1);
    const std::int64_t ldc = (c.c_row_major ? n : m) + c.ld_extra;
    const double tol = tolerance(c);
    bool ok = true;
    double worst = 0.0;
    for (std::int64_t i = 0; i < m && ok; ++i)
        for (std::int64_t j = 0; j < n; ++j) {
            const std::size_t at = std::size_t(c.c_row_major ? i * ldc + j : i + j * ldc);
            const double x = get(first.c.data(), at, c.c_type);
            const double r = ref[std::size_t(i + j * m)], bound = mag[std::size_t(i + j * m)];
            // the output's own rounding: half an ulp of C's type
            const double out_ulp = c.c_type == value_type::f16 ? std::ldexp(std::fabs(r), -11) + 6e-8
                                   : c.c_type == value_type::bf16 ? std::ldexp(std::fabs(r), -8)
                                                                   : 0.0;
            const double err = std::fabs(x - r);
            if (bound > 0) worst = std::max(worst, err / bound);
            if (!(err <= tol * bound + out_ulp + 1e-300)) {
                std::fprintf(stderr, "    C(%lld,%lld) = %.17g, reference %.17g (magnitude %.3g)\n",
                             (long long)i, (long long)j, x, r, bound);
                ok = false;
                break;
            }
        }
    // Entries beyond C's columns (ld padding) are never written.
    for (std::int64_t i = 0; i < (c.c_row_major ? m : n) && ok; ++i)
        for (std::int64_t q = (c.c_row_major ? n : m); q < ldc; ++q) {
            const std::size_t at = std::size_t(i * ldc + q) * bytes_of(c.c_type);
            for (std::size_t t = 0; t < bytes_of(c.c_type); ++t)
                if (first.c[at + t] != 0xFF) ok = false;
        }
    CHECK(ok, "%s: C differs from the reference beyond %.1e (or padding written)", c.name, tol);

    // The counts of the format against the CPU's (CSR input only; BSR: its expansion).
    if (c.preprocess && ref_a.nnz > 0) {
        const tcs::spmm::block_counts& got = first.found.counts;
        std::vector<int> natural(static_cast<std::size_t>(m));
        std::iota(natural.begin(), natural.end(), 0);
        std::vector<int> order(static_cast<std::size_t>(m) + 1);
        CHECK(tcst_signature_order(&ref_a, order.data()) == 0, "%s: the signature order", c.name);
        const long long nat = tcst_count_blocks(&ref_a, natural.data());
        const long long re = tcst_count_blocks(&ref_a, order.data());
        CHECK(got.blocks_natural == nat && got.blocks_reordered == re,
              "%s: blocks natural/reordered %lld/%lld, CPU %lld/%lld", c.name,
              (long long)got.blocks_natural, (long long)got.blocks_reordered, nat, re);
        const bool want_reordered = c.reorder ? c.reorder[0] == '1' : re + nat / 32 < nat;
        CHECK(got.reordered == want_reordered && got.blocks == (want_reordered ? re : nat),
              "%s: order used %d (blocks %lld), expected %d", c.name, int(got.reordered),
              (long long)got.blocks, int(want_reordered));
        CHECK(got.duplicates == 0, "%s: %lld rows with duplicates reported", c.name,
              (long long)got.duplicates);
        std::printf("    blocks %lld natural, %lld reordered, %s used; worst error %.2e x magnitude\n",
                    nat, re, got.reordered ? "reordered" : "natural", worst);
    }

    // The same product again: another interleaving, and the other preprocess setting.
    const outcome second = multiply(A, c, m, k, b, cc, dev, !c.preprocess, seed * 31 + 2);
    CHECK(first.c == second.c, "%s: with and without preprocess (and another interleaving) differ",
          c.name);
    if (c.wide) {
        config narrow = c;
        narrow.wide = false;
        const operand_a A32 = make_a(matrix, narrow);
        const outcome third = multiply(A32, narrow, m, k, b, cc, dev, c.preprocess, seed * 31 + 3);
        CHECK(first.c == third.c, "%s: 64-bit indices give another C than 32-bit ones", c.name);
    }
    tcst_csr_free(&a_abs);
    tcst_csr_free(&ref_a);
    return true;
}

tcst_csr generated(int rc, tcst_csr m) {
    if (rc != 0) std::abort();
    return m;
}

// Rows drawn from `patterns` column sets in random order: the signature order puts equal
// rows together and needs far fewer blocks than the natural order.
tcst_csr interleaved(std::int64_t rows, std::int64_t cols, int patterns, int per_row, std::uint64_t s) {
    tcst_rng r;
    tcst_rng_seed(&r, s);
    std::vector<std::vector<int>> sets(static_cast<std::size_t>(patterns));
    for (auto& set : sets) {
        while (int(set.size()) < per_row) {
            const int c = int(tcst_rng_below(&r, std::uint64_t(cols)));
            if (std::find(set.begin(), set.end(), c) == set.end()) set.push_back(c);
        }
        std::sort(set.begin(), set.end());
    }
    tcst_csr m;
    if (tcst_csr_alloc(&m, rows, cols, rows * per_row) != 0) std::abort();
    for (std::int64_t i = 0; i < rows; ++i) {
        const auto& set = sets[tcst_rng_below(&r, std::uint64_t(patterns))];
        m.row_ptr[i + 1] = m.row_ptr[i] + per_row;
        for (int e = 0; e < per_row; ++e) {
            m.col_idx[m.row_ptr[i] + e] = set[std::size_t(e)];
            m.val[m.row_ptr[i] + e] = tcst_rng_symmetric(&r);
        }
    }
    return m;
}

// Empty rows, one row holding every column, short random rows: windows of very
// different lengths.
tcst_csr ragged(std::int64_t rows, std::int64_t cols, std::uint64_t s) {
    tcst_rng r;
    tcst_rng_seed(&r, s);
    std::vector<int> rp(1, 0), ci;
    std::vector<double> v;
    for (std::int64_t i = 0; i < rows; ++i) {
        std::vector<int> row;
        if (i == 37) {
            for (int c = 0; c < cols; ++c) row.push_back(c);
        } else if (i % 5 != 2) {
            const int len = 1 + int(tcst_rng_below(&r, 6));
            while (int(row.size()) < len) {
                const int c = int(tcst_rng_below(&r, std::uint64_t(cols)));
                if (std::find(row.begin(), row.end(), c) == row.end()) row.push_back(c);
            }
            std::sort(row.begin(), row.end());
        }
        for (int c : row) {
            ci.push_back(c);
            v.push_back(tcst_rng_symmetric(&r));
        }
        rp.push_back(int(ci.size()));
    }
    tcst_csr m;
    if (tcst_csr_alloc(&m, rows, cols, std::int64_t(ci.size())) != 0) std::abort();
    std::copy(rp.begin(), rp.end(), m.row_ptr);
    std::copy(ci.begin(), ci.end(), m.col_idx);
    std::copy(v.begin(), v.end(), m.val);
    return m;
}

// DEFAULT's format on a matrix that does not fit it: counted, not built (the CSR family
// computes such matrices).
bool check_not_built(const tcst_csr& matrix, const config& c, const tcs::device_info& dev) {
    std::printf("  %-28s not built (DEFAULT's capacity)\n", c.name);
    const operand_a A = make_a(matrix, c);
    tcs::spmm::problem p;
    p.a = A.csr;
    std::vector<double> b(std::size_t(matrix.cols * c.n), 0.5), out(std::size_t(matrix.rows * c.n), 0.0);
    p.b = {matrix.cols, c.n, c.n, b.data(), value_type::f64, true};
    p.c = {matrix.rows, c.n, c.n, out.data(), value_type::f64, true};
    double one = 1.0, zero = 0.0;
    p.alpha = {&one, false, value_type::f64};
    p.beta = {&zero, false, value_type::f64};
    p.compute = value_type::f64;
    p.requested_family = tcs::spmm::family::automatic;
    p.device = &dev;
    buffer work(tcs::spmm::blocks_family_plan().buffer_size(p));
    const tcs::spmm::analysis found = tcs::spmm::blocks_family_plan().preprocess(p, work.get());
    CHECK(!found.counts.built && found.counts.blocks > 0, "%s: built %d, %lld blocks", c.name,
          int(found.counts.built), (long long)found.counts.blocks);
    return true;
}

void run_suite(const tcs::device_info& dev) {
    const std::uint64_t s = seed;
    tcst_csr banded = generated(tcst_gen_banded(150, 3, s, &banded), banded);
    tcst_csr stencil = generated(tcst_gen_stencil27(4, 4, 3, 3, s + 1, &stencil), stencil);
    tcst_csr blocks8 = generated(tcst_gen_dense_blocks(200, 168, 8, 0.08, s + 2, &blocks8), blocks8);
    tcst_csr rmat = generated(tcst_gen_rmat(7, 8, 0.57, 0.19, 0.19, s + 3, &rmat), rmat);
    tcst_csr mixed = interleaved(130, 90, 3, 12, s + 4);
    tcst_csr uneven = ragged(97, 70, s + 5);
    tcst_csr shuffled;
    if (tcst_csr_copy(&stencil, &shuffled) != 0) std::abort();
    tcst_csr_shuffle_columns(&shuffled, s + 6);
    tcst_csr empty;
    if (tcst_csr_alloc(&empty, 40, 30, 0) != 0) std::abort();

    auto cfg = [](const char* name, value_type t, std::int64_t n) {
        config c;
        c.name = name;
        c.type = t;
        c.c_type = t;
        c.n = n;
        return c;
    };
    // every precision over n
    for (std::int64_t n : {1, 8, 16, 33, 128}) {
        check(banded, cfg("banded", value_type::f16, n), dev);
        check(stencil, cfg("stencil 3 dof", value_type::f64, n), dev);
        config f32 = cfg("dense blocks", value_type::f32, n);
        check(blocks8, f32, dev);
        f32.tf32 = true;
        check(blocks8, f32, dev);
        config bf = cfg("rmat", value_type::bf16, n);
        bf.c_type = value_type::f32;
        check(rmat, bf, dev);
    }
    // layouts, transposes, bases, scalars
    {
        config c = cfg("banded B col, C col", value_type::f16, 33);
        c.b_row_major = false;
        c.c_row_major = false;
        c.ld_extra = 3;
        c.beta = -0.5;
        check(banded, c, dev);
        c = cfg("stencil B^T row-major", value_type::f64, 20);
        c.trans_b = true;
        c.base = 1;
        c.alpha = 0.75;
        c.beta = 2.0;
        c.device_scalars = true;
        check(stencil, c, dev);
        c = cfg("stencil B^T col-major", value_type::f16, 24);
        c.trans_b = true;
        c.b_row_major = false;
        c.c_type = value_type::f32;
        check(stencil, c, dev);
        c = cfg("blocks odd ld", value_type::bf16, 17);
        c.ld_extra = 1;  // rows of B not 16-byte aligned: element-wise loads
        c.beta = 1.0;
        check(blocks8, c, dev);
        c = cfg("blocks fp32 ld+1", value_type::f32, 9);
        c.ld_extra = 1;
        check(blocks8, c, dev);
        c = cfg("stencil fp64 odd ld", value_type::f64, 13);
        c.ld_extra = 1;
        c.beta = 0.25;
        check(stencil, c, dev);
        c = cfg("banded two slices", value_type::f16, 200);  // 128 + 72 columns
        c.c_type = value_type::f32;
        check(banded, c, dev);
    }
    // A Matrix Market file (structural, FEM-like rows)
    {
        char path[1024], err[256];
        std::snprintf(path, sizeof path, "%s/bcsstk13.mtx.gz", tcst_matrix_dir());
        tcst_csr file;
        if (tcst_mm_read(path, 7, &file, err, sizeof err) == 0) {
            // scaled into fp16's range (the stiffnesses reach 1e9)
            double largest = 0.0;
            for (std::int64_t e = 0; e < file.nnz; ++e) largest = std::max(largest, std::fabs(file.val[e]));
            for (std::int64_t e = 0; e < file.nnz; ++e) file.val[e] /= largest;
            config c = cfg("bcsstk13", value_type::f64, 24);
            c.beta = -1.0;
            check(file, c, dev);
            c = cfg("bcsstk13", value_type::f16, 64);
            check(file, c, dev);
            tcst_csr_free(&file);
        } else {
            std::printf("  bcsstk13: not read (%s), skipped\n", err);
        }
    }
    // structure: reordering, ragged windows, unsorted columns, no entries
    {
        config c = cfg("interleaved patterns", value_type::f16, 16);
        check(mixed, c, dev);
        c.reorder = "0";
        check(mixed, c, dev);
        c.reorder = "1";
        c.type = c.c_type = value_type::f64;
        check(mixed, c, dev);
        check(banded, c, dev);
        c = cfg("ragged rows", value_type::f64, 8);
        c.beta = 0.5;
        check(uneven, c, dev);
        c.type = c.c_type = value_type::f16;
        c.n = 40;
        check(uneven, c, dev);
        c = cfg("unsorted columns", value_type::f64, 12);
        c.base = 1;
        check(shuffled, c, dev);
        c.type = c.c_type = value_type::f16;
        check(shuffled, c, dev);
        c = cfg("no entries", value_type::f16, 8);
        c.beta = 3.0;
        check(empty, c, dev);
    }
    // CSR A with 64-bit indices: the format's build reads them as stored
    {
        config c = cfg("64-bit indices", value_type::f16, 16);
        c.wide = true;
        check(mixed, c, dev);
        c.reorder = "1";
        c.type = c.c_type = value_type::f64;
        c.base = 1;
        check(shuffled, c, dev);
        c.reorder = nullptr;
        c.families = true;
        c.type = c.c_type = value_type::f32;
        check(blocks8, c, dev);
        c.families = false;
        c.preprocess = false;
        check(uneven, c, dev);
    }
    // BSR input: both block orders, square and rectangular blocks, base 1
    {
        config c = cfg("bsr 8x8 row-major", value_type::f16, 32);
        c.bsr = true;
        c.rbs = c.cbs = 8;
        check(blocks8, c, dev);
        c = cfg("bsr 3x3 col-major", value_type::f64, 16);
        c.bsr = true;
        c.rbs = c.cbs = 3;
        c.block_row_major = false;
        c.base = 1;
        check(stencil, c, dev);
        c = cfg("bsr 2x3 row-major", value_type::f32, 8);
        c.bsr = true;
        c.rbs = 2;
        c.cbs = 3;
        check(stencil, c, dev);
        c = cfg("bsr 3x1 col-major", value_type::bf16, 33);
        c.bsr = true;
        c.rbs = 3;
        c.cbs = 1;
        c.block_row_major = false;
        c.preprocess = false;
        check(stencil, c, dev);
    }
    // DEFAULT's format: built where the blocks fit its capacity (sorted rows, enough
    // nonzeros per column), merely counted otherwise.
    {
        config c = cfg("DEFAULT's format", value_type::f16, 32);
        c.families = true;
        check(blocks8, c, dev);
        c.type = c.c_type = value_type::f64;
        check(stencil, c, dev);
        tcst_csr sparse = generated(tcst_gen_uniform(2000, 2000, 4, s + 7, &sparse), sparse);
        check_not_built(sparse, c, dev);
        tcst_csr_free(&sparse);
        check_not_built(shuffled, c, dev);
    }
    for (tcst_csr* m : {&banded, &stencil, &blocks8, &rmat, &mixed, &uneven, &shuffled, &empty})
        tcst_csr_free(m);
}

// A row with a column twice: the build reports it.
bool check_duplicates(const tcs::device_info& dev) {
    std::printf("  duplicate entries\n");
    std::vector<int> rp = {0, 3, 5}, ci = {1, 4, 1, 0, 2};  // row 0 has column 1 twice
    std::vector<double> v = {1, 2, 3, 4, 5};
    tcs::spmm::problem p;
    p.a.rows = 2;
    p.a.cols = 5;
    p.a.nnz = 5;
    p.a.row_ptr = rp.data();
    p.a.col_idx = ci.data();
    p.a.values = v.data();
    p.a.type = value_type::f64;
    std::vector<double> b(5 * 8, 1.0), c(2 * 8, 0.0);
    p.b = {5, 8, 8, b.data(), value_type::f64, true};
    p.c = {2, 8, 8, c.data(), value_type::f64, true};
    double one = 1.0, zero = 0.0;
    p.alpha = {&one, false, value_type::f64};
    p.beta = {&zero, false, value_type::f64};
    p.compute = value_type::f64;
    p.requested_family = tcs::spmm::family::blocks;
    p.device = &dev;
    buffer work(tcs::spmm::blocks_family_plan().buffer_size(p));
    const tcs::spmm::analysis found = tcs::spmm::blocks_family_plan().preprocess(p, work.get());
    CHECK(found.counts.duplicates == 1, "duplicates: %lld rows reported, expected 1",
          (long long)found.counts.duplicates);
    std::reverse(ci.begin(), ci.begin() + 3);  // unsorted: 1, 4, 1
    const tcs::spmm::analysis again = tcs::spmm::blocks_family_plan().preprocess(p, work.get());
    CHECK(again.counts.duplicates == 1 && again.counts.unsorted_rows == 1,
          "duplicates in an unsorted row: %lld reported", (long long)again.counts.duplicates);
    return true;
}

}  // namespace

// ---- corrupt structure, validation off (docs/validation.md) -----------------------

// A (CSR in 32 or 64 bits, or BSR of 2 x 2 blocks) with one or two offsets or columns corrupted: the
// preprocess and the product run, or refuse (tcs::error), and write nothing outside C
// and the buffer.
bool corrupt_once(const tcst_csr& m, config c, tcst_rng* rng, const tcs::device_info& dev, int& refused) {
    operand_a A = make_a(m, c);
    const std::int64_t rows = c.bsr ? A.bsr.brows : m.rows, entries = c.bsr ? A.bsr.bnnz : m.nnz;
    const std::int64_t cols = c.bsr ? A.bsr.bcols : m.cols;
    // The arrays the product reads: BSR's, or CSR's in 32 or 64 bits (with the base).
    std::vector<int>& rp = c.bsr ? A.rp : A.csr_indices.rp;
    std::vector<int>& ci = c.bsr ? A.ci : A.csr_indices.ci;
    std::vector<std::int64_t> rp64(rp.begin(), rp.begin() + rows + 1), ci64(ci.begin(), ci.begin() + entries);
    tcst_corrupt_structure(rp64.data(), rows, ci64.data(), entries, cols, rng);
    for (std::size_t i = 0; i < rp64.size(); ++i) {
        if (c.wide && !c.bsr) A.csr_indices.rp64[i] = rp64[i];
        else rp[i] = int(rp64[i]);
    }
    for (std::size_t e = 0; e < ci64.size(); ++e) {
        if (c.wide && !c.bsr) A.csr_indices.ci64[e] = ci64[e];
        else ci[e] = int(ci64[e]);
    }
    const std::size_t bytes = bytes_of(c.type);
    std::vector<unsigned char> b(std::size_t(m.cols * c.n) * bytes);
    for (std::size_t i = 0; i < std::size_t(m.cols * c.n); ++i) put(b.data(), i, c.type, 0.25 * double(i % 7) - 0.5);
    tcst::guarded out(std::size_t(m.rows * c.n) * bytes);
    tcs::spmm::problem p;
    if (c.bsr) {
        p.a_is_bsr = true;
        p.bsr = A.bsr;
    } else {
        p.a = A.csr;
    }
    p.b = {m.cols, c.n, c.n, b.data(), c.type, true};
    p.c = {m.rows, c.n, c.n, out.get(), c.type, true};
    const bool dbl = c.type == value_type::f64;
    const double one = 1.0, zero = 0.0;
    const float one_f = 1.0f, zero_f = 0.0f;
    p.compute = dbl ? value_type::f64 : value_type::f32;
    p.alpha = {dbl ? static_cast<const void*>(&one) : &one_f, false, p.compute};
    p.beta = {dbl ? static_cast<const void*>(&zero) : &zero_f, false, p.compute};
    p.requested_family = tcs::spmm::family::blocks;
    p.device = &dev;
    std::unique_ptr<tcst::guarded> work;
    try {
        work = std::make_unique<tcst::guarded>(tcs::spmm::blocks_family_plan().buffer_size(p));
        (void)tcs::spmm::blocks_family_plan().preprocess(p, work->get());
        tcs::spmm::blocks_family_plan().run(p, work->get(), true, {});
    } catch (const tcs::error&) {
        ++refused;
    }
    CHECK(out.intact() && (work == nullptr || work->intact()), "corrupt %s A (%s, n %lld): a write past C or the buffer",
          c.bsr ? "BSR" : "CSR", c.name, (long long)c.n);
    return true;
}

void corrupt_suite(const tcs::device_info& dev, int rounds) {
    tcst_csr m = generated(tcst_gen_rmat(7, 6, 0.57, 0.19, 0.19, seed + 11, &m), m);
    tcst_rng rng;
    tcst_rng_seed(&rng, seed + 12);
    const value_type types[] = {value_type::f64, value_type::f16, value_type::f32, value_type::bf16};
    const char* names[] = {"fp64", "fp16", "fp32", "bf16"};
    int refused = 0;
    for (int t = 0; t < rounds; ++t) {
        config c;
        c.name = names[t % 4];
        c.type = c.c_type = types[t % 4];
        c.n = t % 3 == 0 ? 1 : t % 3 == 1 ? 8 : 33;
        c.base = (t / 4) % 2;
        c.bsr = (t / 8) % 2 == 1;
        c.wide = !c.bsr && (t / 16) % 2 == 1;  // CSR A with 64-bit indices
        c.rbs = c.cbs = 2;
        corrupt_once(m, c, &rng, dev, refused);
    }
    std::printf("  %d products on corrupt A (CSR and BSR): %d refused, none wrote outside C or its buffer\n",
                rounds, refused);
    tcst_csr_free(&m);
}

// TCS_SPMM_BSR_TC's hand-off of a CSR A to the CSR family (spmm/select.hpp), a pure
// function of the problem and the counts preprocess read back.
static bool check_hand_off_rule() {
    using namespace tcs::spmm;
    problem p;
    p.requested_family = family::blocks;
    p.a.type = value_type::f64;
    block_counts graph;  // a power-law graph: about one nonzero per row of op(B) loaded
    graph.blocks = 1000, graph.entries = 11000, graph.distinct = 10000;
    block_counts band = graph;  // a band of half-width 12: about 14
    band.entries = 140000;
    CHECK(blocks_hand_off(p, graph), "BSR_TC kept the blocks on a graph");
    CHECK(!blocks_hand_off(p, band), "BSR_TC handed a band off");
    block_counts unread = graph;  // preprocess while capturing: counts not read
    unread.blocks = unread.distinct = unread.entries = -1;
    CHECK(!blocks_hand_off(p, unread), "BSR_TC handed off without counts");
    problem bsr = p;
    bsr.a_is_bsr = true;
    CHECK(!blocks_hand_off(bsr, graph), "BSR_TC handed a BSR A off");
    problem def = p;
    def.requested_family = family::automatic;
    CHECK(!blocks_hand_off(def, graph), "the hand-off applied to DEFAULT");
    // Looser than DEFAULT's: what DEFAULT keeps on the blocks, BSR_TC keeps too.
    CHECK(blocks::kBlocksExplicitMinReuse < blocks::kBlocksMinReuseHalf &&
              blocks::kBlocksExplicitMinReuse < blocks::kBlocksMinReuseWide,
          "BSR_TC's threshold is not looser than DEFAULT's");
    std::printf("  BSR_TC's hand-off rule\n");
    return true;
}

int main(int argc, char** argv) {
    const char* env = std::getenv("TCST_SEED");
    seed = env != nullptr ? std::strtoull(env, nullptr, 10) : tcst_fresh_seed();
    if (argc > 1 && std::strcmp(argv[1], "-") != 0) seed = std::strtoull(argv[1], nullptr, 10);
    std::printf("blocks_emulation: seed %llu (TCST_SEED=%llu reproduces)\n", (unsigned long long)seed,
                (unsigned long long)seed);
    tcs::device_info h100 = tcst::h100_like();
    // A second argument "corrupt" runs only the corrupt-input suite.
    if (argc <= 2 || std::strcmp(argv[2], "corrupt") != 0) {
        run_suite(h100);
        check_duplicates(h100);
        // Matrices of fewer than 64 windows (all of the suite's) run thread blocks of 16
        // warps where shared memory allows: a device of 48 KB per block runs them on the
        // 4-warp kernels, the ones every larger matrix takes.
        std::printf("4-warp thread blocks (48 KB of shared memory per block):\n");
        tcs::device_info small_smem = h100;
        small_smem.smem_per_block_optin = 48 * 1024;
        run_suite(small_smem);
    }
    check_hand_off_rule();
    std::printf("corrupt structure, validation off:\n");
    corrupt_suite(h100, 64);
    return tcst::finish("blocks_emulation");
}
