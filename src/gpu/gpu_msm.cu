/*
 * The G1 MSM of both curves (cuzk/gpu.h): the templates of gpu_msm_impl.cuh instantiated for G1.
 * G2 is in gpu_msm_g2_bn254.cu and gpu_msm_g2_bls12381.cu.
 */
#include "gpu_msm_impl.cuh"

MSM_API(bn254, g1, msm_bn254)
MSM_API(bls12381, g1, msm_bls12381)
