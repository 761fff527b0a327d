/*
 * cuzk pairings: the optimal ate pairing e: G1 × G2 -> GT ⊂ Fp12* of BN254 and BLS12-381, with
 * values equal to those of @noble/curves (Fp12 tower of cuzk/tower.h, Montgomery form).
 *
 *   BN254      Miller loop over 6u + 2 (NAF) plus the lines at π(Q) and -π²(Q), u =
 * 4965661367192848881 BLS12-381  Miller loop over |x|, x = -0xd201000000010000, conjugated at the
 * end
 *
 * The final exponentiation follows noble's addition chains, which raise to a fixed multiple c of
 * (p¹² - 1)/r: c = 3 (BLS12-381), c = 2u(6u² + 3u + 1) (BN254). The result is still a
 * non-degenerate bilinear pairing, and pairing_check (Π e = 1) is unaffected because c is prime to
 * r.
 *
 * Inputs are assumed valid: points on the curve and in the prime-order subgroups (G2 points in
 * the twist's r-torsion). Checking them is the caller's job (cuzk/curve_api.h); a bad point gives
 * a meaningless value, never a crash. A point at infinity (affine x = y = 0) makes the pairing 1.
 * Variable time in nothing secret except through field arithmetic (not hardened).
 */
#ifndef CUZK_PAIRING_H
#define CUZK_PAIRING_H

#include <stddef.h>

#include "cuzk/curve.h"
#include "cuzk/tower.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    cz_bn254_g1_affine g1;
    cz_bn254_g2_affine g2;
} cz_bn254_pairing_pair;

typedef struct {
    cz_bls12381_g1_affine g1;
    cz_bls12381_g2_affine g2;
} cz_bls12381_pairing_pair;

/* Miller loop f_{P,Q} alone (not unique: only its final exponentiation is meaningful). */
void cz_bn254_miller_loop(cz_bn254_fp12 *ret, const cz_bn254_g1_affine *p,
                          const cz_bn254_g2_affine *q);
void cz_bls12381_miller_loop(cz_bls12381_fp12 *ret, const cz_bls12381_g1_affine *p,
                             const cz_bls12381_g2_affine *q);

/* f^(c·(p¹² - 1)/r), c as above. */
void cz_bn254_final_exp(cz_bn254_fp12 *ret, const cz_bn254_fp12 *f);
void cz_bls12381_final_exp(cz_bls12381_fp12 *ret, const cz_bls12381_fp12 *f);

/* e(P, Q) = final_exp(miller_loop(P, Q)). */
void cz_bn254_pairing(cz_bn254_fp12 *ret, const cz_bn254_g1_affine *p, const cz_bn254_g2_affine *q);
void cz_bls12381_pairing(cz_bls12381_fp12 *ret, const cz_bls12381_g1_affine *p,
                         const cz_bls12381_g2_affine *q);

/* 1 iff Π e(P_i, Q_i) = 1, with one shared Miller loop accumulator and one final
 * exponentiation; pairs with a point at infinity contribute 1, n = 0 gives 1. */
int cz_bn254_pairing_check(const cz_bn254_pairing_pair *pairs, size_t n);
int cz_bls12381_pairing_check(const cz_bls12381_pairing_pair *pairs, size_t n);

#ifdef __cplusplus
}
#endif

#endif
