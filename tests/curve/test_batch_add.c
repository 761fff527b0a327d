/*
 * batch_add_affine (src/curve/ec_impl.h), the affine additions with one shared inversion that the
 * test-key setups' fixed-base multiplications run on, for the four groups: every kind of pair
 * (infinity on either side, P + P, P + (-P), nothing to add) at every position of a batch, batches
 * without a regular pair, and running sums over rounds; each result against the mixed Jacobian
 * addition one pair at a time. Deterministic: a fixed xorshift seed.
 */
#include "bls_test_random.h"
#include "test.h"

enum { BT_N = 48, BT_ROUNDS = 6 };

#define BT_G   bls12381_g1
#define BT_AFF cz_bls12381_g1_affine
#define BT_JAC cz_bls12381_g1_jacobian
#define BT_F_T cz_bls12381_fp
#include "batch_add_test_impl.h"

#define BT_G   bls12381_g2
#define BT_AFF cz_bls12381_g2_affine
#define BT_JAC cz_bls12381_g2_jacobian
#define BT_F_T cz_bls12381_fp2
#include "batch_add_test_impl.h"

#define BT_G   bn254_g1
#define BT_AFF cz_bn254_g1_affine
#define BT_JAC cz_bn254_g1_jacobian
#define BT_F_T cz_bn254_fp
#include "batch_add_test_impl.h"

#define BT_G   bn254_g2
#define BT_AFF cz_bn254_g2_affine
#define BT_JAC cz_bn254_g2_jacobian
#define BT_F_T cz_bn254_fp2
#include "batch_add_test_impl.h"

static const test_case cases[] = {
    {"bls12381_g1_kinds", bls12381_g1_bt_kinds},   {"bls12381_g1_edges", bls12381_g1_bt_edges},
    {"bls12381_g1_rounds", bls12381_g1_bt_rounds}, {"bls12381_g2_kinds", bls12381_g2_bt_kinds},
    {"bls12381_g2_edges", bls12381_g2_bt_edges},   {"bls12381_g2_rounds", bls12381_g2_bt_rounds},
    {"bn254_g1_kinds", bn254_g1_bt_kinds},         {"bn254_g1_edges", bn254_g1_bt_edges},
    {"bn254_g1_rounds", bn254_g1_bt_rounds},       {"bn254_g2_kinds", bn254_g2_bt_kinds},
    {"bn254_g2_edges", bn254_g2_bt_edges},         {"bn254_g2_rounds", bn254_g2_bt_rounds},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
