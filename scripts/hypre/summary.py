#!/usr/bin/env python3
"""The summary of scripts/hypre.sh run: for each problem and rank count, BoomerAMG-PCG in
hypre's own mode, vendor cuSPARSE and vendor through tcsparse's shim, side by side.

Files in DIR: <problem>.<mode>.np<N>.r<rep>.{out,err,rc,wall_ms} (timed runs) and
<problem>.<mode>.np1.trace.* (traced runs: hypre-spgemm lines from
scripts/hypre/spgemm_timer.py, and tcsparse's TCS_LOG_LEVEL=3 lines through the shim).

Writes Markdown to stdout and DIR/hypre.json (the numbers, for docs/perf and plots).
Exit 0 when every run converged to the tolerance and the shim's iteration counts are
within 1 of vendor cuSPARSE's, 1 otherwise.
usage: summary.py DIR [--tol 1e-8]
"""
import collections
import glob
import json
import os
import re
import statistics
import sys

MODES = ["hypre", "vendor", "tcs", "tcs0"]
NAMES = {"hypre": "hypre's own", "vendor": "vendor cuSPARSE", "tcs": "vendor on tcsparse",
         "tcs0": "vendor on tcsparse, bundle's build"}
NUM = r"[-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?"


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def phase_time(text, heading):
    """hypre_PrintTiming's first 'wall clock time' after the heading (max over ranks)."""
    i = text.find(heading)
    if i < 0:
        return None
    m = re.search(r"wall clock time = (" + NUM + ")", text[i:])
    return float(m.group(1)) if m else None


def parse_out(text):
    its = re.search(r"^Iterations = (\d+)", text, re.M)
    res = re.search(r"Final Relative Residual Norm = (" + NUM + ")", text)
    return {
        "setup": phase_time(text, "Setup phase times"),
        "solve": phase_time(text, "Solve phase times"),
        "iterations": int(its.group(1)) if its else None,
        "residual": float(res.group(1)) if res else None,
    }


def main():
    d = sys.argv[1]
    tol = float(sys.argv[sys.argv.index("--tol") + 1]) if "--tol" in sys.argv else 1e-8
    runs = collections.defaultdict(list)  # (problem, np, mode) -> [parsed]
    for rc_path in sorted(glob.glob(os.path.join(d, "*.rc"))):
        tag = os.path.basename(rc_path)[:-3]
        m = re.match(r"(.+)\.(hypre|vendor|tcs|tcs0)\.np(\d+)\.r(\d+)$", tag)
        if not m:
            continue
        prob, mode, np_, _ = m.groups()
        r = parse_out(read(os.path.join(d, tag + ".out")))
        r["rc"] = read(rc_path).strip()
        runs[(prob, int(np_), mode)].append(r)

    ok = True
    out = ["# hypre BoomerAMG-PCG: hypre's own SpGEMM/SpMV, vendor cuSPARSE, vendor on tcsparse", ""]
    info = read(os.path.join(d, "run-info.txt")).strip()
    if info:
        out += ["```", info, "```", ""]
    out += ["Times in seconds (hypre's own timers, max over ranks; median over repetitions).",
            "Speed-ups are the other mode's time over the shim's.", "",
            "| problem | ranks | mode | setup | solve | setup+solve | iterations | final residual | exit |",
            "|---|---|---|---|---|---|---|---|---|"]
    table = {}
    for key in sorted({(p, n) for p, n, _ in runs}, key=lambda k: (k[0], k[1])):
        prob, np_ = key
        row = {}
        for mode in MODES:
            rs = runs.get((prob, np_, mode))
            if not rs:
                continue
            good = [r for r in rs if r["rc"] == "0" and r["setup"] is not None]
            med = lambda f: statistics.median([r[f] for r in good]) if good else None
            entry = {
                "setup": med("setup"), "solve": med("solve"),
                "iterations": good[0]["iterations"] if good else None,
                "residual": good[0]["residual"] if good else None,
                "exit": ",".join(sorted({r["rc"] for r in rs})), "reps": len(rs),
            }
            if entry["setup"] is not None and entry["solve"] is not None:
                entry["total"] = entry["setup"] + entry["solve"]
            row[mode] = entry
            conv = entry["residual"] is not None and entry["residual"] <= tol
            if not conv:
                ok = False
            fmt = lambda v, f="%.4f": (f % v) if v is not None else "-"
            out.append(f"| {prob} | {np_} | {NAMES[mode]} | {fmt(entry['setup'])} | "
                       f"{fmt(entry['solve'])} | {fmt(entry.get('total'))} | "
                       f"{entry['iterations'] if entry['iterations'] is not None else '-'} | "
                       f"{fmt(entry['residual'], '%.2e')}{'' if conv else ' (not converged)'} | "
                       f"{entry['exit']} |")
        table[f"{prob}/np{np_}"] = row
    out.append("")

    # The bars: shim's setup against the other two, whole run against the better one.
    out += ["| problem | ranks | setup: vendor / tcs | setup: hypre / tcs | "
            "setup: bundle's build / tcs | total: best other / tcs | iterations tcs - vendor |",
            "|---|---|---|---|---|---|---|"]
    for k, row in table.items():
        t = row.get("tcs", {})
        if not t.get("setup"):
            continue
        ratio = lambda m, f: (row[m][f] / t[f]) if row.get(m, {}).get(f) and t.get(f) else None
        others = [row[m]["total"] for m in ("hypre", "vendor") if row.get(m, {}).get("total")]
        best = (min(others) / t["total"]) if others and t.get("total") else None
        di = None
        if row.get("vendor", {}).get("iterations") is not None and t.get("iterations") is not None:
            di = t["iterations"] - row["vendor"]["iterations"]
            if abs(di) > 1:
                ok = False
        f = lambda v: f"{v:.2f}x" if v is not None else "-"
        prob, np_ = k.split("/np")
        out.append(f"| {prob} | {np_} | {f(ratio('vendor', 'setup'))} | {f(ratio('hypre', 'setup'))} | "
                   f"{f(ratio('tcs0', 'setup'))} | {f(best)} | {di if di is not None else '-'} |")
    out.append("")

    # Scaling over rank counts, per problem and mode: t(1) / t(N) (weak: ideal 1).
    by_prob = collections.defaultdict(dict)
    for k, row in table.items():
        prob, np_ = k.split("/np")
        by_prob[prob][int(np_)] = row
    scal = []
    for prob, per in by_prob.items():
        if 1 not in per or len(per) < 2:
            continue
        for mode in MODES:
            base = per[1].get(mode, {}).get("setup")
            cells = []
            for n in sorted(per):
                s = per[n].get(mode, {}).get("setup")
                cells.append(f"{n}: {s:.3f} s ({base / s:.2f})" if s and base else f"{n}: -")
            scal.append(f"| {prob} | {NAMES[mode]} | " + " ; ".join(cells) + " |")
    if scal:
        out += ["Setup time per rank count, with t(1 rank) / t(N ranks) in parentheses "
                "(weak scaling: the same grid per rank, ideal 1.00; strong: ideal N).", "",
                "| problem | mode | ranks: setup (t1/tN) |", "|---|---|---|"] + scal + [""]

    # Traced runs: the SpGEMM share of setup, and what tcsparse ran.
    trace_rows, calls_out = [], []
    for err_path in sorted(glob.glob(os.path.join(d, "*.np1.trace.err"))):
        tag = os.path.basename(err_path)[:-4]
        m = re.match(r"(.+)\.(hypre|vendor|tcs|tcs0)\.np1\.trace$", tag)
        if not m:
            continue
        prob, mode = m.groups()
        err = read(err_path)
        parsed = parse_out(read(os.path.join(d, tag + ".out")))
        prods = [l.split() for l in err.splitlines() if l.startswith("hypre-spgemm ")]
        sp = sum(float(p[7]) for p in prods)
        setup = parsed["setup"]
        share = f"{100 * sp / setup:.0f}%" if setup else "-"
        trace_rows.append(f"| {prob} | {NAMES[mode]} | {len(prods)} | {sp:.4f} | "
                          f"{setup if setup is not None else '-'} | {share} |")
        table.setdefault(f"{prob}/trace", {})[mode] = {
            "spgemm_calls": len(prods), "spgemm_seconds": sp, "setup": setup,
            "products": [[int(x) for x in p[1:7]] + [float(p[7])] for p in prods]}
        if mode.startswith("tcs"):
            ran = collections.Counter()
            host_us = collections.Counter()
            fwd = collections.Counter()
            for l in err.splitlines():
                mm = re.match(r"tcsparse: (cusparse\w+) -> cuSPARSE", l)
                if mm:
                    fwd[mm.group(1)] += 1
                    continue
                mm = re.match(r"tcsparse: (tcs\w+) (" + NUM + r") us host", l)
                if mm:
                    ran[mm.group(1)] += 1
                    host_us[mm.group(1)] += float(mm.group(2))
            calls_out.append(f"- {prob} ({NAMES[mode]}): ran " + ", ".join(
                f"{f} x{c} ({host_us[f] / 1000:.1f} ms host)" for f, c in ran.most_common()) +
                ("; forwarded " + ", ".join(f"{f} x{c}" for f, c in fwd.most_common()) if fwd else
                 "; forwarded nothing"))
    if trace_rows:
        out += ["Traced runs (one rank; every SpGEMM waited for and timed: "
                "scripts/hypre/spgemm_timer.py, so these setups are a little longer):", "",
                "| problem | mode | SpGEMM calls | SpGEMM s | setup s | SpGEMM share of setup |",
                "|---|---|---|---|---|---|"] + trace_rows + [""]
    # Each traced product, its shape and its time in every mode (the same products in
    # the same order in every mode: one setup, one pattern).
    per = collections.defaultdict(dict)
    for k, row in table.items():
        if k.endswith("/trace"):
            for mode, t in row.items():
                per[k[:-6]][mode] = t["products"]
    for prob, modes in sorted(per.items()):
        ms = [m for m in MODES if m in modes]
        n = min(len(modes[m]) for m in ms)
        out += [f"SpGEMM products of {prob}'s setup (traced, ms):", "",
                "| m x k x n | nnz A, B, C | " + " | ".join(NAMES[m] for m in ms) + " |",
                "|---|---|" + "---:|" * len(ms)]
        for i in range(n):
            p = modes[ms[0]][i]
            out.append(f"| {p[0]} x {p[1]} x {p[2]} | {p[3]}, {p[4]}, {p[5]} | " +
                       " | ".join(f"{modes[m][i][6] * 1e3:.2f}" for m in ms) + " |")
        out.append("")
    if calls_out:
        out += ["Calls through the shim (TCS_LOG_LEVEL=3):", ""] + calls_out + [""]
    out.append("all converged, iterations within 1 of vendor: " + ("yes" if ok else "NO"))
    print("\n".join(out))
    with open(os.path.join(d, "hypre.json"), "w") as f:
        json.dump(table, f, indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
