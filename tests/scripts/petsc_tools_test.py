#!/usr/bin/env python3
"""Host test of scripts/petsc/ (scripts/petsc.sh's helpers; docs/petsc.md):
mtx2petsc.py writes PETSc's binary format as MatLoad reads it (symmetric expansion,
duplicates summed, pattern values 1, the 3D Laplacian), and compare.py finds equal runs
equal, and a changed iteration count, a failed run and the trace lines for what they are.
Exit 77 (skipped) without numpy."""
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("numpy missing: skipped")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.join(HERE, "..", "..", "scripts", "petsc")
sys.path.insert(0, TOOLS)
import mtx2petsc  # noqa: E402


def load_petsc(path):
    with open(path, "rb") as f:
        classid, m, n, nnz = np.fromfile(f, ">i4", 4)
        lengths = np.fromfile(f, ">i4", m)
        cols = np.fromfile(f, ">i4", nnz)
        vals = np.fromfile(f, ">f8", nnz)
        assert f.read() == b"", "trailing bytes"
    assert classid == 1211216
    assert lengths.sum() == nnz
    dense = np.zeros((m, n))
    rows = np.repeat(np.arange(m), lengths)
    for r in range(m):
        c = cols[rows == r]
        assert np.all(np.diff(c) > 0), "columns of a row must strictly increase"
    dense[rows, cols] = vals
    return dense


def convert(tmp, text, name):
    src = os.path.join(tmp, name + ".mtx")
    with open(src, "w") as f:
        f.write(text)
    dst = os.path.join(tmp, name + ".petsc")
    assert mtx2petsc.main(["mtx2petsc.py", src, dst]) == 0
    return load_petsc(dst)


def run_compare(d):
    p = subprocess.run([sys.executable, os.path.join(TOOLS, "compare.py"), d],
                       capture_output=True, text=True)
    return p.returncode, p.stdout


def write_run(d, tag, out, rc=0, logview=""):
    for ext, text in (("out", out), ("rc", f"{rc}\n"), ("err", ""), ("logview", logview)):
        with open(os.path.join(d, f"{tag}.{ext}"), "w") as f:
            f.write(text)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        # symmetric, real, a duplicate entry (summed), out of order
        a = convert(tmp, "%%MatrixMarket matrix coordinate real symmetric\n% c\n3 3 4\n"
                         "3 1 2.5\n1 1 4\n2 2 5\n2 2 1\n", "sym")
        assert np.array_equal(a, [[4, 0, 2.5], [0, 6, 0], [2.5, 0, 0]]), a
        p = convert(tmp, "%%MatrixMarket matrix coordinate pattern general\n2 3 2\n"
                         "2 3\n1 2\n", "pat")
        assert np.array_equal(p, [[0, 1, 0], [0, 0, 1]]), p
        dst = os.path.join(tmp, "lap.petsc")
        assert mtx2petsc.main(["mtx2petsc.py", "--laplace3d", "3", dst]) == 0
        lap = load_petsc(dst)
        assert lap.shape == (27, 27) and np.count_nonzero(lap) == 135
        assert np.array_equal(lap, lap.T) and np.all(np.diag(lap) == 6)
        assert lap[13].sum() == 0  # the centre point: 6 - 6 neighbours
        mdir = os.environ.get("TCS_MATRIX_DIR", "")
        nos3 = os.path.join(mdir, "nos3.mtx.gz")
        if mdir and os.path.exists(nos3):
            dst = os.path.join(tmp, "nos3.petsc")
            mtx2petsc.main(["mtx2petsc.py", nos3, dst])
            big = load_petsc(dst)
            assert np.count_nonzero(big) == 15844 and np.allclose(big, big.T)

        # compare.py: equal runs, then a different iteration count, a failure, traces
        d = os.path.join(tmp, "runs")
        os.mkdir(d)
        log = ("Time (sec):           1.000e+00     1.000   1.000e+00\n"
               "--- Event Stage 0: Main Stage\n\n"
               "MatMult              100 1.0 2.5000e-01 1.0 1.00e+06 1.0 0.0e+00 0.0e+00 0.0e+00 25  0  0  0  0  25  0  0  0  0  4  4 0 0.00e+00 0 0.00e+00 100\n"
               "  GAMG PtAP            2 1.0 1.0000e-01 1.0 0.00e+00 0.0 0.0e+00 0.0e+00 0.0e+00 10  0  0  0  0  10  0  0  0  0  0  0 0 0.00e+00 0 0.00e+00 0\n"
               "------------------------------------------------------------------------------\n")
        out = ("  0 KSP Residual norm 1.0e+00\n  1 KSP Residual norm 1.0e-09\n"
               "Linear solve converged due to CONVERGED_RTOL iterations 1\nResidual norm 3e-09\n"
               "product AA initial rows 4 cols 4 nnz 10 fro 1.25e+01 norm1 3.0e+00\n")
        write_run(d, "gamg.plain.np1", out, logview=log)
        write_run(d, "gamg.tcs.np1", out.replace("fro 1.25e+01", "fro 1.2500000000001e+01"),
                  logview=log.replace("2.5000e-01", "1.2500e-01"))
        rc, text = run_compare(d)
        assert rc == 0, text
        assert "| MatMult | 0.250000 | 0.125000 | 0.50 |" in text, text
        assert "| GAMG PtAP |" in text and "| whole run |" in text, text
        assert "| KSP iterations | 1 | 1 |" in text, text
        write_run(d, "gamg.tcs.np1", out.replace("iterations 1", "iterations 2"))
        rc, text = run_compare(d)
        assert rc == 1 and "| KSP iterations | 1 | 2 |  | **differs** |" in text, text
        write_run(d, "gamg.tcs.np1", out, rc=1)
        rc, text = run_compare(d)
        assert rc == 1 and "**failed**" in text, text
        write_run(d, "gamg.tcs.np1", out)
        with open(os.path.join(d, "gamg.trace.np1.err"), "w") as f:
            f.write("tcsparse: tcsSpMV\ntcsparse: tcsSpMV\n"
                    "tcsparse: cusparseSpSV_solve -> cuSPARSE\nunrelated\n")
        with open(os.path.join(d, "gamg.trace.np1.rc"), "w") as f:
            f.write("0\n")
        rc, text = run_compare(d)
        assert rc == 0, text
        assert "ran by tcsparse: `tcsSpMV` 2" in text, text
        assert "forwarded to cuSPARSE: `cusparseSpSV_solve` 1" in text, text
    print("petsc tools: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
