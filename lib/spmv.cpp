// tcsSpMV_*: y = alpha * op(A) * x + beta * y as SpMM with one column. x and y become
// k x 1 and m x 1 row-major dense views (ld 1), which send the product to row-split's
// one-column kernel (cpp/spmm/csr/single_column.cuh); the buffer and the preprocess memo
// on matA are SpMM's. With opA = T, DEFAULT and CSR_ALG1 allow atomics, as cuSPARSE's
// do: the product may then scatter A's nonzeros into y (cpp/spmm/csr/scatter_column.cuh;
// csr_spmm.cu says when); CSR_ALG2 keeps the deterministic transposed copy. The CSR
// family's plan (cpp/spmm/plan.hpp) computes it.
#include "entry.hpp"
#include "input_check.hpp"
#include "objects.hpp"
#include "spmm_rules.hpp"
#include "views.hpp"

#include "spmm/plan.hpp"

#include <cstdint>

using namespace tcs::api;

namespace {

// Mixed into the memo key, so that an SpMM analysis is never taken for an SpMV one.
constexpr std::uint64_t kSpMVTag = 0x53704d56;  // "SpMV"

struct call {
    const tcsSpMatDescr* a;
    tcs::spmm::problem problem;
    std::uint64_t key;
    const tcs::spmm::plan* plan;  // the CSR family's
};

void check_csr_algorithm(tcsSpMVAlg_t alg) {
    check(alg == TCS_SPMV_ALG_DEFAULT || alg == TCS_SPMV_CSR_ALG1 || alg == TCS_SPMV_CSR_ALG2, 8,
          "alg", "is an algorithm for another sparse format than CSR", TCS_STATUS_NOT_SUPPORTED);
}

// One column, row-major, ld 1: element i at values[i].
tcs::dense_view column_of(const tcsDnVecDescr& v) {
    tcs::dense_view d;
    d.rows = v.size;
    d.cols = 1;
    d.ld = 1;
    d.values = v.values;
    d.type = value_type_of(v.value_type);
    d.row_major = true;
    return d;
}

call check_call(tcsHandle_t& handle, tcsOperation_t opA, const void* alpha,
                tcsConstSpMatDescr_t matA, tcsConstDnVecDescr_t vecX, const void* beta,
                tcsDnVecDescr_t vecY, cudaDataType computeType, tcsSpMVAlg_t alg) {
    handle = live_handle(handle, 0);
    check_enum(opA, 1, "opA");
    check_not_null(alpha, 2, "alpha");
    const tcsSpMatDescr* a = live_sparse(matA, 3, "matA");
    const tcsDnVecDescr* x = live_vector(vecX, 4, "vecX");
    check_not_null(beta, 5, "beta");
    const tcsDnVecDescr* y = live_vector_mutable(vecY, 6, "vecY");
    check(valid_data_type(computeType), 7, "computeType", "is not CUDA_R_32F/64F/16F/16BF");
    check_enum(alg, 8, "alg");

    check_csr(*a, 3, "matA");
    check_csr_algorithm(alg);
    const bool ta = opA != TCS_OPERATION_NON_TRANSPOSE;
    const std::int64_t m = ta ? a->cols : a->rows;
    const std::int64_t k = ta ? a->rows : a->cols;
    check(x->size == k, 4, "vecX", "has size != op(A) columns");
    check(y->size == m, 6, "vecY", "has size != op(A) rows");
    check(a->value_type == x->value_type, 4, "vecX", "value type differs from matA's",
          TCS_STATUS_NOT_SUPPORTED);
    check(supported_product_types(a->value_type, y->value_type, computeType), 7, "computeType",
          "does not fit the value types of A, x and y", TCS_STATUS_NOT_SUPPORTED);

    call k_{a, product_of(*handle, *a, ta, alpha, beta, computeType), 0, nullptr};
    tcs::spmm::problem& p = k_.problem;
    p.b = column_of(*x);
    p.c = column_of(*y);
    p.requested_family = tcs::spmm::family::csr;  // its own rule picks the kernel
    k_.plan = &tcs::spmm::plan_for(p);
    p.atomics = alg != TCS_SPMV_CSR_ALG2;  // only opA = T uses them
    k_.key = memo_key({kSpMVTag, std::uint64_t(ta), std::uint64_t(p.atomics),
                       std::uint64_t(computeType), std::uint64_t(x->value_type),
                       std::uint64_t(y->value_type),
                       std::uint64_t(a->rows), std::uint64_t(a->cols), std::uint64_t(a->nnz),
                       address_bits(a->offsets), address_bits(a->columns),
                       std::uint64_t(a->base), std::uint64_t(a->offsets_type)});
    return k_;
}

std::size_t checked_buffer(const call& k, const void* externalBuffer) {
    const std::size_t needed = k.plan->buffer_size(k.problem);
    check(needed == 0 || externalBuffer != nullptr, 9, "externalBuffer",
          "must not be NULL when tcsSpMV_bufferSize returned a size > 0");
    return needed;
}

}  // namespace

extern "C" TCS_API tcsStatus_t tcsSpMV_bufferSize(tcsHandle_t handle, tcsOperation_t opA,
                                                  const void* alpha, tcsConstSpMatDescr_t matA,
                                                  tcsConstDnVecDescr_t vecX, const void* beta,
                                                  tcsDnVecDescr_t vecY, cudaDataType computeType,
                                                  tcsSpMVAlg_t alg, size_t* bufferSize) try {
    trace(__func__);
    const call k = check_call(handle, opA, alpha, matA, vecX, beta, vecY, computeType, alg);
    check_not_null(bufferSize, 9, "bufferSize");
    *bufferSize = k.plan->buffer_size(k.problem);
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsSpMV_preprocess(tcsHandle_t handle, tcsOperation_t opA,
                                                  const void* alpha, tcsConstSpMatDescr_t matA,
                                                  tcsConstDnVecDescr_t vecX, const void* beta,
                                                  tcsDnVecDescr_t vecY, cudaDataType computeType,
                                                  tcsSpMVAlg_t alg, void* externalBuffer) try {
    trace(__func__);
    const call k = check_call(handle, opA, alpha, matA, vecX, beta, vecY, computeType, alg);
    checked_buffer(k, externalBuffer);
    check_input(*handle, *k.a, 3, "matA");
    k.a->spmm_memo.publish(nullptr);  // a failed analysis leaves no active buffer
    const tcs::spmm::analysis found = k.plan->preprocess(k.problem, externalBuffer);
    k.a->spmm_memo.publish(
        std::make_shared<const tcsSpMMMemo>(tcsSpMMMemo{externalBuffer, k.key, found}));
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsSpMV(tcsHandle_t handle, tcsOperation_t opA, const void* alpha,
                                       tcsConstSpMatDescr_t matA, tcsConstDnVecDescr_t vecX,
                                       const void* beta, tcsDnVecDescr_t vecY,
                                       cudaDataType computeType, tcsSpMVAlg_t alg,
                                       void* externalBuffer) try {
    trace(__func__);
    call_timer timer(__func__);
    const call k = check_call(handle, opA, alpha, matA, vecX, beta, vecY, computeType, alg);
    checked_buffer(k, externalBuffer);
    check_input(*handle, *k.a, 3, "matA");
    const auto memo = k.a->spmm_memo.active(externalBuffer, k.key);
    const bool preprocessed = memo != nullptr;
    if (timer.on())
        log_product(timer, k.problem, *k.a, preprocessed, handle->stream);
    k.plan->run(k.problem, externalBuffer, preprocessed,
                preprocessed ? memo->found : tcs::spmm::analysis{});
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}
