// One run of the SpGEMM plan protocol on host memory, as hash_emulation and
// tiles_emulation drive the plans on the CPU emulation: the operands (an index base, 32-
// or 64-bit index arrays, values of a type), every stage (sizes, work estimation, an
// optional memory budget, compute, copy with alpha and beta on the host or "on the
// device"), and C read back with its values as stored, so that two runs compare bit for
// bit. Header-only C++.
#pragma once

#include "core/device.hpp"
#include "emulated_indices.hpp"
#include "emulation_check.hpp"
#include "simt.hpp"
#include "spgemm/plan.hpp"
#include "tcs_test_support.h"
#include "tcst_edge_shapes.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

namespace tcst {

inline void put_value(void* array, std::int64_t i, double v, tcs::value_type t) {
    switch (t) {
    case tcs::value_type::f64: static_cast<double*>(array)[i] = v; break;
    case tcs::value_type::f32: static_cast<float*>(array)[i] = float(v); break;
    case tcs::value_type::f16: static_cast<__half*>(array)[i] = __float2half_rn(float(v)); break;
    default: static_cast<__nv_bfloat16*>(array)[i] = __float2bfloat16_rn(float(v)); break;
    }
}

inline double get_value(const void* array, std::int64_t i, tcs::value_type t) {
    switch (t) {
    case tcs::value_type::f64: return static_cast<const double*>(array)[i];
    case tcs::value_type::f32: return double(static_cast<const float*>(array)[i]);
    case tcs::value_type::f16: return double(__half2float(static_cast<const __half*>(array)[i]));
    default: return double(__bfloat162float(static_cast<const __nv_bfloat16*>(array)[i]));
    }
}

// A host matrix with an index base, 32- or 64-bit index arrays and values of a type.
struct spgemm_operand {
    host_indices indices;
    poisoned_buffer val;
    tcs::csr_view view;
    spgemm_operand(const tcst_csr& m, int base, tcs::value_type t, bool wide) : val(std::size_t(m.nnz) * 8 + 8) {
        indices.fill(m, base, wide, view);
        for (std::int64_t e = 0; e < m.nnz; ++e) put_value(val.get(), e, m.val[e], t);
        view.rows = m.rows;
        view.cols = m.cols;
        view.nnz = m.nnz;
        view.values = val.get();
        view.type = t;
        view.base = base;
    }
};

// What one run asks for: bases, the value type (the compute type follows: fp64 for fp64
// data, else fp32), the math mode, the scalars, the index widths and a memory budget.
struct spgemm_options {
    int a_base = 0, b_base = 0, c_base = 0;
    tcs::value_type type = tcs::value_type::f64;
    tcs::math_mode math = tcs::math_mode::standard;
    double alpha = 1.0, beta = 0.0;
    bool device_scalars = false;
    bool wide_a = false, wide_b = false, wide_c = false;  // 64-bit index arrays
    double chunk = 1.0;                                   // the chunk_fraction of estimateMemory
};

struct spgemm_result {
    std::vector<int> rp, ci;
    std::vector<unsigned char> val;  // as stored, in the value type
    std::int64_t products = 0;
    tcs::value_type type = tcs::value_type::f64;

    std::vector<double> values() const {
        std::vector<double> out(ci.size());
        for (std::size_t e = 0; e < out.size(); ++e) out[e] = get_value(val.data(), std::int64_t(e), type);
        return out;
    }
    bool same_c(const spgemm_result& o) const { return rp == o.rp && ci == o.ci && val == o.val; }
};

// The whole protocol once on a fresh `plan` (b == nullptr: B is A's very arrays), with
// the emulator's scheduling drawn from `schedule`; with beta != 0, C starts as `old`.
inline spgemm_result run_spgemm(std::unique_ptr<tcs::spgemm::plan> plan, const tcst_csr& a, const tcst_csr* b,
                                const spgemm_options& o, const tcs::device_info& dev, std::uint64_t schedule,
                                const std::vector<double>& old) {
    emu::set_seed(schedule);
    spgemm_operand A(a, o.a_base, o.type, o.wide_a);
    std::unique_ptr<spgemm_operand> B_own;
    if (b != nullptr) B_own = std::make_unique<spgemm_operand>(*b, o.b_base, o.type, o.wide_b);
    tcs::spgemm::problem p;
    p.a = A.view;
    p.b = b != nullptr ? B_own->view : A.view;
    p.c_base = o.c_base;
    p.compute = o.type == tcs::value_type::f64 ? tcs::value_type::f64 : tcs::value_type::f32;
    p.math = o.math;
    p.device = &dev;
    const std::size_t size1 = plan->buffer1_size(p);
    if (plan->buffer1_size(p) != size1) std::abort();  // the size query is a pure function
    poisoned_buffer buf1(size1);
    plan->work_estimation(p, buf1.get());
    if (o.chunk < 1.0) {
        poisoned_buffer buf3(plan->buffer3_size(p, o.chunk) + 8);
        plan->set_chunks(p, o.chunk, buf1.get(), buf3.get());
    }
    spgemm_result r;
    r.type = o.type;
    r.products = plan->num_products();
    poisoned_buffer buf2(plan->buffer2_size(p));
    plan->compute(p, buf1.get(), buf2.get());
    const std::int64_t nnz = plan->nnz_c();
    const std::size_t index_bytes = o.wide_c ? 8 : 4, value_bytes = tcs::size_of(o.type);
    poisoned_buffer rp((std::size_t(a.rows) + 1) * index_bytes), ci(std::size_t(nnz) * index_bytes + 8),
        val(std::size_t(nnz) * value_bytes + 8);
    for (std::int64_t e = 0; e < nnz && o.beta != 0.0; ++e) put_value(val.get(), e, old[e], o.type);
    const bool dbl = p.compute == tcs::value_type::f64;
    double scalars[2] = {o.alpha, o.beta};
    float scalars_f[2] = {float(o.alpha), float(o.beta)};
    tcs::scalar_arg alpha, beta;
    alpha.ptr = dbl ? static_cast<const void*>(&scalars[0]) : &scalars_f[0];
    beta.ptr = dbl ? static_cast<const void*>(&scalars[1]) : &scalars_f[1];
    alpha.on_device = beta.on_device = o.device_scalars;
    alpha.type = beta.type = p.compute;
    tcs::csr_out c;
    c.rows = a.rows;
    c.cols = p.b.cols;
    c.nnz = nnz;
    c.row_ptr = rp.get();
    c.col_idx = nnz > 0 ? ci.get() : nullptr;
    if (o.wide_c) c.offsets = c.columns = tcs::index_type::i64;
    c.values = nnz > 0 ? val.get() : nullptr;
    c.type = o.type;
    c.base = o.c_base;
    plan->copy(p, buf1.get(), buf2.get(), alpha, beta, c);
    r.rp = read_indices(rp.get(), a.rows + 1, o.wide_c);
    r.ci = read_indices(ci.get(), nnz, o.wide_c);
    const auto* bytes = static_cast<const unsigned char*>(val.get());
    r.val.assign(bytes, bytes + std::size_t(nnz) * value_bytes);
    return r;
}

// rows x cols with per_row distinct uniformly random columns in each row.
inline tcst_csr uniform(std::int64_t rows, std::int64_t cols, int per_row, std::uint64_t s) {
    tcst_csr m;
    if (tcst_gen_uniform(rows, cols, per_row, s, &m) != 0) std::abort();
    return m;
}

// A and B of edge shape sh (tcst_edge_shapes.h), from seeds s and s + 1.
inline void edge_operands(const tcst_edge_shape& sh, std::uint64_t s, tcst_csr* a, tcst_csr* b) {
    *a = uniform(sh.m, sh.k, sh.a_per_row, s);
    *b = uniform(sh.k, sh.n, sh.b_per_row, s + 1);
}

// A (20 x 40) and B (40 x 60) whose product is all exact cancellations
// (tcst_gen_cancelling, from a uniform 20 x 60 matrix of 9 per row, seed s).
inline void cancelling_operands(std::uint64_t s, tcst_csr* a, tcst_csr* b) {
    tcst_csr half = uniform(20, 60, 9, s);
    if (tcst_gen_cancelling(&half, a, b) != 0) std::abort();
    tcst_csr_free(&half);
}

// The reference product A*B (ref) and its magnitude (mag, one per entry) made what the
// run must give: alpha * ref + beta * old, magnitude |alpha| * mag + |beta * old|.
inline void apply_scalars(tcst_csr& ref, double* mag, const spgemm_options& o, const std::vector<double>& old) {
    for (std::int64_t e = 0; e < ref.nnz; ++e) {
        ref.val[e] = o.alpha * ref.val[e];
        mag[e] = std::fabs(o.alpha) * mag[e];
        if (o.beta != 0.0) {
            ref.val[e] += o.beta * old[e];
            mag[e] += std::fabs(o.beta * old[e]);
        }
    }
}

}  // namespace tcst
