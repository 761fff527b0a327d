/*
 * A 2 KiB WindowPoSt partition proven end to end on the CPU: two real sectors opened at their
 * challenges under a randomness, their vanilla proofs written as a request carries them, read
 * back and checked natively; the circuit recorded once from its blank synthesis, a local key made
 * from the recording (bellperson's format, seeded trapdoor: insecure), the witness synthesized
 * alone (WITNESS mode) into the recorded matrices, the bellperson prover, and cuzk's verifier
 * (checked against @noble/curves elsewhere, interop_bellperson_verify) with the public inputs of
 * the vanilla proofs (per sector comm_r, then each challenged leaf's index). A wrong index among
 * them must fail; the witness of the PROVE mode must give the same assignment as WITNESS plus the
 * recorded matrices; a short partition (one sector, repeated) proves too. The recording that the
 * engine uses (one sector replicated) must equal the one synthesized sector after sector, and
 * the witness and the rows' a, b, c the engine synthesizes (sector chunks on a pool, no LCs) the
 * single WITNESS system's witness and what the recorded matrices give. A request loaded on a pool
 * must decode to the same proofs as on one thread, and report the same first fault.
 */
#include <string.h>

#include "cs/cs.h"
#include "cuzk/assignment.h"
#include "cuzk/groth16.h"
#include "cuzk/groth16_bellperson.h"
#include "cuzk/groth16_setup.h"
#include "cuzk/r1cs.h"
#include "cuzk/threadpool.h"
#include "filecoin/post_circuit.h"
#include "filecoin/post_prove.h"
#include "filecoin/post_shape.h"
#include "filecoin/post_vanilla.h"
#include "post_fixture.h"
#include "same_r1cs.h"
#include "test.h"

typedef cz_bls12381_fr fr;

/* Vanilla proof bytes for sector id under randomness r (V1_1 challenges), as a request carries
 * them, decoded and checked. */
static int vanilla_of(cz__post_vanilla *v, pf_sector *x, const uint8_t r[32], uint64_t id,
                      const cz__post_shape *shape) {
    unsigned idx[10];
    cz__post_vanilla made;
    uint8_t *bytes = NULL;
    size_t len = 0;
    cz_errinfo ei;
    int ok;
    for (unsigned n = 0; n < 10; n++)
        idx[n] = (unsigned)cz__post_leaf_challenge(r, id, n, shape->nleaves);
    pf_sector_make(x, (unsigned)id, idx, 10);
    if (!CHECK(pf_vanilla(&made, x, id)))
        return 0;
    cz_errinfo_clear(&ei);
    ok = CHECK_EQ_INT(cz__post_vanilla_encode(&bytes, &len, &made, shape, &ei), CZ_OK) &&
         CHECK_EQ_INT(len, 5680) &&
         CHECK_EQ_INT(cz__post_vanilla_decode(v, shape, 10, bytes, len, 0, &ei), CZ_OK) &&
         CHECK_EQ_INT(cz__post_vanilla_check(v, shape, r, 0, &ei), CZ_OK);
    if (!ok)
        fprintf(stderr, "vanilla: %s\n", ei.msg);
    free(bytes);
    cz__post_vanilla_free(&made);
    return ok;
}

/* Proves the partition of the nvs vanilla proofs vs (the last repeated to 2 sectors) with the
 * key and checks the proof against the public inputs computed from the proofs; a changed
 * challenge index among them must fail. */
static void prove_partition(const cz_r1cs *shape_r1cs, const cz_bellperson_params *params,
                            const cz_groth16_vk *vk, const cz__post_vanilla *vs, size_t nvs,
                            const cz__post_shape *shape, cz_threadpool *pool, int check_prove) {
    cz__post_witness w;
    cz__cs wit;
    cz_r1cs r = *shape_r1cs;
    cz_assignment as;
    cz_groth16_proof proof;
    cz_groth16_public pub = {0};
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (!CHECK_EQ_INT(cz__post_witness_make(&w, vs, nvs, shape, &ei), CZ_OK))
        return;
    CHECK_EQ_INT(cz__cs_init(&wit, CZ__CS_WITNESS, 0, NULL), CZ_OK);
    cz__post_circuit(&wit, w.sectors, w.nsectors);
    if (CHECK_EQ_INT(cz__cs_values_to_r1cs(&r, &wit, &ei), CZ_OK)) {
        /* the engine's synthesis: the same witness, and each row's a, b, c what the recorded
         * matrices give (with the input rows), also with the witness alone */
        const size_t n = (size_t)r.nrows + r.npublic + 1;
        uint64_t(*filled)[4] = calloc(r.nvars, sizeof *filled), (*abc[3])[4], (*ref[3])[4];
        for (int m = 0; m < 3; m++) {
            abc[m] = calloc(n, sizeof *abc[m]);
            ref[m] = calloc(n, sizeof *ref[m]);
        }
        if (CHECK(filled != NULL && abc[0] && abc[1] && abc[2] && ref[0] && ref[1] && ref[2]) &&
            CHECK_EQ_INT(
                cz__post_synthesize(filled, abc[0], abc[1], abc[2], &w, shape, &r, pool, &ei),
                CZ_OK) &&
            CHECK_EQ_INT(
                cz_r1cs_eval(ref[0], ref[1], ref[2], &r, n, CZ_R1CS_EVAL_INPUT_ROWS, pool, &ei),
                CZ_OK)) {
            CHECK(memcmp(filled, r.w, r.nvars * sizeof *filled) == 0);
            for (int m = 0; m < 3; m++)
                CHECK(memcmp(abc[m], ref[m], n * sizeof *abc[m]) == 0);
            memset(filled, 0, r.nvars * sizeof *filled);
            CHECK_EQ_INT(cz__post_synthesize(filled, NULL, NULL, NULL, &w, shape, &r, NULL, &ei),
                         CZ_OK);
            CHECK(memcmp(filled, r.w, r.nvars * sizeof *filled) == 0);
        }
        free(filled);
        for (int m = 0; m < 3; m++) {
            free(abc[m]);
            free(ref[m]);
        }
    }
    if (ei.code == CZ_OK && CHECK_EQ_INT(cz_r1cs_check(&r, pool, NULL, &ei), CZ_OK) &&
        CHECK_EQ_INT(cz_r1cs_assignment_make(&as, &r, pool, &ei), CZ_OK)) {
        if (check_prove) { /* the same assignment row by row (bellperson's ProvingAssignment) */
            cz__cs prv;
            cz_assignment direct;
            CHECK_EQ_INT(cz__cs_init(&prv, CZ__CS_PROVE, 0, NULL), CZ_OK);
            cz__post_circuit(&prv, w.sectors, w.nsectors);
            if (CHECK_EQ_INT(cz__cs_assignment(&direct, &prv, &ei), CZ_OK))
                CHECK(direct.abc_size == as.abc_size &&
                      memcmp(direct.a, as.a, as.abc_size * sizeof *as.a) == 0 &&
                      memcmp(direct.b, as.b, as.abc_size * sizeof *as.b) == 0 &&
                      memcmp(direct.c, as.c, as.abc_size * sizeof *as.c) == 0);
            cz__cs_free(&prv);
        }
        if (CHECK_EQ_INT(cz_groth16_bp_prove(&proof, params, &as, 1, NULL, &ei), CZ_OK)) {
            pub.curve = CZ_CURVE_BLS12381;
            pub.n = (uint32_t)(w.nsectors * (1 + shape->challenges));
            pub.values = calloc(pub.n, sizeof *pub.values);
            if (CHECK(pub.values != NULL)) {
                cz__post_public_inputs(pub.values, &w, shape);
                CHECK_EQ_INT(cz_groth16_verify(vk, &pub, &proof, &ei), CZ_OK);
                pub.values[5][0] ^= 1; /* a challenge index of sector 0 */
                CHECK_EQ_INT(cz_groth16_verify(vk, &pub, &proof, NULL), CZ_EVERIFY);
            }
            cz_groth16_public_free(&pub);
        }
        cz_assignment_free(&as);
    }
    if (ei.code != CZ_OK)
        fprintf(stderr, "partition: %s\n", ei.msg);
    cz__cs_free(&wit);
    cz__post_witness_free(&w);
}

/* cz__post_record (one sector replicated) against the sector-after-sector recording, for
 * WindowPoSt 2 KiB (2 sectors of 10 challenges) and WinningPoSt 2 KiB (66 of 1). */
static void test_record(void) {
    static const cz__post_kind kinds[2] = {CZ__POST_WINDOW, CZ__POST_WINNING};
    cz_threadpool *pool = NULL;
    if (!CHECK_EQ_INT(cz_threadpool_create(&pool, 2, NULL), CZ_OK))
        return;
    for (int k = 0; k < 2; k++) {
        cz__post_shape shape;
        cz_r1cs rep, dir;
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        if (!CHECK_EQ_INT(cz__post_shape_get(&shape, kinds[k], 2048, NULL), CZ_OK))
            continue;
        if (CHECK_EQ_INT(cz__post_record(&rep, &shape, pool, &ei), CZ_OK) &&
            CHECK_EQ_INT(cz__post_record_direct(&dir, &shape, &ei), CZ_OK))
            CHECK(same_r1cs(&rep, &dir));
        if (ei.code != CZ_OK)
            fprintf(stderr, "record: %s\n", ei.msg);
        cz_r1cs_free(&rep);
        cz_r1cs_free(&dir);
    }
    cz_threadpool_destroy(pool);
}

/* The bytes a request carries for sector id, opened at the V1_1 challenges of randomness r. */
static int vanilla_bytes(uint8_t **bytes, size_t *len, pf_sector *x, const uint8_t r[32],
                         uint64_t id, const cz__post_shape *shape) {
    unsigned idx[10];
    cz__post_vanilla made;
    int ok;
    for (unsigned n = 0; n < 10; n++)
        idx[n] = (unsigned)cz__post_leaf_challenge(r, id, n, shape->nleaves);
    pf_sector_make(x, (unsigned)id, idx, 10);
    ok = CHECK(pf_vanilla(&made, x, id)) &&
         CHECK_EQ_INT(cz__post_vanilla_encode(bytes, len, &made, shape, NULL), CZ_OK);
    cz__post_vanilla_free(&made);
    return ok;
}

/* Loads rq on the pool and on this thread alone: both must end with want, with the same message
 * (which must contain expect) or the same decoded proofs. */
static void load_both(const cz_post_request *rq, cz_threadpool *pool, int want,
                      const char *expect) {
    cz__post_vanilla *vp = NULL, *vs = NULL;
    cz__post_shape shape;
    cz_errinfo ep, es;
    cz_errinfo_clear(&ep);
    cz_errinfo_clear(&es);
    CHECK_EQ_INT(cz__post_request_load(&vp, &shape, rq, 1, pool, &ep), want);
    CHECK_EQ_INT(cz__post_request_load(&vs, &shape, rq, 1, NULL, &es), want);
    CHECK_EQ_STR(ep.msg, es.msg);
    if (expect != NULL && !CHECK(strstr(ep.msg, expect) != NULL))
        fprintf(stderr, "  got \"%s\", want \"%s\" in it\n", ep.msg, expect);
    if (want == CZ_OK && CHECK(vp != NULL && vs != NULL))
        for (size_t i = 0; i < rq->nvanilla; i++) {
            CHECK(vp[i].sector_id == vs[i].sector_id && vp[i].nproofs == vs[i].nproofs &&
                  memcmp(&vp[i].comm_r, &vs[i].comm_r, sizeof vs[i].comm_r) == 0);
            for (unsigned n = 0; n < vs[i].nproofs && n < vp[i].nproofs; n++) {
                const cz__post_inclusion *x = &vp[i].proofs[n], *y = &vs[i].proofs[n];
                CHECK(x->leaf_index == y->leaf_index && x->nlevels == y->nlevels &&
                      memcmp(&x->leaf, &y->leaf, sizeof x->leaf) == 0 &&
                      memcmp(x->sib, y->sib, sizeof x->sib) == 0);
            }
        }
    CHECK(want == CZ_OK || (vp == NULL && vs == NULL));
    cz__post_vanillas_free(vp, rq->nvanilla);
    cz__post_vanillas_free(vs, rq->nvanilla);
}

/* cz__post_request_load spreads the decoding and the checks over a pool: the same proofs, and
 * with several faults the first in request order (decoding, sector order, comm_r, inclusion
 * proofs by index), whichever thread met it. */
static void test_request_load(void) {
    static pf_sector sec[3];
    cz__post_shape shape;
    cz_threadpool *pool = NULL;
    uint8_t rnd[32], other[32], *b[3] = {NULL, NULL, NULL}, *bad = NULL;
    size_t len[3] = {0, 0, 0}, badlen = 0;
    const uint8_t *vv[3];
    size_t vl[3];
    cz_post_request rq;
    for (int i = 0; i < 32; i++) {
        rnd[i] = (uint8_t)(5 * i + 1);
        other[i] = (uint8_t)(7 * i + 2);
    }
    rnd[31] &= 0x3f;
    other[31] &= 0x3f;
    if (!CHECK_EQ_INT(cz__post_shape_get(&shape, CZ__POST_WINDOW, 2048, NULL), CZ_OK) ||
        !CHECK_EQ_INT(cz_threadpool_create(&pool, 3, NULL), CZ_OK))
        return;
    /* sectors 1001 and 1002 of the randomness; 1003 opened at another randomness' challenges */
    if (!vanilla_bytes(&b[0], &len[0], &sec[0], rnd, 1001, &shape) ||
        !vanilla_bytes(&b[1], &len[1], &sec[1], rnd, 1002, &shape) ||
        !vanilla_bytes(&bad, &badlen, &sec[2], other, 1003, &shape))
        goto out;
    memset(&rq, 0, sizeof rq);
    rq.registered_proof = 10; /* WindowPoSt 2 KiB V1_1 */
    memcpy(rq.randomness, rnd, 32);
    rq.vanilla = vv;
    rq.vanilla_len = vl;
    rq.nvanilla = 2;
    vv[0] = b[0], vl[0] = len[0], vv[1] = b[1], vl[1] = len[1];
    load_both(&rq, pool, CZ_OK, NULL);
    /* proof 1 opens other leaves */
    vv[1] = bad, vl[1] = badlen;
    load_both(&rq, pool, CZ_EVERIFY, "sector 1003: challenge 0: the path opens leaf");
    /* and proof 0's comm_r changed (its lowest bit: still a field element) */
    b[0][8] ^= 1;
    load_both(&rq, pool, CZ_EVERIFY, "sector 1001: comm_r is not Poseidon");
    /* a proof cut short after both: still sector 1001 */
    vv[1] = b[1], vl[1] = len[1] - 1;
    load_both(&rq, pool, CZ_EVERIFY, "sector 1001: comm_r is not Poseidon");
    /* before both: proof 0 cut short */
    b[0][8] ^= 1;
    vv[1] = bad, vl[1] = badlen;
    vl[0] = len[0] - 1;
    load_both(&rq, pool, CZ_EFORMAT, "vanilla proof 0");
    /* sectors out of order come before the later proof's checks */
    vl[0] = len[0];
    vv[0] = b[1], vl[0] = len[1];
    vv[1] = b[0], vl[1] = len[0];
    load_both(&rq, pool, CZ_EINVAL, "sector 1001 after sector 1002");
out:
    for (int i = 0; i < 3; i++)
        free(b[i]);
    free(bad);
    cz_threadpool_destroy(pool);
}

static void test_window_post_2k(void) {
    static pf_sector sec[2];
    cz__post_shape shape;
    cz__cs rec;
    cz_r1cs r;
    cz_bellperson_params params;
    cz_groth16_vk vk;
    cz_groth16_trapdoor td;
    cz__post_vanilla vs[2];
    cz_threadpool *pool = NULL;
    cz_errinfo ei;
    uint8_t rnd[32];
    cz_errinfo_clear(&ei);
    memset(&params, 0, sizeof params);
    memset(&vk, 0, sizeof vk);
    memset(vs, 0, sizeof vs);
    memset(&r, 0, sizeof r);
    for (int i = 0; i < 32; i++)
        rnd[i] = (uint8_t)(3 * i + 11);
    rnd[31] &= 0x3f;
    if (!CHECK_EQ_INT(cz__post_shape_get(&shape, CZ__POST_WINDOW, 2048, NULL), CZ_OK) ||
        !CHECK_EQ_INT(cz_threadpool_create(&pool, 0, NULL), CZ_OK))
        return;
    /* the shape, recorded once, and a key for it */
    CHECK_EQ_INT(cz__cs_init(&rec, CZ__CS_RECORD, 0, NULL), CZ_OK);
    CHECK_EQ_INT(cz__post_circuit_blank(&rec, &shape.tree, shape.nleaves, shape.sectors,
                                        shape.challenges, NULL),
                 CZ_OK);
    if (!CHECK_EQ_INT(cz__cs_to_r1cs(&r, &rec, &ei), CZ_OK))
        goto out;
    cz_groth16_trapdoor_from_seed(&td, (const uint8_t *)"post-2k", 7);
    if (!CHECK_EQ_INT(cz_groth16_setup_bellperson(&params, &r, &td, pool, -1, &ei), CZ_OK) ||
        !CHECK_EQ_INT(cz_groth16_vk_from_bellperson(&vk, &params.vk, &ei), CZ_OK))
        goto out;
    CHECK_EQ_INT(params.vk.nic, 23);
    if (vanilla_of(&vs[0], &sec[0], rnd, 1001, &shape) &&
        vanilla_of(&vs[1], &sec[1], rnd, 1002, &shape)) {
        prove_partition(&r, &params, &vk, vs, 2, &shape, pool, 1);
        prove_partition(&r, &params, &vk, vs, 1, &shape, pool, 0); /* short: sector 1 repeated */
    }
out:
    if (ei.code != CZ_OK)
        fprintf(stderr, "window-post 2k: %s\n", ei.msg);
    cz__post_vanilla_free(&vs[0]);
    cz__post_vanilla_free(&vs[1]);
    cz_groth16_vk_free(&vk);
    cz_bellperson_params_free(&params);
    cz_r1cs_free(&r);
    cz__cs_free(&rec);
    cz_threadpool_destroy(pool);
}

static const test_case cases[] = {{"record", test_record},
                                  {"request_load", test_request_load},
                                  {"window_post_2k", test_window_post_2k}};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
