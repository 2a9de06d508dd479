! tcsparse: Fortran 2003 interfaces (iso_c_binding) to every function of tcsparse.h.
!
! Shipped as source because .mod files depend on the compiler that wrote them:
! compile this file with your own compiler, then `use tcsparse` and link -ltcsparse.
!   gfortran -c tcsparse.f90 && gfortran my_code.f90 tcsparse.o -ltcsparse
!
! Conventions (the C header's documentation holds for every function):
!  - Every function returns a status, integer(c_int), compared with TCS_STATUS_*.
!  - Handles and descriptors are type(c_ptr): passed by value, except to the
!    functions that create them (and tcsGetStream), which write them.
!  - Device arrays, caller buffers and the scalars alpha and beta are type(c_ptr),
!    passed by value: c_loc(x) of a host variable with the target attribute, or a
!    device address from cudaMalloc. c_null_ptr stands for NULL.
!  - int64_t is integer(c_int64_t), size_t* is integer(c_size_t) by reference,
!    enums are integer(c_int) with the values below (equal to the C values).
!  - Index base TCS_INDEX_BASE_ONE lets 1-based CSR arrays be used as they are.
module tcsparse
  use, intrinsic :: iso_c_binding
  implicit none
  private :: c_to_fortran_string

  ! Version of the header this module was written for (TCS_VERSION in tcsparse.h).
  integer(c_int), parameter :: TCS_VERSION_MAJOR = 0
  integer(c_int), parameter :: TCS_VERSION_MINOR = 2
  integer(c_int), parameter :: TCS_VERSION_PATCH = 0
  integer(c_int), parameter :: TCS_VERSION = TCS_VERSION_MAJOR * 10000 + TCS_VERSION_MINOR * 100 &
                                             + TCS_VERSION_PATCH

  ! cudaDataType (library_types.h): the value types tcsparse knows.
  integer(c_int), parameter :: CUDA_R_32F = 0
  integer(c_int), parameter :: CUDA_R_64F = 1
  integer(c_int), parameter :: CUDA_R_16F = 2
  integer(c_int), parameter :: CUDA_R_16BF = 14

  ! libraryPropertyType (library_types.h), for tcsGetProperty.
  integer(c_int), parameter :: MAJOR_VERSION = 0
  integer(c_int), parameter :: MINOR_VERSION = 1
  integer(c_int), parameter :: PATCH_LEVEL = 2

  ! tcsStatus_t
  enum, bind(c)
    enumerator :: TCS_STATUS_SUCCESS = 0
    enumerator :: TCS_STATUS_NOT_INITIALIZED = 1
    enumerator :: TCS_STATUS_ALLOC_FAILED = 2
    enumerator :: TCS_STATUS_INVALID_VALUE = 3
    enumerator :: TCS_STATUS_ARCH_MISMATCH = 4
    enumerator :: TCS_STATUS_MAPPING_ERROR = 5
    enumerator :: TCS_STATUS_EXECUTION_FAILED = 6
    enumerator :: TCS_STATUS_INTERNAL_ERROR = 7
    enumerator :: TCS_STATUS_MATRIX_TYPE_NOT_SUPPORTED = 8
    enumerator :: TCS_STATUS_ZERO_PIVOT = 9
    enumerator :: TCS_STATUS_NOT_SUPPORTED = 10
    enumerator :: TCS_STATUS_INSUFFICIENT_RESOURCES = 11
  end enum

  ! tcsPointerMode_t
  enum, bind(c)
    enumerator :: TCS_POINTER_MODE_HOST = 0
    enumerator :: TCS_POINTER_MODE_DEVICE = 1
  end enum

  ! tcsOperation_t
  enum, bind(c)
    enumerator :: TCS_OPERATION_NON_TRANSPOSE = 0
    enumerator :: TCS_OPERATION_TRANSPOSE = 1
    enumerator :: TCS_OPERATION_CONJUGATE_TRANSPOSE = 2
  end enum

  ! tcsIndexBase_t
  enum, bind(c)
    enumerator :: TCS_INDEX_BASE_ZERO = 0
    enumerator :: TCS_INDEX_BASE_ONE = 1
  end enum

  ! tcsIndexType_t
  enum, bind(c)
    enumerator :: TCS_INDEX_16U = 1
    enumerator :: TCS_INDEX_32I = 2
    enumerator :: TCS_INDEX_64I = 3
  end enum

  ! tcsOrder_t
  enum, bind(c)
    enumerator :: TCS_ORDER_COL = 1
    enumerator :: TCS_ORDER_ROW = 2
  end enum

  ! tcsFormat_t
  enum, bind(c)
    enumerator :: TCS_FORMAT_CSR = 1
    enumerator :: TCS_FORMAT_COO = 3
    enumerator :: TCS_FORMAT_BSR = 6
  end enum

  ! tcsMath_t
  enum, bind(c)
    enumerator :: TCS_DEFAULT_MATH = 0
    enumerator :: TCS_PEDANTIC_MATH = 2
    enumerator :: TCS_TF32_TENSOR_OP_MATH = 3
    enumerator :: TCS_FP16_TENSOR_OP_MATH = 64
  end enum

  ! tcsSpGEMMAlg_t
  enum, bind(c)
    enumerator :: TCS_SPGEMM_DEFAULT = 0
    enumerator :: TCS_SPGEMM_CSR_ALG_DETERMINISTIC = 1
    enumerator :: TCS_SPGEMM_CSR_ALG_NONDETERMINISTIC = 2
    enumerator :: TCS_SPGEMM_ALG1 = 3
    enumerator :: TCS_SPGEMM_ALG2 = 4
    enumerator :: TCS_SPGEMM_ALG3 = 5
    enumerator :: TCS_SPGEMM_ALG_HASH = 100
    enumerator :: TCS_SPGEMM_ALG_TILE = 101
    enumerator :: TCS_SPGEMM_ALG_TILE_TC = 102
  end enum
  ! The cuSPARSE spellings, as the #defines of the C header.
  integer(c_int), parameter :: TCS_SPGEMM_CSR_ALG_DETERMINITIC = TCS_SPGEMM_CSR_ALG_DETERMINISTIC
  integer(c_int), parameter :: TCS_SPGEMM_CSR_ALG_NONDETERMINITIC = TCS_SPGEMM_CSR_ALG_NONDETERMINISTIC

  ! tcsSpMMAlg_t
  enum, bind(c)
    enumerator :: TCS_SPMM_ALG_DEFAULT = 0
    enumerator :: TCS_SPMM_COO_ALG1 = 1
    enumerator :: TCS_SPMM_COO_ALG2 = 2
    enumerator :: TCS_SPMM_COO_ALG3 = 3
    enumerator :: TCS_SPMM_CSR_ALG1 = 4
    enumerator :: TCS_SPMM_COO_ALG4 = 5
    enumerator :: TCS_SPMM_CSR_ALG2 = 6
    enumerator :: TCS_SPMM_CSR_ALG3 = 12
    enumerator :: TCS_SPMM_BLOCKED_ELL_ALG1 = 13
    enumerator :: TCS_SPMM_BSR_ALG1 = 14
    enumerator :: TCS_SPMM_CSR_ROWSPLIT = 100
    enumerator :: TCS_SPMM_CSR_MERGE = 101
    enumerator :: TCS_SPMM_BSR_TC = 102
  end enum

  ! tcsDataStatus_t
  enum, bind(c)
    enumerator :: TCS_DATA_STATUS_SUCCESS = 0
    enumerator :: TCS_DATA_STATUS_INVALID_OFFSETS = 1
    enumerator :: TCS_DATA_STATUS_OFFSETS_DECREASE = 2
    enumerator :: TCS_DATA_STATUS_INVALID_INDEX = 3
    enumerator :: TCS_DATA_STATUS_DUPLICATE = 4
    enumerator :: TCS_DATA_STATUS_UNSORTED = 5
    enumerator :: TCS_DATA_STATUS_NAN = 6
    enumerator :: TCS_DATA_STATUS_INF = 7
  end enum

  ! tcsMatrixCheck_t
  enum, bind(c)
    enumerator :: TCS_CHECK_STRUCTURE = 0
    enumerator :: TCS_CHECK_UNIQUE = 1
    enumerator :: TCS_CHECK_SORTED = 2
  end enum

  ! tcsSpMVAlg_t
  enum, bind(c)
    enumerator :: TCS_SPMV_ALG_DEFAULT = 0
    enumerator :: TCS_SPMV_COO_ALG1 = 1
    enumerator :: TCS_SPMV_CSR_ALG1 = 2
    enumerator :: TCS_SPMV_CSR_ALG2 = 3
    enumerator :: TCS_SPMV_COO_ALG2 = 4
    enumerator :: TCS_SPMV_SELL_ALG1 = 5
    enumerator :: TCS_SPMV_BSR_ALG1 = 6
  end enum

  interface
    ! ---------------------------------------------------------------- errors, version

    ! Returns a C string: use tcs_error_name / tcs_error_string below for a Fortran one.
    function tcsGetErrorName(status) bind(c, name="tcsGetErrorName")
      import :: c_int, c_ptr
      integer(c_int), value :: status
      type(c_ptr) :: tcsGetErrorName
    end function

    function tcsGetErrorString(status) bind(c, name="tcsGetErrorString")
      import :: c_int, c_ptr
      integer(c_int), value :: status
      type(c_ptr) :: tcsGetErrorString
    end function

    integer(c_int) function tcsGetVersion(handle, version) bind(c, name="tcsGetVersion")
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), intent(out) :: version
    end function

    integer(c_int) function tcsGetProperty(type, value) bind(c, name="tcsGetProperty")
      import :: c_int
      integer(c_int), value :: type
      integer(c_int), intent(out) :: value
    end function

    ! ---------------------------------------------------------------- handle

    integer(c_int) function tcsCreate(handle) bind(c, name="tcsCreate")
      import :: c_int, c_ptr
      type(c_ptr), intent(out) :: handle
    end function

    integer(c_int) function tcsDestroy(handle) bind(c, name="tcsDestroy")
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
    end function

    integer(c_int) function tcsSetStream(handle, streamId) bind(c, name="tcsSetStream")
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      type(c_ptr), value :: streamId
    end function

    integer(c_int) function tcsGetStream(handle, streamId) bind(c, name="tcsGetStream")
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      type(c_ptr), intent(out) :: streamId
    end function

    integer(c_int) function tcsSetPointerMode(handle, mode) bind(c, name="tcsSetPointerMode")
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: mode
    end function

    integer(c_int) function tcsGetPointerMode(handle, mode) bind(c, name="tcsGetPointerMode")
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), intent(out) :: mode
    end function

    integer(c_int) function tcsSetMathMode(handle, mode) bind(c, name="tcsSetMathMode")
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: mode
    end function

    integer(c_int) function tcsGetMathMode(handle, mode) bind(c, name="tcsGetMathMode")
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), intent(out) :: mode
    end function

    ! ---------------------------------------------------------------- sparse descriptors

    integer(c_int) function tcsCreateCsr(spMatDescr, rows, cols, nnz, csrRowOffsets, csrColInd, &
                                         csrValues, csrRowOffsetsType, csrColIndType, idxBase, &
                                         valueType) bind(c, name="tcsCreateCsr")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: spMatDescr
      integer(c_int64_t), value :: rows, cols, nnz
      type(c_ptr), value :: csrRowOffsets, csrColInd, csrValues
      integer(c_int), value :: csrRowOffsetsType, csrColIndType, idxBase, valueType
    end function

    integer(c_int) function tcsCreateConstCsr(spMatDescr, rows, cols, nnz, csrRowOffsets, &
                                              csrColInd, csrValues, csrRowOffsetsType, &
                                              csrColIndType, idxBase, valueType) &
                                              bind(c, name="tcsCreateConstCsr")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: spMatDescr
      integer(c_int64_t), value :: rows, cols, nnz
      type(c_ptr), value :: csrRowOffsets, csrColInd, csrValues
      integer(c_int), value :: csrRowOffsetsType, csrColIndType, idxBase, valueType
    end function

    integer(c_int) function tcsCreateCoo(spMatDescr, rows, cols, nnz, cooRowInd, cooColInd, &
                                         cooValues, cooIdxType, idxBase, valueType) &
                                         bind(c, name="tcsCreateCoo")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: spMatDescr
      integer(c_int64_t), value :: rows, cols, nnz
      type(c_ptr), value :: cooRowInd, cooColInd, cooValues
      integer(c_int), value :: cooIdxType, idxBase, valueType
    end function

    integer(c_int) function tcsCreateBsr(spMatDescr, brows, bcols, bnnz, rowBlockSize, &
                                         colBlockSize, bsrRowOffsets, bsrColInd, bsrValues, &
                                         bsrRowOffsetsType, bsrColIndType, idxBase, valueType, &
                                         order) bind(c, name="tcsCreateBsr")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: spMatDescr
      integer(c_int64_t), value :: brows, bcols, bnnz, rowBlockSize, colBlockSize
      type(c_ptr), value :: bsrRowOffsets, bsrColInd, bsrValues
      integer(c_int), value :: bsrRowOffsetsType, bsrColIndType, idxBase, valueType, order
    end function

    integer(c_int) function tcsDestroySpMat(spMatDescr) bind(c, name="tcsDestroySpMat")
      import :: c_int, c_ptr
      type(c_ptr), value :: spMatDescr
    end function

    integer(c_int) function tcsSpMatGetSize(spMatDescr, rows, cols, nnz) &
                                            bind(c, name="tcsSpMatGetSize")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: spMatDescr
      integer(c_int64_t), intent(out) :: rows, cols, nnz
    end function

    integer(c_int) function tcsSpMatGetFormat(spMatDescr, format) bind(c, name="tcsSpMatGetFormat")
      import :: c_int, c_ptr
      type(c_ptr), value :: spMatDescr
      integer(c_int), intent(out) :: format
    end function

    integer(c_int) function tcsSpMatGetIndexBase(spMatDescr, idxBase) &
                                                 bind(c, name="tcsSpMatGetIndexBase")
      import :: c_int, c_ptr
      type(c_ptr), value :: spMatDescr
      integer(c_int), intent(out) :: idxBase
    end function

    integer(c_int) function tcsSpMatGetValues(spMatDescr, values) bind(c, name="tcsSpMatGetValues")
      import :: c_int, c_ptr
      type(c_ptr), value :: spMatDescr
      type(c_ptr), intent(out) :: values
    end function

    integer(c_int) function tcsSpMatSetValues(spMatDescr, values) bind(c, name="tcsSpMatSetValues")
      import :: c_int, c_ptr
      type(c_ptr), value :: spMatDescr
      type(c_ptr), value :: values
    end function

    integer(c_int) function tcsCsrGet(spMatDescr, rows, cols, nnz, csrRowOffsets, csrColInd, &
                                      csrValues, csrRowOffsetsType, csrColIndType, idxBase, &
                                      valueType) bind(c, name="tcsCsrGet")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: spMatDescr
      integer(c_int64_t), intent(out) :: rows, cols, nnz
      type(c_ptr), intent(out) :: csrRowOffsets, csrColInd, csrValues
      integer(c_int), intent(out) :: csrRowOffsetsType, csrColIndType, idxBase, valueType
    end function

    integer(c_int) function tcsCsrSetPointers(spMatDescr, csrRowOffsets, csrColInd, csrValues) &
                                              bind(c, name="tcsCsrSetPointers")
      import :: c_int, c_ptr
      type(c_ptr), value :: spMatDescr
      type(c_ptr), value :: csrRowOffsets, csrColInd, csrValues
    end function

    ! ---------------------------------------------------------------- dense descriptors

    integer(c_int) function tcsCreateDnMat(dnMatDescr, rows, cols, ld, values, valueType, order) &
                                           bind(c, name="tcsCreateDnMat")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: dnMatDescr
      integer(c_int64_t), value :: rows, cols, ld
      type(c_ptr), value :: values
      integer(c_int), value :: valueType, order
    end function

    integer(c_int) function tcsCreateConstDnMat(dnMatDescr, rows, cols, ld, values, valueType, &
                                                order) bind(c, name="tcsCreateConstDnMat")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: dnMatDescr
      integer(c_int64_t), value :: rows, cols, ld
      type(c_ptr), value :: values
      integer(c_int), value :: valueType, order
    end function

    integer(c_int) function tcsDestroyDnMat(dnMatDescr) bind(c, name="tcsDestroyDnMat")
      import :: c_int, c_ptr
      type(c_ptr), value :: dnMatDescr
    end function

    integer(c_int) function tcsDnMatGet(dnMatDescr, rows, cols, ld, values, type, order) &
                                        bind(c, name="tcsDnMatGet")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: dnMatDescr
      integer(c_int64_t), intent(out) :: rows, cols, ld
      type(c_ptr), intent(out) :: values
      integer(c_int), intent(out) :: type, order
    end function

    integer(c_int) function tcsDnMatGetValues(dnMatDescr, values) bind(c, name="tcsDnMatGetValues")
      import :: c_int, c_ptr
      type(c_ptr), value :: dnMatDescr
      type(c_ptr), intent(out) :: values
    end function

    integer(c_int) function tcsDnMatSetValues(dnMatDescr, values) bind(c, name="tcsDnMatSetValues")
      import :: c_int, c_ptr
      type(c_ptr), value :: dnMatDescr
      type(c_ptr), value :: values
    end function

    ! ---------------------------------------------------------------- dense vectors

    integer(c_int) function tcsCreateDnVec(dnVecDescr, size, values, valueType) &
                                           bind(c, name="tcsCreateDnVec")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: dnVecDescr
      integer(c_int64_t), value :: size
      type(c_ptr), value :: values
      integer(c_int), value :: valueType
    end function

    integer(c_int) function tcsCreateConstDnVec(dnVecDescr, size, values, valueType) &
                                                bind(c, name="tcsCreateConstDnVec")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), intent(out) :: dnVecDescr
      integer(c_int64_t), value :: size
      type(c_ptr), value :: values
      integer(c_int), value :: valueType
    end function

    integer(c_int) function tcsDestroyDnVec(dnVecDescr) bind(c, name="tcsDestroyDnVec")
      import :: c_int, c_ptr
      type(c_ptr), value :: dnVecDescr
    end function

    integer(c_int) function tcsDnVecGet(dnVecDescr, size, values, valueType) &
                                        bind(c, name="tcsDnVecGet")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: dnVecDescr
      integer(c_int64_t), intent(out) :: size
      type(c_ptr), intent(out) :: values
      integer(c_int), intent(out) :: valueType
    end function

    integer(c_int) function tcsConstDnVecGet(dnVecDescr, size, values, valueType) &
                                             bind(c, name="tcsConstDnVecGet")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: dnVecDescr
      integer(c_int64_t), intent(out) :: size
      type(c_ptr), intent(out) :: values
      integer(c_int), intent(out) :: valueType
    end function

    integer(c_int) function tcsDnVecGetValues(dnVecDescr, values) bind(c, name="tcsDnVecGetValues")
      import :: c_int, c_ptr
      type(c_ptr), value :: dnVecDescr
      type(c_ptr), intent(out) :: values
    end function

    integer(c_int) function tcsConstDnVecGetValues(dnVecDescr, values) &
                                                   bind(c, name="tcsConstDnVecGetValues")
      import :: c_int, c_ptr
      type(c_ptr), value :: dnVecDescr
      type(c_ptr), intent(out) :: values
    end function

    integer(c_int) function tcsDnVecSetValues(dnVecDescr, values) bind(c, name="tcsDnVecSetValues")
      import :: c_int, c_ptr
      type(c_ptr), value :: dnVecDescr
      type(c_ptr), value :: values
    end function

    ! ---------------------------------------------------------------- SpGEMM

    integer(c_int) function tcsSpGEMM_createDescr(descr) bind(c, name="tcsSpGEMM_createDescr")
      import :: c_int, c_ptr
      type(c_ptr), intent(out) :: descr
    end function

    integer(c_int) function tcsSpGEMM_destroyDescr(descr) bind(c, name="tcsSpGEMM_destroyDescr")
      import :: c_int, c_ptr
      type(c_ptr), value :: descr
    end function

    integer(c_int) function tcsSpGEMM_workEstimation(handle, opA, opB, alpha, matA, matB, beta, &
                                                     matC, computeType, alg, spgemmDescr, &
                                                     bufferSize1, externalBuffer1) &
                                                     bind(c, name="tcsSpGEMM_workEstimation")
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle
      integer(c_int), value :: opA, opB
      type(c_ptr), value :: alpha, matA, matB, beta, matC
      integer(c_int), value :: computeType, alg
      type(c_ptr), value :: spgemmDescr
      integer(c_size_t), intent(inout) :: bufferSize1
      type(c_ptr), value :: externalBuffer1
    end function

    integer(c_int) function tcsSpGEMM_getNumProducts(spgemmDescr, num_prods) &
                                                     bind(c, name="tcsSpGEMM_getNumProducts")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: spgemmDescr
      integer(c_int64_t), intent(out) :: num_prods
    end function

    integer(c_int) function tcsSpGEMM_estimateMemory(handle, opA, opB, alpha, matA, matB, beta, &
                                                     matC, computeType, alg, spgemmDescr, &
                                                     chunk_fraction, bufferSize3, externalBuffer3, &
                                                     bufferSize2) &
                                                     bind(c, name="tcsSpGEMM_estimateMemory")
      import :: c_int, c_ptr, c_size_t, c_float
      type(c_ptr), value :: handle
      integer(c_int), value :: opA, opB
      type(c_ptr), value :: alpha, matA, matB, beta, matC
      integer(c_int), value :: computeType, alg
      type(c_ptr), value :: spgemmDescr
      real(c_float), value :: chunk_fraction
      integer(c_size_t), intent(inout) :: bufferSize3
      type(c_ptr), value :: externalBuffer3
      integer(c_size_t), intent(inout) :: bufferSize2
    end function

    integer(c_int) function tcsSpGEMM_compute(handle, opA, opB, alpha, matA, matB, beta, matC, &
                                              computeType, alg, spgemmDescr, bufferSize2, &
                                              externalBuffer2) bind(c, name="tcsSpGEMM_compute")
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle
      integer(c_int), value :: opA, opB
      type(c_ptr), value :: alpha, matA, matB, beta, matC
      integer(c_int), value :: computeType, alg
      type(c_ptr), value :: spgemmDescr
      integer(c_size_t), intent(inout) :: bufferSize2
      type(c_ptr), value :: externalBuffer2
    end function

    integer(c_int) function tcsSpGEMM_copy(handle, opA, opB, alpha, matA, matB, beta, matC, &
                                           computeType, alg, spgemmDescr) &
                                           bind(c, name="tcsSpGEMM_copy")
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: opA, opB
      type(c_ptr), value :: alpha, matA, matB, beta, matC
      integer(c_int), value :: computeType, alg
      type(c_ptr), value :: spgemmDescr
    end function

    ! ---------------------------------------------------------------- matrix validation

    integer(c_int) function tcsCheckMatrixCsr_bufferSize(handle, matA, check, bufferSize) &
                                                         bind(c, name="tcsCheckMatrixCsr_bufferSize")
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle, matA
      integer(c_int), value :: check
      integer(c_size_t), intent(out) :: bufferSize
    end function

    integer(c_int) function tcsCheckMatrixCsr(handle, matA, check, dataStatus, externalBuffer) &
                                              bind(c, name="tcsCheckMatrixCsr")
      import :: c_int, c_ptr
      type(c_ptr), value :: handle, matA
      integer(c_int), value :: check
      integer(c_int), intent(out) :: dataStatus
      type(c_ptr), value :: externalBuffer
    end function

    ! ---------------------------------------------------------------- SpGEMM with reuse

    integer(c_int) function tcsSpGEMMreuse_workEstimation(handle, opA, opB, matA, matB, matC, alg, &
                                                          spgemmDescr, bufferSize1, externalBuffer1) &
                                                          bind(c, name="tcsSpGEMMreuse_workEstimation")
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle
      integer(c_int), value :: opA, opB
      type(c_ptr), value :: matA, matB, matC
      integer(c_int), value :: alg
      type(c_ptr), value :: spgemmDescr
      integer(c_size_t), intent(inout) :: bufferSize1
      type(c_ptr), value :: externalBuffer1
    end function

    integer(c_int) function tcsSpGEMMreuse_nnz(handle, opA, opB, matA, matB, matC, alg, &
                                               spgemmDescr, bufferSize2, externalBuffer2, &
                                               bufferSize3, externalBuffer3, bufferSize4, &
                                               externalBuffer4) bind(c, name="tcsSpGEMMreuse_nnz")
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle
      integer(c_int), value :: opA, opB
      type(c_ptr), value :: matA, matB, matC
      integer(c_int), value :: alg
      type(c_ptr), value :: spgemmDescr
      integer(c_size_t), intent(inout) :: bufferSize2
      type(c_ptr), value :: externalBuffer2
      integer(c_size_t), intent(inout) :: bufferSize3
      type(c_ptr), value :: externalBuffer3
      integer(c_size_t), intent(inout) :: bufferSize4
      type(c_ptr), value :: externalBuffer4
    end function

    integer(c_int) function tcsSpGEMMreuse_copy(handle, opA, opB, matA, matB, matC, alg, &
                                                spgemmDescr, bufferSize5, externalBuffer5) &
                                                bind(c, name="tcsSpGEMMreuse_copy")
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle
      integer(c_int), value :: opA, opB
      type(c_ptr), value :: matA, matB, matC
      integer(c_int), value :: alg
      type(c_ptr), value :: spgemmDescr
      integer(c_size_t), intent(inout) :: bufferSize5
      type(c_ptr), value :: externalBuffer5
    end function

    integer(c_int) function tcsSpGEMMreuse_compute(handle, opA, opB, alpha, matA, matB, beta, &
                                                   matC, computeType, alg, spgemmDescr) &
                                                   bind(c, name="tcsSpGEMMreuse_compute")
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: opA, opB
      type(c_ptr), value :: alpha, matA, matB, beta, matC
      integer(c_int), value :: computeType, alg
      type(c_ptr), value :: spgemmDescr
    end function

    ! ---------------------------------------------------------------- SpMM

    integer(c_int) function tcsSpMM_bufferSize(handle, opA, opB, alpha, matA, matB, beta, matC, &
                                               computeType, alg, bufferSize) &
                                               bind(c, name="tcsSpMM_bufferSize")
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle
      integer(c_int), value :: opA, opB
      type(c_ptr), value :: alpha, matA, matB, beta, matC
      integer(c_int), value :: computeType, alg
      integer(c_size_t), intent(out) :: bufferSize
    end function

    integer(c_int) function tcsSpMM_preprocess(handle, opA, opB, alpha, matA, matB, beta, matC, &
                                               computeType, alg, externalBuffer) &
                                               bind(c, name="tcsSpMM_preprocess")
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: opA, opB
      type(c_ptr), value :: alpha, matA, matB, beta, matC
      integer(c_int), value :: computeType, alg
      type(c_ptr), value :: externalBuffer
    end function

    integer(c_int) function tcsSpMM(handle, opA, opB, alpha, matA, matB, beta, matC, computeType, &
                                    alg, externalBuffer) bind(c, name="tcsSpMM")
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: opA, opB
      type(c_ptr), value :: alpha, matA, matB, beta, matC
      integer(c_int), value :: computeType, alg
      type(c_ptr), value :: externalBuffer
    end function

    integer(c_int) function tcsSpMM_getBlockCounts(matA, blockRows, blockCols, blocksNatural, &
                                                   blocksReordered, blocksUsed, usesBlocks) &
                                                   bind(c, name="tcsSpMM_getBlockCounts")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: matA
      integer(c_int64_t), intent(out) :: blockRows, blockCols, blocksNatural, blocksReordered, &
                                         blocksUsed
      integer(c_int), intent(out) :: usesBlocks
    end function

    ! ---------------------------------------------------------------- SpMV

    integer(c_int) function tcsSpMV_bufferSize(handle, opA, alpha, matA, vecX, beta, vecY, &
                                               computeType, alg, bufferSize) &
                                               bind(c, name="tcsSpMV_bufferSize")
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle
      integer(c_int), value :: opA
      type(c_ptr), value :: alpha, matA, vecX, beta, vecY
      integer(c_int), value :: computeType, alg
      integer(c_size_t), intent(out) :: bufferSize
    end function

    integer(c_int) function tcsSpMV_preprocess(handle, opA, alpha, matA, vecX, beta, vecY, &
                                               computeType, alg, externalBuffer) &
                                               bind(c, name="tcsSpMV_preprocess")
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: opA
      type(c_ptr), value :: alpha, matA, vecX, beta, vecY
      integer(c_int), value :: computeType, alg
      type(c_ptr), value :: externalBuffer
    end function

    integer(c_int) function tcsSpMV(handle, opA, alpha, matA, vecX, beta, vecY, computeType, &
                                    alg, externalBuffer) bind(c, name="tcsSpMV")
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: opA
      type(c_ptr), value :: alpha, matA, vecX, beta, vecY
      integer(c_int), value :: computeType, alg
      type(c_ptr), value :: externalBuffer
    end function
  end interface

contains

  !> The enumerator name of a status, e.g. "TCS_STATUS_INVALID_VALUE".
  function tcs_error_name(status) result(name)
    integer(c_int), intent(in) :: status
    character(len=:), allocatable :: name
    name = c_to_fortran_string(tcsGetErrorName(status))
  end function

  !> A one-sentence description of a status.
  function tcs_error_string(status) result(text)
    integer(c_int), intent(in) :: status
    character(len=:), allocatable :: text
    text = c_to_fortran_string(tcsGetErrorString(status))
  end function

  ! Copies a NUL-terminated C string into a Fortran string of its exact length.
  function c_to_fortran_string(s) result(f)
    type(c_ptr), intent(in) :: s
    character(len=:), allocatable :: f
    character(kind=c_char), pointer :: chars(:)
    integer :: i, n
    interface
      ! strlen from the C library, to measure the static strings the library returns.
      function c_strlen(str) bind(c, name="strlen")
        import :: c_ptr, c_size_t
        type(c_ptr), value :: str
        integer(c_size_t) :: c_strlen
      end function
    end interface
    if (.not. c_associated(s)) then
      f = ''
      return
    end if
    n = int(c_strlen(s))
    call c_f_pointer(s, chars, [n])
    allocate(character(len=n) :: f)
    do i = 1, n
      f(i:i) = chars(i)
    end do
  end function

end module tcsparse
