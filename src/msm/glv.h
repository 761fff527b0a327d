/*
 * GLV scalar decomposition for the MSM (msm_impl.h). On the four groups of BN254 and BLS12-381
 * the map φ(x, y) = (β·x, y), β a cube root of unity in Fp, is multiplication by a cube root of
 * unity λ in Fr (msm/glv_consts.h, made and checked by scripts/gen_glv_consts.py). A scalar k is
 * split as k = k1 + k2·λ mod r with |k1|, |k2| < 2^BITS (about √r, 127 or 128 bits), so
 * [k]P = [k1]P + [k2]φ(P) is a sum of two half-length terms and the MSM needs half the windows.
 *
 * Method: Babai rounding in the lattice {(a, b) : a + bλ = 0 mod r} with the reduced basis
 * v1 = (a1, b1), v2 = (a2, b2): c1 = round(k·b2/det), c2 = round(−k·b1/det), taken as
 * (k·g_i + 2^255) >> 256 with the precomputed g_i = round(±2^256·b/det); then (k1, k2) = (k, 0) −
 * c1·v1 − c2·v2. The products are computed modulo 2^256 in two's complement (the basis is stored
 * that way), which is exact because the results are small. Cost: two 4×3-limb products and four
 * 4×4-limb truncated products per scalar, negligible beside the MSM.
 */
#ifndef CUZK_MSM_GLV_H
#define CUZK_MSM_GLV_H

#include <stdint.h>

#include "msm/glv_consts.h"

/* The constants of one curve (pointers into glv_consts.h). */
typedef struct {
    const uint64_t *r;         /* Fr modulus, 4 limbs */
    const uint64_t (*v)[2][4]; /* basis v[i] = (a_i, b_i), two's complement */
    const uint64_t (*g)[3];    /* |g_i| */
    const int *gneg;           /* sign of g_i */
} msm_glv;

__extension__ typedef unsigned __int128 msm_u128;

/* r = a − b mod 2^256; returns the borrow. */
static inline uint64_t msm_glv_sub(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
    uint64_t br = 0;
    for (int i = 0; i < 4; i++) {
        msm_u128 t = (msm_u128)a[i] - b[i] - br;
        r[i] = (uint64_t)t;
        br = (uint64_t)(t >> 64) & 1;
    }
    return br;
}

static inline void msm_glv_neg(uint64_t r[4]) {
    static const uint64_t zero[4] = {0, 0, 0, 0};
    msm_glv_sub(r, zero, r);
}

/* r = a·b mod 2^256. */
static inline void msm_glv_mul_lo(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
    uint64_t t[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; i++) {
        uint64_t carry = 0;
        for (int j = 0; i + j < 4; j++) {
            msm_u128 p = (msm_u128)a[i] * b[j] + t[i + j] + carry;
            t[i + j] = (uint64_t)p;
            carry = (uint64_t)(p >> 64);
        }
    }
    for (int i = 0; i < 4; i++)
        r[i] = t[i];
}

/* c = round(k·g / 2^256) as a 4-limb value (k < 2^256, g < 2^192). */
static inline void msm_glv_round(uint64_t c[4], const uint64_t k[4], const uint64_t g[3]) {
    uint64_t t[7] = {0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 4; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < 3; j++) {
            msm_u128 p = (msm_u128)k[i] * g[j] + t[i + j] + carry;
            t[i + j] = (uint64_t)p;
            carry = (uint64_t)(p >> 64);
        }
        t[i + 3] = carry;
    }
    /* + 2^255, then take limbs 4..6 */
    msm_u128 s = (msm_u128)t[3] + ((uint64_t)1 << 63);
    uint64_t carry = (uint64_t)(s >> 64);
    for (int i = 4; i < 7; i++) {
        s = (msm_u128)t[i] + carry;
        t[i] = (uint64_t)s;
        carry = (uint64_t)(s >> 64);
    }
    c[0] = t[4];
    c[1] = t[5];
    c[2] = t[6];
    c[3] = carry;
}

/*
 * Splits k (4 limbs, any 256-bit value; reduced mod r first) into k = k1 + k2·λ mod r: writes
 * |k1|, |k2| (4 limbs each, below 2^BITS) and returns their signs in bits 0 (k1 < 0) and 1.
 */
static inline unsigned msm_glv_split(uint64_t k1[4], uint64_t k2[4], const uint64_t k_in[4],
                                     const msm_glv *gl) {
    uint64_t k[4], t[4], c[2][4];
    unsigned neg = 0;
    for (int i = 0; i < 4; i++)
        k[i] = k_in[i];
    for (;;) { /* k mod r: at most a few subtractions for k < 2^256 */
        if (msm_glv_sub(t, k, gl->r))
            break;
        for (int i = 0; i < 4; i++)
            k[i] = t[i];
    }
    for (int i = 0; i < 2; i++) {
        msm_glv_round(c[i], k, gl->g[i]);
        if (gl->gneg[i])
            msm_glv_neg(c[i]);
    }
    /* k1 = k − c1·a1 − c2·a2, k2 = −c1·b1 − c2·b2 (mod 2^256) */
    for (int i = 0; i < 4; i++) {
        k1[i] = k[i];
        k2[i] = 0;
    }
    for (int j = 0; j < 2; j++) {
        msm_glv_mul_lo(t, c[j], gl->v[j][0]);
        msm_glv_sub(k1, k1, t);
        msm_glv_mul_lo(t, c[j], gl->v[j][1]);
        msm_glv_sub(k2, k2, t);
    }
    if (k1[3] >> 63) {
        msm_glv_neg(k1);
        neg |= 1;
    }
    if (k2[3] >> 63) {
        msm_glv_neg(k2);
        neg |= 2;
    }
    return neg;
}

#endif
