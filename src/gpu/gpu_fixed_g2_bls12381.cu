/*
 * Fixed-base scalar multiplication in G2 of BLS12-381 on the device (cuzk/gpu.h): the G1
 * template of gpu_fixed_base.cuh over Fp2 coordinates, in a unit of its own, compiled without
 * -Xptxas -warn-spills like the G2 MSM (a G2 point does not fit in the registers, docs/gpu.md).
 */
#include "gpu_fixed_base.cuh"

FIXED_API(bls12381, g2, msm_bls12381_g2)
