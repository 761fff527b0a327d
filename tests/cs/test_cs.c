/*
 * The synthesis layer (src/cs/cs.h) against bellpepper's rules and against the r1cs layer.
 *
 * Oracles: for merging and densities, the rules of bellpepper-core's LinearCombination and of
 * bellperson's eval_with_trackers written out by hand on tiny systems (a coefficient that sums
 * to 0 stays in the combination and counts for nothing); for the modes, two independent paths
 * over one generated circuit: PROVE evaluates every row as it is enforced (bellperson's
 * ProvingAssignment), RECORD gives a cz_r1cs whose a, b, c and densities the r1cs layer computes
 * from the matrices (cz_r1cs_assignment_make), and the generator tracks every value itself. The
 * generated circuit allocates inputs between aux variables (the remap trap), repeats and cancels
 * terms, and is satisfied by construction; one changed aux value breaks a row.
 */
#include <stdlib.h>
#include <string.h>

#include "cs/cs.h"
#include "cuzk/assignment.h"
#include "cuzk/field.h"
#include "cuzk/r1cs.h"
#include "cuzk/threadpool.h"
#include "cs_gen.h"
#include "same_r1cs.h"
#include "test.h"

static void test_lc_merge(void) {
    cz__lc lc, o;
    cz_bls12381_fr three = fr(3);
    cz__lc_init(&lc);
    cz__lc_init(&o);
    cz__lc_add(&lc, cz__var_aux(5), NULL);
    cz__lc_add(&lc, cz__var_aux(2), NULL);
    cz__lc_add(&lc, CZ__VAR_ONE, &three);
    cz__lc_add(&lc, cz__var_aux(5), NULL); /* merges: 2 */
    cz__lc_add(&lc, cz__var_aux(3), NULL);
    cz__lc_sub(&lc, cz__var_aux(3), NULL); /* cancels to 0, stays */
    CHECK_EQ_INT(lc.n, 4);
    if (CHECK(lc.n == 4)) {
        /* sorted: aux 2, 3, 5, then ONE (bit 31) */
        CHECK(lc.t[0].var == cz__var_aux(2) && fr_is(&lc.t[0].coeff, 1));
        CHECK(lc.t[1].var == cz__var_aux(3) && cz_bls12381_fr_is_zero(&lc.t[1].coeff));
        CHECK(lc.t[2].var == cz__var_aux(5) && fr_is(&lc.t[2].coeff, 2));
        CHECK(lc.t[3].var == CZ__VAR_ONE && fr_is(&lc.t[3].coeff, 3));
    }
    /* o = 3·lc - lc = 2·lc, term by term */
    cz__lc_add_lc(&o, &lc, &three);
    cz__lc_sub_lc(&o, &lc, NULL);
    CHECK_EQ_INT(o.n, 4);
    if (CHECK(o.n == 4)) {
        CHECK(fr_is(&o.t[0].coeff, 2) && fr_is(&o.t[2].coeff, 4) && fr_is(&o.t[3].coeff, 6));
        CHECK(cz_bls12381_fr_is_zero(&o.t[1].coeff));
    }
    cz__lc_add_i64(&o, cz__var_aux(9), -7);
    CHECK(o.n == 5 && o.t[3].var == cz__var_aux(9) && fr_is(&o.t[3].coeff, -7));
    cz__lc_copy(&lc, &o);
    CHECK(lc.n == 5 && memcmp(lc.t, o.t, 5 * sizeof *lc.t) == 0);
    cz__lc_clear(&lc);
    CHECK_EQ_INT(lc.n, 0);
    cz__lc_free(&lc);
    cz__lc_free(&o);
}

/* x·y = z with x = 3, y = 5 in PROVE: a, b, c of the row, then the input constraint of ONE. */
static void test_prove_row(void) {
    cz__cs cs;
    cz__lc a, b, c;
    cz_assignment as;
    cz_bls12381_fr x = fr(3), y = fr(5), z = fr(15);
    if (!CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_PROVE, 0, NULL), CZ_OK))
        return;
    cz__lc_init(&a);
    cz__lc_init(&b);
    cz__lc_init(&c);
    cz__lc_add(&a, cz__cs_alloc(&cs, &x), NULL);
    cz__lc_add(&b, cz__cs_alloc(&cs, &y), NULL);
    cz__lc_add(&c, cz__cs_alloc(&cs, &z), NULL);
    cz__cs_enforce(&cs, &a, &b, &c);
    if (CHECK_EQ_INT(cz__cs_assignment(&as, &cs, NULL), CZ_OK)) {
        CHECK_EQ_INT(as.abc_size, 2);
        CHECK_EQ_INT(as.ninput, 1);
        CHECK_EQ_INT(as.naux, 3);
        CHECK(fr_is(&as.a[0], 3) && fr_is(&as.b[0], 5) && fr_is(&as.c[0], 15));
        CHECK(fr_is(&as.a[1], 1) && fr_is(&as.b[1], 0) && fr_is(&as.c[1], 0));
        CHECK(bit(as.a_aux_density, 0) && !bit(as.a_aux_density, 1));
        CHECK(bit(as.b_aux_density, 1) && !bit(as.b_aux_density, 0) && !bit(as.b_aux_density, 2));
        CHECK(!bit(as.b_input_density, 0));
    }
    cz__lc_free(&a);
    cz__lc_free(&b);
    cz__lc_free(&c);
    cz__cs_free(&cs);
}

/* (x - x + y)·(ONE + z - z) = w: x and z have merged coefficient 0, so they are in no density and
 * no recorded term; ONE is in B's input density. */
static void test_zero_coefficients(void) {
    for (int mode = 0; mode < 2; mode++) {
        cz__cs cs;
        cz__lc a, b, c;
        cz__var x, y, z, w;
        cz_bls12381_fr v2 = fr(2), v7 = fr(7), v9 = fr(9), v7b = fr(7);
        if (!CHECK_EQ_INT(
                cz__cs_init(&cs, mode ? CZ__CS_RECORD : CZ__CS_PROVE, CZ__CS_VALUES, NULL), CZ_OK))
            return;
        x = cz__cs_alloc(&cs, &v2);
        y = cz__cs_alloc(&cs, &v7);
        z = cz__cs_alloc(&cs, &v9);
        w = cz__cs_alloc(&cs, &v7b);
        cz__lc_init(&a);
        cz__lc_init(&b);
        cz__lc_init(&c);
        cz__lc_add(&a, x, NULL);
        cz__lc_sub(&a, x, NULL);
        cz__lc_add(&a, y, NULL);
        cz__lc_add(&b, CZ__VAR_ONE, NULL);
        cz__lc_add(&b, z, NULL);
        cz__lc_sub(&b, z, NULL);
        cz__lc_add(&c, w, NULL);
        CHECK(a.n == 2 && b.n == 2);
        cz__cs_enforce(&cs, &a, &b, &c);
        if (mode == 0) {
            cz_assignment as;
            if (CHECK_EQ_INT(cz__cs_assignment(&as, &cs, NULL), CZ_OK)) {
                CHECK(fr_is(&as.a[0], 7) && fr_is(&as.b[0], 1) && fr_is(&as.c[0], 7));
                CHECK(!bit(as.a_aux_density, 0) && bit(as.a_aux_density, 1));
                CHECK(!bit(as.b_aux_density, 2) && bit(as.b_input_density, 0));
            }
        } else {
            cz_r1cs r;
            if (CHECK_EQ_INT(cz__cs_to_r1cs(&r, &cs, NULL), CZ_OK)) {
                CHECK_EQ_INT(r.a.nnz, 1); /* y only */
                CHECK_EQ_INT(r.b.nnz, 1); /* ONE only */
                CHECK_EQ_INT(r.c.nnz, 1);
                CHECK_EQ_INT(r.a.var[0], 1 + 1); /* ninput 1: y = aux 1 -> variable 2 */
                CHECK_EQ_INT(r.b.var[0], 0);
                CHECK_EQ_INT(cz_r1cs_check(&r, NULL, NULL, NULL), CZ_OK);
                cz_r1cs_free(&r);
            }
        }
        cz__lc_free(&a);
        cz__lc_free(&b);
        cz__lc_free(&c);
        cz__cs_free(&cs);
    }
}

/* ---- a generated circuit (cs_gen.h), synthesized in every mode ---- */

static int same_fr(const cz_bls12381_fr *x, const cz_bls12381_fr *y, size_t n) {
    return n == 0 || memcmp(x, y, n * sizeof *x) == 0;
}

static int same_bits(const uint64_t *x, const uint64_t *y, size_t nbits) {
    for (size_t i = 0; i < nbits; i++)
        if (bit(x, i) != bit(y, i))
            return 0;
    return 1;
}

/* Two assignments hold the same values and densities. */
static void check_same_assignment(const cz_assignment *x, const cz_assignment *y) {
    CHECK_EQ_INT(x->abc_size, y->abc_size);
    CHECK_EQ_INT(x->ninput, y->ninput);
    CHECK_EQ_INT(x->naux, y->naux);
    if (x->abc_size != y->abc_size || x->ninput != y->ninput || x->naux != y->naux)
        return;
    CHECK(same_fr(x->a, y->a, x->abc_size));
    CHECK(same_fr(x->b, y->b, x->abc_size));
    CHECK(same_fr(x->c, y->c, x->abc_size));
    CHECK(same_fr(x->input, y->input, x->ninput));
    CHECK(same_fr(x->aux, y->aux, x->naux));
    CHECK(same_bits(x->a_aux_density, y->a_aux_density, x->naux));
    CHECK(same_bits(x->b_input_density, y->b_input_density, x->ninput));
    CHECK(same_bits(x->b_aux_density, y->b_aux_density, x->naux));
}

static void test_modes_agree(void) {
    const unsigned nrows = 500;
    cz__cs rec, prv, wit;
    cz_r1cs r;
    cz_assignment from_r1cs, direct;
    uint32_t bad = 0;
    if (!CHECK_EQ_INT(cz__cs_init(&rec, CZ__CS_RECORD, CZ__CS_VALUES, NULL), CZ_OK) ||
        !CHECK_EQ_INT(cz__cs_init(&prv, CZ__CS_PROVE, 0, NULL), CZ_OK) ||
        !CHECK_EQ_INT(cz__cs_init(&wit, CZ__CS_WITNESS, 0, NULL), CZ_OK))
        return;
    gen_circuit(&rec, 42, nrows);
    gen_circuit(&prv, 42, nrows);
    gen_circuit(&wit, 42, nrows);
    CHECK_EQ_INT(cz__cs_status(&rec, NULL), CZ_OK);
    CHECK_EQ_INT(wit.nrows, nrows);
    CHECK(wit.ninput == prv.ninput && wit.naux == prv.naux && wit.ninput > 50);
    CHECK(same_fr(wit.input, prv.input, prv.ninput) && same_fr(wit.aux, prv.aux, prv.naux));
    if (CHECK_EQ_INT(cz__cs_to_r1cs(&r, &rec, NULL), CZ_OK)) {
        CHECK_EQ_INT(r.nrows, nrows);
        CHECK_EQ_INT(r.npublic + 1, prv.ninput);
        CHECK_EQ_INT(cz_r1cs_check(&r, NULL, NULL, NULL), CZ_OK);
        if (CHECK_EQ_INT(cz_r1cs_assignment_make(&from_r1cs, &r, NULL, NULL), CZ_OK)) {
            if (CHECK_EQ_INT(cz__cs_assignment(&direct, &prv, NULL), CZ_OK))
                check_same_assignment(&from_r1cs, &direct);
            cz_assignment_free(&from_r1cs);
        }
        /* one aux value changed: the row that defines it fails */
        cz_bls12381_fr_add((cz_bls12381_fr *)r.w[r.nvars - 1], (cz_bls12381_fr *)r.w[r.nvars - 1],
                           (cz_bls12381_fr *)r.w[0]);
        CHECK_EQ_INT(cz_r1cs_check(&r, NULL, &bad, NULL), CZ_EVERIFY);
        CHECK_EQ_INT(bad, nrows - 1);
        cz_r1cs_free(&r);
    }
    cz__cs_free(&rec);
    cz__cs_free(&prv);
    cz__cs_free(&wit);
}

/* The same circuit as one system and as two extended ones: the same r1cs and the same proving
 * assignment. */
static void test_extend(void) {
    for (int mode = 0; mode < 2; mode++) {
        const cz__cs_mode m = mode ? CZ__CS_PROVE : CZ__CS_RECORD;
        const unsigned flags = mode ? 0 : CZ__CS_VALUES;
        cz__cs one, head, tail;
        if (!CHECK_EQ_INT(cz__cs_init(&one, m, flags, NULL), CZ_OK) ||
            !CHECK_EQ_INT(cz__cs_init(&head, m, flags, NULL), CZ_OK) ||
            !CHECK_EQ_INT(cz__cs_init(&tail, m, flags, NULL), CZ_OK))
            return;
        gen_circuit(&one, 7, 200);
        gen_circuit(&one, 8, 150);
        gen_circuit(&head, 7, 200);
        gen_circuit(&tail, 8, 150);
        CHECK_EQ_INT(cz__cs_extend(&head, &tail, NULL), CZ_OK);
        CHECK(head.ninput == one.ninput && head.naux == one.naux && head.nrows == one.nrows);
        if (mode == 0) {
            cz_r1cs x, y;
            if (CHECK_EQ_INT(cz__cs_to_r1cs(&x, &one, NULL), CZ_OK)) {
                if (CHECK_EQ_INT(cz__cs_to_r1cs(&y, &head, NULL), CZ_OK)) {
                    CHECK(same_r1cs(&x, &y));
                    CHECK(same_fr((cz_bls12381_fr *)x.w, (cz_bls12381_fr *)y.w, x.nvars));
                    CHECK_EQ_INT(cz_r1cs_check(&y, NULL, NULL, NULL), CZ_OK);
                    cz_r1cs_free(&y);
                }
                cz_r1cs_free(&x);
            }
        } else {
            cz_assignment ax, ay;
            if (CHECK_EQ_INT(cz__cs_assignment(&ax, &one, NULL), CZ_OK) &&
                CHECK_EQ_INT(cz__cs_assignment(&ay, &head, NULL), CZ_OK))
                check_same_assignment(&ay, &ax);
        }
        cz__cs_free(&one);
        cz__cs_free(&head);
        cz__cs_free(&tail);
    }
}

/* A prefix (variables the bodies share, inputs among them) and a body over it recorded once and
 * copied (cz__cs_to_r1cs_repeat) against the prefix and every body recorded: the same r1cs, on a
 * pool and without one; then with two prefix variables of each copy's own (cz__cs_copy_vars, as
 * SnapDeals' challenge bits); the refusals. */
static void test_repeat(void) {
    enum { COPIES = 4, OWN = 2 };
    cz_bls12381_fr vals[3 + OWN] = {fr(5), fr(7), fr(9), fr(1), fr(0)};
    cz_threadpool *pool = NULL;
    for (int k = 0; k < 4; k++) {
        const int own = k >= 2; /* the bodies read copy-own prefix variables */
        cz__cs all, once;
        cz__cs_mark top;
        cz_r1cs x, y;
        uint32_t from[OWN], to[COPIES * OWN];
        cz__cs_copy_vars cv = {from, to, OWN};
        if (!CHECK_EQ_INT(cz__cs_init(&all, CZ__CS_RECORD, 0, NULL), CZ_OK) ||
            !CHECK_EQ_INT(cz__cs_init(&once, CZ__CS_RECORD, 0, NULL), CZ_OK))
            return;
        for (int s = 0; s < 2; s++) {
            cz__cs *cs = s ? &once : &all;
            cz__var pre[3 + OWN] = {cz__cs_alloc(cs, &vals[0]), cz__cs_alloc_input(cs, &vals[1]),
                                    cz__cs_alloc(cs, &vals[2])};
            cz__var mine[COPIES][OWN];
            gen_circuit_over(cs, 3, 40, pre, vals, 3);
            for (int c = 0; c < COPIES; c++)
                for (int i = 0; i < OWN; i++) {
                    mine[c][i] = cz__cs_alloc_bit(cs, (c + i) & 1);
                    to[c * OWN + i] = cz__var_index(mine[c][i]);
                }
            memcpy(from, to, sizeof from);
            cz__cs_mark_get(&top, cs);
            for (int c = 0; c < (s ? 1 : COPIES); c++) {
                memcpy(pre + 3, mine[c], sizeof mine[c]);
                gen_circuit_over(cs, 11, 120, pre, vals, own ? 3 + OWN : 3);
            }
        }
        if (k % 2 == 1 && pool == NULL &&
            !CHECK_EQ_INT(cz_threadpool_create(&pool, 3, NULL), CZ_OK))
            return;
        if (CHECK_EQ_INT(cz__cs_to_r1cs(&x, &all, NULL), CZ_OK)) {
            if (CHECK_EQ_INT(cz__cs_to_r1cs_repeat(&y, &once, &top, COPIES, own ? &cv : NULL,
                                                   k % 2 ? pool : NULL, NULL),
                             CZ_OK)) {
                CHECK(same_r1cs(&x, &y));
                cz_r1cs_free(&y);
            }
            cz_r1cs_free(&x);
        }
        if (own) { /* without the copy variables the copies read copy 0's: another system */
            if (CHECK_EQ_INT(cz__cs_to_r1cs(&x, &all, NULL), CZ_OK)) {
                if (CHECK_EQ_INT(cz__cs_to_r1cs_repeat(&y, &once, &top, COPIES, NULL, NULL, NULL),
                                 CZ_OK)) {
                    CHECK(!same_r1cs(&x, &y));
                    cz_r1cs_free(&y);
                }
                cz_r1cs_free(&x);
            }
            from[1] = from[0]; /* named twice */
            CHECK_EQ_INT(cz__cs_to_r1cs_repeat(&y, &once, &top, COPIES, &cv, NULL, NULL),
                         CZ_EINVAL);
            from[1] = (uint32_t)top.naux; /* past the prefix */
            CHECK_EQ_INT(cz__cs_to_r1cs_repeat(&y, &once, &top, COPIES, &cv, NULL, NULL),
                         CZ_EINVAL);
            from[1] = to[1];
            to[COPIES * OWN - 1] = (uint32_t)top.naux;
            CHECK_EQ_INT(cz__cs_to_r1cs_repeat(&y, &once, &top, COPIES, &cv, NULL, NULL),
                         CZ_EINVAL);
        }
        CHECK_EQ_INT(cz__cs_to_r1cs_repeat(&y, &once, &top, 0, NULL, NULL, NULL), CZ_EINVAL);
        top.nrows = once.nrows + 1;
        CHECK_EQ_INT(cz__cs_to_r1cs_repeat(&y, &once, &top, 2, NULL, NULL, NULL), CZ_EINVAL);
        cz__cs_free(&all);
        cz__cs_free(&once);
    }
    cz_threadpool_destroy(pool);
}

/* A variable that does not exist, a mode that cannot answer: sticky errors with messages. */
static void test_errors(void) {
    cz__cs cs, other;
    cz__lc a, b;
    cz_errinfo ei;
    cz_r1cs r;
    cz_assignment as;
    size_t naux;
    cz__lc_init(&a);
    cz__lc_init(&b);
    if (!CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_RECORD, 0, NULL), CZ_OK))
        return;
    cz__cs_alloc(&cs, NULL);
    cz__lc_add(&a, cz__var_aux(5), NULL);
    cz__cs_enforce(&cs, &a, &b, &b);
    cz_errinfo_clear(&ei);
    CHECK_EQ_INT(cz__cs_status(&cs, &ei), CZ_EINVAL);
    CHECK(strstr(ei.msg, "aux variable 5 does not exist") != NULL);
    naux = cs.naux;
    cz__cs_alloc(&cs, NULL); /* no effect after the error */
    CHECK_EQ_INT(cs.naux, naux);
    CHECK_EQ_INT(cz__cs_to_r1cs(&r, &cs, NULL), CZ_EINVAL);
    CHECK_EQ_INT(cz__cs_assignment(&as, &cs, NULL), CZ_EINVAL);
    cz__cs_free(&cs);

    if (CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_WITNESS, 0, NULL), CZ_OK) &&
        CHECK_EQ_INT(cz__cs_init(&other, CZ__CS_PROVE, 0, NULL), CZ_OK)) {
        cz_errinfo_clear(&ei);
        CHECK_EQ_INT(cz__cs_to_r1cs(&r, &cs, &ei), CZ_EINVAL);
        CHECK(strstr(ei.msg, "recording") != NULL);
        cz_errinfo_clear(&ei);
        CHECK_EQ_INT(cz__cs_extend(&cs, &other, &ei), CZ_EINVAL);
        CHECK(strstr(ei.msg, "different modes") != NULL);
        cz__cs_free(&other);
    }
    cz__cs_free(&cs);
    CHECK_EQ_INT(cz__cs_init(&cs, (cz__cs_mode)9, 0, NULL), CZ_EINVAL);
    cz__lc_free(&a);
    cz__lc_free(&b);
}

/* A row by its values (enforce_values) in a PROVE system without densities whose aux and rows
 * live in the caller's buffers: the same a, b, c as enforce of the combinations; the buffers are
 * not outgrown silently; a system that needs the combinations refuses the values. */
static void test_values_and_buffers(void) {
    cz__cs cs;
    cz__lc a, b, c;
    cz_bls12381_fr aux[2], ra[2], rb[2], rc[2], x = fr(3), y = fr(5), z = fr(15);
    cz_errinfo ei;
    if (!CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_PROVE, CZ__CS_NO_DENSITY, NULL), CZ_OK))
        return;
    CHECK(!cz__cs_needs_lcs(&cs));
    CHECK_EQ_INT(cz__cs_use_buffers(&cs, aux, 2, ra, rb, rc, 2, NULL), CZ_OK);
    cz__lc_init(&a);
    cz__lc_init(&b);
    cz__lc_init(&c);
    cz__lc_add(&a, cz__cs_alloc(&cs, &x), NULL);
    cz__lc_add(&b, cz__cs_alloc(&cs, &y), NULL);
    cz__lc_add(&c, CZ__VAR_ONE, &z);
    cz__cs_enforce(&cs, &a, &b, &c);
    cz__cs_enforce_values(&cs, &y, &x, &z);
    CHECK_EQ_INT(cz__cs_status(&cs, NULL), CZ_OK);
    CHECK(fr_is(&aux[0], 3) && fr_is(&aux[1], 5));
    CHECK(fr_is(&ra[0], 3) && fr_is(&rb[0], 5) && fr_is(&rc[0], 15));
    CHECK(fr_is(&ra[1], 5) && fr_is(&rb[1], 3) && fr_is(&rc[1], 15));
    cz__cs_alloc(&cs, &x); /* a third aux: past the buffer */
    cz_errinfo_clear(&ei);
    CHECK_EQ_INT(cz__cs_status(&cs, &ei), CZ_ERANGE);
    CHECK(strstr(ei.msg, "buffer") != NULL);
    cz__cs_free(&cs); /* frees none of the caller's */

    if (CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_PROVE, 0, NULL), CZ_OK)) {
        CHECK(cz__cs_needs_lcs(&cs));
        cz__cs_enforce_values(&cs, &x, &y, &z);
        CHECK_EQ_INT(cz__cs_status(&cs, NULL), CZ_EINVAL);
        cz__cs_free(&cs);
    }
    if (CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_WITNESS, 0, NULL), CZ_OK)) {
        CHECK(!cz__cs_needs_lcs(&cs));
        cz__cs_enforce_values(&cs, &x, &y, &z);
        CHECK_EQ_INT(cs.nrows, 1);
        CHECK_EQ_INT(cz__cs_use_buffers(&cs, aux, 2, NULL, NULL, NULL, 0, NULL), CZ_EINVAL);
        cz__cs_free(&cs);
    }
    cz__lc_free(&a);
    cz__lc_free(&b);
    cz__lc_free(&c);
}

static const test_case cases[] = {
    {"values_and_buffers", test_values_and_buffers},
    {"lc_merge", test_lc_merge},
    {"prove_row", test_prove_row},
    {"zero_coefficients", test_zero_coefficients},
    {"modes_agree", test_modes_agree},
    {"extend", test_extend},
    {"repeat", test_repeat},
    {"errors", test_errors},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
