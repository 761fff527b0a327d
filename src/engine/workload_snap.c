/*
 * The SnapDeals workload (cuzk/workload.h): a sector update's partitions proven with the
 * bellperson stages (bp_task.h) and a key of the SRS manager, through the partition pipeline.
 *
 * The circuit of a sector size is recorded once (cz_snap_circuit: one partition's matrices and
 * densities, shared by every job and partition of the size). A request is read and checked
 * natively first (cz_snap_input_load: a task per partition on the caller's pool), so a bad vanilla
 * proof is refused before it needs a key and costs no synthesis. The job keeps the decoded vanilla
 * proofs. Synthesizing partition p is its witness in chunks (the top, then a task per challenge on
 * the pipeline's pool) into the pooled buffers in the recorded variable order, with each row's a,
 * b, c and the input constraints (cz__snap_synthesize), or, when the circuit computes a, b, c on
 * the GPU (cz_snap_circuit_abc_on_gpu), the witness alone and compact
 * (cz__snap_synthesize_compact); its public inputs must be the ones of the commitments, and the
 * proofs are verified against them before the job is done. The result is the partitions'
 * proofs in order, 192 bytes each.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/workload.h"
#include "engine/bp_task.h"
#include "filecoin/recording.h"
#include "filecoin/snap_prove.h"

struct cz_snap_circuit {
    cz__snap_shape shape;
    const cz_param_file *params;
    cz__bp_circuit rec; /* the recorded partition and its densities */
};

struct cz_snap_input {
    cz__snap_loaded ld;
};

int cz_snap_input_load(cz_snap_input **out, const cz_snap_request *rq, cz_threadpool *pool,
                       cz_errinfo *ei) {
    cz_snap_input *in = calloc(1, sizeof *in);
    int rc;
    *out = NULL;
    if (in == NULL)
        return cz_fail(ei, CZ_ENOMEM, "snap: request");
    if ((rc = cz__snap_request_load(&in->ld, rq, 1, pool, ei)) != CZ_OK) {
        cz_snap_input_free(in);
        return rc;
    }
    *out = in;
    return CZ_OK;
}

void cz_snap_input_free(cz_snap_input *in) {
    if (in == NULL)
        return;
    cz__snap_loaded_free(&in->ld);
    free(in);
}

int cz_snap_circuit_create(cz_snap_circuit **out, uint64_t registered_proof, cz_threadpool *pool,
                           cz_errinfo *ei) {
    uint64_t size = 0;
    cz_snap_circuit *c;
    int rc;
    *out = NULL;
    if ((c = calloc(1, sizeof *c)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "snap: circuit");
    if ((rc = cz__snap_registered(&size, registered_proof, ei)) != CZ_OK ||
        (rc = cz__snap_shape_get(&c->shape, size, CZ__SNAP_SHA256, ei)) != CZ_OK ||
        (rc = cz_snap_params_file(&c->params, registered_proof, ei)) != CZ_OK ||
        (rc = cz__snap_record(&c->rec.r, &c->shape, pool, ei)) != CZ_OK ||
        (rc = cz__bp_circuit_ready(&c->rec, pool, ei)) != CZ_OK) {
        cz_snap_circuit_free(c);
        return rc;
    }
    *out = c;
    return CZ_OK;
}

void cz_snap_circuit_abc_on_gpu(cz_snap_circuit *c, int on) {
    c->rec.abc_on_gpu = on != 0;
}

void cz_snap_circuit_free(cz_snap_circuit *c) {
    if (c == NULL)
        return;
    cz__bp_circuit_fini(&c->rec);
    free(c);
}

int cz_snap_circuit_serves(const cz_snap_circuit *c, uint64_t registered_proof) {
    const cz_param_file *f = NULL;
    return cz_snap_params_file(&f, registered_proof, NULL) == CZ_OK && f == c->params;
}

int cz_snap_circuit_key_check(const cz_snap_circuit *c, const cz_bellperson_params *key,
                              cz_errinfo *ei) {
    return cz__recording_key_check(&c->rec.r, key, "snap", ei);
}

/* ---- a job ---- */

typedef struct snap_job {
    cz__bp_job g; /* first: the bellperson stages see the job as this */
    const cz_snap_circuit *c;
    cz__snap_loaded ld; /* the vanilla proofs, which the witness is made of */
} snap_job;

static int snap_synthesize(void **out, void *job, uint32_t p, const cz_part_env *env,
                           cz_part_times *t, cz_errinfo *ei) {
    snap_job *j = job;
    cz__bp_part *pt;
    uint64_t expect[4][4];
    int rc;
    (void)t;
    if ((rc = cz__bp_part_new(&pt, &j->g, env, ei)) != CZ_OK)
        return rc;
    if (cz__bp_compact(&j->g))
        rc = cz__snap_synthesize_compact(pt->bits, (uint64_t(*)[4])pt->vals, &j->ld, p,
                                         &j->c->rec.r, env->pool, ei);
    else
        rc =
            cz__snap_synthesize((uint64_t(*)[4])pt->w, (uint64_t(*)[4])pt->a, (uint64_t(*)[4])pt->b,
                                (uint64_t(*)[4])pt->c, &j->ld, p, &j->c->rec.r, env->pool, ei);
    if (rc == CZ_OK) {
        cz__snap_partition_inputs(expect, &j->ld, p);
        rc = cz__bp_part_inputs_check(pt, &j->g, (const uint64_t(*)[4])expect, "snap", ei);
    }
    return cz__bp_part_end(out, &j->g, pt, p, rc);
}

/* The job has ended: the key goes back (it may be evicted) and so do the vanilla proofs. */
static void snap_release(void *job) {
    snap_job *j = job;
    cz__bp_job_release(&j->g);
    cz__snap_loaded_free(&j->ld);
}

static void snap_destroy(void *job) {
    snap_job *j = job;
    snap_release(j);
    cz__bp_job_fini(&j->g);
    free(j);
}

static const cz_workload_ops snap_ops = {
    .name = "snap",
    .synthesize = snap_synthesize,
    CZ__BP_STAGES,
    .release = snap_release,
    .destroy = snap_destroy,
};

int cz_workload_snap(cz_workload *out, const cz_snap_circuit *c, cz_srs_key *key, cz_snap_input *in,
                     const cz_workload_blinding *bl, cz_errinfo *ei) {
    const cz_bellperson_params *params = cz_srs_key_data(key);
    snap_job *j = calloc(1, sizeof *j);
    int rc;
    memset(out, 0, sizeof *out);
    if (j == NULL ||
        (rc = cz__bp_job_init(&j->g, params, in->ld.shape.partitions, bl, ei)) != CZ_OK) {
        rc = j == NULL ? cz_fail(ei, CZ_ENOMEM, "snap: workload") : rc;
        cz_srs_release(key);
        cz_snap_input_free(in);
        free(j);
        return rc;
    }
    j->g.key = key; /* the job's from here: released with it */
    j->c = c;
    j->ld = in->ld; /* the vanilla proofs move into the job */
    free(in);
    if (j->ld.shape.sector_size != c->shape.sector_size || j->ld.shape.variant != c->shape.variant)
        rc = cz_fail(
            ei, CZ_EINVAL, "snap: a %llu-byte %s is not this circuit's (%llu bytes, %s)",
            (unsigned long long)j->ld.shape.sector_size, cz__snap_variant_name(j->ld.shape.variant),
            (unsigned long long)c->shape.sector_size, cz__snap_variant_name(c->shape.variant));
    else
        rc = cz_snap_circuit_key_check(c, params, ei);
    if (rc != CZ_OK) {
        snap_destroy(j);
        return rc;
    }
    cz__bp_workload_of(out, &snap_ops, j, &j->g, CZ_KIND_SNAP_UPDATE, (cz__bp_circuit *)&c->rec);
    return CZ_OK;
}
