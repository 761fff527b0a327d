/*
 * Tests of cz_r1cs_from_file (cuzk/r1cs_file.h): circom's .r1cs and .wtns as an in-memory cz_r1cs.
 *
 * Oracle: the file's own terms (cz_r1cs_open's view of them) and the witness satisfying the
 * converted system (cz_r1cs_check), on the mulchain circuit of both curves; every term of the
 * converted matrices is compared with the file's, and its coefficient, taken back to standard form
 * through the deduplicated table, with the file's coefficient. Plus the witness checks: another
 * curve, another count, a first value that is not 1.
 */
#include <stdio.h>
#include <string.h>

#include "cuzk/mulchain.h"
#include "cuzk/r1cs.h"
#include "cuzk/r1cs_file.h"
#include "cuzk/wtns.h"
#include "test.h"

static char dir[64];

static int setup(void) {
    snprintf(dir, sizeof dir, "/tmp/cuzk-r1cs-convert-XXXXXX");
    return test_tmpdir(dir);
}

static void teardown(void) {
    test_tmpdir_remove(dir);
}

/* Writes the n-constraint mulchain of curve and opens both files; 0 on failure. */
static int open_chain(cz_r1cs_file **rf, cz_wtns **wt, cz_curve_id curve, uint32_t n) {
    char r[128], w[128];
    cz_errinfo ei;
    snprintf(r, sizeof r, "%s/chain-%d-%u.r1cs", dir, (int)curve, n);
    snprintf(w, sizeof w, "%s/chain-%d-%u.wtns", dir, (int)curve, n);
    if (!CHECK_ERR(cz_mulchain_write(r, w, curve, n, 3, 7, &ei), CZ_OK))
        return 0;
    if (!CHECK_ERR(cz_r1cs_open(rf, r, &ei), CZ_OK))
        return 0;
    return CHECK_ERR(cz_wtns_open(wt, w, &ei), CZ_OK);
}

/* Every term of matrix mt against the file's LCs (which = 0, 1, 2 for A, B, C). */
static void check_matrix(const cz_r1cs *cs, const cz_r1cs_mat *mt, const cz_r1cs_file *rf,
                         int which) {
    for (uint32_t i = 0; i < rf->nconstraints; i++) {
        const cz_r1cs_constraint *c = &rf->constraints[i];
        const cz_r1cs_lc *lc = which == 0 ? &c->a : which == 1 ? &c->b : &c->c;
        if (!CHECK_EQ_U64(mt->row_ptr[i + 1] - mt->row_ptr[i], lc->nterms))
            return;
        for (size_t k = 0; k < lc->nterms; k++) {
            uint64_t t = mt->row_ptr[i] + k, std[4];
            CHECK_EQ_U64(mt->var[t], lc->terms[k].wire);
            cz_r1cs_fr_to_std(std, cs->curve, cs->coefs[mt->coef[t]]);
            CHECK_EQ_MEM(std, lc->terms[k].coef, sizeof std);
        }
    }
}

static void test_chain(cz_curve_id curve) {
    cz_r1cs_file *rf = NULL;
    cz_wtns *wt = NULL;
    cz_r1cs cs, bare;
    cz_errinfo ei;
    if (!open_chain(&rf, &wt, curve, 29))
        goto out;
    if (!CHECK_ERR(cz_r1cs_from_file(&cs, rf, wt, &ei), CZ_OK))
        goto out;
    CHECK_EQ_INT(cs.curve, curve);
    CHECK_EQ_U64(cs.npublic, 2);
    CHECK_EQ_U64(cs.naux, rf->nwires - 3);
    CHECK_EQ_U64(cs.nvars, rf->nwires);
    CHECK_EQ_U64(cs.nrows, 29);
    CHECK_EQ_U64(cs.ncoefs, 2); /* 1 and -1, each once */
    check_matrix(&cs, &cs.a, rf, 0);
    check_matrix(&cs, &cs.b, rf, 1);
    check_matrix(&cs, &cs.c, rf, 2);
    CHECK_ERR(cz_r1cs_validate(&cs, &ei), CZ_OK);
    CHECK_ERR(cz_r1cs_check(&cs, NULL, NULL, &ei), CZ_OK);
    for (uint32_t v = 0; v < cs.nvars; v++) {
        uint64_t std[4];
        cz_r1cs_fr_to_std(std, curve, cs.w[v]);
        CHECK_EQ_MEM(std, wt->values + 4 * (size_t)v, sizeof std);
    }

    /* Without a witness: the same structure, ONE = 1 and the rest zero. */
    if (CHECK_ERR(cz_r1cs_from_file(&bare, rf, NULL, &ei), CZ_OK)) {
        uint64_t one[4], zero[4] = {0};
        cz_r1cs_fr_from_u64(one, curve, 1);
        CHECK_EQ_MEM(bare.w[0], one, sizeof one);
        CHECK_EQ_MEM(bare.w[bare.nvars - 1], zero, sizeof zero);
        CHECK_EQ_U64(bare.a.nnz, cs.a.nnz);
        CHECK_EQ_U64(bare.ncoefs, cs.ncoefs);
        cz_r1cs_free(&bare);
    }
    cz_r1cs_free(&cs);
out:
    cz_wtns_close(wt);
    cz_r1cs_close(rf);
}

static void test_bls12381(void) {
    test_chain(CZ_CURVE_BLS12381);
}

static void test_bn254(void) {
    test_chain(CZ_CURVE_BN254);
}

static void test_witness_mismatch(void) {
    cz_r1cs_file *rf = NULL, *rf2 = NULL;
    cz_wtns *wt = NULL, *wt_short = NULL, *wt_bn = NULL, *wt_two = NULL;
    cz_r1cs cs;
    cz_errinfo ei;
    char path[128];
    if (!open_chain(&rf, &wt, CZ_CURVE_BLS12381, 9) ||
        !open_chain(&rf2, &wt_short, CZ_CURVE_BLS12381, 8))
        goto out;
    CHECK_ERR(cz_r1cs_from_file(&cs, rf, wt_short, &ei), CZ_EFORMAT);
    CHECK(strstr(ei.msg, "the witness has 11 values but the circuit 12 wires") != NULL);
    CHECK_EQ_U64(cs.nvars, 0); /* zeroed */
    cz_r1cs_close(rf2);
    rf2 = NULL;
    if (!open_chain(&rf2, &wt_bn, CZ_CURVE_BN254, 9))
        goto out;
    CHECK_ERR(cz_r1cs_from_file(&cs, rf, wt_bn, &ei), CZ_ECURVE);
    CHECK(strstr(ei.msg, "the witness is over bn128 but the circuit over bls12381") != NULL);

    /* The same values with a first value of 2. */
    uint64_t vals[12 * 4];
    memcpy(vals, wt->values, sizeof vals);
    vals[0] = 2;
    snprintf(path, sizeof path, "%s/two.wtns", dir);
    if (CHECK_ERR(cz_wtns_write(path, CZ_CURVE_BLS12381, vals, 12, &ei), CZ_OK) &&
        CHECK_ERR(cz_wtns_open(&wt_two, path, &ei), CZ_OK)) {
        CHECK_ERR(cz_r1cs_from_file(&cs, rf, wt_two, &ei), CZ_EFORMAT);
        CHECK(strstr(ei.msg, "witness value 0 (the constant ONE) is not 1") != NULL);
    }
out:
    cz_wtns_close(wt);
    cz_wtns_close(wt_short);
    cz_wtns_close(wt_bn);
    cz_wtns_close(wt_two);
    cz_r1cs_close(rf);
    cz_r1cs_close(rf2);
}

static const test_case cases[] = {
    {"bls12381", test_bls12381},
    {"bn254", test_bn254},
    {"witness_mismatch", test_witness_mismatch},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
