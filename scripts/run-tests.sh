#!/usr/bin/env bash
# Builds tcsparse and its tests into build/ (the folder scripts/run-example.sh uses, so
# what it compiled is reused) and runs every test CI runs. On a machine without a GPU
# the GPU tests (ctest label "gpu") report "Skipped"; on a GPU machine they run.
# Installs what a fresh Debian/Ubuntu machine lacks (cmocka) when run as root; CMake
# >= 3.25 comes from PyPI into .deps/ when the machine's is missing or older.
# Usage: scripts/run-tests.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
tool=run-tests
build=${1:-build}

. "$root/scripts/build-env.sh"
if ! tcs_have_cmocka; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libcmocka-dev >/dev/null
  else
    echo "cmocka is missing: install libcmocka-dev (Debian/Ubuntu) and run again" >&2
    exit 1
  fi
fi
tcs_find_nvcc
tcs_find_cmake
tcs_configure "$build" ON
# `all` holds only what a test of this run starts (gpu_spgemm_tiles_emulated, which
# only `ctest -L emulation` runs, is built by that label's own fixture).
"$cmake_bin" --build "$build" -j "$jobs"

# A run that discovers no test is a failure, not a pass.
count=$("$ctest_bin" --test-dir "$build" -N | sed -n 's/^Total Tests: //p')
if [ "${count:-0}" -eq 0 ]; then
  echo "no tests were found" >&2
  exit 1
fi
# The `emulation` label (a GPU test run whole on the CPU's SIMT emulation, with its own
# build of the C layer and SpGEMM, and the full sweep of tiles_emulation, whose quick
# half runs here) takes minutes more: `ctest -L emulation` runs it on purpose, as
# scripts/gpu-check.sh does.
"$ctest_bin" --test-dir "$build" --output-on-failure -j "$jobs" -LE emulation
