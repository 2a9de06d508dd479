/* The handle on a GPU: creation and destruction, its defaults, and the round trips
 * of stream, pointer mode and math mode, where a rejected value leaves the setting
 * as it was. Exits 77 (skipped) without a GPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tcs_test_support.h"
#include "tcst_shard.h"
#include "tcsparse.h"
#include "tcst_status.h"

#include <cuda_runtime_api.h>

#include <stdio.h>

static int create_handle(void** state) {
    tcsHandle_t h = NULL;
    if (tcsCreate(&h) != TCS_STATUS_SUCCESS || h == NULL) return -1;
    *state = h;
    return 0;
}

static int destroy_handle(void** state) {
    return tcsDestroy((tcsHandle_t)*state) == TCS_STATUS_SUCCESS ? 0 : -1;
}

static void test_create_destroy(void** state) {
    (void)state;
    tcsHandle_t a = NULL, b = NULL;
    assert_ok(tcsCreate(&a));
    assert_ok(tcsCreate(&b));
    assert_non_null(a);
    assert_non_null(b);
    assert_true(a != b);
    int version = 0;
    assert_ok(tcsGetVersion(a, &version));
    assert_int_equal(version, TCS_VERSION);
    assert_ok(tcsDestroy(a));
    assert_ok(tcsDestroy(b));
    assert_ok(tcsDestroy(NULL));
    /* Create after destroy, many times over. */
    for (int i = 0; i < 100; ++i) {
        assert_ok(tcsCreate(&a));
        assert_ok(tcsDestroy(a));
    }
}

static void test_defaults(void** state) {
    tcsHandle_t h = (tcsHandle_t)*state;
    cudaStream_t stream = (cudaStream_t)(uintptr_t)0x1;
    assert_ok(tcsGetStream(h, &stream));
    assert_null(stream); /* the legacy default stream */
    tcsPointerMode_t pm = TCS_POINTER_MODE_DEVICE;
    assert_ok(tcsGetPointerMode(h, &pm));
    assert_int_equal(pm, TCS_POINTER_MODE_HOST);
    tcsMath_t math = TCS_PEDANTIC_MATH;
    assert_ok(tcsGetMathMode(h, &math));
    assert_int_equal(math, TCS_DEFAULT_MATH);
}

static void test_stream_round_trip(void** state) {
    tcsHandle_t h = (tcsHandle_t)*state;
    cudaStream_t s = NULL, got = NULL;
    assert_int_equal(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
    assert_ok(tcsSetStream(h, s));
    assert_ok(tcsGetStream(h, &got));
    assert_ptr_equal(got, s);
    /* The special streams are handles like any other. */
    assert_ok(tcsSetStream(h, cudaStreamPerThread));
    assert_ok(tcsGetStream(h, &got));
    assert_ptr_equal(got, cudaStreamPerThread);
    assert_ok(tcsSetStream(h, NULL));
    assert_ok(tcsGetStream(h, &got));
    assert_null(got);
    assert_int_equal(cudaStreamDestroy(s), cudaSuccess);
}

static void test_pointer_mode_round_trip(void** state) {
    tcsHandle_t h = (tcsHandle_t)*state;
    tcsPointerMode_t pm;
    assert_ok(tcsSetPointerMode(h, TCS_POINTER_MODE_DEVICE));
    assert_ok(tcsGetPointerMode(h, &pm));
    assert_int_equal(pm, TCS_POINTER_MODE_DEVICE);
    const int invalid[] = {2, 3, -1, 100};
    for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; ++i) {
        assert_status(tcsSetPointerMode(h, (tcsPointerMode_t)invalid[i]), TCS_STATUS_INVALID_VALUE);
        assert_ok(tcsGetPointerMode(h, &pm));
        assert_int_equal(pm, TCS_POINTER_MODE_DEVICE); /* unchanged */
    }
    assert_ok(tcsSetPointerMode(h, TCS_POINTER_MODE_HOST));
    assert_ok(tcsGetPointerMode(h, &pm));
    assert_int_equal(pm, TCS_POINTER_MODE_HOST);
}

static void test_math_mode_round_trip(void** state) {
    tcsHandle_t h = (tcsHandle_t)*state;
    const tcsMath_t valid[] = {TCS_PEDANTIC_MATH, TCS_TF32_TENSOR_OP_MATH, TCS_FP16_TENSOR_OP_MATH,
                               TCS_DEFAULT_MATH};
    const int invalid[] = {1, 4, 7, 16, 63, 65, -1};
    tcsMath_t math;
    for (size_t i = 0; i < sizeof valid / sizeof valid[0]; ++i) {
        assert_ok(tcsSetMathMode(h, valid[i]));
        assert_ok(tcsGetMathMode(h, &math));
        assert_int_equal(math, valid[i]);
        for (size_t j = 0; j < sizeof invalid / sizeof invalid[0]; ++j) {
            assert_status(tcsSetMathMode(h, (tcsMath_t)invalid[j]), TCS_STATUS_INVALID_VALUE);
            assert_ok(tcsGetMathMode(h, &math));
            assert_int_equal(math, valid[i]); /* unchanged */
        }
    }
}

/* Settings belong to one handle: another handle keeps its own. */
static void test_handles_are_independent(void** state) {
    tcsHandle_t h = (tcsHandle_t)*state, other = NULL;
    assert_ok(tcsCreate(&other));
    cudaStream_t s = NULL, got = NULL;
    assert_int_equal(cudaStreamCreate(&s), cudaSuccess);
    assert_ok(tcsSetStream(h, s));
    assert_ok(tcsSetPointerMode(h, TCS_POINTER_MODE_DEVICE));
    assert_ok(tcsSetMathMode(h, TCS_TF32_TENSOR_OP_MATH));
    tcsPointerMode_t pm;
    tcsMath_t math;
    assert_ok(tcsGetStream(other, &got));
    assert_null(got);
    assert_ok(tcsGetPointerMode(other, &pm));
    assert_int_equal(pm, TCS_POINTER_MODE_HOST);
    assert_ok(tcsGetMathMode(other, &math));
    assert_int_equal(math, TCS_DEFAULT_MATH);
    assert_ok(tcsDestroy(other));
    /* h is untouched by the other handle's life. */
    assert_ok(tcsGetStream(h, &got));
    assert_ptr_equal(got, s);
    assert_ok(tcsSetStream(h, NULL));
    assert_ok(tcsSetPointerMode(h, TCS_POINTER_MODE_HOST));
    assert_ok(tcsSetMathMode(h, TCS_DEFAULT_MATH));
    assert_int_equal(cudaStreamDestroy(s), cudaSuccess);
}

int main(void) {
    if (!tcst_gpu_available()) {
        printf("gpu_handle: no usable CUDA device: skipped\n");
        return TCST_SKIP;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_destroy),
        cmocka_unit_test_setup_teardown(test_defaults, create_handle, destroy_handle),
        cmocka_unit_test_setup_teardown(test_stream_round_trip, create_handle, destroy_handle),
        cmocka_unit_test_setup_teardown(test_pointer_mode_round_trip, create_handle,
                                        destroy_handle),
        cmocka_unit_test_setup_teardown(test_math_mode_round_trip, create_handle, destroy_handle),
        cmocka_unit_test_setup_teardown(test_handles_are_independent, create_handle,
                                        destroy_handle),
    };
    return tcst_run_group_tests(tests, NULL, NULL);
}
