#!/bin/sh
# Builds the C consumer against an installed tcsparse with nothing but a C compiler
# and pkg-config, as a Makefile would, then runs it:
#   build.sh <prefix> <work folder>        (CC picks the compiler, default cc)
set -eu
prefix=$1
work=$2
here=$(cd "$(dirname "$0")" && pwd)

pc=$(find "$prefix" -name tcsparse.pc | head -n 1)
[ -n "$pc" ] || { echo "no tcsparse.pc under $prefix" >&2; exit 1; }
PKG_CONFIG_PATH=$(dirname "$pc")
export PKG_CONFIG_PATH
pkg-config --exists --print-errors "tcsparse >= 0"
echo "cflags: $(pkg-config --cflags tcsparse)"
echo "libs: $(pkg-config --libs tcsparse)"

mkdir -p "$work"
# What the README promises: `cc app.c $(pkg-config --cflags --libs tcsparse)` and nothing
# else, in an environment that adds no include folder of its own (tcsparse.h includes
# the CUDA toolkit's <library_types.h>, which pkg-config's cflags must name).
(
  unset CPATH C_INCLUDE_PATH CPLUS_INCLUDE_PATH
  cuda_dir=""
  for flag in $(pkg-config --cflags tcsparse); do
    case "$flag" in -I*) [ -f "${flag#-I}/library_types.h" ] && cuda_dir=${flag#-I} ;; esac
  done
  [ -n "$cuda_dir" ] || { echo "pkg-config --cflags tcsparse names no folder holding library_types.h" >&2; exit 1; }
  echo "CUDA include folder from pkg-config: $cuda_dir"
  printf '#include <tcsparse.h>\nint main(void) { int v = 0; return tcsGetVersion(NULL, &v) == TCS_STATUS_SUCCESS && v == TCS_VERSION ? 0 : 1; }\n' \
    > "$work/plain.c"
  # shellcheck disable=SC2046
  "${CC:-cc}" "$work/plain.c" $(pkg-config --cflags --libs tcsparse) -o "$work/plain"
  LD_LIBRARY_PATH="$(pkg-config --variable=libdir tcsparse)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$work/plain"
  echo "plain consumer: built with pkg-config's flags alone, and ran"
)
# shellcheck disable=SC2046  # pkg-config's output is meant to be split into words
"${CC:-cc}" -std=c99 -Wall -Wextra -Werror -o "$work/consumer" "$here/../consumer.c" \
  $(pkg-config --cflags tcsparse) $(pkg-config --libs tcsparse) -ldl

# -ltcsparse links by SONAME; the loader finds it where pkg-config says it is.
LD_LIBRARY_PATH="$(pkg-config --variable=libdir tcsparse)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  "$work/consumer" "$prefix"
