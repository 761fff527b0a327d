/*
 * Eight BLS12-381 Fp elements at once, one per 64-bit lane of a 512-bit vector, in radix 2^52:
 * the shape of AVX-512 IFMA (vpmadd52luq / vpmadd52huq: each lane adds the low or the high 52
 * bits of the 104-bit product of the low 52 bits of two lanes). An element is 8 limbs of 52 bits
 * (416 bits, p has 381), least significant first; limb k of the 8 elements is one vector.
 *
 * The product is Montgomery's with R' = 2^416: mont'(a, b) = a·b/R' mod p, operand scanning with
 * the reduction interleaved (for each limb a_i of a: t += a_i·b, m = t_0·n0 mod 2^52, t += m·p,
 * t /= 2^52). The accumulators are not carried during the rounds: each round adds at most four
 * 52-bit halves to a 64-bit lane, and a lane lives at most 9 rounds, so t_k < 2^58; the carries
 * are propagated once, at the end. Inputs have normalised limbs (each below 2^52) and are below
 * 2^390 (2p, say); then t = (a·b + M·p)/R' < a·b/R' + p < 2^364 + p < 2p, so results are below 2p
 * and feed the next product without a reduction. canon() gives the fully reduced value.
 *
 * The includer defines, for one instantiation:
 *   P8(name)                the name of each function (a prefix);
 *   P8_FN                   what precedes each definition (static inline, a target attribute);
 *   P8_MADD52LO(acc, a, b)  acc += lo52(lo52(a)·lo52(b)), per lane (cz_v8 lvalues);
 *   P8_MADD52HI(acc, a, b)  acc += hi52(lo52(a)·lo52(b)), the bits 52..103 of that product.
 * src/curve/g1_decode8.c instantiates it with the IFMA intrinsics and with a portable C
 * emulation of them (for the tests on CPUs without IFMA); src/field/fp8_undef.h clears the names.
 */
#include "field/fp8.h"

/* r = x, x given as 6 little-endian 64-bit limbs per lane (x < 2^384). */
P8_FN void P8(from_u64)(cz_fp8 *r, const cz_v8 x[6]) {
    for (int k = 0; k < 8; k++) {
        int off = 52 * k, w = off / 64, s = off % 64;
        cz_v8 v = x[w] >> s;
        if (s > 12 && w + 1 < 6)
            v |= x[w + 1] << (64 - s);
        r->l[k] = v & CZ_FP8_MASK;
    }
}

/* x = a as 6 little-endian 64-bit limbs per lane (a < 2^384, limbs normalised). */
P8_FN void P8(to_u64)(cz_v8 x[6], const cz_fp8 *a) {
    for (int w = 0; w < 6; w++) {
        cz_v8 v = {0};
        for (int k = 0; k < 8; k++) {
            int o = 52 * k - 64 * w; /* where limb k starts, relative to word w */
            if (o >= 0 && o < 64)
                v |= a->l[k] << o;
            else if (o < 0 && o > -52)
                v |= a->l[k] >> -o;
        }
        x[w] = v;
    }
}

/* r = a·b/2^416 mod p, below 2p (see the top of this file). r may be a or b. */
P8_FN void P8(mul)(cz_fp8 *r, const cz_fp8 *a, const cz_fp8 *b) {
    const cz_v8 zero = {0};
    cz_v8 t[9], p[8], n0;
    for (int k = 0; k < 8; k++)
        p[k] = zero + BLS12381_FP52_P[k];
    n0 = zero + BLS12381_FP52_N0;
    for (int k = 0; k < 9; k++)
        t[k] = zero;
    for (int i = 0; i < 8; i++) {
        cz_v8 ai = a->l[i];
        for (int j = 0; j < 8; j++) {
            P8_MADD52LO(t[j], ai, b->l[j]);
            P8_MADD52HI(t[j + 1], ai, b->l[j]);
        }
        cz_v8 m = zero;
        P8_MADD52LO(m, t[0], n0);
        for (int j = 0; j < 8; j++) {
            P8_MADD52LO(t[j], m, p[j]);
            P8_MADD52HI(t[j + 1], m, p[j]);
        }
        /* t_0 is now a multiple of 2^52: divide by 2^52, its high part carried into t_1. */
        t[1] += t[0] >> 52;
        for (int k = 0; k < 8; k++)
            t[k] = t[k + 1];
        t[8] = zero;
    }
    for (int k = 0; k < 7; k++) {
        t[k + 1] += t[k] >> 52;
        t[k] &= CZ_FP8_MASK;
    }
    for (int k = 0; k < 8; k++)
        r->l[k] = t[k];
}

/* r = a mod p for a < 2p (normalised limbs). */
P8_FN void P8(canon)(cz_fp8 *r, const cz_fp8 *a) {
    cz_v8 d[8];
    cz_v8s borrow = {0};
    for (int k = 0; k < 8; k++) {
        cz_v8s v = (cz_v8s)a->l[k] - (int64_t)BLS12381_FP52_P[k] + borrow;
        borrow = v >> 52; /* arithmetic: 0 or -1 */
        d[k] = (cz_v8)v & CZ_FP8_MASK;
    }
    cz_v8 keep = (cz_v8)(borrow < 0); /* all ones where a < p: keep a */
    for (int k = 0; k < 8; k++)
        r->l[k] = (a->l[k] & keep) | (d[k] & ~keep);
}

/* r = a + b, limbs normalised, for a + b < 2^416. */
P8_FN void P8(add)(cz_fp8 *r, const cz_fp8 *a, const cz_fp8 *b) {
    cz_v8 carry = {0};
    for (int k = 0; k < 8; k++) {
        cz_v8 v = a->l[k] + b->l[k] + carry;
        carry = v >> 52;
        r->l[k] = v & CZ_FP8_MASK;
    }
}

/* The lanes where a == b (both fully reduced), as a bit mask (bit i: lane i). */
P8_FN unsigned P8(eq_mask)(const cz_fp8 *a, const cz_fp8 *b) {
    cz_v8 diff = {0};
    for (int k = 0; k < 8; k++)
        diff |= a->l[k] ^ b->l[k];
    unsigned mask = 0;
    for (int i = 0; i < 8; i++)
        mask |= (unsigned)(diff[i] == 0) << i;
    return mask;
}

/* Every lane = the constant c (8 limbs of 52 bits). */
P8_FN void P8(set_const)(cz_fp8 *r, const uint64_t c[8]) {
    const cz_v8 zero = {0};
    for (int k = 0; k < 8; k++)
        r->l[k] = zero + c[k];
}
