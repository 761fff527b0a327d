/*
 * Internal to the GPU MSM (gpu_msm.cu, gpu_msm_bases.cu): the bases handle and the per-curve
 * traits that tie the device field configs to the host point types and CPU curve calls.
 */
#ifndef CUZK_GPU_MSM_CUH
#define CUZK_GPU_MSM_CUH

#include "cuzk/curve.h"
#include "gpu_common.cuh"
#include "gpu_curve.cuh"

struct cz_gpu_bases {
    int dev;
    int curve; /* 0 = BN254, 1 = BLS12-381 */
    size_t n;
    void *d_pts; /* n host-layout affine points */
};

struct msm_bn254 {
    typedef gbn254_fp_cfg fp;
    typedef gbn254_fr_cfg fr;
    typedef cz_bn254_g1_affine aff;
    typedef cz_bn254_g1_jacobian jac;
    typedef cz_bn254_g1_xyzz xyzz;
    typedef cz_bn254_fr scalar;
    enum { id = 0, bits = 254 };
    static void dbl(jac *r, const jac *p) {
        cz_bn254_g1_dbl(r, p);
    }
    static void add(jac *r, const jac *a, const jac *b) {
        cz_bn254_g1_add(r, a, b);
    }
    static void to_jac(jac *r, const xyzz *p) {
        cz_bn254_g1_xyzz_to_jacobian(r, p);
    }
};
struct msm_bls12381 {
    typedef gbls12381_fp_cfg fp;
    typedef gbls12381_fr_cfg fr;
    typedef cz_bls12381_g1_affine aff;
    typedef cz_bls12381_g1_jacobian jac;
    typedef cz_bls12381_g1_xyzz xyzz;
    typedef cz_bls12381_fr scalar;
    enum { id = 1, bits = 255 };
    static void dbl(jac *r, const jac *p) {
        cz_bls12381_g1_dbl(r, p);
    }
    static void add(jac *r, const jac *a, const jac *b) {
        cz_bls12381_g1_add(r, a, b);
    }
    static void to_jac(jac *r, const xyzz *p) {
        cz_bls12381_g1_xyzz_to_jacobian(r, p);
    }
};

#endif
