/*
 * A PoSt partition from a request, proven and verified (post_prove.h).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cs/cs.h"
#include "cuzk/threadpool.h"
#include "cuzk/assignment.h"
#include "filecoin/post_prove.h"
#include "filecoin/recording.h"

static const uint64_t post_sizes[5] = {UINT64_C(1) << 11, UINT64_C(1) << 23, UINT64_C(1) << 29,
                                       UINT64_C(1) << 35, UINT64_C(1) << 36};

int cz__post_registered(cz__post_kind *kind, uint64_t *sector_size, int *window_v1, uint64_t id,
                        cz_errinfo *ei) {
    if (id > 14)
        return cz_fail(ei, CZ_EINVAL,
                       "post: registered proof %llu is not a PoSt (0-4 WinningPoSt, 5-14 "
                       "WindowPoSt)",
                       (unsigned long long)id);
    *kind = id < 5 ? CZ__POST_WINNING : CZ__POST_WINDOW;
    *sector_size = post_sizes[id % 5];
    *window_v1 = id >= 5 && id < 10;
    return CZ_OK;
}

int cz__post_registered_id(uint64_t *id, cz__post_kind kind, uint64_t sector_size, int window_v1,
                           cz_errinfo *ei) {
    for (uint64_t i = 0; i < 5; i++)
        if (post_sizes[i] == sector_size) {
            *id = kind == CZ__POST_WINNING ? i : (window_v1 ? 5 : 10) + i;
            return CZ_OK;
        }
    return cz_fail(ei, CZ_EINVAL, "post: no registered PoSt proof for %llu-byte sectors",
                   (unsigned long long)sector_size);
}

int cz_post_params_file(const cz_param_file **out, int *winning, uint64_t registered_proof,
                        cz_errinfo *ei) {
    cz__post_kind kind = CZ__POST_WINNING;
    uint64_t size = 0;
    int v1 = 0, rc;
    *out = NULL;
    if ((rc = cz__post_registered(&kind, &size, &v1, registered_proof, ei)) != CZ_OK)
        return rc;
    *winning = kind == CZ__POST_WINNING;
    *out = cz_params_find_proof(NULL,
                                *winning ? CZ_PARAM_PROOF_WINNING_POST : CZ_PARAM_PROOF_WINDOW_POST,
                                size, CZ_PARAM_EXT_PARAMS);
    if (*out == NULL) /* the built-in manifest has every PoSt key: a table out of step */
        return cz_fail(ei, CZ_EINTERNAL, "post: no key file for registered proof %llu",
                       (unsigned long long)registered_proof);
    return CZ_OK;
}

void cz__post_vanillas_free(cz__post_vanilla *vs, size_t n) {
    if (vs == NULL)
        return;
    for (size_t i = 0; i < n; i++)
        cz__post_vanilla_free(&vs[i]);
    free(vs);
}

uint64_t cz__post_index_base(const cz__post_shape *shape, int window_v1, uint64_t partition,
                             size_t i) {
    return window_v1 ? (partition * shape->sectors + i) * shape->challenges : 0;
}

/* The parallel part of cz__post_request_load: task i < nv decodes vanilla proof i; the check
 * tasks (after all decodes) are (i, k) = (t / (1 + nproofs), t % (1 + nproofs)): k = 0 comm_r,
 * else inclusion proof k - 1. Only the codes are kept: the message of the failure that is
 * reported is made again by the serial pass (every step is a pure function of the request). */
typedef struct {
    const cz_post_request *rq;
    const cz__post_shape *shape;
    cz__post_vanilla *vs;
    unsigned nproofs;
    int v1;
    int *dec_rc, *chk_rc;
} load_ctx;

static void load_decode(void *arg, size_t i) {
    load_ctx *c = arg;
    c->dec_rc[i] = cz__post_vanilla_decode(&c->vs[i], c->shape, c->nproofs, c->rq->vanilla[i],
                                           c->rq->vanilla_len[i], i, NULL);
}

static int load_check_one(const load_ctx *c, size_t t, cz_errinfo *ei) {
    size_t i = t / (1 + c->nproofs), k = t % (1 + c->nproofs);
    if (k == 0)
        return cz__post_vanilla_check_comm(&c->vs[i], ei);
    return cz__post_inclusion_check(&c->vs[i], (unsigned)(k - 1), c->shape, c->rq->randomness,
                                    cz__post_index_base(c->shape, c->v1, c->rq->partition, i), ei);
}

static void load_check(void *arg, size_t t) {
    load_ctx *c = arg;
    c->chk_rc[t] = c->dec_rc[t / (1 + c->nproofs)] == CZ_OK ? load_check_one(c, t, NULL) : CZ_OK;
}

int cz__post_request_load(cz__post_vanilla **vs, cz__post_shape *shape, const cz_post_request *rq,
                          int check_paths, cz_threadpool *pool, cz_errinfo *ei) {
    cz__post_kind kind = CZ__POST_WINNING;
    uint64_t size = 0;
    int v1 = 0, rc = CZ_OK;
    unsigned nproofs;
    cz_bls12381_fr rnd;
    load_ctx c;
    size_t ntasks;
    *vs = NULL;
    if ((rc = cz__post_registered(&kind, &size, &v1, rq->registered_proof, ei)) != CZ_OK ||
        (rc = cz__post_shape_get(shape, kind, size, ei)) != CZ_OK)
        return rc;
    if (cz_bls12381_fr_from_bytes_le(&rnd, rq->randomness) != CZ_OK)
        return cz_fail(ei, CZ_ENONCANON, "post: the randomness is not a field element below r");
    if (kind == CZ__POST_WINNING ? rq->nvanilla != 1
                                 : rq->nvanilla == 0 || rq->nvanilla > shape->sectors)
        return cz_fail(ei, CZ_EINVAL, "post: %zu vanilla proofs for a %s partition (%s)",
                       rq->nvanilla, kind == CZ__POST_WINNING ? "WinningPoSt" : "WindowPoSt",
                       kind == CZ__POST_WINNING ? "exactly 1" : "1 to the partition's sectors");
    nproofs = kind == CZ__POST_WINNING ? (unsigned)shape->sectors : shape->challenges;
    ntasks = rq->nvanilla * (1 + (size_t)nproofs);
    c = (load_ctx){rq, shape, NULL, nproofs, v1, NULL, NULL};
    c.vs = calloc(rq->nvanilla, sizeof *c.vs);
    c.dec_rc = calloc(rq->nvanilla, sizeof *c.dec_rc);
    c.chk_rc = calloc(ntasks, sizeof *c.chk_rc);
    if (c.vs == NULL || c.dec_rc == NULL || c.chk_rc == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "post: %zu vanilla proofs", rq->nvanilla);
        goto out;
    }
    cz_threadpool_run(pool, load_decode, &c, rq->nvanilla);
    if (check_paths)
        cz_threadpool_run(pool, load_check, &c, ntasks);
    /* the first failure in request order: decoding, sector order, comm_r, inclusion proofs */
    for (size_t i = 0; i < rq->nvanilla && rc == CZ_OK; i++) {
        if (c.dec_rc[i] != CZ_OK) {
            cz__post_vanilla_free(&c.vs[i]);
            rc = cz__post_vanilla_decode(&c.vs[i], shape, nproofs, rq->vanilla[i],
                                         rq->vanilla_len[i], i, ei);
            if (rc == CZ_OK) /* a failure that does not repeat: memory */
                rc = cz_fail(ei, c.dec_rc[i], "post: vanilla proof %zu could not be decoded", i);
        } else if (i > 0 && c.vs[i].sector_id <= c.vs[i - 1].sector_id) {
            rc = cz_fail(ei, CZ_EINVAL,
                         "post: vanilla proof %zu: sector %llu after sector %llu (a partition "
                         "lists its sectors in ascending id)",
                         i, (unsigned long long)c.vs[i].sector_id,
                         (unsigned long long)c.vs[i - 1].sector_id);
        } else {
            for (size_t t = i * (1 + (size_t)nproofs);
                 check_paths && rc == CZ_OK && t < (i + 1) * (1 + (size_t)nproofs); t++)
                if (c.chk_rc[t] != CZ_OK)
                    rc = load_check_one(&c, t, ei);
        }
    }
out:
    free(c.dec_rc);
    free(c.chk_rc);
    if (rc != CZ_OK) {
        cz__post_vanillas_free(c.vs, c.vs != NULL ? rq->nvanilla : 0);
        return rc;
    }
    *vs = c.vs;
    return CZ_OK;
}

/* nsectors of the blank circuit recorded, or with copies > 1 one sector recorded and copied
 * that many times, each copy's inputs and aux after the previous copy's (a task per copy on
 * pool): the sectors share only ONE, and a sector's structure does not depend on which it is. */
static int record_sectors(cz_r1cs *r, const cz__post_shape *shape, size_t nsectors, size_t copies,
                          cz_threadpool *pool, cz_errinfo *ei) {
    cz__cs cs;
    cz__cs_mark start;
    int rc = cz__cs_init(&cs, CZ__CS_RECORD, 0, ei);
    memset(r, 0, sizeof *r);
    if (rc != CZ_OK)
        return rc;
    cz__cs_mark_get(&start, &cs); /* ONE */
    rc = cz__post_circuit_blank(&cs, &shape->tree, shape->nleaves, nsectors, shape->challenges, ei);
    if (rc == CZ_OK)
        rc = cz__cs_to_r1cs_repeat(r, &cs, &start, copies, NULL, pool, ei);
    cz__cs_free(&cs);
    return rc;
}

int cz__post_record(cz_r1cs *r, const cz__post_shape *shape, cz_threadpool *pool, cz_errinfo *ei) {
    return record_sectors(r, shape, 1, shape->sectors, pool, ei);
}

int cz__post_record_direct(cz_r1cs *r, const cz__post_shape *shape, cz_errinfo *ei) {
    return record_sectors(r, shape, shape->sectors, 1, NULL, ei);
}

/* ---- the witness, sectors in parallel ---- */

typedef struct fill_job {
    uint64_t (*out)[4];
    uint64_t (*abc[3])[4]; /* NULL: the witness alone */
    const cz__post_witness *w;
    size_t per_aux, per_input, per_rows, ninput, chunk;
    pthread_mutex_t lock;
    int rc;
    cz_errinfo ei;
} fill_job;

static void fill_fail(fill_job *fj, int rc, const cz_errinfo *ei) {
    pthread_mutex_lock(&fj->lock);
    if (fj->rc == CZ_OK) {
        fj->rc = rc;
        fj->ei = *ei;
    }
    pthread_mutex_unlock(&fj->lock);
}

static void fill_chunk(void *arg, size_t task) {
    fill_job *fj = arg;
    const size_t lo = task * fj->chunk,
                 n = fj->w->nsectors - lo < fj->chunk ? fj->w->nsectors - lo : fj->chunk;
    cz__cs cs;
    cz_errinfo ei;
    int rc;
    cz_errinfo_clear(&ei);
    if ((rc = fj->abc[0] != NULL ? cz__cs_init(&cs, CZ__CS_PROVE, CZ__CS_NO_DENSITY, &ei)
                                 : cz__cs_init(&cs, CZ__CS_WITNESS, 0, &ei)) != CZ_OK) {
        fill_fail(fj, rc, &ei);
        return;
    }
    /* aux and rows straight where they belong; the inputs (a few per sector) are copied */
    if ((rc = cz__cs_use_buffers(
             &cs, (cz_bls12381_fr *)(fj->out + fj->ninput + lo * fj->per_aux), n * fj->per_aux,
             fj->abc[0] ? (cz_bls12381_fr *)(fj->abc[0] + lo * fj->per_rows) : NULL,
             fj->abc[1] ? (cz_bls12381_fr *)(fj->abc[1] + lo * fj->per_rows) : NULL,
             fj->abc[2] ? (cz_bls12381_fr *)(fj->abc[2] + lo * fj->per_rows) : NULL,
             n * fj->per_rows, &ei)) != CZ_OK) {
        cz__cs_free(&cs);
        fill_fail(fj, rc, &ei);
        return;
    }
    cz__post_circuit(&cs, fj->w->sectors + lo, n);
    if ((rc = cz__cs_status(&cs, &ei)) == CZ_OK &&
        (cs.naux != n * fj->per_aux || cs.ninput != 1 + n * fj->per_input ||
         cs.nrows != n * fj->per_rows))
        rc = cz_fail(&ei, CZ_EINTERNAL,
                     "post: sectors %zu..%zu synthesized %zu aux, %zu inputs and %zu rows, the "
                     "recording %zu, %zu and %zu",
                     lo, lo + n - 1, cs.naux, cs.ninput - 1, cs.nrows, n * fj->per_aux,
                     n * fj->per_input, n * fj->per_rows);
    if (rc == CZ_OK) {
        if (lo == 0) /* ONE */
            memcpy(fj->out, cs.input, sizeof *fj->out);
        memcpy(fj->out + 1 + lo * fj->per_input, cs.input + 1, n * fj->per_input * sizeof *fj->out);
    } else {
        fill_fail(fj, rc, &ei);
    }
    cz__cs_free(&cs);
}

int cz__post_synthesize(uint64_t (*out)[4], uint64_t (*a)[4], uint64_t (*b)[4], uint64_t (*c)[4],
                        const cz__post_witness *w, const cz__post_shape *shape, const cz_r1cs *r,
                        cz_threadpool *pool, cz_errinfo *ei) {
    const size_t ns = shape->sectors;
    fill_job fj;
    size_t nthreads = pool != NULL ? cz_threadpool_size(pool) : 1;
    if ((a == NULL) != (b == NULL) || (a == NULL) != (c == NULL))
        return cz_fail(ei, CZ_EINVAL, "post: a, b and c, or none of them");
    if (w->nsectors != ns || r->naux % ns != 0 || r->npublic % ns != 0 || r->nrows % ns != 0)
        return cz_fail(ei, CZ_EINTERNAL,
                       "post: a witness of %zu sectors for a recording of %u aux, %u inputs and "
                       "%u rows over %zu sectors",
                       w->nsectors, r->naux, r->npublic, r->nrows, ns);
    memset(&fj, 0, sizeof fj);
    fj.out = out;
    fj.abc[0] = a;
    fj.abc[1] = b;
    fj.abc[2] = c;
    fj.w = w;
    fj.per_aux = r->naux / ns;
    fj.per_input = r->npublic / ns;
    fj.per_rows = r->nrows / ns;
    fj.ninput = (size_t)r->npublic + 1;
    /* a few chunks per thread, so that an uneven split does not leave threads idle */
    fj.chunk = (ns + 4 * nthreads - 1) / (4 * nthreads);
    pthread_mutex_init(&fj.lock, NULL);
    cz_threadpool_run(pool, fill_chunk, &fj, (ns + fj.chunk - 1) / fj.chunk);
    pthread_mutex_destroy(&fj.lock);
    if (fj.rc != CZ_OK && ei != NULL)
        *ei = fj.ei;
    if (fj.rc == CZ_OK && a != NULL) /* bellperson's input constraints: input_i · 0 = 0 */
        for (size_t i = 0; i < fj.ninput; i++) {
            memcpy(a[r->nrows + i], out[i], sizeof *a);
            memset(b[r->nrows + i], 0, sizeof *b);
            memset(c[r->nrows + i], 0, sizeof *c);
        }
    return fj.rc;
}

/* A PoSt partition's witness and shape, as the recording's callbacks take it. */
typedef struct post_part {
    const cz__post_witness *w;
    const cz__post_shape *shape;
} post_part;

static int synthesize_part(uint64_t (*out)[4], uint64_t (*a)[4], uint64_t (*b)[4], uint64_t (*c)[4],
                           const void *arg, unsigned k, const cz_r1cs *r, cz_threadpool *pool,
                           cz_errinfo *ei) {
    const post_part *pp = arg;
    (void)k; /* a request is one partition */
    return cz__post_synthesize(out, a, b, c, pp->w, pp->shape, r, pool, ei);
}

/* The witness's public inputs, as cz_groth16_verify takes them. */
static int public_of(cz_groth16_public *pub, const void *arg, unsigned k, cz_errinfo *ei) {
    const post_part *pp = arg;
    (void)k;
    pub->curve = CZ_CURVE_BLS12381;
    pub->n = (uint32_t)(pp->w->nsectors * (1 + pp->shape->challenges));
    if ((pub->values = calloc(pub->n, sizeof *pub->values)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "post: %u public inputs", pub->n);
    cz__post_public_inputs(pub->values, pp->w, pp->shape);
    return CZ_OK;
}

int cz__post_prove(cz_groth16_proof *proof, const cz_bellperson_params *key,
                   const cz_post_request *rq, cz_threadpool *pool, const cz_groth16_bp_opts *opts,
                   cz_errinfo *ei) {
    cz__post_vanilla *vs = NULL;
    cz__post_shape shape;
    cz__post_witness w;
    cz_r1cs r;
    cz_assignment as;
    cz_groth16_vk vk;
    cz_groth16_public pub = {0};
    const post_part pp = {&w, &shape};
    const cz__recording_parts parts = {"post", 1, &pp, synthesize_part, public_of};
    int rc;
    memset(&w, 0, sizeof w);
    memset(&r, 0, sizeof r);
    memset(&as, 0, sizeof as);
    memset(&vk, 0, sizeof vk);
    if ((rc = cz__post_request_load(&vs, &shape, rq, 1, pool, ei)) != CZ_OK)
        return rc;
    if ((rc = cz__post_record(&r, &shape, pool, ei)) != CZ_OK ||
        (rc = cz__recording_key_check(&r, key, "post", ei)) != CZ_OK ||
        (rc = cz__post_witness_make(&w, vs, rq->nvanilla, &shape, ei)) != CZ_OK)
        goto out;
    if ((rc = cz__recording_assignment(&as, &parts, 0, &r, pool, ei)) != CZ_OK ||
        (rc = cz_groth16_bp_prove(proof, key, &as, 1, opts, ei)) != CZ_OK ||
        (rc = cz_groth16_vk_from_bellperson(&vk, &key->vk, ei)) != CZ_OK ||
        (rc = public_of(&pub, &pp, 0, ei)) != CZ_OK)
        goto out;
    if ((rc = cz_groth16_verify(&vk, &pub, proof, ei)) != CZ_OK)
        rc = cz_fail(ei, rc, "post: the proof does not verify against the key's vk");
out:
    cz_groth16_public_free(&pub);
    cz_groth16_vk_free(&vk);
    cz_assignment_free(&as);
    cz_r1cs_free(&r);
    cz__post_witness_free(&w);
    cz__post_vanillas_free(vs, rq->nvanilla);
    return rc;
}

int cz__post_verify(const cz_groth16_vk *vk, const cz_post_request *rq,
                    const cz_groth16_proof *proof, cz_errinfo *ei) {
    cz__post_vanilla *vs = NULL;
    cz__post_shape shape;
    cz__post_witness w;
    cz_groth16_public pub = {0};
    cz__post_kind kind = CZ__POST_WINNING;
    uint64_t size = 0;
    int v1 = 0, rc;
    memset(&w, 0, sizeof w);
    if ((rc = cz__post_request_load(&vs, &shape, rq, 0, NULL, ei)) != CZ_OK)
        return rc;
    cz__post_registered(&kind, &size, &v1, rq->registered_proof, NULL);
    /* the challenges the verifier derives, not the paths' indexes */
    for (size_t i = 0; i < rq->nvanilla; i++)
        for (unsigned n = 0; n < vs[i].nproofs; n++)
            vs[i].proofs[n].leaf_index = cz__post_leaf_challenge(
                rq->randomness, vs[i].sector_id,
                cz__post_index_base(&shape, v1, rq->partition, i) + n, shape.nleaves);
    const post_part pp = {&w, &shape};
    if ((rc = cz__post_witness_make(&w, vs, rq->nvanilla, &shape, ei)) == CZ_OK &&
        (rc = public_of(&pub, &pp, 0, ei)) == CZ_OK)
        rc = cz_groth16_verify(vk, &pub, proof, ei);
    cz_groth16_public_free(&pub);
    cz__post_witness_free(&w);
    cz__post_vanillas_free(vs, rq->nvanilla);
    return rc;
}
