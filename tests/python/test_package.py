"""pytest suite of the Python package tcsparse (python/tcsparse).

Without a GPU (CI): the import, the enums against tcsparse.h, errors with their log
line, the products' NoGpuError, and `python -m tcsparse.run` preloading the shim.
With a GPU (tests marked gpu): SpGEMM, SpMM and SpMV of CuPy and PyTorch operands
against the frameworks' own products and a float64 host reference, scipy/numpy
round trips, the framework's current stream, and a CuPy program run unmodified
through `python -m tcsparse.run`. Tests that need what is missing report skipped.

Environment: the package on sys.path (installed, or PYTHONPATH=python with
TCSPARSE_LIBRARY and TCSPARSE_SHIM_LIBRARY naming the built files, as ctest sets);
TCS_MATRIX_DIR for the Matrix Market test.
Run: python3 -m pytest tests/python/test_package.py
"""
import ctypes
import os
import pathlib
import re
import subprocess
import sys
import textwrap

import pytest

import tcsparse
from tcsparse import _capi

ROOT = pathlib.Path(__file__).resolve().parents[2]
HEADER = ROOT / "include" / "tcsparse.h"
# Fresh random inputs each run (conftest.py draws the seed and pytest's header names it).
SEED = int(os.environ.get("TCS_PYTEST_SEED") or int.from_bytes(os.urandom(4), "little")) % 2**31


def _gpu_present():
    try:
        with _capi.load().handle():
            return True
    except tcsparse.NoGpuError:
        return False


HAS_GPU = _gpu_present()
gpu = pytest.mark.gpu
needs_gpu = pytest.mark.skipif(not HAS_GPU, reason="no GPU (tcsCreate: NOT_INITIALIZED)")


def run_python(code, env=None, args=()):
    environment = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, *args, "-c", code], env=environment,
                          capture_output=True, text=True, timeout=300)


# ------------------------------------------------------------------------------------
# Without a GPU
# ------------------------------------------------------------------------------------

def header_constants():
    text = HEADER.read_text()
    constants = {n: int(v) for n, v in re.findall(r"^\s*(TCS_[A-Z0-9_]+)\s*=\s*(-?\d+)", text, re.M)}
    for name, value in re.findall(r"^#define\s+(TCS_[A-Z0-9_]+)\s+(\w+)\s*$", text, re.M):
        constants[name] = int(value) if value.isdigit() else constants[value]
    return constants


def test_import_names_the_products_and_the_library():
    for name in ("spgemm", "spmm", "spmv", "library_path", "library_version"):
        assert callable(getattr(tcsparse, name))
    constants = header_constants()
    assert tcsparse.library_version() == (constants["TCS_VERSION_MAJOR"],
                                          constants["TCS_VERSION_MINOR"],
                                          constants["TCS_VERSION_PATCH"])


@pytest.mark.skipif(not HEADER.exists(), reason="tcsparse.h not found beside the tests")
def test_enums_have_the_header_values():
    constants = header_constants()
    for enum in (tcsparse.Math, tcsparse.SpGEMMAlg, tcsparse.SpMMAlg, tcsparse.SpMVAlg,
                 tcsparse.Status):
        c_names = [n for n in enum.__members__ if n.startswith("TCS_")]
        assert c_names, enum
        for name in c_names:
            assert int(enum[name]) == constants[name], name
    short = {tcsparse.Math.DEFAULT: "TCS_DEFAULT_MATH", tcsparse.Math.PEDANTIC: "TCS_PEDANTIC_MATH",
             tcsparse.Math.TF32_TENSOR_OP: "TCS_TF32_TENSOR_OP_MATH",
             tcsparse.Math.FP16_TENSOR_OP: "TCS_FP16_TENSOR_OP_MATH",
             tcsparse.SpGEMMAlg.DEFAULT: "TCS_SPGEMM_DEFAULT", tcsparse.SpGEMMAlg.HASH: "TCS_SPGEMM_ALG_HASH",
             tcsparse.SpGEMMAlg.TILE: "TCS_SPGEMM_ALG_TILE",
             tcsparse.SpGEMMAlg.TILE_TC: "TCS_SPGEMM_ALG_TILE_TC",
             tcsparse.SpMMAlg.DEFAULT: "TCS_SPMM_ALG_DEFAULT", tcsparse.SpMMAlg.CSR_ALG1: "TCS_SPMM_CSR_ALG1",
             tcsparse.SpMMAlg.CSR_ALG2: "TCS_SPMM_CSR_ALG2", tcsparse.SpMMAlg.CSR_ALG3: "TCS_SPMM_CSR_ALG3",
             tcsparse.SpMMAlg.CSR_ROWSPLIT: "TCS_SPMM_CSR_ROWSPLIT",
             tcsparse.SpMMAlg.CSR_MERGE: "TCS_SPMM_CSR_MERGE", tcsparse.SpMMAlg.BSR_TC: "TCS_SPMM_BSR_TC",
             tcsparse.SpMVAlg.DEFAULT: "TCS_SPMV_ALG_DEFAULT", tcsparse.SpMVAlg.CSR_ALG1: "TCS_SPMV_CSR_ALG1",
             tcsparse.SpMVAlg.CSR_ALG2: "TCS_SPMV_CSR_ALG2"}
    for member, c_name in short.items():
        assert int(member) == constants[c_name], c_name


ERROR_PROBE = """
import sys, tcsparse
from tcsparse import _capi
lib = _capi.load()
try:
    lib.tcsCreateCsr(None, 2, 2, 0, None, None, None, _capi.TCS_INDEX_32I, _capi.TCS_INDEX_32I,
                     _capi.TCS_INDEX_BASE_ZERO, _capi.CUDA_R_32F)
except tcsparse.TcsError as error:
    print("status", int(error.status), error.function)
    print("log", "|".join(error.log))
    print("message", error)
"""


@pytest.mark.parametrize("level", [None, "1"])
def test_error_carries_status_and_log_line(level):
    # The library reads TCS_LOG_LEVEL once per process: each case in a process of its own.
    env = {k: v for k, v in os.environ.items() if k != "TCS_LOG_LEVEL"}
    if level is not None:
        env["TCS_LOG_LEVEL"] = level
    result = subprocess.run([sys.executable, "-c", ERROR_PROBE], env=env, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    lines = dict(line.split(" ", 1) for line in result.stdout.splitlines())
    assert lines["status"] == "%d tcsCreateCsr" % tcsparse.Status.TCS_STATUS_INVALID_VALUE
    expected = "tcsCreateCsr: argument 0 (spMatDescr)"
    assert lines["log"].startswith(expected), lines["log"]
    assert "TCS_STATUS_INVALID_VALUE" in lines["message"] and expected in lines["message"]
    # The log reaches stderr only when the user asked for it.
    assert (("tcsparse: " + expected) in result.stderr) == (level is not None), result.stderr


@pytest.mark.skipif(HAS_GPU, reason="a GPU is present: the no-GPU error cannot happen")
def test_products_without_gpu_raise_no_gpu_error():
    np = pytest.importorskip("numpy")
    sp = pytest.importorskip("scipy.sparse")
    a = sp.random(20, 30, density=0.2, format="csr", random_state=SEED)
    b = sp.random(30, 10, density=0.2, format="csr", random_state=SEED + 1)
    for call in (lambda: tcsparse.spgemm(a, b), lambda: tcsparse.spmm(a, np.ones((30, 4))),
                 lambda: tcsparse.spmv(a, np.ones(30))):
        with pytest.raises(tcsparse.NoGpuError) as caught:
            call()
        assert caught.value.status == tcsparse.Status.TCS_STATUS_NOT_INITIALIZED
        assert caught.value.function == "tcsCreate"
        assert "TCS_STATUS_NOT_INITIALIZED" in str(caught.value)


def test_unknown_operands_are_a_type_error():
    with pytest.raises(TypeError, match="neither a CuPy or PyTorch"):
        tcsparse.spgemm([[1.0]], [[1.0]])


def _shim():
    from tcsparse import run
    path = run.shim_path()
    if not os.path.isfile(path):
        pytest.skip("no swap-in library at %s" % path)
    return path


def test_run_preloads_the_shim_and_passes_the_exit_status_on():
    shim = _shim()
    maps = "import sys; print(open('/proc/self/maps').read()); sys.exit(3)"
    result = subprocess.run([sys.executable, "-m", "tcsparse.run", sys.executable, "-c", maps],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 3, result.stderr
    loaded = {line.split()[-1] for line in result.stdout.splitlines() if ".so" in line}
    assert os.path.realpath(shim) in {os.path.realpath(p) for p in loaded}
    assert any(os.path.basename(p).startswith("libtcsparse.so") for p in loaded), loaded


def test_run_usage_and_missing_program():
    _shim()
    usage = subprocess.run([sys.executable, "-m", "tcsparse.run"], capture_output=True, text=True)
    assert usage.returncode == 2 and "usage:" in usage.stderr
    missing = subprocess.run([sys.executable, "-m", "tcsparse.run", "/nonexistent/program"],
                             capture_output=True, text=True)
    assert missing.returncode == 127 and "/nonexistent/program" in missing.stderr


@pytest.mark.skipif(bool(os.environ.get("TCSPARSE_LIBRARY")),
                    reason="TCSPARSE_LIBRARY names the library (a build tree, not an installed package)")
def test_installed_package_uses_its_own_libraries_and_console_script():
    package_lib = os.path.join(os.path.dirname(tcsparse.__file__), "lib")
    assert os.path.dirname(tcsparse.library_path()) == package_lib
    script = os.path.join(os.path.dirname(sys.executable), "tcsparse-run")
    assert os.path.isfile(script), script
    result = subprocess.run([script, sys.executable, "-c", "import os; print(os.environ['LD_PRELOAD'])"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split(":")[0].strip().startswith(package_lib)


# ------------------------------------------------------------------------------------
# With a GPU
# ------------------------------------------------------------------------------------

def random_csr(rng, rows, cols, density, dtype, empty_rows=0, shuffle=False):
    """A random scipy CSR matrix, values in [-1, 1); the first `empty_rows` rows empty,
    and with `shuffle` the columns within each row unsorted."""
    import numpy as np
    import scipy.sparse as sp
    m = sp.random(rows, cols, density=density, format="csr", random_state=rng,
                  data_rvs=lambda k: rng.uniform(-1, 1, k)).astype(dtype)
    m.data[: m.indptr[empty_rows]] = 0
    m.eliminate_zeros()
    if shuffle:
        for i in range(rows):
            lo, hi = m.indptr[i], m.indptr[i + 1]
            order = rng.permutation(hi - lo) + lo
            m.indices[lo:hi], m.data[lo:hi] = m.indices[order], m.data[order]
        m.has_sorted_indices = False
    assert np.all(np.diff(m.indptr[: empty_rows + 1]) == 0)
    return m


def assert_close(got, a, b, alpha=1.0, beta=0.0, c0=None):
    """|got - (alpha*a@b + beta*c0)| within the worst-case summation bound of got's
    precision, from a float64 reference of the inputs as given (host arrays)."""
    import numpy as np
    dense = lambda x: x.toarray() if hasattr(x, "toarray") else np.asarray(x)  # noqa: E731
    eps = np.finfo(dense(got).dtype).eps
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    ref = alpha * (a64 @ b64)
    scale = abs(alpha) * (abs(a64) @ abs(b64))
    if c0 is not None:
        ref = ref + beta * c0.astype(np.float64)
        scale = scale + abs(beta) * abs(c0.astype(np.float64))
    terms = int(np.diff(a.indptr).max(initial=0)) + 2
    err = np.abs(dense(got).astype(np.float64) - dense(ref))
    bound = 2 * terms * eps * dense(scale) + np.finfo(np.float64).tiny
    worst = np.unravel_index(np.argmax(err - bound), err.shape)
    assert np.all(err <= bound), "entry %s: error %g > bound %g" % (worst, err[worst], bound[worst])


def assert_agree(ours, theirs, a, b):
    """ours and the framework's own product each within the bound of a @ b (in ours'
    precision), hence within twice that bound of each other."""
    import numpy as np
    eps = np.finfo(np.asarray(ours).dtype).eps
    scale = abs(a.astype(np.float64)) @ abs(b.astype(np.float64))
    scale = scale.toarray() if hasattr(scale, "toarray") else np.asarray(scale)
    terms = int(np.diff(a.indptr).max(initial=0)) + 2
    err = np.abs(np.asarray(ours, dtype=np.float64) - np.asarray(theirs, dtype=np.float64))
    bound = 2 * (2 * terms * eps * scale) + np.finfo(np.float64).tiny
    worst = np.unravel_index(np.argmax(err - bound), err.shape)
    assert np.all(err <= bound), "entry %s: ours and the framework's differ by %g > %g" % (
        worst, err[worst], bound[worst])


def symbolic_pattern(a, b):
    """The pattern of a @ b with no cancellation: products of all-ones matrices."""
    import numpy as np
    import scipy.sparse as sp
    ones = lambda m: sp.csr_matrix((np.ones(m.nnz), m.indices, m.indptr), shape=m.shape)  # noqa: E731
    pattern = ones(a) @ ones(b)
    pattern.sort_indices()
    return pattern


class Framework:
    """CuPy or PyTorch, seen from the tests: host scipy/numpy in and out."""

    def __init__(self, name, index="int32"):
        self.name = name
        self.index = index
        if name == "cupy":
            self.cp = pytest.importorskip("cupy")
            self.cs = pytest.importorskip("cupyx.scipy.sparse")
        else:
            self.torch = pytest.importorskip("torch")
            if not self.torch.cuda.is_available():
                pytest.skip("torch sees no GPU")

    def csr(self, m):
        if self.name == "cupy":
            return self.cs.csr_matrix(m)
        t = self.torch
        return t.sparse_csr_tensor(t.from_numpy(m.indptr.astype(self.index)).cuda(),
                                   t.from_numpy(m.indices.astype(self.index)).cuda(),
                                   t.from_numpy(m.data).cuda(), size=m.shape)

    def dense(self, array):
        if self.name == "cupy":
            return self.cp.asarray(array, order="F" if array.flags.f_contiguous and not
                                   array.flags.c_contiguous else "C")
        tensor = self.torch.from_numpy(array).cuda()
        if array.flags.f_contiguous and not array.flags.c_contiguous:
            tensor = self.torch.from_numpy(array.T.copy()).cuda().t()
        return tensor

    def host_csr(self, m):
        import scipy.sparse as sp
        if self.name == "cupy":
            assert isinstance(m, self.cs.csr_matrix)
            return sp.csr_matrix((m.data.get(), m.indices.get(), m.indptr.get()), shape=m.shape)
        assert m.layout == self.torch.sparse_csr and m.is_cuda
        assert m.crow_indices().dtype == getattr(self.torch, self.index)
        return sp.csr_matrix((m.values().cpu().numpy(), m.col_indices().cpu().numpy(),
                              m.crow_indices().cpu().numpy()), shape=tuple(m.shape))

    def host(self, array):
        if self.name == "cupy":
            assert isinstance(array, self.cp.ndarray)
            return array.get()
        assert array.is_cuda
        return array.cpu().numpy()


FRAMEWORKS = [("cupy", "int32"), ("torch", "int32"), ("torch", "int64")]
DTYPES = ["float32", "float64"]


def on_each_framework(test):
    """A GPU test run for CuPy, PyTorch with 32- and 64-bit indices, fp32 and fp64."""
    test = pytest.mark.parametrize("dtype", DTYPES)(test)
    test = pytest.mark.parametrize("name,index", FRAMEWORKS)(test)
    return gpu(needs_gpu(test))


@on_each_framework
def test_spgemm_equals_the_frameworks_product(name, index, dtype):
    import numpy as np
    fw = Framework(name, index)
    rng = np.random.default_rng(SEED)
    a = random_csr(rng, 200, 150, 0.03, dtype, empty_rows=5)
    b = random_csr(rng, 150, 180, 0.04, dtype)
    da, db = fw.csr(a), fw.csr(b)
    c = fw.host_csr(tcsparse.spgemm(da, db))
    assert c.dtype == np.dtype(dtype) and c.shape == (200, 180)
    pattern = symbolic_pattern(a, b)
    assert np.array_equal(c.indptr, pattern.indptr) and np.array_equal(c.indices, pattern.indices)
    assert_close(c, a, b)
    own = fw.host_csr(da @ db).toarray() if name == "cupy" else fw.host((da @ db).to_dense())
    assert_agree(c.toarray(), own, a, b)


@on_each_framework
@pytest.mark.parametrize("order", ["C", "F"])
def test_spmm_equals_the_frameworks_product(name, index, dtype, order):
    import numpy as np
    fw = Framework(name, index)
    rng = np.random.default_rng(SEED)
    a = random_csr(rng, 300, 200, 0.02, dtype, empty_rows=7)
    x = np.asarray(rng.uniform(-1, 1, (200, 37)), dtype=dtype, order=order)
    c0 = np.asarray(rng.uniform(-1, 1, (300, 37)), dtype=dtype, order=order)
    da, dx = fw.csr(a), fw.dense(x)
    y = fw.host(tcsparse.spmm(da, dx))
    assert y.dtype == np.dtype(dtype) and y.shape == (300, 37)
    assert_close(y, a, x)
    assert_agree(y, fw.host(da @ dx), a, x)
    out = fw.dense(c0)
    result = tcsparse.spmm(da, dx, alpha=2.0, beta=-0.5, out=out)
    assert result is out
    assert_close(fw.host(out), a, x, alpha=2.0, beta=-0.5, c0=c0)


@on_each_framework
def test_spmv_plain_and_transposed(name, index, dtype):
    import numpy as np
    fw = Framework(name, index)
    rng = np.random.default_rng(SEED)
    a = random_csr(rng, 250, 180, 0.03, dtype, empty_rows=9)
    x = rng.uniform(-1, 1, 180).astype(dtype)
    z = rng.uniform(-1, 1, 250).astype(dtype)
    y0 = rng.uniform(-1, 1, 250).astype(dtype)
    da = fw.csr(a)
    out = fw.dense(y0)
    tcsparse.spmv(da, fw.dense(x), alpha=1.5, beta=-2.0, out=out)
    assert_close(fw.host(out)[:, None], a, x[:, None], alpha=1.5, beta=-2.0, c0=y0[:, None])
    w = fw.host(tcsparse.spmv(da, fw.dense(z), transpose=True))
    assert_close(w[:, None], a.T.tocsr(), z[:, None])


@gpu
@needs_gpu
@pytest.mark.parametrize("dtype", DTYPES)
def test_scipy_and_numpy_round_trip(dtype):
    import numpy as np
    import scipy.sparse as sp
    rng = np.random.default_rng(SEED)
    a = random_csr(rng, 97, 301, 0.05, dtype, shuffle=True)
    b = random_csr(rng, 301, 64, 0.08, dtype, empty_rows=20, shuffle=True)
    c = tcsparse.spgemm(a, b, alpha=-0.5)
    assert isinstance(c, sp.csr_matrix) and c.dtype == np.dtype(dtype)
    pattern = symbolic_pattern(a, b)
    assert np.array_equal(c.indptr, pattern.indptr) and np.array_equal(c.indices, pattern.indices)
    assert_close(c, a, b, alpha=-0.5)
    x = rng.uniform(-1, 1, (301, 5)).astype(dtype)
    y = tcsparse.spmm(a, x)
    assert isinstance(y, np.ndarray) and y.dtype == np.dtype(dtype)
    assert_close(y, a, x)
    v = tcsparse.spmv(a, x[:, 0])
    assert_close(v[:, None], a, x[:, :1])
    empty = tcsparse.spgemm(random_csr(rng, 30, 40, 0.1, dtype, empty_rows=30), b[:40])
    assert empty.shape == (30, 64) and empty.nnz == 0


@gpu
@needs_gpu
def test_cancellation_is_an_explicit_zero():
    import numpy as np
    import scipy.sparse as sp
    a = sp.csr_matrix(np.array([[1.0, 2.0], [0.0, 3.0]]))
    b = sp.csr_matrix(np.array([[-2.0, 1.0], [1.0, 0.0]]))
    c = tcsparse.spgemm(a, b)  # c[0, 0] = 1*(-2) + 2*1 = 0, stored
    assert c.nnz == 3 and (c.indptr[1], c.indices[0], c.data[0]) == (2, 0, 0.0)
    assert np.array_equal(c.toarray(), (a @ b).toarray())


@gpu
@needs_gpu
def test_matrix_market_file():
    import numpy as np
    import scipy.io
    import scipy.sparse as sp
    folder = os.environ.get("TCS_MATRIX_DIR", str(ROOT.parent / "shared" / "matrices"))
    path = pathlib.Path(folder) / "nos3.mtx.gz"
    if not path.exists():
        pytest.skip("%s not found (set TCS_MATRIX_DIR)" % path)
    a = sp.csr_matrix(scipy.io.mmread(str(path)))
    for alg in (tcsparse.SpGEMMAlg.DEFAULT, tcsparse.SpGEMMAlg.HASH, tcsparse.SpGEMMAlg.TILE_TC):
        c = tcsparse.spgemm(a, a, alg=alg)
        pattern = symbolic_pattern(a, a)
        assert np.array_equal(c.indices, pattern.indices), alg
        assert_close(c, a, a)


@gpu
@needs_gpu
def test_library_error_from_a_product_carries_the_log():
    fw = Framework("torch")
    import numpy as np
    rng = np.random.default_rng(SEED)
    a32 = fw.csr(random_csr(rng, 40, 40, 0.1, np.float32))
    a = fw.torch.sparse_csr_tensor(a32.crow_indices(), a32.col_indices(), a32.values().half(),
                                   size=a32.shape)
    with pytest.raises(tcsparse.TcsError) as caught:
        tcsparse.spgemm(a, a, alg=tcsparse.SpGEMMAlg.HASH)  # no fp16 path in the hash algorithm
    assert caught.value.status == tcsparse.Status.TCS_STATUS_NOT_SUPPORTED
    assert caught.value.function.startswith("tcsSpGEMM_")
    assert caught.value.log, "no log line"


@gpu
@needs_gpu
def test_mixed_frameworks_are_refused():
    cp = pytest.importorskip("cupy")
    fw = Framework("torch")
    import numpy as np
    a = random_csr(np.random.default_rng(SEED), 10, 10, 0.3, np.float64)
    with pytest.raises(TypeError, match="different frameworks"):
        tcsparse.spmm(fw.csr(a), cp.ones((10, 2)))


STREAM_PROBE = """
import sys, cupy, cupyx.scipy.sparse as cs, tcsparse
a = cs.random(64, 64, density=0.1, format="csr", dtype=cupy.float64, random_state=1)
x = cupy.ones((64, 4))
stream = cupy.cuda.Stream(non_blocking=True)
with stream:
    y = tcsparse.spmm(a, x)
stream.synchronize()
print("stream 0x%x" % stream.ptr)
print("ok", bool(cupy.allclose(y, a @ x)))
"""


@gpu
@needs_gpu
def test_products_run_on_the_frameworks_current_stream():
    pytest.importorskip("cupy")
    # TCS_LOG_LEVEL=3 logs each tcsSpMM with its stream.
    result = run_python(STREAM_PROBE, env={"TCS_LOG_LEVEL": "3"})
    assert result.returncode == 0, result.stderr
    lines = dict(line.split(" ", 1) for line in result.stdout.splitlines())
    assert lines["ok"] == "True"
    spmm_lines = [line for line in result.stderr.splitlines() if line.startswith("tcsparse: tcsSpMM ")]
    assert spmm_lines, result.stderr
    assert all(("stream " + lines["stream"]) in line.lower() for line in spmm_lines), (lines["stream"], spmm_lines)


CUPY_PROGRAM = """
import sys, numpy, cupy, cupyx.scipy.sparse as cs
rng = numpy.random.default_rng(int(sys.argv[2]))
results = {}
for dtype in ("float32", "float64"):
    a = cs.random(400, 300, density=0.02, format="csr", dtype=dtype, random_state=int(rng.integers(2**31)))
    b = cs.random(300, 350, density=0.03, format="csr", dtype=dtype, random_state=int(rng.integers(2**31)))
    x = cupy.asarray(rng.uniform(-1, 1, (300, 16)).astype(dtype))
    c = a @ b
    for name, m in (("a", a), ("b", b), ("c", c)):
        results["%s.%s.indptr" % (dtype, name)] = m.indptr.get()
        results["%s.%s.indices" % (dtype, name)] = m.indices.get()
        results["%s.%s.data" % (dtype, name)] = m.data.get()
        results["%s.%s.shape" % (dtype, name)] = numpy.array(m.shape)
    results[dtype + ".x"] = x.get()
    results[dtype + ".y"] = (a @ x).get()
numpy.savez(sys.argv[1], **results)
"""


@gpu
@needs_gpu
def test_run_sends_an_unmodified_cupy_program_to_tcsparse(tmp_path):
    np = pytest.importorskip("numpy")
    pytest.importorskip("cupy")
    sp = pytest.importorskip("scipy.sparse")
    _shim()
    program = tmp_path / "program.py"
    program.write_text(textwrap.dedent(CUPY_PROGRAM))
    plain = subprocess.run([sys.executable, str(program), str(tmp_path / "plain.npz"), str(SEED)],
                           capture_output=True, text=True, timeout=300)
    assert plain.returncode == 0, plain.stderr
    env = dict(os.environ, TCS_LOG_LEVEL="2")
    swapped = subprocess.run([sys.executable, "-m", "tcsparse.run", sys.executable, str(program),
                              str(tmp_path / "swapped.npz"), str(SEED)],
                             capture_output=True, text=True, timeout=300, env=env)
    assert swapped.returncode == 0, swapped.stderr
    for call in ("tcsSpGEMM_compute", "tcsSpGEMM_copy", "tcsSpMM"):
        assert "tcsparse: %s\n" % call in swapped.stderr, "%s did not run on tcsparse" % call
    p, s = np.load(tmp_path / "plain.npz"), np.load(tmp_path / "swapped.npz")
    import cupyx.scipy.sparse as cs
    for dtype in DTYPES:
        def matrix(run, name):
            key = "%s.%s." % (dtype, name)
            m = sp.csr_matrix((run[key + "data"], run[key + "indices"], run[key + "indptr"]),
                              shape=tuple(run[key + "shape"]))
            m.sort_indices()
            return m
        a, b, c = (matrix(s, name) for name in "abc")
        plain_c = matrix(p, "c")
        # The same inputs; C's pattern equal to cuSPARSE's, both within the bound.
        for name in "ab":
            assert np.array_equal(p["%s.%s.data" % (dtype, name)], s["%s.%s.data" % (dtype, name)])
        assert np.array_equal(plain_c.indptr, c.indptr) and np.array_equal(plain_c.indices, c.indices)
        assert_close(c, a, b)
        assert_close(plain_c, a, b)
        assert_close(s[dtype + ".y"], a, s[dtype + ".x"])
        # Identical to what tcsparse.spgemm gives in this process for the same input
        # (same algorithm choice, bitwise reproducible).
        direct = tcsparse.spgemm(cs.csr_matrix(a), cs.csr_matrix(b))
        assert np.array_equal(direct.data.get(), s[dtype + ".c.data"])
