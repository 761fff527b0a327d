/*
 * Optimal ate pairings of BN254 and BLS12-381 against @noble/curves
 * (tests/vectors/pairing_vectors.mjs writes tests/vectors/out/pairing_vectors.txt):
 *   - e(G1, G2) and e(aG1, bG2) equal noble's values limb for limb;
 *   - e(aG1, bG2) = e(G1, G2)^(ab mod r) (bilinearity, with the Fp12 pow of cuzk/tower.h);
 *   - pairing = final_exp(miller_loop), and the result has order r (e^r = 1);
 *   - pairing_check agrees with noble on products that hold and that fail (one element changed),
 *     with infinity pairs, with more pairs than one Miller chunk, and is 1 for no pairs.
 */
#include <gmp.h>
#include <stdlib.h>

#include "cuzk/err.h"
#include "cuzk/pairing.h"
#include "test.h"

typedef struct {
    uint64_t l[12 * 6];
} elem;

/* Per-curve operations over untyped buffers. */
typedef struct {
    const char *name;
    const char *r_dec;
    size_t fp_size;
    int (*fp_from_dec)(void *r, const char *s);
    void (*pairing)(void *r, const void *p, const void *q);
    void (*miller)(void *r, const void *p, const void *q);
    void (*final_exp)(void *r, const void *f);
    int (*check)(const void *pairs, size_t n);
    int (*eq12)(const void *a, const void *b);
    int (*is_one12)(const void *a);
    void (*pow12)(void *r, const void *a, const uint64_t *e, size_t n);
} curve_ops;

#define WRAP(c)                                                                                    \
    static int c##_dec(void *r, const char *s) {                                                   \
        return cz_##c##_fp_from_dec(r, s);                                                         \
    }                                                                                              \
    static void c##_pair(void *r, const void *p, const void *q) {                                  \
        cz_##c##_pairing(r, p, q);                                                                 \
    }                                                                                              \
    static void c##_ml(void *r, const void *p, const void *q) {                                    \
        cz_##c##_miller_loop(r, p, q);                                                             \
    }                                                                                              \
    static void c##_fe(void *r, const void *f) {                                                   \
        cz_##c##_final_exp(r, f);                                                                  \
    }                                                                                              \
    static int c##_chk(const void *pairs, size_t n) {                                              \
        return cz_##c##_pairing_check(pairs, n);                                                   \
    }                                                                                              \
    static int c##_eq(const void *a, const void *b) {                                              \
        return cz_##c##_fp12_eq(a, b);                                                             \
    }                                                                                              \
    static int c##_one(const void *a) {                                                            \
        return cz_##c##_fp12_is_one(a);                                                            \
    }                                                                                              \
    static void c##_pow(void *r, const void *a, const uint64_t *e, size_t n) {                     \
        cz_##c##_fp12_pow(r, a, e, n);                                                             \
    }

WRAP(bn254)
WRAP(bls12381)

static const curve_ops CURVES[] = {
    {"bn254", "21888242871839275222246405745257275088548364400416034343698204186575808495617",
     sizeof(cz_bn254_fp), bn254_dec, bn254_pair, bn254_ml, bn254_fe, bn254_chk, bn254_eq, bn254_one,
     bn254_pow},
    {"bls12381", "52435875175126190479447740508185965837690552500527637822603658699938581184513",
     sizeof(cz_bls12381_fp), bls12381_dec, bls12381_pair, bls12381_ml, bls12381_fe, bls12381_chk,
     bls12381_eq, bls12381_one, bls12381_pow},
};

/* Parses n Fp decimals from the strtok stream into consecutive Fp slots starting at dst. */
static int parse_fps(const curve_ops *c, void *dst, int n) {
    for (int i = 0; i < n; i++) {
        const char *tok = strtok(NULL, " \n");
        if (!tok || c->fp_from_dec((char *)dst + (size_t)i * c->fp_size, tok) != CZ_OK)
            return 0;
    }
    return 1;
}

/* Checks e^r = 1. */
static void check_order_r(const curve_ops *c, const elem *e) {
    mpz_t r;
    uint64_t lr[4] = {0};
    size_t n = 0;
    elem t;
    mpz_init_set_str(r, c->r_dec, 10);
    mpz_export(lr, &n, -1, 8, 0, 0, r);
    c->pow12(&t, e, lr, n);
    CHECK(c->is_one12(&t));
    mpz_clear(r);
}

static elem gen_e[2];

static void check_line(const curve_ops *c, size_t ci, const char *kind) {
    elem p, q, want, got, f;
    memset(&p, 0, sizeof p);
    memset(&q, 0, sizeof q);
    if (strcmp(kind, "gen") == 0 || strcmp(kind, "pair") == 0) {
        mpz_t a, b, r;
        mpz_inits(a, b, r, NULL);
        int is_pair = kind[0] == 'p';
        if (is_pair) {
            const char *sa = strtok(NULL, " \n"), *sb = strtok(NULL, " \n");
            CHECK(sa && sb && mpz_set_str(a, sa, 10) == 0 && mpz_set_str(b, sb, 10) == 0);
        }
        if (CHECK(parse_fps(c, &p, 2) && parse_fps(c, &q, 4) && parse_fps(c, &want, 12))) {
            c->pairing(&got, &p, &q);
            CHECK(c->eq12(&got, &want));
            c->miller(&f, &p, &q);
            c->final_exp(&f, &f);
            CHECK(c->eq12(&f, &got));
            if (!is_pair) {
                gen_e[ci] = got;
                check_order_r(c, &got);
                CHECK(!c->is_one12(&got));
            } else {
                /* e(aG1, bG2) = e(G1, G2)^(ab mod r) */
                uint64_t e[4] = {0};
                size_t ne = 0;
                mpz_set_str(r, c->r_dec, 10);
                mpz_mul(a, a, b);
                mpz_mod(a, a, r);
                mpz_export(e, &ne, -1, 8, 0, 0, a);
                c->pow12(&f, &gen_e[ci], e, ne);
                CHECK(c->eq12(&f, &want));
            }
        }
        mpz_clears(a, b, r, NULL);
    } else if (strcmp(kind, "check") == 0) {
        const char *sx = strtok(NULL, " \n"), *sn = strtok(NULL, " \n");
        if (!CHECK(sx && sn))
            return;
        int expect = atoi(sx);
        size_t n = (size_t)atoi(sn);
        /* A pairing pair is 6 Fp values in a row (g1 x y, g2 x y), without padding. */
        size_t pair_size = 6 * c->fp_size;
        char *pairs = calloc(n ? n : 1, pair_size);
        int ok = 1;
        for (size_t i = 0; i < n; i++)
            ok &= parse_fps(c, pairs + i * pair_size, 6);
        if (CHECK(ok))
            CHECK_EQ_INT(c->check(pairs, n), expect);
        free(pairs);
    } else {
        CHECK(!"unknown record");
    }
}

static void test_sizes(void) {
    CHECK_EQ_SIZE(sizeof(cz_bn254_pairing_pair), 6 * sizeof(cz_bn254_fp));
    CHECK_EQ_SIZE(sizeof(cz_bls12381_pairing_pair), 6 * sizeof(cz_bls12381_fp));
}

static void test_vectors(void) {
    FILE *fp = fopen("tests/vectors/out/pairing_vectors.txt", "r");
    if (!CHECK(fp != NULL)) {
        fprintf(stderr, "missing tests/vectors/out/pairing_vectors.txt: run "
                        "node tests/vectors/pairing_vectors.mjs tests/vectors/out\n");
        return;
    }
    static char line[64 * 1024];
    int nrec = 0;
    while (fgets(line, sizeof line, fp)) {
        const char *cname = strtok(line, " \n"), *kind = strtok(NULL, " \n");
        size_t ci = cname && strcmp(cname, "bls12381") == 0 ? 1 : 0;
        if (!CHECK(cname && kind && strcmp(CURVES[ci].name, cname) == 0))
            continue;
        check_line(&CURVES[ci], ci, kind);
        nrec++;
    }
    fclose(fp);
    CHECK_EQ_INT(nrec, 30);
}

static void test_no_pairs(void) {
    for (size_t ci = 0; ci < 2; ci++)
        CHECK_EQ_INT(CURVES[ci].check(NULL, 0), 1);
}

static const test_case cases[] = {
    {"sizes", test_sizes},
    {"vectors", test_vectors},
    {"no_pairs", test_no_pairs},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
