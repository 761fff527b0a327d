/*
 * The batch affine addition (src/curve/ec_impl.h batch_add_affine) of one group against the mixed
 * Jacobian addition, one pair at a time. Instantiated by test_batch_add.c after defining BT_G (the
 * internal prefix, e.g. bls12381_g1), BT_AFF, BT_JAC and BT_F_T (the coordinate field's type).
 */
#include "field/cz_macros.h"

#define BG(name) CZ_CAT3(BT_G, _, name)
#define BT(name) CZ_CAT3(BT_G, _bt_, name)

/* [k]G for a random 256-bit k (reduced by the group law itself). */
static void BT(random_point)(BT_AFF *r) {
    BT_AFF g;
    BT_JAC j;
    uint64_t k[4] = {next64(), next64(), next64(), next64()};
    BG(generator)(&g);
    BG(from_affine)(&j, &g);
    BG(mul_limbs)(&j, &j, k, 4);
    BG(to_affine)(r, &j);
}

/* acc + p one by one through Jacobian coordinates: the oracle. */
static void BT(expect)(BT_AFF *r, const BT_AFF *acc, const BT_AFF *p) {
    BT_JAC j;
    BG(from_affine)(&j, acc);
    if (p != NULL)
        BG(add_mixed)(&j, &j, p);
    BG(to_affine)(r, &j);
}

/* Every kind of pair in one batch, at every position modulo 8: regular, nothing to add, an
 * infinite addend, an infinite accumulator, P + P, P + (-P), regular, both infinite. */
static void BT(kinds)(void) {
    BT_AFF acc[BT_N], pts[BT_N], want[BT_N];
    const BT_AFF *p[BT_N];
    BT_F_T scratch[BT_N];
    for (int i = 0; i < BT_N; i++) {
        BT(random_point)(&acc[i]);
        BT(random_point)(&pts[i]);
        p[i] = &pts[i];
        switch (i % 8) {
        case 1:
            p[i] = NULL;
            break;
        case 2:
            BG(affine_set_infinity)(&pts[i]);
            break;
        case 3:
            BG(affine_set_infinity)(&acc[i]);
            break;
        case 4:
            pts[i] = acc[i];
            break;
        case 5:
            BG(affine_neg)(&pts[i], &acc[i]);
            break;
        case 7:
            BG(affine_set_infinity)(&acc[i]);
            BG(affine_set_infinity)(&pts[i]);
            break;
        default:
            break;
        }
        BT(expect)(&want[i], &acc[i], p[i]);
    }
    BG(batch_add_affine)(acc, p, BT_N, scratch);
    int bad = 0;
    for (int i = 0; i < BT_N; i++)
        bad += !BG(affine_eq)(&acc[i], &want[i]) || !BG(affine_on_curve)(&acc[i]);
    CHECK_EQ_INT(bad, 0);
    CHECK(BG(affine_is_infinity)(&acc[5]) && BG(affine_is_infinity)(&acc[7]));
}

/* Batches with no regular pair (no inversion at all), of one pair, and empty. */
static void BT(edges)(void) {
    BT_AFF acc[3], pts[3], want[3];
    const BT_AFF *p[3] = {&pts[0], &pts[1], &pts[2]};
    BT_F_T scratch[3];
    BT(random_point)(&acc[0]);
    pts[0] = acc[0];
    BT(random_point)(&acc[1]);
    BG(affine_neg)(&pts[1], &acc[1]);
    BG(affine_set_infinity)(&acc[2]);
    BT(random_point)(&pts[2]);
    for (int i = 0; i < 3; i++)
        BT(expect)(&want[i], &acc[i], p[i]);
    BG(batch_add_affine)(acc, p, 3, scratch);
    for (int i = 0; i < 3; i++)
        CHECK(BG(affine_eq)(&acc[i], &want[i]));
    BT(random_point)(&acc[0]);
    BT(random_point)(&pts[0]);
    BT(expect)(&want[0], &acc[0], &pts[0]);
    BG(batch_add_affine)(acc, p, 1, scratch);
    CHECK(BG(affine_eq)(&acc[0], &want[0]));
    BG(batch_add_affine)(acc, p, 0, scratch);
    CHECK(BG(affine_eq)(&acc[0], &want[0]));
}

/* Running sums over several rounds, as the fixed-base multiplication uses it: each round adds
 * one point (or nothing) to every accumulator, starting from infinity. */
static void BT(rounds)(void) {
    BT_AFF acc[BT_N], pts[BT_ROUNDS][BT_N], want;
    BT_JAC sum[BT_N];
    const BT_AFF *p[BT_N];
    BT_F_T scratch[BT_N];
    for (int i = 0; i < BT_N; i++) {
        BG(affine_set_infinity)(&acc[i]);
        BG(jac_set_infinity)(&sum[i]);
    }
    for (int r = 0; r < BT_ROUNDS; r++) {
        for (int i = 0; i < BT_N; i++) {
            BT(random_point)(&pts[r][i]);
            p[i] = (i + r) % 5 == 0 ? NULL : &pts[r][i];
            if (p[i] != NULL)
                BG(add_mixed)(&sum[i], &sum[i], p[i]);
        }
        BG(batch_add_affine)(acc, p, BT_N, scratch);
    }
    int bad = 0;
    for (int i = 0; i < BT_N; i++) {
        BG(to_affine)(&want, &sum[i]);
        bad += !BG(affine_eq)(&acc[i], &want);
    }
    CHECK_EQ_INT(bad, 0);
}

#undef BG
#undef BT
#undef BT_G
#undef BT_AFF
#undef BT_JAC
#undef BT_F_T
