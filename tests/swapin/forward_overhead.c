/*
 * The host time the shim adds to a forwarded call, measured on the host with a loop
 * (no GPU needed). The program is linked with libtcsparse_cusparse.so; the real
 * cuSPARSE is opened beside it (RTLD_LOCAL) for the baseline. Each pair times the same
 * cheap descriptor call on a real object directly and through the shim, which finds
 * the real function (a cached pointer), swaps the shim's objects for their real
 * counterparts and calls it. Prints ns per call and fails when the shim adds more
 * than 1 us (the budget of docs/forwarding.md), median of 9 rounds of 200000 calls.
 * Exits 77 (skipped) where the real cuSPARSE cannot be opened.
 */
#define _GNU_SOURCE
#include <cusparse.h>

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define FAKE(address) ((void*)(uintptr_t)(address))
#define CALLS 200000
#define ROUNDS 9
#define BUDGET_NS 1000.0

typedef cusparseStatus_t (*create_csr_fn)(cusparseSpMatDescr_t*, int64_t, int64_t, int64_t, void*,
                                          void*, void*, cusparseIndexType_t, cusparseIndexType_t,
                                          cusparseIndexBase_t, cudaDataType);
typedef cusparseStatus_t (*get_batch_fn)(cusparseConstSpMatDescr_t, int*);
typedef cusparseStatus_t (*get_attribute_fn)(cusparseConstSpMatDescr_t, cusparseSpMatAttribute_t,
                                             void*, size_t);
typedef cusparseIndexBase_t (*get_base_fn)(const cusparseMatDescr_t);

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int compare(const void* a, const void* b) {
    const double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

static volatile int sink;

/* ns per call, median over the rounds, of `body` run CALLS times. */
#define TIME_NS(result, body)                                                            \
    do {                                                                                 \
        double rounds_[ROUNDS];                                                          \
        for (int r_ = 0; r_ < ROUNDS; ++r_) {                                            \
            const double t0_ = now_ns();                                                 \
            for (int i_ = 0; i_ < CALLS; ++i_) {                                         \
                body;                                                                    \
            }                                                                            \
            rounds_[r_] = (now_ns() - t0_) / CALLS;                                      \
        }                                                                                \
        qsort(rounds_, ROUNDS, sizeof rounds_[0], compare);                              \
        result = rounds_[ROUNDS / 2];                                                    \
    } while (0)

int main(void) {
    void* lib = dlopen(TCS_REAL_CUSPARSE, RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        printf("forward_overhead: %s not found: skipped\n", TCS_REAL_CUSPARSE);
        return 77;
    }
    const create_csr_fn real_create = (create_csr_fn)dlsym(lib, "cusparseCreateCsr");
    const get_batch_fn real_batch = (get_batch_fn)dlsym(lib, "cusparseSpMatGetStridedBatch");
    const get_attribute_fn real_attribute = (get_attribute_fn)dlsym(lib, "cusparseSpMatGetAttribute");
    const get_base_fn real_base = (get_base_fn)dlsym(lib, "cusparseGetMatIndexBase");
    cusparseStatus_t (*real_create_descr)(cusparseMatDescr_t*) =
        (cusparseStatus_t(*)(cusparseMatDescr_t*))dlsym(lib, "cusparseCreateMatDescr");
    if (!real_create || !real_batch || !real_attribute || !real_base || !real_create_descr) {
        printf("forward_overhead: the real cuSPARSE lacks a function\n");
        return 1;
    }

    cusparseSpMatDescr_t real = NULL, shim = NULL;
    cusparseMatDescr_t real_legacy = NULL, shim_legacy = NULL;
    if (real_create(&real, 1000, 1000, 10, FAKE(0x1000), FAKE(0x2000), FAKE(0x3000),
                    CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                    CUDA_R_32F) != CUSPARSE_STATUS_SUCCESS ||
        cusparseCreateCsr(&shim, 1000, 1000, 10, FAKE(0x1000), FAKE(0x2000), FAKE(0x3000),
                          CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                          CUDA_R_32F) != CUSPARSE_STATUS_SUCCESS ||
        real_create_descr(&real_legacy) != CUSPARSE_STATUS_SUCCESS ||
        cusparseCreateMatDescr(&shim_legacy) != CUSPARSE_STATUS_SUCCESS) {
        printf("forward_overhead: cannot create the descriptors\n");
        return 1;
    }
    int batches = 0;
    cusparseFillMode_t fill = CUSPARSE_FILL_MODE_LOWER;
    /* the first forwarded call loads the library and makes the real side: not timed */
    if (cusparseSpMatGetStridedBatch(shim, &batches) != CUSPARSE_STATUS_SUCCESS) {
        printf("forward_overhead: the shim did not forward cusparseSpMatGetStridedBatch\n");
        return 1;
    }

    struct {
        const char* what;
        double direct, shimmed;
    } rows[3];
    TIME_NS(rows[0].direct, sink += real_batch(real, &batches));
    TIME_NS(rows[0].shimmed, sink += cusparseSpMatGetStridedBatch(shim, &batches));
    rows[0].what = "cusparseSpMatGetStridedBatch (a CSR descriptor)";
    TIME_NS(rows[1].direct, sink += real_attribute(real, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill));
    TIME_NS(rows[1].shimmed,
            sink += cusparseSpMatGetAttribute(shim, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill));
    rows[1].what = "cusparseSpMatGetAttribute (a CSR descriptor)";
    TIME_NS(rows[2].direct, sink += (int)real_base(real_legacy));
    TIME_NS(rows[2].shimmed, sink += (int)cusparseGetMatIndexBase(shim_legacy));
    rows[2].what = "cusparseGetMatIndexBase (legacy, no shim object)";

    int failed = 0;
    printf("%-50s %10s %10s %10s\n", "forwarded call", "direct ns", "shim ns", "added ns");
    for (int i = 0; i < 3; ++i) {
        const double added = rows[i].shimmed - rows[i].direct;
        printf("%-50s %10.1f %10.1f %10.1f\n", rows[i].what, rows[i].direct, rows[i].shimmed, added);
        if (added > BUDGET_NS) failed = 1;
    }
    cusparseDestroySpMat(shim);
    cusparseDestroyMatDescr(shim_legacy);
    if (failed) printf("forward_overhead: the shim adds more than %.0f ns to a call\n", BUDGET_NS);
    return failed;
}
