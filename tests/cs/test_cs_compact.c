/*
 * Compact witnesses: the booleans a recording knows (cz__cs_alloc_bit), a WITNESS system that
 * writes its values compact (cz__cs_use_compact), in one piece and in pieces on threads, and
 * their expansion (cz_r1cs_witness_expand).
 *
 * Oracles: the generated circuit of cs_gen.h recorded with its values (RECORD, CZ__CS_VALUES): its
 * witness in full, which the expansion of the compact witness must equal byte for byte; the
 * booleans must hold 0 or 1 there. The pieces are laid out as PoRep's partitions are (a prefix,
 * then copies of one body), with bodies whose aux counts are not multiples of 64, so neighbours
 * share words of the bit array.
 */
#include <stdlib.h>
#include <string.h>

#include "cs/cs.h"
#include "cuzk/field.h"
#include "cuzk/r1cs.h"
#include "cuzk/threadpool.h"
#include "cs_gen.h"
#include "test.h"

enum { COPIES = 5, TOP_ROWS = 40, BODY_ROWS = 121 };

/* The recording of the generated circuit (seed, nrows) with its values. */
static int record(cz_r1cs *r, uint64_t seed, unsigned nrows) {
    cz__cs cs;
    int rc = cz__cs_init(&cs, CZ__CS_RECORD, CZ__CS_VALUES, NULL);
    if (rc != CZ_OK)
        return rc;
    gen_circuit(&cs, seed, nrows);
    rc = cz__cs_to_r1cs(r, &cs, NULL);
    cz__cs_free(&cs);
    return rc;
}

/* Values among variables [0, v): those that are not booleans. */
static size_t vals_before(const cz_r1cs *r, size_t v) {
    size_t n = 0;
    for (size_t i = 0; i < v; i++)
        n += !bit(r->booleans, i);
    return n;
}

/* The recording marks booleans: some aux, no input, each 0 or 1 in the witness. */
static void test_booleans(void) {
    cz_r1cs r;
    cz_bls12381_fr zero, one;
    size_t nbool = 0, bad = 0;
    if (!CHECK_EQ_INT(record(&r, 42, 500), CZ_OK))
        return;
    cz_bls12381_fr_zero(&zero);
    cz_bls12381_fr_one(&one);
    if (CHECK(r.booleans != NULL)) {
        for (uint32_t v = 0; v < r.nvars; v++) {
            const cz_bls12381_fr *x = (const cz_bls12381_fr *)r.w[v];
            if (!bit(r.booleans, v))
                continue;
            nbool++;
            bad += v <= r.npublic || !(cz_bls12381_fr_eq(x, &zero) || cz_bls12381_fr_eq(x, &one));
        }
        CHECK_EQ_INT(bad, 0);
        CHECK(nbool > 100 && nbool < r.naux);
        CHECK_EQ_INT(cz_r1cs_nvals(&r), r.nvars - nbool);
    }
    cz_r1cs_free(&r);
}

/* One WITNESS system writing compact: its expansion is the recorded witness, on one thread and on
 * a pool; an aux value reads as 0. */
static void test_expand_whole(void) {
    cz_r1cs r;
    cz__cs cs;
    cz_threadpool *pool = NULL;
    uint64_t *bits = NULL;
    cz_bls12381_fr *vals = NULL, v;
    uint64_t(*w)[4] = NULL;
    if (!CHECK_EQ_INT(record(&r, 42, 500), CZ_OK))
        return;
    const size_t nin = r.npublic + 1, nvals = cz_r1cs_nvals(&r);
    bits = calloc(cz_r1cs_bool_words(r.nvars), sizeof *bits);
    vals = calloc(nvals, sizeof *vals);
    w = calloc(r.nvars, sizeof *w);
    if (!CHECK(bits != NULL && vals != NULL && w != NULL) ||
        !CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_WITNESS, 0, NULL), CZ_OK))
        goto out;
    CHECK_EQ_INT(cz__cs_use_compact(&cs, bits, nin, r.naux, vals + nin, nvals - nin, NULL), CZ_OK);
    gen_circuit(&cs, 42, 500);
    CHECK_EQ_INT(cz__cs_status(&cs, NULL), CZ_OK);
    CHECK_EQ_INT(cs.nvals, nvals - nin);
    CHECK_EQ_INT(cs.ninput, nin);
    memcpy(vals, cs.input, nin * sizeof *vals);
    cz__cs_value(&v, &cs, cz__var_aux(1));
    CHECK(cz_bls12381_fr_is_zero(&v));
    cz__cs_free(&cs); /* frees none of the caller's */
    for (int k = 0; k < 2; k++) {
        if (k == 1 && !CHECK_EQ_INT(cz_threadpool_create(&pool, 3, NULL), CZ_OK))
            break;
        memset(w, 0xa5, r.nvars * sizeof *w);
        CHECK_EQ_INT(cz_r1cs_witness_expand(w, &r, bits, (const uint64_t(*)[4])vals, pool, NULL),
                     CZ_OK);
        CHECK(memcmp(w, r.w, r.nvars * sizeof *w) == 0);
    }
out:
    cz_threadpool_destroy(pool);
    free(bits);
    free(vals);
    free(w);
    cz_r1cs_free(&r);
}

/* ---- in pieces: a prefix, then copies of a body, one WITNESS system each ---- */

typedef struct pieces {
    const cz_r1cs *r;
    uint64_t *bits;
    cz_bls12381_fr *vals;
    cz__var pre[3];
    cz_bls12381_fr prevals[3];
    size_t nin, top_aux, top_in, body_aux, body_in;
    int rc[COPIES];
} pieces;

/* The prefix of the layout: three variables (aux, input, aux), then TOP_ROWS generated rows. */
static void gen_top(cz__cs *cs, pieces *p) {
    p->pre[0] = cz__cs_alloc(cs, &p->prevals[0]);
    p->pre[1] = cz__cs_alloc_input(cs, &p->prevals[1]);
    p->pre[2] = cz__cs_alloc(cs, &p->prevals[2]);
    gen_circuit_over(cs, 3, TOP_ROWS, p->pre, p->prevals, 3);
}

/* A WITNESS system that writes the aux [aux_at, aux_at + naux) of the layout compact. */
static int piece_init(cz__cs *cs, const pieces *p, size_t aux_at, size_t naux) {
    const size_t g0 = p->nin + aux_at, g1 = g0 + naux;
    const size_t v0 = vals_before(p->r, g0), v1 = vals_before(p->r, g1);
    int rc = cz__cs_init(cs, CZ__CS_WITNESS, 0, NULL);
    if (rc == CZ_OK &&
        (rc = cz__cs_use_compact(cs, p->bits, g0, naux, p->vals + v0, v1 - v0, NULL)) != CZ_OK)
        cz__cs_free(cs);
    return rc;
}

static void body_piece(void *arg, size_t c) {
    pieces *p = arg;
    cz__cs cs;
    if ((p->rc[c] = piece_init(&cs, p, p->top_aux + c * p->body_aux, p->body_aux)) != CZ_OK)
        return;
    gen_circuit_over(&cs, 11, BODY_ROWS, p->pre, p->prevals, 3);
    p->rc[c] = cz__cs_status(&cs, NULL);
    if (p->rc[c] == CZ_OK && (cs.naux != p->body_aux || cs.nvals != cs.cvals_cap))
        p->rc[c] = CZ_EINTERNAL;
    if (p->rc[c] == CZ_OK)
        memcpy(p->vals + p->top_in + c * p->body_in, cs.input + 1, p->body_in * sizeof *p->vals);
    cz__cs_free(&cs);
}

static void test_pieces(void) {
    pieces p;
    cz__cs all, top;
    cz_r1cs r;
    cz_threadpool *pool = NULL;
    uint64_t(*w)[4] = NULL;
    memset(&p, 0, sizeof p);
    p.prevals[0] = fr(5);
    p.prevals[1] = fr(7);
    p.prevals[2] = fr(9);
    if (!CHECK_EQ_INT(cz__cs_init(&all, CZ__CS_RECORD, CZ__CS_VALUES, NULL), CZ_OK))
        return;
    gen_top(&all, &p);
    p.top_aux = all.naux;
    p.top_in = all.ninput;
    for (int c = 0; c < COPIES; c++)
        gen_circuit_over(&all, 11, BODY_ROWS, p.pre, p.prevals, 3);
    p.body_aux = (all.naux - p.top_aux) / COPIES;
    p.body_in = (all.ninput - p.top_in) / COPIES;
    CHECK(p.body_aux % 64 != 0); /* neighbours share words */
    if (!CHECK_EQ_INT(cz__cs_to_r1cs(&r, &all, NULL), CZ_OK)) {
        cz__cs_free(&all);
        return;
    }
    cz__cs_free(&all);
    p.r = &r;
    p.nin = r.npublic + 1;
    p.bits = calloc(cz_r1cs_bool_words(r.nvars), sizeof *p.bits);
    p.vals = calloc(cz_r1cs_nvals(&r), sizeof *p.vals);
    w = calloc(r.nvars, sizeof *w);
    if (!CHECK(p.bits != NULL && p.vals != NULL && w != NULL) ||
        !CHECK_EQ_INT(cz_threadpool_create(&pool, 4, NULL), CZ_OK) ||
        !CHECK_EQ_INT(piece_init(&top, &p, 0, p.top_aux), CZ_OK))
        goto out;
    gen_top(&top, &p);
    CHECK_EQ_INT(cz__cs_status(&top, NULL), CZ_OK);
    CHECK_EQ_INT(top.nvals, top.cvals_cap);
    memcpy(p.vals, top.input, top.ninput * sizeof *p.vals);
    cz__cs_free(&top);
    cz_threadpool_run(pool, body_piece, &p, COPIES);
    for (int c = 0; c < COPIES; c++)
        CHECK_EQ_INT(p.rc[c], CZ_OK);
    CHECK_EQ_INT(cz_r1cs_witness_expand(w, &r, p.bits, (const uint64_t(*)[4])p.vals, pool, NULL),
                 CZ_OK);
    CHECK(memcmp(w, r.w, r.nvars * sizeof *w) == 0);
out:
    cz_threadpool_destroy(pool);
    free(p.bits);
    free(p.vals);
    free(w);
    cz_r1cs_free(&r);
}

/* What is refused, with messages: buffers for another mode, full buffers, a stray bit, a
 * recording without booleans, a compact system where values are needed. */
static void test_errors(void) {
    cz__cs cs, other;
    cz_errinfo ei;
    uint64_t bits[2] = {0, 0};
    cz_bls12381_fr vals[2], one;
    cz_r1cs r;
    uint64_t(*w)[4];
    cz_bls12381_fr_one(&one);
    if (CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_RECORD, 0, NULL), CZ_OK)) {
        CHECK_EQ_INT(cz__cs_use_compact(&cs, bits, 0, 64, vals, 2, NULL), CZ_EINVAL);
        cz__cs_free(&cs);
    }
    if (CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_WITNESS, 0, NULL), CZ_OK)) {
        CHECK_EQ_INT(cz__cs_use_compact(&cs, NULL, 0, 64, vals, 2, NULL), CZ_EINVAL);
        CHECK_EQ_INT(cz__cs_use_compact(&cs, bits, 0, 64, vals, 1, NULL), CZ_OK);
        CHECK_EQ_INT(cz__cs_use_compact(&cs, bits, 0, 64, vals, 1, NULL), CZ_EINVAL);
        cz__cs_alloc(&cs, &one);
        cz__cs_alloc_bit(&cs, 1);
        CHECK_EQ_INT(cz__cs_status(&cs, NULL), CZ_OK);
        CHECK_EQ_INT(bits[0], 2); /* aux 1 is the bit */
        cz__cs_alloc(&cs, &one);  /* a second value: past vals */
        cz_errinfo_clear(&ei);
        CHECK_EQ_INT(cz__cs_status(&cs, &ei), CZ_ERANGE);
        CHECK(strstr(ei.msg, "values") != NULL);
        cz__cs_free(&cs);
    }
    if (CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_WITNESS, 0, NULL), CZ_OK)) {
        CHECK_EQ_INT(cz__cs_use_compact(&cs, bits, 70, 1, vals, 2, NULL), CZ_OK);
        cz__cs_alloc_bit(&cs, 1);
        CHECK_EQ_INT(bits[1], 64); /* bit 70 */
        cz__cs_alloc_bit(&cs, 0);  /* past the range of one */
        cz_errinfo_clear(&ei);
        CHECK_EQ_INT(cz__cs_status(&cs, &ei), CZ_ERANGE);
        CHECK(strstr(ei.msg, "aux") != NULL);
        if (CHECK_EQ_INT(cz__cs_init(&other, CZ__CS_WITNESS, 0, NULL), CZ_OK)) {
            CHECK_EQ_INT(cz__cs_extend(&other, &cs, NULL), CZ_ERANGE); /* cs's error */
            cz__cs_free(&other);
        }
        cz__cs_free(&cs);
    }
    if (CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_WITNESS, 0, NULL), CZ_OK) &&
        CHECK_EQ_INT(cz__cs_init(&other, CZ__CS_WITNESS, 0, NULL), CZ_OK)) {
        CHECK_EQ_INT(cz__cs_use_compact(&cs, bits, 0, 64, vals, 2, NULL), CZ_OK);
        CHECK_EQ_INT(cz__cs_extend(&other, &cs, NULL), CZ_EINVAL);
        cz__cs_free(&other);
        cz__cs_free(&cs);
    }

    if (!CHECK_EQ_INT(record(&r, 9, 200), CZ_OK))
        return;
    const size_t nvals = cz_r1cs_nvals(&r);
    uint64_t *rbits = calloc(cz_r1cs_bool_words(r.nvars), sizeof *rbits);
    w = calloc(r.nvars, sizeof *w);
    if (CHECK(rbits != NULL && w != NULL)) {
        uint32_t v = r.nvars - 1; /* the last product: not a boolean */
        CHECK(!bit(r.booleans, v));
        rbits[v / 64] |= UINT64_C(1) << (v % 64);
        cz_errinfo_clear(&ei);
        CHECK_EQ_INT(cz_r1cs_witness_expand(w, &r, rbits, (const uint64_t(*)[4])r.w, NULL, &ei),
                     CZ_EFORMAT);
        CHECK(strstr(ei.msg, "variable") != NULL);
        CHECK(nvals < r.nvars);
        free(r.booleans);
        r.booleans = NULL;
        CHECK_EQ_INT(cz_r1cs_witness_expand(w, &r, rbits, (const uint64_t(*)[4])r.w, NULL, NULL),
                     CZ_EINVAL);
        CHECK_EQ_INT(cz_r1cs_nvals(&r), r.nvars);
    }
    free(rbits);
    free(w);
    cz_r1cs_free(&r);
}

/* Bits allocated in runs (cz__cs_alloc_bits) are the bits allocated one at a time, in a compact
 * system (runs across words, ranges sharing words) and in a WITNESS system that keeps values;
 * rows counted only in WITNESS. */
static void test_alloc_bits(void) {
    uint64_t one_by_one[4] = {0}, runs[4] = {0}, x = UINT64_C(0x9e3779b97f4a7c15);
    cz_bls12381_fr vals[1];
    cz__cs a, b, full;
    const unsigned lens[] = {1, 33, 64, 7, 35, 32};
    size_t at = 0;
    if (!CHECK_EQ_INT(cz__cs_init(&a, CZ__CS_WITNESS, 0, NULL), CZ_OK) ||
        !CHECK_EQ_INT(cz__cs_init(&b, CZ__CS_WITNESS, 0, NULL), CZ_OK) ||
        !CHECK_EQ_INT(cz__cs_init(&full, CZ__CS_WITNESS, 0, NULL), CZ_OK))
        return;
    CHECK_EQ_INT(cz__cs_use_compact(&a, one_by_one, 5, 172, vals, 0, NULL), CZ_OK);
    CHECK_EQ_INT(cz__cs_use_compact(&b, runs, 5, 172, vals, 0, NULL), CZ_OK);
    runs[0] = one_by_one[0] = 0x1f; /* a neighbour's bits below 5 */
    runs[2] = one_by_one[2] = UINT64_C(1) << 63;
    for (size_t k = 0; k < sizeof lens / sizeof *lens; k++) {
        const uint64_t v = x * (k + 1);
        CHECK_EQ_INT(cz__cs_alloc_bits(&b, v, lens[k]), at);
        CHECK_EQ_INT(cz__cs_alloc_bits(&full, v, lens[k]), at);
        for (unsigned i = 0; i < lens[k]; i++)
            cz__cs_alloc_bit(&a, (int)((v >> i) & 1u));
        at += lens[k];
    }
    CHECK_EQ_INT(at, 172);
    CHECK_EQ_INT(b.naux, 172);
    CHECK(memcmp(one_by_one, runs, sizeof runs) == 0);
    for (size_t v = 0; v < 172; v++) /* the values kept are the bits */
        CHECK(fr_is(&full.aux[v], bit(runs, 5 + v)));
    cz__cs_count_rows(&full, 10);
    CHECK_EQ_INT(full.nrows, 10);
    cz__cs_alloc_bits(&b, 1, 1); /* past the range */
    CHECK_EQ_INT(cz__cs_status(&b, NULL), CZ_ERANGE);
    cz__cs_alloc_bits(&full, 0, 65);
    CHECK_EQ_INT(cz__cs_status(&full, NULL), CZ_EINVAL);
    cz__cs_free(&a);
    cz__cs_free(&b);
    cz__cs_free(&full);
    if (CHECK_EQ_INT(cz__cs_init(&a, CZ__CS_PROVE, CZ__CS_NO_DENSITY, NULL), CZ_OK)) {
        cz__cs_count_rows(&a, 1);
        CHECK_EQ_INT(cz__cs_status(&a, NULL), CZ_EINVAL);
        cz__cs_free(&a);
    }
}

static const test_case cases[] = {
    {"alloc_bits", test_alloc_bits},
    {"booleans", test_booleans},
    {"expand_whole", test_expand_whole},
    {"pieces", test_pieces},
    {"errors", test_errors},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
