# swapin_forwarding_table: docs/forwarding.md must be what shim/gen_forward.py makes of
# the shim's sources and the toolkit's cusparse.h. Where the toolkit's header is another
# cuSPARSE version than the page was made from, the test says so and is skipped.
# usage: cmake -DPYTHON= -DGENERATE=<gen_forward.py command, as shim/ runs it> -DWORK=
#              -DDOC=<docs/forwarding.md> -P check_table.cmake
file(MAKE_DIRECTORY ${WORK})
# The generator's own output folder (the 4th item) replaced by WORK.
list(SUBLIST GENERATE 0 3 head)
list(SUBLIST GENERATE 4 -1 tail)
execute_process(COMMAND ${PYTHON} ${head} ${WORK} ${tail} --table ${WORK}/forwarding.md
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gen_forward.py failed: ${err}")
endif()
file(READ ${DOC} committed)
file(READ ${WORK}/forwarding.md made)
string(REGEX MATCH "cusparse.h` ([0-9.]+)" _ "${committed}")
set(committed_version "${CMAKE_MATCH_1}")
string(REGEX MATCH "cusparse.h` ([0-9.]+)" _ "${made}")
set(made_version "${CMAKE_MATCH_1}")
if(NOT committed_version STREQUAL made_version)
  message(STATUS "docs/forwarding.md was made from cusparse.h ${committed_version}; this toolkit "
                 "has another cuSPARSE version (${made_version}): not compared")
  return()
endif()
if(NOT committed STREQUAL made)
  message(FATAL_ERROR "docs/forwarding.md differs from what the code makes (${WORK}/forwarding.md): "
                      "cmake --build <build> --target forwarding_table, and commit the page")
endif()
message(STATUS "docs/forwarding.md matches the code (cusparse.h ${made_version})")
