#!/usr/bin/env bash
# Builds tcsparse and runs every test. On a machine without a GPU the GPU tests
# (ctest label "gpu") report "Skipped"; on a GPU machine they run.
# Installs what a fresh Debian/Ubuntu machine lacks (cmocka) when run as root.
# Usage: scripts/run-tests.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}

if [ ! -f /usr/include/cmocka.h ] && [ -z "$(ls /usr/lib/*/cmake/cmocka/cmocka-config.cmake 2>/dev/null)" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libcmocka-dev >/dev/null
  else
    echo "cmocka is missing: install libcmocka-dev (Debian/Ubuntu) and run again" >&2
    exit 1
  fi
fi

jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j "$jobs"

# A run that discovers no test is a failure, not a pass.
count=$(ctest --test-dir "$build" -N | sed -n 's/^Total Tests: //p')
if [ "${count:-0}" -eq 0 ]; then
  echo "no tests were found" >&2
  exit 1
fi
# The `emulation` label (a GPU test run whole on the CPU's SIMT emulation) takes tens of
# minutes: `ctest -L emulation` runs it on purpose.
ctest --test-dir "$build" --output-on-failure -j "$jobs" -LE emulation
