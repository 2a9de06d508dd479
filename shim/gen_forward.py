#!/usr/bin/env python3
"""Writes the forwarding half of libtcsparse_cusparse.so, and its table.

The shim must export every function of the real <cusparse.h>: a program linked with it
instead of libcusparse finds all its names there, and under LD_PRELOAD no call may reach
the real library with a shim object behind a pointer. The functions tcsparse runs or the
shim keeps (handle, descriptors) are written by hand (products.c, handle.c,
descriptors.c); this script writes every other one as a forwarder to the real cuSPARSE,
which replaces the shim's objects (handle, SpMat, DnMat, DnVec, SpGEMM descriptors) by
their real counterparts (objects.c) and, after a call that may change a sparse matrix,
reads its nnz back. For each hand-written function it writes two forwarders the
hand-written code falls back on: tcs_shim_forward_X (shim objects in) and
tcs_shim_forward_X_real (real objects in).

The declarations are read from the header after the C preprocessor has run on it (with
CUSPARSEAPI defined to a marker), so conditionals, comments and deprecation macros need
no parsing here, and the definitions repeat the header's own parameter lists: the
compiler checks them against the declarations when it builds the output.

With --table, it also writes docs/forwarding.md: which function is accelerated, kept by
the shim or forwarded, read from the same sources (the tcs functions a hand-written
function calls are found in its body).

usage: gen_forward.py CC CUSPARSE_H OUT_DIR --accelerated SRC... --kept SRC...
                      [--table MD] [-I DIR]...
"""
import os
import re
import subprocess
import sys

MARKER = "TCS_SHIM_CUSPARSEAPI"
# The shim's objects, by parameter type: what converts each to its real counterpart.
CONVERTERS = {
    "cusparseHandle_t": "tcs_shim_real_handle",
    "cusparseSpMatDescr_t": "tcs_shim_real_spmat",
    "cusparseConstSpMatDescr_t": "tcs_shim_real_spmat",
    "cusparseDnMatDescr_t": "tcs_shim_real_dnmat",
    "cusparseConstDnMatDescr_t": "tcs_shim_real_dnmat",
    "cusparseDnVecDescr_t": "tcs_shim_real_dnvec",
    "cusparseConstDnVecDescr_t": "tcs_shim_real_dnvec",
    "cusparseSpGEMMDescr_t": "tcs_shim_real_spgemm",
}
# A sparse matrix the call may change: its nnz is read back afterwards.
MUTABLE_SPARSE = "cusparseSpMatDescr_t"
OBJECT_POINTER = re.compile(r"\b(%s)\s*\*" % "|".join(CONVERTERS))


def declarations(cc, header, include_dirs):
    """(return type, name, [(type, name)]) of every CUSPARSEAPI function."""
    cmd = [cc, "-E", "-P", "-x", "c", "-DCUSPARSEAPI=" + MARKER,
           "-DDISABLE_CUSPARSE_DEPRECATED"] + ["-I" + d for d in include_dirs] + [header]
    text = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    found = []
    for statement in text.split(";"):
        if MARKER not in statement:
            continue
        m = re.search(r"([\w\s\*]+?)\s*\b" + MARKER + r"\s+(\w+)\s*\((.*)\)\s*$", statement,
                      re.S)
        if not m:
            sys.exit("gen_forward.py: cannot read the declaration:\n" + statement.strip())
        ret = " ".join(m.group(1).split())
        found.append((ret, m.group(2), parameters(m.group(2), " ".join(m.group(3).split()))))
    return found


def parameters(function, text):
    if text in ("", "void"):
        return []
    params, depth, start = [], 0, 0
    for i, ch in enumerate(text + ","):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            piece = text[start:i].strip()
            start = i + 1
            m = re.match(r"^(.*?[\s\*])(\w+)$", piece)
            if not m or "(" in piece or "[" in piece:
                sys.exit("gen_forward.py: %s: cannot read the parameter '%s'" % (function, piece))
            params.append((" ".join(m.group(1).split()), m.group(2)))
    return params


def base_type(t):
    return re.sub(r"^const\s+", "", t)


def function_bodies(text):
    """name -> body of every function defined at the top level of a C source."""
    bodies = {}
    for m in re.finditer(r"^[A-Za-z_][\w \t\*]*?\b(\w+)\s*\([^;{}]*\)\s*\{", text, re.M):
        open_brace = m.end() - 1
        depth, i = 0, open_brace
        while True:
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        bodies[m.group(1)] = text[open_brace:i + 1]
    return bodies


def hand_written(sources):
    """name -> (source file, body text, the file's function bodies) of each CUSPARSEAPI
    function defined by hand."""
    found = {}
    for path in sources:
        with open(path) as f:
            text = f.read()
        bodies = function_bodies(text)
        for name in re.findall(r"\bCUSPARSEAPI\s+(cusparse\w+)\s*\(", text):
            found[name] = (os.path.basename(path), bodies[name], bodies)
    return found


def absent(ret, name):
    if ret == "cusparseStatus_t":
        return 'return tcs_shim_absent("%s");' % name
    return ('{\n        %s result_;\n        (void)tcs_shim_absent("%s");\n'
            '        memset(&result_, 0, sizeof result_);\n        return result_;\n    }'
            % (ret, name))


def body(ret, name, params, convert):
    """The forwarding body: resolve, convert the objects, call, read nnz back. A stale or
    foreign object is NOT_INITIALIZED before an absent cuSPARSE is NOT_SUPPORTED."""
    lines = ["    TCS_SHIM_REAL(%s, real_);" % name]
    args, pulls = [], []
    objects = [(t, n) for t, n in params if base_type(t) in CONVERTERS] if convert else []
    if not objects:
        lines.append("    if (real_ == NULL) %s" % absent(ret, name))
    if objects:
        if ret != "cusparseStatus_t":
            sys.exit("gen_forward.py: %s takes an object but returns %s" % (name, ret))
        lines.append("    cusparseStatus_t status_ = CUSPARSE_STATUS_SUCCESS;")
    for t, n in params:
        if convert and base_type(t) in CONVERTERS:
            lines.append("    %s %s_ = (%s)%s(%s, &status_);" % (t, n, t, CONVERTERS[base_type(t)], n))
            args.append(n + "_")
            if base_type(t) == MUTABLE_SPARSE:
                pulls.append(n)
        else:
            args.append(n)
    if objects:
        lines.append("    if (status_ != CUSPARSE_STATUS_SUCCESS) return status_;")
        lines.append("    if (real_ == NULL) %s" % absent(ret, name))
    lines.append('    tcs_shim_trace_forward("%s");' % name)
    call = "real_(%s)" % ", ".join(args)
    if pulls:
        lines.append("    const cusparseStatus_t result_ = %s;" % call)
        lines.append("    if (result_ == CUSPARSE_STATUS_SUCCESS) {")
        lines.extend("        tcs_shim_spmat_pull_real(%s);" % n for n in pulls)
        lines.append("    }")
        lines.append("    return result_;")
    elif ret == "void":
        lines.append("    %s;" % call)
    else:
        lines.append("    return %s;" % call)
    return "\n".join(lines)


def signature(params):
    return ", ".join("%s %s" % p for p in params) if params else "void"


def write_sources(decls, done, header, out_dir):
    banner = ("/* Generated by shim/gen_forward.py from %s: do not edit. */\n" % header)
    h = [banner,
         "#ifndef TCSPARSE_SHIM_FORWARD_H_",
         "#define TCSPARSE_SHIM_FORWARD_H_",
         "",
         "/* The forwarders of the functions the shim writes by hand: tcs_shim_forward_X",
         " * takes the shim's objects and passes their real counterparts, _real takes real",
         " * objects as they are. NOT_SUPPORTED when the real library is absent. */"]
    c = [banner.rstrip("\n"),
         "/* Every cuSPARSE function tcsparse neither runs nor keeps: a forwarder to the",
         " * real library (shim.h). */",
         '#include "shim.h"',
         "",
         "#include <string.h>",
         ""]
    forwarded = 0
    for ret, name, params in decls:
        sig = signature(params)
        if name in done:
            if ret != "cusparseStatus_t":
                continue  # written by hand without a fallback (error strings)
            for suffix, convert in (("", True), ("_real", False)):
                h.append("cusparseStatus_t tcs_shim_forward_%s%s(%s);" % (name, suffix, sig))
                c.append("cusparseStatus_t tcs_shim_forward_%s%s(%s) {" % (name, suffix, sig))
                c.append(body(ret, name, params, convert))
                c.append("}")
                c.append("")
            continue
        if OBJECT_POINTER.search(sig):
            sys.exit("gen_forward.py: %s hands out a shim object and must be written by hand" % name)
        c.append("%s CUSPARSEAPI %s(%s) {" % (ret, name, sig))
        c.append(body(ret, name, params, True))
        c.append("}")
        c.append("")
        forwarded += 1
    c.append("/* %d functions forwarded */" % forwarded)
    h += ["", "#endif"]
    with open(os.path.join(out_dir, "forward.h"), "w") as f:
        f.write("\n".join(h) + "\n")
    with open(os.path.join(out_dir, "forward.c"), "w") as f:
        f.write("\n".join(c) + "\n")


def tcs_calls(body, bodies, seen=None):
    """The tcs functions a body calls, also through the file's own helpers."""
    seen = set() if seen is None else seen
    names = []
    for n in re.findall(r"\b(\w+)\s*\(", body):
        if re.match(r"tcs[A-Z]", n):
            if n not in names:
                names.append(n)
        elif n in bodies and n not in seen:
            seen.add(n)
            names += [t for t in tcs_calls(bodies[n], bodies, seen) if t not in names]
    return names


TABLE_INTRO = """# What the swap-in runs where

Generated by `shim/gen_forward.py` from the shim's sources and from `cusparse.h` %s
(CUDA toolkit's); the test `swapin_forwarding_table` checks that this page matches the
code. `libtcsparse_cusparse.so` exports every one of the header's %d functions:

- **accelerated** (%d): tcsparse runs the call; where an operand is one tcsparse cannot
  hold (a format other than CSR, index arrays of mixed widths, a strided batch, a
  complex or integer type) or tcsparse answers `NOT_SUPPORTED` for valid input (an
  algorithm value of another format, say) or `ARCH_MISMATCH` (a GPU this build of
  tcsparse has no code for, or one without a feature the call needs), the real cuSPARSE
  runs it instead, on the same objects;
- **kept by the shim** (%d): the handle and the descriptors. The shim's objects carry
  the tcsparse object and, made on first need, the real one, built from the same
  pointers; setters change both (docs/migration.md);
- **forwarded** (%d): the real cuSPARSE runs the call, with the shim's objects replaced
  by their real counterparts.

The library that sized a buffer can use it: a call tcsparse sized may still go to
cuSPARSE when it runs (`TCS_CHECK_INPUTS=1` while the stream is captured, the block
SpMM finding a column twice in a row of A, a GPU without tcsparse code). So a size query
tcsparse answers for SpMV and SpMM (`cusparseSpMV_bufferSize`, `cusparseSpMM_bufferSize`),
whose later calls do not carry the buffer's size, returns the larger of tcsparse's and
cuSPARSE's sizes; the SpGEMM stages carry it, so their size queries are tcsparse's alone
and a `cusparseSpGEMM_workEstimation` or `cusparseSpGEMMreuse_workEstimation` with a
buffer goes to cuSPARSE only where cuSPARSE's size fits the buffer. A call goes to
cuSPARSE only where cuSPARSE's own size query for it succeeds; otherwise tcsparse's
status comes back. An SpGEMM protocol's later stages stay with the library its
workEstimation ran on.
`NOT_SUPPORTED` and `ARCH_MISMATCH` come back only there and where the real library
cannot be loaded (then `TCS_LOG_LEVEL=1` says why). With `TCS_LOG_LEVEL=2` every accelerated call is traced as
`tcsparse: tcsX` and every call the real library runs as `tcsparse: cusparseX -> cuSPARSE`.
64-bit indices (row offsets and columns both `CUSPARSE_INDEX_64I`, PyTorch's default)
run on tcsparse in SpMV, SpMM and SpGEMM, whose kernels read them as stored; a 64-bit
matrix of 2^31 nonzeros or more, or of 2^31 - 1 rows or columns or more, goes to the real
cuSPARSE (tcsparse's kernels keep positions in 32 bits).

## Accelerated

| cuSPARSE function | tcsparse functions it calls |
|---|---|
"""


def write_table(path, decls, done, classes, version):
    accelerated = [n for _, n, _ in decls if n in done and classes[done[n][0]] == "accelerated"]
    kept = [n for _, n, _ in decls if n in done and classes[done[n][0]] == "kept"]
    forwarded = [(n, p) for _, n, p in decls if n not in done]
    out = [TABLE_INTRO % (version, len(decls), len(accelerated), len(kept), len(forwarded))]
    for n in accelerated:
        out.append("| `%s` | %s |\n" % (n, ", ".join("`%s`" % t for t in tcs_calls(done[n][1], done[n][2]))))
    out.append("\n## Kept by the shim\n\n| cuSPARSE function | tcsparse functions it calls |\n"
               "|---|---|\n")
    for n in kept:
        calls = tcs_calls(done[n][1], done[n][2])
        out.append("| `%s` | %s |\n" % (n, ", ".join("`%s`" % t for t in calls) if calls
                                        else "(answered from the shim's fields, or by the real cuSPARSE)"))
    generic = [n for n, p in forwarded if any(base_type(t) in CONVERTERS for t, _ in p)]
    other = [n for n, p in forwarded if n not in generic]
    out.append("\n## Forwarded\n\nTaking a handle or a generic-API descriptor (%d):\n\n" % len(generic))
    out.append(", ".join("`%s`" % n for n in generic) + "\n")
    out.append("\nThe rest (%d: legacy matrix descriptors and infos, logging, and the like):\n\n"
               % len(other))
    out.append(", ".join("`%s`" % n for n in other) + "\n")
    with open(path, "w") as f:
        f.write("".join(out))


def header_version(cc, header, include_dirs):
    probe = "#include <cusparse.h>\nTCS_V CUSPARSE_VER_MAJOR.CUSPARSE_VER_MINOR.CUSPARSE_VER_PATCH\n"
    cmd = [cc, "-E", "-P", "-x", "c", "-DDISABLE_CUSPARSE_DEPRECATED", "-I" + os.path.dirname(header)]
    cmd += ["-I" + d for d in include_dirs] + ["-"]
    text = subprocess.run(cmd, input=probe, check=True, capture_output=True, text=True).stdout
    m = re.search(r"TCS_V\s+(\d+)\s*\.\s*(\d+)\s*\.\s*(\d+)", text)
    return "%s.%s.%s" % m.groups() if m else "?"


def main(argv):
    include_dirs, positional, table = [], [], None
    classes, groups, mode = {}, {"accelerated": [], "kept": []}, None
    it = iter(argv[1:])
    for a in it:
        if a == "-I":
            include_dirs.append(next(it))
        elif a == "--table":
            table = next(it)
        elif a in ("--accelerated", "--kept"):
            mode = a[2:]
        elif mode is not None:
            groups[mode].append(a)
            classes[os.path.basename(a)] = mode
        else:
            positional.append(a)
    if len(positional) != 3:
        sys.exit(__doc__)
    cc, header, out_dir = positional

    decls = declarations(cc, header, include_dirs)
    declared = {name for _, name, _ in decls}
    done = hand_written(groups["accelerated"] + groups["kept"])
    unknown = sorted(set(done) - declared)
    if unknown:
        sys.exit("gen_forward.py: written by hand but not in %s: %s" % (header, ", ".join(unknown)))
    write_sources(decls, done, header, out_dir)
    if table:
        write_table(table, decls, done, classes, header_version(cc, header, include_dirs))


if __name__ == "__main__":
    main(sys.argv)
