#include "suite.hpp"

#include <dirent.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>

#include "cuda_util.hpp"

namespace bench {

namespace {

constexpr uint64_t kGeneratorSeed = 20240601;
// Pattern-only Matrix Market files get values uniform in [-1, 1) from this seed.
constexpr uint64_t kPatternSeed = 7;

matrix_case generated(std::string name, std::string origin, std::function<int(tcst_csr*)> make) {
    return {std::move(name), std::move(origin), std::move(make)};
}

std::vector<matrix_case> generated_cases(bool quick) {
    const uint64_t s = kGeneratorSeed;
    if (quick)
        return {
            generated("stencil27_d1_24", "tcst_gen_stencil27(24,24,24,1)",
                      [s](tcst_csr* m) { return tcst_gen_stencil27(24, 24, 24, 1, s, m); }),
            generated("rmat_g500_s12", "tcst_gen_rmat(12,16,.57,.19,.19)",
                      [s](tcst_csr* m) { return tcst_gen_rmat(12, 16, 0.57, 0.19, 0.19, s, m); }),
            generated("uniform_64k_8", "tcst_gen_uniform(65536,65536,8)",
                      [s](tcst_csr* m) { return tcst_gen_uniform(65536, 65536, 8, s, m); }),
        };
    // Sizes: nnz(A) 1e6-1e7 and 1e8-5e8 products, so every run is far past launch
    // overhead while C (and cuSPARSE's buffers) stay well inside 80 GB.
    return {
        generated("stencil27_d1_64", "tcst_gen_stencil27(64,64,64,1)",
                  [s](tcst_csr* m) { return tcst_gen_stencil27(64, 64, 64, 1, s, m); }),
        generated("stencil27_d3_30", "tcst_gen_stencil27(30,30,30,3)",
                  [s](tcst_csr* m) { return tcst_gen_stencil27(30, 30, 30, 3, s, m); }),
        generated("banded_1m_hb4", "tcst_gen_banded(1000000,4)",
                  [s](tcst_csr* m) { return tcst_gen_banded(1000000, 4, s, m); }),
        // A band of width 25: dense 8x8 tiles along the diagonal.
        generated("banded_400k_hb12", "tcst_gen_banded(400000,12)",
                  [s](tcst_csr* m) { return tcst_gen_banded(400000, 12, s, m); }),
        // Graph500's skewed parameters: hubs with rows of thousands of entries.
        generated("rmat_g500_s16", "tcst_gen_rmat(16,16,.57,.19,.19)",
                  [s](tcst_csr* m) { return tcst_gen_rmat(16, 16, 0.57, 0.19, 0.19, s, m); }),
        // Milder skew over 4x the rows.
        generated("rmat_s18_e8", "tcst_gen_rmat(18,8,.45,.22,.22)",
                  [s](tcst_csr* m) { return tcst_gen_rmat(18, 8, 0.45, 0.22, 0.22, s, m); }),
        generated("uniform_1m_8", "tcst_gen_uniform(1000000,1000000,8)",
                  [s](tcst_csr* m) { return tcst_gen_uniform(1000000, 1000000, 8, s, m); }),
        // Short uniform rows (issue 37's losing case for SpGEMM in fp32).
        generated("uniform_2m_4", "tcst_gen_uniform(2000000,2000000,4)",
                  [s](tcst_csr* m) { return tcst_gen_uniform(2000000, 2000000, 4, s, m); }),
        // The 7-point Laplacian's pattern (3D) and the 5-point one (2D): rows of 7 and 5.
        generated("stencil7_100", "tcst_gen_stencil_star(100,100,100)",
                  [s](tcst_csr* m) { return tcst_gen_stencil_star(100, 100, 100, s, m); }),
        generated("stencil5_1500", "tcst_gen_stencil_star(1500,1500,1)",
                  [s](tcst_csr* m) { return tcst_gen_stencil_star(1500, 1500, 1, s, m); }),
        // A 2D 9-point stencil with 2 unknowns per node: rows of 18 in 2x2 blocks.
        generated("stencil9_d2_500", "tcst_gen_stencil27(500,500,1,2)",
                  [s](tcst_csr* m) { return tcst_gen_stencil27(500, 500, 1, 2, s, m); }),
        generated("dense_blocks_131k_b8", "tcst_gen_dense_blocks(131072,131072,8,0.0004)",
                  [s](tcst_csr* m) {
                      return tcst_gen_dense_blocks(131072, 131072, 8, 0.0004, s, m);
                  }),
    };
}

bool ends_with(const std::string& s, const char* suffix) {
    const std::size_t n = std::strlen(suffix);
    return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

// The Matrix Market banner ("%%MatrixMarket matrix coordinate complex general"),
// through gzip for .gz files; empty when unreadable.
std::string banner(const std::string& path) {
    std::string quoted = "'";
    for (char ch : path) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    quoted += "'";
    const bool gz = ends_with(path, ".gz");
    FILE* f = gz ? popen(("gzip -dc " + quoted + " 2>/dev/null").c_str(), "r")
                 : std::fopen(path.c_str(), "r");
    if (f == nullptr) return {};
    char line[256] = {0};
    const bool ok = std::fgets(line, sizeof line, f) != nullptr;
    if (gz) {
        // Drain so gzip ends normally rather than on a broken pipe.
        char sink[1 << 16];
        while (std::fread(sink, 1, sizeof sink, f) > 0) {
        }
        pclose(f);
    } else {
        std::fclose(f);
    }
    std::string b = ok ? line : "";
    std::transform(b.begin(), b.end(), b.begin(), [](unsigned char ch) { return std::tolower(ch); });
    return b;
}

std::vector<matrix_case> file_cases(bool quick) {
    const std::string dir = tcst_matrix_dir();
    std::vector<std::string> names;
    if (DIR* d = opendir(dir.c_str())) {
        while (const dirent* e = readdir(d)) {
            const std::string f = e->d_name;
            if (ends_with(f, ".mtx") || ends_with(f, ".mtx.gz")) names.push_back(f);
        }
        closedir(d);
    }
    std::sort(names.begin(), names.end());
    const char* quick_set[] = {"bcsstk13", "ca-HepTh", "aa3"};
    std::vector<matrix_case> cases;
    for (const std::string& f : names) {
        const std::string name = f.substr(0, f.find(".mtx"));
        if (quick && std::find(std::begin(quick_set), std::end(quick_set), name) == std::end(quick_set))
            continue;
        const std::string path = dir + "/" + f;
        if (banner(path).find(" complex") != std::string::npos) {
            std::fprintf(stderr, "tcs_bench: %s skipped: complex values (tcsparse has no complex type)\n",
                         f.c_str());
            continue;
        }
        cases.push_back({name, path, [path](tcst_csr* m) {
                             char err[512] = {0};
                             const int rc = tcst_mm_read(path.c_str(), kPatternSeed, m, err, sizeof err);
                             if (rc != 0) std::fprintf(stderr, "tcs_bench: %s: %s\n", path.c_str(), err);
                             return rc;
                         }});
    }
    if (cases.empty())
        std::fprintf(stderr, "tcs_bench: no Matrix Market files in %s (set TCS_MATRIX_DIR)\n", dir.c_str());
    return cases;
}

uint64_t splitmix64(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

}  // namespace

std::vector<matrix_case> matrix_cases(bool quick) {
    std::vector<matrix_case> cases = generated_cases(quick);
    for (matrix_case& c : file_cases(quick)) cases.push_back(std::move(c));
    return cases;
}

double dense_value(int64_t i, int64_t j) {
    const uint64_t h = splitmix64(splitmix64(uint64_t(i)) ^ uint64_t(j));
    // 24 random bits: k / 2^23 - 1 is exact in fp32 and lies in [-1, 1).
    return double(h >> 40) / double(1 << 23) - 1.0;
}

host_matrix::host_matrix(const matrix_case& c) : name_(c.name) {
    if (c.make(&a_.m) != 0) throw failure("could not build matrix " + c.name + " (" + c.origin + ")");
    if (!square() && tcst_csr_transpose(&a_.m, &a_t_.m) != 0)
        throw failure("could not transpose " + c.name);
    products_ = tcst_ref_num_products(&a(), &b());
    for (int64_t i = 0; i < a().rows; ++i)
        max_row_ = std::max<int64_t>(max_row_, a().row_ptr[i + 1] - a().row_ptr[i]);
}

double host_matrix::mean_row_length() const {
    return a().rows > 0 ? double(a().nnz) / double(a().rows) : 0.0;
}

const tcst_csr& host_matrix::spgemm_reference() {
    if (c_ref_.m.row_ptr == nullptr && tcst_ref_spgemm(&a(), &b(), &c_ref_.m) != 0)
        throw failure("CPU reference SpGEMM failed for " + name_);
    return c_ref_.m;
}

const double* host_matrix::spgemm_magnitude() {
    const tcst_csr& c = spgemm_reference();
    if (c_mag_.empty() && c.nnz > 0) {
        double* mag = tcst_ref_spgemm_magnitude(&a(), &b(), &c);
        if (mag == nullptr) throw failure("CPU reference magnitude failed for " + name_);
        c_mag_.assign(mag, mag + c.nnz);
        std::free(mag);
    }
    return c_mag_.data();
}

const spmm_reference& host_matrix::spmm_reference_for(int64_t n) {
    auto found = spmm_refs_.find(n);
    if (found != spmm_refs_.end()) return found->second;
    if (a_abs_.m.row_ptr == nullptr) {
        if (tcst_csr_copy(&a(), &a_abs_.m) != 0) throw failure("out of host memory");
        for (int64_t e = 0; e < a_abs_.m.nnz; ++e) a_abs_.m.val[e] = std::fabs(a_abs_.m.val[e]);
    }
    spmm_reference r;
    const int64_t samples = std::min<int64_t>(n, 16);
    for (int64_t t = 0; t < samples; ++t)
        r.columns.push_back(samples == 1 ? 0 : t * (n - 1) / (samples - 1));
    const int64_t k = a().cols, m = a().rows;
    std::vector<double> b(std::size_t(k * samples)), b_abs(b.size());
    for (int64_t t = 0; t < samples; ++t)
        for (int64_t i = 0; i < k; ++i) {
            b[t * k + i] = dense_value(i, r.columns[t]);
            b_abs[t * k + i] = std::fabs(b[t * k + i]);
        }
    r.c.assign(std::size_t(m * samples), 0.0);
    r.magnitude.assign(r.c.size(), 0.0);
    tcst_ref_spmm(0, 0, 1.0, &a(), b.data(), k, samples, 0.0, r.c.data(), m);
    tcst_ref_spmm(0, 0, 1.0, &a_abs_.m, b_abs.data(), k, samples, 0.0, r.magnitude.data(), m);
    return spmm_refs_.emplace(n, std::move(r)).first->second;
}

host_matrix& load(const matrix_case& c) {
    static std::unique_ptr<host_matrix> current;
    if (!current || current->name() != c.name) {
        current.reset();  // release the previous matrix before building the next
        current = std::make_unique<host_matrix>(c);
    }
    return *current;
}

double relative_tolerance(int64_t terms_per_entry, bool is_double) {
    const double unit_roundoff = is_double ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24);
    return 2.0 * double(terms_per_entry + 2) * unit_roundoff;
}

}  // namespace bench
