#!/usr/bin/env python3
"""Adds a switchable timer to hypre's one SpGEMM entry (seq_mv/csr_spgemm_device.c,
hypreDevice_CSRSpGemm, which every Galerkin and interpolation product of BoomerAMG's GPU
setup goes through, hypre's own kernels and the vendor path alike).

With HYPRE_TCS_SPGEMM_TIMER set in the environment, each call waits for the stream before
and after the product and prints one line to stderr:
    hypre-spgemm m k n nnzA nnzB nnzC seconds
Without it, the only change is one cached getenv: the timed runs of scripts/hypre.sh
leave it unset, and its traced runs set it. hypre's own HYPRE_SPGEMM_TIMING does the same
but prints through a header switch that recompiles every SpGEMM file and prints each
sub-phase.

usage: spgemm_timer.py HYPRE_SRC_DIR     (idempotent)
"""
import pathlib
import sys

path = pathlib.Path(sys.argv[1]) / "seq_mv" / "csr_spgemm_device.c"
text = path.read_text()
MARK = "hypre_tcs_spgemm_timer"
if MARK in text:
    sys.exit(0)

helper = """#if defined(HYPRE_USING_GPU)

/* scripts/hypre/spgemm_timer.py (tcsparse): per-product time and shape, on request */
static int
hypre_tcs_spgemm_timer(void)
{
   static int on = -1;
   if (on < 0) { on = getenv("HYPRE_TCS_SPGEMM_TIMER") != NULL; }
   return on;
}
"""
start = "   /* use CUSPARSE or rocSPARSE*/\n"
start_new = ("   HYPRE_Real tcs_t0 = 0.0;\n"
             "   if (hypre_tcs_spgemm_timer()) { hypre_ForceSyncComputeStream(); tcs_t0 = hypre_MPI_Wtime(); }\n\n"
             + start)
end = "   hypre_CSRMatrixNumNonzeros(C) = nnzC;\n"
end_new = ("   if (hypre_tcs_spgemm_timer())\n   {\n      hypre_ForceSyncComputeStream();\n"
           "      fprintf(stderr, \"hypre-spgemm %d %d %d %d %d %d %.6f\\n\", (int) m, (int) k, (int) n,\n"
           "              (int) nnza, (int) nnzb, (int) nnzC, (double) (hypre_MPI_Wtime() - tcs_t0));\n   }\n"
           + end)
for old in ("#if defined(HYPRE_USING_GPU)\n", start, end):
    if text.count(old) < 1:
        sys.exit(f"spgemm_timer.py: {path} has changed: no {old.strip()!r}")
text = text.replace("#if defined(HYPRE_USING_GPU)\n", helper, 1)
text = text.replace(start, start_new, 1).replace(end, end_new, 1)
if "#include <stdlib.h>" not in text:
    text = "#include <stdio.h>\n#include <stdlib.h>\n" + text
path.write_text(text)
print(f"spgemm_timer.py: timer added to {path}")
