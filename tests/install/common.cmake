# Helpers of the install test scripts, beside the general ones of tests/scripts.
include(${CMAKE_CURRENT_LIST_DIR}/../scripts/helpers.cmake)

# A consumer's output must name tcsCreate's status: NOT_INITIALIZED without a GPU,
# SUCCESS with one.
function(tcs_expect_create_status what output)
  if(NOT output MATCHES "tcsCreate: TCS_STATUS_(NOT_INITIALIZED|SUCCESS)")
    message(FATAL_ERROR "${what} did not report tcsCreate's status:\n${output}")
  endif()
  message(STATUS "${what}: tcsCreate returned TCS_STATUS_${CMAKE_MATCH_1}")
endfunction()

# Fails unless `list` (file paths) holds every path of `expected`.
function(tcs_expect_files what list)
  set(missing "")
  foreach(path IN LISTS ARGN)
    if(NOT path IN_LIST ${list})
      string(APPEND missing "  ${path}\n")
    endif()
  endforeach()
  if(missing)
    string(REPLACE ";" "\n  " have "${${list}}")
    message(FATAL_ERROR "${what} lacks:\n${missing}it holds:\n  ${have}")
  endif()
endfunction()

# A runtime package or component holds versioned shared objects only (what programs
# load: lib*.so.MAJOR and lib*.so.MAJOR.MINOR.PATCH, such as libtcsparse's and the
# cuSPARSE shim's, and the shim under cuSPARSE's SONAME), libtcsparse's among them,
# and nothing a build needs (headers, the lib*.so links, CMake or pkg-config files).
function(tcs_expect_runtime_only what list libdir version)
  string(REGEX MATCH "^[0-9]+" major "${version}")
  tcs_expect_files("${what}" ${list} "${libdir}/libtcsparse.so.${major}" "${libdir}/libtcsparse.so.${version}")
  foreach(path IN LISTS ${list})
    # (the shim under cuSPARSE's SONAME keeps cuSPARSE's major, in a folder of its own)
    if(NOT path MATCHES "^${libdir}/lib[^/]*\\.so\\.${major}(\\.[0-9]+\\.[0-9]+)?$" AND
       NOT path MATCHES "^${libdir}/tcsparse-cusparse/libcusparse\\.so\\.[0-9]+$")
      message(FATAL_ERROR "${what} holds ${path}, which is not a versioned shared library")
    endif()
  endforeach()
endfunction()
