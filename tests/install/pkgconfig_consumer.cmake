# tcs_install_pkgconfig_consumer: builds and runs the C consumer with a plain compiler
# command and pkg-config (tests/install/pkgconfig_consumer/build.sh).
#   cmake -DPREFIX= -DWORK= -DSOURCE_DIR= -DC_COMPILER= -P pkgconfig_consumer.cmake
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
tcs_require(PREFIX WORK SOURCE_DIR C_COMPILER)

file(REMOVE_RECURSE "${WORK}")
tcs_run("build and run the pkg-config consumer" output COMMAND
        ${CMAKE_COMMAND} -E env CC=${C_COMPILER}
        sh "${SOURCE_DIR}/tests/install/pkgconfig_consumer/build.sh" "${PREFIX}" "${WORK}")
message("${output}")
tcs_expect_create_status("the pkg-config consumer" "${output}")
