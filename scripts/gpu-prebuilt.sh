#!/usr/bin/env bash
# The GPU check for binaries built elsewhere: build on a machine without a GPU, carry the
# binaries to the GPU machine, run them there. Saves the GPU machine the build (minutes
# of a rented GPU) when the two machines share the architecture and the CUDA version.
#
#   scripts/gpu-prebuilt.sh stage [BUILD_DIR]       (here) copies the library, the GPU
#        test programs, the benchmark and the Fortran test into .prebuilt/ (22 MB from
#        a 90-real build)
#   scripts/gpu-prebuilt.sh run [--tests REGEX] [--sanitizers LIST] [--no-bench]
#        [--bench-filter REGEX] [--full-bench]   (GPU machine) runs every staged GPU test,
#        then the listed compute-sanitizer tools on them (quick sizes; default memcheck),
#        the Fortran test and the benchmark, and prints a summary last.
# Matrices: $TCS_MATRIX_DIR, else ../shared/matrices, else .matrices/. Logs and JSON go
# to $OUT (default: gpu-check-out/); with TCS_PACK_OUT=1 they end packed in
# $OUT/logs.tgz beside summary.txt (scripts/pack-out.sh: the device returns 8 files).
# cmocka comes from .deps/ as in gpu-check.sh.
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
stage=$root/.prebuilt

if [ "${1:-}" = stage ]; then
  build=${2:-build}
  rm -rf "$stage" && mkdir -p "$stage/lib" "$stage/bin"
  # The current library under its SONAME (older versions left in the build folder stay).
  for soname in lib/libtcsparse.so.0 shim/libtcsparse_cusparse.so.0; do
    [ -e "$build/$soname" ] || continue
    real=$(readlink -f "$build/$soname")
    cp "$real" "$stage/lib/" && ln -sf "$(basename "$real")" "$stage/lib/$(basename "$soname")"
  done
  for f in "$build"/tests/gpu_* "$build"/tests/tcs_fortran_test "$build"/bench/tcs_bench \
           "$build"/bench/tcs_first_call \
           "$build"/tests/swapin_interleaved "$build"/tests/interleaved_cusparse \
           "$build"/tests/swapin_solver_style "$build"/tests/solver_style_cusparse; do
    case "$f" in *_emulated) continue ;; esac  # CPU emulation, not a GPU program
    [ -f "$f" ] && [ -x "$f" ] && cp "$f" "$stage/bin/"
  done
  # Google Benchmark as this machine's package built it (the GPU machine may lack it).
  if [ -x "$stage/bin/tcs_bench" ]; then
    ldd "$stage/bin/tcs_bench" | awk '/libbenchmark/ {print $3}' | xargs -r cp -L -t "$stage/lib/"
  fi
  # The SASS count here, from the same binary: cuobjdump over the library took 2 minutes
  # of the GPU machine's time.
  if command -v cuobjdump >/dev/null; then
    lib=$(ls "$stage"/lib/libtcsparse.so.*.*.* | head -n 1)
    cuobjdump --dump-sass "$lib" > /tmp/tcs-sass.txt 2>/dev/null
    echo "sass of $(basename "$lib"): $(grep -c -E '\bHMMA' /tmp/tcs-sass.txt) HMMA, $(grep -c -E '\bDMMA' /tmp/tcs-sass.txt) DMMA, $(grep -c -E 'LDL|STL' /tmp/tcs-sass.txt) local-memory accesses (counted when staged)" > "$stage/sass.txt"
    cat "$stage/sass.txt"
  fi
  du -sh "$stage"; ls "$stage/bin"
  exit 0
fi
[ "${1:-}" = run ] || { echo "usage: $0 stage [BUILD_DIR] | run [options]" >&2; exit 2; }
shift

# Options: --tests REGEX (programs to run), --sanitize-tests REGEX (the ones to run under
# compute-sanitizer; default: the same), --sanitizers LIST (default memcheck), --no-bench,
# --bench-filter REGEX (repeatable: one benchmark run and one bench-<i>.json each),
# --full-bench, --limit-tests S / --limit-sanitizer S / --limit-bench S (seconds for each
# phase, the benchmark's shared fairly among its filters; what a phase has not finished
# by then is reported as cut), --sanitizer-jobs N (compute-sanitizer runs at once,
# default 4).
tests_regex="" san_regex="" sanitizers=memcheck bench=1 full_bench=0 bench_filters=()
limit_tests=1200 limit_san=1200 limit_bench=1200 san_jobs=4
while [ $# -gt 0 ]; do
  case "$1" in
    --tests) tests_regex=$2; shift ;;
    --sanitize-tests) san_regex=$2; shift ;;
    --sanitizers) sanitizers=$2; shift ;;
    --no-bench) bench=0 ;;
    --full-bench) full_bench=1 ;;
    --bench-filter) bench_filters+=("$2"); shift ;;
    --limit-tests) limit_tests=$2; shift ;;
    --limit-sanitizer) limit_san=$2; shift ;;
    --limit-bench) limit_bench=$2; shift ;;
    --sanitizer-jobs) san_jobs=$2; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$san_regex" ] || san_regex=$tests_regex

out=${OUT:-$root/gpu-check-out}
mkdir -p "$out"
summary=()
note() { summary+=("$*"); echo "== $*"; }
t0=$(date +%s)
elapsed() { echo $(( $(date +%s) - t0 ))s; }
status=0
# Seconds left of a phase that started at $1 with $2 seconds.
left() { echo $(( $1 + $2 - $(date +%s) )); }

if [ ! -f /usr/include/cmocka.h ] && ls .deps/libcmocka*.deb >/dev/null 2>&1; then
  for f in .deps/libcmocka*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
if [ -z "${TCS_MATRIX_DIR:-}" ]; then
  if [ -d "$root/../shared/matrices" ]; then export TCS_MATRIX_DIR="$root/../shared/matrices"
  else export TCS_MATRIX_DIR="$root/.matrices"; fi
fi
export LD_LIBRARY_PATH="$stage/lib:${LD_LIBRARY_PATH:-}"
note "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -n 1)"
[ -f "$stage/sass.txt" ] && note "$(cat "$stage/sass.txt")"

select_programs() {  # regex -> names of staged gpu_* programs
  for f in "$stage"/bin/gpu_*; do
    local name; name=$(basename "$f")
    [ -n "$1" ] && ! [[ $name =~ $1 ]] && continue
    echo "$name"
  done
}
mapfile -t programs < <(select_programs "$tests_regex")
mapfile -t san_programs < <(select_programs "$san_regex")

# 1. the tests, one at a time (some check device-wide memory); all output in tests.log
: > "$out/tests.log"
passed=0 failed=0 cut=0 start=$(date +%s)
for name in "${programs[@]}"; do
  budget=$(left "$start" "$limit_tests")
  if [ "$budget" -le 5 ]; then cut=$((cut + 1)); echo "   $name: CUT (phase limit)"; continue; fi
  s1=$(date +%s)
  echo "=== $name" >> "$out/tests.log"
  timeout "$budget" "$stage/bin/$name" >> "$out/tests.log" 2>&1 < /dev/null
  rc=$?
  if [ $rc = 0 ]; then passed=$((passed + 1)); r=passed
  else failed=$((failed + 1)); status=1; r="FAILED (exit $rc)"; fi
  echo "   $name: $r ($(( $(date +%s) - s1 ))s)"
  [ $rc = 0 ] || grep -E "FAILED|Failure|error|Error|\[  ERROR|failed" "$out/tests.log" | tail -n 8
done
note "tests: $passed passed, $failed failed, $cut cut of ${#programs[@]} ($(elapsed))"

# 2. compute-sanitizer, quick sizes, $san_jobs runs at a time (scripts/sanitize.sh)
if [ -n "$sanitizers" ] && command -v compute-sanitizer >/dev/null; then
  san_out=$(for name in "${san_programs[@]}"; do printf '%s\t%s\n' "$name" "$stage/bin/$name"; done |
            scripts/sanitize.sh "$sanitizers" "$san_jobs" "$limit_san" "$out") || status=1
  printf '%s\n' "$san_out" | grep -v '^== '
  while IFS= read -r line; do note "${line#== }"; done < <(printf '%s\n' "$san_out" | grep '^== ')
fi

# 3. the cuSPARSE swap-in: programs written against cuSPARSE, linked to the shim, run
#    with the shim preloaded, and compared with plain cuSPARSE's results
shim=$(ls "$stage"/lib/libtcsparse_cusparse.so.*.*.* 2>/dev/null | head -n 1)
if [ -n "$shim" ] && [ -x "$stage/bin/interleaved_cusparse" ]; then
  ok=0 bad=0
  : > "$out/swapin.log"; : > /tmp/swapin-one.log
  run_one() {  # name, then the command
    local name=$1; shift
    echo "=== $name" >> "$out/swapin.log"
    if timeout 60 "$@" >> /tmp/swapin-one.log 2>&1 < /dev/null; then ok=$((ok + 1)); echo "   $name: passed"
    else bad=$((bad + 1)); status=1; echo "   $name: FAILED"; tail -n 15 /tmp/swapin-one.log; fi
    cat /tmp/swapin-one.log >> "$out/swapin.log"; : > /tmp/swapin-one.log
  }
  run_one swapin_interleaved "$stage/bin/swapin_interleaved"
  run_one interleaved_cusparse "$stage/bin/interleaved_cusparse"
  run_one interleaved_preload sh tests/swapin/run_preloaded.sh "$shim" "$stage/bin/interleaved_cusparse"
  run_one interleaved_same_results sh tests/swapin/compare_runs.sh "$shim" "$stage/bin/interleaved_cusparse" python3
  [ -x "$stage/bin/swapin_solver_style" ] && run_one swapin_solver_style "$stage/bin/swapin_solver_style"
  [ -x "$stage/bin/solver_style_cusparse" ] && run_one solver_style_preload sh tests/swapin/run_preloaded.sh "$shim" "$stage/bin/solver_style_cusparse"
  if [[ " ${sanitizers//,/ } " == *" memcheck "* ]] && command -v compute-sanitizer >/dev/null; then
    run_one interleaved_memcheck env TCS_TEST_QUICK=1 compute-sanitizer --tool memcheck --error-exitcode 99 \
      "$stage/bin/swapin_interleaved"
  fi
  note "swap-in: $ok passed, $bad failed ($(elapsed))"
fi

# 3b. the first call's cost (module loading) beside later calls', both libraries
if [ -x "$stage/bin/tcs_first_call" ]; then
  if timeout 120 "$stage/bin/tcs_first_call" > "$out/first_call.txt" 2>&1; then
    while IFS= read -r line; do note "first call: $line"; done < "$out/first_call.txt"
  else note "first call: FAILED"; status=1; tail -n 5 "$out/first_call.txt"; fi
fi

# 4. Fortran
if [ -x "$stage/bin/tcs_fortran_test" ]; then
  if timeout 120 "$stage/bin/tcs_fortran_test" > /tmp/fortran.log 2>&1; then note "fortran test: passed"
  else note "fortran test: FAILED"; status=1; tail -n 10 /tmp/fortran.log; fi
fi

# 5. benchmark: one run per filter (bench-<i>.json), within the phase's limit
if [ "$bench" = 1 ] && [ -x "$stage/bin/tcs_bench" ]; then
  start=$(date +%s)
  [ ${#bench_filters[@]} -gt 0 ] || bench_filters=("")
  i=0
  for filter in "${bench_filters[@]}"; do
    i=$((i + 1))
    # A fair share of what is left, so that a slow filter cannot starve the later ones.
    budget=$(( $(left "$start" "$limit_bench") / (${#bench_filters[@]} - i + 1) ))
    if [ "$budget" -le 5 ]; then note "bench $i: CUT (phase limit)"; continue; fi
    bargs=(--benchmark_out="$out/bench-$i.json" --benchmark_out_format=json)
    [ -n "$filter" ] && bargs+=(--benchmark_filter="$filter")
    if [ "$full_bench" = 1 ] || [ -n "$filter" ]; then
      timeout "$budget" "$stage/bin/tcs_bench" "${bargs[@]}" > /tmp/bench.log 2>&1; rc=$?
    else
      TCS_BENCH_QUICK=1 timeout "$budget" "$stage/bin/tcs_bench" "${bargs[@]}" > /tmp/bench.log 2>&1; rc=$?
    fi
    [ $rc = 0 ] || { status=1; note "bench $i: exit $rc (124: cut by the phase limit)"; tail -n 5 /tmp/bench.log; }
    if [ -s "$out/bench-$i.json" ] && python3 scripts/perf_report.py "$out/bench-$i.json" --out /tmp/tcs-perf-$i > /tmp/perf.log 2>&1; then
      note "bench $i: done ($(elapsed))"
      grep -E "geomean|Geomean|GEOMEAN" /tmp/perf.log | head -n 16
    fi
  done
fi

echo
echo "================ gpu-prebuilt summary ================"
printf '%s\n' "${summary[@]}"
echo "total time: $(elapsed); status: $([ $status = 0 ] && echo PASS || echo FAIL)"
{ printf '%s\n' "${summary[@]}"; echo "status: $([ $status = 0 ] && echo PASS || echo FAIL)"; } > "$out/summary.txt"
scripts/pack-out.sh "$out" summary.txt
exit $status
