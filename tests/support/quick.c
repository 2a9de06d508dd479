/* The tests' quick sizes, one rule for every program. */
#include "tcs_test_support.h"

#include <stdlib.h>
#include <string.h>

int tcst_quick(void) {
    const char* q = getenv("TCS_TEST_QUICK");
    return q != NULL && *q != '\0' && strcmp(q, "0") != 0;
}
