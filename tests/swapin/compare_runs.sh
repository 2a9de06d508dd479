#!/bin/sh
# Runs an UNMODIFIED cuSPARSE program twice, plainly and with libtcsparse_cusparse.so
# preloaded, each writing its results to a dump (TCS_SWAPIN_DUMP), and compares the two
# with compare_dumps.py: what the real cuSPARSE computes in both runs must agree
# bitwise, what tcsparse accelerates within 1e-10 of the plain run's values.
#
# usage: compare_runs.sh SHIM PROGRAM PYTHON
# Exit status: 0 equal, 1 different or failed, 77 skipped (no GPU).
set -u
if [ $# -ne 3 ]; then
  echo "usage: $0 SHIM PROGRAM PYTHON" >&2
  exit 2
fi
shim=$1 program=$2 python=$3
here=$(dirname "$0")
work=$(mktemp -d "${TMPDIR:-/tmp}/tcs_compare.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

TCS_SWAPIN_DUMP="$work/plain.txt" "$program"
status=$?
[ "$status" -eq 0 ] || exit "$status"
LD_PRELOAD="$shim${LD_PRELOAD:+:$LD_PRELOAD}" TCS_SWAPIN_DUMP="$work/shim.txt" "$program"
status=$?
[ "$status" -eq 0 ] || exit "$status"
exec "$python" "$here/compare_dumps.py" "$work/plain.txt" "$work/shim.txt"
