/*
 * Quadratic extension Fp12 = Fp6[w]/(w² - v) (so w⁶ = ξ), written once and instantiated per curve
 * by including this file (from field/tower.h) after defining:
 *
 *   E12_PREFIX  internal prefix, e.g. bn254_fp12
 *   E12_T       the element type {E12_BASE_T c0, c1} meaning c0 + c1·w
 *   E12_BASE    the Fp6 prefix (e.g. bn254_fp6), already instantiated from fp6_impl.h
 *   E12_BASE_T  the Fp6 element type
 *   E12_FP2     the Fp2 prefix, E12_FP2_T its type
 *   E12_FROB6   the table w^(p^k) = FROB6[k]·w, k = 0..11, of field_consts.h
 *
 * Seen over Fp2 the element is Σ g_i·w^i with (g0..g5) = (c0.c0, c1.c0, c0.c1, c1.c1, c0.c2,
 * c1.c2); the pairing's line functions have three non-zero g_i and use the sparse products below.
 *
 * Costs (M = Fp2 multiplication, S = Fp2 squaring): mul 18M (Karatsuba over Fp6), sqr 12M
 * (complex squaring), cyclotomic sqr 9S (Granger–Scott 2010, only for elements of order dividing
 * p⁴ - p² + 1, i.e. after the easy part of the final exponentiation), inv one Fp6 inversion +
 * 12M, Frobenius 10M, the sparse line products 13M.
 */
#include "field/cz_macros.h"

#define E12(name) CZ_CAT3(E12_PREFIX, _, name)
#define B6(name)  CZ_CAT3(E12_BASE, _, name)
#define B2(name)  CZ_CAT3(E12_FP2, _, name)

static inline void E12(set_zero)(E12_T *r) {
    B6(set_zero)(&r->c0);
    B6(set_zero)(&r->c1);
}

static inline void E12(set_one)(E12_T *r) {
    B6(set_one)(&r->c0);
    B6(set_zero)(&r->c1);
}

static inline int E12(is_one)(const E12_T *a) {
    return B6(is_one)(&a->c0) & B6(is_zero)(&a->c1);
}

static inline int E12(eq)(const E12_T *a, const E12_T *b) {
    return B6(eq)(&a->c0, &b->c0) & B6(eq)(&a->c1, &b->c1);
}

static inline void E12(add)(E12_T *r, const E12_T *a, const E12_T *b) {
    B6(add)(&r->c0, &a->c0, &b->c0);
    B6(add)(&r->c1, &a->c1, &b->c1);
}

static inline void E12(sub)(E12_T *r, const E12_T *a, const E12_T *b) {
    B6(sub)(&r->c0, &a->c0, &b->c0);
    B6(sub)(&r->c1, &a->c1, &b->c1);
}

static inline void E12(neg)(E12_T *r, const E12_T *a) {
    B6(neg)(&r->c0, &a->c0);
    B6(neg)(&r->c1, &a->c1);
}

/* c0 - c1·w = a^(p⁶); the inverse for elements of the cyclotomic subgroup. */
static inline void E12(conj)(E12_T *r, const E12_T *a) {
    r->c0 = a->c0;
    B6(neg)(&r->c1, &a->c1);
}

/* Karatsuba: c0 = a0b0 + v·a1b1, c1 = (a0+a1)(b0+b1) - a0b0 - a1b1. 18M. */
static inline void E12(mul)(E12_T *r, const E12_T *a, const E12_T *b) {
    E12_BASE_T t0, t1, s, u;
    B6(mul)(&t0, &a->c0, &b->c0);
    B6(mul)(&t1, &a->c1, &b->c1);
    B6(add)(&s, &a->c0, &a->c1);
    B6(add)(&u, &b->c0, &b->c1);
    B6(mul)(&s, &s, &u);
    B6(sub)(&s, &s, &t0);
    B6(sub)(&r->c1, &s, &t1);
    B6(mul_by_v)(&t1, &t1);
    B6(add)(&r->c0, &t0, &t1);
}

/* Complex squaring: t = a0a1, c0 = (a0+a1)(a0+v·a1) - t - v·t, c1 = 2t. 12M. */
static inline void E12(sqr)(E12_T *r, const E12_T *a) {
    E12_BASE_T t, s, u;
    B6(mul)(&t, &a->c0, &a->c1);
    B6(add)(&s, &a->c0, &a->c1);
    B6(mul_by_v)(&u, &a->c1);
    B6(add)(&u, &u, &a->c0);
    B6(mul)(&s, &s, &u);
    B6(sub)(&s, &s, &t);
    B6(mul_by_v)(&u, &t);
    B6(sub)(&r->c0, &s, &u);
    B6(dbl)(&r->c1, &t);
}

/* r = a⁻¹ = (a0 - a1·w)/(a0² - v·a1²); the inverse of zero is zero. */
static inline void E12(inv)(E12_T *r, const E12_T *a) {
    E12_BASE_T t0, t1;
    B6(sqr)(&t0, &a->c0);
    B6(sqr)(&t1, &a->c1);
    B6(mul_by_v)(&t1, &t1);
    B6(sub)(&t0, &t0, &t1);
    B6(inv)(&t0, &t0);
    B6(mul)(&r->c0, &a->c0, &t0);
    B6(mul)(&r->c1, &a->c1, &t0);
    B6(neg)(&r->c1, &r->c1);
}

/* r = a^(p^k) = frob(c0) + frob(c1)·FROB6[k mod 12]·w. */
static inline void E12(frobenius)(E12_T *r, const E12_T *a, unsigned k) {
    E12_FP2_T g;
    B6(frobenius)(&r->c0, &a->c0, k);
    B6(frobenius)(&r->c1, &a->c1, k);
    k %= 12;
    if (k != 0) {
        memcpy(&g, E12_FROB6[k], sizeof g);
        B6(mul_by_fp2)(&r->c1, &r->c1, &g);
    }
}

/*
 * Fp4 = Fp2[s]/(s² - ξ) squaring: (x + ys)² = (x² + ξy²) + ((x+y)² - x² - y²)s. 3S.
 */
static inline void E12(fp4_sqr)(E12_FP2_T *r0, E12_FP2_T *r1, const E12_FP2_T *x,
                                const E12_FP2_T *y) {
    E12_FP2_T t0, t1, t2;
    B2(sqr)(&t0, x);
    B2(sqr)(&t1, y);
    B2(add)(&t2, x, y);
    B2(sqr)(&t2, &t2);
    B2(sub)(&t2, &t2, &t0);
    B2(sub)(r1, &t2, &t1);
    B2(mul_xi)(&t1, &t1);
    B2(add)(r0, &t0, &t1);
}

/*
 * Granger–Scott cyclotomic squaring. Fp12 = Fp4[w]/(w³ - s) with s = w³, the element is
 * A0 + A1w + A2w² with A0 = g0 + g3s, A1 = g1 + g4s, A2 = g2 + g5s, and for a of order dividing
 * p⁴ - p² + 1:  a² = (3A0² - 2Ā0) + (3s·A2² + 2Ā1)w + (3A1² - 2Ā2)w², where Ā = conjugate
 * s -> -s. 9S. Wrong for elements outside the cyclotomic subgroup.
 */
static inline void E12(cyclotomic_sqr)(E12_T *r, const E12_T *a) {
    const E12_FP2_T *g0 = &a->c0.c0, *g1 = &a->c1.c0, *g2 = &a->c0.c1;
    const E12_FP2_T *g3 = &a->c1.c1, *g4 = &a->c0.c2, *g5 = &a->c1.c2;
    E12_FP2_T a0, a3, b0, b3, c0, c3, t;
    E12(fp4_sqr)(&a0, &a3, g0, g3); /* A0² */
    E12(fp4_sqr)(&b0, &b3, g1, g4); /* A1² */
    E12(fp4_sqr)(&c0, &c3, g2, g5); /* A2² */
    E12_T out;

    /* h0 = 3a0 - 2g0, h3 = 3a3 + 2g3 */
    B2(sub)(&t, &a0, g0);
    B2(dbl)(&t, &t);
    B2(add)(&out.c0.c0, &t, &a0);
    B2(add)(&t, &a3, g3);
    B2(dbl)(&t, &t);
    B2(add)(&out.c1.c1, &t, &a3);

    /* s·A2² = ξc3 + c0·s: h1 = 3ξc3 + 2g1, h4 = 3c0 - 2g4 */
    B2(mul_xi)(&c3, &c3);
    B2(add)(&t, &c3, g1);
    B2(dbl)(&t, &t);
    B2(add)(&out.c1.c0, &t, &c3);
    B2(sub)(&t, &c0, g4);
    B2(dbl)(&t, &t);
    B2(add)(&out.c0.c2, &t, &c0);

    /* h2 = 3b0 - 2g2, h5 = 3b3 + 2g5 */
    B2(sub)(&t, &b0, g2);
    B2(dbl)(&t, &t);
    B2(add)(&out.c0.c1, &t, &b0);
    B2(add)(&t, &b3, g5);
    B2(dbl)(&t, &t);
    B2(add)(&out.c1.c2, &t, &b3);
    *r = out;
}

/*
 * Sparse product with a D-type twist line l0 + l1·w + l3·w³ (g0, g1, g3), i.e.
 * b = l0 + (l1 + l3·v)w:  t0 = a0·l0, t1 = a1·(l1 + l3v), c1 = (a0+a1)(l0 + l1 + l3v) - t0 - t1,
 * c0 = t0 + v·t1. 13M.
 */
static inline void E12(mul_by_013)(E12_T *r, const E12_T *a, const E12_FP2_T *l0,
                                   const E12_FP2_T *l1, const E12_FP2_T *l3) {
    E12_BASE_T t0, t1, s;
    E12_FP2_T u;
    B6(mul_by_fp2)(&t0, &a->c0, l0);
    B6(mul_by_01)(&t1, &a->c1, l1, l3);
    B6(add)(&s, &a->c0, &a->c1);
    B2(add)(&u, l0, l1);
    B6(mul_by_01)(&s, &s, &u, l3);
    B6(sub)(&s, &s, &t0);
    B6(sub)(&r->c1, &s, &t1);
    B6(mul_by_v)(&t1, &t1);
    B6(add)(&r->c0, &t0, &t1);
}

/*
 * Sparse product with an M-type twist line l0 + l2·w² + l3·w³ (g0, g2, g3), i.e.
 * b = (l0 + l2v) + l3v·w:  t0 = a0·(l0 + l2v), t1 = a1·l3v, c1 = (a0+a1)(l0 + (l2+l3)v) - t0 - t1,
 * c0 = t0 + v·t1. 13M.
 */
static inline void E12(mul_by_023)(E12_T *r, const E12_T *a, const E12_FP2_T *l0,
                                   const E12_FP2_T *l2, const E12_FP2_T *l3) {
    E12_BASE_T t0, t1, s;
    E12_FP2_T u;
    B6(mul_by_01)(&t0, &a->c0, l0, l2);
    B6(mul_by_1)(&t1, &a->c1, l3);
    B6(add)(&s, &a->c0, &a->c1);
    B2(add)(&u, l2, l3);
    B6(mul_by_01)(&s, &s, l0, &u);
    B6(sub)(&s, &s, &t0);
    B6(sub)(&r->c1, &s, &t1);
    B6(mul_by_v)(&t1, &t1);
    B6(add)(&r->c0, &t0, &t1);
}

/* r = a^e for an exponent of ne 64-bit limbs. Variable time in e only. */
static inline void E12(pow_limbs)(E12_T *r, const E12_T *a, const uint64_t *e, size_t ne) {
    E12_T acc, base = *a;
    E12(set_one)(&acc);
    for (size_t i = ne; i-- > 0;) {
        for (int bit = 63; bit >= 0; bit--) {
            E12(sqr)(&acc, &acc);
            if ((e[i] >> bit) & 1)
                E12(mul)(&acc, &acc, &base);
        }
    }
    *r = acc;
}

/* r = a^e for a of the cyclotomic subgroup and a 64-bit exponent, by cyclotomic squarings. */
static inline void E12(cyclotomic_pow_u64)(E12_T *r, const E12_T *a, uint64_t e) {
    E12_T acc, base = *a;
    E12(set_one)(&acc);
    int started = 0;
    for (int bit = 63; bit >= 0; bit--) {
        if (started)
            E12(cyclotomic_sqr)(&acc, &acc);
        if ((e >> bit) & 1) {
            if (started)
                E12(mul)(&acc, &acc, &base);
            else
                acc = base;
            started = 1;
        }
    }
    *r = acc;
}

#undef E12
#undef B6
#undef B2
