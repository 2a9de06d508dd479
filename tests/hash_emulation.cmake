# hash_emulation (host): the hash SpGEMM plan and kernels of cpp/spgemm/hash, unchanged,
# compiled as C++ against the CPU emulation of CUDA (tests/emulation: a fiber per
# thread, warp intrinsics as rendezvous, random interleavings) and checked against the
# CPU reference. It needs no GPU, so the kernels' logic is tested everywhere; what it
# cannot see (timing, the memory model, the real CUB) the GPU test gpu_spgemm_hash covers.
if(CMAKE_SYSTEM_NAME STREQUAL "Linux")  # ucontext fibers
  set(TCS_HASH_DIR ${PROJECT_SOURCE_DIR}/cpp/spgemm/hash)
  set(TCS_HASH_EMU_KERNELS ${TCS_HASH_DIR}/products.cu ${TCS_HASH_DIR}/symbolic.cu
      ${TCS_HASH_DIR}/numeric_f32.cu ${TCS_HASH_DIR}/numeric_f64.cu ${TCS_HASH_DIR}/hash_plan.cu)
  tcs_add_emulation_program(hash_emulation
    ${CMAKE_CURRENT_SOURCE_DIR}/hash_emulation/hash_emulation.cpp
    ${TCS_HASH_DIR}/bins.cpp ${TCS_HASH_EMU_KERNELS})
  add_test(NAME hash_emulation COMMAND hash_emulation)
  set_tests_properties(hash_emulation PROPERTIES LABELS host TIMEOUT 900)
endif()
