/*
 * CPU multi-scalar multiplication for the four groups: instantiates the Pippenger template
 * msm_impl.h (see there for the algorithm, threading and memory) per group.
 */
#include "msm/msm.h"

#include "cuzk/err.h"
#include "curve/ec.h"
#include "msm/msm_common.h"

/* The most memory one task (one window over one range of points) may use for its buckets. */
#define MSM_TASK_BYTES ((size_t)32 << 20)
/* The most bucket additions that share one inversion (see msm_impl.h). */
#define MSM_BATCH 2048

#define M_G      bls12381_g1
#define M_F      bls12381_fp
#define M_F_T    cz_bls12381_fp
#define M_AFF    cz_bls12381_g1_affine
#define M_JAC    cz_bls12381_g1_jacobian
#define M_XYZZ   cz_bls12381_g1_xyzz
#define M_FR     bls12381_fr
#define M_FR_T   cz_bls12381_fr
#define M_EXPORT cz_bls12381_g1
#include "msm/msm_impl.h"
#include "msm/msm_undef.h"

#define M_G      bls12381_g2
#define M_F      bls12381_fp2
#define M_F_T    cz_bls12381_fp2
#define M_AFF    cz_bls12381_g2_affine
#define M_JAC    cz_bls12381_g2_jacobian
#define M_XYZZ   cz_bls12381_g2_xyzz
#define M_FR     bls12381_fr
#define M_FR_T   cz_bls12381_fr
#define M_EXPORT cz_bls12381_g2
#include "msm/msm_impl.h"
#include "msm/msm_undef.h"

#define M_G      bn254_g1
#define M_F      bn254_fp
#define M_F_T    cz_bn254_fp
#define M_AFF    cz_bn254_g1_affine
#define M_JAC    cz_bn254_g1_jacobian
#define M_XYZZ   cz_bn254_g1_xyzz
#define M_FR     bn254_fr
#define M_FR_T   cz_bn254_fr
#define M_EXPORT cz_bn254_g1
#include "msm/msm_impl.h"
#include "msm/msm_undef.h"

#define M_G      bn254_g2
#define M_F      bn254_fp2
#define M_F_T    cz_bn254_fp2
#define M_AFF    cz_bn254_g2_affine
#define M_JAC    cz_bn254_g2_jacobian
#define M_XYZZ   cz_bn254_g2_xyzz
#define M_FR     bn254_fr
#define M_FR_T   cz_bn254_fr
#define M_EXPORT cz_bn254_g2
#include "msm/msm_impl.h"
#include "msm/msm_undef.h"
