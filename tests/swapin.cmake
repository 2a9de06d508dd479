# The cuSPARSE swap-in: the source-level header include/tcsparse_cusparse.h and the
# binary shim libtcsparse_cusparse.so (shim/), tested through programs written against
# the cuSPARSE names only (tests/swapin/). Included by tests/CMakeLists.txt.
set(TCS_SWAPIN_DIR ${CMAKE_CURRENT_SOURCE_DIR}/swapin)
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
  # The probe linked with the REAL cuSPARSE passes only if the shim interposes it.
  add_test(NAME swapin_probe_preloaded COMMAND swapin_probe_cusparse)
  set_tests_properties(swapin_probe_preloaded PROPERTIES
    ENVIRONMENT "LD_PRELOAD=$<TARGET_FILE:tcsparse_cusparse>")
  add_test(NAME swapin_shim_exports
           COMMAND ${CMAKE_COMMAND} -DLIBRARY=$<TARGET_FILE:tcsparse_cusparse>
                   -DNM=${CMAKE_NM} -DREADELF=${CMAKE_READELF}
                   -P ${TCS_SWAPIN_DIR}/check_exports.cmake)
  set_tests_properties(swapin_probe_shim swapin_probe_preloaded swapin_shim_exports
                       PROPERTIES LABELS host TIMEOUT 120)
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
  set_tests_properties(swapin_preload PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()
