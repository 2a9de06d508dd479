# api_arguments_emulated, api_descriptors_emulated (host): the host tests api_arguments.c
# and api_descriptors.c again, linked with the whole C layer (lib/) and the core compiled
# as C++ against the CPU emulation of CUDA (tests/emulation), so that tcsCreate
# gets a handle without a GPU: every bad-argument check that needs a handle, and the
# stale-handle checks of tcsDestroy, run on every landing. Both are built with
# AddressSanitizer (GCC and Clang): a double free or a read of a freed object fails them.
# Nothing here computes: the emulated kernels are linked, never run (their numbers are
# tested by hash_emulation, tiles_emulation, blocks_emulation and csr_emulation), and the
# CSR SpMM launchers, the largest of them, are not even compiled (no_csr_products.cpp).
if(CMAKE_SYSTEM_NAME STREQUAL "Linux" AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  set(TCS_EMU_ASAN -fsanitize=address -fno-omit-frame-pointer)
  file(GLOB TCS_API_EMU_LIB ${PROJECT_SOURCE_DIR}/lib/*.cpp)
  # tcsCheckMatrixCsr's checker (cpp/check) is not emulated: no_input_check.cpp stands in
  # for the products' input checks (handles that never check, as without TCS_CHECK_INPUTS).
  list(FILTER TCS_API_EMU_LIB EXCLUDE REGEX "/check_matrix\\.cpp$")
  file(GLOB TCS_API_EMU_SPGEMM_KERNELS
       ${PROJECT_SOURCE_DIR}/cpp/spgemm/hash/*.cu ${PROJECT_SOURCE_DIR}/cpp/spgemm/tiles/*.cu
       ${PROJECT_SOURCE_DIR}/cpp/formats/bitmap_tiles.cu)
  file(GLOB TCS_API_EMU_SPMM_KERNELS
       ${PROJECT_SOURCE_DIR}/cpp/spmm/*.cpp ${PROJECT_SOURCE_DIR}/cpp/spmm/csr/*.cu
       ${PROJECT_SOURCE_DIR}/cpp/spmm/blocks/*.cu ${PROJECT_SOURCE_DIR}/cpp/formats/dense_blocks.cu
       ${PROJECT_SOURCE_DIR}/cpp/formats/row_reorder.cu ${PROJECT_SOURCE_DIR}/cpp/formats/dense.cu)
  # The CSR SpMM launchers (every kernel of every element type) stand aside for
  # api_emulated/no_csr_products.cpp, which stops a program that reaches one.
  list(FILTER TCS_API_EMU_SPMM_KERNELS EXCLUDE REGEX "/spmm/csr/(multiply|single)_[a-z0-9]+\\.cu$")
  set_source_files_properties(${TCS_API_EMU_SPGEMM_KERNELS} ${TCS_API_EMU_SPMM_KERNELS}
                              PROPERTIES LANGUAGE CXX)

  add_library(tcs_api_emu OBJECT
    ${TCS_API_EMU_LIB}
    ${CMAKE_CURRENT_SOURCE_DIR}/tiles_emulation/no_input_check.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/api_emulated/no_csr_products.cpp
    ${PROJECT_SOURCE_DIR}/cpp/core/device.cpp
    ${PROJECT_SOURCE_DIR}/cpp/spgemm/select.cpp
    ${PROJECT_SOURCE_DIR}/cpp/formats/tile_sample.cpp
    ${PROJECT_SOURCE_DIR}/cpp/spgemm/hash/bins.cpp
    ${TCS_API_EMU_SPGEMM_KERNELS} ${TCS_API_EMU_SPMM_KERNELS})
  tcs_use_emulation(tcs_api_emu)
  target_include_directories(tcs_api_emu PRIVATE ${PROJECT_SOURCE_DIR}/lib)
  target_compile_definitions(tcs_api_emu PRIVATE TCS_BUILDING_LIBRARY)
  # -O0: nothing here runs a kernel, and unoptimised they build several times faster.
  target_compile_options(tcs_api_emu PRIVATE ${TCS_EMU_ASAN} -O0 -Wno-unknown-pragmas
                         -Wno-unused-but-set-variable)

  foreach(name api_arguments api_descriptors)
    add_executable(${name}_emulated ${CMAKE_CURRENT_SOURCE_DIR}/${name}.c
                   $<TARGET_OBJECTS:tcs_api_emu>)
    target_include_directories(${name}_emulated PRIVATE ${PROJECT_SOURCE_DIR}/include)
    target_compile_options(${name}_emulated PRIVATE ${TCS_EMU_ASAN} -Wall -Wextra)
    target_link_options(${name}_emulated PRIVATE -fsanitize=address)
    target_link_libraries(${name}_emulated PRIVATE tcs_test_support ${CMOCKA_LIBRARIES} Threads::Threads)
    set_target_properties(${name}_emulated PROPERTIES LINKER_LANGUAGE CXX)
    add_test(NAME ${name}_emulated COMMAND ${name}_emulated)
    set_tests_properties(${name}_emulated PROPERTIES LABELS host TIMEOUT 300
                         ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
  endforeach()
endif()

# api_shared_memo (host): matA's preprocess memo (lib/objects.hpp) under a forced
# interleaving of two threads and under 8 threads at once (issue 38 item 3); the class is
# header-only, so the program needs no library, only the emulation's CUDA headers.
add_executable(api_shared_memo ${CMAKE_CURRENT_SOURCE_DIR}/api_emulated/shared_memo.cpp)
target_include_directories(api_shared_memo BEFORE PRIVATE ${PROJECT_SOURCE_DIR}/tests/emulation)
target_include_directories(api_shared_memo PRIVATE ${PROJECT_SOURCE_DIR}/lib ${PROJECT_SOURCE_DIR}/cpp
                           ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(api_shared_memo PRIVATE Threads::Threads)
add_test(NAME api_shared_memo COMMAND api_shared_memo)
set_tests_properties(api_shared_memo PROPERTIES LABELS host TIMEOUT 120)

# api_descriptors_asan, swapin_probe_shim_asan (tests/swapin.cmake): the plain host
# programs with AddressSanitizer's runtime preloaded. The library and the shim are not
# instrumented, but every malloc, free, new and delete goes through ASan's allocator,
# so a double free or a free of a foreign pointer in either fails the run.
if(CMAKE_SYSTEM_NAME STREQUAL "Linux" AND CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libasan.so
                  OUTPUT_VARIABLE TCS_LIBASAN OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(IS_ABSOLUTE "${TCS_LIBASAN}" AND EXISTS "${TCS_LIBASAN}")
    set(TCS_ASAN_PRELOAD "LD_PRELOAD=${TCS_LIBASAN};ASAN_OPTIONS=detect_leaks=0")
    add_test(NAME api_descriptors_asan COMMAND api_descriptors)
    set_tests_properties(api_descriptors_asan PROPERTIES LABELS host TIMEOUT 120
                         ENVIRONMENT "${TCS_ASAN_PRELOAD}")
  endif()
endif()
