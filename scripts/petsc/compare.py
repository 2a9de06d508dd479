#!/usr/bin/env python3
"""The summary of scripts/petsc.sh run: for each case and rank count, plain cuSPARSE's run
beside the run with tcsparse's shim preloaded. Writes Markdown to stdout:

- results: exit status, iteration counts, residual norms, product norms (nnz exactly,
  Frobenius and 1-norms relative), side by side, with the relative difference;
- times: -log_view's events (max over ranks, summed over stages) for MatMatMult,
  MatPtAP, MatMult, GAMG's setup and the solve, and the whole run;
- calls: from the TCS_LOG_LEVEL=2 runs, each cuSPARSE call tcsparse ran ("tcsparse:
  tcsX") and each one it forwarded ("tcsparse: cusparseX -> cuSPARSE"), with counts.

Files in DIR: <case>.<plain|tcs|trace>.np<N>.{out,err,rc,logview}.
usage: compare.py DIR      exit 0 when every pair agrees (see TOL), 1 otherwise.
"""
import collections
import glob
import os
import re
import sys

# Relative differences accepted: products are the same sums in another order (a few
# ulps); Krylov residuals carry that through the iterations; PETSc's own product tests
# (ex94, ex237 -check) decide for themselves and report through the exit status.
TOL = {"product": 1e-10, "matmult": 1e-12, "residual": 1e-6, "monitor": 1e-4}

EVENTS = [
    "MatMatMultSym", "MatMatMultNum", "MatPtAPSymbolic", "MatPtAPNumeric", "MatMult",
    "MatMultAdd", "MatMultTranspose", "MatCUSPARSGenT", "MatCUSPARSCopyTo", "PCSetUp",
    "PCSetUp_GAMG+", "GAMG PtAP", "KSPSolve", "PCApply",
]
NUM = r"[-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?"


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return None


def logview(path):
    """({event: seconds}, total seconds) from a -log_view file."""
    text = read(path)
    if text is None:
        return {}, None
    total = None
    m = re.search(r"^Time \(sec\):\s+(" + NUM + ")", text, re.M)
    if m:
        total = float(m.group(1))
    events = collections.defaultdict(float)
    in_events = False
    for line in text.splitlines():
        if line.startswith("--- Event Stage"):
            in_events = True
            continue
        if in_events and line.startswith("----"):
            in_events = False
            continue
        if not in_events:
            continue
        m = re.match(r"^(.*?)\s+(\d+)\s+(" + NUM + r")\s+(" + NUM + r")\s+(" + NUM + r")\s", line)
        if m:
            events[m.group(1).strip()] += float(m.group(4))
    return dict(events), total


def results(text):
    """The numbers a run prints: {key: value}, in order."""
    out = collections.OrderedDict()
    if text is None:
        return out
    reuse_count = collections.Counter()
    for line in text.splitlines():
        m = re.search(r"product (\S+) (\S+) rows (\d+) cols (\d+) nnz (\d+) fro (" + NUM +
                      r") norm1 (" + NUM + ")", line)
        if m:
            what, stage = m.group(1), m.group(2)
            if stage == "reuse":
                reuse_count[what] += 1
                stage = f"reuse{reuse_count[what]}"
            key = f"{what} {stage}"
            out[f"{key} nnz"] = int(m.group(5))
            out[f"{key} fro"] = float(m.group(6))
            out[f"{key} norm1"] = float(m.group(7))
            continue
        m = re.search(r"matmult norm2 (" + NUM + ")", line)
        if m:
            out["MatMult norm2(y)"] = float(m.group(1))
            continue
        m = re.search(r"Linear solve (\S+) due to (\S+) iterations (\d+)", line)
        if m:
            out["KSP reason"] = m.group(2)
            out["KSP iterations"] = int(m.group(3))
            continue
        m = re.match(r"\s*(\d+) KSP Residual norm (" + NUM + ")", line)
        if m:
            out[f"monitor {int(m.group(1)):3d}"] = float(m.group(2))
            continue
        m = re.match(r"Residual norm (" + NUM + ")", line)  # ex45's |b - Ax| at the end
        if m:
            out["residual norm(b-Ax)"] = float(m.group(1))
            continue
        if re.search(r"^Error|Error with", line):
            out.setdefault("errors", 0)
            out["errors"] += 1
    return out


def reldiff(a, b):
    if a == b:
        return 0.0
    scale = max(abs(a), abs(b))
    return abs(a - b) / scale if scale else 0.0


def tolerance(key):
    if key.endswith(" fro") or key.endswith(" norm1"):
        return TOL["product"]
    if key.startswith("MatMult"):
        return TOL["matmult"]
    if key.startswith("residual"):
        return TOL["residual"]
    if key.startswith("monitor"):
        return TOL["monitor"]
    return 0.0


def fmt(v):
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.6g}" if abs(v) < 1e-3 or abs(v) >= 1e4 else f"{v:.6f}"
    return str(v)


def traces(path):
    ran, forwarded = collections.Counter(), collections.Counter()
    text = read(path)
    if text is None:
        return None
    for line in text.splitlines():
        m = re.match(r"tcsparse: (tcs\w+)$", line)
        if m:
            ran[m.group(1)] += 1
            continue
        m = re.match(r"tcsparse: (cusparse\w+) -> cuSPARSE$", line)
        if m:
            forwarded[m.group(1)] += 1
    return ran, forwarded


def main(d):
    runs = collections.defaultdict(dict)  # (case, np) -> {mode: prefix}
    for rc in sorted(glob.glob(os.path.join(d, "*.rc"))):
        base = os.path.basename(rc)[:-3]
        case, mode, np_ = base.rsplit(".", 2)
        runs[(case, int(np_[2:]))][mode] = os.path.join(d, base)
    print("# PETSc with plain cuSPARSE and with tcsparse's swap-in\n")
    info = read(os.path.join(d, "run-info.txt"))
    if info:
        print("```\n" + info.strip() + "\n```\n")
    ok = True
    for (case, np_), modes in sorted(runs.items()):
        print(f"## {case}, {np_} rank{'s' if np_ > 1 else ''}\n")
        cols = [m for m in ("plain", "tcs") if m in modes]
        status = {m: (read(modes[m] + ".rc") or "?").strip() for m in cols}
        print("| | " + " | ".join(cols) + " | rel. diff | |")
        print("|---|" + "---|" * len(cols) + "---|---|")
        print("| exit status | " + " | ".join(status[m] for m in cols) + " | | " +
              ("" if all(s == "0" for s in status.values()) else "**failed**") + " |")
        if any(s != "0" for s in status.values()):
            ok = False
        res = {m: results(read(modes[m] + ".out")) for m in cols}
        keys = list(res[cols[0]].keys()) if cols else []
        for m in cols[1:]:
            keys += [k for k in res[m] if k not in keys]
        for k in keys:
            vals = [res[m].get(k) for m in cols]
            mark, diff = "", ""
            if len(cols) == 2:
                a, b = vals
                if a is None or b is None:
                    mark, ok = "**missing**", False
                elif isinstance(a, (str, int)):  # reasons, iteration counts, nnz: exactly
                    if a != b:
                        mark, ok = "**differs**", False
                else:
                    r = reldiff(float(a), float(b))
                    diff = f"{r:.1e}"
                    if r > tolerance(k):
                        mark, ok = "**differs**", False
            if k == "errors":
                mark, ok = "**PETSc reported errors**", False
            print(f"| {k} | " + " | ".join(fmt(v) for v in vals) + f" | {diff} | {mark} |")
        print()
        logs = {m: logview(modes[m] + ".logview") for m in cols}
        names = [e for e in EVENTS if any(e in logs[m][0] for m in cols)]
        print("| -log_view seconds (max over ranks) | " + " | ".join(cols) +
              (" | tcs / plain |" if len(cols) == 2 else " |"))
        print("|---|" + "---|" * len(cols) + ("---|" if len(cols) == 2 else ""))
        rows = [(e, [logs[m][0].get(e) for m in cols]) for e in names]
        rows.append(("whole run", [logs[m][1] for m in cols]))
        for e, vals in rows:
            ratio = ""
            if len(cols) == 2 and vals[0] and vals[1] is not None:
                ratio = f" {vals[1] / vals[0]:.2f} |"
            elif len(cols) == 2:
                ratio = " |"
            print(f"| {e} | " + " | ".join(fmt(v) for v in vals) + " |" + ratio)
        print()
    # calls
    tr = sorted(glob.glob(os.path.join(d, "*.trace.np*.err")))
    if tr:
        print("## cuSPARSE calls under the shim (TCS_LOG_LEVEL=2 runs)\n")
        for path in tr:
            name = os.path.basename(path)[: -len(".err")]
            got = traces(path)
            rc = (read(path[: -len(".err")] + ".rc") or "?").strip()
            ran, fwd = got
            print(f"### {name} (exit {rc})\n")
            print("ran by tcsparse: " + (", ".join(f"`{k}` {v}" for k, v in sorted(ran.items())) or "none"))
            print()
            print("forwarded to cuSPARSE: " + (", ".join(f"`{k}` {v}" for k, v in sorted(fwd.items())) or "none"))
            print()
    print("verdict: " + ("every pair agrees" if ok else "DIFFERENCES or FAILURES above"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "petsc-out"))
