#!/usr/bin/env python3
"""Matrix Market (.mtx or .mtx.gz, real/integer/pattern, general/symmetric/skew) to
PETSc's binary matrix format, the file MatLoad reads (scripts/petsc.sh, docs/petsc.md).

PETSc's format, all big-endian: int32 MAT_FILE_CLASSID (1211216), rows, cols, nnz;
int32 row lengths; int32 column indices, row by row, ascending; float64 values.
Symmetric files are expanded to both triangles; duplicates are summed; pattern files get
the value 1 for every entry (the structure is the collection's, the values are not).

  mtx2petsc.py IN.mtx[.gz] OUT.petsc [--info]   (--info prints rows cols nnz)
  mtx2petsc.py --laplace3d N OUT.petsc [--info]  the 7-point Laplacian (6 on the diagonal,
      -1 off it) on an N x N x N grid, x fastest, as PETSc's DMDA numbers one process
"""
import gzip
import sys

import numpy as np

MAT_FILE_CLASSID = 1211216


def read_mtx(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        banner = f.readline().split()
        if len(banner) < 5 or banner[0] != "%%MatrixMarket" or banner[1].lower() != "matrix":
            raise SystemExit(f"{path}: not a Matrix Market matrix file")
        fmt, field, sym = banner[2].lower(), banner[3].lower(), banner[4].lower()
        if fmt != "coordinate":
            raise SystemExit(f"{path}: only coordinate files are read, not {fmt}")
        if field not in ("real", "integer", "pattern", "double"):
            raise SystemExit(f"{path}: {field} values: PETSc here is built with real scalars")
        line = f.readline()
        while line.startswith("%") or not line.strip():
            line = f.readline()
        m, n, stored = (int(x) for x in line.split()[:3])
        cols = 2 if field == "pattern" else 3
        data = np.loadtxt(f, dtype=np.float64, ndmin=2, usecols=range(cols))
    if data.shape[0] != stored:
        raise SystemExit(f"{path}: {data.shape[0]} entries, the size line says {stored}")
    i = data[:, 0].astype(np.int64) - 1
    j = data[:, 1].astype(np.int64) - 1
    v = np.ones(stored) if field == "pattern" else data[:, 2].copy()
    if sym in ("symmetric", "skew-symmetric", "hermitian"):
        off = i != j
        sign = -1.0 if sym == "skew-symmetric" else 1.0
        i, j, v = (np.concatenate([i, j[off]]), np.concatenate([j, i[off]]),
                   np.concatenate([v, sign * v[off]]))
    return m, n, i, j, v


def to_csr(m, n, i, j, v):
    key = i * n + j
    order = np.argsort(key, kind="stable")
    key, v = key[order], v[order]
    uniq, start = np.unique(key, return_index=True)
    vals = np.add.reduceat(v, start) if len(v) else v
    rows = (uniq // n).astype(np.int64)
    colidx = (uniq % n).astype(np.int64)
    lengths = np.bincount(rows, minlength=m)
    return lengths, colidx, vals


def laplace3d(n):
    idx = np.arange(n ** 3, dtype=np.int64)
    x, y, z = idx % n, (idx // n) % n, idx // (n * n)
    rows, cols, vals = [idx], [idx], [np.full(n ** 3, 6.0)]
    for coord, step in ((x, 1), (y, n), (z, n * n)):
        for sign, keep in ((-1, coord > 0), (1, coord < n - 1)):
            rows.append(idx[keep])
            cols.append(idx[keep] + sign * step)
            vals.append(np.full(int(keep.sum()), -1.0))
    return n ** 3, n ** 3, np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)


def write_petsc(path, m, n, lengths, colidx, vals):
    with open(path, "wb") as f:
        np.array([MAT_FILE_CLASSID, m, n, len(colidx)], dtype=">i4").tofile(f)
        lengths.astype(">i4").tofile(f)
        colidx.astype(">i4").tofile(f)
        vals.astype(">f8").tofile(f)


def main(argv):
    if len(argv) < 3 or (argv[1] == "--laplace3d" and len(argv) < 4):
        print(__doc__, file=sys.stderr)
        return 2
    if argv[1] == "--laplace3d":
        m, n, i, j, v = laplace3d(int(argv[2]))
        argv = argv[1:]
    else:
        m, n, i, j, v = read_mtx(argv[1])
    lengths, colidx, vals = to_csr(m, n, i, j, v)
    write_petsc(argv[2], m, n, lengths, colidx, vals)
    if "--info" in argv[3:]:
        print(m, n, len(colidx))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
