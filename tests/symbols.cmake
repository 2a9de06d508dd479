# exported_symbols (host): libtcsparse.so exports nothing but tcs* functions (plus its
# version node), every one in that node, and its SONAME is libtcsparse.so.<major>.
# A leaked symbol (the statically linked CUDA runtime, a C++ helper) would clash with
# other libraries in the same process, such as cuSPARSE itself.
#
# This file has two roles: included by tests/CMakeLists.txt it registers the test,
# which runs this same file as a script (cmake -P) to do the check.

if(NOT CMAKE_SCRIPT_MODE_FILE)
  find_program(TCS_NM NAMES ${CMAKE_NM} nm)
  find_program(TCS_READELF NAMES ${CMAKE_READELF} readelf)
  if(NOT TCS_NM OR NOT TCS_READELF)
    message(STATUS "nm or readelf not found: the exported_symbols test is not registered")
    return()
  endif()
  add_test(NAME exported_symbols
           COMMAND ${CMAKE_COMMAND} -DNM=${TCS_NM} -DREADELF=${TCS_READELF}
                   -DLIBRARY=$<TARGET_FILE:tcsparse> -DMAJOR=${PROJECT_VERSION_MAJOR}
                   -P ${CMAKE_CURRENT_LIST_FILE})
  set_tests_properties(exported_symbols PROPERTIES LABELS host TIMEOUT 60)
  return()
endif()

# ---- script mode ----
foreach(var NM READELF LIBRARY MAJOR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "symbols.cmake: -D${var}=... is required")
  endif()
endforeach()
set(node "TCS_${MAJOR}")

execute_process(COMMAND ${NM} -D --defined-only ${LIBRARY}
                OUTPUT_VARIABLE listing ERROR_VARIABLE nm_err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} -D --defined-only ${LIBRARY} failed (${rc}): ${nm_err}")
endif()
string(REPLACE "\n" ";" lines "${listing}")
set(bad "")
set(functions 0)
foreach(line IN LISTS lines)
  if(line STREQUAL "")
    continue()
  endif()
  # "<address> <type> <name>[@@<version>]"
  if(NOT line MATCHES "^[0-9A-Fa-f]* *[A-Za-z] ([^ ]+)$")
    list(APPEND bad "unparsed line '${line}'")
    continue()
  endif()
  set(symbol "${CMAKE_MATCH_1}")
  string(REGEX REPLACE "@.*$" "" name "${symbol}")
  if(name STREQUAL node)
    continue() # the version node itself
  endif()
  if(NOT name MATCHES "^tcs")
    list(APPEND bad "${symbol} (not tcs*)")
  elseif(symbol MATCHES "@" AND NOT symbol MATCHES "@@${node}$")
    list(APPEND bad "${symbol} (not in version node ${node})")
  else()
    math(EXPR functions "${functions} + 1")
  endif()
endforeach()
if(bad)
  list(JOIN bad "\n  " text)
  message(FATAL_ERROR "libtcsparse exports symbols it must not:\n  ${text}")
endif()
foreach(required tcsCreate tcsGetErrorName tcsSpGEMM_workEstimation tcsSpGEMM_copy tcsSpMM)
  if(NOT listing MATCHES "[ \n]${required}(@|\n)")
    message(FATAL_ERROR "libtcsparse does not export ${required}")
  endif()
endforeach()

execute_process(COMMAND ${READELF} -d ${LIBRARY}
                OUTPUT_VARIABLE dynamic ERROR_VARIABLE readelf_err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${READELF} -d ${LIBRARY} failed (${rc}): ${readelf_err}")
endif()
if(NOT dynamic MATCHES "Library soname: \\[([^]]*)\\]")
  message(FATAL_ERROR "${LIBRARY} has no SONAME")
endif()
if(NOT CMAKE_MATCH_1 STREQUAL "libtcsparse.so.${MAJOR}")
  message(FATAL_ERROR "SONAME is ${CMAKE_MATCH_1}, expected libtcsparse.so.${MAJOR}")
endif()
message(STATUS "${functions} tcs* functions exported in ${node}, SONAME libtcsparse.so.${MAJOR}")
