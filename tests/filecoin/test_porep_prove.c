/*
 * PoRep C2 requests (src/filecoin/porep_prove.h) on a 2 KiB sector sealed here (porep_seal.h)
 * and sent in Curio's envelope.
 *
 * The prover id is the miner's ID address payload (a LEB128 varint: the bytes are written here
 * from the definition). A request for the sector loads: the C1's replica id is the one derived
 * from the miner, the sector, the ticket and comm_d, and every partition passes the native check.
 * The partition's synthesis (PROVE, rows evaluated as they are enforced, into the recorded order,
 * the top and each challenge a system of its own) must give a witness that satisfies the recorded
 * matrices, with the public inputs the verifier derives (cz__porep_partition_inputs) and a, b, c
 * equal to A·w, B·w, C·w of the recording plus bellperson's input rows; on two threads, and in
 * WITNESS mode, the same values, and compact (booleans as bits), expanded, the same witness.
 * Refused before any synthesis, each with its code and a message
 * naming it: another miner or sector (the replica id), a sector number that is not the envelope's,
 * a registered proof that is not the C1's, a non-interactive PoRep (aggregation is not built), a
 * changed label (naming the partition and the challenge). The recording (the top and one
 * challenge, the others copied) is the one of every challenge recorded in turn, array for array,
 * its booleans too, at 2 KiB and (not under a sanitizer) 8 MiB.
 */
#include <stdlib.h>
#include <string.h>

#include "cs/cs.h"
#include "cuzk/r1cs.h"
#include "cuzk/threadpool.h"
#include "filecoin/porep_c1_bincode.h"
#include "filecoin/porep_circuit.h"
#include "filecoin/porep_prove.h"
#include "filecoin/porep_seal.h"
#include "test.h"

#define MINER  31337
#define SECTOR 12

static void test_prover_id(void) {
    static const struct {
        uint64_t miner;
        uint8_t bytes[4];
    } cases[] = {{0, {0}},
                 {1000, {0xe8, 0x07}},
                 {127, {0x7f}},
                 {128, {0x80, 0x01}},
                 {31337, {0xe9, 0xf4, 0x01}}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uint8_t out[32], want[32] = {0};
        memcpy(want, cases[i].bytes, sizeof cases[i].bytes);
        cz__porep_prover_id(out, cases[i].miner);
        CHECK_EQ_MEM(out, want, 32);
    }
}

/* The envelope of a sealed 2 KiB sector of MINER and SECTOR (registered proof id). */
static uint8_t *sealed_envelope(size_t *len, uint64_t id, int tamper) {
    uint8_t data[2048], prover[32], ticket[32], seed[32], *env = NULL;
    cz__porep_c1 c1;
    cz_errinfo ei;
    for (int i = 0; i < 2048; i++)
        data[i] = (uint8_t)(i * 131 + 7) & (i % 32 == 31 ? 0x3f : 0xff);
    for (int i = 0; i < 32; i++)
        ticket[i] = (uint8_t)(3 * i), seed[i] = (uint8_t)(200 - i);
    cz__porep_prover_id(prover, MINER);
    cz_errinfo_clear(&ei);
    if (!CHECK_EQ_INT(cz__porep_seal_2k(&c1, id, data, prover, SECTOR, ticket, seed, &ei), CZ_OK)) {
        fprintf(stderr, "  %s\n", ei.msg);
        return NULL;
    }
    if (tamper) /* a label of layer 2 in challenge 1's labeling proof */
        cz_bls12381_fr_add(&c1.proofs[1].labels[1].parents[3], &c1.proofs[1].labels[1].parents[3],
                           &c1.comm_d);
    if (!CHECK_EQ_INT(cz__porep_c1_write_envelope(&env, len, &c1, SECTOR, NULL), CZ_OK))
        env = NULL;
    cz__porep_c1_free(&c1);
    return env;
}

static int load(cz__porep_loaded *ld, uint64_t id, uint64_t miner, uint64_t sector,
                const uint8_t *env, size_t len, cz_errinfo *ei) {
    cz_porep_request rq = {id, miner, sector, env, len};
    cz_errinfo_clear(ei);
    return cz__porep_request_load(ld, &rq, 1, NULL, ei);
}

static void expect(int rc, int want, const cz_errinfo *ei, const char *needle) {
    CHECK_EQ_INT(rc, want);
    if (!CHECK(strstr(ei->msg, needle) != NULL))
        fprintf(stderr, "  \"%s\" lacks \"%s\"\n", ei->msg, needle);
}

/* The compact synthesis (booleans as bits) of partition 0, on two threads, expanded: the
 * witness w of the full one. The recording's booleans hold 0 or 1 in w and are nearly all of the
 * aux (SHA-256's bits: 98.7 % at 32 GiB). */
static void check_compact(const cz_r1cs *r, const uint64_t (*w)[4], const cz__porep_loaded *ld) {
    const size_t words = cz_r1cs_bool_words(r->nvars), nvals = cz_r1cs_nvals(r);
    uint64_t *bits = malloc(words * sizeof *bits), (*vals)[4] = calloc(nvals, sizeof *vals),
             (*w4)[4] = calloc(r->nvars, sizeof *w4), one[4];
    cz_threadpool *pool = NULL;
    size_t bad = 0;
    cz_r1cs_fr_from_u64(one, CZ_CURVE_BLS12381, 1);
    if (!CHECK(r->booleans != NULL && bits != NULL && vals != NULL && w4 != NULL))
        goto out;
    for (size_t v = 0; v < r->nvars; v++)
        if ((r->booleans[v / 64] >> (v % 64)) & 1u)
            bad += !(memcmp(w[v], one, 32) == 0 || (w[v][0] | w[v][1] | w[v][2] | w[v][3]) == 0);
    CHECK_EQ_INT(bad, 0);
    CHECK(nvals < r->naux / 20 && nvals > r->npublic + 1);
    memset(bits, 0xff, words * sizeof *bits); /* cleared by the synthesis */
    if (CHECK_EQ_INT(cz_threadpool_create(&pool, 2, NULL), CZ_OK) &&
        CHECK_EQ_INT(cz__porep_synthesize_compact(bits, vals, ld, 0, r, pool, NULL), CZ_OK) &&
        CHECK_EQ_INT(cz_r1cs_witness_expand(w4, r, bits, (const uint64_t(*)[4])vals, pool, NULL),
                     CZ_OK))
        CHECK_EQ_MEM(w4, w, r->nvars * sizeof *w);
out:
    cz_threadpool_destroy(pool);
    free(bits), free(vals), free(w4);
}

static void test_synthesize(void) {
    size_t len = 0;
    uint8_t *env = sealed_envelope(&len, 5, 0);
    cz__porep_loaded ld;
    cz_errinfo ei;
    cz_r1cs r;
    memset(&r, 0, sizeof r);
    if (env == NULL)
        return;
    if (!CHECK_EQ_INT(load(&ld, 5, MINER, SECTOR, env, len, &ei), CZ_OK)) {
        fprintf(stderr, "  %s\n", ei.msg);
        goto out;
    }
    if (!CHECK_EQ_INT(cz__porep_record(&r, &ld.shape, NULL, NULL), CZ_OK))
        goto out;
    const size_t ninput = (size_t)r.npublic + 1, nabc = r.nrows + ninput;
    uint64_t(*w)[4] = calloc(r.nvars, sizeof *w), (*a)[4] = calloc(nabc, sizeof *a),
    (*b)[4] = calloc(nabc, sizeof *b), (*c)[4] = calloc(nabc, sizeof *c),
    (*ea)[4] = calloc(nabc, sizeof *ea), (*eb)[4] = calloc(nabc, sizeof *eb),
    (*ec)[4] = calloc(nabc, sizeof *ec), (*pub)[4] = calloc(ninput, sizeof *pub);
    if (CHECK(w && a && b && c && ea && eb && ec && pub) &&
        CHECK_EQ_INT(cz__porep_synthesize(w, a, b, c, &ld, 0, &r, NULL, NULL), CZ_OK)) {
        memcpy(r.w, w, r.nvars * sizeof *w);
        CHECK_EQ_INT(cz_r1cs_check(&r, NULL, NULL, NULL), CZ_OK);
        cz__porep_partition_inputs(pub, &ld, 0);
        for (size_t i = 0; i < r.npublic; i++) {
            uint64_t v[4];
            cz_r1cs_fr_to_std(v, CZ_CURVE_BLS12381, w[1 + i]);
            CHECK_EQ_MEM(v, pub[i], sizeof v);
        }
        if (CHECK_EQ_INT(cz_r1cs_eval(ea, eb, ec, &r, nabc, CZ_R1CS_EVAL_INPUT_ROWS, NULL, NULL),
                         CZ_OK)) {
            CHECK_EQ_MEM(a, ea, nabc * sizeof *a);
            CHECK_EQ_MEM(b, eb, r.nrows * sizeof *b); /* the input rows' b and c are 0 */
            CHECK_EQ_MEM(c, ec, r.nrows * sizeof *c);
        }
        /* in chunks on two threads, and the witness alone: the same values */
        {
            uint64_t(*w2)[4] = calloc(r.nvars, sizeof *w2), (*a2)[4] = calloc(nabc, sizeof *a2),
            (*b2)[4] = calloc(nabc, sizeof *b2), (*c2)[4] = calloc(nabc, sizeof *c2),
            (*w3)[4] = calloc(r.nvars, sizeof *w3);
            cz_threadpool *pool = NULL;
            if (CHECK(w2 && a2 && b2 && c2 && w3) &&
                CHECK_EQ_INT(cz_threadpool_create(&pool, 2, NULL), CZ_OK) &&
                CHECK_EQ_INT(cz__porep_synthesize(w2, a2, b2, c2, &ld, 0, &r, pool, NULL), CZ_OK) &&
                CHECK_EQ_INT(cz__porep_synthesize(w3, NULL, NULL, NULL, &ld, 0, &r, pool, NULL),
                             CZ_OK)) {
                CHECK_EQ_MEM(w2, w, r.nvars * sizeof *w);
                CHECK_EQ_MEM(w3, w, r.nvars * sizeof *w);
                CHECK_EQ_MEM(a2, a, nabc * sizeof *a);
                CHECK_EQ_MEM(b2, b, nabc * sizeof *b);
                CHECK_EQ_MEM(c2, c, nabc * sizeof *c);
            }
            cz_threadpool_destroy(pool);
            free(w2), free(a2), free(b2), free(c2), free(w3);
        }
        check_compact(&r, (const uint64_t(*)[4])w, &ld);
        /* one aux value changed: a row breaks */
        r.w[ninput + r.naux / 2][0] ^= 1;
        CHECK_EQ_INT(cz_r1cs_check(&r, NULL, NULL, NULL), CZ_EVERIFY);
    }
    free(w), free(a), free(b), free(c), free(ea), free(eb), free(ec), free(pub);
out:
    cz_r1cs_free(&r);
    cz__porep_loaded_free(&ld);
    free(env);
}

static void test_refusals(void) {
    size_t len = 0, blen = 0;
    uint8_t *env = sealed_envelope(&len, 5, 0), *bad = sealed_envelope(&blen, 5, 1);
    cz__porep_loaded ld;
    cz_errinfo ei;
    if (env != NULL && bad != NULL) {
        expect(load(&ld, 5, MINER + 1, SECTOR, env, len, &ei), CZ_EVERIFY, &ei, "replica_id");
        cz__porep_loaded_free(&ld);
        expect(load(&ld, 5, MINER, SECTOR + 1, env, len, &ei), CZ_EINVAL, &ei, "sector 12");
        cz__porep_loaded_free(&ld);
        expect(load(&ld, 0, MINER, SECTOR, env, len, &ei), CZ_EINVAL, &ei, "registered proof 5");
        cz__porep_loaded_free(&ld);
        expect(load(&ld, 15, MINER, SECTOR, env, len, &ei), CZ_EINVAL, &ei, "aggregate");
        cz__porep_loaded_free(&ld);
        expect(load(&ld, 99, MINER, SECTOR, env, len, &ei), CZ_EINVAL, &ei, "99");
        cz__porep_loaded_free(&ld);
        expect(load(&ld, 5, MINER, SECTOR, bad, blen, &ei), CZ_EVERIFY, &ei,
               "partition 0, challenge 1: layer 2");
        cz__porep_loaded_free(&ld);
        expect(load(&ld, 5, MINER, SECTOR, env, len / 2, &ei), CZ_EFORMAT, &ei, "offset");
        cz__porep_loaded_free(&ld);
    }
    free(env);
    free(bad);
}

/* A bare bincode C1 (supra_seal's form) loads through the same request path; the registered
 * proof, which the bincode does not hold, is the request's: the sector's own loads, the other
 * version of the size reads but is not the sector's (its porep_id makes another replica id). */
static void test_bincode_request(void) {
    uint8_t data[2048], prover[32], ticket[32] = {1}, seed[32] = {2}, *bin = NULL;
    size_t len = 0;
    cz__porep_c1 c1;
    cz__porep_loaded ld;
    cz_errinfo ei;
    memset(data, 0, sizeof data);
    cz__porep_prover_id(prover, MINER);
    if (!CHECK_EQ_INT(cz__porep_seal_2k(&c1, 5, data, prover, SECTOR, ticket, seed, NULL), CZ_OK))
        return;
    if (CHECK_EQ_INT(cz__porep_c1_write_bincode(&bin, &len, &c1, NULL), CZ_OK)) {
        if (!CHECK_EQ_INT(load(&ld, 5, MINER, SECTOR, bin, len, &ei), CZ_OK))
            fprintf(stderr, "  %s\n", ei.msg);
        else
            CHECK_EQ_INT(ld.c1.npartitions, 1);
        cz__porep_loaded_free(&ld);
        expect(load(&ld, 0, MINER, SECTOR, bin, len, &ei), CZ_EVERIFY, &ei, "replica_id");
        cz__porep_loaded_free(&ld);
        cz__porep_c1 none;
        CHECK_EQ_INT(cz__porep_c1_read_any(&none, NULL, bin, len, UINT64_MAX, &ei), CZ_EINVAL);
        CHECK(strstr(ei.msg, "bincode") != NULL);
        cz__porep_c1_free(&none);
    }
    cz__porep_c1_free(&c1);
    free(bin);
}

static int same_mat(const cz_r1cs_mat *x, const cz_r1cs_mat *y, uint32_t nrows) {
    return x->nnz == y->nnz &&
           memcmp(x->row_ptr, y->row_ptr, (nrows + 1) * sizeof *x->row_ptr) == 0 &&
           memcmp(x->var, y->var, x->nnz * sizeof *x->var) == 0 &&
           memcmp(x->coef, y->coef, x->nnz * sizeof *x->coef) == 0;
}

static void test_record_copies(void) {
    static const uint64_t sizes[2] = {2048, UINT64_C(1) << 23};
    for (int i = 0; i < 2; i++) {
        if (i == 1 && test_plain_only("record_copies at 8 MiB"))
            break;
        cz__porep_shape shape;
        cz__cs cs;
        cz_r1cs x, y;
        cz_threadpool *pool = NULL;
        if (!CHECK_EQ_INT(cz__porep_shape_get(&shape, sizes[i], NULL), CZ_OK) ||
            !CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_RECORD, 0, NULL), CZ_OK))
            return;
        if (CHECK_EQ_INT(cz__porep_circuit_blank(&cs, &shape, 0, NULL, NULL), CZ_OK) &&
            CHECK_EQ_INT(cz__cs_to_r1cs(&x, &cs, NULL), CZ_OK)) {
            if (CHECK_EQ_INT(cz_threadpool_create(&pool, 2, NULL), CZ_OK) &&
                CHECK_EQ_INT(cz__porep_record(&y, &shape, pool, NULL), CZ_OK)) {
                CHECK(x.nrows == y.nrows && x.npublic == y.npublic && x.naux == y.naux &&
                      x.ncoefs == y.ncoefs);
                CHECK(memcmp(x.coefs, y.coefs, x.ncoefs * sizeof *x.coefs) == 0);
                CHECK(same_mat(&x.a, &y.a, x.nrows));
                CHECK(same_mat(&x.b, &y.b, x.nrows));
                CHECK(same_mat(&x.c, &y.c, x.nrows));
                CHECK(x.booleans != NULL && y.booleans != NULL &&
                      memcmp(x.booleans, y.booleans,
                             cz_r1cs_bool_words(x.nvars) * sizeof *x.booleans) == 0);
                cz_r1cs_free(&y);
            }
            cz_threadpool_destroy(pool);
            cz_r1cs_free(&x);
        }
        cz__cs_free(&cs);
    }
}

static const test_case cases[] = {{"prover_id", test_prover_id},
                                  {"record_copies", test_record_copies},
                                  {"synthesize", test_synthesize},
                                  {"refusals", test_refusals},
                                  {"bincode_request", test_bincode_request}};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
