/*
 * Internal field arithmetic: instantiates the Montgomery template (mont_impl.h) for the four prime
 * fields and the Fp2 template (fp2_impl.h) for both curves, as static inline functions named
 * <field>_<verb> (bls12381_fp_mul, bn254_fp2_sqr, ...). Library code that does arithmetic in a hot
 * loop includes this header; everything else uses the exported cz_* functions of cuzk/field.h.
 */
#ifndef CUZK_FIELD_FIELD_H
#define CUZK_FIELD_FIELD_H

#include "cuzk/field.h"
#include "field/field_consts.h"

#define F_PREFIX           bls12381_fp
#define F_T                cz_bls12381_fp
#define F_N                BLS12381_FP_NLIMBS
#define F_P                BLS12381_FP_P
#define F_ONE              BLS12381_FP_ONE
#define F_R2               BLS12381_FP_R2
#define F_N0               BLS12381_FP_N0
#define F_P_MINUS_2        BLS12381_FP_P_MINUS_2
#define F_P_MINUS_1_HALF   BLS12381_FP_P_MINUS_1_HALF
#define F_P_PLUS_1_QUARTER BLS12381_FP_P_PLUS_1_QUARTER
#include "field/mont_impl.h"
#include "field/mont_undef.h"

#define F_PREFIX         bls12381_fr
#define F_T              cz_bls12381_fr
#define F_N              BLS12381_FR_NLIMBS
#define F_P              BLS12381_FR_P
#define F_ONE            BLS12381_FR_ONE
#define F_R2             BLS12381_FR_R2
#define F_N0             BLS12381_FR_N0
#define F_P_MINUS_2      BLS12381_FR_P_MINUS_2
#define F_P_MINUS_1_HALF BLS12381_FR_P_MINUS_1_HALF
#include "field/mont_impl.h"
#include "field/mont_undef.h"

#define F_PREFIX           bn254_fp
#define F_T                cz_bn254_fp
#define F_N                BN254_FP_NLIMBS
#define F_P                BN254_FP_P
#define F_ONE              BN254_FP_ONE
#define F_R2               BN254_FP_R2
#define F_N0               BN254_FP_N0
#define F_P_MINUS_2        BN254_FP_P_MINUS_2
#define F_P_MINUS_1_HALF   BN254_FP_P_MINUS_1_HALF
#define F_P_PLUS_1_QUARTER BN254_FP_P_PLUS_1_QUARTER
#include "field/mont_impl.h"
#include "field/mont_undef.h"

#define F_PREFIX         bn254_fr
#define F_T              cz_bn254_fr
#define F_N              BN254_FR_NLIMBS
#define F_P              BN254_FR_P
#define F_ONE            BN254_FR_ONE
#define F_R2             BN254_FR_R2
#define F_N0             BN254_FR_N0
#define F_P_MINUS_2      BN254_FR_P_MINUS_2
#define F_P_MINUS_1_HALF BN254_FR_P_MINUS_1_HALF
#include "field/mont_impl.h"
#include "field/mont_undef.h"

#define E2_PREFIX            bls12381_fp2
#define E2_T                 cz_bls12381_fp2
#define E2_BASE              bls12381_fp
#define E2_BASE_T            cz_bls12381_fp
#define E2_XI0               1
#define E2_P_MINUS_3_QUARTER BLS12381_FP_P_MINUS_3_QUARTER
#define E2_P_MINUS_1_HALF    BLS12381_FP_P_MINUS_1_HALF
#include "field/fp2_impl.h"
#include "field/fp2_undef.h"

#define E2_PREFIX            bn254_fp2
#define E2_T                 cz_bn254_fp2
#define E2_BASE              bn254_fp
#define E2_BASE_T            cz_bn254_fp
#define E2_XI0               9
#define E2_P_MINUS_3_QUARTER BN254_FP_P_MINUS_3_QUARTER
#define E2_P_MINUS_1_HALF    BN254_FP_P_MINUS_1_HALF
#include "field/fp2_impl.h"
#include "field/fp2_undef.h"

#endif
