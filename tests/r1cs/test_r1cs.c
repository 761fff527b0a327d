/*
 * The in-memory constraint system (cuzk/r1cs.h) and its writers (cuzk/r1cs_io.h).
 *
 * A small hand-made system on both curves: x·y = t, (t + 5·x)·1 = out (public), (2·x - y)·(y) =
 * u. Oracle: the expected A·w, B·w, C·w are computed term by term with the exported field API,
 * independently of the CSR walk; a wrong witness value breaks exactly the rows that use it. The
 * writers are read back by the existing .r1cs and .wtns readers (every term, coefficient and
 * value compared); files that break the rules are refused. snarkjs checks the same files in
 * tests/circuits/test_porep_synth.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/field.h"
#include "cuzk/r1cs.h"
#include "cuzk/r1cs_file.h"
#include "cuzk/r1cs_io.h"
#include "cuzk/threadpool.h"
#include "cuzk/wtns.h"
#include "test.h"

/* Variables: 0 = ONE, 1 = out (public), 2 = x, 3 = y, 4 = t, 5 = u. */
enum { V_ONE, V_OUT, V_X, V_Y, V_T, V_U, NV };
enum { K_ONE, K_MINUS_ONE, K_FIVE, K_TWO, NK };

typedef struct {
    uint32_t var, coef;
} tm;

static void put_row(cz_r1cs *cs, uint32_t row, const tm *a, size_t na, const tm *b, size_t nb,
                    const tm *c, size_t nc) {
    const tm *lcs[3] = {a, b, c};
    size_t ns[3] = {na, nb, nc};
    cz_r1cs_mat *mats[3] = {&cs->a, &cs->b, &cs->c};
    for (int m = 0; m < 3; m++) {
        uint64_t p = mats[m]->row_ptr[row];
        for (size_t k = 0; k < ns[m]; k++, p++) {
            mats[m]->var[p] = lcs[m][k].var;
            mats[m]->coef[p] = lcs[m][k].coef;
        }
        mats[m]->row_ptr[row + 1] = p;
    }
}

static void build_small(cz_r1cs *cs, cz_curve_id curve, uint64_t xv, uint64_t yv) {
    static const uint64_t nnz[3] = {5, 3, 3};
    cz_errinfo ei;
    CZ_ASSERT(cz_r1cs_alloc(cs, curve, 1, 4, 3, nnz, NK, &ei) == CZ_OK);
    cz_r1cs_coef_set_i64(cs, K_ONE, 1);
    cz_r1cs_coef_set_i64(cs, K_MINUS_ONE, -1);
    cz_r1cs_coef_set_i64(cs, K_FIVE, 5);
    cz_r1cs_coef_set_pow2(cs, K_TWO, 1);
    const tm r0a[] = {{V_X, K_ONE}}, r0b[] = {{V_Y, K_ONE}}, r0c[] = {{V_T, K_ONE}};
    const tm r1a[] = {{V_T, K_ONE}, {V_X, K_FIVE}}, r1b[] = {{V_ONE, K_ONE}},
             r1c[] = {{V_OUT, K_ONE}};
    const tm r2a[] = {{V_X, K_TWO}, {V_Y, K_MINUS_ONE}}, r2b[] = {{V_Y, K_ONE}},
             r2c[] = {{V_U, K_ONE}};
    put_row(cs, 0, r0a, 1, r0b, 1, r0c, 1);
    put_row(cs, 1, r1a, 2, r1b, 1, r1c, 1);
    put_row(cs, 2, r2a, 2, r2b, 1, r2c, 1);
    /* Witness from the integer formulas (all small, no reduction). */
    uint64_t t = xv * yv, out = t + 5 * xv, u = (2 * xv - yv) * yv;
    cz_r1cs_fr_from_u64(cs->w[V_X], curve, xv);
    cz_r1cs_fr_from_u64(cs->w[V_Y], curve, yv);
    cz_r1cs_fr_from_u64(cs->w[V_T], curve, t);
    cz_r1cs_fr_from_u64(cs->w[V_OUT], curve, out);
    cz_r1cs_fr_from_u64(cs->w[V_U], curve, u);
}

/* Expected row values as plain integers, converted to Montgomery limbs. */
static void check_eval(const cz_r1cs *cs, uint64_t xv, uint64_t yv, cz_threadpool *pool) {
    const size_t dom = 8;
    uint64_t(*a)[4] = calloc(dom, 32), (*b)[4] = calloc(dom, 32), (*c)[4] = calloc(dom, 32);
    uint64_t want[4];
    cz_errinfo ei;
    memset(a, 0xff, dom * 32);
    CHECK_ERR(cz_r1cs_eval(a, b, c, cs, dom, CZ_R1CS_EVAL_INPUT_ROWS, pool, &ei), CZ_OK);
    uint64_t t = xv * yv;
    uint64_t ea[3] = {xv, t + 5 * xv, 2 * xv - yv}, eb[3] = {yv, 1, yv},
             ec[3] = {t, t + 5 * xv, (2 * xv - yv) * yv};
    for (int i = 0; i < 3; i++) {
        cz_r1cs_fr_from_u64(want, cs->curve, ea[i]);
        CHECK_EQ_MEM(a[i], want, 32);
        cz_r1cs_fr_from_u64(want, cs->curve, eb[i]);
        CHECK_EQ_MEM(b[i], want, 32);
        cz_r1cs_fr_from_u64(want, cs->curve, ec[i]);
        CHECK_EQ_MEM(c[i], want, 32);
    }
    /* snarkjs's input rows: a[3] = w[0] = 1, a[4] = w[1] = out; the rest zero. */
    CHECK_EQ_MEM(a[3], cs->w[0], 32);
    CHECK_EQ_MEM(a[4], cs->w[1], 32);
    static const uint64_t zero[4];
    for (size_t i = 5; i < dom; i++)
        CHECK_EQ_MEM(a[i], zero, 32);
    for (size_t i = 3; i < dom; i++)
        CHECK_EQ_MEM(b[i], zero, 32);
    CHECK_ERR(cz_r1cs_eval(a, NULL, NULL, cs, 4, CZ_R1CS_EVAL_INPUT_ROWS, pool, &ei), CZ_ERANGE);
    CHECK_ERR(cz_r1cs_eval(a, NULL, NULL, cs, 3, 0, pool, &ei), CZ_OK);
    free(a);
    free(b);
    free(c);
}

static void check_roundtrip(const cz_r1cs *cs, cz_threadpool *pool) {
    char rp[128], wp[128];
    cz_errinfo ei;
    snprintf(rp, sizeof rp, "/tmp/cuzk_test_r1cs_%ld.r1cs", (long)getpid());
    snprintf(wp, sizeof wp, "/tmp/cuzk_test_r1cs_%ld.wtns", (long)getpid());
    cz_r1cs_file *rf = NULL;
    cz_wtns *w = NULL;
    if (!CHECK_ERR(cz_r1cs_write(rp, cs, &ei), CZ_OK) ||
        !CHECK_ERR(cz_r1cs_open(&rf, rp, &ei), CZ_OK))
        fprintf(stderr, "%s\n", ei.msg);
    if (rf != NULL) {
        CHECK_EQ_INT(rf->curve, cs->curve);
        CHECK(rf->nwires == cs->nvars && rf->npub_in == cs->npublic && rf->npub_out == 0);
        CHECK_EQ_INT(rf->nconstraints, cs->nrows);
        CHECK(rf->wire_labels != NULL && rf->nlabels == cs->nvars);
        const cz_r1cs_mat *mats[3] = {&cs->a, &cs->b, &cs->c};
        for (uint32_t i = 0; i < cs->nrows && i < rf->nconstraints; i++) {
            const cz_r1cs_lc *lcs[3] = {&rf->constraints[i].a, &rf->constraints[i].b,
                                        &rf->constraints[i].c};
            for (int m = 0; m < 3; m++) {
                uint64_t lo = mats[m]->row_ptr[i], n = mats[m]->row_ptr[i + 1] - lo;
                if (!CHECK_EQ_INT(lcs[m]->nterms, n))
                    continue;
                for (uint64_t k = 0; k < n; k++) {
                    uint64_t std[4];
                    cz_r1cs_fr_to_std(std, cs->curve, cs->coefs[mats[m]->coef[lo + k]]);
                    CHECK_EQ_INT(lcs[m]->terms[k].wire, mats[m]->var[lo + k]);
                    CHECK_EQ_MEM(lcs[m]->terms[k].coef, std, 32);
                }
            }
        }
    }
    if (!CHECK_ERR(cz_r1cs_write_wtns(wp, cs, pool, &ei), CZ_OK) ||
        !CHECK_ERR(cz_wtns_open(&w, wp, &ei), CZ_OK))
        fprintf(stderr, "%s\n", ei.msg);
    if (w != NULL) {
        CHECK(w->curve == cs->curve && w->nwitness == cs->nvars);
        for (uint32_t v = 0; v < cs->nvars && v < w->nwitness; v++) {
            uint64_t std[4];
            cz_r1cs_fr_to_std(std, cs->curve, cs->w[v]);
            CHECK_EQ_MEM(w->values + 4 * (size_t)v, std, 32);
        }
    }
    cz_wtns_close(w);
    cz_r1cs_close(rf);
    unlink(rp);
    unlink(wp);
}

static void test_curve(cz_curve_id curve, cz_threadpool *pool) {
    cz_r1cs cs;
    cz_errinfo ei;
    uint32_t bad = 0;
    build_small(&cs, curve, 1234567, 89);
    CHECK_ERR(cz_r1cs_validate(&cs, &ei), CZ_OK);
    CHECK_ERR(cz_r1cs_check(&cs, pool, &bad, &ei), CZ_OK);
    check_eval(&cs, 1234567, 89, pool);
    check_roundtrip(&cs, pool);

    /* A wrong u breaks row 2 only; a wrong t breaks rows 0 and 1 and the first is reported. */
    uint64_t keep[4];
    memcpy(keep, cs.w[V_U], 32);
    cz_r1cs_fr_from_u64(cs.w[V_U], curve, 7);
    CHECK(cz_r1cs_check(&cs, pool, &bad, &ei) == CZ_EVERIFY && bad == 2);
    CHECK(strstr(ei.msg, "row 2") != NULL);
    memcpy(cs.w[V_U], keep, 32);
    memcpy(keep, cs.w[V_T], 32);
    cz_r1cs_fr_from_u64(cs.w[V_T], curve, 7);
    CHECK(cz_r1cs_check(&cs, pool, &bad, &ei) == CZ_EVERIFY && bad == 0);
    memcpy(cs.w[V_T], keep, 32);
    cz_r1cs_fr_from_u64(cs.w[0], curve, 2);
    CHECK_ERR(cz_r1cs_check(&cs, pool, &bad, &ei), CZ_EVERIFY);
    cz_r1cs_fr_from_u64(cs.w[0], curve, 1);
    CHECK_ERR(cz_r1cs_check(&cs, pool, &bad, &ei), CZ_OK);

    /* 2^255 is reduced; a coefficient >= r is refused. */
    uint64_t big[4] = {0, 0, 0, 1ull << 63}, two255[4];
    CHECK_ERR(cz_r1cs_coef_set(&cs, K_TWO, big), CZ_ENONCANON);
    cz_r1cs_coef_set_pow2(&cs, K_TWO, 255);
    cz_r1cs_fr_to_std(two255, curve, cs.coefs[K_TWO]);
    CHECK(two255[3] < (1ull << 63) && memcmp(two255, big, 32) != 0);
    cz_r1cs_coef_set_pow2(&cs, K_TWO, 1);

    /* Structure errors: a variable out of range, a coefficient index out of range. */
    cs.b.var[0] = NV;
    CHECK(cz_r1cs_validate(&cs, &ei) == CZ_EFORMAT && strstr(ei.msg, "B row 0") != NULL);
    char rp[128];
    snprintf(rp, sizeof rp, "/tmp/cuzk_test_r1cs_bad_%ld.r1cs", (long)getpid());
    CHECK(cz_r1cs_write(rp, &cs, &ei) == CZ_EFORMAT && access(rp, F_OK) != 0);
    cs.b.var[0] = V_Y;
    cs.c.coef[2] = NK;
    CHECK(cz_r1cs_validate(&cs, &ei) == CZ_EFORMAT && strstr(ei.msg, "C row 2") != NULL);
    cs.c.coef[2] = K_ONE;
    /* The same variable twice in one LC cannot be written (snarkjs keys LCs by wire). */
    cs.a.var[2] = V_X;
    cs.a.var[1] = V_X;
    CHECK(cz_r1cs_write(rp, &cs, &ei) == CZ_EFORMAT && strstr(ei.msg, "twice") != NULL);
    CHECK(access(rp, F_OK) != 0);
    cz_r1cs_free(&cs);
}

static cz_threadpool *pool;

static int setup(void) {
    cz_errinfo ei;
    CZ_ASSERT(cz_threadpool_create(&pool, 2, &ei) == CZ_OK);
    return 0;
}

static void teardown(void) {
    cz_threadpool_destroy(pool);
}

static void test_bn254(void) {
    test_curve(CZ_CURVE_BN254, pool);
}

static void test_bls12381(void) {
    test_curve(CZ_CURVE_BLS12381, pool);
}

static void test_bn254_serial(void) {
    test_curve(CZ_CURVE_BN254, NULL);
}

static const test_case cases[] = {
    {"bn254", test_bn254},
    {"bls12381", test_bls12381},
    {"bn254_serial", test_bn254_serial},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
