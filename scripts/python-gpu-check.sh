#!/usr/bin/env bash
# The Python package on a GPU machine without network: installs a wheel built elsewhere
# (pip wheel . -w .whl) into a fresh virtual environment that also sees the system's
# torch, cupy, numpy, scipy and pytest (--system-site-packages), and runs the package's
# pytest suite, GPU tests included, against the installed copy (not python/).
#   scripts/python-gpu-check.sh [WHEEL]      default: the newest .whl/tcsparse-*.whl
# Log: $OUT/python-gpu-check.log (OUT default: build/python-gpu-check/). Exit: pytest's.
# TCS_PYTEST_SEED=<n> repeats a run's random inputs (the log names the seed used).
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
out=${OUT:-$root/build/python-gpu-check}
mkdir -p "$out"
log=$out/python-gpu-check.log
wheel=${1:-$(ls -t .whl/tcsparse-*.whl 2>/dev/null | head -n 1)}
if [ ! -f "$wheel" ]; then
  echo "no wheel: give its path, or put it in .whl/ (pip wheel . -w .whl)" | tee "$log" >&2
  exit 2
fi
for dir in "$root/shared/matrices" "$root/../shared/matrices"; do
  if [ -z "${TCS_MATRIX_DIR:-}" ] && [ -d "$dir" ]; then export TCS_MATRIX_DIR=$dir; fi
done
export TCS_PYTEST_SEED=${TCS_PYTEST_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
venv=$(mktemp -d)/venv
{
  echo "== $(date -u) wheel $wheel ($(stat -c %s "$wheel") bytes), seed $TCS_PYTEST_SEED"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -n 1
  python3 -m venv --system-site-packages "$venv" &&
    # When python3 is itself a virtual environment's (the GPU machine's, with torch and
    # cupy), --system-site-packages reaches only the base interpreter's packages: a .pth
    # file adds python3's own site-packages behind the new environment's.
    python3 -c 'import site; print("\n".join(site.getsitepackages()))' \
      > "$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/zz_parent_site.pth" &&
    "$venv/bin/python" -m pip install --no-index --no-deps "$wheel"
} > "$log" 2>&1 || { cat "$log"; exit 1; }
"$venv/bin/python" - >> "$log" 2>&1 <<'PY'
import importlib
for name in ("numpy", "scipy", "cupy", "torch", "pytest"):
    try:
        print(name, importlib.import_module(name).__version__)
    except ImportError as error:
        print(name, "missing:", error)
PY
# From a folder outside the checkout, so that python/tcsparse cannot shadow the wheel.
cd "$(dirname "$venv")"
env -u PYTHONPATH -u TCSPARSE_LIBRARY -u TCSPARSE_SHIM_LIBRARY -u TCS_LOG_LEVEL \
  "$venv/bin/python" -m pytest -v -rs -p no:cacheprovider --rootdir "$root/tests/python" \
  "$root/tests/python/test_package.py" >> "$log" 2>&1
status=$?
tail -n 40 "$log"
echo "pytest exit $status; log: $log"
exit $status
