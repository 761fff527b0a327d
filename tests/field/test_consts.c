/*
 * Every constant of src/field/field_consts.h, recomputed independently with GMP from the published
 * moduli (hard-coded below from the curve specifications / circom-snarkjs research notes §4):
 * R mod p, R² mod p, n0, the exponents, the Fr two-adicity, non-residue and root of unity (and
 * its published powers w[k] as ffjavascript computes them), ξ, b, b', the generators (published
 * coordinates, and on their curves), all Frobenius coefficients via an mpz Fp2 power, and the
 * radix-2^52 constants of the eight-lane G1 decoder.
 */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>

#include "field/field_consts.h"
#include "gmp_fp2.h"
#include "test.h"

static const char *const BLS_P = "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241"
                                 "eabfffeb153ffffb9feffffffffaaab";
static const char *const BLS_R = "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";
static const char *const BN_P = "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47";
static const char *const BN_R = "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001";

/* 1 when the n little-endian limbs l equal z. */
static int limbs_eq(const uint64_t *l, size_t n, mpz_srcptr z) {
    mpz_t t;
    mpz_init(t);
    mpz_import(t, n, -1, 8, 0, 0, l);
    int ok = mpz_cmp(t, z) == 0;
    mpz_clear(t);
    return ok;
}

/* 1 when l is the Montgomery form of v (v·2^(64n) mod p, v reduced first). */
static int mont_eq(const uint64_t *l, size_t n, mpz_srcptr v, mpz_srcptr p) {
    mpz_t t;
    mpz_init(t);
    mpz_mul_2exp(t, v, 64 * n);
    mpz_mod(t, t, p);
    int ok = limbs_eq(l, n, t);
    mpz_clear(t);
    return ok;
}

/* Modulus, R, R², n0 and the exponents of one prime field. */
static void check_field(const char *name, const char *hex, size_t n, unsigned bits,
                        const uint64_t *P, const uint64_t *one, const uint64_t *r2, uint64_t n0,
                        const uint64_t *pm2, const uint64_t *pm1h, const uint64_t *pp1q,
                        const uint64_t *pm3q) {
    mpz_t p, t, e;
    mpz_init_set_str(p, hex, 16);
    mpz_inits(t, e, NULL);
    (void)name;
    CHECK(mpz_probab_prime_p(p, 30) > 0);
    CHECK(limbs_eq(P, n, p));
    CHECK_EQ_INT(mpz_sizeinbase(p, 2), bits);
    /* the "no final carry" multiplication needs the top limb below 2^63 - 1 */
    CHECK(P[n - 1] < 0x7fffffffffffffffULL);
    mpz_set_ui(t, 1);
    mpz_mul_2exp(t, t, 64 * n);
    mpz_mod(t, t, p);
    CHECK(limbs_eq(one, n, t));
    mpz_mul(t, t, t);
    mpz_mod(t, t, p);
    CHECK(limbs_eq(r2, n, t));
    CHECK_EQ_INT((uint64_t)(n0 * P[0]), ~(uint64_t)0); /* n0·p ≡ -1 mod 2^64 */
    mpz_sub_ui(e, p, 2);
    CHECK(limbs_eq(pm2, n, e));
    mpz_sub_ui(e, p, 1);
    mpz_fdiv_q_2exp(e, e, 1);
    CHECK(limbs_eq(pm1h, n, e));
    if (pp1q != NULL) {
        CHECK_EQ_INT(mpz_fdiv_ui(p, 4), 3);
        mpz_add_ui(e, p, 1);
        mpz_fdiv_q_2exp(e, e, 2);
        CHECK(limbs_eq(pp1q, n, e));
        mpz_sub_ui(e, p, 3);
        mpz_fdiv_q_2exp(e, e, 2);
        CHECK(limbs_eq(pm3q, n, e));
    }
    mpz_clears(p, t, e, NULL);
}

/* Two-adicity, smallest non-residue, root of unity of exact order 2^s and its published powers
 * w[k] = root^(2^(s-k)) (nk of them, as {k, hex}). */
static void check_roots(const char *hex, size_t n, unsigned s, unsigned nqr, const uint64_t *root,
                        const unsigned *ks, const char *const *whex, size_t nk) {
    mpz_t r, t, w, q;
    mpz_init_set_str(r, hex, 16);
    mpz_inits(t, w, q, NULL);
    mpz_sub_ui(t, r, 1);
    CHECK_EQ_INT(mpz_scan1(t, 0), s);
    /* smallest non-residue counting up from 2 */
    unsigned g = 2;
    mpz_set_ui(q, g);
    while (mpz_legendre(q, r) != -1)
        mpz_set_ui(q, ++g);
    CHECK_EQ_INT(g, nqr);
    mpz_fdiv_q_2exp(t, t, s);
    mpz_powm(w, q, t, r);
    CHECK(mont_eq(root, n, w, r));
    /* exact order 2^s: w^(2^(s-1)) = -1 */
    mpz_set(t, w);
    for (unsigned i = 0; i + 1 < s; i++)
        mpz_powm_ui(t, t, 2, r);
    mpz_add_ui(t, t, 1);
    CHECK_EQ_INT(mpz_cmp(t, r), 0);
    for (size_t i = 0; i < nk; i++) {
        mpz_set(t, w);
        for (unsigned j = ks[i]; j < s; j++)
            mpz_powm_ui(t, t, 2, r);
        mpz_set_str(q, whex[i], 16);
        CHECK_EQ_INT(mpz_cmp(t, q), 0);
    }
    mpz_clears(r, t, w, q, NULL);
}

/* An Fp2 constant {c0, c1} in Montgomery form equals (v0, v1). */
static int fp2_eq(const uint64_t *c0, const uint64_t *c1, size_t n, mpz_srcptr v0, mpz_srcptr v1,
                  mpz_srcptr p) {
    return mont_eq(c0, n, v0, p) && mont_eq(c1, n, v1, p);
}

/* The plain value of a Montgomery-form constant. */
static void from_mont(mpz_t z, const uint64_t *l, size_t n, mpz_srcptr p) {
    mpz_t rinv;
    mpz_init(rinv);
    mpz_set_ui(rinv, 1);
    mpz_mul_2exp(rinv, rinv, 64 * n);
    mpz_invert(rinv, rinv, p);
    mpz_import(z, n, -1, 8, 0, 0, l);
    mpz_mul(z, z, rinv);
    mpz_mod(z, z, p);
    mpz_clear(rinv);
}

typedef struct {
    const char *hex;
    size_t n;
    unsigned xi0;
    int b;
    const uint64_t *xi0l, *xi1l, *bl, *b20, *b21;
    const uint64_t *g1x, *g1y, *g2x0, *g2x1, *g2y0, *g2y1;
    const char *pub[6];                     /* published g1 x, y, g2 x.c0, x.c1, y.c0, y.c1 */
    const uint64_t *frob6, *frob3, *frob3b; /* [k][2][n] flattened */
    int b2_is_div; /* 1: b' = b/ξ (BN254, D-type), 0: b' = b·ξ (M-type) */
} curve_consts;

static void check_curve(const curve_consts *c) {
    mpz_t p, x0, x1, y0, y1, t0, t1, u0, u1, e, xi1;
    mpz_init_set_str(p, c->hex, 16);
    mpz_inits(x0, x1, y0, y1, t0, t1, u0, u1, e, NULL);
    mpz_init_set_ui(xi1, 1);
    size_t n = c->n;
    /* ξ = x0 + u, b, b' */
    mpz_set_ui(x0, c->xi0);
    CHECK(fp2_eq(c->xi0l, c->xi1l, n, x0, xi1, p));
    mpz_set_ui(t0, (unsigned long)c->b);
    CHECK(mont_eq(c->bl, n, t0, p));
    if (c->b2_is_div) {
        gmp_fp2_inv(u0, u1, x0, xi1, p);
        mpz_set_ui(t1, 0);
        gmp_fp2_mul(u0, u1, u0, u1, t0, t1, p);
    } else {
        mpz_set_ui(t1, 0);
        gmp_fp2_mul(u0, u1, x0, xi1, t0, t1, p);
    }
    CHECK(fp2_eq(c->b20, c->b21, n, u0, u1, p));
    /* G1: published coordinates, y² = x³ + b */
    from_mont(x0, c->g1x, n, p);
    from_mont(y0, c->g1y, n, p);
    mpz_set_str(t0, c->pub[0], 16);
    CHECK_EQ_INT(mpz_cmp(x0, t0), 0);
    mpz_set_str(t0, c->pub[1], 16);
    CHECK_EQ_INT(mpz_cmp(y0, t0), 0);
    mpz_powm_ui(t0, x0, 3, p);
    mpz_add_ui(t0, t0, (unsigned long)c->b);
    mpz_mod(t0, t0, p);
    mpz_powm_ui(t1, y0, 2, p);
    CHECK_EQ_INT(mpz_cmp(t0, t1), 0);
    /* G2: published coordinates, y² = x³ + b' over Fp2 */
    from_mont(x0, c->g2x0, n, p);
    from_mont(x1, c->g2x1, n, p);
    from_mont(y0, c->g2y0, n, p);
    from_mont(y1, c->g2y1, n, p);
    mpz_set_str(t0, c->pub[2], 16);
    CHECK_EQ_INT(mpz_cmp(x0, t0), 0);
    mpz_set_str(t0, c->pub[3], 16);
    CHECK_EQ_INT(mpz_cmp(x1, t0), 0);
    mpz_set_str(t0, c->pub[4], 16);
    CHECK_EQ_INT(mpz_cmp(y0, t0), 0);
    mpz_set_str(t0, c->pub[5], 16);
    CHECK_EQ_INT(mpz_cmp(y1, t0), 0);
    gmp_fp2_mul(t0, t1, x0, x1, x0, x1, p);
    gmp_fp2_mul(t0, t1, t0, t1, x0, x1, p);
    mpz_add(t0, t0, u0);
    mpz_add(t1, t1, u1);
    mpz_mod(t0, t0, p);
    mpz_mod(t1, t1, p);
    gmp_fp2_mul(y0, y1, y0, y1, y0, y1, p);
    CHECK(mpz_cmp(t0, y0) == 0 && mpz_cmp(t1, y1) == 0);
    /* Frobenius coefficients: ξ^((p^k - 1)/6), ξ^((p^k - 1)/3), ξ^(2(p^k - 1)/3) */
    mpz_set_ui(x0, c->xi0);
    for (unsigned k = 0; k < 12; k++) {
        mpz_pow_ui(e, p, k);
        mpz_sub_ui(e, e, 1);
        CHECK(mpz_divisible_ui_p(e, 6));
        mpz_divexact_ui(e, e, 6);
        gmp_fp2_pow(t0, t1, x0, xi1, e, p);
        const uint64_t *f = c->frob6 + k * 2 * n;
        CHECK(fp2_eq(f, f + n, n, t0, t1, p));
        if (k < 6) {
            mpz_mul_ui(e, e, 2); /* (p^k - 1)/3 */
            gmp_fp2_pow(t0, t1, x0, xi1, e, p);
            f = c->frob3 + k * 2 * n;
            CHECK(fp2_eq(f, f + n, n, t0, t1, p));
            mpz_mul_ui(e, e, 2); /* 2(p^k - 1)/3 */
            gmp_fp2_pow(t0, t1, x0, xi1, e, p);
            f = c->frob3b + k * 2 * n;
            CHECK(fp2_eq(f, f + n, n, t0, t1, p));
        }
    }
    mpz_clears(p, x0, x1, y0, y1, t0, t1, u0, u1, e, xi1, NULL);
}

static void test_fields(void) {
    check_field("bls12381_fp", BLS_P, BLS12381_FP_NLIMBS, BLS12381_FP_BITS, BLS12381_FP_P,
                BLS12381_FP_ONE, BLS12381_FP_R2, BLS12381_FP_N0, BLS12381_FP_P_MINUS_2,
                BLS12381_FP_P_MINUS_1_HALF, BLS12381_FP_P_PLUS_1_QUARTER,
                BLS12381_FP_P_MINUS_3_QUARTER);
    check_field("bls12381_fr", BLS_R, BLS12381_FR_NLIMBS, BLS12381_FR_BITS, BLS12381_FR_P,
                BLS12381_FR_ONE, BLS12381_FR_R2, BLS12381_FR_N0, BLS12381_FR_P_MINUS_2,
                BLS12381_FR_P_MINUS_1_HALF, NULL, NULL);
    check_field("bn254_fp", BN_P, BN254_FP_NLIMBS, BN254_FP_BITS, BN254_FP_P, BN254_FP_ONE,
                BN254_FP_R2, BN254_FP_N0, BN254_FP_P_MINUS_2, BN254_FP_P_MINUS_1_HALF,
                BN254_FP_P_PLUS_1_QUARTER, BN254_FP_P_MINUS_3_QUARTER);
    check_field("bn254_fr", BN_R, BN254_FR_NLIMBS, BN254_FR_BITS, BN254_FR_P, BN254_FR_ONE,
                BN254_FR_R2, BN254_FR_N0, BN254_FR_P_MINUS_2, BN254_FR_P_MINUS_1_HALF, NULL, NULL);
}

static void test_published_one(void) {
    /* Published R mod p (research notes §4) as one more cross-check of ONE. */
    {
        mpz_t t;
        mpz_init_set_str(t, "0e0a77c19a07df2f666ea36f7879462c0a78eb28f5c70b3dd35d438dc58f0d9d", 16);
        CHECK(limbs_eq(BN254_FP_ONE, 4, t));
        mpz_set_str(t, "0e0a77c19a07df2f666ea36f7879462e36fc76959f60cd29ac96341c4ffffffb", 16);
        CHECK(limbs_eq(BN254_FR_ONE, 4, t));
        mpz_set_str(t, "1824b159acc5056f998c4fefecbc4ff55884b7fa0003480200000001fffffffe", 16);
        CHECK(limbs_eq(BLS12381_FR_ONE, 4, t));
        mpz_set_str(
            t,
            "15f65ec3fa80e4935c071a97a256ec6d77ce5853705257455f48985753c758baebf4000bc40c0002"
            "760900000002fffd",
            16);
        CHECK(limbs_eq(BLS12381_FP_ONE, 6, t));
        mpz_clear(t);
    }
}

static void test_roots(void) {
    /* ffjavascript's roots of unity: w[k] generates the 2^k domain (published values). */
    {
        static const unsigned ks[] = {12, 16, 20, 28};
        static const char *const w[] = {
            "0931d596de2fd10f01ddd073fd5a90a976f169c76f039bb91c4775720042d43a",
            "00eeb2cb5981ed45649abebde081dcff16c8601de4347e7dd1628ba2daac43b7",
            "26125da10a0ed06327508aba06d1e303ac616632dbed349f53422da953337857",
            "2a3c09f0a58a7e8500e0a7eb8ef62abc402d111e41112ed49bd61b6e725b19f0"};
        check_roots(BN_R, 4, BN254_FR_TWO_ADICITY, BN254_FR_NQR, BN254_FR_ROOT_OF_UNITY, ks, w, 4);
        CHECK(BN254_FR_TWO_ADICITY == 28 && BN254_FR_NQR == 5);
    }
    {
        static const unsigned ks[] = {12, 16, 20, 32};
        static const char *const w[] = {
            "110cebd0c8e9101be155cb4893f9e9ac565af17137d56fc0450d9f977ea8ee05",
            "6709c6cd56aa725b0409ee987a02402c0caba63a29c01b06137b458acfc35f7a",
            "3436287f5f686d91556c35f6537d6971870c46fac2f0fcbd20b53cbe41144dea",
            "0212d79e5b416b6f0fd56dc8d168d6c0c4024ff270b3e0941b788f500b912f1f"};
        check_roots(BLS_R, 4, BLS12381_FR_TWO_ADICITY, BLS12381_FR_NQR, BLS12381_FR_ROOT_OF_UNITY,
                    ks, w, 4);
        CHECK(BLS12381_FR_TWO_ADICITY == 32 && BLS12381_FR_NQR == 5);
    }
}

static void test_curves(void) {
    /* Curve constants. BN254: ξ = 9 + u, b = 3, b' = 3/ξ; BLS12-381: ξ = 1 + u, b = 4, b' = 4ξ. */
    const curve_consts bn = {BN_P,
                             4,
                             9,
                             3,
                             BN254_XI[0],
                             BN254_XI[1],
                             BN254_B,
                             BN254_B2[0],
                             BN254_B2[1],
                             BN254_G1_X,
                             BN254_G1_Y,
                             BN254_G2_X[0],
                             BN254_G2_X[1],
                             BN254_G2_Y[0],
                             BN254_G2_Y[1],
                             {"1", "2",
                              "1800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed",
                              "198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c2",
                              "12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa",
                              "090689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b"},
                             &BN254_FROB6[0][0][0],
                             &BN254_FROB3[0][0][0],
                             &BN254_FROB3B[0][0][0],
                             1};
    const curve_consts bls = {
        BLS_P,
        6,
        1,
        4,
        BLS12381_XI[0],
        BLS12381_XI[1],
        BLS12381_B,
        BLS12381_B2[0],
        BLS12381_B2[1],
        BLS12381_G1_X,
        BLS12381_G1_Y,
        BLS12381_G2_X[0],
        BLS12381_G2_X[1],
        BLS12381_G2_Y[0],
        BLS12381_G2_Y[1],
        {"17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00a"
         "db22c6bb",
         "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa2329"
         "46c5e7e1",
         "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8"
         "c121bdb8",
         "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d05"
         "5d042b7e",
         "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e1935486"
         "08b82801",
         "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075f"
         "f05f79be"},
        &BLS12381_FROB6[0][0][0],
        &BLS12381_FROB3[0][0][0],
        &BLS12381_FROB3B[0][0][0],
        0};
    check_curve(&bn);
    check_curve(&bls);
}

/* The 8 limbs of 52 bits l (least significant first) equal z. */
static int limbs52_eq(const uint64_t l[8], mpz_srcptr z) {
    mpz_t t;
    mpz_init(t);
    for (int i = 7; i >= 0; i--) {
        mpz_mul_2exp(t, t, 52);
        mpz_add_ui(t, t, l[i]);
    }
    int ok = mpz_cmp(t, z) == 0;
    for (int i = 0; i < 8; i++)
        ok &= l[i] < (1ull << 52);
    mpz_clear(t);
    return ok;
}

/* The radix-2^52 constants of the eight-lane G1 decoder (src/field/fp8_impl.h): p, n0 =
 * -p^-1 mod 2^52, TO_MONT = 2^800, RESCALE = 2^448 and B_SCALED = 4·2^352, all mod p. */
static void test_fp52(void) {
    mpz_t p, t, m;
    mpz_inits(p, t, m, NULL);
    mpz_set_str(p, BLS_P, 16);
    CHECK(limbs52_eq(BLS12381_FP52_P, p));
    mpz_setbit(m, 52);
    mpz_invert(t, p, m);
    mpz_sub(t, m, t);
    CHECK_EQ_U64(BLS12381_FP52_N0, mpz_get_ui(t));
    const struct {
        const uint64_t *l;
        unsigned mul, exp;
    } pow2[3] = {{BLS12381_FP52_TO_MONT, 1, 800},
                 {BLS12381_FP52_RESCALE, 1, 448},
                 {BLS12381_FP52_B_SCALED, 4, 352}};
    for (int i = 0; i < 3; i++) {
        mpz_set_ui(t, pow2[i].mul);
        mpz_mul_2exp(t, t, pow2[i].exp);
        mpz_mod(t, t, p);
        CHECK(limbs52_eq(pow2[i].l, t));
    }
    mpz_clears(p, t, m, NULL);
}

static const test_case cases[] = {
    {"fields", test_fields}, {"fp52", test_fp52},     {"published_one", test_published_one},
    {"roots", test_roots},   {"curves", test_curves},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
