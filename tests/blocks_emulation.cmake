# blocks_emulation (host): the block SpMM (cpp/spmm/blocks) and its format
# (cpp/formats/dense_blocks, row_reorder), unchanged, compiled as C++ against the CPU
# emulation of CUDA of tests/emulation (fibers per thread, warp intrinsics as
# rendezvous, mma.sync, ldmatrix, cp.async, fp16/bf16 and CUB's radix sort), and checked
# against the CPU reference. It needs no GPU;
# what it cannot see (timing, the memory model, the tensor cores' own rounding) the GPU
# test gpu_spmm_blocks covers.
if(CMAKE_SYSTEM_NAME STREQUAL "Linux")  # ucontext fibers
  set(TCS_BLOCKS_EMU_KERNELS
      ${PROJECT_SOURCE_DIR}/cpp/formats/dense_blocks.cu
      ${PROJECT_SOURCE_DIR}/cpp/formats/row_reorder.cu
      ${PROJECT_SOURCE_DIR}/cpp/formats/dense.cu
      ${PROJECT_SOURCE_DIR}/cpp/spmm/blocks/blocks_spmm.cu
      ${PROJECT_SOURCE_DIR}/cpp/spmm/blocks/multiply_f16.cu
      ${PROJECT_SOURCE_DIR}/cpp/spmm/blocks/multiply_bf16.cu
      ${PROJECT_SOURCE_DIR}/cpp/spmm/blocks/multiply_f32.cu
      ${PROJECT_SOURCE_DIR}/cpp/spmm/blocks/multiply_f64.cu)
  tcs_add_emulation_program(blocks_emulation
    ${CMAKE_CURRENT_SOURCE_DIR}/blocks_emulation/blocks_emulation.cpp
    ${TCS_BLOCKS_EMU_KERNELS})
  add_test(NAME blocks_emulation COMMAND blocks_emulation)
  set_tests_properties(blocks_emulation PROPERTIES LABELS host TIMEOUT 1500)
  tcs_emulation_asan_test(blocks_emulation)
endif()
