#!/usr/bin/env python3
"""Sparse products of existing Python GPU frameworks, as their users write them, for
the swap-in check (scripts/swapin-check.sh): nothing here knows about tcsparse. Run
once plainly and once with libtcsparse_cusparse.so preloaded, the two runs must give
the same results.

usage: frameworks.py FRAMEWORK OUT.npz      FRAMEWORK: torch, cupy or jax

For each operation it writes the result (sparse results as row offsets, columns and
values, sorted) into OUT.npz and a line "op NAME ms MEDIAN" on stdout (the median of
10 timed runs after 2 warm-ups, each synchronized), and before each operation a line
"tcsparse-op: NAME" on stderr, so a TCS_LOG_LEVEL=2 trace can be split by operation.
Exit: 0 done, 77 the framework or its GPU is missing.
"""
import os
import sys
import time

N = 20000          # matrix size
PER_ROW = 12       # nonzeros per row
COLUMNS = 32       # columns of the dense right-hand side
SEED = 20240611


def mark(name):
    sys.stderr.write("tcsparse-op: %s\n" % name)
    sys.stderr.flush()


def timed(name, run, sync, results, keep):
    """Runs `run` 2 + 10 times; keeps the last result through keep(result)."""
    mark(name)
    times = []
    result = None
    for i in range(12):
        sync()
        t0 = time.perf_counter()
        result = run()
        sync()
        if i >= 2:
            times.append((time.perf_counter() - t0) * 1e3)
    times.sort()
    print("op %s ms %.4f" % (name, times[len(times) // 2]), flush=True)
    for key, value in keep(result).items():
        results["%s.%s" % (name, key)] = value


def pattern(rng):
    """A random N x N pattern with PER_ROW distinct columns per row (numpy arrays)."""
    import numpy as np
    cols = np.sort(np.stack([rng.choice(N, PER_ROW, replace=False) for _ in range(N)]), axis=1)
    indptr = np.arange(0, N * PER_ROW + 1, PER_ROW, dtype=np.int64)
    return indptr, cols.reshape(-1).astype(np.int64)


def run_torch(results):
    import numpy as np
    import torch
    if not torch.cuda.is_available():
        return 77
    rng = np.random.default_rng(SEED)
    indptr, indices = pattern(rng)
    values = rng.uniform(-1, 1, indptr[-1])
    dev = torch.device("cuda")
    sync = torch.cuda.synchronize
    dense = lambda t: {"dense": t.detach().cpu().numpy()}  # noqa: E731

    def sparse(t):
        t = t.to_sparse_csr() if t.layout != torch.sparse_csr else t
        return {"indptr": t.crow_indices().cpu().numpy(), "indices": t.col_indices().cpu().numpy(),
                "values": t.values().cpu().numpy()}

    for dtype, name in ((torch.float32, "fp32"), (torch.float64, "fp64")):
        crow = torch.tensor(indptr, device=dev)
        col = torch.tensor(indices, device=dev)
        val = torch.tensor(values, device=dev, dtype=dtype)
        a64 = torch.sparse_csr_tensor(crow, col, val, (N, N))             # torch's default: int64
        a32 = torch.sparse_csr_tensor(crow.int(), col.int(), val, (N, N))  # int32 indices
        x = torch.tensor(rng.uniform(-1, 1, (N, COLUMNS)), device=dev, dtype=dtype)
        v = torch.tensor(rng.uniform(-1, 1, N), device=dev, dtype=dtype)
        timed("torch_%s_csr64_matmul_dense" % name, lambda: a64 @ x, sync, results, dense)
        timed("torch_%s_csr32_matmul_dense" % name, lambda: a32 @ x, sync, results, dense)
        timed("torch_%s_csr64_matmul_vector" % name, lambda: a64 @ v, sync, results, dense)
        timed("torch_%s_csr32_matmul_vector" % name, lambda: a32 @ v, sync, results, dense)
        timed("torch_%s_csr_matmul_csr" % name, lambda: a64 @ a64, sync, results, sparse)
        timed("torch_%s_addmm" % name, lambda: torch.addmm(x, a32, x, beta=0.5, alpha=2.0),
              sync, results, dense)
    return 0


def run_cupy(results):
    import numpy as np
    try:
        import cupy as cp
        import cupyx.scipy.sparse as csp
        if cp.cuda.runtime.getDeviceCount() == 0:
            return 77
    except Exception as error:  # no cupy, or no device
        print("cupy unavailable: %s" % error)
        return 77
    rng = np.random.default_rng(SEED)
    indptr, indices = pattern(rng)
    values = rng.uniform(-1, 1, indptr[-1])
    sync = cp.cuda.Device().synchronize
    dense = lambda t: {"dense": cp.asnumpy(t)}  # noqa: E731

    def sparse(t):
        t = t.tocsr()
        t.sort_indices()
        return {"indptr": cp.asnumpy(t.indptr), "indices": cp.asnumpy(t.indices),
                "values": cp.asnumpy(t.data)}

    for dtype, name in ((np.float32, "fp32"), (np.float64, "fp64")):
        a = csp.csr_matrix((cp.asarray(values.astype(dtype)), cp.asarray(indices.astype(np.int32)),
                            cp.asarray(indptr.astype(np.int32))), shape=(N, N))
        x = cp.asarray(rng.uniform(-1, 1, (N, COLUMNS)).astype(dtype))
        v = cp.asarray(rng.uniform(-1, 1, N).astype(dtype))
        timed("cupy_%s_csr_matmul_csr" % name, lambda: a @ a, sync, results, sparse)
        timed("cupy_%s_csr_matmul_dense" % name, lambda: a @ x, sync, results, dense)
        timed("cupy_%s_csr_matmul_vector" % name, lambda: a @ v, sync, results, dense)
        timed("cupy_%s_csr_transpose_matmul_vector" % name, lambda: a.T @ v, sync, results, dense)
        timed("cupy_%s_tocoo" % name, lambda: a.tocoo(), sync, results,
              lambda t: {"row": cp.asnumpy(t.row), "col": cp.asnumpy(t.col)})
        timed("cupy_%s_tocsc" % name, lambda: a.tocsc(), sync, results,
              lambda t: {"indptr": cp.asnumpy(t.indptr), "indices": cp.asnumpy(t.indices),
                         "values": cp.asnumpy(t.data)})
    return 0


def run_jax(results):
    import numpy as np
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    try:
        import jax
        import jax.numpy as jnp
        from jax.experimental import sparse as jsparse
        if not any(d.platform == "gpu" for d in jax.devices()):
            return 77
    except Exception as error:
        print("jax unavailable: %s" % error)
        return 77
    jax.config.update("jax_enable_x64", True)
    rng = np.random.default_rng(SEED)
    indptr, indices = pattern(rng)
    values = rng.uniform(-1, 1, indptr[-1])
    dense = lambda t: {"dense": np.asarray(t)}  # noqa: E731
    for dtype, name in ((np.float32, "fp32"), (np.float64, "fp64")):
        a = jsparse.BCSR((jnp.asarray(values.astype(dtype)), jnp.asarray(indices.astype(np.int32)),
                          jnp.asarray(indptr.astype(np.int32))), shape=(N, N))
        x = jnp.asarray(rng.uniform(-1, 1, (N, COLUMNS)).astype(dtype))
        v = jnp.asarray(rng.uniform(-1, 1, N).astype(dtype))
        matmat = jax.jit(lambda m, y: m @ y)
        sync = lambda: jax.block_until_ready(v)  # noqa: E731
        timed("jax_%s_bcsr_matmul_dense" % name, lambda: matmat(a, x).block_until_ready(), sync,
              results, dense)
        timed("jax_%s_bcsr_matmul_vector" % name, lambda: matmat(a, v).block_until_ready(), sync,
              results, dense)
        b = jsparse.BCOO.from_scipy_sparse(__import__("scipy.sparse", fromlist=["csr_matrix"])
                                           .csr_matrix((values.astype(dtype), indices, indptr),
                                                       shape=(N, N)))
        timed("jax_%s_bcoo_matmul_dense" % name, lambda: matmat(b, x).block_until_ready(), sync,
              results, dense)
    return 0


def main(argv):
    if len(argv) != 3 or argv[1] not in ("torch", "cupy", "jax"):
        sys.exit(__doc__)
    results = {}
    try:
        status = {"torch": run_torch, "cupy": run_cupy, "jax": run_jax}[argv[1]](results)
    except ImportError as error:
        print("%s unavailable: %s" % (argv[1], error))
        return 77
    if status == 0:
        import numpy as np
        np.savez(argv[2], **results)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
