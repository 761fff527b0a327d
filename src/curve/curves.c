/*
 * The public group API: cz_<curve>_<g1|g2>_* wrappers around the inline group law of curve/ec.h.
 */
#include "curve/ec.h"

#define G_PREFIX bls12381_g1
#define G_AFF    cz_bls12381_g1_affine
#define G_JAC    cz_bls12381_g1_jacobian
#define G_XYZZ   cz_bls12381_g1_xyzz
#define G_FR_T   cz_bls12381_fr
#include "curve/ec_export.h"
#include "curve/ec_undef.h"

#define G_PREFIX bls12381_g2
#define G_AFF    cz_bls12381_g2_affine
#define G_JAC    cz_bls12381_g2_jacobian
#define G_XYZZ   cz_bls12381_g2_xyzz
#define G_FR_T   cz_bls12381_fr
#include "curve/ec_export.h"
#include "curve/ec_undef.h"

#define G_PREFIX bn254_g1
#define G_AFF    cz_bn254_g1_affine
#define G_JAC    cz_bn254_g1_jacobian
#define G_XYZZ   cz_bn254_g1_xyzz
#define G_FR_T   cz_bn254_fr
#include "curve/ec_export.h"
#include "curve/ec_undef.h"

#define G_PREFIX bn254_g2
#define G_AFF    cz_bn254_g2_affine
#define G_JAC    cz_bn254_g2_jacobian
#define G_XYZZ   cz_bn254_g2_xyzz
#define G_FR_T   cz_bn254_fr
#include "curve/ec_export.h"
#include "curve/ec_undef.h"
