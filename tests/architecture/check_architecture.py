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
     helper `grid_for` is defined outside cpp/core/grid.hpp, beyond the known debt in
     LAUNCH_DEBT and GRID_DEBT (issue 39: one launch helper, one grid helper);
  5. a family's rules file (cpp/<op>/<family>/rules.hpp or tuning.hpp; none exist yet)
     has a constant (`inline constexpr`) whose comment holds no docs/ pointer.
docs/architecture.md's paths are checked by docs_match_code (tests/docs/check_docs.py).

Python 3 standard library only.
Usage: check_architecture.py [source-dir]   (default: the checkout holding this file)
"""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SOURCE_SUFFIXES = (".c", ".h", ".cpp", ".hpp", ".cu", ".cuh")
OPERATIONS = ("spgemm", "spmm")

# Known debt of issue 39 (item 2: shared pieces move down into cpp/core or cpp/formats, no
# family includes a sibling). Each entry is (file, included path). Remove an entry when
# its include goes; a new sibling include fails the test.
ALLOWED = {
    # tiles writes an empty C's offsets with the hash family's write_empty_offsets
    # (belongs in cpp/formats or cpp/core).
    ("cpp/spgemm/tiles/tile_plan.cu", "spgemm/hash/launch.hpp"),
}

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
LAUNCH_DEBT = {
    "cpp/check/csr_check.cu",          # raw launches of the matrix checks
}
GRID_HELPER = "cpp/core/grid.hpp"
GRID_DEBT = {
    "cpp/spgemm/hash/products.cu",  # a grid_for of its own, capped by the device
}

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
        print(f"note: {rel} no longer includes {included}: remove it from ALLOWED in {__file__}")


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
                print(f"note: {rel} now keeps the comment rules: remove it from COMMENT_DEBT in {__file__}")
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
            if re.search(r"\bgrid_for\s*\([^;]*\)\s*\{", l) and rel != GRID_HELPER:
                if rel in GRID_DEBT:
                    seen_grid.add(rel)
                else:
                    faults.append(f"{rel}:{k + 1}: defines a grid_for of its own; use {GRID_HELPER}")
    for rel in sorted((LAUNCH_DEBT - seen_launch) | (GRID_DEBT - seen_grid)):
        print(f"note: {rel} no longer needs its LAUNCH_DEBT / GRID_DEBT entry in {__file__}")


def check_rules_files(faults):
    for rel, path in sources("cpp"):
        family = family_of(rel)
        if family is None or os.path.basename(rel) not in ("rules.hpp", "tuning.hpp", "rules.h", "tuning.h"):
            continue
        lines = read(path).split("\n")
        for k, l in enumerate(lines):
            if not re.match(r"\s*inline\s+constexpr\b", l):
                continue
            block, j = [l], k - 1
            while j >= 0 and lines[j].lstrip().startswith("//"):
                block.append(lines[j])
                j -= 1
            if not any("docs/" in b for b in block):
                faults.append(f"{rel}:{k + 1}: a constant of {family}'s rules without a docs/ pointer "
                              f"in its comment")


def main():
    faults = []
    check_includes(faults)
    check_comments(faults)
    check_helpers(faults)
    check_rules_files(faults)
    for fault in faults:
        print(fault)
    if faults:
        print(f"{len(faults)} fault(s); see issue 39 and docs/architecture.md")
        return 1
    print("architecture rules: no fault")
    return 0


if __name__ == "__main__":
    sys.exit(main())
