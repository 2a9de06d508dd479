// The CSR family of SpMM (cpp/spmm/csr: row-split with its long rows and runs of rows,
// merge-path with its fix-up, CSR-vector, the transposed copy, the row-wise copies),
// unchanged, run on the CPU through the SIMT emulation of tests/emulation. What
// it checks is the index width: for fp32 and fp64, every algorithm, opA N and T, n from 1
// to 40, both index bases, B and C in either order, with and without preprocess, A with
// 64-bit offsets and columns gives bitwise the C of the same A with 32-bit ones, and both
// meet the double reference. SpMV with opA = T where atomics are allowed runs the
// scatter (scatter_column.cuh) without preprocess, over long rows, runs of empty rows
// and a lone long row, each width against the reference (its sums depend on the
// schedule), and the transposed copy with it. A row-major op(B) at n = 33-129 with
// leading dimensions beyond n: row-split's padded copy of it where padded_b_pays holds
// (and not where it does not), C's padding left unwritten. Timing, the memory model and the 16-bit
// types are the GPU tests' (gpu_spmm_csr, gpu_spmv).
#include "core/device.hpp"
#include "emulated_indices.hpp"
#include "emulation_check.hpp"
#include "simt.hpp"
#include "spmm/plan.hpp"
#include "spmm/csr/product.hpp"
#include "tcs_test_support.h"

#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

// Only the fp32 and fp64 launchers are compiled here.
namespace tcs::spmm::csr {
void multiply_f16(const product&) { emu::fail("fp16 SpMM is not emulated"); }
void multiply_bf16(const product&) { emu::fail("bf16 SpMM is not emulated"); }
}  // namespace tcs::spmm::csr

namespace {

using tcs::value_type;
namespace spmm = tcs::spmm;

using tcst::failures;
std::uint64_t seed = 1;

using buffer = tcst::poisoned_buffer;

struct config {
    bool dbl = false;
    bool trans_a = false;
    std::int64_t n = 8;
    int base = 0;
    bool b_row = true, c_row = true;
    spmm::csr_kernel alg = spmm::csr_kernel::automatic;
    bool preprocess = true;
    double beta = 0.0;
    bool atomics = false;  // SpMV with opA = T may scatter (problem::atomics)
    std::int64_t pad = 0;  // B's and C's leading dimensions: the least plus pad
    int padded = -1;       // row-split reads the padded copy of a row-major op(B) (1), or
                           // not (0), or either (-1): padded_rows_kernel's launches
};

double get(const void* p, std::size_t i, bool dbl) {
    return dbl ? static_cast<const double*>(p)[i] : double(static_cast<const float*>(p)[i]);
}
void put(void* p, std::size_t i, bool dbl, double v) {
    if (dbl)
        static_cast<double*>(p)[i] = v;
    else
        static_cast<float*>(p)[i] = float(v);
}

// C (its bytes) after one product with A's indices of the given width.
std::vector<unsigned char> multiply(const tcst_csr& a, const config& c, bool wide,
                                    const std::vector<double>& b, const std::vector<double>& c0,
                                    const tcs::device_info& dev, std::uint64_t schedule) {
    emu::set_seed(schedule);
    const std::size_t vs = c.dbl ? 8 : 4;
    const std::int64_t m = c.trans_a ? a.cols : a.rows, k = c.trans_a ? a.rows : a.cols, n = c.n;
    tcst::host_indices idx;
    spmm::problem p;
    idx.fill(a, c.base, wide, p.a);
    buffer val(std::size_t(a.nnz) * vs + 8);
    for (std::int64_t e = 0; e < a.nnz; ++e) put(val.get(), std::size_t(e), c.dbl, a.val[e]);
    p.a.rows = a.rows;
    p.a.cols = a.cols;
    p.a.nnz = a.nnz;
    p.a.values = val.get();
    p.a.type = c.dbl ? value_type::f64 : value_type::f32;
    p.a.base = c.base;
    p.trans_a = c.trans_a;
    // B and C with leading dimensions ldb, ldc (0xFF, NaN, between their rows or columns)
    const std::int64_t ldb = (c.b_row ? n : k) + c.pad, ldc = (c.c_row ? n : m) + c.pad;
    const std::size_t b_count = std::size_t(ldb * (c.b_row ? k : n));
    const std::size_t c_count = std::size_t(ldc * (c.c_row ? m : n));
    buffer bdev(b_count * vs);
    for (std::int64_t r = 0; r < k; ++r)
        for (std::int64_t j = 0; j < n; ++j)
            put(bdev.get(), std::size_t(c.b_row ? r * ldb + j : r + j * ldb), c.dbl, b[std::size_t(r * n + j)]);
    buffer cdev(c_count * vs);
    const auto c_at = [&](std::int64_t i, std::int64_t j) {
        return std::size_t(c.c_row ? i * ldc + j : i + j * ldc);
    };
    for (std::int64_t i = 0; i < m && c.beta != 0.0; ++i)
        for (std::int64_t j = 0; j < n; ++j) put(cdev.get(), c_at(i, j), c.dbl, c0[std::size_t(i * n + j)]);
    p.b = {k, n, ldb, bdev.get(), p.a.type, c.b_row};
    p.c = {m, n, ldc, cdev.get(), p.a.type, c.c_row};
    p.compute = p.a.type;
    double scalars[2] = {1.5, c.beta};
    float scalars_f[2] = {1.5f, float(c.beta)};
    p.alpha = {c.dbl ? static_cast<const void*>(&scalars[0]) : &scalars_f[0], false, p.compute};
    p.beta = {c.dbl ? static_cast<const void*>(&scalars[1]) : &scalars_f[1], false, p.compute};
    p.requested_kernel = c.alg;
    p.atomics = c.atomics;
    p.device = &dev;
    buffer work(spmm::csr_family_plan().buffer_size(p));
    spmm::analysis found;
    if (c.preprocess) found = spmm::csr_family_plan().preprocess(p, work.get());
    spmm::csr_family_plan().run(p, work.get(), c.preprocess, found);
    const auto* bytes = static_cast<const unsigned char*>(cdev.get());
    // C in row-major order with ld = n for the comparisons; C's padding must be untouched
    std::vector<unsigned char> out(std::size_t(m * n) * vs);
    std::vector<char> inside(c_count, 0);
    for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j) {
            std::memcpy(&out[std::size_t(i * n + j) * vs], bytes + c_at(i, j) * vs, vs);
            inside[c_at(i, j)] = 1;
        }
    std::size_t written = 0;
    for (std::size_t q = 0; q < c_count; ++q)
        for (std::size_t z = 0; z < vs && !inside[q]; ++z)
            if (bytes[q * vs + z] != 0xFF) {
                ++written;
                break;
            }
    if (written != 0) {
        std::fprintf(stderr, "FAILED: %zu elements of C's allocation, outside C, were written\n", written);
        ++failures;
    }
    return out;
}

const char* alg_name(spmm::csr_kernel a) {
    switch (a) {
    case spmm::csr_kernel::row_split: return "row-split";
    case spmm::csr_kernel::merge_path: return "merge-path";
    case spmm::csr_kernel::vector_rows: return "CSR-vector";
    default: return "automatic";
    }
}

bool check(const char* name, const tcst_csr& a0, const config& c, const tcs::device_info& dev) {
    std::printf("  %-22s %s %s op %c n=%lld base %d B %s C %s%s%s%s pad %lld\n", name,
                c.dbl ? "fp64" : "fp32", alg_name(c.alg), c.trans_a ? 'T' : 'N', (long long)c.n, c.base,
                c.b_row ? "row" : "col", c.c_row ? "row" : "col", c.beta != 0.0 ? " beta" : "",
                c.preprocess ? "" : " no-preprocess", c.atomics ? " atomics" : "", (long long)c.pad);
    std::fflush(stdout);
    tcst_csr a;
    if (tcst_csr_copy(&a0, &a) != 0) std::abort();
    if (!c.dbl)
        for (std::int64_t e = 0; e < a.nnz; ++e) a.val[e] = double(float(a.val[e]));
    const std::int64_t m = c.trans_a ? a.cols : a.rows, k = c.trans_a ? a.rows : a.cols, n = c.n;
    tcst_rng rng;
    tcst_rng_seed(&rng, seed * 131 + std::uint64_t(n));
    std::vector<double> b(std::size_t(k * n)), c0(std::size_t(m * n));
    for (auto& x : b) x = c.dbl ? tcst_rng_symmetric(&rng) : double(float(tcst_rng_symmetric(&rng)));
    for (auto& x : c0) x = c.dbl ? tcst_rng_symmetric(&rng) : double(float(tcst_rng_symmetric(&rng)));
    std::vector<double> ref(std::size_t(m * n), 0.0), mag(ref.size(), 0.0);
    for (std::int64_t i = 0; i < a.rows; ++i)
        for (int e = a.row_ptr[i]; e < a.row_ptr[i + 1]; ++e) {
            const std::int64_t row = c.trans_a ? a.col_idx[e] : i, kk = c.trans_a ? i : a.col_idx[e];
            for (std::int64_t j = 0; j < n; ++j) {
                const double t = a.val[e] * b[std::size_t(kk * n + j)];
                ref[std::size_t(row * n + j)] += t;
                mag[std::size_t(row * n + j)] += std::fabs(t);
            }
        }
    // The scatter runs where atomics are allowed and A was not preprocessed (below 4 Mi
    // nonzeros, csr_spmm.cu): its sums depend on the schedule, so both widths are checked
    // against the reference instead of against each other.
    const bool scatters = c.atomics && c.trans_a && n == 1 && !c.preprocess && a.nnz > 0;
    const long scatters_before = emu::launches_of("scatter_column_kernel");
    const long padded_before = emu::launches_of("padded_rows_kernel");
    const auto narrow = multiply(a, c, false, b, c0, dev, seed * 31 + 1);
    const auto wide = multiply(a, c, true, b, c0, dev, seed * 31 + 2);
    const long scattered = emu::launches_of("scatter_column_kernel") - scatters_before;
    const long padded = emu::launches_of("padded_rows_kernel") - padded_before;
    const double tol = c.dbl ? 1e-12 : 1e-5;
    auto meets_reference = [&](const std::vector<unsigned char>& got, const char* width) {
        for (std::size_t i = 0; i < ref.size(); ++i) {
            const double want = 1.5 * ref[i] + (c.beta != 0.0 ? c.beta * c0[i] : 0.0);
            const double bound = 1.5 * mag[i] + std::fabs(c.beta * c0[i]);
            if (std::fabs(get(got.data(), i, c.dbl) - want) > tol * bound + 1e-300) {
                std::fprintf(stderr, "    %s indices: C[%zu] = %.17g, reference %.17g\n", width, i,
                             get(got.data(), i, c.dbl), want);
                return false;
            }
        }
        return true;
    };
    const bool wide_close = meets_reference(wide, "64-bit");
    const bool narrow_close = !scatters || meets_reference(narrow, "32-bit");
    tcst_csr_free(&a);
    CHECK(wide_close, "%s: 64-bit indices: C differs from the reference", name);
    CHECK(narrow_close, "%s: 32-bit indices: C differs from the reference", name);
    CHECK(scattered == (scatters ? 2 : 0), "%s: the scatter ran %ld times, expected %d", name,
          scattered, scatters ? 2 : 0);
    CHECK(scatters || narrow == wide, "%s: 64-bit indices give another C than 32-bit ones", name);
    CHECK(c.padded < 0 || (padded > 0) == (c.padded > 0),
          "%s: the padded copy of op(B) ran %ld times, expected %s", name, padded,
          c.padded > 0 ? "in both runs" : "never");
    return true;
}

// Rows of 0..max_len entries, every long_every-th row long_len long: the long-row lists
// of row-split and the fix-up of merge-path have work.
tcst_csr mixed(std::int64_t rows, std::int64_t cols, int max_len, int long_every, int long_len,
               std::uint64_t s) {
    tcst_rng r;
    tcst_rng_seed(&r, s);
    std::vector<int> len(static_cast<std::size_t>(rows));
    std::int64_t nnz = 0;
    for (std::int64_t i = 0; i < rows; ++i) {
        len[std::size_t(i)] = i % long_every == 3 ? long_len : int(tcst_rng_below(&r, std::uint64_t(max_len + 1)));
        nnz += len[std::size_t(i)];
    }
    tcst_csr m;
    if (tcst_csr_alloc(&m, rows, cols, nnz) != 0) std::abort();
    std::vector<int> pool(static_cast<std::size_t>(cols));
    for (std::int64_t j = 0; j < cols; ++j) pool[std::size_t(j)] = int(j);
    for (std::int64_t i = 0; i < rows; ++i) {
        const int start = m.row_ptr[i];
        for (int e = 0; e < len[std::size_t(i)]; ++e) {
            const int pick = e + int(tcst_rng_below(&r, std::uint64_t(cols - e)));
            std::swap(pool[std::size_t(e)], pool[std::size_t(pick)]);
            m.col_idx[start + e] = pool[std::size_t(e)];
            m.val[start + e] = tcst_rng_symmetric(&r);
        }
        m.row_ptr[i + 1] = start + len[std::size_t(i)];
    }
    return m;
}

// The size query (issue 38, item 7): C's columns are bounded (2^31, as A's sizes are) and
// every size product is checked, so that no n makes the buffer's bytes wrap to a small
// SUCCESS. Sizes only: nothing is read from the fake arrays.
void check_buffer_bounds(const tcs::device_info& dev) {
    std::printf("  buffer bounds\n");
    const spmm::csr_kernel algs[] = {spmm::csr_kernel::merge_path, spmm::csr_kernel::row_split,
                                    spmm::csr_kernel::automatic};
    for (spmm::csr_kernel alg : algs)
        for (int trans = 0; trans < 2; ++trans) {
            const std::int64_t ns[] = {std::int64_t(1) << 62, std::int64_t(1) << 31,
                                       std::int64_t(INT_MAX), std::int64_t(INT_MAX) - 1};
            for (std::int64_t n : ns) {
                spmm::problem p;
                p.a.rows = 70000;
                p.a.cols = 50000;
                p.a.nnz = 900000;
                p.a.row_ptr = reinterpret_cast<void*>(std::uintptr_t(0x10000));
                p.a.col_idx = reinterpret_cast<void*>(std::uintptr_t(0x20000));
                p.a.values = reinterpret_cast<void*>(std::uintptr_t(0x30000));
                p.a.type = value_type::f32;
                p.trans_a = trans != 0;
                const std::int64_t m = trans ? p.a.cols : p.a.rows, k = trans ? p.a.rows : p.a.cols;
                p.b = {k, n, k, reinterpret_cast<void*>(std::uintptr_t(0x40000)), p.a.type, false};
                p.c = {m, n, m, reinterpret_cast<void*>(std::uintptr_t(0x50000)), p.a.type, false};
                p.compute = p.a.type;
                p.requested_kernel = alg;
                p.device = &dev;
                std::size_t bytes = 0;
                tcs::errc code = tcs::errc(0);
                try {
                    bytes = spmm::csr_family_plan().buffer_size(p);
                } catch (const tcs::error& e) {
                    code = e.code();
                }
                const bool bounded = n >= INT_MAX;
                // Merge-path keeps a record of n accumulators per segment: at least n * 4
                // bytes, never a wrapped count. (Row-split takes so wide a C 32 columns
                // at a time: its copies are those of 32 columns.)
                const bool ok = bounded ? code == tcs::errc::insufficient_resources
                                        : code == tcs::errc(0) &&
                                              (alg != spmm::csr_kernel::merge_path ||
                                               bytes >= std::size_t(n) * 4);
                if (!ok) {
                    std::printf("FAIL buffer bounds: %s op %c n=%lld: status %d, %zu bytes\n",
                                alg_name(alg), trans ? 'T' : 'N', (long long)n, int(code), bytes);
                    ++failures;
                }
            }
        }
}

void run_suite(const tcs::device_info& dev) {
    check_buffer_bounds(dev);
    tcst_csr a = mixed(300, 260, 9, 61, 250, seed);
    tcst_csr runs;  // consecutive rows with one pattern: row-split's windows of runs
    if (tcst_gen_stencil27(5, 5, 4, 4, seed + 1, &runs) != 0) std::abort();
    const spmm::csr_kernel algs[] = {spmm::csr_kernel::row_split, spmm::csr_kernel::merge_path,
                                    spmm::csr_kernel::automatic};
    const std::int64_t ns[] = {1, 8, 40};
    int count = 0;
    for (int dbl = 0; dbl < 2; ++dbl)
        for (int ta = 0; ta < 2; ++ta)
            for (std::int64_t n : ns)
                for (spmm::csr_kernel alg : algs) {
                    config c;
                    c.dbl = dbl;
                    c.trans_a = ta;
                    c.n = n;
                    c.alg = alg;
                    c.base = count % 2;
                    c.b_row = (count / 2) % 2 == 0;
                    c.c_row = (count / 3) % 2 == 0;
                    c.preprocess = count % 5 != 4;
                    c.beta = count % 3 == 1 ? -0.5 : 0.0;
                    check("mixed rows", a, c, dev);
                    ++count;
                }
    for (int dbl = 0; dbl < 2; ++dbl) {
        config c;
        c.dbl = dbl;
        c.n = dbl ? 24 : 40;  // runs need 16 or more column lanes
        c.alg = spmm::csr_kernel::row_split;
        c.base = 1;
        check("runs of rows", runs, c, dev);
    }
    // A row-major op(B) whose n is no multiple of the vector (4 fp32, 2 fp64): row-split
    // reads its padded copy where rules.hpp's padded_b_pays holds (rows of op(B) read by 4
    // nonzeros or more on average, 2^22 products or more), rows of 300 nonzeros among
    // them (the long-row blocks read the copy too), B and C with ld beyond n. Not where
    // op(B)'s rows are read too rarely (A^T of the same shape's transpose: k = 30000 rows
    // for about 85k nonzeros) nor below 2^22 products (n = 33).
    {
        tcst_csr dense_rows = mixed(3000, 600, 50, 97, 300, seed + 4);
        tcst_csr sparse_rows = mixed(3000, 30000, 50, 97, 300, seed + 5);
        struct {
            const tcst_csr* a;
            bool dbl, trans_a, c_row, preprocess;
            std::int64_t n, pad;
            spmm::csr_kernel alg;
            double beta;
            int padded;
        } cases[] = {
            {&dense_rows, false, false, true, true, 65, 3, spmm::csr_kernel::automatic, -0.5, 1},
            {&dense_rows, true, false, false, false, 65, 0, spmm::csr_kernel::row_split, 0.0, 1},
            {&dense_rows, false, true, true, true, 129, 1, spmm::csr_kernel::automatic, 0.0, 1},
            {&dense_rows, true, false, true, true, 129, 5, spmm::csr_kernel::row_split, 1.0, 1},
            {&dense_rows, false, false, true, true, 33, 3, spmm::csr_kernel::automatic, 0.0, 0},
            {&sparse_rows, false, false, true, true, 129, 3, spmm::csr_kernel::automatic, -0.5, 0},
            {&dense_rows, false, false, true, true, 64, 3, spmm::csr_kernel::automatic, 0.0, 0},
        };
        for (const auto& k : cases) {
            config c;
            c.dbl = k.dbl;
            c.trans_a = k.trans_a;
            c.n = k.n;
            c.alg = k.alg;
            c.base = int(k.n % 2);
            c.b_row = true;
            c.c_row = k.c_row;
            c.preprocess = k.preprocess;
            c.beta = k.beta;
            c.pad = k.pad;
            c.padded = k.padded;
            check("row-major B, padded", *k.a, c, dev);
        }
        tcst_csr_free(&sparse_rows);
        tcst_csr_free(&dense_rows);
    }
    // SpMV with opA = T where atomics are allowed: the scatter without preprocess (warps
    // over long rows, and over runs of empty rows), the transposed copy after it.
    tcst_csr hollow = mixed(600, 300, 1, 149, 290, seed + 2);
    tcst_csr lone = mixed(4, 2000, 0, 4, 1500, seed + 3);  // three empty rows, one of 1500
    const tcst_csr* scattered[] = {&a, &hollow, &runs, &lone};
    const char* names[] = {"scatter, mixed rows", "scatter, empty rows", "scatter, stencil",
                           "scatter, one long row"};
    for (int m = 0; m < 4; ++m)
        for (int dbl = 0; dbl < 2; ++dbl)
            for (int pre = 0; pre < 2; ++pre) {
                config c;
                c.dbl = dbl;
                c.trans_a = true;
                c.n = 1;
                c.atomics = true;
                c.preprocess = pre != 0;
                c.base = (m + dbl) % 2;
                c.beta = (m + pre) % 3 == 0 ? 0.0 : (m + pre) % 3 == 1 ? -0.5 : 1.0;
                check(names[m], *scattered[m], c, dev);
            }
    tcst_csr_free(&lone);
    tcst_csr_free(&hollow);
    tcst_csr_free(&a);
    tcst_csr_free(&runs);
}

}  // namespace

int main(int argc, char** argv) {
    const char* env = std::getenv("TCST_SEED");
    seed = env != nullptr ? std::strtoull(env, nullptr, 10) : tcst_fresh_seed();
    if (argc > 1) seed = std::strtoull(argv[1], nullptr, 10);
    std::printf("csr_emulation: seed %llu (TCST_SEED=%llu reproduces)\n", (unsigned long long)seed,
                (unsigned long long)seed);
    const tcs::device_info h100 = tcst::h100_like();
    run_suite(h100);
    return tcst::finish("csr_emulation");
}
