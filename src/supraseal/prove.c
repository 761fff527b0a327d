/*
 * supra_seal's proving calls (generate_groth16_proofs_c, the split start / finalize / destroy and
 * the GPU mutex) over the stages of cuzk's bellperson prover (cuzk/groth16_bellperson.h);
 * cuzk/supraseal.h has the semantics.
 *
 * A call is a start and a finalize, as in supra_seal's fork. start turns the supra_seal
 * assignments into cz_assignment views of the same arrays (nothing is copied), checks every
 * count, the key's included, so that a bad input is an error before any work, and begins one
 * pending proof per circuit. Then, with the caller's mutex held, the part of the proof that uses
 * the device: per circuit, its upload and compute stages with the device's resident key for its
 * densities (on several devices at once, one thread each, when the batch is spread), the G2 MSM
 * started on the CPU beside them when the device keeps B_G2 on the host; on the CPU backend the
 * compute stage on the pool, the G2 MSM beside it. finalize joins the G2 MSMs and writes the
 * proofs, in supra_seal's layout (cz_bls12381_groth16_proof), only when every circuit succeeded.
 *
 * A handle owns the views, the pending proofs (which hold r and s, wiped when freed), a reference
 * on the key object and one on each resident key its proofs computed with; the caller owns the
 * arrays the views point to, until finalize or destroy.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/prove_bellperson.h"
#include "supraseal/srs.h"

struct cz_supraseal_gpu_mutex {
    pthread_mutex_t mu;
};

/* The mutex of the calls that pass none: one for the process, as upstream's static mutex. */
static pthread_mutex_t fallback_mu = PTHREAD_MUTEX_INITIALIZER;

cz_supraseal_gpu_mutex *create_gpu_mutex(void) {
    cz_supraseal_gpu_mutex *m = malloc(sizeof *m);
    if (m != NULL)
        pthread_mutex_init(&m->mu, NULL);
    return m;
}

void destroy_gpu_mutex(cz_supraseal_gpu_mutex *m) {
    if (m == NULL)
        return;
    pthread_mutex_destroy(&m->mu);
    free(m);
}

static pthread_mutex_t *mutex_of(cz_supraseal_gpu_mutex *m) {
    return m != NULL ? &m->mu : &fallback_mu;
}

/* Checks the counts of density d (nbits bits, declared popcount) of circuit i. */
static int check_density(const uint64_t *d, size_t nbits, size_t bit_len, size_t popcount, size_t i,
                         const char *name, cz_errinfo *ei) {
    if (bit_len != nbits)
        return cz_fail(ei, CZ_EINVAL, "circuit %zu: %s has %zu bits for %zu variables", i, name,
                       bit_len, nbits);
    if (d == NULL && nbits > 0)
        return cz_fail(ei, CZ_EINVAL, "circuit %zu: %s is NULL", i, name);
    if (nbits > 0 && cz_density_popcount(d, nbits) != popcount)
        return cz_fail(ei, CZ_EINVAL, "circuit %zu: %s has %zu bits set, its popcount says %zu", i,
                       name, cz_density_popcount(d, nbits), popcount);
    return CZ_OK;
}

/* asg[i] = a view of provers[i], after its checks. */
static int views(cz_assignment *asg, const cz_supraseal_assignment *provers, size_t n,
                 cz_errinfo *ei) {
    for (size_t i = 0; i < n; i++) {
        const cz_supraseal_assignment *p = &provers[i];
        int rc;
        if ((p->abc_size > 0 && (p->a == NULL || p->b == NULL || p->c == NULL)) ||
            (p->inp_assignment_size > 0 && p->inp_assignment_data == NULL) ||
            (p->aux_assignment_size > 0 && p->aux_assignment_data == NULL))
            return cz_fail(ei, CZ_EINVAL, "circuit %zu: an array with a non-zero size is NULL", i);
        if ((rc = check_density(p->a_aux_density, p->aux_assignment_size, p->a_aux_bit_len,
                                p->a_aux_popcount, i, "a_aux_density", ei)) != CZ_OK ||
            (rc = check_density(p->b_inp_density, p->inp_assignment_size, p->b_inp_bit_len,
                                p->b_inp_popcount, i, "b_inp_density", ei)) != CZ_OK ||
            (rc = check_density(p->b_aux_density, p->aux_assignment_size, p->b_aux_bit_len,
                                p->b_aux_popcount, i, "b_aux_density", ei)) != CZ_OK)
            return rc;
        asg[i] = (cz_assignment){
            .a = p->a,
            .b = p->b,
            .c = p->c,
            .abc_size = p->abc_size,
            .input = p->inp_assignment_data,
            .ninput = p->inp_assignment_size,
            .aux = p->aux_assignment_data,
            .naux = p->aux_assignment_size,
            .a_aux_density = p->a_aux_density,
            .b_input_density = p->b_inp_density,
            .b_aux_density = p->b_aux_density,
        };
    }
    return CZ_OK;
}

/* The checks every proving call makes: arguments, assignments, the key's counts, the device. */
static int check_call(cz_assignment **asg, cz__ss_srs **srs_out, const cz_supraseal_assignment *p,
                      size_t n, const cz_bls12381_fr *r_s, const cz_bls12381_fr *s_s,
                      const cz_supraseal_srs *srs, int gpu_index, cz_errinfo *ei) {
    cz__ss_srs *s = srs != NULL ? srs->ptr : NULL;
    unsigned log_n;
    int rc = CZ_OK;

    *asg = NULL;
    *srs_out = s;
    if (s == NULL)
        return cz_fail(ei, CZ_EINVAL, "no SRS (a NULL handle)");
    if (n == 0)
        return CZ_OK;
    if (p == NULL)
        return cz_fail(ei, CZ_EINVAL, "no assignments for %zu circuits", n);
    if ((r_s == NULL) != (s_s == NULL))
        return cz_fail(ei, CZ_EINVAL, "give both r_s and s_s, or neither");
    if (gpu_index >= cz__ss_srs_ndev(s) && cz__ss_srs_ndev(s) > 0)
        return cz_fail(ei, CZ_EINVAL, "GPU %d asked for, there are %d", gpu_index,
                       cz__ss_srs_ndev(s));
    if ((*asg = malloc(n * sizeof **asg)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "cannot allocate %zu assignment views", n);
    rc = views(*asg, p, n, ei);
    for (size_t i = 0; i < n && rc == CZ_OK; i++)
        rc = cz__bp_check_one(&log_n, cz__ss_srs_params(s), &(*asg)[i], i, ei);
    if (rc != CZ_OK) {
        free(*asg);
        *asg = NULL;
    }
    return rc;
}

struct cz_supraseal_pending {
    cz__ss_srs *s; /* a reference */
    size_t n;
    cz_assignment *asg;         /* n views */
    cz_groth16_bp_pending **pp; /* n pending proofs */
    cz__ss_key **key;           /* n: the resident key each computed with, or NULL (CPU) */
};

void destroy_pending_proof(cz_supraseal_pending *h) {
    if (h == NULL)
        return;
    for (size_t i = 0; i < h->n; i++) {
        if (h->pp != NULL)
            cz_groth16_bp_pending_free(h->pp[i]); /* joins its G2 MSM */
        if (h->key != NULL)
            cz__ss_key_give(h->s, h->key[i]);
    }
    free(h->pp);
    free(h->key);
    free(h->asg);
    cz__ss_srs_unref(h->s);
    free(h);
}

/* Circuits [first, first + n) of h on device dev: upload and compute, one workspace for all. */
static int run_device(cz_supraseal_pending *h, size_t first, size_t n, int dev, cz_errinfo *ei) {
    cz_threadpool *pool = cz__ss_pool();
    cz_groth16_gpu_ws *ws = NULL;
    int rc = cz_groth16_gpu_ws_create(&ws, dev, ei);

    for (size_t i = first; i < first + n && rc == CZ_OK; i++) {
        cz_groth16_bp_pending *pp = h->pp[i];
        if ((rc = cz__ss_key_take(&h->key[i], h->s, dev, &h->asg[i], ei)) != CZ_OK)
            break;
        if (!cz_groth16_bp_gpu_key_has_g2(h->key[i]->k))
            rc = cz_groth16_bp_g2_start(pp, pool, ei);
        if (rc == CZ_OK)
            rc = cz_groth16_bp_upload(pp, ws, ei);
        if (rc == CZ_OK)
            rc = cz_groth16_bp_compute(pp, h->key[i]->k, pool, ei);
    }
    cz_groth16_gpu_ws_free(ws);
    return rc;
}

/* One device's share of a batch, run in a thread of its own. */
typedef struct {
    cz_supraseal_pending *h;
    size_t first, n;
    int dev, rc;
    int threaded; /* th runs it */
    pthread_t th;
    cz_errinfo ei;
} dev_run;

static void *dev_run_main(void *arg) {
    dev_run *d = arg;
    d->rc = run_device(d->h, d->first, d->n, d->dev, &d->ei);
    return NULL;
}

/* The device part of h on the GPUs: gpu_index's alone, or spread over the first
 * min(devices, circuits) in contiguous runs. */
static int run_gpus(cz_supraseal_pending *h, int gpu_index, cz_errinfo *ei) {
    size_t ndev = (size_t)cz__ss_srs_ndev(h->s), n = h->n, first = 0;
    dev_run *runs;
    int rc = CZ_OK;

    if (gpu_index >= 0 || ndev == 1 || n == 1)
        return run_device(h, 0, n, gpu_index >= 0 ? gpu_index : 0, ei);
    if (ndev > n)
        ndev = n;
    if ((runs = calloc(ndev, sizeof *runs)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "cannot allocate the device runs");
    for (size_t t = 0; t < ndev; t++) {
        size_t cnt = n / ndev + (t < n % ndev);
        runs[t] = (dev_run){.h = h, .first = first, .n = cnt, .dev = (int)t, .rc = CZ_OK};
        cz_errinfo_clear(&runs[t].ei);
        first += cnt;
    }
    /* Device 0 runs on this thread; a device whose thread cannot start runs here too. */
    for (size_t t = 1; t < ndev; t++)
        runs[t].threaded = pthread_create(&runs[t].th, NULL, dev_run_main, &runs[t]) == 0;
    dev_run_main(&runs[0]);
    for (size_t t = 1; t < ndev; t++) {
        if (runs[t].threaded)
            pthread_join(runs[t].th, NULL);
        else
            dev_run_main(&runs[t]);
    }
    for (size_t t = 0; t < ndev && rc == CZ_OK; t++)
        if ((rc = runs[t].rc) != CZ_OK)
            cz_fail(ei, rc, "GPU %d: %s", runs[t].dev, runs[t].ei.msg);
    free(runs);
    return rc;
}

/* The device part on the CPU backend: the G2 MSM beside the compute stage, both on the pool. */
static int run_cpu(cz_supraseal_pending *h, cz_errinfo *ei) {
    cz_threadpool *pool = cz__ss_pool();
    int rc = CZ_OK;
    for (size_t i = 0; i < h->n && rc == CZ_OK; i++)
        if ((rc = cz_groth16_bp_g2_start(h->pp[i], pool, ei)) == CZ_OK)
            rc = cz_groth16_bp_compute(h->pp[i], NULL, pool, ei);
    return rc;
}

/* start's work; on error nothing is left. */
static int start(cz_supraseal_pending **out, const cz_supraseal_assignment *provers, size_t n,
                 const cz_bls12381_fr *r_s, const cz_bls12381_fr *s_s, const cz_supraseal_srs *srs,
                 cz_supraseal_gpu_mutex *gpu_mtx, int gpu_index, cz_errinfo *ei) {
    cz_supraseal_pending *h = NULL;
    cz_assignment *asg = NULL;
    cz__ss_srs *s;
    int rc;

    *out = NULL;
    if ((rc = check_call(&asg, &s, provers, n, r_s, s_s, srs, gpu_index, ei)) != CZ_OK)
        goto out;
    if ((h = calloc(1, sizeof *h)) == NULL ||
        (n > 0 && ((h->pp = calloc(n, sizeof *h->pp)) == NULL ||
                   (h->key = calloc(n, sizeof *h->key)) == NULL))) {
        rc = cz_fail(ei, CZ_ENOMEM, "cannot allocate the pending proof of %zu circuits", n);
        goto out;
    }
    cz__ss_srs_ref(s);
    h->s = s;
    h->n = n;
    h->asg = asg;
    asg = NULL;
    for (size_t i = 0; i < n && rc == CZ_OK; i++)
        rc = cz_groth16_bp_begin(&h->pp[i], cz__ss_srs_params(s), &h->asg[i],
                                 r_s != NULL ? &r_s[i] : NULL, s_s != NULL ? &s_s[i] : NULL, ei);
    if (rc != CZ_OK || n == 0)
        goto out;
    pthread_mutex_lock(mutex_of(gpu_mtx));
    rc = cz__ss_srs_ndev(s) > 0 ? run_gpus(h, gpu_index, ei) : run_cpu(h, ei);
    pthread_mutex_unlock(mutex_of(gpu_mtx));
out:
    if (rc == CZ_OK) {
        *out = h;
        h = NULL;
    }
    destroy_pending_proof(h);
    free(asg);
    return rc;
}

/* finalize's work: the proofs of h into proofs, all or nothing; h is freed. */
static int finish(cz_bls12381_groth16_proof *proofs, cz_supraseal_pending *h, cz_errinfo *ei) {
    cz_groth16_proof *tmp = NULL;
    int rc = CZ_OK;

    if (h->n > 0 && proofs == NULL)
        rc = cz_fail(ei, CZ_EINVAL, "no array for the proofs");
    else if (h->n > 0 && (tmp = calloc(h->n, sizeof *tmp)) == NULL)
        rc = cz_fail(ei, CZ_ENOMEM, "cannot allocate %zu proofs", h->n);
    for (size_t i = 0; i < h->n && rc == CZ_OK; i++)
        rc = cz_groth16_bp_finish(&tmp[i], h->pp[i], ei);
    for (size_t i = 0; i < h->n && rc == CZ_OK; i++)
        proofs[i] = tmp[i].u.bls12381;
    free(tmp);
    destroy_pending_proof(h);
    return rc;
}

cz_supraseal_error generate_groth16_proofs_c(const cz_supraseal_assignment provers[],
                                             size_t num_circuits, const cz_bls12381_fr r_s[],
                                             const cz_bls12381_fr s_s[],
                                             cz_bls12381_groth16_proof proofs[],
                                             const cz_supraseal_srs *srs,
                                             cz_supraseal_gpu_mutex *gpu_mtx, int gpu_index) {
    cz_supraseal_pending *h = NULL;
    cz_errinfo ei;
    int rc;

    cz_errinfo_clear(&ei);
    if (proofs == NULL && num_circuits > 0)
        rc = cz_fail(&ei, CZ_EINVAL, "no array for the proofs");
    else if ((rc = start(&h, provers, num_circuits, r_s, s_s, srs, gpu_mtx, gpu_index, &ei)) ==
             CZ_OK)
        rc = finish(proofs, h, &ei);
    return cz__ss_error(rc, "generate_groth16_proofs_c", &ei);
}

cz_supraseal_error generate_groth16_proofs_start_c(const cz_supraseal_assignment provers[],
                                                   size_t num_circuits, const cz_bls12381_fr r_s[],
                                                   const cz_bls12381_fr s_s[],
                                                   const cz_supraseal_srs *srs,
                                                   cz_supraseal_gpu_mutex *gpu_mtx, int gpu_index,
                                                   cz_supraseal_pending **pending_out) {
    cz_errinfo ei;
    int rc;

    cz_errinfo_clear(&ei);
    if (pending_out == NULL)
        rc = cz_fail(&ei, CZ_EINVAL, "no place for the handle");
    else
        rc = start(pending_out, provers, num_circuits, r_s, s_s, srs, gpu_mtx, gpu_index, &ei);
    return cz__ss_error(rc, "generate_groth16_proofs_start_c", &ei);
}

cz_supraseal_error finalize_groth16_proof_c(cz_supraseal_pending *h,
                                            cz_bls12381_groth16_proof proofs[]) {
    cz_errinfo ei;
    int rc;

    cz_errinfo_clear(&ei);
    if (h == NULL)
        rc = cz_fail(&ei, CZ_EINVAL, "no handle");
    else
        rc = finish(proofs, h, &ei);
    return cz__ss_error(rc, "finalize_groth16_proof_c", &ei);
}
