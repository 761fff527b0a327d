/*
 * The G2 MSM and G2 bases of BLS12-381 (cuzk/gpu.h): the G1 templates (gpu_msm_impl.cuh,
 * gpu_msm_bases.cuh) over Fp2 coordinates, in a translation unit of their own (a G2 curve's
 * kernels take ptxas minutes; the units compile in parallel). Compiled without
 * -Xptxas -warn-spills (CMakeLists.txt): G2 points do not fit in the registers (docs/gpu.md).
 */
#include "gpu_msm_bases.cuh"
#include "gpu_msm_impl.cuh"

BASES_API(bls12381, g2, msm_bls12381_g2)
MSM_API(bls12381, g2, msm_bls12381_g2)
