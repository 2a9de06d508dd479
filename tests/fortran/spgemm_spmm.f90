! GPU test of the Fortran module as a Fortran user drives it: 1-based CSR arrays as
! they are, the full SpGEMM protocol (C created with nnz 0 and a caller row-offset
! array) and SpMM with column-major dense matrices whose leading dimension exceeds
! the row count. Results are compared with products computed here on the host.
! Exit status: 0 success, 1 failure, 77 no GPU (skipped).
program spgemm_spmm
  use, intrinsic :: iso_c_binding
  use tcsparse
  use tcs_test_checks
  use tcs_test_cuda
  implicit none

  ! A host CSR matrix with 1-based row offsets and column indices.
  type :: csr_matrix
    integer :: rows = 0, cols = 0
    integer(c_int), allocatable :: row_ptr(:), col_ind(:)
    real(c_double), allocatable :: val(:)
  end type

  type(c_ptr) :: handle
  type(csr_matrix) :: a_small, b_small, a_rand, b_rand
  integer(c_int64_t) :: seed = 12345

  if (gpu_count() == 0) then
    write (*, '(a)') 'no GPU: tcs_fortran_test skipped'
    stop 77
  end if
  call expect_status(tcsCreate(handle), TCS_STATUS_SUCCESS, 'tcsCreate')
  if (.not. c_associated(handle)) call finish('tcs_fortran_test')

  call small_pair(a_small, b_small)
  a_rand = random_csr(60, 50, 0.1d0)
  b_rand = random_csr(50, 70, 0.08d0)

  call check_spgemm(a_small, b_small, 1.0d0, 'SpGEMM small (empty row, cancellation)')
  call check_spgemm(a_rand, b_rand, -0.5d0, 'SpGEMM random 60x50 * 50x70')
  call check_spmm(a_small, 3, 2.0d0, 0.5d0, 'SpMM small')
  call check_spmm(a_rand, 33, 1.0d0, 0.0d0, 'SpMM random, n = 33')

  call expect_status(tcsDestroy(handle), TCS_STATUS_SUCCESS, 'tcsDestroy')
  call finish('tcs_fortran_test')

contains

  ! A (4 x 5) has an empty second row; C(1,2) = 1*(-2) + 2*1 cancels to an explicit zero.
  subroutine small_pair(a, b)
    type(csr_matrix), intent(out) :: a, b
    a%rows = 4
    a%cols = 5
    a%row_ptr = [1, 3, 3, 6, 8]
    a%col_ind = [1, 3, 2, 4, 5, 1, 5]
    a%val = [1.0d0, 2.0d0, -1.0d0, 3.0d0, 0.5d0, 2.0d0, 1.0d0]
    b%rows = 5
    b%cols = 3
    b%row_ptr = [1, 3, 4, 6, 7, 9]
    b%col_ind = [1, 2, 3, 1, 2, 2, 3, 1]
    b%val = [1.0d0, -2.0d0, 4.0d0, 0.5d0, 1.0d0, 2.0d0, -1.0d0, 1.0d0]
  end subroutine

  ! A rows x cols matrix whose entries are present with probability `density`, with
  ! values in [-1, 1), from a fixed linear congruential sequence.
  function random_csr(rows, cols, density) result(m)
    integer, intent(in) :: rows, cols
    real(c_double), intent(in) :: density
    type(csr_matrix) :: m
    integer :: i, j, nnz
    integer(c_int) :: col(rows * cols)
    real(c_double) :: val(rows * cols)
    m%rows = rows
    m%cols = cols
    allocate(m%row_ptr(rows + 1))
    nnz = 0
    m%row_ptr(1) = 1
    do i = 1, rows
      do j = 1, cols
        if (next_uniform() < density) then
          nnz = nnz + 1
          col(nnz) = j
          val(nnz) = 2.0d0 * next_uniform() - 1.0d0
        end if
      end do
      m%row_ptr(i + 1) = nnz + 1
    end do
    allocate(m%col_ind(nnz), m%val(nnz))
    m%col_ind(:) = col(1:nnz)
    m%val(:) = val(1:nnz)
  end function

  real(c_double) function next_uniform()
    seed = modulo(seed * 16807_c_int64_t, 2147483647_c_int64_t)
    next_uniform = real(seed, c_double) / 2147483647.0d0
  end function

  function to_dense(m) result(d)
    type(csr_matrix), intent(in) :: m
    real(c_double) :: d(m%rows, m%cols)
    integer :: i, p
    d = 0
    do i = 1, m%rows
      do p = m%row_ptr(i), m%row_ptr(i + 1) - 1
        d(i, m%col_ind(p)) = d(i, m%col_ind(p)) + m%val(p)
      end do
    end do
  end function

  ! The symbolic product: (i, j) is in C's pattern when some A(i,l) and B(l,j) are stored.
  function product_pattern(a, b) result(pattern)
    type(csr_matrix), intent(in) :: a, b
    logical :: pattern(a%rows, b%cols)
    integer :: i, p, q
    pattern = .false.
    do i = 1, a%rows
      do p = a%row_ptr(i), a%row_ptr(i + 1) - 1
        do q = b%row_ptr(a%col_ind(p)), b%row_ptr(a%col_ind(p) + 1) - 1
          pattern(i, b%col_ind(q)) = .true.
        end do
      end do
    end do
  end function

  integer(c_int64_t) function product_count(a, b)
    type(csr_matrix), intent(in) :: a, b
    integer :: p
    product_count = 0
    do p = 1, size(a%col_ind)
      product_count = product_count + b%row_ptr(a%col_ind(p) + 1) - b%row_ptr(a%col_ind(p))
    end do
  end function

  ! Describes a host CSR matrix already copied to the device (arrays in d(1:3)).
  type(c_ptr) function describe_csr(m, d) result(mat)
    type(csr_matrix), intent(in) :: m
    type(c_ptr), intent(in) :: d(3)
    call expect_status(tcsCreateConstCsr(mat, int(m%rows, c_int64_t), int(m%cols, c_int64_t), &
                                         int(size(m%val), c_int64_t), d(1), d(2), d(3), &
                                         TCS_INDEX_32I, TCS_INDEX_32I, TCS_INDEX_BASE_ONE, &
                                         CUDA_R_64F), TCS_STATUS_SUCCESS, 'tcsCreateConstCsr')
  end function

  subroutine upload_csr(m, d)
    type(csr_matrix), intent(in) :: m
    type(c_ptr), intent(out) :: d(3)
    d(1) = to_device(m%row_ptr)
    d(2) = to_device(m%col_ind)
    d(3) = to_device(m%val)
  end subroutine

  subroutine free_all(d)
    type(c_ptr), intent(in) :: d(:)
    integer :: i
    do i = 1, size(d)
      call device_free(d(i))
    end do
  end subroutine

  subroutine check_spgemm(a, b, alpha, what)
    type(csr_matrix), intent(in) :: a, b
    real(c_double), intent(in) :: alpha
    character(len=*), intent(in) :: what
    real(c_double), target :: alpha_v, beta_v
    type(c_ptr) :: d_a(3), d_b(3), d_c(3), buffer1, buffer2, mat_a, mat_b, mat_c, descr
    integer(c_size_t) :: size1, size2
    integer(c_int64_t) :: c_rows, c_cols, c_nnz, products
    integer :: pass
    integer(c_int), allocatable :: c_row_ptr(:), c_col(:)
    real(c_double), allocatable :: c_val(:)

    alpha_v = alpha
    beta_v = 0
    call upload_csr(a, d_a)
    call upload_csr(b, d_b)
    mat_a = describe_csr(a, d_a)
    mat_b = describe_csr(b, d_b)
    d_c(1) = device_alloc(int(a%rows + 1, c_size_t) * c_sizeof(0_c_int))
    call expect_status(tcsCreateCsr(mat_c, int(a%rows, c_int64_t), int(b%cols, c_int64_t), &
                                    0_c_int64_t, d_c(1), c_null_ptr, c_null_ptr, TCS_INDEX_32I, &
                                    TCS_INDEX_32I, TCS_INDEX_BASE_ONE, CUDA_R_64F), &
                       TCS_STATUS_SUCCESS, what // ': tcsCreateCsr(C)')
    call expect_status(tcsSpGEMM_createDescr(descr), TCS_STATUS_SUCCESS, what // ': createDescr')

    ! Each stage twice: the size query (no buffer), then the run with a buffer of that size.
    buffer1 = c_null_ptr
    buffer2 = c_null_ptr
    size1 = 0
    size2 = 0
    do pass = 1, 2
      call expect_status(tcsSpGEMM_workEstimation(handle, TCS_OPERATION_NON_TRANSPOSE, &
                           TCS_OPERATION_NON_TRANSPOSE, c_loc(alpha_v), mat_a, mat_b, c_loc(beta_v), &
                           mat_c, CUDA_R_64F, TCS_SPGEMM_DEFAULT, descr, size1, buffer1), &
                         TCS_STATUS_SUCCESS, what // ': workEstimation')
      if (pass == 1) buffer1 = device_alloc(size1)
    end do
    call expect_status(tcsSpGEMM_getNumProducts(descr, products), TCS_STATUS_SUCCESS, &
                       what // ': getNumProducts')
    call expect(products == product_count(a, b), what // ': number of products')
    do pass = 1, 2
      call expect_status(tcsSpGEMM_compute(handle, TCS_OPERATION_NON_TRANSPOSE, &
                           TCS_OPERATION_NON_TRANSPOSE, c_loc(alpha_v), mat_a, mat_b, c_loc(beta_v), &
                           mat_c, CUDA_R_64F, TCS_SPGEMM_DEFAULT, descr, size2, buffer2), &
                         TCS_STATUS_SUCCESS, what // ': compute')
      if (pass == 1) buffer2 = device_alloc(size2)
    end do

    call expect_status(tcsSpMatGetSize(mat_c, c_rows, c_cols, c_nnz), TCS_STATUS_SUCCESS, &
                       what // ': tcsSpMatGetSize(C)')
    call expect(c_rows == a%rows .and. c_cols == b%cols, what // ': size of C')
    call expect(c_nnz == count(product_pattern(a, b)), what // ': nnz(C) is the symbolic count')
    c_nnz = max(c_nnz, 0_c_int64_t)
    d_c(2) = device_alloc(c_nnz * c_sizeof(0_c_int))
    d_c(3) = device_alloc(c_nnz * c_sizeof(0.0_c_double))
    call expect_status(tcsCsrSetPointers(mat_c, d_c(1), d_c(2), d_c(3)), TCS_STATUS_SUCCESS, &
                       what // ': tcsCsrSetPointers')
    call expect_status(tcsSpGEMM_copy(handle, TCS_OPERATION_NON_TRANSPOSE, &
                         TCS_OPERATION_NON_TRANSPOSE, c_loc(alpha_v), mat_a, mat_b, c_loc(beta_v), &
                         mat_c, CUDA_R_64F, TCS_SPGEMM_DEFAULT, descr), &
                       TCS_STATUS_SUCCESS, what // ': copy')
    call device_synchronize()

    allocate(c_row_ptr(a%rows + 1), c_col(c_nnz), c_val(c_nnz))
    call to_host(d_c(1), c_row_ptr)
    call to_host(d_c(2), c_col)
    call to_host(d_c(3), c_val)
    call check_product(a, b, alpha, c_row_ptr, c_col, c_val, what)

    call expect_status(tcsSpGEMM_destroyDescr(descr), TCS_STATUS_SUCCESS, what // ': destroyDescr')
    call expect_status(tcsDestroySpMat(mat_a), TCS_STATUS_SUCCESS, what // ': destroy A')
    call expect_status(tcsDestroySpMat(mat_b), TCS_STATUS_SUCCESS, what // ': destroy B')
    call expect_status(tcsDestroySpMat(mat_c), TCS_STATUS_SUCCESS, what // ': destroy C')
    call free_all([d_a, d_b, d_c, buffer1, buffer2])
  end subroutine

  ! C must be 1-based CSR with the symbolic pattern of A*B, columns sorted within each
  ! row, and values within a summation error bound of alpha*A*B.
  subroutine check_product(a, b, alpha, row_ptr, col, val, what)
    type(csr_matrix), intent(in) :: a, b
    real(c_double), intent(in) :: alpha
    integer(c_int), intent(in) :: row_ptr(:), col(:)
    real(c_double), intent(in) :: val(:)
    character(len=*), intent(in) :: what
    real(c_double) :: da(a%rows, a%cols), db(b%rows, b%cols)
    real(c_double) :: ref(a%rows, b%cols), bound(a%rows, b%cols)
    logical :: pattern(a%rows, b%cols), seen(a%rows, b%cols)
    integer :: i, p, j, bad
    da = to_dense(a)
    db = to_dense(b)
    ref = alpha * matmul(da, db)
    bound = 4 * a%cols * epsilon(1.0d0) * abs(alpha) * matmul(abs(da), abs(db))
    pattern = product_pattern(a, b)
    seen = .false.
    ! The row offsets first: only when they are sound can they index col and val.
    if (row_ptr(1) /= 1 .or. row_ptr(a%rows + 1) /= size(col) + 1 .or. &
        any(row_ptr(2:) < row_ptr(:a%rows))) then
      call expect(.false., what // ': C''s row offsets run from 1 to nnz+1 and never decrease')
      return
    end if
    bad = 0
    do i = 1, a%rows
      do p = row_ptr(i), row_ptr(i + 1) - 1
        j = col(p)
        if (j < 1 .or. j > b%cols) then
          bad = bad + 1
          cycle
        end if
        if (p > row_ptr(i)) then
          if (col(p - 1) >= j) bad = bad + 1
        end if
        if (.not. pattern(i, j) .or. seen(i, j)) bad = bad + 1
        if (abs(val(p) - ref(i, j)) > bound(i, j) + tiny(1.0d0)) bad = bad + 1
        seen(i, j) = .true.
      end do
    end do
    call expect(bad == 0, what // ': C has sorted columns and the pattern and values of alpha*A*B')
    call expect(all(seen .eqv. pattern), what // ': every entry of the symbolic pattern is in C')
  end subroutine

  ! C = alpha*A*B + beta*C0 with B (k x n) and C (m x n) column-major, each stored with
  ! a leading dimension larger than its row count; the padding rows must stay untouched.
  subroutine check_spmm(a, n, alpha, beta, what)
    type(csr_matrix), intent(in) :: a
    integer, intent(in) :: n
    real(c_double), intent(in) :: alpha, beta
    character(len=*), intent(in) :: what
    real(c_double), parameter :: sentinel = -777.0d0
    integer, parameter :: pad = 3
    real(c_double), target :: alpha_v, beta_v
    real(c_double) :: b(a%cols + pad, n), c0(a%rows + pad, n), c(a%rows + pad, n)
    real(c_double) :: da(a%rows, a%cols), ref(a%rows, n), bound(a%rows, n)
    real(c_double) :: c_flat((a%rows + pad) * n)
    type(c_ptr) :: d_a(3), d_b, d_c, buffer, mat_a, mat_b, mat_c
    integer(c_size_t) :: buffer_size
    integer :: i, j

    alpha_v = alpha
    beta_v = beta
    b = sentinel
    c0 = sentinel
    do j = 1, n
      do i = 1, a%cols
        b(i, j) = 2.0d0 * next_uniform() - 1.0d0
      end do
      do i = 1, a%rows
        c0(i, j) = 2.0d0 * next_uniform() - 1.0d0
      end do
    end do
    da = to_dense(a)
    ref = alpha * matmul(da, b(1:a%cols, :)) + beta * c0(1:a%rows, :)
    bound = 4 * (a%cols + 1) * epsilon(1.0d0) * (abs(alpha) * matmul(abs(da), abs(b(1:a%cols, :))) &
            + abs(beta) * abs(c0(1:a%rows, :)))

    call upload_csr(a, d_a)
    mat_a = describe_csr(a, d_a)
    d_b = to_device(reshape(b, [size(b)]))
    d_c = to_device(reshape(c0, [size(c0)]))
    call expect_status(tcsCreateConstDnMat(mat_b, int(a%cols, c_int64_t), int(n, c_int64_t), &
                                           int(a%cols + pad, c_int64_t), d_b, CUDA_R_64F, &
                                           TCS_ORDER_COL), TCS_STATUS_SUCCESS, what // ': B')
    call expect_status(tcsCreateDnMat(mat_c, int(a%rows, c_int64_t), int(n, c_int64_t), &
                                      int(a%rows + pad, c_int64_t), d_c, CUDA_R_64F, TCS_ORDER_COL), &
                       TCS_STATUS_SUCCESS, what // ': C')

    call expect_status(tcsSpMM_bufferSize(handle, TCS_OPERATION_NON_TRANSPOSE, &
                         TCS_OPERATION_NON_TRANSPOSE, c_loc(alpha_v), mat_a, mat_b, c_loc(beta_v), &
                         mat_c, CUDA_R_64F, TCS_SPMM_ALG_DEFAULT, buffer_size), &
                       TCS_STATUS_SUCCESS, what // ': bufferSize')
    buffer = device_alloc(buffer_size)
    call expect_status(tcsSpMM_preprocess(handle, TCS_OPERATION_NON_TRANSPOSE, &
                         TCS_OPERATION_NON_TRANSPOSE, c_loc(alpha_v), mat_a, mat_b, c_loc(beta_v), &
                         mat_c, CUDA_R_64F, TCS_SPMM_ALG_DEFAULT, buffer), &
                       TCS_STATUS_SUCCESS, what // ': preprocess')
    call expect_status(tcsSpMM(handle, TCS_OPERATION_NON_TRANSPOSE, TCS_OPERATION_NON_TRANSPOSE, &
                         c_loc(alpha_v), mat_a, mat_b, c_loc(beta_v), mat_c, CUDA_R_64F, &
                         TCS_SPMM_ALG_DEFAULT, buffer), TCS_STATUS_SUCCESS, what // ': tcsSpMM')
    call device_synchronize()
    call to_host(d_c, c_flat)
    c = reshape(c_flat, shape(c))

    call expect(all(abs(c(1:a%rows, :) - ref) <= bound + tiny(1.0d0)), what // ': C = alpha*A*B + beta*C')
    call expect(all(c(a%rows + 1:, :) == sentinel), what // ': the padding rows of C are untouched')

    call expect_status(tcsDestroySpMat(mat_a), TCS_STATUS_SUCCESS, what // ': destroy A')
    call expect_status(tcsDestroyDnMat(mat_b), TCS_STATUS_SUCCESS, what // ': destroy B')
    call expect_status(tcsDestroyDnMat(mat_c), TCS_STATUS_SUCCESS, what // ': destroy C')
    call free_all([d_a, d_b, d_c, buffer])
  end subroutine

end program spgemm_spmm
