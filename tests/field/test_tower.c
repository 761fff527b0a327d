/*
 * Fp6/Fp12 towers of both curves against @noble/curves (tests/vectors/tower_vectors.mjs writes
 * tests/vectors/out/tower_vectors.txt): product, square, inverse and Frobenius images must be
 * equal limb for limb. Then algebraic properties: a·a⁻¹ = 1, Frobenius¹² = identity (Fp12) and
 * Frobenius⁶ = identity (Fp6), frobenius(k) = pow(p^k) with p^k from GMP, conj = frobenius(6),
 * and the cyclotomic squaring equals the plain squaring on elements f^((p⁶-1)(p²+1)).
 * The tower kernels of mont_impl.h (mul_fast, mul_wide + redc) and the fp2f set of fp2_impl.h
 * must return exactly what the GMP-tested add/sub/mul and Fp2 functions return, on pseudo-random
 * and edge values (0, 1, p - 1, sums equal to p, maximal lazy products).
 */
#include <gmp.h>
#include <stdlib.h>

#include "cuzk/tower.h"
#include "field/tower.h"
#include "test.h"

/* Per-curve operations over untyped buffers, so the checks are written once. */
typedef struct {
    const char *name;
    const char *p_dec;
    size_t fp_size;
    int (*fp_from_dec)(void *r, const char *s);
    void (*op6[2])(void *r, const void *a, const void *b); /* mul, sqr (b unused) */
    void (*inv6)(void *r, const void *a);
    void (*frob6)(void *r, const void *a, unsigned k);
    int (*eq6)(const void *a, const void *b);
    void (*op12[2])(void *r, const void *a, const void *b);
    void (*inv12)(void *r, const void *a);
    void (*frob12)(void *r, const void *a, unsigned k);
    int (*eq12)(const void *a, const void *b);
    int (*is_one12)(const void *a);
    void (*pow12)(void *r, const void *a, const uint64_t *e, size_t n);
    void (*conj12)(void *r, const void *a);
    void (*cyc_sqr12)(void *r, const void *a);
} curve_ops;

#define WRAP(c)                                                                                    \
    static int c##_fp_dec(void *r, const char *s) {                                                \
        return cz_##c##_fp_from_dec(r, s);                                                         \
    }                                                                                              \
    static void c##_m6(void *r, const void *a, const void *b) {                                    \
        cz_##c##_fp6_mul(r, a, b);                                                                 \
    }                                                                                              \
    static void c##_s6(void *r, const void *a, const void *b) {                                    \
        (void)b;                                                                                   \
        cz_##c##_fp6_sqr(r, a);                                                                    \
    }                                                                                              \
    static void c##_i6(void *r, const void *a) {                                                   \
        cz_##c##_fp6_inv(r, a);                                                                    \
    }                                                                                              \
    static void c##_f6(void *r, const void *a, unsigned k) {                                       \
        cz_##c##_fp6_frobenius(r, a, k);                                                           \
    }                                                                                              \
    static int c##_e6(const void *a, const void *b) {                                              \
        return cz_##c##_fp6_eq(a, b);                                                              \
    }                                                                                              \
    static void c##_m12(void *r, const void *a, const void *b) {                                   \
        cz_##c##_fp12_mul(r, a, b);                                                                \
    }                                                                                              \
    static void c##_s12(void *r, const void *a, const void *b) {                                   \
        (void)b;                                                                                   \
        cz_##c##_fp12_sqr(r, a);                                                                   \
    }                                                                                              \
    static void c##_i12(void *r, const void *a) {                                                  \
        cz_##c##_fp12_inv(r, a);                                                                   \
    }                                                                                              \
    static void c##_f12(void *r, const void *a, unsigned k) {                                      \
        cz_##c##_fp12_frobenius(r, a, k);                                                          \
    }                                                                                              \
    static int c##_e12(const void *a, const void *b) {                                             \
        return cz_##c##_fp12_eq(a, b);                                                             \
    }                                                                                              \
    static int c##_o12(const void *a) {                                                            \
        return cz_##c##_fp12_is_one(a);                                                            \
    }                                                                                              \
    static void c##_p12(void *r, const void *a, const uint64_t *e, size_t n) {                     \
        cz_##c##_fp12_pow(r, a, e, n);                                                             \
    }                                                                                              \
    static void c##_c12(void *r, const void *a) {                                                  \
        cz_##c##_fp12_conj(r, a);                                                                  \
    }                                                                                              \
    static void c##_cs12(void *r, const void *a) {                                                 \
        c##_fp12_cyclotomic_sqr(r, a);                                                             \
    }

WRAP(bn254)
WRAP(bls12381)

#define OPS(c, pdec)                                                                               \
    {                                                                                              \
#c, pdec, sizeof(cz_##c##_fp), c##_fp_dec,                                                 \
            {c##_m6, c##_s6 }, c##_i6, c##_f6, c##_e6,                                             \
             {c##_m12, c##_s12 }, c##_i12, c##_f12, c##_e12, c##_o12, c##_p12, c##_c12, c##_cs12   \
    }

static const curve_ops CURVES[] = {
    OPS(bn254, "21888242871839275222246405745257275088696311157297823662689037894645226208583"),
    OPS(bls12381, "40024095552216673934177898257359041565568828199390078853320581361240316504908378"
                  "64442687629129015664037894272559787"),
};

/* Storage large enough for any element of either curve (12 Fp of 6 limbs). */
typedef struct {
    uint64_t l[12 * 6];
} elem;

/* Parses n Fp decimals from the strtok stream into consecutive Fp slots of e. */
static int parse_elem(const curve_ops *c, elem *e, int n) {
    memset(e, 0, sizeof *e);
    for (int i = 0; i < n; i++) {
        const char *tok = strtok(NULL, " \n");
        if (!tok || c->fp_from_dec((char *)e->l + (size_t)i * c->fp_size, tok) != CZ_OK)
            return 0;
    }
    return 1;
}

static const curve_ops *find_curve(const char *name) {
    for (size_t i = 0; i < sizeof CURVES / sizeof CURVES[0]; i++)
        if (strcmp(CURVES[i].name, name) == 0)
            return &CURVES[i];
    return NULL;
}

/* One fp6 or fp12 vector line (the curve and kind tokens already read). */
static void check_line(const curve_ops *c, int is12) {
    int n = is12 ? 12 : 6, nfrob = is12 ? 4 : 5;
    static const unsigned frob12_k[] = {1, 2, 3, 6};
    elem a, b, want, got;
    if (!CHECK(parse_elem(c, &a, n) && parse_elem(c, &b, n)))
        return;
    for (int op = 0; op < 2; op++) {
        CHECK(parse_elem(c, &want, n));
        memset(&got, 0, sizeof got);
        (is12 ? c->op12[op] : c->op6[op])(&got, &a, &b);
        CHECK(is12 ? c->eq12(&got, &want) : c->eq6(&got, &want));
    }
    CHECK(parse_elem(c, &want, n));
    (is12 ? c->inv12 : c->inv6)(&got, &a);
    CHECK(is12 ? c->eq12(&got, &want) : c->eq6(&got, &want));
    for (int i = 0; i < nfrob; i++) {
        unsigned k = is12 ? frob12_k[i] : (unsigned)i + 1;
        CHECK(parse_elem(c, &want, n));
        (is12 ? c->frob12 : c->frob6)(&got, &a, k);
        CHECK(is12 ? c->eq12(&got, &want) : c->eq6(&got, &want));
    }

    /* a·a⁻¹ = 1 and Frobenius of full period is the identity. */
    if (is12) {
        elem ai, prod, f = a;
        c->inv12(&ai, &a);
        c->op12[0](&prod, &a, &ai);
        CHECK(c->is_one12(&prod));
        for (int k = 0; k < 12; k++) {
            CHECK(k == 0 || !c->eq12(&f, &a));
            c->frob12(&f, &f, 1);
        }
        CHECK(c->eq12(&f, &a));
    } else {
        elem f = a;
        for (int k = 0; k < 6; k++)
            c->frob6(&f, &f, 1);
        CHECK(c->eq6(&f, &a));
    }
}

static void check_vectors(void) {
    FILE *fp = fopen("tests/vectors/out/tower_vectors.txt", "r");
    if (!CHECK(fp != NULL)) {
        fprintf(stderr, "missing tests/vectors/out/tower_vectors.txt: run "
                        "node tests/vectors/tower_vectors.mjs tests/vectors/out\n");
        return;
    }
    static char line[64 * 1024];
    int nlines = 0;
    while (fgets(line, sizeof line, fp)) {
        const char *cname = strtok(line, " \n"), *kind = strtok(NULL, " \n");
        const curve_ops *c = cname ? find_curve(cname) : NULL;
        if (!CHECK(c != NULL && kind != NULL))
            continue;
        check_line(c, strcmp(kind, "fp12") == 0);
        nlines++;
    }
    fclose(fp);
    CHECK_EQ_INT(nlines, 32);
}

/* A deterministic pseudo-random Fp12 element (value does not matter, only that it is generic). */
static void some_fp12(const curve_ops *c, elem *e, unsigned seed) {
    char dec[32];
    memset(e, 0, sizeof *e);
    for (int i = 0; i < 12; i++) {
        snprintf(dec, sizeof dec, "%u", seed * 1000003u + (unsigned)i * 7919u + 17u);
        c->fp_from_dec((char *)e->l + (size_t)i * c->fp_size, dec);
    }
}

/* frobenius(k) = pow(p^k) (k = 1, 2, 3), conj = frobenius(6), cyclotomic sqr = sqr after the
 * easy part of the final exponentiation. */
static void check_algebra(const curve_ops *c) {
    mpz_t p, pk;
    mpz_inits(p, pk, NULL);
    mpz_set_str(p, c->p_dec, 10);
    mpz_set_ui(pk, 1);
    elem a, want, got;
    some_fp12(c, &a, 1);
    for (unsigned k = 1; k <= 3; k++) {
        uint64_t e[24] = {0};
        size_t ne = 0;
        mpz_mul(pk, pk, p);
        mpz_export(e, &ne, -1, 8, 0, 0, pk);
        c->pow12(&want, &a, e, ne);
        c->frob12(&got, &a, k);
        CHECK(c->eq12(&got, &want));
    }
    c->frob12(&want, &a, 6);
    c->conj12(&got, &a);
    CHECK(c->eq12(&got, &want));

    /* g = a^((p⁶-1)(p²+1)) lies in the cyclotomic subgroup. */
    elem g, t, s1, s2;
    c->inv12(&t, &a);
    c->conj12(&g, &a);
    c->op12[0](&g, &g, &t);
    c->frob12(&t, &g, 2);
    c->op12[0](&g, &g, &t);
    for (int i = 0; i < 3; i++) {
        c->op12[1](&s1, &g, NULL);
        c->cyc_sqr12(&s2, &g);
        CHECK(c->eq12(&s1, &s2));
        g = s1;
    }
    /* ... where conj is the inverse. */
    c->conj12(&t, &g);
    c->op12[0](&t, &t, &g);
    CHECK(c->is_one12(&t));
    mpz_clears(p, pk, NULL);
}

/* xorshift64*: deterministic limbs for the kernel checks. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rng_next(void) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dULL;
}

/*
 * Kernel checks for one curve c (field prefix c##_fp, type T, modulus limbs P, N limbs): element
 * k of a pool of edge values (0, 1, p - 1, p - 2, 2^64 - 1, a random half of p) followed by
 * pseudo-random values < p; every pair (a, b) and every Fp2 built from the pool is checked.
 */
#define KERNEL_CHECKS(c, T, T2, P, N)                                                              \
    static void c##_pool(T *v, int k) {                                                            \
        memset(v, 0, sizeof *v);                                                                   \
        if (k == 1) {                                                                              \
            c##_fp_set_one(v);                                                                     \
        } else if (k == 2 || k == 3) {                                                             \
            memcpy(v->l, P, sizeof v->l);                                                          \
            v->l[0] -= (uint64_t)(k - 1);                                                          \
        } else if (k == 4) {                                                                       \
            v->l[0] = ~(uint64_t)0;                                                                \
        } else if (k >= 5) {                                                                       \
            for (int i = 0; i < N; i++)                                                            \
                v->l[i] = rng_next();                                                              \
            v->l[N - 1] %= P[N - 1];                                                               \
        }                                                                                          \
    }                                                                                              \
    static void c##_kernels(void) {                                                                \
        enum { NPOOL = 24 };                                                                       \
        T v[NPOOL];                                                                                \
        int bad = 0;                                                                               \
        for (int k = 0; k < NPOOL; k++)                                                            \
            c##_pool(&v[k], k);                                                                    \
        for (int i = 0; i < NPOOL; i++) {                                                          \
            T want, got, pb;                                                                       \
            uint64_t w[2 * N];                                                                     \
            for (int j = 0; j < NPOOL; j++) {                                                      \
                c##_fp_mul(&want, &v[i], &v[j]);                                                   \
                c##_fp_mul_wide(w, v[i].l, v[j].l);                                                \
                c##_fp_redc(&got, w);                                                              \
                bad += !c##_fp_eq(&want, &got);                                                    \
                c##_fp_mul_fast(&got, &v[i], &v[j]);                                               \
                bad += !c##_fp_eq(&want, &got);                                                    \
                c##_fp_add(&pb, &v[i], &v[(i + j) % NPOOL]);                                       \
                c##_fp_mul(&want, &pb, &v[j]);                                                     \
                c##_fp_add_nr(pb.l, v[i].l, v[(i + j) % NPOOL].l); /* unreduced, < 2p */           \
                c##_fp_mul_fast(&got, &pb, &v[j]);                                                 \
                bad += !c##_fp_eq(&want, &got);                                                    \
            }                                                                                      \
        }                                                                                          \
        for (int i = 0; i + 1 < NPOOL; i++) {                                                      \
            for (int j = 0; j + 1 < NPOOL; j++) {                                                  \
                T2 a = {v[i], v[i + 1]}, b = {v[j + 1], v[j]}, want, got;                          \
                c##_fp2_mul(&want, &a, &b);                                                        \
                c##_fp2f_mul(&got, &a, &b);                                                        \
                bad += !c##_fp2_eq(&want, &got);                                                   \
                c##_fp2_add(&want, &a, &b);                                                        \
                c##_fp2f_add(&got, &a, &b);                                                        \
                bad += !c##_fp2_eq(&want, &got);                                                   \
                c##_fp2_sub(&want, &a, &b);                                                        \
                c##_fp2f_sub(&got, &a, &b);                                                        \
                bad += !c##_fp2_eq(&want, &got);                                                   \
            }                                                                                      \
            T2 a = {v[i], v[i + 1]}, want, got;                                                    \
            c##_fp2_sqr(&want, &a);                                                                \
            c##_fp2f_sqr(&got, &a);                                                                \
            bad += !c##_fp2_eq(&want, &got);                                                       \
            c##_fp2_mul_xi(&want, &a);                                                             \
            c##_fp2f_mul_xi(&got, &a);                                                             \
            bad += !c##_fp2_eq(&want, &got);                                                       \
            c##_fp2_dbl(&want, &a);                                                                \
            c##_fp2f_dbl(&got, &a);                                                                \
            bad += !c##_fp2_eq(&want, &got);                                                       \
            c##_fp2_neg(&want, &a);                                                                \
            c##_fp2f_neg(&got, &a);                                                                \
            bad += !c##_fp2_eq(&want, &got);                                                       \
            c##_fp2_mul_fp(&want, &a, &v[NPOOL - 1 - i]);                                          \
            c##_fp2f_mul_fp(&got, &a, &v[NPOOL - 1 - i]);                                          \
            bad += !c##_fp2_eq(&want, &got);                                                       \
            c##_fp2_conj(&want, &a);                                                               \
            c##_fp2f_conj(&got, &a);                                                               \
            bad += !c##_fp2_eq(&want, &got);                                                       \
        }                                                                                          \
        CHECK_EQ_INT(bad, 0);                                                                      \
    }

KERNEL_CHECKS(bn254, cz_bn254_fp, cz_bn254_fp2, BN254_FP_P, BN254_FP_NLIMBS)
KERNEL_CHECKS(bls12381, cz_bls12381_fp, cz_bls12381_fp2, BLS12381_FP_P, BLS12381_FP_NLIMBS)

static void test_algebra(void) {
    for (size_t i = 0; i < sizeof CURVES / sizeof CURVES[0]; i++)
        check_algebra(&CURVES[i]);
}

static const test_case cases[] = {
    {"bn254_kernels", bn254_kernels},
    {"bls12381_kernels", bls12381_kernels},
    {"vectors", check_vectors},
    {"algebra", test_algebra},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
