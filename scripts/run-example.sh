#!/usr/bin/env bash
# Builds and runs the main example (docs/examples/spgemm_spmm_example.c): SpGEMM and
# SpMM through tcsparse on the bundled Matrix Market file, checked against a CPU
# reference, with cuSPARSE's time beside tcsparse's when a GPU is present. Without a
# GPU the example says so and exits 0.
#
# Needs the CUDA Toolkit (>= 12) and a C/C++ compiler; CMake >= 3.25 is installed
# into .deps/ from PyPI when the machine's is missing or older. Tests, benchmarks and
# cmocka are not needed.
# Usage: scripts/run-example.sh [build-dir] [-- example arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
build=build-example
if [ $# -gt 0 ] && [ "$1" != "--" ]; then build=$1; shift; fi
[ "${1:-}" = "--" ] && shift

# nvcc: on PATH, or the toolkit's usual places.
if ! command -v nvcc >/dev/null; then
  for dir in /usr/local/cuda/bin /opt/cuda/bin; do
    if [ -x "$dir/nvcc" ]; then export PATH="$dir:$PATH"; break; fi
  done
fi
if ! command -v nvcc >/dev/null; then
  echo "run-example: the CUDA Toolkit (nvcc) was not found: install it (>= 12) and run again" >&2
  exit 1
fi

# CMake >= 3.25: the machine's, else a private copy from PyPI in .deps/cmake.
cmake_ok() {
  local v
  v=$("$1" --version 2>/dev/null | sed -n 's/^cmake version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
  [ -n "$v" ] && set -- $v && { [ "$1" -gt 3 ] || { [ "$1" -eq 3 ] && [ "$2" -ge 25 ]; }; }
}
cmake_bin=cmake
if ! cmake_ok cmake; then
  cmake_bin="$root/.deps/cmake/bin/cmake"
  if ! cmake_ok "$cmake_bin"; then
    echo "run-example: installing CMake >= 3.25 into .deps/cmake (pip)"
    python3 -m venv "$root/.deps/cmake"
    "$root/.deps/cmake/bin/python" -m pip install --quiet "cmake>=3.25"
  fi
fi

jobs=$(nproc 2>/dev/null || echo 2)
"$cmake_bin" -S . -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DTCS_BUILD_TESTS=OFF -DTCS_BUILD_BENCH=OFF -DTCS_BUILD_EXAMPLES=ON -DBUILD_TESTING=OFF >/dev/null
"$cmake_bin" --build "$build" -j "$jobs" --target spgemm_spmm_example
echo
exec "$build/docs/examples/spgemm_spmm_example" "$@"
