/*
 * Proving and verifying SnapDeals updates (snap_prove.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cs/cs.h"
#include "cuzk/assignment.h"
#include "cuzk/r1cs.h"
#include "filecoin/recording.h"
#include "filecoin/snap_prove.h"
#include "filecoin/synth_chunks.h"

typedef cz_bls12381_fr fr;

static const uint64_t registered_sizes[5] = {
    UINT64_C(1) << 11, UINT64_C(1) << 23, UINT64_C(1) << 29, UINT64_C(1) << 35, UINT64_C(1) << 36};

int cz__snap_registered(uint64_t *sector_size, uint64_t id, cz_errinfo *ei) {
    if (id >= 5)
        return cz_fail(ei, CZ_EINVAL,
                       "snap: registered update proof %llu is unknown (0-4: 2 KiB, 8 MiB, 512 MiB, "
                       "32 GiB, 64 GiB)",
                       (unsigned long long)id);
    *sector_size = registered_sizes[id];
    return CZ_OK;
}

int cz__snap_registered_id(uint64_t *id, uint64_t sector_size, cz_errinfo *ei) {
    for (uint64_t i = 0; i < 5; i++)
        if (registered_sizes[i] == sector_size) {
            *id = i;
            return CZ_OK;
        }
    return cz_fail(ei, CZ_EINVAL, "snap: no registered update proof for %llu-byte sectors",
                   (unsigned long long)sector_size);
}

int cz_snap_params_file(const cz_param_file **out, uint64_t registered_proof, cz_errinfo *ei) {
    uint64_t size = 0;
    int rc;
    *out = NULL;
    if ((rc = cz__snap_registered(&size, registered_proof, ei)) != CZ_OK)
        return rc;
    *out = cz_params_find_proof(NULL, CZ_PARAM_PROOF_UPDATE, size, CZ_PARAM_EXT_PARAMS);
    if (*out == NULL) /* the built-in manifest has every update key: a table out of step */
        return cz_fail(ei, CZ_EINTERNAL, "snap: no key file for registered update proof %llu",
                       (unsigned long long)registered_proof);
    return CZ_OK;
}

/* ---- loading ---- */

void cz__snap_loaded_free(cz__snap_loaded *ld) {
    if (ld->v != NULL)
        for (unsigned k = 0; k < ld->shape.partitions; k++)
            cz__snap_vanilla_free(&ld->v[k]);
    free(ld->v);
    memset(ld, 0, sizeof *ld);
}

typedef struct {
    cz__snap_loaded *ld;
    const cz_snap_request *rq;
    int check;
    int *rc;
} load_ctx;

/* Partition k decoded and checked; its result in rc[k] (the message again, serially, on error). */
static void load_partition(void *arg, size_t k) {
    load_ctx *c = arg;
    cz__snap_public pub = c->ld->pub;
    pub.k = (uint32_t)k;
    c->rc[k] = cz__snap_vanilla_decode(&c->ld->v[k], &c->ld->shape, c->rq->vanilla[k],
                                       c->rq->vanilla_len[k], (uint32_t)k, NULL);
    if (c->rc[k] == CZ_OK && c->check)
        c->rc[k] = cz__snap_vanilla_check(&c->ld->v[k], &c->ld->shape, &pub, NULL);
}

/* What the verifier knows of rq: the shape and the commitments (pub.k 0). */
static int load_public(cz__snap_loaded *ld, const cz_snap_request *rq, cz_errinfo *ei) {
    static const char *const names[3] = {"comm_r_old", "comm_d_new", "comm_r_new"};
    const uint8_t *comm[3] = {rq->comm_r_old, rq->comm_d_new, rq->comm_r_new};
    fr *dst[3] = {&ld->pub.comm_r_old, &ld->pub.comm_d_new, &ld->pub.comm_r_new};
    uint64_t size = 0;
    int rc;
    memset(ld, 0, sizeof *ld);
    if ((rc = cz__snap_registered(&size, rq->registered_proof, ei)) != CZ_OK ||
        (rc = cz__snap_shape_get(&ld->shape, size,
                                 rq->poseidon ? CZ__SNAP_POSEIDON : CZ__SNAP_SHA256, ei)) != CZ_OK)
        return rc;
    for (int i = 0; i < 3; i++)
        if (cz_bls12381_fr_from_bytes_le(dst[i], comm[i]) != CZ_OK)
            return cz_fail(ei, CZ_EINVAL, "snap: %s is not below r", names[i]);
    ld->pub.h = ld->shape.hs[3]; /* h_default */
    return CZ_OK;
}

int cz__snap_request_load(cz__snap_loaded *ld, const cz_snap_request *rq, int check,
                          cz_threadpool *pool, cz_errinfo *ei) {
    load_ctx c;
    int rc;
    if ((rc = load_public(ld, rq, ei)) != CZ_OK)
        return rc;
    if (rq->nvanilla != ld->shape.partitions)
        return cz_fail(ei, CZ_EINVAL,
                       "snap: %zu vanilla proofs for the %u partitions of a %llu-byte "
                       "sector",
                       rq->nvanilla, ld->shape.partitions,
                       (unsigned long long)ld->shape.sector_size);
    ld->v = calloc(ld->shape.partitions, sizeof *ld->v);
    c.rc = calloc(ld->shape.partitions, sizeof *c.rc);
    if (ld->v == NULL || c.rc == NULL) {
        free(c.rc);
        return cz_fail(ei, CZ_ENOMEM, "snap: %u partitions", ld->shape.partitions);
    }
    c.ld = ld;
    c.rq = rq;
    c.check = check;
    cz_threadpool_run(pool, load_partition, &c, ld->shape.partitions);
    for (unsigned k = 0; rc == CZ_OK && k < ld->shape.partitions; k++)
        if (c.rc[k] != CZ_OK) { /* the message, again */
            cz__snap_public pub = ld->pub;
            cz__snap_vanilla_free(&ld->v[k]);
            pub.k = k;
            if ((rc = cz__snap_vanilla_decode(&ld->v[k], &ld->shape, rq->vanilla[k],
                                              rq->vanilla_len[k], k, ei)) == CZ_OK)
                rc = cz__snap_vanilla_check(&ld->v[k], &ld->shape, &pub, ei);
        }
    free(c.rc);
    return rc;
}

/* ---- proving ---- */

int cz__snap_record(cz_r1cs *r, const cz__snap_shape *shape, cz_threadpool *pool, cz_errinfo *ei) {
    const size_t nbits = cz__snap_rand_bits(shape);
    cz__cs cs;
    cz__cs_mark top;
    uint32_t *gen = NULL;
    int rc;
    memset(r, 0, sizeof *r);
    if ((rc = cz__cs_init(&cs, CZ__CS_RECORD, 0, ei)) != CZ_OK)
        return rc;
    if ((rc = cz__snap_circuit_blank_first(&cs, shape, &top, &gen, ei)) == CZ_OK) {
        const cz__cs_copy_vars bits = {gen, gen, nbits};
        rc = cz__cs_to_r1cs_repeat(r, &cs, &top, shape->challenges, &bits, pool, ei);
    }
    free(gen);
    cz__cs_free(&cs);
    return rc;
}

/* A partition's synthesis in chunks (synth_chunks.h): the top, then a chunk per challenge. */
typedef struct snap_chunks {
    const cz__snap_shape *shape;
    const cz__snap_witness *w;
    cz__snap_top top;
} snap_chunks;

static void snap_top(cz__cs *cs, void *ctx) {
    snap_chunks *sc = ctx;
    cz__snap_circuit_top(cs, sc->shape, &sc->w->p, &sc->top);
}

static void snap_challenge(cz__cs *cs, void *ctx, size_t c) {
    const snap_chunks *sc = ctx;
    cz__snap_circuit_challenge(cs, sc->shape, &sc->w->p.challenges[c], &sc->top, c);
}

/* Partition k in full (bits NULL) or compact, as the two entry points take it. */
static int synthesize(uint64_t (*out)[4], uint64_t (*a)[4], uint64_t (*b)[4], uint64_t (*c)[4],
                      uint64_t *bits, const cz__snap_loaded *ld, unsigned k, const cz_r1cs *r,
                      cz_threadpool *pool, cz_errinfo *ei) {
    cz__snap_public pub = ld->pub;
    cz__snap_witness w;
    snap_chunks ctx;
    cz__synth_chunks sc = {"snap", ld->shape.challenges, &ctx, snap_top, snap_challenge};
    int rc;
    pub.k = k;
    if ((rc = cz__snap_witness_make(&w, &ld->v[k], &ld->shape, &pub, ei)) != CZ_OK)
        return rc;
    memset(&ctx, 0, sizeof ctx);
    ctx.shape = &ld->shape;
    ctx.w = &w;
    rc = cz__synth_chunks_run(out, a, b, c, bits, &sc, k, r, pool, ei);
    cz__snap_top_free(&ctx.top);
    cz__snap_witness_free(&w);
    return rc;
}

int cz__snap_synthesize(uint64_t (*out)[4], uint64_t (*a)[4], uint64_t (*b)[4], uint64_t (*c)[4],
                        const cz__snap_loaded *ld, unsigned k, const cz_r1cs *r,
                        cz_threadpool *pool, cz_errinfo *ei) {
    return synthesize(out, a, b, c, NULL, ld, k, r, pool, ei);
}

int cz__snap_synthesize_compact(uint64_t *bits, uint64_t (*vals)[4], const cz__snap_loaded *ld,
                                unsigned k, const cz_r1cs *r, cz_threadpool *pool, cz_errinfo *ei) {
    return synthesize(vals, NULL, NULL, NULL, bits, ld, k, r, pool, ei);
}

void cz__snap_partition_inputs(uint64_t (*out)[4], const cz__snap_loaded *ld, unsigned k) {
    cz__snap_public p = ld->pub;
    fr v[4];
    p.k = k;
    cz__snap_public_inputs(v, &ld->shape, &p);
    for (int i = 0; i < 4; i++)
        cz_r1cs_fr_to_std(out[i], CZ_CURVE_BLS12381, v[i].l);
}

/* cz__snap_synthesize with ld untyped, as cz__recording_parts takes it. */
static int synthesize_partition(uint64_t (*out)[4], uint64_t (*a)[4], uint64_t (*b)[4],
                                uint64_t (*c)[4], const void *ld, unsigned k, const cz_r1cs *r,
                                cz_threadpool *pool, cz_errinfo *ei) {
    return cz__snap_synthesize(out, a, b, c, ld, k, r, pool, ei);
}

/* The public inputs of partition k of ld, as cz_groth16_verify takes them. */
static int public_of(cz_groth16_public *pub, const void *ld, unsigned k, cz_errinfo *ei) {
    pub->curve = CZ_CURVE_BLS12381;
    pub->n = 4;
    if ((pub->values = calloc(4, sizeof *pub->values)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "snap: public inputs");
    cz__snap_partition_inputs(pub->values, ld, k);
    return CZ_OK;
}

/* The partitions of ld, as cz__recording_prove and cz__recording_verify take them. */
static cz__recording_parts parts_of(const cz__snap_loaded *ld) {
    return (cz__recording_parts){"snap", ld->shape.partitions, ld, synthesize_partition, public_of};
}

int cz__snap_prove(cz_groth16_proof *proofs, unsigned *nproofs, const cz_bellperson_params *key,
                   const cz__snap_loaded *ld, cz_threadpool *pool, const cz_groth16_bp_opts *opts,
                   cz_errinfo *ei) {
    const cz__recording_parts parts = parts_of(ld);
    cz_r1cs r;
    int rc;
    *nproofs = 0;
    if ((rc = cz__snap_record(&r, &ld->shape, pool, ei)) == CZ_OK)
        rc = cz__recording_prove(proofs, nproofs, key, &r, &parts, pool, opts, ei);
    cz_r1cs_free(&r);
    return rc;
}

int cz__snap_verify(const cz_groth16_vk *vk, const cz_snap_request *rq,
                    const cz_groth16_proof *proofs, unsigned nproofs, cz_errinfo *ei) {
    cz__snap_loaded ld;
    int rc;
    if ((rc = load_public(&ld, rq, ei)) == CZ_OK) {
        const cz__recording_parts parts = parts_of(&ld);
        rc = cz__recording_verify(vk, proofs, nproofs, &parts, ei);
    }
    cz__snap_loaded_free(&ld);
    return rc;
}
