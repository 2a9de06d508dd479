# csr_emulation (host): the CSR family of SpMM (cpp/spmm/csr, fp32 and fp64), unchanged,
# compiled as C++ against the CPU emulation of CUDA of tests/emulation, checking that 64-bit indices give
# bitwise the C of 32-bit ones and meet the reference. It needs no GPU; the GPU tests
# gpu_spmm_csr and gpu_spmv cover the rest.
if(CMAKE_SYSTEM_NAME STREQUAL "Linux")  # ucontext fibers
  set(TCS_CSR_EMU_KERNELS
      ${PROJECT_SOURCE_DIR}/cpp/spmm/csr/csr_spmm.cu
      ${PROJECT_SOURCE_DIR}/cpp/spmm/csr/transpose.cu
      ${PROJECT_SOURCE_DIR}/cpp/formats/dense.cu
      ${PROJECT_SOURCE_DIR}/cpp/spmm/csr/multiply_f32.cu
      ${PROJECT_SOURCE_DIR}/cpp/spmm/csr/multiply_f64.cu
      ${PROJECT_SOURCE_DIR}/cpp/spmm/csr/multiply/f32_f32_i32.cu
      ${PROJECT_SOURCE_DIR}/cpp/spmm/csr/multiply/f32_f32_i64.cu
      ${PROJECT_SOURCE_DIR}/cpp/spmm/csr/multiply/f64_f64_i32.cu
      ${PROJECT_SOURCE_DIR}/cpp/spmm/csr/multiply/f64_f64_i64.cu
      ${PROJECT_SOURCE_DIR}/cpp/spmm/csr/single_f32.cu
      ${PROJECT_SOURCE_DIR}/cpp/spmm/csr/single_f64.cu)
  tcs_add_emulation_program(csr_emulation
    ${CMAKE_CURRENT_SOURCE_DIR}/csr_emulation/csr_emulation.cpp
    ${TCS_CSR_EMU_KERNELS})
  # Rounded arithmetic stays one operation each, as __fmul_rn and __fmaf_rn are on the GPU.
  target_compile_options(csr_emulation PRIVATE -ffp-contract=off)
  add_test(NAME csr_emulation COMMAND csr_emulation)
  set_tests_properties(csr_emulation PROPERTIES LABELS host TIMEOUT 900)
endif()
