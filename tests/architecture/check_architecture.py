#!/usr/bin/env python3
"""The layering and comment rules of issue 39 (ctest architecture_rules, tests/source_checks.cmake).

Fails, naming each fault, where:
  1. a file under cpp/<op>/<family>/ includes a file of another family's folder
     (cpp/<op2>/<family2>/, any operation), other than the known debt in ALLOWED below;
     or a lower layer includes a higher one: cpp/core/ includes only cpp/core/,
     cpp/formats/ and cpp/check/ only cpp/core/, cpp/formats/ and their own folder, and
     nothing in cpp/ includes lib/ or the public header tcsparse.h;
  2. a comment in cpp/ or lib/ quotes a measurement: a time (12 us, 3.4 ms), a ratio
     (0.8x, 1.36x), a percentage (7%), a bandwidth (GB/s), "same run", a revision hash,
     or a stale note ("not measured again since", "a first guess, to be measured").
     Measurements live in docs/algorithms/<family>.md (dated, with device and revision);
     the code keeps one line of why and a pointer there;
  3. a pointer `docs/<page>.md, "<heading>"` in a comment of cpp/ or lib/ names a page
     that does not exist or a heading the page does not have (the start of one);
  4. a kernel is launched with <<<...>>> outside cpp/core/kernel_launch.hpp, or a grid
     helper (a function named grid_for*, blocks_for* or *_grid) is defined outside
     cpp/core/grid.hpp, beyond the known debt in LAUNCH_DEBT and GRID_DEBT (issue 39: one
     launch helper, one grid helper);
  5. a family folder cpp/<op>/<family>/ has no rules.hpp (beyond RULES_DEBT), or a
     constant (`constexpr` or `inline constexpr`) of a rules file (a family's rules.hpp,
     or an operation's selection rule in SELECTION_RULES) has no docs pointer
     `docs/<page>.md, "<heading>"` in its comment, or a family's other file defines a
     numeric constant of its own (a `constexpr` whose value is a literal: a tuning
     choice, which belongs in the rules file) other than the structural ones in
     STRUCTURAL.
docs/architecture.md's paths are checked by docs_match_code (tests/docs/check_docs.py).

Before the tree, the script checks itself: it plants one fault of each kind in a
temporary tree and fails if any goes unreported (self_test below).

Python 3 standard library only.
Usage: check_architecture.py [source-dir]   (default: the checkout holding this file)
"""
import os
import re
import sys
import tempfile

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SOURCE_SUFFIXES = (".c", ".h", ".cpp", ".hpp", ".cu", ".cuh")
OPERATIONS = ("spgemm", "spmm")

# Known debt of issue 39 (item 2: shared pieces move down into cpp/core or cpp/formats, no
# family includes a sibling). Each entry is (file, included path). Remove an entry when
# its include goes; a new sibling include fails the test.
ALLOWED = set()

# Files whose comments may still quote measurements while that debt of issue 39 (item 3)
# is paid; none is left. The comment rules skip a file named here; remove it once it passes.
COMMENT_DEBT = set()

# What the lower layers of cpp/ may include (folders under cpp/).
LOWER_LAYERS = {
    "core": {"core"},
    "formats": {"core", "formats"},
    "check": {"core", "check"},
}

# One launch helper and one grid helper (issue 39 item 2). Known debt: the files that
# still launch with <<<>>> or define their own grid_for; a new one fails the test.
LAUNCH_HELPER = "cpp/core/kernel_launch.hpp"
LAUNCH_DEBT = set()
GRID_HELPER = "cpp/core/grid.hpp"
GRID_DEBT = set()
# A grid helper's definition: a function named grid_for*, blocks_for* or *_grid.
GRID_HELPER_DEFINITION = re.compile(r"\b(grid_for\w*|blocks_for\w*|\w+_grid)\s*\([^;]*\)\s*(const\s*)?\{")

# Every family's choices sit in one host-only rules file, cpp/<op>/<family>/rules.hpp
# (issue 39 item 1); the operation's selection keeps its own rule file beside select.
RULES_FILE = "rules.hpp"
SELECTION_RULES = {"cpp/spgemm/rule.hpp"}
# DEBT, to be emptied when the SpMM side of issue 39 merges: these families' rules files
# are written on another branch. Until then a family named here may lack its rules.hpp,
# and its other files are not searched for constants of their own.
RULES_DEBT = set()
# Files of a family whose numeric constants are still to move into its rules.hpp (or to
# STRUCTURAL, where they are facts): the debt of issue 39 item 1 left after the SpMM
# families got their rules files. Remove a file once it defines none.
CONSTANT_DEBT = set()
# Numeric constants a family's files may define outside its rules file: facts of the
# hardware or the format, not choices. (family file, name): why.
STRUCTURAL = {
    ("cpp/spgemm/hash/flat_walk.cuh", "kFullMask"): "every lane of a warp (shuffle masks)",
    ("cpp/spmm/csr/scatter_column.cuh", "kAll"): "every lane of a warp (shuffle masks)",
    ("cpp/spgemm/hash/hash_table.cuh", "kEmpty"): "the empty slot's key, no column index",
    ("cpp/spgemm/hash/operands.hpp", "kRowProductLimit"): "INT_MAX: the 32-bit counts of the kernels",
    ("cpp/spgemm/tiles/panel_merge.cuh", "kFull"): "every lane of a warp (shuffle masks)",
    ("cpp/spgemm/tiles/multiply.cuh", "kTableTiles"): "the A tiles of a kind-1 panel: one per lane of a warp",
    ("cpp/spmm/csr/geometry.hpp", "kVectorBytes"): "the widest load of a thread (16 bytes): "
                                                  "a vector of B, V = 16 / element size",
    ("cpp/spmm/blocks/kernel.cuh", "kFull"): "every lane of a warp (shuffle masks)",
    ("cpp/spmm/blocks/policies.cuh", "tile_cols"): "columns of C per MMA: the instruction's shape "
                                                   "(m16n8k16 and m16n8k8: 16, DMMA m8n8k4: 8)",
    ("cpp/spmm/blocks/policies.cuh", "acc_regs"): "accumulator registers of a lane per MMA: the "
                                                  "instruction's fragment (m16n8: 4, m8n8k4: 2)",
}
# A constexpr variable's definition (not a function's): its name and its value.
CONSTEXPR_VARIABLE = re.compile(
    r"(?<![\w])(?:inline\s+|static\s+)*constexpr\s+(?!if\b)[\w:<>, ]+?\s+(\w+)\s*(?:\[[^\]]*\])?\s*"
    r"(?:=\s*([^;]*)|\{([^;]*)\})\s*;")
NUMBER = re.compile(r"(?<![\w.])(0[xX][0-9a-fA-F.]+([pP][+-]?\d+)?|\d+(\.\d*)?([eE][+-]?\d+)?)[uUlLfF]*(?![\w.])")
TYPE_WORDS = {"std", "size_t", "int", "unsigned", "long", "short", "char", "float", "double", "bool",
              "int64_t", "uint64_t", "int32_t", "uint32_t", "int16_t", "uint16_t", "int8_t", "uint8_t"}

# What a quoted measurement looks like in a comment.
MEASUREMENTS = [
    ("a time", re.compile(r"\b\d+(\.\d+)?\s?(us|ms|µs|ns)\b")),
    ("a ratio", re.compile(r"(?<![\w.])\d+(\.\d+)?x(?![\w])")),
    ("a percentage", re.compile(r"\b\d+(\.\d+)?%")),
    ("a bandwidth or rate", re.compile(r"\b(GB/s|TB/s|GFLOP/s|TFLOP/s)\b")),
    ("a same-run note", re.compile(r"\bsame run\b", re.I)),
    ("a revision", re.compile(r"\b(revision|rev\.|commit)\s+[0-9a-f]{7,40}\b", re.I)),
    ("a stale note", re.compile(r"not (been )?measured (again )?since|first guess, to be measured|to be measured on the GPU", re.I)),
]
HASH = re.compile(r"(?<![\w.])[0-9a-f]{7,40}(?![\w])")
POINTER = re.compile(r"(docs/[\w./-]+\.md), \"([^\"]+)\"")


QUIET = False  # the self-test's notes would speak of its temporary tree


def note(text):
    if not QUIET:
        print("note: " + text)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def sources(*folders):
    for folder in folders:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, folder)):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith(SOURCE_SUFFIXES):
                    path = os.path.join(dirpath, name)
                    yield os.path.relpath(path, ROOT).replace(os.sep, "/"), path


def comments(text):
    """(line number, text) of every comment line: // comments and /* */ blocks, strings skipped."""
    out, i, line, n = [], 0, 1, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append((line, text[i + 2:end]))
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end
            for k, part in enumerate(text[i + 2:end].split("\n")):
                out.append((line + k, part))
            line += text.count("\n", i, end)
            i = end + 2
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        else:
            i += 1
    return out


def family_of(rel):
    parts = rel.split("/")
    if len(parts) >= 4 and parts[0] == "cpp" and parts[1] in OPERATIONS:
        return parts[1] + "/" + parts[2]
    return None


def check_includes(faults):
    seen = set()
    for rel, path in sources("cpp"):
        family = family_of(rel)
        for k, l in enumerate(read(path).split("\n")):
            m = re.match(r"\s*#\s*include\s+\"([^\"]+)\"", l)
            if not m:
                continue
            number, included = k + 1, m.group(1)
            # "spmm/csr/x.hpp" from cpp/, or a path relative to the including file
            relative = os.path.normpath(os.path.join(os.path.dirname(rel), included)).replace(os.sep, "/")
            target = relative if os.path.isfile(os.path.join(ROOT, relative)) else "cpp/" + included
            layer = rel.split("/")[1]
            if included == "tcsparse.h" or target.startswith("lib/") or "/lib/" in "/" + included:
                faults.append(f"{rel}:{number}: includes {included}: cpp/ never sees the C layer "
                              f"or the public header (lib/views.hpp translates)")
                continue
            if layer in LOWER_LAYERS and os.path.isfile(os.path.join(ROOT, target)) and \
                    target.split("/")[1] not in LOWER_LAYERS[layer]:
                faults.append(f"{rel}:{number}: includes {included}: cpp/{layer}/ includes only "
                              + ", ".join(f"cpp/{l}/" for l in sorted(LOWER_LAYERS[layer])))
                continue
            other = family_of(target)
            if family is None or other is None or other == family:
                continue
            if (rel, included) in ALLOWED:
                seen.add((rel, included))
                continue
            faults.append(f"{rel}:{number}: includes {included}, a file of the family {other} "
                          f"(a family includes cpp/core, cpp/formats, its operation's interface and its own folder)")
    for rel, included in sorted(ALLOWED - seen):
        note(f"{rel} no longer includes {included}: remove it from ALLOWED in {__file__}")


def comment_faults(rel, path):
    faults = []
    for number, comment in comments(read(path)):
        for what, pattern in MEASUREMENTS:
            m = pattern.search(comment)
            if m:
                faults.append(f"{rel}:{number}: a comment quotes {what} ({m.group(0).strip()!r}); "
                              f"measurements go to docs/algorithms/, the code keeps a pointer")
                break
        else:
            for m in HASH.finditer(comment):
                word = m.group(0)
                if re.search(r"\d", word) and re.search(r"[a-f]", word):
                    faults.append(f"{rel}:{number}: a comment quotes what looks like a revision "
                                  f"({word!r}); revisions go to docs/algorithms/")
                    break
        if re.search(r"docs/[\w./-]+\.md,\s*$", comment):
            faults.append(f"{rel}:{number}: a docs pointer split over two lines; keep "
                          f"`docs/<page>.md, \"<heading>\"` on one line so that it can be checked")
        for page, heading in POINTER.findall(comment):
            target = os.path.join(ROOT, page)
            if not os.path.isfile(target):
                faults.append(f"{rel}:{number}: points to {page}, which does not exist")
                continue
            headings = [h.strip() for h in re.findall(r"(?m)^#+\s+(.*)$", read(target))]
            if not any(h.startswith(heading) for h in headings):
                faults.append(f"{rel}:{number}: points to {page}, \"{heading}\": no such heading there")
    return faults


def check_comments(faults):
    for rel, path in sources("cpp", "lib"):
        found = comment_faults(rel, path)
        if rel in COMMENT_DEBT:
            if not found:
                note(f"{rel} now keeps the comment rules: remove it from COMMENT_DEBT in {__file__}")
            continue
        faults += found


def code(text):
    """text with its comments and string literals blanked (line numbers kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("\n" * text.count("\n", i, end))
            i = end
        elif text[i] in "\"'":
            j = i + 1
            while j < n and text[j] != text[i] and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i] + text[i])
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def check_helpers(faults):
    seen_launch, seen_grid = set(), set()
    for rel, path in sources("cpp"):
        lines = code(read(path)).split("\n")
        for k, l in enumerate(lines):
            if "<<<" in l and rel != LAUNCH_HELPER:
                if rel in LAUNCH_DEBT:
                    seen_launch.add(rel)
                else:
                    faults.append(f"{rel}:{k + 1}: launches with <<<>>>; launch through {LAUNCH_HELPER}")
            m = GRID_HELPER_DEFINITION.search(l)
            if m and rel != GRID_HELPER:
                if rel in GRID_DEBT:
                    seen_grid.add(rel)
                else:
                    faults.append(f"{rel}:{k + 1}: defines a grid helper of its own ({m.group(1)}); "
                                  f"use {GRID_HELPER}")
    for rel in sorted((LAUNCH_DEBT - seen_launch) | (GRID_DEBT - seen_grid)):
        note(f"{rel} no longer needs its LAUNCH_DEBT / GRID_DEBT entry in {__file__}")


def family_folders():
    """(family, folder) of every cpp/<op>/<family>/ folder."""
    for op in OPERATIONS:
        top = os.path.join(ROOT, "cpp", op)
        if not os.path.isdir(top):
            continue
        for name in sorted(os.listdir(top)):
            if os.path.isdir(os.path.join(top, name)):
                yield f"{op}/{name}", f"cpp/{op}/{name}"


def pointer_faults(rel, text, what):
    """A fault for every constexpr variable of a rules file with no docs pointer in its comment."""
    faults, lines = [], text.split("\n")
    for k, l in enumerate(lines):
        m = re.match(r"\s*(?:inline\s+|static\s+)*constexpr\s+[\w:<>, ]+?\s+(\w+)\s*(\[[^\]]*\])?\s*(=|\{)", l)
        if not m:
            continue
        block, j = [l[l.find("//"):] if "//" in l else ""], k - 1
        while j >= 0 and lines[j].lstrip().startswith("//"):
            block.append(lines[j])
            j -= 1
        if not any(POINTER.search(b) for b in block):
            faults.append(f"{rel}:{k + 1}: {m.group(1)}, a constant of {what}, has no docs pointer "
                          f"`docs/<page>.md, \"<heading>\"` in its comment")
    return faults


def literal_only(value):
    """Whether a constexpr's value is a number of its own (literals, casts, arithmetic)."""
    if not NUMBER.search(value):
        return False
    names = set(re.findall(r"[A-Za-z_]\w*", NUMBER.sub(" ", value)))
    return names <= TYPE_WORDS


def check_rules_files(faults):
    seen_debt, seen_structural, seen_constant_debt = set(), set(), set()
    for family, folder in family_folders():
        rules = f"{folder}/{RULES_FILE}"
        if not os.path.isfile(os.path.join(ROOT, rules)):
            if family in RULES_DEBT:
                seen_debt.add(family)
            else:
                faults.append(f"{folder}/: the family has no {RULES_FILE} (its choices, each with a "
                              f"docs pointer; issue 39 item 1)")
            continue
        if family in RULES_DEBT:
            continue
        faults += pointer_faults(rules, read(os.path.join(ROOT, rules)), f"{family}'s rules")
    for rel, path in sources("cpp"):
        family = family_of(rel)
        if rel in SELECTION_RULES:
            faults += pointer_faults(rel, read(path), "the selection's rule")
            continue
        if family is None or family in RULES_DEBT or os.path.basename(rel) == RULES_FILE:
            continue
        text = code(read(path))
        for m in CONSTEXPR_VARIABLE.finditer(text):
            name, value = m.group(1), m.group(2) if m.group(2) is not None else m.group(3)
            if not literal_only(value):
                continue
            if rel in CONSTANT_DEBT:
                seen_constant_debt.add(rel)
                continue
            if (rel, name) in STRUCTURAL:
                seen_structural.add((rel, name))
                continue
            number = text.count("\n", 0, m.start()) + 1
            faults.append(f"{rel}:{number}: {name} = {' '.join(value.split())}: a numeric constant "
                          f"outside {family}'s {RULES_FILE}; move it there with a docs pointer, or "
                          f"list it in STRUCTURAL if it is a fact, not a choice")
    for family in sorted(RULES_DEBT - seen_debt):
        note(f"cpp/{family}/ has its {RULES_FILE} now: remove it from RULES_DEBT in {__file__}")
    for rel in sorted(CONSTANT_DEBT - seen_constant_debt):
        note(f"{rel} defines no numeric constant now: remove it from CONSTANT_DEBT in {__file__}")
    for rel, name in sorted(set(STRUCTURAL) - seen_structural):
        note(f"{rel} no longer defines {name}: remove it from STRUCTURAL in {__file__}")


def run_checks():
    faults = []
    check_includes(faults)
    check_comments(faults)
    check_helpers(faults)
    check_rules_files(faults)
    return faults


# The self-test's tree: one file per planted fault, and the text the fault's report holds.
PLANTED = {
    "docs/algorithms/foo.md": ("# Foo\n\n## Tables\n", None),
    "cpp/core/grid.hpp": ("inline int grid_for(long long n, long long b) { return int(n / b); }\n", None),
    "cpp/core/kernel_launch.hpp": ("// launch\n", None),
    "cpp/spgemm/foo/rules.hpp": (
        "// Slots per table (docs/algorithms/foo.md, \"Tables\").\n"
        "constexpr int kSlots = 64;\n"
        "// no pointer here\n"
        "inline constexpr int kUnexplained = 3;\n", "kUnexplained, a constant of spgemm/foo's rules"),
    "cpp/spgemm/foo/sibling.cu": ("#include \"spgemm/bar/bar.hpp\"\n", "a file of the family spgemm/bar"),
    "cpp/spgemm/foo/measured.cu": ("// runs in 12 us on the H100\n", "quotes a time"),
    "cpp/spgemm/foo/pointer.cu": ("// see docs/algorithms/foo.md, \"Nowhere\"\n", "no such heading"),
    "cpp/spgemm/foo/launch.cu": ("void f() { k<<<1, 32>>>(); }\n", "launches with <<<>>>"),
    "cpp/spgemm/foo/grid.cu": ("int grid_for_rows(int rows) { return rows / 8; }\n", "grid helper of its own"),
    "cpp/spgemm/foo/tuned.cu": ("constexpr int kThreads = 256;\n", "kThreads = 256: a numeric constant"),
    "cpp/spgemm/foo/derived.cu": ("constexpr int kWarps = kSlots / 32;\n", None),
    "cpp/spgemm/bar/bar.hpp": ("// bar\n", "spgemm/bar/: the family has no rules.hpp"),
    "cpp/core/uses_lib.hpp": ("#include \"tcsparse.h\"\n", "cpp/ never sees the C layer"),
}


def self_test():
    """Faults planted in a temporary tree, each of which must be reported; None if all are."""
    global ROOT, QUIET
    saved = ROOT
    with tempfile.TemporaryDirectory() as tree:
        for rel, (text, _) in PLANTED.items():
            os.makedirs(os.path.dirname(os.path.join(tree, rel)), exist_ok=True)
            with open(os.path.join(tree, rel), "w", encoding="utf-8") as f:
                f.write(text)
        ROOT, QUIET = tree, True
        try:
            faults = run_checks()
        finally:
            ROOT, QUIET = saved, False
    def names(fault, rel, want):  # a fault names its file, or the folder of a missing one
        where = fault.split(":")[0]
        return want is not None and want in fault and (where == rel or rel.startswith(where + "/")
                                                       or where.endswith("/") and rel.startswith(where))
    missed = [f"{rel}: {want}" for rel, (_, want) in PLANTED.items()
              if want is not None and not any(names(f, rel, want) for f in faults)]
    wrong = [f for f in faults if not any(names(f, rel, want) for rel, (_, want) in PLANTED.items())]
    return missed + [f"reported in error: {f}" for f in wrong]


def main():
    broken = self_test()
    if broken:
        for fault in broken:
            print(f"self-test: {fault}")
        print("the checker no longer reports the faults planted in its self-test: fix the script")
        return 1
    faults = run_checks()
    for fault in faults:
        print(fault)
    if faults:
        print(f"{len(faults)} fault(s); see issue 39 and docs/architecture.md")
        return 1
    print("architecture rules: no fault")
    return 0


if __name__ == "__main__":
    sys.exit(main())
