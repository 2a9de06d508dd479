! Host-only test of the Fortran module against the real library: every kind of
! argument passing the interfaces use (int64 and enums by value, outputs by
! reference, c_ptr by value and by reference, strings) is checked by a round trip
! through descriptors, which need no GPU. Exit status 0 on success, 1 on failure.
program host_api
  use, intrinsic :: iso_c_binding
  use tcsparse
  use tcs_test_checks
  implicit none

  call check_version()
  call check_error_strings()
  call check_handle()
  call check_csr_descriptor()
  call check_other_sparse_descriptors()
  call check_dense_descriptor()
  call check_spgemm_descriptor()
  call finish('tcs_fortran_host')

contains

  subroutine check_version()
    integer(c_int) :: version, major, minor, patch
    call expect_status(tcsGetVersion(c_null_ptr, version), TCS_STATUS_SUCCESS, 'tcsGetVersion')
    call expect(version == TCS_VERSION, 'tcsGetVersion equals the module''s TCS_VERSION')
    call expect_status(tcsGetProperty(MAJOR_VERSION, major), TCS_STATUS_SUCCESS, 'tcsGetProperty(MAJOR)')
    call expect_status(tcsGetProperty(MINOR_VERSION, minor), TCS_STATUS_SUCCESS, 'tcsGetProperty(MINOR)')
    call expect_status(tcsGetProperty(PATCH_LEVEL, patch), TCS_STATUS_SUCCESS, 'tcsGetProperty(PATCH)')
    call expect(major == TCS_VERSION_MAJOR .and. minor == TCS_VERSION_MINOR .and. &
                patch == TCS_VERSION_PATCH, 'tcsGetProperty agrees with the module''s version')
    call expect_status(tcsGetProperty(7_c_int, major), TCS_STATUS_INVALID_VALUE, 'tcsGetProperty(7)')
  end subroutine

  subroutine check_error_strings()
    character(len=*), parameter :: names(0:11) = [character(len=36) :: &
      'TCS_STATUS_SUCCESS', 'TCS_STATUS_NOT_INITIALIZED', 'TCS_STATUS_ALLOC_FAILED', &
      'TCS_STATUS_INVALID_VALUE', 'TCS_STATUS_ARCH_MISMATCH', 'TCS_STATUS_MAPPING_ERROR', &
      'TCS_STATUS_EXECUTION_FAILED', 'TCS_STATUS_INTERNAL_ERROR', &
      'TCS_STATUS_MATRIX_TYPE_NOT_SUPPORTED', 'TCS_STATUS_ZERO_PIVOT', &
      'TCS_STATUS_NOT_SUPPORTED', 'TCS_STATUS_INSUFFICIENT_RESOURCES']
    integer(c_int) :: s
    ! The enumerators of the module must have the values whose names the library reports.
    call expect(tcs_error_name(TCS_STATUS_INSUFFICIENT_RESOURCES) == names(11), &
                'TCS_STATUS_INSUFFICIENT_RESOURCES has the library''s value')
    do s = 0, 11
      call expect(tcs_error_name(s) == trim(names(s)), 'tcs_error_name of ' // trim(names(s)))
      call expect(len(tcs_error_string(s)) > 10, 'tcs_error_string of ' // trim(names(s)))
    end do
    call expect(tcs_error_name(-1_c_int) == 'TCS_STATUS_UNKNOWN', 'tcs_error_name(-1)')
    call expect(tcs_error_string(12_c_int) == 'unknown status', 'tcs_error_string(12)')
  end subroutine

  ! Without a GPU tcsCreate reports NOT_INITIALIZED and leaves a null handle; with
  ! one, the handle's settings must round-trip.
  subroutine check_handle()
    type(c_ptr) :: handle, stream
    integer(c_int) :: status, mode
    integer, target :: marker
    handle = c_loc(marker)  ! not null, so that the library must write it
    status = tcsCreate(handle)
    if (status == TCS_STATUS_NOT_INITIALIZED) then
      call expect(.not. c_associated(handle), 'tcsCreate without a GPU leaves a null handle')
      write (*, '(a)') 'tcsCreate: TCS_STATUS_NOT_INITIALIZED (no GPU), handle checks skipped'
    else
      call expect_status(status, TCS_STATUS_SUCCESS, 'tcsCreate')
      call expect_status(tcsSetPointerMode(handle, TCS_POINTER_MODE_DEVICE), TCS_STATUS_SUCCESS, &
                         'tcsSetPointerMode')
      call expect_status(tcsGetPointerMode(handle, mode), TCS_STATUS_SUCCESS, 'tcsGetPointerMode')
      call expect(mode == TCS_POINTER_MODE_DEVICE, 'pointer mode round trip')
      call expect_status(tcsSetMathMode(handle, TCS_TF32_TENSOR_OP_MATH), TCS_STATUS_SUCCESS, &
                         'tcsSetMathMode')
      call expect_status(tcsGetMathMode(handle, mode), TCS_STATUS_SUCCESS, 'tcsGetMathMode')
      call expect(mode == TCS_TF32_TENSOR_OP_MATH, 'math mode round trip')
      call expect_status(tcsSetMathMode(handle, 1_c_int), TCS_STATUS_INVALID_VALUE, 'tcsSetMathMode(1)')
      call expect_status(tcsGetStream(handle, stream), TCS_STATUS_SUCCESS, 'tcsGetStream')
      call expect(.not. c_associated(stream), 'a new handle uses stream 0')
      call expect_status(tcsDestroy(handle), TCS_STATUS_SUCCESS, 'tcsDestroy')
    end if
    call expect_status(tcsDestroy(c_null_ptr), TCS_STATUS_SUCCESS, 'tcsDestroy(NULL)')
    call expect_status(tcsSetStream(c_null_ptr, c_null_ptr), TCS_STATUS_INVALID_VALUE, &
                       'tcsSetStream(NULL handle)')
  end subroutine

  ! Descriptors only store pointers, so host arrays stand in for device arrays.
  subroutine check_csr_descriptor()
    integer(c_int), target :: row_ptr(4) = [1, 3, 3, 6]
    integer(c_int), target :: col_ind(5) = [1, 4, 2, 3, 4]
    real(c_double), target :: values(5) = [1d0, 2d0, 3d0, 4d0, 5d0]
    real(c_double), target :: other_values(5)
    type(c_ptr) :: mat, cmat, p_rows, p_cols, p_vals
    integer(c_int64_t) :: rows, cols, nnz
    integer(c_int) :: row_type, col_type, base, value_type, format

    call expect_status(tcsCreateCsr(mat, 3_c_int64_t, 4_c_int64_t, 5_c_int64_t, c_loc(row_ptr), &
                                    c_loc(col_ind), c_loc(values), TCS_INDEX_32I, TCS_INDEX_32I, &
                                    TCS_INDEX_BASE_ONE, CUDA_R_64F), TCS_STATUS_SUCCESS, 'tcsCreateCsr')
    call expect_status(tcsCsrGet(mat, rows, cols, nnz, p_rows, p_cols, p_vals, row_type, col_type, &
                                 base, value_type), TCS_STATUS_SUCCESS, 'tcsCsrGet')
    call expect(rows == 3 .and. cols == 4 .and. nnz == 5, 'tcsCsrGet sizes')
    call expect(c_associated(p_rows, c_loc(row_ptr)) .and. c_associated(p_cols, c_loc(col_ind)) &
                .and. c_associated(p_vals, c_loc(values)), 'tcsCsrGet pointers')
    call expect(row_type == TCS_INDEX_32I .and. col_type == TCS_INDEX_32I .and. &
                base == TCS_INDEX_BASE_ONE .and. value_type == CUDA_R_64F, 'tcsCsrGet enums')
    call expect_status(tcsSpMatGetFormat(mat, format), TCS_STATUS_SUCCESS, 'tcsSpMatGetFormat')
    call expect(format == TCS_FORMAT_CSR, 'format is CSR')
    call expect_status(tcsSpMatGetIndexBase(mat, base), TCS_STATUS_SUCCESS, 'tcsSpMatGetIndexBase')
    call expect(base == TCS_INDEX_BASE_ONE, 'index base is ONE')
    call expect_status(tcsSpMatSetValues(mat, c_loc(other_values)), TCS_STATUS_SUCCESS, &
                       'tcsSpMatSetValues')
    call expect_status(tcsSpMatGetValues(mat, p_vals), TCS_STATUS_SUCCESS, 'tcsSpMatGetValues')
    call expect(c_associated(p_vals, c_loc(other_values)), 'values pointer round trip')
    call expect_status(tcsCsrSetPointers(mat, c_loc(row_ptr), c_loc(col_ind), c_loc(values)), &
                       TCS_STATUS_SUCCESS, 'tcsCsrSetPointers')
    call expect_status(tcsSpMatGetValues(mat, p_vals), TCS_STATUS_SUCCESS, 'tcsSpMatGetValues')
    call expect(c_associated(p_vals, c_loc(values)), 'tcsCsrSetPointers sets the values')
    call expect_status(tcsDestroySpMat(mat), TCS_STATUS_SUCCESS, 'tcsDestroySpMat')

    call expect_status(tcsCreateConstCsr(cmat, 3_c_int64_t, 4_c_int64_t, 5_c_int64_t, &
                                         c_loc(row_ptr), c_loc(col_ind), c_loc(values), &
                                         TCS_INDEX_32I, TCS_INDEX_32I, TCS_INDEX_BASE_ONE, &
                                         CUDA_R_64F), TCS_STATUS_SUCCESS, 'tcsCreateConstCsr')
    call expect_status(tcsSpMatGetSize(cmat, rows, cols, nnz), TCS_STATUS_SUCCESS, 'tcsSpMatGetSize')
    call expect(rows == 3 .and. cols == 4 .and. nnz == 5, 'tcsSpMatGetSize of a const CSR')
    call expect_status(tcsSpMatGetValues(cmat, p_vals), TCS_STATUS_INVALID_VALUE, &
                       'tcsSpMatGetValues of a const descriptor')
    call expect_status(tcsDestroySpMat(cmat), TCS_STATUS_SUCCESS, 'tcsDestroySpMat(const)')

    ! The output C of SpGEMM: nnz 0, a row-offset array and no other arrays.
    call expect_status(tcsCreateCsr(mat, 3_c_int64_t, 4_c_int64_t, 0_c_int64_t, c_loc(row_ptr), &
                                    c_null_ptr, c_null_ptr, TCS_INDEX_32I, TCS_INDEX_32I, &
                                    TCS_INDEX_BASE_ONE, CUDA_R_64F), TCS_STATUS_SUCCESS, &
                       'tcsCreateCsr with nnz 0')
    call expect_status(tcsDestroySpMat(mat), TCS_STATUS_SUCCESS, 'tcsDestroySpMat')

    ! Invalid arguments change nothing and say so.
    call expect_status(tcsCreateCsr(mat, -3_c_int64_t, 4_c_int64_t, 5_c_int64_t, c_loc(row_ptr), &
                                    c_loc(col_ind), c_loc(values), TCS_INDEX_32I, TCS_INDEX_32I, &
                                    TCS_INDEX_BASE_ONE, CUDA_R_64F), TCS_STATUS_INVALID_VALUE, &
                       'tcsCreateCsr with negative rows')
    call expect_status(tcsCreateCsr(mat, 3_c_int64_t, 4_c_int64_t, 5_c_int64_t, c_loc(row_ptr), &
                                    c_loc(col_ind), c_loc(values), TCS_INDEX_32I, TCS_INDEX_32I, &
                                    7_c_int, CUDA_R_64F), TCS_STATUS_INVALID_VALUE, &
                       'tcsCreateCsr with index base 7')
    call expect_status(tcsCreateCsr(mat, 3_c_int64_t, 4_c_int64_t, 5_c_int64_t, c_loc(row_ptr), &
                                    c_null_ptr, c_loc(values), TCS_INDEX_32I, TCS_INDEX_32I, &
                                    TCS_INDEX_BASE_ONE, CUDA_R_64F), TCS_STATUS_INVALID_VALUE, &
                       'tcsCreateCsr with NULL column indices')
  end subroutine

  subroutine check_other_sparse_descriptors()
    integer(c_int), target :: rows_idx(3) = [1, 2, 2], cols_idx(3) = [1, 1, 3]
    real(c_float), target :: values(12)
    type(c_ptr) :: mat
    integer(c_int64_t) :: rows, cols, nnz
    integer(c_int) :: format

    call expect_status(tcsCreateCoo(mat, 2_c_int64_t, 3_c_int64_t, 3_c_int64_t, c_loc(rows_idx), &
                                    c_loc(cols_idx), c_loc(values), TCS_INDEX_32I, &
                                    TCS_INDEX_BASE_ONE, CUDA_R_32F), TCS_STATUS_SUCCESS, 'tcsCreateCoo')
    call expect_status(tcsSpMatGetFormat(mat, format), TCS_STATUS_SUCCESS, 'tcsSpMatGetFormat(COO)')
    call expect(format == TCS_FORMAT_COO, 'format is COO')
    call expect_status(tcsDestroySpMat(mat), TCS_STATUS_SUCCESS, 'tcsDestroySpMat(COO)')

    ! 2 x 3 blocks of 2 x 2, 3 stored blocks.
    call expect_status(tcsCreateBsr(mat, 2_c_int64_t, 3_c_int64_t, 3_c_int64_t, 2_c_int64_t, &
                                    2_c_int64_t, c_loc(rows_idx), c_loc(cols_idx), c_loc(values), &
                                    TCS_INDEX_32I, TCS_INDEX_32I, TCS_INDEX_BASE_ONE, CUDA_R_32F, &
                                    TCS_ORDER_ROW), TCS_STATUS_SUCCESS, 'tcsCreateBsr')
    call expect_status(tcsSpMatGetSize(mat, rows, cols, nnz), TCS_STATUS_SUCCESS, 'tcsSpMatGetSize(BSR)')
    call expect(rows == 2 .and. cols == 3 .and. nnz == 3, 'BSR sizes are in blocks')
    call expect_status(tcsSpMatGetFormat(mat, format), TCS_STATUS_SUCCESS, 'tcsSpMatGetFormat(BSR)')
    call expect(format == TCS_FORMAT_BSR, 'format is BSR')
    call expect_status(tcsDestroySpMat(mat), TCS_STATUS_SUCCESS, 'tcsDestroySpMat(BSR)')
    call expect_status(tcsDestroySpMat(c_null_ptr), TCS_STATUS_SUCCESS, 'tcsDestroySpMat(NULL)')
  end subroutine

  subroutine check_dense_descriptor()
    real(c_double), target :: a(6, 3), b(6, 3)
    type(c_ptr) :: mat, p_vals
    integer(c_int64_t) :: rows, cols, ld
    integer(c_int) :: value_type, order

    ! A 4 x 3 column-major matrix inside a 6 x 3 array: ld = 6.
    call expect_status(tcsCreateDnMat(mat, 4_c_int64_t, 3_c_int64_t, 6_c_int64_t, c_loc(a), &
                                      CUDA_R_64F, TCS_ORDER_COL), TCS_STATUS_SUCCESS, 'tcsCreateDnMat')
    call expect_status(tcsDnMatGet(mat, rows, cols, ld, p_vals, value_type, order), &
                       TCS_STATUS_SUCCESS, 'tcsDnMatGet')
    call expect(rows == 4 .and. cols == 3 .and. ld == 6 .and. c_associated(p_vals, c_loc(a)) .and. &
                value_type == CUDA_R_64F .and. order == TCS_ORDER_COL, 'tcsDnMatGet round trip')
    call expect_status(tcsDnMatSetValues(mat, c_loc(b)), TCS_STATUS_SUCCESS, 'tcsDnMatSetValues')
    call expect_status(tcsDnMatGetValues(mat, p_vals), TCS_STATUS_SUCCESS, 'tcsDnMatGetValues')
    call expect(c_associated(p_vals, c_loc(b)), 'dense values pointer round trip')
    call expect_status(tcsDestroyDnMat(mat), TCS_STATUS_SUCCESS, 'tcsDestroyDnMat')

    call expect_status(tcsCreateConstDnMat(mat, 4_c_int64_t, 3_c_int64_t, 6_c_int64_t, c_loc(a), &
                                           CUDA_R_64F, TCS_ORDER_COL), TCS_STATUS_SUCCESS, &
                       'tcsCreateConstDnMat')
    call expect_status(tcsDestroyDnMat(mat), TCS_STATUS_SUCCESS, 'tcsDestroyDnMat(const)')

    call expect_status(tcsCreateDnMat(mat, 4_c_int64_t, 3_c_int64_t, 3_c_int64_t, c_loc(a), &
                                      CUDA_R_64F, TCS_ORDER_COL), TCS_STATUS_INVALID_VALUE, &
                       'tcsCreateDnMat with ld < rows')
    call expect_status(tcsCreateDnMat(mat, 4_c_int64_t, 3_c_int64_t, 6_c_int64_t, c_loc(a), &
                                      CUDA_R_64F, 0_c_int), TCS_STATUS_INVALID_VALUE, &
                       'tcsCreateDnMat with order 0')
  end subroutine

  subroutine check_spgemm_descriptor()
    type(c_ptr) :: descr
    integer(c_int64_t) :: products
    call expect_status(tcsSpGEMM_createDescr(descr), TCS_STATUS_SUCCESS, 'tcsSpGEMM_createDescr')
    call expect_status(tcsSpGEMM_getNumProducts(descr, products), TCS_STATUS_NOT_INITIALIZED, &
                       'tcsSpGEMM_getNumProducts before workEstimation')
    call expect_status(tcsSpGEMM_destroyDescr(descr), TCS_STATUS_SUCCESS, 'tcsSpGEMM_destroyDescr')
    call expect_status(tcsSpGEMM_destroyDescr(c_null_ptr), TCS_STATUS_SUCCESS, &
                       'tcsSpGEMM_destroyDescr(NULL)')
  end subroutine

end program host_api
