/*
 * What the CPU and GPU backends of the bellperson prover share (prove_bellperson.c,
 * prove_bellperson_gpu.c): the pending proof between the stages, the checks of an assignment
 * against its key, the gathering of the scalars of a density, and the epilogue.
 */
#ifndef CZ_GROTH16_PROVE_BELLPERSON_H
#define CZ_GROTH16_PROVE_BELLPERSON_H

#include <pthread.h>

#include "cuzk/groth16_bellperson.h"

/* The five MSM results of one circuit. */
typedef struct cz__bp_msms {
    cz_bls12381_g1_jacobian h, l, a, b1;
    cz_bls12381_g2_jacobian b2;
} cz__bp_msms;

struct cz_groth16_bp_pending {
    const cz_bellperson_params *params;
    const cz_assignment *as;
    unsigned log_n;
    cz_bls12381_fr r, s; /* wiped when freed */
    cz__bp_msms m;
    int computed; /* the G1 MSMs are done */
    /* The G2 MSM: 0 not started, 1 on its thread, 2 done (by that thread, the GPU or inline). */
    pthread_t g2_thread;
    cz_threadpool *g2_pool;
    int g2_state, g2_rc;
    cz_groth16_gpu_ws *ws; /* set by cz_groth16_bp_upload: the vectors are in ws */
    cz_groth16_timings tm;
};

/* Checks assignment as (circuit i of a batch) against the key and sets *log_n to the key's
 * domain. CZ_EFORMAT, CZ_ERANGE. */
int cz__bp_check_one(unsigned *log_n, const cz_bellperson_params *params, const cz_assignment *as,
                     size_t i, cz_errinfo *ei);
/* out = the inputs whose bit is set in in_density (all of them when it is NULL), then the aux
 * whose bit is set in aux_density, in order; returns how many. */
size_t cz__bp_gather(cz_bls12381_fr *out, const cz_bls12381_fr *input, const uint64_t *in_density,
                     size_t ninput, const cz_bls12381_fr *aux, const uint64_t *aux_density,
                     size_t naux);
/* The G2 MSM of pp on the host, on pool: B2' over the gathered B scalars. CZ_ENOMEM; CZ_EINVAL
 * for an assignment without its aux values (a compact witness). */
int cz__bp_g2_host(cz_groth16_bp_pending *pp, cz_threadpool *pool);

/* The GPU stages (prove_bellperson_gpu.c), and the key a resident key was made for. */
const cz_bellperson_params *cz__bp_gpu_key_params(const cz_groth16_bp_gpu_key *k);
/* A compact witness (cuzk/r1cs.h) in host memory. */
typedef struct cz__bp_compact {
    const uint64_t *bits;
    const cz_bls12381_fr *vals;
} cz__bp_compact;
/* The assignment into ws: a, b, c copied, or (m not NULL) computed there from m; w from the
 * assignment, or (cw not NULL, with m) expanded there from cw by m. */
int cz__bp_upload_gpu(cz_groth16_bp_pending *pp, cz_groth16_gpu_ws *ws, const cz_gpu_r1cs *m,
                      const cz__bp_compact *cw, cz_errinfo *ei);
int cz__bp_compute_gpu(cz_groth16_bp_pending *pp, const cz_groth16_bp_gpu_key *key, cz_errinfo *ei);

#endif
