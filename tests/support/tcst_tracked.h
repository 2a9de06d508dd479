/*
 * Resources a cmocka GPU test releases after every test, a failed one included (a
 * failed assertion leaves the test body at once): device buffers, sparse matrix
 * descriptors and SpGEMM descriptors, recorded as they are made and released by
 * tcst_release_tracked() from the group's teardown. One list per program. Include after
 * <cmocka.h>, "tcsparse.h" and "tcs_test_support.h" (bench/ does not use cmocka).
 */
#ifndef TCST_TRACKED_H_
#define TCST_TRACKED_H_

#include <stddef.h>

#define TCST_MAX_TRACKED 128
#define TCST_MAX_TRACKED_GEMMS 16

static struct {
    void* buffers[TCST_MAX_TRACKED];
    int n_buffers;
    tcsConstSpMatDescr_t mats[TCST_MAX_TRACKED];
    int n_mats;
    tcsSpGEMMDescr_t gemms[TCST_MAX_TRACKED_GEMMS];
    int n_gemms;
} tcst_tracked;

/* Device memory of tcst_device_alloc / tcst_device_poisoned, freed at teardown; p. */
static inline void* tcst_track(void* p) {
    if (p != NULL) {
        assert_true(tcst_tracked.n_buffers < TCST_MAX_TRACKED);
        tcst_tracked.buffers[tcst_tracked.n_buffers++] = p;
    }
    return p;
}

/* A sparse matrix descriptor, destroyed at teardown. */
static inline void tcst_track_mat(tcsConstSpMatDescr_t m) {
    assert_true(tcst_tracked.n_mats < TCST_MAX_TRACKED);
    tcst_tracked.mats[tcst_tracked.n_mats++] = m;
}

/* An SpGEMM descriptor, destroyed at teardown. */
static inline void tcst_track_gemm(tcsSpGEMMDescr_t d) {
    assert_true(tcst_tracked.n_gemms < TCST_MAX_TRACKED_GEMMS);
    tcst_tracked.gemms[tcst_tracked.n_gemms++] = d;
}

/* Poisoned device memory of `bytes` (tcst_device_poisoned), tracked; NULL for 0 bytes. */
static inline void* tcst_poisoned(size_t bytes) {
    if (bytes == 0) return NULL;
    void* p = tcst_device_poisoned(bytes);
    assert_non_null(p);
    return tcst_track(p);
}

/* Frees a tracked buffer now (before teardown); its slot stays empty. */
static inline void tcst_free_tracked(void* p) {
    for (int i = 0; i < tcst_tracked.n_buffers; ++i)
        if (tcst_tracked.buffers[i] == p) {
            tcst_tracked.buffers[i] = NULL;
            tcst_device_free(p);
            return;
        }
}

/* Destroys the SpGEMM descriptors, then the matrix descriptors, then frees the buffers,
 * and empties the lists. */
static inline void tcst_release_tracked(void) {
    for (int i = 0; i < tcst_tracked.n_gemms; ++i) tcsSpGEMM_destroyDescr(tcst_tracked.gemms[i]);
    for (int i = 0; i < tcst_tracked.n_mats; ++i) tcsDestroySpMat(tcst_tracked.mats[i]);
    for (int i = 0; i < tcst_tracked.n_buffers; ++i) tcst_device_free(tcst_tracked.buffers[i]);
    tcst_tracked.n_gemms = tcst_tracked.n_mats = tcst_tracked.n_buffers = 0;
}

#endif /* TCST_TRACKED_H_ */
