// tcsSpMM_*: argument checks, the family an algorithm value asks for, and the protocol
// around the family's plan (cpp/spmm/plan.hpp): the size query, preprocess with its memo
// (cuSPARSE's "active buffer" of matA), the run. The kernels live in cpp/spmm.
#include "entry.hpp"
#include "input_check.hpp"
#include "objects.hpp"
#include "spmm_rules.hpp"
#include "views.hpp"

#include "spmm/plan.hpp"

#include <cstdint>

using namespace tcs::api;

namespace {

struct call {
    const tcsSpMatDescr* a;
    tcs::spmm::problem problem;
    std::uint64_t key;  // what a preprocess analysis depends on
    const tcs::spmm::plan* plan;
};

bool is_transposed(tcsOperation_t op) { return op != TCS_OPERATION_NON_TRANSPOSE; }

// The family, and for the CSR family the kernel, an algorithm value asks for.
struct requested {
    tcs::spmm::family family;
    tcs::spmm::csr_kernel kernel = tcs::spmm::csr_kernel::automatic;
};

// For A's format. DEFAULT: the rule between families for CSR (select.hpp), the block
// family for BSR (the only one that reads BSR). cuSPARSE's CSR values keep to the CSR
// family; BSR_ALG1 is cuSPARSE's BSR algorithm, computed by the block family.
requested requested_of(tcsSpMMAlg_t alg, bool bsr) {
    using tcs::spmm::csr_kernel;
    using tcs::spmm::family;
    switch (alg) {
    case TCS_SPMM_ALG_DEFAULT: return {bsr ? family::blocks : family::automatic};
    case TCS_SPMM_BSR_TC: return {family::blocks};
    case TCS_SPMM_BSR_ALG1:
        if (bsr) return {family::blocks};
        break;
    case TCS_SPMM_CSR_ALG1:
    case TCS_SPMM_CSR_ALG2:
    case TCS_SPMM_CSR_ALG3:
        if (!bsr) return {family::csr, csr_kernel::automatic};
        break;
    case TCS_SPMM_CSR_ROWSPLIT:
        if (!bsr) return {family::csr, csr_kernel::row_split};
        break;
    case TCS_SPMM_CSR_MERGE:
        if (!bsr) return {family::csr, csr_kernel::merge_path};
        break;
    default: break;
    }
    reject(9, "alg", "is an algorithm for another sparse format than matA's",
           TCS_STATUS_NOT_SUPPORTED);
}

call check_call(tcsHandle_t& handle, tcsOperation_t opA, tcsOperation_t opB, const void* alpha,
                tcsConstSpMatDescr_t matA, tcsConstDnMatDescr_t matB, const void* beta,
                tcsDnMatDescr_t matC, cudaDataType computeType, tcsSpMMAlg_t alg) {
    handle = live_handle(handle, 0);
    check_enum(opA, 1, "opA");
    check_enum(opB, 2, "opB");
    check_not_null(alpha, 3, "alpha");
    const tcsSpMatDescr* a = live_sparse(matA, 4, "matA");
    const tcsDnMatDescr* b = live_dense(matB, 5, "matB");
    check_not_null(beta, 6, "beta");
    tcsDnMatDescr* c = live_dense_mutable(matC, 7, "matC");
    check(valid_data_type(computeType), 8, "computeType", "is not CUDA_R_32F/64F/16F/16BF");
    check_enum(alg, 9, "alg");

    const bool bsr = a->format == TCS_FORMAT_BSR;
    if (bsr)
        check_bsr32(*a, 4, "matA");
    else
        check_csr(*a, 4, "matA");
    const requested asked = requested_of(alg, bsr);
    const bool ta = is_transposed(opA), tb = is_transposed(opB);
    // cuSPARSE's rule for BSR, and the block family's: A as stored.
    check(!ta || asked.family != tcs::spmm::family::blocks, 1, "opA",
          "must be TCS_OPERATION_NON_TRANSPOSE for BSR matrices and TCS_SPMM_BSR_TC",
          TCS_STATUS_NOT_SUPPORTED);
    const std::int64_t a_rows = bsr ? a->rows * a->row_block : a->rows;
    const std::int64_t a_cols = bsr ? a->cols * a->col_block : a->cols;
    const std::int64_t m = ta ? a_cols : a_rows;
    const std::int64_t k = ta ? a_rows : a_cols;
    const std::int64_t b_rows = tb ? b->cols : b->rows;
    const std::int64_t n = tb ? b->rows : b->cols;
    check(b_rows == k, 5, "matB", "has op(B) rows != op(A) columns");
    check(c->rows == m, 7, "matC", "has rows != op(A) rows");
    check(c->cols == n, 7, "matC", "has columns != op(B) columns");
    check(a->value_type == b->value_type, 5, "matB", "value type differs from matA's",
          TCS_STATUS_NOT_SUPPORTED);
    check(supported_product_types(a->value_type, c->value_type, computeType), 8, "computeType",
          "does not fit the value types of A, B and C", TCS_STATUS_NOT_SUPPORTED);

    call k_{a, product_of(*handle, *a, ta, alpha, beta, computeType), 0, nullptr};
    tcs::spmm::problem& p = k_.problem;
    p.trans_b = tb;
    if (bsr) {
        p.a = {};  // product_of read A as CSR
        p.a_is_bsr = true;
        p.bsr = bsr_view_of(*a);
    }
    p.b = dense_view_of(*b);
    p.c = dense_view_of(*c);
    p.requested_family = asked.family;
    p.requested_kernel = asked.kernel;
    p.math = math_mode_of(handle->math_mode);
    k_.plan = &tcs::spmm::plan_for(p);
    k_.plan->check_supported(p);

    const std::uint64_t key = memo_key(
        {std::uint64_t(opA), std::uint64_t(opB), std::uint64_t(alg), std::uint64_t(computeType),
         std::uint64_t(b->order), std::uint64_t(c->order), std::uint64_t(n),
         std::uint64_t(a->rows), std::uint64_t(a->cols), std::uint64_t(a->nnz),
         address_bits(a->offsets), address_bits(a->columns), std::uint64_t(a->base),
         std::uint64_t(a->offsets_type), std::uint64_t(a->format), std::uint64_t(a->row_block), std::uint64_t(a->col_block),
         std::uint64_t(a->block_order), std::uint64_t(p.math == tcs::math_mode::tf32)});
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
    check_device_code(*handle);
    *bufferSize = k.plan->buffer_size(k.problem);
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
    const std::size_t needed = k.plan->buffer_size(k.problem);
    check(needed == 0 || externalBuffer != nullptr, 10, "externalBuffer",
          "must not be NULL when tcsSpMM_bufferSize returned a size > 0");
    check_input(*handle, *k.a, 4, "matA");
    k.a->spmm_memo.publish(nullptr);  // a failed analysis leaves no active buffer
    const tcs::spmm::analysis found = k.plan->preprocess(k.problem, externalBuffer);
    k.a->spmm_memo.publish(
        std::make_shared<const tcsSpMMMemo>(tcsSpMMMemo{externalBuffer, k.key, found}));
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
    call_timer timer(__func__);
    call k = check_call(handle, opA, opB, alpha, matA, matB, beta, matC, computeType, alg);
    const std::size_t needed = k.plan->buffer_size(k.problem);
    check(needed == 0 || externalBuffer != nullptr, 10, "externalBuffer",
          "must not be NULL when tcsSpMM_bufferSize returned a size > 0");
    check_input(*handle, *k.a, 4, "matA");
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

extern "C" TCS_API tcsStatus_t tcsSpMM_getBlockCounts(tcsConstSpMatDescr_t matA, int64_t* blockRows,
                                                      int64_t* blockCols, int64_t* blocksNatural,
                                                      int64_t* blocksReordered, int64_t* blocksUsed,
                                                      int* usesBlocks) try {
    trace(__func__);
    const tcsSpMatDescr* a = live_sparse(matA, 0, "matA");
    check_not_null(blockRows, 1, "blockRows");
    check_not_null(blockCols, 2, "blockCols");
    check_not_null(blocksNatural, 3, "blocksNatural");
    check_not_null(blocksReordered, 4, "blocksReordered");
    check_not_null(blocksUsed, 5, "blocksUsed");
    check_not_null(usesBlocks, 6, "usesBlocks");
    const auto memo = a->spmm_memo.get();
    check(memo != nullptr && memo->buffer != nullptr && memo->found.counts.blocks >= 0, 0, "matA",
          "has no block analysis (tcsSpMM_preprocess with TCS_SPMM_BSR_TC, a BSR matrix, or "
          "TCS_SPMM_ALG_DEFAULT where it considers blocks, outside stream capture)",
          TCS_STATUS_NOT_INITIALIZED);
    const tcs::spmm::block_counts& c = memo->found.counts;
    *blockRows = tcs::spmm::kBlockRows;
    *blockCols = tcs::spmm::kBlockColumns;
    *blocksNatural = c.blocks_natural;
    *blocksReordered = c.blocks_reordered;
    *blocksUsed = c.blocks;
    *usesBlocks = memo->found.blocks ? 1 : 0;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}
