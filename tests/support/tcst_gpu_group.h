/*
 * The start and the end every GPU test program shares (include after <cmocka.h>,
 * "tcsparse.h" and "tcs_test_support.h"): the skip where no GPU is usable, and the
 * group fixture that draws the seed (printed, so TCST_SEED=<seed> reproduces a run),
 * reads TCS_TEST_QUICK and makes the handle the tests use, then destroys it.
 */
#ifndef TCST_GPU_GROUP_H_
#define TCST_GPU_GROUP_H_

#include <stdint.h>
#include <stdio.h>

/* 1, with a line saying so, where no CUDA device is usable: main returns TCST_SKIP. */
static inline int tcst_no_gpu(const char* program) {
    if (tcst_gpu_available()) return 0;
    printf("%s: no usable CUDA device: skipped\n", program);
    return 1;
}

/* The group's setup: *seed fresh (or TCST_SEED's) and printed, *quick from TCS_TEST_QUICK
 * (quick may be NULL), *handle made. 0 on success, as cmocka wants. */
static inline int tcst_gpu_group_setup(const char* program, tcsHandle_t* handle, uint64_t* seed, int* quick) {
    *seed = tcst_fresh_seed();
    const int q = tcst_quick();
    if (quick != NULL) *quick = q;
    printf("%s: seed %llu (TCST_SEED=%llu reproduces)%s\n", program, (unsigned long long)*seed,
           (unsigned long long)*seed, q ? ", quick sizes" : "");
    return tcsCreate(handle) == TCS_STATUS_SUCCESS ? 0 : -1;
}

/* The group's teardown: the handle destroyed. */
static inline int tcst_gpu_group_teardown(tcsHandle_t handle) {
    return tcsDestroy(handle) == TCS_STATUS_SUCCESS ? 0 : -1;
}

/* Defines the program's group_setup and group_teardown over its static `handle`, `seed`
 * and, where quick_ptr is not NULL, the int it points to. */
#define TCST_GPU_GROUP_FIXTURE(program, handle, seed, quick_ptr)                                   \
    static int group_setup(void** state) {                                                       \
        (void)state;                                                                             \
        return tcst_gpu_group_setup(program, &(handle), &(seed), quick_ptr);                     \
    }                                                                                            \
    static int group_teardown(void** state) {                                                    \
        (void)state;                                                                             \
        return tcst_gpu_group_teardown(handle);                                                  \
    }

/* What most GPU programs keep for their group: the handle, the seed, a generator seeded
 * from it, and TCS_TEST_QUICK. */
typedef struct {
    tcsHandle_t handle;
    tcst_rng rng;
    uint64_t seed;
    int quick;
} tcst_gpu_fixture;

/* Defines the program's group_setup and group_teardown over `fx`, a tcst_gpu_fixture:
 * tcst_gpu_group_setup, then fx.rng seeded from fx.seed. */
#define TCST_GPU_FIXTURE(program, fx)                                                            \
    static int group_setup(void** state) {                                                       \
        (void)state;                                                                             \
        const int rc_ = tcst_gpu_group_setup(program, &(fx).handle, &(fx).seed, &(fx).quick);    \
        tcst_rng_seed(&(fx).rng, (fx).seed);                                                     \
        return rc_;                                                                              \
    }                                                                                            \
    static int group_teardown(void** state) {                                                    \
        (void)state;                                                                             \
        return tcst_gpu_group_teardown((fx).handle);                                             \
    }

#endif /* TCST_GPU_GROUP_H_ */
