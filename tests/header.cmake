# header_c99, header_cxx (host): include/tcsparse.h compiles on its own, warning-free,
# as strict C99 and as C++11 (what C, Fortran-binding and C++ callers build with), and
# a program built that way links and agrees with the library on the version.
set(TCS_HEADER_WARNINGS "")
if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  set(TCS_HEADER_WARNINGS -Wall -Wextra -pedantic -Werror)
endif()

add_executable(header_c99 ${CMAKE_CURRENT_LIST_DIR}/header_c99.c)
set_target_properties(header_c99 PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)

add_executable(header_cxx ${CMAKE_CURRENT_LIST_DIR}/header_cxx.cpp)
set_target_properties(header_cxx PROPERTIES CXX_STANDARD 11 CXX_STANDARD_REQUIRED ON
                                            CXX_EXTENSIONS OFF)

foreach(target header_c99 header_cxx)
  target_compile_options(${target} PRIVATE ${TCS_HEADER_WARNINGS})
  target_link_libraries(${target} PRIVATE tcsparse)
  add_test(NAME ${target} COMMAND ${target})
  set_tests_properties(${target} PROPERTIES LABELS host TIMEOUT 30)
endforeach()
