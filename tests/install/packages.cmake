# tcs_packages: runs CPack on the build (cpack -G TGZ, and -G DEB where dpkg-deb exists)
# and checks the split: libtcsparse<major>.deb holds only shared libraries,
# libtcsparse-dev.deb the headers, Fortran source, .so link, CMake package and .pc and
# depends on the runtime package of the same version; the .tar.gz holds both.
#   cmake -DBUILD_DIR= -DWORK= -DCPACK= -DVERSION= -DLIBDIR= -DINCLUDEDIR= [-DDPKG_DEB=]
#         -P packages.cmake
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
tcs_require(BUILD_DIR WORK CPACK VERSION LIBDIR INCLUDEDIR)
string(REGEX MATCH "^[0-9]+" major "${VERSION}")

set(dev_files
  "${INCLUDEDIR}/tcsparse.h" "${INCLUDEDIR}/tcsparse/tcsparse.f90" "${LIBDIR}/libtcsparse.so"
  "${LIBDIR}/cmake/tcsparse/tcsparseConfig.cmake" "${LIBDIR}/cmake/tcsparse/tcsparseConfigVersion.cmake"
  "${LIBDIR}/cmake/tcsparse/tcsparseTargets.cmake" "${LIBDIR}/pkgconfig/tcsparse.pc")
set(runtime_files "${LIBDIR}/libtcsparse.so.${major}" "${LIBDIR}/libtcsparse.so.${VERSION}")

file(REMOVE_RECURSE "${WORK}")
set(generators TGZ)
if(DPKG_DEB)
  list(APPEND generators DEB)
endif()
foreach(generator IN LISTS generators)
  tcs_run("cpack -G ${generator}" _ COMMAND
          "${CPACK}" --config "${BUILD_DIR}/CPackConfig.cmake" -G ${generator} -B "${WORK}")
endforeach()

# The archive: both components, paths relative to its top folder.
file(GLOB archive "${WORK}/*.tar.gz")
tcs_run("list ${archive}" listing COMMAND ${CMAKE_COMMAND} -E tar tzf "${archive}")
string(REPLACE "\n" ";" files "${listing}")
list(TRANSFORM files REPLACE "^[^/]*/(.*)$" "\\1")  # drop the archive's top folder
tcs_expect_files("${archive}" files ${dev_files} ${runtime_files})

if(NOT DPKG_DEB)
  message(STATUS "no dpkg-deb: the .deb packages are not checked")
  return()
endif()

# Files of a .deb without folders, as "usr/lib/..." relative to the install prefix /usr.
function(deb_files deb out)
  tcs_run("dpkg-deb -c ${deb}" listing COMMAND "${DPKG_DEB}" -c "${deb}")
  string(REGEX MATCHALL "\\./usr/[^\n]*[^/\n]( -> [^\n]*)?\n" entries "${listing}")
  list(TRANSFORM entries REPLACE "^\\./usr/([^ \n]*).*" "\\1")
  set(${out} ${entries} PARENT_SCOPE)
endfunction()
function(deb_field deb field out)
  tcs_run("dpkg-deb -f ${deb} ${field}" value COMMAND "${DPKG_DEB}" -f "${deb}" ${field})
  string(STRIP "${value}" value)
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

file(GLOB runtime_deb "${WORK}/libtcsparse${major}_*.deb")
file(GLOB dev_deb "${WORK}/libtcsparse-dev_*.deb")
if(NOT runtime_deb OR NOT dev_deb)
  file(GLOB made "${WORK}/*.deb")
  message(FATAL_ERROR "expected libtcsparse${major}_*.deb and libtcsparse-dev_*.deb, cpack made: ${made}")
endif()

deb_files("${runtime_deb}" files)
tcs_expect_runtime_only("${runtime_deb}" files "${LIBDIR}" "${VERSION}")
deb_field("${runtime_deb}" Depends depends)
if(depends MATCHES "cuda" OR NOT depends MATCHES "libc6")
  message(FATAL_ERROR "${runtime_deb} depends on '${depends}': expected libc6 and no CUDA package")
endif()

deb_files("${dev_deb}" files)
tcs_expect_files("${dev_deb}" files ${dev_files})
foreach(file IN LISTS files)
  if(file MATCHES "\\.so\\.[0-9]")
    message(FATAL_ERROR "${dev_deb} holds the runtime file ${file}")
  endif()
endforeach()
deb_field("${dev_deb}" Depends depends)
if(NOT depends MATCHES "libtcsparse${major} \\(= ${VERSION}\\)")
  message(FATAL_ERROR "${dev_deb} depends on '${depends}', expected libtcsparse${major} (= ${VERSION})")
endif()
message(STATUS "packages: ${runtime_deb}, ${dev_deb}, ${archive}")
