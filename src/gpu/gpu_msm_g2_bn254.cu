/*
 * The G2 MSM and G2 bases of BN254 (cuzk/gpu.h): the G1 templates (gpu_msm_impl.cuh,
 * gpu_msm_bases.cuh) over Fp2 coordinates, in a translation unit of their own (a G2 curve's
 * kernels take ptxas minutes; the units compile in parallel). Compiled without
 * -Xptxas -warn-spills (CMakeLists.txt): G2 points do not fit in the registers (docs/gpu.md).
 */
#include "gpu_msm_bases.cuh"
#include "gpu_msm_impl.cuh"

BASES_API(bn254, g2, msm_bn254_g2)
MSM_API(bn254, g2, msm_bn254_g2)
