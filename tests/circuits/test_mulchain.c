/*
 * The C multiplication-chain generator (cuzk/mulchain.h) against two oracles:
 *   - bytes: the JavaScript generator bench/gen_mulchain.mjs (BigInt arithmetic), whose files
 *     tests/vectors/mulchain_vectors.mjs writes to tests/vectors/out/mulchain/ for a few n on
 *     both curves; the C files must be identical;
 *   - meaning: the files are opened with the library's r1cs and wtns readers and every constraint
 *     (Σ A·w)·(Σ B·w) = Σ C·w is checked with the CPU field code, also for inputs and sizes the
 *     fixtures do not cover, and a witness with one value changed must fail the check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/field.h"
#include "cuzk/mulchain.h"
#include "cuzk/r1cs_file.h"
#include "cuzk/wtns.h"
#include "test.h"

#define FIX "tests/vectors/out/mulchain/"

static const uint32_t SIZES[] = {1, 2, 5, 13, 61, 300};

/* The whole file at path (NULL if unreadable); *len its size. */
static uint8_t *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    long sz;
    if (f == NULL)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (sz = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        buf = malloc((size_t)sz + 1);
        if (buf != NULL && fread(buf, 1, (size_t)sz, f) != (size_t)sz) {
            free(buf);
            buf = NULL;
        }
        *len = (size_t)sz;
    }
    fclose(f);
    return buf;
}

static int same_file(const char *a, const char *b) {
    size_t la = 0, lb = 0;
    uint8_t *x = slurp(a, &la), *y = slurp(b, &lb);
    int same = x != NULL && y != NULL && la == lb && memcmp(x, y, la) == 0;
    if (!same)
        fprintf(stderr, "%s (%zu bytes) differs from %s (%zu bytes)\n", a, la, b, lb);
    free(x);
    free(y);
    return same;
}

/* Number of constraints of r that the witness values w (standard-form limbs) do not satisfy. */
#define SATISFIED(C)                                                                               \
    static void lc_##C(cz_##C##_fr *acc, const cz_r1cs_lc *lc, const uint64_t *w) {                \
        cz_##C##_fr_zero(acc);                                                                     \
        for (size_t t = 0; t < lc->nterms; t++) {                                                  \
            cz_##C##_fr k, v;                                                                      \
            CHECK_EQ_INT(cz_##C##_fr_from_bytes_le(&k, (const uint8_t *)lc->terms[t].coef), 0);    \
            CHECK_EQ_INT(                                                                          \
                cz_##C##_fr_from_bytes_le(&v, (const uint8_t *)&w[4 * lc->terms[t].wire]), 0);     \
            cz_##C##_fr_mul(&k, &k, &v);                                                           \
            cz_##C##_fr_add(acc, acc, &k);                                                         \
        }                                                                                          \
    }                                                                                              \
    static size_t unsatisfied_##C(const cz_r1cs_file *r, const uint64_t *w) {                      \
        size_t bad = 0;                                                                            \
        for (uint32_t i = 0; i < r->nconstraints; i++) {                                           \
            cz_##C##_fr a, b, c;                                                                   \
            lc_##C(&a, &r->constraints[i].a, w);                                                   \
            lc_##C(&b, &r->constraints[i].b, w);                                                   \
            lc_##C(&c, &r->constraints[i].c, w);                                                   \
            cz_##C##_fr_mul(&a, &a, &b);                                                           \
            bad += !cz_##C##_fr_eq(&a, &c);                                                        \
        }                                                                                          \
        return bad;                                                                                \
    }
SATISFIED(bn254)
SATISFIED(bls12381)

static size_t unsatisfied(const cz_r1cs_file *r, const uint64_t *w) {
    return r->curve == CZ_CURVE_BN254 ? unsatisfied_bn254(r, w) : unsatisfied_bls12381(r, w);
}

/* Writes the chain, opens both files and checks shape, inputs and every constraint. */
static void check_circuit(cz_curve_id curve, uint32_t n, uint64_t x0, uint64_t b, const char *r1p,
                          const char *wp) {
    cz_errinfo ei;
    cz_r1cs_file *r = NULL;
    cz_wtns *w = NULL;
    if (!CHECK_ERR(cz_mulchain_write(r1p, wp, curve, n, x0, b, &ei), CZ_OK)) {
        fprintf(stderr, "%s\n", ei.msg);
        return;
    }
    if (!CHECK_ERR(cz_r1cs_open(&r, r1p, &ei), CZ_OK) ||
        !CHECK_ERR(cz_wtns_open(&w, wp, &ei), CZ_OK)) {
        fprintf(stderr, "%s\n", ei.msg);
        cz_r1cs_close(r);
        return;
    }
    CHECK(r->curve == curve && w->curve == curve);
    CHECK(r->nconstraints == n && r->nwires == n + 3 && w->nwitness == n + 3);
    CHECK(r->npub_out == 1 && r->npub_in == 1 && r->nprv_in == 1);
    CHECK(w->values[0] == 1 && w->values[2 * 4] == b && w->values[3 * 4] == x0);
    CHECK_EQ_INT(unsatisfied(r, w->values), 0);

    /* The check can fail: change x_n (wire 1, only in the last constraint), then b (in all). */
    size_t len = (size_t)w->nwitness * 4;
    uint64_t *bad = malloc(len * sizeof *bad);
    if (CHECK(bad != NULL)) {
        memcpy(bad, w->values, len * sizeof *bad);
        bad[4 * 1] ^= 1;
        CHECK_EQ_INT(unsatisfied(r, bad), 1);
        bad[4 * 1] ^= 1;
        bad[4 * 2] += 1;
        CHECK_EQ_INT(unsatisfied(r, bad), n);
    }
    free(bad);
    cz_wtns_close(w);
    cz_r1cs_close(r);
}

static const char *const names[2] = {"bn128", "bls12381"};
static const cz_curve_id ids[2] = {CZ_CURVE_BN254, CZ_CURVE_BLS12381};
static char r1p[128], wp[128];

static int setup(void) {
    snprintf(r1p, sizeof r1p, "/tmp/cuzk_test_mulchain_%ld.r1cs", (long)getpid());
    snprintf(wp, sizeof wp, "/tmp/cuzk_test_mulchain_%ld.wtns", (long)getpid());
    return 0;
}

static void teardown(void) {
    remove(r1p);
    remove(wp);
}

/* The files equal the JavaScript generator's. */
static void test_fixtures(void) {
    char fix[256];
    FILE *probe = fopen(FIX "bn128-1.r1cs", "rb");
    if (!CHECK(probe != NULL)) {
        fprintf(stderr, "missing " FIX ": run node tests/vectors/mulchain_vectors.mjs "
                        "tests/vectors/out\n");
        return;
    }
    fclose(probe);
    for (int c = 0; c < 2; c++) {
        for (size_t s = 0; s < sizeof SIZES / sizeof SIZES[0]; s++) {
            check_circuit(ids[c], SIZES[s], 3, 7, r1p, wp);
            snprintf(fix, sizeof fix, FIX "%s-%u.r1cs", names[c], SIZES[s]);
            CHECK(same_file(r1p, fix));
            snprintf(fix, sizeof fix, FIX "%s-%u.wtns", names[c], SIZES[s]);
            CHECK(same_file(wp, fix));
        }
    }
}

/* Other inputs (x0 = 0 makes x_1 = b; a large b wraps mod r quickly) and a domain-sized chain:
 * constraints + 2 public + 1 = 2^10. */
static void test_other_inputs(void) {
    for (int c = 0; c < 2; c++) {
        check_circuit(ids[c], 4, 0, 0, r1p, wp);
        check_circuit(ids[c], 40, UINT64_MAX, UINT64_MAX - 1, r1p, wp);
        check_circuit(ids[c], cz_mulchain_n_for_log_domain(10), 5, 11, r1p, wp);
    }
}

static void test_n_for_log_domain(void) {
    CHECK_EQ_U64(cz_mulchain_n_for_log_domain(10) + 2 + 1, 1024);
    CHECK_EQ_U64(cz_mulchain_n_for_log_domain(2), 1);
    CHECK(cz_mulchain_n_for_log_domain(1) == 0 && cz_mulchain_n_for_log_domain(32) == 0);
}

/* Errors: no constraints, unknown curve, a file that cannot be created (nothing left). */
static void test_errors(void) {
    cz_errinfo ei;
    remove(r1p);
    CHECK_ERR(cz_mulchain_write(r1p, wp, CZ_CURVE_BN254, 0, 3, 7, &ei), CZ_EINVAL);
    CHECK_ERR(cz_mulchain_write(r1p, wp, (cz_curve_id)7, 1, 3, 7, &ei), CZ_EINVAL);
    CHECK_ERR(cz_mulchain_write(r1p, "/nonexistent-dir/x.wtns", CZ_CURVE_BN254, 5, 3, 7, &ei),
              CZ_EIO);
    CHECK(strstr(ei.msg, "/nonexistent-dir/x.wtns") != NULL);
    CHECK(access(r1p, F_OK) != 0);
}

static const test_case cases[] = {
    {"fixtures", test_fixtures},
    {"other_inputs", test_other_inputs},
    {"n_for_log_domain", test_n_for_log_domain},
    {"errors", test_errors},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
