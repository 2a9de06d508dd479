#!/usr/bin/env python3
"""Turns tcs_bench's Google Benchmark JSON into the tables and plots of docs/perf.

    scripts/perf_report.py BENCH.json [MORE.json ...] [--out DIR]

Pairs every tcsparse benchmark with the cuSPARSE one of the same operation, type and
matrix, and writes to DIR (default: docs/perf beside this script):

  spgemm.md, spgemm_speedup.png   SpGEMM: times, GFLOP/s, speedup, peak memory and ratio
  spmm.md, spmm_speedup.png       SpMM: times, GFLOP/s, speedup, time over the memory floor
  spmm_sweep.md                   the spmm_sweep family: row-split against merge-path
  spmm_width.md                   the spmm_width family: DEFAULT and cuSPARSE over n =
                                  1..256, and where time(n) exceeds a wider n's time
  spmm_blocks.md, spmm_blocks_speedup.png
                                  the spmm_blocks family: the tensor-core block family
                                  against cuSPARSE CSR, cuSPARSE Blocked-ELL (its best
                                  block size per matrix) and the CSR family; DEFAULT's
                                  choice; block counts and fill
  spgemm_algorithms.md, spgemm_algorithms.png
                                  SpGEMM per algorithm (hash, tiles on CUDA cores, tiles
                                  on tensor cores, the default) beside cuSPARSE, with the
                                  geometric means over the blocky matrices
  spgemm_scale.md                 the spgemm_scale family: SpGEMM from nnz(C) = 1e7 to
                                  what fits, beside cuSPARSE's default and ALG3, with peak
                                  memory
  roofline.md                     tcs_bench --roofline: the numeric phase of SpGEMM and the
                                  block SpMM at n = 128 against their floors on the running
                                  GPU (bytes at the measured copy bandwidth, flops at the
                                  measured MMA rate), the blocky matrices first

Speedup is cuSPARSE's time over tcsparse's (above 1: tcsparse is faster); the memory
ratio is tcsparse's peak over cuSPARSE's (below 1: tcsparse needs less). Geometric
means are also printed. Needs only the standard library; the plots need matplotlib
and are left out, with a message, when it is missing.
"""
import argparse
import datetime
import json
import math
import os
import re
import statistics
import sys

LIBS = ("tcsparse", "cusparse")
# Name components Google Benchmark appends to a benchmark's own name.
_SUFFIX = re.compile(r"^(iterations|repeats|min_time|min_warmup_time|threads|real_time|"
                     r"manual_time|process_time)(:.*)?$")


# --------------------------------------------------------------------------- reading

def base_name(name):
    """'spgemm/fp32/m/tcsparse/iterations:5/manual_time' -> 'spgemm/fp32/m/tcsparse'."""
    return "/".join(p for p in name.split("/") if not _SUFFIX.match(p))


class Result:
    """One benchmark: its counters (median over repetitions) or the error it reported."""

    def __init__(self, name, counters=None, error=None):
        self.name = name
        self.parts = name.split("/")
        self.counters = counters or {}
        self.error = error

    def get(self, key):
        return self.counters.get(key)


def _numeric_fields(row):
    return {k: float(v) for k, v in row.items()
            if isinstance(v, (int, float)) and not isinstance(v, bool)}


def load(paths):
    """Reads the JSON files; returns (context of the first file, {name: Result})."""
    context, groups, medians, errors = None, {}, {}, {}
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        if context is None:
            context = data.get("context", {})
        for row in data.get("benchmarks", []):
            name = base_name(row.get("run_name") or row["name"])
            if row.get("error_occurred"):
                errors[name] = row.get("error_message", "error")
            elif row.get("run_type") == "aggregate":
                if row.get("aggregate_name") == "median":
                    medians[name] = _numeric_fields(row)
            else:
                groups.setdefault(name, []).append(_numeric_fields(row))
    results = {}
    for name, rows in groups.items():
        keys = set().union(*rows)
        results[name] = Result(name, {k: statistics.median(r[k] for r in rows if k in r)
                                      for k in keys})
    for name, counters in medians.items():
        results[name] = Result(name, counters)
    for name, message in errors.items():
        if name not in results:
            results[name] = Result(name, error=message)
    return context or {}, results


# --------------------------------------------------------------------------- numbers

def geomean(values):
    values = [v for v in values if v is not None and v > 0 and math.isfinite(v)]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def value(result, key):
    """A counter of a measured result; None for a missing or failed benchmark."""
    if result is None or result.error:
        return None
    return result.get(key)


def ratio(num, den):
    if num is None or den is None or den <= 0:
        return None
    return num / den


def fmt(x, spec):
    return "—" if x is None else format(x, spec)


def matrices(count):
    return f"{count} matrix" if count == 1 else f"{count} matrices"


def fmt_speedup(x):
    return "—" if x is None else f"{x:.2f}x"


def fmt_mb(x):
    return "—" if x is None else f"{x / 1e6:.1f}"


def fmt_buffer_mb(x):
    """MB with three decimals below 1 MB, so that small buffers do not read as 0."""
    return "—" if x is None else f"{x / 1e6:.{1 if x >= 1e6 else 3}f}"


def fmt_count(x):
    return "—" if x is None else f"{int(round(x)):,}"


def pair_up(results, family, key_len):
    """Groups a family's results by name without the library: {key: {lib: Result}}.

    key_len is the number of name components before the library (the family included).
    """
    pairs = {}
    for r in results.values():
        if r.parts[0] == family and len(r.parts) == key_len + 1:
            pairs.setdefault(tuple(r.parts[1:key_len]), {})[r.parts[key_len]] = r
    return pairs


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def error_notes(pairs):
    notes = []
    for key in sorted(pairs):
        for lib in sorted(pairs[key]):
            r = pairs[key][lib]
            if r.error:
                notes.append(f"- `{r.name}`: {r.error}")
    if notes:
        return ["", "Not measured (the benchmark reported an error):", ""] + notes
    return []


def context_lines(context, sources):
    keys = [("device", "device"), ("compute capability", "compute_capability"),
            ("measured copy bandwidth (GB/s, read + write)", "copy_bandwidth_GBps"),
            ("measured launch (us, a 4-byte memset timed like a sample)", "launch_us"),
            ("CUDA runtime / driver", None), ("cuSPARSE", "cusparse"),
            ("tcsparse", "tcsparse"), ("git revision", "git"), ("mode", "tcs_bench_mode"),
            ("timed runs", "timed_runs"), ("L2", "l2"), ("benchmark date", "date")]
    lines = []
    for label, key in keys:
        if key is None:
            value = f"{context.get('cuda_runtime', '?')} / {context.get('cuda_driver', '?')}"
        else:
            value = context.get(key)
        if value:
            lines.append(f"- {label}: {value}")
    lines.append(f"- source: {', '.join(os.path.basename(s) for s in sources)}, "
                 f"tables written by scripts/perf_report.py on "
                 f"{datetime.date.today().isoformat()}")
    return lines


# --------------------------------------------------------------------------- SpGEMM at scale

SCALE_LIBS = (("tcsparse", "default"), ("tcsparse_hash", "hash"),
              ("tcsparse_budget", "hash budget"), ("cusparse", "cuSPARSE default"),
              ("cusparse_alg3", "cuSPARSE ALG3"))


def fmt_bytes(x):
    if x is None:
        return "—"
    return f"{x / 1e9:.2f} GB" if x >= 1e9 else f"{x / 1e6:.0f} MB"


def fmt_ms(x):
    if x is None:
        return "—"
    return f"{x:.3g} ms" if x < 100 else f"{x:.0f} ms"


def spgemm_scale_report(results, context, sources):
    """The spgemm_scale family: spgemm_scale/<type>/<matrix>/<lib>, one row per matrix."""
    rows = {}
    for r in results.values():
        if len(r.parts) < 4 or r.parts[0] != "spgemm_scale":
            continue
        rows.setdefault((r.parts[1], r.parts[2]), {})[r.parts[3]] = r
    if not rows:
        return [], [], None

    def size_of(key):
        libs = rows[key]
        for lib, _ in SCALE_LIBS:
            r = libs.get(lib)
            if r is not None and not r.error and r.get("nnz_c"):
                return r.get("nnz_c")
        return 0.0

    lines = ["# SpGEMM at scale: tcsparse beside cuSPARSE from nnz(C) = 1e7 to what fits", "",
             "tcs_bench's `spgemm_scale` family (bench/spgemm_scale.cpp): C = A·A, whole "
             "user pipeline (every call of the protocol, every allocation of the buffers "
             "and of C), median of the timed runs after a warm-up; peak is the device "
             "bytes of the buffers and of C alive at once (A not counted). tcsparse's C has "
             "64-bit indices where nnz(C) >= 2^31 (\"C bits\"); \"hash budget\" is "
             "tcsSpGEMM_estimateMemory's chunk_fraction 0.2 through the ALG3 protocol, "
             "cuSPARSE ALG3 the same fraction. Each cell: time, peak. A library that "
             "reported an error is listed under the table; \"not run\": the benchmark "
             "registers no cuSPARSE case where C needs 64-bit indices (its SpGEMM has "
             "none).", ""]
    lines += context_lines(context, sources)
    summary = []
    for vtype in sorted({k[0] for k in rows}):
        keys = sorted((k for k in rows if k[0] == vtype), key=size_of)
        lines += ["", f"## {vtype}", ""]
        header = ["matrix", "rows", "products", "nnz(C)", "C bits"] + [label for _, label in SCALE_LIBS]
        body, errors = [], []
        largest = {lib: 0.0 for lib, _ in SCALE_LIBS}
        for key in keys:
            libs = rows[key]
            ref = next((libs[l] for l, _ in SCALE_LIBS if l in libs and not libs[l].error), None)
            row = [f"`{key[1]}`", fmt_count(value(ref, "rows")), fmt(value(ref, "products"), ".3g"),
                   fmt(value(ref, "nnz_c"), ".3g"), fmt(value(libs.get("tcsparse"), "c_index_bits"), ".0f")]
            for lib, _ in SCALE_LIBS:
                r = libs.get(lib)
                if r is None:
                    row.append("not run")
                elif r.error:
                    row.append("error")
                    errors.append(f"- `{r.name}`: {r.error}")
                else:
                    row.append(f"{fmt_ms(r.get('ms'))}, {fmt_bytes(r.get('peak_bytes'))}")
                    largest[lib] = max(largest[lib], r.get("nnz_c") or 0.0)
            body.append(row)
        lines += table(header, body)
        if errors:
            lines += ["", "Errors:", ""] + errors
        done = ", ".join(f"{label} {largest[lib]:.3g}" for lib, label in SCALE_LIBS if largest[lib] > 0)
        lines += ["", f"- largest nnz(C) completed: {done}"]
        summary.append(f"spgemm_scale {vtype}: largest nnz(C) completed: {done}")
    return lines, summary, None


# --------------------------------------------------------------------------- SpGEMM

def spgemm_report(results, context, sources):
    pairs = pair_up(results, "spgemm", 3)  # spgemm/<type>/<matrix>/<lib>
    if not pairs:
        return None, [], {}
    out = ["# SpGEMM: tcsparse against cuSPARSE", "",
           "C = A·A (A·Aᵀ for rectangular A), the whole user pipeline timed: descriptor, "
           "both workEstimation and both compute calls, cudaMalloc of buffer1, buffer2 and "
           "C's arrays, copy, cudaFree of the buffers. cuSPARSE runs CUSPARSE_SPGEMM_DEFAULT "
           "(ALG1); its ALG2 footprint is in the last column. Times are medians; GFLOP/s "
           "count 2 flops per scalar product; peak memory is buffer1 + buffer2 + C's three "
           "arrays as passed to cudaMalloc. Speedup = cuSPARSE time / tcsparse time; "
           "memory ratio = tcsparse peak / cuSPARSE peak. Every result was checked against "
           "the CPU reference.", ""]
    out += context_lines(context, sources)
    summary, plot = [], {}
    for vtype in sorted({k[0] for k in pairs}):
        keys = sorted((k for k in pairs if k[0] == vtype),
                      key=lambda k: -(_first(pairs[k], "products") or 0))
        rows, speedups, memories = [], [], []
        for key in keys:
            t, c = pairs[key].get("tcsparse"), pairs[key].get("cusparse")
            speedup = ratio(value(c, "ms"), value(t, "ms"))
            memory = ratio(value(t, "peak_bytes"), value(c, "peak_bytes"))
            speedups.append(speedup)
            memories.append(memory)
            plot.setdefault(vtype, []).append((key[1], speedup, memory))
            rows.append([f"`{key[1]}`", fmt_count(_first(pairs[key], "nnz_a")),
                         fmt_count(_first(pairs[key], "nnz_c")),
                         fmt_count(_first(pairs[key], "products")),
                         fmt(value(t, "ms"), ".3f"), fmt(value(c, "ms"), ".3f"),
                         fmt(value(t, "gflops"), ".1f"), fmt(value(c, "gflops"), ".1f"),
                         fmt_speedup(speedup),
                         fmt_mb(value(t, "peak_bytes")), fmt_mb(value(c, "peak_bytes")),
                         fmt(memory, ".3f"), fmt_mb(value(c, "peak_bytes_alg2"))])
        g_speed, g_mem = geomean(speedups), geomean(memories)
        n_pairs = sum(1 for s in speedups if s)
        line = (f"geomean SpGEMM {vtype}: speedup {fmt_speedup(g_speed)}, memory ratio "
                f"{fmt(g_mem, '.3f')} (tcsparse/cuSPARSE) over {matrices(n_pairs)}")
        summary.append(line)
        out += ["", f"## {vtype}", "", line, ""]
        out += table(["matrix", "nnz(A)", "nnz(C)", "products", "tcsparse ms", "cuSPARSE ms",
                      "tcsparse GFLOP/s", "cuSPARSE GFLOP/s", "speedup", "tcsparse MB",
                      "cuSPARSE MB", "memory ratio", "cuSPARSE ALG2 MB"], rows)
    out += error_notes(pairs)
    return out, summary, plot


# The tcsparse SpGEMM variants of one run: the default and each algorithm forced.
SPGEMM_VARIANTS = (("tcsparse_hash", "hash"), ("tcsparse_tile", "tile"),
                   ("tcsparse_tile_tc", "tile TC"), ("tcsparse", "default"))
# Blocky (docs/algorithms/spgemm-tiles.md): the set, mean row length 25 or more
# (rounded: a band of width 25 has 24.99 once its first and last rows are counted) and
# >= 16 entries per nonempty 8x8 tile of A.
BLOCKY_ROW, BLOCKY_DENSITY = 24.5, 16.0


def is_blocky(pair):
    row, density = _first_of(pair, "mean_row"), _first_of(pair, "tile_density")
    return row is not None and density is not None and row >= BLOCKY_ROW and density >= BLOCKY_DENSITY


def spgemm_algorithms_report(results, context, sources):
    pairs = pair_up(results, "spgemm", 3)
    pairs = {k: v for k, v in pairs.items() if any(lib in v for lib, _ in SPGEMM_VARIANTS[:3])}
    if not pairs:
        return None, [], {}
    out = ["# SpGEMM per algorithm", "",
           "The same run as spgemm.md: C = A·A (A·Aᵀ for rectangular A), whole pipeline, "
           "median ms. tcsparse's hash algorithm, the tile algorithm on CUDA cores and on "
           "tensor cores (each forced) and TCS_SPGEMM_DEFAULT, beside cuSPARSE's default. "
           f"Blocky: mean row length >= {BLOCKY_ROW:g} and >= {BLOCKY_DENSITY:g} entries per "
           "nonempty 8x8 tile of A (the issue's set: 3-dof stencils, wide bands, structural "
           "matrices). Ratios are times: default/hash = hash ms / default ms (above 1: the "
           "default is faster than the hash algorithm); TC/CUDA = tile ms / tile TC ms.", ""]
    out += context_lines(context, sources)
    summary, plot = [], {}
    for vtype in sorted({k[0] for k in pairs}):
        keys = sorted((k for k in pairs if k[0] == vtype),
                      key=lambda k: -(_first_of(pairs[k], "products") or 0))
        rows = []
        blocky = {"default/hash": [], "default/cuSPARSE": [], "TC/CUDA": [], "TC/hash": []}
        for key in keys:
            p = pairs[key]
            ms = {label: value(p.get(lib), "ms") for lib, label in SPGEMM_VARIANTS}
            cus = value(p.get("cusparse"), "ms")
            r_def_hash = ratio(ms["hash"], ms["default"])
            r_def_cus = ratio(cus, ms["default"])
            r_tc_cuda = ratio(ms["tile"], ms["tile TC"])
            r_tc_hash = ratio(ms["hash"], ms["tile TC"])
            b = is_blocky(p)
            if b:
                for name, r in (("default/hash", r_def_hash), ("default/cuSPARSE", r_def_cus),
                                ("TC/CUDA", r_tc_cuda), ("TC/hash", r_tc_hash)):
                    blocky[name].append(r)
            plot.setdefault(vtype, []).append((key[1], r_tc_hash, r_def_cus))
            rows.append([f"`{key[1]}`", fmt(_first_of(p, "mean_row"), ".1f"),
                         fmt(_first_of(p, "tile_density"), ".1f"), "yes" if b else "",
                         fmt(ms["hash"], ".3f"), fmt(ms["tile"], ".3f"), fmt(ms["tile TC"], ".3f"),
                         fmt(ms["default"], ".3f"), fmt(cus, ".3f"), fmt_speedup(r_def_hash),
                         fmt_speedup(r_tc_hash), fmt_speedup(r_tc_cuda), fmt_speedup(r_def_cus),
                         fmt_mb(value(p.get("tcsparse_hash"), "peak_bytes")),
                         fmt_mb(value(p.get("tcsparse_tile_tc"), "peak_bytes")),
                         fmt_mb(value(p.get("cusparse"), "peak_bytes"))])
        n_blocky = sum(1 for k in keys if is_blocky(pairs[k]))
        line = (f"blocky SpGEMM {vtype} ({matrices(n_blocky)}): default {fmt_speedup(geomean(blocky['default/hash']))} "
                f"over hash, {fmt_speedup(geomean(blocky['default/cuSPARSE']))} over cuSPARSE; tile TC "
                f"{fmt_speedup(geomean(blocky['TC/hash']))} over hash, {fmt_speedup(geomean(blocky['TC/CUDA']))} "
                f"over tiles on CUDA cores (geomeans)")
        summary.append(line)
        out += ["", f"## {vtype}", "", line, ""]
        out += table(["matrix", "mean row", "tile density", "blocky", "hash ms", "tile ms",
                      "tile TC ms", "default ms", "cuSPARSE ms", "default/hash", "TC/hash",
                      "TC/CUDA", "default/cuSPARSE", "hash MB", "tile TC MB", "cuSPARSE MB"], rows)
    out += error_notes(pairs)
    return out, summary, plot


def plot_spgemm_algorithms(plot, path, plt):
    names = sorted({m for rows in plot.values() for m, _, _ in rows})
    fig, axes = plt.subplots(2, 1, figsize=(max(8, 0.35 * len(names)), 8), sharex=True)
    width = 0.8 / max(1, len(plot))
    nan = float("nan")
    for i, vtype in enumerate(sorted(plot)):
        values = {m: (a, b) for m, a, b in plot[vtype]}
        xs = [j + i * width for j in range(len(names))]
        for ax, k in ((axes[0], 0), (axes[1], 1)):
            ax.bar(xs, [values.get(m, (None, None))[k] or nan for m in names], width, label=vtype)
    for ax, label in zip(axes, ("tile TC speedup over hash", "default speedup over cuSPARSE")):
        _log_axis(ax, plt)
        ax.set_ylabel(label)
        ax.legend()
    axes[1].set_xticks([j + 0.4 - width / 2 for j in range(len(names))])
    axes[1].set_xticklabels(names, rotation=75, ha="right", fontsize=8)
    axes[0].set_title("SpGEMM: tiles on tensor cores against the hash algorithm, and the default\n"
                      "against cuSPARSE (above 1: faster)", fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _first(pair, key):
    """A counter that both libraries report alike (sizes): the first one present."""
    return _first_of({lib: pair[lib] for lib in LIBS if lib in pair}, key)


def _first_of(pair, key):
    for name in sorted(pair):
        v = value(pair[name], key)
        if v is not None:
            return v
    return None


# --------------------------------------------------------------------------- SpMM

def _n_of(part):
    return int(part[1:]) if part.startswith("n") and part[1:].isdigit() else 0


def floor_line(vtype, order, n, ratios):
    """tcsparse's time over the floor, and over floor + launch, for one n: the medians
    and how many matrices are within 3x."""
    plain = [f for f, _ in ratios if f]
    launched = [f for _, f in ratios if f]
    if not plain:
        return None
    line = (f"time/floor SpMM {vtype} {order}-major n={n}: median {statistics.median(plain):.2f}, "
            f"<= 3x for {sum(1 for f in plain if f <= 3)} of {len(plain)}")
    if launched:
        line += (f"; time/(floor+launch): median {statistics.median(launched):.2f}, "
                 f"<= 3x for {sum(1 for f in launched if f <= 3)} of {len(launched)}")
    return line


def buffer_line(vtype, order, buffers):
    """buffers: [(tcsparse bytes, cuSPARSE bytes, matrix, n)]: the largest of each."""
    known = [b for b in buffers if b[0] is not None and b[1] is not None]
    if not known:
        return None
    t = max(known, key=lambda b: b[0])
    c = max(known, key=lambda b: b[1])
    return (f"buffer SpMM {vtype} {order}-major: tcsparse at most {fmt_buffer_mb(t[0])} MB "
            f"({t[2]}, n={t[3]}), cuSPARSE at most {fmt_buffer_mb(c[1])} MB ({c[2]}, n={c[3]})")


def spmm_report(results, context, sources):
    pairs = pair_up(results, "spmm", 5)  # spmm/<type>/<order>/n<N>/<matrix>/<lib>
    if not pairs:
        return None, [], {}
    out = ["# SpMM: tcsparse against cuSPARSE", "",
           "C = A·B with A sparse (CSR) and B, C dense (n columns), beta = 0. Both libraries "
           "run their default algorithm with the buffer allocated and preprocess done once, "
           "outside the timing; each timed sample is one SpMM call after the L2 cache was "
           "flushed, timed on the GPU (the stream is held until the call and both events "
           "are queued, so host delays stay out). Times are medians. GFLOP/s count 2·nnz(A)·n. The memory floor is the "
           "time to read A (row offsets, columns, values) and B and write C once at the "
           "device's measured copy bandwidth; time/floor = 1 would be a kernel bound only by "
           "DRAM. No kernel takes less than a launch, and for most small matrices the floor is "
           "far below it, so the tables also give time / (floor + launch), the launch being "
           "the measured time of a 4-byte memset timed like a sample. "
           "Speedup = cuSPARSE time / tcsparse time. Buffer = the bytes each library's "
           "bufferSize asked for (A, B and C take the same memory in both, so this is the "
           "difference in peak device memory). Every result was checked against "
           "the CPU reference (sampled columns, every row).", ""]
    out += context_lines(context, sources)
    summary, plot = [], {}
    for vtype, order in sorted({k[:2] for k in pairs}):
        keys = sorted((k for k in pairs if k[:2] == (vtype, order)),
                      key=lambda k: (k[3], _n_of(k[2])))
        rows, by_n, floors, buffers = [], {}, {}, []
        for key in keys:
            t, c = pairs[key].get("tcsparse"), pairs[key].get("cusparse")
            speedup = ratio(value(c, "ms"), value(t, "ms"))
            n = _n_of(key[2])
            by_n.setdefault(n, []).append(speedup)
            floors.setdefault(n, []).append((value(t, "floor_ratio"), value(t, "floor_launch_ratio")))
            buffers.append((value(t, "buffer_bytes"), value(c, "buffer_bytes"), key[3], n))
            if (vtype, order) == ("fp32", "row"):
                plot.setdefault(n, []).append((_first(pairs[key], "nnz_a"), speedup))
            rows.append([f"`{key[3]}`", str(n), fmt_count(_first(pairs[key], "nnz_a")),
                         fmt(value(t, "ms"), ".4g"), fmt(value(c, "ms"), ".4g"),
                         fmt(value(t, "gflops"), ".1f"), fmt(value(c, "gflops"), ".1f"),
                         fmt_speedup(speedup),
                         fmt(value(t, "floor_ratio"), ".2f"), fmt(value(c, "floor_ratio"), ".2f"),
                         fmt(value(t, "floor_launch_ratio"), ".2f"),
                         fmt_buffer_mb(value(t, "buffer_bytes")),
                         fmt_buffer_mb(value(c, "buffer_bytes"))])
        out += ["", f"## {vtype}, {'row' if order == 'row' else 'column'}-major B and C", ""]
        for n in sorted(by_n):
            g = geomean(by_n[n])
            count = sum(1 for s in by_n[n] if s)
            line = (f"geomean SpMM {vtype} {order}-major n={n}: speedup {fmt_speedup(g)} "
                    f"over {matrices(count)}")
            summary.append(line)
            out.append(f"- {line}")
        for n in sorted(floors):
            line = floor_line(vtype, order, n, floors[n])
            if line:
                summary.append(line)
                out.append(f"- {line}")
        line = buffer_line(vtype, order, buffers)
        if line:
            summary.append(line)
            out.append(f"- {line}")
        out.append("")
        out += table(["matrix", "n", "nnz(A)", "tcsparse ms", "cuSPARSE ms", "tcsparse GFLOP/s",
                      "cuSPARSE GFLOP/s", "speedup", "tcsparse time/floor",
                      "cuSPARSE time/floor", "tcsparse time/(floor+launch)",
                      "tcsparse buffer MB", "cuSPARSE buffer MB"], rows)
    out += error_notes(pairs)
    return out, summary, plot


# --------------------------------------------------------------------------- SpMV

def spmv_report(results, context, sources):
    pairs = pair_up(results, "spmv", 4)  # spmv/<type>/<N|T>/<matrix>/<lib>
    if not pairs:
        return None, [], {}
    out = ["# SpMV: tcsparse against cuSPARSE", "",
           "y = op(A)·x with A sparse (CSR) and x, y dense vectors, beta = 0. tcsparse runs "
           "tcsSpMV (SpMM's one-column kernel), cuSPARSE its default CSR algorithm (CSR_ALG1, "
           "the faster of its two); both with the buffer allocated and preprocess done once, "
           "outside the timing, as a Krylov solver multiplies by one A many times. Each timed "
           "sample is one call after the L2 cache was flushed, timed on the GPU with the "
           "stream held (as SpMM's); times are medians. GFLOP/s count 2·nnz(A). The floor is "
           "the time to read A, x and write y once at the measured copy bandwidth. "
           "Speedup = cuSPARSE time / tcsparse time. For op(A) = T tcsparse's default "
           "scatters with atomics (as cuSPARSE's CSR_ALG1 does); where the run has it, "
           "tcsparse's deterministic CSR_ALG2 (a transposed copy of A's structure, A's values "
           "read through it) "
           "is listed beside it. Every result was checked against the "
           "CPU reference (every entry).", ""]
    out += context_lines(context, sources)
    summary, plot = [], {}
    for vtype, op in sorted({k[:2] for k in pairs}):
        keys = sorted(k for k in pairs if k[:2] == (vtype, op))
        deterministic = any("tcsparse_alg2" in pairs[k] for k in keys)
        rows, speedups, over_alg2 = [], [], []
        for key in keys:
            t, c = pairs[key].get("tcsparse"), pairs[key].get("cusparse")
            d = pairs[key].get("tcsparse_alg2")
            speedup = ratio(value(c, "ms"), value(t, "ms"))
            speedups.append(speedup)
            if op == "N":
                plot.setdefault(vtype, []).append((_first(pairs[key], "nnz_a"), speedup))
            row = [f"`{key[2]}`", fmt_count(_first(pairs[key], "nnz_a")),
                   fmt(value(t, "ms"), ".4g"), fmt(value(c, "ms"), ".4g"),
                   fmt(value(t, "gflops"), ".1f"), fmt(value(c, "gflops"), ".1f"),
                   fmt_speedup(speedup), fmt(value(t, "floor_ratio"), ".2f"),
                   fmt(value(c, "floor_ratio"), ".2f"),
                   fmt_buffer_mb(value(t, "buffer_bytes")),
                   fmt_buffer_mb(value(c, "buffer_bytes"))]
            if deterministic:
                gain = ratio(value(d, "ms"), value(t, "ms"))
                over_alg2.append(gain)
                row += [fmt(value(d, "ms"), ".4g"), fmt_speedup(ratio(value(c, "ms"), value(d, "ms"))),
                        fmt_speedup(gain), fmt_buffer_mb(value(d, "buffer_bytes"))]
            rows.append(row)
        measured = [x for x in speedups if x]
        line = (f"geomean SpMV {vtype} op(A)={op}: speedup {fmt_speedup(geomean(speedups))} "
                f"over {matrices(len(measured))}")
        if measured:
            low = min(measured)
            line += f" (lowest {fmt_speedup(low)}, {sum(1 for x in measured if x < 1.0)} below 1)"
        summary.append(line)
        out += ["", f"## {vtype}, op(A) = {op}", "", f"- {line}"]
        header = ["matrix", "nnz(A)", "tcsparse ms", "cuSPARSE ms", "tcsparse GFLOP/s",
                  "cuSPARSE GFLOP/s", "speedup", "tcsparse time/floor", "cuSPARSE time/floor",
                  "tcsparse buffer MB", "cuSPARSE buffer MB"]
        if deterministic:
            gained = [x for x in over_alg2 if x]
            extra = (f"geomean SpMV {vtype} op(A)={op}: tcsparse default over its CSR_ALG2 "
                     f"{fmt_speedup(geomean(over_alg2))} over {matrices(len(gained))}")
            summary.append(extra)
            out += [f"- {extra}"]
            header += ["tcsparse CSR_ALG2 ms", "CSR_ALG2 speedup", "default over CSR_ALG2",
                       "CSR_ALG2 buffer MB"]
        out += [""] + table(header, rows)
    out += error_notes(pairs)
    return out, summary, plot


def plot_spmv(plot, path, plt):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for vtype in sorted(plot):
        points = [(x, y) for x, y in plot[vtype] if x and y]
        if points:
            ax.scatter([p[0] for p in points], [p[1] for p in points], label=vtype, s=18)
    ax.axhline(1.0, color="gray", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("nnz(A)")
    ax.set_ylabel("speedup over cuSPARSE SpMV")
    ax.set_title("SpMV y = A·x (op(A) = N)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


# --------------------------------------------------------------------------- sweep

def best_threshold(points):
    """points: [(mean_row_len, rowsplit_ms, merge_ms)]. The rule 'row-split when the mean
    row length is at least tau, else merge-path' with the tau that minimises the geometric
    mean of chosen time / best time; returns (tau, that geomean)."""
    candidates = sorted({p[0] for p in points}) + [math.inf]
    best = None
    for tau in candidates:
        slow = [(rs if mrl >= tau else mg) / min(rs, mg) for mrl, rs, mg in points]
        g = geomean(slow)
        if best is None or g < best[1] - 1e-12:
            best = (tau, g)
    return best


def sweep_report(results, context, sources):
    pairs = pair_up(results, "spmm_sweep", 5)  # spmm_sweep/<type>/<order>/n<N>/<matrix>/<alg>
    if not pairs:
        return None, [], {}
    out = ["# SpMM heuristic sweep: row-split against merge-path", "",
           "tcsparse's two CSR SpMM algorithms forced (TCS_SPMM_CSR_ROWSPLIT, "
           "TCS_SPMM_CSR_MERGE), fp32, row-major B and C, timed like docs/perf/spmm.md. "
           "The rule at the end of each table is the one threshold on the mean row length "
           "(row-split at or above it) that loses least against always picking the winner.",
           ""]
    out += context_lines(context, sources)
    summary = []
    for vtype, order, npart in sorted({k[:3] for k in pairs}, key=lambda k: (k[0], k[1], _n_of(k[2]))):
        keys = sorted((k for k in pairs if k[:3] == (vtype, order, npart)),
                      key=lambda k: _first_of(pairs[k], "mean_row_len") or 0)
        rows, points, wins = [], [], {"rowsplit": 0, "merge": 0}
        for key in keys:
            rs, mg = pairs[key].get("rowsplit"), pairs[key].get("merge")
            rs_ms, mg_ms = value(rs, "ms"), value(mg, "ms")
            mrl = _first_of(pairs[key], "mean_row_len")
            winner = "—"
            if rs_ms and mg_ms:
                winner = "rowsplit" if rs_ms <= mg_ms else "merge"
                wins[winner] += 1
                winner += f" ({max(rs_ms, mg_ms) / min(rs_ms, mg_ms):.2f}x)"
                if mrl is not None:
                    points.append((mrl, rs_ms, mg_ms))
            rows.append([f"`{key[3]}`", fmt_count(_first_of(pairs[key], "nnz_a")), fmt(mrl, ".1f"),
                         fmt(value(rs, "ms"), ".4g"), fmt(value(mg, "ms"), ".4g"), winner])
        n = _n_of(npart)
        out += ["", f"## {vtype}, {order}-major, n = {n}", ""]
        out += table(["matrix", "nnz(A)", "mean row length", "rowsplit ms", "merge ms",
                      "winner (margin)"], rows)
        line = f"sweep {vtype} {order}-major n={n}: rowsplit wins {wins['rowsplit']}, merge wins {wins['merge']}"
        if points:
            tau, loss = best_threshold(points)
            rule = ("always merge" if tau == math.inf else
                    f"rowsplit when mean row length >= {tau:.1f}")
            line += f"; best single rule: {rule} (geomean {loss:.3f}x of the best)"
        summary.append(line)
        out += ["", line]
    out += error_notes(pairs)
    return out, summary, {}


def width_report(results, context, sources):
    pairs = pair_up(results, "spmm_width", 5)  # spmm_width/<type>/<order>/n<N>/<matrix>/<lib>
    if not pairs:
        return None, [], {}
    out = ["# SpMM over n = 1..256: DEFAULT against cuSPARSE", "",
           "tcsparse's DEFAULT and cuSPARSE's default SpMM, timed like docs/perf/spmm.md, at "
           "sixteen widths. `over wider` is time(n) over the least time of any wider n "
           "measured (above 1: a wider product took less time, the width cliff; issue 37's "
           "bar is 1.10 at most). Speedup = cuSPARSE time / tcsparse time.", ""]
    out += context_lines(context, sources)
    summary = []
    for vtype, order, matrix in sorted({(k[0], k[1], k[3]) for k in pairs}):
        keys = sorted((k for k in pairs if (k[0], k[1], k[3]) == (vtype, order, matrix)),
                      key=lambda k: _n_of(k[2]))
        times = [(_n_of(k[2]), value(pairs[k].get("tcsparse"), "ms"),
                  value(pairs[k].get("cusparse"), "ms")) for k in keys]
        rows, cliffs, speedups = [], [], []
        for i, (n, tc, cu) in enumerate(times):
            wider = [t for _, t, _ in times[i + 1:] if t]
            over = tc / min(wider) if tc and wider else None
            if over is not None:
                cliffs.append((over, n))
            sp = ratio(cu, tc)
            if sp is not None:
                speedups.append((sp, n))
            rows.append([str(n), fmt(tc, ".4g"), fmt(cu, ".4g"), fmt_speedup(sp), fmt(over, ".2f")])
        out += ["", f"## `{matrix}`, {vtype}, {order}-major", ""]
        out += table(["n", "tcsparse ms", "cuSPARSE ms", "speedup", "over wider"], rows)
        line = f"width {vtype} {order}-major {matrix}:"
        if cliffs:
            worst = max(cliffs)
            line += f" worst time(n)/time(wider) {worst[0]:.2f} at n={worst[1]}"
        if speedups:
            low = min(speedups)
            line += f"; lowest speedup {low[0]:.2f}x at n={low[1]}"
        summary.append(line)
        out += ["", line]
    out += error_notes(pairs)
    return out, summary, {}


# --------------------------------------------------------------------------- blocks

BELL_SIZES = (8, 16, 32, 64)


def best_bell(variants):
    """(ms, block size) of the fastest measured cuSPARSE Blocked-ELL variant, or None."""
    timed = [(value(variants.get(f"cusparse_bell{b}"), "ms"), b) for b in BELL_SIZES]
    timed = [t for t in timed if t[0] is not None]
    return min(timed) if timed else None


def blocks_report(results, context, sources):
    # spmm_blocks/<type>/<order>/n<N>/<matrix>/<variant>
    pairs = pair_up(results, "spmm_blocks", 5)
    if not pairs:
        return None, [], {}
    out = ["# SpMM on tensor cores: the block family against cuSPARSE and the CSR family", "",
           "C = A·B, A CSR, B and C row-major, beta = 0, timed as docs/perf/spmm.md (cold L2, "
           "stream held, median). Variants: **blocks** = TCS_SPMM_BSR_TC on the CSR matrix "
           "(docs/algorithms/spmm-blocks.md); **csr** = TCS_SPMM_CSR_ALG2, the CSR family's own "
           "rule (DEFAULT before the block family); **DEFAULT** = TCS_SPMM_ALG_DEFAULT; "
           "**cuSPARSE** = its CSR SpMM (CUSPARSE_SPMM_ALG_DEFAULT, CSR_ALG3 where that declines "
           "mixed precision); **BELL** = cuSPARSE's Blocked-ELL SpMM on tensor cores at its "
           "fastest block size of 8, 16, 32, 64 for the matrix. fp16 runs have fp16 A, B and C "
           "with fp32 compute. Paid once and reported apart: our preprocess (the block analysis, "
           "with its one wait; 'calls to amortise' = preprocess / (csr - blocks) where the "
           "blocks are faster) and the host's conversion of CSR to Blocked-ELL (plus upload). "
           "Blocks: 32 rows x 16 condensed columns; natural / reordered / used = counts in A's "
           "row order, in the signature order, and in the order used; fill = nnz / (used x 512).",
           ""]
    out += context_lines(context, sources)
    summary, plot = [], {}
    groups = sorted({k[:3] for k in pairs}, key=lambda k: (k[0], k[1], _n_of(k[2])))
    for vtype, order, npart in groups:
        n = _n_of(npart)
        keys = sorted(k for k in pairs if k[:3] == (vtype, order, npart))
        rows, vs_cus, vs_bell, vs_csr, default_vs_best, default_vs_csr = [], [], [], [], [], []
        points = []
        for key in keys:
            v = pairs[key]
            blk, csr, dflt, cus = (v.get(x) for x in ("blocks", "csr", "tcsparse", "cusparse"))
            b_ms, c_ms, d_ms, cu_ms = (value(x, "ms") for x in (blk, csr, dflt, cus))
            bell = best_bell(v)
            bell_ms = bell[0] if bell else None
            best_cus = min([t for t in (cu_ms, bell_ms) if t is not None], default=None)
            vs_cus.append(ratio(cu_ms, b_ms))
            vs_bell.append(ratio(bell_ms, b_ms))
            vs_csr.append(ratio(c_ms, b_ms))
            default_vs_best.append(ratio(best_cus, d_ms))
            default_vs_csr.append(ratio(c_ms, d_ms))
            fill = value(blk, "fill")
            if b_ms and c_ms and fill is not None:
                points.append((fill, b_ms, c_ms))  # blocks when fill >= tau
            pre = value(blk, "preprocess_ms")
            gain = (c_ms - b_ms) if b_ms and c_ms else None
            amortise = pre / gain if pre is not None and gain and gain > 0 else None
            conv = value(v.get(f"cusparse_bell{bell[1]}"), "conversion_ms") if bell else None
            counts = "/".join(fmt_count(value(blk, k)) for k in
                              ("blocks_natural", "blocks_reordered", "blocks_used"))
            rows.append([f"`{key[3]}`", fmt_count(_first_of(v, "nnz_a")), counts, fmt(fill, ".3f"),
                         fmt(b_ms, ".4g"), fmt(c_ms, ".4g"), fmt(d_ms, ".4g"), fmt(cu_ms, ".4g"),
                         fmt(bell_ms, ".4g") + (f" ({bell[1]})" if bell else ""),
                         fmt_speedup(ratio(cu_ms, b_ms)), fmt_speedup(ratio(bell_ms, b_ms)),
                         fmt_speedup(ratio(c_ms, b_ms)), fmt(pre, ".3g"), fmt(amortise, ".0f"),
                         fmt(conv, ".4g")])
            if vtype == "fp16" and n >= 32:
                plot.setdefault(n, []).append((key[3], ratio(cu_ms, b_ms), ratio(bell_ms, b_ms)))
        out += ["", f"## {vtype}, {order}-major, n = {n}", ""]
        out += table(["matrix", "nnz(A)", "blocks natural/reordered/used", "fill", "blocks ms",
                      "csr ms", "DEFAULT ms", "cuSPARSE ms", "BELL ms (size)", "blocks vs cuSPARSE",
                      "blocks vs BELL", "blocks vs csr", "preprocess ms", "calls to amortise",
                      "BELL conversion ms"], rows)
        count = len([x for x in vs_cus if x])
        line = (f"geomean SpMM blocks {vtype} {order}-major n={n}: {fmt_speedup(geomean(vs_cus))} "
                f"over cuSPARSE CSR, {fmt_speedup(geomean(vs_bell))} over cuSPARSE Blocked-ELL at its "
                f"best block size, {fmt_speedup(geomean(vs_csr))} over the CSR family "
                f"({matrices(count)})")
        worst = min([x for x in default_vs_csr if x], default=None)
        line += (f"; DEFAULT {fmt_speedup(geomean(default_vs_best))} over the best cuSPARSE option, "
                 f"at worst {fmt(worst, '.3f')}x the CSR family")
        if points:
            tau, loss = best_threshold(points)
            rule = "never blocks" if tau == math.inf else f"blocks when fill >= {tau:.3f}"
            line += f"; best single rule: {rule} (geomean {loss:.3f}x of the best)"
        summary.append(line)
        out += ["", line]
    out += error_notes(pairs)
    return out, summary, plot


def plot_blocks(plot, path, plt):
    ns = sorted(plot)
    fig, axes = plt.subplots(len(ns), 1, figsize=(10, 4 * len(ns)), squeeze=False)
    nan = float("nan")
    for ax, n in zip(axes[:, 0], ns):
        rows = sorted(plot[n])
        xs = range(len(rows))
        ax.bar([x - 0.2 for x in xs], [r[1] or nan for r in rows], 0.4, label="over cuSPARSE CSR")
        ax.bar([x + 0.2 for x in xs], [r[2] or nan for r in rows], 0.4,
               label="over cuSPARSE Blocked-ELL (best block size)")
        _log_axis(ax, plt)
        ax.set_xticks(list(xs))
        ax.set_xticklabels([r[0] for r in rows], rotation=75, ha="right", fontsize=8)
        ax.set_ylabel("speedup of the block family")
        ax.set_title(f"SpMM fp16 (fp32 compute), row-major, n = {n}", fontsize=11)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


# --------------------------------------------------------------------------- roofline

# Issue 37's bars for the three largest blocky matrices: the tile SpGEMM multiply within
# 6x its floor, the block SpMM at n = 128 within 2x.
ROOF_SPGEMM_BAR, ROOF_SPMM_BAR = 6.0, 2.0


def roof_cells(r):
    return [fmt(value(r, "roof_bytes") and value(r, "roof_bytes") / 1e6, ".1f"),
            fmt(value(r, "roof_flops") and value(r, "roof_flops") / 1e9, ".2f"),
            fmt(value(r, "roof_bytes_ms"), ".4f"), fmt(value(r, "roof_mma_ms"), ".4f"),
            fmt(value(r, "ms"), ".4f"), fmt(value(r, "roof_ratio"), ".1f")]


ROOF_HEADER = ["matrix", "variant", "bytes (MB)", "flops (G)", "bytes floor ms", "MMA floor ms",
               "ms", "time / floor"]


def roofline_report(results, context, sources):
    """spgemm_numeric/<type>/<matrix>/<variant> and spmm_blocks/<type>/row/n128/<matrix>/<variant>."""
    spgemm = pair_up(results, "spgemm_numeric", 3)
    spmm = {k: v for k, v in pair_up(results, "spmm_blocks", 5).items() if k[2] == "n128"}
    if not spgemm:
        return None, [], {}
    # The blocky set and sizes come from the SpGEMM counters (mean row, tile density).
    size, blocky = {}, set()
    for (vtype, matrix), v in spgemm.items():
        size[matrix] = _first_of(v, "nnz_a") or 0
        if is_blocky(v):
            blocky.add(matrix)
    largest = sorted(blocky, key=lambda m: -size[m])[:3]
    out = ["# Roofline: time over the floor on the running GPU", "",
           "What `tcs_bench --roofline` measures (bench/roofline.hpp). The floor of a case is "
           "the longer of two times: its unavoidable bytes at the measured copy bandwidth "
           "(SpGEMM: A read once, and B where it is another matrix, C's offsets, columns and "
           "values written once; SpMM: A as CSR and B read once, C written once) and its "
           "flops (2 per product) at the measured rate of the tensor-core instruction the "
           "precision's exact path uses (DMMA m8n8k4 for fp32 and fp64, HMMA m16n8k16 with "
           "fp32 accumulation for fp16; bench/mma_rate.cu). **SpGEMM** times the numeric "
           "phase alone: compute and copy run again on the same descriptor and buffers (new "
           "values, same pattern), cold L2, median. **SpMM** is one call after preprocess "
           "(docs/perf/spmm_blocks.md): blocks = TCS_SPMM_BSR_TC, DEFAULT = TCS_SPMM_ALG_DEFAULT, "
           "csr = TCS_SPMM_CSR_ALG2, BELL = cuSPARSE's Blocked-ELL at the block size named.",
           ""]
    out += context_lines(context, sources)
    for key in ("dmma_f64_TFLOPS", "hmma_f16_TFLOPS"):
        if context.get(key):
            out.append(f"- measured {key.split('_')[0].upper()} rate: {context[key]} TFLOP/s "
                       f"({'fp64 m8n8k4' if key.startswith('dmma') else 'fp16 m16n8k16, fp32 accumulation'})")
    out += ["", f"Blocky (mean row >= {BLOCKY_ROW:g}, >= {BLOCKY_DENSITY:g} entries per nonempty "
                f"8x8 tile): {', '.join(f'`{m}`' for m in sorted(blocky)) or 'none'}; the three "
                f"largest: {', '.join(f'`{m}`' for m in largest) or 'none'}."]
    summary = []
    for vtype in sorted({k[0] for k in spgemm}):
        rows = []
        keys = sorted((k for k in spgemm if k[0] == vtype),
                      key=lambda k: (k[1] not in largest, k[1] not in blocky, -size[k[1]]))
        for key in keys:
            for variant in sorted(spgemm[key]):
                rows.append([f"`{key[1]}`", variant] + roof_cells(spgemm[key][variant]))
        out += ["", f"## SpGEMM numeric phase, {vtype}", ""] + table(ROOF_HEADER, rows)
        worst = [value(spgemm.get((vtype, m), {}).get("tcsparse_tile_tc"), "roof_ratio") for m in largest]
        if any(w is not None for w in worst):
            line = (f"roofline SpGEMM {vtype} tile TC numeric phase on the three largest blocky "
                    f"matrices: " + ", ".join(f"{m} {fmt(w, '.1f')}x" for m, w in zip(largest, worst)) +
                    f" the floor (bar <= {ROOF_SPGEMM_BAR:g}x)")
            summary.append(line)
            out += ["", line]
    for vtype in sorted({k[0] for k in spmm}):
        rows = []
        keys = sorted((k for k in spmm if k[0] == vtype),
                      key=lambda k: (k[3] not in largest, k[3] not in blocky, -(size.get(k[3]) or 0)))
        for key in keys:
            for variant in sorted(spmm[key]):
                rows.append([f"`{key[3]}`", variant] + roof_cells(spmm[key][variant]))
        out += ["", f"## Block SpMM, {vtype}, n = 128", ""] + table(ROOF_HEADER, rows)
        worst = [value(spmm.get((vtype, "row", "n128", m), {}).get("blocks"), "roof_ratio") for m in largest]
        if any(w is not None for w in worst):
            line = (f"roofline SpMM blocks {vtype} n=128 on the three largest blocky matrices: " +
                    ", ".join(f"{m} {fmt(w, '.1f')}x" for m, w in zip(largest, worst)) +
                    f" the floor (bar <= {ROOF_SPMM_BAR:g}x)")
            summary.append(line)
            out += ["", line]
    out += error_notes(spgemm) + error_notes(spmm)
    return out, summary, {}


# --------------------------------------------------------------------------- plots

def _log_axis(ax, plt):
    """Log scale with plain tick labels (0.5, 2, 4 rather than powers of ten)."""
    ax.set_yscale("log")
    plain = plt.matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}")
    ax.yaxis.set_major_formatter(plain)
    ax.yaxis.set_minor_formatter(plain)
    ax.axhline(1.0, color="black", linewidth=0.8)


def plot_spgemm(plot, path, plt):
    names = sorted({m for rows in plot.values() for m, _, _ in rows})
    fig, axes = plt.subplots(2, 1, figsize=(max(8, 0.35 * len(names)), 8), sharex=True)
    width = 0.8 / max(1, len(plot))
    nan = float("nan")
    for i, vtype in enumerate(sorted(plot)):
        values = {m: (s, r) for m, s, r in plot[vtype]}
        xs = [j + i * width for j in range(len(names))]
        for ax, k in ((axes[0], 0), (axes[1], 1)):  # a missing pair leaves a gap
            ax.bar(xs, [values.get(m, (None, None))[k] or nan for m in names], width, label=vtype)
    for ax, label in zip(axes, ("speedup (cuSPARSE time / tcsparse time)",
                                "peak memory, tcsparse / cuSPARSE")):
        _log_axis(ax, plt)
        ax.set_ylabel(label)
        ax.legend()
    axes[1].set_xticks([j + 0.4 - width / 2 for j in range(len(names))])
    axes[1].set_xticklabels(names, rotation=75, ha="right", fontsize=8)
    axes[0].set_title("SpGEMM, whole pipeline: tcsparse against cuSPARSE\n"
                      "(speedup above 1 and memory below 1: tcsparse better)", fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_spmm(plot, path, plt):
    fig, ax = plt.subplots(figsize=(8, 5))
    markers = "os^Dv<>ph"
    for i, n in enumerate(sorted(plot)):
        pts = [(x, y) for x, y in plot[n] if x and y]
        if pts:
            ax.scatter([p[0] for p in pts], [p[1] for p in pts], label=f"n = {n}", s=22,
                       marker=markers[i % len(markers)], alpha=0.8)
    ax.set_xscale("log")
    _log_axis(ax, plt)
    ax.set_xlabel("nnz(A)")
    ax.set_ylabel("speedup (cuSPARSE time / tcsparse time)")
    ax.set_title("SpMM fp32, row-major B and C: tcsparse against cuSPARSE\n"
                 "(above 1: tcsparse faster)", fontsize=11)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def import_pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker  # noqa: F401  (plt.matplotlib.ticker below)
        return plt
    except ImportError:
        return None


# --------------------------------------------------------------------------- main

def write(path, lines):
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {path}")


def main(argv=None):
    default_out = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "docs", "perf")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("json", nargs="+", help="tcs_bench --benchmark_out files (JSON)")
    parser.add_argument("--out", default=os.path.normpath(default_out),
                        help="output directory (default: docs/perf)")
    args = parser.parse_args(argv)

    context, results = load(args.json)
    if not results:
        print("no benchmark results in " + ", ".join(args.json), file=sys.stderr)
        return 1
    os.makedirs(args.out, exist_ok=True)
    plt = import_pyplot()
    summary = []

    reports = ((spgemm_report, "spgemm.md", plot_spgemm, "spgemm_speedup.png"),
               (spgemm_algorithms_report, "spgemm_algorithms.md", plot_spgemm_algorithms,
                "spgemm_algorithms.png"),
               (spmm_report, "spmm.md", plot_spmm, "spmm_speedup.png"),
               (spmv_report, "spmv.md", plot_spmv, "spmv_speedup.png"),
               (sweep_report, "spmm_sweep.md", None, None),
               (width_report, "spmm_width.md", None, None),
               (blocks_report, "spmm_blocks.md", plot_blocks, "spmm_blocks_speedup.png"),
               (spgemm_scale_report, "spgemm_scale.md", None, None),
               (roofline_report, "roofline.md", None, None))
    for report, md, plotter, png in reports:
        lines, s, plot = report(results, context, args.json)
        if not lines:
            continue
        write(os.path.join(args.out, md), lines)
        summary += s
        if plt and plotter and plot:
            plotter(plot, os.path.join(args.out, png), plt)
            print(f"wrote {os.path.join(args.out, png)}")
    if plt is None:
        print("matplotlib is not available: tables only, no plots")
    for line in summary:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
