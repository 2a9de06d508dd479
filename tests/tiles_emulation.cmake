# tiles_emulation (host): the tile SpGEMM plan, its kernels and the CSR -> bitmap tile
# conversion, unchanged, compiled as C++ against the CPU emulation of CUDA in
# tests/emulation (fibers per thread, warp collectives as rendezvous, mma.sync
# computed from the PTX fragment definitions) and checked against the CPU reference.
# It needs no GPU; the GPU test gpu_spgemm_tiles covers what it cannot see.
#   tiles_emulation       (host)       TCS_TEST_QUICK: one of its two device shapes, by the
#                                      seed, in the default run and CI
#   tiles_emulation_full  (emulation)  both shapes: `ctest -L emulation`, scripts/gpu-check.sh
if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
  set(TCS_TILES_EMU_KERNELS
      ${PROJECT_SOURCE_DIR}/cpp/formats/bitmap_tiles.cu
      ${PROJECT_SOURCE_DIR}/cpp/spgemm/tiles/structure.cu
      ${PROJECT_SOURCE_DIR}/cpp/spgemm/tiles/multiply_f64.cu
      ${PROJECT_SOURCE_DIR}/cpp/spgemm/tiles/multiply_f32.cu
      ${PROJECT_SOURCE_DIR}/cpp/spgemm/tiles/multiply_16bit.cu
      ${PROJECT_SOURCE_DIR}/cpp/spgemm/tiles/tile_plan.cu
      ${PROJECT_SOURCE_DIR}/cpp/spgemm/hash/products.cu)
  tcs_add_emulation_program(tiles_emulation
    ${CMAKE_CURRENT_SOURCE_DIR}/tiles_emulation/tiles_emulation.cpp
    ${PROJECT_SOURCE_DIR}/cpp/formats/tile_sample.cpp
    ${TCS_TILES_EMU_KERNELS})
  add_test(NAME tiles_emulation COMMAND tiles_emulation)
  set_tests_properties(tiles_emulation PROPERTIES LABELS host TIMEOUT 900 ENVIRONMENT "TCS_TEST_QUICK=1")
  add_test(NAME tiles_emulation_full COMMAND tiles_emulation)
  set_tests_properties(tiles_emulation_full PROPERTIES LABELS emulation TIMEOUT 1800)
  tcs_emulation_asan_test(tiles_emulation)
endif()

# gpu_spgemm_tiles_emulated: the GPU test gpu_spgemm_tiles.c itself, through the public
# API, against the library's SpGEMM (the C layer, the default's choice, the hash and
# tile plans and kernels) compiled for the same CPU emulation. It takes minutes (the GPU
# test's sizes, every warp collective a rendezvous of 32 fibers) and a second build of
# the C layer and SpGEMM, so it is labelled `emulation`, not `host`, and left out of the
# default build: the test command never runs it. Its build is a test of
# the same label (a fixture), so `ctest -L emulation` builds it first.
if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
  file(GLOB TCS_EMU_LIB_SOURCES ${PROJECT_SOURCE_DIR}/lib/*.cpp)
  # Not the SpMM and SpMV entries (their kernels are not emulated here) nor the GPU
  # matrix checks (no_input_check.cpp stands in: handles that never check).
  list(FILTER TCS_EMU_LIB_SOURCES EXCLUDE REGEX "/(spmm|spmv|check_matrix)\\.cpp$")
  file(GLOB TCS_EMU_HASH_SOURCES ${PROJECT_SOURCE_DIR}/cpp/spgemm/hash/*.cu)
  set_source_files_properties(${TCS_EMU_HASH_SOURCES} PROPERTIES LANGUAGE CXX)
  add_executable(gpu_spgemm_tiles_emulated
    ${CMAKE_CURRENT_SOURCE_DIR}/gpu_spgemm_tiles.c
    ${CMAKE_CURRENT_SOURCE_DIR}/tiles_emulation/no_input_check.cpp
    ${TCS_EMU_LIB_SOURCES}
    ${PROJECT_SOURCE_DIR}/cpp/core/device.cpp
    ${PROJECT_SOURCE_DIR}/cpp/spgemm/select.cpp
    ${PROJECT_SOURCE_DIR}/cpp/formats/tile_sample.cpp
    ${PROJECT_SOURCE_DIR}/cpp/spgemm/hash/bins.cpp
    ${TCS_EMU_HASH_SOURCES}
    ${TCS_TILES_EMU_KERNELS})
  list(REMOVE_DUPLICATES TCS_EMU_HASH_SOURCES)
  tcs_use_emulation(gpu_spgemm_tiles_emulated)
  target_include_directories(gpu_spgemm_tiles_emulated PRIVATE ${PROJECT_SOURCE_DIR}/lib)
  target_compile_definitions(gpu_spgemm_tiles_emulated PRIVATE TCS_BUILDING_LIBRARY)
  target_link_libraries(gpu_spgemm_tiles_emulated PRIVATE tcs_test_support ${CMOCKA_LIBRARIES})
  set_target_properties(gpu_spgemm_tiles_emulated PROPERTIES EXCLUDE_FROM_ALL ON)
  add_test(NAME gpu_spgemm_tiles_emulated_build
           COMMAND ${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR} --target gpu_spgemm_tiles_emulated)
  set_tests_properties(gpu_spgemm_tiles_emulated_build PROPERTIES LABELS emulation TIMEOUT 3600
                       FIXTURES_SETUP tcs_tiles_emulated_built)
  add_test(NAME gpu_spgemm_tiles_emulated COMMAND gpu_spgemm_tiles_emulated)
  set_tests_properties(gpu_spgemm_tiles_emulated PROPERTIES LABELS emulation TIMEOUT 7200
                       ENVIRONMENT "TCS_TEST_QUICK=1" FIXTURES_REQUIRED tcs_tiles_emulated_built)
endif()
