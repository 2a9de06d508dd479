#!/usr/bin/env bash
# The whole GPU check in one command, on a machine with an NVIDIA GPU and nothing
# installed beyond the CUDA toolkit, CMake and Google Benchmark:
#   1. unpacks cmocka from the .deb files in .deps/ when the machine lacks it
#      (fetch them once elsewhere with: apt-get download libcmocka0 libcmocka-dev)
#   2. configures and builds for sm_90
#   3. runs every ctest test, the "gpu" label included, and fails if a GPU test skipped
#   4. runs the GPU tests again under compute-sanitizer (quick sizes): memcheck,
#      racecheck, initcheck and synccheck, each reported on its own
#   5. runs a prebuilt Fortran test from .fortran/ if present (the GPU machine may
#      have libgfortran but no gfortran)
#   6. runs the quick benchmark against cuSPARSE and writes docs/perf-style reports
# and prints a short summary last. Logs and JSON go to $OUT (default: gpu-check-out/).
#
# Usage: scripts/gpu-check.sh [--skip-build] [--no-sanitizer] [--sanitizers LIST] [--no-bench]
#                             [--sanitizer-jobs N] [--limit-sanitizer S]
#                             [--full-bench] [--sweep] [--tests REGEX] [--bench-filter REGEX]
#   --sanitizers: comma-separated compute-sanitizer tools (default
#                 memcheck,racecheck,initcheck,synccheck)
#   --sanitizer-jobs N: runs at once (default 4); --limit-sanitizer S: seconds for the
#                 whole sanitizer phase (default 1800), what it has not run reported cut
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
out=${OUT:-$root/gpu-check-out}
mkdir -p "$out"
build=${TCS_GPU_BUILD:-build-gpu}

skip_build=0 sanitizer=1 bench=1 full_bench=0 sweep=0 tests_regex="" bench_filter=""
san_jobs=4 san_limit=1800
sanitizers=memcheck,racecheck,initcheck,synccheck
while [ $# -gt 0 ]; do
  case "$1" in
    --skip-build) skip_build=1 ;;
    --no-sanitizer) sanitizer=0 ;;
    --sanitizers) sanitizers=$2; shift ;;
    --sanitizer-jobs) san_jobs=$2; shift ;;
    --limit-sanitizer) san_limit=$2; shift ;;
    --no-bench) bench=0 ;;
    --full-bench) full_bench=1 ;;
    --sweep) sweep=1 ;;
    --tests) tests_regex=$2; shift ;;
    --bench-filter) bench_filter=$2; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

summary=()
note() { summary+=("$*"); echo "== $*"; }
t0=$(date +%s)
elapsed() { echo $(( $(date +%s) - t0 ))s; }

# 1. cmocka
if [ ! -f /usr/include/cmocka.h ]; then
  if ls .deps/libcmocka*.deb >/dev/null 2>&1; then
    for f in .deps/libcmocka*.deb; do dpkg -x "$f" /; done
    ldconfig
    note "cmocka: unpacked from .deps"
  else
    note "cmocka: MISSING (no .deps/libcmocka*.deb)"
  fi
fi

# Matrices: ../shared/matrices beside the checkout, else the carried copy .matrices/.
if [ -z "${TCS_MATRIX_DIR:-}" ]; then
  if [ -d "$root/../shared/matrices" ]; then export TCS_MATRIX_DIR="$root/../shared/matrices"
  else export TCS_MATRIX_DIR="$root/.matrices"; fi
fi

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv,noheader \
  > "$out/gpu.txt" 2>&1 || true
note "device: $(head -n 1 "$out/gpu.txt")"

# 2. configure and build
if [ "$skip_build" = 0 ]; then
  gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
  if ! cmake -S . -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
       -DCMAKE_CUDA_ARCHITECTURES=90 -DTCS_MATRIX_DIR="$TCS_MATRIX_DIR" > "$out/configure.log" 2>&1; then
    tail -n 40 "$out/configure.log"; note "configure: FAILED"; printf '%s\n' "${summary[@]}"; exit 1
  fi
  if ! cmake --build "$build" -j "$(nproc)" > "$out/build.log" 2>&1; then
    grep -E "error|Error" "$out/build.log" | head -n 40; note "build: FAILED"
    printf '%s\n' "${summary[@]}"; exit 1
  fi
  note "build: ok ($(elapsed))"
  rm -f "$out/configure.log" "$out/build.log"  # kept only when they explain a failure
fi

# The tensor-core and other kernels: which matrix instructions ended up in the SASS.
if command -v cuobjdump >/dev/null; then
  cuobjdump --dump-sass "$build"/lib/libtcsparse.so 2>/dev/null > /tmp/tcs-sass.txt
  note "sass: $(grep -c -E '\bHMMA|\bDMMA' /tmp/tcs-sass.txt) HMMA/DMMA, $(grep -c -E 'LDL|STL' /tmp/tcs-sass.txt) local-memory accesses, $(wc -l < /tmp/tcs-sass.txt) lines"
fi

# 3. every test
status=0
ctest_args=(--test-dir "$build" --output-on-failure -j 4 --timeout 900)
[ -n "$tests_regex" ] && ctest_args+=(-R "$tests_regex")
ctest "${ctest_args[@]}" > "$out/ctest.log" 2>&1 || status=1
grep -E "tests passed|tests failed|\*\*\*Failed|Not Run|\(Failed\)|\(Skipped\)|Exception|Timeout" "$out/ctest.log" | tail -n 30
total_line=$(grep -E "tests passed" "$out/ctest.log" | tail -n 1)
gpu_skipped=$(ctest --test-dir "$build" -N -L gpu | sed -n 's/^Total Tests: //p')
skipped_list=$(sed -n '/The following tests did not run/,/^$/p' "$out/ctest.log" | grep -c Skipped || true)
note "ctest: ${total_line:-no summary} (gpu-labelled: $gpu_skipped, skipped: $skipped_list)"
[ "$skipped_list" = 0 ] || { note "ctest: GPU tests SKIPPED on a GPU machine"; status=1; }

# 4. compute-sanitizer on the GPU tests, with the tests' quick sizes (scripts/sanitize.sh)
if [ "$sanitizer" = 1 ] && command -v compute-sanitizer >/dev/null; then
  ctest --test-dir "$build" -N -L gpu --show-only=json-v1 > "$out/gputests.json" 2>/dev/null
  python3 - "$out/gputests.json" "$tests_regex" > "$out/gputests.txt" <<'PY'
import json, re, sys, shlex
tests = json.load(open(sys.argv[1]))["tests"]
rx = re.compile(sys.argv[2]) if sys.argv[2] else None
for t in tests:
    if rx and not rx.search(t["name"]):
        continue
    cmd = t.get("command") or []
    # only compiled test programs: scripts (cmake -P, python, sh) run without sanitizer
    exe = cmd[0].rsplit("/", 1)[-1] if cmd else ""
    if exe in ("cmake", "sh", "bash", "env") or exe.startswith("python"):
        continue
    print(t["name"] + "\t" + " ".join(shlex.quote(c) for c in cmd))
PY
  san_out=$(scripts/sanitize.sh "$sanitizers" "$san_jobs" "$san_limit" "$out" < "$out/gputests.txt") || status=1
  printf '%s\n' "$san_out" | grep -v '^== '
  while IFS= read -r line; do note "${line#== }"; done < <(printf '%s\n' "$san_out" | grep '^== ')
fi

# 5. Fortran test built elsewhere (no gfortran here)
if [ -x .fortran/tcs_fortran_test ]; then
  if LD_LIBRARY_PATH="$(cd "$build" && pwd)/lib:${LD_LIBRARY_PATH:-}" .fortran/tcs_fortran_test > "$out/fortran.log" 2>&1; then
    note "fortran test: passed"
  else
    note "fortran test: FAILED (exit $?)"; tail -n 20 "$out/fortran.log"; status=1
  fi
fi

# 6. benchmark against cuSPARSE
if [ "$bench" = 1 ] && [ -x "$build/bench/tcs_bench" ]; then
  bargs=(--benchmark_out="$out/bench.json" --benchmark_out_format=json)
  if [ -n "$bench_filter" ]; then bargs+=(--benchmark_filter="$bench_filter")
  elif [ "$sweep" = 1 ]; then bargs+=(--benchmark_filter='spmm_sweep')
  fi
  if [ "$full_bench" = 1 ] || [ "$sweep" = 1 ] || [ -n "$bench_filter" ]; then
    "$build/bench/tcs_bench" "${bargs[@]}" > "$out/bench.log" 2>&1 || status=1
  else
    TCS_BENCH_QUICK=1 "$build/bench/tcs_bench" "${bargs[@]}" > "$out/bench.log" 2>&1 || status=1
  fi
  # The tables and plots are rebuilt from bench.json wherever it is fetched to;
  # here only the geometric means are printed.
  if python3 scripts/perf_report.py "$out/bench.json" --out /tmp/tcs-perf > "$out/perf.log" 2>&1; then
    note "bench: done ($(elapsed))"
    grep -E "geomean|Geomean|GEOMEAN" "$out/perf.log" | head -n 12
  else
    note "bench: report FAILED"; tail -n 20 "$out/perf.log"
  fi
fi

echo
echo "================ gpu-check summary ================"
printf '%s\n' "${summary[@]}"
echo "total time: $(elapsed); status: $([ $status = 0 ] && echo PASS || echo FAIL)"
{ printf '%s\n' "${summary[@]}"; echo "status: $([ $status = 0 ] && echo PASS || echo FAIL)"; } > "$out/summary.txt"
scripts/pack-out.sh "$out" summary.txt
exit $status
