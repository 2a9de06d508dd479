#!/usr/bin/env python3
"""The documentation against the code (ctest docs_match_code, tests/source_checks.cmake).

Fails, naming each fault, where:
  1. an enumerator or an alias (#define TCS_...) of include/tcsparse.h, statuses included,
     or a function the header declares, is missing from docs/guide.md;
  2. an environment variable the library reads (getenv("...") in lib/, cpp/, shim/) is
     missing from docs/guide.md;
  3. a page under docs/ says that something the header documents as supported is not:
     a sentence or table row with a refusal ("NOT_SUPPORTED", "not implemented", "not in
     this version", ...) that names a supported enumerator, function or feature without
     one of the qualifiers that make such a sentence true (see SUPPORTED below); or that
     says the products take 32-bit indices only;
  4. docs/architecture.md names a path of the tree (cpp/..., lib/..., tests/..., ...) that
     does not exist (patterns with * or <...> and the example family `foo` left out).

Python 3 standard library only (CI runs it on a fresh Debian machine).
Usage: check_docs.py [source-dir]   (default: the checkout holding this file)
"""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
HEADER = os.path.join(ROOT, "include", "tcsparse.h")
GUIDE = os.path.join(ROOT, "docs", "guide.md")

# Enumerators the header itself documents as refused by every product, each with the
# word its own refusal sentence uses; they may be called NOT_SUPPORTED anywhere.
REFUSED = {
    "TCS_INDEX_16U": "16U",
    "TCS_FORMAT_COO": "COO",
    "TCS_SPMM_COO_ALG1": "COO", "TCS_SPMM_COO_ALG2": "COO", "TCS_SPMM_COO_ALG3": "COO",
    "TCS_SPMM_COO_ALG4": "COO", "TCS_SPMM_BLOCKED_ELL_ALG1": "Blocked-ELL",
    "TCS_SPMV_COO_ALG1": "COO", "TCS_SPMV_COO_ALG2": "COO", "TCS_SPMV_SELL_ALG1": "SELL",
    "TCS_SPMV_BSR_ALG1": "BSR",
    # Statuses and operations are not paths.
}

# Features the header documents as supported: name -> (evidence the header must hold,
# the phrases that name the feature in the docs, qualifiers that make a refusal next to
# it true). A refusal sentence naming the feature without a qualifier is a contradiction.
SUPPORTED = {
    "64-bit indices in the products": (
        r"both TCS_INDEX_32I or both TCS_INDEX_64I",
        r"TCS_INDEX_64I|64-bit ind(ex|ices)",
        r"2\^31|beyond|mixed|BSR|different widths|positions|rows or columns|16U|cuSPARSE|INSUFFICIENT_RESOURCES"),
    "BSR SpMM": (
        r"SpMM computes with BSR matrices",
        r"\bBSR\b",
        r"SpGEMM|SpMV|outside SpMM|shim|64-bit|TRANSPOSE|transpose|opA = T|op\(A\) = A\^T|CSR alg|TCS_SPMV_BSR_ALG1|descriptor only"),
    "SpMV": (
        r"TCS_API tcsStatus_t tcsSpMV\(",
        r"\bSpMV\b",
        r"COO|SELL|BSR|16U|mixed|2\^31|complex|other|another|16-bit"),
    "the tile SpGEMM and tensor cores": (
        r"TCS_SPGEMM_ALG_TILE_TC, tensor cores:",
        r"TCS_SPGEMM_ALG_TILE|_TILE_TC|tensor[- ]cores?|tensor-core",
        r"fp16|bf16|16-bit|sm_80|8\.0|ARCH_MISMATCH|older|chunk|2\^31|TRANSPOSE|COO|Blocked-ELL|ELL|SpMV|HASH|hash"),
}

# What a refusal looks like.
REFUSAL = re.compile(r"NOT_SUPPORTED|not (yet )?implemented|not in this version|not in tcsparse|"
                     r"does not (support|implement)|unsupported", re.I)
THIRTY_TWO_ONLY = re.compile(r"32-bit indices only|only 32-bit|32-bit only|(only|whole) size limit is that of 32-bit|"
                             r"32-bit indices \(`?TCS_INDEX_32I`?\); other index types", re.I)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def header_names(text):
    comment_free = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    enumerators = []
    for body in re.findall(r"typedef\s+enum\s*\{(.*?)\}", comment_free, flags=re.S):
        enumerators += re.findall(r"\b(TCS_[A-Z0-9_]+)\s*=", body)
    aliases = re.findall(r"#define\s+(TCS_SPGEMM_[A-Z0-9_]+)\s+TCS_", comment_free)
    functions = sorted(set(re.findall(r"TCS_API\s+[^;(]*?\b(tcs[A-Za-z0-9_]+)\s*\(", comment_free)))
    return enumerators, aliases, functions


def environment_variables():
    found = {}
    for top in ("lib", "cpp", "shim"):
        for folder, _, files in os.walk(os.path.join(ROOT, top)):
            for name in files:
                if not name.endswith((".c", ".cpp", ".cu", ".h", ".hpp", ".cuh")):
                    continue
                path = os.path.join(folder, name)
                for var in re.findall(r"getenv\(\s*\"([A-Za-z0-9_]+)\"", read(path)):
                    found.setdefault(var, os.path.relpath(path, ROOT))
    return found


def units(markdown):
    """Sentences of paragraphs and list items, and table rows; code blocks left out."""
    out = []
    text = re.sub(r"```.*?```", "", markdown, flags=re.S)
    paragraph = []

    def flush():
        if paragraph:
            joined = " ".join(paragraph)
            out.extend(s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z`*(])", joined) if s.strip())
            paragraph.clear()

    for line in text.splitlines():
        stripped = line.strip()
        if line.startswith("    ") and not paragraph:  # an indented code block
            continue
        if stripped.startswith("|"):
            flush()
            out.append(stripped)
        elif not stripped or stripped.startswith(("#", "- ", "* ")) or re.match(r"\d+\. ", stripped):
            flush()
            if stripped and not stripped.startswith("#"):
                paragraph.append(stripped)
        else:
            paragraph.append(stripped)
    flush()
    return out


ARCHITECTURE = os.path.join(ROOT, "docs", "architecture.md")
TREE_PATH = re.compile(r"(?<![\w./-])((?:cpp|lib|shim|include|tests|docs|scripts|bench|packaging)/[\w./*<>-]*)")


def architecture_paths():
    """docs/architecture.md must match the tree: every path it names exists."""
    if not os.path.isfile(ARCHITECTURE):
        return ["docs/architecture.md is missing"]
    faults, named = [], set()
    for path in TREE_PATH.findall(read(ARCHITECTURE)):
        path = path.rstrip(".,")
        if "*" in path or "<" in path or "foo" in path:
            continue
        named.add(path)
        if not os.path.exists(os.path.join(ROOT, path)):
            faults.append(f"docs/architecture.md names {path}, which does not exist")
    if len(named) < 30:
        faults.append(f"docs/architecture.md: only {len(named)} paths found (has the scan broken?)")
    return faults


def main():
    header = read(HEADER)
    guide = read(GUIDE)
    faults = []

    enumerators, aliases, functions = header_names(header)
    if len(enumerators) < 50 or len(functions) < 40:
        faults.append(f"tcsparse.h: only {len(enumerators)} enumerators and {len(functions)} functions found "
                      "(has the header's layout changed? update header_names())")
    for name in enumerators + aliases + functions:
        if not re.search(r"(?<![A-Za-z0-9_])" + re.escape(name) + r"(?![A-Za-z0-9_])", guide):
            kind = "function" if name.startswith("tcs") else "enum value"
            faults.append(f"docs/guide.md: the {kind} {name} of tcsparse.h is not documented")

    variables = environment_variables()
    for var in ("TCS_LOG_LEVEL", "TCS_CHECK_INPUTS"):
        if var not in variables:
            faults.append(f"no getenv(\"{var}\") found in lib/, cpp/, shim/: has the scan broken?")
    for var, where in sorted(variables.items()):
        if not re.search(r"(?<![A-Za-z0-9_])" + re.escape(var) + r"(?![A-Za-z0-9_])", guide):
            faults.append(f"docs/guide.md: the environment variable {var} ({where} reads it) is not documented")

    for name, word in REFUSED.items():
        if name not in enumerators:
            faults.append(f"check_docs.py: REFUSED names {name}, which tcsparse.h no longer has")
        elif not any(word in s and "NOT_SUPPORTED" in s for s in re.split(r"(?<=[.;])\s", header)):
            faults.append(f"tcsparse.h no longer says {word} ({name}) returns NOT_SUPPORTED: update REFUSED")
    supported_enums = [e for e in enumerators + aliases if e not in REFUSED and not e.startswith(
        ("TCS_STATUS_", "TCS_DATA_STATUS_", "TCS_OPERATION_", "TCS_POINTER_MODE_", "TCS_INDEX_BASE_",
         "TCS_ORDER_", "TCS_CHECK_", "TCS_FORMAT_"))]
    for feature, (evidence, _, _) in SUPPORTED.items():
        if not re.search(evidence, header):
            faults.append(f"tcsparse.h no longer documents {feature} ({evidence!r}): update SUPPORTED")

    pages = []
    for folder, _, files in os.walk(os.path.join(ROOT, "docs")):
        pages += [os.path.join(folder, f) for f in files if f.endswith(".md")]
    for page in sorted(pages):
        rel = os.path.relpath(page, ROOT)
        for unit in units(read(page)):
            if THIRTY_TWO_ONLY.search(unit) and "cuSPARSE" not in unit:
                faults.append(f"{rel}: says 32-bit indices only, the header documents TCS_INDEX_64I: {unit[:160]}")
            if not REFUSAL.search(unit):
                continue
            for e in supported_enums:
                if re.search(r"(?<![A-Za-z0-9_])" + re.escape(e) + r"(?![A-Za-z0-9_])", unit):
                    qualifier = next((q for _, (_, names, q) in SUPPORTED.items() if re.search(names, e)), None)
                    if qualifier is None or not re.search(qualifier, unit):
                        if not re.search(r"\b(for|with|when|where|if|unless|otherwise|beyond)\b", unit):
                            faults.append(f"{rel}: refuses {e}, which tcsparse.h documents as supported: {unit[:160]}")
            # A list of what is refused ("COO, CSC, BSR and ELL matrices in a product"): the
            # qualifier must be in the clause that names the feature.
            for clause in re.split(r"[,;]\s|\s\|\s", unit):
                for feature, (_, names, qualifiers) in SUPPORTED.items():
                    if re.search(names, clause) and not re.search(qualifiers, clause):
                        faults.append(f"{rel}: refuses {feature} ({clause.strip()!r}), which tcsparse.h "
                                      f"documents: {unit[:160]}")

    faults += architecture_paths()

    for fault in faults:
        print("FAIL " + fault)
    print(f"check_docs: {len(enumerators) + len(aliases)} enum values, {len(functions)} functions, "
          f"{len(variables)} environment variables ({', '.join(sorted(variables))}), {len(pages)} pages: "
          f"{len(faults)} faults")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
