/*
 * Internal group law: instantiates ec_impl.h for the four groups as static inline functions named
 * <curve>_<g1|g2>_<verb> (bls12381_g1_add_mixed, bn254_g2_xyzz_dbl, ...). MSM and pairing code
 * include this header for their hot loops; src/curve/curves.c exports the public cz_* API.
 */
#ifndef CUZK_CURVE_EC_H
#define CUZK_CURVE_EC_H

#include "cuzk/curve.h"
#include "field/field.h"

#define G_PREFIX       bls12381_g1
#define G_F            bls12381_fp
#define G_F_T          cz_bls12381_fp
#define G_AFF          cz_bls12381_g1_affine
#define G_JAC          cz_bls12381_g1_jacobian
#define G_XYZZ         cz_bls12381_g1_xyzz
#define G_FR           bls12381_fr
#define G_FR_T         cz_bls12381_fr
#define G_B            BLS12381_B
#define G_GX           BLS12381_G1_X
#define G_GY           BLS12381_G1_Y
#define G_ORDER        BLS12381_FR_P
#define G_ORDER_N      BLS12381_FR_NLIMBS
#define G_COFACTOR_ONE 0
#include "curve/ec_impl.h"
#include "curve/ec_undef.h"

#define G_PREFIX       bls12381_g2
#define G_F            bls12381_fp2
#define G_F_T          cz_bls12381_fp2
#define G_AFF          cz_bls12381_g2_affine
#define G_JAC          cz_bls12381_g2_jacobian
#define G_XYZZ         cz_bls12381_g2_xyzz
#define G_FR           bls12381_fr
#define G_FR_T         cz_bls12381_fr
#define G_B            BLS12381_B2
#define G_GX           BLS12381_G2_X
#define G_GY           BLS12381_G2_Y
#define G_ORDER        BLS12381_FR_P
#define G_ORDER_N      BLS12381_FR_NLIMBS
#define G_COFACTOR_ONE 0
#include "curve/ec_impl.h"
#include "curve/ec_undef.h"

#define G_PREFIX       bn254_g1
#define G_F            bn254_fp
#define G_F_T          cz_bn254_fp
#define G_AFF          cz_bn254_g1_affine
#define G_JAC          cz_bn254_g1_jacobian
#define G_XYZZ         cz_bn254_g1_xyzz
#define G_FR           bn254_fr
#define G_FR_T         cz_bn254_fr
#define G_B            BN254_B
#define G_GX           BN254_G1_X
#define G_GY           BN254_G1_Y
#define G_ORDER        BN254_FR_P
#define G_ORDER_N      BN254_FR_NLIMBS
#define G_COFACTOR_ONE 1
#include "curve/ec_impl.h"
#include "curve/ec_undef.h"

#define G_PREFIX       bn254_g2
#define G_F            bn254_fp2
#define G_F_T          cz_bn254_fp2
#define G_AFF          cz_bn254_g2_affine
#define G_JAC          cz_bn254_g2_jacobian
#define G_XYZZ         cz_bn254_g2_xyzz
#define G_FR           bn254_fr
#define G_FR_T         cz_bn254_fr
#define G_B            BN254_B2
#define G_GX           BN254_G2_X
#define G_GY           BN254_G2_Y
#define G_ORDER        BN254_FR_P
#define G_ORDER_N      BN254_FR_NLIMBS
#define G_COFACTOR_ONE 0
#include "curve/ec_impl.h"
#include "curve/ec_undef.h"

#endif
