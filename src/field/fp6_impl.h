/*
 * Cubic extension Fp6 = Fp2[v]/(v³ - ξ), written once and instantiated per curve by including this
 * file (from field/tower.h) after defining:
 *
 *   E6_PREFIX  internal prefix, e.g. bn254_fp6
 *   E6_T       the element type {E6_BASE_T c0, c1, c2} meaning c0 + c1·v + c2·v²
 *   E6_BASE    the Fp2 prefix (e.g. bn254_fp2), already instantiated from fp2_impl.h
 *   E6_BASE_T  the Fp2 element type
 *   E6_FROB3, E6_FROB3B   the Frobenius tables of field_consts.h: v^(p^k) = FROB3[k]·v and
 *              (v²)^(p^k) = FROB3B[k]·v², k = 0..5, Fp2 constants in Montgomery form
 *
 * The tower is that of @noble/curves, so elements compare limb for limb. Costs (M = Fp2
 * multiplication): mul 6M (Karatsuba, Devegili et al. 2006), sqr 2M + 3S (Chung–Hasan SQR2),
 * inv 9M + 3S + one Fp2 inversion, Frobenius 4M, and the sparse products used by the pairing's
 * line functions: mul_by_01 5M, mul_by_1 3M.
 */
#include "field/cz_macros.h"

#define E6(name) CZ_CAT3(E6_PREFIX, _, name)
#define B2(name) CZ_CAT3(E6_BASE, _, name)

static inline void E6(set_zero)(E6_T *r) {
    B2(set_zero)(&r->c0);
    B2(set_zero)(&r->c1);
    B2(set_zero)(&r->c2);
}

static inline void E6(set_one)(E6_T *r) {
    B2(set_one)(&r->c0);
    B2(set_zero)(&r->c1);
    B2(set_zero)(&r->c2);
}

static inline int E6(is_zero)(const E6_T *a) {
    return B2(is_zero)(&a->c0) & B2(is_zero)(&a->c1) & B2(is_zero)(&a->c2);
}

static inline int E6(is_one)(const E6_T *a) {
    return B2(is_one)(&a->c0) & B2(is_zero)(&a->c1) & B2(is_zero)(&a->c2);
}

static inline int E6(eq)(const E6_T *a, const E6_T *b) {
    return B2(eq)(&a->c0, &b->c0) & B2(eq)(&a->c1, &b->c1) & B2(eq)(&a->c2, &b->c2);
}

static inline void E6(add)(E6_T *r, const E6_T *a, const E6_T *b) {
    B2(add)(&r->c0, &a->c0, &b->c0);
    B2(add)(&r->c1, &a->c1, &b->c1);
    B2(add)(&r->c2, &a->c2, &b->c2);
}

static inline void E6(sub)(E6_T *r, const E6_T *a, const E6_T *b) {
    B2(sub)(&r->c0, &a->c0, &b->c0);
    B2(sub)(&r->c1, &a->c1, &b->c1);
    B2(sub)(&r->c2, &a->c2, &b->c2);
}

static inline void E6(dbl)(E6_T *r, const E6_T *a) {
    B2(dbl)(&r->c0, &a->c0);
    B2(dbl)(&r->c1, &a->c1);
    B2(dbl)(&r->c2, &a->c2);
}

static inline void E6(neg)(E6_T *r, const E6_T *a) {
    B2(neg)(&r->c0, &a->c0);
    B2(neg)(&r->c1, &a->c1);
    B2(neg)(&r->c2, &a->c2);
}

/* Multiplication by v: (a0 + a1v + a2v²)·v = ξa2 + a0v + a1v². Additions only. */
static inline void E6(mul_by_v)(E6_T *r, const E6_T *a) {
    E6_BASE_T t;
    B2(mul_xi)(&t, &a->c2);
    r->c2 = a->c1;
    r->c1 = a->c0;
    r->c0 = t;
}

/*
 * Karatsuba: with t_i = a_i·b_i,
 *   c0 = t0 + ξ((a1+a2)(b1+b2) - t1 - t2), c1 = (a0+a1)(b0+b1) - t0 - t1 + ξt2,
 *   c2 = (a0+a2)(b0+b2) - t0 - t2 + t1.  6M.
 */
static inline void E6(mul)(E6_T *r, const E6_T *a, const E6_T *b) {
    E6_BASE_T t0, t1, t2, s, u, c0, c1, c2;
    B2(mul)(&t0, &a->c0, &b->c0);
    B2(mul)(&t1, &a->c1, &b->c1);
    B2(mul)(&t2, &a->c2, &b->c2);

    B2(add)(&s, &a->c1, &a->c2);
    B2(add)(&u, &b->c1, &b->c2);
    B2(mul)(&c0, &s, &u);
    B2(sub)(&c0, &c0, &t1);
    B2(sub)(&c0, &c0, &t2);
    B2(mul_xi)(&c0, &c0);
    B2(add)(&c0, &c0, &t0);

    B2(add)(&s, &a->c0, &a->c1);
    B2(add)(&u, &b->c0, &b->c1);
    B2(mul)(&c1, &s, &u);
    B2(sub)(&c1, &c1, &t0);
    B2(sub)(&c1, &c1, &t1);
    B2(mul_xi)(&s, &t2);
    B2(add)(&c1, &c1, &s);

    B2(add)(&s, &a->c0, &a->c2);
    B2(add)(&u, &b->c0, &b->c2);
    B2(mul)(&c2, &s, &u);
    B2(sub)(&c2, &c2, &t0);
    B2(sub)(&c2, &c2, &t2);
    B2(add)(&c2, &c2, &t1);

    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

/*
 * Chung–Hasan SQR2: s0 = a0², s1 = 2a0a1, s2 = (a0 - a1 + a2)², s3 = 2a1a2, s4 = a2²;
 * c0 = s0 + ξs3, c1 = s1 + ξs4, c2 = s1 + s2 + s3 - s0 - s4.  2M + 3S.
 */
static inline void E6(sqr)(E6_T *r, const E6_T *a) {
    E6_BASE_T s0, s1, s2, s3, s4, t;
    B2(sqr)(&s0, &a->c0);
    B2(mul)(&s1, &a->c0, &a->c1);
    B2(dbl)(&s1, &s1);
    B2(sub)(&s2, &a->c0, &a->c1);
    B2(add)(&s2, &s2, &a->c2);
    B2(sqr)(&s2, &s2);
    B2(mul)(&s3, &a->c1, &a->c2);
    B2(dbl)(&s3, &s3);
    B2(sqr)(&s4, &a->c2);

    B2(add)(&t, &s1, &s2);
    B2(add)(&t, &t, &s3);
    B2(sub)(&t, &t, &s0);
    B2(sub)(&r->c2, &t, &s4);
    B2(mul_xi)(&t, &s3);
    B2(add)(&r->c0, &s0, &t);
    B2(mul_xi)(&t, &s4);
    B2(add)(&r->c1, &s1, &t);
}

/*
 * r = a⁻¹: with t0 = a0² - ξa1a2, t1 = ξa2² - a0a1, t2 = a1² - a0a2 and
 * n = a0t0 + ξ(a2t1 + a1t2) ∈ Fp2, a⁻¹ = (t0 + t1v + t2v²)/n. The inverse of zero is zero.
 */
static inline void E6(inv)(E6_T *r, const E6_T *a) {
    E6_BASE_T t0, t1, t2, s, n;
    B2(sqr)(&t0, &a->c0);
    B2(mul)(&s, &a->c1, &a->c2);
    B2(mul_xi)(&s, &s);
    B2(sub)(&t0, &t0, &s);

    B2(sqr)(&t1, &a->c2);
    B2(mul_xi)(&t1, &t1);
    B2(mul)(&s, &a->c0, &a->c1);
    B2(sub)(&t1, &t1, &s);

    B2(sqr)(&t2, &a->c1);
    B2(mul)(&s, &a->c0, &a->c2);
    B2(sub)(&t2, &t2, &s);

    B2(mul)(&n, &a->c2, &t1);
    B2(mul)(&s, &a->c1, &t2);
    B2(add)(&n, &n, &s);
    B2(mul_xi)(&n, &n);
    B2(mul)(&s, &a->c0, &t0);
    B2(add)(&n, &n, &s);
    B2(inv)(&n, &n);

    B2(mul)(&r->c0, &t0, &n);
    B2(mul)(&r->c1, &t1, &n);
    B2(mul)(&r->c2, &t2, &n);
}

/* Product with a scalar of Fp2. 3M. */
static inline void E6(mul_by_fp2)(E6_T *r, const E6_T *a, const E6_BASE_T *b) {
    B2(mul)(&r->c0, &a->c0, b);
    B2(mul)(&r->c1, &a->c1, b);
    B2(mul)(&r->c2, &a->c2, b);
}

/*
 * Sparse product with b0 + b1·v: c0 = a0b0 + ξa2b1, c1 = a0b1 + a1b0, c2 = a1b1 + a2b0,
 * by Karatsuba. 5M.
 */
static inline void E6(mul_by_01)(E6_T *r, const E6_T *a, const E6_BASE_T *b0, const E6_BASE_T *b1) {
    E6_BASE_T t0, t1, s, u, c0, c1, c2;
    B2(mul)(&t0, &a->c0, b0);
    B2(mul)(&t1, &a->c1, b1);

    B2(add)(&s, &a->c1, &a->c2);
    B2(mul)(&c0, &s, b1);
    B2(sub)(&c0, &c0, &t1);
    B2(mul_xi)(&c0, &c0);
    B2(add)(&c0, &c0, &t0);

    B2(add)(&s, &a->c0, &a->c1);
    B2(add)(&u, b0, b1);
    B2(mul)(&c1, &s, &u);
    B2(sub)(&c1, &c1, &t0);
    B2(sub)(&c1, &c1, &t1);

    B2(add)(&s, &a->c0, &a->c2);
    B2(mul)(&c2, &s, b0);
    B2(sub)(&c2, &c2, &t0);
    B2(add)(&c2, &c2, &t1);

    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

/* Sparse product with b1·v: ξa2b1 + a0b1·v + a1b1·v². 3M. */
static inline void E6(mul_by_1)(E6_T *r, const E6_T *a, const E6_BASE_T *b1) {
    E6_BASE_T t;
    B2(mul)(&t, &a->c2, b1);
    B2(mul_xi)(&t, &t);
    B2(mul)(&r->c2, &a->c1, b1);
    B2(mul)(&r->c1, &a->c0, b1);
    r->c0 = t;
}

/*
 * r = a^(p^k): Frobenius acts on each Fp2 coefficient as conjugation when k is odd, and
 * v^(p^k) = FROB3[k mod 6]·v, (v²)^(p^k) = FROB3B[k mod 6]·v² (v has order dividing p^6 - 1).
 */
static inline void E6(frobenius)(E6_T *r, const E6_T *a, unsigned k) {
    E6_BASE_T c0 = a->c0, c1 = a->c1, c2 = a->c2, g;
    if (k & 1) {
        B2(conj)(&c0, &c0);
        B2(conj)(&c1, &c1);
        B2(conj)(&c2, &c2);
    }
    k %= 6;
    if (k != 0) {
        memcpy(&g, E6_FROB3[k], sizeof g);
        B2(mul)(&c1, &c1, &g);
        memcpy(&g, E6_FROB3B[k], sizeof g);
        B2(mul)(&c2, &c2, &g);
    }
    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

/* r = a^e for an exponent of ne 64-bit limbs. Variable time in e only. */
static inline void E6(pow_limbs)(E6_T *r, const E6_T *a, const uint64_t *e, size_t ne) {
    E6_T acc, base = *a;
    E6(set_one)(&acc);
    for (size_t i = ne; i-- > 0;) {
        for (int bit = 63; bit >= 0; bit--) {
            E6(sqr)(&acc, &acc);
            if ((e[i] >> bit) & 1)
                E6(mul)(&acc, &acc, &base);
        }
    }
    *r = acc;
}

#undef E6
#undef B2
