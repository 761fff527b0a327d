/*
 * The state of one proof between the prover's stages (cz_groth16_begin .. cz_groth16_finish in
 * include/cuzk/groth16.h): shared by the CPU stages (prove.c, prove_impl.h) and the GPU compute
 * stage (prove_gpu.c, prove_gpu_impl.h). Internal.
 */
#ifndef CUZK_GROTH16_PENDING_H
#define CUZK_GROTH16_PENDING_H

#include <pthread.h>
#include <stdlib.h>

#include "cuzk/groth16.h"
#include "groth16/gpu_util.h"

/* Per curve: the evaluations a, b (owned until the compute stage frees them), the blinding
 * factors (Montgomery, wiped when the pending proof is freed) and the MSM results. */
#define CZ__PENDING_CURVE(C)                                                                       \
    typedef struct {                                                                               \
        cz_##C##_fr *a, *b;                                                                        \
        cz_##C##_fr r, s;                                                                          \
        cz_##C##_g1_jacobian msm_a, msm_b1, msm_c, msm_h;                                          \
        cz_##C##_g2_jacobian msm_b2;                                                               \
    } cz__##C##_pending
CZ__PENDING_CURVE(bn254);
CZ__PENDING_CURVE(bls12381);
#undef CZ__PENDING_CURVE

struct cz_groth16_pending {
    cz_curve_id curve;
    const cz_zkey *zk;
    const uint64_t (*wit)[4];            /* nvars canonical witness values (the caller's) */
    void (*release)(void *arg, void *p); /* gives a and b back; NULL = free */
    void *release_arg;
    int computed; /* the G1 stage succeeded */
    /* The G2 MSM B2' on a thread of its own, or done by the GPU compute stage when the key has
     * B2 and it was not started (g2_state: 0 not started, 1 running, 2 done). */
    pthread_t g2_thread;
    cz_threadpool *g2_pool;
    int g2_state, g2_rc;
    cz_groth16_timings tm;
    /* Set by cz_groth16_upload: a, b and the witness are in ws's buffers (a and b given back). */
    cz_groth16_gpu_ws *ws;
    union {
        cz__bn254_pending bn254;
        cz__bls12381_pending bls12381;
    } u;
};

/* Gives a buffer of a or b back (to whoever lent it, cz_groth16_begin_pooled). NULL: no-op. */
static inline void cz__groth16_drop(cz_groth16_pending *pp, void *p) {
    if (p == NULL)
        return;
    if (pp->release != NULL)
        pp->release(pp->release_arg, p);
    else
        free(p);
}

/* The zkey a resident GPU key was made for (prove_gpu.c). */
const cz_zkey *cz__groth16_gpu_key_zkey(const cz_groth16_gpu_key *k);

/* The GPU upload stage (prove_gpu.c): a, b and the witness into ws; a and b given back. */
int cz__bn254_groth16_upload_gpu(cz_groth16_pending *pp, cz_groth16_gpu_ws *ws, cz_errinfo *ei);
int cz__bls12381_groth16_upload_gpu(cz_groth16_pending *pp, cz_groth16_gpu_ws *ws, cz_errinfo *ei);

/* The GPU compute stage (prove_gpu.c): a, b -> the four G1 MSM results on key's device (from
 * pp->ws when cz_groth16_upload ran, else uploading into a workspace of this call's own), and
 * the G2 one (g2_state 2) when key has B2 and g2_state is 0. */
int cz__bn254_groth16_compute_gpu(cz_groth16_pending *pp, const cz_groth16_gpu_key *key,
                                  cz_errinfo *ei);
int cz__bls12381_groth16_compute_gpu(cz_groth16_pending *pp, const cz_groth16_gpu_key *key,
                                     cz_errinfo *ei);

#endif
