"""GPU tests of python/tcsparse_ctypes.py: spgemm, spmm and spmv against scipy's own products,
on random matrices (both index bases, fp32 and fp64, empty rows, unsorted columns) and
on a Matrix Market file read with scipy.io.mmread.

Exit status: 0 passed, 1 failed, 77 skipped (no numpy/scipy, no CUDA runtime or no GPU).
Environment: TCSPARSE_LIBRARY=<path of libtcsparse.so.X.Y.Z>; TCS_MATRIX_DIR=<folder of
the .mtx.gz files> (ctest sets both).
Run: python3 tests/python/test_gpu.py
"""
import os
import pathlib
import sys
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
import tcsparse_ctypes as tcs  # noqa: E402

SKIP = 77
MATRIX = "nos3.mtx.gz"  # 960 x 960 SPD, 15,844 nonzeros (docs: /work/shared/matrices/MANIFEST.md)


def skip_reason():
    try:
        import numpy  # noqa: F401
        import scipy.io  # noqa: F401
        import scipy.sparse  # noqa: F401
    except ImportError as error:
        return "numpy/scipy missing (%s)" % error
    try:
        if tcs.cuda_runtime().device_count() == 0:
            return "no GPU"
    except OSError as error:
        return str(error)
    return None


def random_csr(rng, rows, cols, density, dtype, empty_rows=0, shuffle=False):
    """A random CSR matrix with values in [-1, 1); the first `empty_rows` rows are
    empty, and with `shuffle` the column indices within each row are unsorted."""
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


class Products(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        import numpy as np
        cls.np = np
        cls.rng = np.random.default_rng(20240601)

    def assert_close(self, got, a, b, alpha=1.0, beta=0.0, c0=None):
        """|got - (alpha*a@b + beta*c0)| within the worst-case summation bound of the
        inputs' precision, computed in float64 from the inputs as given."""
        np = self.np
        eps = np.finfo(got.dtype).eps
        a64 = a.astype(np.float64)
        b64 = b.astype(np.float64)
        ref = alpha * (a64 @ b64)
        scale = abs(alpha) * (abs(a64) @ abs(b64))
        if c0 is not None:
            ref = ref + beta * c0.astype(np.float64)
            scale = scale + abs(beta) * abs(c0.astype(np.float64))
        terms = int(np.diff(a.indptr).max(initial=0)) + 2
        dense = lambda x: x.toarray() if hasattr(x, "toarray") else np.asarray(x)  # noqa: E731
        err = np.abs(dense(got).astype(np.float64) - dense(ref))
        bound = 2 * terms * eps * dense(scale) + np.finfo(np.float64).tiny
        worst = np.unravel_index(np.argmax(err - bound), err.shape)
        self.assertTrue(np.all(err <= bound), "entry %s: error %g > bound %g"
                        % (worst, err[worst], bound[worst]))

    def check_spgemm(self, a, b, **options):
        np = self.np
        import scipy.sparse as sp
        c = tcs.spgemm(a, b, **options)
        self.assertEqual(c.shape, (a.shape[0], b.shape[1]))
        self.assertEqual(c.dtype, np.float32 if a.dtype == b.dtype == np.float32 else np.float64)
        # Columns come out sorted within each row, with no duplicates.
        for i in range(c.shape[0]):
            self.assertTrue(np.all(np.diff(c.indices[c.indptr[i]:c.indptr[i + 1]]) > 0), "row %d" % i)
        # The pattern is the symbolic product (cancellations kept): with all values 1
        # nothing cancels, so scipy's product of the patterns is exactly that.
        ones = lambda m: sp.csr_matrix((np.ones(m.nnz), m.indices, m.indptr), shape=m.shape)  # noqa: E731
        pattern = ones(a) @ ones(b)
        pattern.sort_indices()
        self.assertTrue(np.array_equal(c.indptr, pattern.indptr), "row offsets of C")
        self.assertTrue(np.array_equal(c.indices, pattern.indices), "column indices of C")
        self.assert_close(c, a, b, alpha=options.get("alpha", 1.0))

    def test_spgemm_random_fp64_zero_based(self):
        a = random_csr(self.rng, 200, 150, 0.03, self.np.float64, empty_rows=5)
        b = random_csr(self.rng, 150, 180, 0.04, self.np.float64)
        self.check_spgemm(a, b)

    def test_spgemm_random_fp32_one_based_unsorted(self):
        a = random_csr(self.rng, 97, 301, 0.05, self.np.float32, shuffle=True)
        b = random_csr(self.rng, 301, 64, 0.08, self.np.float32, empty_rows=20, shuffle=True)
        self.check_spgemm(a, b, index_base=1, alpha=-0.5)

    def test_spgemm_with_an_empty_product(self):
        a = random_csr(self.rng, 30, 40, 0.1, self.np.float64, empty_rows=30)
        b = random_csr(self.rng, 40, 20, 0.1, self.np.float64)
        c = tcs.spgemm(a, b)
        self.assertEqual((c.shape, c.nnz), ((30, 20), 0))

    def test_spgemm_cancellation_is_an_explicit_zero(self):
        import scipy.sparse as sp
        a = sp.csr_matrix(self.np.array([[1.0, 2.0], [0.0, 3.0]]))
        b = sp.csr_matrix(self.np.array([[-2.0, 1.0], [1.0, 0.0]]))
        c = tcs.spgemm(a, b)  # c[0, 0] = 1*(-2) + 2*1 = 0, stored
        self.assertEqual(c.nnz, 3)
        self.assertEqual((c.indptr[1], c.indices[0], c.data[0]), (2, 0, 0.0))
        self.assertTrue(self.np.array_equal(c.toarray(), (a @ b).toarray()))

    def test_matrix_market_file(self):
        import scipy.io
        import scipy.sparse as sp
        folder = os.environ.get("TCS_MATRIX_DIR", str(ROOT.parent / "shared" / "matrices"))
        path = pathlib.Path(folder) / MATRIX
        self.assertTrue(path.exists(), "%s not found (set TCS_MATRIX_DIR)" % path)
        a = sp.csr_matrix(scipy.io.mmread(str(path)))
        self.assertEqual(a.shape, (960, 960))
        self.check_spgemm(a, a)
        self.check_spgemm(a, a.T.tocsr(), index_base=1)
        x = self.rng.uniform(-1, 1, (a.shape[1], 16))
        self.assert_close(tcs.spmm(a, x), a, x)

    def test_spmm_row_major_fp64_with_beta(self):
        np = self.np
        a = random_csr(self.rng, 300, 200, 0.02, np.float64, empty_rows=7)
        x = self.rng.uniform(-1, 1, (200, 37))
        c0 = self.rng.uniform(-1, 1, (300, 37))
        y = tcs.spmm(a, x, alpha=2.0, beta=-0.5, c=c0)
        self.assertTrue(y.flags.c_contiguous)
        self.assert_close(y, a, x, alpha=2.0, beta=-0.5, c0=c0)

    def test_spmm_column_major_fp32_one_based(self):
        np = self.np
        a = random_csr(self.rng, 128, 96, 0.05, np.float32, shuffle=True)
        x = np.asfortranarray(self.rng.uniform(-1, 1, (96, 8)).astype(np.float32))
        c0 = np.asfortranarray(self.rng.uniform(-1, 1, (128, 8)).astype(np.float32))
        y = tcs.spmm(a, x, beta=1.0, c=c0, index_base=1)
        self.assertEqual(y.dtype, np.float32)
        self.assertTrue(y.flags.f_contiguous)
        self.assert_close(y, a, x, beta=1.0, c0=c0)

    def test_spmv_fp64_with_beta_and_transposed_fp32(self):
        np = self.np
        a = random_csr(self.rng, 250, 180, 0.03, np.float64, empty_rows=9, shuffle=True)
        x = self.rng.uniform(-1, 1, 180)
        y0 = self.rng.uniform(-1, 1, 250)
        y = tcs.spmv(a, x, alpha=1.5, beta=-2.0, y=y0)
        self.assert_close(y[:, None], a, x[:, None], alpha=1.5, beta=-2.0, c0=y0[:, None])
        b = random_csr(self.rng, 90, 140, 0.05, np.float32)
        z = self.rng.uniform(-1, 1, 90).astype(np.float32)
        w = tcs.spmv(b, z, transpose=True, index_base=1)
        self.assertEqual(w.dtype, np.float32)
        self.assert_close(w[:, None], b.T.tocsr(), z[:, None])


if __name__ == "__main__":
    reason = skip_reason()
    if reason:
        print("skipped: " + reason)
        sys.exit(SKIP)
    result = unittest.main(verbosity=2, exit=False).result
    sys.exit(0 if result.wasSuccessful() else 1)
