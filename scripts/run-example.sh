#!/usr/bin/env bash
# Builds and runs the main example (docs/examples/spgemm_spmm_example.c): SpGEMM and
# SpMM through tcsparse on the bundled Matrix Market file, checked against a CPU
# reference, with cuSPARSE's time beside tcsparse's when a GPU is present. Without a
# GPU the example says so and exits 0.
#
# Needs the CUDA Toolkit (>= 12) and a C/C++ compiler; CMake >= 3.25 is installed
# into .deps/ from PyPI when the machine's is missing or older. Builds into build/,
# which scripts/run-tests.sh then reuses (and the other way round): the library is
# compiled once for both.
# Usage: scripts/run-example.sh [build-dir] [-- example arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
tool=run-example
build=build
if [ $# -gt 0 ] && [ "$1" != "--" ]; then build=$1; shift; fi
[ "${1:-}" = "--" ] && shift

. "$root/scripts/build-env.sh"
tcs_find_nvcc
tcs_find_cmake
# With cmocka installed the tests stay configured (as run-tests.sh leaves them); the
# example's own build is the same either way.
tests=OFF
tcs_have_cmocka && tests=ON
tcs_configure "$build" "$tests"
"$cmake_bin" --build "$build" -j "$jobs" --target spgemm_spmm_example
echo
exec "$build/docs/examples/spgemm_spmm_example" "$@"
