# tcs_test_support: the C support library of tests/, bench/ and docs/examples/ (CPU
# double reference, Matrix Market reader, generators, comparison, device helpers).
# Defined once here so that the benchmarks and the examples can use it when the tests
# are not built; each user includes this file.
if(TARGET tcs_test_support)
  return()
endif()

# Where the Matrix Market test matrices are: ../shared/matrices beside the checkout, or
# a copy in .matrices (the GPU check carries one); $TCS_MATRIX_DIR overrides at run time.
if(EXISTS "${PROJECT_SOURCE_DIR}/../shared/matrices")
  set(TCS_MATRIX_DIR_DEFAULT "${PROJECT_SOURCE_DIR}/../shared/matrices")
else()
  set(TCS_MATRIX_DIR_DEFAULT "${PROJECT_SOURCE_DIR}/.matrices")
endif()
set(TCS_MATRIX_DIR "${TCS_MATRIX_DIR_DEFAULT}" CACHE PATH "Matrix Market files for tests and benchmarks")

file(GLOB TCS_SUPPORT_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/support/*.c)
add_library(tcs_test_support STATIC ${TCS_SUPPORT_SOURCES})
target_include_directories(tcs_test_support PUBLIC ${PROJECT_SOURCE_DIR}/tests/support)
if(CMOCKA_INCLUDE_DIR)
  target_include_directories(tcs_test_support PUBLIC ${CMOCKA_INCLUDE_DIR})
endif()
target_compile_definitions(tcs_test_support PRIVATE TCS_DEFAULT_MATRIX_DIR="${TCS_MATRIX_DIR}")
target_link_libraries(tcs_test_support PUBLIC CUDA::cudart m)
set_target_properties(tcs_test_support PROPERTIES POSITION_INDEPENDENT_CODE ON)
