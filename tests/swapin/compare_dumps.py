#!/usr/bin/env python3
"""Compares the result dumps of two runs of a swap-in test program (interleaved.c):
the plain cuSPARSE run and the run under the shim.

Each dump is a sequence of records "KIND LABEL COUNT" followed by COUNT values in C's
%a notation. KIND "exact": computed by the real cuSPARSE in both runs from inputs the
program uploaded, so the shim must hand it the very same inputs: bitwise equal. KIND
"close": computed by tcsparse under the shim (or from its results): within 1e-10 of the
plain run relative to the larger magnitude, or 1e-11 absolute for values that cancel
to near zero (tcsparse sums in another order; the programs' values are of order 1).

usage: compare_dumps.py PLAIN SHIM        exit 0 when they agree, 1 otherwise
"""
import sys


def records(path):
    out = {}
    with open(path) as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines) and lines[i]:
        kind, label, count = lines[i].split()
        count = int(count)
        out[label] = (kind, [float.fromhex(v) for v in lines[i + 1:i + 1 + count]])
        i += 1 + count
    return out


def main(plain_path, shim_path):
    plain, shim = records(plain_path), records(shim_path)
    if sorted(plain) != sorted(shim):
        print("compare_dumps: the runs recorded different results: %s vs %s"
              % (sorted(plain), sorted(shim)))
        return 1
    bad = 0
    for label, (kind, want) in plain.items():
        got = shim[label][1]
        if len(got) != len(want):
            print("compare_dumps: %s: %d values, plain run %d" % (label, len(got), len(want)))
            bad += 1
            continue
        worst = 0.0
        for g, w in zip(got, want):
            if kind == "exact":
                if g != w and not (g != g and w != w):
                    worst = float("inf")
            else:
                difference = abs(g - w)
                if difference > 1e-11:
                    worst = max(worst, difference / max(abs(g), abs(w)))
        limit = 0.0 if kind == "exact" else 1e-10
        verdict = "ok" if worst <= limit else "DIFFERENT"
        print("compare_dumps: %-16s %-5s %8d values, largest relative difference %.3g: %s"
              % (label, kind, len(want), worst, verdict))
        bad += worst > limit
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
