// From public descriptors to the core's plain views: the one place that knows both.
// Also resolves the pointer mode of alpha/beta (the core only sees scalar_arg).
#pragma once

#include "entry.hpp"
#include "objects.hpp"

#include "core/types.hpp"

namespace tcs::api {

// Checks that a descriptor is live (not NULL, the right kind, not destroyed).
const tcsSpMatDescr* live_sparse(tcsConstSpMatDescr_t d, int index, const char* name);
tcsSpMatDescr* live_sparse_mutable(tcsSpMatDescr_t d, int index, const char* name);
const tcsDnMatDescr* live_dense(tcsConstDnMatDescr_t d, int index, const char* name);
tcsDnMatDescr* live_dense_mutable(tcsDnMatDescr_t d, int index, const char* name);
const tcsDnVecDescr* live_vector(tcsConstDnVecDescr_t d, int index, const char* name);
tcsDnVecDescr* live_vector_mutable(tcsDnVecDescr_t d, int index, const char* name);

// Ends a live handle and deletes its object; NOT_INITIALIZED (nothing freed) when it
// is not live: destroyed already, stale, or not one of T's.
template <class T> void destroy_live(const T* handle, const char* name, const char* why) {
    T* object = withdraw(handle);
    check(object != nullptr, 0, name, why, TCS_STATUS_NOT_INITIALIZED);
    delete object;
}

tcs::value_type value_type_of(cudaDataType t);  // one of the four valid types
tcs::index_type index_type_of(tcsIndexType_t t);  // TCS_INDEX_32I or TCS_INDEX_64I
tcs::math_mode math_mode_of(tcsMath_t m);  // the handle's tcsSetMathMode, for SpGEMM and SpMM
tcs::csr_view csr_view_of(const tcsSpMatDescr& d);  // CSR with 32- or 64-bit indices
// SpGEMM's C (checked by check_csr_indices), its values at `values`.
tcs::csr_out csr_out_of(const tcsSpMatDescr& d, void* values);
tcs::bsr_view bsr_view_of(const tcsSpMatDescr& d);  // BSR with 32-bit indices
tcs::dense_view dense_view_of(const tcsDnMatDescr& d);
tcs::scalar_arg scalar_of(const tcsContext& h, const void* p, cudaDataType compute);

// NOT_SUPPORTED unless CSR with row offsets and column indices both 32-bit or both
// 64-bit (the combinations cuSPARSE's SpMV and SpMM take; SpGEMM's A, B and C each).
void check_csr_indices(const tcsSpMatDescr& d, int index, const char* name);
// check_csr_indices, row offsets present, and for 64-bit fewer than 2^31 - 1 rows and
// columns and fewer than 2^31 nonzeros (NOT_SUPPORTED: the kernels' positions are
// 32-bit).
void check_csr(const tcsSpMatDescr& d, int index, const char* name);
// INSUFFICIENT_RESOURCES, with a log line, when SpGEMM's C of nnz entries has 32-bit
// indices its row offsets cannot hold (nnz + base >= 2^31).
void check_c_fits(const tcsSpMatDescr& c, std::int64_t nnz);
// NOT_SUPPORTED unless BSR with 32-bit block row offsets and block column indices.
void check_bsr32(const tcsSpMatDescr& d, int index, const char* name);

}  // namespace tcs::api
