/*
 * docs/guide.md, "Streams and CUDA graphs": C = alpha * A * B (A sparse, B and C dense,
 * row-major) on a stream of the caller's, analysed once with tcsSpMM_preprocess, then
 * captured in a CUDA graph and replayed; B changes between the replays. Each result is
 * checked on the host.
 */
#include "snippet_util.h"

int main(void) {
    tcsHandle_t handle = NULL;
    const tcsStatus_t created = tcsCreate(&handle);
    if (created == TCS_STATUS_NOT_INITIALIZED) {
        fprintf(stderr, "no CUDA GPU: nothing to run\n");
        return SNIPPET_NO_GPU;
    }
    CHECK_TCS(created);

    host_csr a = laplacian_2d(64); /* 4096 x 4096 */
    const int n = 16;              /* columns of B and C */
    double* b = (double*)snippet_malloc(sizeof(double) * (size_t)a.cols * n);
    double* c = (double*)snippet_malloc(sizeof(double) * (size_t)a.rows * n);
    for (size_t i = 0; i < (size_t)a.cols * n; ++i) b[i] = (double)(i % 17) - 8.0;
    int* d_rows = (int*)to_device(a.row_ptr, sizeof(int) * (size_t)(a.rows + 1));
    int* d_cols = (int*)to_device(a.col, sizeof(int) * (size_t)a.nnz);
    double* d_vals = (double*)to_device(a.val, sizeof(double) * (size_t)a.nnz);
    double* d_b = (double*)to_device(b, sizeof(double) * (size_t)a.cols * n);
    double* d_c = NULL;
    CHECK_CUDA(cudaMalloc((void**)&d_c, sizeof(double) * (size_t)a.rows * n));

    /* [spmm] */
    cudaStream_t stream = NULL;
    CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CHECK_TCS(tcsSetStream(handle, stream)); /* every later call runs on it */

    tcsConstSpMatDescr_t mat_a = NULL;
    tcsConstDnMatDescr_t mat_b = NULL;
    tcsDnMatDescr_t mat_c = NULL;
    CHECK_TCS(tcsCreateConstCsr(&mat_a, a.rows, a.cols, a.nnz, d_rows, d_cols, d_vals,
                                TCS_INDEX_32I, TCS_INDEX_32I, TCS_INDEX_BASE_ZERO, CUDA_R_64F));
    CHECK_TCS(tcsCreateConstDnMat(&mat_b, a.cols, n, n, d_b, CUDA_R_64F, TCS_ORDER_ROW));
    CHECK_TCS(tcsCreateDnMat(&mat_c, a.rows, n, n, d_c, CUDA_R_64F, TCS_ORDER_ROW));

    /* Host scalars are read when tcsSpMM is called, so a graph keeps the values it saw
     * at capture; use TCS_POINTER_MODE_DEVICE to change them between replays. */
    const double alpha = 0.5, beta = 0.0;
    const tcsOperation_t op = TCS_OPERATION_NON_TRANSPOSE;
    size_t size = 0;
    void* buffer = NULL;
    CHECK_TCS(tcsSpMM_bufferSize(handle, op, op, &alpha, mat_a, mat_b, &beta, mat_c, CUDA_R_64F,
                                 TCS_SPMM_ALG_DEFAULT, &size));
    if (size > 0) CHECK_CUDA(cudaMalloc(&buffer, size));
    /* The analysis of A's structure, once; every tcsSpMM with this buffer reuses it. */
    CHECK_TCS(tcsSpMM_preprocess(handle, op, op, &alpha, mat_a, mat_b, &beta, mat_c, CUDA_R_64F,
                                 TCS_SPMM_ALG_DEFAULT, buffer));

    /* tcsSpMM allocates nothing and never synchronizes, so it can be captured. */
    cudaGraph_t graph = NULL;
    cudaGraphExec_t replay = NULL;
    CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    CHECK_TCS(tcsSpMM(handle, op, op, &alpha, mat_a, mat_b, &beta, mat_c, CUDA_R_64F,
                      TCS_SPMM_ALG_DEFAULT, buffer));
    CHECK_CUDA(cudaStreamEndCapture(stream, &graph));
    CHECK_CUDA(cudaGraphInstantiate(&replay, graph, 0));

    CHECK_CUDA(cudaGraphLaunch(replay, stream));
    /* [spmm] */
    CHECK_CUDA(cudaMemcpyAsync(c, d_c, sizeof(double) * (size_t)a.rows * n,
                               cudaMemcpyDeviceToHost, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    const double error1 = host_spmm_error(&a, b, n, alpha, c);

    /* New values in B (same array), then the same graph again. */
    for (size_t i = 0; i < (size_t)a.cols * n; ++i) b[i] = 1.0 / (1.0 + (double)(i % 13));
    CHECK_CUDA(cudaMemcpyAsync(d_b, b, sizeof(double) * (size_t)a.cols * n,
                               cudaMemcpyHostToDevice, stream));
    CHECK_CUDA(cudaGraphLaunch(replay, stream));
    CHECK_CUDA(cudaMemcpyAsync(c, d_c, sizeof(double) * (size_t)a.rows * n,
                               cudaMemcpyDeviceToHost, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    const double error2 = host_spmm_error(&a, b, n, alpha, c);

    const int wrong = !(error1 <= 1e-12 && error2 <= 1e-12);
    printf("C = A*B from a CUDA graph, twice: relative errors %.2g and %.2g: %s\n", error1,
           error2, wrong ? "WRONG" : "match the host product");

    CHECK_CUDA(cudaGraphExecDestroy(replay));
    CHECK_CUDA(cudaGraphDestroy(graph));
    CHECK_TCS(tcsDestroySpMat(mat_a));
    CHECK_TCS(tcsDestroyDnMat(mat_b));
    CHECK_TCS(tcsDestroyDnMat(mat_c));
    CHECK_TCS(tcsDestroy(handle));
    CHECK_CUDA(cudaStreamDestroy(stream));
    if (buffer != NULL) CHECK_CUDA(cudaFree(buffer));
    CHECK_CUDA(cudaFree(d_rows));
    CHECK_CUDA(cudaFree(d_cols));
    CHECK_CUDA(cudaFree(d_vals));
    CHECK_CUDA(cudaFree(d_b));
    CHECK_CUDA(cudaFree(d_c));
    free(b);
    free(c);
    host_csr_free(&a);
    return wrong ? EXIT_FAILURE : EXIT_SUCCESS;
}
