# Fortran: the module packaging/fortran/tcsparse.f90 and the programs that use it.
#   tcs_fortran_module  (host)  the module matches tcsparse.h and docs/symbols.txt; needs no compiler
#   tcsparse_fortran    target  the module compiled by the Fortran compiler found here
#   tcs_fortran_host    (host)  descriptors, strings and versions through the module
#   tcs_fortran_test    (gpu)   1-based SpGEMM and SpMM through the module; 77 without a GPU
#
# The GPU machine has no Fortran compiler, only libgfortran: tcs_fortran_test is built
# here and carried there. Its only RUNPATH is the CUDA toolkit's library folder (a
# fallback for libcudart.so.<major> where the loader cache lacks it), so nothing ties
# it to this build tree: it finds libtcsparse.so.0 by SONAME through the environment:
#   LD_LIBRARY_PATH=<build>/lib ./tcs_fortran_test
set(TCS_FORTRAN_MODULE_SOURCE ${PROJECT_SOURCE_DIR}/packaging/fortran/tcsparse.f90)

find_path(TCS_CUDA_TYPES_INCLUDE_DIR library_types.h HINTS ${CUDAToolkit_INCLUDE_DIRS} NO_DEFAULT_PATH)
add_test(NAME tcs_fortran_module
         COMMAND ${CMAKE_COMMAND} -DMODULE=${TCS_FORTRAN_MODULE_SOURCE}
                 -DHEADER=${PROJECT_SOURCE_DIR}/include/tcsparse.h
                 -DREGISTRY=${PROJECT_SOURCE_DIR}/docs/symbols.txt
                 -DCUDA_TYPES_HEADER=${TCS_CUDA_TYPES_INCLUDE_DIR}/library_types.h
                 -P ${CMAKE_CURRENT_LIST_DIR}/fortran/check_module.cmake)
set_tests_properties(tcs_fortran_module PROPERTIES LABELS host TIMEOUT 60)

if(NOT TCS_FORTRAN)
  message(STATUS "TCS_FORTRAN is off: the Fortran programs (tcs_fortran_host, _test) are not built")
  return()
endif()
include(CheckLanguage)
check_language(Fortran)
if(NOT CMAKE_Fortran_COMPILER)
  message(STATUS "No Fortran compiler: the Fortran module and tests (tcs_fortran_*) are not built")
  return()
endif()
enable_language(Fortran)

# Each target writes its .mod files into a folder of its own, so that parallel builds
# never race on one file.
function(tcs_fortran_target name)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/fortran_modules/${name})
  set_target_properties(${name} PROPERTIES Fortran_MODULE_DIRECTORY ${dir})
  target_include_directories(${name} PUBLIC ${dir})
  if(CMAKE_Fortran_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${name} PRIVATE -Wall -fimplicit-none)
  endif()
endfunction()

# The shipped module must stay Fortran 2003.
add_library(tcsparse_fortran STATIC ${TCS_FORTRAN_MODULE_SOURCE})
tcs_fortran_target(tcsparse_fortran)
target_link_libraries(tcsparse_fortran PUBLIC tcsparse)
if(CMAKE_Fortran_COMPILER_ID STREQUAL "GNU")
  target_compile_options(tcsparse_fortran PRIVATE -std=f2003 -pedantic)
endif()

add_library(tcs_fortran_checks STATIC ${CMAKE_CURRENT_LIST_DIR}/fortran/checks.f90)
tcs_fortran_target(tcs_fortran_checks)
target_link_libraries(tcs_fortran_checks PUBLIC tcsparse_fortran)

add_executable(tcs_fortran_host ${CMAKE_CURRENT_LIST_DIR}/fortran/host_api.f90)
add_executable(tcs_fortran_test ${CMAKE_CURRENT_LIST_DIR}/fortran/spgemm_spmm.f90
                                ${CMAKE_CURRENT_LIST_DIR}/fortran/cuda_runtime.f90)
target_link_libraries(tcs_fortran_test PRIVATE CUDA::cudart)
target_link_options(tcs_fortran_test PRIVATE "LINKER:-rpath,${CUDAToolkit_LIBRARY_DIR}")
foreach(program tcs_fortran_host tcs_fortran_test)
  tcs_fortran_target(${program})
  target_link_libraries(${program} PRIVATE tcs_fortran_checks tcsparse_fortran tcsparse)
  set_target_properties(${program} PROPERTIES SKIP_BUILD_RPATH ON)
  add_test(NAME ${program} COMMAND ${program})
  set_tests_properties(${program} PROPERTIES ENVIRONMENT_MODIFICATION
    "LD_LIBRARY_PATH=path_list_prepend:${CUDAToolkit_LIBRARY_DIR};LD_LIBRARY_PATH=path_list_prepend:$<TARGET_FILE_DIR:tcsparse>")
endforeach()
set_tests_properties(tcs_fortran_host PROPERTIES LABELS host TIMEOUT 60)
set_tests_properties(tcs_fortran_test PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 300)
