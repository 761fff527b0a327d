/*
 * Tests of the GLV endomorphism in the MSM: the constants of src/msm/glv_consts.h checked with GMP
 * (β³ = 1 in Fp, λ³ = 1 in Fr, both primitive; the basis vectors lie in the lattice
 * {(a, b) : a + bλ = 0 mod r} and span it, |det| = r); msm_glv_split reconstructs k = k1 + k2·λ
 * mod r with |k1|, |k2| < 2^BITS for edge scalars (0, 1, r − 1, λ, r − λ, 2^128 ± 1, 2^255,
 * 2^256 − 1, r, r + 1) and random 256-bit ones; φ(P) = (β·x, y) = [λ]P on G1 and G2 of both curves
 * (against the curve code's scalar multiplication); the public MSM (GLV) equals the core MSM
 * without GLV on random and edge scalars and bases.
 */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/curve.h"
#include "cuzk/field.h"
#include "cuzk/msm.h"
#include "field/cz_macros.h"
#include "field/field.h"
#include "msm/glv.h"
#include "msm/msm.h"
#include "test.h"

static uint64_t test_seed = 0x676c762d74657374ULL;

static uint64_t test_rand64(void) {
    uint64_t z = (test_seed += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void test_mpz_limbs(mpz_t z, const uint64_t *l, size_t n) {
    mpz_import(z, n, -1, 8, 0, 0, l);
}

/* A 256-bit two's complement value as a signed integer. */
static void test_mpz_signed(mpz_t z, const uint64_t l[4]) {
    test_mpz_limbs(z, l, 4);
    if (l[3] >> 63) {
        mpz_t t;
        mpz_init(t);
        mpz_ui_pow_ui(t, 2, 256);
        mpz_sub(z, z, t);
        mpz_clear(t);
    }
}

/* β (Montgomery limbs) is a primitive cube root of unity in Fp. */
static void test_beta(const uint64_t *beta_mont, const uint64_t *p_limbs, size_t n) {
    mpz_t b, p, rinv, t;
    mpz_inits(b, p, rinv, t, NULL);
    test_mpz_limbs(b, beta_mont, n);
    test_mpz_limbs(p, p_limbs, n);
    mpz_ui_pow_ui(rinv, 2, 64 * n);
    CHECK(mpz_invert(rinv, rinv, p));
    mpz_mul(b, b, rinv);
    mpz_mod(b, b, p);
    CHECK(mpz_cmp_ui(b, 1) != 0);
    mpz_powm_ui(t, b, 3, p);
    CHECK_EQ_INT(mpz_cmp_ui(t, 1), 0);
    mpz_clears(b, p, rinv, t, NULL);
}

/* λ, the basis and the decomposition of one curve. */
static void test_curve(const uint64_t *r_limbs, const uint64_t *lambda_limbs,
                       const uint64_t (*v)[2][4], const msm_glv *gl, unsigned bits) {
    mpz_t r, lam, t, a[2], b[2], k, k1, k2, bound;
    mpz_inits(r, lam, t, a[0], a[1], b[0], b[1], k, k1, k2, bound, NULL);
    test_mpz_limbs(r, r_limbs, 4);
    test_mpz_limbs(lam, lambda_limbs, 4);
    CHECK(mpz_cmp_ui(lam, 1) != 0 && mpz_cmp(lam, r) < 0);
    mpz_powm_ui(t, lam, 3, r);
    CHECK_EQ_INT(mpz_cmp_ui(t, 1), 0);
    for (int i = 0; i < 2; i++) {
        test_mpz_signed(a[i], v[i][0]);
        test_mpz_signed(b[i], v[i][1]);
        mpz_mul(t, b[i], lam);
        mpz_add(t, t, a[i]);
        CHECK(mpz_divisible_p(t, r)); /* a + bλ = 0 mod r */
    }
    mpz_mul(t, a[0], b[1]);
    mpz_submul(t, a[1], b[0]);
    mpz_abs(t, t);
    CHECK_EQ_INT(mpz_cmp(t, r), 0); /* the basis spans the lattice (index r in Z²) */

    mpz_ui_pow_ui(bound, 2, bits);
    for (int it = 0; it < 4000; it++) {
        uint64_t kl[4], l1[4], l2[4];
        for (int i = 0; i < 4; i++)
            kl[i] = test_rand64();
        mpz_set_ui(k, 0);
        switch (it) {
        case 0:
            break;
        case 1:
            mpz_set_ui(k, 1);
            break;
        case 2:
            mpz_sub_ui(k, r, 1);
            break;
        case 3:
            mpz_set(k, lam);
            break;
        case 4:
            mpz_sub(k, r, lam);
            break;
        case 5:
            mpz_ui_pow_ui(k, 2, 128);
            break;
        case 6:
            mpz_ui_pow_ui(k, 2, 128);
            mpz_sub_ui(k, k, 1);
            break;
        case 7:
            mpz_ui_pow_ui(k, 2, 128);
            mpz_add_ui(k, k, 1);
            break;
        case 8:
            mpz_ui_pow_ui(k, 2, 255);
            break;
        case 9:
            mpz_ui_pow_ui(k, 2, 256);
            mpz_sub_ui(k, k, 1);
            break;
        case 10:
            mpz_set(k, r);
            break;
        case 11:
            mpz_add_ui(k, r, 1);
            break;
        case 12:
            mpz_ui_pow_ui(k, 2, 255);
            mpz_sub_ui(k, k, 1);
            break;
        default:
            if (it % 3 == 0) /* near 2^128 */
                kl[2] = kl[3] = 0;
            test_mpz_limbs(k, kl, 4);
        }
        memset(kl, 0, sizeof kl);
        mpz_export(kl, NULL, -1, 8, 0, 0, k);
        unsigned neg = msm_glv_split(l1, l2, kl, gl);
        test_mpz_limbs(k1, l1, 4);
        test_mpz_limbs(k2, l2, 4);
        CHECK(mpz_cmp(k1, bound) < 0 && mpz_cmp(k2, bound) < 0);
        if (neg & 1)
            mpz_neg(k1, k1);
        if (neg & 2)
            mpz_neg(k2, k2);
        mpz_addmul(k1, k2, lam);
        mpz_sub(k1, k1, k);
        if (!CHECK(mpz_divisible_p(k1, r)))
            gmp_fprintf(stderr, "k = %Zd\n", k);
    }
    mpz_clears(r, lam, t, a[0], a[1], b[0], b[1], k, k1, k2, bound, NULL);
}

#define T_G      bls12381_g1
#define T_EXPORT cz_bls12381_g1
#define T_CURVE  BLS12381
#define T_FR     bls12381_fr
#define T_FR_T   cz_bls12381_fr
#define T_AFF    cz_bls12381_g1_affine
#define T_JAC    cz_bls12381_g1_jacobian
#define T_BETA_T cz_bls12381_fp
#define T_BETA   BLS12381_GLV_BETA_G1
#define T_ENDO   cz_bls12381_fp_mul
#include "msm/test_glv_impl.h"

#define T_G      bls12381_g2
#define T_EXPORT cz_bls12381_g2
#define T_CURVE  BLS12381
#define T_FR     bls12381_fr
#define T_FR_T   cz_bls12381_fr
#define T_AFF    cz_bls12381_g2_affine
#define T_JAC    cz_bls12381_g2_jacobian
#define T_BETA_T cz_bls12381_fp
#define T_BETA   BLS12381_GLV_BETA_G2
#define T_ENDO   cz_bls12381_fp2_mul_fp
#include "msm/test_glv_impl.h"

#define T_G      bn254_g1
#define T_EXPORT cz_bn254_g1
#define T_CURVE  BN254
#define T_FR     bn254_fr
#define T_FR_T   cz_bn254_fr
#define T_AFF    cz_bn254_g1_affine
#define T_JAC    cz_bn254_g1_jacobian
#define T_BETA_T cz_bn254_fp
#define T_BETA   BN254_GLV_BETA_G1
#define T_ENDO   cz_bn254_fp_mul
#include "msm/test_glv_impl.h"

#define T_G      bn254_g2
#define T_EXPORT cz_bn254_g2
#define T_CURVE  BN254
#define T_FR     bn254_fr
#define T_FR_T   cz_bn254_fr
#define T_AFF    cz_bn254_g2_affine
#define T_JAC    cz_bn254_g2_jacobian
#define T_BETA_T cz_bn254_fp
#define T_BETA   BN254_GLV_BETA_G2
#define T_ENDO   cz_bn254_fp2_mul_fp
#include "msm/test_glv_impl.h"

static cz_threadpool *pool;

static int setup(void) {
    return CHECK_ERR(cz_threadpool_create(&pool, 3, NULL), CZ_OK) ? 0 : 1;
}

static void teardown(void) {
    cz_threadpool_destroy(pool);
}

static void test_betas(void) {
    test_beta(BLS12381_GLV_BETA_G1, BLS12381_FP_P, 6);
    test_beta(BLS12381_GLV_BETA_G2, BLS12381_FP_P, 6);
    test_beta(BN254_GLV_BETA_G1, BN254_FP_P, 4);
    test_beta(BN254_GLV_BETA_G2, BN254_FP_P, 4);
}

static void test_decompose(void) {
    static const msm_glv bls = {BLS12381_FR_P, BLS12381_GLV_V, BLS12381_GLV_G, BLS12381_GLV_GNEG};
    static const msm_glv bn = {BN254_FR_P, BN254_GLV_V, BN254_GLV_G, BN254_GLV_GNEG};
    test_curve(BLS12381_FR_P, BLS12381_GLV_LAMBDA, BLS12381_GLV_V, &bls, BLS12381_GLV_BITS);
    test_curve(BN254_FR_P, BN254_GLV_LAMBDA, BN254_GLV_V, &bn, BN254_GLV_BITS);
}

static void test_msm_bls12381_g1(void) {
    test_bls12381_g1_msm(pool);
}

static void test_msm_bls12381_g2(void) {
    test_bls12381_g2_msm(pool);
}

static void test_msm_bn254_g1(void) {
    test_bn254_g1_msm(pool);
}

static void test_msm_bn254_g2(void) {
    test_bn254_g2_msm(pool);
}

static const test_case cases[] = {
    {"betas", test_betas},
    {"decompose", test_decompose},
    {"bls12381_g1_endo", test_bls12381_g1_endo},
    {"bls12381_g2_endo", test_bls12381_g2_endo},
    {"bn254_g1_endo", test_bn254_g1_endo},
    {"bn254_g2_endo", test_bn254_g2_endo},
    {"bls12381_g1_msm", test_msm_bls12381_g1},
    {"bls12381_g2_msm", test_msm_bls12381_g2},
    {"bn254_g1_msm", test_msm_bn254_g1},
    {"bn254_g2_msm", test_msm_bn254_g2},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
