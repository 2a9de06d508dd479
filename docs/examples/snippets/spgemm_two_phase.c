/*
 * docs/guide.md, "The two-phase workflow" and "Pointer modes": C = A * A for a 2D
 * Laplacian through the whole SpGEMM protocol, then again with new values in A and
 * alpha on the device, reusing the analysis. Both results are checked on the host.
 */
#include "snippet_util.h"

int main(void) {
    /* [create] */
    tcsHandle_t handle = NULL;
    const tcsStatus_t created = tcsCreate(&handle);
    if (created == TCS_STATUS_NOT_INITIALIZED) { /* no usable GPU or driver */
        fprintf(stderr, "no CUDA GPU: nothing to run\n");
        return SNIPPET_NO_GPU;
    }
    CHECK_TCS(created);
    /* [create] */

    host_csr a = laplacian_2d(40); /* 1600 x 1600, 7840 entries */
    int* d_rows = (int*)to_device(a.row_ptr, sizeof(int) * (size_t)(a.rows + 1));
    int* d_cols = (int*)to_device(a.col, sizeof(int) * (size_t)a.nnz);
    double* d_vals = (double*)to_device(a.val, sizeof(double) * (size_t)a.nnz);

    /* [spgemm] */
    /* A as an input (const) descriptor; C with nnz 0: its size is not known yet. */
    tcsConstSpMatDescr_t mat_a = NULL;
    tcsSpMatDescr_t mat_c = NULL;
    CHECK_TCS(tcsCreateConstCsr(&mat_a, a.rows, a.cols, a.nnz, d_rows, d_cols, d_vals,
                                TCS_INDEX_32I, TCS_INDEX_32I, TCS_INDEX_BASE_ZERO, CUDA_R_64F));
    int* c_rows = NULL;
    CHECK_CUDA(cudaMalloc((void**)&c_rows, sizeof(int) * (size_t)(a.rows + 1)));
    CHECK_TCS(tcsCreateCsr(&mat_c, a.rows, a.cols, 0, c_rows, NULL, NULL, TCS_INDEX_32I,
                           TCS_INDEX_32I, TCS_INDEX_BASE_ZERO, CUDA_R_64F));

    const double alpha = 1.0, beta = 0.0; /* host pointer mode, the default */
    const tcsOperation_t op = TCS_OPERATION_NON_TRANSPOSE;
    const tcsSpGEMMAlg_t alg = TCS_SPGEMM_DEFAULT;
    tcsSpGEMMDescr_t spgemm = NULL;
    CHECK_TCS(tcsSpGEMM_createDescr(&spgemm));

    /* Phase 1, work estimation: ask for the size of buffer 1, then run the analysis
     * (products per row and the symbolic pass; the only host synchronization). */
    size_t size1 = 0, size2 = 0;
    void *buffer1 = NULL, *buffer2 = NULL;
    CHECK_TCS(tcsSpGEMM_workEstimation(handle, op, op, &alpha, mat_a, mat_a, &beta, mat_c,
                                       CUDA_R_64F, alg, spgemm, &size1, NULL));
    CHECK_CUDA(cudaMalloc(&buffer1, size1));
    CHECK_TCS(tcsSpGEMM_workEstimation(handle, op, op, &alpha, mat_a, mat_a, &beta, mat_c,
                                       CUDA_R_64F, alg, spgemm, &size1, buffer1));

    /* Phase 2, compute: the exact size of buffer 2, then prepare the numeric pass.
     * Afterwards nnz(C) is known. */
    CHECK_TCS(tcsSpGEMM_compute(handle, op, op, &alpha, mat_a, mat_a, &beta, mat_c, CUDA_R_64F,
                                alg, spgemm, &size2, NULL));
    CHECK_CUDA(cudaMalloc(&buffer2, size2));
    CHECK_TCS(tcsSpGEMM_compute(handle, op, op, &alpha, mat_a, mat_a, &beta, mat_c, CUDA_R_64F,
                                alg, spgemm, &size2, buffer2));

    /* Allocate C, hand its arrays to the descriptor, and let copy write them. */
    int64_t c_m = 0, c_n = 0, c_nnz = 0;
    CHECK_TCS(tcsSpMatGetSize(mat_c, &c_m, &c_n, &c_nnz));
    int* c_cols = NULL;
    double* c_vals = NULL;
    CHECK_CUDA(cudaMalloc((void**)&c_cols, sizeof(int) * (size_t)c_nnz));
    CHECK_CUDA(cudaMalloc((void**)&c_vals, sizeof(double) * (size_t)c_nnz));
    CHECK_TCS(tcsCsrSetPointers(mat_c, c_rows, c_cols, c_vals));
    CHECK_TCS(tcsSpGEMM_copy(handle, op, op, &alpha, mat_a, mat_a, &beta, mat_c, CUDA_R_64F,
                             alg, spgemm));

    /* [spgemm] */

    CHECK_CUDA(cudaDeviceSynchronize());
    host_csr ref = host_spgemm(&a, &a);
    int wrong = c_nnz != ref.nnz || check_device_csr(&ref, c_rows, c_cols, c_vals);
    printf("C = A*A: %lld x %lld, %lld entries: %s\n", (long long)c_m, (long long)c_n,
           (long long)c_nnz, wrong ? "WRONG" : "matches the host product");
    host_csr_free(&ref);

    for (int p = 0; p < a.nnz; ++p) a.val[p] = 1.0 / (1.0 + p % 7); /* new values */
    CHECK_CUDA(cudaMemcpy(d_vals, a.val, sizeof(double) * (size_t)a.nnz, cudaMemcpyHostToDevice));

    /* [reuse] */
    /* Same pattern, new values in A: compute and copy again on the same descriptor and
     * buffers. This time alpha = 2 and beta = 0 are read from device memory. */
    const double scalars[2] = {2.0, 0.0};
    double* d_scalars = (double*)to_device(scalars, sizeof scalars);
    CHECK_TCS(tcsSetPointerMode(handle, TCS_POINTER_MODE_DEVICE));
    CHECK_TCS(tcsSpGEMM_compute(handle, op, op, &d_scalars[0], mat_a, mat_a, &d_scalars[1],
                                mat_c, CUDA_R_64F, alg, spgemm, &size2, buffer2));
    CHECK_TCS(tcsSpGEMM_copy(handle, op, op, &d_scalars[0], mat_a, mat_a, &d_scalars[1], mat_c,
                             CUDA_R_64F, alg, spgemm));
    /* [reuse] */

    CHECK_CUDA(cudaDeviceSynchronize());
    ref = host_spgemm(&a, &a);
    for (int p = 0; p < ref.nnz; ++p) ref.val[p] *= 2.0;
    const int wrong_reuse = check_device_csr(&ref, c_rows, c_cols, c_vals);
    printf("C = 2*A*A with new values in A: %s\n",
           wrong_reuse ? "WRONG" : "matches the host product");
    wrong |= wrong_reuse;

    /* [cleanup] */
    /* The buffers were needed until the last copy; now they can go. */
    CHECK_TCS(tcsSpGEMM_destroyDescr(spgemm));
    CHECK_CUDA(cudaFree(buffer1));
    CHECK_CUDA(cudaFree(buffer2));
    /* [cleanup] */

    CHECK_TCS(tcsDestroySpMat(mat_a));
    CHECK_TCS(tcsDestroySpMat(mat_c));
    CHECK_TCS(tcsDestroy(handle));
    CHECK_CUDA(cudaFree(c_rows));
    CHECK_CUDA(cudaFree(c_cols));
    CHECK_CUDA(cudaFree(c_vals));
    CHECK_CUDA(cudaFree(d_rows));
    CHECK_CUDA(cudaFree(d_cols));
    CHECK_CUDA(cudaFree(d_vals));
    CHECK_CUDA(cudaFree(d_scalars));
    host_csr_free(&a);
    host_csr_free(&ref);
    return wrong ? EXIT_FAILURE : EXIT_SUCCESS;
}
