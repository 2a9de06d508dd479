// The CSR family of SpMM (cpp/spmm/csr: row-split with its long rows and runs of rows,
// merge-path with its fix-up, CSR-vector, the transposed copy, the row-wise copies),
// unchanged, run on the CPU through the SIMT emulation of tests/emulation. What
// it checks is the index width: for fp32 and fp64, every algorithm, opA N and T, n from 1
// to 40, both index bases, B and C in either order, with and without preprocess, A with
// 64-bit offsets and columns gives bitwise the C of the same A with 32-bit ones, and both
// meet the double reference. Merge-path (its tiles staged in shared memory, the carries
// between their groups and the fix-up between tiles) also runs on hub rows longer than a
// tile, more than a tile of empty rows in a row and a single row, n = 1 to 512, and
// gives bitwise the same C with and without preprocess. SpMV with opA = T where atomics
// are allowed runs the scatter (scatter_column.cuh) without preprocess, over long rows,
// runs of empty rows and a lone long row, each width against the reference (its sums
// depend on the schedule), and the transposed copy with it; without atomics the
// one-column kernel reads A's values in place through the copy's permutation, bitwise as
// over the host's A^T. From 4 Mi nonzeros with atomics, after preprocess: the copy on a
// band (bitwise CSR_ALG2's y, no scatter), the scatter on uniform random rows, and the
// count behind that choice (count_local_entries) against the host's on small matrices.
// CSR-vector (column-major B, n = 2 to 16: DEFAULT's at n = 2, requested beyond) on hub
// rows among short
// ones: its long rows' kernel over the lists (warps, blocks, very long rows in parts),
// each call also made the other way (with or without preprocess) and bitwise the same.
// A row-major op(B) at n = 33-129 with leading dimensions beyond n: row-split's padded
// copy of it where padded_b_pays holds (and not where it does not), C's padding left
// unwritten. Timing, the memory model and the 16-bit types are the GPU tests'
// (gpu_spmm_csr, gpu_spmv).
#include "core/device.hpp"
#include "emulated_indices.hpp"
#include "emulation_check.hpp"
#include "simt.hpp"
#include "spmm/plan.hpp"
#include "spmm/csr/product.hpp"
#include "spmm/csr/rules.hpp"
#include "spmm/csr/transpose.hpp"
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
    bool both_ways = false;  // also with preprocess if not, without if so: bitwise the same C
    bool long_rows = false;  // CSR-vector's long rows' kernel must run in every call
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
    const long merges_before = emu::launches_of("merge_path_kernel");
    const long long_before = emu::launches_of("vector_long_rows_kernel");
    const long padded_before = emu::launches_of("padded_rows_kernel");
    const auto narrow = multiply(a, c, false, b, c0, dev, seed * 31 + 1);
    const auto wide = multiply(a, c, true, b, c0, dev, seed * 31 + 2);
    const long scattered = emu::launches_of("scatter_column_kernel") - scatters_before;
    const long merged = emu::launches_of("merge_path_kernel") - merges_before;
    const long padded = emu::launches_of("padded_rows_kernel") - padded_before;
    std::vector<unsigned char> other = narrow;
    if (c.both_ways) {
        config o = c;
        o.preprocess = !c.preprocess;
        other = multiply(a, o, false, b, c0, dev, seed * 31 + 3);
    }
    const long long_runs = emu::launches_of("vector_long_rows_kernel") - long_before;
    const int calls = c.both_ways ? 3 : 2;
    // Merge-path: the partition preprocess caches gives bitwise the C of a call without it.
    const bool merge = c.alg == spmm::csr_kernel::merge_path && m > 0 && n > 0 && a.nnz > 0 && k > 0;
    bool plain_same = true;
    if (merge) {
        config o = c;
        o.preprocess = !c.preprocess;
        plain_same = multiply(a, o, false, b, c0, dev, seed * 31 + 3) == narrow;
    }
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
    CHECK(other == narrow, "%s: %s preprocess gives another C than %s", name,
          c.preprocess ? "without" : "with", c.preprocess ? "with" : "without");
    CHECK(!c.long_rows || long_runs == calls, "%s: the long rows' kernel ran %ld times, expected %d",
          name, long_runs, calls);
    CHECK(!merge || merged == 2, "%s: merge_path_kernel ran %ld times, expected 2", name, merged);
    CHECK(plain_same, "%s: merge-path with and without preprocess differ bitwise", name);
    CHECK(c.padded < 0 || (padded > 0) == (c.padded > 0),
          "%s: the padded copy of op(B) ran %ld times, expected %s", name, padded,
          c.padded > 0 ? "in both runs" : "never");
    return true;
}

// SpMV with opA = T without atomics (CSR_ALG2): the one-column kernel reads A's values in
// place through the transposed copy's permutation (rules.hpp, reads_transpose_in_place),
// with no gather, and gives bitwise the y of opA = N over A^T formed on the host, each of
// its rows in ascending rows of A as the copy's are: the sums of a copy with the values
// gathered into it. SpMM at n = 2 over the same A still gathers (a check that the
// gathers are counted).
bool check_in_place(const char* name, const tcst_csr& a0, bool dbl, int base, bool preprocess,
                    double beta, const tcs::device_info& dev) {
    std::printf("  %-22s %s op T n=1 base %d%s%s\n", name, dbl ? "fp64" : "fp32", base,
                beta != 0.0 ? " beta" : "", preprocess ? "" : " no-preprocess");
    std::fflush(stdout);
    tcst_csr at;
    if (tcst_csr_transpose(&a0, &at) != 0) std::abort();
    tcst_rng rng;
    tcst_rng_seed(&rng, seed * 137 + std::uint64_t(base));
    std::vector<double> b(std::size_t(a0.rows) * 2), c0(std::size_t(a0.cols) * 2);
    for (auto& x : b) x = tcst_rng_symmetric(&rng);
    for (auto& x : c0) x = tcst_rng_symmetric(&rng);
    config t;
    t.dbl = dbl;
    t.trans_a = true;
    t.n = 1;
    t.base = base;
    t.preprocess = preprocess;
    t.beta = beta;
    config n = t;
    n.trans_a = false;
    const long gathers_before = emu::launches_of("gather");
    const auto in_place = multiply(a0, t, false, b, c0, dev, seed * 37 + 1);
    const long gathered = emu::launches_of("gather") - gathers_before;
    const auto direct = multiply(at, n, false, b, c0, dev, seed * 37 + 2);
    config wide = t;
    wide.n = 2;
    const long wide_before = emu::launches_of("gather");
    multiply(a0, wide, false, b, c0, dev, seed * 37 + 3);
    const long wide_gathered = emu::launches_of("gather") - wide_before;
    tcst_csr_free(&at);
    CHECK(gathered == 0, "%s: op T at n = 1 gathered A's values %ld times", name, gathered);
    CHECK(wide_gathered == (a0.nnz > 0 ? 1 : 0), "%s: op T at n = 2 gathered %ld times", name,
          wide_gathered);
    CHECK(in_place == direct, "%s: op T in place differs from op N over the host's transpose", name);
    return true;
}

// The count behind copy_reads_locally (rules.hpp): the transposed copy built on the
// emulation, count_local_entries over it at span limits from 0 to past nnz, against the
// count on the host (windows of kLocalWindowRows columns of A, the span of their entries'
// positions in A).
bool check_local_count(const char* name, const tcst_csr& a0, bool wide, int base) {
    std::printf("  %-22s local windows of A^T, %s indices, base %d\n", name, wide ? "64-bit" : "32-bit", base);
    std::fflush(stdout);
    tcst::host_indices idx;
    tcs::csr_view a;
    idx.fill(a0, base, wide, a);
    a.rows = a0.rows;
    a.cols = a0.cols;
    a.nnz = a0.nnz;
    a.type = value_type::f32;
    a.base = base;
    tcs::carver kept_size, scratch_size;
    tcs::spmm::csr::carve_transposed(a, false, kept_size, scratch_size);
    buffer kept_bytes(kept_size.bytes()), scratch_bytes(scratch_size.bytes() + 8);
    buffer counter(sizeof(unsigned long long));
    tcs::carver kept(kept_bytes.get()), scratch(scratch_bytes.get());
    const auto t = tcs::spmm::csr::carve_transposed(a, false, kept, scratch);
    tcs::spmm::csr::build_transposed_structure(a, t, nullptr);
    std::vector<std::int64_t> first(std::size_t(a0.cols), -1), last(std::size_t(a0.cols), -1);
    std::vector<std::int64_t> count(std::size_t(a0.cols), 0);
    for (std::int64_t i = 0; i < a0.rows; ++i)
        for (int e = a0.row_ptr[i]; e < a0.row_ptr[i + 1]; ++e) {
            const std::size_t j = std::size_t(a0.col_idx[e]);
            if (first[j] < 0) first[j] = e;
            last[j] = e;
            ++count[j];
        }
    const std::int64_t limits[] = {0, 5, 40, 300, a0.nnz / 3, a0.nnz};
    for (std::int64_t limit : limits) {
        std::int64_t want = 0;
        for (std::int64_t w = 0; w < a0.cols; w += tcs::spmm::csr::kLocalWindowRows) {
            std::int64_t lo = -1, hi = -1, entries = 0;
            for (std::int64_t j = w; j < a0.cols && j < w + tcs::spmm::csr::kLocalWindowRows; ++j)
                if (count[std::size_t(j)] > 0) {
                    lo = lo < 0 ? first[std::size_t(j)] : std::min(lo, first[std::size_t(j)]);
                    hi = std::max(hi, last[std::size_t(j)]);
                    entries += count[std::size_t(j)];
                }
            if (entries > 0 && hi - lo <= limit) want += entries;
        }
        unsigned long long* got = static_cast<unsigned long long*>(counter.get());
        *got = 0;
        tcs::spmm::csr::count_local_entries(a, t, limit, got, nullptr);
        CHECK(std::int64_t(*got) == want, "%s: span limit %lld: %llu local entries, the host counts %lld",
              name, (long long)limit, *got, (long long)want);
    }
    return true;
}

// SpMV with opA = T where atomics are allowed, from kScatterMinNonzeros (csr_spmm.cu):
// after preprocess the transposed copy where its windows of rows read A close together
// (a band: bitwise the y of CSR_ALG2, no scatter), the scatter where they do not (uniform
// random rows: within the reference); both within the reference.
bool check_large_transpose(const char* name, const tcst_csr& a, bool local, const tcs::device_info& dev) {
    std::printf("  %-22s fp32 op T n=1 atomics, %lld nonzeros, preprocess: %s expected\n", name,
                (long long)a.nnz, local ? "the copy" : "the scatter");
    std::fflush(stdout);
    if (a.nnz < tcs::spmm::csr::kScatterMinNonzeros) std::abort();
    tcst_rng rng;
    tcst_rng_seed(&rng, seed * 139);
    std::vector<double> x(std::size_t(a.rows)), y0(std::size_t(a.cols));
    for (auto& v : x) v = double(float(tcst_rng_symmetric(&rng)));
    for (auto& v : y0) v = double(float(tcst_rng_symmetric(&rng)));
    config c;
    c.trans_a = true;
    c.n = 1;
    c.atomics = true;
    c.beta = -0.5;
    const long scatters_before = emu::launches_of("scatter_column_kernel");
    const long counts_before = emu::launches_of("local_entries_kernel");
    const auto got = multiply(a, c, false, x, y0, dev, seed * 41 + 1);
    const long scattered = emu::launches_of("scatter_column_kernel") - scatters_before;
    const long counted = emu::launches_of("local_entries_kernel") - counts_before;
    std::vector<double> ref(std::size_t(a.cols), 0.0), mag(ref.size(), 0.0);
    for (std::int64_t i = 0; i < a.rows; ++i)
        for (int e = a.row_ptr[i]; e < a.row_ptr[i + 1]; ++e) {
            const double t = double(float(a.val[e])) * x[std::size_t(i)];
            ref[std::size_t(a.col_idx[e])] += t;
            mag[std::size_t(a.col_idx[e])] += std::fabs(t);
        }
    std::size_t off = 0;
    for (std::size_t j = 0; j < ref.size(); ++j) {
        const double want = 1.5 * ref[j] - 0.5 * y0[j];
        if (std::fabs(get(got.data(), j, false) - want) > 1e-5 * (1.5 * mag[j] + 0.5 * std::fabs(y0[j])) + 1e-300)
            ++off;
    }
    CHECK(off == 0, "%s: %zu elements of y differ from the reference", name, off);
    CHECK(counted == 1, "%s: preprocess counted the local entries %ld times, expected once", name, counted);
    CHECK(scattered == (local ? 0 : 1), "%s: the scatter ran %ld times, expected %d", name, scattered,
          local ? 0 : 1);
    if (local) {
        config deterministic = c;
        deterministic.atomics = false;  // CSR_ALG2: the same copy, the same sums
        CHECK(multiply(a, deterministic, false, x, y0, dev, seed * 41 + 2) == got,
              "%s: the copy's y differs from CSR_ALG2's", name);
    }
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

// Row-split's passes over C's columns (issue 37, the width cliff), planned from sizes
// alone (no array is read): where the copies of all n columns pass kCopyBudgetBytes
// (128 MiB: a 1M x 1M A with 9 nonzeros a row, op(B) of 1M rows), passes of
// kChunkColumns = 32 columns on the geometry of 32, then a last pass of n % 32 columns
// on a geometry of its own (one column: the one-column kernel), copying op(B) only
// where that width gains from it; the buffer is the one of 32 columns whatever n. Below
// the budget, or at a multiple of the vector (no copy), one pass. CSR-vector only at
// n = 2 (kVectorRowsMaxColumns): no row-split pass there, row-split from n = 3.
void check_passes(const tcs::device_info& dev) {
    std::printf("  column passes\n");
    struct expect {
        bool dbl, b_row, c_row;
        std::int64_t rows, nnz, n;
        std::vector<std::int64_t> widths;  // of the passes, in order
        std::vector<int> lanes;            // column lanes of each (0: the one-column kernel)
        std::vector<int> copies_b;         // whether each copies op(B)
    };
    const std::int64_t big = 1000000, big_nnz = 9 * big;
    const expect cases[] = {
        {false, true, true, big, big_nnz, 32, {32}, {8}, {0}},
        {false, true, true, big, big_nnz, 33, {32, 1}, {8, 0}, {1, 0}},
        {false, true, true, big, big_nnz, 35, {32, 3}, {8, 1}, {1, 0}},
        {false, true, true, big, big_nnz, 37, {32, 5}, {8, 2}, {1, 1}},
        {false, true, true, big, big_nnz, 36, {36}, {16}, {0}},
        {false, true, true, big, big_nnz, 65, {32, 32, 1}, {8, 8, 0}, {1, 1, 0}},
        {false, true, true, big, big_nnz, 129, {32, 32, 32, 32, 1}, {8, 8, 8, 8, 0}, {1, 1, 1, 1, 0}},
        {false, true, true, big, big_nnz, 50, {32, 18}, {8, 8}, {1, 1}},
        {true, true, true, big, big_nnz, 33, {32, 1}, {16, 0}, {1, 0}},
        {true, true, true, big, big_nnz, 35, {32, 3}, {16, 2}, {1, 1}},
        {false, false, false, big, big_nnz, 33, {32, 1}, {8, 0}, {1, 0}},
        {false, false, false, big, big_nnz, 40, {32, 8}, {8, 2}, {1, 1}},
        {false, false, false, big, big_nnz, 2, {}, {}, {}},
        {false, false, false, big, big_nnz, 3, {3}, {1}, {1}},
        {false, true, true, 16129, 253009, 33, {33}, {16}, {1}},
    };
    for (const expect& e : cases) {
        spmm::problem p;
        p.a.rows = e.rows;
        p.a.cols = e.rows;
        p.a.nnz = e.nnz;
        p.a.row_ptr = reinterpret_cast<void*>(std::uintptr_t(0x10000));
        p.a.col_idx = reinterpret_cast<void*>(std::uintptr_t(0x20000));
        p.a.values = reinterpret_cast<void*>(std::uintptr_t(0x30000));
        p.a.type = e.dbl ? value_type::f64 : value_type::f32;
        p.b = {e.rows, e.n, e.b_row ? e.n : e.rows, reinterpret_cast<void*>(std::uintptr_t(0x40000)),
               p.a.type, e.b_row};
        p.c = {e.rows, e.n, e.c_row ? e.n : e.rows, reinterpret_cast<void*>(std::uintptr_t(0x50000)),
               p.a.type, e.c_row};
        p.compute = p.a.type;
        p.device = &dev;
        const std::vector<tcs::spmm::csr::column_pass> passes = tcs::spmm::csr::column_passes(p);
        bool ok = passes.size() == e.widths.size();
        std::int64_t first = 0;
        for (std::size_t i = 0; ok && i < passes.size(); ++i) {
            const auto& c = passes[i];
            const int lanes = c.geo.single ? 0 : c.geo.lanes;
            ok = c.first == first && c.width == e.widths[i] && lanes == e.lanes[i] &&
                 c.copies_b == (e.copies_b[i] != 0) && (!c.copies_c || !e.c_row);
            first += c.width;
        }
        if (!ok) {
            std::printf("FAIL column passes: %s B %s n=%lld rows %lld:", e.dbl ? "fp64" : "fp32",
                        e.b_row ? "row" : "col", (long long)e.n, (long long)e.rows);
            for (const auto& c : passes)
                std::printf(" [%lld+%lld lanes %d%s%s%s]", (long long)c.first, (long long)c.width,
                            c.geo.lanes, c.geo.single ? " single" : "", c.copies_b ? " copy B" : "",
                            c.copies_c ? " copy C" : "");
            std::printf("\n");
            ++failures;
        }
        // The buffer of a capped product holds the copies of one pass of 32 columns:
        // the same at n = 33 and 65 (the last pass's copies are never larger).
        if (e.n == 65) {
            p.b.cols = p.c.cols = 33;
            p.b.ld = p.c.ld = 33;
            const std::size_t at33 = spmm::csr_family_plan().buffer_size(p);
            p.b.cols = p.c.cols = 65;
            p.b.ld = p.c.ld = 65;
            const std::size_t at65 = spmm::csr_family_plan().buffer_size(p);
            if (at33 != at65) {
                std::printf("FAIL column passes: buffer %zu bytes at n = 33, %zu at 65\n", at33, at65);
                ++failures;
            }
        }
    }
}

// The passes of a capped product run (check_passes plans them): a column-major op(B) of
// 940000 rows whose row-wise copy of all n columns passes 128 MiB (at n = 33 in fp32:
// 135 MB), under 200 rows of A with three of 250 nonzeros (long rows). Passes of 32
// columns read the copy; the last pass has its own geometry: at n = 33 the one-column
// kernel on column 32 of B as it is, at n = 37 (fp32) and 35 (fp64) a copy of its 5 or
// 3 columns and groups of two column lanes. Each call also made the other way (with or
// without preprocess) and bitwise the same, both index widths, against the reference.
bool check_capped_passes(const tcs::device_info& dev) {
    tcst_csr a = mixed(200, 940000, 9, 61, 250, seed + 9);
    struct {
        bool dbl, c_row, preprocess;
        std::int64_t n;
        long single, copies;  // one-column launches and copies of op(B) expected per call
    } cases[] = {{false, true, true, 33, 1, 1}, {false, false, false, 37, 0, 2}, {true, true, false, 35, 0, 2}};
    for (const auto& k : cases) {
        config c;
        c.dbl = k.dbl;
        c.n = k.n;
        c.b_row = false;
        c.c_row = k.c_row;
        c.base = int(k.n % 2);
        c.beta = k.c_row ? 0.0 : -0.5;
        c.preprocess = k.preprocess;
        c.both_ways = true;
        const long single_before = emu::launches_of("single_column_kernel");
        const long copies_before = emu::launches_of("rowwise_kernel");
        check("capped passes", a, c, dev);
        const long single = emu::launches_of("single_column_kernel") - single_before;
        const long copies = emu::launches_of("rowwise_kernel") - copies_before;
        CHECK(single == 3 * k.single, "capped passes n=%lld: the one-column kernel ran %ld times, expected %ld",
              (long long)k.n, single, 3 * k.single);
        CHECK(copies == 3 * k.copies, "capped passes n=%lld: op(B) copied %ld times, expected %ld",
              (long long)k.n, copies, 3 * k.copies);
    }
    tcst_csr_free(&a);
    return true;
}

// Rows given by length: runs of empty rows between hub rows and short ones.
tcst_csr with_lengths(const std::vector<int>& len, std::int64_t cols, std::uint64_t s) {
    tcst_rng r;
    tcst_rng_seed(&r, s);
    std::int64_t nnz = 0;
    for (int l : len) nnz += l;
    tcst_csr m;
    if (tcst_csr_alloc(&m, std::int64_t(len.size()), cols, nnz) != 0) std::abort();
    std::vector<int> pool(static_cast<std::size_t>(cols));
    for (std::int64_t j = 0; j < cols; ++j) pool[std::size_t(j)] = int(j);
    for (std::size_t i = 0; i < len.size(); ++i) {
        const int start = m.row_ptr[i];
        for (int e = 0; e < len[i]; ++e) {
            const int pick = e + int(tcst_rng_below(&r, std::uint64_t(cols - e)));
            std::swap(pool[std::size_t(e)], pool[std::size_t(pick)]);
            m.col_idx[start + e] = pool[std::size_t(e)];
            m.val[start + e] = tcst_rng_symmetric(&r);
        }
        m.row_ptr[i + 1] = start + len[i];
    }
    return m;
}

void check_merge_tiles(const tcs::device_info& dev) {
    // 2500 empty rows (more than a tile's 1024 items at n = 1), hub rows of 3000 and 2100
    // nonzeros, short rows around them, an empty last row.
    std::vector<int> len;
    for (int i = 0; i < 300; ++i) len.push_back(i % 7 == 2 ? 0 : 1 + i % 5);
    len.push_back(3000);
    for (int i = 0; i < 2500; ++i) len.push_back(0);
    len.push_back(2100);
    len.push_back(4);
    for (int i = 0; i < 200; ++i) len.push_back(i % 3);
    len.push_back(0);
    tcst_csr hubs = with_lengths(len, 3200, seed + 7);
    tcst_csr single = with_lengths({2900}, 3000, seed + 8);
    const tcst_csr* mats[] = {&hubs, &single};
    const char* names[] = {"merge, hubs and gaps", "merge, one row"};
    const std::int64_t ns[] = {1, 2, 8, 33, 128, 512};
    int count = 0;
    for (int mi = 0; mi < 2; ++mi)
        for (std::int64_t n : ns)
            for (int dbl = 0; dbl < 2; ++dbl, ++count) {
                if (n == 512 && dbl == 0 && mi == 1) continue;  // the widest only once per matrix
                config c;
                c.dbl = dbl;
                c.n = n;
                c.alg = spmm::csr_kernel::merge_path;
                c.trans_a = mi == 0 && count % 3 == 2;
                c.base = count % 2;
                c.b_row = count % 4 != 3;
                c.c_row = count % 5 != 4;
                c.preprocess = count % 2 == 0;
                c.beta = count % 3 == 1 ? 0.25 : 0.0;
                check(names[mi], *mats[mi], c, dev);
            }
    tcst_csr_free(&single);
    tcst_csr_free(&hubs);
}

// CSR-vector (the automatic rule's kernel for a column-wise op(B) at n = 2, requested
// directly at n = 3 to 16, which DEFAULT now gives row-split) on hub rows among short ones (vector_rows.cuh, plan_vector_long_rows in geometry.hpp):
// the groups skip the rows beyond the plan's threshold and the long rows' kernel sums
// them from the lists, the same whether preprocess or the call itself listed them.
// B column-major; C either way, base, beta and preprocess rotate; fp32 and fp64; both
// index widths (check). The matrices, on the emulation's two SMs:
//   - five rows of 2500 among rows of 0..6: very long rows (tier 1), in parts where a
//     row has at most two slabs of V columns (fp32 n <= 8, fp64 n <= 4), whole beyond;
//   - fifty rows of 300 among rows of 0..8: long rows (tier 0), a warp each;
//   - sixty rows with five of 600: at small n groups that leave the device
//     underfilled, a block per long row;
//   - an R-MAT graph (scale 10), both as stored and transposed.
void check_vector_long_rows(const tcs::device_info& dev) {
    tcst_csr mats[4];
    mats[0] = mixed(400, 3000, 6, 97, 2500, seed + 4);
    mats[1] = mixed(2000, 1500, 8, 40, 300, seed + 5);
    mats[2] = mixed(60, 700, 6, 13, 600, seed + 6);
    if (tcst_gen_rmat(10, 8, 0.57, 0.19, 0.19, seed + 7, &mats[3]) != 0) std::abort();
    const char* names[] = {"CSR-vector, very long", "CSR-vector, long", "CSR-vector, few rows",
                           "CSR-vector, R-MAT"};
    const std::int64_t ns[] = {2, 3, 4, 5, 8, 13, 16};
    int count = 0;
    for (int m = 0; m < 4; ++m)
        for (int dbl = 0; dbl < 2; ++dbl)
            for (int ni = 0; ni < 7; ++ni) {
                if ((ni + m + dbl) % 2 != 0) continue;
                config c;
                c.dbl = dbl;
                c.n = ns[ni];
                c.alg = c.n == 2 ? spmm::csr_kernel::automatic : spmm::csr_kernel::vector_rows;
                c.trans_a = m == 3 && ni % 4 == 0;
                c.b_row = false;
                c.c_row = count % 3 == 0;
                c.base = count % 2;
                c.beta = count % 4 == 1 ? -0.5 : 0.0;
                c.preprocess = (count / 2) % 2 == 0;
                c.both_ways = true;
                c.long_rows = m != 3 || !c.trans_a;
                check(names[m], mats[m], c, dev);
                ++count;
            }
    for (auto& a : mats) tcst_csr_free(&a);
}

void run_suite(const tcs::device_info& dev) {
    check_buffer_bounds(dev);
    check_passes(dev);
    check_capped_passes(dev);
    check_vector_long_rows(dev);
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
    // Merge-path's tiles (a block each, staged in shared memory) and their carries: rows
    // longer than a tile (hub rows of thousands), long runs of empty rows (more than a
    // tile of them), a single row, every group width from one column lane to two
    // vectors on a warp (n = 1 .. 512), C read (beta) and not.
    check_merge_tiles(dev);
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
    const char* shapes[] = {"in place, mixed rows", "in place, empty rows", "in place, stencil",
                            "in place, one long row"};
    for (int m = 0; m < 4; ++m)
        for (int dbl = 0; dbl < 2; ++dbl)
            for (int pre = 0; pre < 2; ++pre)
                check_in_place(shapes[m], *scattered[m], dbl != 0, (m + pre) % 2, pre != 0,
                               (m + dbl) % 2 ? -0.5 : 0.0, dev);
    const char* counted[] = {"count, mixed rows", "count, empty rows", "count, stencil",
                             "count, one long row"};
    for (int m = 0; m < 4; ++m) check_local_count(counted[m], *scattered[m], m % 2 == 1, (m / 2) % 2);
    tcst_csr_free(&lone);
    tcst_csr_free(&hollow);
    tcst_csr_free(&a);
    tcst_csr_free(&runs);
    // From 4 Mi nonzeros: a band of half-width 4 (470,000 rows of 9) and uniform random
    // rows of 4 (1,100,000 rows and columns).
    tcst_csr band, uniform;
    if (tcst_gen_banded(470000, 4, seed + 9, &band) != 0) std::abort();
    if (tcst_gen_uniform(1100000, 1100000, 4, seed + 10, &uniform) != 0) std::abort();
    check_large_transpose("large, band", band, true, dev);
    check_large_transpose("large, uniform rows", uniform, false, dev);
    tcst_csr_free(&uniform);
    tcst_csr_free(&band);
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
