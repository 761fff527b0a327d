/*
 * The GPU Groth16 prover's entry points for cz_groth16_prove (prove.c), one per curve. Internal:
 * the public API is cz_groth16_prove with opts->use_gpu, and the cz_groth16_gpu_key functions.
 */
#ifndef CUZK_GROTH16_PROVE_GPU_H
#define CUZK_GROTH16_PROVE_GPU_H

#include "cuzk/groth16.h"

/* Proves with the blinding factors r, s (Montgomery form) on device opts->gpu_device. The
 * witness is already checked against zk. */
int cz__bn254_groth16_prove_gpu(cz_bn254_groth16_proof *proof, const cz_zkey *zk, const cz_wtns *w,
                                const cz_bn254_fr *r, const cz_bn254_fr *s,
                                const cz_groth16_prove_opts *opts, cz_groth16_timings *tm,
                                cz_errinfo *ei);
int cz__bls12381_groth16_prove_gpu(cz_bls12381_groth16_proof *proof, const cz_zkey *zk,
                                   const cz_wtns *w, const cz_bls12381_fr *r,
                                   const cz_bls12381_fr *s, const cz_groth16_prove_opts *opts,
                                   cz_groth16_timings *tm, cz_errinfo *ei);

#endif
