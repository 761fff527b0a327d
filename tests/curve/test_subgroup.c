/*
 * The subgroup checks of BLS12-381 by its endomorphisms (src/curve/ec_impl.h affine_in_subgroup:
 * sigma(P) = [-x²]P on G1, psi(P) = [x]P on G2) against the definition, [r]P = O
 * (affine_order_divides_r), on points of every kind the curve has:
 *   - random points of the curve (x at random until x³ + b is a square): almost none is in the
 *     subgroup, and both checks must say the same of each;
 *   - multiples [k]G of the generator, and random points with the cofactor cleared (G1: [h1]P,
 *     h1 = (x - 1)²/3): in the subgroup;
 *   - T = [r]P for a random P, a point of an order dividing the cofactor, and Q + T for Q in the
 *     subgroup: outside it whenever T is not infinity (the torsion the endomorphism tests must not
 *     miss).
 * Deterministic: a fixed xorshift seed.
 */
#include <string.h>

#include "curve/ec.h"
#include "bls_test_random.h"
#include "test.h"

#define NPOINTS 48

static void random_g1_point(cz_bls12381_g1_affine *p) {
    cz_bls12381_fp rhs, b;
    memcpy(b.l, BLS12381_B, sizeof b.l);
    do {
        random_fp(&p->x);
        bls12381_fp_sqr(&rhs, &p->x);
        bls12381_fp_mul(&rhs, &rhs, &p->x);
        bls12381_fp_add(&rhs, &rhs, &b);
    } while (bls12381_fp_sqrt(&p->y, &rhs) != CZ_OK);
}

static void random_g2_point(cz_bls12381_g2_affine *p) {
    cz_bls12381_fp2 rhs, b;
    memcpy(b.c0.l, BLS12381_B2[0], sizeof b.c0.l);
    memcpy(b.c1.l, BLS12381_B2[1], sizeof b.c1.l);
    do {
        random_fp(&p->x.c0);
        random_fp(&p->x.c1);
        bls12381_fp2_sqr(&rhs, &p->x);
        bls12381_fp2_mul(&rhs, &rhs, &p->x);
        bls12381_fp2_add(&rhs, &rhs, &b);
    } while (bls12381_fp2_sqrt(&p->y, &rhs) != CZ_OK);
}

/* The G1 cofactor h1 = (x - 1)²/3 = 0x396c8c005555e1568c00aaab0000aaab, computed from |x|. */
static void g1_cofactor(uint64_t h[2]) {
    cz_u128 xm1 = (cz_u128)BLS12381_X_ABS + 1; /* |x - 1| = |x| + 1 for x < 0 */
    /* (|x| + 1)² / 3 in 128 bits: (|x| + 1) is divisible by 3 */
    cz_u128 third = xm1 / 3, sq_lo;
    CHECK(third * 3 == xm1);
    sq_lo = third * xm1; /* < 2^128: |x| + 1 < 2^64 */
    h[0] = (uint64_t)sq_lo;
    h[1] = (uint64_t)(sq_lo >> 64);
}

#define SUBGROUP_CASES(GRP, RANDOM_POINT)                                                          \
    static void GRP##_agree(void) {                                                                \
        int outside = 0;                                                                           \
        for (int i = 0; i < NPOINTS; i++) {                                                        \
            cz_##GRP##_affine p;                                                                   \
            RANDOM_POINT(&p);                                                                      \
            CHECK(GRP##_affine_on_curve(&p));                                                      \
            int slow = GRP##_affine_order_divides_r(&p);                                           \
            CHECK_EQ_INT(GRP##_affine_in_subgroup(&p), slow);                                      \
            outside += !slow;                                                                      \
        }                                                                                          \
        /* a random curve point is in the subgroup with probability 1/cofactor */                  \
        CHECK(outside >= NPOINTS - 1);                                                             \
    }                                                                                              \
    static void GRP##_multiples_and_torsion(void) {                                                \
        cz_##GRP##_affine g;                                                                       \
        GRP##_generator(&g);                                                                       \
        for (int i = 0; i < NPOINTS / 4; i++) {                                                    \
            uint64_t k[4] = {next64(), next64(), next64(), next64() >> 2};                         \
            cz_##GRP##_jacobian j, q, t, s;                                                        \
            cz_##GRP##_affine qa, pa, ta, sa;                                                      \
            GRP##_from_affine(&j, &g);                                                             \
            GRP##_mul_limbs(&q, &j, k, 4);                                                         \
            GRP##_to_affine(&qa, &q);                                                              \
            CHECK(GRP##_affine_in_subgroup(&qa) && GRP##_affine_order_divides_r(&qa));             \
            RANDOM_POINT(&pa); /* T = [r]P: order divides the cofactor */                          \
            GRP##_from_affine(&j, &pa);                                                            \
            GRP##_mul_limbs(&t, &j, BLS12381_FR_P, BLS12381_FR_NLIMBS);                            \
            CHECK(!GRP##_jac_is_infinity(&t));                                                     \
            GRP##_to_affine(&ta, &t);                                                              \
            CHECK(!GRP##_affine_in_subgroup(&ta) && !GRP##_affine_order_divides_r(&ta));           \
            GRP##_add(&s, &q, &t); /* Q + T */                                                     \
            GRP##_to_affine(&sa, &s);                                                              \
            CHECK(!GRP##_affine_in_subgroup(&sa) && !GRP##_affine_order_divides_r(&sa));           \
        }                                                                                          \
    }

SUBGROUP_CASES(bls12381_g1, random_g1_point)
SUBGROUP_CASES(bls12381_g2, random_g2_point)

/* [h1]P for random P lands in G1; the endomorphism check must accept every such point. */
static void bls12381_g1_cleared(void) {
    uint64_t h[2];
    g1_cofactor(h);
    CHECK(h[1] == 0x396c8c005555e156ull && h[0] == 0x8c00aaab0000aaabull);
    for (int i = 0; i < NPOINTS / 4; i++) {
        cz_bls12381_g1_affine p, c;
        cz_bls12381_g1_jacobian j, t;
        random_g1_point(&p);
        bls12381_g1_from_affine(&j, &p);
        bls12381_g1_mul_limbs(&t, &j, h, 2);
        bls12381_g1_to_affine(&c, &t);
        CHECK(bls12381_g1_affine_in_subgroup(&c) && bls12381_g1_affine_order_divides_r(&c));
    }
}

static const test_case cases[] = {
    {"g1_agree", bls12381_g1_agree},
    {"g1_multiples_and_torsion", bls12381_g1_multiples_and_torsion},
    {"g1_cleared", bls12381_g1_cleared},
    {"g2_agree", bls12381_g2_agree},
    {"g2_multiples_and_torsion", bls12381_g2_multiples_and_torsion},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
