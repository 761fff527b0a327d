/*
 * The CSPRNG: successive outputs differ, and 1 MiB of output is balanced -- overall bit count,
 * each bit position, and the byte histogram (chi-square) -- so that zeros, a constant, or a
 * short repeating pattern all fail. The bounds are six standard deviations or more wide: a
 * working generator fails them with probability below 1e-8.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/rand.h"
#include "test.h"

#define NBYTES (1u << 20)

static void test_calls_differ(void) {
    uint8_t a[32] = {0}, b[32] = {0}, zero[32] = {0};
    CHECK_ERR(cz_random_bytes(a, sizeof a), CZ_OK);
    CHECK_ERR(cz_random_bytes(b, sizeof b), CZ_OK);
    CHECK(memcmp(a, b, sizeof a) != 0);
    CHECK(memcmp(a, zero, sizeof a) != 0);

    /* Exactly len bytes are written; len 0 is fine. */
    uint8_t guard[40];
    memset(guard, 0xA5, sizeof guard);
    CHECK_ERR(cz_random_bytes(guard + 4, 32), CZ_OK);
    CHECK(guard[0] == 0xA5 && guard[3] == 0xA5 && guard[36] == 0xA5 && guard[39] == 0xA5);
    CHECK_ERR(cz_random_bytes(guard, 0), CZ_OK);
}

static void test_balance(void) {
    uint8_t *buf = calloc(NBYTES, 1);
    CHECK(buf != NULL);
    if (buf == NULL)
        return;
    CHECK_ERR(cz_random_bytes(buf, NBYTES), CZ_OK);

    uint64_t ones = 0, pos_ones[8] = {0}, hist[256] = {0};
    for (size_t i = 0; i < NBYTES; i++) {
        ones += (uint64_t)__builtin_popcount(buf[i]);
        hist[buf[i]]++;
        for (int k = 0; k < 8; k++)
            pos_ones[k] += (buf[i] >> k) & 1;
    }

    /* Binomial(n, 1/2): mean n/2, standard deviation sqrt(n)/2. Allow 6 sigma. */
    double nbits = 8.0 * NBYTES;
    CHECK(fabs((double)ones - nbits / 2) < 6 * sqrt(nbits) / 2);
    for (int k = 0; k < 8; k++)
        CHECK(fabs((double)pos_ones[k] - NBYTES / 2.0) < 6 * sqrt((double)NBYTES) / 2);

    /* Chi-square over the 256 byte values, 255 degrees of freedom: mean 255, sd ~22.6.
     * 450 is more than 8 sd out; a constant or 0x55-like pattern gives ~2.7e8. */
    double expect = NBYTES / 256.0, chi2 = 0;
    for (int v = 0; v < 256; v++)
        chi2 += ((double)hist[v] - expect) * ((double)hist[v] - expect) / expect;
    CHECK(chi2 < 450);

    /* The two halves are not copies of each other (a repeating generator). */
    CHECK(memcmp(buf, buf + NBYTES / 2, NBYTES / 2) != 0);
    free(buf);
}

static const test_case cases[] = {
    {"calls_differ", test_calls_differ},
    {"balance", test_balance},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
