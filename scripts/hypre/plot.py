#!/usr/bin/env python3
"""Setup time per mode and GPU count, from the hypre.json files that scripts/hypre.sh run
writes (scripts/hypre/summary.py): one group of bars per problem and rank count, one bar
per mode (hypre's own, vendor cuSPARSE, vendor on tcsparse). Needs matplotlib.

usage: plot.py OUT.png LABEL=hypre.json [LABEL=hypre.json ...]
  LABEL prefixes the run's problems in the plot (e.g. "1 GPU" or "weak").
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MODES = [("hypre", "hypre's own SpGEMM/SpMV"), ("vendor", "vendor cuSPARSE"),
         ("tcs", "vendor on tcsparse (shim)")]


def main():
    out, runs = sys.argv[1], sys.argv[2:]
    groups = []  # (label, {mode: setup})
    for arg in runs:
        label, path = arg.split("=", 1)
        with open(path) as f:
            table = json.load(f)
        for key, row in table.items():
            if key.endswith("/trace"):
                continue
            prob, np_ = key.split("/np")
            name = f"{label}\n{prob}, {np_} GPU" + ("s" if np_ != "1" else "")
            groups.append((name, {m: row.get(m, {}).get("setup") for m, _ in MODES}))
    fig, ax = plt.subplots(figsize=(max(6, 1.3 * len(groups)), 4.2))
    width = 0.27
    for i, (mode, title) in enumerate(MODES):
        xs = [g + (i - 1) * width for g in range(len(groups))]
        ys = [grp[1].get(mode) or 0 for grp in groups]
        ax.bar(xs, ys, width, label=title)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels([g[0] for g in groups], fontsize=7)
    ax.set_ylabel("BoomerAMG setup (s, hypre's timer)")
    ax.set_yscale("log")
    ax.set_title("hypre BoomerAMG-PCG setup: three ways to run its products", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main()
