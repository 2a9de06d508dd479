#!/usr/bin/env python3
"""Time per phase against GPU count, per mode, for the solver runs of several GPUs
(issue 41): hypre BoomerAMG (scripts/hypre.sh run --ranks "1 2 4" [--weak], its
hypre.json) and PETSc GAMG (scripts/petsc.sh run --cases gamg --ranks "1 2 4"
--bind-gpus, its folder of *.logview files). One panel per run, setup (solid) and
solve (dashed) per mode; a missing point is a run that failed or was not made.
Needs matplotlib.

usage: solver_scaling_plot.py OUT.png TITLE=hypre:PATH/hypre.json TITLE=petsc:DIR ...
  TITLE names the panel (e.g. "hypre strong, 200^3"); petsc panels take the gamg case
  whose name follows DIR after a comma when the folder holds several
  (petsc:DIR,gamg_lap200).
"""
import glob
import json
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "petsc"))
from compare import logview  # noqa: E402  (PETSc's -log_view reader, one copy)

# (mode, label, colour): one colour per library in every panel.
HYPRE_MODES = [("hypre", "hypre's own", "C0"), ("vendor", "vendor cuSPARSE", "C1"),
               ("tcs", "vendor on tcsparse", "C2")]
PETSC_MODES = [("plain", "cuSPARSE", "C1"), ("tcs", "on tcsparse", "C2")]


def hypre_series(path):
    """{mode: {gpus: (setup, solve)}} from one hypre.json (one problem)."""
    with open(path) as f:
        table = json.load(f)
    series = {m: {} for m, _, _ in HYPRE_MODES}
    for key, row in table.items():
        if key.endswith("/trace"):
            continue
        gpus = int(key.split("/np")[1])
        for mode, _, _ in HYPRE_MODES:
            r = row.get(mode) or {}
            if r.get("exit") == "0" and r.get("setup") is not None:
                series[mode][gpus] = (r["setup"], r["solve"])
    return series, HYPRE_MODES


def petsc_series(spec):
    """{mode: {gpus: (PCSetUp, KSPSolve)}} from a petsc.sh run folder."""
    folder, _, case = spec.partition(",")
    series = {m: {} for m, _, _ in PETSC_MODES}
    for path in glob.glob(os.path.join(folder, "*.np*.logview")):
        m = re.match(r"(.+)\.(plain|tcs)\.np(\d+)\.logview$", os.path.basename(path))
        if not m or (case and m.group(1) != case) or not m.group(1).startswith("gamg"):
            continue
        rc_path = path[: -len(".logview")] + ".rc"
        if os.path.exists(rc_path) and open(rc_path).read().strip() != "0":
            continue
        events, _ = logview(path)
        if "PCSetUp" in events and "KSPSolve" in events:
            series[m.group(2)][int(m.group(3))] = (events["PCSetUp"], events["KSPSolve"])
    return series, PETSC_MODES


def main():
    out, panels = sys.argv[1], sys.argv[2:]
    if not panels:
        sys.exit(__doc__)
    cols = min(2, len(panels))
    rows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(5.2 * cols, 4.0 * rows), squeeze=False)
    for ax in axes.flat[len(panels):]:
        ax.set_visible(False)
    kinds_with_legend = set()
    for ax, arg in zip(axes.flat, panels):
        title, _, spec = arg.partition("=")
        kind, _, path = spec.partition(":")
        series, modes = hypre_series(path) if kind == "hypre" else petsc_series(path)
        for mode, label, color in modes:
            pts = sorted(series[mode].items())
            if not pts:
                continue
            gpus = [g for g, _ in pts]
            ax.plot(gpus, [s for _, (s, _) in pts], "o-", color=color, label=f"{label}: setup")
            ax.plot(gpus, [v for _, (_, v) in pts], "s--", color=color, label=f"{label}: solve")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks([1, 2, 4])
        ax.set_xticklabels(["1", "2", "4"])
        ax.set_xlabel("GPUs (one rank each)")
        ax.set_ylabel("seconds")
        ax.set_title(title, fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        if kind not in kinds_with_legend:
            ax.legend(fontsize=7)
            kinds_with_legend.add(kind)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main()
