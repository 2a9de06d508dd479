#!/usr/bin/env bash
# compute-sanitizer over GPU test programs, for gpu-check.sh and gpu-prebuilt.sh run:
#
#   scripts/sanitize.sh TOOLS JOBS LIMIT OUT < programs
#
# TOOLS: comma-separated tools (memcheck,racecheck,initcheck,synccheck); JOBS: runs at
# once (each is mostly host time, so several share the GPU well); LIMIT: seconds for the
# whole phase, each run getting what is left of it; OUT: folder of sanitizer.log.
# programs: lines "name<TAB>command" (the command is evaluated by the shell). Runs use the
# tests' quick sizes (TCS_TEST_QUICK=1) and TCS_TEST_SANITIZER=<tool> (gpu_check_matrix then
# allows a slow call 60 s instead of 1 s); gpu_stress (8 threads for 30 s) runs under
# memcheck only. gpu_stress and gpu_check_matrix run alone, after the others: they check
# the device's free memory and the time of each call, which runs beside them disturb.
# The other programs run in TCS_SANITIZER_SHARDS (default 3) shards each (TCST_SHARD,
# tests/support/tcst_shard.h), which the JOBS run in parallel: gpu_spmm_csr alone took
# longer under racecheck than a device call may last. Prints one summary line per tool, "== compute-sanitizer ...", and a
# short excerpt of each failing run; exits 1 if any run failed or was cut.
set -u
tools=$1 jobs=$2 limit=$3 out=$4
mkdir -p "$out"
: > "$out/sanitizer.log"
# Each run's log and exit code stay in OUT/sanitizer-runs/, written as the run ends, so
# that a caller killed mid-phase still gets back what finished.
tmp=$out/sanitizer-runs
rm -rf "$tmp" && mkdir -p "$tmp"
start=$(date +%s)
mapfile -t programs
runs=()
shards=${TCS_SANITIZER_SHARDS:-3}
solo() { [ "$1" = gpu_stress ] || [ "$1" = gpu_check_matrix ]; }
for tool in ${tools//,/ }; do
  for line in "${programs[@]}"; do
    name=${line%%$'\t'*} cmd=${line#*$'\t'}
    [ -n "$name" ] || continue
    [ "$name" = gpu_stress ] && [ "$tool" != memcheck ] && continue
    if solo "$name" || [ "$shards" -lt 2 ]; then
      runs+=("$tool"$'\t'"$line")
    else  # tests/support/tcst_shard.h: test i runs in shard i % shards
      for ((k = 0; k < shards; ++k)); do
        runs+=("$tool"$'\t'"$name.$k"$'\t'"env TCST_SHARD=$k/$shards $cmd")
      done
    fi
  done
done

one() {  # tool name command -> $tmp/<tool>-<name>.log and .rc
  local tool=$1 name=$2 cmd=$3 budget extra=()
  budget=$(( start + limit - $(date +%s) ))
  if [ "$budget" -le 5 ]; then echo cut > "$tmp/$tool-$name.rc"; return; fi
  # racecheck also reports hazards, not only errors, on its own summary line
  [ "$tool" = racecheck ] && extra=(--racecheck-report all)
  local s0; s0=$(date +%s)
  TCS_TEST_QUICK=1 TCS_TEST_SANITIZER=$tool eval timeout "$budget" compute-sanitizer --tool "$tool" "${extra[@]}" \
    --error-exitcode 99 --print-limit 20 "$cmd" < /dev/null > "$tmp/$tool-$name.log" 2>&1
  local rc=$?
  echo "$rc" > "$tmp/$tool-$name.rc"
  echo "$tool $name exit $rc $(( $(date +%s) - s0 ))s" >> "$tmp/times.txt"
}

for run in "${runs[@]}"; do
  IFS=$'\t' read -r tool name cmd <<< "$run"
  solo "$name" && continue
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  one "$tool" "$name" "$cmd" &
done
wait
for run in "${runs[@]}"; do
  IFS=$'\t' read -r tool name cmd <<< "$run"
  solo "$name" && one "$tool" "$name" "$cmd"
done

status=0
for tool in ${tools//,/ }; do
  ran=0 bad=0 cut=0
  for run in "${runs[@]}"; do
    IFS=$'\t' read -r t name cmd <<< "$run"
    [ "$t" = "$tool" ] || continue
    rc=$(cat "$tmp/$tool-$name.rc" 2>/dev/null || echo missing)
    if [ "$rc" = cut ]; then cut=$((cut + 1)); echo "   $tool $name: CUT (phase limit)"; status=1; continue; fi
    ran=$((ran + 1))
    echo "=== $tool $name (exit $rc)" >> "$out/sanitizer.log"
    if [ "$rc" != 0 ]; then
      bad=$((bad + 1)); status=1
      echo "-- $tool: $name (exit $rc; 124: cut by the phase limit)"
      grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Invalid|out of bounds|Uninitialized|hazard|FAILED|Barrier" \
        "$tmp/$tool-$name.log" | head -n 12
      tail -n 40 "$tmp/$tool-$name.log" >> "$out/sanitizer.log"
    fi
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$tmp/$tool-$name.log" | sed "s/^/   [$name] /" >> "$out/sanitizer.log"
  done
  echo "== compute-sanitizer $tool: $ran runs (programs or shards), $bad with errors or cut mid-run, $cut not started ($(( $(date +%s) - start ))s)"
done
exit $status
