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
# shellcheck disable=SC2046  # pkg-config's output is meant to be split into words
"${CC:-cc}" -std=c99 -Wall -Wextra -Werror -o "$work/consumer" "$here/../consumer.c" \
  $(pkg-config --cflags tcsparse) $(pkg-config --libs tcsparse) -ldl

# -ltcsparse links by SONAME; the loader finds it where pkg-config says it is.
LD_LIBRARY_PATH="$(pkg-config --variable=libdir tcsparse)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  "$work/consumer" "$prefix"
