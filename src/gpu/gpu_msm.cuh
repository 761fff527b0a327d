/*
 * Internal to the GPU MSM (gpu_msm.cu, gpu_msm_bases.cu): the bases handle and the per-group
 * traits (G1 and G2 of both curves) that tie the device field configs to the host point types and
 * CPU curve calls.
 */
#ifndef CUZK_GPU_MSM_CUH
#define CUZK_GPU_MSM_CUH

#include "cuzk/curve.h"
#include "gpu_common.cuh"
#include "gpu_curve.cuh"

struct cz_gpu_bases {
    int dev;
    int curve; /* 0 = BN254, 1 = BLS12-381 */
    int group; /* 1 = G1, 2 = G2 */
    size_t n;
    void *d_pts; /* n host-layout affine points */
};

/* The traits of one group for the MSM templates: fp = the device coordinate field (an Fp config
 * for G1, fp2_cfg<Fp config> for G2), fr = the scalar field, the host point types and the CPU
 * calls the host side needs (doubling, addition, XYZZ to Jacobian), id = curve, bits of r. */
#define CZ_GPU_MSM_TRAITS(NAME, CURVE, G, FP, FR, ID, GROUP, BITS)                                 \
    struct NAME {                                                                                  \
        typedef FP fp;                                                                             \
        typedef FR fr;                                                                             \
        typedef cz_##CURVE##_##G##_affine aff;                                                     \
        typedef cz_##CURVE##_##G##_jacobian jac;                                                   \
        typedef cz_##CURVE##_##G##_xyzz xyzz;                                                      \
        typedef cz_##CURVE##_fr scalar;                                                            \
        enum { id = ID, group = GROUP, bits = BITS };                                              \
        static void dbl(jac *r, const jac *p) {                                                    \
            cz_##CURVE##_##G##_dbl(r, p);                                                          \
        }                                                                                          \
        static void add(jac *r, const jac *a, const jac *b) {                                      \
            cz_##CURVE##_##G##_add(r, a, b);                                                       \
        }                                                                                          \
        static void to_jac(jac *r, const xyzz *p) {                                                \
            cz_##CURVE##_##G##_xyzz_to_jacobian(r, p);                                             \
        }                                                                                          \
    }

CZ_GPU_MSM_TRAITS(msm_bn254, bn254, g1, gbn254_fp_cfg, gbn254_fr_cfg, 0, 1, 254);
CZ_GPU_MSM_TRAITS(msm_bls12381, bls12381, g1, gbls12381_fp_cfg, gbls12381_fr_cfg, 1, 1, 255);
CZ_GPU_MSM_TRAITS(msm_bn254_g2, bn254, g2, gbn254_fp2_cfg, gbn254_fr_cfg, 0, 2, 254);
CZ_GPU_MSM_TRAITS(msm_bls12381_g2, bls12381, g2, gbls12381_fp2_cfg, gbls12381_fr_cfg, 1, 2, 255);

#endif
