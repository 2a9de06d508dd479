/*
 * Helpers shared by the files of the test-support library and not part of its
 * interface: error messages into caller buffers, and the row sorter that the Matrix
 * Market reader and the generators both finish with.
 */
#ifndef TCS_TEST_SUPPORT_INTERNAL_H_
#define TCS_TEST_SUPPORT_INTERNAL_H_

#include "tcs_test_support.h"

#include <stddef.h>
#include <stdint.h>

/* snprintf into msg when msg is not NULL and msglen > 0; returns -1 so that callers
 * can write `return tcst_i_fail(...)`. */
int tcst_i_fail(char* msg, size_t msglen, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* splitmix64 step: the seeding function of tcst_rng, also used to mix seeds. */
uint64_t tcst_i_splitmix64(uint64_t* state);

/* Sorts the columns of every row of m (values follow; m->val may be NULL) and merges
 * equal columns of a row into one entry: values summed when sum_duplicates, else the
 * first one kept. Shrinks the arrays to the new nnz. O(nnz log(max row length)).
 * Returns 0, or -1 when the scratch memory cannot be allocated (m unchanged then). */
int tcst_i_sort_merge_rows(tcst_csr* m, int sum_duplicates);

/* Largest number of entries a tcst_csr can hold (its row offsets are int). */
#define TCST_MAX_NNZ ((int64_t)2147483647)

#endif /* TCS_TEST_SUPPORT_INTERNAL_H_ */
