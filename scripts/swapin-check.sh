#!/usr/bin/env bash
# The swap-in check on a GPU machine (issue 25), in the parts asked for:
#   build      configure for sm_90 and build the libraries, the shim, the tests and tcs_bench
#   tests      ctest (every test but the host-only packaging and emulation ones)
#   sanitizer  compute-sanitizer memcheck on gpu_spmv, gpu_spgemm_reuse and the interleaved
#              swap-in program (quick sizes)
#   frameworks PyTorch, CuPy and JAX programs (tests/swapin/frameworks.py) run plainly, with
#              the shim preloaded (results compared, times side by side, the calls tcsparse
#              ran and forwarded), and with the shim's SONAME copy first on LD_LIBRARY_PATH
#   bench      tcs_bench's SpMV family, full suite, and its report
# Logs and results go to $OUT (default: swapin-check-out/); a summary is printed last.
#
# Usage: scripts/swapin-check.sh [PART...]     (default: every part, in the order given)
# SWAPIN_DEADLINE=<seconds>: parts that would not fit in what is left are skipped (said
# so in the summary), so that a run with a time limit still ends with its summary.
# SWAPIN_TARGETS="t1 t2 ...": build only these targets; SWAPIN_TESTS=<regex>: run only
# these tests (then SpMM's quick run is left out unless the regex names it);
# SWAPIN_BENCH=<regex>: the benchmark filter (default ^spmv/).
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
out=${OUT:-$root/swapin-check-out}
mkdir -p "$out"
build=${TCS_GPU_BUILD:-build-gpu}
parts=${*:-build tests sanitizer frameworks bench}
has() { case " $parts " in *" $1 "*) return 0 ;; esac; return 1; }
summary=()
note() { summary+=("$*"); echo "== $*"; }
t0=$(date +%s)
elapsed() { echo $(( $(date +%s) - t0 ))s; }
deadline=${SWAPIN_DEADLINE:-100000}
left() { echo $(( deadline - ($(date +%s) - t0) )); }
# fits PART SECONDS: whether PART was asked for and SECONDS are left for it
fits() {
  has "$1" || return 1
  [ "$(left)" -ge "$2" ] && return 0
  note "$1: skipped, $(left)s left"; return 1
}

if [ ! -f /usr/include/cmocka.h ] && ls .deps/libcmocka*.deb >/dev/null 2>&1; then
  for f in .deps/libcmocka*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
if [ -z "${TCS_MATRIX_DIR:-}" ]; then
  if [ -d "$root/../shared/matrices" ]; then export TCS_MATRIX_DIR="$root/../shared/matrices"
  else export TCS_MATRIX_DIR="$root/.matrices"; fi
fi
note "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -n 1)"

if has build; then
  gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
  if cmake -S . -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
       -DTCS_MATRIX_DIR="$TCS_MATRIX_DIR" > "$out/build.log" 2>&1 &&
     cmake --build "$build" -j "$(nproc)" ${SWAPIN_TARGETS:+--target $SWAPIN_TARGETS} \
       >> "$out/build.log" 2>&1; then
    note "build: ok ($(elapsed))"
  else
    grep -E "error|Error" "$out/build.log" | head -n 30
    note "build: FAILED"; printf '%s\n' "${summary[@]}"; exit 1
  fi
fi
shim=$root/$build/shim/libtcsparse_cusparse.so
soname_dir=$root/$build/shim/soname

if fits tests 60; then
  if [ -n "${SWAPIN_TESTS:-}" ]; then selection=(-R "$SWAPIN_TESTS")
  else selection=(-E "hash_emulation|tcs_install|tcs_packages|header_|bench_list|gpu_spmm_csr|gpu_spgemm_hash"); fi
  timeout "$(left)" ctest --test-dir "$build" --output-on-failure -j 4 --timeout 600 \
        "${selection[@]}" > "$out/ctest.log" 2>&1
  # SpMM's test only for the helpers it now shares with SpMV's (tests/support/values.c):
  # its quick sizes; the SpGEMM hash test is the SpGEMM family's to run.
  [ -n "${SWAPIN_TESTS:-}" ] || TCS_TEST_QUICK=1 timeout "$(left)" ctest --test-dir "$build" \
        --output-on-failure -R "^gpu_spmm_csr$" >> "$out/ctest.log" 2>&1
  grep -E "tests passed|\(Failed\)|Not Run|\(Skipped\)|Timeout|forwarded call|cusparseSp|cusparseGet" "$out/ctest.log" | tail -n 25
  note "ctest: $(grep -E 'tests passed' "$out/ctest.log" | head -n 1); gpu_spmm_csr quick: $(grep -E 'tests passed' "$out/ctest.log" | tail -n 1) ($(elapsed))"
fi

if fits sanitizer 60 && command -v compute-sanitizer >/dev/null; then
  failed=0
  for t in gpu_spmv gpu_spgemm_reuse swapin_interleaved; do
    exe=$(find "$build/tests" -maxdepth 1 -name "$t" -type f | head -n 1)
    [ -n "$exe" ] || continue
    [ "$(left)" -ge 20 ] || break
    if ! TCS_TEST_QUICK=1 timeout "$(( $(left) < 300 ? $(left) : 300 ))" compute-sanitizer --tool memcheck --error-exitcode 99 \
         --print-limit 20 "$exe" >> "$out/sanitizer.log" 2>&1; then
      failed=$((failed + 1)); echo "-- sanitizer: $t FAILED"
    fi
  done
  note "compute-sanitizer memcheck: $failed of 3 programs with errors ($(elapsed))"
fi

if fits frameworks 90; then
  python=$(command -v python3)
  work=$(mktemp -d)
  : > "$out/frameworks.txt"
  for fw in torch cupy jax; do
    [ "$(left)" -ge 45 ] || { note "frameworks: $fw skipped, $(left)s left"; continue; }
    # JAX sends its sparse products to cuSPARSE only with this option (off by default).
    extra=(); [ "$fw" = jax ] && extra=(env JAX_BCOO_CUSPARSE_LOWERING=1)
    timeout 300 ${extra[@]+"${extra[@]}"} "$python" tests/swapin/frameworks.py $fw "$work/$fw-plain.npz" \
      > "$work/$fw-plain.out" 2> "$work/$fw-plain.err"
    status=$?
    if [ $status -ne 0 ]; then
      note "frameworks: $fw plain run: exit $status ($(tail -n 2 "$work/$fw-plain.err" | tr '\n' ' '))"
      continue
    fi
    LD_PRELOAD=$shim timeout 300 ${extra[@]+"${extra[@]}"} "$python" tests/swapin/frameworks.py $fw \
      "$work/$fw-shim.npz" > "$work/$fw-shim.out" 2> "$work/$fw-shim.err"
    s1=$?
    LD_PRELOAD=$shim TCS_LOG_LEVEL=2 timeout 300 ${extra[@]+"${extra[@]}"} "$python" tests/swapin/frameworks.py \
      $fw "$work/$fw-trace.npz" > "$work/$fw-trace.out" 2> "$work/$fw-trace.err"
    s2=$?
    # The SONAME route, for CuPy only (it loads cuSPARSE through cuda-pathfinder before
    # its module's own DT_NEEDED): does the shim's SONAME copy reach it?
    s3=-
    if [ "$fw" = cupy ]; then
      LD_LIBRARY_PATH=$soname_dir:${LD_LIBRARY_PATH:-} TCS_LOG_LEVEL=2 timeout 300 \
        "$python" tests/swapin/frameworks.py $fw "$work/$fw-soname.npz" \
        > "$work/$fw-soname.out" 2> "$work/$fw-soname.err"
      s3=$?
    fi
    if [ $s1 -ne 0 ] || [ $s2 -ne 0 ]; then
      note "frameworks: $fw under the shim: exit $s1/$s2"
      grep -v "^tcsparse: tcs\|^tcsparse: cusparse.* -> cuSPARSE$" "$work/$fw-trace.err" | tail -n 15
      continue
    fi
    "$python" tests/swapin/compare_frameworks.py "$work/$fw-plain.npz" "$work/$fw-plain.out" \
      "$work/$fw-shim.npz" "$work/$fw-shim.out" "$work/$fw-trace.err" >> "$out/frameworks.txt" 2>&1
    same=$?
    reached=$(grep -c "^tcsparse: " "$work/$fw-soname.err" 2>/dev/null || echo 0)
    note "frameworks: $fw: preloaded $([ $same = 0 ] && echo "results agree" || echo "RESULTS DIFFER"), $(grep -c '^tcsparse: tcs' "$work/$fw-trace.err") tcsparse calls, $(grep -c ' -> cuSPARSE$' "$work/$fw-trace.err") forwarded; SONAME route exit $s3, $reached shim trace lines"
  done
  cat "$out/frameworks.txt"
  rm -rf "$work"
fi

if fits bench 90 && [ -x "$build/bench/tcs_bench" ]; then
  timeout "$(left)" "$build/bench/tcs_bench" --benchmark_filter="${SWAPIN_BENCH:-^spmv/}" \
    --benchmark_out="$out/bench.json" \
    --benchmark_out_format=json > "$out/bench.log" 2>&1
  python3 scripts/perf_report.py "$out/bench.json" --out "$out/perf" > "$out/perf.log" 2>&1
  cp "$out/perf/spmv.md" "$out/spmv.md" 2>/dev/null
  note "bench: $(grep -c '"run_type"' "$out/bench.json" 2>/dev/null) results ($(elapsed))"
  while read -r line; do note "$line"; done < <(grep geomean "$out/perf.log")
  cp "$out"/perf/spmv_speedup.png "$out/" 2>/dev/null
  rm -rf "$out/perf" "$out/perf.log" "$out/bench.log"  # at most 8 files come back
fi

echo
echo "================ swapin-check summary ================"
printf '%s\n' "${summary[@]}"
echo "total time: $(elapsed)"
