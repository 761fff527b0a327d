/*
 * Internal group law: instantiates ec_impl.h for the four groups as static inline functions named
 * <curve>_<g1|g2>_<verb> (bls12381_g1_add_mixed, bn254_g2_xyzz_dbl, ...). MSM and pairing code
 * include this header for their hot loops; src/curve/curves.c exports the public cz_* API.
 */
#ifndef CUZK_CURVE_EC_H
#define CUZK_CURVE_EC_H

#include <string.h>

#include "cuzk/curve.h"
#include "field/field.h"

/* The endomorphisms of BLS12-381's subgroup checks (field_consts.h, ec_impl.h's
 * affine_in_subgroup): sigma(x, y) = (beta·x, y), which is [-x²] on G1, and psi(x, y) =
 * (conj(x)·psi_x, conj(y)·psi_y), which is [x] on G2 (x < 0 the curve's parameter). */
static inline void bls12381_g1_sigma(cz_bls12381_g1_affine *r, const cz_bls12381_g1_affine *p) {
    cz_bls12381_fp beta;
    memcpy(beta.l, BLS12381_BETA, sizeof beta.l);
    bls12381_fp_mul(&r->x, &p->x, &beta);
    r->y = p->y;
}

static inline void bls12381_g2_psi(cz_bls12381_g2_affine *r, const cz_bls12381_g2_affine *p) {
    cz_bls12381_fp2 cx, cy, t;
    memcpy(cx.c0.l, BLS12381_PSI_X[0], sizeof cx.c0.l);
    memcpy(cx.c1.l, BLS12381_PSI_X[1], sizeof cx.c1.l);
    memcpy(cy.c0.l, BLS12381_PSI_Y[0], sizeof cy.c0.l);
    memcpy(cy.c1.l, BLS12381_PSI_Y[1], sizeof cy.c1.l);
    bls12381_fp2_conj(&t, &p->x);
    bls12381_fp2_mul(&r->x, &t, &cx);
    bls12381_fp2_conj(&t, &p->y);
    bls12381_fp2_mul(&r->y, &t, &cy);
}

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
#define G_ENDO         bls12381_g1_sigma
#define G_ENDO_K       BLS12381_X_ABS
#define G_ENDO_SQUARE  1
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
#define G_ENDO         bls12381_g2_psi
#define G_ENDO_K       BLS12381_X_ABS
#define G_ENDO_SQUARE  0
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
