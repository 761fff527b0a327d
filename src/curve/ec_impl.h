/*
 * The group law of a short Weierstrass curve y² = x³ + b (a = 0), written once and instantiated
 * per group by including this file after defining:
 *
 *   G_PREFIX    internal function prefix, e.g. bls12381_g1 (functions are G_PREFIX##_add, ...)
 *   G_F         the coordinate field's internal prefix (bls12381_fp, or bls12381_fp2 for G2)
 *   G_F_T       the coordinate field's element type
 *   G_AFF, G_JAC, G_XYZZ   the point types of cuzk/curve.h
 *   G_FR, G_FR_T           the scalar field's internal prefix and type (for mul by an Fr element)
 *   G_B, G_GX, G_GY        b and the generator's coordinates as Montgomery limbs, laid out like
 *                          G_F_T (uint64_t[N] for Fp, uint64_t[2][N] for Fp2: c0 then c1)
 *   G_ORDER, G_ORDER_N     the group order r as limbs (the Fr modulus) and its limb count
 *   G_COFACTOR_ONE         1 when every curve point is in the subgroup (BN254 G1), else 0
 *
 * Coordinates (cuzk/curve.h): affine (x, y) with infinity (0, 0); Jacobian (X, Y, Z) = (X/Z², Y/Z³)
 * with infinity Z = 0; XYZZ (X, Y, ZZ, ZZZ) = (X/ZZ, Y/ZZZ) with infinity ZZ = 0. Formulas are
 * those of the Explicit-Formulas Database (hyperelliptic.org/EFD, g1p/auto-shortw-*), specialised
 * to a = 0; each function names its formula and its cost in field multiplications (M) and
 * squarings (S), additions not counted (where two formulas need the same number of products, the
 * one with fewer additions is used: an addition costs about 40% of a multiplication here). The
 * additions are complete: the exceptional cases of the formulas (an input at infinity, P = Q, P =
 * -Q) are detected and handled by branches, so every function returns the right point for every
 * input. Outputs may alias inputs.
 *
 * Nothing here runs in constant time: scalar multiplication branches on the scalar's bits. cuzk's
 * scalars (witnesses, proving-key randomness aside) are not secrets of a remote party; callers that
 * need blinding do it above this layer.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "field/cz_macros.h"

#define G(name) CZ_CAT3(G_PREFIX, _, name)
#define F(name) CZ_CAT3(G_F, _, name)

_Static_assert(sizeof(G_F_T) == sizeof(G_B), "b has the coordinate field's layout");

static inline void G(load)(G_F_T *r, const void *limbs) {
    memcpy(r, limbs, sizeof *r);
}

static inline void G(load_b)(G_F_T *r) {
    G(load)(r, G_B);
}

/* ---- affine ------------------------------------------------------------------------------- */

static inline void G(generator)(G_AFF *r) {
    G(load)(&r->x, G_GX);
    G(load)(&r->y, G_GY);
}

static inline void G(affine_set_infinity)(G_AFF *r) {
    F(set_zero)(&r->x);
    F(set_zero)(&r->y);
}

static inline int G(affine_is_infinity)(const G_AFF *p) {
    return F(is_zero)(&p->x) & F(is_zero)(&p->y);
}

/* y² = x³ + b; the point at infinity counts as on the curve. 1M + 2S. */
static inline int G(affine_on_curve)(const G_AFF *p) {
    G_F_T lhs, rhs, b;
    if (G(affine_is_infinity)(p))
        return 1;
    F(sqr)(&lhs, &p->y);
    F(sqr)(&rhs, &p->x);
    F(mul)(&rhs, &rhs, &p->x);
    G(load_b)(&b);
    F(add)(&rhs, &rhs, &b);
    return F(eq)(&lhs, &rhs);
}

static inline void G(affine_neg)(G_AFF *r, const G_AFF *p) {
    r->x = p->x;
    F(neg)(&r->y, &p->y); /* -0 = 0 keeps infinity at (0, 0) */
}

static inline int G(affine_eq)(const G_AFF *a, const G_AFF *b) {
    return F(eq)(&a->x, &b->x) & F(eq)(&a->y, &b->y);
}

/* ---- Jacobian ----------------------------------------------------------------------------- */

static inline void G(jac_set_infinity)(G_JAC *r) {
    F(set_one)(&r->x);
    F(set_one)(&r->y);
    F(set_zero)(&r->z);
}

static inline int G(jac_is_infinity)(const G_JAC *p) {
    return F(is_zero)(&p->z);
}

static inline void G(from_affine)(G_JAC *r, const G_AFF *p) {
    if (G(affine_is_infinity)(p)) {
        G(jac_set_infinity)(r);
        return;
    }
    r->x = p->x;
    r->y = p->y;
    F(set_one)(&r->z);
}

/* (X/Z², Y/Z³): one inversion + 3M + 1S. */
static inline void G(to_affine)(G_AFF *r, const G_JAC *p) {
    G_F_T zi, zi2;
    if (G(jac_is_infinity)(p)) {
        G(affine_set_infinity)(r);
        return;
    }
    F(inv)(&zi, &p->z);
    F(sqr)(&zi2, &zi);
    F(mul)(&r->x, &p->x, &zi2);
    F(mul)(&zi2, &zi2, &zi);
    F(mul)(&r->y, &p->y, &zi2);
}

/* Projective equality: X1·Z2² = X2·Z1² and Y1·Z2³ = Y2·Z1³. 6M + 2S. */
static inline int G(jac_eq)(const G_JAC *a, const G_JAC *b) {
    G_F_T z1z1, z2z2, u1, u2, s1, s2;
    int ia = G(jac_is_infinity)(a), ib = G(jac_is_infinity)(b);
    if (ia | ib)
        return ia & ib;
    F(sqr)(&z1z1, &a->z);
    F(sqr)(&z2z2, &b->z);
    F(mul)(&u1, &a->x, &z2z2);
    F(mul)(&u2, &b->x, &z1z1);
    if (!F(eq)(&u1, &u2))
        return 0;
    F(mul)(&s1, &a->y, &z2z2);
    F(mul)(&s1, &s1, &b->z);
    F(mul)(&s2, &b->y, &z1z1);
    F(mul)(&s2, &s2, &a->z);
    return F(eq)(&s1, &s2);
}

static inline void G(jac_neg)(G_JAC *r, const G_JAC *p) {
    r->x = p->x;
    F(neg)(&r->y, &p->y);
    r->z = p->z;
}

/*
 * Doubling, dbl-2009-l (a = 0): 2M + 5S.
 *   A = X1², B = Y1², C = B², D = 2((X1 + B)² - A - C), E = 3A, F = E²,
 *   X3 = F - 2D, Y3 = E(D - X3) - 8C, Z3 = 2·Y1·Z1.
 * Infinity doubles to Z3 = 0 by itself; there is no point of order 2 on these curves.
 */
static inline void G(dbl)(G_JAC *r, const G_JAC *p) {
    G_F_T A, B, C, D, E, Fq, t;
    F(sqr)(&A, &p->x);
    F(sqr)(&B, &p->y);
    F(sqr)(&C, &B);
    F(add)(&D, &p->x, &B);
    F(sqr)(&D, &D);
    F(sub)(&D, &D, &A);
    F(sub)(&D, &D, &C);
    F(dbl)(&D, &D);
    F(dbl)(&E, &A);
    F(add)(&E, &E, &A);
    F(sqr)(&Fq, &E);
    F(mul)(&r->z, &p->y, &p->z); /* Y1, Z1 are read before X3, Y3 are written */
    F(dbl)(&r->z, &r->z);
    F(dbl)(&t, &D);
    F(sub)(&r->x, &Fq, &t);
    F(sub)(&t, &D, &r->x);
    F(mul)(&t, &E, &t);
    F(dbl)(&C, &C);
    F(dbl)(&C, &C);
    F(dbl)(&C, &C);
    F(sub)(&r->y, &t, &C);
}

/*
 * Addition, add-1998-cmo-2: 12M + 4S.
 *   Z1Z1 = Z1², Z2Z2 = Z2², U1 = X1·Z2Z2, U2 = X2·Z1Z1, S1 = Y1·Z2·Z2Z2, S2 = Y2·Z1·Z1Z1,
 *   H = U2 - U1, HH = H², HHH = H·HH, r = S2 - S1, V = U1·HH,
 *   X3 = r² - HHH - 2V, Y3 = r(V - X3) - S1·HHH, Z3 = Z1·Z2·H.
 * Chosen over add-2007-bl (11M + 5S) because it needs 7 additions instead of 13, and an addition
 * costs about 40% of a multiplication in the current field code (the same trade as below).
 * H = 0 means equal x: P = Q (r = 0, doubled instead) or P = -Q (infinity).
 */
static inline void G(add)(G_JAC *r, const G_JAC *a, const G_JAC *b) {
    G_F_T z1z1, z2z2, u1, u2, s1, s2, h, hh, hhh, rr, v, t;
    if (G(jac_is_infinity)(a)) {
        *r = *b;
        return;
    }
    if (G(jac_is_infinity)(b)) {
        *r = *a;
        return;
    }
    F(sqr)(&z1z1, &a->z);
    F(sqr)(&z2z2, &b->z);
    F(mul)(&u1, &a->x, &z2z2);
    F(mul)(&u2, &b->x, &z1z1);
    F(mul)(&s1, &a->y, &b->z);
    F(mul)(&s1, &s1, &z2z2);
    F(mul)(&s2, &b->y, &a->z);
    F(mul)(&s2, &s2, &z1z1);
    F(sub)(&h, &u2, &u1);
    F(sub)(&rr, &s2, &s1);
    if (F(is_zero)(&h)) {
        if (F(is_zero)(&rr))
            G(dbl)(r, a);
        else
            G(jac_set_infinity)(r);
        return;
    }
    F(sqr)(&hh, &h);
    F(mul)(&hhh, &h, &hh);
    F(mul)(&v, &u1, &hh);
    F(mul)(&t, &a->z, &b->z);
    F(mul)(&r->z, &t, &h);
    F(mul)(&s1, &s1, &hhh);
    F(sqr)(&t, &rr);
    F(sub)(&t, &t, &hhh);
    F(dbl)(&u1, &v);
    F(sub)(&r->x, &t, &u1);
    F(sub)(&t, &v, &r->x);
    F(mul)(&t, &rr, &t);
    F(sub)(&r->y, &t, &s1);
}

/*
 * Mixed addition Jacobian + affine, madd-2004-hmv: 8M + 3S.
 *   T1 = Z1², T2 = T1·Z1, H = T1·X2 - X1, r = T2·Y2 - Y1, Z3 = Z1·H, HH = H², HHH = HH·H,
 *   V = HH·X1, X3 = r² - 2V - HHH, Y3 = r(V - X3) - Y1·HHH.
 * Chosen over madd-2007-bl (7M + 4S, the same number of products) because it needs 7 additions
 * instead of 14: in the current field code an addition costs about 40% of a multiplication.
 */
static inline void G(add_mixed)(G_JAC *r, const G_JAC *a, const G_AFF *b) {
    G_F_T t1, t2, h, rr, hh, hhh, v, t;
    if (G(affine_is_infinity)(b)) {
        *r = *a;
        return;
    }
    if (G(jac_is_infinity)(a)) {
        G(from_affine)(r, b);
        return;
    }
    F(sqr)(&t1, &a->z);
    F(mul)(&t2, &t1, &a->z);
    F(mul)(&t1, &t1, &b->x);
    F(mul)(&t2, &t2, &b->y);
    F(sub)(&h, &t1, &a->x);
    F(sub)(&rr, &t2, &a->y);
    if (F(is_zero)(&h)) {
        if (F(is_zero)(&rr))
            G(dbl)(r, a);
        else
            G(jac_set_infinity)(r);
        return;
    }
    F(sqr)(&hh, &h);
    F(mul)(&hhh, &hh, &h);
    F(mul)(&v, &hh, &a->x);
    F(mul)(&t1, &a->y, &hhh);
    F(mul)(&r->z, &a->z, &h);
    F(sqr)(&t, &rr);
    F(dbl)(&t2, &v);
    F(sub)(&t, &t, &t2);
    F(sub)(&r->x, &t, &hhh);
    F(sub)(&t, &v, &r->x);
    F(mul)(&t, &rr, &t);
    F(sub)(&r->y, &t, &t1);
}

/* ---- XYZZ (for MSM buckets) --------------------------------------------------------------- */

static inline void G(xyzz_set_infinity)(G_XYZZ *r) {
    F(set_one)(&r->x);
    F(set_one)(&r->y);
    F(set_zero)(&r->zz);
    F(set_zero)(&r->zzz);
}

static inline int G(xyzz_is_infinity)(const G_XYZZ *p) {
    return F(is_zero)(&p->zz);
}

static inline void G(xyzz_from_affine)(G_XYZZ *r, const G_AFF *p) {
    if (G(affine_is_infinity)(p)) {
        G(xyzz_set_infinity)(r);
        return;
    }
    r->x = p->x;
    r->y = p->y;
    F(set_one)(&r->zz);
    F(set_one)(&r->zzz);
}

/*
 * Doubling of an affine point into XYZZ, mdbl-2008-s-1 (a = 0): 2M + 3S.
 *   U = 2Y1, V = U², W = U·V, S = X1·V, M = 3X1², X3 = M² - 2S, Y3 = M(S - X3) - W·Y1,
 *   ZZ3 = V, ZZZ3 = W.
 */
static inline void G(xyzz_dbl_affine)(G_XYZZ *r, const G_AFF *p) {
    G_F_T u, v, w, s, m, t;
    if (G(affine_is_infinity)(p)) {
        G(xyzz_set_infinity)(r);
        return;
    }
    F(dbl)(&u, &p->y);
    F(sqr)(&v, &u);
    F(mul)(&w, &u, &v);
    F(mul)(&s, &p->x, &v);
    F(sqr)(&m, &p->x);
    F(dbl)(&t, &m);
    F(add)(&m, &m, &t);
    F(mul)(&u, &w, &p->y); /* u is free again: W·Y1 */
    F(sqr)(&t, &m);
    F(sub)(&t, &t, &s);
    F(sub)(&r->x, &t, &s);
    F(sub)(&t, &s, &r->x);
    F(mul)(&t, &m, &t);
    F(sub)(&r->y, &t, &u);
    r->zz = v;
    r->zzz = w;
}

/*
 * Doubling, dbl-2008-s-1 (a = 0): 6M + 3S.
 *   U = 2Y1, V = U², W = U·V, S = X1·V, M = 3X1², X3 = M² - 2S, Y3 = M(S - X3) - W·Y1,
 *   ZZ3 = V·ZZ1, ZZZ3 = W·ZZZ1.
 * Infinity (ZZ1 = 0) stays at ZZ3 = 0.
 */
static inline void G(xyzz_dbl)(G_XYZZ *r, const G_XYZZ *p) {
    G_F_T u, v, w, s, m, t;
    F(dbl)(&u, &p->y);
    F(sqr)(&v, &u);
    F(mul)(&w, &u, &v);
    F(mul)(&s, &p->x, &v);
    F(sqr)(&m, &p->x);
    F(dbl)(&t, &m);
    F(add)(&m, &m, &t);
    F(mul)(&u, &w, &p->y);
    F(mul)(&r->zz, &v, &p->zz);
    F(mul)(&r->zzz, &w, &p->zzz);
    F(sqr)(&t, &m);
    F(sub)(&t, &t, &s);
    F(sub)(&r->x, &t, &s);
    F(sub)(&t, &s, &r->x);
    F(mul)(&t, &m, &t);
    F(sub)(&r->y, &t, &u);
}

/*
 * Mixed addition XYZZ + affine, madd-2008-s: 8M + 2S.
 *   U2 = X2·ZZ1, S2 = Y2·ZZZ1, P = U2 - X1, R = S2 - Y1, PP = P², PPP = P·PP, Q = X1·PP,
 *   X3 = R² - PPP - 2Q, Y3 = R(Q - X3) - Y1·PPP, ZZ3 = ZZ1·PP, ZZZ3 = ZZZ1·PPP.
 * P = 0 means equal x: the affine point is doubled (R = 0) or the sum is infinity.
 */
static inline void G(xyzz_add_mixed)(G_XYZZ *r, const G_XYZZ *a, const G_AFF *b) {
    G_F_T u2, s2, p, rr, pp, ppp, q, t;
    if (G(affine_is_infinity)(b)) {
        *r = *a;
        return;
    }
    if (G(xyzz_is_infinity)(a)) {
        G(xyzz_from_affine)(r, b);
        return;
    }
    F(mul)(&u2, &b->x, &a->zz);
    F(mul)(&s2, &b->y, &a->zzz);
    F(sub)(&p, &u2, &a->x);
    F(sub)(&rr, &s2, &a->y);
    if (F(is_zero)(&p)) {
        if (F(is_zero)(&rr))
            G(xyzz_dbl_affine)(r, b);
        else
            G(xyzz_set_infinity)(r);
        return;
    }
    F(sqr)(&pp, &p);
    F(mul)(&ppp, &p, &pp);
    F(mul)(&q, &a->x, &pp);
    F(mul)(&s2, &a->y, &ppp); /* s2 is free again: Y1·PPP */
    F(mul)(&r->zz, &a->zz, &pp);
    F(mul)(&r->zzz, &a->zzz, &ppp);
    F(sqr)(&t, &rr);
    F(sub)(&t, &t, &ppp);
    F(sub)(&t, &t, &q);
    F(sub)(&r->x, &t, &q);
    F(sub)(&t, &q, &r->x);
    F(mul)(&t, &rr, &t);
    F(sub)(&r->y, &t, &s2);
}

/*
 * Addition XYZZ + XYZZ, add-2008-s: 12M + 2S.
 *   U1 = X1·ZZ2, U2 = X2·ZZ1, S1 = Y1·ZZZ2, S2 = Y2·ZZZ1, P = U2 - U1, R = S2 - S1, PP = P²,
 *   PPP = P·PP, Q = U1·PP, X3 = R² - PPP - 2Q, Y3 = R(Q - X3) - S1·PPP,
 *   ZZ3 = ZZ1·ZZ2·PP, ZZZ3 = ZZZ1·ZZZ2·PPP.
 */
static inline void G(xyzz_add)(G_XYZZ *r, const G_XYZZ *a, const G_XYZZ *b) {
    G_F_T u1, u2, s1, s2, p, rr, pp, ppp, q, t;
    if (G(xyzz_is_infinity)(a)) {
        *r = *b;
        return;
    }
    if (G(xyzz_is_infinity)(b)) {
        *r = *a;
        return;
    }
    F(mul)(&u1, &a->x, &b->zz);
    F(mul)(&u2, &b->x, &a->zz);
    F(mul)(&s1, &a->y, &b->zzz);
    F(mul)(&s2, &b->y, &a->zzz);
    F(sub)(&p, &u2, &u1);
    F(sub)(&rr, &s2, &s1);
    if (F(is_zero)(&p)) {
        if (F(is_zero)(&rr))
            G(xyzz_dbl)(r, a);
        else
            G(xyzz_set_infinity)(r);
        return;
    }
    F(sqr)(&pp, &p);
    F(mul)(&ppp, &p, &pp);
    F(mul)(&q, &u1, &pp);
    F(mul)(&s1, &s1, &ppp);
    F(mul)(&t, &a->zz, &b->zz);
    F(mul)(&r->zz, &t, &pp);
    F(mul)(&t, &a->zzz, &b->zzz);
    F(mul)(&r->zzz, &t, &ppp);
    F(sqr)(&t, &rr);
    F(sub)(&t, &t, &ppp);
    F(sub)(&t, &t, &q);
    F(sub)(&r->x, &t, &q);
    F(sub)(&t, &q, &r->x);
    F(mul)(&t, &rr, &t);
    F(sub)(&r->y, &t, &s1);
}

/* (X/ZZ, Y/ZZZ) with one inversion: 1/ZZ = (ZZ·(1/ZZZ))², since ZZ³ = ZZZ². 3M + 1S + inversion. */
static inline void G(xyzz_to_affine)(G_AFF *r, const G_XYZZ *p) {
    G_F_T izzz, izz;
    if (G(xyzz_is_infinity)(p)) {
        G(affine_set_infinity)(r);
        return;
    }
    F(inv)(&izzz, &p->zzz);
    F(mul)(&izz, &p->zz, &izzz);
    F(sqr)(&izz, &izz);
    F(mul)(&r->x, &p->x, &izz);
    F(mul)(&r->y, &p->y, &izzz);
}

/* Jacobian (X·ZZ², Y·ZZ³, ZZZ): the Jacobian Z = ZZZ/ZZ scaled by λ = ZZ. 3M + 1S. */
static inline void G(xyzz_to_jacobian)(G_JAC *r, const G_XYZZ *p) {
    G_F_T zz2, zz3;
    if (G(xyzz_is_infinity)(p)) {
        G(jac_set_infinity)(r);
        return;
    }
    F(sqr)(&zz2, &p->zz);
    F(mul)(&zz3, &zz2, &p->zz);
    F(mul)(&r->x, &p->x, &zz2);
    F(mul)(&r->y, &p->y, &zz3);
    r->z = p->zzz;
}

/* ---- scalar multiplication and checks ----------------------------------------------------- */

/*
 * r = [k]p for a little-endian scalar of nlimbs 64-bit limbs (any size: the order and cofactor
 * checks pass r itself). Fixed 4-bit windows, left to right: a table of [1..15]p (7 dbl + 7 add),
 * then per window 4 doublings and at most one addition — about 1.25 additions per 4 bits fewer
 * than double-and-add. Variable time in k.
 */
static inline void G(mul_limbs)(G_JAC *r, const G_JAC *p, const uint64_t *k, size_t nlimbs) {
    G_JAC tab[16], acc;
    int started = 0;
    G(jac_set_infinity)(&tab[0]);
    tab[1] = *p;
    for (int i = 2; i < 16; i++) {
        if (i % 2 == 0)
            G(dbl)(&tab[i], &tab[i / 2]);
        else
            G(add)(&tab[i], &tab[i - 1], p);
    }
    G(jac_set_infinity)(&acc);
    for (size_t li = nlimbs; li-- > 0;) {
        for (int sh = 60; sh >= 0; sh -= 4) {
            unsigned w = (unsigned)(k[li] >> sh) & 15u;
            if (started) {
                G(dbl)(&acc, &acc);
                G(dbl)(&acc, &acc);
                G(dbl)(&acc, &acc);
                G(dbl)(&acc, &acc);
            }
            if (w != 0) {
                if (started)
                    G(add)(&acc, &acc, &tab[w]);
                else
                    acc = tab[w];
                started = 1;
            }
        }
    }
    *r = acc;
}

/* r = [k]p for a scalar-field element (its canonical value). */
static inline void G(mul)(G_JAC *r, const G_JAC *p, const G_FR_T *k) {
    uint64_t limbs[sizeof k->l / 8];
    CZ_CAT(G_FR, _from_mont)(limbs, k);
    G(mul_limbs)(r, p, limbs, sizeof k->l / 8);
}

/* [r]p = O: the definition of the subgroup (the check where no endomorphism is used, and the
 * tests' oracle for the one that is). */
static inline int G(affine_order_divides_r)(const G_AFF *p) {
    G_JAC j, t;
    if (G(affine_is_infinity)(p))
        return 1;
    G(from_affine)(&j, p);
    G(mul_limbs)(&t, &j, G_ORDER, G_ORDER_N);
    return G(jac_is_infinity)(&t);
}

#ifdef G_ENDO
/* r = [k]p for k > 0 by double-and-add from k's top bit: for the parameter |x| = 0xd201000000010000
 * of BLS12-381, 63 doublings and 5 additions. */
static inline void G(mul_u64)(G_JAC *r, const G_JAC *p, uint64_t k) {
    G_JAC base = *p, acc = *p;
    for (int bit = 62 - __builtin_clzll(k); bit >= 0; bit--) {
        G(dbl)(&acc, &acc);
        if ((k >> bit) & 1)
            G(add)(&acc, &acc, &base);
    }
    *r = acc;
}
#endif

/* p is in the subgroup of order r (infinity passes; the cofactor-1 group needs no work). With an
 * endomorphism (G_ENDO, BLS12-381): G_ENDO(p) = [-x²]p on G1 (G_ENDO_SQUARE), [x]p on G2, x < 0
 * the curve's parameter and G_ENDO_K = |x|, which for a point of the curve holds exactly when it is
 * in the subgroup (Scott, eprint 2021/1130, §4 and §6; the proofs corrected in eprint 2022/352):
 * one or two multiplications by the 64-bit |x| instead of one by the 255-bit r. Otherwise [r]p = O.
 */
static inline int G(affine_in_subgroup)(const G_AFF *p) {
#if G_COFACTOR_ONE
    (void)p;
    return 1;
#elif defined(G_ENDO)
    G_JAC j, t;
    G_AFF e;
    if (G(affine_is_infinity)(p))
        return 1;
    G(from_affine)(&j, p);
    G(mul_u64)(&t, &j, G_ENDO_K);
#if G_ENDO_SQUARE
    G(mul_u64)(&t, &t, G_ENDO_K);
#endif
    G(jac_neg)(&t, &t); /* [-x²]p, or [x]p = -[|x|]p */
    G_ENDO(&e, p);
    G(from_affine)(&j, &e);
    return G(jac_eq)(&t, &j);
#else
    return G(affine_order_divides_r)(p);
#endif
}

/*
 * Converts n Jacobian points with one inversion (Montgomery's trick): out[i].x first holds the
 * running product of the non-zero Z's, which a backward pass turns into each 1/Z_i. Infinity
 * inputs are skipped in the product and come out as (0, 0). Cost: 1 inversion + 6M + 1S per point.
 * in and out must not overlap.
 */
static inline void G(batch_to_affine)(G_AFF *out, const G_JAC *in, size_t n) {
    G_F_T acc, inv, zi, zi2;
    F(set_one)(&acc);
    for (size_t i = 0; i < n; i++) {
        if (!G(jac_is_infinity)(&in[i]))
            F(mul)(&acc, &acc, &in[i].z);
        out[i].x = acc;
    }
    F(inv)(&inv, &acc);
    for (size_t i = n; i-- > 0;) {
        if (G(jac_is_infinity)(&in[i])) {
            G(affine_set_infinity)(&out[i]);
            continue;
        }
        if (i > 0)
            F(mul)(&zi, &inv, &out[i - 1].x); /* 1/Z_i = (Z_0..Z_i)⁻¹ · (Z_0..Z_(i-1)) */
        else
            zi = inv;
        F(mul)(&inv, &inv, &in[i].z);
        F(sqr)(&zi2, &zi);
        F(mul)(&out[i].x, &in[i].x, &zi2);
        F(mul)(&zi2, &zi2, &zi);
        F(mul)(&out[i].y, &in[i].y, &zi2);
    }
}

/*
 * acc[i] += *p[i] for i < n, in affine coordinates with one inversion for the whole batch
 * (Montgomery's trick over the x differences): 5M + 1S an addition plus 1/n of the inversion,
 * against 8M + 3S for a mixed Jacobian one. p[i] = NULL adds nothing. Complete: an infinite
 * operand, P + P (doubled through Jacobian coordinates, one inversion of its own) and P + (-P)
 * are recognised point by point. scratch holds n field elements; acc and the points must not
 * overlap. The x difference of a pair is computed in both passes, so the backward pass finds the
 * same pairs special as the forward one (each acc[i] changes only at its own step).
 */
static inline void G(batch_add_affine)(G_AFF *acc, const G_AFF *const *p, size_t n,
                                       G_F_T *scratch) {
    G_F_T prod, inv, dx, di, lam, t;
    size_t regular = 0;
    F(set_one)(&prod);
    for (size_t i = 0; i < n; i++) {
        if (p[i] == NULL || G(affine_is_infinity)(p[i]) || G(affine_is_infinity)(&acc[i]))
            continue;
        F(sub)(&dx, &p[i]->x, &acc[i].x);
        if (F(is_zero)(&dx))
            continue;
        scratch[i] = prod; /* the product of the differences before i */
        F(mul)(&prod, &prod, &dx);
        regular++;
    }
    if (regular > 0)
        F(inv)(&inv, &prod);
    for (size_t i = n; i-- > 0;) {
        const G_AFF *q = p[i];
        if (q == NULL || G(affine_is_infinity)(q))
            continue;
        if (G(affine_is_infinity)(&acc[i])) {
            acc[i] = *q;
            continue;
        }
        F(sub)(&dx, &q->x, &acc[i].x);
        if (F(is_zero)(&dx)) {
            if (F(eq)(&q->y, &acc[i].y)) {
                G_JAC j;
                G(from_affine)(&j, q);
                G(dbl)(&j, &j);
                G(to_affine)(&acc[i], &j);
            } else {
                G(affine_set_infinity)(&acc[i]);
            }
            continue;
        }
        F(mul)(&di, &inv, &scratch[i]); /* 1/dx_i */
        F(mul)(&inv, &inv, &dx);        /* the inverse of the product before i */
        F(sub)(&t, &q->y, &acc[i].y);
        F(mul)(&lam, &t, &di);
        F(sqr)(&t, &lam);
        F(sub)(&t, &t, &acc[i].x);
        F(sub)(&t, &t, &q->x); /* x3 = λ² − x1 − x2 */
        F(sub)(&di, &acc[i].x, &t);
        acc[i].x = t;
        F(mul)(&di, &lam, &di);
        F(sub)(&acc[i].y, &di, &acc[i].y); /* y3 = λ(x1 − x3) − y1 */
    }
}

#undef G
#undef F
