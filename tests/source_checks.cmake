# Checks of the source tree itself, standard-library Python 3 scripts given the
# checkout (label host, no build needed):
#   docs_match_code  docs/guide.md names every enum value, alias and function of
#                    tcsparse.h and every environment variable the library reads, and no
#                    page under docs/ calls a path the header documents NOT_SUPPORTED,
#                    and every path docs/architecture.md names exists
#                    (tests/docs/check_docs.py)
#   spack_package    packaging/spack/package.py parsed (ast; Spack is not needed) and
#                    checked against the project's CMake options, version and minimums
#                    (tests/packaging/check_spack_package.py)
#   architecture_rules  the layers' includes (no family includes another family's
#                    folder, core/formats/check include nothing above them), one launch
#                    and one grid helper (beyond the listed debt of issue 39), no comment
#                    in cpp/ or lib/ quotes a measurement, every docs pointer there names
#                    a real heading (tests/architecture/check_architecture.py;
#                    docs/architecture.md)
find_package(Python3 COMPONENTS Interpreter)
if(NOT Python3_Interpreter_FOUND)
  message(STATUS "No Python 3 interpreter: docs_match_code, spack_package and architecture_rules are not registered")
  return()
endif()
foreach(check docs_match_code:docs/check_docs.py spack_package:packaging/check_spack_package.py
              architecture_rules:architecture/check_architecture.py)
  string(REPLACE ":" ";" check "${check}")
  list(GET check 0 name)
  list(GET check 1 script)
  add_test(NAME ${name} COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/${script} ${PROJECT_SOURCE_DIR})
  set_tests_properties(${name} PROPERTIES LABELS host TIMEOUT 60)
endforeach()
