/*
 * The Groth16 prover's stages (include/cuzk/groth16.h: eval, begin, g2_start, compute, finish)
 * and cz_groth16_prove, which runs them in order. The per-curve work is prove_impl.h (CPU) and
 * prove_gpu_impl.h (the GPU compute stage, in prove_gpu.c); the state between stages is pending.h.
 * The blinding factors live in the pending proof and are wiped when it is freed.
 */
#include "cuzk/groth16.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/clock.h"
#include "cuzk/gpu.h"
#include "cuzk/msm.h"
#include "cuzk/ntt.h"
#include "cuzk/rand.h"
#include "curve/ec.h"
#include "field/field.h"
#include "groth16/pending.h"

#define CURVE bn254
#include "groth16/prove_impl.h"
#undef CURVE
#define CURVE bls12381
#include "groth16/prove_impl.h"
#undef CURVE

/* Wipes memory in a way the compiler may not drop as a dead store. */
static void wipe(void *p, size_t n) {
    volatile unsigned char *v = p;
    while (n--)
        *v++ = 0;
}

int cz_groth16_public_alloc(cz_groth16_public *pub, cz_curve_id curve, uint32_t n, cz_errinfo *ei) {
    pub->curve = curve;
    pub->n = n;
    pub->values = calloc(n == 0 ? 1 : n, sizeof *pub->values);
    if (pub->values == NULL)
        return cz_fail(ei, CZ_ENOMEM, "cannot allocate %u public inputs", n);
    return CZ_OK;
}

void cz_groth16_public_free(cz_groth16_public *pub) {
    if (pub == NULL)
        return;
    free(pub->values);
    pub->values = NULL;
    pub->n = 0;
}

/* ---- stages ---- */

int cz_groth16_eval(void *a, void *b, const cz_zkey *zk, const cz_wtns *w, cz_threadpool *pool,
                    cz_errinfo *ei) {
    const uint64_t(*wit)[4] = (const uint64_t(*)[4])w->values;
    if (zk->curve == CZ_CURVE_BN254)
        return bn254_groth16_eval_abc(a, b, NULL, zk, wit, pool, ei);
    return bls12381_groth16_eval_abc(a, b, NULL, zk, wit, pool, ei);
}

int cz_groth16_begin(cz_groth16_pending **out, const cz_zkey *zk, const uint64_t (*witness)[4],
                     void *a, void *b, const uint8_t *r, const uint8_t *s, cz_errinfo *ei) {
    return cz_groth16_begin_pooled(out, zk, witness, a, b, NULL, NULL, r, s, ei);
}

int cz_groth16_begin_pooled(cz_groth16_pending **out, const cz_zkey *zk,
                            const uint64_t (*witness)[4], void *a, void *b,
                            void (*release)(void *arg, void *p), void *release_arg,
                            const uint8_t *r, const uint8_t *s, cz_errinfo *ei) {
    cz_groth16_pending *pp;
    int rc;
    *out = NULL;
    if ((r == NULL) != (s == NULL)) {
        rc = cz_fail(ei, CZ_EINVAL, "prove: give both blinding factors r and s, or neither");
        goto fail;
    }
    pp = calloc(1, sizeof *pp);
    if (pp == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "prove: pending proof");
        goto fail;
    }
    pp->curve = zk->curve;
    pp->zk = zk;
    pp->wit = witness;
    pp->release = release;
    pp->release_arg = release_arg;
    if (zk->curve == CZ_CURVE_BN254) {
        pp->u.bn254.a = a;
        pp->u.bn254.b = b;
        if ((rc = bn254_groth16_blinding(&pp->u.bn254.r, r, "r", ei)) == CZ_OK)
            rc = bn254_groth16_blinding(&pp->u.bn254.s, s, "s", ei);
    } else {
        pp->u.bls12381.a = a;
        pp->u.bls12381.b = b;
        if ((rc = bls12381_groth16_blinding(&pp->u.bls12381.r, r, "r", ei)) == CZ_OK)
            rc = bls12381_groth16_blinding(&pp->u.bls12381.s, s, "s", ei);
    }
    if (rc != CZ_OK) {
        cz_groth16_pending_free(pp);
        return rc;
    }
    *out = pp;
    return CZ_OK;
fail:
    if (release != NULL) {
        if (a != NULL)
            release(release_arg, a);
        if (b != NULL)
            release(release_arg, b);
    } else {
        free(a);
        free(b);
    }
    return rc;
}

static void run_g2(cz_groth16_pending *pp) {
    if (pp->curve == CZ_CURVE_BN254)
        bn254_groth16_g2(pp);
    else
        bls12381_groth16_g2(pp);
}

static void *g2_main(void *arg) {
    run_g2(arg);
    return NULL;
}

int cz_groth16_g2_start(cz_groth16_pending *pp, cz_threadpool *pool, cz_errinfo *ei) {
    if (pp->g2_state != 0)
        return cz_fail(ei, CZ_EINVAL, "prove: the G2 MSM was already started");
    pp->g2_pool = pool;
    if (pthread_create(&pp->g2_thread, NULL, g2_main, pp) == 0) {
        pp->g2_state = 1;
        return CZ_OK;
    }
    /* No thread: it runs in finish instead (slower, same proof). */
    return CZ_OK;
}

/* Waits for the G2 MSM, running it here if it never started. */
static void g2_join(cz_groth16_pending *pp) {
    if (pp->g2_state == 1)
        pthread_join(pp->g2_thread, NULL);
    else if (pp->g2_state == 0)
        run_g2(pp);
    pp->g2_state = 2;
}

int cz_groth16_upload(cz_groth16_pending *pp, cz_groth16_gpu_ws *ws, cz_errinfo *ei) {
    if (pp->computed || pp->ws != NULL)
        return cz_fail(ei, CZ_EINVAL, "prove: upload after %s",
                       pp->computed ? "the compute stage" : "an upload");
    return pp->curve == CZ_CURVE_BN254 ? cz__bn254_groth16_upload_gpu(pp, ws, ei)
                                       : cz__bls12381_groth16_upload_gpu(pp, ws, ei);
}

int cz_groth16_compute(cz_groth16_pending *pp, const cz_groth16_gpu_key *key, cz_threadpool *pool,
                       cz_errinfo *ei) {
    int rc;
    if (pp->computed)
        return cz_fail(ei, CZ_EINVAL, "prove: computed twice");
    if (key != NULL && cz__groth16_gpu_key_zkey(key) != pp->zk)
        return cz_fail(ei, CZ_EINVAL, "prove: the GPU key was made for another zkey ('%s')",
                       cz_zkey_name(cz__groth16_gpu_key_zkey(key)));
    if (pp->ws != NULL &&
        (key == NULL || cz_groth16_gpu_key_device(key) != cz__groth16_gpu_ws_device(pp->ws)))
        return cz_fail(ei, CZ_EINVAL,
                       "prove: the inputs were uploaded to GPU %d; compute needs a key there",
                       cz__groth16_gpu_ws_device(pp->ws));
    if (key == NULL)
        rc = pp->curve == CZ_CURVE_BN254 ? bn254_groth16_compute_cpu(pp, pool, ei)
                                         : bls12381_groth16_compute_cpu(pp, pool, ei);
    else
        rc = pp->curve == CZ_CURVE_BN254 ? cz__bn254_groth16_compute_gpu(pp, key, ei)
                                         : cz__bls12381_groth16_compute_gpu(pp, key, ei);
    pp->computed = rc == CZ_OK;
    return rc;
}

int cz_groth16_finish(cz_groth16_proof *proof, cz_groth16_pending *pp, cz_errinfo *ei) {
    if (!pp->computed)
        return cz_fail(ei, CZ_EINVAL, "prove: finish before a successful compute");
    g2_join(pp);
    if (pp->g2_rc != CZ_OK)
        return cz_fail(ei, pp->g2_rc, "prove: the G2 MSM (B2) failed");
    proof->curve = pp->curve;
    if (pp->curve == CZ_CURVE_BN254)
        bn254_groth16_combine(&proof->u.bn254, pp);
    else
        bls12381_groth16_combine(&proof->u.bls12381, pp);
    return CZ_OK;
}

const cz_groth16_timings *cz_groth16_pending_timings(const cz_groth16_pending *pp) {
    return &pp->tm;
}

void cz_groth16_pending_free(cz_groth16_pending *pp) {
    if (pp == NULL)
        return;
    if (pp->g2_state == 1)
        pthread_join(pp->g2_thread, NULL);
    if (pp->curve == CZ_CURVE_BN254) {
        cz__groth16_drop(pp, pp->u.bn254.a);
        cz__groth16_drop(pp, pp->u.bn254.b);
    } else {
        cz__groth16_drop(pp, pp->u.bls12381.a);
        cz__groth16_drop(pp, pp->u.bls12381.b);
    }
    wipe(pp, sizeof *pp);
    free(pp);
}

/* ---- the whole prover ---- */

/* With the GPU prover a and b are uploaded: from pinned (page-locked) memory the copy is a
 * direct DMA at full PCIe speed. Both pinned, or neither (then plain malloc, silently: the engine
 * path warns, a one-shot prove need not). opts->pageable turns it off (benchmarks). */
static int host_alloc_pinned(void **a, void **b, size_t bytes) {
    *a = *b = NULL;
    if (cz_gpu_host_alloc(a, bytes, NULL) == CZ_OK && cz_gpu_host_alloc(b, bytes, NULL) == CZ_OK)
        return 1;
    cz_gpu_host_free(*a);
    *a = *b = NULL;
    return 0;
}

static void pinned_release(void *arg, void *p) {
    (void)arg;
    cz_gpu_host_free(p);
}

int cz_groth16_prove(cz_groth16_proof *proof, cz_groth16_public *pub, const cz_zkey *zk,
                     const cz_wtns *w, const cz_groth16_prove_opts *opts, cz_errinfo *ei) {
    cz_groth16_prove_opts none = {0};
    cz_groth16_timings scratch;
    cz_groth16_gpu_key *own = NULL;
    const cz_groth16_gpu_key *key = NULL;
    cz_groth16_pending *pp = NULL;
    void *a = NULL, *b = NULL;
    size_t vbytes = (size_t)zk->domain_size * 32;
    uint64_t t0 = cz_clock_now_ns(), t;
    int rc, pinned = 0;
    if (opts == NULL)
        opts = &none;
    if ((opts->r == NULL) != (opts->s == NULL))
        return cz_fail(ei, CZ_EINVAL, "prove: give both blinding factors r and s, or neither");
    if ((rc = cz_wtns_check_against_zkey(w, zk, ei)) != CZ_OK)
        return rc;
    cz_groth16_timings *tm = opts->timings != NULL ? opts->timings : &scratch;
    memset(tm, 0, sizeof *tm);
    pub->values = NULL;

    /* The GPU first: a missing or full device fails before any CPU work. */
    if (opts->use_gpu) {
        key = opts->gpu_key;
        if (key != NULL && cz__groth16_gpu_key_zkey(key) != zk)
            return cz_fail(ei, CZ_EINVAL,
                           "prove: the GPU key was made for another zkey ('%s', not this '%s')",
                           cz_zkey_name(cz__groth16_gpu_key_zkey(key)), cz_zkey_name(zk));
        if (key != NULL && cz_groth16_gpu_key_device(key) != opts->gpu_device)
            return cz_fail(ei, CZ_EINVAL, "prove: the GPU key lives on device %d, not device %d",
                           cz_groth16_gpu_key_device(key), opts->gpu_device);
        if (key == NULL) {
            t = cz_clock_now_ns();
            if ((rc = cz_groth16_gpu_key_create(&own, zk, opts->gpu_device, ei)) != CZ_OK)
                return rc;
            key = own;
            tm->upload_ms = (double)(cz_clock_now_ns() - t) / 1e6;
        }
    }
    if ((rc = cz_groth16_public_alloc(pub, zk->curve, zk->npublic, ei)) != CZ_OK)
        goto out;
    memcpy(pub->values, w->values + CZ_WTNS_LIMBS, (size_t)zk->npublic * sizeof *pub->values);

    pinned = opts->use_gpu && !opts->pageable && host_alloc_pinned(&a, &b, vbytes);
    if (!pinned) {
        a = malloc(vbytes);
        b = malloc(vbytes);
    }
    if (a == NULL || b == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "prove: cannot allocate 2 x %u scalars", zk->domain_size);
        goto out;
    }
    t = cz_clock_now_ns();
    if ((rc = cz_groth16_eval(a, b, zk, w, opts->pool, ei)) != CZ_OK)
        goto out;
    tm->witness_ms = (double)(cz_clock_now_ns() - t) / 1e6;
    rc = cz_groth16_begin_pooled(&pp, zk, (const uint64_t(*)[4])w->values, a, b,
                                 pinned ? pinned_release : NULL, NULL, opts->r, opts->s, ei);
    a = b = NULL; /* the pending proof's now, or freed */
    /* A key with B2 runs the G2 MSM in compute, on the GPU: no CPU thread for it then. */
    if (rc != CZ_OK ||
        (!cz_groth16_gpu_key_has_g2(key) &&
         (rc = cz_groth16_g2_start(pp, opts->pool, ei)) != CZ_OK) ||
        (rc = cz_groth16_compute(pp, key, opts->pool, ei)) != CZ_OK ||
        (rc = cz_groth16_finish(proof, pp, ei)) != CZ_OK)
        goto out;
    {
        double witness_ms = tm->witness_ms, upload_ms = tm->upload_ms;
        *tm = pp->tm;
        tm->witness_ms = witness_ms;
        tm->upload_ms += upload_ms;
        tm->total_ms = (double)(cz_clock_now_ns() - t0) / 1e6;
    }
out:
    cz_groth16_pending_free(pp);
    cz_groth16_gpu_key_free(own);
    if (pinned) {
        cz_gpu_host_free(a);
        cz_gpu_host_free(b);
    } else {
        free(a);
        free(b);
    }
    if (rc != CZ_OK)
        cz_groth16_public_free(pub);
    return rc;
}
