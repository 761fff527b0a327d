/*
 * Group law against @noble/curves: [k]G, P + Q (full, rescaled, mixed), 2P and [k]P for random and
 * edge scalars (0, 1, 2, r-1, r-2) on G1/G2 of BLS12-381 and BN254, and points noble finds on the
 * curve but outside the subgroup (our subgroup check must reject them). Vectors:
 * tests/vectors/curve_vectors.mjs.
 */
#include "curve_test_groups.h"

static void test_vectors(void) {
    size_t n = curve_vectors_each(curve_noble_dispatch);
    CHECK(n > 300);
}

static const test_case cases[] = {
    {"vectors", test_vectors},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
