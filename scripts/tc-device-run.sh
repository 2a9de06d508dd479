#!/usr/bin/env bash
# One device run for the two tensor-core families (issues 23 and 24): build the targets
# they need (incremental on a warm machine), then the steps named on the command line,
# each with its own time limit, results under $OUT with a short summary printed last.
#
#   scripts/tc-device-run.sh STEP...
#     test-blocks | test-tiles      the GPU test program, quick sizes (full-test-*: full sizes)
#     memcheck-blocks | memcheck-tiles   the same under compute-sanitizer memcheck
#     racecheck-blocks | racecheck-tiles
#     bench-blocks                  spmm_blocks at n = 32 and 128, fp16 and fp64, on the
#                                   blocky set and a few others (TCS_TC_BLOCKS_SEL)
#     bench-tiles                   every SpGEMM algorithm beside cuSPARSE (TCS_TC_TILES_SEL)
#     ncu-blocks                    Nsight Compute sections of the block kernel
#     ncu-tiles                     per-kernel time of the tile pipeline
#     sass                          HMMA/DMMA in the whole library (slow: minutes)
#     sass-blocks                   HMMA/DMMA in each block SpMM kernel
#
# From the repository root on the GPU machine, with .deps/ (cmocka) and .matrices/ carried.
# TCS_GPU_BUILD=DIR names the build folder (default build-gpu); TCS_TC_NO_BUILD=1 runs the
# binaries already there (built elsewhere for sm_90 and carried) without building.
set -u
out=${OUT:-/tmp/out}
mkdir -p "$out"
t0=$(date +%s)
stamp() { echo "== $* ($(( $(date +%s) - t0 ))s)" | tee -a "$out/summary.txt"; }
if [ ! -f /usr/include/cmocka.h ]; then for f in .deps/libcmocka*.deb; do dpkg -x "$f" /; done; ldconfig; fi
export TCS_MATRIX_DIR=${TCS_MATRIX_DIR:-$PWD/.matrices}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader >> "$out/summary.txt" 2>&1
b=${TCS_GPU_BUILD:-build-gpu}
if [ -n "${TCS_TC_NO_BUILD:-}" ]; then
  stamp "build: prebuilt $b (not rebuilt)"
elif [ ! -f $b/build.ninja ]; then
  cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90-real \
    -DTCS_MATRIX_DIR="$TCS_MATRIX_DIR" -DTCS_BUILD_EXAMPLES=OFF > "$out/build.log" 2>&1
fi
if [ -z "${TCS_TC_NO_BUILD:-}" ] && ! timeout 420 cmake --build $b -j "$(nproc)" --target tcsparse gpu_spmm_blocks gpu_spgemm_tiles \
     tcs_bench >> "$out/build.log" 2>&1; then
  grep -E "error" "$out/build.log" | head -n 30; stamp "build FAILED"; cat "$out/summary.txt"; exit 1
fi
[ -n "${TCS_TC_NO_BUILD:-}" ] || stamp "build ok"

blocks_sel=${TCS_TC_BLOCKS_SEL:-'stencil27_d3_30|dense_blocks_131k_b8|banded_400k_hb12|banded_1m_hb4|bcsstk16|bcsstk13|lock1074|Dubcova1|mbeacxc|ex36'}
tiles_sel=${TCS_TC_TILES_SEL:-'stencil27_d3_30|dense_blocks_131k_b8|banded_400k_hb12|bcsstk16|bcsstk13|lock1074|mbeacxc'}
for step in "$@"; do
  case $step in
  test-blocks|test-tiles|full-test-blocks|full-test-tiles)
    t=gpu_spmm_blocks; [ ${step##*-} = tiles ] && t=gpu_spgemm_tiles
    quick=1; [ ${step%%-*} = full ] && quick=
    TCS_TEST_QUICK=$quick timeout 300 $b/tests/$t > "$out/$step.log" 2>&1
    stamp "$step: exit $? $(grep -E '\[  PASSED|\[  FAILED' "$out/$step.log" | tr '\n' ' ' | cut -c1-200)" ;;
  memcheck-*|racecheck-*)
    tool=${step%%-*}; t=gpu_spmm_blocks; [ ${step#*-} = tiles ] && t=gpu_spgemm_tiles
    TCS_TEST_QUICK=1 timeout 240 compute-sanitizer --tool $tool --error-exitcode 99 --print-limit 10 \
      $b/tests/$t > "$out/$step.log" 2>&1
    stamp "$step: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/$step.log" | tail -n 1)" ;;
  bench-blocks)
    TCS_BENCH_RUNS=${TCS_TC_RUNS:-3} timeout 300 $b/bench/tcs_bench \
      --benchmark_filter="^spmm_blocks/(${TCS_TC_BLOCKS_TYPES:-fp16|fp64})/row/n(32|128)/($blocks_sel)/(blocks|csr|cusparse|tcsparse|cusparse_bell(8|16|32))/" \
      --benchmark_out="$out/blocks.json" --benchmark_out_format=json > "$out/bench-blocks.log" 2>&1
    stamp "bench-blocks: exit $?"
    python3 scripts/perf_report.py "$out/blocks.json" --out "$out/perf-blocks" > /dev/null 2>&1
    grep -E '^geomean' "$out/perf-blocks/spmm_blocks.md" | tee -a "$out/summary.txt" ;;
  bench-tiles)
    TCS_BENCH_RUNS=${TCS_TC_RUNS:-3} timeout 300 $b/bench/tcs_bench --benchmark_filter="^spgemm/fp64/($tiles_sel)/" \
      --benchmark_out="$out/tiles.json" --benchmark_out_format=json > "$out/bench-tiles.log" 2>&1
    stamp "bench-tiles: exit $?"
    python3 scripts/perf_report.py "$out/tiles.json" --out "$out/perf-tiles" > /dev/null 2>&1
    grep -E 'geomean' "$out/perf-tiles/spgemm_algorithms.md" | tee -a "$out/summary.txt" ;;
  ncu-blocks)
    for f in ${TCS_TC_NCU_BLOCKS:-fp16/row/n32/stencil27_d3_30 fp64/row/n32/stencil27_d3_30 fp16/row/n32/Dubcova1}; do
      TCS_BENCH_RUNS=1 timeout 100 ncu --clock-control none -k regex:blocks_kernel --launch-skip 1 --launch-count 1 \
        --section SpeedOfLight --section Occupancy --section WarpStateStats --section LaunchStats \
        --section MemoryWorkloadAnalysis --section SchedulerStats --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio',smsp__inst_executed.sum \
        $b/bench/tcs_bench --benchmark_filter="^spmm_blocks/$f/blocks/" >> "$out/ncu-blocks.txt" 2>&1
    done
    stamp "ncu-blocks: exit $? $(grep -E 'Duration' "$out/ncu-blocks.txt" | tr -s ' ' | tr '\n' ' ')" ;;
  ncu-tiles)
    TCS_BENCH_RUNS=1 timeout 200 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
      --log-file "$out/ncu-tiles.csv" $b/bench/tcs_bench \
      --benchmark_filter='^spgemm/fp64/(stencil27_d3_30|bcsstk16|lock1074)/tcsparse(_tile_tc)?/' > /dev/null 2>&1
    stamp "ncu-tiles: exit $?" ;;
  sass-blocks)
    for k in 11half_policyI6__halfEELi1 11half_policyI6__halfEELi2 11half_policyI6__halfEELi4 \
             11half_policyI13__nv_bfloat16EELi2 11tf32_policyELi2 10f64_policyIdEELi1 10f64_policyIdEELi2 \
             10f64_policyIfEELi2; do
      for w in 4 16; do
        f=_ZN3tcs4spmm6blocks13blocks_kernelINS1_${k}ELi${w}EEEvNS1_11kernel_argsINT_6scalarEEE
        echo "$k W$w: $(cuobjdump -sass -fun "$f" $b/lib/libtcsparse.so 2>/dev/null | grep -c -E '\b(HMMA|DMMA)')"
      done
    done > "$out/sass-blocks.txt"
    stamp "sass-blocks: $(tr '\n' ' ' < "$out/sass-blocks.txt")" ;;
  sass)
    cuobjdump --dump-sass $b/lib/libtcsparse.so > /tmp/sass.txt 2>/dev/null
    { echo "HMMA/DMMA total: $(grep -c -E '\bHMMA|\bDMMA' /tmp/sass.txt)"
      awk '/Function : /{f=$3} /\b(HMMA|DMMA)/{c[f]++} END{for(k in c) print c[k], k}' /tmp/sass.txt | sort -k2 | cut -c1-140
    } > "$out/sass.txt"
    stamp "sass: $(head -n 1 "$out/sass.txt")" ;;
  *) stamp "unknown step $step" ;;
  esac
done
cat "$out/summary.txt"
