! The few CUDA runtime calls the Fortran GPU test needs, bound with iso_c_binding to
! libcudart so that no CUDA Fortran compiler is required. Every wrapper stops the
! program with exit status 1 when the runtime reports an error.
module tcs_test_cuda
  use, intrinsic :: iso_c_binding
  implicit none
  private
  public :: gpu_count, device_alloc, device_free, device_synchronize
  public :: to_device, to_host

  integer(c_int), parameter :: cuda_success = 0
  integer(c_int), parameter :: memcpy_host_to_device = 1
  integer(c_int), parameter :: memcpy_device_to_host = 2

  interface
    integer(c_int) function cudaGetDeviceCount(count) bind(c, name="cudaGetDeviceCount")
      import :: c_int
      integer(c_int), intent(out) :: count
    end function
    integer(c_int) function cudaMalloc(ptr, bytes) bind(c, name="cudaMalloc")
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), intent(out) :: ptr
      integer(c_size_t), value :: bytes
    end function
    integer(c_int) function cudaFree(ptr) bind(c, name="cudaFree")
      import :: c_int, c_ptr
      type(c_ptr), value :: ptr
    end function
    integer(c_int) function cudaMemcpy(dst, src, bytes, kind) bind(c, name="cudaMemcpy")
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: dst, src
      integer(c_size_t), value :: bytes
      integer(c_int), value :: kind
    end function
    integer(c_int) function cudaDeviceSynchronize() bind(c, name="cudaDeviceSynchronize")
      import :: c_int
    end function
  end interface

  !> Copies a host array into new device memory and returns its address.
  interface to_device
    module procedure to_device_int, to_device_double
  end interface

  !> Copies device memory into a host array of the same size.
  interface to_host
    module procedure to_host_int, to_host_double
  end interface

contains

  !> The number of usable GPUs; 0 when the runtime finds no device or no driver.
  integer function gpu_count()
    integer(c_int) :: n
    gpu_count = 0
    if (cudaGetDeviceCount(n) == cuda_success) gpu_count = n
  end function

  !> Device memory of at least one byte, so that an empty array still has an address.
  type(c_ptr) function device_alloc(bytes)
    integer(c_size_t), intent(in) :: bytes
    call check(cudaMalloc(device_alloc, max(bytes, 1_c_size_t)), 'cudaMalloc')
  end function

  subroutine device_free(ptr)
    type(c_ptr), intent(in) :: ptr
    call check(cudaFree(ptr), 'cudaFree')
  end subroutine

  subroutine device_synchronize()
    call check(cudaDeviceSynchronize(), 'cudaDeviceSynchronize')
  end subroutine

  type(c_ptr) function to_device_int(x) result(ptr)
    integer(c_int), intent(in), target, contiguous :: x(:)
    ptr = upload(c_loc(x), size(x, kind=c_size_t) * c_sizeof(0_c_int))
  end function

  type(c_ptr) function to_device_double(x) result(ptr)
    real(c_double), intent(in), target, contiguous :: x(:)
    ptr = upload(c_loc(x), size(x, kind=c_size_t) * c_sizeof(0.0_c_double))
  end function

  subroutine to_host_int(ptr, x)
    type(c_ptr), intent(in) :: ptr
    integer(c_int), intent(inout), target, contiguous :: x(:)
    call download(c_loc(x), ptr, size(x, kind=c_size_t) * c_sizeof(0_c_int))
  end subroutine

  subroutine to_host_double(ptr, x)
    type(c_ptr), intent(in) :: ptr
    real(c_double), intent(inout), target, contiguous :: x(:)
    call download(c_loc(x), ptr, size(x, kind=c_size_t) * c_sizeof(0.0_c_double))
  end subroutine

  type(c_ptr) function upload(host, bytes) result(ptr)
    type(c_ptr), intent(in) :: host
    integer(c_size_t), intent(in) :: bytes
    ptr = device_alloc(bytes)
    if (bytes > 0) call check(cudaMemcpy(ptr, host, bytes, memcpy_host_to_device), 'cudaMemcpy')
  end function

  subroutine download(host, ptr, bytes)
    type(c_ptr), intent(in) :: host, ptr
    integer(c_size_t), intent(in) :: bytes
    if (bytes > 0) call check(cudaMemcpy(host, ptr, bytes, memcpy_device_to_host), 'cudaMemcpy')
  end subroutine

  subroutine check(status, what)
    integer(c_int), intent(in) :: status
    character(len=*), intent(in) :: what
    if (status /= cuda_success) then
      write (*, '(2a, i0)') what, ' failed with CUDA error ', status
      stop 1
    end if
  end subroutine

end module tcs_test_cuda
