#!/usr/bin/env bash
# One device run for the tile SpGEMM (issue 23), about 8 minutes on an H100: build (the
# targets it needs), SASS counts per kernel, gpu_spgemm_tiles / gpu_protocol /
# api_arguments (quick sizes), the benchmark of every SpGEMM algorithm beside cuSPARSE
# on the blocky matrices and a set of non-blocky ones (spgemm_algorithms.md, the data
# of the default's rule), a per-kernel time breakdown of the tile pipeline (ncu:
# conversion, scans, structure, packing, multiplication) and memcheck. Every step has
# its own time limit and writes under $OUT, so a step that runs out of time leaves the
# earlier results. From a staged copy of the worktree:
#   cd .wt/tiles && cp -r ../../.deps . && export TCS_MATRIX_DIR=$PWD/../../.matrices &&
#   bash scripts/tiles-device-run.sh
set -u
out=${OUT:-/tmp/out}
mkdir -p "$out"
t0=$(date +%s)
stamp() { echo "== $* ($(( $(date +%s) - t0 ))s)" | tee -a "$out/summary.txt"; }
if [ ! -f /usr/include/cmocka.h ]; then for f in .deps/libcmocka*.deb; do dpkg -x "$f" /; done; ldconfig; fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader >> "$out/summary.txt" 2>&1
b=build-gpu
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DTCS_MATRIX_DIR="$TCS_MATRIX_DIR" -DTCS_BUILD_EXAMPLES=OFF > "$out/build.log" 2>&1
if ! timeout 300 cmake --build $b -j "$(nproc)" --target tcsparse gpu_spgemm_tiles gpu_protocol \
     api_arguments tcs_bench >> "$out/build.log" 2>&1; then
  grep -E "error" "$out/build.log" | head -n 30; stamp "build FAILED"; exit 1
fi
stamp "build ok"
cuobjdump --dump-sass $b/lib/libtcsparse.so > /tmp/sass.txt 2>/dev/null
{ echo "HMMA/DMMA total: $(grep -c -E '\bHMMA|\bDMMA' /tmp/sass.txt)"
  grep -o -E '\b(HMMA|DMMA)[.A-Z0-9x]*' /tmp/sass.txt | sort | uniq -c
  awk '/Function : /{f=$3} /\b(HMMA|DMMA)/{c[f]++} END{for(k in c) print c[k], k}' /tmp/sass.txt | sort -k2 | cut -c1-120
} > "$out/sass.txt"
cuobjdump -res-usage $b/lib/libtcsparse.so 2>/dev/null | grep -A1 -E 'tiles|formats' >> "$out/sass.txt"
stamp "sass: $(head -n 1 "$out/sass.txt")"

for t in gpu_spgemm_tiles gpu_protocol api_arguments; do
  TCS_TEST_QUICK=1 timeout 150 $b/tests/$t > "$out/test_$t.log" 2>&1
  stamp "test $t: exit $? $(grep -E 'PASSED|FAILED' "$out/test_$t.log" | tr '\n' ' ' | cut -c1-200)"
done
grep -E 'SMAPE|FAILED|Error|error' "$out/test_gpu_spgemm_tiles.log" | head -n 20 | tee -a "$out/summary.txt"

sel='stencil27|dense_blocks|banded|uniform_1m|bcsstk|lock1074|mbeacxc|nos3|Si2|ex36|copter2|Dubcova1|delaunay|aa3|rgg'
TCS_BENCH_RUNS=5 timeout 260 $b/bench/tcs_bench --benchmark_filter="spgemm/.*/($sel)" \
  --benchmark_out="$out/bench.json" --benchmark_out_format=json > "$out/bench.log" 2>&1
stamp "bench: exit $?"
python3 scripts/perf_report.py "$out/bench.json" --out "$out/perf" 2>&1 | grep -E 'geomean|blocky' | tee -a "$out/summary.txt"
cp "$out/perf/spgemm_algorithms.md" "$out/" 2>/dev/null

TCS_BENCH_RUNS=1 timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv -k regex:'tcs|Scan' \
  --log-file "$out/ncu.csv" $b/bench/tcs_bench \
  --benchmark_filter='spgemm/fp64/(stencil27_d3_30|dense_blocks_131k_b8|bcsstk16|banded_400k_hb12)/tcsparse_tile_tc' > /dev/null 2>&1
stamp "ncu: exit $?"

TCS_TEST_QUICK=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 10 \
  $b/tests/gpu_spgemm_tiles > "$out/sanitizer.log" 2>&1
stamp "memcheck gpu_spgemm_tiles: exit $? $(grep -E 'ERROR SUMMARY' "$out/sanitizer.log" | tail -n 1)"
cat "$out/summary.txt"
