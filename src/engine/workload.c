/*
 * The engine's Groth16 workloads (include/cuzk/workload.h). One job type, g16_job, carries what
 * both kinds share — the key, its verification key, each partition's public inputs, the blinding
 * option — and the stage callbacks prepare/compute/finish/verify are the same for both; only
 * synthesis (and where the witness comes from) differs:
 *
 *   zkey         witness from the job's .wtns (borrowed); a, b = cz_groth16_eval.
 *   porep-synth  the constraint system is the context's (read only, shared); each partition gets
 *                its own witness array (cz_porep_synth_witness into a shallow copy of the system),
 *                a, b = cz_r1cs_eval with snarkjs's input rows, the witness converted to standard
 *                form for the MSMs.
 *
 * GPU keys (the resident G1 bases): a zkey job asks the SRS manager (cz_srs_key_device, hooks
 * below), a porep-synth job its context, which makes one per device on first use.
 *
 * Buffers: a, b and a porep-synth partition's standard-form witness (what the GPU uploads) come
 * from the engine's buffer pool (bind; pinned with GPUs when the engine asks) and go back to it: a,
 * b through the pending proof's release hook (cz_groth16_begin_pooled), the witness at finish (or
 * in pend_free when the partition ends early). Gets name the partition's reservation, which pays
 * for them until the pipeline's release hands them to the pool.
 */
#include "cuzk/workload.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cuzk/encoding.h"
#include "cuzk/groth16.h"
#include "cuzk/groth16_setup.h"
#include "cuzk/log.h"
#include "cuzk/porep_synth.h"
#include "cuzk/r1cs.h"
#include "cuzk/r1cs_file.h"
#include "cuzk/r1cs_io.h"
#include "cuzk/threadpool.h"
#include "cuzk/wtns.h"
#include "cuzk/zkey.h"
#include "engine/bench_key.h"

#define FR_BYTES 32

struct cz_porep_synth_ctx {
    cz_curve_id curve;
    unsigned k;
    cz_r1cs cs;           /* the structure; cs.w is never written after build */
    cz_zkey *zk;          /* the file's key, or &bk->zk */
    cz__bench_key *bk;    /* a benchmark key (bench_key.h): proofs timed, not verified */
    pthread_mutex_t lock; /* guards gpu[] */
    cz_groth16_gpu_key *gpu[CZ_ENGINE_MAX_DEVICES];
};

typedef struct g16_job g16_job;
typedef struct {
    void *a, *b;
    uint64_t (*wit)[4]; /* canonical; owned when wit_owned */
    int wit_owned;
} g16_asg;
typedef struct {
    cz_groth16_pending *pp;
    uint64_t (*wit)[4];
    int wit_owned;
} g16_pend;

struct g16_job {
    cz_curve_id curve;
    const cz_zkey *zk;
    cz_groth16_vk vk;
    uint32_t nparts, npub;
    uint64_t (*pub)[4]; /* nparts × npub public inputs, written by synthesis */
    int fixed;
    uint8_t r[32], s[32];
    int (*synth)(g16_asg *asg, g16_job *j, uint32_t p, cz_reservation *res, cz_threadpool *pool,
                 cz_errinfo *ei);
    int (*gpu_key)(const cz_groth16_gpu_key **out, g16_job *j, int dev, cz_errinfo *ei);
    /* zkey */
    cz_srs_key *key;
    cz_wtns *w;
    void *wtns_copy;
    /* porep-synth */
    cz_porep_synth_ctx *ctx;
    uint64_t seed;
    cz_bufpool *bufs; /* the engine's (bind); NULL: plain host memory */
};

size_t cz_workload_proof_bytes(cz_curve_id curve) {
    return curve == CZ_CURVE_BLS12381 ? 192 : 256;
}

static void encode_proof(uint8_t *out, const cz_groth16_proof *p) {
    if (p->curve == CZ_CURVE_BLS12381) {
        cz_bls12381_g1_to_compressed(out, &p->u.bls12381.a);
        cz_bls12381_g2_to_compressed(out + 48, &p->u.bls12381.b);
        cz_bls12381_g1_to_compressed(out + 144, &p->u.bls12381.c);
    } else {
        memcpy(out, &p->u.bn254.a, 64);
        memcpy(out + 64, &p->u.bn254.b, 128);
        memcpy(out + 192, &p->u.bn254.c, 64);
    }
}

static int decode_proof(cz_groth16_proof *p, cz_curve_id curve, const uint8_t *in, cz_errinfo *ei) {
    int rc = CZ_OK;
    p->curve = curve;
    if (curve == CZ_CURVE_BLS12381) {
        if ((rc = cz_bls12381_g1_from_compressed(&p->u.bls12381.a, in, 48, ei)) != CZ_OK ||
            (rc = cz_bls12381_g2_from_compressed(&p->u.bls12381.b, in + 48, 96, ei)) != CZ_OK ||
            (rc = cz_bls12381_g1_from_compressed(&p->u.bls12381.c, in + 144, 48, ei)) != CZ_OK)
            return rc;
    } else {
        memcpy(&p->u.bn254.a, in, 64);
        memcpy(&p->u.bn254.b, in + 64, 128);
        memcpy(&p->u.bn254.c, in + 192, 64);
    }
    return rc;
}

/* ---- the stage callbacks, shared ---- */

static cz_bufpool *j_bufs(void *ctx) {
    return ((g16_job *)ctx)->bufs;
}

static void g16_bind(void *ctx, cz_bufpool *bufs) {
    ((g16_job *)ctx)->bufs = bufs;
}

/* The pending proof's release hook for a and b. */
static void buf_back(void *bufs, void *p) {
    cz_bufpool_put(bufs, p);
}

static void asg_free(void *v, void *ctx) {
    g16_asg *a = v;
    if (a == NULL)
        return;
    cz_bufpool_put(j_bufs(ctx), a->a);
    cz_bufpool_put(j_bufs(ctx), a->b);
    if (a->wit_owned)
        cz_bufpool_put(j_bufs(ctx), a->wit);
    free(a);
}

static int g16_synthesize(void **out, void *ctx, uint32_t p, cz_reservation *res,
                          cz_threadpool *pool, cz_part_times *t, cz_errinfo *ei) {
    g16_job *j = ctx;
    g16_asg *a = calloc(1, sizeof *a);
    size_t vbytes = (size_t)j->zk->domain_size * FR_BYTES;
    int rc;
    (void)t;
    if (a == NULL)
        return cz_fail(ei, CZ_ENOMEM, "synthesis: partition state");
    a->a = cz_bufpool_get(j->bufs, vbytes, res);
    a->b = cz_bufpool_get(j->bufs, vbytes, res);
    if (a->a == NULL || a->b == NULL) {
        asg_free(a, ctx);
        return cz_fail(ei, CZ_ENOMEM, "synthesis: 2 x %zu bytes of evaluations", vbytes);
    }
    if ((rc = j->synth(a, j, p, res, pool, ei)) != CZ_OK) {
        asg_free(a, ctx);
        return rc;
    }
    memcpy(j->pub + (size_t)p * j->npub, a->wit + 1, (size_t)j->npub * FR_BYTES);
    *out = a;
    return CZ_OK;
}

static int g16_prepare(void **out, void *ctx, void *asg_v, uint32_t p, const cz_engine_device *dev,
                       cz_part_times *t, cz_errinfo *ei) {
    g16_job *j = ctx;
    g16_asg *asg = asg_v;
    g16_pend *pd = calloc(1, sizeof *pd);
    const cz_groth16_gpu_key *key = NULL;
    int rc;
    (void)p;
    (void)t;
    if (pd == NULL)
        return cz_fail(ei, CZ_ENOMEM, "prepare: pending state");
    /* The device's key (made here on first use, outside the device lock): one with B2 runs the
     * G2 MSM in compute on the GPU, so no G2 thread is started for it. */
    if (dev->device >= 0 && (rc = j->gpu_key(&key, j, dev->device, ei)) != CZ_OK) {
        free(pd);
        return rc;
    }
    /* a and b go to the pending proof (begin frees them if it fails); on failure the engine
     * frees what is left of asg (the witness). */
    rc = cz_groth16_begin_pooled(&pd->pp, j->zk, (const uint64_t(*)[4])asg->wit, asg->a, asg->b,
                                 buf_back, j->bufs, j->fixed ? j->r : NULL, j->fixed ? j->s : NULL,
                                 ei);
    asg->a = asg->b = NULL;
    if (rc == CZ_OK && !cz_groth16_gpu_key_has_g2(key))
        rc = cz_groth16_g2_start(pd->pp, dev->cpu, ei);
    if (rc != CZ_OK) {
        cz_groth16_pending_free(pd->pp);
        free(pd);
        return rc;
    }
    pd->wit = asg->wit;
    pd->wit_owned = asg->wit_owned;
    free(asg); /* taken over */
    *out = pd;
    return CZ_OK;
}

/* Outside the device lock: a, b and the witness into the GPU worker's buffers (a and b go back
 * to the pool). Nothing to do on the CPU backend or without worker buffers. */
static int g16_upload(void *pend, void *ctx, const cz_engine_device *dev, cz_part_times *t,
                      cz_errinfo *ei) {
    g16_pend *pd = pend;
    int rc;
    (void)ctx;
    if (dev->device < 0 || dev->ws == NULL)
        return CZ_OK;
    rc = cz_groth16_upload(pd->pp, dev->ws, ei);
    t->upload = cz_groth16_pending_timings(pd->pp)->upload_ms;
    if (rc == CZ_ENOMEM && cz_groth16_gpu_ws_bytes(dev->ws) == 0) {
        /* The workspace could not grow (the device is full) and nothing was copied or given
         * back: compute uploads under the lock instead, into buffers of its own. */
        CZ_LOG_WARN("GPU %d: partition inputs uploaded under the lock: %s", dev->device, ei->msg);
        cz_errinfo_clear(ei);
        return CZ_OK;
    }
    return rc;
}

static int g16_compute(void *pend, void *ctx, const cz_engine_device *dev, cz_part_times *t,
                       cz_errinfo *ei) {
    g16_job *j = ctx;
    g16_pend *pd = pend;
    const cz_groth16_gpu_key *key = NULL;
    int rc;
    if (dev->device < 0 && j->ctx != NULL && j->ctx->bk != NULL)
        return cz_fail(ei, CZ_EUNSUPPORTED,
                       "porep-synth: a benchmark key has its G1 bases on the GPU only (--gpu)");
    if (dev->device >= 0 && (rc = j->gpu_key(&key, j, dev->device, ei)) != CZ_OK)
        return rc;
    rc = cz_groth16_compute(pd->pp, key, dev->compute, ei);
    const cz_groth16_timings *tm = cz_groth16_pending_timings(pd->pp);
    t->ntt_h = tm->ntt_ms + tm->msm_h_ms;
    t->tail_msm = tm->msm_a_ms + tm->msm_b1_ms + tm->msm_c_ms;
    t->upload = tm->upload_ms;
    t->device = tm->gpu_ms;
    return rc;
}

static int g16_finish(uint8_t *out, void *pend, void *ctx, cz_part_times *t, cz_errinfo *ei) {
    g16_pend *pd = pend;
    cz_groth16_proof proof;
    int rc;
    rc = cz_groth16_finish(&proof, pd->pp, ei);
    t->g2_msm = cz_groth16_pending_timings(pd->pp)->msm_b2_ms;
    /* The G2 MSM (joined by a successful finish) was the witness's last reader: it goes back
     * now, while the partition's reservation still pays for it, and the pipeline's release
     * hands it to the pool. After a failure pend_free gives it back (joining the G2 MSM first). */
    if (rc == CZ_OK && pd->wit_owned) {
        cz_bufpool_put(j_bufs(ctx), pd->wit);
        pd->wit = NULL;
        pd->wit_owned = 0;
    }
    if (rc == CZ_OK)
        encode_proof(out, &proof);
    return rc;
}

static void pend_free(void *v, void *ctx) {
    g16_pend *pd = v;
    if (pd == NULL)
        return;
    cz_groth16_pending_free(pd->pp); /* joins a G2 MSM still running */
    if (pd->wit_owned)
        cz_bufpool_put(j_bufs(ctx), pd->wit);
    free(pd);
}

static int g16_verify(void *ctx, const uint8_t *proofs, size_t len, cz_errinfo *ei) {
    g16_job *j = ctx;
    size_t pb = cz_workload_proof_bytes(j->curve);
    for (uint32_t p = 0; p < j->nparts; p++) {
        cz_groth16_proof proof;
        cz_groth16_public pub = {j->curve, j->npub, j->pub + (size_t)p * j->npub};
        int rc;
        if ((size_t)(p + 1) * pb > len)
            return cz_fail(ei, CZ_EINTERNAL, "verify: %zu bytes for %u proofs", len, j->nparts);
        if ((rc = decode_proof(&proof, j->curve, proofs + (size_t)p * pb, ei)) != CZ_OK ||
            (rc = cz_groth16_verify(&j->vk, &pub, &proof, ei)) != CZ_OK)
            return cz_fail(ei, rc, "partition %u: the proof does not verify", p);
    }
    return CZ_OK;
}

/* A benchmark key's proofs cannot verify (no trapdoor ties its points to the circuit): its jobs
 * get this step instead, which says so once and accepts. Only porep-synth jobs on a context made
 * by cz_porep_synth_ctx_create_bench have it. */
static int g16_verify_skipped(void *ctx, const uint8_t *proofs, size_t len, cz_errinfo *ei) {
    static int said;
    (void)ctx;
    (void)proofs;
    (void)len;
    (void)ei;
    if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
        fprintf(stderr, "porep-synth: benchmark key: proofs are timed, not verified\n");
    return CZ_OK;
}

static void g16_destroy(void *ctx) {
    g16_job *j = ctx;
    if (j == NULL)
        return;
    cz_groth16_vk_free(&j->vk);
    free(j->pub);
    cz_wtns_close(j->w);
    free(j->wtns_copy);
    cz_srs_release(j->key);
    memset(j->r, 0, sizeof j->r);
    memset(j->s, 0, sizeof j->s);
    free(j);
}

/* The job has ended: its key reference and witness go now (EvictSRS need not wait until the
 * finished job is dropped); the verification data stays for destroy. */
static void g16_release(void *ctx) {
    g16_job *j = ctx;
    cz_srs_release(j->key);
    j->key = NULL;
    cz_wtns_close(j->w);
    j->w = NULL;
    free(j->wtns_copy);
    j->wtns_copy = NULL;
}

static const cz_workload_ops g16_ops = {
    .name = "groth16",
    .synthesize = g16_synthesize,
    .prepare = g16_prepare,
    .upload = g16_upload,
    .compute = g16_compute,
    .finish = g16_finish,
    .asg_free = asg_free,
    .pending_free = pend_free,
    .verify = g16_verify,
    .destroy = g16_destroy,
    .release = g16_release,
    .bind = g16_bind,
};
static const cz_workload_ops g16_bench_ops = {
    .name = "groth16-benchkey",
    .synthesize = g16_synthesize,
    .prepare = g16_prepare,
    .upload = g16_upload,
    .compute = g16_compute,
    .finish = g16_finish,
    .asg_free = asg_free,
    .pending_free = pend_free,
    .verify = g16_verify_skipped,
    .destroy = g16_destroy,
    .release = g16_release,
    .bind = g16_bind,
};

/* A job shell for zk: verification key, public-input table, blinding. */
static int job_new(g16_job **out, const cz_zkey *zk, uint32_t nparts,
                   const cz_workload_blinding *bl, cz_errinfo *ei) {
    g16_job *j = calloc(1, sizeof *j);
    int rc;
    *out = NULL;
    if (j == NULL)
        return cz_fail(ei, CZ_ENOMEM, "workload");
    j->curve = zk->curve;
    j->zk = zk;
    j->nparts = nparts;
    j->npub = zk->npublic;
    j->pub = calloc((size_t)nparts * (j->npub ? j->npub : 1), FR_BYTES);
    if (j->pub == NULL) {
        free(j);
        return cz_fail(ei, CZ_ENOMEM, "workload: public inputs");
    }
    if ((rc = cz_groth16_vk_from_zkey(&j->vk, zk, ei)) != CZ_OK) {
        free(j->pub);
        free(j);
        return rc;
    }
    if (bl != NULL && bl->r != NULL && bl->s != NULL) {
        j->fixed = 1;
        memcpy(j->r, bl->r, 32);
        memcpy(j->s, bl->s, 32);
    }
    *out = j;
    return CZ_OK;
}

/* wit_bytes: the pooled witness of a porep-synth partition (0 for zkey jobs: theirs is the job's).
 */
static void fill_workload(cz_workload *out, g16_job *j, uint64_t part_bytes, uint64_t abc_bytes,
                          uint64_t wit_bytes) {
    uint64_t v = (uint64_t)j->zk->domain_size * FR_BYTES;
    out->ops = &g16_ops;
    out->ctx = j;
    out->nparts = j->nparts;
    out->proof_bytes = cz_workload_proof_bytes(j->curve);
    out->part_bytes = part_bytes;
    out->part_abc_bytes = abc_bytes;
    out->buf_bytes[0] = v; /* a and b */
    out->buf_bytes[1] = v;
    out->buf_bytes[2] = wit_bytes;
}

/* ---- zkey jobs ---- */

static int zkey_synth(g16_asg *a, g16_job *j, uint32_t p, cz_reservation *res, cz_threadpool *pool,
                      cz_errinfo *ei) {
    (void)p;
    (void)res;
    a->wit = (uint64_t(*)[4])j->w->values; /* borrowed from the job */
    a->wit_owned = 0;
    return cz_groth16_eval(a->a, a->b, j->zk, j->w, pool, ei);
}

static int zkey_gpu_key(const cz_groth16_gpu_key **out, g16_job *j, int dev, cz_errinfo *ei) {
    void *k = NULL;
    int rc = cz_srs_key_device(&k, j->key, dev, ei);
    *out = k;
    return rc;
}

static int hook_create(void **ddata, const void *key, int device, void *arg, cz_errinfo *ei) {
    (void)arg;
    return cz_groth16_gpu_key_create((cz_groth16_gpu_key **)ddata, key, device, ei);
}
static void hook_free(void *ddata, void *arg) {
    (void)arg;
    cz_groth16_gpu_key_free(ddata);
}
const cz_srs_device_hooks cz_workload_zkey_gpu_hooks = {hook_create, hook_free, NULL};

int cz_workload_zkey(cz_workload *out, cz_srs_key *key, const void *wtns, size_t wtns_len,
                     const char *name, const cz_workload_blinding *bl, cz_errinfo *ei) {
    const cz_zkey *zk = cz_srs_key_data(key);
    g16_job *j = NULL;
    int rc;
    memset(out, 0, sizeof *out);
    if ((rc = job_new(&j, zk, 1, bl, ei)) != CZ_OK) {
        cz_srs_release(key);
        return rc;
    }
    j->key = key;
    j->synth = zkey_synth;
    j->gpu_key = zkey_gpu_key;
    j->wtns_copy = malloc(wtns_len ? wtns_len : 1);
    if (j->wtns_copy == NULL) {
        g16_destroy(j);
        return cz_fail(ei, CZ_ENOMEM, "workload: witness copy of %zu bytes", wtns_len);
    }
    memcpy(j->wtns_copy, wtns, wtns_len);
    if ((rc = cz_wtns_open_mem(&j->w, j->wtns_copy, wtns_len, name, ei)) != CZ_OK ||
        (rc = cz_wtns_check_against_zkey(j->w, zk, ei)) != CZ_OK) {
        g16_destroy(j);
        return rc;
    }
    /* a, b (and c on a CPU compute) plus the evaluation's index; a, b leave after compute */
    uint64_t v = (uint64_t)zk->domain_size * FR_BYTES;
    fill_workload(out, j, 3 * v + 4 * (uint64_t)zk->ncoefs, 2 * v, 0);
    return CZ_OK;
}

/* ---- the synthetic PoRep-shaped circuit ---- */

/* Montgomery -> standard form of a witness, in chunks over a pool. */
typedef struct {
    uint64_t (*mont)[4], (*std)[4];
    cz_curve_id curve;
    size_t n, chunk;
} to_std_job;

static void to_std_chunk(void *arg, size_t t) {
    to_std_job *c = arg;
    size_t lo = t * c->chunk, hi = lo + c->chunk < c->n ? lo + c->chunk : c->n;
    for (size_t i = lo; i < hi; i++)
        cz_r1cs_fr_to_std(c->std[i], c->curve, c->mont[i]);
}

static int porep_synth(g16_asg *a, g16_job *j, uint32_t p, cz_reservation *res, cz_threadpool *pool,
                       cz_errinfo *ei) {
    cz_porep_synth_ctx *ctx = j->ctx;
    cz_r1cs cs = ctx->cs; /* shallow: shared matrices, a witness of our own */
    size_t nvars = cs.nvars;
    int rc;
    cs.w = malloc(nvars * sizeof *cs.w);
    a->wit = cz_bufpool_get(j->bufs, nvars * sizeof *a->wit, res);
    a->wit_owned = 1;
    if (cs.w == NULL || a->wit == NULL) {
        free(cs.w);
        return cz_fail(ei, CZ_ENOMEM, "synthesis: witness of %zu values", nvars);
    }
    memcpy(cs.w[0], ctx->cs.w[0], sizeof cs.w[0]); /* w[0] = 1 */
    if ((rc = cz_porep_synth_witness(&cs, ctx->k, j->seed, p, pool, ei)) == CZ_OK)
        rc = cz_r1cs_eval(a->a, a->b, NULL, &cs, ctx->zk->domain_size, CZ_R1CS_EVAL_INPUT_ROWS,
                          pool, ei);
    if (rc == CZ_OK) {
        to_std_job tj = {cs.w, a->wit, cs.curve, nvars, (size_t)1 << 16};
        cz_threadpool_run(pool, to_std_chunk, &tj, (nvars + tj.chunk - 1) / tj.chunk);
    }
    free(cs.w);
    /* The Montgomery witness (counted in part_bytes, not pooled) is gone: its bytes leave the
     * partition's reservation now rather than at finish, so the next partition can start. */
    if (res != NULL && res->budget != NULL && res->bytes >= nvars * sizeof *cs.w)
        cz_reservation_release(res, nvars * sizeof *cs.w);
    return rc;
}

static int porep_gpu_key(const cz_groth16_gpu_key **out, g16_job *j, int dev, cz_errinfo *ei) {
    cz_porep_synth_ctx *ctx = j->ctx;
    int rc = CZ_OK;
    if (dev < 0 || dev >= CZ_ENGINE_MAX_DEVICES)
        return cz_fail(ei, CZ_EINVAL, "porep-synth: device %d", dev);
    pthread_mutex_lock(&ctx->lock);
    if (ctx->gpu[dev] == NULL && ctx->bk != NULL)
        rc = cz_groth16_gpu_key_create_progression(&ctx->gpu[dev], ctx->zk, ctx->bk->p0,
                                                   ctx->bk->step, dev, ei);
    else if (ctx->gpu[dev] == NULL)
        rc = cz_groth16_gpu_key_create(&ctx->gpu[dev], ctx->zk, dev, ei);
    *out = ctx->gpu[dev];
    pthread_mutex_unlock(&ctx->lock);
    return rc;
}

int cz_workload_porep_synth(cz_workload *out, cz_porep_synth_ctx *ctx, uint32_t nparts,
                            uint64_t seed, const cz_workload_blinding *bl, cz_errinfo *ei) {
    g16_job *j = NULL;
    int rc;
    memset(out, 0, sizeof *out);
    if (nparts == 0)
        return cz_fail(ei, CZ_EINVAL, "porep-synth: 0 partitions");
    if ((rc = job_new(&j, ctx->zk, nparts, bl, ei)) != CZ_OK)
        return rc;
    j->ctx = ctx;
    j->seed = seed;
    j->synth = porep_synth;
    j->gpu_key = porep_gpu_key;
    uint64_t v = (uint64_t)ctx->zk->domain_size * FR_BYTES;
    fill_workload(out, j, cz_porep_synth_ctx_part_bytes(ctx), 2 * v,
                  (uint64_t)ctx->cs.nvars * FR_BYTES);
    if (ctx->bk != NULL)
        out->ops = &g16_bench_ops;
    return CZ_OK;
}

uint64_t cz_porep_synth_ctx_part_bytes(const cz_porep_synth_ctx *ctx) {
    /* a, b, c (a CPU compute allocates c; a benchmark key computes on the GPU only, where c lives
     * on the device) + the partition's Montgomery and standard witnesses (the Montgomery one's
     * bytes are released at the end of synthesis) */
    uint64_t nvec = ctx->bk != NULL ? 2 : 3;
    return nvec * (uint64_t)ctx->zk->domain_size * FR_BYTES +
           2 * (uint64_t)ctx->cs.nvars * FR_BYTES;
}

const cz_zkey *cz_porep_synth_ctx_zkey(const cz_porep_synth_ctx *ctx) {
    return ctx->zk;
}

void cz_porep_synth_ctx_free(cz_porep_synth_ctx *ctx) {
    if (ctx == NULL)
        return;
    for (int d = 0; d < CZ_ENGINE_MAX_DEVICES; d++)
        cz_groth16_gpu_key_free(ctx->gpu[d]);
    if (ctx->bk != NULL)
        cz__bench_key_free(ctx->bk);
    else
        cz_zkey_close(ctx->zk);
    cz_r1cs_free(&ctx->cs);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
}

/* Makes the key file at path from cs (written as .r1cs next to it, read back, set up). */
static int make_key(const char *path, const cz_r1cs *cs, cz_threadpool *pool, cz_errinfo *ei) {
    char r1cs_path[4200], tmp[4200];
    cz_r1cs_file *rf = NULL;
    cz_groth16_trapdoor td;
    static const char seed[] = "cuzk porep-synth benchmark key (insecure)";
    int rc;
    if (strlen(path) >= 4096)
        return cz_fail(ei, CZ_EINVAL, "porep-synth: key path too long");
    snprintf(r1cs_path, sizeof r1cs_path, "%s.r1cs.tmp", path);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    if ((rc = cz_r1cs_write(r1cs_path, cs, ei)) != CZ_OK)
        return rc;
    rc = cz_r1cs_open(&rf, r1cs_path, ei);
    remove(r1cs_path);
    if (rc != CZ_OK)
        return rc;
    cz_groth16_trapdoor_from_seed(&td, (const uint8_t *)seed, sizeof seed - 1);
    rc = cz_groth16_setup(tmp, rf, &td, pool, ei);
    cz_r1cs_close(rf);
    if (rc == CZ_OK && rename(tmp, path) != 0)
        rc = cz_fail(ei, CZ_EIO, "porep-synth: cannot rename %s to %s", tmp, path);
    return rc;
}

/* A context with its circuit built (*out set even on failure, for the caller to free). */
static int ctx_new(cz_porep_synth_ctx **out, cz_curve_id curve, unsigned k, cz_threadpool *pool,
                   cz_errinfo *ei) {
    cz_porep_synth_ctx *ctx = calloc(1, sizeof *ctx);
    *out = ctx;
    if (ctx == NULL)
        return cz_fail(ei, CZ_ENOMEM, "porep-synth context");
    ctx->curve = curve;
    ctx->k = k;
    CZ_ASSERT(pthread_mutex_init(&ctx->lock, NULL) == 0);
    return cz_porep_synth_build(&ctx->cs, curve, k, pool, ei);
}

int cz_porep_synth_ctx_create(cz_porep_synth_ctx **out, cz_curve_id curve, unsigned k,
                              const char *cache_dir, cz_threadpool *pool, cz_errinfo *ei) {
    cz_porep_synth_ctx *ctx;
    char path[4096];
    struct stat st;
    int rc;
    *out = NULL;
    if ((rc = ctx_new(&ctx, curve, k, pool, ei)) != CZ_OK)
        goto fail;
    mkdir(cache_dir, 0755);
    snprintf(path, sizeof path, "%s/porep-synth-%s-%u.zkey", cache_dir,
             curve == CZ_CURVE_BN254 ? "bn254" : "bls12381", k);
    if (stat(path, &st) != 0 && (rc = make_key(path, &ctx->cs, pool, ei)) != CZ_OK)
        goto fail;
    if ((rc = cz_zkey_open(&ctx->zk, path, ei)) != CZ_OK)
        goto fail;
    if (ctx->zk->nvars != ctx->cs.nvars || ctx->zk->npublic != ctx->cs.npublic) {
        rc = cz_fail(ei, CZ_EFORMAT, "porep-synth: %s does not belong to the scale-%u circuit",
                     path, k);
        goto fail;
    }
    *out = ctx;
    return CZ_OK;
fail:
    cz_porep_synth_ctx_free(ctx);
    return rc;
}

int cz_porep_synth_ctx_create_bench(cz_porep_synth_ctx **out, cz_curve_id curve, unsigned k,
                                    cz_threadpool *pool, cz_errinfo *ei) {
    cz_porep_synth_ctx *ctx;
    int rc;
    *out = NULL;
    if ((rc = ctx_new(&ctx, curve, k, pool, ei)) != CZ_OK ||
        (rc = cz__bench_key_make(&ctx->bk, &ctx->cs, k, 0x70726570ull + k, pool, ei)) != CZ_OK) {
        cz_porep_synth_ctx_free(ctx);
        return rc;
    }
    ctx->zk = &ctx->bk->zk;
    *out = ctx;
    return CZ_OK;
}

int cz_porep_synth_ctx_is_bench(const cz_porep_synth_ctx *ctx) {
    return ctx->bk != NULL;
}

uint64_t cz_porep_synth_ctx_host_bytes(const cz_porep_synth_ctx *ctx) {
    const cz_r1cs *cs = &ctx->cs;
    uint64_t b = (uint64_t)cs->nvars * 32 + (uint64_t)cs->ncoefs * 32;
    const cz_r1cs_mat *m[3] = {&cs->a, &cs->b, &cs->c};
    for (int i = 0; i < 3; i++)
        b += ((uint64_t)cs->nrows + 1) * 8 + m[i]->nnz * 8;
    if (ctx->bk != NULL)
        b += ctx->bk->b2_bytes + ((uint64_t)cs->npublic + 1) * 96;
    return b;
}
