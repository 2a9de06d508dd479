// The tile SpGEMM plan and its kernels, unchanged, run on the CPU through the SIMT
// emulation of tests/emulation (no GPU needed): every stage of the plan, for
// tensor cores (DMMA for fp64 and fp32 data, TF32 and fp16 under their math modes,
// HMMA for fp16 and bf16 data) and CUDA cores, on matrices with dimensions that are not
// multiples of 8, fully dense and single-element tiles, unsorted columns, empty rows,
// panels whose A tiles need one or two cursors per lane or searched ones, panels split
// into segments, mixed index bases, beta != 0, scalars "on the device", and exact
// cancellation (kept as zeros). Checked against the CPU reference of tests/support (exact pattern, per-entry
// error bounded by the magnitude of the products), and every product is computed twice
// with different thread interleavings, which must give bitwise the same C.
#include "core/device.hpp"
#include "core/error.hpp"
#include "emulated_spgemm.hpp"
#include "formats/bitmap_tiles.hpp"
#include "simt.hpp"
#include "spgemm/plan.hpp"
#include "spgemm/rule.hpp"
#include "guarded.hpp"
#include "tcs_test_support.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

using tcs::value_type;
using tcs::math_mode;
using tcs::spgemm::problem;

using tcst::failures;
std::uint64_t base_seed = 1;

struct options : tcst::spgemm_options {
    bool tensor_cores = true;
};

const char* type_name(value_type t) {
    switch (t) {
    case value_type::f64: return "fp64";
    case value_type::f32: return "fp32";
    case value_type::f16: return "fp16";
    default: return "bf16";
    }
}

// The value a double becomes in type t.
double rounded(double v, value_type t) {
    switch (t) {
    case value_type::f64: return v;
    case value_type::f32: return double(float(v));
    case value_type::f16: return double(__half2float(__float2half_rn(float(v))));
    default: return double(__bfloat162float(__float2bfloat16_rn(float(v))));
    }
}

using operand = tcst::spgemm_operand;
using result = tcst::spgemm_result;

// The whole protocol once (B may be A's very arrays), with the emulator's scheduling
// drawn from `schedule`.
result multiply(const tcst_csr& a, const tcst_csr* b, const options& o, const tcs::device_info& dev,
                std::uint64_t schedule, const std::vector<double>& old) {
    return tcst::run_spgemm(tcs::spgemm::make_tile_plan(o.tensor_cores), a, b, o, dev, schedule, old);
}

// The per-entry tolerance relative to the magnitude of the products.
double tolerance(const options& o) {
    if (o.type == value_type::f64) return 1e-13;
    if (o.type == value_type::f16) return 2e-3;   // output rounding 2^-11; inputs exact
    if (o.type == value_type::bf16) return 1e-2;  // output rounding 2^-8
    if (!o.tensor_cores || o.math == math_mode::standard) return 1e-6;  // fp64 sums, one rounding
    return 4e-3;  // tf32 or fp16 inputs: 2^-11 each, plus the sums
}

bool check(const char* name, const tcst_csr& a0, const tcst_csr* b0, const options& o,
           const tcs::device_info& dev) {
    std::printf("  %-30s %s %s%s bases %d%d%d%s%s%s\n", name, type_name(o.type),
                o.tensor_cores ? "TC" : "CUDA cores",
                o.math == math_mode::tf32 ? " tf32" : o.math == math_mode::fp16 ? " fp16-math" : "",
                o.a_base, o.b_base, o.c_base, o.beta != 0.0 ? " beta" : "",
                o.device_scalars ? " device-scalars" : "",
                o.wide_a || o.wide_b || o.wide_c ? " 64-bit indices" : "");
    std::fflush(stdout);
    // The reference multiplies the values the kernels see (16-bit data is stored rounded).
    tcst_csr a, b;
    tcst_csr_copy(&a0, &a);
    tcst_csr_copy(b0 != nullptr ? b0 : &a0, &b);
    for (std::int64_t e = 0; e < a.nnz; ++e) a.val[e] = rounded(a.val[e], o.type);
    for (std::int64_t e = 0; e < b.nnz; ++e) b.val[e] = rounded(b.val[e], o.type);
    tcst_csr ref;
    CHECK(tcst_ref_spgemm(&a, &b, &ref) == 0, "reference");
    // fp16 math rounds fp32 inputs below 2^-14 by an absolute 2^-25 (fp16 subnormals).
    const bool half_inputs =
        o.type == value_type::f32 && o.tensor_cores && o.math == math_mode::fp16;
    const double input_floor = half_inputs ? std::ldexp(1.0, -14) : 0.0;
    double* mag = tcst_ref_spgemm_magnitude_floored(&a, &b, &ref, input_floor);
    std::vector<double> old(std::size_t(ref.nnz) + 1);
    tcst_rng rng;
    tcst_rng_seed(&rng, base_seed + 7);
    for (auto& v : old) v = rounded(tcst_rng_symmetric(&rng), o.type);
    // Subnormal results round by an absolute half step of the output type, whatever their
    // magnitude (fp16 below 2^-14: 2^-25).
    const int half_step = o.type == value_type::f16 ? -25 : o.type == value_type::bf16 ? -134
                          : o.type == value_type::f32 ? -150 : -1075;
    const double floor = std::ldexp(1.0, half_step) / tolerance(o);
    tcst::apply_scalars(ref, mag, o, old);
    for (std::int64_t e = 0; e < ref.nnz; ++e) mag[e] = std::fmax(mag[e], floor);
    const result first = multiply(a0, b0, o, dev, base_seed * 31 + 1, old);
    const std::vector<double> values = first.values();
    char msg[512] = "";
    const int bad = tcst_compare_csr(&ref, mag, first.rp.data(), first.ci.data(), values.data(), 1,
                                     o.c_base, tolerance(o), msg, sizeof msg);
    const std::int64_t products = tcst_ref_num_products(&a, &b);
    std::free(mag);
    tcst_csr_free(&ref);
    tcst_csr_free(&a);
    tcst_csr_free(&b);
    CHECK(!bad, "%s: %s", name, msg);
    CHECK(first.products == products, "%s: %lld products, expected %lld", name,
          (long long)first.products, (long long)products);
    const result second = multiply(a0, b0, o, dev, base_seed * 31 + 2, old);
    CHECK(first.same_c(second),
          "%s: two interleavings give different C", name);
    if (o.wide_a || o.wide_b || o.wide_c) {  // 64-bit arrays: the C of 32-bit ones
        options narrow = o;
        narrow.wide_a = narrow.wide_b = narrow.wide_c = false;
        const result n32 = multiply(a0, b0, narrow, dev, base_seed * 31 + 1, old);
        CHECK(first.same_c(n32),
              "%s: 64-bit index arrays give another C than 32-bit ones", name);
    }
    return true;
}

// Every engine on one product: TC and CUDA cores for each type, and fp32's math modes.
void every_engine(const char* name, const tcst_csr& a, const tcst_csr* b, options o,
                  const tcs::device_info& dev) {
    const value_type types[] = {value_type::f64, value_type::f32, value_type::f16, value_type::bf16};
    for (value_type t : types)
        for (int tc = 1; tc >= 0; --tc) {
            o.type = t;
            o.tensor_cores = tc != 0;
            o.math = math_mode::standard;
            check(name, a, b, o, dev);
        }
    o.type = value_type::f32;
    o.tensor_cores = true;
    o.math = math_mode::tf32;
    check(name, a, b, o, dev);
    o.math = math_mode::fp16;
    check(name, a, b, o, dev);
}

using tcst::uniform;

tcst_csr spread(std::int64_t rows, std::int64_t cols, int len, int step, std::uint64_t s) {
    tcst_csr m;
    if (tcst_gen_spread(rows, cols, len, step, s, &m) != 0) std::abort();
    return m;
}

tcst_csr with_empty_rows(const tcst_csr& m, int every) {
    tcst_csr out;
    if (tcst_csr_without_rows(&m, every, &out) != 0) std::abort();
    return out;
}

// A memory budget (estimateMemory's chunk_fraction < 1): the tile plans do not chunk
// and refuse it with INSUFFICIENT_RESOURCES; a fraction of 1 is the whole product.
bool check_budget_refused(const tcst_csr& a, const tcs::device_info& dev) {
    std::printf("  %-40s\n", "budget refused");
    operand A(a, 0, value_type::f64, false);
    problem p;
    p.a = A.view;
    p.b = A.view;
    p.compute = value_type::f64;
    p.device = &dev;
    auto plan = tcs::spgemm::make_tile_plan(true);
    tcst::poisoned_buffer buf1(plan->buffer1_size(p));
    plan->work_estimation(p, buf1.get());
    const std::size_t size2 = plan->buffer2_size(p);
    CHECK(plan->buffer3_size(p, 0.5) == 0, "tile budget: buffer3");
    bool refused = false;
    try {
        plan->set_chunks(p, 0.5, buf1.get(), nullptr);
    } catch (const tcs::error& e) {
        refused = e.code() == tcs::errc::insufficient_resources;
    }
    CHECK(refused, "tile budget: chunk_fraction 0.5 not refused with INSUFFICIENT_RESOURCES");
    plan->set_chunks(p, 1.0, buf1.get(), nullptr);
    CHECK(plan->buffer2_size(p) == size2, "tile budget: buffer2 changed");
    return true;
}

void run_suite(const tcs::device_info& dev, const char* label) {
    std::printf("device: %s (%d SMs)\n", label, dev.sm_count);
    const std::uint64_t s = base_seed;
    options o;
    {
        // Rectangular, dimensions not multiples of 8, empty rows in A and B.
        tcst_csr fa = uniform(61, 43, 6, s), fb = uniform(43, 37, 7, s + 1);
        tcst_csr a = with_empty_rows(fa, 5), b = with_empty_rows(fb, 3);
        every_engine("rectangular, empty rows", a, &b, o, dev);
        tcst_csr sq = uniform(40, 40, 5, s + 9);
        check_budget_refused(sq, dev);
        // fp32 data of A below fp16's normal range (|a| < 2^-17): fp16 math keeps them as
        // subnormals, rounded by an absolute 2^-25, and below 2^-25 rounds them to zero;
        // a conversion that flushed subnormals would lose whole products.
        tcst_csr tiny = with_empty_rows(sq, 7);
        for (std::int64_t e = 0; e < tiny.nnz; ++e) tiny.val[e] = std::ldexp(tiny.val[e], -17);
        o = options{};
        o.type = value_type::f32;
        for (math_mode m : {math_mode::fp16, math_mode::tf32, math_mode::standard}) {
            o.math = m;
            check("fp16-subnormal A", tiny, &sq, o, dev);
        }
        tcst_csr_free(&tiny);
        tcst_csr_free(&sq);
        for (int v = 0; v < 8; ++v) {
            o = options{};
            o.a_base = v & 1;
            o.b_base = (v >> 1) & 1;
            o.c_base = (v >> 2) & 1;
            o.type = v % 3 == 0 ? value_type::f64 : value_type::f32;
            o.beta = v == 5 ? -0.5 : 0.0;
            o.alpha = v == 6 ? 2.5 : 1.0;
            o.device_scalars = v >= 4;
            o.tensor_cores = v != 7;
            check("bases and scalars", a, &b, o, dev);
        }
        // 64-bit index arrays of A, B, C (the conversion reads them, the copy writes C's).
        for (int w = 1; w < 8; w += 3) {
            o = options{};
            o.wide_a = w & 1;
            o.wide_b = (w >> 1) & 1;
            o.wide_c = (w >> 2) & 1;
            o.a_base = o.c_base = 1;
            o.tensor_cores = w != 4;
            check("bases and scalars", a, &b, o, dev);
        }
        tcst_csr_free(&fa);
        tcst_csr_free(&fb);
        tcst_csr_free(&a);
        tcst_csr_free(&b);
    }
    {
        // Fully dense 8x8 tiles (blocks of 8 aligned) and dense blocks of 5 (ragged tiles).
        tcst_csr d8, d5;
        if (tcst_gen_dense_blocks(64, 64, 8, 0.3, s, &d8) != 0 ||
            tcst_gen_dense_blocks(45, 45, 5, 0.35, s + 1, &d5) != 0)
            std::abort();
        o = options{};
        every_engine("dense 8x8 tiles (A*A)", d8, nullptr, o, dev);
        every_engine("dense 5x5 blocks", d5, &d5, o, dev);
        tcst_csr_free(&d8);
        tcst_csr_free(&d5);
    }
    {
        // Single-element tiles; a row of A meeting empty rows of B inside a tile.
        tcst_csr a = spread(40, 160, 12, 8, s), b = with_empty_rows(spread(160, 90, 6, 8, s + 1), 2);
        o = options{};
        o.c_base = 1;
        every_engine("single-element tiles", a, &b, o, dev);
        tcst_csr_free(&a);
        tcst_csr_free(&b);
    }
    {
        tcst_csr a, b;
        if (tcst_gen_stencil27(4, 4, 3, 3, s, &a) != 0 || tcst_gen_banded(150, 13, s, &b) != 0)
            std::abort();
        o = options{};
        o.b_base = 1;
        every_engine("stencil27 dof 3 (A*A)", a, nullptr, o, dev);
        o = options{};
        o.beta = 0.75;
        o.device_scalars = true;
        o.type = value_type::f64;
        check("banded (beta, device scalars)", b, &b, o, dev);
        o.type = value_type::f16;
        check("banded (beta, device scalars)", b, &b, o, dev);
        tcst_csr_free(&a);
        tcst_csr_free(&b);
    }
    {
        // Unsorted columns (rows of a stencil shuffled).
        tcst_csr a;
        if (tcst_gen_stencil27(4, 3, 3, 3, s, &a) != 0) std::abort();
        tcst_csr_shuffle_columns(&a, s + 3);
        o = options{};
        o.a_base = 1;
        o.type = value_type::f32;
        check("unsorted columns (A*A)", a, nullptr, o, dev);
        o.tensor_cores = false;
        check("unsorted columns (A*A)", a, nullptr, o, dev);
        tcst_csr b;
        tcst_csr_copy(&a, &b);
        tcst_csr_shuffle_columns(&b, s + 4);
        o.type = value_type::bf16;
        o.tensor_cores = true;
        check("unsorted columns", a, &b, o, dev);
        tcst_csr_free(&a);
        tcst_csr_free(&b);
    }
    {
        // Panels of A with 33..64 tile columns (two cursors per lane) and with more than
        // 64 (searched cursors); long rows of B.
        tcst_csr two = spread(20, 400, 45, 8, s), many = spread(12, 900, 100, 8, s + 1);
        tcst_csr b2 = uniform(400, 300, 9, s + 2), b3 = uniform(900, 70, 5, s + 3);
        o = options{};
        every_engine("two cursors per lane", two, &b2, o, dev);
        o.c_base = 1;
        every_engine("searched cursors", many, &b3, o, dev);
        tcst_csr_free(&two);
        tcst_csr_free(&many);
        tcst_csr_free(&b2);
        tcst_csr_free(&b3);
    }
    {
        for (int i = 0; i < TCST_EDGE_SHAPES; ++i) {
            if (i == TCST_EDGE_RECTANGULAR) continue;  // "rectangular, empty rows" above
            tcst_csr a, b;
            tcst::edge_operands(tcst_edge_shapes[i], s, &a, &b);
            o = options{};
            o.c_base = 1;
            check(tcst_edge_shapes[i].name, a, &b, o, dev);
            o.type = value_type::f16;
            check(tcst_edge_shapes[i].name, a, &b, o, dev);
            tcst_csr_free(&a);
            tcst_csr_free(&b);
        }
    }
    {
        // Row i of A: columns 2i, 2i+1; row 2i+1 of B = -(row 2i): 1.5*h - 1.5*h, exact
        // zeros where the products are exact (fp32 data widened to DMMA, fp16 on HMMA).
        // fp64 data on DMMA keeps the second product unrounded (an fma, as the GPU does):
        // the first one's rounding error, which check() bounds by the magnitude 3|h|.
        tcst_csr a, b;
        tcst::cancelling_operands(s, &a, &b);
        o = options{};
        for (value_type t : {value_type::f64, value_type::f32, value_type::f16}) {
            o.type = t;
            check("exact cancellation", a, &b, o, dev);
            if (t == value_type::f64) continue;
            const std::vector<double> none;
            const result r = multiply(a, &b, o, dev, 5, none);
            for (double v : r.values())
                if (v != 0.0) {
                    std::fprintf(stderr, "FAILED: cancellation gives %g, not 0\n", v);
                    ++failures;
                    break;
                }
        }
        tcst_csr_free(&a);
        tcst_csr_free(&b);
    }
}

// ---- corrupt structure, validation off (docs/validation.md) -----------------------

// A or B (32- or 64-bit indices) with one or two offsets or columns corrupted: the whole protocol runs, or a
// stage refuses (tcs::error); nothing is written outside C's arrays and the buffers.
bool corrupt_once(const tcst_csr& m, bool corrupt_a, bool tensor_cores, value_type type, int base, bool wide,
                  tcst_rng* rng, const tcs::device_info& dev, int& refused) {
    std::vector<std::int64_t> rp64(m.row_ptr, m.row_ptr + m.rows + 1), ci64(m.col_idx, m.col_idx + m.nnz);
    tcst_corrupt_structure(rp64.data(), m.rows, ci64.data(), m.nnz, m.cols, rng);
    operand good(m, base, type, wide), bad(m, base, type, wide);
    for (std::size_t i = 0; i < rp64.size(); ++i) {
        if (wide) bad.indices.rp64[i] = rp64[i] + base;
        else bad.indices.rp[i] = int(rp64[i]) + base;
    }
    for (std::size_t e = 0; e < ci64.size(); ++e) {
        if (wide) bad.indices.ci64[e] = ci64[e] + base;
        else bad.indices.ci[e] = int(ci64[e]) + base;
    }
    problem p;
    p.a = corrupt_a ? bad.view : good.view;
    p.b = corrupt_a ? good.view : bad.view;
    p.compute = type == value_type::f64 ? value_type::f64 : value_type::f32;
    p.device = &dev;
    auto plan = tcs::spgemm::make_tile_plan(tensor_cores);
    std::vector<std::unique_ptr<tcst::guarded>> outs;
    try {
        outs.push_back(std::make_unique<tcst::guarded>(plan->buffer1_size(p)));
        plan->work_estimation(p, outs.back()->get());
        void* b1 = outs.back()->get();
        outs.push_back(std::make_unique<tcst::guarded>(plan->buffer2_size(p)));
        void* b2 = outs.back()->get();
        plan->compute(p, b1, b2);
        const std::int64_t nnz = plan->nnz_c();
        CHECK(nnz >= 0 && nnz <= m.rows * m.cols, "corrupt input: nnz(C) = %lld", (long long)nnz);
        outs.push_back(std::make_unique<tcst::guarded>((std::size_t(m.rows) + 1) * 4));
        int* rp = static_cast<int*>(outs.back()->get());
        outs.push_back(std::make_unique<tcst::guarded>(std::size_t(nnz) * 4));
        int* ci = static_cast<int*>(outs.back()->get());
        outs.push_back(std::make_unique<tcst::guarded>(std::size_t(nnz) * tcs::size_of(type)));
        void* val = outs.back()->get();
        const double one = 1.0, zero = 0.0;
        const float one_f = 1.0f, zero_f = 0.0f;
        const bool dbl = p.compute == value_type::f64;
        tcs::scalar_arg alpha, beta;
        alpha.ptr = dbl ? static_cast<const void*>(&one) : &one_f;
        beta.ptr = dbl ? static_cast<const void*>(&zero) : &zero_f;
        alpha.type = beta.type = p.compute;
        tcs::csr_out c;
        c.rows = m.rows;
        c.cols = m.cols;
        c.nnz = nnz;
        c.row_ptr = rp;
        c.col_idx = nnz > 0 ? ci : nullptr;
        c.values = nnz > 0 ? val : nullptr;
        c.type = type;
        plan->copy(p, b1, b2, alpha, beta, c);
    } catch (const tcs::error&) {
        ++refused;
    }
    for (std::size_t i = 0; i < outs.size(); ++i)
        CHECK(outs[i]->intact(), "corrupt %s (%s, %s): a write past output %zu", corrupt_a ? "A" : "B",
              tensor_cores ? "TC" : "CUDA cores", type_name(type), i);
    return true;
}

void corrupt_suite(const tcs::device_info& dev, int rounds) {
    tcst_csr m;
    if (tcst_gen_rmat(7, 6, 0.57, 0.19, 0.19, base_seed + 11, &m) != 0) std::abort();
    tcst_rng rng;
    tcst_rng_seed(&rng, base_seed + 12);
    const value_type types[] = {value_type::f64, value_type::f32, value_type::f16, value_type::bf16};
    int refused = 0;
    for (int t = 0; t < rounds; ++t)
        corrupt_once(m, t % 2 == 0, (t / 2) % 2 == 0, types[(t / 4) % 4], (t / 16) % 2, (t / 32) % 2 == 1, &rng,
                     dev, refused);
    std::printf("  %d products on corrupt A or B: %d refused, none wrote outside its outputs\n", rounds,
                refused);
    tcst_csr_free(&m);
}

// The shape verdicts of the default's rule and of the explicit tile algorithms' rule
// (spgemm/rule.hpp), a pure function of sizes and types.
bool check_rules() {
    using namespace tcs::spgemm;
    auto shape = [](std::int64_t m, std::int64_t k, std::int64_t n, std::int64_t nnz_a, std::int64_t nnz_b,
                    value_type t) {
        problem p;
        p.a.rows = m, p.a.cols = k, p.a.nnz = nnz_a, p.a.type = t;
        p.b.rows = k, p.b.cols = n, p.b.nnz = nnz_b, p.b.type = t;
        return p;
    };
    const value_type f64 = value_type::f64;
    // Rows of 10 (a uniform random matrix, a narrow band): the default decides hash on
    // the host, the explicit rule measures (a narrow band keeps its dense tiles).
    const problem short_rows = shape(200000, 200000, 200000, 2000000, 2000000, f64);
    CHECK(from_shape(short_rows, kDefaultRule) == verdict::hash, "default: rows of 10 not hash");
    CHECK(from_shape(short_rows, kExplicitRule) == verdict::measure, "explicit: rows of 10 not measured");
    // Rows of 10 in operands of 2^22 entries or more: the default samples the tiles first;
    // rows under 4 stay hash by shape.
    const problem large_short = shape(500000, 500000, 500000, 5000000, 5000000, f64);
    CHECK(from_shape(large_short, kDefaultRule) == verdict::probe, "default: large rows of 10 not probed");
    CHECK(from_shape(shape(2000000, 2000000, 2000000, 6000000, 6000000, f64), kDefaultRule) == verdict::hash,
          "default: large rows of 3 not hash");
    // Long rows, square: both measure.
    const problem square = shape(10000, 10000, 10000, 300000, 300000, f64);
    CHECK(from_shape(square, kDefaultRule) == verdict::measure, "default: square not measured");
    CHECK(from_shape(square, kExplicitRule) == verdict::measure, "explicit: square not measured");
    // Inner ratio 3: hash for the default (>= 2), measured for the explicit rule (< 4).
    const problem ratio3 = shape(1000, 3000, 1000, 40000, 90000, f64);
    CHECK(from_shape(ratio3, kDefaultRule) == verdict::hash, "default: inner ratio 3 not hash");
    CHECK(from_shape(ratio3, kExplicitRule) == verdict::measure, "explicit: inner ratio 3 not measured");
    // Inner ratio 8 (an AMG restriction times A*P): hash for both.
    const problem ratio8 = shape(1732, 13930, 1732, 50000, 470000, f64);
    CHECK(from_shape(ratio8, kDefaultRule) == verdict::hash, "default: inner ratio 8 not hash");
    CHECK(from_shape(ratio8, kExplicitRule) == verdict::hash, "explicit: inner ratio 8 not hash");
    // 16-bit data: tiles whatever the shape (no hash path); no entries: hash.
    CHECK(from_shape(shape(1732, 13930, 1732, 50000, 470000, value_type::f16), kExplicitRule) == verdict::tiles,
          "explicit: fp16 not tiles");
    CHECK(from_shape(shape(100, 100, 100, 0, 50, f64), kExplicitRule) == verdict::hash, "explicit: empty A not hash");
    // Looser: the explicit thresholds never exceed the default's.
    CHECK(kExplicitRule.min_density < kDefaultRule.min_density &&
              kExplicitRule.min_inner_ratio > kDefaultRule.min_inner_ratio &&
              kExplicitRule.min_row_length < kDefaultRule.min_row_length,
          "the explicit rule is not looser than the default's");
    std::printf("  the default's and the explicit algorithms' shape rules\n");
    return true;
}

// The probe's sample (formats::sample_tiles) over a band of half-width 4: every panel
// away from the ends holds 72 entries in 3 tiles, so the sample counts exactly that,
// whatever the offsets' and columns' width and the index base; an entry cap stops a run
// at its last whole panel.
bool check_tile_sample() {
    tcst_csr band;
    if (tcst_gen_banded(20000, 4, base_seed, &band) != 0) std::abort();
    for (int wide = 0; wide < 2; ++wide)
        for (int base = 0; base < 2; ++base) {
            std::vector<std::int64_t> rp64(std::size_t(band.rows) + 1), ci64(std::size_t(band.nnz));
            std::vector<int> rp32(rp64.size()), ci32(ci64.size());
            for (std::size_t i = 0; i < rp64.size(); ++i) rp32[i] = int(rp64[i] = band.row_ptr[i] + base);
            for (std::size_t i = 0; i < ci64.size(); ++i) ci32[i] = int(ci64[i] = band.col_idx[i] + base);
            tcs::csr_view v;
            v.rows = band.rows, v.cols = band.cols, v.nnz = band.nnz, v.base = base;
            v.offsets = v.columns = wide ? tcs::index_type::i64 : tcs::index_type::i32;
            v.row_ptr = wide ? static_cast<const void*>(rp64.data()) : rp32.data();
            v.col_idx = wide ? static_cast<const void*>(ci64.data()) : ci32.data();
            const tcs::formats::tile_sample all = tcs::formats::sample_tiles(v, 2, 64, 16384, nullptr);
            CHECK(all.entries == 2 * 64 * 72 && all.tiles == 2 * 64 * 3,
                  "tile sample (wide %d, base %d): %lld entries in %lld tiles, expected %d in %d", wide, base,
                  (long long)all.entries, (long long)all.tiles, 2 * 64 * 72, 2 * 64 * 3);
            const tcs::formats::tile_sample capped = tcs::formats::sample_tiles(v, 2, 64, 100, nullptr);
            CHECK(capped.entries == 2 * 72 && capped.tiles == 2 * 3, "tile sample capped at 100 entries: %lld in %lld",
                  (long long)capped.entries, (long long)capped.tiles);
        }
    tcst_csr_free(&band);
    std::printf("  the probe's tile sample on a band (both widths, both bases, an entry cap)\n");
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    // argv[1]: the seed ("-" or none: a fresh one, or TCST_SEED's).
    base_seed = argc > 1 && std::strcmp(argv[1], "-") != 0 ? std::strtoull(argv[1], nullptr, 10)
                                                             : tcst_fresh_seed();
    std::printf("tiles_emulation: seed %llu\n", (unsigned long long)base_seed);
    tcs::device_info h100 = tcst::h100_like();
    h100.sm_count = 132;  // few panels: each is split into segments
    tcs::device_info one = h100;
    one.sm_count = 0;  // one segment per panel
    // A second argument "corrupt" runs only the corrupt-input suite. TCS_TEST_QUICK (the
    // default ctest run) takes one of the two devices, by the seed's parity, so that
    // runs with fresh seeds cover both; without it, both.
    if (argc <= 2 || std::strcmp(argv[2], "corrupt") != 0) {
        const bool quick = tcst_quick() != 0;
        if (!quick || base_seed % 2 == 0) run_suite(h100, "H100-like, panels split");
        if (!quick || base_seed % 2 == 1) run_suite(one, "one segment per panel");
        if (quick) std::printf("TCS_TEST_QUICK: one device of two (the seed's parity)\n");
    }
    check_rules();
    check_tile_sample();
    std::printf("corrupt structure, validation off:\n");
    corrupt_suite(h100, 64);
    return tcst::finish("tiles_emulation");
}
