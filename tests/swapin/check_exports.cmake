# Checks what libtcsparse_cusparse.so exports: only cusparse* names (so it can never
# shadow anything but cuSPARSE), among them the three kinds of function (accelerated,
# kept by the shim, forwarded), and the SONAME a preloader can name; and that its copy
# under cuSPARSE's SONAME exports the same names under cuSPARSE's version node.
# usage: cmake -DLIBRARY=<path> -DSONAME_LIBRARY=<path> -DCUSPARSE_MAJOR=<n> -DNM=<nm>
#              -DREADELF=<readelf> -P check_exports.cmake
function(cusparse_exports library out_count out_symbols)
  execute_process(COMMAND ${NM} -D --defined-only --with-symbol-versions ${library}
                  OUTPUT_VARIABLE symbols RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} failed on ${library}")
  endif()
  string(REPLACE "\n" ";" lines "${symbols}")
  set(count 0)
  set(foreign "")
  set(names "")
  foreach(line ${lines})
    if(line MATCHES "^[0-9a-fA-F]+ [A-Za-z] ([^@]+)(@.*)?$")
      set(version "${CMAKE_MATCH_2}")
      set(name "${CMAKE_MATCH_1}")
      if(name MATCHES "^cusparse[A-Za-z0-9_]*$")
        math(EXPR count "${count} + 1")
        string(APPEND names " ${name}${version}\n")
      elseif(NOT name MATCHES "^libcusparse\\.so\\.[0-9]+$")  # the version node itself
        list(APPEND foreign "${name}")
      endif()
    endif()
  endforeach()
  if(foreign)
    message(FATAL_ERROR "${library} exports symbols that are not cuSPARSE names: ${foreign}")
  endif()
  set(${out_count} ${count} PARENT_SCOPE)
  set(${out_symbols} "${names}" PARENT_SCOPE)
endfunction()

cusparse_exports(${LIBRARY} count symbols)
foreach(expected cusparseCreate cusparseSpGEMM_compute cusparseSpMM cusparseSpMV cusparseCreateCsr
                 cusparseCreateCoo cusparseCreateDnVec cusparseSpGEMMreuse_compute
                 cusparseXcsr2coo cusparseSpSV_solve cusparseCreateMatDescr)
  if(NOT symbols MATCHES " ${expected}\n")
    message(FATAL_ERROR "${expected} is not exported (unversioned) by ${LIBRARY}")
  endif()
endforeach()
execute_process(COMMAND ${READELF} -d ${LIBRARY} OUTPUT_VARIABLE dynamic RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT dynamic MATCHES "\\(SONAME\\)[^\n]*\\[libtcsparse_cusparse\\.so\\.0\\]")
  message(FATAL_ERROR "SONAME is not libtcsparse_cusparse.so.0")
endif()

cusparse_exports(${SONAME_LIBRARY} soname_count soname_symbols)
if(NOT soname_count EQUAL count)
  message(FATAL_ERROR "${SONAME_LIBRARY} exports ${soname_count} functions, ${LIBRARY} ${count}")
endif()
if(NOT soname_symbols MATCHES " cusparseSpMV@@libcusparse\\.so\\.${CUSPARSE_MAJOR}\n")
  message(FATAL_ERROR "${SONAME_LIBRARY}: cusparseSpMV is not under the version libcusparse.so.${CUSPARSE_MAJOR}")
endif()
execute_process(COMMAND ${READELF} -d ${SONAME_LIBRARY} OUTPUT_VARIABLE dynamic RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT dynamic MATCHES "\\(SONAME\\)[^\n]*\\[libcusparse\\.so\\.${CUSPARSE_MAJOR}\\]")
  message(FATAL_ERROR "the SONAME of ${SONAME_LIBRARY} is not libcusparse.so.${CUSPARSE_MAJOR}")
endif()
message(STATUS "libtcsparse_cusparse.so exports ${count} cusparse* functions and nothing else; "
               "its copy under libcusparse.so.${CUSPARSE_MAJOR} the same")
