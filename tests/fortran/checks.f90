! Checks shared by the Fortran test programs: each failed check prints what was
! expected and counts; finish() ends the program with exit status 0 or 1.
module tcs_test_checks
  use, intrinsic :: iso_c_binding
  use tcsparse, only: tcs_error_name
  implicit none
  private
  public :: expect_status, expect, finish

  integer, save :: failures = 0

contains

  !> Records a failure unless the call returned `want`.
  subroutine expect_status(got, want, what)
    integer(c_int), intent(in) :: got, want
    character(len=*), intent(in) :: what
    if (got /= want) then
      write (*, '(5a)') 'FAILED: ', what, ' returned ', tcs_error_name(got), &
                        ', expected ' // tcs_error_name(want)
      failures = failures + 1
    end if
  end subroutine

  !> Records a failure unless `ok` holds.
  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      write (*, '(2a)') 'FAILED: ', what
      failures = failures + 1
    end if
  end subroutine

  !> Ends the program: exit status 0 when every check passed, 1 otherwise.
  subroutine finish(name)
    character(len=*), intent(in) :: name
    if (failures == 0) then
      write (*, '(2a)') name, ': all checks passed'
      stop
    end if
    write (*, '(a, ": ", i0, " check(s) failed")') name, failures
    stop 1
  end subroutine

end module tcs_test_checks
