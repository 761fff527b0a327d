/*
 * What the CPU and GPU backends of the bellperson prover share (prove_bellperson.c,
 * prove_bellperson_gpu.c): the checks of a batch against its key, the gathering of the scalars
 * of a density, the blinding factors and the epilogue.
 */
#ifndef CZ_GROTH16_PROVE_BELLPERSON_H
#define CZ_GROTH16_PROVE_BELLPERSON_H

#include "cuzk/groth16_bellperson.h"

/* The five MSM results of one circuit. */
typedef struct cz__bp_msms {
    cz_bls12381_g1_jacobian h, l, a, b1;
    cz_bls12381_g2_jacobian b2;
} cz__bp_msms;

/* Checks every assignment against the key (see the header) and sets *log_n to the key's
 * domain. CZ_EINVAL, CZ_EFORMAT, CZ_ERANGE. */
int cz__bp_check(unsigned *log_n, const cz_bellperson_params *params, const cz_assignment *asg,
                 size_t n, const cz_groth16_bp_opts *opts, cz_errinfo *ei);
/* out = the inputs whose bit is set in in_density (all of them when it is NULL), then the aux
 * whose bit is set in aux_density, in order; returns how many. */
size_t cz__bp_gather(cz_bls12381_fr *out, const cz_bls12381_fr *input, const uint64_t *in_density,
                     size_t ninput, const cz_bls12381_fr *aux, const uint64_t *aux_density,
                     size_t naux);
/* The coset generator g and 1 / Z(g) of the bellperson domain 2^log_n. CZ_ERANGE. */
int cz__bp_domain_consts(cz_bls12381_fr *g, cz_bls12381_fr *zinv, unsigned log_n, cz_errinfo *ei);
/* Circuit i's r and s: the caller's, or from the CSPRNG (CZ_EIO). */
int cz__bp_blinding(cz_bls12381_fr *r, cz_bls12381_fr *s, const cz_groth16_bp_opts *opts, size_t i,
                    cz_errinfo *ei);
/* Wipes memory in a way the compiler may not drop as a dead store (the blinding factors). */
void cz__bp_wipe(void *p, size_t n);
/* The proof from the MSM results, bellperson's combination (see the header). */
void cz__bp_epilogue(cz_groth16_proof *proof, const cz_bellperson_vk *vk, const cz__bp_msms *m,
                     const cz_bls12381_fr *r, const cz_bls12381_fr *s);
/* The batch on the GPU (prove_bellperson_gpu.c), after cz__bp_check; adds to *tm. */
int cz__bp_prove_gpu(cz_groth16_proof *proofs, const cz_bellperson_params *params,
                     const cz_assignment *asg, size_t n, unsigned log_n,
                     const cz_groth16_bp_opts *opts, cz_groth16_timings *tm, cz_errinfo *ei);

#endif
