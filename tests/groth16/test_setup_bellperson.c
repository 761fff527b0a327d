/*
 * Tests of the bellperson-format setup (cz_groth16_setup_bellperson, cuzk/groth16_setup.h).
 *
 * Here: the section counts against the densities that cz_r1cs_stats_get counts from the terms (the
 * prover's densities) on the mulchain circuit written as .r1cs and converted, and on hand-built
 * systems where some inputs and aux variables are missing from A or B; the refusals (an aux
 * variable in no constraint, bellperson's UnconstrainedVariable, named; a variable whose only B
 * term has a zero coefficient; BN254; a zero α; τ on the domain); a key written with the .params
 * and .vk writers and read back equal to the one in memory; the same key with and without a
 * pool; two random trapdoors giving two keys. The points themselves are checked against an
 * independent oracle, tests/interop/bellperson_setup_oracle.mjs (@noble/curves, from bellperson's
 * formulas), on the key that `cuzk setup --bellperson --seed` writes.
 */
#include <stdio.h>
#include <string.h>

#include "cuzk/bellperson.h"
#include "cuzk/groth16_setup.h"
#include "cuzk/mulchain.h"
#include "cuzk/r1cs.h"
#include "cuzk/r1cs_file.h"
#include "cuzk/threadpool.h"
#include "test.h"

static char dir[64];
static cz_threadpool *pool;

static int setup(void) {
    cz_errinfo ei;
    snprintf(dir, sizeof dir, "/tmp/cuzk-setup-bp-XXXXXX");
    if (test_tmpdir(dir) != 0)
        return 1;
    return cz_threadpool_create(&pool, 3, &ei) == CZ_OK ? 0 : 1;
}

static void teardown(void) {
    cz_threadpool_destroy(pool);
    test_tmpdir_remove(dir);
}

/* One LC of a hand-built row: up to 4 terms (variable, small integer coefficient). */
typedef struct lc_def {
    int n;
    uint32_t v[4];
    int64_t c[4];
} lc_def;
typedef struct row_def {
    lc_def a, b, c;
} row_def;

/* A system from rows (one coefficient table entry per term). */
static int build(cz_r1cs *cs, cz_curve_id curve, uint32_t npublic, uint32_t naux,
                 const row_def *rows, uint32_t nrows) {
    uint64_t nnz[3] = {0, 0, 0};
    uint32_t ncoefs = 0, ci = 0;
    cz_errinfo ei;
    for (uint32_t i = 0; i < nrows; i++) {
        nnz[0] += (uint64_t)rows[i].a.n;
        nnz[1] += (uint64_t)rows[i].b.n;
        nnz[2] += (uint64_t)rows[i].c.n;
    }
    ncoefs = (uint32_t)(nnz[0] + nnz[1] + nnz[2]);
    if (!CHECK_ERR(cz_r1cs_alloc(cs, curve, npublic, naux, nrows, nnz, ncoefs, &ei), CZ_OK))
        return 0;
    cz_r1cs_mat *mats[3] = {&cs->a, &cs->b, &cs->c};
    for (int m = 0; m < 3; m++) {
        uint64_t t = 0;
        for (uint32_t i = 0; i < nrows; i++) {
            const lc_def *lc = m == 0 ? &rows[i].a : m == 1 ? &rows[i].b : &rows[i].c;
            for (int k = 0; k < lc->n; k++, t++) {
                mats[m]->var[t] = lc->v[k];
                mats[m]->coef[t] = ci;
                cz_r1cs_coef_set_i64(cs, ci++, lc->c[k]);
            }
            mats[m]->row_ptr[i + 1] = t;
        }
    }
    return 1;
}

/* The counts the prover expects (cuzk/groth16_bellperson.h) against the key's. */
static void check_counts(const cz_bellperson_params *p, const cz_r1cs *cs) {
    cz_r1cs_stats st;
    cz_errinfo ei;
    uint64_t rows = (uint64_t)cs->nrows + 1 + cs->npublic, m = 1;
    while (m < rows)
        m *= 2;
    if (!CHECK_ERR(cz_r1cs_stats_get(&st, cs, pool, &ei), CZ_OK))
        return;
    CHECK_EQ_U64(p->nh, m - 1);
    CHECK_EQ_U64(p->vk.nic, 1 + (uint64_t)cs->npublic);
    CHECK_EQ_U64(p->nl, cs->naux);
    CHECK_EQ_U64(p->na, 1 + (uint64_t)cs->npublic + st.a_aux);
    CHECK_EQ_U64(p->nb_g1, st.b_input + st.b_aux);
    CHECK_EQ_U64(p->nb_g2, st.b_input + st.b_aux);
}

static void seeded(cz_groth16_trapdoor *td, const char *seed) {
    cz_groth16_trapdoor_from_seed(td, (const uint8_t *)seed, strlen(seed));
}

/* The mulchain of n constraints as a converted system. */
static int chain(cz_r1cs *cs, uint32_t n) {
    char path[128];
    cz_r1cs_file *rf = NULL;
    cz_errinfo ei;
    int ok;
    snprintf(path, sizeof path, "%s/chain-%u.r1cs", dir, n);
    ok = CHECK_ERR(cz_mulchain_write(path, NULL, CZ_CURVE_BLS12381, n, 3, 7, &ei), CZ_OK) &&
         CHECK_ERR(cz_r1cs_open(&rf, path, &ei), CZ_OK) &&
         CHECK_ERR(cz_r1cs_from_file(cs, rf, NULL, &ei), CZ_OK);
    cz_r1cs_close(rf);
    return ok;
}

static void test_mulchain(void) {
    static const uint32_t sizes[] = {1, 13, 14, 61};
    cz_groth16_trapdoor td;
    cz_errinfo ei;
    seeded(&td, "mulchain");
    for (size_t i = 0; i < TEST_COUNT(sizes); i++) {
        cz_r1cs cs;
        cz_bellperson_params p;
        if (!chain(&cs, sizes[i]))
            continue;
        if (CHECK_ERR(cz_groth16_setup_bellperson(&p, &cs, &td, pool, -1, &ei), CZ_OK)) {
            check_counts(&p, &cs);
            CHECK_EQ_U64(p.nb_g1, sizes[i]); /* x_0 .. x_(n-1): no input occurs in B */
            cz_bellperson_params_free(&p);
        }
        cz_r1cs_free(&cs);
    }
}

/* npublic = 2, variables 3..6 aux: ONE and input 1 occur in B, input 2 only in C; variable 6 is
 * missing from A and variable 4 from B. */
static const row_def sparse_rows[] = {
    {{1, {3}, {1}}, {1, {1}, {1}}, {1, {4}, {1}}},
    {{2, {4, 5}, {1, 2}}, {1, {0}, {1}}, {1, {6}, {-5}}},
    {{1, {5}, {3}}, {1, {5}, {1}}, {2, {3, 2}, {1, -1}}},
    {{1, {3}, {1}}, {2, {3, 6}, {7, 1}}, {1, {5}, {1}}},
};

static void test_sparse(void) {
    cz_r1cs cs;
    cz_bellperson_params p, q;
    cz_groth16_trapdoor td;
    cz_errinfo ei;
    seeded(&td, "sparse");
    if (!build(&cs, CZ_CURVE_BLS12381, 2, 4, sparse_rows, TEST_COUNT(sparse_rows)))
        return;
    if (CHECK_ERR(cz_groth16_setup_bellperson(&p, &cs, &td, pool, -1, &ei), CZ_OK)) {
        check_counts(&p, &cs);
        CHECK_EQ_U64(p.nh, 7);     /* 4 rows + 3 input constraints: m = 8 */
        CHECK_EQ_U64(p.na, 3 + 3); /* aux 3, 4, 5 */
        CHECK_EQ_U64(p.nb_g1, 5);  /* ONE, input 1, aux 3, 5, 6 */
        /* Without a pool: the same key. */
        if (CHECK_ERR(cz_groth16_setup_bellperson(&q, &cs, &td, NULL, -1, &ei), CZ_OK)) {
            CHECK(cz_bellperson_params_equal(&p, &q));
            cz_bellperson_params_free(&q);
        }
        cz_bellperson_params_free(&p);
    }
    cz_r1cs_free(&cs);
}

static void test_roundtrip(void) {
    char pp[128], vp[128];
    cz_r1cs cs;
    cz_bellperson_params p, back;
    cz_bellperson_vk vk;
    cz_bellperson_read_opts opts = {1, pool, NULL};
    cz_groth16_trapdoor td;
    cz_errinfo ei;
    seeded(&td, "roundtrip");
    snprintf(pp, sizeof pp, "%s/rt.params", dir);
    snprintf(vp, sizeof vp, "%s/rt.vk", dir);
    if (!chain(&cs, 29))
        return;
    if (CHECK_ERR(cz_groth16_setup_bellperson(&p, &cs, &td, pool, -1, &ei), CZ_OK)) {
        CHECK_ERR(cz_bellperson_params_write(pp, &p, NULL, &ei), CZ_OK);
        CHECK_ERR(cz_bellperson_vk_write(vp, &p.vk, &ei), CZ_OK);
        /* Read back with every check on, the subgroup of all five sections included. */
        if (CHECK_ERR(cz_bellperson_params_read(&back, pp, &opts, &ei), CZ_OK)) {
            CHECK(cz_bellperson_params_equal(&p, &back));
            cz_bellperson_params_free(&back);
        }
        if (CHECK_ERR(cz_bellperson_vk_read(&vk, vp, pool, &ei), CZ_OK)) {
            CHECK_EQ_U64(vk.nic, p.vk.nic);
            CHECK(memcmp(vk.ic, p.vk.ic, vk.nic * sizeof *vk.ic) == 0);
            CHECK(memcmp(&vk.delta_g2, &p.vk.delta_g2, sizeof vk.delta_g2) == 0);
            cz_bellperson_vk_free(&vk);
        }
        cz_bellperson_params_free(&p);
    }
    cz_r1cs_free(&cs);
}

static void test_random(void) {
    cz_r1cs cs;
    cz_bellperson_params p, q;
    cz_errinfo ei;
    if (!chain(&cs, 5))
        return;
    if (CHECK_ERR(cz_groth16_setup_bellperson(&p, &cs, NULL, pool, -1, &ei), CZ_OK)) {
        check_counts(&p, &cs);
        if (CHECK_ERR(cz_groth16_setup_bellperson(&q, &cs, NULL, pool, -1, &ei), CZ_OK)) {
            CHECK(!cz_bellperson_params_equal(&p, &q));
            CHECK(memcmp(&p.vk.gamma_g2, &q.vk.gamma_g2, sizeof p.vk.gamma_g2) != 0);
            cz_bellperson_params_free(&q);
        }
        cz_bellperson_params_free(&p);
    }
    cz_r1cs_free(&cs);
}

/* aux 2 (variable 4) occurs nowhere. */
static const row_def unconstrained_rows[] = {
    {{1, {2}, {1}}, {1, {2}, {1}}, {1, {3}, {1}}},
    {{1, {3}, {1}}, {1, {1}, {1}}, {1, {5}, {1}}},
};

/* aux 0 (variable 2) occurs in B only with a zero coefficient. */
static const row_def zero_rows[] = {
    {{1, {2}, {1}}, {2, {3, 2}, {1, 0}}, {1, {3}, {1}}},
    {{1, {3}, {1}}, {1, {1}, {1}}, {1, {2}, {1}}},
};

static void test_refusals(void) {
    cz_r1cs cs;
    cz_bellperson_params p;
    cz_groth16_trapdoor td;
    cz_errinfo ei;
    seeded(&td, "refusals");
    if (build(&cs, CZ_CURVE_BLS12381, 1, 4, unconstrained_rows, 2)) {
        CHECK_ERR(cz_groth16_setup_bellperson(&p, &cs, &td, pool, -1, &ei), CZ_EFORMAT);
        CHECK(strstr(ei.msg, "aux 2 (variable 4) is unconstrained") != NULL);
        CHECK(p.h == NULL && p.vk.ic == NULL && p.nh == 0); /* zeroed */
        cz_r1cs_free(&cs);
    }
    if (build(&cs, CZ_CURVE_BLS12381, 1, 2, zero_rows, 2)) {
        CHECK_ERR(cz_groth16_setup_bellperson(&p, &cs, &td, pool, -1, &ei), CZ_EFORMAT);
        CHECK(strstr(ei.msg, "aux 0 (variable 2) occurs in B but its B polynomial is zero") !=
              NULL);
        cz_r1cs_free(&cs);
    }
    if (build(&cs, CZ_CURVE_BN254, 2, 4, sparse_rows, TEST_COUNT(sparse_rows))) {
        CHECK_ERR(cz_groth16_setup_bellperson(&p, &cs, &td, pool, -1, &ei), CZ_ECURVE);
        CHECK(strstr(ei.msg, "BLS12-381, not bn128") != NULL);
        cz_r1cs_free(&cs);
    }
    if (build(&cs, CZ_CURVE_BLS12381, 2, 4, sparse_rows, TEST_COUNT(sparse_rows))) {
        cz_groth16_trapdoor bad = td;
        memset(bad.alpha, 0, 32);
        CHECK_ERR(cz_groth16_setup_bellperson(&p, &cs, &bad, pool, -1, &ei), CZ_EINVAL);
        CHECK(strstr(ei.msg, "alpha is zero") != NULL);
        bad = td;
        memset(bad.tau, 0, 32);
        bad.tau[0] = 1; /* 1 is on every domain */
        CHECK_ERR(cz_groth16_setup_bellperson(&p, &cs, &bad, pool, -1, &ei), CZ_EINVAL);
        CHECK(strstr(ei.msg, "tau lies on the evaluation domain") != NULL);
        memset(bad.tau, 0xff, 32);
        CHECK_ERR(cz_groth16_setup_bellperson(&p, &cs, &bad, pool, -1, &ei), CZ_ERANGE);
        /* A variable index past nvars: the structure check. */
        cs.c.var[0] = cs.nvars;
        CHECK_ERR(cz_groth16_setup_bellperson(&p, &cs, &td, pool, -1, &ei), CZ_EFORMAT);
        cz_r1cs_free(&cs);
    }
}

static const test_case cases[] = {
    {"mulchain", test_mulchain}, {"sparse", test_sparse},     {"roundtrip", test_roundtrip},
    {"random", test_random},     {"refusals", test_refusals},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
