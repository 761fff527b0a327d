/*
 * Quadratic extension Fp2 = Fp[u]/(u² + 1), written once and instantiated per curve by including
 * this file after defining:
 *
 *   E2_PREFIX  internal prefix, e.g. bn254_fp2
 *   E2_T       the element type {F_T c0, c1} meaning c0 + c1·u
 *   E2_BASE    the base field's prefix (e.g. bn254_fp), already instantiated from mont_impl.h
 *   E2_BASE_T  the base field's element type
 *   E2_XI0     the small integer x0 of the Fp6 non-residue ξ = x0 + u
 *              (9 for BN254, 1 for BLS12-381)
 *   E2_P_MINUS_3_QUARTER, E2_P_MINUS_1_HALF   exponents for the square root (p = 3 mod 4)
 *
 * Costs (m = base multiplication): mul 3m (Karatsuba), sqr 2m (complex squaring), inv 1 base
 * inversion + 4m, sqrt 2 Fp2 exponentiations (Adj–Rodríguez-Henríquez, algorithm 9).
 */
#include "field/cz_macros.h"

#define E2(name) CZ_CAT3(E2_PREFIX, _, name)
#define B(name)  CZ_CAT3(E2_BASE, _, name)

static inline void E2(set_zero)(E2_T *r) {
    B(set_zero)(&r->c0);
    B(set_zero)(&r->c1);
}

static inline void E2(set_one)(E2_T *r) {
    B(set_one)(&r->c0);
    B(set_zero)(&r->c1);
}

static inline int E2(is_zero)(const E2_T *a) {
    return B(is_zero)(&a->c0) & B(is_zero)(&a->c1);
}

static inline int E2(is_one)(const E2_T *a) {
    return B(is_one)(&a->c0) & B(is_zero)(&a->c1);
}

static inline int E2(eq)(const E2_T *a, const E2_T *b) {
    return B(eq)(&a->c0, &b->c0) & B(eq)(&a->c1, &b->c1);
}

static inline void E2(add)(E2_T *r, const E2_T *a, const E2_T *b) {
    B(add)(&r->c0, &a->c0, &b->c0);
    B(add)(&r->c1, &a->c1, &b->c1);
}

static inline void E2(sub)(E2_T *r, const E2_T *a, const E2_T *b) {
    B(sub)(&r->c0, &a->c0, &b->c0);
    B(sub)(&r->c1, &a->c1, &b->c1);
}

static inline void E2(dbl)(E2_T *r, const E2_T *a) {
    B(dbl)(&r->c0, &a->c0);
    B(dbl)(&r->c1, &a->c1);
}

static inline void E2(neg)(E2_T *r, const E2_T *a) {
    B(neg)(&r->c0, &a->c0);
    B(neg)(&r->c1, &a->c1);
}

/* Complex conjugate c0 - c1·u; this is also the Frobenius map x -> x^p. */
static inline void E2(conj)(E2_T *r, const E2_T *a) {
    r->c0 = a->c0;
    B(neg)(&r->c1, &a->c1);
}

/* Karatsuba: (a0 + a1u)(b0 + b1u) = (a0b0 - a1b1) + ((a0+a1)(b0+b1) - a0b0 - a1b1)u. 3m. */
static inline void E2(mul)(E2_T *r, const E2_T *a, const E2_T *b) {
    E2_BASE_T t0, t1, s0, s1;
    B(mul)(&t0, &a->c0, &b->c0);
    B(mul)(&t1, &a->c1, &b->c1);
    B(add)(&s0, &a->c0, &a->c1);
    B(add)(&s1, &b->c0, &b->c1);
    B(mul)(&s0, &s0, &s1);
    B(sub)(&s0, &s0, &t0);
    B(sub)(&r->c1, &s0, &t1);
    B(sub)(&r->c0, &t0, &t1);
}

/* Complex squaring: (a0 + a1u)² = (a0+a1)(a0-a1) + 2a0a1·u. 2m. */
static inline void E2(sqr)(E2_T *r, const E2_T *a) {
    E2_BASE_T s, d, m;
    B(add)(&s, &a->c0, &a->c1);
    B(sub)(&d, &a->c0, &a->c1);
    B(mul)(&m, &a->c0, &a->c1);
    B(mul)(&r->c0, &s, &d);
    B(dbl)(&r->c1, &m);
}

/* Multiplication by a base-field element. 2m. */
static inline void E2(mul_fp)(E2_T *r, const E2_T *a, const E2_BASE_T *b) {
    B(mul)(&r->c0, &a->c0, b);
    B(mul)(&r->c1, &a->c1, b);
}

/* r = x0·a for the small integer x0 of ξ, by additions. */
static inline void E2(base_mul_xi0)(E2_BASE_T *r, const E2_BASE_T *a) {
    E2_BASE_T acc = *a;
    for (int i = 1; i < E2_XI0; i++)
        B(add)(&acc, &acc, a);
    *r = acc;
}

/* Multiplication by the Fp6 non-residue ξ = x0 + u: (a0x0 - a1) + (a1x0 + a0)u. Additions only. */
static inline void E2(mul_xi)(E2_T *r, const E2_T *a) {
    E2_BASE_T t0, t1;
    E2(base_mul_xi0)(&t0, &a->c0);
    E2(base_mul_xi0)(&t1, &a->c1);
    B(sub)(&t0, &t0, &a->c1);
    B(add)(&r->c1, &t1, &a->c0);
    r->c0 = t0;
}

/* Norm a0² + a1² (in Fp), whose inverse gives the Fp2 inverse. */
static inline void E2(norm)(E2_BASE_T *r, const E2_T *a) {
    E2_BASE_T t0, t1;
    B(sqr)(&t0, &a->c0);
    B(sqr)(&t1, &a->c1);
    B(add)(r, &t0, &t1);
}

/* r = a⁻¹ = conj(a) / norm(a); the inverse of zero is zero. */
static inline void E2(inv)(E2_T *r, const E2_T *a) {
    E2_BASE_T n;
    E2(norm)(&n, a);
    B(inv)(&n, &n);
    B(mul)(&r->c0, &a->c0, &n);
    B(mul)(&r->c1, &a->c1, &n);
    B(neg)(&r->c1, &r->c1);
}

/* r = a^e for an exponent of ne 64-bit limbs. Variable time in e only. */
static inline void E2(pow_limbs)(E2_T *r, const E2_T *a, const uint64_t *e, size_t ne) {
    E2_T acc, base = *a;
    E2(set_one)(&acc);
    for (size_t i = ne; i-- > 0;) {
        for (int bit = 63; bit >= 0; bit--) {
            E2(sqr)(&acc, &acc);
            if ((e[i] >> bit) & 1)
                E2(mul)(&acc, &acc, &base);
        }
    }
    *r = acc;
}

/* Legendre symbol in Fp2: that of the norm (a is a square in Fp2 iff its norm is in Fp). */
static inline int E2(legendre)(const E2_T *a) {
    E2_BASE_T n;
    E2(norm)(&n, a);
    return B(legendre)(&n);
}

/*
 * Square root for p = 3 mod 4 (Adj–Rodríguez-Henríquez 2012, algorithm 9):
 *   a1 = a^((p-3)/4), α = a1²·a, x0 = a1·a;
 *   α = -1  ->  x = u·x0;  otherwise x = (1 + α)^((p-1)/2) · x0.
 * The result is checked (x² = a) before it is returned; CZ_ENOSQRT when a is not a square.
 */
static inline int E2(sqrt)(E2_T *r, const E2_T *a) {
    E2_T a1, alpha, x0, x, chk, minus_one;
    E2(pow_limbs)(&a1, a, E2_P_MINUS_3_QUARTER, sizeof E2_P_MINUS_3_QUARTER / 8);
    E2(sqr)(&alpha, &a1);
    E2(mul)(&alpha, &alpha, a);
    E2(mul)(&x0, &a1, a);
    E2(set_one)(&minus_one);
    E2(neg)(&minus_one, &minus_one);
    if (E2(eq)(&alpha, &minus_one)) {
        /* u·(c0 + c1u) = -c1 + c0u */
        B(neg)(&x.c0, &x0.c1);
        x.c1 = x0.c0;
    } else {
        E2_T b;
        E2(set_one)(&b);
        E2(add)(&b, &b, &alpha);
        E2(pow_limbs)(&b, &b, E2_P_MINUS_1_HALF, sizeof E2_P_MINUS_1_HALF / 8);
        E2(mul)(&x, &b, &x0);
    }
    E2(sqr)(&chk, &x);
    if (!E2(eq)(&chk, a))
        return CZ_ENOSQRT;
    *r = x;
    return CZ_OK;
}

/*
 * The same Fp2 with the tower kernels of mont_impl.h, under the prefix E2_PREFIX##f
 * (bls12381_fp2f_mul, ...): every function returns exactly what its namesake above returns, but
 * additions use the add/adc kernels, the product reduces lazily (3 plain products and 2 Montgomery
 * reductions: c0 = redc(a0b0 - a1b1 mod p·R), c1 = redc((a0+a1)(b0+b1) - a0b0 - a1b1), with the
 * sums a0+a1 < 2p left unreduced) and mul_xi computes x0·a by doublings. The Fp6/Fp12 towers and
 * the pairing use this set; see field/tower.h.
 */
#define E2F(name) CZ_CAT3(E2_PREFIX, f_, name)
#define E2F_NL    (sizeof(E2_BASE_T) / sizeof(uint64_t))

static inline void E2F(set_zero)(E2_T *r) {
    E2(set_zero)(r);
}

static inline void E2F(set_one)(E2_T *r) {
    E2(set_one)(r);
}

static inline int E2F(is_zero)(const E2_T *a) {
    return E2(is_zero)(a);
}

static inline int E2F(is_one)(const E2_T *a) {
    return E2(is_one)(a);
}

static inline int E2F(eq)(const E2_T *a, const E2_T *b) {
    return E2(eq)(a, b);
}

static inline void E2F(add)(E2_T *r, const E2_T *a, const E2_T *b) {
    B(add)(&r->c0, &a->c0, &b->c0);
    B(add)(&r->c1, &a->c1, &b->c1);
}

static inline void E2F(sub)(E2_T *r, const E2_T *a, const E2_T *b) {
    B(sub)(&r->c0, &a->c0, &b->c0);
    B(sub)(&r->c1, &a->c1, &b->c1);
}

static inline void E2F(dbl)(E2_T *r, const E2_T *a) {
    B(dbl)(&r->c0, &a->c0);
    B(dbl)(&r->c1, &a->c1);
}

static inline void E2F(neg)(E2_T *r, const E2_T *a) {
    B(neg)(&r->c0, &a->c0);
    B(neg)(&r->c1, &a->c1);
}

static inline void E2F(conj)(E2_T *r, const E2_T *a) {
    r->c0 = a->c0;
    B(neg)(&r->c1, &a->c1);
}

/* Karatsuba with lazy reduction (see above). 3 plain products + 2 reductions. */
static inline void E2F(mul)(E2_T *r, const E2_T *a, const E2_T *b) {
    uint64_t t0[2 * E2F_NL], t1[2 * E2F_NL];
    uint64_t t2[2 * E2F_NL];
    uint64_t sa[E2F_NL], sb[E2F_NL];
    B(add_nr)(sa, a->c0.l, a->c1.l);
    B(add_nr)(sb, b->c0.l, b->c1.l);
    B(mul_wide)(t0, a->c0.l, b->c0.l);
    B(mul_wide)(t1, a->c1.l, b->c1.l);
    B(mul_wide)(t2, sa, sb);
    B(wide_sub)(t2, t2, t0);
    B(wide_sub)(t2, t2, t1);
    B(wide_sub_mod)(t0, t0, t1);
    B(redc)(&r->c0, t0);
    B(redc)(&r->c1, t2);
}

/* Complex squaring (a0+a1)(a0-a1) + (2a1)a0·u; the sums a0+a1 and 2a1 (< 2p) stay unreduced,
 * which mul_fast accepts as its first factor. 2m. */
static inline void E2F(sqr)(E2_T *r, const E2_T *a) {
    E2_BASE_T s, d, t;
    B(add_nr)(s.l, a->c0.l, a->c1.l);
    B(add_nr)(t.l, a->c1.l, a->c1.l);
    B(sub)(&d, &a->c0, &a->c1);
    B(mul_fast)(&r->c1, &t, &a->c0);
    B(mul_fast)(&r->c0, &s, &d);
}

static inline void E2F(mul_fp)(E2_T *r, const E2_T *a, const E2_BASE_T *b) {
    B(mul_fast)(&r->c0, &a->c0, b);
    B(mul_fast)(&r->c1, &a->c1, b);
}

/* r = x0·a for the small integer x0 of ξ (1 or 9): 9a = 8a + a by three doublings. */
static inline void E2F(base_mul_xi0)(E2_BASE_T *r, const E2_BASE_T *a) {
#if E2_XI0 == 1
    *r = *a;
#elif E2_XI0 == 9
    E2_BASE_T t;
    B(dbl)(&t, a);
    B(dbl)(&t, &t);
    B(dbl)(&t, &t);
    B(add)(r, &t, a);
#else
#error "E2_XI0: only 1 and 9 have a fast path"
#endif
}

/* Multiplication by ξ = x0 + u: (a0x0 - a1) + (a1x0 + a0)u. */
static inline void E2F(mul_xi)(E2_T *r, const E2_T *a) {
    E2_BASE_T t0, t1;
    E2F(base_mul_xi0)(&t0, &a->c0);
    E2F(base_mul_xi0)(&t1, &a->c1);
    B(sub)(&t0, &t0, &a->c1);
    B(add)(&r->c1, &t1, &a->c0);
    r->c0 = t0;
}

static inline void E2F(inv)(E2_T *r, const E2_T *a) {
    E2(inv)(r, a);
}

#undef E2F
#undef E2F_NL

#undef E2
#undef B
