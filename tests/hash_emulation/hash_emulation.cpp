// The hash SpGEMM plan and its kernels, unchanged, run on the CPU through the SIMT
// emulation of tests/emulation (no GPU needed): every stage of the plan on small matrices that
// reach every bin, both value types, mixed index bases, beta != 0, scalars read "on the
// device", empty shapes, exact cancellation, wide rows with bitmaps in shared and in
// global memory, under the shared memory of an H100 and of a 48 KB device. Checked
// against the CPU reference of tests/support; and every product is computed twice with
// different thread interleavings, which must give bitwise the same C. With 64-bit
// index arrays (A, B or C TCS_INDEX_64I) C must equal bitwise the one of 32-bit arrays,
// and with rows in chunks (a memory budget) the one of the whole product.
#include "core/device.hpp"
#include "emulated_spgemm.hpp"
#include "simt.hpp"
#include "spgemm/hash/launch.hpp"
#include "spgemm/plan.hpp"
#include "tcs_test_support.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

using tcs::spgemm::problem;

using tcst::failures;
std::uint64_t base_seed = 1;

// The hash plan multiplies fp32 and fp64 data; fp32 unless a check says otherwise.
struct options : tcst::spgemm_options {
    options() { type = tcs::value_type::f32; }
};
using result = tcst::spgemm_result;

tcs::value_type fp(bool dbl) { return dbl ? tcs::value_type::f64 : tcs::value_type::f32; }
bool is_dbl(const options& o) { return o.type == tcs::value_type::f64; }

// The whole protocol once, with the emulator's scheduling drawn from `schedule`.
result multiply(const tcst_csr& a, const tcst_csr& b, const options& o, const tcs::device_info& dev,
                std::uint64_t schedule, const std::vector<double>& old) {
    return tcst::run_spgemm(tcs::spgemm::make_hash_plan(), a, &b, o, dev, schedule, old);
}

bool check(const char* name, const tcst_csr& a, const tcst_csr& b, const options& o,
           const tcs::device_info& dev) {
    std::printf("  %-34s %s bases %d%d%d%s%s%s%s%s\n", name, is_dbl(o) ? "fp64" : "fp32", o.a_base,
                o.b_base, o.c_base, o.beta != 0.0 ? " beta" : "",
                o.device_scalars ? " device-scalars" : "", o.wide_a ? " A64" : "",
                o.wide_b ? " B64" : "", o.wide_c ? " C64" : "");
    std::fflush(stdout);
    tcst_csr ref;
    CHECK(tcst_ref_spgemm(&a, &b, &ref) == 0, "reference");
    double* mag = tcst_ref_spgemm_magnitude(&a, &b, &ref);
    std::vector<double> old(std::size_t(ref.nnz) + 1);
    tcst_rng rng;
    tcst_rng_seed(&rng, base_seed + 7);
    for (auto& v : old) v = is_dbl(o) ? tcst_rng_symmetric(&rng) : double(float(tcst_rng_symmetric(&rng)));
    tcst::apply_scalars(ref, mag, o, old);
    const result first = multiply(a, b, o, dev, base_seed * 31 + 1, old);
    char msg[512] = "";
    const int bad = tcst_compare_csr(&ref, mag, first.rp.data(), first.ci.data(), first.val.data(),
                                     is_dbl(o), o.c_base, is_dbl(o) ? 1e-12 : 1e-5, msg, sizeof msg);
    const std::int64_t products = tcst_ref_num_products(&a, &b);
    std::free(mag);
    tcst_csr_free(&ref);
    CHECK(!bad, "%s: %s", name, msg);
    CHECK(first.products == products, "%s: %lld products, expected %lld", name,
          (long long)first.products, (long long)products);
    const result second = multiply(a, b, o, dev, base_seed * 31 + 2, old);
    CHECK(first.same_c(second),
          "%s: two interleavings give different C", name);
    // Under a memory budget the rows run in chunks (of 8 rows at least): the same C.
    if (a.rows > 8) {
        options budget = o;
        budget.chunk = 0.3;
        const result chunked = multiply(a, b, budget, dev, base_seed * 31 + 3, old);
        CHECK(first.same_c(chunked),
              "%s: chunk_fraction 0.3 gives another C", name);
    }
    if (o.wide_a || o.wide_b || o.wide_c) {
        options narrow = o;
        narrow.wide_a = narrow.wide_b = narrow.wide_c = false;
        const result n32 = multiply(a, b, narrow, dev, base_seed * 31 + 1, old);
        CHECK(first.same_c(n32),
              "%s: 64-bit index arrays give another C than 32-bit ones", name);
    }
    return true;
}

using tcst::uniform;

// Row i of A has min(2^(i % levels), k) random distinct columns: products and nnz per
// row sweep the bins.
tcst_csr ladder(std::int64_t rows, int k, int levels, std::uint64_t s) {
    std::vector<int> perm(static_cast<std::size_t>(k));
    for (int j = 0; j < k; ++j) perm[j] = j;
    tcst_rng r;
    tcst_rng_seed(&r, s);
    std::vector<int> rp(1, 0), ci;
    std::vector<double> val;
    for (std::int64_t i = 0; i < rows; ++i) {
        const int len = std::min(1 << int(i % levels), k);
        for (int t = 0; t < len; ++t) {
            const int u = t + int(tcst_rng_below(&r, std::uint64_t(k - t)));
            std::swap(perm[t], perm[u]);
            ci.push_back(perm[t]);
            val.push_back(tcst_rng_symmetric(&r));
        }
        rp.push_back(int(ci.size()));
    }
    tcst_csr m;
    if (tcst_csr_alloc(&m, rows, k, std::int64_t(ci.size())) != 0) std::abort();
    std::copy(rp.begin(), rp.end(), m.row_ptr);
    std::copy(ci.begin(), ci.end(), m.col_idx);
    std::copy(val.begin(), val.end(), m.val);
    return m;
}

// Row 0 of A over all k columns, the other rows a few: C's row 0 is long.
tcst_csr one_long_row(std::int64_t rows, int k, std::uint64_t s) {
    tcst_csr few = uniform(rows, k, 2, s);
    tcst_csr m;
    if (tcst_csr_alloc(&m, rows, k, few.nnz - 2 + k) != 0) std::abort();
    std::int64_t pos = 0;
    for (std::int64_t i = 0; i < rows; ++i) {
        m.row_ptr[i] = int(pos);
        if (i == 0) {
            for (int j = 0; j < k; ++j, ++pos) {
                m.col_idx[pos] = (j * 7919) % k;  // unsorted, all distinct (7919 is prime)
                m.val[pos] = 0.5 + 0.001 * j;
            }
        } else {
            for (int e = few.row_ptr[i]; e < few.row_ptr[i + 1]; ++e, ++pos) {
                m.col_idx[pos] = few.col_idx[e];
                m.val[pos] = few.val[e];
            }
        }
    }
    m.row_ptr[rows] = int(pos);
    tcst_csr_free(&few);
    return m;
}

// The budget's sizes on the plan (the C layer's argument checks need a GPU handle):
// buffer3 only for a fraction below 1, chunks of at least 8 rows, and a fraction of 1
// giving back the whole product's buffer2. (Whether chunks shrink buffer2 is the C
// layer's test: at these sizes the counts' alignment outweighs what they save.)
bool check_budget_sizes(const tcst_csr& a, const tcst_csr& b, const tcs::device_info& dev) {
    std::printf("  %-34s\n", "budget sizes");
    options o;
    tcst::spgemm_operand A(a, 0, tcs::value_type::f32, false), B(b, 0, tcs::value_type::f32, false);
    problem p;
    p.a = A.view;
    p.b = B.view;
    p.compute = tcs::value_type::f32;
    p.device = &dev;
    auto plan = tcs::spgemm::make_hash_plan();
    tcst::poisoned_buffer buf1(plan->buffer1_size(p));
    plan->work_estimation(p, buf1.get());
    const std::size_t whole = plan->buffer2_size(p);
    const std::size_t per_chunk = 16 * sizeof(int);  // kMaxBins counts
    const std::int64_t m = a.rows;
    CHECK(plan->buffer3_size(p, 1.0) == 0, "budget: buffer3 for chunk_fraction 1");
    CHECK(plan->buffer3_size(p, 1e-9) == std::size_t((m + 7) / 8) * per_chunk,
          "budget: chunks of fewer than 8 rows");
    CHECK(plan->buffer3_size(p, 0.5) == 2 * per_chunk, "budget: chunk_fraction 0.5 is not 2 chunks");
    tcst::poisoned_buffer buf3(plan->buffer3_size(p, 0.25) + 8);
    plan->set_chunks(p, 0.25, buf1.get(), buf3.get());
    plan->set_chunks(p, 1.0, buf1.get(), buf3.get());
    CHECK(plan->buffer2_size(p) == whole, "budget: chunk_fraction 1 does not restore buffer2");
    (void)o;
    return true;
}

// Sizes near 2^31 (issue 38, items 8 and 9), on the plan's size queries only (nothing
// is read from the fake arrays): the number of chunks under a budget, computed once in
// 64 bits here, and the wide rows' bitmaps of B with n within 31 of 2^31 columns.
bool check_sizes_near_int_max(const tcs::device_info& dev) {
    std::printf("  %-34s\n", "sizes near 2^31");
    auto plan = tcs::spgemm::make_hash_plan();
    const auto fake = [](std::uintptr_t a) { return reinterpret_cast<const void*>(a); };
    problem p;
    p.a.row_ptr = fake(0x10000);
    p.a.col_idx = fake(0x20000);
    p.a.values = fake(0x30000);
    p.b = p.a;
    p.compute = tcs::value_type::f32;
    p.device = &dev;
    const std::size_t per_chunk = 16 * sizeof(int);  // kMaxBins counts
    tcst_rng r;
    tcst_rng_seed(&r, base_seed + 77);
    std::vector<std::pair<std::int64_t, double>> budgets = {{1200000000, 0.95}, {2000000000, 0.6},
                                                            {INT_MAX - 1, 0.5}, {INT_MAX - 1, 0.999}};
    for (int i = 0; i < 16; ++i)
        budgets.push_back({(std::int64_t(1) << 30) + std::int64_t(tcst_rng_below(&r, (std::uint64_t(1) << 30) - 1)),
                           0.3 + 0.69 * double(tcst_rng_below(&r, 1000)) / 1000.0});
    for (const auto& [m, f] : budgets) {
        p.a.rows = m;
        const double rows_d = std::min(double(m), std::max({std::ceil(f * double(m)),
                                                              std::ceil(double(m) / 1024), 8.0}));
        const std::int64_t rows = std::int64_t(rows_d), chunks = (m + rows - 1) / rows;
        CHECK(plan->buffer3_size(p, f) == std::size_t(chunks) * per_chunk,
              "budget: m = %lld, chunk_fraction %.3f: buffer3 of %zu bytes, not %lld chunks", (long long)m,
              f, plan->buffer3_size(p, f), (long long)chunks);
    }
    p.a.rows = 1000;
    p.a.cols = 1000;
    p.a.nnz = 5000;
    p.b.rows = 1000;
    p.b.nnz = 100000000;  // rows of C can reach the wide bin: min(n, nnz(B)) bounds them
    for (std::int64_t n = std::int64_t(INT_MAX) - 31; n <= INT_MAX; ++n) {
        const std::int64_t words = (n + 31) / 32;
        CHECK(tcs::spgemm::hash::wide_bitmap_words(int(n)) == words, "n = %lld: %d bitmap words",
              (long long)n, tcs::spgemm::hash::wide_bitmap_words(int(n)));
        p.a.cols = p.b.rows;
        p.b.cols = n;
        const std::size_t bytes = plan->buffer1_size(p);
        // One block's bitmap at least, and not what a wrapped count would give.
        CHECK(bytes >= std::size_t(words) * 4 && bytes < std::size_t(words) * 4 * std::size_t(dev.sm_count) + (1u << 20),
              "n = %lld: buffer1 of %zu bytes for bitmaps of %lld words", (long long)n, bytes, (long long)words);
    }
    return true;
}

void run_suite(const tcs::device_info& dev, const char* label) {
    std::printf("device: %s (%zu bytes of shared memory per block)\n", label, dev.smem_per_block_optin);
    const std::uint64_t s = base_seed;
    options o;
    {
        tcst_csr a = uniform(120, 90, 6, s), b = uniform(90, 110, 8, s + 1);
        for (int v = 0; v < 8; ++v) {
            o = options{};
            o.a_base = v & 1;
            o.b_base = (v >> 1) & 1;
            o.c_base = (v >> 2) & 1;
            o.type = fp(v % 3 == 0);
            o.beta = v == 5 ? -0.5 : 0.0;
            o.alpha = v == 6 ? 2.5 : 1.0;
            o.device_scalars = v >= 4;
            check("uniform", a, b, o, dev);
        }
        // 64-bit index arrays: A, B, C alone, in pairs and all three, bases in turn.
        for (int w = 1; w < 8; ++w) {
            o = options{};
            o.wide_a = w & 1;
            o.wide_b = (w >> 1) & 1;
            o.wide_c = (w >> 2) & 1;
            o.a_base = w % 2;
            o.b_base = (w / 2) % 2;
            o.c_base = (w / 4) % 2;
            o.type = fp(w % 3 == 0);
            o.beta = w == 7 ? 0.75 : 0.0;
            check("uniform, 64-bit indices", a, b, o, dev);
        }
        tcst_csr_free(&a);
        tcst_csr_free(&b);
    }
    {
        tcst_csr a;
        if (tcst_gen_rmat(8, 8, 0.57, 0.19, 0.19, s, &a) != 0) std::abort();
        tcst_csr_shuffle_columns(&a, s + 3);
        for (int dbl = 0; dbl < 2; ++dbl) {
            o = options{};
            o.type = fp(dbl);
            o.a_base = 1;
            check("rmat (unsorted)", a, a, o, dev);
        }
        tcst_csr_free(&a);
    }
    {
        tcst_csr a, b;
        if (tcst_gen_stencil27(5, 5, 5, 1, s, &a) != 0 || tcst_gen_stencil27(4, 4, 3, 3, s, &b) != 0)
            std::abort();
        o = options{};
        check("stencil27 dof 1", a, a, o, dev);
        o.type = fp(true);
        o.c_base = 1;
        check("stencil27 dof 3", b, b, o, dev);
        tcst_csr_free(&a);
        tcst_csr_free(&b);
    }
    {
        // 40 rows of a band times the band: ~6500 products but ~160 columns per row; the
        // first guess holds them.
        tcst_csr b, a;
        if (tcst_gen_banded(3000, 40, s, &b) != 0 || tcst_csr_copy(&b, &a) != 0) std::abort();
        a.rows = 40;
        a.nnz = a.row_ptr[40];
        o = options{};
        o.type = fp(true);
        check("banded rows (first guess)", a, b, o, dev);
        tcst_csr_free(&a);
        tcst_csr_free(&b);
    }
    {
        tcst_csr a;
        if (tcst_gen_dense_blocks(128, 128, 16, 0.45, s, &a) != 0) std::abort();
        o = options{};
        check("dense blocks", a, a, o, dev);
        tcst_csr_free(&a);
    }
    {
        // Products per row 6 .. 12288 in n = 20000: every symbolic bin; nnz per row up to
        // ~9000: every numeric bin up to wide on the H100 configuration.
        tcst_csr a = ladder(24, 2048, 12, s), b = uniform(2048, 20000, 6, s + 1);
        for (int dbl = 0; dbl < 2; ++dbl) {
            o = options{};
            o.type = fp(dbl);
            o.b_base = 1;
            o.beta = dbl ? 0.25 : 0.0;
            check("ladder (all bins)", a, b, o, dev);
        }
        o = options{};
        o.wide_a = o.wide_b = o.wide_c = true;
        o.c_base = 1;
        check("ladder (all bins), 64-bit indices", a, b, o, dev);
        check_budget_sizes(a, b, dev);
        check_sizes_near_int_max(dev);
        tcst_csr_free(&a);
        tcst_csr_free(&b);
    }
    {
        // A long row of C in n = 500000: its bitmaps do not fit 48 KB of shared memory.
        tcst_csr a = one_long_row(8, 40, s), b = uniform(40, 500000, 250, s + 1);
        o = options{};
        o.type = fp(true);
        check("wide row, n = 500000", a, b, o, dev);
        o.wide_a = o.wide_b = o.wide_c = true;
        o.a_base = 1;
        check("wide row, n = 500000, 64-bit indices", a, b, o, dev);
        tcst_csr_free(&a);
        tcst_csr_free(&b);
    }
    {
        for (int i = 0; i < TCST_EDGE_TINY; ++i) {
            tcst_csr a, b;
            tcst::edge_operands(tcst_edge_shapes[i], s, &a, &b);
            o = options{};
            o.c_base = 1;
            check(tcst_edge_shapes[i].name, a, b, o, dev);
            o.wide_a = o.wide_b = o.wide_c = true;
            check(tcst_edge_shapes[i].name, a, b, o, dev);
            tcst_csr_free(&a);
            tcst_csr_free(&b);
        }
    }
    {
        // Row i of A: columns 2i, 2i+1; row 2i+1 of B = -(row 2i): C is all exact zeros.
        tcst_csr a, b;
        tcst::cancelling_operands(s, &a, &b);
        o = options{};
        check("exact cancellation", a, b, o, dev);
        const std::vector<double> none;
        const result r = multiply(a, b, o, dev, 5, none);
        for (std::size_t e = 0; e < r.ci.size(); ++e) {
            float v;
            std::memcpy(&v, &r.val[e * 4], 4);
            if (v != 0.0f) {
                std::fprintf(stderr, "FAILED: cancellation gives %g, not 0\n", double(v));
                ++failures;
                break;
            }
        }
        tcst_csr_free(&a);
        tcst_csr_free(&b);
    }
}

}  // namespace

int main(int argc, char** argv) {
    base_seed = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : tcst_fresh_seed();
    std::printf("hash_emulation: seed %llu\n", (unsigned long long)base_seed);
    tcs::device_info h100 = tcst::h100_like();
    run_suite(h100, "H100-like");
    tcs::device_info small = h100;
    small.smem_per_block_optin = 48 * 1024;
    small.smem_per_sm = 100 * 1024;
    run_suite(small, "48 KB shared memory");
    return tcst::finish("hash_emulation");
}
