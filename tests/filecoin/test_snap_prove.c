/*
 * The synthesis of a SnapDeals partition into a recording's order (src/filecoin/snap_prove.h:
 * cz__snap_synthesize and its compact form, in chunks by challenge, synth_chunks.h).
 *
 * Oracles: the recorded system itself (cz_r1cs_check of the synthesized witness, cz_r1cs_eval of
 * its matrices for a, b, c), the public inputs derived natively from the commitments, and the
 * synthesis on one thread against two threads, with and without a, b, c, in full and compact
 * (expanded by cz_r1cs_witness_expand): the same bytes. Updates made natively (snap_fake.h): 2 KiB
 * in both variants and the Poseidon variant at 32 KiB (tree R 8-8-2, 20 challenges).
 */
#include <stdlib.h>
#include <string.h>

#include "cs/cs.h"
#include "cuzk/r1cs.h"
#include "cuzk/threadpool.h"
#include "filecoin/snap_fake.h"
#include "filecoin/snap_circuit.h"
#include "filecoin/snap_prove.h"
#include "same_r1cs.h"
#include "test.h"

#define KIB (UINT64_C(1) << 10)

/* An update of size in variant, loaded as a request would be (every partition checked). */
static int fake_loaded(cz__snap_loaded *ld, uint64_t size, cz__snap_variant variant) {
    cz__snap_fake f;
    int ok = 1;
    memset(ld, 0, sizeof *ld);
    if (!CHECK_EQ_INT(cz__snap_fake_make(&f, size, variant, 1, 11, 0, NULL), CZ_OK)) {
        cz__snap_fake_free(&f);
        return 0;
    }
    ld->shape = f.s;
    ld->v = calloc(f.s.partitions, sizeof *ld->v);
    ok = CHECK(ld->v != NULL);
    for (uint32_t k = 0; ok && k < f.s.partitions; k++)
        ok = CHECK_EQ_INT(cz__snap_fake_partition(&ld->v[k], &ld->pub, &f, k, NULL), CZ_OK) &&
             CHECK_EQ_INT(cz__snap_vanilla_check(&ld->v[k], &f.s, &ld->pub, NULL), CZ_OK);
    ld->pub.k = 0;
    cz__snap_fake_free(&f);
    return ok;
}

/* Partition k of ld compact on pool, expanded: w. */
static void check_compact(const cz_r1cs *r, const uint64_t (*w)[4], const cz__snap_loaded *ld,
                          unsigned k, cz_threadpool *pool) {
    const size_t words = cz_r1cs_bool_words(r->nvars), nvals = cz_r1cs_nvals(r);
    uint64_t *bits = malloc(words * sizeof *bits), (*vals)[4] = calloc(nvals, sizeof *vals),
             (*w4)[4] = calloc(r->nvars, sizeof *w4);
    if (CHECK(r->booleans != NULL && bits != NULL && vals != NULL && w4 != NULL)) {
        memset(bits, 0xff, words * sizeof *bits); /* cleared by the synthesis */
        if (CHECK_EQ_INT(cz__snap_synthesize_compact(bits, vals, ld, k, r, pool, NULL), CZ_OK) &&
            CHECK_EQ_INT(
                cz_r1cs_witness_expand(w4, r, bits, (const uint64_t(*)[4])vals, pool, NULL), CZ_OK))
            CHECK_EQ_MEM(w4, w, r->nvars * sizeof *w);
    }
    free(bits), free(vals), free(w4);
}

static void check_synthesis(uint64_t size, cz__snap_variant variant) {
    cz__snap_loaded ld;
    cz_threadpool *pool = NULL;
    cz_errinfo ei;
    cz_r1cs r;
    memset(&r, 0, sizeof r);
    cz_errinfo_clear(&ei);
    if (!fake_loaded(&ld, size, variant) ||
        !CHECK_EQ_INT(cz__snap_record(&r, &ld.shape, NULL, NULL), CZ_OK) ||
        !CHECK_EQ_INT(cz_threadpool_create(&pool, 2, NULL), CZ_OK))
        goto out;
    const unsigned k = ld.shape.partitions - 1;
    const size_t ninput = (size_t)r.npublic + 1, nabc = r.nrows + ninput;
    uint64_t(*w)[4] = calloc(r.nvars, sizeof *w), (*a)[4] = calloc(nabc, sizeof *a),
    (*b)[4] = calloc(nabc, sizeof *b), (*c)[4] = calloc(nabc, sizeof *c),
    (*ea)[4] = calloc(nabc, sizeof *ea), (*eb)[4] = calloc(nabc, sizeof *eb),
    (*ec)[4] = calloc(nabc, sizeof *ec), (*w2)[4] = calloc(r.nvars, sizeof *w2),
    (*a2)[4] = calloc(nabc, sizeof *a2), (*b2)[4] = calloc(nabc, sizeof *b2),
    (*c2)[4] = calloc(nabc, sizeof *c2), (*w3)[4] = calloc(r.nvars, sizeof *w3), pub[4][4];
    if (CHECK(w && a && b && c && ea && eb && ec && w2 && a2 && b2 && c2 && w3) &&
        CHECK_EQ_INT(cz__snap_synthesize(w, a, b, c, &ld, k, &r, NULL, &ei), CZ_OK)) {
        memcpy(r.w, w, r.nvars * sizeof *w);
        CHECK_EQ_INT(cz_r1cs_check(&r, NULL, NULL, NULL), CZ_OK);
        cz__snap_partition_inputs(pub, &ld, k);
        CHECK_EQ_INT(r.npublic, 4);
        for (size_t i = 0; i < 4; i++) {
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
        if (CHECK_EQ_INT(cz__snap_synthesize(w2, a2, b2, c2, &ld, k, &r, pool, NULL), CZ_OK) &&
            CHECK_EQ_INT(cz__snap_synthesize(w3, NULL, NULL, NULL, &ld, k, &r, pool, NULL),
                         CZ_OK)) {
            CHECK_EQ_MEM(w2, w, r.nvars * sizeof *w);
            CHECK_EQ_MEM(w3, w, r.nvars * sizeof *w);
            CHECK_EQ_MEM(a2, a, nabc * sizeof *a);
            CHECK_EQ_MEM(b2, b, nabc * sizeof *b);
            CHECK_EQ_MEM(c2, c, nabc * sizeof *c);
        }
        check_compact(&r, (const uint64_t(*)[4])w, &ld, k, pool);
        /* one aux value changed: a row breaks */
        r.w[ninput + r.naux / 2][0] ^= 1;
        CHECK_EQ_INT(cz_r1cs_check(&r, NULL, NULL, NULL), CZ_EVERIFY);
    }
    if (ei.code != CZ_OK)
        fprintf(stderr, "  %s\n", ei.msg);
    free(w), free(a), free(b), free(c), free(ea), free(eb), free(ec);
    free(w2), free(a2), free(b2), free(c2), free(w3);
out:
    cz_threadpool_destroy(pool);
    cz_r1cs_free(&r);
    cz__snap_loaded_free(&ld);
}

static void test_synthesize_2k(void) {
    check_synthesis(2 * KIB, CZ__SNAP_SHA256);
}

static void test_synthesize_poseidon(void) {
    check_synthesis(2 * KIB, CZ__SNAP_POSEIDON);
    check_synthesis(32 * KIB, CZ__SNAP_POSEIDON);
}

/* cz__snap_record (the top and one challenge recorded, the others copied, each reading its own
 * generated bits) against the whole blank circuit recorded: the same r1cs, for the SHA-256
 * variant at 1 KiB and (not under a sanitizer) at 16 KiB (two partitions: partition bits in the
 * challenges) and the Poseidon one at 8 KiB (the first without a pool, the others on one). */
static void test_record_copies(void) {
    static const struct {
        uint64_t size;
        cz__snap_variant variant;
    } cases[] = {{1024, CZ__SNAP_SHA256}, {16384, CZ__SNAP_SHA256}, {8192, CZ__SNAP_POSEIDON}};
    cz_threadpool *pool = NULL;
    if (!CHECK_EQ_INT(cz_threadpool_create(&pool, 2, NULL), CZ_OK))
        return;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].size == 16384 && test_plain_only("record_copies at 16 KiB"))
            continue;
        cz__snap_shape shape;
        cz__cs cs;
        cz_r1cs whole, copied;
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        memset(&whole, 0, sizeof whole);
        if (!CHECK_EQ_INT(cz__snap_shape_get(&shape, cases[i].size, cases[i].variant, NULL),
                          CZ_OK) ||
            !CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_RECORD, 0, NULL), CZ_OK))
            continue;
        if (CHECK_EQ_INT(cz__snap_circuit_blank(&cs, &shape, 0, &ei), CZ_OK))
            CHECK_EQ_INT(cz__cs_to_r1cs(&whole, &cs, &ei), CZ_OK);
        cz__cs_free(&cs);
        CHECK(shape.challenges > 1);
        if (CHECK_EQ_INT(cz__snap_record(&copied, &shape, i ? pool : NULL, &ei), CZ_OK)) {
            CHECK(same_r1cs(&copied, &whole));
            cz_r1cs_free(&copied);
        }
        if (ei.code != CZ_OK)
            fprintf(stderr, "record_copies: %s\n", ei.msg);
        cz_r1cs_free(&whole);
    }
    cz_threadpool_destroy(pool);
}

static const test_case cases[] = {
    {"record_copies", test_record_copies},
    {"synthesize_2k", test_synthesize_2k},
    {"synthesize_poseidon", test_synthesize_poseidon},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
