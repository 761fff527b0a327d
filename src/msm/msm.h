/*
 * Internal MSM entry points: the Pippenger core on canonical scalar limbs with an explicit window
 * width, for tests (to reach every window width and range split) and for callers that already
 * hold canonical scalars. The public API is cuzk/msm.h.
 *
 * k holds n scalars of 4 little-endian 64-bit limbs each (any 256-bit values). c is the window
 * width in 1..16, or 0 to choose it (and nsplit) by the cost model; nsplit is the number of point
 * ranges per window (0 means 1). Returns CZ_OK or CZ_ENOMEM.
 */
#ifndef CUZK_MSM_MSM_H
#define CUZK_MSM_MSM_H

#include "cuzk/msm.h"

int cz__bls12381_g1_msm_limbs(cz_bls12381_g1_jacobian *ret, const cz_bls12381_g1_affine *bases,
                              const uint64_t *k, size_t n, cz_threadpool *pool, unsigned c,
                              unsigned nsplit);
int cz__bls12381_g2_msm_limbs(cz_bls12381_g2_jacobian *ret, const cz_bls12381_g2_affine *bases,
                              const uint64_t *k, size_t n, cz_threadpool *pool, unsigned c,
                              unsigned nsplit);
int cz__bn254_g1_msm_limbs(cz_bn254_g1_jacobian *ret, const cz_bn254_g1_affine *bases,
                           const uint64_t *k, size_t n, cz_threadpool *pool, unsigned c,
                           unsigned nsplit);
int cz__bn254_g2_msm_limbs(cz_bn254_g2_jacobian *ret, const cz_bn254_g2_affine *bases,
                           const uint64_t *k, size_t n, cz_threadpool *pool, unsigned c,
                           unsigned nsplit);

/*
 * The public MSMs with the 0/1 split (msm_split_impl.h) forced: mode MSM_SPLIT_OFF runs GLV +
 * Pippenger on all points, MSM_SPLIT_ON always splits off zero scalars, infinity bases and
 * scalars 1, MSM_SPLIT_AUTO decides as the public entry points do (the counts,
 * cz_tuning.msm_split).
 */
#define MSM_SPLIT_AUTO (-1)
#define MSM_SPLIT_OFF  0
#define MSM_SPLIT_ON   1

int cz__bls12381_g1_msm_split(cz_bls12381_g1_jacobian *ret, const cz_bls12381_g1_affine *bases,
                              const cz_bls12381_fr *scalars, size_t n, cz_threadpool *pool,
                              int mode);
int cz__bls12381_g2_msm_split(cz_bls12381_g2_jacobian *ret, const cz_bls12381_g2_affine *bases,
                              const cz_bls12381_fr *scalars, size_t n, cz_threadpool *pool,
                              int mode);
int cz__bn254_g1_msm_split(cz_bn254_g1_jacobian *ret, const cz_bn254_g1_affine *bases,
                           const cz_bn254_fr *scalars, size_t n, cz_threadpool *pool, int mode);
int cz__bn254_g2_msm_split(cz_bn254_g2_jacobian *ret, const cz_bn254_g2_affine *bases,
                           const cz_bn254_fr *scalars, size_t n, cz_threadpool *pool, int mode);
int cz__bls12381_g1_msm_bytes_split(cz_bls12381_g1_jacobian *ret,
                                    const cz_bls12381_g1_affine *bases, const uint8_t *scalars,
                                    size_t n, cz_threadpool *pool, int mode);
int cz__bls12381_g2_msm_bytes_split(cz_bls12381_g2_jacobian *ret,
                                    const cz_bls12381_g2_affine *bases, const uint8_t *scalars,
                                    size_t n, cz_threadpool *pool, int mode);
int cz__bn254_g1_msm_bytes_split(cz_bn254_g1_jacobian *ret, const cz_bn254_g1_affine *bases,
                                 const uint8_t *scalars, size_t n, cz_threadpool *pool, int mode);
int cz__bn254_g2_msm_bytes_split(cz_bn254_g2_jacobian *ret, const cz_bn254_g2_affine *bases,
                                 const uint8_t *scalars, size_t n, cz_threadpool *pool, int mode);

#endif
