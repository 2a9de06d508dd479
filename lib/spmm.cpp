// tcsSpMM_*: argument checks, the choice of algorithm family, and the preprocess memo
// (cuSPARSE's "active buffer" of matA). The kernels live in cpp/spmm.
#include "entry.hpp"
#include "input_check.hpp"
#include "objects.hpp"
#include "spmm_rules.hpp"
#include "views.hpp"

#include "spmm/spmm.hpp"

#include <cstdint>

using namespace tcs::api;

namespace {

struct call {
    const tcsSpMatDescr* a;
    tcs::spmm::problem problem;
    std::uint64_t key;  // what a preprocess analysis depends on
};

bool is_transposed(tcsOperation_t op) { return op != TCS_OPERATION_NON_TRANSPOSE; }

tcs::spmm::algorithm algorithm_of(tcsSpMMAlg_t alg) {
    switch (alg) {
    case TCS_SPMM_ALG_DEFAULT:
    case TCS_SPMM_CSR_ALG1:
    case TCS_SPMM_CSR_ALG2:
    case TCS_SPMM_CSR_ALG3: return tcs::spmm::algorithm::automatic;
    case TCS_SPMM_CSR_ROWSPLIT: return tcs::spmm::algorithm::row_split;
    case TCS_SPMM_CSR_MERGE: return tcs::spmm::algorithm::merge_path;
    default: break;
    }
    reject(9, "alg", "is an algorithm for another sparse format than CSR",
           TCS_STATUS_NOT_SUPPORTED);
}

call check_call(tcsHandle_t handle, tcsOperation_t opA, tcsOperation_t opB, const void* alpha,
                tcsConstSpMatDescr_t matA, tcsConstDnMatDescr_t matB, const void* beta,
                tcsDnMatDescr_t matC, cudaDataType computeType, tcsSpMMAlg_t alg) {
    check_handle(handle, 0);
    check_enum(opA, 1, "opA");
    check_enum(opB, 2, "opB");
    check_not_null(alpha, 3, "alpha");
    const tcsSpMatDescr* a = live_sparse(matA, 4, "matA");
    const tcsDnMatDescr* b = live_dense(matB, 5, "matB");
    check_not_null(beta, 6, "beta");
    tcsDnMatDescr* c = live_dense_mutable(matC, 7, "matC");
    check(valid_data_type(computeType), 8, "computeType", "is not CUDA_R_32F/64F/16F/16BF");
    check_enum(alg, 9, "alg");

    check_csr32(*a, 4, "matA");
    const tcs::spmm::algorithm family = algorithm_of(alg);
    const bool ta = is_transposed(opA), tb = is_transposed(opB);
    const std::int64_t m = ta ? a->cols : a->rows;
    const std::int64_t k = ta ? a->rows : a->cols;
    const std::int64_t b_rows = tb ? b->cols : b->rows;
    const std::int64_t n = tb ? b->rows : b->cols;
    check(b_rows == k, 5, "matB", "has op(B) rows != op(A) columns");
    check(c->rows == m, 7, "matC", "has rows != op(A) rows");
    check(c->cols == n, 7, "matC", "has columns != op(B) columns");
    check(a->value_type == b->value_type, 5, "matB", "value type differs from matA's",
          TCS_STATUS_NOT_SUPPORTED);
    check(supported_product_types(a->value_type, c->value_type, computeType), 8, "computeType",
          "does not fit the value types of A, B and C", TCS_STATUS_NOT_SUPPORTED);

    call k_{a, product_of(*handle, *a, ta, alpha, beta, computeType), 0};
    tcs::spmm::problem& p = k_.problem;
    p.trans_b = tb;
    p.b = dense_view_of(*b);
    p.c = dense_view_of(*c);
    p.alg = family;

    const std::uint64_t key = memo_key(
        {std::uint64_t(opA), std::uint64_t(opB), std::uint64_t(alg), std::uint64_t(computeType),
         std::uint64_t(b->order), std::uint64_t(c->order), std::uint64_t(n),
         std::uint64_t(a->rows), std::uint64_t(a->cols), std::uint64_t(a->nnz),
         address_bits(a->offsets), address_bits(a->columns), std::uint64_t(a->base)});
    k_.key = key;
    return k_;
}

}  // namespace

extern "C" TCS_API tcsStatus_t tcsSpMM_bufferSize(tcsHandle_t handle, tcsOperation_t opA,
                                                  tcsOperation_t opB, const void* alpha,
                                                  tcsConstSpMatDescr_t matA,
                                                  tcsConstDnMatDescr_t matB, const void* beta,
                                                  tcsDnMatDescr_t matC, cudaDataType computeType,
                                                  tcsSpMMAlg_t alg, size_t* bufferSize) try {
    trace(__func__);
    call k = check_call(handle, opA, opB, alpha, matA, matB, beta, matC, computeType, alg);
    check_not_null(bufferSize, 10, "bufferSize");
    *bufferSize = tcs::spmm::buffer_size(k.problem);
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsSpMM_preprocess(tcsHandle_t handle, tcsOperation_t opA,
                                                  tcsOperation_t opB, const void* alpha,
                                                  tcsConstSpMatDescr_t matA,
                                                  tcsConstDnMatDescr_t matB, const void* beta,
                                                  tcsDnMatDescr_t matC, cudaDataType computeType,
                                                  tcsSpMMAlg_t alg, void* externalBuffer) try {
    trace(__func__);
    call k = check_call(handle, opA, opB, alpha, matA, matB, beta, matC, computeType, alg);
    const std::size_t needed = tcs::spmm::buffer_size(k.problem);
    check(needed == 0 || externalBuffer != nullptr, 10, "externalBuffer",
          "must not be NULL when tcsSpMM_bufferSize returned a size > 0");
    check_input(*handle, *k.a, 4, "matA");
    k.a->spmm_memo = {};  // a failed analysis leaves no active buffer
    const tcs::spmm::analysis found = tcs::spmm::preprocess(k.problem, externalBuffer);
    k.a->spmm_memo = {externalBuffer, k.key, found};
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsSpMM(tcsHandle_t handle, tcsOperation_t opA, tcsOperation_t opB,
                                       const void* alpha, tcsConstSpMatDescr_t matA,
                                       tcsConstDnMatDescr_t matB, const void* beta,
                                       tcsDnMatDescr_t matC, cudaDataType computeType,
                                       tcsSpMMAlg_t alg, void* externalBuffer) try {
    trace(__func__);
    call k = check_call(handle, opA, opB, alpha, matA, matB, beta, matC, computeType, alg);
    const std::size_t needed = tcs::spmm::buffer_size(k.problem);
    check(needed == 0 || externalBuffer != nullptr, 10, "externalBuffer",
          "must not be NULL when tcsSpMM_bufferSize returned a size > 0");
    check_input(*handle, *k.a, 4, "matA");
    const bool preprocessed = externalBuffer != nullptr &&
                              k.a->spmm_memo.buffer == externalBuffer && k.a->spmm_memo.key == k.key;
    tcs::spmm::run(k.problem, externalBuffer, preprocessed, k.a->spmm_memo.found);
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}
