#!/usr/bin/env bash
# One device run for SpGEMM at scale (issue 27): the steps named on the command line,
# each with its own time limit, logs and JSON under $OUT, a short summary printed last.
#
#   scripts/spgemm-scale-run.sh STEP...
#     test-large      tests/gpu_spgemm_large: 2^31 products (32-bit, 64-bit and budgeted C
#                     bitwise equal) and nnz(C) >= 2^31 (64-bit C), sized from free memory
#     test-hash       tests/gpu_spgemm_hash (the budget cases included), full sizes
#     test-reuse      tests/gpu_spgemm_reuse
#     test-tiles      tests/gpu_spgemm_tiles, quick sizes
#     test-api        tests/api_arguments (its SpGEMM checks need a GPU handle)
#     memcheck-hash   gpu_spgemm_hash, quick sizes, under compute-sanitizer memcheck
#     bench-scale     tcs_bench's spgemm_scale family (TCS_SCALE_FILTER: a regex over
#                     the names after "spgemm_scale/", default every type and size)
#
# Runs binaries built elsewhere for sm_90 and carried: TCS_SCALE_BIN=DIR holds tests/
# and bench/ (default build-gpu); LD_LIBRARY_PATH must find libtcsparse and
# libbenchmark. From the repository root, with .deps/ (cmocka) carried. TCS_SCALE_LIMIT
# caps each step's seconds (default 300).
set -u
out=${OUT:-/tmp/out}
mkdir -p "$out"
t0=$(date +%s)
stamp() { echo "== $* ($(( $(date +%s) - t0 ))s)" | tee -a "$out/summary.txt"; }
if [ ! -f /usr/include/cmocka.h ] && ! ldconfig -p | grep -q libcmocka; then
  for f in .deps/libcmocka*.deb; do dpkg -x "$f" /; done; ldconfig
fi
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader >> "$out/summary.txt" 2>&1
b=${TCS_SCALE_BIN:-build-gpu}
lim=${TCS_SCALE_LIMIT:-300}
export TCS_LOG_LEVEL=${TCS_LOG_LEVEL:-1}
for step in "$@"; do
  case $step in
  test-large|test-hash|test-reuse|test-tiles|test-api)
    t=gpu_spgemm_${step#test-}; quick=0; [ $step = test-tiles ] && quick=1; [ $step = test-api ] && t=api_arguments
    TCS_TEST_QUICK=$quick timeout $lim $b/tests/$t > "$out/$step.log" 2>&1
    stamp "$step: exit $? $(grep -E '\[  PASSED|\[  FAILED|\[  SKIPPED' "$out/$step.log" | tr '\n' ' ' | cut -c1-200)" ;;
  memcheck-hash)
    TCS_TEST_QUICK=1 timeout $lim compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 10 \
      $b/tests/gpu_spgemm_hash > "$out/$step.log" 2>&1
    stamp "$step: exit $? $(grep -E 'ERROR SUMMARY' "$out/$step.log" | tail -n 1)" ;;
  bench-scale)
    stdbuf -oL timeout $lim $b/bench/tcs_bench --benchmark_filter="^spgemm_scale/(${TCS_SCALE_FILTER:-.*})" \
      --benchmark_out="$out/scale-$t0-$RANDOM.json" --benchmark_out_format=json >> "$out/bench-scale.log" 2>&1
    stamp "bench-scale ${TCS_SCALE_FILTER:-}: exit $?"
    grep -E '^spgemm_scale' "$out/bench-scale.log" | sed -E 's/ +/ /g' | cut -c1-240 | tail -n 40 >> "$out/summary.txt" ;;
  *) stamp "unknown step $step" ;;
  esac
done
cat "$out/summary.txt"
