/* Random numbers: xoshiro256** seeded through splitmix64 (Blackman and Vigna), so a
 * seed gives the same matrices on every platform and compiler, unlike rand(). */
#define _POSIX_C_SOURCE 200809L

#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

uint64_t tcst_i_splitmix64(uint64_t* state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void tcst_rng_seed(tcst_rng* r, uint64_t seed) {
    /* splitmix64 never yields four zero words from one seed, the one state
     * xoshiro cannot leave. */
    uint64_t x = seed;
    for (int i = 0; i < 4; ++i) r->s[i] = tcst_i_splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t tcst_rng_next(tcst_rng* r) {
    uint64_t* s = r->s;
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double tcst_rng_uniform(tcst_rng* r) {
    /* The top 53 bits: every double in [0, 1) on the 2^-53 grid, equally likely. */
    return (double)(tcst_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

double tcst_rng_symmetric(tcst_rng* r) { return 2.0 * tcst_rng_uniform(r) - 1.0; }

uint64_t tcst_rng_below(tcst_rng* r, uint64_t n) {
    if (n == 0) return 0;
    /* Rejection of the top partial range keeps every value equally likely. */
    const uint64_t limit = -n % n; /* (2^64 - n) mod n = 2^64 mod n */
    uint64_t x;
    do {
        x = tcst_rng_next(r);
    } while (x < limit);
    return x % n;
}

uint64_t tcst_fresh_seed(void) {
    const char* env = getenv("TCST_SEED");
    if (env != NULL && *env != '\0') {
        char* end = NULL;
        errno = 0;
        const unsigned long long v = strtoull(env, &end, 0);
        /* A malformed value falls through to a fresh seed, which the test prints, so
         * the mismatch with what was asked for is visible. */
        if (errno == 0 && end != env && *end == '\0') return (uint64_t)v;
    }
    struct timespec ts;
    uint64_t clock_bits = (uint64_t)time(NULL);
    if (clock_gettime(CLOCK_REALTIME, &ts) == 0)
        clock_bits = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    /* Mixed so that runs started in the same second by different processes differ in
     * every bit, not only the low ones. */
    uint64_t state = clock_bits ^ ((uint64_t)getpid() << 40);
    return tcst_i_splitmix64(&state);
}
