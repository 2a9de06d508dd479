# tcs_install_cmake_consumer: configures, builds and runs tests/install/cmake_consumer
# against the installed prefix through find_package(tcsparse <version>), and checks
# that asking for the next major version fails (SameMajorVersion).
#   cmake -DPREFIX= -DWORK= -DSOURCE_DIR= -DVERSION= -DGENERATOR= -DC_COMPILER=
#         -DCUDA_ROOT= -P cmake_consumer.cmake
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
tcs_require(PREFIX WORK SOURCE_DIR VERSION GENERATOR C_COMPILER CUDA_ROOT)

file(REMOVE_RECURSE "${WORK}")
set(configure ${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/install/cmake_consumer" -G "${GENERATOR}"
    -DCMAKE_C_COMPILER=${C_COMPILER} -DCUDAToolkit_ROOT=${CUDA_ROOT} -DCMAKE_PREFIX_PATH=${PREFIX})

tcs_run("configure the consumer" _ COMMAND ${configure} -B "${WORK}/build" -DTCS_REQUIRED_VERSION=${VERSION})
# A consumer that names no toolkit and has no nvcc on PATH: the package falls back on the
# toolkit tcsparse was built with. (Where that toolkit is /usr/local/cuda, FindCUDAToolkit
# finds it without the fallback too; a toolkit elsewhere, as Spack installs it, needs it.)
tcs_run("configure a consumer that names no CUDA toolkit" output COMMAND
        ${CMAKE_COMMAND} -E env --unset=CUDAToolkit_ROOT --unset=CUDA_PATH --unset=CUDACXX PATH=/usr/bin:/bin
        ${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/install/cmake_consumer" -G "${GENERATOR}"
        -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_PREFIX_PATH=${PREFIX} -B "${WORK}/build-no-toolkit"
        -DTCS_REQUIRED_VERSION=${VERSION})
tcs_run("build the consumer that names no CUDA toolkit" _ COMMAND ${CMAKE_COMMAND} --build "${WORK}/build-no-toolkit")
tcs_run("build the consumer" _ COMMAND ${CMAKE_COMMAND} --build "${WORK}/build")
tcs_run("run the C consumer" output COMMAND "${WORK}/build/consumer" "${PREFIX}")
message("${output}")
tcs_expect_create_status("the C consumer" "${output}")

if(EXISTS "${WORK}/build/fortran_consumer")
  tcs_run("run the Fortran consumer" output COMMAND "${WORK}/build/fortran_consumer")
  message("${output}")
  tcs_expect_create_status("the Fortran consumer" "${output}")
else()
  message(STATUS "no Fortran compiler: the Fortran consumer was not built")
endif()

string(REGEX MATCH "^[0-9]+" major "${VERSION}")
math(EXPR next_major "${major} + 1")
execute_process(COMMAND ${configure} -B "${WORK}/build-next-major" -DTCS_REQUIRED_VERSION=${next_major}.0
                RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(result EQUAL 0 OR NOT output MATCHES "tcsparse")
  message(FATAL_ERROR "find_package(tcsparse ${next_major}.0) should fail against ${VERSION}:\n${output}")
endif()
message(STATUS "find_package(tcsparse ${next_major}.0) is refused: ok")
