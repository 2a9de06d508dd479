# The cuSPARSE swap-in: the source-level header include/tcsparse_cusparse.h and the
# binary shim libtcsparse_cusparse.so (shim/), tested through programs written against
# the cuSPARSE names only (tests/swapin/). Included by tests/CMakeLists.txt.
set(TCS_SWAPIN_DIR ${CMAKE_CURRENT_SOURCE_DIR}/swapin)
find_package(Python3 COMPONENTS Interpreter)
set(TCS_SWAPIN_HEADER ${PROJECT_SOURCE_DIR}/include/tcsparse_cusparse.h)

# A program of tests/swapin built for one route. ROUTE is
#   header   the source-level swap: tcsparse_cusparse.h forced in before the source's own
#            #include <cusparse.h>, which it turns into a no-op; linked with tcsparse
#   shim     the real <cusparse.h>, linked with libtcsparse_cusparse.so instead of cuSPARSE
#   cusparse the real <cusparse.h> and the real libcusparse (run with the shim preloaded)
function(tcs_swapin_program name source route)
  add_executable(${name} ${source})
  target_compile_options(${name} PRIVATE -Wall -Wextra)
  if(route STREQUAL "header")
    target_compile_options(${name} PRIVATE -include ${TCS_SWAPIN_HEADER})
    target_link_libraries(${name} PRIVATE tcsparse)
  elseif(route STREQUAL "shim")
    target_link_libraries(${name} PRIVATE tcsparse_cusparse CUDA::toolkit)
  else()
    target_link_libraries(${name} PRIVATE CUDA::cusparse)
  endif()
  target_link_libraries(${name} PRIVATE ${ARGN})
endfunction()

# ---- host: the same probe through every route ------------------------------------
set(TCS_PROBE_LIBS CUDA::cudart ${CMOCKA_LIBRARIES})
tcs_swapin_program(swapin_probe_header ${TCS_SWAPIN_DIR}/api_probe.c header ${TCS_PROBE_LIBS})
tcs_swapin_program(swapin_probe_header_cxx ${TCS_SWAPIN_DIR}/api_probe.cpp header ${TCS_PROBE_LIBS})
foreach(name swapin_probe_header swapin_probe_header_cxx)
  target_include_directories(${name} PRIVATE ${CMOCKA_INCLUDE_DIR})
  target_compile_options(${name} PRIVATE -pedantic -Werror)
  add_test(NAME ${name} COMMAND ${name})
endforeach()
set_tests_properties(swapin_probe_header swapin_probe_header_cxx PROPERTIES LABELS host TIMEOUT 120)

# Including the real header first must stop the build, with the header's message.
set(TCS_SWAPIN_INCLUDES -I${PROJECT_SOURCE_DIR}/include)
foreach(dir ${CUDAToolkit_INCLUDE_DIRS})
  list(APPEND TCS_SWAPIN_INCLUDES -I${dir})
endforeach()
add_test(NAME swapin_header_refuses_real_cusparse
         COMMAND ${CMAKE_C_COMPILER} -fsyntax-only ${TCS_SWAPIN_INCLUDES}
                 ${TCS_SWAPIN_DIR}/header_after_cusparse.c)
set_tests_properties(swapin_header_refuses_real_cusparse PROPERTIES LABELS host TIMEOUT 120
  PASS_REGULAR_EXPRESSION "tcsparse_cusparse.h replaces <cusparse.h>")

if(TARGET tcsparse_cusparse)
  tcs_swapin_program(swapin_probe_shim ${TCS_SWAPIN_DIR}/api_probe.c shim ${TCS_PROBE_LIBS})
  tcs_swapin_program(swapin_probe_cusparse ${TCS_SWAPIN_DIR}/api_probe.c cusparse ${TCS_PROBE_LIBS})
  foreach(name swapin_probe_shim swapin_probe_cusparse)
    target_include_directories(${name} PRIVATE ${CMOCKA_INCLUDE_DIR})
  endforeach()
  add_test(NAME swapin_probe_shim COMMAND swapin_probe_shim)
  if(TCS_ASAN_PRELOAD)  # tests/api_emulated.cmake: a double free in the shim fails it
    add_test(NAME swapin_probe_shim_asan COMMAND swapin_probe_shim)
    set_tests_properties(swapin_probe_shim_asan PROPERTIES LABELS host TIMEOUT 120
                         ENVIRONMENT "${TCS_ASAN_PRELOAD}")
  endif()
  # The probe linked with the REAL cuSPARSE passes only if the shim interposes it.
  add_test(NAME swapin_probe_preloaded COMMAND swapin_probe_cusparse)
  set_tests_properties(swapin_probe_preloaded PROPERTIES
    ENVIRONMENT "LD_PRELOAD=$<TARGET_FILE:tcsparse_cusparse>")
  # Both again where the real cuSPARSE cannot be loaded: NOT_SUPPORTED, nothing else.
  set(TCS_NO_CUSPARSE "TCS_CUSPARSE_LIBRARY=/nonexistent/libcusparse.so;TCS_PROBE_NO_CUSPARSE=1")
  add_test(NAME swapin_probe_shim_no_cusparse COMMAND swapin_probe_shim)
  add_test(NAME swapin_probe_preloaded_no_cusparse COMMAND swapin_probe_cusparse)
  set_tests_properties(swapin_probe_shim_no_cusparse PROPERTIES ENVIRONMENT "${TCS_NO_CUSPARSE}")
  set_tests_properties(swapin_probe_preloaded_no_cusparse PROPERTIES
    ENVIRONMENT "${TCS_NO_CUSPARSE};LD_PRELOAD=$<TARGET_FILE:tcsparse_cusparse>")
  add_test(NAME swapin_shim_exports
           COMMAND ${CMAKE_COMMAND} -DLIBRARY=$<TARGET_FILE:tcsparse_cusparse>
                   -DSONAME_LIBRARY=$<TARGET_FILE:tcsparse_cusparse_soname>
                   -DCUSPARSE_MAJOR=${TCS_CUSPARSE_MAJOR}
                   -DNM=${CMAKE_NM} -DREADELF=${CMAKE_READELF}
                   -P ${TCS_SWAPIN_DIR}/check_exports.cmake)
  # The host time a forwarded call costs (the real cuSPARSE opened beside for the
  # baseline; docs/forwarding.md's budget: 1 us).
  add_executable(swapin_forward_overhead ${TCS_SWAPIN_DIR}/forward_overhead.c)
  target_link_libraries(swapin_forward_overhead PRIVATE tcsparse_cusparse CUDA::toolkit ${CMAKE_DL_LIBS})
  target_compile_definitions(swapin_forward_overhead PRIVATE DISABLE_CUSPARSE_DEPRECATED
    TCS_REAL_CUSPARSE="$<TARGET_FILE:CUDA::cusparse>")
  add_test(NAME swapin_forward_overhead COMMAND swapin_forward_overhead)
  # A client that dlopens cuSPARSE by its SONAME: with the SONAME copy of the shim
  # first on the library path it gets the shim (which finds the real library past
  # itself); under LD_PRELOAD alone it gets the real library (what the docs warn of).
  add_executable(swapin_dlopen_client ${TCS_SWAPIN_DIR}/dlopen_client.c)
  target_link_libraries(swapin_dlopen_client PRIVATE CUDA::toolkit CUDA::cudart ${CMAKE_DL_LIBS})
  target_compile_definitions(swapin_dlopen_client PRIVATE DISABLE_CUSPARSE_DEPRECATED)
  add_dependencies(swapin_dlopen_client tcsparse_cusparse_soname)
  add_test(NAME swapin_dlopen_soname COMMAND swapin_dlopen_client)
  set_tests_properties(swapin_dlopen_soname PROPERTIES ENVIRONMENT
    "TCS_DLOPEN_EXPECT=shim;LD_LIBRARY_PATH=$<TARGET_FILE_DIR:tcsparse_cusparse_soname>:$ENV{LD_LIBRARY_PATH}")
  add_test(NAME swapin_dlopen_preloaded COMMAND swapin_dlopen_client)
  set_tests_properties(swapin_dlopen_preloaded PROPERTIES ENVIRONMENT
    "TCS_DLOPEN_EXPECT=real;LD_PRELOAD=$<TARGET_FILE:tcsparse_cusparse>")
  set_tests_properties(swapin_probe_shim swapin_probe_preloaded swapin_probe_shim_no_cusparse
                       swapin_probe_preloaded_no_cusparse swapin_shim_exports
                       swapin_forward_overhead swapin_dlopen_soname swapin_dlopen_preloaded
                       PROPERTIES LABELS host TIMEOUT 120)
  set_tests_properties(swapin_forward_overhead PROPERTIES SKIP_RETURN_CODE 77)
  # docs/forwarding.md is what gen_forward.py makes of the sources and this toolkit's
  # cusparse.h (skipped where the toolkit's header is another version than the page's).
  add_test(NAME swapin_forwarding_table
           COMMAND ${CMAKE_COMMAND} -DPYTHON=${Python3_EXECUTABLE}
                   "-DGENERATE=${TCS_SHIM_GENERATE}" -DWORK=${CMAKE_CURRENT_BINARY_DIR}/forwarding_table
                   -DDOC=${PROJECT_SOURCE_DIR}/docs/forwarding.md
                   -P ${TCS_SWAPIN_DIR}/check_table.cmake)
  set_tests_properties(swapin_forwarding_table PROPERTIES LABELS host TIMEOUT 120
                       SKIP_REGULAR_EXPRESSION "another cuSPARSE version")
endif()

# ---- GPU: a solver's call sequence, checked against the CPU reference ------------
tcs_swapin_program(swapin_solver_style ${TCS_SWAPIN_DIR}/solver_style.c header tcs_test_support)
# The same source against the real cuSPARSE: what the LD_PRELOAD test runs, unmodified.
tcs_swapin_program(solver_style_cusparse ${TCS_SWAPIN_DIR}/solver_style.c cusparse tcs_test_support)
add_test(NAME swapin_solver_style COMMAND swapin_solver_style)
# The real cuSPARSE runs it too: proof that the program is a correct cuSPARSE program.
add_test(NAME swapin_solver_style_cusparse COMMAND solver_style_cusparse)
set_tests_properties(swapin_solver_style swapin_solver_style_cusparse PROPERTIES
  LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 600)
if(TARGET tcsparse_cusparse)
  add_test(NAME swapin_preload
           COMMAND sh ${TCS_SWAPIN_DIR}/run_preloaded.sh $<TARGET_FILE:tcsparse_cusparse>
                   $<TARGET_FILE:solver_style_cusparse>
                   tcsCreate tcsSpGEMM_workEstimation tcsSpGEMM_compute tcsSpGEMM_copy tcsSpMM)
  # A GPU this build has no code for: every product goes to cuSPARSE from its first call
  # (skipped unless TCS_FOREIGN_ARCH_LIBDIR names a library built for another
  # architecture: scripts/foreign-arch-check.sh).
  add_test(NAME swapin_foreign_arch
           COMMAND sh ${TCS_SWAPIN_DIR}/foreign_arch.sh $<TARGET_FILE:tcsparse_cusparse>
                   $<TARGET_FILE:solver_style_cusparse>)
  set_tests_properties(swapin_foreign_arch PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 600)
  # Forwarded and accelerated calls interleaved on one handle and the same descriptors:
  # linked with the shim, with the real cuSPARSE, preloaded (tcsparse must have run the
  # products and cuSPARSE the rest), and plain against preloaded, result by result.
  tcs_swapin_program(swapin_interleaved ${TCS_SWAPIN_DIR}/interleaved.c shim tcs_test_support)
  tcs_swapin_program(interleaved_cusparse ${TCS_SWAPIN_DIR}/interleaved.c cusparse tcs_test_support)
  foreach(name swapin_interleaved interleaved_cusparse)
    target_compile_definitions(${name} PRIVATE DISABLE_CUSPARSE_DEPRECATED)
  endforeach()
  add_test(NAME swapin_interleaved COMMAND swapin_interleaved)
  add_test(NAME swapin_interleaved_cusparse COMMAND interleaved_cusparse)
  add_test(NAME swapin_interleaved_preload
           COMMAND sh ${TCS_SWAPIN_DIR}/run_preloaded.sh $<TARGET_FILE:tcsparse_cusparse>
                   $<TARGET_FILE:interleaved_cusparse>
                   tcsSpMV tcsSpMM tcsSpGEMM_copy tcsSpGEMMreuse_compute
                   "cusparseXcsrsort -> cuSPARSE" "cusparseGather -> cuSPARSE"
                   "cusparseXcsr2coo -> cuSPARSE" "cusparseCsr2cscEx2 -> cuSPARSE"
                   "cusparseSpSV_solve -> cuSPARSE" "cusparseSparseToDense -> cuSPARSE"
                   "cusparseSpMV -> cuSPARSE")
  add_test(NAME swapin_interleaved_same_results
           COMMAND sh ${TCS_SWAPIN_DIR}/compare_runs.sh $<TARGET_FILE:tcsparse_cusparse>
                   $<TARGET_FILE:interleaved_cusparse> ${Python3_EXECUTABLE})
  # The shim's size queries cover the real cuSPARSE's, and calls tcsparse sized but
  # hands over at run time (TCS_CHECK_INPUTS=1 under stream capture) run on cuSPARSE
  # within that buffer.
  tcs_swapin_program(swapin_buffer_owner ${TCS_SWAPIN_DIR}/buffer_owner.c shim tcs_test_support
                     ${CMAKE_DL_LIBS})
  target_compile_definitions(swapin_buffer_owner PRIVATE DISABLE_CUSPARSE_DEPRECATED
    TCS_REAL_CUSPARSE="$<TARGET_FILE:CUDA::cusparse>")
  add_test(NAME swapin_buffer_owner COMMAND swapin_buffer_owner)
  set_tests_properties(swapin_buffer_owner PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 600
                       ENVIRONMENT "TCS_CHECK_INPUTS=1")
  set_tests_properties(swapin_preload swapin_interleaved swapin_interleaved_cusparse
                       swapin_interleaved_preload swapin_interleaved_same_results
                       PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()
