/*
 * Shards of a cmocka group (include after <cmocka.h>): with TCST_SHARD=K/N in the
 * environment, tcst_run_group_tests runs the tests whose position i in the group has
 * i % N == K, with the group's setup and teardown; without it, all of them. For
 * scripts/sanitize.sh, which splits the slow GPU programs over parallel
 * compute-sanitizer runs: one whole program took longer under racecheck than a device
 * call may last.
 */
#ifndef TCST_SHARD_H_
#define TCST_SHARD_H_

#include <stdio.h>
#include <stdlib.h>

static inline int tcst_run_shard(const char* name, const struct CMUnitTest* tests, size_t count,
                                 CMFixtureFunction setup, CMFixtureFunction teardown) {
    const char* shard = getenv("TCST_SHARD");
    int k = 0, n = 1;
    if (shard == NULL || sscanf(shard, "%d/%d", &k, &n) != 2 || n < 2)
        return _cmocka_run_group_tests(name, tests, count, setup, teardown);
    if (k < 0 || k >= n) {
        fprintf(stderr, "%s: TCST_SHARD=%s: K must be in [0, N)\n", name, shard);
        return 1;
    }
    struct CMUnitTest* picked = (struct CMUnitTest*)malloc((count > 0 ? count : 1) * sizeof *picked);
    if (picked == NULL) return 1;
    size_t m = 0;
    for (size_t i = 0; i < count; ++i)
        if ((int)(i % (size_t)n) == k) picked[m++] = tests[i];
    printf("%s: shard %d of %d, %zu of %zu tests\n", name, k, n, m, count);
    const int failed = _cmocka_run_group_tests(name, picked, m, setup, teardown);
    free(picked);
    return failed;
}

#define tcst_run_group_tests(group, setup, teardown) \
    tcst_run_shard(#group, group, sizeof(group) / sizeof((group)[0]), setup, teardown)

#endif /* TCST_SHARD_H_ */
