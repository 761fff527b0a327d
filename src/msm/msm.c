/*
 * CPU multi-scalar multiplication for the four groups: instantiates the Pippenger template
 * msm_impl.h (see there for the algorithm, threading and memory) and the 0/1 split in front of it
 * (msm_split_impl.h, which defines the public entry points) per group.
 */
#include "msm/msm.h"

#include "cuzk/err.h"
#include "curve/ec.h"
#include "msm/msm_common.h"

/* GLV constants per curve (msm/glv.h, msm/glv_consts.h). */
#define MSM_GLV_OF(C)                                                                              \
    { C##_FR_P, C##_GLV_V, C##_GLV_G, C##_GLV_GNEG }
/* φ on G1: x·β in Fp; on G2: the Fp2 coordinate times β ∈ Fp. */
#define MSM_ENDO_G1(F, r, a, b) CZ_CAT(F, _mul)(r, a, b)
#define MSM_ENDO_G2(F, r, a, b) CZ_CAT(F, _mul_fp)(r, a, b)

/* The most memory one task (one window over one range of points) may use for its buckets. */
#define MSM_TASK_BYTES ((size_t)32 << 20)
/* The most bucket additions that share one inversion (see msm_impl.h). */
#define MSM_BATCH 2048

#define M_G             bls12381_g1
#define M_F             bls12381_fp
#define M_F_T           cz_bls12381_fp
#define M_AFF           cz_bls12381_g1_affine
#define M_JAC           cz_bls12381_g1_jacobian
#define M_XYZZ          cz_bls12381_g1_xyzz
#define M_FR            bls12381_fr
#define M_FR_T          cz_bls12381_fr
#define M_EXPORT        cz_bls12381_g1
#define M_GLV           MSM_GLV_OF(BLS12381)
#define M_GLV_BETA      BLS12381_GLV_BETA_G1
#define M_BETA_T        cz_bls12381_fp
#define M_ENDO(r, a, b) MSM_ENDO_G1(M_F, r, a, b)
#include "msm/msm_impl.h"
#include "msm/msm_split_impl.h"
#include "msm/msm_undef.h"

#define M_G             bls12381_g2
#define M_F             bls12381_fp2
#define M_F_T           cz_bls12381_fp2
#define M_AFF           cz_bls12381_g2_affine
#define M_JAC           cz_bls12381_g2_jacobian
#define M_XYZZ          cz_bls12381_g2_xyzz
#define M_FR            bls12381_fr
#define M_FR_T          cz_bls12381_fr
#define M_EXPORT        cz_bls12381_g2
#define M_GLV           MSM_GLV_OF(BLS12381)
#define M_GLV_BETA      BLS12381_GLV_BETA_G2
#define M_BETA_T        cz_bls12381_fp
#define M_ENDO(r, a, b) MSM_ENDO_G2(M_F, r, a, b)
#include "msm/msm_impl.h"
#include "msm/msm_split_impl.h"
#include "msm/msm_undef.h"

#define M_G             bn254_g1
#define M_F             bn254_fp
#define M_F_T           cz_bn254_fp
#define M_AFF           cz_bn254_g1_affine
#define M_JAC           cz_bn254_g1_jacobian
#define M_XYZZ          cz_bn254_g1_xyzz
#define M_FR            bn254_fr
#define M_FR_T          cz_bn254_fr
#define M_EXPORT        cz_bn254_g1
#define M_GLV           MSM_GLV_OF(BN254)
#define M_GLV_BETA      BN254_GLV_BETA_G1
#define M_BETA_T        cz_bn254_fp
#define M_ENDO(r, a, b) MSM_ENDO_G1(M_F, r, a, b)
#include "msm/msm_impl.h"
#include "msm/msm_split_impl.h"
#include "msm/msm_undef.h"

#define M_G             bn254_g2
#define M_F             bn254_fp2
#define M_F_T           cz_bn254_fp2
#define M_AFF           cz_bn254_g2_affine
#define M_JAC           cz_bn254_g2_jacobian
#define M_XYZZ          cz_bn254_g2_xyzz
#define M_FR            bn254_fr
#define M_FR_T          cz_bn254_fr
#define M_EXPORT        cz_bn254_g2
#define M_GLV           MSM_GLV_OF(BN254)
#define M_GLV_BETA      BN254_GLV_BETA_G2
#define M_BETA_T        cz_bn254_fp
#define M_ENDO(r, a, b) MSM_ENDO_G2(M_F, r, a, b)
#include "msm/msm_impl.h"
#include "msm/msm_split_impl.h"
#include "msm/msm_undef.h"
