/*
 * The PoSt workload (cuzk/workload.h): a WinningPoSt or a WindowPoSt partition from the inputs of
 * its request, proven with the bellperson stages (bp_task.h) and a key of the SRS manager.
 *
 * The circuit of a shape is recorded once (cz_post_circuit: the matrices and the densities, shared
 * by every job of the shape). A job decodes and checks its vanilla proofs natively when it is
 * made, on the circuit's pool (every sector's comm_r and every inclusion proof a task: a 32 GiB
 * WindowPoSt partition's 23,490 paths), so a bad request is refused before it is queued; it keeps
 * the decoded proofs (the witness points into them) and the public inputs derived from the request
 * (the sector ids' comm_r and the challenges drawn from the randomness). Synthesis is the witness
 * and each row's a, b, c with the input constraints (cz__post_synthesize: sector chunks in parallel
 * on the synthesis pool, no matrix read), straight into the pooled buffers in the recorded variable
 * order; the public inputs of the synthesized
 * witness must be the derived ones, and the proof is verified against them (the bellperson stages'
 * verify) before the job is done.
 */
#include <stdlib.h>
#include <string.h>

#include "cs/cs.h"
#include "cuzk/bellperson.h"
#include "cuzk/assignment.h"
#include "cuzk/workload.h"
#include "engine/bp_task.h"
#include "filecoin/post_prove.h"
#include "filecoin/recording.h"

struct cz_post_circuit {
    cz__post_shape shape;
    const cz_param_file *params;
    cz__bp_circuit rec;  /* the recording and its densities */
    cz_threadpool *pool; /* the recording's, and its jobs' native checks */
};

int cz_post_circuit_create(cz_post_circuit **out, uint64_t registered_proof, cz_threadpool *pool,
                           cz_errinfo *ei) {
    cz__post_kind kind = CZ__POST_WINNING;
    uint64_t size = 0;
    int v1 = 0, winning = 0, rc;
    cz_post_circuit *c;
    *out = NULL;
    if ((c = calloc(1, sizeof *c)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "post: circuit");
    if ((rc = cz__post_registered(&kind, &size, &v1, registered_proof, ei)) != CZ_OK ||
        (rc = cz__post_shape_get(&c->shape, kind, size, ei)) != CZ_OK ||
        (rc = cz_post_params_file(&c->params, &winning, registered_proof, ei)) != CZ_OK ||
        (rc = cz__post_record(&c->rec.r, &c->shape, pool, ei)) != CZ_OK ||
        (rc = cz__bp_circuit_ready(&c->rec, pool, ei)) != CZ_OK) {
        cz_post_circuit_free(c);
        return rc;
    }
    c->pool = pool;
    *out = c;
    return CZ_OK;
}

void cz_post_circuit_free(cz_post_circuit *c) {
    if (c == NULL)
        return;
    cz__bp_circuit_fini(&c->rec);
    free(c);
}

int cz_post_circuit_serves(const cz_post_circuit *c, uint64_t registered_proof) {
    const cz_param_file *f = NULL;
    int winning;
    return cz_post_params_file(&f, &winning, registered_proof, NULL) == CZ_OK && f == c->params;
}

int cz_post_circuit_key_check(const cz_post_circuit *c, const cz_bellperson_params *key,
                              cz_errinfo *ei) {
    return cz__recording_key_check(&c->rec.r, key, "post", ei);
}

/* ---- a job ---- */

typedef struct post_job {
    cz__bp_job g; /* first: the bellperson stages see the job as this */
    const cz_post_circuit *c;
    cz__post_vanilla *vs; /* the decoded vanilla proofs, which the witness points into */
    size_t nvs;
    cz__post_witness w;
    uint64_t (*expect)[4]; /* the public inputs derived from the request */
} post_job;

/* The witness and each row's a, b, c, straight into the pooled buffers in the recorded order. */
static int post_synthesize(void **out, void *job, uint32_t p, const cz_part_env *env,
                           cz_part_times *t, cz_errinfo *ei) {
    post_job *j = job;
    cz__bp_part *pt;
    int rc;
    (void)t;
    if ((rc = cz__bp_part_new(&pt, &j->g, env, ei)) != CZ_OK)
        return rc;
    rc = cz__post_synthesize((uint64_t(*)[4])pt->w, (uint64_t(*)[4])pt->a, (uint64_t(*)[4])pt->b,
                             (uint64_t(*)[4])pt->c, &j->w, &j->c->shape, &j->c->rec.r, env->pool,
                             ei);
    if (rc == CZ_OK)
        rc = cz__bp_part_inputs_check(pt, &j->g, (const uint64_t(*)[4])j->expect, "post", ei);
    return cz__bp_part_end(out, &j->g, pt, p, rc);
}

/* The job has ended: the key goes back (it may be evicted) and so do the vanilla proofs. */
static void post_release(void *job) {
    post_job *j = job;
    cz__bp_job_release(&j->g);
    cz__post_witness_free(&j->w);
    cz__post_vanillas_free(j->vs, j->nvs);
    j->vs = NULL;
    free(j->expect);
    j->expect = NULL;
}

static void post_destroy(void *job) {
    post_job *j = job;
    post_release(j);
    cz__bp_job_fini(&j->g);
    free(j);
}

static const cz_workload_ops post_ops = {
    .name = "post",
    .synthesize = post_synthesize,
    CZ__BP_STAGES,
    .release = post_release,
    .destroy = post_destroy,
};

/* The job's request checked against its circuit and key, its vanilla proofs decoded and checked,
 * the witness and the derived public inputs made. */
static int post_job_load(post_job *j, const cz_post_request *rq, cz_errinfo *ei) {
    const cz__post_shape *shape = &j->c->shape;
    cz__post_shape got;
    size_t npub = shape->sectors * (1 + shape->challenges);
    int rc;
    if (!cz_post_circuit_serves(j->c, rq->registered_proof))
        return cz_fail(ei, CZ_EINVAL, "post: registered proof %llu is not this circuit's",
                       (unsigned long long)rq->registered_proof);
    if ((rc = cz_post_circuit_key_check(j->c, j->g.params, ei)) != CZ_OK)
        return rc;
    if ((rc = cz__post_request_load(&j->vs, &got, rq, 1, j->c->pool, ei)) != CZ_OK)
        return rc;
    j->nvs = rq->nvanilla;
    if ((rc = cz__post_witness_make(&j->w, j->vs, j->nvs, shape, ei)) != CZ_OK)
        return rc;
    if ((j->expect = calloc(npub, sizeof *j->expect)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "post: %zu public inputs", npub);
    cz__post_public_inputs(j->expect, &j->w, shape);
    return CZ_OK;
}

int cz_workload_post(cz_workload *out, const cz_post_circuit *c, cz_srs_key *key,
                     const cz_post_request *rq, const cz_workload_blinding *bl, cz_errinfo *ei) {
    const cz_bellperson_params *params = cz_srs_key_data(key);
    post_job *j = calloc(1, sizeof *j);
    int rc;
    memset(out, 0, sizeof *out);
    if (j == NULL) {
        cz_srs_release(key);
        return cz_fail(ei, CZ_ENOMEM, "post: workload");
    }
    if ((rc = cz__bp_job_init(&j->g, params, 1, bl, ei)) != CZ_OK) {
        cz_srs_release(key);
        free(j);
        return rc;
    }
    j->g.key = key; /* the job's from here: released with it */
    j->c = c;
    if ((rc = post_job_load(j, rq, ei)) != CZ_OK) {
        post_destroy(j);
        return rc;
    }
    /* a, b, c and w pooled, and the chunk systems' inputs (a few per sector) while they run */
    cz__bp_workload_of(
        out, &post_ops, j, &j->g,
        c->shape.kind == CZ__POST_WINNING ? CZ_KIND_WINNING_POST : CZ_KIND_WINDOW_POST,
        (cz__bp_circuit *)&c->rec); /* a, b, c on the host: no device copies are made */
    return CZ_OK;
}
