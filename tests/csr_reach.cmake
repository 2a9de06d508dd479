# csr_reach (host): the CSR SpMM selection (cpp/spmm/csr: choose_split, plan_long_rows,
# runs_possible, choose_geometry) swept over problems and devices against the row-split
# kernels launch.cuh compiles (split_reachable, reachable.hpp): every combination chosen is
# compiled and every one compiled is chosen. Host code only; no GPU, no kernels.
add_executable(csr_reach ${CMAKE_CURRENT_SOURCE_DIR}/csr_reach/csr_reach.cpp)
target_include_directories(csr_reach PRIVATE ${PROJECT_SOURCE_DIR}/cpp ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(csr_reach PRIVATE CUDA::toolkit)  # cuda_runtime_api.h of the headers it includes
target_compile_options(csr_reach PRIVATE -Wall -Wextra)
add_test(NAME csr_reach COMMAND csr_reach)
set_tests_properties(csr_reach PROPERTIES LABELS host TIMEOUT 120)
