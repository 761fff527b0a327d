/*
 * Fixed-base scalar multiplication in G1 of BLS12-381 on the device (cuzk/gpu.h; the templates are
 * in gpu_fixed_base.cuh, shared with G2, whose entry point is in gpu_fixed_g2_bls12381.cu): the
 * big multiplications of a bellperson key setup (src/groth16/setup_bellperson.c).
 */
#include "gpu_fixed_base.cuh"

FIXED_API(bls12381, g1, msm_bls12381)
