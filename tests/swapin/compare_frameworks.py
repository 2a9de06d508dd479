#!/usr/bin/env python3
"""Compares a framework's run under the shim with its plain run (frameworks.py) and
says, per operation: whether the results are the same (bitwise, or the largest
difference relative to the largest magnitude of the result), the median times side by
side, and which calls tcsparse ran ("tcsparse: tcsX" lines of the TCS_LOG_LEVEL=2
trace) and which it forwarded to cuSPARSE ("tcsparse: cusparseX -> cuSPARSE").

usage: compare_frameworks.py PLAIN.npz PLAIN.out SHIM.npz SHIM.out SHIM.err [LABEL]
Exit: 0 when every result agrees (patterns exactly; values within 1e-5 relative for
fp32 and 1e-12 for fp64), 1 otherwise.
"""
import collections
import re
import sys

import numpy as np


def times(path):
    out = {}
    for line in open(path):
        m = re.match(r"op (\S+) ms ([0-9.]+)", line)
        if m:
            out[m.group(1)] = float(m.group(2))
    return out


def traces(path):
    """{op: (Counter of accelerated tcs calls, Counter of forwarded cusparse calls)}"""
    out = collections.OrderedDict()
    op = None
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("tcsparse-op: "):
            op = line.split(": ", 1)[1]
            out[op] = (collections.Counter(), collections.Counter())
        elif op is not None:
            m = re.match(r"tcsparse: (tcs\w+)$", line)
            f = re.match(r"tcsparse: (cusparse\w+) -> cuSPARSE$", line)
            if m:
                out[op][0][m.group(1)] += 1
            elif f:
                out[op][1][f.group(1)] += 1
    return out


def main(argv):
    if len(argv) not in (6, 7):
        sys.exit(__doc__)
    plain, shim = np.load(argv[1]), np.load(argv[3])
    t_plain, t_shim = times(argv[2]), times(argv[4])
    calls = traces(argv[5])
    label = argv[6] if len(argv) == 7 else ""
    bad = 0
    for op in t_plain:
        keys = sorted(k for k in plain.files if k.startswith(op + "."))
        verdicts = []
        for k in keys:
            a, b = plain[k], shim[k] if k in shim.files else None
            if b is None or a.shape != b.shape:
                verdicts.append("%s: shape %s vs %s" % (k.split(".")[-1], a.shape,
                                                        None if b is None else b.shape))
                bad += 1
                continue
            if np.array_equal(a, b):
                verdicts.append("%s bitwise" % k.split(".")[-1])
                continue
            if not np.issubdtype(a.dtype, np.floating):
                verdicts.append("%s DIFFERENT" % k.split(".")[-1])
                bad += 1
                continue
            scale = max(float(np.max(np.abs(a))) if a.size else 0.0, 1e-300)
            diff = float(np.max(np.abs(a.astype(np.float64) - b.astype(np.float64)))) / scale
            limit = 1e-12 if a.dtype == np.float64 else 1e-5
            ok = diff <= limit
            bad += not ok
            verdicts.append("%s %s %.2g" % (k.split(".")[-1], "within" if ok else "OFF BY", diff))
        accelerated, forwarded = calls.get(op, (collections.Counter(), collections.Counter()))
        ran = ", ".join(sorted(accelerated)) or "-"
        fwd = ", ".join(sorted(forwarded)) or "-"
        ms_plain, ms_shim = t_plain.get(op), t_shim.get(op)
        speed = "%.2fx" % (ms_plain / ms_shim) if ms_plain and ms_shim else "?"
        print("%s%-38s plain %9.3f ms  shim %9.3f ms  (%s)  | tcsparse: %s | cuSPARSE: %s | %s"
              % (label, op, ms_plain or -1, ms_shim or -1, speed, ran, fwd, "; ".join(verdicts)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
