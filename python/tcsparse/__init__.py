"""tcsparse: sparse matrix products on NVIDIA GPUs (SpGEMM, SpMM, SpMV) for CuPy,
PyTorch and scipy.sparse.

    import cupy, cupyx.scipy.sparse as cs, tcsparse
    a = cs.random(1000, 1000, density=0.01, format="csr", dtype=cupy.float64)
    c = tcsparse.spgemm(a, a)                       # CSR @ CSR, a cupyx csr_matrix
    y = tcsparse.spmm(a, cupy.ones((1000, 8)))      # CSR @ dense
    c = tcsparse.spgemm(a, a, alg=tcsparse.SpGEMMAlg.TILE_TC)

CuPy and PyTorch operands stay on the GPU (no copy) and the work runs on the
framework's current device and stream; scipy.sparse/numpy operands are copied to the
GPU and back. Algorithms and math modes are the IntEnums SpGEMMAlg, SpMMAlg, SpMVAlg
and Math, with the values of tcsparse.h. A failing call raises TcsError (its status,
and the library's log line naming the bad argument); no GPU raises NoGpuError.
`python -m tcsparse.run PROGRAM ARGS...` (or `tcsparse-run`) runs an unmodified
cuSPARSE program with its SpGEMM, SpMM and SpMV on tcsparse.
"""
from ._capi import (Math, NoGpuError, SpGEMMAlg, SpMMAlg, SpMVAlg, Status, TcsError,
                    VersionMismatchError)
from ._products import spgemm, spmm, spmv

__all__ = ["spgemm", "spmm", "spmv", "Math", "SpGEMMAlg", "SpMMAlg", "SpMVAlg", "Status",
           "TcsError", "NoGpuError", "VersionMismatchError", "library_path", "library_version"]


def library_path():
    """The file of the libtcsparse that the products use (loaded on first need)."""
    from . import _capi
    return _capi.load().path


def library_version():
    """(major, minor, patch) of the loaded libtcsparse."""
    from . import _capi
    version = _capi.load().version
    return version // 10000, version // 100 % 100, version % 100
