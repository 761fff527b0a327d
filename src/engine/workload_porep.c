/*
 * The PoRep C2 workload (cuzk/workload.h): a sealed sector's C1, its partitions proven with the
 * bellperson stages (bp_task.h) and a key of the SRS manager, through the partition pipeline.
 *
 * The circuit of a sector size is recorded once (cz_porep_circuit: one partition's matrices and
 * densities, shared by every job and partition of the size; all registered versions of a size
 * share it). A request is read and checked natively first (cz_porep_input_load: a task per
 * partition on the caller's pool): the replica id against the miner and the sector, every
 * partition's vanilla proofs against the graph and the derived challenges (porep_prove.h), so a
 * bad C1 is refused before it needs a key and costs no synthesis. The job keeps the decoded C1,
 * which the witness points into. Synthesizing partition p is its witness and each row's a, b, c
 * with the input constraints (cz__porep_synthesize), straight into the pooled buffers in the
 * recorded variable order (the witness alone, compact, when the circuit computes a, b, c on the
 * GPU: cz_porep_circuit_abc_on_gpu); its public inputs must be the ones derived from the C1's
 * commitments and the challenges, and the proofs are verified against them (the bellperson stages'
 * verify) before the job is done. The result is the partitions' proofs in order, 192 bytes each.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/assignment.h"
#include "cuzk/bellperson.h"
#include "cuzk/workload.h"
#include "engine/bp_task.h"
#include "filecoin/porep_prove.h"
#include "filecoin/recording.h"

struct cz_porep_circuit {
    cz__porep_shape shape;
    const cz_param_file *params;
    cz__bp_circuit rec; /* the recorded partition and its densities */
};

struct cz_porep_input {
    cz__porep_loaded ld;
};

int cz_porep_input_load(cz_porep_input **out, const cz_porep_request *rq, cz_threadpool *pool,
                        cz_errinfo *ei) {
    cz_porep_input *in = calloc(1, sizeof *in);
    int rc;
    *out = NULL;
    if (in == NULL)
        return cz_fail(ei, CZ_ENOMEM, "porep: request");
    if ((rc = cz__porep_request_load(&in->ld, rq, 1, pool, ei)) != CZ_OK) {
        cz_porep_input_free(in);
        return rc;
    }
    *out = in;
    return CZ_OK;
}

void cz_porep_input_free(cz_porep_input *in) {
    if (in == NULL)
        return;
    cz__porep_loaded_free(&in->ld);
    free(in);
}

uint64_t cz_porep_input_registered(const cz_porep_input *in) {
    return in->ld.cfg.registered_proof;
}

int cz_porep_circuit_create(cz_porep_circuit **out, uint64_t registered_proof, cz_threadpool *pool,
                            cz_errinfo *ei) {
    cz__porep_config cfg;
    cz_porep_circuit *c;
    int rc;
    *out = NULL;
    if ((c = calloc(1, sizeof *c)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "porep: circuit");
    if ((rc = cz__porep_config_get(&cfg, registered_proof, ei)) != CZ_OK ||
        (rc = cz__porep_shape_get(&c->shape, cfg.sector_size, ei)) != CZ_OK ||
        (rc = cz_porep_params_file(&c->params, registered_proof, ei)) != CZ_OK ||
        (rc = cz__porep_record(&c->rec.r, &c->shape, pool, ei)) != CZ_OK ||
        (rc = cz__bp_circuit_ready(&c->rec, pool, ei)) != CZ_OK) {
        cz_porep_circuit_free(c);
        return rc;
    }
    *out = c;
    return CZ_OK;
}

void cz_porep_circuit_abc_on_gpu(cz_porep_circuit *c, int on) {
    c->rec.abc_on_gpu = on != 0;
}

void cz_porep_circuit_free(cz_porep_circuit *c) {
    if (c == NULL)
        return;
    cz__bp_circuit_fini(&c->rec);
    free(c);
}

int cz_porep_circuit_serves(const cz_porep_circuit *c, uint64_t registered_proof) {
    const cz_param_file *f = NULL;
    return cz_porep_params_file(&f, registered_proof, NULL) == CZ_OK && f == c->params;
}

int cz_porep_circuit_key_check(const cz_porep_circuit *c, const cz_bellperson_params *key,
                               cz_errinfo *ei) {
    return cz__recording_key_check(&c->rec.r, key, "porep", ei);
}

/* ---- a job ---- */

typedef struct porep_job {
    cz__bp_job g; /* first: the bellperson stages see the job as this */
    const cz_porep_circuit *c;
    cz__porep_loaded ld; /* the C1, which the witness points into */
} porep_job;

static int porep_synthesize(void **out, void *job, uint32_t p, const cz_part_env *env,
                            cz_part_times *t, cz_errinfo *ei) {
    porep_job *j = job;
    cz__bp_part *pt;
    uint64_t(*expect)[4] = NULL;
    int rc;
    (void)t;
    if ((rc = cz__bp_part_new(&pt, &j->g, env, ei)) != CZ_OK)
        return rc;
    if (cz__bp_compact(&j->g))
        rc = cz__porep_synthesize_compact(pt->bits, (uint64_t(*)[4])pt->vals, &j->ld, p,
                                          &j->c->rec.r, env->pool, ei);
    else
        rc = cz__porep_synthesize((uint64_t(*)[4])pt->w, (uint64_t(*)[4])pt->a,
                                  (uint64_t(*)[4])pt->b, (uint64_t(*)[4])pt->c, &j->ld, p,
                                  &j->c->rec.r, env->pool, ei);
    if (rc == CZ_OK && (expect = calloc(j->g.npub, sizeof *expect)) == NULL)
        rc = cz_fail(ei, CZ_ENOMEM, "porep: %u public inputs", j->g.npub);
    if (rc == CZ_OK) {
        cz__porep_partition_inputs(expect, &j->ld, p);
        rc = cz__bp_part_inputs_check(pt, &j->g, (const uint64_t(*)[4])expect, "porep", ei);
    }
    free(expect);
    return cz__bp_part_end(out, &j->g, pt, p, rc);
}

/* The job has ended: the key goes back (it may be evicted) and so does the C1. */
static void porep_release(void *job) {
    porep_job *j = job;
    cz__bp_job_release(&j->g);
    cz__porep_loaded_free(&j->ld);
}

static void porep_destroy(void *job) {
    porep_job *j = job;
    porep_release(j);
    cz__bp_job_fini(&j->g);
    free(j);
}

static const cz_workload_ops porep_ops = {
    .name = "porep",
    .synthesize = porep_synthesize,
    CZ__BP_STAGES,
    .release = porep_release,
    .destroy = porep_destroy,
};

int cz_workload_porep(cz_workload *out, const cz_porep_circuit *c, cz_srs_key *key,
                      cz_porep_input *in, const cz_workload_blinding *bl, cz_errinfo *ei) {
    const cz_bellperson_params *params = cz_srs_key_data(key);
    porep_job *j = calloc(1, sizeof *j);
    int rc;
    memset(out, 0, sizeof *out);
    if (j == NULL ||
        (rc = cz__bp_job_init(&j->g, params, in->ld.c1.npartitions, bl, ei)) != CZ_OK) {
        rc = j == NULL ? cz_fail(ei, CZ_ENOMEM, "porep: workload") : rc;
        cz_srs_release(key);
        cz_porep_input_free(in);
        free(j);
        return rc;
    }
    j->g.key = key; /* the job's from here: released with it */
    j->c = c;
    j->ld = in->ld; /* the C1 moves into the job */
    free(in);
    if (!cz_porep_circuit_serves(c, j->ld.cfg.registered_proof))
        rc = cz_fail(ei, CZ_EINVAL, "porep: registered proof %llu is not this circuit's",
                     (unsigned long long)j->ld.cfg.registered_proof);
    else
        rc = cz_porep_circuit_key_check(c, params, ei);
    if (rc != CZ_OK) {
        porep_destroy(j);
        return rc;
    }
    /* a, b, c (unless computed on the GPU) and w pooled, and the synthesis's input copies while
     * it runs; the circuit's device copies are made on first use, under its lock */
    cz__bp_workload_of(out, &porep_ops, j, &j->g, CZ_KIND_POREP_C2, (cz__bp_circuit *)&c->rec);
    return CZ_OK;
}
