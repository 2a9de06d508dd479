# scripts/petsc/ (PETSc through the swap-in, docs/petsc.md): the Matrix Market to PETSc
# binary converter and the run summary, on the host. Skipped (77) without numpy.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME petsc_tools
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/scripts/petsc_tools_test.py)
  set_tests_properties(petsc_tools PROPERTIES LABELS host SKIP_RETURN_CODE 77 TIMEOUT 120
                       ENVIRONMENT "TCS_MATRIX_DIR=${TCS_MATRIX_DIR}")
endif()
