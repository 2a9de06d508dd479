# The installed package, as users get it (all label host, no GPU needed):
#   tcs_install_build               builds what the install components hold (a fixture:
#                                   ctest itself builds nothing)
#   tcs_install                     cmake --install into a fresh prefix; checks the files there
#   tcs_install_cmake_consumer      a C (and Fortran) project through find_package(tcsparse)
#   tcs_install_pkgconfig_consumer  a C program built with cc and pkg-config
#   tcs_packages                    cpack: the runtime and -dev .deb split and the .tar.gz
set(TCS_INSTALL_WORK ${CMAKE_CURRENT_BINARY_DIR}/install_test)
set(TCS_INSTALL_PREFIX ${TCS_INSTALL_WORK}/prefix)

# The libraries of the runtime component: tcsparse, and the cuSPARSE shim (shim/) where
# it is built.
set(TCS_PACKAGED_TARGETS tcsparse)
if(TARGET tcsparse_cusparse)
  list(APPEND TCS_PACKAGED_TARGETS tcsparse_cusparse tcsparse_cusparse_soname)
endif()
add_test(NAME tcs_install_build
         COMMAND ${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR} --target ${TCS_PACKAGED_TARGETS})
set_tests_properties(tcs_install_build PROPERTIES FIXTURES_SETUP tcs_library_built TIMEOUT 3600)

add_test(NAME tcs_install
         COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${CMAKE_BINARY_DIR} -DPREFIX=${TCS_INSTALL_PREFIX}
                 -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DLIBDIR=${CMAKE_INSTALL_LIBDIR}
                 -DINCLUDEDIR=${CMAKE_INSTALL_INCLUDEDIR} -DLIBRARY_NAME=$<TARGET_FILE_NAME:tcsparse>
                 -DSONAME=$<TARGET_SONAME_FILE_NAME:tcsparse> -DVERSION=${PROJECT_VERSION}
                 -DREADELF=${CMAKE_READELF}
                 -P ${CMAKE_CURRENT_LIST_DIR}/install/install_prefix.cmake)
set_tests_properties(tcs_install PROPERTIES FIXTURES_REQUIRED tcs_library_built
                     FIXTURES_SETUP tcs_installed)

cmake_path(GET CUDAToolkit_BIN_DIR PARENT_PATH TCS_CUDA_ROOT)
add_test(NAME tcs_install_cmake_consumer
         COMMAND ${CMAKE_COMMAND} -DPREFIX=${TCS_INSTALL_PREFIX} -DWORK=${TCS_INSTALL_WORK}/cmake_consumer
                 -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DVERSION=${PROJECT_VERSION}
                 -DGENERATOR=${CMAKE_GENERATOR} -DC_COMPILER=${CMAKE_C_COMPILER}
                 -DCUDA_ROOT=${TCS_CUDA_ROOT}
                 -P ${CMAKE_CURRENT_LIST_DIR}/install/cmake_consumer.cmake)
set(TCS_CONSUMER_TESTS tcs_install_cmake_consumer)
find_program(TCS_PKG_CONFIG pkg-config)
if(TCS_PKG_CONFIG)
  add_test(NAME tcs_install_pkgconfig_consumer
           COMMAND ${CMAKE_COMMAND} -DPREFIX=${TCS_INSTALL_PREFIX} -DWORK=${TCS_INSTALL_WORK}/pkgconfig_consumer
                   -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DC_COMPILER=${CMAKE_C_COMPILER}
                   -P ${CMAKE_CURRENT_LIST_DIR}/install/pkgconfig_consumer.cmake)
  list(APPEND TCS_CONSUMER_TESTS tcs_install_pkgconfig_consumer)
else()
  message(STATUS "No pkg-config: tcs_install_pkgconfig_consumer is not registered (.ci/run installs it)")
endif()

find_program(TCS_DPKG_DEB dpkg-deb)
add_test(NAME tcs_packages
         COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${CMAKE_BINARY_DIR} -DWORK=${TCS_INSTALL_WORK}/packages
                 -DCPACK=${CMAKE_CPACK_COMMAND} -DVERSION=${PROJECT_VERSION}
                 -DLIBDIR=${CMAKE_INSTALL_LIBDIR} -DINCLUDEDIR=${CMAKE_INSTALL_INCLUDEDIR}
                 -DDPKG_DEB=${TCS_DPKG_DEB}
                 -P ${CMAKE_CURRENT_LIST_DIR}/install/packages.cmake)
set_tests_properties(tcs_packages PROPERTIES FIXTURES_REQUIRED tcs_library_built)

set_tests_properties(${TCS_CONSUMER_TESTS} PROPERTIES FIXTURES_REQUIRED tcs_installed)
set_tests_properties(tcs_install_build tcs_install ${TCS_CONSUMER_TESTS} tcs_packages
                     PROPERTIES LABELS host)
set_tests_properties(tcs_install ${TCS_CONSUMER_TESTS} tcs_packages PROPERTIES TIMEOUT 300)
