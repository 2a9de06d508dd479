# Helpers of the test scripts that ctest runs with cmake -P (tests/abi, tests/fortran,
# tests/install). Include with include(${CMAKE_CURRENT_LIST_DIR}/../scripts/helpers.cmake).
cmake_minimum_required(VERSION 3.25)

# Fails unless every variable named was given (-DNAME=... on the command line).
function(tcs_require)
  foreach(var IN LISTS ARGN)
    if(NOT DEFINED ${var})
      message(FATAL_ERROR "${CMAKE_SCRIPT_MODE_FILE}: -D${var}=... is required")
    endif()
  endforeach()
endfunction()

# Checks collect every difference before failing, so one run shows them all:
# tcs_problem("text") records one, tcs_report_problems("heading") fails if any.
set(TCS_PROBLEMS "")
macro(tcs_problem text)
  string(APPEND TCS_PROBLEMS "  ${text}\n")
endmacro()
function(tcs_report_problems heading)
  if(TCS_PROBLEMS)
    message(FATAL_ERROR "${heading}\n${TCS_PROBLEMS}")
  endif()
endfunction()

# tcs_run(<what> <output variable> COMMAND ...): runs a command, fails with its output
# when it exits with another status than 0, and returns stdout and stderr together.
function(tcs_run what out)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "COMMAND")
  execute_process(COMMAND ${arg_COMMAND} RESULT_VARIABLE result OUTPUT_VARIABLE output
                  ERROR_VARIABLE output)
  if(NOT result EQUAL 0)
    string(REPLACE ";" " " command "${arg_COMMAND}")
    message(FATAL_ERROR "${what} failed (${result}):\n  ${command}\n${output}")
  endif()
  message(STATUS "${what}: ok")
  set(${out} "${output}" PARENT_SCOPE)
endfunction()
