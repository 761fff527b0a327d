/*
 * The Groth16 partition task shared by the engine's Groth16 workloads: see g16_task.h for the
 * steps, the key sources and the buffers' ownership.
 */
#include "engine/g16_task.h"

#include <stdlib.h>
#include <string.h>

#include "engine/part_task.h"

#define FR_BYTES 32

/* ---- GPU keys ---- */

void cz__g16_keys_init(cz__g16_keys *k, const cz_zkey *zk, const void *p0, const void *step) {
    memset(k, 0, sizeof *k);
    CZ_ASSERT(pthread_mutex_init(&k->lock, NULL) == 0);
    k->zk = zk;
    k->p0 = p0;
    k->step = step;
}

void cz__g16_keys_fini(cz__g16_keys *k) {
    for (int d = 0; d < CZ_ENGINE_MAX_DEVICES; d++)
        cz_groth16_gpu_key_free(k->gpu[d]);
    pthread_mutex_destroy(&k->lock);
}

static int keys_get(const cz_groth16_gpu_key **out, cz__g16_keys *k, int dev, cz_errinfo *ei) {
    int rc = CZ_OK;
    if (dev < 0 || dev >= CZ_ENGINE_MAX_DEVICES)
        return cz_fail(ei, CZ_EINVAL, "GPU key: device %d", dev);
    pthread_mutex_lock(&k->lock);
    if (k->gpu[dev] == NULL && k->p0 != NULL)
        rc = cz_groth16_gpu_key_create_progression(&k->gpu[dev], k->zk, k->p0, k->step, dev, ei);
    else if (k->gpu[dev] == NULL)
        rc = cz_groth16_gpu_key_create(&k->gpu[dev], k->zk, dev, ei);
    *out = k->gpu[dev];
    pthread_mutex_unlock(&k->lock);
    return rc;
}

/* The job's GPU key on dev (a GPU index). */
static int gpu_key(const cz_groth16_gpu_key **out, cz__g16_job *j, int dev, cz_errinfo *ei) {
    void *k = NULL;
    int rc;
    if (j->keys != NULL)
        return keys_get(out, j->keys, dev, ei);
    rc = cz_srs_key_device(&k, j->key, dev, NULL, ei);
    *out = k;
    return rc;
}

/* ---- the job ---- */

int cz__g16_job_init(cz__g16_job *j, const cz_zkey *zk, uint32_t nparts,
                     const cz_workload_blinding *bl, cz_errinfo *ei) {
    int rc;
    memset(j, 0, sizeof *j);
    j->zk = zk;
    j->nparts = nparts;
    j->npub = zk->npublic;
    if ((rc = cz__task_pub_alloc(&j->pub, nparts, j->npub, ei)) != CZ_OK)
        return rc;
    if ((rc = cz_groth16_vk_from_zkey(&j->vk, zk, ei)) != CZ_OK) {
        free(j->pub);
        j->pub = NULL;
        return rc;
    }
    if (bl != NULL && bl->r != NULL && bl->s != NULL) {
        j->fixed = 1;
        memcpy(j->r, bl->r, 32);
        memcpy(j->s, bl->s, 32);
    }
    return CZ_OK;
}

void cz__g16_job_release(cz__g16_job *j) {
    cz_srs_release(j->key);
    j->key = NULL;
}

void cz__g16_job_fini(cz__g16_job *j) {
    cz__g16_job_release(j);
    if (j->pub != NULL) /* else init failed before the key */
        cz_groth16_vk_free(&j->vk);
    free(j->pub);
    j->pub = NULL;
    memset(j->r, 0, sizeof j->r);
    memset(j->s, 0, sizeof j->s);
}

void cz__g16_workload(cz_workload *out, const cz_workload_ops *ops, void *job, cz__g16_job *j,
                      cz_proof_kind kind, uint64_t part_bytes, uint64_t wit_bytes) {
    uint64_t v = (uint64_t)j->zk->domain_size * FR_BYTES;
    /* a and b leave after the kernel region */
    cz__task_workload_init(out, ops, job, j->nparts, kind, part_bytes, 2 * v);
    out->buf_bytes[0] = v;
    out->buf_bytes[1] = v;
    out->buf_bytes[2] = wit_bytes;
}

/* ---- a partition ---- */

void cz__g16_part_free(void *v, void *job) {
    cz__g16_part *pt = v;
    (void)job;
    if (pt == NULL)
        return;
    cz_groth16_pending_free(pt->pp); /* joins a G2 MSM still running; gives a, b back */
    cz_mem_put(pt->mem, pt->a);
    cz_mem_put(pt->mem, pt->b);
    if (pt->wit_owned)
        cz_mem_put(pt->mem, pt->wit);
    free(pt);
}

int cz__g16_part_new(cz__g16_part **out, const cz__g16_job *j, const cz_part_env *env,
                     cz_errinfo *ei) {
    cz__g16_part *pt = calloc(1, sizeof *pt);
    size_t vbytes = (size_t)j->zk->domain_size * FR_BYTES;
    *out = NULL;
    if (pt == NULL)
        return cz_fail(ei, CZ_ENOMEM, "synthesis: partition state");
    pt->mem = env->mem;
    pt->a = cz_mem_get(env->mem, vbytes, env->res);
    pt->b = cz_mem_get(env->mem, vbytes, env->res);
    if (pt->a == NULL || pt->b == NULL) {
        cz__g16_part_free(pt, NULL);
        return cz_fail(ei, CZ_ENOMEM, "synthesis: 2 x %zu bytes of evaluations", vbytes);
    }
    *out = pt;
    return CZ_OK;
}

int cz__g16_part_end(void **out, cz__g16_job *j, cz__g16_part *pt, uint32_t p, int rc) {
    if (rc != CZ_OK) {
        cz__g16_part_free(pt, NULL);
        return rc;
    }
    memcpy(j->pub + (size_t)p * j->npub, pt->wit + 1, (size_t)j->npub * FR_BYTES);
    *out = pt;
    return CZ_OK;
}

/* The pending proof's release hook for a and b. */
static void buf_back(void *mem, void *p) {
    cz_mem_put(mem, p);
}

int cz__g16_prepare(void *part, void *job, const cz_engine_device *dev, cz_part_times *t,
                    cz_errinfo *ei) {
    cz__g16_job *j = job;
    cz__g16_part *pt = part;
    const cz_groth16_gpu_key *key = NULL;
    int rc;
    (void)t;
    /* The device's key (made here on first use, outside the device lock): one with B2 runs the
     * G2 MSM in compute on the GPU, so no G2 thread is started for it. */
    if (dev->device >= 0 && (rc = gpu_key(&key, j, dev->device, ei)) != CZ_OK)
        return rc;
    /* a and b go to the pending proof (begin gives them back if it fails). */
    rc = cz_groth16_begin_pooled(&pt->pp, j->zk, (const uint64_t(*)[4])pt->wit, pt->a, pt->b,
                                 buf_back, pt->mem, j->fixed ? j->r : NULL, j->fixed ? j->s : NULL,
                                 ei);
    pt->a = pt->b = NULL;
    if (rc == CZ_OK && !cz_groth16_gpu_key_has_g2(key))
        rc = cz_groth16_g2_start(pt->pp, dev->cpu, ei);
    return rc;
}

/* Outside the device lock: a, b and the witness into the GPU worker's buffers (a and b go back
 * to the pool). Nothing to do on the CPU backend or without worker buffers. */
int cz__g16_upload(void *part, void *job, const cz_engine_device *dev, cz_part_times *t,
                   cz_errinfo *ei) {
    cz__g16_part *pt = part;
    int rc;
    (void)job;
    if (dev->device < 0 || dev->ws == NULL)
        return CZ_OK;
    rc = cz_groth16_upload(pt->pp, dev->ws, ei);
    t->upload = cz_groth16_pending_timings(pt->pp)->upload_ms;
    /* a and b were not given back either: compute uploads them into buffers of its own */
    if (cz__task_upload_deferred(rc, dev, ei))
        return CZ_OK;
    return rc;
}

int cz__g16_compute(void *part, void *job, const cz_engine_device *dev, cz_part_times *t,
                    cz_errinfo *ei) {
    cz__g16_job *j = job;
    cz__g16_part *pt = part;
    const cz_groth16_gpu_key *key = NULL;
    int rc;
    if (dev->device < 0 && j->keys != NULL && j->keys->p0 != NULL)
        return cz_fail(ei, CZ_EUNSUPPORTED,
                       "a benchmark key has its G1 bases on the GPU only (--gpu)");
    if (dev->device >= 0 && (rc = gpu_key(&key, j, dev->device, ei)) != CZ_OK)
        return rc;
    rc = cz_groth16_compute(pt->pp, key, dev->compute, ei);
    cz__task_compute_times(t, cz_groth16_pending_timings(pt->pp));
    return rc;
}

int cz__g16_finish(cz_groth16_proof *proof, void *part, void *job, cz_part_times *t,
                   cz_errinfo *ei) {
    cz__g16_part *pt = part;
    int rc;
    (void)job;
    rc = cz_groth16_finish(proof, pt->pp, ei);
    t->g2_msm = cz_groth16_pending_timings(pt->pp)->msm_b2_ms;
    /* The G2 MSM (joined by a successful finish) was the witness's last reader: it goes back
     * now, while the partition's reservation still pays for it, and the pipeline's release
     * hands it to the manager. After a failure part_free gives it back (joining the G2 MSM). */
    if (rc == CZ_OK && pt->wit_owned) {
        cz_mem_put(pt->mem, pt->wit);
        pt->wit = NULL;
        pt->wit_owned = 0;
    }
    return rc;
}

/* A benchmark key's proofs cannot verify (no trapdoor ties its points to the circuit): its jobs
 * skip the check, and say so once. */
int cz__g16_verify(void *job, const cz_groth16_proof *proofs, uint32_t nparts, cz_errinfo *ei) {
    cz__g16_job *j = job;
    static int said;
    if (cz__task_verify_skipped(j->skip_verify, &said, "porep-synth"))
        return CZ_OK;
    if (nparts != j->nparts)
        return cz_fail(ei, CZ_EINTERNAL, "verify: %u proofs for %u partitions", nparts, j->nparts);
    for (uint32_t p = 0; p < nparts; p++) {
        cz_groth16_public pub = {j->zk->curve, j->npub, j->pub + (size_t)p * j->npub};
        int rc = cz_groth16_verify(&j->vk, &pub, &proofs[p], ei);
        if (rc != CZ_OK)
            return cz_fail(ei, rc, "partition %u: the proof does not verify", p);
    }
    return CZ_OK;
}
