#!/usr/bin/env python3
"""packaging/spack/package.py against the project, without Spack (test spack_package).

Parses the recipe with ast and fails, naming each fault, unless: it defines class
Tcsparse deriving from CMakePackage and CudaPackage; declares the variants shim,
fortran and tests (cuda_arch comes from CudaPackage, and must reach
CMAKE_CUDA_ARCHITECTURES); every CMake variable it defines is one the project reads
(an option() of its CMake files, or a variable they use); every variant reaches a
CMake define; its version is the project's; its cmake and cuda minimums are those of
CMakeLists.txt and README.md; and it forces +cuda. Standard-library Python only.
Usage: check_spack_package.py [source-dir]
"""
import ast
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
RECIPE = os.path.join(ROOT, "packaging", "spack", "package.py")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def cmake_sources():
    text = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if not d.startswith((".", "build"))]
        for name in files:
            if name == "CMakeLists.txt" or name.endswith(".cmake"):
                text.append(read(os.path.join(folder, name)))
    return "\n".join(text)


def call_name(node):
    f = node.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None


def strings(node):
    return [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]


def main():
    faults = []
    tree = ast.parse(read(RECIPE), RECIPE)
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Tcsparse"]
    if not classes:
        print("FAIL package.py: no class Tcsparse")
        return 1
    cls = classes[0]
    bases = {b.id for b in cls.bases if isinstance(b, ast.Name)}
    for base in ("CMakePackage", "CudaPackage"):
        if base not in bases:
            faults.append(f"class Tcsparse does not derive from {base}")

    directives = {}  # name -> list of first-string-argument lists, at class level
    for stmt in cls.body:
        for node in ast.walk(stmt) if isinstance(stmt, (ast.Expr, ast.For)) else []:
            if isinstance(node, ast.Call) and call_name(node):
                directives.setdefault(call_name(node), []).append(strings(node))
    variants = {s[0] for s in directives.get("variant", []) if s}
    for v in ("shim", "fortran", "tests"):
        if v not in variants:
            faults.append(f"no variant('{v}')")
    if not any(s and s[0] == "~cuda" for s in directives.get("conflicts", [])):
        faults.append("conflicts('~cuda') missing: tcsparse cannot build without CUDA")

    project = read(os.path.join(ROOT, "CMakeLists.txt"))
    version = re.search(r"project\(tcsparse VERSION ([0-9.]+)", project).group(1)
    versions = {s[0] for s in directives.get("version", []) if s}
    if version not in versions:
        faults.append(f"version('{version}') (CMakeLists.txt's) missing; the recipe has {sorted(versions)}")
    cmake_min = re.search(r"cmake_minimum_required\(VERSION ([0-9.]+)\)", project).group(1)
    cuda_min = re.search(r"CUDA Toolkit >= ([0-9]+)", read(os.path.join(ROOT, "README.md"))).group(1)
    depends = {s[0] for s in directives.get("depends_on", []) if s}
    for want in (f"cmake@{cmake_min}:", f"cuda@{cuda_min}:", "cmocka"):
        if want not in depends:
            faults.append(f"depends_on('{want}') missing (from CMakeLists.txt / README.md); has {sorted(depends)}")

    args = [n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "cmake_args"]
    if not args:
        faults.append("no cmake_args()")
    else:
        defined, from_variant = set(), set()
        for node in ast.walk(args[0]):
            if isinstance(node, ast.Call) and call_name(node) in ("define", "define_from_variant"):
                s = strings(node)
                if s:
                    defined.add(s[0])
                if call_name(node) == "define_from_variant" and len(s) > 1:
                    from_variant.add(s[1])
            if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == "cuda_arch":
                from_variant.add("cuda_arch")
        cmake = cmake_sources()
        for var in sorted(defined):
            if var.startswith("CMAKE_") or var in ("BUILD_TESTING", "CUDAToolkit_ROOT"):
                continue
            if not re.search(r"option\(\s*" + re.escape(var) + r"\b|\$\{" + re.escape(var) + r"\}|\bif\(\s*(NOT\s+)?" + re.escape(var) + r"\b", cmake):
                faults.append(f"cmake_args defines {var}, which no CMake file of the project reads")
        for v in sorted(variants | {"cuda_arch"}):
            if v not in from_variant:
                faults.append(f"the variant {v} reaches no CMake define in cmake_args")
        if "CMAKE_CUDA_ARCHITECTURES" not in defined:
            faults.append("cmake_args does not set CMAKE_CUDA_ARCHITECTURES from cuda_arch")

    for fault in faults:
        print("FAIL " + fault)
    print(f"check_spack_package: variants {sorted(variants)}, versions {sorted(versions)}: {len(faults)} faults")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
