/*
 * Group-law properties for the four groups: associativity, commutativity, identity and inverse,
 * add vs dbl, mixed vs full addition, XYZZ vs Jacobian (with repeated, opposite and infinite
 * operands), batch vs one-by-one affine conversion, [r]G = O, [k + r]P = [k]P with a wide scalar,
 * [a]([b]G) = [ab]G, [a]G + [b]G = [a + b]G.
 */
#include "curve_test_groups.h"

int main(void) {
    cz_bls12381_g1_t_props();
    cz_bls12381_g2_t_props();
    cz_bn254_g1_t_props();
    cz_bn254_g2_t_props();
    return test_finish();
}
