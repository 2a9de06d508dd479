# Python: python/tcsparse_ctypes.py loads the built library through ctypes.
#   tcs_python_host (host)  loading, version, errors, descriptors; needs no numpy, no GPU
#   tcs_python_gpu  (gpu)   spgemm/spmm against scipy; exits 77 without numpy/scipy or GPU
find_package(Python3 COMPONENTS Interpreter)
if(NOT Python3_Interpreter_FOUND)
  message(STATUS "No Python 3 interpreter: the Python tests (tcs_python_*) are not registered")
  return()
endif()

find_path(TCS_CUDA_TYPES_INCLUDE_DIR library_types.h HINTS ${CUDAToolkit_INCLUDE_DIRS} NO_DEFAULT_PATH)
foreach(kind host gpu)
  add_test(NAME tcs_python_${kind}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/python/test_${kind}.py)
  set_tests_properties(tcs_python_${kind} PROPERTIES ENVIRONMENT
    "TCSPARSE_LIBRARY=$<TARGET_FILE:tcsparse>;TCS_MATRIX_DIR=${TCS_MATRIX_DIR};TCS_CUDA_INCLUDE_DIR=${TCS_CUDA_TYPES_INCLUDE_DIR}")
endforeach()
set_tests_properties(tcs_python_host PROPERTIES LABELS host TIMEOUT 120)
set_tests_properties(tcs_python_gpu PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 600)
