#!/usr/bin/env bash
# Per-kernel GPU time of tcs_bench runs, from Nsight Compute (one timed run + the warm-up
# per benchmark), summed by kernel name. For finding where a slow case spends its time.
# Usage: scripts/kernel-profile.sh BUILD_DIR BENCH_FILTER OUT.txt
set -u
build=$1 filter=$2 out=$3
tmp=$(mktemp -d)
TCS_BENCH_RUNS=1 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
  --log-file "$tmp/ncu.csv" "$build/bench/tcs_bench" --benchmark_filter="$filter" \
  > "$tmp/bench.log" 2>&1 || { tail -n 20 "$tmp/bench.log"; }
python3 - "$tmp/ncu.csv" "$filter" >> "$out" <<'PY'
import csv, sys, collections, re
rows = []
with open(sys.argv[1]) as f:
    lines = [l for l in f if l.startswith('"')]
for r in csv.DictReader(lines):
    if r.get("Metric Name") != "gpu__time_duration.sum":
        continue
    v = float(r["Metric Value"].replace(",", ""))
    unit = r.get("Metric Unit", "ns")
    scale = {"ns": 1e-6, "us": 1e-3, "usecond": 1e-3, "msecond": 1.0, "ms": 1.0, "nsecond": 1e-6}.get(unit, 1e-6)
    name = re.sub(r"\(.*", "", r["Kernel Name"])[:90]
    rows.append((name, v * scale))
tot = collections.OrderedDict()
for n, ms in rows:
    c, t = tot.get(n, (0, 0.0))
    tot[n] = (c + 1, t + ms)
print(f"== {sys.argv[2]}: {len(rows)} kernels, {sum(t for _, t in rows):.3f} ms")
for n, (c, t) in sorted(tot.items(), key=lambda kv: -kv[1][1]):
    print(f"  {t:9.3f} ms  x{c:<4d} {n}")
PY
rm -rf "$tmp"
