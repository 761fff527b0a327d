/*
 * Optimal ate pairing, written once and instantiated per curve (from src/curve/pairing.c) after
 * defining:
 *
 *   PR_CURVE       the curve tag (bn254, bls12381): field functions are <curve>_fp_*, _fp2_*,
 *                  _fp6_*, _fp12_* of field/tower.h
 *   PR_FP_T, PR_FP2_T, PR_FP6_T, PR_FP12_T, PR_G1_T, PR_G2_T   the types
 *   PR_MTWIST      1 for an M-type twist (BLS12-381: lines are sparse in w^0, w^2, w^3), 0 for a
 *                  D-type twist (BN254: w^0, w^1, w^3)
 *   PR_B2_X3       3b' of the twist, PR_FROB3 / PR_FROB6 the Frobenius tables of field_consts.h
 *   PR_LOOP, PR_LOOP_LEN   the Miller loop digits (0, ±1), most significant first
 *   PR_BN          1 for BN curves: the two extra lines at π(Q) and -π²(Q) and the BN hard part
 *   PR_X_NEGATIVE  1 when the loop parameter is negative (BLS12-381): f is conjugated at the end
 *   PR_HARD_X      the 64-bit |curve parameter| used by the hard part of the final exponentiation
 *
 * Miller loop: T runs in homogeneous projective coordinates on the twist E'(Fp2); doubling and
 * mixed addition with their lines are those of Costello–Lange–Naehrig (PKC 2010) / Aranha et al.
 * (Eurocrypt 2011): doubling 3M + 6S + the 3b' product, addition 11M + 2S; a line is scaled by
 * Fp2 factors (which the final exponentiation removes) and multiplied into f with 13M. Several
 * pairs share one f and its squarings (pairing_check), in chunks of PR_CHUNK pairs.
 *
 * Fp2 arithmetic is the fp2f set of field/fp2_impl.h (add/adc kernels, lazily reduced products),
 * the same values as <curve>_fp2_*. Costs, gcc 12 on the 2-core dev machine (bench/
 * cuzk_bench_pairing.c, best runs): BLS12-381 Miller loop ~340 µs, final exponentiation ~460 µs,
 * pairing ~800 µs; BN254 ~235, ~290, ~520 µs (valgrind: 4.6M + 6.4M and 3.4M + 4.3M
 * instructions).
 *
 * Final exponentiation: the easy part f^((p⁶-1)(p²+1)) by a conjugation, one inversion and a
 * Frobenius; the hard part by the addition chains @noble/curves uses (Hayashida–Hayasaka–Teruya
 * for BLS12-381, Fuentes-Castañeda–Knapp–Rodríguez-Henríquez for BN254) over cyclotomic
 * squarings. Those chains compute a fixed power of the reduced pairing, e^3 (BLS12-381) and
 * e^(2u(6u²+3u+1)) (BN254), which scripts/gen_field_consts.py checks; values equal noble's.
 */
#include "field/cz_macros.h"

#define PRF(name)  CZ_CAT3(PR_CURVE, _, name)
#define FP(name)   CZ_CAT3(PR_CURVE, _fp_, name)
#define FP2(name)  CZ_CAT3(PR_CURVE, _fp2f_, name)
#define FP12(name) CZ_CAT3(PR_CURVE, _fp12_, name)

#define PR_CHUNK 8

/* T in homogeneous projective coordinates (X/Z, Y/Z) on the twist. */
typedef struct {
    PR_FP2_T x, y, z;
} PRF(g2_proj);

/* A line before evaluation at P: cy·yP + cx·xP + cc, placed by the twist type. */
typedef struct {
    PR_FP2_T cy, cx, cc;
} PRF(line);

static inline void PRF(fp2_half)(PR_FP2_T *r, const PR_FP2_T *a) {
    FP(half)(&r->c0, &a->c0);
    FP(half)(&r->c1, &a->c1);
}

/*
 * T = 2T and the tangent line. A = XY/2, B = Y², C = Z², E = 3b'C, F = 3E, G = (B+F)/2,
 * H = (Y+Z)² - B - C, I = E - B, J = X²; X' = A(B-F), Y' = G² - 3E², Z' = BH;
 * line -H·yP + 3J·xP + I.
 */
static inline void PRF(dbl_step)(PRF(line) * l, PRF(g2_proj) * t) {
    PR_FP2_T a, b, c, e, f, g, h, j, s, b3;
    memcpy(&b3, PR_B2_X3, sizeof b3);
    FP2(mul)(&a, &t->x, &t->y);
    PRF(fp2_half)(&a, &a);
    FP2(sqr)(&b, &t->y);
    FP2(sqr)(&c, &t->z);
    FP2(mul)(&e, &c, &b3);
    FP2(dbl)(&f, &e);
    FP2(add)(&f, &f, &e);
    FP2(add)(&g, &b, &f);
    PRF(fp2_half)(&g, &g);
    FP2(add)(&h, &t->y, &t->z);
    FP2(sqr)(&h, &h);
    FP2(sub)(&h, &h, &b);
    FP2(sub)(&h, &h, &c);
    FP2(sqr)(&j, &t->x);

    FP2(sub)(&l->cc, &e, &b);
    FP2(dbl)(&l->cx, &j);
    FP2(add)(&l->cx, &l->cx, &j);
    FP2(neg)(&l->cy, &h);

    FP2(sub)(&s, &b, &f);
    FP2(mul)(&t->x, &a, &s);
    FP2(sqr)(&e, &e);
    FP2(dbl)(&s, &e);
    FP2(add)(&s, &s, &e);
    FP2(sqr)(&g, &g);
    FP2(sub)(&t->y, &g, &s);
    FP2(mul)(&t->z, &b, &h);
}

/*
 * T = T + Q (Q affine) and the line through them. θ = Y - y2·Z, λ = X - x2·Z, C = θ², D = λ²,
 * E = λD, F = ZC, G = XD, H = E + F - 2G; X' = λH, Y' = θ(G - H) - YE, Z' = ZE;
 * line λ·yP - θ·xP + (θx2 - λy2).
 */
static inline void PRF(add_step)(PRF(line) * l, PRF(g2_proj) * t, const PR_FP2_T *x2,
                                 const PR_FP2_T *y2) {
    PR_FP2_T th, la, c, d, e, f, g, h, s;
    FP2(mul)(&th, y2, &t->z);
    FP2(sub)(&th, &t->y, &th);
    FP2(mul)(&la, x2, &t->z);
    FP2(sub)(&la, &t->x, &la);

    FP2(mul)(&l->cc, &th, x2);
    FP2(mul)(&s, &la, y2);
    FP2(sub)(&l->cc, &l->cc, &s);
    FP2(neg)(&l->cx, &th);
    l->cy = la;

    FP2(sqr)(&c, &th);
    FP2(sqr)(&d, &la);
    FP2(mul)(&e, &la, &d);
    FP2(mul)(&f, &t->z, &c);
    FP2(mul)(&g, &t->x, &d);
    FP2(add)(&h, &e, &f);
    FP2(sub)(&h, &h, &g);
    FP2(sub)(&h, &h, &g);
    FP2(mul)(&t->x, &la, &h);
    FP2(sub)(&s, &g, &h);
    FP2(mul)(&s, &s, &th);
    FP2(mul)(&t->y, &t->y, &e);
    FP2(sub)(&t->y, &s, &t->y);
    FP2(mul)(&t->z, &t->z, &e);
}

/* f = f · l(P). */
static inline void PRF(mul_line)(PR_FP12_T *f, const PRF(line) * l, const PR_G1_T *p) {
    PR_FP2_T ly, lx;
    FP2(mul_fp)(&ly, &l->cy, &p->y);
    FP2(mul_fp)(&lx, &l->cx, &p->x);
#if PR_MTWIST
    FP12(mul_by_023)(f, f, &l->cc, &lx, &ly);
#else
    FP12(mul_by_013)(f, f, &ly, &lx, &l->cc);
#endif
}

#if PR_BN
/* π(Q) on the twist for k = 1, 2: (x^(p^k)·ξ^((p^k-1)/3), y^(p^k)·ξ^((p^k-1)/2)). */
static inline void PRF(g2_frobenius)(PR_FP2_T *rx, PR_FP2_T *ry, const PR_G2_T *q, unsigned k) {
    PR_FP2_T gx, gy;
    memcpy(&gx, PR_FROB3[k], sizeof gx);
    memcpy(&gy, PR_FROB6[k], sizeof gy);
    FP2(mul)(&gy, &gy, &gx);
    *rx = q->x;
    *ry = q->y;
    if (k & 1) {
        FP2(conj)(rx, rx);
        FP2(conj)(ry, ry);
    }
    FP2(mul)(rx, rx, &gx);
    FP2(mul)(ry, ry, &gy);
}
#endif

static inline int PRF(g1_is_inf)(const PR_G1_T *p) {
    return FP(is_zero)(&p->x) & FP(is_zero)(&p->y);
}

static inline int PRF(g2_is_inf)(const PR_G2_T *q) {
    return FP2(is_zero)(&q->x) & FP2(is_zero)(&q->y);
}

/* f = Π f_i over at most PR_CHUNK pairs, none at infinity; f is multiplied into, not set. */
static void PRF(miller_chunk)(PR_FP12_T *f, const PR_G1_T *p, const PR_G2_T *q, size_t n) {
    PRF(g2_proj) t[PR_CHUNK];
    PR_G2_T nq[PR_CHUNK];
    PRF(line) l;
    PR_FP12_T acc;
    FP12(set_one)(&acc);
    for (size_t i = 0; i < n; i++) {
        t[i].x = q[i].x;
        t[i].y = q[i].y;
        FP2(set_one)(&t[i].z);
        nq[i].x = q[i].x;
        FP2(neg)(&nq[i].y, &q[i].y);
    }
    for (int b = 1; b < PR_LOOP_LEN; b++) {
        if (b > 1)
            FP12(sqr)(&acc, &acc);
        for (size_t i = 0; i < n; i++) {
            PRF(dbl_step)(&l, &t[i]);
            PRF(mul_line)(&acc, &l, &p[i]);
            if (PR_LOOP[b] != 0) {
                const PR_G2_T *qq = PR_LOOP[b] > 0 ? &q[i] : &nq[i];
                PRF(add_step)(&l, &t[i], &qq->x, &qq->y);
                PRF(mul_line)(&acc, &l, &p[i]);
            }
        }
    }
#if PR_BN
    for (size_t i = 0; i < n; i++) {
        PR_FP2_T x1, y1;
        PRF(g2_frobenius)(&x1, &y1, &q[i], 1);
        PRF(add_step)(&l, &t[i], &x1, &y1);
        PRF(mul_line)(&acc, &l, &p[i]);
        PRF(g2_frobenius)(&x1, &y1, &q[i], 2);
        FP2(neg)(&y1, &y1);
        PRF(add_step)(&l, &t[i], &x1, &y1);
        PRF(mul_line)(&acc, &l, &p[i]);
    }
#endif
#if PR_X_NEGATIVE
    FP12(conj)(&acc, &acc);
#endif
    FP12(mul)(f, f, &acc);
}

/* f = Π Miller loops over the pairs, skipping those with a point at infinity. */
static void PRF(miller_loop_n)(PR_FP12_T *f, const PR_G1_T *p, const PR_G2_T *q, size_t n) {
    PR_G1_T pc[PR_CHUNK];
    PR_G2_T qc[PR_CHUNK];
    size_t m = 0;
    FP12(set_one)(f);
    for (size_t i = 0; i < n; i++) {
        if (PRF(g1_is_inf)(&p[i]) || PRF(g2_is_inf)(&q[i]))
            continue;
        pc[m] = p[i];
        qc[m] = q[i];
        if (++m == PR_CHUNK) {
            PRF(miller_chunk)(f, pc, qc, m);
            m = 0;
        }
    }
    if (m > 0)
        PRF(miller_chunk)(f, pc, qc, m);
}

/* conj(a^|x|) = a^(-|x|) for a cyclotomic a. */
static inline void PRF(pow_minus_x)(PR_FP12_T *r, const PR_FP12_T *a) {
    FP12(cyclotomic_pow_u64)(r, a, PR_HARD_X);
    FP12(conj)(r, r);
}

static void PRF(final_exp)(PR_FP12_T *r, const PR_FP12_T *f) {
    PR_FP12_T t0, t1;
    /* Easy part: t1 = f^((p⁶-1)(p²+1)). */
    FP12(inv)(&t1, f);
    FP12(conj)(&t0, f);
    FP12(mul)(&t0, &t0, &t1);
    FP12(frobenius)(&t1, &t0, 2);
    FP12(mul)(&t1, &t1, &t0);
#if PR_BN
    /* y1 = (r^-u)², y2 = y1³, y4 = y2^-u, y6 = (y4²)^-u, y8 = y6⁻¹·y4·y2⁻¹, y9 = y8·y1;
     * result = (r⁻¹·y9)^(p³) · y8^(p²) · y9^p · y8·y4·r. */
    PR_FP12_T y1, y2, y4, y6, y8, y9, a, b;
    PRF(pow_minus_x)(&y1, &t1);
    FP12(cyclotomic_sqr)(&y1, &y1);
    FP12(cyclotomic_sqr)(&y2, &y1);
    FP12(mul)(&y2, &y2, &y1);
    PRF(pow_minus_x)(&y4, &y2);
    FP12(cyclotomic_sqr)(&y6, &y4);
    PRF(pow_minus_x)(&y6, &y6);
    FP12(conj)(&y8, &y6);
    FP12(mul)(&y8, &y8, &y4);
    FP12(conj)(&a, &y2);
    FP12(mul)(&y8, &y8, &a);
    FP12(mul)(&y9, &y8, &y1);

    FP12(conj)(&a, &t1);
    FP12(mul)(&a, &a, &y9);
    FP12(frobenius)(&a, &a, 3);
    FP12(frobenius)(&b, &y8, 2);
    FP12(mul)(&a, &a, &b);
    FP12(frobenius)(&b, &y9, 1);
    FP12(mul)(&a, &a, &b);
    FP12(mul)(&a, &a, &y8);
    FP12(mul)(&a, &a, &y4);
    FP12(mul)(r, &a, &t1);
#else
    /* t2 = t1^-x... with m(a) = a^(-|x|): t2 = m(t1), t3 = (t1²)⁻¹·t2, t4 = m(t3), t5 = m(t4),
     * t6 = m(t5)·t2², t7 = m(t6); result = (t2t5)^(p²)·(t4t1)^(p³)·(t6·t1⁻¹)^p·t7·t3⁻¹·t1. */
    PR_FP12_T t2, t3, t4, t5, t6, t7, a, b;
    PRF(pow_minus_x)(&t2, &t1);
    FP12(cyclotomic_sqr)(&t3, &t1);
    FP12(conj)(&t3, &t3);
    FP12(mul)(&t3, &t3, &t2);
    PRF(pow_minus_x)(&t4, &t3);
    PRF(pow_minus_x)(&t5, &t4);
    PRF(pow_minus_x)(&t6, &t5);
    FP12(cyclotomic_sqr)(&a, &t2);
    FP12(mul)(&t6, &t6, &a);
    PRF(pow_minus_x)(&t7, &t6);

    FP12(mul)(&a, &t2, &t5);
    FP12(frobenius)(&a, &a, 2);
    FP12(mul)(&b, &t4, &t1);
    FP12(frobenius)(&b, &b, 3);
    FP12(mul)(&a, &a, &b);
    FP12(conj)(&b, &t1);
    FP12(mul)(&b, &b, &t6);
    FP12(frobenius)(&b, &b, 1);
    FP12(mul)(&a, &a, &b);
    FP12(conj)(&b, &t3);
    FP12(mul)(&b, &b, &t7);
    FP12(mul)(&b, &b, &t1);
    FP12(mul)(r, &a, &b);
#endif
}

#undef PRF
#undef FP
#undef FP2
#undef FP12
#undef PR_CHUNK
