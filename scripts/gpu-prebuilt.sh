#!/usr/bin/env bash
# The GPU check for binaries built elsewhere: build on a machine without a GPU, carry the
# binaries to the GPU machine, run them there. Saves the GPU machine the build (minutes
# of a rented GPU) when the two machines share the architecture and the CUDA version.
#
#   scripts/gpu-prebuilt.sh stage [BUILD_DIR]       (here) copies the library, the GPU
#        test programs, the benchmark and the Fortran test into .prebuilt/ (~45 MB)
#   scripts/gpu-prebuilt.sh run [--tests REGEX] [--sanitizers LIST] [--no-bench]
#        [--bench-filter REGEX] [--full-bench]   (GPU machine) runs every staged GPU test,
#        then the listed compute-sanitizer tools on them (quick sizes; default memcheck),
#        the Fortran test and the benchmark, and prints a summary last.
# Matrices: $TCS_MATRIX_DIR, else ../shared/matrices, else .matrices/. Logs and JSON go
# to $OUT (default: gpu-check-out/). cmocka comes from .deps/ as in gpu-check.sh.
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
stage=$root/.prebuilt

if [ "${1:-}" = stage ]; then
  build=${2:-build}
  rm -rf "$stage" && mkdir -p "$stage/lib" "$stage/bin"
  cp -P "$build"/lib/libtcsparse.so* "$stage/lib/"
  cp -P "$build"/shim/lib*.so* "$stage/lib/" 2>/dev/null || true
  for f in "$build"/tests/gpu_* "$build"/tests/tcs_fortran_test "$build"/bench/tcs_bench \
           "$build"/tests/swapin_interleaved "$build"/tests/interleaved_cusparse \
           "$build"/tests/swapin_solver_style "$build"/tests/solver_style_cusparse; do
    [ -f "$f" ] && [ -x "$f" ] && cp "$f" "$stage/bin/"
  done
  du -sh "$stage"; ls "$stage/bin"
  exit 0
fi
[ "${1:-}" = run ] || { echo "usage: $0 stage [BUILD_DIR] | run [options]" >&2; exit 2; }
shift

tests_regex="" sanitizers=memcheck bench=1 full_bench=0 bench_filter=""
while [ $# -gt 0 ]; do
  case "$1" in
    --tests) tests_regex=$2; shift ;;
    --sanitizers) sanitizers=$2; shift ;;
    --no-bench) bench=0 ;;
    --full-bench) full_bench=1 ;;
    --bench-filter) bench_filter=$2; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

out=${OUT:-$root/gpu-check-out}
mkdir -p "$out"
summary=()
note() { summary+=("$*"); echo "== $*"; }
t0=$(date +%s)
elapsed() { echo $(( $(date +%s) - t0 ))s; }
status=0

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
if command -v cuobjdump >/dev/null; then
  cuobjdump --dump-sass "$stage"/lib/libtcsparse.so.*.*.* > /tmp/tcs-sass.txt 2>/dev/null
  note "sass: $(grep -c -E '\bHMMA' /tmp/tcs-sass.txt) HMMA, $(grep -c -E '\bDMMA' /tmp/tcs-sass.txt) DMMA, $(grep -c -E 'LDL|STL' /tmp/tcs-sass.txt) local-memory accesses"
fi

programs=()
for f in "$stage"/bin/gpu_*; do
  name=$(basename "$f")
  [ -n "$tests_regex" ] && ! [[ $name =~ $tests_regex ]] && continue
  programs+=("$name")
done

# 1. the tests, one at a time (some check device-wide memory)
passed=0 failed=0
for name in "${programs[@]}"; do
  start=$(date +%s)
  "$stage/bin/$name" > "$out/$name.log" 2>&1 < /dev/null
  rc=$?
  if [ $rc = 0 ]; then passed=$((passed + 1)); r=passed
  else failed=$((failed + 1)); status=1; r="FAILED (exit $rc)"; tail -n 25 "$out/$name.log"; fi
  echo "   $name: $r ($(( $(date +%s) - start ))s)"
done
note "tests: $passed passed, $failed failed of ${#programs[@]} ($(elapsed))"

# 2. compute-sanitizer, quick sizes
if [ -n "$sanitizers" ] && command -v compute-sanitizer >/dev/null; then
  : > "$out/sanitizer.log"
  for tool in ${sanitizers//,/ }; do
    bad=0
    extra=(); [ "$tool" = racecheck ] && extra=(--racecheck-report all)
    for name in "${programs[@]}"; do
      [ "$name" = gpu_stress ] && [ "$tool" != memcheck ] && continue  # threads x 30 s
      echo "=== $tool $name" >> "$out/sanitizer.log"
      if ! TCS_TEST_QUICK=1 compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 99 \
           --print-limit 20 "$stage/bin/$name" < /dev/null > "$out/san-one.log" 2>&1; then
        bad=$((bad + 1)); status=1
        echo "-- $tool: $name"
        grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Invalid|out of bounds|Uninitialized|hazard|FAILED|Barrier" \
          "$out/san-one.log" | head -n 12
      fi
      grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/san-one.log" | sed "s/^/   [$name] /" >> "$out/sanitizer.log"
    done
    note "compute-sanitizer $tool: ${#programs[@]} programs, $bad with errors ($(elapsed))"
  done
  rm -f "$out/san-one.log"
fi

# 3. the cuSPARSE swap-in: programs written against cuSPARSE, linked to the shim, run
#    with the shim preloaded, and compared with plain cuSPARSE's results
shim=$(ls "$stage"/lib/libtcsparse_cusparse.so.*.*.* 2>/dev/null | head -n 1)
if [ -n "$shim" ] && [ -x "$stage/bin/interleaved_cusparse" ]; then
  ok=0 bad=0
  run_one() {  # name, then the command
    local name=$1; shift
    if "$@" > "$out/$name.log" 2>&1 < /dev/null; then ok=$((ok + 1)); echo "   $name: passed"
    else bad=$((bad + 1)); status=1; echo "   $name: FAILED"; tail -n 15 "$out/$name.log"; fi
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

# 4. Fortran
if [ -x "$stage/bin/tcs_fortran_test" ]; then
  if "$stage/bin/tcs_fortran_test" > "$out/fortran.log" 2>&1; then note "fortran test: passed"
  else note "fortran test: FAILED"; status=1; tail -n 10 "$out/fortran.log"; fi
fi

# 5. benchmark
if [ "$bench" = 1 ] && [ -x "$stage/bin/tcs_bench" ]; then
  bargs=(--benchmark_out="$out/bench.json" --benchmark_out_format=json)
  [ -n "$bench_filter" ] && bargs+=(--benchmark_filter="$bench_filter")
  if [ "$full_bench" = 1 ] || [ -n "$bench_filter" ]; then
    "$stage/bin/tcs_bench" "${bargs[@]}" > "$out/bench.log" 2>&1 || status=1
  else
    TCS_BENCH_QUICK=1 "$stage/bin/tcs_bench" "${bargs[@]}" > "$out/bench.log" 2>&1 || status=1
  fi
  if python3 scripts/perf_report.py "$out/bench.json" --out /tmp/tcs-perf > "$out/perf.log" 2>&1; then
    note "bench: done ($(elapsed))"
    grep -E "geomean|Geomean|GEOMEAN" "$out/perf.log" | head -n 16
  else
    note "bench: report FAILED"; tail -n 20 "$out/perf.log"
  fi
fi

echo
echo "================ gpu-prebuilt summary ================"
printf '%s\n' "${summary[@]}"
echo "total time: $(elapsed); status: $([ $status = 0 ] && echo PASS || echo FAIL)"
exit $status
