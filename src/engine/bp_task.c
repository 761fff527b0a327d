/*
 * The bellperson partition task shared by the engine's bellperson workloads: see bp_task.h for
 * the steps and the buffers' ownership.
 */
#include "engine/bp_task.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/gpu.h"
#include "cuzk/log.h"
#include "cuzk/r1cs.h"
#include "engine/part_task.h"

#define FR_BYTES 32

/* ---- GPU keys ---- */

void cz__bp_keys_init(cz__bp_keys *k, const cz_bellperson_params *params) {
    memset(k, 0, sizeof *k);
    CZ_ASSERT(pthread_mutex_init(&k->lock, NULL) == 0);
    k->params = params;
}

void cz__bp_keys_fini(cz__bp_keys *k) {
    for (int d = 0; d < CZ_ENGINE_MAX_DEVICES; d++)
        cz_groth16_bp_gpu_key_free(k->gpu[d]);
    pthread_mutex_destroy(&k->lock);
}

/* The key on dev, made from shape's densities on first use. */
static int keys_get(const cz_groth16_bp_gpu_key **out, cz__bp_keys *k, int dev,
                    const cz_assignment *shape, cz_errinfo *ei) {
    int rc = CZ_OK;
    if (dev < 0 || dev >= CZ_ENGINE_MAX_DEVICES)
        return cz_fail(ei, CZ_EINVAL, "GPU key: device %d", dev);
    pthread_mutex_lock(&k->lock);
    if (k->gpu[dev] == NULL && k->bench)
        rc = cz_groth16_bp_gpu_key_create_bench(&k->gpu[dev], k->params, shape, dev, ei);
    else if (k->gpu[dev] == NULL)
        rc = cz_groth16_bp_gpu_key_create(&k->gpu[dev], k->params, shape, dev, ei);
    *out = k->gpu[dev];
    pthread_mutex_unlock(&k->lock);
    return rc;
}

/* The job's key on dev: from its key cache, or the SRS manager's device data of its key. */
static int gpu_key(const cz_groth16_bp_gpu_key **out, cz__bp_job *j, int dev,
                   const cz_assignment *shape, cz_errinfo *ei) {
    void *k = NULL;
    int rc;
    if (j->keys != NULL)
        return keys_get(out, j->keys, dev, shape, ei);
    rc = cz_srs_key_device(&k, j->key, dev, shape, ei);
    *out = k;
    return rc;
}

/* ---- the job ---- */

int cz__bp_job_init(cz__bp_job *j, const cz_bellperson_params *params, uint32_t nparts,
                    const cz_workload_blinding *bl, cz_errinfo *ei) {
    int rc;
    memset(j, 0, sizeof *j);
    j->params = params;
    j->nparts = nparts;
    j->npub = params->vk.nic - 1;
    if ((rc = cz__task_pub_alloc(&j->pub, nparts, j->npub, ei)) != CZ_OK)
        return rc;
    if (bl != NULL && bl->r != NULL && bl->s != NULL) {
        if (cz_bls12381_fr_from_bytes_le(&j->r, bl->r) != CZ_OK ||
            cz_bls12381_fr_from_bytes_le(&j->s, bl->s) != CZ_OK) {
            free(j->pub);
            j->pub = NULL;
            return cz_fail(ei, CZ_ERANGE, "workload: a blinding factor is not below r");
        }
        j->fixed = 1;
    }
    /* a benchmark key has no IC points: its proofs are not verified */
    if (params->vk.ic != NULL &&
        (rc = cz_groth16_vk_from_bellperson(&j->vk, &params->vk, ei)) != CZ_OK) {
        free(j->pub);
        j->pub = NULL;
        return rc;
    }
    return CZ_OK;
}

void cz__bp_job_release(cz__bp_job *j) {
    cz_srs_release(j->key);
    j->key = NULL;
}

void cz__bp_job_fini(cz__bp_job *j) {
    cz__bp_job_release(j);
    cz_groth16_vk_free(&j->vk);
    free(j->pub);
    j->pub = NULL;
    memset(&j->r, 0, sizeof j->r);
    memset(&j->s, 0, sizeof j->s);
}

/* Whether j's partitions carry w alone (a, b, c computed on the GPU from the circuit's
 * matrices). */
static int w_alone(const cz__bp_job *j) {
    return j->circ != NULL && j->circ->abc_on_gpu;
}

/* The bytes of each of a partition's pooled a, b and c (none when it carries w alone). */
static uint64_t abc_bytes(const cz__bp_job *j) {
    return w_alone(j) ? 0 : (uint64_t)j->abc_size * FR_BYTES;
}

int cz__bp_compact(const cz__bp_job *j) {
    return w_alone(j) && j->circ->r.booleans != NULL;
}

/* A compact witness's bits, rounded up to whole elements (its values follow them). */
static size_t bits_bytes(const cz__bp_job *j) {
    return cz_r1cs_bool_bytes_aligned((uint32_t)(j->ninput + j->naux));
}

/* The bytes of a partition's pooled w: compact, or in full. */
static uint64_t w_bytes(const cz__bp_job *j) {
    if (cz__bp_compact(j))
        return bits_bytes(j) + (uint64_t)j->circ->nvals * FR_BYTES;
    return ((uint64_t)j->ninput + j->naux) * FR_BYTES;
}

void cz__bp_workload(cz_workload *out, const cz_workload_ops *ops, void *job, cz__bp_job *j,
                     cz_proof_kind kind, uint64_t part_bytes) {
    uint64_t v = abc_bytes(j);
    /* a, b and c leave after the kernel region */
    cz__task_workload_init(out, ops, job, j->nparts, kind, part_bytes, 3 * v);
    out->buf_bytes[0] = v;
    out->buf_bytes[1] = v;
    out->buf_bytes[2] = v;
    out->buf_bytes[3] = w_bytes(j);
}

/* ---- a partition ---- */

/* Gives the vectors a, b, c back to the pool, or frees the partition's own (after their upload,
 * or at the end). */
static void abc_back(cz__bp_part *pt) {
    if (pt->abc_own) {
        cz_host_free(pt->a);
        cz_host_free(pt->b);
        cz_host_free(pt->c);
        pt->abc_own = 0;
    } else {
        cz_mem_put(pt->mem, pt->a);
        cz_mem_put(pt->mem, pt->b);
        cz_mem_put(pt->mem, pt->c);
    }
    pt->a = pt->b = pt->c = NULL;
    pt->as.a = pt->as.b = pt->as.c = NULL;
}

void cz__bp_part_free(void *v, void *job) {
    cz__bp_part *pt = v;
    (void)job;
    if (pt == NULL)
        return;
    cz_groth16_bp_pending_free(pt->pp); /* joins a G2 MSM still running */
    abc_back(pt);
    cz_mem_put(pt->mem, pt->w);
    cz_host_free(pt->w_own);
    free(pt);
}

int cz__bp_part_new(cz__bp_part **out, const cz__bp_job *j, const cz_part_env *env,
                    cz_errinfo *ei) {
    cz__bp_part *pt = calloc(1, sizeof *pt);
    size_t vbytes = j->abc_size * FR_BYTES, wbytes = w_bytes(j);
    *out = NULL;
    if (pt == NULL)
        return cz_fail(ei, CZ_ENOMEM, "synthesis: partition state");
    const int abc = !w_alone(j);
    pt->mem = env->mem;
    if (abc) {
        pt->a = cz_mem_get(env->mem, vbytes, env->res);
        pt->b = cz_mem_get(env->mem, vbytes, env->res);
        pt->c = cz_mem_get(env->mem, vbytes, env->res);
    }
    pt->w = cz_mem_get(env->mem, wbytes, env->res);
    if ((abc && (pt->a == NULL || pt->b == NULL || pt->c == NULL)) || pt->w == NULL) {
        cz__bp_part_free(pt, NULL);
        return cz_fail(ei, CZ_ENOMEM, "synthesis: 3 x %zu + %zu bytes of the assignment", vbytes,
                       wbytes);
    }
    pt->as = (cz_assignment){.a = pt->a,
                             .b = pt->b,
                             .c = pt->c,
                             .abc_size = j->abc_size,
                             .input = pt->w,
                             .ninput = j->ninput,
                             .aux = pt->w + j->ninput,
                             .naux = j->naux,
                             .a_aux_density = j->a_aux,
                             .b_input_density = j->b_in,
                             .b_aux_density = j->b_aux};
    if (cz__bp_compact(j)) {
        pt->bits = (uint64_t *)pt->w;
        pt->vals = (cz_bls12381_fr *)((uint8_t *)pt->w + bits_bytes(j));
        pt->as.input = pt->vals;
        pt->as.aux = NULL;
    }
    *out = pt;
    return CZ_OK;
}

int cz__bp_part_end(void **out, cz__bp_job *j, cz__bp_part *pt, uint32_t p, int rc) {
    if (rc != CZ_OK) {
        cz__bp_part_free(pt, NULL);
        return rc;
    }
    for (uint32_t i = 0; i < j->npub; i++)
        cz_r1cs_fr_to_std(j->pub[(size_t)p * j->npub + i], CZ_CURVE_BLS12381,
                          pt->as.input[1 + i].l);
    *out = pt;
    return CZ_OK;
}

/* Whether this is the first time *flag (a warning of c's, under its lock) is asked: it is set. */
static int first_time(cz__bp_circuit *c, int *flag) {
    int first;
    pthread_mutex_lock(&c->lock);
    first = !*flag;
    *flag = 1;
    pthread_mutex_unlock(&c->lock);
    return first;
}

/* pt's witness in full on the host: a compact one expanded into a buffer of pt's own (outside
 * the memory budget: the fallbacks only, one warning per circuit); nothing for a full one. */
static int w_on_host(cz__bp_part *pt, const cz__bp_job *j, cz_threadpool *pool, cz_errinfo *ei) {
    cz__bp_circuit *c = j->circ;
    const size_t bytes = (j->ninput + j->naux) * FR_BYTES;
    int rc;
    if (pt->as.aux != NULL || pt->bits == NULL)
        return CZ_OK;
    if (first_time(c, &c->warned_w))
        CZ_LOG_WARN("the compact witnesses of the circuit's partitions are expanded on the CPU, "
                    "outside the memory budget (%zu MiB each)",
                    bytes >> 20);
    if ((pt->w_own = cz_host_alloc(bytes, 0)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "the witness on the CPU: %zu bytes", bytes);
    if ((rc = cz_r1cs_witness_expand((uint64_t(*)[4])pt->w_own, &c->r, pt->bits,
                                     (const uint64_t(*)[4])pt->vals, pool, ei)) != CZ_OK) {
        cz_host_free(pt->w_own);
        pt->w_own = NULL;
        return rc;
    }
    pt->as.input = pt->w_own;
    pt->as.aux = pt->w_own + j->ninput;
    return CZ_OK;
}

int cz__bp_prepare(void *part, void *job, const cz_engine_device *dev, cz_part_times *t,
                   cz_errinfo *ei) {
    cz__bp_job *j = job;
    cz__bp_part *pt = part;
    const cz_groth16_bp_gpu_key *key = NULL;
    int rc;
    (void)t;
    if (dev->device >= 0 && (rc = gpu_key(&key, j, dev->device, &pt->as, ei)) != CZ_OK)
        return rc;
    /* the G2 MSM on the CPU reads the aux values: a compact witness expanded first */
    if (!cz_groth16_bp_gpu_key_has_g2(key) && (rc = w_on_host(pt, j, dev->cpu, ei)) != CZ_OK)
        return rc;
    rc = cz_groth16_bp_begin(&pt->pp, j->params, &pt->as, j->fixed ? &j->r : NULL,
                             j->fixed ? &j->s : NULL, ei);
    if (rc == CZ_OK && !cz_groth16_bp_gpu_key_has_g2(key))
        rc = cz_groth16_bp_g2_start(pt->pp, dev->cpu, ei);
    return rc;
}

/* ---- a, b, c of a partition that carries w alone ---- */

/* The circuit's matrices on dev, uploaded on first use; NULL (no error) when the device cannot
 * hold them (remembered: not tried again). */
static const cz_gpu_r1cs *circuit_on_device(cz__bp_circuit *c, int dev) {
    const cz_r1cs *r = &c->r;
    cz_gpu_r1cs *m;
    if (dev < 0 || dev >= CZ_ENGINE_MAX_DEVICES)
        return NULL;
    pthread_mutex_lock(&c->lock);
    if (c->dev[dev] == NULL && !c->no_dev[dev]) {
        cz_gpu_r1cs_host h;
        cz_errinfo ei;
        cz_r1cs_gpu_view(&h, r);
        cz_errinfo_clear(&ei);
        if (cz_bls12381_gpu_r1cs_upload(&c->dev[dev], &h, dev, &ei) != CZ_OK) {
            c->no_dev[dev] = 1;
            CZ_LOG_WARN("GPU %d: the circuit's matrices (%u rows) stay on the host, a, b, c are "
                        "computed on the CPU: %s",
                        dev, r->nrows, ei.msg);
        } else
            CZ_LOG_INFO("GPU %d: the circuit's matrices (%u rows) resident, %zu MiB", dev, r->nrows,
                        cz_gpu_r1cs_bytes(c->dev[dev]) >> 20);
    }
    m = c->dev[dev];
    pthread_mutex_unlock(&c->lock);
    return m;
}

/* a, b, c of pt from the circuit's matrices on the CPU (pool), into buffers of pt's own. */
static int abc_on_host(cz__bp_part *pt, const cz__bp_job *j, cz_threadpool *pool, cz_errinfo *ei) {
    cz__bp_circuit *c = j->circ;
    size_t bytes = pt->as.abc_size * FR_BYTES;
    cz_r1cs r = c->r; /* a view: the witness is the partition's */
    int rc;
    if ((rc = w_on_host(pt, j, pool, ei)) != CZ_OK)
        return rc;
    if (first_time(c, &c->warned))
        CZ_LOG_WARN("a, b, c of the circuit's partitions (%u rows) are computed on the CPU, "
                    "outside the memory budget (%zu MiB each)",
                    c->r.nrows, 3 * bytes >> 20);
    pt->a = cz_host_alloc(bytes, 0);
    pt->b = cz_host_alloc(bytes, 0);
    pt->c = cz_host_alloc(bytes, 0);
    pt->abc_own = 1;
    pt->as.a = pt->a;
    pt->as.b = pt->b;
    pt->as.c = pt->c;
    if (pt->a == NULL || pt->b == NULL || pt->c == NULL) {
        abc_back(pt);
        return cz_fail(ei, CZ_ENOMEM, "a, b, c on the CPU: 3 x %zu bytes", bytes);
    }
    r.w = (uint64_t(*)[4])pt->as.input; /* input | aux, one array */
    if ((rc = cz_r1cs_eval((uint64_t(*)[4])pt->a, (uint64_t(*)[4])pt->b, (uint64_t(*)[4])pt->c, &r,
                           pt->as.abc_size, CZ_R1CS_EVAL_INPUT_ROWS, pool, ei)) != CZ_OK)
        abc_back(pt);
    return rc;
}

int cz__bp_reserve(void *job, const cz_engine_device *dev, cz_errinfo *ei) {
    cz__bp_job *j = job;
    const cz_gpu_r1cs *m = NULL;
    size_t need, had, free_b = 0, total_b = 0, region;
    cz_errinfo sub;
    int rc;
    if (dev->device < 0 || dev->ws == NULL)
        return CZ_OK;
    if (w_alone(j))
        m = circuit_on_device(j->circ, dev->device);
    need = cz_groth16_bp_gpu_ws_need(j->params, j->ninput + j->naux,
                                     m != NULL && cz__bp_compact(j) ? m : NULL);
    had = cz_groth16_gpu_ws_bytes(dev->ws);
    if ((rc = cz_groth16_gpu_ws_reserve(dev->ws, need, ei)) != CZ_OK || had >= need)
        return rc;
    /* a workspace that leaves the kernel region no room is no use: the engine gives it back
     * when the device has another */
    cz_errinfo_clear(&sub);
    region = cz_groth16_bp_gpu_region_bytes(j->params);
    if (cz_gpu_mem_info(&free_b, &total_b, dev->device, &sub) == CZ_OK && free_b < region)
        return cz_fail(ei, CZ_ENOMEM,
                       "GPU %d: %zu MiB free beside a %zu MiB workspace, the kernels need %zu MiB",
                       dev->device, free_b >> 20, need >> 20, region >> 20);
    return CZ_OK;
}

int cz__bp_upload(void *part, void *job, const cz_engine_device *dev, cz_part_times *t,
                  cz_errinfo *ei) {
    cz__bp_job *j = job;
    cz__bp_part *pt = part;
    const cz_gpu_r1cs *m = NULL;
    int rc;
    if (dev->device < 0 || dev->ws == NULL)
        return CZ_OK;
    if (pt->a == NULL && (m = circuit_on_device(j->circ, dev->device)) == NULL &&
        (rc = abc_on_host(pt, j, dev->cpu, ei)) != CZ_OK)
        return rc;
    if (m == NULL)
        rc = cz_groth16_bp_upload(pt->pp, dev->ws, ei);
    else if (pt->as.aux == NULL) /* compact */
        rc = cz_groth16_bp_upload_compact(pt->pp, dev->ws, m, pt->bits, pt->vals, ei);
    else
        rc = cz_groth16_bp_upload_eval(pt->pp, dev->ws, m, ei);
    t->upload = cz_groth16_bp_pending_timings(pt->pp)->upload_ms;
    if (rc == CZ_OK) {
        abc_back(pt); /* on the device now: not read again */
    } else if (cz__task_upload_deferred(rc, dev, ei)) {
        rc = pt->a == NULL ? abc_on_host(pt, j, dev->cpu, ei) : CZ_OK;
    }
    return rc;
}

int cz__bp_compute(void *part, void *job, const cz_engine_device *dev, cz_part_times *t,
                   cz_errinfo *ei) {
    cz__bp_job *j = job;
    cz__bp_part *pt = part;
    const cz_groth16_bp_gpu_key *key = NULL;
    int rc;
    if (dev->device < 0 && j->keys != NULL && j->keys->bench)
        return cz_fail(ei, CZ_EUNSUPPORTED,
                       "a benchmark key has its bases on the GPU only (--gpu)");
    if (dev->device >= 0 && (rc = gpu_key(&key, j, dev->device, &pt->as, ei)) != CZ_OK)
        return rc;
    /* a partition that carries w alone that upload skipped (the CPU backend) */
    if (pt->a == NULL && (dev->device < 0 || dev->ws == NULL) &&
        (rc = abc_on_host(pt, j, dev->compute, ei)) != CZ_OK)
        return rc;
    rc = cz_groth16_bp_compute(pt->pp, key, dev->compute, ei);
    cz__task_compute_times(t, cz_groth16_bp_pending_timings(pt->pp));
    return rc;
}

int cz__bp_finish(cz_groth16_proof *proof, void *part, void *job, cz_part_times *t,
                  cz_errinfo *ei) {
    cz__bp_part *pt = part;
    int rc;
    (void)job;
    rc = cz_groth16_bp_finish(proof, pt->pp, ei);
    t->g2_msm = cz_groth16_bp_pending_timings(pt->pp)->msm_b2_ms;
    return rc;
}

int cz__bp_verify(void *job, const cz_groth16_proof *proofs, uint32_t nparts, cz_errinfo *ei) {
    cz__bp_job *j = job;
    cz_groth16_public *pubs;
    static int said;
    int rc;
    if (cz__task_verify_skipped(j->skip_verify, &said, "bellperson"))
        return CZ_OK;
    if (nparts != j->nparts)
        return cz_fail(ei, CZ_EINTERNAL, "verify: %u proofs for %u partitions", nparts, j->nparts);
    if ((pubs = calloc(nparts, sizeof *pubs)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "verify: public inputs");
    for (uint32_t p = 0; p < nparts; p++)
        pubs[p] = (cz_groth16_public){CZ_CURVE_BLS12381, j->npub, j->pub + (size_t)p * j->npub};
    rc = cz_groth16_verify_batch(&j->vk, pubs, proofs, nparts, ei);
    free(pubs);
    if (rc == CZ_EVERIFY)
        return cz_fail(ei, rc, "the job's %u partition proofs do not verify", nparts);
    return rc;
}

/* ---- recorded circuits ---- */

int cz__bp_circuit_ready(cz__bp_circuit *c, cz_threadpool *pool, cz_errinfo *ei) {
    int rc = cz_r1cs_densities(&c->a_aux, &c->b_input, &c->b_aux, &c->r, pool, ei);
    c->nvals = cz_r1cs_nvals(&c->r);
    CZ_ASSERT(pthread_mutex_init(&c->lock, NULL) == 0);
    c->lock_made = 1;
    free(c->r.w); /* the recording's zero witness: every partition brings its own */
    c->r.w = NULL;
    return rc;
}

void cz__bp_circuit_fini(cz__bp_circuit *c) {
    for (int d = 0; d < CZ_ENGINE_MAX_DEVICES; d++)
        cz_gpu_r1cs_free(c->dev[d]);
    if (c->lock_made)
        pthread_mutex_destroy(&c->lock);
    cz_r1cs_free(&c->r);
    free(c->a_aux);
    free(c->b_input);
    free(c->b_aux);
    memset(c, 0, sizeof *c);
}

void cz__bp_workload_of(cz_workload *out, const cz_workload_ops *ops, void *job, cz__bp_job *j,
                        cz_proof_kind kind, cz__bp_circuit *c) {
    const cz_r1cs *r = &c->r;
    uint64_t v;
    j->circ = c;
    j->a_aux = c->a_aux;
    j->b_in = c->b_input;
    j->b_aux = c->b_aux;
    j->ninput = (size_t)r->npublic + 1;
    j->naux = r->naux;
    j->abc_size = (size_t)r->nrows + j->ninput;
    v = abc_bytes(j);
    cz__bp_workload(out, ops, job, j, kind, 3 * v + w_bytes(j) + (uint64_t)j->ninput * FR_BYTES);
}

int cz__bp_part_inputs_check(const cz__bp_part *pt, const cz__bp_job *j,
                             const uint64_t (*expect)[4], const char *what, cz_errinfo *ei) {
    for (uint32_t i = 0; i < j->npub; i++) {
        uint64_t v[4];
        cz_r1cs_fr_to_std(v, CZ_CURVE_BLS12381, pt->as.input[1 + i].l);
        if (memcmp(v, expect[i], sizeof v) != 0)
            return cz_fail(ei, CZ_EINTERNAL,
                           "%s: public input %u of the synthesized witness is not the one the "
                           "request gives",
                           what, i + 1);
    }
    return CZ_OK;
}
