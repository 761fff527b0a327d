/*
 * cuzk extension tower over the Fp2 of cuzk/field.h, for both curves:
 *
 *   Fp6  = Fp2[v]/(v³ - ξ)   element c0 + c1·v + c2·v²   (cz_<curve>_fp6)
 *   Fp12 = Fp6[w]/(w² - v)   element c0 + c1·w           (cz_<curve>_fp12)
 *
 * with ξ = 9 + u (BN254) and 1 + u (BLS12-381): the tower of @noble/curves, so coefficients (in
 * Montgomery form like every cuzk field element) compare exactly with its values. Arithmetic
 * cannot fail; the inverse of zero is zero. frobenius(ret, a, k) is a^(p^k) for any k (taken mod
 * 6 or 12); conj on Fp12 is frobenius 6, which is the inverse on the cyclotomic subgroup (pairing
 * values). pow takes an exponent of nlimbs 64-bit limbs, least significant first, and is variable
 * time in the exponent only. Outputs may alias inputs.
 */
#ifndef CUZK_TOWER_H
#define CUZK_TOWER_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/field.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CZ_TOWER_DECLARE(T, P)                                                                     \
    void P##_zero(T *ret);                                                                         \
    void P##_one(T *ret);                                                                          \
    int P##_is_one(const T *a);                                                                    \
    int P##_eq(const T *a, const T *b);                                                            \
    void P##_add(T *ret, const T *a, const T *b);                                                  \
    void P##_sub(T *ret, const T *a, const T *b);                                                  \
    void P##_neg(T *ret, const T *a);                                                              \
    void P##_mul(T *ret, const T *a, const T *b);                                                  \
    void P##_sqr(T *ret, const T *a);                                                              \
    void P##_inv(T *ret, const T *a);                                                              \
    void P##_frobenius(T *ret, const T *a, unsigned k);                                            \
    void P##_pow(T *ret, const T *a, const uint64_t *e, size_t nlimbs);

CZ_TOWER_DECLARE(cz_bls12381_fp6, cz_bls12381_fp6)
CZ_TOWER_DECLARE(cz_bls12381_fp12, cz_bls12381_fp12)
CZ_TOWER_DECLARE(cz_bn254_fp6, cz_bn254_fp6)
CZ_TOWER_DECLARE(cz_bn254_fp12, cz_bn254_fp12)

#undef CZ_TOWER_DECLARE

/* c0 - c1·w = a^(p⁶). */
void cz_bls12381_fp12_conj(cz_bls12381_fp12 *ret, const cz_bls12381_fp12 *a);
void cz_bn254_fp12_conj(cz_bn254_fp12 *ret, const cz_bn254_fp12 *a);

#ifdef __cplusplus
}
#endif

#endif
