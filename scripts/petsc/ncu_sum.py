#!/usr/bin/env python3
"""Sums an Nsight Compute CSV (gpu__time_duration.sum per kernel) by kernel name.

usage: ncu_sum.py NCU.csv [TITLE]   prints total ms, then ms, launches and name per kernel
"""
import collections
import csv
import re
import sys

scale = {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1.0, "msecond": 1.0}
with open(sys.argv[1]) as f:
    lines = [line for line in f if line.startswith('"')]
total = collections.defaultdict(lambda: [0, 0.0])
for r in csv.DictReader(lines):
    if r.get("Metric Name") != "gpu__time_duration.sum":
        continue
    ms = float(r["Metric Value"].replace(",", "")) * scale.get(r.get("Metric Unit", "ns"), 1e-6)
    name = re.sub(r"\(.*", "", r["Kernel Name"])[:110]
    total[name][0] += 1
    total[name][1] += ms
title = sys.argv[2] if len(sys.argv) > 2 else sys.argv[1]
print(f"== {title}: {sum(c for c, _ in total.values())} kernels, "
      f"{sum(t for _, t in total.values()):.3f} ms")
for name, (count, ms) in sorted(total.items(), key=lambda kv: -kv[1][1])[:25]:
    print(f"  {ms:9.3f} ms  x{count:<5d} {name}")
