# docs_match_code (host): docs/guide.md names every enum value, alias, function of
# tcsparse.h and every environment variable the library reads, and no page under docs/
# calls a path the header documents as supported NOT_SUPPORTED (tests/docs/check_docs.py,
# standard-library Python only).
find_package(Python3 COMPONENTS Interpreter)
if(NOT Python3_Interpreter_FOUND)
  message(STATUS "No Python 3 interpreter: docs_match_code is not registered")
  return()
endif()
add_test(NAME docs_match_code
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/docs/check_docs.py ${PROJECT_SOURCE_DIR})
set_tests_properties(docs_match_code PROPERTIES LABELS host TIMEOUT 60)
