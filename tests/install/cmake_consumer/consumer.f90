! The Fortran side of the CMake consumer: the installed module source compiles with
! this compiler and its interfaces reach the installed library. Prints the version
! and "tcsCreate: <status name>"; exit status 0 for SUCCESS or NOT_INITIALIZED.
program consumer
  use, intrinsic :: iso_c_binding
  use tcsparse
  implicit none
  type(c_ptr) :: handle
  integer(c_int) :: version, status

  if (tcsGetVersion(c_null_ptr, version) /= TCS_STATUS_SUCCESS .or. version /= TCS_VERSION) then
    write (*, '(a, i0)') 'the library reports version ', version
    stop 1
  end if
  write (*, '(a, i0)') 'version: ', version
  status = tcsCreate(handle)
  write (*, '(2a)') 'tcsCreate: ', tcs_error_name(status)
  if (status == TCS_STATUS_SUCCESS) then
    if (tcsDestroy(handle) /= TCS_STATUS_SUCCESS) stop 1
  else if (status /= TCS_STATUS_NOT_INITIALIZED) then
    stop 1
  end if
end program consumer
