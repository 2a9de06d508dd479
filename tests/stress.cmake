# gpu_stress (gpu): 8 threads with their own handles and streams, two handles on one
# stream, and long runs with device and host memory checked afterwards. Its own module
# because it needs the threads library.
find_package(Threads REQUIRED)
add_executable(gpu_stress ${CMAKE_CURRENT_LIST_DIR}/stress/gpu_stress.c)
target_link_libraries(gpu_stress PRIVATE tcsparse tcs_test_support ${CMOCKA_LIBRARIES}
                      Threads::Threads)
target_compile_options(gpu_stress PRIVATE -Wall -Wextra)
add_test(NAME gpu_stress COMMAND gpu_stress)
# RUN_SERIAL: the long runs compare the device's free memory before and after, which
# other test processes would move.
set_tests_properties(gpu_stress PROPERTIES SKIP_RETURN_CODE 77 LABELS gpu TIMEOUT 600 RUN_SERIAL TRUE)
