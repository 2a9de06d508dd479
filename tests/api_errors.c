/* The error table (tcsGetErrorName / tcsGetErrorString) and the version queries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tcsparse.h"

#include <string.h>

static const struct {
    tcsStatus_t status;
    const char* name;
} statuses[] = {
    {TCS_STATUS_SUCCESS, "TCS_STATUS_SUCCESS"},
    {TCS_STATUS_NOT_INITIALIZED, "TCS_STATUS_NOT_INITIALIZED"},
    {TCS_STATUS_ALLOC_FAILED, "TCS_STATUS_ALLOC_FAILED"},
    {TCS_STATUS_INVALID_VALUE, "TCS_STATUS_INVALID_VALUE"},
    {TCS_STATUS_ARCH_MISMATCH, "TCS_STATUS_ARCH_MISMATCH"},
    {TCS_STATUS_MAPPING_ERROR, "TCS_STATUS_MAPPING_ERROR"},
    {TCS_STATUS_EXECUTION_FAILED, "TCS_STATUS_EXECUTION_FAILED"},
    {TCS_STATUS_INTERNAL_ERROR, "TCS_STATUS_INTERNAL_ERROR"},
    {TCS_STATUS_MATRIX_TYPE_NOT_SUPPORTED, "TCS_STATUS_MATRIX_TYPE_NOT_SUPPORTED"},
    {TCS_STATUS_ZERO_PIVOT, "TCS_STATUS_ZERO_PIVOT"},
    {TCS_STATUS_NOT_SUPPORTED, "TCS_STATUS_NOT_SUPPORTED"},
    {TCS_STATUS_INSUFFICIENT_RESOURCES, "TCS_STATUS_INSUFFICIENT_RESOURCES"},
};
#define NUM_STATUSES (sizeof statuses / sizeof statuses[0])

static void test_every_status_has_its_name(void** state) {
    (void)state;
    assert_int_equal(NUM_STATUSES, 12);
    for (size_t i = 0; i < NUM_STATUSES; ++i) {
        assert_int_equal(statuses[i].status, (int)i); /* 0..11 with no gap */
        assert_string_equal(tcsGetErrorName(statuses[i].status), statuses[i].name);
    }
}

static void test_every_status_has_its_own_sentence(void** state) {
    (void)state;
    for (size_t i = 0; i < NUM_STATUSES; ++i) {
        const char* text = tcsGetErrorString(statuses[i].status);
        assert_non_null(text);
        assert_true(strlen(text) > 10);
        assert_string_not_equal(text, "unknown status");
        assert_null(strstr(text, "TCS_STATUS_")); /* a sentence, not the name again */
        for (size_t j = 0; j < i; ++j)
            assert_string_not_equal(text, tcsGetErrorString(statuses[j].status));
    }
    /* The strings are static: the same pointer every time. */
    assert_ptr_equal(tcsGetErrorString(TCS_STATUS_ZERO_PIVOT),
                     tcsGetErrorString(TCS_STATUS_ZERO_PIVOT));
    assert_ptr_equal(tcsGetErrorName(TCS_STATUS_ZERO_PIVOT), tcsGetErrorName(TCS_STATUS_ZERO_PIVOT));
}

static void test_unknown_statuses(void** state) {
    (void)state;
    const int unknown[] = {12, 13, 77, 100, 1000, -1, -2147483647 - 1, 2147483647};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; ++i) {
        const tcsStatus_t s = (tcsStatus_t)unknown[i];
        assert_string_equal(tcsGetErrorName(s), "TCS_STATUS_UNKNOWN");
        assert_string_equal(tcsGetErrorString(s), "unknown status");
    }
}

static void test_version(void** state) {
    (void)state;
    int version = -1;
    assert_int_equal(tcsGetVersion(NULL, &version), TCS_STATUS_SUCCESS); /* no handle needed */
    assert_int_equal(version, TCS_VERSION);
    assert_int_equal(TCS_VERSION,
                     TCS_VERSION_MAJOR * 10000 + TCS_VERSION_MINOR * 100 + TCS_VERSION_PATCH);
    assert_int_equal(tcsGetVersion(NULL, NULL), TCS_STATUS_INVALID_VALUE);
}

static void test_properties(void** state) {
    (void)state;
    const struct {
        libraryPropertyType type;
        int expected;
    } props[] = {
        {MAJOR_VERSION, TCS_VERSION_MAJOR},
        {MINOR_VERSION, TCS_VERSION_MINOR},
        {PATCH_LEVEL, TCS_VERSION_PATCH},
    };
    for (size_t i = 0; i < 3; ++i) {
        int value = -1;
        assert_int_equal(tcsGetProperty(props[i].type, &value), TCS_STATUS_SUCCESS);
        assert_int_equal(value, props[i].expected);
        assert_int_equal(tcsGetProperty(props[i].type, NULL), TCS_STATUS_INVALID_VALUE);
    }
    int value = 12345;
    assert_int_equal(tcsGetProperty((libraryPropertyType)3, &value), TCS_STATUS_INVALID_VALUE);
    assert_int_equal(tcsGetProperty((libraryPropertyType)-1, &value), TCS_STATUS_INVALID_VALUE);
    assert_int_equal(value, 12345); /* a rejected call writes nothing */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_status_has_its_name),
        cmocka_unit_test(test_every_status_has_its_own_sentence),
        cmocka_unit_test(test_unknown_statuses),
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_properties),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
