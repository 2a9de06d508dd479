// tcsSpGEMM_*: argument checks and the protocol state machine. The descriptor
// remembers the stage reached, the buffers given (they must live until copy) and the
// structure of A and B the analysis saw; the plan in cpp/spgemm does the arithmetic.
#include "entry.hpp"
#include "input_check.hpp"
#include "objects.hpp"
#include "views.hpp"

#include "core/error.hpp"
#include "spgemm/rule.hpp"

#include <algorithm>
#include <cstdio>

using namespace tcs::api;
using stage = tcsSpGEMMDescr::stage;

namespace {

// A buffer size is never 0, so a buffer the caller allocated from it is never NULL
// (a NULL buffer means "size query").
constexpr std::size_t kMinBuffer = 256;
std::size_t nonzero(std::size_t bytes) { return std::max(bytes, kMinBuffer); }

tcsSpGEMMDescr* live_descr(tcsSpGEMMDescr_t d, int index) {
    check(d != nullptr, index, "spgemmDescr", "must not be NULL");
    tcsSpGEMMDescr* o = live(d);
    check(o != nullptr, index, "spgemmDescr", "is not a live SpGEMM descriptor",
          TCS_STATUS_NOT_INITIALIZED);
    return o;
}

// fp16 and bf16 data compute in fp32 (computeType CUDA_R_32F).
bool is_16bit(cudaDataType t) { return t == CUDA_R_16F || t == CUDA_R_16BF; }

// DEFAULT chooses per input; the cuSPARSE values run the hash algorithm where it takes
// the data (cpp/spgemm/rule.hpp, hash_or_tiles).
tcs::spgemm::algorithm algorithm_of(tcsSpGEMMAlg_t alg, cudaDataType data) {
    switch (alg) {
    case TCS_SPGEMM_DEFAULT: return tcs::spgemm::algorithm::automatic;
    case TCS_SPGEMM_ALG_HASH: return tcs::spgemm::algorithm::hash;
    case TCS_SPGEMM_ALG_TILE: return tcs::spgemm::algorithm::tile;
    case TCS_SPGEMM_ALG_TILE_TC: return tcs::spgemm::algorithm::tile_tc;
    default: return tcs::spgemm::hash_or_tiles(value_type_of(data));
    }
}

tcsSpGEMMShape shape_of(const tcsSpMatDescr& m) {
    return {m.rows, m.cols, m.nnz, m.offsets, m.columns, m.base, m.value_type};
}

struct call {
    tcsContext* handle;
    const tcsSpMatDescr* a;
    const tcsSpMatDescr* b;
    tcsSpMatDescr* c;
    tcsSpGEMMDescr* descr;
    tcs::spgemm::problem problem;
};

// The checks every stage shares; argument positions follow the C signature.
call check_call(tcsHandle_t handle, tcsOperation_t opA, tcsOperation_t opB, const void* alpha,
                tcsConstSpMatDescr_t matA, tcsConstSpMatDescr_t matB, const void* beta,
                tcsSpMatDescr_t matC, cudaDataType computeType, tcsSpGEMMAlg_t alg,
                tcsSpGEMMDescr_t spgemmDescr) {
    handle = live_handle(handle, 0);
    check_enum(opA, 1, "opA");
    check_enum(opB, 2, "opB");
    check_not_null(alpha, 3, "alpha");
    const tcsSpMatDescr* a = live_sparse(matA, 4, "matA");
    const tcsSpMatDescr* b = live_sparse(matB, 5, "matB");
    check_not_null(beta, 6, "beta");
    tcsSpMatDescr* c = live_sparse_mutable(matC, 7, "matC");
    check(valid_data_type(computeType), 8, "computeType", "is not CUDA_R_32F/64F/16F/16BF");
    check_enum(alg, 9, "alg");
    tcsSpGEMMDescr* d = live_descr(spgemmDescr, 10);

    check(opA == TCS_OPERATION_NON_TRANSPOSE, 1, "opA", "must be NON_TRANSPOSE",
          TCS_STATUS_NOT_SUPPORTED);
    check(opB == TCS_OPERATION_NON_TRANSPOSE, 2, "opB", "must be NON_TRANSPOSE",
          TCS_STATUS_NOT_SUPPORTED);
    check_csr(*a, 4, "matA");
    check_csr(*b, 5, "matB");
    check_csr_indices(*c, 7, "matC");
    check(a->cols == b->rows, 5, "matB", "has rows != columns of matA");
    check(c->rows == a->rows, 7, "matC", "has rows != rows of matA");
    check(c->cols == b->cols, 7, "matC", "has columns != columns of matB");
    // fp32 and fp64 data compute in their own type, fp16 and bf16 data in fp32 (as
    // cuSPARSE's mixed types); A, B and C share the data type.
    check(computeType == CUDA_R_32F || computeType == CUDA_R_64F, 8, "computeType",
          "must be CUDA_R_32F or CUDA_R_64F", TCS_STATUS_NOT_SUPPORTED);
    const cudaDataType data = a->value_type;
    check(data == computeType || (is_16bit(data) && computeType == CUDA_R_32F), 4, "matA",
          "value type does not go with computeType (fp16/bf16 data need CUDA_R_32F)",
          TCS_STATUS_NOT_SUPPORTED);
    check(b->value_type == data, 5, "matB", "value type differs from matA's",
          TCS_STATUS_NOT_SUPPORTED);
    check(c->value_type == data, 7, "matC", "value type differs from matA's",
          TCS_STATUS_NOT_SUPPORTED);
    check(alg != TCS_SPGEMM_ALG_HASH || tcs::spgemm::hash_takes(value_type_of(data)), 9, "alg",
          "the hash algorithm has no fp16/bf16 path (use a tile algorithm or DEFAULT)",
          TCS_STATUS_NOT_SUPPORTED);

    call k{handle, a, b, c, d, {}};
    k.problem.a = csr_view_of(*a);
    k.problem.b = csr_view_of(*b);
    k.problem.c_base = c->base == TCS_INDEX_BASE_ONE ? 1 : 0;
    k.problem.compute = value_type_of(computeType);
    k.problem.math = math_mode_of(handle->math_mode);
    k.problem.stream = handle->stream;
    k.problem.device = &handle->device;
    return k;
}

// With TCS_CHECK_INPUTS=1: A's and B's structure, before a stage touches them.
void check_inputs(const call& k) {
    check_input(*k.handle, *k.a, 4, "matA");
    check_input(*k.handle, *k.b, 5, "matB");
}

// Stages after workEstimation must see the algorithm and structure it saw.
void check_same_as_analysis(const call& k, tcsSpGEMMAlg_t alg, stage needed, const char* what) {
    check(k.descr->at >= needed && k.descr->plan != nullptr, 10, "spgemmDescr", what,
          TCS_STATUS_NOT_INITIALIZED);
    check(alg == k.descr->alg, 9, "alg", "differs from the algorithm given to workEstimation");
    check(shape_of(*k.a) == k.descr->a, 4, "matA", "structure differs from workEstimation's");
    check(shape_of(*k.b) == k.descr->b, 5, "matB", "structure differs from workEstimation's");
}

}  // namespace

extern "C" TCS_API tcsStatus_t tcsSpGEMM_createDescr(tcsSpGEMMDescr_t* descr) try {
    trace(__func__);
    check_not_null(descr, 0, "descr");
    *descr = publish(new tcsSpGEMMDescr());
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsSpGEMM_destroyDescr(tcsSpGEMMDescr_t descr) try {
    trace(__func__);
    if (descr == nullptr) return TCS_STATUS_SUCCESS;
    destroy_live(descr, "spgemmDescr", "is not a live SpGEMM descriptor");
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsSpGEMM_workEstimation(
    tcsHandle_t handle, tcsOperation_t opA, tcsOperation_t opB, const void* alpha,
    tcsConstSpMatDescr_t matA, tcsConstSpMatDescr_t matB, const void* beta, tcsSpMatDescr_t matC,
    cudaDataType computeType, tcsSpGEMMAlg_t alg, tcsSpGEMMDescr_t spgemmDescr,
    size_t* bufferSize1, void* externalBuffer1) try {
    trace(__func__);
    call_timer timer(__func__);
    call k = check_call(handle, opA, opB, alpha, matA, matB, beta, matC, computeType, alg,
                        spgemmDescr);
    check_not_null(bufferSize1, 11, "bufferSize1");
    if (timer.on())  // the shapes, also in the log line of a call that fails below
        std::snprintf(timer.detail, sizeof timer.detail,
                      "(A %lldx%lld nnz %lld, B %lldx%lld nnz %lld, alg %d, %s)",
                      (long long)k.a->rows, (long long)k.a->cols, (long long)k.a->nnz,
                      (long long)k.b->rows, (long long)k.b->cols, (long long)k.b->nnz, int(alg),
                      externalBuffer1 ? "buffer" : "size query");
    tcsSpGEMMDescr& d = *k.descr;
    // The protocol's first call, size query included, tells a GPU without code apart.
    check_device_code(*k.handle);
    // workEstimation starts the protocol: a new algorithm means a new plan.
    const tcs::spgemm::algorithm kind = algorithm_of(alg, k.a->value_type);
    if (!d.plan || d.alg != alg || d.kind != kind) {
        d.plan = tcs::spgemm::make_plan(kind);
        d.alg = alg;
        d.kind = kind;
        d.at = stage::created;
    }
    const std::size_t needed = nonzero(d.plan->buffer1_size(k.problem));
    if (externalBuffer1 == nullptr) {
        *bufferSize1 = needed;
        return TCS_STATUS_SUCCESS;
    }
    check(*bufferSize1 >= needed, 11, "bufferSize1", "is smaller than the size query returned");
    check_inputs(k);
    d.at = stage::created;  // a failure below leaves the descriptor unanalysed
    d.plan->work_estimation(k.problem, externalBuffer1);
    check_c_fits(*k.c, d.plan->nnz_c());
    d.buffer1 = externalBuffer1;
    d.buffer2 = nullptr;
    d.a = shape_of(*k.a);
    d.b = shape_of(*k.b);
    d.at = stage::estimated;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsSpGEMM_getNumProducts(tcsSpGEMMDescr_t spgemmDescr,
                                                        int64_t* num_prods) try {
    trace(__func__);
    tcsSpGEMMDescr* d = live_descr(spgemmDescr, 0);
    check_not_null(num_prods, 1, "num_prods");
    check(d->at >= stage::estimated && d->plan, 0, "spgemmDescr",
          "workEstimation has not run with a buffer", TCS_STATUS_NOT_INITIALIZED);
    *num_prods = d->plan->num_products();
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsSpGEMM_estimateMemory(
    tcsHandle_t handle, tcsOperation_t opA, tcsOperation_t opB, const void* alpha,
    tcsConstSpMatDescr_t matA, tcsConstSpMatDescr_t matB, const void* beta, tcsSpMatDescr_t matC,
    cudaDataType computeType, tcsSpGEMMAlg_t alg, tcsSpGEMMDescr_t spgemmDescr,
    float chunk_fraction, size_t* bufferSize3, void* externalBuffer3, size_t* bufferSize2) try {
    trace(__func__);
    call k = check_call(handle, opA, opB, alpha, matA, matB, beta, matC, computeType, alg,
                        spgemmDescr);
    check(chunk_fraction > 0.0f && chunk_fraction <= 1.0f, 11, "chunk_fraction",
          "must lie in (0, 1]");
    check_not_null(bufferSize3, 12, "bufferSize3");
    check(externalBuffer3 == nullptr || bufferSize2 != nullptr, 14, "bufferSize2",
          "must not be NULL when externalBuffer3 is given");
    check_same_as_analysis(k, alg, stage::estimated, "workEstimation has not run with a buffer");
    tcsSpGEMMDescr& d = *k.descr;
    const std::size_t needed = nonzero(d.plan->buffer3_size(k.problem, chunk_fraction));
    if (externalBuffer3 == nullptr) {
        *bufferSize3 = needed;
        return TCS_STATUS_SUCCESS;
    }
    check(*bufferSize3 >= needed, 12, "bufferSize3", "is smaller than the size query returned");
    // buffer2's layout follows the budget: compute must run (again) before copy. A plan
    // that refuses the budget leaves its analysis as it was.
    d.at = stage::estimated;
    d.buffer2 = nullptr;
    d.plan->set_chunks(k.problem, chunk_fraction, d.buffer1, externalBuffer3);
    if (chunk_fraction < 1.0f) {
        // Many small chunks can need more for their counts than they save: then the
        // whole product is within the budget already. The whole size is taken after
        // the budget was set, since the default may have changed plans for it.
        const std::size_t chunked = d.plan->buffer2_size(k.problem);
        d.plan->set_chunks(k.problem, 1.0, d.buffer1, externalBuffer3);
        if (chunked < d.plan->buffer2_size(k.problem))
            d.plan->set_chunks(k.problem, chunk_fraction, d.buffer1, externalBuffer3);
    }
    *bufferSize2 = nonzero(d.plan->buffer2_size(k.problem));
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsSpGEMM_compute(
    tcsHandle_t handle, tcsOperation_t opA, tcsOperation_t opB, const void* alpha,
    tcsConstSpMatDescr_t matA, tcsConstSpMatDescr_t matB, const void* beta, tcsSpMatDescr_t matC,
    cudaDataType computeType, tcsSpGEMMAlg_t alg, tcsSpGEMMDescr_t spgemmDescr,
    size_t* bufferSize2, void* externalBuffer2) try {
    trace(__func__);
    call k = check_call(handle, opA, opB, alpha, matA, matB, beta, matC, computeType, alg,
                        spgemmDescr);
    check_not_null(bufferSize2, 11, "bufferSize2");
    check_same_as_analysis(k, alg, stage::estimated, "workEstimation has not run with a buffer");
    tcsSpGEMMDescr& d = *k.descr;
    const std::size_t needed = nonzero(d.plan->buffer2_size(k.problem));
    if (externalBuffer2 == nullptr) {
        *bufferSize2 = needed;
        return TCS_STATUS_SUCCESS;
    }
    check(*bufferSize2 >= needed, 11, "bufferSize2", "is smaller than the size query returned");
    check_inputs(k);
    d.plan->compute(k.problem, d.buffer1, externalBuffer2);
    d.buffer2 = externalBuffer2;
    k.c->nnz = d.plan->nnz_c();
    d.at = stage::computed;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsSpGEMM_copy(tcsHandle_t handle, tcsOperation_t opA,
                                              tcsOperation_t opB, const void* alpha,
                                              tcsConstSpMatDescr_t matA,
                                              tcsConstSpMatDescr_t matB, const void* beta,
                                              tcsSpMatDescr_t matC, cudaDataType computeType,
                                              tcsSpGEMMAlg_t alg,
                                              tcsSpGEMMDescr_t spgemmDescr) try {
    trace(__func__);
    call k = check_call(handle, opA, opB, alpha, matA, matB, beta, matC, computeType, alg,
                        spgemmDescr);
    check_same_as_analysis(k, alg, stage::computed, "compute has not run with a buffer");
    tcsSpGEMMDescr& d = *k.descr;
    const tcsSpMatDescr& c = *k.c;
    check(c.nnz == d.plan->nnz_c(), 7, "matC", "nnz differs from the one compute reported");
    check(c.rows == 0 || c.offsets != nullptr, 7, "matC", "has no row offsets");
    check(c.nnz == 0 || (c.columns != nullptr && c.values != nullptr), 7, "matC",
          "has no column/value arrays (call tcsCsrSetPointers after compute)");
    check_inputs(k);
    d.plan->copy(k.problem, d.buffer1, d.buffer2, scalar_of(*k.handle, alpha, computeType),
                 scalar_of(*k.handle, beta, computeType), csr_out_of(c, c.values));
    d.at = stage::copied;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}
