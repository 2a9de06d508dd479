/**
 * \file tcsparse.h
 * \brief The public C API of tcsparse.
 *
 * tcsparse: sparse matrix products on NVIDIA GPUs behind a C API that mirrors the
 * cuSPARSE generic API (names with "tcs" for "cusparse", same argument order, same
 * enum and status values, same two-phase size-query-then-compute protocol).
 *
 * Conventions that hold for every function below unless its block says otherwise:
 *  - Every function returns a tcsStatus_t; nothing else reports errors, no C++
 *    exception and no abort ever leaves the library. An argument that is invalid
 *    (NULL where a pointer is required, an enum value outside its range, a
 *    negative size) returns TCS_STATUS_INVALID_VALUE and changes nothing.
 *    Set the environment variable TCS_LOG_LEVEL (1 = errors with the name of the
 *    bad argument, 2 = also a trace of every call) to have them printed on stderr.
 *  - "Host" pointers point to CPU memory, "device" pointers to GPU memory that the
 *    caller owns. Scalars (alpha, beta) follow the handle's pointer mode.
 *  - Functions that launch GPU work are asynchronous with respect to the host and
 *    ordered on the handle's stream, unless their block says they synchronize.
 *  - No function allocates device memory except tcsCreate (none at present);
 *    all GPU scratch memory comes from the caller's buffers. Descriptor creation
 *    allocates a small host object.
 *  - Index types: descriptors accept 16U/32I/64I like cuSPARSE; the computing
 *    functions of this version support 32-bit indices (TCS_INDEX_32I) and return
 *    TCS_STATUS_NOT_SUPPORTED for the others.
 */
#ifndef TCSPARSE_H_
#define TCSPARSE_H_

#include <stddef.h>
#include <stdint.h>

#include <driver_types.h>  /* cudaStream_t */
#include <library_types.h> /* cudaDataType, libraryPropertyType */

/** \cond TCS_INTERNAL (the export marker is not part of the API reference) */
#if defined(_WIN32)
#  if defined(TCS_BUILDING_LIBRARY)
#    define TCS_API __declspec(dllexport)
#  else
#    define TCS_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__) && __GNUC__ >= 4
#  define TCS_API __attribute__((visibility("default")))
#else
#  define TCS_API
#endif
/** \endcond */

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------- */
/* Version                                                                            */
/* ---------------------------------------------------------------------------------- */

/** \defgroup tcs_version Version
 *  \{ */

/** Major version of this header; tcsGetProperty(MAJOR_VERSION, ...) gives the library's. */
#define TCS_VERSION_MAJOR 0
/** Minor version of this header. */
#define TCS_VERSION_MINOR 1
/** Patch level of this header. */
#define TCS_VERSION_PATCH 0
/** MAJOR*10000 + MINOR*100 + PATCH; compare with tcsGetVersion() at run time. */
#define TCS_VERSION (TCS_VERSION_MAJOR * 10000 + TCS_VERSION_MINOR * 100 + TCS_VERSION_PATCH)
/** \} */

/* ---------------------------------------------------------------------------------- */
/* Enumerations: every value equals the cuSPARSE / cuBLAS value of the same name      */
/* ---------------------------------------------------------------------------------- */

/** \defgroup tcs_enums Enumerations
 *  Every value equals the cuSPARSE (or cuBLAS) value of the same name.
 *  \{ */

/** Status of every call. Values equal cusparseStatus_t. */
typedef enum {
    TCS_STATUS_SUCCESS                   = 0,
    TCS_STATUS_NOT_INITIALIZED           = 1,  /**< no usable GPU, or a descriptor that was never created */
    TCS_STATUS_ALLOC_FAILED              = 2,  /**< host or device memory exhausted; the handle stays usable */
    TCS_STATUS_INVALID_VALUE             = 3,  /**< a bad argument (see TCS_LOG_LEVEL for which one) */
    TCS_STATUS_ARCH_MISMATCH             = 4,  /**< the GPU lacks a feature the call needs */
    TCS_STATUS_MAPPING_ERROR             = 5,
    TCS_STATUS_EXECUTION_FAILED          = 6,  /**< a kernel launch or a CUDA call failed */
    TCS_STATUS_INTERNAL_ERROR            = 7,  /**< a bug in tcsparse: please report it */
    TCS_STATUS_MATRIX_TYPE_NOT_SUPPORTED = 8,
    TCS_STATUS_ZERO_PIVOT                = 9,
    TCS_STATUS_NOT_SUPPORTED             = 10, /**< valid input this version does not implement */
    TCS_STATUS_INSUFFICIENT_RESOURCES    = 11  /**< the problem exceeds 32-bit indices or the buffers given */
} tcsStatus_t;

/** Where alpha and beta live. Values equal cusparsePointerMode_t. */
typedef enum {
    TCS_POINTER_MODE_HOST   = 0,
    TCS_POINTER_MODE_DEVICE = 1
} tcsPointerMode_t;

/** Values equal cusparseOperation_t. */
typedef enum {
    TCS_OPERATION_NON_TRANSPOSE       = 0,
    TCS_OPERATION_TRANSPOSE           = 1,
    TCS_OPERATION_CONJUGATE_TRANSPOSE = 2
} tcsOperation_t;

/** Values equal cusparseIndexBase_t. */
typedef enum {
    TCS_INDEX_BASE_ZERO = 0,
    TCS_INDEX_BASE_ONE  = 1
} tcsIndexBase_t;

/** Values equal cusparseIndexType_t. */
typedef enum {
    TCS_INDEX_16U = 1,
    TCS_INDEX_32I = 2,
    TCS_INDEX_64I = 3
} tcsIndexType_t;

/** Values equal cusparseOrder_t. */
typedef enum {
    TCS_ORDER_COL = 1,
    TCS_ORDER_ROW = 2
} tcsOrder_t;

/** Values equal cusparseFormat_t (the formats tcsparse knows). */
typedef enum {
    TCS_FORMAT_CSR = 1,
    TCS_FORMAT_COO = 3,
    TCS_FORMAT_BSR = 6
} tcsFormat_t;

/**
 * Arithmetic the library may use, in the style of cublasSetMathMode.
 * TCS_DEFAULT_MATH and TCS_PEDANTIC_MATH: results at least at the precision of the
 * compute type. fp64 data is multiplied in fp64 (tensor-core paths use DMMA, which
 * rounds like an fp64 dot product); fp32 data is multiplied in fp32, or, on the tile
 * SpGEMM's tensor cores, widened to fp64 on DMMA (exact products, fp64 sums, one
 * rounding to fp32: more accurate than fp32 arithmetic). TCS_TF32_TENSOR_OP_MATH allows
 * TF32 tensor-core arithmetic for fp32 data (inputs rounded to a 10-bit mantissa, fp32
 * sums); TCS_FP16_TENSOR_OP_MATH allows fp32 data to be rounded to fp16 for fp16 tensor
 * cores with fp32 sums. Neither is ever taken without being set. Values 0, 2, 3 equal
 * cublasMath_t's.
 */
typedef enum {
    TCS_DEFAULT_MATH          = 0,
    TCS_PEDANTIC_MATH         = 2,
    TCS_TF32_TENSOR_OP_MATH   = 3,
    TCS_FP16_TENSOR_OP_MATH   = 64
} tcsMath_t;

/**
 * SpGEMM algorithms. The first six values equal cusparseSpGEMMAlg_t (the cuSPARSE
 * header spells two of them DETERMINITIC/NONDETERMINITIC; both spellings are given).
 * TCS_SPGEMM_DEFAULT chooses per input between the hash and the tile algorithm on
 * tensor cores (see tcsSpGEMM_workEstimation). The other cuSPARSE values run the hash
 * algorithm, tcsparse's low-memory general one (fp16/bf16 data, which it has no path
 * for, runs the tile algorithm on tensor cores). The tcsparse values start at 100 so
 * that they can never collide with a future cuSPARSE value.
 *
 * The tile algorithms (tSparse family) cut A, B and C into 8x8 tiles with a 64-bit
 * occupancy bitmap each; C's pattern comes from bitmap products, and each tile of C is
 * accumulated over its (A tile, B tile) pairs in increasing A tile, by one warp:
 *  - TCS_SPGEMM_ALG_TILE_TC, tensor cores: fp64 data on DMMA m8n8k4 (two per pair,
 *    fp64 products and sums); fp32 data widened to fp64 on DMMA by default, on TF32
 *    (m16n8k8) only under TCS_TF32_TENSOR_OP_MATH, on fp16 (m16n8k16) only under
 *    TCS_FP16_TENSOR_OP_MATH; fp16/bf16 data on HMMA m16n8k16, two pairs per MMA, fp32
 *    sums, results rounded to the data type. Needs compute capability 8.0 (ARCH_MISMATCH).
 *  - TCS_SPGEMM_ALG_TILE, CUDA cores: the same tiles and order with FMAs; fp64 sums for
 *    fp32 and fp64 data, fp32 sums for fp16/bf16 data. The math modes do not apply.
 * Both are fastest on blocky matrices (several unknowns per node, wide bands, FEM
 * stiffness matrices: many entries per 8x8 tile); on scattered patterns the hash
 * algorithm is faster (docs/algorithms/spgemm-tiles.md).
 */
typedef enum {
    TCS_SPGEMM_DEFAULT                  = 0,
    TCS_SPGEMM_CSR_ALG_DETERMINISTIC    = 1,
    TCS_SPGEMM_CSR_ALG_NONDETERMINISTIC = 2,
    TCS_SPGEMM_ALG1                     = 3,
    TCS_SPGEMM_ALG2                     = 4,
    TCS_SPGEMM_ALG3                     = 5,
    TCS_SPGEMM_ALG_HASH                 = 100, /**< nsparse family: row bins, shared-memory hash tables */
    TCS_SPGEMM_ALG_TILE                 = 101, /**< tSparse family: 8x8 bitmap tiles on CUDA cores */
    TCS_SPGEMM_ALG_TILE_TC              = 102  /**< tSparse family: 8x8 bitmap tiles on tensor cores */
} tcsSpGEMMAlg_t;
/** cuSPARSE's spelling of TCS_SPGEMM_CSR_ALG_DETERMINISTIC. */
#define TCS_SPGEMM_CSR_ALG_DETERMINITIC    TCS_SPGEMM_CSR_ALG_DETERMINISTIC
/** cuSPARSE's spelling of TCS_SPGEMM_CSR_ALG_NONDETERMINISTIC. */
#define TCS_SPGEMM_CSR_ALG_NONDETERMINITIC TCS_SPGEMM_CSR_ALG_NONDETERMINISTIC

/**
 * SpMM algorithms. The first ten values equal cusparseSpMMAlg_t; the CSR ones and
 * DEFAULT choose between row-split and merge-path by a rule measured on H100
 * (docs/algorithms/spmm-csr.md). COO, Blocked-ELL and BSR values are accepted as
 * arguments and return TCS_STATUS_NOT_SUPPORTED when the matrix is CSR.
 */
typedef enum {
    TCS_SPMM_ALG_DEFAULT      = 0,
    TCS_SPMM_COO_ALG1         = 1,
    TCS_SPMM_COO_ALG2         = 2,
    TCS_SPMM_COO_ALG3         = 3,
    TCS_SPMM_CSR_ALG1         = 4,
    TCS_SPMM_COO_ALG4         = 5,
    TCS_SPMM_CSR_ALG2         = 6,
    TCS_SPMM_CSR_ALG3         = 12,
    TCS_SPMM_BLOCKED_ELL_ALG1 = 13,
    TCS_SPMM_BSR_ALG1         = 14,
    TCS_SPMM_CSR_ROWSPLIT     = 100, /**< merge-spmm family: lane groups per row */
    TCS_SPMM_CSR_MERGE        = 101, /**< merge-spmm family: merge-path over rows and nonzeros */
    TCS_SPMM_BSR_TC           = 102  /**< SMaT family: BCSR blocks on tensor cores */
} tcsSpMMAlg_t;
/** \} */

/* ---------------------------------------------------------------------------------- */
/* Opaque objects                                                                     */
/* ---------------------------------------------------------------------------------- */

/** \defgroup tcs_objects Opaque objects
 *  \{ */

struct tcsContext;
/** Library context: stream, pointer mode, math mode, device properties.
 *  Created by tcsCreate, destroyed by tcsDestroy. One handle per host thread. */
typedef struct tcsContext* tcsHandle_t;

struct tcsSpMatDescr;
/** Sparse matrix descriptor: created by tcsCreateCsr/Coo/Bsr (or the Const variants),
 *  destroyed by tcsDestroySpMat. It stores the caller's pointers, never copies data. */
typedef struct tcsSpMatDescr*       tcsSpMatDescr_t;
/** A sparse matrix descriptor the library only reads (inputs A and B). */
typedef struct tcsSpMatDescr const* tcsConstSpMatDescr_t;

struct tcsDnMatDescr;
/** Dense matrix descriptor: created by tcsCreateDnMat / tcsCreateConstDnMat,
 *  destroyed by tcsDestroyDnMat. */
typedef struct tcsDnMatDescr*       tcsDnMatDescr_t;
/** A dense matrix descriptor the library only reads (input B of SpMM). */
typedef struct tcsDnMatDescr const* tcsConstDnMatDescr_t;

struct tcsSpGEMMDescr;
/** SpGEMM descriptor: remembers the stage of the protocol, the buffers given to
 *  workEstimation and compute (which must stay alive until tcsSpGEMM_copy has run),
 *  and what the algorithm learnt about A and B. Created by tcsSpGEMM_createDescr,
 *  destroyed by tcsSpGEMM_destroyDescr. */
typedef struct tcsSpGEMMDescr* tcsSpGEMMDescr_t;
/** \} */

/* ---------------------------------------------------------------------------------- */
/* Errors and version                                                                 */
/* ---------------------------------------------------------------------------------- */

/** \defgroup tcs_errors Errors and version
 *  \{ */

/** The enumerator name of a status ("TCS_STATUS_INVALID_VALUE"); "TCS_STATUS_UNKNOWN"
 *  for a value outside the enum. Never NULL; the string is static. Thread-safe. */
TCS_API const char* tcsGetErrorName(tcsStatus_t status);

/** A one-sentence description of a status; "unknown status" for a value outside the
 *  enum. Never NULL; the string is static. Thread-safe. */
TCS_API const char* tcsGetErrorString(tcsStatus_t status);

/** Writes TCS_VERSION of the loaded library to *version. Needs no handle and no GPU.
 *  Statuses: SUCCESS; INVALID_VALUE if version is NULL. */
TCS_API tcsStatus_t tcsGetVersion(tcsHandle_t handle, int* version);

/** Writes MAJOR_VERSION, MINOR_VERSION or PATCH_LEVEL of the loaded library to *value.
 *  Needs no GPU. Statuses: SUCCESS; INVALID_VALUE for a NULL value or another type. */
TCS_API tcsStatus_t tcsGetProperty(libraryPropertyType type, int* value);
/** \} */

/* ---------------------------------------------------------------------------------- */
/* Handle                                                                             */
/* ---------------------------------------------------------------------------------- */

/** \defgroup tcs_handle Handle
 *  \{ */

/** Creates a handle on the current CUDA device: stream 0 (the legacy default stream),
 *  host pointer mode, TCS_DEFAULT_MATH. Reads the device's properties once (SM count,
 *  shared memory per block with opt-in, L2 size). Synchronous; allocates host memory
 *  only. Statuses: SUCCESS; INVALID_VALUE if handle is NULL; NOT_INITIALIZED when no
 *  usable GPU or driver is present (then *handle is set to NULL and nothing is
 *  allocated); ALLOC_FAILED. */
TCS_API tcsStatus_t tcsCreate(tcsHandle_t* handle);

/** Destroys a handle; NULL is accepted and ignored (returns SUCCESS). Does not
 *  synchronize the stream: work already queued completes on its own. */
TCS_API tcsStatus_t tcsDestroy(tcsHandle_t handle);

/** Sets the stream all later calls with this handle launch on. Statuses: SUCCESS;
 *  INVALID_VALUE for a NULL handle. */
TCS_API tcsStatus_t tcsSetStream(tcsHandle_t handle, cudaStream_t streamId);

/** Writes the handle's stream to *streamId. Statuses: SUCCESS; INVALID_VALUE. */
TCS_API tcsStatus_t tcsGetStream(tcsHandle_t handle, cudaStream_t* streamId);

/** Sets where alpha and beta are read: from host memory at the call (HOST), or from
 *  device memory when the kernels run (DEVICE). Statuses: SUCCESS; INVALID_VALUE for
 *  a NULL handle or a mode outside tcsPointerMode_t. */
TCS_API tcsStatus_t tcsSetPointerMode(tcsHandle_t handle, tcsPointerMode_t mode);

/** Writes the handle's pointer mode to *mode. Statuses: SUCCESS; INVALID_VALUE. */
TCS_API tcsStatus_t tcsGetPointerMode(tcsHandle_t handle, tcsPointerMode_t* mode);

/** Sets the arithmetic the library may use (see tcsMath_t). Statuses: SUCCESS;
 *  INVALID_VALUE for a NULL handle or a mode outside tcsMath_t. */
TCS_API tcsStatus_t tcsSetMathMode(tcsHandle_t handle, tcsMath_t mode);

/** Writes the handle's math mode to *mode. Statuses: SUCCESS; INVALID_VALUE. */
TCS_API tcsStatus_t tcsGetMathMode(tcsHandle_t handle, tcsMath_t* mode);
/** \} */

/* ---------------------------------------------------------------------------------- */
/* Sparse matrix descriptors                                                          */
/* ---------------------------------------------------------------------------------- */

/** \defgroup tcs_sparse Sparse matrix descriptors
 *  \{ */

/**
 * Describes a rows x cols CSR matrix with nnz stored entries in the caller's device
 * arrays: csrRowOffsets[rows+1], csrColInd[nnz], csrValues[nnz] (value type
 * valueType: CUDA_R_32F, CUDA_R_64F, CUDA_R_16F or CUDA_R_16BF). Column indices
 * within a row may be unsorted. As in cuSPARSE, nnz = 0 with NULL csrColInd and
 * csrValues is accepted (the output C of SpGEMM is created that way), with or
 * without a caller-allocated csrRowOffsets. Host only, synchronous, allocates a
 * small host object. Statuses: SUCCESS; INVALID_VALUE (NULL spMatDescr, negative
 * sizes, nnz > rows*cols, NULL arrays with nnz > 0, NULL csrRowOffsets with rows > 0
 * and nnz > 0, enums out of range, a row-offset type different from 32I/64I);
 * ALLOC_FAILED.
 */
TCS_API tcsStatus_t tcsCreateCsr(tcsSpMatDescr_t* spMatDescr, int64_t rows, int64_t cols,
                                 int64_t nnz, void* csrRowOffsets, void* csrColInd,
                                 void* csrValues, tcsIndexType_t csrRowOffsetsType,
                                 tcsIndexType_t csrColIndType, tcsIndexBase_t idxBase,
                                 cudaDataType valueType);

/** tcsCreateCsr for a matrix the library only reads (inputs A and B). Same checks. */
TCS_API tcsStatus_t tcsCreateConstCsr(tcsConstSpMatDescr_t* spMatDescr, int64_t rows,
                                      int64_t cols, int64_t nnz, const void* csrRowOffsets,
                                      const void* csrColInd, const void* csrValues,
                                      tcsIndexType_t csrRowOffsetsType,
                                      tcsIndexType_t csrColIndType, tcsIndexBase_t idxBase,
                                      cudaDataType valueType);

/** Describes a COO matrix (row and column index arrays of nnz entries each).
 *  Descriptor only in this version: the products return NOT_SUPPORTED for COO. */
TCS_API tcsStatus_t tcsCreateCoo(tcsSpMatDescr_t* spMatDescr, int64_t rows, int64_t cols,
                                 int64_t nnz, void* cooRowInd, void* cooColInd,
                                 void* cooValues, tcsIndexType_t cooIdxType,
                                 tcsIndexBase_t idxBase, cudaDataType valueType);

/** Describes a BSR matrix of brows x bcols blocks of rowBlockSize x colBlockSize,
 *  bnnz stored blocks, each block stored in `order`. Sizes reported by
 *  tcsSpMatGetSize are in blocks, as in cuSPARSE. */
TCS_API tcsStatus_t tcsCreateBsr(tcsSpMatDescr_t* spMatDescr, int64_t brows, int64_t bcols,
                                 int64_t bnnz, int64_t rowBlockSize, int64_t colBlockSize,
                                 void* bsrRowOffsets, void* bsrColInd, void* bsrValues,
                                 tcsIndexType_t bsrRowOffsetsType, tcsIndexType_t bsrColIndType,
                                 tcsIndexBase_t idxBase, cudaDataType valueType,
                                 tcsOrder_t order);

/** Destroys a sparse descriptor (not the caller's arrays). NULL is accepted. */
TCS_API tcsStatus_t tcsDestroySpMat(tcsConstSpMatDescr_t spMatDescr);

/** Writes rows, cols and nnz (for BSR: block rows, block columns, stored blocks).
 *  After tcsSpGEMM_compute, nnz of C is the size of C's product. */
TCS_API tcsStatus_t tcsSpMatGetSize(tcsConstSpMatDescr_t spMatDescr, int64_t* rows,
                                    int64_t* cols, int64_t* nnz);

/** Writes the descriptor's format. */
TCS_API tcsStatus_t tcsSpMatGetFormat(tcsConstSpMatDescr_t spMatDescr, tcsFormat_t* format);

/** Writes the descriptor's index base. */
TCS_API tcsStatus_t tcsSpMatGetIndexBase(tcsConstSpMatDescr_t spMatDescr,
                                         tcsIndexBase_t* idxBase);

/** Writes the value array pointer. INVALID_VALUE for a descriptor made const. */
TCS_API tcsStatus_t tcsSpMatGetValues(tcsSpMatDescr_t spMatDescr, void** values);

/** Replaces the value array pointer (NULL only when nnz is 0). */
TCS_API tcsStatus_t tcsSpMatSetValues(tcsSpMatDescr_t spMatDescr, void* values);

/** Writes every field of a CSR descriptor; any output pointer may not be NULL.
 *  INVALID_VALUE for a non-CSR or const descriptor. */
TCS_API tcsStatus_t tcsCsrGet(tcsSpMatDescr_t spMatDescr, int64_t* rows, int64_t* cols,
                              int64_t* nnz, void** csrRowOffsets, void** csrColInd,
                              void** csrValues, tcsIndexType_t* csrRowOffsetsType,
                              tcsIndexType_t* csrColIndType, tcsIndexBase_t* idxBase,
                              cudaDataType* valueType);

/** Replaces the three array pointers of a CSR descriptor (after tcsSpGEMM_compute:
 *  C's arrays of nnz(C) entries). csrColInd and csrValues may be NULL only when nnz
 *  is 0. Pointers must be aligned to their types (INVALID_VALUE otherwise). */
TCS_API tcsStatus_t tcsCsrSetPointers(tcsSpMatDescr_t spMatDescr, void* csrRowOffsets,
                                      void* csrColInd, void* csrValues);
/** \} */

/* ---------------------------------------------------------------------------------- */
/* Dense matrix descriptors                                                           */
/* ---------------------------------------------------------------------------------- */

/** \defgroup tcs_dense Dense matrix descriptors
 *  \{ */

/** Describes a rows x cols dense matrix in the caller's device array `values`,
 *  stored column-major (ld >= rows) or row-major (ld >= cols). Host only.
 *  Statuses: SUCCESS; INVALID_VALUE (NULL output, negative sizes, ld too small,
 *  NULL values with rows*cols > 0, enums out of range); ALLOC_FAILED. */
TCS_API tcsStatus_t tcsCreateDnMat(tcsDnMatDescr_t* dnMatDescr, int64_t rows, int64_t cols,
                                   int64_t ld, void* values, cudaDataType valueType,
                                   tcsOrder_t order);

/** tcsCreateDnMat for a matrix the library only reads. */
TCS_API tcsStatus_t tcsCreateConstDnMat(tcsConstDnMatDescr_t* dnMatDescr, int64_t rows,
                                        int64_t cols, int64_t ld, const void* values,
                                        cudaDataType valueType, tcsOrder_t order);

/** Destroys a dense descriptor (not the caller's array). NULL is accepted. */
TCS_API tcsStatus_t tcsDestroyDnMat(tcsConstDnMatDescr_t dnMatDescr);

/** Writes every field of a dense descriptor. INVALID_VALUE for a const descriptor. */
TCS_API tcsStatus_t tcsDnMatGet(tcsDnMatDescr_t dnMatDescr, int64_t* rows, int64_t* cols,
                                int64_t* ld, void** values, cudaDataType* type,
                                tcsOrder_t* order);

/** Writes the value array pointer. INVALID_VALUE for a const descriptor. */
TCS_API tcsStatus_t tcsDnMatGetValues(tcsDnMatDescr_t dnMatDescr, void** values);

/** Replaces the value array pointer. */
TCS_API tcsStatus_t tcsDnMatSetValues(tcsDnMatDescr_t dnMatDescr, void* values);
/** \} */

/* ---------------------------------------------------------------------------------- */
/* SpGEMM: C = alpha * op(A) * op(B) + beta * C                                       */
/* ---------------------------------------------------------------------------------- */

/**
 * \defgroup tcs_spgemm SpGEMM: C = alpha * op(A) * op(B) + beta * C
 * The protocol, identical to cuSPARSE's:
 * \code
 *   tcsSpGEMM_createDescr(&d);
 *   tcsSpGEMM_workEstimation(..., d, &size1, NULL);   // size query
 *   cudaMalloc(&buf1, size1);
 *   tcsSpGEMM_workEstimation(..., d, &size1, buf1);   // analysis (synchronizes once)
 *   tcsSpGEMM_compute(..., d, &size2, NULL);          // size query (exact)
 *   cudaMalloc(&buf2, size2);
 *   tcsSpGEMM_compute(..., d, &size2, buf2);          // after this nnz(C) is known
 *   tcsSpMatGetSize(C, &m, &n, &nnzC);
 *   cudaMalloc C's column and value arrays;  tcsCsrSetPointers(C, rowPtrC, colC, valC);
 *   tcsSpGEMM_copy(..., d);                           // writes C
 *   free buf1, buf2;  tcsSpGEMM_destroyDescr(d);
 * \endcode
 * Semantics shared by the four calls:
 *  - A (m x k), B (k x n) and C (m x n) are CSR with 32-bit indices; C is created with
 *    nnz 0, NULL column/value arrays, and its row-offset array may already be given.
 *    Index bases of A, B and C may differ. Column indices of A and B may be unsorted;
 *    C's columns come out sorted within each row.
 *  - opA and opB must be TCS_OPERATION_NON_TRANSPOSE (NOT_SUPPORTED otherwise, as in
 *    cuSPARSE). A, B and C share one value type: CUDA_R_32F or CUDA_R_64F with
 *    computeType equal to it, or CUDA_R_16F or CUDA_R_16BF with computeType CUDA_R_32F
 *    (fp32 sums, results rounded to the data type; the tile algorithms only:
 *    TCS_SPGEMM_ALG_HASH returns NOT_SUPPORTED). alpha and beta are of computeType.
 *  - C's pattern is the symbolic product: an entry whose products cancel to zero is
 *    kept as an explicit zero, so nnz(C) equals cuSPARSE's.
 *  - The same arguments (alg, matrices, descriptor) must be passed to all four calls;
 *    an argument that changes between them returns INVALID_VALUE.
 *  - Reuse: calling tcsSpGEMM_compute and tcsSpGEMM_copy again on the same descriptor,
 *    with new values in A and B (same patterns, same buffers), recomputes C's values.
 *  - Determinism: the pattern and column order of C are always the same for the same
 *    input; the hash algorithm's values are bitwise reproducible run to run on the same
 *    device: each entry of C is summed in an order fixed by the patterns of A and B,
 *    never by timing (the order of A's row in rows of C with at most 96 entries, a
 *    fixed interleaving of A's row in longer ones: per-warp partial sums added in warp
 *    order, or warp by warp in a fixed order), so repeated runs give identical C. The
 *    tile algorithms' values are bitwise reproducible too: each tile of C is summed by
 *    one warp over its pairs in increasing A tile (on HMMA two pairs per instruction),
 *    whatever the number of warps a panel is split into.
 *  - All work runs on the handle's stream in the caller's buffers; the library
 *    allocates no device memory.
 *  - Sizes beyond 32-bit indices (nnz(C) or the number of products >= 2^31) return
 *    INSUFFICIENT_RESOURCES (the tile algorithms: nnz(C) only).
 *  - Memory of the tile algorithms: buffer1 holds A's and B's tiles, sized from nnz
 *    alone (at most one tile per entry: 16 bytes per entry of A and of B, plus 4 for
 *    the map from tile order to CSR order), C's row offsets and a few bytes per panel
 *    of 8 rows; buffer2 holds A's and B's values in tile order. When B is A (the same
 *    arrays, C = A*A) they are converted once and their halves are not taken.
 *  - Column indices outside [base, base+cols) in A or B are undefined behaviour (they
 *    are not checked, as in cuSPARSE).
 * \{
 */

/** Creates an SpGEMM descriptor. Host only. Statuses: SUCCESS; INVALID_VALUE;
 *  ALLOC_FAILED. */
TCS_API tcsStatus_t tcsSpGEMM_createDescr(tcsSpGEMMDescr_t* descr);

/** Destroys an SpGEMM descriptor; NULL is accepted. Does not free the caller's
 *  buffers. */
TCS_API tcsStatus_t tcsSpGEMM_destroyDescr(tcsSpGEMMDescr_t descr);

/**
 * Stage 1. With externalBuffer1 == NULL: writes the bytes needed to *bufferSize1 and
 * does nothing else (no GPU work, no synchronization). With a buffer of at least
 * *bufferSize1 bytes: the analysis, kept in buffer1, which must stay alive and
 * unmodified until tcsSpGEMM_copy; it synchronizes the handle's stream once (to read
 * nnz(C) back). The hash algorithm counts the products of each row of C, groups the
 * rows by work and runs the symbolic pass that yields nnz per row of C and C's row
 * offsets. The tile algorithms convert A and B to 8x8 bitmap tiles on the GPU and
 * count each row of C from the tiles' bitmaps. TCS_SPGEMM_DEFAULT chooses: fp16/bf16
 * data take the tile algorithm on tensor cores; otherwise, when A or B has fewer than 25
 * entries per row on average, the hash algorithm, decided on the host; for the others
 * the size query asks for room for either algorithm, and this call measures the entries
 * per 8x8 tile on a sample of A's and B's panels (one more synchronization) and takes
 * the tile algorithm on tensor cores when both have at least 16 (the rule and its data:
 * docs/algorithms/spgemm-tiles.md). Statuses: SUCCESS; INVALID_VALUE (NULL or
 * mismatched arguments, enums out of range, incompatible dimensions, buffer smaller than
 * required); NOT_SUPPORTED (op, index or value type not supported); ARCH_MISMATCH
 * (tensor cores on a device below compute capability 8.0); INSUFFICIENT_RESOURCES
 * (beyond 32-bit indices); EXECUTION_FAILED.
 */
TCS_API tcsStatus_t tcsSpGEMM_workEstimation(tcsHandle_t handle, tcsOperation_t opA,
                                             tcsOperation_t opB, const void* alpha,
                                             tcsConstSpMatDescr_t matA,
                                             tcsConstSpMatDescr_t matB, const void* beta,
                                             tcsSpMatDescr_t matC, cudaDataType computeType,
                                             tcsSpGEMMAlg_t alg, tcsSpGEMMDescr_t spgemmDescr,
                                             size_t* bufferSize1, void* externalBuffer1);

/** Writes the number of scalar products of A*B (the flop count is twice it), known
 *  after tcsSpGEMM_workEstimation with a buffer. Statuses: SUCCESS; INVALID_VALUE;
 *  NOT_INITIALIZED if workEstimation has not run on this descriptor. */
TCS_API tcsStatus_t tcsSpGEMM_getNumProducts(tcsSpGEMMDescr_t spgemmDescr, int64_t* num_prods);

/**
 * For callers of cuSPARSE's ALG2/ALG3 protocol (AmgX). After workEstimation with a
 * buffer: with externalBuffer3 == NULL writes *bufferSize3 (a small positive size,
 * buffer3 is not used afterwards and may be freed at once); with a buffer3 writes the
 * exact size of buffer2 to *bufferSize2. chunk_fraction must lie in (0, 1]; tcsparse's
 * algorithms need no chunking, so it does not change the result. Host only.
 * Statuses: SUCCESS; INVALID_VALUE; NOT_INITIALIZED before workEstimation.
 */
TCS_API tcsStatus_t tcsSpGEMM_estimateMemory(tcsHandle_t handle, tcsOperation_t opA,
                                             tcsOperation_t opB, const void* alpha,
                                             tcsConstSpMatDescr_t matA,
                                             tcsConstSpMatDescr_t matB, const void* beta,
                                             tcsSpMatDescr_t matC, cudaDataType computeType,
                                             tcsSpGEMMAlg_t alg, tcsSpGEMMDescr_t spgemmDescr,
                                             float chunk_fraction, size_t* bufferSize3,
                                             void* externalBuffer3, size_t* bufferSize2);

/**
 * Stage 2. With externalBuffer2 == NULL: writes the exact bytes needed to
 * *bufferSize2 (host only). With a buffer: records nnz(C) in matC (read it with
 * tcsSpMatGetSize); the hash algorithm also groups the rows by nnz of C in buffer2,
 * which must stay alive until tcsSpGEMM_copy (the tile algorithms do no GPU work here;
 * their buffer2 receives A's and B's values in tile order at copy). Asynchronous.
 * Statuses: SUCCESS; INVALID_VALUE; NOT_INITIALIZED if workEstimation has not run with
 * a buffer.
 */
TCS_API tcsStatus_t tcsSpGEMM_compute(tcsHandle_t handle, tcsOperation_t opA,
                                      tcsOperation_t opB, const void* alpha,
                                      tcsConstSpMatDescr_t matA, tcsConstSpMatDescr_t matB,
                                      const void* beta, tcsSpMatDescr_t matC,
                                      cudaDataType computeType, tcsSpGEMMAlg_t alg,
                                      tcsSpGEMMDescr_t spgemmDescr, size_t* bufferSize2,
                                      void* externalBuffer2);

/**
 * Stage 3. Writes C's row offsets, sorted column indices and values into the arrays
 * set on matC (tcsCsrSetPointers): C = alpha*A*B + beta*C, where with beta != 0 C's
 * value array must already hold values on C's pattern. The numeric pass runs here,
 * straight into C's arrays, so no second copy of C ever exists (the tile algorithms
 * first gather A's and B's current values into tile order in buffer2, so new values
 * on the same pattern need only compute and copy again). Asynchronous. Statuses:
 * SUCCESS; INVALID_VALUE (C's arrays not set, arguments differ from the earlier
 * stages); NOT_INITIALIZED if compute has not run.
 */
TCS_API tcsStatus_t tcsSpGEMM_copy(tcsHandle_t handle, tcsOperation_t opA, tcsOperation_t opB,
                                   const void* alpha, tcsConstSpMatDescr_t matA,
                                   tcsConstSpMatDescr_t matB, const void* beta,
                                   tcsSpMatDescr_t matC, cudaDataType computeType,
                                   tcsSpGEMMAlg_t alg, tcsSpGEMMDescr_t spgemmDescr);
/** \} */

/* ---------------------------------------------------------------------------------- */
/* SpMM: C = alpha * op(A) * op(B) + beta * C, A sparse, B and C dense                 */
/* ---------------------------------------------------------------------------------- */

/**
 * \defgroup tcs_spmm SpMM: C = alpha * op(A) * op(B) + beta * C, A sparse, B and C dense
 * Semantics shared by the three calls:
 *  - A is CSR with 32-bit indices, op(A) is m x k, op(B) k x n, C m x n. B and C may
 *    be row- or column-major with any leading dimension.
 *  - Types (A and B / C / computeType): fp32/fp32/fp32, fp64/fp64/fp64, and fp16 or
 *    bf16 inputs with fp32 compute and C of the input type or fp32.
 *  - opA: NON_TRANSPOSE or TRANSPOSE; opB: NON_TRANSPOSE or TRANSPOSE;
 *    CONJUGATE_TRANSPOSE equals TRANSPOSE for real types.
 *  - beta == 0 never reads C (C may hold NaN).
 *  - No allocation. tcsSpMM is asynchronous and never synchronizes: it may be captured
 *    in a CUDA graph (tcsSpMM_preprocess may wait for the stream once, see there).
 *    Deterministic: the same input, algorithm, handle device and sizes give bitwise
 *    the same C, with or without preprocess (the order of the sums follows from the
 *    sizes, never from timing or from which kernel runs; atomics only count).
 *  - Statuses: SUCCESS; INVALID_VALUE (NULL or inconsistent arguments, enums out of
 *    range, dimensions that do not match, buffer NULL when the size is > 0);
 *    NOT_SUPPORTED (a format or type combination this version lacks);
 *    EXECUTION_FAILED.
 * \{
 */

/** Writes the bytes of external buffer the call needs to *bufferSize. Host only.
 *  The size depends on the sizes, types, operations, orders and algorithm, never on
 *  values or addresses. Besides what tcsSpMM_preprocess keeps, it holds, for the
 *  row-split algorithm (the default's choice except for column-wise op(B) with
 *  n <= 16), a row-wise copy of a column-wise op(B) (B column-major, or row-major with
 *  opB = TRANSPOSE) of k x n elements and a row-wise m x n copy of a column-major C in
 *  the compute type, where they make the call faster (sizes in
 *  docs/algorithms/spmm-csr.md); TCS_SPMM_CSR_MERGE needs neither. Where the copies
 *  of all n columns would exceed 128 MiB, tcsSpMM does the columns 32 at a time and
 *  the buffer holds the copies of 32 columns: the size is then the one for n = 32. */
TCS_API tcsStatus_t tcsSpMM_bufferSize(tcsHandle_t handle, tcsOperation_t opA,
                                       tcsOperation_t opB, const void* alpha,
                                       tcsConstSpMatDescr_t matA, tcsConstDnMatDescr_t matB,
                                       const void* beta, tcsDnMatDescr_t matC,
                                       cudaDataType computeType, tcsSpMMAlg_t alg,
                                       size_t* bufferSize);

/** Analyses A's structure (a transposed copy for opA = T, row-split's list of long
 *  rows, the merge-path partition) into externalBuffer and makes it the active buffer
 *  of matA. Later tcsSpMM calls with this buffer and the same parameters (alpha, beta,
 *  B, C and A's values may change) reuse the analysis. No allocation. Enqueued on the
 *  handle's stream; where the row-split algorithm runs (the default's usual choice)
 *  it then waits for the stream once (one stream synchronization) to read two counts:
 *  the rows it listed as long (tcsSpMM then gives them only the thread blocks they
 *  need) and, where row-split would run with one nonzero lane per row and 16 or more
 *  column lanes (fp32 n > 32 or fp64 n > 16, on a device kept busy by many rows), the
 *  runs of consecutive rows with the same column indices (the unknowns of one mesh
 *  node, the rows of a dense block): with few runs per row tcsSpMM shares each load of
 *  B among the rows of a run (docs/algorithms/spmm-csr.md). Without long rows or runs
 *  to count (merge-path, CSR-vector) it does not wait. Capturable in a CUDA graph:
 *  while the stream is being captured it does not wait, and tcsSpMM plans the long
 *  rows' blocks from a bound and runs without runs. Either way C is bitwise the same. */
TCS_API tcsStatus_t tcsSpMM_preprocess(tcsHandle_t handle, tcsOperation_t opA,
                                       tcsOperation_t opB, const void* alpha,
                                       tcsConstSpMatDescr_t matA, tcsConstDnMatDescr_t matB,
                                       const void* beta, tcsDnMatDescr_t matC,
                                       cudaDataType computeType, tcsSpMMAlg_t alg,
                                       void* externalBuffer);

/** Computes C = alpha*op(A)*op(B) + beta*C. Without an earlier preprocess on this
 *  buffer, it does the analysis itself on each call. The buffer carries counters from
 *  call to call (each call leaves them as it found them): calls that may run at the
 *  same time, on different streams, need buffers of their own. */
TCS_API tcsStatus_t tcsSpMM(tcsHandle_t handle, tcsOperation_t opA, tcsOperation_t opB,
                            const void* alpha, tcsConstSpMatDescr_t matA,
                            tcsConstDnMatDescr_t matB, const void* beta, tcsDnMatDescr_t matC,
                            cudaDataType computeType, tcsSpMMAlg_t alg, void* externalBuffer);
/** \} */

#ifdef __cplusplus
}
#endif

#endif /* TCSPARSE_H_ */
