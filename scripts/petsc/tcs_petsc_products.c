/* The sparse products of a PETSc solver, with their norms printed so that two runs (plain
 * cuSPARSE, and tcsparse through the swap-in) can be compared number by number
 * (scripts/petsc.sh, docs/petsc.md). PETSc's own tests (src/mat/tests/ex94.c, ex96.c)
 * check the products but print nothing to compare; this program prints:
 *
 *   C = A*A     MatMatMult, MAT_INITIAL_MATRIX (symbolic + numeric), then -reuse times
 *               MAT_REUSE_MATRIX after A's values change (numeric only: the SpGEMM
 *               descriptor's compute + copy again)
 *   C = P^T A P MatPtAP with a piecewise-constant aggregation P (as an unsmoothed GAMG
 *               prolongator), initial and -reuse times reused
 *   y = A x     MatMult, -mults times (x all ones)
 *
 * A is the PETSc binary file -f FILE (scripts/petsc/mtx2petsc.py writes one), or the 7-point
 * Laplacian on an -n N x N x N grid. Matrix and vector types come from the options
 * (-mat_type aijcusparse -vec_type cuda). Every norm is printed with 15 digits.
 */
static char help[] = "MatMatMult, MatPtAP (with reuse) and MatMult norms for tcsparse's swap-in check.\n"
                     "  -f FILE | -n N   -reuse K (3)   -mults K (50)   -agg K (8, rows per aggregate of a file)\n";

#include <petscmat.h>

static PetscErrorCode Laplacian3d(PetscInt n, Mat A)
{
  PetscInt rstart, rend, N = n * n * n;

  PetscFunctionBeginUser;
  PetscCall(MatSetSizes(A, PETSC_DECIDE, PETSC_DECIDE, N, N));
  PetscCall(MatSetUp(A));
  PetscCall(MatSeqAIJSetPreallocation(A, 7, NULL));
  PetscCall(MatMPIAIJSetPreallocation(A, 7, NULL, 6, NULL));
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  for (PetscInt row = rstart; row < rend; row++) {
    PetscInt    i = row % n, j = (row / n) % n, k = row / (n * n), cols[7], c = 0;
    PetscScalar vals[7];
    if (k > 0) cols[c] = row - n * n, vals[c++] = -1;
    if (j > 0) cols[c] = row - n, vals[c++] = -1;
    if (i > 0) cols[c] = row - 1, vals[c++] = -1;
    cols[c] = row, vals[c++] = 6;
    if (i < n - 1) cols[c] = row + 1, vals[c++] = -1;
    if (j < n - 1) cols[c] = row + n, vals[c++] = -1;
    if (k < n - 1) cols[c] = row + n * n, vals[c++] = -1;
    PetscCall(MatSetValues(A, 1, &row, c, cols, vals, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* P (rows of A x aggregates): one 1 a row. On the grid, 2x2x2 blocks of points; for a
 * file, -agg consecutive rows. P's rows follow A's row layout. */
static PetscErrorCode Aggregation(Mat A, PetscInt n, PetscInt agg, Mat *P)
{
  PetscInt M, rstart, rend, nc, h = (n + 1) / 2;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &M, NULL));
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  nc = n > 0 ? h * h * h : (M + agg - 1) / agg;
  PetscCall(MatCreate(PetscObjectComm((PetscObject)A), P));
  PetscCall(MatSetSizes(*P, rend - rstart, PETSC_DECIDE, M, nc));
  PetscCall(MatSetFromOptions(*P));
  PetscCall(MatSetUp(*P));
  PetscCall(MatSeqAIJSetPreallocation(*P, 1, NULL));
  PetscCall(MatMPIAIJSetPreallocation(*P, 1, NULL, 1, NULL));
  for (PetscInt row = rstart; row < rend; row++) {
    PetscInt col;
    if (n > 0) col = (row % n) / 2 + h * (((row / n) % n) / 2) + h * h * ((row / (n * n)) / 2);
    else col = row / agg;
    PetscCall(MatSetValue(*P, row, col, 1.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*P, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Report(const char *what, const char *stage, Mat C)
{
  PetscReal fro, one;
  MatInfo   info;
  PetscInt  m, n;

  PetscFunctionBeginUser;
  PetscCall(MatNorm(C, NORM_FROBENIUS, &fro));
  PetscCall(MatNorm(C, NORM_1, &one));
  PetscCall(MatGetInfo(C, MAT_GLOBAL_SUM, &info));
  PetscCall(MatGetSize(C, &m, &n));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "product %s %s rows %" PetscInt_FMT " cols %" PetscInt_FMT " nnz %.0f fro %.15e norm1 %.15e\n", what, stage, m, n, (double)info.nz_used, (double)fro, (double)one));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat         A, P, C, PtAP;
  Vec         x, y;
  PetscInt    n = 0, reuse = 3, mults = 50, agg = 8;
  char        file[PETSC_MAX_PATH_LEN] = "";
  PetscBool   flg;
  PetscReal   ynorm;
  PetscLogStage stages[3];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-f", file, sizeof(file), &flg));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reuse", &reuse, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mults", &mults, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-agg", &agg, NULL));
  PetscCheck(flg || n > 0, PETSC_COMM_WORLD, PETSC_ERR_USER, "give -f FILE (PETSc binary) or -n N (3D Laplacian)");
  PetscCall(PetscLogStageRegister("MatMatMult A*A", &stages[0]));
  PetscCall(PetscLogStageRegister("MatPtAP", &stages[1]));
  PetscCall(PetscLogStageRegister("MatMult", &stages[2]));

  PetscCall(MatCreate(PETSC_COMM_WORLD, &A));
  PetscCall(MatSetFromOptions(A));
  if (flg) {
    PetscViewer viewer;
    PetscCall(PetscViewerBinaryOpen(PETSC_COMM_WORLD, file, FILE_MODE_READ, &viewer));
    PetscCall(MatLoad(A, viewer));
    PetscCall(PetscViewerDestroy(&viewer));
    n = 0;
  } else PetscCall(Laplacian3d(n, A));
  PetscCall(Report("A", "input", A));

  PetscCall(PetscLogStagePush(stages[0]));
  PetscCall(MatMatMult(A, A, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &C));
  PetscCall(Report("AA", "initial", C));
  for (PetscInt r = 1; r <= reuse; r++) {
    PetscCall(MatScale(A, 1.5)); /* new values, same structure: numeric phase only */
    PetscCall(MatMatMult(A, A, MAT_REUSE_MATRIX, PETSC_DETERMINE, &C));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "reuse %" PetscInt_FMT ": ", r));
    PetscCall(Report("AA", "reuse", C));
  }
  PetscCall(PetscLogStagePop());
  PetscCall(MatScale(A, PetscPowReal(1.5, -(PetscReal)reuse)));

  PetscCall(Aggregation(A, n, agg, &P));
  PetscCall(PetscLogStagePush(stages[1]));
  PetscCall(MatPtAP(A, P, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &PtAP));
  PetscCall(Report("PtAP", "initial", PtAP));
  for (PetscInt r = 1; r <= reuse; r++) {
    PetscCall(MatScale(A, 1.5));
    PetscCall(MatPtAP(A, P, MAT_REUSE_MATRIX, PETSC_DETERMINE, &PtAP));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "reuse %" PetscInt_FMT ": ", r));
    PetscCall(Report("PtAP", "reuse", PtAP));
  }
  PetscCall(PetscLogStagePop());

  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecSet(x, 1.0));
  PetscCall(PetscLogStagePush(stages[2]));
  for (PetscInt r = 0; r < mults; r++) PetscCall(MatMult(A, x, y));
  PetscCall(PetscLogStagePop());
  PetscCall(VecNorm(y, NORM_2, &ynorm));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "matmult norm2 %.15e\n", (double)ynorm));

  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(MatDestroy(&PtAP));
  PetscCall(MatDestroy(&P));
  PetscCall(MatDestroy(&C));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
