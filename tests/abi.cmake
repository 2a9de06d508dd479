# tcs_abi_registry (host): docs/symbols.txt lists exactly the symbols libtcsparse.so
# exports (nm -D --defined-only), each in the version node of its major version, and
# exactly the functions tcsparse.h declares. docs/ABI.md states the policy it guards.
if(NOT CMAKE_NM)
  message(STATUS "No nm found: the ABI registry test (tcs_abi_registry) is not registered")
  return()
endif()
add_test(NAME tcs_abi_registry
         COMMAND ${CMAKE_COMMAND} -DNM=${CMAKE_NM} -DLIBRARY=$<TARGET_FILE:tcsparse>
                 -DREGISTRY=${PROJECT_SOURCE_DIR}/docs/symbols.txt
                 -DHEADER=${PROJECT_SOURCE_DIR}/include/tcsparse.h
                 -DVERSION=${PROJECT_VERSION}
                 -DSOVERSION=$<TARGET_PROPERTY:tcsparse,SOVERSION>
                 -P ${CMAKE_CURRENT_LIST_DIR}/abi/check_registry.cmake)
set_tests_properties(tcs_abi_registry PROPERTIES LABELS host TIMEOUT 60)
