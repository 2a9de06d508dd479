/* The products tcsparse accelerates: SpGEMM (all seven functions), the SpGEMMreuse
 * family, SpMM and SpMV. Each runs on tcsparse where every operand is one it can take;
 * otherwise (another format, mixed index widths, a strided batch, a type tcsparse lacks),
 * or where tcsparse answers NOT_SUPPORTED for valid input, the real cuSPARSE runs it on
 * the same objects. 64-bit indices (offsets and columns both TCS_INDEX_64I) reach
 * tcsparse like 32-bit ones; what it lacks for them comes back as NOT_SUPPORTED and
 * goes to cuSPARSE. The stateless products decide per call: the same arguments always
 * go the same way, so a buffer sized by one library is used by that library. An SpGEMM
 * descriptor decides at each protocol's workEstimation and keeps that library until
 * the next one: its later stages follow, whatever their operands.
 *
 * The library that sized a buffer must be able to use it. A stage tcsparse sized may
 * still hand over at run time: TCS_CHECK_INPUTS=1 while the stream is captured, the
 * block family finding a column twice in a row of A, a GPU this build of tcsparse has
 * no code for (ARCH_MISMATCH). SpMM's and SpMV's calls do not carry their buffer's
 * size, so their size queries that tcsparse answers return the larger of its size and
 * cuSPARSE's; SpGEMM's stages carry it, so a hand-over checks cuSPARSE's size against
 * it. A call handed over at run time goes to cuSPARSE only where cuSPARSE could size it
 * within the caller's buffer; otherwise it returns tcsparse's status. */
#include "shim.h"

#include <stdlib.h>

/* Whether tcsparse's status sends the call to the real library: valid input tcsparse
 * does not implement (NOT_SUPPORTED) or cannot run on this GPU (ARCH_MISMATCH: no code
 * in this build for its architecture, or a feature it lacks), with cuSPARSE there. */
static int hand_over(cusparseStatus_t status) {
    return (status == CUSPARSE_STATUS_NOT_SUPPORTED || status == CUSPARSE_STATUS_ARCH_MISMATCH) &&
           tcs_shim_real_available();
}

/* The routing of a stateless call: tcsparse's status where it ran and did not hand
 * over, else the real library's (tcsparse's status without one). `real_sizes` is
 * cuSPARSE's size query for the same arguments into a size_t* named real_size_: where
 * it fails, the caller's buffer was sized by tcsparse alone and the call stays here. */
#define TCS_SHIM_ACCELERATE(accelerable, tcs_call, real_sizes, forward_call)            \
    do {                                                                                 \
        if (accelerable) {                                                               \
            const cusparseStatus_t status_ = TCS_SHIM_STATUS(tcs_call);                  \
            if (!hand_over(status_)) return status_;                                     \
            size_t real_size_value_ = 0, *real_size_ = &real_size_value_;                \
            if ((real_sizes) != CUSPARSE_STATUS_SUCCESS) return status_;                 \
        }                                                                                \
        return forward_call;                                                             \
    } while (0)

/* A stateless size query: where tcsparse answers, the larger of its size and cuSPARSE's
 * (computed by `real_sizes` into real_size_), so that either library can use the
 * buffer. */
#define TCS_SHIM_SIZE(accelerable, tcs_call, size, real_sizes, forward_call)            \
    do {                                                                                 \
        if (accelerable) {                                                               \
            const cusparseStatus_t status_ = TCS_SHIM_STATUS(tcs_call);                  \
            if (!hand_over(status_)) {                                                   \
                size_t real_size_value_ = 0, *real_size_ = &real_size_value_;            \
                if (status_ == CUSPARSE_STATUS_SUCCESS && tcs_shim_real_available() &&   \
                    (real_sizes) == CUSPARSE_STATUS_SUCCESS && real_size_value_ > *(size)) \
                    *(size) = real_size_value_;                                          \
                return status_;                                                          \
            }                                                                            \
        }                                                                                \
        return forward_call;                                                             \
    } while (0)

/* ---- SpMM ----------------------------------------------------------------------- */

/* The tcsparse objects of an SpMM call; ok = 0 when cuSPARSE alone can take it. */
typedef struct {
    int ok;
    tcsHandle_t handle;
    tcsSpMatDescr_t a;
    tcsDnMatDescr_t b, c;
} spmm_operands;

static spmm_operands spmm_operands_of(cusparseHandle_t handle, cusparseConstSpMatDescr_t a,
                                      cusparseConstDnMatDescr_t b, cusparseDnMatDescr_t c) {
    spmm_operands k = {1, tcs_shim_tcs_handle(handle), NULL, NULL, NULL};
    k.a = tcs_shim_tcs_spmat(a, &k.ok);
    k.b = tcs_shim_tcs_dnmat(b, &k.ok);
    k.c = tcs_shim_tcs_dnmat(c, &k.ok);
    return k;
}

#define TCS_SHIM_SPMM_ARGS(k)                                                             \
    k.handle, (tcsOperation_t)opA, (tcsOperation_t)opB, alpha, k.a, k.b, beta, k.c,       \
        computeType, (tcsSpMMAlg_t)alg
#define TCS_SHIM_SPMM_REAL_SIZE(size)                                                     \
    tcs_shim_forward_cusparseSpMM_bufferSize(handle, opA, opB, alpha, matA, matB, beta, matC, \
                                             computeType, alg, size)

cusparseStatus_t CUSPARSEAPI cusparseSpMM_bufferSize(
    cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB, const void* alpha,
    cusparseConstSpMatDescr_t matA, cusparseConstDnMatDescr_t matB, const void* beta,
    cusparseDnMatDescr_t matC, cudaDataType computeType, cusparseSpMMAlg_t alg,
    size_t* bufferSize) {
    const spmm_operands k = spmm_operands_of(handle, matA, matB, matC);
    TCS_SHIM_SIZE(k.ok, tcsSpMM_bufferSize(TCS_SHIM_SPMM_ARGS(k), bufferSize), bufferSize,
                  TCS_SHIM_SPMM_REAL_SIZE(real_size_),
                  TCS_SHIM_SPMM_REAL_SIZE(bufferSize));
}

cusparseStatus_t CUSPARSEAPI cusparseSpMM_preprocess(
    cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB, const void* alpha,
    cusparseConstSpMatDescr_t matA, cusparseConstDnMatDescr_t matB, const void* beta,
    cusparseDnMatDescr_t matC, cudaDataType computeType, cusparseSpMMAlg_t alg,
    void* externalBuffer) {
    const spmm_operands k = spmm_operands_of(handle, matA, matB, matC);
    TCS_SHIM_ACCELERATE(k.ok, tcsSpMM_preprocess(TCS_SHIM_SPMM_ARGS(k), externalBuffer),
                        TCS_SHIM_SPMM_REAL_SIZE(real_size_),
                        tcs_shim_forward_cusparseSpMM_preprocess(handle, opA, opB, alpha, matA,
                                                                 matB, beta, matC, computeType,
                                                                 alg, externalBuffer));
}

cusparseStatus_t CUSPARSEAPI cusparseSpMM(cusparseHandle_t handle, cusparseOperation_t opA,
                                          cusparseOperation_t opB, const void* alpha,
                                          cusparseConstSpMatDescr_t matA,
                                          cusparseConstDnMatDescr_t matB, const void* beta,
                                          cusparseDnMatDescr_t matC, cudaDataType computeType,
                                          cusparseSpMMAlg_t alg, void* externalBuffer) {
    const spmm_operands k = spmm_operands_of(handle, matA, matB, matC);
    TCS_SHIM_ACCELERATE(k.ok, tcsSpMM(TCS_SHIM_SPMM_ARGS(k), externalBuffer),
                        TCS_SHIM_SPMM_REAL_SIZE(real_size_),
                        tcs_shim_forward_cusparseSpMM(handle, opA, opB, alpha, matA, matB, beta,
                                                      matC, computeType, alg, externalBuffer));
}

/* ---- SpMV ----------------------------------------------------------------------- */

typedef struct {
    int ok;
    tcsHandle_t handle;
    tcsSpMatDescr_t a;
    tcsDnVecDescr_t x, y;
} spmv_operands;

static spmv_operands spmv_operands_of(cusparseHandle_t handle, cusparseConstSpMatDescr_t a,
                                      cusparseConstDnVecDescr_t x, cusparseDnVecDescr_t y) {
    spmv_operands k = {1, tcs_shim_tcs_handle(handle), NULL, NULL, NULL};
    k.a = tcs_shim_tcs_spmat(a, &k.ok);
    k.x = tcs_shim_tcs_dnvec(x, &k.ok);
    k.y = tcs_shim_tcs_dnvec(y, &k.ok);
    return k;
}

#define TCS_SHIM_SPMV_ARGS(k)                                                             \
    k.handle, (tcsOperation_t)opA, alpha, k.a, k.x, beta, k.y, computeType, (tcsSpMVAlg_t)alg
#define TCS_SHIM_SPMV_REAL_SIZE(size)                                                     \
    tcs_shim_forward_cusparseSpMV_bufferSize(handle, opA, alpha, matA, vecX, beta, vecY,  \
                                             computeType, alg, size)

cusparseStatus_t CUSPARSEAPI cusparseSpMV_bufferSize(
    cusparseHandle_t handle, cusparseOperation_t opA, const void* alpha,
    cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX, const void* beta,
    cusparseDnVecDescr_t vecY, cudaDataType computeType, cusparseSpMVAlg_t alg,
    size_t* bufferSize) {
    const spmv_operands k = spmv_operands_of(handle, matA, vecX, vecY);
    TCS_SHIM_SIZE(k.ok, tcsSpMV_bufferSize(TCS_SHIM_SPMV_ARGS(k), bufferSize), bufferSize,
                  TCS_SHIM_SPMV_REAL_SIZE(real_size_), TCS_SHIM_SPMV_REAL_SIZE(bufferSize));
}

cusparseStatus_t CUSPARSEAPI cusparseSpMV_preprocess(
    cusparseHandle_t handle, cusparseOperation_t opA, const void* alpha,
    cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX, const void* beta,
    cusparseDnVecDescr_t vecY, cudaDataType computeType, cusparseSpMVAlg_t alg,
    void* externalBuffer) {
    const spmv_operands k = spmv_operands_of(handle, matA, vecX, vecY);
    TCS_SHIM_ACCELERATE(k.ok, tcsSpMV_preprocess(TCS_SHIM_SPMV_ARGS(k), externalBuffer),
                        TCS_SHIM_SPMV_REAL_SIZE(real_size_),
                        tcs_shim_forward_cusparseSpMV_preprocess(handle, opA, alpha, matA, vecX,
                                                                 beta, vecY, computeType, alg,
                                                                 externalBuffer));
}

cusparseStatus_t CUSPARSEAPI cusparseSpMV(cusparseHandle_t handle, cusparseOperation_t opA,
                                          const void* alpha, cusparseConstSpMatDescr_t matA,
                                          cusparseConstDnVecDescr_t vecX, const void* beta,
                                          cusparseDnVecDescr_t vecY, cudaDataType computeType,
                                          cusparseSpMVAlg_t alg, void* externalBuffer) {
    const spmv_operands k = spmv_operands_of(handle, matA, vecX, vecY);
    TCS_SHIM_ACCELERATE(k.ok, tcsSpMV(TCS_SHIM_SPMV_ARGS(k), externalBuffer),
                        TCS_SHIM_SPMV_REAL_SIZE(real_size_),
                        tcs_shim_forward_cusparseSpMV(handle, opA, alpha, matA, vecX, beta, vecY,
                                                      computeType, alg, externalBuffer));
}

/* ---- SpGEMM --------------------------------------------------------------------- */

cusparseStatus_t CUSPARSEAPI cusparseSpGEMM_createDescr(cusparseSpGEMMDescr_t* descr) {
    tcsSpGEMMDescr_t t = NULL;
    const tcsStatus_t status = tcsSpGEMM_createDescr(TCS_SHIM_OUT(descr, t));
    if (status != TCS_STATUS_SUCCESS) return TCS_SHIM_STATUS(status);
    tcs_shim_spgemm* d = calloc(1, sizeof *d);
    if (d == NULL) {
        tcsSpGEMM_destroyDescr(t);
        return CUSPARSE_STATUS_ALLOC_FAILED;
    }
    d->tcs = t;
    const cusparseStatus_t published = tcs_shim_publish(d, TCS_SHIM_SPGEMM_KIND, descr);
    if (published != CUSPARSE_STATUS_SUCCESS) tcsSpGEMM_destroyDescr(t);
    return published;
}

cusparseStatus_t CUSPARSEAPI cusparseSpGEMM_destroyDescr(cusparseSpGEMMDescr_t descr) {
    tcs_shim_spgemm* d = tcs_shim_withdraw(descr, TCS_SHIM_SPGEMM_KIND);
    if (d == NULL) return TCS_SHIM_STATUS(tcsSpGEMM_destroyDescr((tcsSpGEMMDescr_t)descr));
    const tcsStatus_t status = tcsSpGEMM_destroyDescr(d->tcs);
    if (d->real != NULL) tcs_shim_forward_cusparseSpGEMM_destroyDescr_real(d->real);
    free(d);
    return TCS_SHIM_STATUS(status);
}

/* The tcsparse objects of an SpGEMM call; ok = 0 when cuSPARSE alone can take them. */
typedef struct {
    int ok;
    tcsHandle_t handle;
    tcsSpMatDescr_t a, b, c;
    tcs_shim_spgemm* shim; /* NULL for NULL or a foreign pointer (tcsparse rejects it) */
    tcsSpGEMMDescr_t descr;
} spgemm_operands;

static spgemm_operands spgemm_operands_of(cusparseHandle_t handle, cusparseConstSpMatDescr_t a,
                                          cusparseConstSpMatDescr_t b, cusparseSpMatDescr_t c,
                                          cusparseSpGEMMDescr_t descr) {
    spgemm_operands k = {1, tcs_shim_tcs_handle(handle), NULL, NULL, NULL, NULL, NULL};
    k.a = tcs_shim_tcs_spmat(a, &k.ok);
    k.b = tcs_shim_tcs_spmat(b, &k.ok);
    k.c = tcs_shim_tcs_spmat(c, &k.ok);
    k.shim = tcs_shim_spgemm_of(descr);
    k.descr = k.shim != NULL ? k.shim->tcs : (tcsSpGEMMDescr_t)descr;
    return k;
}

/* Which library a protocol's first stage goes to: tcsparse where it takes the
 * operands and does not hand over. *on_real keeps the choice for the later stages.
 * The stage's size query (buffer NULL) is tcsparse's alone: asking cuSPARSE too cost
 * every product a cuSPARSE size query, and the first one cuSPARSE's SpGEMM module load
 * (measured in hypre's setups: docs/perf/hypre_h200.md). A call with a buffer carries the buffer's size,
 * so one that tcsparse hands over goes to cuSPARSE only where cuSPARSE's size query
 * (`real_sizes`, into real_size_) succeeds and fits that size. */
#define TCS_SHIM_START(k, on_real, buffer, size, tcs_call, real_sizes, forward_call)   \
    do {                                                                                 \
        if (k.ok) {                                                                      \
            const cusparseStatus_t status_ = TCS_SHIM_STATUS(tcs_call);                  \
            int stay_ = !hand_over(status_);                                             \
            size_t real_size_value_ = 0, *real_size_ = &real_size_value_;                \
            if (!stay_ && (buffer) != NULL &&                                            \
                ((real_sizes) != CUSPARSE_STATUS_SUCCESS || real_size_value_ > *(size))) \
                stay_ = 1;                                                               \
            if (stay_) {                                                                 \
                if (k.shim != NULL) k.shim->on_real = 0;                                 \
                return status_;                                                          \
            }                                                                            \
        }                                                                                \
        if (k.shim != NULL) k.shim->on_real = 1;                                         \
        return forward_call;                                                             \
    } while (0)

/* A later stage: the library the protocol started on. */
#define TCS_SHIM_FOLLOW(k, on_real, tcs_call, forward_call)                              \
    return k.shim != NULL && k.shim->on_real ? forward_call : TCS_SHIM_STATUS(tcs_call)

#define TCS_SHIM_SPGEMM_ARGS(k)                                                          \
    k.handle, (tcsOperation_t)opA, (tcsOperation_t)opB, alpha, k.a, k.b, beta, k.c,       \
        computeType, (tcsSpGEMMAlg_t)alg, k.descr
#define TCS_SHIM_SPGEMM_FORWARD                                                          \
    handle, opA, opB, alpha, matA, matB, beta, matC, computeType, alg, spgemmDescr

cusparseStatus_t CUSPARSEAPI cusparseSpGEMM_workEstimation(
    cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB, const void* alpha,
    cusparseConstSpMatDescr_t matA, cusparseConstSpMatDescr_t matB, const void* beta,
    cusparseSpMatDescr_t matC, cudaDataType computeType, cusparseSpGEMMAlg_t alg,
    cusparseSpGEMMDescr_t spgemmDescr, size_t* bufferSize1, void* externalBuffer1) {
    const spgemm_operands k = spgemm_operands_of(handle, matA, matB, matC, spgemmDescr);
    TCS_SHIM_START(k, plain_on_real, externalBuffer1, bufferSize1,
                   tcsSpGEMM_workEstimation(TCS_SHIM_SPGEMM_ARGS(k), bufferSize1, externalBuffer1),
                   tcs_shim_forward_cusparseSpGEMM_workEstimation(TCS_SHIM_SPGEMM_FORWARD,
                                                                  real_size_, NULL),
                   tcs_shim_forward_cusparseSpGEMM_workEstimation(TCS_SHIM_SPGEMM_FORWARD,
                                                                  bufferSize1, externalBuffer1));
}

cusparseStatus_t CUSPARSEAPI cusparseSpGEMM_getNumProducts(cusparseSpGEMMDescr_t spgemmDescr,
                                                           int64_t* num_prods) {
    const tcs_shim_spgemm* d = tcs_shim_spgemm_of(spgemmDescr);
    if (d != NULL && d->plain_on_real)
        return tcs_shim_forward_cusparseSpGEMM_getNumProducts(spgemmDescr, num_prods);
    return TCS_SHIM_STATUS(tcsSpGEMM_getNumProducts(d != NULL ? d->tcs : (tcsSpGEMMDescr_t)spgemmDescr,
                                                    num_prods));
}

cusparseStatus_t CUSPARSEAPI cusparseSpGEMM_estimateMemory(
    cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB, const void* alpha,
    cusparseConstSpMatDescr_t matA, cusparseConstSpMatDescr_t matB, const void* beta,
    cusparseSpMatDescr_t matC, cudaDataType computeType, cusparseSpGEMMAlg_t alg,
    cusparseSpGEMMDescr_t spgemmDescr, float chunk_fraction, size_t* bufferSize3,
    void* externalBuffer3, size_t* bufferSize2) {
    const spgemm_operands k = spgemm_operands_of(handle, matA, matB, matC, spgemmDescr);
    TCS_SHIM_FOLLOW(k, plain_on_real,
                    tcsSpGEMM_estimateMemory(TCS_SHIM_SPGEMM_ARGS(k), chunk_fraction, bufferSize3,
                                             externalBuffer3, bufferSize2),
                    tcs_shim_forward_cusparseSpGEMM_estimateMemory(
                        TCS_SHIM_SPGEMM_FORWARD, chunk_fraction, bufferSize3, externalBuffer3,
                        bufferSize2));
}

cusparseStatus_t CUSPARSEAPI cusparseSpGEMM_compute(
    cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB, const void* alpha,
    cusparseConstSpMatDescr_t matA, cusparseConstSpMatDescr_t matB, const void* beta,
    cusparseSpMatDescr_t matC, cudaDataType computeType, cusparseSpGEMMAlg_t alg,
    cusparseSpGEMMDescr_t spgemmDescr, size_t* bufferSize2, void* externalBuffer2) {
    const spgemm_operands k = spgemm_operands_of(handle, matA, matB, matC, spgemmDescr);
    if (k.shim != NULL && k.shim->plain_on_real)
        return tcs_shim_forward_cusparseSpGEMM_compute(TCS_SHIM_SPGEMM_FORWARD, bufferSize2,
                                                       externalBuffer2);
    const tcsStatus_t status =
        tcsSpGEMM_compute(TCS_SHIM_SPGEMM_ARGS(k), bufferSize2, externalBuffer2);
    if (status == TCS_STATUS_SUCCESS) tcs_shim_spmat_pull_tcs(matC); /* nnz(C) */
    return TCS_SHIM_STATUS(status);
}

cusparseStatus_t CUSPARSEAPI cusparseSpGEMM_copy(
    cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB, const void* alpha,
    cusparseConstSpMatDescr_t matA, cusparseConstSpMatDescr_t matB, const void* beta,
    cusparseSpMatDescr_t matC, cudaDataType computeType, cusparseSpGEMMAlg_t alg,
    cusparseSpGEMMDescr_t spgemmDescr) {
    const spgemm_operands k = spgemm_operands_of(handle, matA, matB, matC, spgemmDescr);
    TCS_SHIM_FOLLOW(k, plain_on_real, tcsSpGEMM_copy(TCS_SHIM_SPGEMM_ARGS(k)),
                    tcs_shim_forward_cusparseSpGEMM_copy(TCS_SHIM_SPGEMM_FORWARD));
}

/* ---- SpGEMMreuse ---------------------------------------------------------------- */

#define TCS_SHIM_REUSE_ARGS(k)                                                           \
    k.handle, (tcsOperation_t)opA, (tcsOperation_t)opB, k.a, k.b, k.c, (tcsSpGEMMAlg_t)alg, \
        k.descr
#define TCS_SHIM_REUSE_FORWARD handle, opA, opB, matA, matB, matC, alg, spgemmDescr

cusparseStatus_t CUSPARSEAPI cusparseSpGEMMreuse_workEstimation(
    cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB,
    cusparseConstSpMatDescr_t matA, cusparseConstSpMatDescr_t matB, cusparseSpMatDescr_t matC,
    cusparseSpGEMMAlg_t alg, cusparseSpGEMMDescr_t spgemmDescr, size_t* bufferSize1,
    void* externalBuffer1) {
    const spgemm_operands k = spgemm_operands_of(handle, matA, matB, matC, spgemmDescr);
    TCS_SHIM_START(k, reuse_on_real, externalBuffer1, bufferSize1,
                   tcsSpGEMMreuse_workEstimation(TCS_SHIM_REUSE_ARGS(k), bufferSize1,
                                                 externalBuffer1),
                   tcs_shim_forward_cusparseSpGEMMreuse_workEstimation(TCS_SHIM_REUSE_FORWARD,
                                                                       real_size_, NULL),
                   tcs_shim_forward_cusparseSpGEMMreuse_workEstimation(
                       TCS_SHIM_REUSE_FORWARD, bufferSize1, externalBuffer1));
}

cusparseStatus_t CUSPARSEAPI cusparseSpGEMMreuse_nnz(
    cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB,
    cusparseConstSpMatDescr_t matA, cusparseConstSpMatDescr_t matB, cusparseSpMatDescr_t matC,
    cusparseSpGEMMAlg_t alg, cusparseSpGEMMDescr_t spgemmDescr, size_t* bufferSize2,
    void* externalBuffer2, size_t* bufferSize3, void* externalBuffer3, size_t* bufferSize4,
    void* externalBuffer4) {
    const spgemm_operands k = spgemm_operands_of(handle, matA, matB, matC, spgemmDescr);
    if (k.shim != NULL && k.shim->reuse_on_real)
        return tcs_shim_forward_cusparseSpGEMMreuse_nnz(TCS_SHIM_REUSE_FORWARD, bufferSize2,
                                                        externalBuffer2, bufferSize3,
                                                        externalBuffer3, bufferSize4,
                                                        externalBuffer4);
    const tcsStatus_t status =
        tcsSpGEMMreuse_nnz(TCS_SHIM_REUSE_ARGS(k), bufferSize2, externalBuffer2, bufferSize3,
                           externalBuffer3, bufferSize4, externalBuffer4);
    if (status == TCS_STATUS_SUCCESS) tcs_shim_spmat_pull_tcs(matC); /* nnz(C) */
    return TCS_SHIM_STATUS(status);
}

cusparseStatus_t CUSPARSEAPI cusparseSpGEMMreuse_copy(
    cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB,
    cusparseConstSpMatDescr_t matA, cusparseConstSpMatDescr_t matB, cusparseSpMatDescr_t matC,
    cusparseSpGEMMAlg_t alg, cusparseSpGEMMDescr_t spgemmDescr, size_t* bufferSize5,
    void* externalBuffer5) {
    const spgemm_operands k = spgemm_operands_of(handle, matA, matB, matC, spgemmDescr);
    TCS_SHIM_FOLLOW(k, reuse_on_real,
                    tcsSpGEMMreuse_copy(TCS_SHIM_REUSE_ARGS(k), bufferSize5, externalBuffer5),
                    tcs_shim_forward_cusparseSpGEMMreuse_copy(TCS_SHIM_REUSE_FORWARD,
                                                              bufferSize5, externalBuffer5));
}

cusparseStatus_t CUSPARSEAPI cusparseSpGEMMreuse_compute(
    cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB, const void* alpha,
    cusparseConstSpMatDescr_t matA, cusparseConstSpMatDescr_t matB, const void* beta,
    cusparseSpMatDescr_t matC, cudaDataType computeType, cusparseSpGEMMAlg_t alg,
    cusparseSpGEMMDescr_t spgemmDescr) {
    const spgemm_operands k = spgemm_operands_of(handle, matA, matB, matC, spgemmDescr);
    TCS_SHIM_FOLLOW(k, reuse_on_real,
                    tcsSpGEMMreuse_compute(k.handle, (tcsOperation_t)opA, (tcsOperation_t)opB,
                                           alpha, k.a, k.b, beta, k.c, computeType,
                                           (tcsSpGEMMAlg_t)alg, k.descr),
                    tcs_shim_forward_cusparseSpGEMMreuse_compute(TCS_SHIM_SPGEMM_FORWARD));
}
