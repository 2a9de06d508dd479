# Python: the package tcsparse (python/tcsparse) against the built libraries.
#   tcs_python_host         (host) its C API layer: loading, version, errors, descriptors;
#                           plain python3, needs no numpy and no GPU
#   tcs_python_package      (host) pytest, the tests without a GPU: import, enums, errors
#                           with their log line, NoGpuError from the products, tcsparse.run
#   tcs_python_package_gpu  (gpu)  pytest -m gpu: CuPy, PyTorch and scipy products, the
#                           swap-in run of a CuPy program; Skipped (77) when all skip
# pytest, numpy and scipy come from the interpreter found, or else from a virtual
# environment made here at configure time (pip; a machine without the network then
# reports the two pytest tests as Skipped).
find_package(Python3 COMPONENTS Interpreter)
if(NOT Python3_Interpreter_FOUND)
  message(STATUS "No Python 3 interpreter: the Python tests (tcs_python_*) are not registered")
  return()
endif()

find_path(TCS_CUDA_TYPES_INCLUDE_DIR library_types.h HINTS ${CUDAToolkit_INCLUDE_DIRS} NO_DEFAULT_PATH)
set(TCS_PYTHON_ENV "PYTHONPATH=${PROJECT_SOURCE_DIR}/python" "TCSPARSE_LIBRARY=$<TARGET_FILE:tcsparse>"
    "TCS_MATRIX_DIR=${TCS_MATRIX_DIR}")
if(TARGET tcsparse_cusparse)
  list(APPEND TCS_PYTHON_ENV "TCSPARSE_SHIM_LIBRARY=$<TARGET_FILE:tcsparse_cusparse>")
endif()

add_test(NAME tcs_python_host COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/python/test_host.py)
set_tests_properties(tcs_python_host PROPERTIES LABELS host TIMEOUT 120 ENVIRONMENT
  "${TCS_PYTHON_ENV};TCS_CUDA_INCLUDE_DIR=${TCS_CUDA_TYPES_INCLUDE_DIR}")

set(TCS_PYTEST_PYTHON ${Python3_EXECUTABLE})
set(TCS_PYTEST_CHECK -c "import pytest, numpy, scipy")
execute_process(COMMAND ${TCS_PYTEST_PYTHON} ${TCS_PYTEST_CHECK} RESULT_VARIABLE TCS_PYTEST_MISSING
                OUTPUT_QUIET ERROR_QUIET)
if(TCS_PYTEST_MISSING)
  set(TCS_PYTEST_VENV ${CMAKE_BINARY_DIR}/python-test-venv)
  set(TCS_PYTEST_PYTHON ${TCS_PYTEST_VENV}/bin/python)
  execute_process(COMMAND ${TCS_PYTEST_PYTHON} ${TCS_PYTEST_CHECK} RESULT_VARIABLE TCS_PYTEST_MISSING
                  OUTPUT_QUIET ERROR_QUIET)
  if(TCS_PYTEST_MISSING)
    message(STATUS "pytest/numpy/scipy: installing them into ${TCS_PYTEST_VENV}")
    execute_process(COMMAND ${Python3_EXECUTABLE} -m venv --system-site-packages ${TCS_PYTEST_VENV}
                    COMMAND_ECHO NONE OUTPUT_QUIET)
    execute_process(COMMAND ${TCS_PYTEST_PYTHON} -m pip install -q pytest numpy scipy
                    RESULT_VARIABLE TCS_PYTEST_MISSING OUTPUT_QUIET)
  endif()
endif()

foreach(kind host gpu)
  set(name tcs_python_package)
  set(selection "not gpu")
  if(kind STREQUAL "gpu")
    set(name tcs_python_package_gpu)
    set(selection "gpu")
  endif()
  if(TCS_PYTEST_MISSING)
    add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} -E echo
             "skipped: pytest, numpy or scipy could not be imported or installed")
    set_tests_properties(${name} PROPERTIES SKIP_REGULAR_EXPRESSION "skipped: ")
  else()
    add_test(NAME ${name} COMMAND ${TCS_PYTEST_PYTHON} -m pytest -q -rs -p no:cacheprovider
             -m ${selection} ${CMAKE_CURRENT_LIST_DIR}/python/test_package.py)
  endif()
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77
    ENVIRONMENT "${TCS_PYTHON_ENV};TCS_PYTEST_SKIPPED_STATUS=77")
endforeach()
set_tests_properties(tcs_python_package PROPERTIES LABELS host TIMEOUT 300)
set_tests_properties(tcs_python_package_gpu PROPERTIES LABELS gpu TIMEOUT 900)
