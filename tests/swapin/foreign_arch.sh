#!/bin/sh
# A GPU this build of tcsparse has no code for (issue 38, item 13): an UNMODIFIED cuSPARSE
# program with the shim preloaded must still run, every product forwarded to the real
# cuSPARSE from its first call on, with the program's own checks against the CPU
# reference passing. The library under test is one built for another architecture than
# the GPU's (scripts/foreign-arch-check.sh builds it for sm_80 and runs this on an sm_90
# GPU), found through TCS_FOREIGN_ARCH_LIBDIR: LD_LIBRARY_PATH comes before the shim's
# RUNPATH, so the shim loads that libtcsparse.so.0.
#
# usage: foreign_arch.sh SHIM PROGRAM
# Exit status: 0 passed; 77 skipped (no such library given, or no GPU); 1 failed.
set -u
[ $# -eq 2 ] || { echo "usage: $0 SHIM PROGRAM" >&2; exit 2; }
shim=$1
program=$2
dir=${TCS_FOREIGN_ARCH_LIBDIR:-}
if [ -z "$dir" ]; then
  echo "foreign_arch: skipped: TCS_FOREIGN_ARCH_LIBDIR names no folder holding a" \
       "libtcsparse.so.0 built for another architecture (scripts/foreign-arch-check.sh)"
  exit 77
fi
[ -e "$dir/libtcsparse.so.0" ] || { echo "foreign_arch: no $dir/libtcsparse.so.0" >&2; exit 1; }

log=$(mktemp "${TMPDIR:-/tmp}/tcs_foreign.XXXXXX") || exit 1
trap 'rm -f "$log"' EXIT
LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  LD_PRELOAD="$shim${LD_PRELOAD:+:$LD_PRELOAD}" TCS_LOG_LEVEL=2 "$program" 2> "$log"
status=$?
if [ "$status" -ne 0 ]; then
  grep -v '^tcsparse: tcs[A-Za-z_]*$' "$log" >&2
  exit "$status"
fi
# The library loaded is the foreign one: tcsparse said why it would not run.
if ! grep -q "no code for the GPU's architecture" "$log"; then
  echo "foreign_arch: tcsparse never answered ARCH_MISMATCH: is $dir/libtcsparse.so.0 built" \
       "for this GPU's architecture, or not the one loaded?" >&2
  exit 1
fi
failed=0
for call in cusparseSpGEMM_workEstimation cusparseSpGEMM_compute cusparseSpGEMM_copy \
            cusparseSpMM_bufferSize cusparseSpMM; do
  if ! grep -q "^tcsparse: $call -> cuSPARSE\$" "$log"; then
    echo "foreign_arch: $call was not forwarded to cuSPARSE" >&2
    failed=1
  fi
done
[ $failed -eq 0 ] || { grep -v '^tcsparse: tcs[A-Za-z_]*$' "$log" | head -n 40 >&2; exit 1; }
echo "foreign_arch: the program passed with every product on cuSPARSE" \
     "($(grep -c -- '-> cuSPARSE$' "$log") calls forwarded)"
