// tcsSpGEMMreuse_*: cuSPARSE's reuse protocol (C's pattern once, its values many times)
// over the SpGEMM plan interface. The plan's stages map onto the reuse calls as
//
//   reuse_workEstimation(buffer1)       plan.work_estimation into buffer1 (one wait)
//   reuse_nnz(buffer2, 3, 4)            buffer1's analysis copied into buffer4, then
//                                       plan.compute with buffer4 as both of its
//                                       buffers; buffer1 and buffer2 are free afterwards
//   reuse_copy(buffer5)                 plan.copy with C's values redirected to buffer3,
//                                       which lays out C's row offsets and columns and
//                                       leaves C's own values alone
//   reuse_compute(alpha, beta)          plan.copy into C: the numeric pass, any number
//                                       of times, reading only buffer4
//
// The state lives in the descriptor's `reuse` member, apart from the plain protocol's.
#include "entry.hpp"
#include "input_check.hpp"
#include "objects.hpp"
#include "views.hpp"

#include "core/error.hpp"
#include "core/workspace.hpp"

#include <algorithm>

using namespace tcs::api;
using stage = tcsSpGEMMReuse::stage;

namespace {

// A size is never 0, so a buffer allocated from it is never NULL (NULL asks for sizes).
constexpr std::size_t kMinBuffer = 256;
std::size_t nonzero(std::size_t bytes) { return std::max(bytes, kMinBuffer); }
std::size_t aligned(std::size_t bytes) {
    return (bytes + tcs::carver::alignment - 1) / tcs::carver::alignment * tcs::carver::alignment;
}

// Where the operands stand in each signature: compute adds alpha, beta and computeType.
struct positions {
    int a, b, c, alg, descr;
};
constexpr positions kStagePositions{3, 4, 5, 6, 7};
constexpr positions kComputePositions{4, 5, 7, 9, 10};

struct call {
    tcsContext* handle;
    const tcsSpMatDescr* a;
    const tcsSpMatDescr* b;
    tcsSpMatDescr* c;
    tcsSpGEMMReuse* state;
    tcs::spgemm::problem problem;
};

tcsSpGEMMShape shape_of(const tcsSpMatDescr& m) {
    return {m.rows, m.cols, m.nnz, m.offsets, m.columns, m.base, m.value_type};
}

tcs::spgemm::algorithm family_of(tcsSpGEMMAlg_t alg) {
    switch (alg) {
    case TCS_SPGEMM_ALG_TILE: return tcs::spgemm::algorithm::tile;
    case TCS_SPGEMM_ALG_TILE_TC: return tcs::spgemm::algorithm::tile_tc;
    default: return tcs::spgemm::algorithm::hash;  // every cuSPARSE value, and HASH
    }
}

// The checks every reuse call shares; the value type of C is the compute type.
call check_call(tcsHandle_t handle, tcsOperation_t opA, tcsOperation_t opB,
                tcsConstSpMatDescr_t matA, tcsConstSpMatDescr_t matB, tcsSpMatDescr_t matC,
                tcsSpGEMMAlg_t alg, tcsSpGEMMDescr_t spgemmDescr, const positions& at) {
    handle = live_handle(handle, 0);
    check_enum(opA, 1, "opA");
    check_enum(opB, 2, "opB");
    const tcsSpMatDescr* a = live_sparse(matA, at.a, "matA");
    const tcsSpMatDescr* b = live_sparse(matB, at.b, "matB");
    tcsSpMatDescr* c = live_sparse_mutable(matC, at.c, "matC");
    check_enum(alg, at.alg, "alg");
    check(spgemmDescr != nullptr, at.descr, "spgemmDescr", "must not be NULL");
    spgemmDescr = live(spgemmDescr);
    check(spgemmDescr != nullptr, at.descr, "spgemmDescr", "is not a live SpGEMM descriptor",
          TCS_STATUS_NOT_INITIALIZED);

    check(opA == TCS_OPERATION_NON_TRANSPOSE, 1, "opA", "must be NON_TRANSPOSE",
          TCS_STATUS_NOT_SUPPORTED);
    check(opB == TCS_OPERATION_NON_TRANSPOSE, 2, "opB", "must be NON_TRANSPOSE",
          TCS_STATUS_NOT_SUPPORTED);
    check_csr(*a, at.a, "matA");
    check_csr(*b, at.b, "matB");
    check_csr_indices(*c, at.c, "matC");
    check(a->cols == b->rows, at.b, "matB", "has rows != columns of matA");
    check(c->rows == a->rows, at.c, "matC", "has rows != rows of matA");
    check(c->cols == b->cols, at.c, "matC", "has columns != columns of matB");
    check(c->value_type == CUDA_R_32F || c->value_type == CUDA_R_64F, at.c, "matC",
          "must hold CUDA_R_32F or CUDA_R_64F values", TCS_STATUS_NOT_SUPPORTED);
    check(a->value_type == c->value_type, at.a, "matA", "value type differs from matC's",
          TCS_STATUS_NOT_SUPPORTED);
    check(b->value_type == c->value_type, at.b, "matB", "value type differs from matC's",
          TCS_STATUS_NOT_SUPPORTED);

    call k{handle, a, b, c, &spgemmDescr->reuse, {}};
    k.problem.a = csr_view_of(*a);
    k.problem.b = csr_view_of(*b);
    k.problem.c_base = c->base == TCS_INDEX_BASE_ONE ? 1 : 0;
    k.problem.compute = value_type_of(c->value_type);
    k.problem.stream = handle->stream;
    k.problem.device = &handle->device;
    return k;
}

// Stages after workEstimation must see the algorithm and structure it saw.
void check_same_as_analysis(const call& k, tcsSpGEMMAlg_t alg, stage needed, const char* what,
                            const positions& at) {
    const tcsSpGEMMReuse& r = *k.state;
    check(r.at >= needed && r.plan != nullptr, at.descr, "spgemmDescr", what,
          TCS_STATUS_NOT_INITIALIZED);
    check(alg == r.alg, at.alg, "alg", "differs from the algorithm given to workEstimation");
    check(shape_of(*k.a) == r.a, at.a, "matA", "structure differs from workEstimation's");
    check(shape_of(*k.b) == r.b, at.b, "matB", "structure differs from workEstimation's");
}

// C's arrays as the numeric pass writes them, its values at `values`.
// With TCS_CHECK_INPUTS=1: A's and B's structure, before a stage touches them.
void check_inputs(const call& k, const positions& at) {
    check_input(*k.handle, *k.a, at.a, "matA");
    check_input(*k.handle, *k.b, at.b, "matB");
}

tcs::csr_out output_of(const call& k, void* values, const positions& at) {
    const tcsSpMatDescr& c = *k.c;
    check(c.nnz == k.state->nnz_c, at.c, "matC", "nnz differs from the one reuse_nnz reported");
    check(c.rows == 0 || c.offsets != nullptr, at.c, "matC", "has no row offsets");
    check(c.nnz == 0 || (c.columns != nullptr && c.values != nullptr), at.c, "matC",
          "has no column/value arrays (call tcsCsrSetPointers after reuse_nnz)");
    return csr_out_of(c, values);
}

}  // namespace

extern "C" TCS_API tcsStatus_t tcsSpGEMMreuse_workEstimation(
    tcsHandle_t handle, tcsOperation_t opA, tcsOperation_t opB, tcsConstSpMatDescr_t matA,
    tcsConstSpMatDescr_t matB, tcsSpMatDescr_t matC, tcsSpGEMMAlg_t alg,
    tcsSpGEMMDescr_t spgemmDescr, size_t* bufferSize1, void* externalBuffer1) try {
    trace(__func__);
    const call k = check_call(handle, opA, opB, matA, matB, matC, alg, spgemmDescr,
                              kStagePositions);
    check_not_null(bufferSize1, 8, "bufferSize1");
    tcsSpGEMMReuse& r = *k.state;
    // The protocol's first call, size query included, tells a GPU without code apart.
    check_device_code(*k.handle);
    // workEstimation starts the protocol: a new algorithm means a new plan.
    if (!r.plan || r.alg != alg) {
        r.plan = tcs::spgemm::make_plan(family_of(alg));
        r.alg = alg;
        r.at = stage::none;
    }
    const std::size_t bytes = r.plan->buffer1_size(k.problem);
    if (externalBuffer1 == nullptr) {
        *bufferSize1 = nonzero(bytes);
        return TCS_STATUS_SUCCESS;
    }
    check(*bufferSize1 >= nonzero(bytes), 8, "bufferSize1",
          "is smaller than the size query returned");
    check_inputs(k, kStagePositions);
    r.at = stage::none;  // a failure below leaves the descriptor unanalysed
    r.plan->work_estimation(k.problem, externalBuffer1);
    check_c_fits(*k.c, r.plan->nnz_c());
    r.buffer1 = externalBuffer1;
    r.analysis_bytes = bytes;
    r.analysis = r.stage2 = r.scratch_values = nullptr;
    r.a = shape_of(*k.a);
    r.b = shape_of(*k.b);
    r.nnz_c = r.plan->nnz_c();
    r.at = stage::estimated;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsSpGEMMreuse_nnz(
    tcsHandle_t handle, tcsOperation_t opA, tcsOperation_t opB, tcsConstSpMatDescr_t matA,
    tcsConstSpMatDescr_t matB, tcsSpMatDescr_t matC, tcsSpGEMMAlg_t alg,
    tcsSpGEMMDescr_t spgemmDescr, size_t* bufferSize2, void* externalBuffer2, size_t* bufferSize3,
    void* externalBuffer3, size_t* bufferSize4, void* externalBuffer4) try {
    trace(__func__);
    const call k = check_call(handle, opA, opB, matA, matB, matC, alg, spgemmDescr,
                              kStagePositions);
    check_not_null(bufferSize2, 8, "bufferSize2");
    check_not_null(bufferSize3, 10, "bufferSize3");
    check_not_null(bufferSize4, 12, "bufferSize4");
    check_same_as_analysis(k, alg, stage::estimated, "reuse_workEstimation has not run with a buffer",
                           kStagePositions);
    tcsSpGEMMReuse& r = *k.state;
    const std::size_t value_bytes = tcs::size_of(k.problem.compute);
    const std::size_t size2 = kMinBuffer;
    const std::size_t size3 = nonzero(std::size_t(r.nnz_c) * value_bytes);
    const std::size_t stage2_at = aligned(r.analysis_bytes);
    const std::size_t size4 = nonzero(stage2_at + r.plan->buffer2_size(k.problem));
    const int given = (externalBuffer2 != nullptr) + (externalBuffer3 != nullptr) +
                      (externalBuffer4 != nullptr);
    if (given == 0) {
        *bufferSize2 = size2;
        *bufferSize3 = size3;
        *bufferSize4 = size4;
        return TCS_STATUS_SUCCESS;
    }
    check(externalBuffer2 != nullptr, 9, "externalBuffer2",
          "must be given with buffers 3 and 4 (all three NULL asks for the sizes)");
    check(externalBuffer3 != nullptr, 11, "externalBuffer3",
          "must be given with buffers 2 and 4 (all three NULL asks for the sizes)");
    check(externalBuffer4 != nullptr, 13, "externalBuffer4",
          "must be given with buffers 2 and 3 (all three NULL asks for the sizes)");
    check(*bufferSize2 >= size2, 8, "bufferSize2", "is smaller than the size query returned");
    check(*bufferSize3 >= size3, 10, "bufferSize3", "is smaller than the size query returned");
    check(*bufferSize4 >= size4, 12, "bufferSize4", "is smaller than the size query returned");
    check(r.buffer1 != nullptr, 7, "spgemmDescr",
          "has handed its analysis on already: run reuse_workEstimation again",
          TCS_STATUS_NOT_INITIALIZED);

    check_inputs(k, kStagePositions);
    r.at = stage::estimated;  // a failure below leaves no counted state
    char* analysis = static_cast<char*>(externalBuffer4);
    tcs::check_cuda(cudaMemcpyAsync(analysis, r.buffer1, r.analysis_bytes,
                                    cudaMemcpyDeviceToDevice, k.problem.stream),
                    "SpGEMMreuse: copy the analysis into buffer4");
    r.plan->compute(k.problem, analysis, analysis + stage2_at);
    r.analysis = analysis;
    r.stage2 = analysis + stage2_at;
    r.scratch_values = externalBuffer3;
    r.buffer1 = nullptr;  // the caller may free it now
    k.c->nnz = r.nnz_c;
    r.at = stage::counted;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsSpGEMMreuse_copy(
    tcsHandle_t handle, tcsOperation_t opA, tcsOperation_t opB, tcsConstSpMatDescr_t matA,
    tcsConstSpMatDescr_t matB, tcsSpMatDescr_t matC, tcsSpGEMMAlg_t alg,
    tcsSpGEMMDescr_t spgemmDescr, size_t* bufferSize5, void* externalBuffer5) try {
    trace(__func__);
    const call k = check_call(handle, opA, opB, matA, matB, matC, alg, spgemmDescr,
                              kStagePositions);
    check_not_null(bufferSize5, 8, "bufferSize5");
    check_same_as_analysis(k, alg, stage::counted, "reuse_nnz has not run with buffers",
                           kStagePositions);
    if (externalBuffer5 == nullptr) {
        *bufferSize5 = kMinBuffer;
        return TCS_STATUS_SUCCESS;
    }
    check(*bufferSize5 >= kMinBuffer, 8, "bufferSize5", "is smaller than the size query returned");
    check_inputs(k, kStagePositions);
    tcsSpGEMMReuse& r = *k.state;
    const tcs::csr_out out = output_of(k, r.scratch_values, kStagePositions);
    // Unit scalars: the values this pass writes go to buffer3 and are never read.
    const double one = 1.0, zero = 0.0;
    const float one_f = 1.0f, zero_f = 0.0f;
    const bool f64 = k.problem.compute == tcs::value_type::f64;
    tcs::scalar_arg alpha, beta;
    alpha.ptr = f64 ? static_cast<const void*>(&one) : &one_f;
    beta.ptr = f64 ? static_cast<const void*>(&zero) : &zero_f;
    alpha.type = beta.type = k.problem.compute;
    r.plan->copy(k.problem, r.analysis, r.stage2, alpha, beta, out);
    r.at = stage::structured;
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}

extern "C" TCS_API tcsStatus_t tcsSpGEMMreuse_compute(
    tcsHandle_t handle, tcsOperation_t opA, tcsOperation_t opB, const void* alpha,
    tcsConstSpMatDescr_t matA, tcsConstSpMatDescr_t matB, const void* beta, tcsSpMatDescr_t matC,
    cudaDataType computeType, tcsSpGEMMAlg_t alg, tcsSpGEMMDescr_t spgemmDescr) try {
    trace(__func__);
    live_handle(handle, 0);  // first, in argument order; check_call resolves it
    check_not_null(alpha, 3, "alpha");
    check_not_null(beta, 6, "beta");
    check(valid_data_type(computeType), 8, "computeType", "is not CUDA_R_32F/64F/16F/16BF");
    const call k = check_call(handle, opA, opB, matA, matB, matC, alg, spgemmDescr,
                              kComputePositions);
    check(computeType == k.c->value_type, 8, "computeType",
          "differs from the value type of A, B and C", TCS_STATUS_NOT_SUPPORTED);
    check_same_as_analysis(k, alg, stage::structured, "reuse_copy has not run with a buffer",
                           kComputePositions);
    check_inputs(k, kComputePositions);
    tcsSpGEMMReuse& r = *k.state;
    const tcs::csr_out out = output_of(k, k.c->values, kComputePositions);
    r.plan->copy(k.problem, r.analysis, r.stage2, scalar_of(*k.handle, alpha, computeType),
                 scalar_of(*k.handle, beta, computeType), out);
    return TCS_STATUS_SUCCESS;
} catch (...) {
    return status_from_exception(__func__);
}
