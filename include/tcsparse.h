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
 *    bad argument, 2 = also a trace of every call, 3 = also the host time of every
 *    tcsSpMV and tcsSpMM call with its shape, scalar location, stream and whether a
 *    preprocess analysis was used) to have them printed on stderr.
 *  - Environment: TCS_LOG_LEVEL, TCS_CHECK_INPUTS and TCS_SPMM_REORDER are each read
 *    once, at the library's first need of them, and kept for the life of the process:
 *    set them before the first call (a later setenv changes nothing; calls after the
 *    first reading do not read the environment again).
 *  - Object lifetime: handles and descriptors are opaque values, not addresses. A
 *    destroyed one, one destroyed twice, one of another kind, or any other value that
 *    is not a live object of the expected kind returns TCS_STATUS_NOT_INITIALIZED from
 *    every function, destroy functions included, and is never freed, read or written
 *    through, even after another object has taken its memory. (Destroying an object
 *    while another thread is using it remains the caller's error.) Checking a handle
 *    costs two atomic loads, no lock.
 *  - "Host" pointers point to CPU memory, "device" pointers to GPU memory that the
 *    caller owns. Scalars (alpha, beta) follow the handle's pointer mode.
 *  - Functions that launch GPU work are asynchronous with respect to the host and
 *    ordered on the handle's stream, unless their block says they synchronize.
 *  - No function allocates device memory except tcsCreate (only with input checking,
 *    TCS_CHECK_INPUTS=1, see tcsCheckMatrixCsr); all GPU scratch memory comes from the
 *    caller's buffers. Descriptor creation allocates a small host object.
 *  - Threads (cuSPARSE's rule): a handle, an SpGEMM descriptor or a matrix descriptor
 *    written by a call (matC) may be used by one host thread at a time; give each
 *    thread its own handle, or lock around the calls. Descriptors only read (A and B of
 *    a product) may be shared by threads running at once, and several handles may share
 *    a stream (calls are then ordered by the stream). matA of tcsSpMM_preprocess and
 *    tcsSpMV_preprocess, which records its active buffer there, is such a shared input
 *    too: threads with their own handles and buffers may preprocess and multiply with
 *    one matA at once. The analysis is published whole, atomically, with the buffer it
 *    was made in: a product that finds the last analysis to be of its own buffer uses
 *    it, and one that finds another thread's runs without it (the same result, the
 *    cost of a call without preprocess), never one buffer with another's analysis. Functions taking no handle and no
 *    descriptor (tcsGetErrorName, tcsGetErrorString, tcsGetProperty) may be called from
 *    any thread at any time.
 *  - Index types: descriptors accept 16U, 32I and 64I like cuSPARSE, with row offsets
 *    and column indices of one width (different widths: NOT_SUPPORTED when the
 *    descriptor is made, as in cuSPARSE). SpMV, SpMM and SpGEMM take CSR matrices
 *    whose indices are both TCS_INDEX_32I or both TCS_INDEX_64I (SpMV and SpMM:
 *    cuSPARSE's combinations; SpGEMM: an extension, cuSPARSE's SpGEMM takes 32-bit
 *    indices only); BSR SpMM takes 32-bit indices; 16U returns TCS_STATUS_NOT_SUPPORTED
 *    from the products. (Through the cuSPARSE swap-in shim, such calls are forwarded
 *    to the real cuSPARSE: docs/forwarding.md.)
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
#define TCS_VERSION_MINOR 2
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

/** Status of every call. Values equal cusparseStatus_t.
 *
 *  CUDA errors the caller left pending: libtcsparse links the CUDA runtime statically,
 *  so its last-error state (one per host thread and runtime) is its own. An error the
 *  caller's runtime holds (cudaPeekAtLastError in the caller would return it) is not
 *  seen by tcsparse: the call runs, is not failed because of it, and the error stays
 *  pending for the caller's cudaGetLastError (checked on an H200 by gpu_pending_error).
 *  tcsparse checks its own runtime before a stage's GPU work and takes only errors of
 *  its own launches. A sticky error (a fault that broke the CUDA context) fails every
 *  later CUDA call of the process, tcsparse's included: TCS_STATUS_EXECUTION_FAILED. */
typedef enum {
    TCS_STATUS_SUCCESS                   = 0,
    TCS_STATUS_NOT_INITIALIZED           = 1,  /**< no usable GPU, or a descriptor that was never created */
    TCS_STATUS_ALLOC_FAILED              = 2,  /**< host or device memory exhausted; the handle stays usable */
    TCS_STATUS_INVALID_VALUE             = 3,  /**< a bad argument (see TCS_LOG_LEVEL for which one) */
    TCS_STATUS_ARCH_MISMATCH             = 4,  /**< the GPU lacks a feature the call needs, or this build of tcsparse has no code for it */
    TCS_STATUS_MAPPING_ERROR             = 5,
    TCS_STATUS_EXECUTION_FAILED          = 6,  /**< a kernel launch or a CUDA call failed (a sticky error of the context included: see above) */
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
 * rounds like an fp64 dot product); fp32 data is multiplied in fp32, or, on the
 * tensor-core paths (the tile SpGEMM TCS_SPGEMM_ALG_TILE_TC and the block SpMM
 * TCS_SPMM_BSR_TC), widened to fp64 on DMMA (exact products, fp64 sums, one rounding to
 * fp32: more accurate than fp32 arithmetic). TCS_TF32_TENSOR_OP_MATH allows TF32
 * tensor-core arithmetic for fp32 data (inputs rounded to a 10-bit mantissa, fp32 sums):
 * both tensor-core paths then use it. TCS_FP16_TENSOR_OP_MATH allows fp32 data to be
 * rounded to fp16 for fp16 tensor cores with fp32 sums (the tile SpGEMM; the block SpMM
 * keeps fp32 data on DMMA under it), with fp16's range: magnitudes from 65520 round to
 * infinity, below 2^-14 to subnormals (an absolute step of 2^-24), up to 2^-25 to zero;
 * scale the data into range first. fp16 and bf16 data are multiplied exactly and summed
 * in fp32 whatever the mode. Neither TF32 nor fp16 rounding is ever taken without being
 * set. Values 0, 2, 3 equal cublasMath_t's.
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
 * algorithm is faster (docs/algorithms/spgemm-tiles.md). So that a tile algorithm named
 * explicitly is never far slower than DEFAULT, for fp32 and fp64 data it hands the
 * products tiles would handle badly to the hash algorithm inside the same calls (the
 * results are then the hash algorithm's: as bitwise reproducible, with fp32 sums for
 * fp32 data instead of the tiles' fp64 sums, fp32 accuracy either way): a short-fat A times a
 * tall-skinny B (A's columns at least 4 times both A's rows and B's columns) on the
 * host, and, after converting A and B to tiles in workEstimation, A or B with fewer
 * than 7 entries per nonempty 8x8 tile on average (uniform random matrices, power-law
 * graphs, rows of thousands of entries among short ones); also products the tile
 * algorithms cannot index (nnz(C) >= 2^31, or A and B beyond 32-bit positions). The
 * thresholds are looser than DEFAULT's: the explicit choice is kept wherever tiles were
 * measured within about 2x of hash (docs/algorithms/spgemm-tiles.md, "Explicit tile
 * algorithms"). fp16/bf16 data, for which the hash algorithm has no path, always run on
 * tiles. The environment variable TCS_HANDOFF=0 (read once per process) turns the
 * hand-off off, a diagnostic.
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
 * SpMM algorithms. The first ten values equal cusparseSpMMAlg_t.
 *  - TCS_SPMM_ALG_DEFAULT: for a CSR A, the CSR family (row-split, merge-path or
 *    CSR-vector, by a rule measured on the H100: docs/algorithms/spmm-csr.md), or, after
 *    tcsSpMM_preprocess, the tensor-core block family where it was measured to pay: opA
 *    NON_TRANSPOSE, fp16, bf16 or fp64 data, n >= 32, 2^20 entries or more with sorted
 *    columns and no duplicate, and enough nonzeros of A per row of op(B) that a block
 *    loads (4 for fp16/bf16, 8 for fp64; docs/algorithms/spmm-blocks.md). Only then does
 *    preprocess run the block analysis (and its one wait), and the buffer size is the
 *    larger of both families'. Without preprocess, and for fp32 data, DEFAULT is the CSR
 *    family. For a BSR A: the block family.
 *  - CSR_ALG1, CSR_ALG2, CSR_ALG3: the CSR family's own rule (DEFAULT's for CSR A); CSR
 *    A only.
 *  - TCS_SPMM_CSR_ROWSPLIT, TCS_SPMM_CSR_MERGE: one CSR kernel family; CSR A only.
 *  - TCS_SPMM_BSR_TC: the block family for a CSR or a BSR A: A cut into blocks of 32
 *    rows x 16 of their columns, multiplied on tensor cores (mma.sync). opA must be
 *    NON_TRANSPOSE. Needs compute capability 8.0 (ARCH_MISMATCH otherwise). For a CSR
 *    A, tcsSpMM_preprocess hands A to the CSR family (DEFAULT's kernels for a CSR A)
 *    where its block analysis counts fewer than 3.5 nonzeros of A per row of op(B) a
 *    block loads (graphs, hub rows, scattered patterns, where the blocks were measured
 *    several times slower: docs/algorithms/spmm-blocks.md), so that the explicit choice
 *    is never far slower than DEFAULT; tcsSpMM_getBlockCounts then reports usesBlocks
 *    0. Without preprocess (which may not wait), while the stream is being captured,
 *    for a BSR A and with TCS_HANDOFF=0 (read once per process, a diagnostic) the
 *    blocks always compute.
 *  - TCS_SPMM_BSR_ALG1: cuSPARSE's BSR algorithm; BSR A only, computed by the block family.
 *  - COO and Blocked-ELL values are accepted as arguments and return
 *    TCS_STATUS_NOT_SUPPORTED (no COO or Blocked-ELL SpMM in this version).
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
    TCS_SPMM_BSR_TC           = 102  /**< SMaT family: dense blocks on tensor cores */
} tcsSpMMAlg_t;

/**
 * SpMV algorithms. The values equal cusparseSpMVAlg_t. DEFAULT, CSR_ALG1 and CSR_ALG2
 * run tcsparse's CSR product (the one-column kernel of SpMM's row-split family), which
 * is deterministic whichever is named for op(A) = A. For op(A) = A^T, as in cuSPARSE,
 * DEFAULT and CSR_ALG1 may scatter with atomic additions (results may differ in
 * rounding from run to run) and CSR_ALG2 is deterministic (a transposed copy in the
 * buffer); the SpMV group says when. COO, SELL and BSR values are accepted as arguments
 * and return TCS_STATUS_NOT_SUPPORTED when the matrix is CSR.
 */
typedef enum {
    TCS_SPMV_ALG_DEFAULT = 0,
    TCS_SPMV_COO_ALG1    = 1,
    TCS_SPMV_CSR_ALG1    = 2,
    TCS_SPMV_CSR_ALG2    = 3, /**< cuSPARSE's deterministic CSR value */
    TCS_SPMV_COO_ALG2    = 4,
    TCS_SPMV_SELL_ALG1   = 5,
    TCS_SPMV_BSR_ALG1    = 6
} tcsSpMVAlg_t;
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

struct tcsDnVecDescr;
/** Dense vector descriptor: created by tcsCreateDnVec / tcsCreateConstDnVec,
 *  destroyed by tcsDestroyDnVec. It stores the caller's pointer, never copies data. */
typedef struct tcsDnVecDescr*       tcsDnVecDescr_t;
/** A dense vector descriptor the library only reads (input x of SpMV). */
typedef struct tcsDnVecDescr const* tcsConstDnVecDescr_t;

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
 *  only, and with TCS_CHECK_INPUTS=1 in the environment a few hundred bytes of device
 *  scratch for input checking (tcs_check). Statuses: SUCCESS; INVALID_VALUE if handle is NULL; NOT_INITIALIZED when no
 *  usable GPU or driver is present (then *handle is set to NULL and nothing is
 *  allocated); ALLOC_FAILED. */
TCS_API tcsStatus_t tcsCreate(tcsHandle_t* handle);

/** Destroys a handle; NULL is accepted and ignored (returns SUCCESS). Does not
 *  synchronize the stream: work already queued completes on its own (a checking
 *  handle's scratch is freed with cudaFree, which waits for the device). */
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
 * and nnz > 0, enums out of range); NOT_SUPPORTED (csrRowOffsetsType and csrColIndType
 * of different widths, refused here as cuSPARSE refuses them; 16U/16U is accepted, as
 * cuSPARSE accepts it, and refused by the products); ALLOC_FAILED.
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
 *  Descriptor only in this version: the products return NOT_SUPPORTED for COO. Host
 *  only, synchronous. Statuses: SUCCESS; INVALID_VALUE (NULL spMatDescr, negative sizes,
 *  nnz > rows*cols, NULL arrays with nnz > 0, arrays not aligned to their types, nnz
 *  whose arrays' bytes pass int64, enums out of range); ALLOC_FAILED. */
TCS_API tcsStatus_t tcsCreateCoo(tcsSpMatDescr_t* spMatDescr, int64_t rows, int64_t cols,
                                 int64_t nnz, void* cooRowInd, void* cooColInd,
                                 void* cooValues, tcsIndexType_t cooIdxType,
                                 tcsIndexBase_t idxBase, cudaDataType valueType);

/** Describes a BSR matrix of brows x bcols blocks of rowBlockSize x colBlockSize,
 *  bnnz stored blocks: bsrRowOffsets[brows+1], bsrColInd[bnnz] (block columns, unsorted
 *  allowed, each at most once per block row), bsrValues[bnnz*rowBlockSize*colBlockSize],
 *  each block's elements row-major (TCS_ORDER_ROW) or column-major (TCS_ORDER_COL). The
 *  matrix is (brows*rowBlockSize) x (bcols*colBlockSize); every element of a stored
 *  block counts as an entry (zeros included). Sizes reported by tcsSpMatGetSize are in
 *  blocks, as in cuSPARSE. SpMM computes with BSR matrices through the block family
 *  (TCS_SPMM_ALG_DEFAULT, TCS_SPMM_BSR_ALG1, TCS_SPMM_BSR_TC; 32-bit indices); SpGEMM
 *  returns NOT_SUPPORTED. Host only, synchronous. Statuses: SUCCESS; INVALID_VALUE (as
 *  tcsCreateCsr's, arrays not aligned to their types, block sizes < 1, and sizes whose
 *  products pass int64: brows*rowBlockSize, bcols*colBlockSize, or the bytes of
 *  bsrValues, bnnz*rowBlockSize*colBlockSize elements); NOT_SUPPORTED (offsets and block columns of
 *  different widths, as in cuSPARSE); ALLOC_FAILED. */
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
 *  NULL values with rows*cols > 0, values not aligned to valueType, an array whose
 *  bytes (ld times cols column-major, ld times rows row-major, times the element size)
 *  pass int64, enums out of range); ALLOC_FAILED. */
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

/** Replaces the value array pointer (NULL only for an empty matrix; aligned to the
 *  element type). INVALID_VALUE otherwise, or for a const descriptor. */
TCS_API tcsStatus_t tcsDnMatSetValues(tcsDnMatDescr_t dnMatDescr, void* values);
/** \} */

/* ---------------------------------------------------------------------------------- */
/* Matrix validation                                                                  */
/* ---------------------------------------------------------------------------------- */

/**
 * \defgroup tcs_check Matrix validation
 * cuSPARSE trusts its inputs: a column index out of range or row offsets that go
 * backwards make its products read outside the arrays. tcsparse can check a CSR
 * matrix's device arrays on the GPU, on request (tcsCheckMatrixCsr) or before every
 * product (input checking, below).
 *
 * Input checking: with the environment variable TCS_CHECK_INPUTS=1 (read once per
 * process, at the first tcsCreate), every product called with any handle
 * (tcsSpGEMM_workEstimation, compute and copy; the four tcsSpGEMMreuse stages that
 * run work; tcsSpMM_preprocess, tcsSpMM, tcsSpMV_preprocess and tcsSpMV) first checks its sparse inputs at level
 * TCS_CHECK_STRUCTURE, ignoring the values (NaN and Inf are valid input), and returns
 * TCS_STATUS_INVALID_VALUE without running the product when a rule fails; with
 * TCS_LOG_LEVEL >= 1 the log names the argument, the rule and the first row that breaks
 * it. Checking waits for the handle's stream once per checked matrix (so it cannot run
 * while the stream is captured into a CUDA graph: the call then returns
 * TCS_STATUS_NOT_SUPPORTED) and costs a pass over the matrix's structure. Each handle
 * then allocates a small device scratch in tcsCreate (freed by tcsDestroy).
 *
 * Without checking, a product over invalid data (offsets out of order or beyond nnz,
 * columns outside the matrix) computes an undefined C, as in cuSPARSE, with a promise
 * cuSPARSE does not make: every product bounds every index it reads from A and B, so it
 * reads and writes nothing outside the arrays of A, B, C and the buffers, and returns.
 * (The entries of C for the broken rows are garbage; SpGEMM may also report
 * INSUFFICIENT_RESOURCES when corrupt input gives a row of C 2^31 products, and the tile
 * algorithms' workEstimation returns INVALID_VALUE where A's or B's row offsets
 * decrease, which it finds while converting them to tiles.)
 * \{
 */

/** The rule a CSR matrix breaks (tcsCheckMatrixCsr); the first one in this order is
 *  reported. Values match no cuSPARSE enum (cuSPARSE has no validation). */
typedef enum {
    TCS_DATA_STATUS_SUCCESS          = 0, /**< every rule checked holds */
    TCS_DATA_STATUS_INVALID_OFFSETS  = 1, /**< csrRowOffsets[0] != base, or csrRowOffsets[rows] != nnz + base */
    TCS_DATA_STATUS_OFFSETS_DECREASE = 2, /**< csrRowOffsets[i + 1] < csrRowOffsets[i] for a row i */
    TCS_DATA_STATUS_INVALID_INDEX    = 3, /**< a column index outside [base, base + cols) */
    TCS_DATA_STATUS_DUPLICATE        = 4, /**< a column index twice in one row (levels UNIQUE and SORTED) */
    TCS_DATA_STATUS_UNSORTED         = 5, /**< column indices not increasing in a row (level SORTED) */
    TCS_DATA_STATUS_NAN              = 6, /**< a NaN value */
    TCS_DATA_STATUS_INF              = 7  /**< an infinite value */
} tcsDataStatus_t;

/** What tcsCheckMatrixCsr checks beyond the offsets, the column range and the values. */
typedef enum {
    TCS_CHECK_STRUCTURE = 0, /**< offsets, column range, finite values (any column order, duplicates allowed) */
    TCS_CHECK_UNIQUE    = 1, /**< also no column twice in a row, in any order */
    TCS_CHECK_SORTED    = 2  /**< also columns strictly increasing in each row (what the products' outputs satisfy) */
} tcsMatrixCheck_t;

/**
 * Bytes of device scratch tcsCheckMatrixCsr needs for matA at this level: a few hundred
 * bytes, plus for TCS_CHECK_UNIQUE a copy of the column indices and a sort's scratch.
 * Host only. matA must be CSR (32- or 64-bit offsets and columns, any value type).
 * Statuses: SUCCESS; INVALID_VALUE (NULL arguments, an enum out of range, a matrix
 * without row offsets but with rows and nnz); NOT_SUPPORTED (not CSR);
 * NOT_INITIALIZED (a destroyed handle or descriptor).
 */
TCS_API tcsStatus_t tcsCheckMatrixCsr_bufferSize(tcsHandle_t handle, tcsConstSpMatDescr_t matA,
                                                 tcsMatrixCheck_t check, size_t* bufferSize);

/**
 * Checks matA's device arrays on the GPU and writes the first rule they break to
 * *dataStatus (TCS_DATA_STATUS_SUCCESS when all hold). Never reads outside the arrays,
 * whatever they hold. Enqueued on the handle's stream, then waits for it (one stream
 * synchronization; two for TCS_CHECK_UNIQUE when the structure is valid); must not be
 * called while the stream is captured. The buffer of at least the size
 * tcsCheckMatrixCsr_bufferSize returned is scratch, free to reuse afterwards. With
 * TCS_LOG_LEVEL >= 1 a failing rule is logged with the first row that breaks it.
 * Statuses: those of tcsCheckMatrixCsr_bufferSize; INVALID_VALUE also for a NULL
 * dataStatus or a NULL buffer; EXECUTION_FAILED.
 */
TCS_API tcsStatus_t tcsCheckMatrixCsr(tcsHandle_t handle, tcsConstSpMatDescr_t matA,
                                      tcsMatrixCheck_t check, tcsDataStatus_t* dataStatus,
                                      void* externalBuffer);
/** \} */

/* ---------------------------------------------------------------------------------- */
/* Dense vector descriptors                                                           */
/* ---------------------------------------------------------------------------------- */

/** \defgroup tcs_dense_vector Dense vector descriptors
 *  \{ */

/** Describes a dense vector of `size` elements of valueType (CUDA_R_32F, CUDA_R_64F,
 *  CUDA_R_16F or CUDA_R_16BF) in the caller's device array `values`, which must be
 *  aligned to its element type. size = 0 with NULL values is accepted. Host only,
 *  synchronous, allocates a small host object. Statuses: SUCCESS; INVALID_VALUE (NULL
 *  dnVecDescr, negative size, NULL or misaligned values with size > 0, a value type
 *  outside the four); ALLOC_FAILED. */
TCS_API tcsStatus_t tcsCreateDnVec(tcsDnVecDescr_t* dnVecDescr, int64_t size, void* values,
                                   cudaDataType valueType);

/** tcsCreateDnVec for a vector the library only reads (x of SpMV). Same checks. */
TCS_API tcsStatus_t tcsCreateConstDnVec(tcsConstDnVecDescr_t* dnVecDescr, int64_t size,
                                        const void* values, cudaDataType valueType);

/** Destroys a dense vector descriptor (not the caller's array). NULL is accepted.
 *  Statuses: SUCCESS; NOT_INITIALIZED for a pointer that is not a live vector. */
TCS_API tcsStatus_t tcsDestroyDnVec(tcsConstDnVecDescr_t dnVecDescr);

/** Writes the size, the value array and the value type; no output may be NULL.
 *  INVALID_VALUE for a descriptor created const (use tcsConstDnVecGet). */
TCS_API tcsStatus_t tcsDnVecGet(tcsDnVecDescr_t dnVecDescr, int64_t* size, void** values,
                                cudaDataType* valueType);

/** tcsDnVecGet for any live vector, const or not, with a const value pointer. */
TCS_API tcsStatus_t tcsConstDnVecGet(tcsConstDnVecDescr_t dnVecDescr, int64_t* size,
                                     const void** values, cudaDataType* valueType);

/** Writes the value array pointer. INVALID_VALUE for a descriptor created const. */
TCS_API tcsStatus_t tcsDnVecGetValues(tcsDnVecDescr_t dnVecDescr, void** values);

/** Writes the value array pointer of any live vector, const or not. */
TCS_API tcsStatus_t tcsConstDnVecGetValues(tcsConstDnVecDescr_t dnVecDescr,
                                           const void** values);

/** Replaces the value array pointer (NULL only when size is 0; aligned to the element
 *  type). INVALID_VALUE for a descriptor created const. */
TCS_API tcsStatus_t tcsDnVecSetValues(tcsDnVecDescr_t dnVecDescr, void* values);
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
 *  - A (m x k), B (k x n) and C (m x n) are CSR; C is created with nnz 0, NULL
 *    column/value arrays, and its row-offset array may already be given.
 *  - Index types: each of A, B and C has row offsets and column indices both
 *    TCS_INDEX_32I or both TCS_INDEX_64I, chosen per matrix (64-bit is tcsparse's
 *    extension: cuSPARSE's SpGEMM takes 32-bit only); mixed widths and 16U return
 *    NOT_SUPPORTED. 64-bit arrays are read and C's written as stored, and C equals
 *    bitwise the one of 32-bit arrays. A's and B's counts stay 32-bit: a 64-bit A or
 *    B of 2^31 - 1 rows or columns or more, or of 2^31 nonzeros or more, returns
 *    NOT_SUPPORTED. The number of products and nnz(C) are 64-bit (the hash
 *    algorithm): with a 64-bit C, nnz(C) may pass 2^31; a 32-bit C whose offsets
 *    cannot hold nnz(C) (nnz(C) + base >= 2^31) returns INSUFFICIENT_RESOURCES from
 *    workEstimation, with a log line. The tile algorithms keep 32-bit offsets:
 *    nnz(C) >= 2^31 is handed to the hash algorithm (DEFAULT, and the explicit tile
 *    algorithms for fp32/fp64 data) or returns INSUFFICIENT_RESOURCES (fp16/bf16 data,
 *    and TCS_HANDOFF=0).
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
 *  - Memory of the hash algorithm: buffer1 and buffer2 are O(m) (16 and 4 bytes per row
 *    of C) plus bounded scratch for rows wider than shared memory holds; the products
 *    are never stored. tcsSpGEMM_estimateMemory's chunk_fraction bounds buffer2 further
 *    (rows in chunks, see there).
 *  - Memory of the tile algorithms: buffer1 holds A's and B's tiles, sized from nnz
 *    alone (at most one tile per entry: 16 bytes per entry of A and of B, plus 4 for
 *    the map from tile order to CSR order), C's row offsets and a few bytes per panel
 *    of 8 rows; buffer2 holds A's and B's values in tile order. When B is A (the same
 *    arrays, C = A*A) they are converted once and their halves are not taken. Where a
 *    tile algorithm may still hand the product to hash (fp32/fp64 data, not decided by
 *    the shapes), buffer1 is the larger of both algorithms' (as DEFAULT's); where it
 *    handed off, buffer2 is the hash algorithm's.
 *  - Invalid A or B (column indices outside [base, base+cols), offsets out of order) give
 *    an undefined C; the hash algorithm makes no access outside the arrays even then
 *    (see tcs_check), the tile algorithms do not promise it. TCS_CHECK_INPUTS=1 refuses
 *    such input with INVALID_VALUE.
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
 * does nothing else (no GPU work, no synchronization, except TCS_SPGEMM_DEFAULT's probe
 * below; it asks the CUDA runtime about the device for CUB's scratch size, so a context
 * an earlier error left unusable gives EXECUTION_FAILED here; on a GPU this build has no
 * code for, this call, size query included, answers ARCH_MISMATCH, known since
 * tcsCreate). With a buffer of at least
 * *bufferSize1 bytes: the analysis, kept in buffer1, which must stay alive and
 * unmodified until tcsSpGEMM_copy; it synchronizes the handle's stream once (to read
 * nnz(C) back). The hash algorithm counts the products of each row of C, groups the
 * rows by work and runs the symbolic pass that yields nnz per row of C and C's row
 * offsets. The tile algorithms convert A and B to 8x8 bitmap tiles on the GPU and
 * count each row of C from the tiles' bitmaps. TCS_SPGEMM_DEFAULT chooses: fp16/bf16
 * data take the tile algorithm on tensor cores; otherwise the hash algorithm, decided
 * on the host, when A or B has fewer than 20 entries per row on average (4 where both
 * have 2^22 entries or more: see the probe) or A's columns number at least twice both
 * A's rows and B's columns (a short-fat A times a tall-skinny B, as an AMG restriction
 * times A*P). Where both have 2^22 entries or more and the shorter mean row is 4 to 20
 * entries, the first call for these operands (the size query, as a rule) probes: it
 * copies 1,024 rows' offsets and columns of A (and of B, where B is another matrix) to
 * the host, which waits for the stream (a few small copies, each a synchronization; none
 * while the stream is being captured), and takes the hash algorithm where the sample
 * holds fewer than 8 entries per nonempty 8x8 tile; the verdict is kept in the
 * descriptor for the same arrays and sizes. For the others the size query asks for room
 * for either algorithm, and this call converts A and B to tiles, counting them
 * exactly, and takes the tile algorithm on tensor cores when both have at least 8
 * entries per nonempty tile, else runs the hash algorithm's analysis in the same buffer
 * after the tile plan's synchronization (one more; the rule and its data:
 * docs/algorithms/spgemm-tiles.md). TCS_SPGEMM_ALG_TILE and _TILE_TC decide their
 * hand-off to hash (tcsSpGEMMAlg_t) the same way with their own thresholds: short-fat
 * times tall-skinny on the host (the size query then returns the hash algorithm's
 * size), fewer than 7 entries per tile after the conversion (one more synchronization
 * where it hands off). Statuses: SUCCESS; INVALID_VALUE (NULL or
 * mismatched arguments, enums out of range, incompatible dimensions, buffer smaller than
 * required); NOT_SUPPORTED (op, index or value type not supported); ARCH_MISMATCH
 * (tensor cores on a device below compute capability 8.0; a GPU this build of tcsparse
 * has no code for); INSUFFICIENT_RESOURCES (beyond 32-bit counts: A's or B's sizes,
 * nnz(C) in a 32-bit C, nnz(C) >= 2^31 for the tile algorithms where they do not hand
 * off); NOT_INITIALIZED (a
 * handle or descriptor tcsparse did not create, or one already destroyed);
 * EXECUTION_FAILED (a CUDA call or launch failed, CUB's size query included: see
 * tcsStatus_t).
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
 * A memory budget, through cuSPARSE's ALG2/ALG3 protocol (AmgX), for every algorithm
 * value. After workEstimation with a buffer: with externalBuffer3 == NULL writes
 * *bufferSize3 (host only); with a buffer3 of that size sets the budget and writes the
 * exact size of buffer2 under it to *bufferSize2 (tcsSpGEMM_compute's size query then
 * reports the same); buffer3 is not used afterwards and may be freed at once.
 * chunk_fraction in (0, 1]: compute and copy take C's rows in chunks of
 * ceil(chunk_fraction * m) rows (at least 8 rows, at most 1024 chunks), so buffer2
 * holds one chunk's row grouping and chunk_fraction of the scratch for wide rows
 * (docs/algorithms/spgemm-hash.md, "A memory budget"); 1 means the whole product and
 * undoes an earlier budget; workEstimation resets it. C is bitwise the same as without
 * a budget. buffer1, sized before the budget is known, is not affected. With a buffer3
 * and chunk_fraction < 1 this call counts the rows per chunk on the GPU and
 * synchronizes the handle's stream once; compute must (again) follow it. The tile
 * algorithms do not chunk: TCS_SPGEMM_ALG_TILE and _TILE_TC with chunk_fraction < 1
 * return INSUFFICIENT_RESOURCES (the descriptor stays ready for the whole product)
 * where they kept the tiles, and chunk the hash algorithm where they handed the
 * product to it (tcsSpGEMMAlg_t);
 * TCS_SPGEMM_DEFAULT, where it chose tiles, runs the hash algorithm's analysis in
 * buffer1 instead (one more synchronization) and chunks that (16-bit data: refused as
 * by the tile algorithms). Statuses: SUCCESS; INVALID_VALUE (chunk_fraction outside
 * (0, 1], NULL bufferSize3, NULL bufferSize2 with a buffer3, buffer3 smaller than the
 * query's); NOT_INITIALIZED before workEstimation; INSUFFICIENT_RESOURCES (above);
 * EXECUTION_FAILED.
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
/* SpGEMM with reuse: the pattern of C once, its values many times                    */
/* ---------------------------------------------------------------------------------- */

/**
 * \defgroup tcs_spgemm_reuse SpGEMM with reuse: C's pattern once, its values many times
 * For products whose patterns stay fixed while the values change (the Galerkin product
 * of a nonlinear solve, PETSc's numeric phase). The protocol, identical to cuSPARSE's:
 * \code
 *   tcsSpGEMM_createDescr(&d);
 *   tcsSpGEMMreuse_workEstimation(h, opA, opB, A, B, C, alg, d, &size1, NULL);
 *   cudaMalloc(&buf1, size1);
 *   tcsSpGEMMreuse_workEstimation(h, opA, opB, A, B, C, alg, d, &size1, buf1);
 *   tcsSpGEMMreuse_nnz(..., &size2, NULL, &size3, NULL, &size4, NULL);
 *   cudaMalloc buf2, buf3, buf4;
 *   tcsSpGEMMreuse_nnz(..., &size2, buf2, &size3, buf3, &size4, buf4);
 *   free buf1 and buf2 (allowed from here);  tcsSpMatGetSize(C, &m, &n, &nnzC);
 *   cudaMalloc C's column and value arrays;  tcsCsrSetPointers(C, rowPtrC, colC, valC);
 *   tcsSpGEMMreuse_copy(..., &size5, NULL);  cudaMalloc buf5;
 *   tcsSpGEMMreuse_copy(..., &size5, buf5);          // C's row offsets and columns
 *   free buf3 (allowed from here)
 *   tcsSpGEMMreuse_compute(h, opA, opB, &alpha, A, B, &beta, C, computeType, alg, d);
 *   ... new values in A and B, tcsSpGEMMreuse_compute again, as often as needed ...
 *   free buf4 and buf5;  tcsSpGEMM_destroyDescr(d);
 * \endcode
 * What the buffers hold (the hash algorithm, the same passes as tcsSpGEMM_*): buffer1
 * the analysis of A and B (products per row, C's row offsets, the symbolic pass's
 * scratch); buffer4 a copy of that analysis and C's rows grouped by length, which
 * every tcsSpGEMMreuse_compute reads; buffer3 nnz(C) scratch values, written by the
 * pass of tcsSpGEMMreuse_copy that lays out C's structure, so that copy never writes
 * C's own values; buffer2 and buffer5 are not used (their sizes are 256 bytes, never
 * 0, so a buffer allocated from them is never NULL).
 *
 * Semantics: those of the SpGEMM group (CSR with 32- or 64-bit indices, opA = opB =
 * NON_TRANSPOSE, unsorted input columns, symbolic zeros kept, sorted columns in C,
 * bitwise reproducible values, no allocation, the handle's stream). The same opA,
 * opB, matrices, algorithm and descriptor must be passed to every call; A and B may
 * get new values between calls of tcsSpGEMMreuse_compute, never a new pattern (a
 * changed size, array pointer or index base returns INVALID_VALUE). A descriptor runs
 * either this protocol or the tcsSpGEMM_* one; starting one (its workEstimation)
 * leaves the other's state alone.
 * \{
 */

/**
 * Stage 1. With externalBuffer1 == NULL: writes the bytes needed to *bufferSize1
 * (host only). With a buffer of at least that size: the analysis and symbolic pass of
 * tcsSpGEMM_workEstimation into buffer1, which must stay alive until
 * tcsSpGEMMreuse_nnz has run. Synchronizes the handle's stream once (to read nnz(C)
 * and the bins back). There is no alpha, beta or computeType: the value type of C
 * (fp32 or fp64, equal to A's and B's) is the compute type. Statuses: SUCCESS;
 * INVALID_VALUE (NULL or mismatched arguments, enums out of range, incompatible
 * dimensions, a buffer smaller than required); NOT_SUPPORTED (op, format, index or
 * value type not supported); INSUFFICIENT_RESOURCES (beyond 32-bit counts);
 * ARCH_MISMATCH (a GPU this build of tcsparse has no code for, size query included);
 * NOT_INITIALIZED (a handle or descriptor tcsparse did not create, or one already
 * destroyed); EXECUTION_FAILED.
 */
TCS_API tcsStatus_t tcsSpGEMMreuse_workEstimation(tcsHandle_t handle, tcsOperation_t opA,
                                                  tcsOperation_t opB, tcsConstSpMatDescr_t matA,
                                                  tcsConstSpMatDescr_t matB, tcsSpMatDescr_t matC,
                                                  tcsSpGEMMAlg_t alg,
                                                  tcsSpGEMMDescr_t spgemmDescr,
                                                  size_t* bufferSize1, void* externalBuffer1);

/**
 * Stage 2. With all three buffers NULL: writes the bytes of buffers 2, 3 and 4 (host
 * only, exact). With all three given: copies the analysis from buffer1 into buffer4
 * and groups C's rows by length there (asynchronous, on the handle's stream), and
 * records nnz(C) in matC (tcsSpMatGetSize). Afterwards buffer1 and buffer2 may be
 * freed (with cudaFree, or after the stream has reached this point); buffer3 must live
 * until tcsSpGEMMreuse_copy, buffer4 until the last tcsSpGEMMreuse_compute. Statuses:
 * SUCCESS; INVALID_VALUE (some buffers NULL and others not, a size below the query's,
 * arguments that differ from stage 1's); NOT_INITIALIZED if stage 1 has not run with
 * a buffer on this descriptor.
 */
TCS_API tcsStatus_t tcsSpGEMMreuse_nnz(tcsHandle_t handle, tcsOperation_t opA,
                                       tcsOperation_t opB, tcsConstSpMatDescr_t matA,
                                       tcsConstSpMatDescr_t matB, tcsSpMatDescr_t matC,
                                       tcsSpGEMMAlg_t alg, tcsSpGEMMDescr_t spgemmDescr,
                                       size_t* bufferSize2, void* externalBuffer2,
                                       size_t* bufferSize3, void* externalBuffer3,
                                       size_t* bufferSize4, void* externalBuffer4);

/**
 * Stage 3. With externalBuffer5 == NULL: writes the bytes of buffer5 (host only). With
 * a buffer: writes C's row offsets and sorted column indices into the arrays set on
 * matC (tcsCsrSetPointers, nnz(C) entries); C's values are not written. Asynchronous.
 * Afterwards buffer3 may be freed; buffer5 must live until the last
 * tcsSpGEMMreuse_compute. Statuses: SUCCESS; INVALID_VALUE (C's arrays not set, nnz
 * of C changed, arguments that differ); NOT_INITIALIZED if stage 2 has not run.
 */
TCS_API tcsStatus_t tcsSpGEMMreuse_copy(tcsHandle_t handle, tcsOperation_t opA,
                                        tcsOperation_t opB, tcsConstSpMatDescr_t matA,
                                        tcsConstSpMatDescr_t matB, tcsSpMatDescr_t matC,
                                        tcsSpGEMMAlg_t alg, tcsSpGEMMDescr_t spgemmDescr,
                                        size_t* bufferSize5, void* externalBuffer5);

/**
 * The numeric pass: C = alpha*op(A)*op(B) + beta*C on the pattern stage 3 wrote, with
 * the values A and B hold now. With beta != 0 C's value array must hold values on
 * that pattern. computeType must equal the value type of A, B and C. Asynchronous;
 * may be called any number of times. Statuses: SUCCESS; INVALID_VALUE (arguments
 * that differ from the earlier stages, C's arrays changed size); NOT_SUPPORTED
 * (computeType); NOT_INITIALIZED if stage 3 has not run.
 */
TCS_API tcsStatus_t tcsSpGEMMreuse_compute(tcsHandle_t handle, tcsOperation_t opA,
                                           tcsOperation_t opB, const void* alpha,
                                           tcsConstSpMatDescr_t matA, tcsConstSpMatDescr_t matB,
                                           const void* beta, tcsSpMatDescr_t matC,
                                           cudaDataType computeType, tcsSpGEMMAlg_t alg,
                                           tcsSpGEMMDescr_t spgemmDescr);
/** \} */

/* ---------------------------------------------------------------------------------- */
/* SpMM: C = alpha * op(A) * op(B) + beta * C, A sparse, B and C dense                 */
/* ---------------------------------------------------------------------------------- */

/**
 * \defgroup tcs_spmm SpMM: C = alpha * op(A) * op(B) + beta * C, A sparse, B and C dense
 * Semantics shared by the calls:
 *  - A is CSR or BSR, op(A) is m x k, op(B) k x n, C m x n. B and C may be row- or
 *    column-major with any leading dimension.
 *  - Index types: a CSR A has row offsets and column indices both TCS_INDEX_32I or both
 *    TCS_INDEX_64I, as cuSPARSE's SpMM takes them (mixed widths and 16U: NOT_SUPPORTED);
 *    a BSR A has 32-bit indices. The kernels read 64-bit arrays as stored (no copy)
 *    and give bitwise the C of the same matrix with 32-bit indices. They keep rows,
 *    columns and positions in 32 bits: a 64-bit A of 2^31 - 1 rows or columns or more,
 *    or of 2^31 nonzeros or more, returns NOT_SUPPORTED (the swap-in shim hands it to
 *    the real cuSPARSE).
 *  - Types (A and B / C / computeType): fp32/fp32/fp32, fp64/fp64/fp64, and fp16 or
 *    bf16 inputs with fp32 compute and C of the input type or fp32.
 *  - opA: NON_TRANSPOSE or TRANSPOSE (the block family, hence any BSR A: NON_TRANSPOSE
 *    only, NOT_SUPPORTED otherwise, as cuSPARSE's BSR SpMM); opB: NON_TRANSPOSE or
 *    TRANSPOSE; CONJUGATE_TRANSPOSE equals TRANSPOSE for real types.
 *  - beta == 0 never reads C (C may hold NaN).
 *  - No allocation. tcsSpMM is asynchronous and never synchronizes: it may be captured
 *    in a CUDA graph (tcsSpMM_preprocess may wait for the stream once, see there).
 *  - Deterministic: the same input, algorithm, handle device and sizes give bitwise the
 *    same C, with or without preprocess (the order of the sums follows from the sizes
 *    and A's structure, never from timing or from which kernel runs; atomics only
 *    count), except where preprocess changed the family: DEFAULT's block family and
 *    TCS_SPMM_BSR_TC's hand-off to the CSR family compute only after preprocess, so a
 *    call without it sums in the other family's order.
 *  - Precision of the block family (TCS_SPMM_BSR_TC, BSR A): fp64 on
 *    DMMA (fp64 products and sums); fp32 on DMMA in fp64, rounded once to fp32 (or in
 *    TF32 under TCS_TF32_TENSOR_OP_MATH); fp16/bf16 exact products summed in fp32 (HMMA).
 *    Each entry of C is the sum of its products in an order fixed by A's structure.
 *    Blocks multiply whole rows of op(B): an Inf or NaN in a row of op(B) that the rows
 *    of one 32-row block of A share reaches the other rows of that block too (0 * Inf),
 *    as with any blocked format (cuSPARSE's BSR and Blocked-ELL alike).
 *  - Statuses: SUCCESS; INVALID_VALUE (NULL or inconsistent arguments, enums out of
 *    range, dimensions that do not match, buffer NULL when the size is > 0);
 *    NOT_SUPPORTED (a format, operation or type combination this version lacks; for the
 *    block family, a row of A holding a column twice, found by preprocess);
 *    ARCH_MISMATCH (the block family on a GPU older than sm_80; any GPU this build of
 *    tcsparse has no code for, from the stages that run on it); INSUFFICIENT_RESOURCES
 *    (a 32-bit CSR A of 2^31 - 1 rows or columns or more; C of 2^31 - 1 columns or more;
 *    a CSR or BSR A of 2^31 entries or more for the block family; a buffer whose size
 *    passes size_t); NOT_INITIALIZED (a handle or descriptor tcsparse did not create, or
 *    one already destroyed); EXECUTION_FAILED (a CUDA call or launch failed: see
 *    tcsStatus_t).
 * \{
 */

/** Writes the bytes of external buffer the call needs to *bufferSize. Host only: no GPU
 *  work, it never waits for the GPU. It does ask the CUDA runtime about the device (the
 *  block family's CUB scratch sizes): EXECUTION_FAILED where the runtime fails (a
 *  context an earlier error left unusable), ARCH_MISMATCH where this build has no code
 *  for the GPU; INSUFFICIENT_RESOURCES as for tcsSpMM (C's columns, a size past size_t). The size depends on the sizes, types, operations, orders
 *  and algorithm, never on values, addresses or A's pattern. With opA = TRANSPOSE, the
 *  transposed copy has 32-bit indices whatever A's width, and building it from 64-bit
 *  column indices takes 4 more bytes of scratch per nonzero. Besides what
 *  tcsSpMM_preprocess keeps, it holds, for the row-split algorithm (the CSR family's
 *  choice except for column-wise op(B) with n = 2), a row-wise copy of a column-wise
 *  op(B) (B column-major, or row-major with opB = TRANSPOSE) of k x n elements, or a
 *  padded copy of a row-major op(B) whose n is no multiple of a 16-byte vector (4 fp32,
 *  2 fp64, 8 16-bit elements; rows padded to that multiple, whatever ldb), and a
 *  row-wise m x n copy of a column-major C in the compute type, where they make the call
 *  faster (sizes in docs/algorithms/spmm-csr.md); TCS_SPMM_CSR_MERGE needs neither.
 *  Where the copies of all n columns would exceed 128 MiB, tcsSpMM does the columns 32 at
 *  a time and the buffer holds the copies of 32 columns: the size is then the one for
 *  n = 32, plus, for such a row-major op(B), the copy of its 32 columns (which n = 32
 *  itself, a whole number of vectors, does without).
 *  For the block family the buffer holds its format, bounded by A's entries E (nnz; for
 *  BSR every element of its blocks) and rows m, so that no analysis is needed to size
 *  it: 12 E + 12 m bytes at most for the blocks (a 16-bit row mask and a column index
 *  per block column, a value position per entry, the row order), and, shared, the
 *  analysis's scratch (about 25 m bytes) or, during a call, a row-wise copy of a
 *  column-wise op(B). TCS_SPMM_BSR_TC with a CSR A asks for the larger of that and the
 *  CSR family's size, since its preprocess may hand A to the CSR family. */
TCS_API tcsStatus_t tcsSpMM_bufferSize(tcsHandle_t handle, tcsOperation_t opA,
                                       tcsOperation_t opB, const void* alpha,
                                       tcsConstSpMatDescr_t matA, tcsConstDnMatDescr_t matB,
                                       const void* beta, tcsDnMatDescr_t matC,
                                       cudaDataType computeType, tcsSpMMAlg_t alg,
                                       size_t* bufferSize);

/** Analyses A's structure (a transposed copy for opA = T, row-split's and CSR-vector's
 *  lists of long rows, the merge-path partition; for the block family its format) into
 *  externalBuffer and makes it the active buffer of matA. Later tcsSpMM calls with this
 *  buffer and the same parameters (alpha, beta, B, C and A's values may change) reuse the
 *  analysis (a call without it makes the same lists itself: the same C). No
 *  allocation. Enqueued on the handle's stream; where row-split or CSR-vector runs (the
 *  CSR family's choices but merge-path) it then waits for the stream once (one stream
 *  synchronization) to read two counts: the rows it listed as long (tcsSpMM then gives
 *  them only the thread blocks they need) and, where row-split would run with one
 *  nonzero lane per row and 16 or more column lanes (fp32 n > 32 or fp64 n > 16, on a
 *  device kept busy by many rows), the runs of consecutive rows with the same column
 *  indices (the unknowns of one mesh node, the rows of a dense block): with few runs per
 *  row tcsSpMM shares each load of B among the rows of a run
 *  (docs/algorithms/spmm-csr.md). Without long rows or runs to count (merge-path; an
 *  op(A) whose rows cannot be long, having too few columns) it does not wait.
 *  The block family (TCS_SPMM_BSR_TC, BSR A, and DEFAULT where it considers the blocks)
 *  builds its format on the GPU (rows in A's order or in an order that groups rows with
 *  similar columns, whichever needs fewer blocks; see tcsSpMM_getBlockCounts) and waits
 *  once to read the block counts; the block algorithm returns NOT_SUPPORTED when a row
 *  of A holds a column twice (DEFAULT then keeps the CSR family, which sums them).
 *  From the counts DEFAULT keeps the blocks or the CSR family, and TCS_SPMM_BSR_TC with
 *  a CSR A hands A to the CSR family where the blocks serve fewer than 3.5 nonzeros
 *  per row of op(B) loaded (TCS_SPMM_BSR_TC above); the CSR family's analysis then
 *  runs in the same buffer (with its own wait, as above).
 *  Capturable in a CUDA graph: while the stream is being captured it does not wait; the
 *  CSR family then plans the long rows' blocks from a bound and runs without runs (C is
 *  bitwise the same), and the block family's counts stay unread (tcsSpMM_getBlockCounts
 *  returns NOT_INITIALIZED; C is the same). */
TCS_API tcsStatus_t tcsSpMM_preprocess(tcsHandle_t handle, tcsOperation_t opA,
                                       tcsOperation_t opB, const void* alpha,
                                       tcsConstSpMatDescr_t matA, tcsConstDnMatDescr_t matB,
                                       const void* beta, tcsDnMatDescr_t matC,
                                       cudaDataType computeType, tcsSpMMAlg_t alg,
                                       void* externalBuffer);

/** Computes C = alpha*op(A)*op(B) + beta*C. Without an earlier preprocess on this
 *  buffer, it does the analysis itself on each call (the block family builds its format
 *  on the stream without waiting). The buffer carries
 *  counters from call to call (each call leaves them as it found them): calls that may
 *  run at the same time, on different streams, need buffers of their own. */
TCS_API tcsStatus_t tcsSpMM(tcsHandle_t handle, tcsOperation_t opA, tcsOperation_t opB,
                            const void* alpha, tcsConstSpMatDescr_t matA,
                            tcsConstDnMatDescr_t matB, const void* beta, tcsDnMatDescr_t matC,
                            cudaDataType computeType, tcsSpMMAlg_t alg, void* externalBuffer);

/**
 * tcsparse-specific: what the block family's analysis found in matA at its last
 * tcsSpMM_preprocess (TCS_SPMM_BSR_TC, a BSR matA, or DEFAULT where it analysed the
 * blocks). The format cuts the rows, in an order, into windows of
 * *blockRows (32) rows and the distinct columns of each window into blocks of
 * *blockCols (16); *blocksNatural counts the blocks with the rows in A's order,
 * *blocksReordered with the rows ordered by two min-hashes of their columns (rows with
 * similar columns together), *blocksUsed those of the order tcsSpMM uses (the
 * reordered one where it saves more than 1/32 of the blocks; the environment variable
 * TCS_SPMM_REORDER=0 or =1, read once per process, forces A's order or the other, a
 * diagnostic that changes only the rounding). The fill, the share of stored entries in
 * the blocks' elements, is E / (*blocksUsed * *blockRows * *blockCols) with E = nnz
 * (BSR: every block element).
 * *usesBlocks is 1 when tcsSpMM on the preprocessed buffer computes with the block
 * family, 0 when DEFAULT analysed the blocks and kept the CSR family (TCS_SPMM_ALG_DEFAULT)
 * or TCS_SPMM_BSR_TC handed the CSR A to the CSR family.
 * Host only, no GPU work. Statuses: SUCCESS;
 * INVALID_VALUE (NULL matA or output); NOT_INITIALIZED (matA not a sparse descriptor, or
 * no block analysis on it: never preprocessed that way, or preprocessed while the stream
 * was being captured).
 */
TCS_API tcsStatus_t tcsSpMM_getBlockCounts(tcsConstSpMatDescr_t matA, int64_t* blockRows,
                                           int64_t* blockCols, int64_t* blocksNatural,
                                           int64_t* blocksReordered, int64_t* blocksUsed,
                                           int* usesBlocks);
/** \} */

/* ---------------------------------------------------------------------------------- */
/* SpMV: y = alpha * op(A) * x + beta * y, A sparse, x and y dense vectors            */
/* ---------------------------------------------------------------------------------- */

/**
 * \defgroup tcs_spmv SpMV: y = alpha * op(A) * x + beta * y, A sparse, x and y dense
 * The product a Krylov solver makes most. It is SpMM with one column (x and y are
 * the k x 1 and m x 1 dense matrices of the SpMM group, row-major), so it shares that
 * group's kernels (row-split's one-column kernel, with whole blocks or warps for long
 * rows), buffer, preprocess contract, determinism (but for the scatter of op(A) = A^T,
 * below) and graph capture. Semantics shared
 * by the three calls:
 *  - A is CSR with row offsets and column indices both TCS_INDEX_32I or both
 *    TCS_INDEX_64I (cuSPARSE's combinations; mixed widths and 16U: NOT_SUPPORTED);
 *    op(A) is m x k, x has k elements and y m. 64-bit indices are read as stored and
 *    give bitwise the y of 32-bit ones; a 64-bit A of 2^31 - 1 rows or columns or
 *    more, or of 2^31 nonzeros or more, returns NOT_SUPPORTED (the positions are
 *    32-bit in the kernels; the swap-in shim hands such calls to the real cuSPARSE).
 *  - Types (A and x / y / computeType): fp32/fp32/fp32, fp64/fp64/fp64, and fp16 or
 *    bf16 A and x with fp32 compute and y of the input type or fp32.
 *  - opA: NON_TRANSPOSE or TRANSPOSE; CONJUGATE_TRANSPOSE equals TRANSPOSE for real
 *    types.
 *  - alg: TCS_SPMV_ALG_DEFAULT, CSR_ALG1 or CSR_ALG2; the COO, SELL and BSR values
 *    return NOT_SUPPORTED. For op(A) = A all three run the same deterministic product.
 *    For op(A) = A^T:
 *      - The copy (CSR_ALG2 always): deterministic. The buffer holds a transposed copy
 *        of A's structure (the row offsets and column indices of A^T and the position
 *        in A of each of its entries; no values), made by tcsSpMV_preprocess, or by
 *        every tcsSpMV call without it (preprocess once); each call reads A's current
 *        values through it and sums every element of y in a fixed order (ascending
 *        rows of A), rounding it once.
 *      - The scatter: y = beta*y, then every nonzero a(i,j) adds alpha*a(i,j)*x(i) to
 *        y(j) with an atomic addition in y's type. The order of the additions, and so
 *        the rounding of y, may differ from run to run (cuSPARSE's CSR_ALG1 does the
 *        same). It reads A once. Its buffer holds where each warp's share of A's rows
 *        and nonzeros starts (4 bytes per 256 rows and nonzeros of A), written by
 *        tcsSpMV_preprocess; a call without preprocess finds the starts itself, the
 *        same y within rounding.
 *      - DEFAULT and CSR_ALG1 with y of the summation type (fp32, or fp64 for fp64
 *        data): with fewer than 4 Mi (4194304) nonzeros, the copy's buffer, the copy
 *        after tcsSpMV_preprocess on that buffer (measured faster there on an H200:
 *        docs/algorithms/spmv.md) and the scatter in a call without it (rather than
 *        sorting A's entries into the copy on every call). With 4 Mi nonzeros or more,
 *        a buffer for both (the copy's and the scatter's starts); tcsSpMV_preprocess
 *        builds both and counts whether the copy reads A's values close together (as
 *        for bands and stencils: at least 90% of A's entries in windows of 32 rows of
 *        A^T whose entries lie within an eighth of the device's L2 cache size of A's
 *        values); later calls on that buffer take the copy if so, the scatter if not.
 *        A call without preprocess, or after a preprocess captured into a graph (which
 *        cannot read the count back), scatters. With fp16/bf16 y (rounded at every
 *        atomic addition, which would lose precision): the copy.
 *  - alpha and beta follow the handle's pointer mode; beta == 0 never reads y (y may
 *    hold NaN).
 *  - No allocation. tcsSpMV is asynchronous and never synchronizes. Except for the
 *    scatter above, the same input, handle device and sizes give bitwise the same y,
 *    with or without preprocess.
 *  - Statuses: SUCCESS; INVALID_VALUE (NULL or inconsistent arguments, enums out of
 *    range, sizes that do not match, buffer NULL when the size is > 0); NOT_SUPPORTED
 *    (a format, index type, algorithm or type combination this version lacks);
 *    INSUFFICIENT_RESOURCES (a 32-bit A of 2^31 - 1 rows or columns or more);
 *    ARCH_MISMATCH (a GPU this build of tcsparse has no code for, from preprocess and
 *    tcsSpMV); NOT_INITIALIZED (a handle or descriptor tcsparse did not create, or one
 *    already destroyed); EXECUTION_FAILED (a CUDA call or launch failed: see
 *    tcsStatus_t).
 * \{
 */

/** Writes the bytes of external buffer the call needs to *bufferSize (may be 0).
 *  Host only: no GPU work, no CUDA call. Depends on the sizes, types (index types
 *  included), opA and algorithm, never on values or addresses. */
TCS_API tcsStatus_t tcsSpMV_bufferSize(tcsHandle_t handle, tcsOperation_t opA,
                                       const void* alpha, tcsConstSpMatDescr_t matA,
                                       tcsConstDnVecDescr_t vecX, const void* beta,
                                       tcsDnVecDescr_t vecY, cudaDataType computeType,
                                       tcsSpMVAlg_t alg, size_t* bufferSize);

/** Analyses A's structure into externalBuffer and makes it matA's active buffer, as
 *  tcsSpMM_preprocess does (one active buffer per matrix, shared with SpMM: a
 *  preprocess of either replaces the other's). Later tcsSpMV calls with this buffer
 *  and the same parameters (alpha, beta, x, y and A's values may change) reuse it. May
 *  wait for the stream once, to read the count of long rows and, for op(A) = A^T with
 *  DEFAULT or CSR_ALG1 from 4 Mi nonzeros, whether the copy reads A close together (not
 *  while the stream is being captured: such a call then scatters). */
TCS_API tcsStatus_t tcsSpMV_preprocess(tcsHandle_t handle, tcsOperation_t opA,
                                       const void* alpha, tcsConstSpMatDescr_t matA,
                                       tcsConstDnVecDescr_t vecX, const void* beta,
                                       tcsDnVecDescr_t vecY, cudaDataType computeType,
                                       tcsSpMVAlg_t alg, void* externalBuffer);

/** Computes y = alpha*op(A)*x + beta*y. Without an earlier preprocess on this buffer
 *  it does the analysis itself on each call. Calls that may run at the same time on
 *  different streams need buffers of their own. */
TCS_API tcsStatus_t tcsSpMV(tcsHandle_t handle, tcsOperation_t opA, const void* alpha,
                            tcsConstSpMatDescr_t matA, tcsConstDnVecDescr_t vecX,
                            const void* beta, tcsDnVecDescr_t vecY, cudaDataType computeType,
                            tcsSpMVAlg_t alg, void* externalBuffer);
/** \} */

#ifdef __cplusplus
}
#endif

#endif /* TCSPARSE_H_ */
