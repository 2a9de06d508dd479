// tcsparse and cuSPARSE behind one set of names, so that every measured pipeline is
// written once and both libraries run exactly the same sequence of calls. tcsparse
// mirrors cuSPARSE's generic API (same argument order, same enum values), so the two
// differ only in the names of types, functions and constants.
#pragma once

#include <cusparse.h>
#include <tcsparse.h>

#include <string>

#include "cuda_util.hpp"

namespace bench {

// tcsparse's names are cuSPARSE's with "tcs"/"TCS" for "cusparse"/"CUSPARSE", so one
// definition, instantiated with each prefix, describes both libraries.
#define BENCH_LIBRARY_FUNCTIONS(X, prefix)                                                  \
    X(prefix, CreateCsr) X(prefix, CreateConstCsr) X(prefix, DestroySpMat)                  \
    X(prefix, SpMatGetSize) X(prefix, CsrSetPointers) X(prefix, CreateDnMat)                \
    X(prefix, CreateConstDnMat) X(prefix, DestroyDnMat) X(prefix, SpGEMM_createDescr)       \
    X(prefix, SpGEMM_destroyDescr) X(prefix, SpGEMM_workEstimation)                         \
    X(prefix, SpGEMM_estimateMemory) X(prefix, SpGEMM_compute) X(prefix, SpGEMM_copy)       \
    X(prefix, SpMM_bufferSize) X(prefix, SpMM_preprocess) X(prefix, SpMM)                   \
    X(prefix, CreateDnVec) X(prefix, CreateConstDnVec) X(prefix, DestroyDnVec)              \
    X(prefix, SpMV_bufferSize) X(prefix, SpMV_preprocess) X(prefix, SpMV)

#define BENCH_LIBRARY_FUNCTION(prefix, fn) static constexpr auto fn = &prefix##fn;

#define BENCH_LIBRARY(type, label, prefix, PREFIX)                                          \
    struct type {                                                                           \
        static constexpr const char* name = label;                                          \
        static constexpr const char* prefix_name = #prefix;                                 \
        using handle_t = prefix##Handle_t;                                                  \
        using status_t = prefix##Status_t;                                                  \
        using spmat_t = prefix##SpMatDescr_t;                                               \
        using const_spmat_t = prefix##ConstSpMatDescr_t;                                    \
        using dnmat_t = prefix##DnMatDescr_t;                                               \
        using const_dnmat_t = prefix##ConstDnMatDescr_t;                                    \
        using spgemm_t = prefix##SpGEMMDescr_t;                                             \
        using spgemm_alg_t = prefix##SpGEMMAlg_t;                                           \
        using spmm_alg_t = prefix##SpMMAlg_t;                                               \
        using spmv_alg_t = prefix##SpMVAlg_t;                                               \
        using dnvec_t = prefix##DnVecDescr_t;                                               \
        using const_dnvec_t = prefix##ConstDnVecDescr_t;                                    \
        using order_t = prefix##Order_t;                                                    \
        static constexpr status_t success = PREFIX##_STATUS_SUCCESS;                        \
        static constexpr prefix##Operation_t non_transpose = PREFIX##_OPERATION_NON_TRANSPOSE; \
        static constexpr prefix##Operation_t transpose = PREFIX##_OPERATION_TRANSPOSE;      \
        static constexpr prefix##IndexType_t index32 = PREFIX##_INDEX_32I;                  \
        static constexpr prefix##IndexType_t index64 = PREFIX##_INDEX_64I;                  \
        static constexpr prefix##IndexBase_t base_zero = PREFIX##_INDEX_BASE_ZERO;          \
        static constexpr order_t row_major = PREFIX##_ORDER_ROW;                            \
        static constexpr order_t col_major = PREFIX##_ORDER_COL;                            \
        static constexpr spgemm_alg_t spgemm_default = PREFIX##_SPGEMM_DEFAULT;             \
        static constexpr spgemm_alg_t spgemm_alg2 = PREFIX##_SPGEMM_ALG2;                   \
        static constexpr spgemm_alg_t spgemm_alg3 = PREFIX##_SPGEMM_ALG3;                   \
        static constexpr spmm_alg_t spmm_default = PREFIX##_SPMM_ALG_DEFAULT;               \
        static constexpr spmv_alg_t spmv_default = PREFIX##_SPMV_ALG_DEFAULT;               \
        static constexpr spmv_alg_t spmv_deterministic = PREFIX##_SPMV_CSR_ALG2;            \
        static const char* status_name(status_t s) { return prefix##GetErrorName(s); }      \
        /* the process's handle, bound to the benchmark stream (gpu.cpp) */                \
        static handle_t handle();                                                           \
        BENCH_LIBRARY_FUNCTIONS(BENCH_LIBRARY_FUNCTION, prefix)                             \
    };

BENCH_LIBRARY(tcsparse_lib, "tcsparse", tcs, TCS)
BENCH_LIBRARY(cusparse_lib, "cusparse", cusparse, CUSPARSE)

#undef BENCH_LIBRARY
#undef BENCH_LIBRARY_FUNCTION
#undef BENCH_LIBRARY_FUNCTIONS

template <class Lib>
void check_status(typename Lib::status_t s, const char* function) {
    if (s != Lib::success)
        throw failure(std::string(Lib::prefix_name) + function + " returned " + Lib::status_name(s));
}

// LIB_CALL(Lib, SpGEMM_compute, args...) calls tcsSpGEMM_compute or
// cusparseSpGEMM_compute and throws a failure naming the call on any other status.
#define LIB_CALL(Lib, fn, ...) ::bench::check_status<Lib>(Lib::fn(__VA_ARGS__), #fn)

// A library object destroyed when it goes out of scope (descriptors).
template <class T, auto Destroy>
class owned {
public:
    owned() = default;
    owned(const owned&) = delete;
    owned& operator=(const owned&) = delete;
    ~owned() {
        if (p_ != nullptr) Destroy(p_);
    }
    T* out() { return &p_; }
    T get() const { return p_; }

private:
    T p_ = nullptr;
};

template <class Lib> using spmat = owned<typename Lib::spmat_t, Lib::DestroySpMat>;
template <class Lib> using const_spmat = owned<typename Lib::const_spmat_t, Lib::DestroySpMat>;
template <class Lib> using dnmat = owned<typename Lib::dnmat_t, Lib::DestroyDnMat>;
template <class Lib> using const_dnmat = owned<typename Lib::const_dnmat_t, Lib::DestroyDnMat>;
template <class Lib> using spgemm_descr = owned<typename Lib::spgemm_t, Lib::SpGEMM_destroyDescr>;
template <class Lib> using dnvec = owned<typename Lib::dnvec_t, Lib::DestroyDnVec>;
template <class Lib> using const_dnvec = owned<typename Lib::const_dnvec_t, Lib::DestroyDnVec>;

// alpha = 1 and beta = 0 in the value type of a run (host pointer mode).
struct unit_scalars {
    explicit unit_scalars(cudaDataType type) : is_double(type == CUDA_R_64F) {}
    const void* one() const { return is_double ? static_cast<const void*>(&one_d) : &one_f; }
    const void* zero() const { return is_double ? static_cast<const void*>(&zero_d) : &zero_f; }

private:
    bool is_double;
    float one_f = 1.0f, zero_f = 0.0f;
    double one_d = 1.0, zero_d = 0.0;
};

}  // namespace bench
