/*
 * The snarkjs zkey workload (include/cuzk/workload.h, cz_workload_zkey): one partition, whose
 * witness is the job's .wtns (a copy the job owns, borrowed by the partition) and whose a, b are
 * the zkey's coefficients times the witness (cz_groth16_eval). The proving key is a reference
 * from the SRS manager, which also keeps its GPU keys (cz_workload_zkey_gpu_hooks); the job
 * drops the reference when it ends (release), so a finished job does not pin its key. Every
 * other step is the shared Groth16 task (g16_task.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/groth16.h"
#include "cuzk/workload.h"
#include "cuzk/wtns.h"
#include "engine/g16_task.h"

#define FR_BYTES 32

typedef struct zkey_job {
    cz__g16_job g; /* first: the shared stages see the job as this */
    cz_wtns *w;
    void *wtns_copy;
} zkey_job;

static int zkey_synthesize(void **out, void *job, uint32_t p, const cz_part_env *env,
                           cz_part_times *t, cz_errinfo *ei) {
    zkey_job *j = job;
    cz__g16_part *pt;
    int rc;
    (void)t;
    if ((rc = cz__g16_part_new(&pt, &j->g, env, ei)) != CZ_OK)
        return rc;
    pt->wit = (uint64_t(*)[4])j->w->values; /* borrowed from the job */
    rc = cz_groth16_eval(pt->a, pt->b, j->g.zk, j->w, env->pool, ei);
    return cz__g16_part_end(out, &j->g, pt, p, rc);
}

/* The job has ended: its key reference and witness go now (EvictSRS need not wait until the
 * finished job is dropped); the verification data stays for destroy. */
static void zkey_release(void *job) {
    zkey_job *j = job;
    cz__g16_job_release(&j->g);
    cz_wtns_close(j->w);
    j->w = NULL;
    free(j->wtns_copy);
    j->wtns_copy = NULL;
}

static void zkey_destroy(void *job) {
    zkey_job *j = job;
    zkey_release(j);
    cz__g16_job_fini(&j->g);
    free(j);
}

static const cz_workload_ops zkey_ops = {
    .name = "snarkjs-zkey",
    .synthesize = zkey_synthesize,
    CZ__G16_STAGES,
    .release = zkey_release,
    .destroy = zkey_destroy,
};

static int hook_create(void **ddata, const void *key, int device, const void *hint, void *arg,
                       cz_errinfo *ei) {
    (void)hint;
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
    zkey_job *j = calloc(1, sizeof *j);
    int rc;
    memset(out, 0, sizeof *out);
    if (j == NULL) {
        cz_srs_release(key);
        return cz_fail(ei, CZ_ENOMEM, "workload");
    }
    if ((rc = cz__g16_job_init(&j->g, zk, 1, bl, ei)) != CZ_OK) {
        zkey_destroy(j);
        cz_srs_release(key);
        return rc;
    }
    j->g.key = key; /* the job's from here on, also when this call fails */
    j->wtns_copy = malloc(wtns_len ? wtns_len : 1);
    if (j->wtns_copy == NULL) {
        zkey_destroy(j);
        return cz_fail(ei, CZ_ENOMEM, "workload: witness copy of %zu bytes", wtns_len);
    }
    memcpy(j->wtns_copy, wtns, wtns_len);
    if ((rc = cz_wtns_open_mem(&j->w, j->wtns_copy, wtns_len, name, ei)) != CZ_OK ||
        (rc = cz_wtns_check_against_zkey(j->w, zk, ei)) != CZ_OK) {
        zkey_destroy(j);
        return rc;
    }
    /* a, b (and c on a CPU compute) plus the evaluation's index; a, b leave after compute */
    uint64_t v = (uint64_t)zk->domain_size * FR_BYTES;
    cz__g16_workload(out, &zkey_ops, j, &j->g, CZ_KIND_SNARKJS_ZKEY,
                     3 * v + 4 * (uint64_t)zk->ncoefs, 0);
    return CZ_OK;
}
