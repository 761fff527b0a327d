/*
 * Internal extension tower: instantiates fp6_impl.h and fp12_impl.h for both curves as static
 * inline functions named <curve>_fp6_<verb> and <curve>_fp12_<verb> (bls12381_fp12_mul,
 * bn254_fp12_cyclotomic_sqr, ...), on top of the Fp2 of field/field.h. The pairing code includes
 * this header; everything else uses the exported cz_* functions of cuzk/tower.h.
 *
 * Tower (as in @noble/curves): Fp6 = Fp2[v]/(v³ - ξ), Fp12 = Fp6[w]/(w² - v), ξ = 9 + u for BN254
 * and 1 + u for BLS12-381.
 *
 * Both levels are built on the fp2f set of fp2_impl.h (<curve>_fp2f_*: the same Fp2 values, with
 * the add/adc kernels and the lazily reduced product of mont_impl.h), which made a pairing about
 * 1.5-2x faster than over the plain <curve>_fp2_* functions.
 */
#ifndef CUZK_FIELD_TOWER_H
#define CUZK_FIELD_TOWER_H

#include <string.h>

#include "field/field.h"

#define E6_PREFIX bls12381_fp6
#define E6_T      cz_bls12381_fp6
#define E6_BASE   bls12381_fp2f
#define E6_BASE_T cz_bls12381_fp2
#define E6_FROB3  BLS12381_FROB3
#define E6_FROB3B BLS12381_FROB3B
#include "field/fp6_impl.h"
#undef E6_PREFIX
#undef E6_T
#undef E6_BASE
#undef E6_BASE_T
#undef E6_FROB3
#undef E6_FROB3B

#define E6_PREFIX bn254_fp6
#define E6_T      cz_bn254_fp6
#define E6_BASE   bn254_fp2f
#define E6_BASE_T cz_bn254_fp2
#define E6_FROB3  BN254_FROB3
#define E6_FROB3B BN254_FROB3B
#include "field/fp6_impl.h"
#undef E6_PREFIX
#undef E6_T
#undef E6_BASE
#undef E6_BASE_T
#undef E6_FROB3
#undef E6_FROB3B

#define E12_PREFIX bls12381_fp12
#define E12_T      cz_bls12381_fp12
#define E12_BASE   bls12381_fp6
#define E12_BASE_T cz_bls12381_fp6
#define E12_FP2    bls12381_fp2f
#define E12_FP2_T  cz_bls12381_fp2
#define E12_FROB6  BLS12381_FROB6
#include "field/fp12_impl.h"
#undef E12_PREFIX
#undef E12_T
#undef E12_BASE
#undef E12_BASE_T
#undef E12_FP2
#undef E12_FP2_T
#undef E12_FROB6

#define E12_PREFIX bn254_fp12
#define E12_T      cz_bn254_fp12
#define E12_BASE   bn254_fp6
#define E12_BASE_T cz_bn254_fp6
#define E12_FP2    bn254_fp2f
#define E12_FP2_T  cz_bn254_fp2
#define E12_FROB6  BN254_FROB6
#include "field/fp12_impl.h"
#undef E12_PREFIX
#undef E12_T
#undef E12_BASE
#undef E12_BASE_T
#undef E12_FP2
#undef E12_FP2_T
#undef E12_FROB6

#endif
