/* Wall-clock seconds for the tests' time limits and rates. */
#define _POSIX_C_SOURCE 200809L

#include "internal.h"

#include <time.h>

double tcst_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
