// The index arrays of the matrices that hash_emulation and tiles_emulation hand to the
// SpGEMM plans on the CPU: A's and B's with an index base in 32 or 64 bits, and C's
// read back from either width. Header-only C++ (the rest of tests/support is C).
#pragma once

#include "core/types.hpp"
#include "tcs_test_support.h"

#include <cstdint>
#include <vector>

namespace tcst {

struct host_indices {
    std::vector<int> rp, ci;
    std::vector<long long> rp64, ci64;

    // m's offsets and columns plus `base`, 64-bit where `wide`; points view at them.
    void fill(const tcst_csr& m, int base, bool wide, tcs::csr_view& view) {
        rp.resize(std::size_t(m.rows) + 1);
        ci.resize(std::size_t(m.nnz) + 1);
        for (std::int64_t i = 0; i <= m.rows; ++i) rp[i] = m.row_ptr[i] + base;
        for (std::int64_t e = 0; e < m.nnz; ++e) ci[e] = m.col_idx[e] + base;
        view.row_ptr = rp.data();
        view.col_idx = ci.data();
        view.offsets = view.columns = tcs::index_type::i32;
        if (wide) {
            rp64.assign(rp.begin(), rp.end());
            ci64.assign(ci.begin(), ci.end());
            view.row_ptr = rp64.data();
            view.col_idx = ci64.data();
            view.offsets = view.columns = tcs::index_type::i64;
        }
    }
};

// count entries of an index array C was written to; a 64-bit entry that does not fit
// an int (a stray high word) reads as -1, which no valid index equals.
inline std::vector<int> read_indices(const void* p, std::int64_t count, bool wide) {
    std::vector<int> out;
    for (std::int64_t i = 0; i < count; ++i) {
        if (!wide) {
            out.push_back(static_cast<const int*>(p)[i]);
            continue;
        }
        const long long v = static_cast<const long long*>(p)[i];
        out.push_back(v == (long long)int(v) ? int(v) : -1);
    }
    return out;
}

}  // namespace tcst
