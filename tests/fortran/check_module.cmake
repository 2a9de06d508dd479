# Checks that the Fortran module (packaging/fortran/tcsparse.f90) matches the C API
# without compiling anything, so that it runs wherever CMake does:
#  - one bind(c) interface per symbol of the registry (docs/symbols.txt), no other;
#  - each interface has as many arguments as the C prototype in tcsparse.h;
#  - every enumerator and #define alias of tcsparse.h has the same value in the module;
#  - the cudaDataType parameters equal library_types.h.
#
#   cmake -DMODULE=tcsparse.f90 -DHEADER=tcsparse.h -DREGISTRY=symbols.txt
#         -DCUDA_TYPES_HEADER=library_types.h -P check_module.cmake
include(${CMAKE_CURRENT_LIST_DIR}/../scripts/helpers.cmake)
tcs_require(MODULE HEADER REGISTRY CUDA_TYPES_HEADER)

# Reads a file as one string with continuation lines joined (Fortran '&' and
# newline) and semicolons, which would split CMake lists, replaced.
function(read_joined path out)
  file(READ "${path}" text)
  string(REPLACE ";" "<semicolon>" text "${text}")
  string(REGEX REPLACE "&[ \t]*\n[ \t]*&?" "" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# Counts the arguments of a parameter list "a, b, c" (empty or "void" has none).
function(count_arguments list out)
  string(STRIP "${list}" list)
  if(list STREQUAL "" OR list STREQUAL "void")
    set(${out} 0 PARENT_SCOPE)
    return()
  endif()
  string(REGEX REPLACE "[^,]" "" commas "${list}")
  string(LENGTH "${commas}" n)
  math(EXPR n "${n} + 1")
  set(${out} ${n} PARENT_SCOPE)
endfunction()

read_joined("${MODULE}" module)
read_joined("${HEADER}" header)

# --- functions: registry names, Fortran bind(c) names and argument counts
set(registry_names "")
file(STRINGS "${REGISTRY}" lines REGEX "^tcs[A-Za-z0-9_]+")
foreach(line IN LISTS lines)
  string(REGEX MATCH "^tcs[A-Za-z0-9_]+" name "${line}")
  list(APPEND registry_names "${name}")
endforeach()

string(REGEX MATCHALL "function[ \t]+[A-Za-z0-9_]+[ \t]*\\([^)]*\\)[ \t]*bind\\(c,[ \t]*name=\"tcs[A-Za-z0-9_]+\"\\)"
       interfaces "${module}")
set(bound_names "")
foreach(interface IN LISTS interfaces)
  string(REGEX MATCH "name=\"(tcs[A-Za-z0-9_]+)\"" _ "${interface}")
  set(name "${CMAKE_MATCH_1}")
  string(REGEX MATCH "function[ \t]+([A-Za-z0-9_]+)[ \t]*\\(([^)]*)\\)" _ "${interface}")
  set(fortran_name "${CMAKE_MATCH_1}")
  count_arguments("${CMAKE_MATCH_2}" fortran_count)
  list(APPEND bound_names "${name}")
  if(NOT fortran_name STREQUAL name)
    tcs_problem("the interface for ${name} is called ${fortran_name}")
  endif()
  if(NOT name IN_LIST registry_names)
    tcs_problem("${name} is bound in the module but not in the registry")
    continue()
  endif()
  if(NOT header MATCHES "TCS_API[^(<]*[ *]${name}[ \t]*\\(([^)]*)\\)")
    tcs_problem("${name}: no prototype found in the header")
    continue()
  endif()
  count_arguments("${CMAKE_MATCH_1}" c_count)
  if(NOT c_count EQUAL fortran_count)
    tcs_problem("${name} has ${c_count} arguments in C but ${fortran_count} in the module")
  endif()
endforeach()
foreach(name IN LISTS registry_names)
  if(NOT name IN_LIST bound_names)
    tcs_problem("${name} has no bind(c, name=\"${name}\") interface in the module")
  endif()
endforeach()

# --- constants: the module's enumerators and parameters by name
string(REGEX MATCHALL "enumerator[ \t]*::[ \t]*[A-Za-z0-9_]+[ \t]*=[ \t]*-?[0-9]+" enumerators "${module}")
string(REGEX MATCHALL "parameter[ \t]*::[ \t]*[A-Za-z0-9_]+[ \t]*=[ \t]*[^\n!]+" parameters "${module}")
set(module_names "")
foreach(definition IN LISTS enumerators parameters)
  string(REGEX MATCH "::[ \t]*([A-Za-z0-9_]+)[ \t]*=[ \t]*([^\n!]+)" _ "${definition}")
  string(STRIP "${CMAKE_MATCH_2}" value)
  list(APPEND module_names "${CMAKE_MATCH_1}")
  set(module_value_${CMAKE_MATCH_1} "${value}")
endforeach()

macro(expect_constant name value origin)
  if(NOT DEFINED module_value_${name})
    tcs_problem("${name} (${origin}) is missing from the module")
  elseif(NOT module_value_${name} STREQUAL "${value}")
    tcs_problem("${name} is ${module_value_${name}} in the module, ${value} in ${origin}")
  endif()
endmacro()

# Enumerators "TCS_X = 3," and defines "#define TCS_X 3" or "#define TCS_X TCS_Y".
string(REGEX MATCHALL "\n[ \t]*TCS_[A-Z0-9_]+[ \t]*=[ \t]*-?[0-9]+" c_enumerators "${header}")
string(REGEX MATCHALL "#define[ \t]+TCS_[A-Z0-9_]+[ \t]+[A-Z0-9_]+[ \t]*\n" c_defines "${header}")
set(header_names "")
foreach(definition IN LISTS c_enumerators c_defines)
  string(REGEX MATCH "(TCS_[A-Z0-9_]+)[ \t=]+([A-Z0-9_-]+)" _ "${definition}")
  list(APPEND header_names "${CMAKE_MATCH_1}")
  expect_constant("${CMAKE_MATCH_1}" "${CMAKE_MATCH_2}" "tcsparse.h")
endforeach()
foreach(name IN LISTS module_names)
  if(name MATCHES "^TCS_" AND NOT name IN_LIST header_names AND NOT name STREQUAL "TCS_VERSION")
    tcs_problem("${name} is defined in the module but not in tcsparse.h")
  endif()
endforeach()

file(READ "${CUDA_TYPES_HEADER}" cuda_types)
foreach(name CUDA_R_32F CUDA_R_64F CUDA_R_16F CUDA_R_16BF)
  if(NOT cuda_types MATCHES "${name}[ \t]*=[ \t]*([0-9]+)")
    tcs_problem("${name} not found in ${CUDA_TYPES_HEADER}")
    continue()
  endif()
  expect_constant(${name} "${CMAKE_MATCH_1}" "library_types.h")
endforeach()

list(LENGTH bound_names functions)
list(LENGTH header_names constants)
tcs_report_problems("The Fortran module ${MODULE} does not match the C API:")
message(STATUS "Fortran module: ${functions} interfaces and ${constants} constants match the C API")
