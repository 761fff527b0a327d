/*
 * Test helpers and checks for one group, instantiated per group by the curve tests after defining:
 *   T_G (cz_bls12381_g1), T_NAME ("bls12381"), T_GN ("g1"), T_AFF, T_JAC, T_XYZZ,
 *   T_FR (scalar field public prefix), T_FR_T, T_F (coordinate field public prefix), T_F_T,
 *   T_B (base field public prefix), T_DEG (1 or 2), T_ORDER (r as 4 limbs).
 * Everything is static inline so that a test binary may use only part of it.
 */
#include <stdlib.h>

#include "curve_vectors.h"
#include "cuzk/curve.h"
#include "field/cz_macros.h"

#define T(name)  CZ_CAT3(T_G, _t_, name)
#define G(name)  CZ_CAT3(T_G, _, name)
#define FR(name) CZ_CAT3(T_FR, _, name)
#define FF(name) CZ_CAT3(T_F, _, name)
#define BB(name) CZ_CAT3(T_B, _, name)

#if T_DEG == 1
#define T_PART(a, i) (a)
#else
#define T_PART(a, i) ((i) == 0 ? &(a)->c0 : &(a)->c1)
#endif

/* "inf" or comma-separated decimal coordinates (x.c0[,x.c1],y.c0[,y.c1]). */
static inline int T(parse_point)(T_AFF *p, const char *s) {
    char buf[1024], *save = NULL, *tok;
    if (strcmp(s, "inf") == 0) {
        memset(p, 0, sizeof *p);
        return 1;
    }
    if (strlen(s) >= sizeof buf)
        return 0;
    strcpy(buf, s);
    tok = strtok_r(buf, ",", &save);
    for (int c = 0; c < 2; c++) {
        for (int i = 0; i < T_DEG; i++) {
            if (!tok || BB(from_dec)(T_PART(c == 0 ? &p->x : &p->y, i), tok) != 0)
                return 0;
            tok = strtok_r(NULL, ",", &save);
        }
    }
    return tok == NULL;
}

/* A deterministic scalar below r (the top limb is masked to 60 bits: below both orders). */
static inline void T(rand_scalar)(T_FR_T *k, uint64_t *state) {
    uint64_t l[4];
    uint8_t b[32];
    for (int i = 0; i < 4; i++)
        l[i] = curve_rand64(state);
    l[3] &= 0x0fffffffffffffffULL;
    for (int i = 0; i < 32; i++)
        b[i] = (uint8_t)(l[i / 8] >> (8 * (i % 8)));
    CHECK_EQ_INT(FR(from_bytes_le)(k, b), 0);
}

static inline void T(gen_jac)(T_JAC *g) {
    T_AFF a;
    G(generator)(&a);
    G(from_affine)(g, &a);
}

/* [k]G for a fresh deterministic k, returned in Jacobian with a non-trivial Z. */
static inline void T(rand_point)(T_JAC *p, T_FR_T *k_out, uint64_t *state) {
    T_JAC g;
    T_FR_T k;
    T(rand_scalar)(&k, state);
    T(gen_jac)(&g);
    G(mul)(p, &g, &k);
    if (k_out)
        *k_out = k;
}

/* (X·λ², Y·λ³, Z·λ): the same point with another Z. */
static inline void T(rescale)(T_JAC *p, const T_F_T *lambda) {
    T_F_T l2, l3;
    FF(sqr)(&l2, lambda);
    FF(mul)(&l3, &l2, lambda);
    FF(mul)(&p->x, &p->x, &l2);
    FF(mul)(&p->y, &p->y, &l3);
    FF(mul)(&p->z, &p->z, lambda);
}

static inline int T(jac_eq_aff)(const T_JAC *a, const T_AFF *b) {
    T_AFF t;
    G(to_affine)(&t, a);
    return G(affine_eq)(&t, b);
}

/* ---- comparison with noble ---------------------------------------------------------------- */

static inline void T(noble_record)(char **f, int nf) {
    T_AFF P, Q, R;
    T_JAC j, k, out;
    T_FR_T s;
    T_F_T lambda;
    const char *op = f[0];
    G(generator)(&P);
    lambda = P.y; /* a fixed non-trivial Z scale */
    if (strcmp(op, "gmul") == 0 && nf == 5) {
        CHECK_EQ_INT(FR(from_dec)(&s, f[3]), 0);
        CHECK(T(parse_point)(&R, f[4]));
        T(gen_jac)(&j);
        G(mul)(&out, &j, &s);
        CHECK(T(jac_eq_aff)(&out, &R));
        CHECK(G(on_curve)(&R));
        CHECK(G(in_subgroup)(&R));
    } else if (strcmp(op, "add") == 0 && nf == 6) {
        CHECK(T(parse_point)(&P, f[3]) && T(parse_point)(&Q, f[4]) && T(parse_point)(&R, f[5]));
        G(from_affine)(&j, &P);
        G(from_affine)(&k, &Q);
        G(add)(&out, &j, &k);
        CHECK(T(jac_eq_aff)(&out, &R));
        T(rescale)(&j, &lambda);
        G(dbl)(&k, &k); /* 2Q with its own Z, then Q = 2Q - Q */
        G(add)(&out, &j, &k);
        G(from_affine)(&k, &Q);
        G(neg)(&k, &k);
        G(add)(&out, &out, &k);
        CHECK(T(jac_eq_aff)(&out, &R));
        G(add_mixed)(&out, &j, &Q);
        CHECK(T(jac_eq_aff)(&out, &R));
    } else if (strcmp(op, "dbl") == 0 && nf == 5) {
        CHECK(T(parse_point)(&P, f[3]) && T(parse_point)(&R, f[4]));
        G(from_affine)(&j, &P);
        T(rescale)(&j, &lambda);
        G(dbl)(&out, &j);
        CHECK(T(jac_eq_aff)(&out, &R));
    } else if (strcmp(op, "pmul") == 0 && nf == 6) {
        CHECK(T(parse_point)(&P, f[3]) && T(parse_point)(&R, f[5]));
        CHECK_EQ_INT(FR(from_dec)(&s, f[4]), 0);
        G(from_affine)(&j, &P);
        T(rescale)(&j, &lambda);
        G(mul)(&out, &j, &s);
        CHECK(T(jac_eq_aff)(&out, &R));
    } else if (strcmp(op, "nosub") == 0 && nf == 4) {
        CHECK(T(parse_point)(&P, f[3]));
        CHECK(G(on_curve)(&P));
        CHECK(!G(in_subgroup)(&P));
    } else if (strcmp(op, "zc") != 0) {
        CHECK(!"unknown or malformed curve vector record");
    }
}

/* ---- group-law properties ----------------------------------------------------------------- */

static inline void T(props)(void) {
    uint64_t st = 0x5eed0000u + (uint64_t)T_DEG * 7 + sizeof(T_F_T);
    T_JAC P, Q, R, O, a, b, g;
    T_AFF Pa, Qa, Ra, Oa, ta, tb;
    T_FR_T kp, kq, kk;
    T(rand_point)(&P, &kp, &st);
    T(rand_point)(&Q, &kq, &st);
    T(rand_point)(&R, NULL, &st);
    G(to_affine)(&Pa, &P);
    G(to_affine)(&Qa, &Q);
    G(to_affine)(&Ra, &R);
    T(gen_jac)(&g);
    memset(&O, 0, sizeof O);
    memset(&Oa, 0, sizeof Oa);

    /* the generator */
    G(generator)(&ta);
    CHECK(G(on_curve)(&ta));
    CHECK(G(in_subgroup)(&ta));
    CHECK(!G(is_infinity)(&ta));
    CHECK(G(on_curve)(&Pa) && G(in_subgroup)(&Pa));

    /* associativity and commutativity */
    G(add)(&a, &P, &Q);
    G(add)(&a, &a, &R);
    G(add)(&b, &Q, &R);
    G(add)(&b, &P, &b);
    CHECK(G(eq)(&a, &b));
    G(add)(&a, &P, &Q);
    G(add)(&b, &Q, &P);
    CHECK(G(eq)(&a, &b));
    CHECK(!G(eq)(&P, &Q));

    /* P + (-P) = O, full and mixed; O is the identity */
    G(neg)(&a, &P);
    G(add)(&b, &P, &a);
    CHECK(G(jacobian_is_infinity)(&b));
    G(affine_neg)(&ta, &Pa);
    G(add_mixed)(&b, &P, &ta);
    CHECK(G(jacobian_is_infinity)(&b));
    G(add)(&a, &O, &P);
    CHECK(G(eq)(&a, &P));
    G(add)(&a, &P, &O);
    CHECK(G(eq)(&a, &P));
    G(add_mixed)(&a, &P, &Oa);
    CHECK(G(eq)(&a, &P));
    G(add_mixed)(&a, &O, &Pa);
    CHECK(G(eq)(&a, &P));
    G(dbl)(&a, &O);
    CHECK(G(jacobian_is_infinity)(&a));
    G(to_affine)(&ta, &O);
    CHECK(G(is_infinity)(&ta) && G(on_curve)(&ta) && G(in_subgroup)(&ta));
    G(from_affine)(&a, &Oa);
    CHECK(G(jacobian_is_infinity)(&a));
    CHECK(G(eq)(&O, &a) && !G(eq)(&O, &P) && !G(eq)(&P, &O));

    /* add vs dbl, mixed vs full */
    G(dbl)(&a, &P);
    G(add)(&b, &P, &P);
    CHECK(G(eq)(&a, &b));
    G(add_mixed)(&b, &P, &Pa);
    CHECK(G(eq)(&a, &b));
    G(add)(&a, &P, &Q);
    G(add_mixed)(&b, &P, &Qa);
    CHECK(G(eq)(&a, &b));
    G(to_affine)(&ta, &a);
    CHECK(G(on_curve)(&ta));

    /* eq is projective: another Z, same point */
    a = P;
    T(rescale)(&a, &Qa.x);
    CHECK(G(eq)(&a, &P));
    CHECK(memcmp(&a, &P, sizeof a) != 0);
    a.y = P.y;
    CHECK(!G(eq)(&a, &P));

    /* XYZZ against Jacobian: a running sum of affine points with repeats, negations, infinity */
    {
        const T_AFF *seq[9];
        T_AFF nP;
        T_XYZZ x, x2;
        G(affine_neg)(&nP, &Pa);
        seq[0] = &Pa, seq[1] = &Qa, seq[2] = &Oa, seq[3] = &Ra, seq[4] = &Ra;
        seq[5] = &nP, seq[6] = &Qa, seq[7] = &Pa, seq[8] = &Qa;
        memset(&x, 0, sizeof x);
        a = O;
        for (int i = 0; i < 9; i++) {
            G(xyzz_add_mixed)(&x, &x, seq[i]);
            G(add_mixed)(&a, &a, seq[i]);
            G(xyzz_to_affine)(&ta, &x);
            G(to_affine)(&tb, &a);
            CHECK(G(affine_eq)(&ta, &tb));
            G(xyzz_to_jacobian)(&b, &x);
            CHECK(G(eq)(&a, &b));
        }
        /* x = P + Q + R + R - P + Q + P + Q = P + 3Q + 2R; doubling the affine P itself */
        G(xyzz_from_affine)(&x2, &Pa);
        G(xyzz_add_mixed)(&x2, &x2, &Pa);
        G(dbl)(&a, &P);
        G(xyzz_to_jacobian)(&b, &x2);
        CHECK(G(eq)(&a, &b));
        G(xyzz_dbl)(&x2, &x);
        G(dbl)(&a, &a); /* unrelated; recompute from x */
        G(xyzz_to_jacobian)(&a, &x);
        G(dbl)(&a, &a);
        G(xyzz_to_jacobian)(&b, &x2);
        CHECK(G(eq)(&a, &b));
        /* xyzz + xyzz, including equal and opposite operands and infinity */
        G(xyzz_from_affine)(&x2, &Qa);
        G(xyzz_add_mixed)(&x2, &x2, &Ra); /* Q + R with ZZ != 1 */
        G(xyzz_add)(&x2, &x, &x2);
        G(xyzz_to_jacobian)(&a, &x);
        G(add)(&a, &a, &Q);
        G(add)(&a, &a, &R);
        G(xyzz_to_jacobian)(&b, &x2);
        CHECK(G(eq)(&a, &b));
        G(xyzz_add)(&x2, &x, &x);
        G(xyzz_dbl)(&x, &x);
        G(xyzz_to_affine)(&ta, &x);
        G(xyzz_to_affine)(&tb, &x2);
        CHECK(G(affine_eq)(&ta, &tb));
        G(xyzz_from_affine)(&x2, &ta);
        G(affine_neg)(&tb, &ta);
        G(xyzz_add_mixed)(&x2, &x2, &tb);
        G(xyzz_add)(&x, &x, &x2); /* x + O */
        G(xyzz_to_affine)(&tb, &x);
        CHECK(G(affine_eq)(&ta, &tb));
        G(xyzz_from_affine)(&x2, &Oa);
        G(xyzz_to_affine)(&tb, &x2);
        CHECK(G(is_infinity)(&tb));
    }

    /* batch_to_affine vs one by one, infinity first, inside and last */
    {
        enum { NB = 7 };
        T_JAC in[NB];
        T_AFF out[NB], one;
        in[0] = O, in[1] = P, in[2] = Q, in[3] = O, in[4] = R, in[5] = P, in[6] = O;
        G(dbl)(&in[5], &in[5]);
        G(batch_to_affine)(out, in, NB);
        for (int i = 0; i < NB; i++) {
            G(to_affine)(&one, &in[i]);
            CHECK(G(affine_eq)(&one, &out[i]));
        }
        G(batch_to_affine)(out, in + 1, 1);
        CHECK(G(affine_eq)(&out[0], &Pa));
        G(batch_to_affine)(out, in, 0);
    }

    /* [r]G = O, [r]P = O, [r-1]G = -G, [k + r]P = [k]P with a 5-limb scalar, [0]P = O */
    {
        uint64_t e[5], c = 0;
        G(mul_limbs)(&a, &g, T_ORDER, 4);
        CHECK(G(jacobian_is_infinity)(&a));
        G(mul_limbs)(&a, &P, T_ORDER, 4);
        CHECK(G(jacobian_is_infinity)(&a));
        memcpy(e, T_ORDER, 32);
        e[0] -= 1; /* r is odd */
        G(mul_limbs)(&a, &g, e, 4);
        G(neg)(&b, &g);
        CHECK(G(eq)(&a, &b));
        for (int i = 0; i < 4; i++)
            e[i] = curve_rand64(&st) >> (i == 3 ? 4 : 0);
        G(mul_limbs)(&a, &P, e, 4);
        for (int i = 0; i < 4; i++) {
            uint64_t s = e[i] + T_ORDER[i];
            uint64_t c1 = s < e[i];
            e[i] = s + c;
            c = c1 | (e[i] < s);
        }
        e[4] = c;
        G(mul_limbs)(&b, &P, e, 5);
        CHECK(G(eq)(&a, &b));
        FR(zero)(&kk);
        G(mul)(&a, &P, &kk);
        CHECK(G(jacobian_is_infinity)(&a));
        G(mul)(&a, &O, &kp);
        CHECK(G(jacobian_is_infinity)(&a));
    }

    /* [a]([b]G) = [ab]G, and [a]G + [b]G = [a + b]G */
    G(mul)(&a, &Q, &kp);
    FR(mul)(&kk, &kp, &kq);
    G(mul)(&b, &g, &kk);
    CHECK(G(eq)(&a, &b));
    G(add)(&a, &P, &Q);
    FR(add)(&kk, &kp, &kq);
    G(mul)(&b, &g, &kk);
    CHECK(G(eq)(&a, &b));
}

#undef T_PART
#undef T
#undef G
#undef FR
#undef FF
#undef BB
