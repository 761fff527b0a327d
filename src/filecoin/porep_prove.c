/*
 * PoRep C2 requests: loading, synthesis, proving and verifying (porep_prove.h).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cs/cs.h"
#include "cuzk/params.h"
#include "cuzk/r1cs.h"
#include "filecoin/porep_prove.h"
#include "filecoin/recording.h"

typedef cz_bls12381_fr fr;

int cz_porep_params_file(const cz_param_file **out, uint64_t registered_proof, cz_errinfo *ei) {
    cz__porep_config cfg;
    int rc;
    *out = NULL;
    if ((rc = cz__porep_config_get(&cfg, registered_proof, ei)) != CZ_OK)
        return rc;
    *out = cz_params_find_proof(NULL, CZ_PARAM_PROOF_POREP, cfg.sector_size, CZ_PARAM_EXT_PARAMS);
    if (*out == NULL) /* the built-in manifest has every PoRep key: a table out of step */
        return cz_fail(ei, CZ_EINTERNAL, "porep: no key file for registered proof %llu",
                       (unsigned long long)registered_proof);
    return CZ_OK;
}

void cz__porep_prover_id(uint8_t out[32], uint64_t miner_id) {
    unsigned n = 0;
    memset(out, 0, 32);
    do {
        out[n++] = (uint8_t)(miner_id & 0x7f) | (miner_id > 0x7f ? 0x80 : 0);
        miner_id >>= 7;
    } while (miner_id != 0);
}

void cz__porep_loaded_free(cz__porep_loaded *ld) {
    cz__porep_c1_free(&ld->c1);
    free(ld->challenges);
    memset(ld, 0, sizeof *ld);
}

/* The partitions' checks in parallel; each keeps its code, the message is made again serially
 * for the first failure (the check is a pure function of the C1). */
typedef struct check_ctx {
    const cz__porep_loaded *ld;
    int *rc;
} check_ctx;

static void check_partition(void *arg, size_t k) {
    check_ctx *c = arg;
    c->rc[k] = cz__porep_vanilla_check_at(&c->ld->c1, &c->ld->shape, &c->ld->graph,
                                          c->ld->challenges + k * c->ld->c1.per, (unsigned)k, NULL);
}

/* The replica id, the graph and the challenges the verifier derives from the sector's identity
 * and the C1's commitments and seeds (no vanilla proof is read). */
static int derive(cz__porep_loaded *ld, const cz_porep_request *rq, cz_errinfo *ei) {
    const cz__porep_c1 *c1 = &ld->c1;
    uint8_t prover[32], porep_id[32], comm_d[32];
    fr replica_id;
    cz__porep_prover_id(prover, rq->miner_id);
    cz__porep_id(porep_id, rq->registered_proof);
    cz_bls12381_fr_to_bytes_le(comm_d, &c1->comm_d);
    cz__porep_replica_id(&replica_id, prover, rq->sector_number, c1->ticket, comm_d, porep_id);
    if (!cz_bls12381_fr_eq(&replica_id, &c1->replica_id))
        return cz_fail(ei, CZ_EVERIFY,
                       "porep: the C1's replica_id is not the one of miner %llu, sector %llu with "
                       "its ticket and comm_d",
                       (unsigned long long)rq->miner_id, (unsigned long long)rq->sector_number);
    cz__porep_graph_init(&ld->graph, ld->shape.nodes, porep_id, ld->cfg.api_minor == 0);
    if ((ld->challenges = calloc((size_t)c1->npartitions * c1->per, sizeof *ld->challenges)) ==
        NULL)
        return cz_fail(ei, CZ_ENOMEM, "porep: %u challenges", c1->npartitions * c1->per);
    for (unsigned k = 0; k < c1->npartitions; k++)
        cz__porep_challenges_for(ld->challenges + (size_t)k * c1->per, &ld->cfg, ld->shape.nodes,
                                 &c1->replica_id, &c1->comm_r, c1->seed, k);
    return CZ_OK;
}

int cz__porep_request_load(cz__porep_loaded *ld, const cz_porep_request *rq, int check_proofs,
                           cz_threadpool *pool, cz_errinfo *ei) {
    cz__porep_envelope env;
    check_ctx cc;
    int rc;
    memset(ld, 0, sizeof *ld);
    if ((rc = cz__porep_config_get(&ld->cfg, rq->registered_proof, ei)) != CZ_OK ||
        (rc = cz__porep_shape_get(&ld->shape, ld->cfg.sector_size, ei)) != CZ_OK)
        return rc;
    if (ld->cfg.kind == CZ__POREP_NON_INTERACTIVE)
        return cz_fail(ei, CZ_EINVAL,
                       "porep: %s is proven as one SnarkPack aggregate of its %u partition "
                       "proofs; proof aggregation is not implemented",
                       ld->cfg.name, ld->cfg.partitions);
    if ((rc = cz__porep_c1_read_any(&ld->c1, &env, rq->c1, rq->c1_len, rq->registered_proof, ei)) !=
        CZ_OK)
        return rc;
    if (ld->c1.registered_proof != rq->registered_proof)
        return cz_fail(ei, CZ_EINVAL, "porep: the C1 is of registered proof %llu, the request %llu",
                       (unsigned long long)ld->c1.registered_proof,
                       (unsigned long long)rq->registered_proof);
    if (env.enveloped && env.sector_num != rq->sector_number)
        return cz_fail(ei, CZ_EINVAL, "porep: the C1 is of sector %llu, the request's %llu",
                       (unsigned long long)env.sector_num, (unsigned long long)rq->sector_number);
    if ((rc = derive(ld, rq, ei)) != CZ_OK || !check_proofs)
        return rc;
    cc.ld = ld;
    if ((cc.rc = calloc(ld->c1.npartitions, sizeof *cc.rc)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "porep: %u partitions", ld->c1.npartitions);
    cz_threadpool_run(pool, check_partition, &cc, ld->c1.npartitions);
    for (unsigned k = 0; rc == CZ_OK && k < ld->c1.npartitions; k++)
        if (cc.rc[k] != CZ_OK) /* the message, again */
            rc = cz__porep_vanilla_check_at(&ld->c1, &ld->shape, &ld->graph,
                                            ld->challenges + (size_t)k * ld->c1.per, k, ei);
    free(cc.rc);
    return rc;
}

int cz__porep_record(cz_r1cs *r, const cz__porep_shape *shape, cz_threadpool *pool,
                     cz_errinfo *ei) {
    cz__cs cs;
    cz__cs_mark top;
    int rc;
    memset(r, 0, sizeof *r);
    if ((rc = cz__cs_init(&cs, CZ__CS_RECORD, 0, ei)) != CZ_OK)
        return rc;
    if ((rc = cz__porep_circuit_blank(&cs, shape, 1, &top, ei)) == CZ_OK)
        rc = cz__cs_to_r1cs_repeat(r, &cs, &top, shape->challenges, NULL, pool, ei);
    cz__cs_free(&cs);
    return rc;
}

void cz__porep_partition_inputs(uint64_t (*out)[4], const cz__porep_loaded *ld, unsigned k) {
    const size_t n = 3 + (size_t)CZ__POREP_INPUTS_PER_CHALLENGE * ld->c1.per;
    fr *v = (fr *)out; /* same layout: converted in place */
    cz__porep_public_inputs(v, &ld->graph, &ld->c1.replica_id, &ld->c1.comm_d, &ld->c1.comm_r,
                            ld->challenges + (size_t)k * ld->c1.per, ld->c1.per);
    for (size_t i = 0; i < n; i++)
        cz_r1cs_fr_to_std(out[i], CZ_CURVE_BLS12381, v[i].l);
}

/* cz__porep_synthesize with ld untyped, as cz__recording_parts takes it. */
static int synthesize_partition(uint64_t (*out)[4], uint64_t (*a)[4], uint64_t (*b)[4],
                                uint64_t (*c)[4], const void *ld, unsigned k, const cz_r1cs *r,
                                cz_threadpool *pool, cz_errinfo *ei) {
    return cz__porep_synthesize(out, a, b, c, ld, k, r, pool, ei);
}

/* The public inputs of partition k of ld, as cz_groth16_verify takes them. */
static int public_of(cz_groth16_public *pub, const void *arg, unsigned k, cz_errinfo *ei) {
    const cz__porep_loaded *ld = arg;
    pub->curve = CZ_CURVE_BLS12381;
    pub->n = 3 + CZ__POREP_INPUTS_PER_CHALLENGE * ld->c1.per;
    if ((pub->values = calloc(pub->n, sizeof *pub->values)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "porep: %u public inputs", pub->n);
    cz__porep_partition_inputs(pub->values, ld, k);
    return CZ_OK;
}

/* The partitions of ld, as cz__recording_prove and cz__recording_verify take them. */
static cz__recording_parts parts_of(const cz__porep_loaded *ld) {
    return (cz__recording_parts){"porep", ld->c1.npartitions, ld, synthesize_partition, public_of};
}

int cz__porep_prove(cz_groth16_proof *proofs, unsigned *nproofs, const cz_bellperson_params *key,
                    const cz_porep_request *rq, cz_threadpool *pool, const cz_groth16_bp_opts *opts,
                    cz_errinfo *ei) {
    cz__porep_loaded ld;
    cz_r1cs r;
    int rc;
    *nproofs = 0;
    memset(&r, 0, sizeof r);
    if ((rc = cz__porep_request_load(&ld, rq, 1, pool, ei)) == CZ_OK &&
        (rc = cz__porep_record(&r, &ld.shape, pool, ei)) == CZ_OK) {
        const cz__recording_parts parts = parts_of(&ld);
        rc = cz__recording_prove(proofs, nproofs, key, &r, &parts, pool, opts, ei);
    }
    cz_r1cs_free(&r);
    cz__porep_loaded_free(&ld);
    return rc;
}

int cz__porep_verify(const cz_groth16_vk *vk, const cz_porep_request *rq,
                     const cz_groth16_proof *proofs, unsigned nproofs, cz_errinfo *ei) {
    cz__porep_loaded ld;
    int rc;
    if ((rc = cz__porep_request_load(&ld, rq, 0, NULL, ei)) == CZ_OK) {
        const cz__recording_parts parts = parts_of(&ld);
        rc = cz__recording_verify(vk, proofs, nproofs, &parts, ei);
    }
    cz__porep_loaded_free(&ld);
    return rc;
}
