/*
 * Group-law properties for the four groups: associativity, commutativity, identity and inverse,
 * add vs dbl, mixed vs full addition, XYZZ vs Jacobian (with repeated, opposite and infinite
 * operands), batch vs one-by-one affine conversion, [r]G = O, [k + r]P = [k]P with a wide scalar,
 * [a]([b]G) = [ab]G, [a]G + [b]G = [a + b]G.
 */
#include "curve_test_groups.h"

static const test_case cases[] = {
    {"bls12381_g1_props", cz_bls12381_g1_t_props},
    {"bls12381_g2_props", cz_bls12381_g2_t_props},
    {"bn254_g1_props", cz_bn254_g1_t_props},
    {"bn254_g2_props", cz_bn254_g2_t_props},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
