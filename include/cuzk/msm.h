/*
 * Multi-scalar multiplication on the CPU: ret = Σ [s_i] P_i over the affine bases P_i of one group
 * (G1 or G2 of BLS12-381 or BN254), the dominant cost of a Groth16 prover.
 *
 *   cz_bn254_g1_jacobian acc;
 *   int rc = cz_bn254_g1_msm(&acc, bases, scalars, n, pool);   // CZ_OK or CZ_ENOMEM
 *
 * Scalars come in two forms:
 *   _msm         scalar-field elements (cz_<curve>_fr, Montgomery form, as cuzk computes them);
 *   _msm_bytes   32 bytes per scalar, little-endian standard form (what snarkjs stores in .wtns
 *                files): any 256-bit integer is accepted and used as it is (not reduced mod r,
 *                which gives the same point for bases in the prime-order subgroup).
 * Bases are affine points; infinity (x = y = 0) is allowed and contributes nothing. Bases need not
 * be distinct (repeated and negated bases are fine). n = 0 gives infinity.
 *
 * Threads: pool may be NULL (everything runs in the calling thread) or a cz_threadpool whose
 * threads all take part. Memory: n·32 bytes of canonical scalars, plus per running task a set of
 * buckets of 2^(c-1) points in affine and XYZZ form (c is the window width, at most 16): at most
 * about 3.5 MB per thread for BN254 G1 at n = 2^18, 20 MB for BLS12-381 G2 at the widest window.
 * See docs/msm.md for the algorithm and measured times.
 *
 * Return: CZ_OK with *ret set, or CZ_ENOMEM (then *ret is unspecified). Nothing is constant-time.
 */
#ifndef CUZK_MSM_H
#define CUZK_MSM_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/curve.h"
#include "cuzk/threadpool.h"

#ifdef __cplusplus
extern "C" {
#endif

int cz_bls12381_g1_msm(cz_bls12381_g1_jacobian *ret, const cz_bls12381_g1_affine *bases,
                       const cz_bls12381_fr *scalars, size_t n, cz_threadpool *pool);
int cz_bls12381_g2_msm(cz_bls12381_g2_jacobian *ret, const cz_bls12381_g2_affine *bases,
                       const cz_bls12381_fr *scalars, size_t n, cz_threadpool *pool);
int cz_bn254_g1_msm(cz_bn254_g1_jacobian *ret, const cz_bn254_g1_affine *bases,
                    const cz_bn254_fr *scalars, size_t n, cz_threadpool *pool);
int cz_bn254_g2_msm(cz_bn254_g2_jacobian *ret, const cz_bn254_g2_affine *bases,
                    const cz_bn254_fr *scalars, size_t n, cz_threadpool *pool);

/* scalars: n × 32 bytes, little-endian standard form. */
int cz_bls12381_g1_msm_bytes(cz_bls12381_g1_jacobian *ret, const cz_bls12381_g1_affine *bases,
                             const uint8_t *scalars, size_t n, cz_threadpool *pool);
int cz_bls12381_g2_msm_bytes(cz_bls12381_g2_jacobian *ret, const cz_bls12381_g2_affine *bases,
                             const uint8_t *scalars, size_t n, cz_threadpool *pool);
int cz_bn254_g1_msm_bytes(cz_bn254_g1_jacobian *ret, const cz_bn254_g1_affine *bases,
                          const uint8_t *scalars, size_t n, cz_threadpool *pool);
int cz_bn254_g2_msm_bytes(cz_bn254_g2_jacobian *ret, const cz_bn254_g2_affine *bases,
                          const uint8_t *scalars, size_t n, cz_threadpool *pool);

#ifdef __cplusplus
}
#endif

#endif
