# tcs_install: installs the build's runtime and dev components into a fresh prefix
# (cmake --install <build> --prefix <prefix>, as a user would) and checks what lands
# there; also installs the runtime component alone and checks it holds only shared libraries.
#   cmake -DBUILD_DIR= -DPREFIX= -DSOURCE_DIR= -DLIBDIR= -DINCLUDEDIR= -DLIBRARY_NAME=
#         -DSONAME= -DVERSION= [-DREADELF=] -P install_prefix.cmake
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
tcs_require(BUILD_DIR PREFIX SOURCE_DIR LIBDIR INCLUDEDIR LIBRARY_NAME SONAME VERSION)

function(install_components prefix)
  file(REMOVE_RECURSE "${prefix}")
  foreach(component IN LISTS ARGN)
    tcs_run("install component ${component}" _ COMMAND
            ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}" --component ${component})
  endforeach()
endfunction()

# The runtime component alone: versioned shared libraries, nothing else.
install_components("${PREFIX}-runtime-only" runtime)
file(GLOB_RECURSE runtime_files LIST_DIRECTORIES false RELATIVE "${PREFIX}-runtime-only" "${PREFIX}-runtime-only/*")
tcs_expect_runtime_only("the runtime component" runtime_files "${LIBDIR}" "${VERSION}")

install_components("${PREFIX}" runtime dev)
file(GLOB_RECURSE installed LIST_DIRECTORIES false RELATIVE "${PREFIX}" "${PREFIX}/*")
file(GLOB headers RELATIVE "${SOURCE_DIR}/include" "${SOURCE_DIR}/include/*.h")
list(TRANSFORM headers PREPEND "${INCLUDEDIR}/")
tcs_expect_files("the install prefix ${PREFIX}" installed
  ${headers}
  "${INCLUDEDIR}/tcsparse/tcsparse.f90"
  "${LIBDIR}/${LIBRARY_NAME}" "${LIBDIR}/${SONAME}" "${LIBDIR}/libtcsparse.so"
  "${LIBDIR}/cmake/tcsparse/tcsparseConfig.cmake"
  "${LIBDIR}/cmake/tcsparse/tcsparseConfigVersion.cmake"
  "${LIBDIR}/cmake/tcsparse/tcsparseTargets.cmake"
  "${LIBDIR}/pkgconfig/tcsparse.pc")

# An installed library must not point back into the build tree.
if(READELF)
  tcs_run("readelf" dynamic COMMAND "${READELF}" -d "${PREFIX}/${LIBDIR}/${LIBRARY_NAME}")
  if(dynamic MATCHES "R(UN)?PATH[^\n]*\\[([^]\n]*)\\]")
    message(FATAL_ERROR "the installed library keeps the run path ${CMAKE_MATCH_2}")
  endif()
  if(NOT dynamic MATCHES "SONAME[^\n]*\\[${SONAME}\\]")
    message(FATAL_ERROR "the installed library's SONAME is not ${SONAME}:\n${dynamic}")
  endif()
endif()
