#!/bin/sh
# Runs an UNMODIFIED cuSPARSE program with libtcsparse_cusparse.so preloaded and
# checks that it succeeded AND that tcsparse did the work: with TCS_LOG_LEVEL=2
# tcsparse traces every call on stderr, so the trace must name each expected function.
#
# usage: run_preloaded.sh SHIM PROGRAM [EXPECTED_TRACE...]
# Exit status: the program's (77 = skipped, no GPU), or 1 when a trace line is missing.
set -u
if [ $# -lt 2 ]; then
  echo "usage: $0 SHIM PROGRAM [EXPECTED_TRACE...]" >&2
  exit 2
fi
shim=$1
program=$2
shift 2

log=$(mktemp "${TMPDIR:-/tmp}/tcs_preload.XXXXXX") || exit 1
trap 'rm -f "$log"' EXIT

LD_PRELOAD="$shim${LD_PRELOAD:+:$LD_PRELOAD}" TCS_LOG_LEVEL=2 "$program" 2> "$log"
status=$?
if [ "$status" -ne 0 ]; then
  # 77: no GPU; anything else: the program failed. Show why either way.
  grep -v '^tcsparse: tcs' "$log" >&2
  exit "$status"
fi
for expected in "$@"; do
  if ! grep -q "^tcsparse: $expected\$" "$log"; then
    echo "run_preloaded: the program succeeded but tcsparse never traced $expected:" \
         "the calls did not reach tcsparse" >&2
    exit 1
  fi
done
echo "run_preloaded: $(grep -c '^tcsparse: tcs' "$log") calls traced by tcsparse, including: $*"
exit 0
