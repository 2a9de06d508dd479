/*
 * A client that looks cuSPARSE up itself, as CuPy-style loaders and plugin systems do:
 * dlopen("libcusparse.so.<major>") and dlsym on that handle. LD_PRELOAD does not reach
 * such lookups (dlsym on a handle searches that library, not the preloaded ones); the
 * way that does is the shim under cuSPARSE's SONAME (shim/soname/) in a directory
 * placed first on the library path, which finds the real library past itself.
 *
 * TCS_DLOPEN_EXPECT=shim (the SONAME directory is first on LD_LIBRARY_PATH): the
 * handle's functions are the shim's (tcsparse names the statuses), a forwarded
 * function reaches the real cuSPARSE, and with a GPU an accelerated SpMV and a
 * forwarded Xcsr2coo give the CPU's results. TCS_DLOPEN_EXPECT=real (run under
 * LD_PRELOAD only): the handle's functions are the real library's, which is what the
 * documentation warns of. Exit: 0 passed, 1 failed.
 */
#define _GNU_SOURCE
#include <cusparse.h>

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STR2(x) #x
#define STR(x) STR2(x)
#define SONAME "libcusparse.so." STR(CUSPARSE_VER_MAJOR)

static void* library;

static void* need(const char* name) {
    void* f = dlsym(library, name);
    if (f == NULL) {
        fprintf(stderr, "dlopen_client: %s not found in %s\n", name, SONAME);
        exit(1);
    }
    return f;
}
#define FN(name) ((__typeof__(name)*)need(#name))

#define EXPECT(call)                                                                     \
    do {                                                                                 \
        const cusparseStatus_t s_ = (call);                                              \
        if (s_ != CUSPARSE_STATUS_SUCCESS) {                                             \
            fprintf(stderr, "dlopen_client: line %d: %s returned %d\n", __LINE__, #call, \
                    (int)s_);                                                            \
            return 1;                                                                    \
        }                                                                                \
    } while (0)

/* A forwarded call, then an accelerated and a forwarded product on a small matrix. */
static int run_products(void) {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        printf("dlopen_client: no GPU: the products are left out\n");
        return 0;
    }
    /* A = [[2, 0, 1], [0, 3, 0], [4, 0, 5]], x = [1, 2, 3]: A x = [5, 6, 19] */
    const int rp[] = {0, 2, 3, 5}, ci[] = {0, 2, 1, 0, 2};
    const float val[] = {2, 1, 3, 4, 5}, x[] = {1, 2, 3};
    int *d_rp, *d_ci, *d_rows;
    float *d_val, *d_x, *d_y;
    cudaMalloc((void**)&d_rp, sizeof rp), cudaMalloc((void**)&d_ci, sizeof ci);
    cudaMalloc((void**)&d_rows, sizeof ci), cudaMalloc((void**)&d_val, sizeof val);
    cudaMalloc((void**)&d_x, sizeof x), cudaMalloc((void**)&d_y, sizeof x);
    cudaMemcpy(d_rp, rp, sizeof rp, cudaMemcpyHostToDevice);
    cudaMemcpy(d_ci, ci, sizeof ci, cudaMemcpyHostToDevice);
    cudaMemcpy(d_val, val, sizeof val, cudaMemcpyHostToDevice);
    cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice);

    cusparseHandle_t h;
    cusparseSpMatDescr_t a;
    cusparseDnVecDescr_t vx, vy;
    EXPECT(FN(cusparseCreate)(&h));
    EXPECT(FN(cusparseCreateCsr)(&a, 3, 3, 5, d_rp, d_ci, d_val, CUSPARSE_INDEX_32I,
                                 CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    EXPECT(FN(cusparseCreateDnVec)(&vx, 3, d_x, CUDA_R_32F));
    EXPECT(FN(cusparseCreateDnVec)(&vy, 3, d_y, CUDA_R_32F));
    const float one = 1.0f, zero = 0.0f;
    size_t bytes = 0;
    EXPECT(FN(cusparseSpMV_bufferSize)(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, vx, &zero, vy,
                                       CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
    void* buffer = NULL;
    cudaMalloc(&buffer, bytes > 0 ? bytes : 1);
    EXPECT(FN(cusparseSpMV)(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, vx, &zero, vy, CUDA_R_32F,
                            CUSPARSE_SPMV_ALG_DEFAULT, buffer));
    EXPECT(FN(cusparseXcsr2coo)(h, d_rp, 5, 3, d_rows, CUSPARSE_INDEX_BASE_ZERO));
    float y[3];
    int rows[5];
    cudaDeviceSynchronize();
    cudaMemcpy(y, d_y, sizeof y, cudaMemcpyDeviceToHost);
    cudaMemcpy(rows, d_rows, sizeof rows, cudaMemcpyDeviceToHost);
    const int expected_rows[] = {0, 0, 1, 2, 2};
    if (y[0] != 5.0f || y[1] != 6.0f || y[2] != 19.0f || memcmp(rows, expected_rows, sizeof rows) != 0) {
        fprintf(stderr, "dlopen_client: A x = [%g %g %g], COO rows [%d %d %d %d %d]\n", y[0], y[1],
                y[2], rows[0], rows[1], rows[2], rows[3], rows[4]);
        return 1;
    }
    EXPECT(FN(cusparseDestroyDnVec)(vx));
    EXPECT(FN(cusparseDestroyDnVec)(vy));
    EXPECT(FN(cusparseDestroySpMat)(a));
    EXPECT(FN(cusparseDestroy)(h));
    printf("dlopen_client: SpMV and Xcsr2coo through the dlopen'ed library: correct\n");
    return 0;
}

int main(void) {
    const char* expect = getenv("TCS_DLOPEN_EXPECT");
    const int expect_shim = expect == NULL || strcmp(expect, "real") != 0;
    library = dlopen(SONAME, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        fprintf(stderr, "dlopen_client: dlopen(%s): %s\n", SONAME, dlerror());
        return 1;
    }
    const char* name = FN(cusparseGetErrorName)(CUSPARSE_STATUS_SUCCESS);
    const int is_shim = strncmp(name, "TCS_", 4) == 0;
    Dl_info info;
    dladdr((void*)FN(cusparseCreate), &info);
    printf("dlopen_client: %s is %s (%s)\n", SONAME, is_shim ? "the tcsparse shim" : "the real cuSPARSE",
           info.dli_fname != NULL ? info.dli_fname : "?");
    if (is_shim != expect_shim) {
        fprintf(stderr, "dlopen_client: expected %s\n", expect_shim ? "the shim" : "the real cuSPARSE");
        return 1;
    }
    if (!expect_shim) return 0;

    /* a COO descriptor: the shim forwards it to the real library it found past itself */
    cusparseSpMatDescr_t coo = NULL;
    EXPECT(FN(cusparseCreateCoo)(&coo, 4, 4, 2, (void*)0x1000, (void*)0x2000, (void*)0x3000,
                                 CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    cusparseFormat_t format = CUSPARSE_FORMAT_CSR;
    EXPECT(FN(cusparseSpMatGetFormat)(coo, &format));
    EXPECT(FN(cusparseDestroySpMat)(coo));
    if (format != CUSPARSE_FORMAT_COO) {
        fprintf(stderr, "dlopen_client: the COO descriptor reports format %d\n", (int)format);
        return 1;
    }
    return run_products();
}
