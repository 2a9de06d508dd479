// The matrices the benchmarks run on, and their host-side data: A, SpGEMM's right
// operand, and the CPU references every benchmark checks its result against.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "tcs_test_support.h"

namespace bench {

struct matrix_case {
    std::string name;                    // the <matrix> part of the benchmark names
    std::string origin;                  // generator call or file path, for messages
    std::function<int(tcst_csr*)> make;  // builds A; 0 on success
};

// Full mode: generated families at 1e6-1e7 nonzeros and every real Matrix Market file
// in tcst_matrix_dir() (complex ones skipped). Quick mode: small variants of three
// families and three small files (one SPD, one pattern graph, one rectangular).
std::vector<matrix_case> matrix_cases(bool quick);

// Entry (i, j) of every dense B: uniform in [-1, 1), a function of the position only
// (so a reference can rebuild any column without storing B), and exactly representable
// in fp32 (so fp32 and fp64 runs multiply the same numbers).
double dense_value(int64_t i, int64_t j);

// A tcst_csr that frees itself.
struct host_csr {
    tcst_csr m{};
    host_csr() = default;
    host_csr(const host_csr&) = delete;
    host_csr& operator=(const host_csr&) = delete;
    ~host_csr() { tcst_csr_free(&m); }
};

// SpMM's reference on a sample of the columns of B and C (all of them up to 16): every
// row is checked, while the CPU cost stays bounded for n = 512 on 1e7 nonzeros.
struct spmm_reference {
    std::vector<int64_t> columns;
    std::vector<double> c;          // rows x columns.size(), column-major
    std::vector<double> magnitude;  // same shape: sum of |a_ik * b_kj| per entry
};

class host_matrix {
public:
    explicit host_matrix(const matrix_case& c);  // builds A; throws failure

    const std::string& name() const { return name_; }
    const tcst_csr& a() const { return a_.m; }
    // SpGEMM's right operand: A itself when square (C = A*A), else A^T (C = A*A^T).
    const tcst_csr& b() const { return square() ? a_.m : a_t_.m; }
    bool square() const { return a_.m.rows == a_.m.cols; }
    int64_t products() const { return products_; }
    int64_t max_row_length() const { return max_row_; }
    double mean_row_length() const;

    // C = A*B in double and the per-entry magnitude, computed on first use.
    const tcst_csr& spgemm_reference();
    const double* spgemm_magnitude();
    // Reference of A * B_n with B_n(i, j) = dense_value(i, j), computed on first use.
    const spmm_reference& spmm_reference_for(int64_t n);

private:
    std::string name_;
    host_csr a_, a_t_, c_ref_, a_abs_;
    std::vector<double> c_mag_;
    std::map<int64_t, spmm_reference> spmm_refs_;
    int64_t products_ = 0;
    int64_t max_row_ = 0;
};

// The host data of a case, built on first request and kept while the benchmarks of the
// same matrix follow each other (they are registered together); the previous matrix is
// released when another is requested.
host_matrix& load(const matrix_case& c);

// Tolerance of a result against the double reference, relative to the sum of the
// magnitudes of the products (what tcst_compare_csr/tcst_compare_dense divide by): a
// sum of k rounded products is off by at most (k + 2) unit roundoffs of that magnitude,
// whatever the order of summation; twice that bound leaves room and can still fail.
double relative_tolerance(int64_t terms_per_entry, bool is_double);

}  // namespace bench
