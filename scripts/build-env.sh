# shellcheck shell=bash disable=SC2034,SC2154  # sourced: it sets, and reads, the caller's variables
# Sourced by scripts/run-example.sh and scripts/run-tests.sh (the README's two commands),
# which share one build folder: the toolkit and CMake they need, and one configure line,
# so that the second command reuses what the first compiled.
#   tcs_find_nvcc            nvcc on PATH, or the toolkit's usual places; else exit 1
#   tcs_find_cmake           sets cmake_bin and ctest_bin: the machine's CMake >= 3.25, else a
#                            private copy from PyPI in .deps/cmake
#   tcs_have_cmocka          whether cmocka's headers and CMake package are installed
#   tcs_configure DIR TESTS  configures DIR (TESTS: ON or OFF)
# The caller sets `root` (the checkout) and `tool` (its name, for messages).

tcs_find_nvcc() {
  if ! command -v nvcc >/dev/null; then
    local dir
    for dir in /usr/local/cuda/bin /opt/cuda/bin; do
      if [ -x "$dir/nvcc" ]; then export PATH="$dir:$PATH"; break; fi
    done
  fi
  if ! command -v nvcc >/dev/null; then
    echo "$tool: the CUDA Toolkit (nvcc) was not found: install it (>= 12) and run again" >&2
    exit 1
  fi
}

tcs_cmake_ok() {
  local v
  v=$("$1" --version 2>/dev/null | sed -n 's/^cmake version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
  # shellcheck disable=SC2086  # "major minor" split into $1 and $2 on purpose
  [ -n "$v" ] && set -- $v && { [ "$1" -gt 3 ] || { [ "$1" -eq 3 ] && [ "$2" -ge 25 ]; }; }
}

tcs_find_cmake() {
  cmake_bin=cmake
  ctest_bin=ctest
  if ! tcs_cmake_ok cmake; then
    cmake_bin="$root/.deps/cmake/bin/cmake"
    ctest_bin="$root/.deps/cmake/bin/ctest"
    if ! tcs_cmake_ok "$cmake_bin"; then
      echo "$tool: installing CMake >= 3.25 into .deps/cmake (pip)"
      python3 -m venv "$root/.deps/cmake"
      "$root/.deps/cmake/bin/python" -m pip install --quiet "cmake>=3.25"
    fi
  fi
}

tcs_have_cmocka() {
  [ -f /usr/include/cmocka.h ] || [ -n "$(ls /usr/lib/*/cmake/cmocka/cmocka-config.cmake 2>/dev/null)" ]
}

# The options both commands pass, so that neither undoes the other's: only the tests
# differ (the example needs no cmocka), and turning them on later recompiles nothing
# that was built.
tcs_configure() {
  "$cmake_bin" -S "$root" -B "$1" -DCMAKE_BUILD_TYPE=Release -DTCS_BUILD_EXAMPLES=ON \
    -DTCS_BUILD_TESTS="$2" -DBUILD_TESTING="$2" >/dev/null
}

jobs=$(nproc 2>/dev/null || echo 2)
