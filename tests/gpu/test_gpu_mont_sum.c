/*
 * A CPU model of the GPU's sums of products reduced once (src/gpu/gpu_field.cuh: fe_mont_cols,
 * fe_mul_add2, fe_mul_add4, fe_p_minus, fe_mul_sub), of the Fp2 products built on them
 * (gpu_fp2.cuh: fe_mul, fe_mul_sub) and of the lane-pair Fp2 (gpu_fp2_split.cuh: what the even
 * and the odd lane each compute from its coefficient and its partner's, fe_mul, fe_sqr,
 * fe_mul_sub). The same 32-bit-limb column loop as the kernels, with an assertion wherever they
 * would lose something: a column above the 96 bits of its accumulator, a low word that m·p does
 * not clear, a carry out of the top word, a value of 2p or more before the one conditional
 * subtraction. The results are checked against the CPU field (cuzk/field.h) as oracle, on
 * BLS12-381's and BN254's Fp, for random elements and the extremes 0, 1, p - 1 (whose
 * negations p - 0 = p reach the operand bound). Also the Karatsuba path (prod_kara: the three
 * half products, the carries of the half sums, the middle term's subtractions and its addition
 * at word N/2; redc_words), which the kernels use under CZ_GPU_KARATSUBA. Needs no GPU.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cuzk/field.h"
#include "gpu/gpu_consts.h"
#include "test.h"

#define MAXL 12

__extension__ typedef unsigned __int128 u128;

typedef struct {
    const char *name;
    int n; /* u32 limbs: 12 or 8 */
    uint32_t p[MAXL], n0;
    /* the CPU oracle on Montgomery values (the GPU's limbs are the host's bytes) */
    void (*mul)(uint32_t *r, const uint32_t *a, const uint32_t *b);
    void (*add)(uint32_t *r, const uint32_t *a, const uint32_t *b);
    void (*sub)(uint32_t *r, const uint32_t *a, const uint32_t *b);
    void (*fp2_mul)(uint32_t *r, const uint32_t *a, const uint32_t *b); /* 2n limbs: c0, c1 */
    void (*fp2_sqr)(uint32_t *r, const uint32_t *a);
} fld;

static int lost; /* things the kernels would drop */

static uint64_t prng = 0x9e3779b97f4a7c15ULL;
static uint32_t rnd32(void) {
    prng ^= prng << 13;
    prng ^= prng >> 7;
    prng ^= prng << 17;
    return (uint32_t)(prng >> 11);
}

/* ---- the CPU oracle ---- */

#define ORACLE(CURVE, T, T2)                                                                       \
    static void CURVE##_mul(uint32_t *r, const uint32_t *a, const uint32_t *b) {                   \
        T x, y, z;                                                                                 \
        memcpy(&x, a, sizeof x);                                                                   \
        memcpy(&y, b, sizeof y);                                                                   \
        cz_##CURVE##_fp_mul(&z, &x, &y);                                                           \
        memcpy(r, &z, sizeof z);                                                                   \
    }                                                                                              \
    static void CURVE##_add(uint32_t *r, const uint32_t *a, const uint32_t *b) {                   \
        T x, y, z;                                                                                 \
        memcpy(&x, a, sizeof x);                                                                   \
        memcpy(&y, b, sizeof y);                                                                   \
        cz_##CURVE##_fp_add(&z, &x, &y);                                                           \
        memcpy(r, &z, sizeof z);                                                                   \
    }                                                                                              \
    static void CURVE##_sub(uint32_t *r, const uint32_t *a, const uint32_t *b) {                   \
        T x, y, z;                                                                                 \
        memcpy(&x, a, sizeof x);                                                                   \
        memcpy(&y, b, sizeof y);                                                                   \
        cz_##CURVE##_fp_sub(&z, &x, &y);                                                           \
        memcpy(r, &z, sizeof z);                                                                   \
    }                                                                                              \
    static void CURVE##_fp2mul(uint32_t *r, const uint32_t *a, const uint32_t *b) {                \
        T2 x, y, z;                                                                                \
        memcpy(&x, a, sizeof x);                                                                   \
        memcpy(&y, b, sizeof y);                                                                   \
        cz_##CURVE##_fp2_mul(&z, &x, &y);                                                          \
        memcpy(r, &z, sizeof z);                                                                   \
    }                                                                                              \
    static void CURVE##_fp2sqr(uint32_t *r, const uint32_t *a) {                                   \
        T2 x, z;                                                                                   \
        memcpy(&x, a, sizeof x);                                                                   \
        cz_##CURVE##_fp2_sqr(&z, &x);                                                              \
        memcpy(r, &z, sizeof z);                                                                   \
    }

ORACLE(bls12381, cz_bls12381_fp, cz_bls12381_fp2)
ORACLE(bn254, cz_bn254_fp, cz_bn254_fp2)

static fld fields[2] = {
    {"bls12381", 12, CZ_GPU_BLS12381_FP_P, CZ_GPU_BLS12381_FP_N0, bls12381_mul, bls12381_add,
     bls12381_sub, bls12381_fp2mul, bls12381_fp2sqr},
    {"bn254", 8, CZ_GPU_BN254_FP_P, CZ_GPU_BN254_FP_N0, bn254_mul, bn254_add, bn254_sub,
     bn254_fp2mul, bn254_fp2sqr},
};

/* ---- limb helpers ---- */

static int cmp_n(const uint32_t *a, const uint32_t *b, int n) {
    for (int i = n - 1; i >= 0; i--)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

static uint32_t sub_n(uint32_t *r, const uint32_t *a, const uint32_t *b, int n) {
    uint64_t bw = 0;
    for (int i = 0; i < n; i++) {
        uint64_t d = (uint64_t)a[i] - b[i] - bw;
        r[i] = (uint32_t)d;
        bw = (d >> 63) & 1;
    }
    return (uint32_t)bw;
}

/* ---- the kernels' operations ---- */

/* fe_mont_cols with k terms a[t]·b[t]: column k gets every a_t[i]·b_t[j] (i + j = k) and
 * m_i·p_(k-i); the kernels' accumulator is 96 bits. The result before the final subtraction must
 * be below 2p (then fe_reduce_once reduces it). */
static void mont_cols(uint32_t *r, int k, const uint32_t *const *a, const uint32_t *const *b,
                      const fld *f) {
    const int n = f->n;
    uint32_t m[MAXL], s[MAXL], p2[MAXL + 1], sx[MAXL + 1];
    u128 acc = 0;
    const u128 lim = (u128)1 << 96;
#define TERM(i, j)                                                                                 \
    do {                                                                                           \
        for (int t_ = 0; t_ < k; t_++) {                                                           \
            acc += (uint64_t)a[t_][i] * b[t_][j];                                                  \
            lost += acc >= lim;                                                                    \
        }                                                                                          \
    } while (0)
    for (int col = 0; col < n; col++) {
        for (int i = 0; i < col; i++) {
            TERM(i, col - i);
            acc += (uint64_t)m[i] * f->p[col - i];
            lost += acc >= lim;
        }
        TERM(col, 0);
        m[col] = (uint32_t)acc * f->n0;
        acc += (uint64_t)m[col] * f->p[0];
        lost += acc >= lim;
        lost += (uint32_t)acc != 0; /* m·p clears the low word */
        acc >>= 32;
    }
    for (int col = n; col < 2 * n - 1; col++) {
        for (int i = col - n + 1; i < n; i++) {
            TERM(i, col - i);
            acc += (uint64_t)m[i] * f->p[col - i];
            lost += acc >= lim;
        }
        s[col - n] = (uint32_t)acc;
        acc >>= 32;
    }
#undef TERM
    s[n - 1] = (uint32_t)acc;
    lost += (acc >> 32) != 0; /* a carry out of the top word */
    /* s < 2p, else one conditional subtraction does not reduce */
    {
        uint64_t c = 0;
        for (int i = 0; i < n; i++) {
            c += (uint64_t)f->p[i] * 2;
            p2[i] = (uint32_t)c;
            c >>= 32;
        }
        p2[n] = (uint32_t)c;
        memcpy(sx, s, sizeof(uint32_t) * (size_t)n);
        sx[n] = 0;
        lost += cmp_n(sx, p2, n + 1) >= 0;
    }
    {
        uint32_t t[MAXL];
        if (!sub_n(t, s, f->p, n))
            memcpy(s, t, sizeof(uint32_t) * (size_t)n);
    }
    memcpy(r, s, sizeof(uint32_t) * (size_t)n);
}

static void mul(uint32_t *r, const uint32_t *a, const uint32_t *b, const fld *f) {
    const uint32_t *x[1] = {a}, *y[1] = {b};
    mont_cols(r, 1, x, y, f);
}

static void mul_add2(uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *c,
                     const uint32_t *d, const fld *f) {
    const uint32_t *x[2] = {a, c}, *y[2] = {b, d};
    mont_cols(r, 2, x, y, f);
}

static void mul_add4(uint32_t *r, const uint32_t *const x[4], const uint32_t *const y[4],
                     const fld *f) {
    mont_cols(r, 4, x, y, f);
}

/* fe_p_minus: p - d for d < p (no borrow) */
static void p_minus(uint32_t *r, const uint32_t *d, const fld *f) {
    lost += sub_n(r, f->p, d, f->n) != 0;
}

static void mul_sub(uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *c,
                    const uint32_t *d, const fld *f) {
    uint32_t nd[MAXL];
    p_minus(nd, d, f);
    mul_add2(r, a, b, c, nd, f);
}

/* gpu_fp2.cuh: fe_mul and fe_mul_sub on {c0, c1} (element x at x, x + n) */
static void fp2_mul(uint32_t *r, const uint32_t *a, const uint32_t *b, const fld *f) {
    const int n = f->n;
    uint32_t nb1[MAXL], c0[MAXL];
    p_minus(nb1, b + n, f);
    mul_add2(c0, a, b, a + n, nb1, f);
    mul_add2(r + n, a, b + n, a + n, b, f);
    memcpy(r, c0, sizeof(uint32_t) * (size_t)n);
}

static void fp2_mul_sub(uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *c,
                        const uint32_t *d, const fld *f) {
    const int n = f->n;
    uint32_t nb1[MAXL], nd0[MAXL], nd1[MAXL], c0[MAXL];
    p_minus(nb1, b + n, f);
    p_minus(nd0, d, f);
    p_minus(nd1, d + n, f);
    {
        const uint32_t *x[4] = {a, a + n, c, c + n}, *y[4] = {b, nb1, nd0, d + n};
        mul_add4(c0, x, y, f);
    }
    {
        const uint32_t *x[4] = {a, a + n, c, c + n}, *y[4] = {b + n, b, nd1, nd0};
        mul_add4(r + n, x, y, f);
    }
    memcpy(r, c0, sizeof(uint32_t) * (size_t)n);
}

/* gpu_fp2_split.cuh, lane h (0: c0, 1: c1) of the pair: own = the lane's coefficient, o = the
 * partner's (what __shfl_xor_sync brings), pick(h, x, y) = h ? x : y. */
#define OWN(x, h)     ((x) + (h)*f->n)
#define PARTNER(x, h) ((x) + (1 - (h)) * f->n)
#define PICK(h, x, y) ((h) ? (x) : (y))

static void lane_mul(uint32_t *r, int h, const uint32_t *a, const uint32_t *b, const fld *f) {
    const uint32_t *oa = PARTNER(a, h), *ob = PARTNER(b, h);
    uint32_t nob[MAXL];
    p_minus(nob, ob, f);
    mul_add2(r, OWN(a, h), PICK(h, ob, OWN(b, h)), oa, PICK(h, OWN(b, h), (const uint32_t *)nob),
             f);
}

static void lane_sqr(uint32_t *r, int h, const uint32_t *a, const fld *f) {
    const uint32_t *oa = PARTNER(a, h);
    uint32_t s[MAXL], d[MAXL], dd[MAXL];
    f->add(s, OWN(a, h), oa);
    f->sub(d, OWN(a, h), oa);
    f->add(dd, oa, oa);
    mul(r, PICK(h, OWN(a, h), (const uint32_t *)s), PICK(h, (const uint32_t *)dd, d), f);
}

static void lane_mul_sub(uint32_t *r, int h, const uint32_t *a, const uint32_t *b,
                         const uint32_t *c, const uint32_t *d, const fld *f) {
    const uint32_t *oa = PARTNER(a, h), *ob = PARTNER(b, h), *oc = PARTNER(c, h),
                   *od = PARTNER(d, h);
    uint32_t nob[MAXL], nd[MAXL], nod[MAXL];
    p_minus(nob, ob, f);
    p_minus(nd, OWN(d, h), f);
    p_minus(nod, od, f);
    const uint32_t *x[4] = {OWN(a, h), oa, OWN(c, h), oc};
    const uint32_t *y[4] = {PICK(h, ob, OWN(b, h)), PICK(h, OWN(b, h), (const uint32_t *)nob),
                            PICK(h, (const uint32_t *)nod, (const uint32_t *)nd),
                            PICK(h, (const uint32_t *)nd, od)};
    mul_add4(r, x, y, f);
}

/* ---- the Karatsuba path (gpu_field.cuh: prod_kara, redc_words, fe_mul_kara and fe_mul_add2
 * under CZ_GPU_KARATSUBA) ---- */

/* mul_words: x·y of h-word operands into 2h words through a 96-bit column */
static void half_product(uint32_t *z, const uint32_t *x, const uint32_t *y, int h) {
    u128 acc = 0;
    const u128 lim = (u128)1 << 96;
    for (int k = 0; k < 2 * h - 1; k++) {
        for (int i = (k < h ? 0 : k - h + 1); i <= (k < h ? k : h - 1); i++) {
            acc += (uint64_t)x[i] * y[k - i];
            lost += acc >= lim;
        }
        z[k] = (uint32_t)acc;
        acc >>= 32;
    }
    z[2 * h - 1] = (uint32_t)acc;
    lost += (acc >> 32) != 0;
}

/* r += x (len words, a carry chain); returns the carry out of the top word */
static uint32_t add_words(uint32_t *r, const uint32_t *x, int len) {
    uint64_t c = 0;
    for (int i = 0; i < len; i++) {
        c += (uint64_t)r[i] + x[i];
        r[i] = (uint32_t)c;
        c >>= 32;
    }
    return (uint32_t)c;
}

/* prod_kara: t = a·b in 2n words; each chain's carry or borrow out of its top word is lost */
static void kara_product(uint32_t *t, const uint32_t *a, const uint32_t *b, const fld *f) {
    const int h = f->n / 2;
    uint32_t sa[MAXL / 2], sb[MAXL / 2], xa[MAXL / 2 + 1] = {0}, xb[MAXL / 2 + 1] = {0};
    uint32_t z1[MAXL + 1] = {0}, ca, cb;
    memcpy(sa, a, sizeof(uint32_t) * (size_t)h);
    memcpy(sb, b, sizeof(uint32_t) * (size_t)h);
    ca = add_words(sa, a + h, h);
    cb = add_words(sb, b + h, h);
    half_product(t, a, b, h);
    half_product(t + 2 * h, a + h, b + h, h);
    half_product(z1, sa, sb, h);
    for (int i = 0; i < h; i++) {
        xa[i] = ca ? sb[i] : 0;
        xb[i] = cb ? sa[i] : 0;
    }
    xa[h] = ca & cb; /* the top word of the first correction chain */
    lost += add_words(z1 + h, xa, h + 1) != 0;
    lost += add_words(z1 + h, xb, h + 1) != 0;
    for (int q = 0; q < 2; q++) { /* z1 -= z0, z1 -= z2 over 2h + 1 words */
        uint32_t z[MAXL + 1] = {0};
        memcpy(z, t + 2 * h * q, sizeof(uint32_t) * (size_t)(2 * h));
        lost += sub_n(z1, z1, z, 2 * h + 1) != 0;
    }
    { /* t += z1·2^(32h): a chain through the top word of t */
        uint32_t w[3 * MAXL / 2] = {0};
        memcpy(w, z1, sizeof(uint32_t) * (size_t)(2 * h + 1));
        lost += add_words(t + h, w, 3 * h) != 0;
    }
}

/* redc_words: (t + m·p)/R for t < p·R, word k of t added at the start of column k */
static void kara_redc(uint32_t *r, const uint32_t *t, const fld *f) {
    const int n = f->n;
    uint32_t m[MAXL], s[MAXL];
    u128 acc = 0;
    const u128 lim = (u128)1 << 96;
    for (int col = 0; col < 2 * n; col++) {
        acc += t[col];
        lost += acc >= lim;
        if (col < n) {
            for (int i = 0; i < col; i++) {
                acc += (uint64_t)m[i] * f->p[col - i];
                lost += acc >= lim;
            }
            m[col] = (uint32_t)acc * f->n0;
            acc += (uint64_t)m[col] * f->p[0];
            lost += acc >= lim;
            lost += (uint32_t)acc != 0;
        } else {
            for (int i = col - n + 1; i < n; i++) {
                acc += (uint64_t)m[i] * f->p[col - i];
                lost += acc >= lim;
            }
            s[col - n] = (uint32_t)acc;
        }
        acc >>= 32;
    }
    lost += acc != 0; /* a carry out of the top word */
    {
        uint32_t p2[MAXL + 1], sx[MAXL + 1];
        uint64_t c = 0;
        for (int i = 0; i < n; i++) {
            c += (uint64_t)f->p[i] * 2;
            p2[i] = (uint32_t)c;
            c >>= 32;
        }
        p2[n] = (uint32_t)c;
        memcpy(sx, s, sizeof(uint32_t) * (size_t)n);
        sx[n] = 0;
        lost += cmp_n(sx, p2, n + 1) >= 0; /* one conditional subtraction must reduce */
    }
    {
        uint32_t d[MAXL];
        if (!sub_n(d, s, f->p, n))
            memcpy(s, d, sizeof(uint32_t) * (size_t)n);
    }
    memcpy(r, s, sizeof(uint32_t) * (size_t)n);
}

static void kara_mul(uint32_t *r, const uint32_t *a, const uint32_t *b, const fld *f) {
    uint32_t t[2 * MAXL];
    kara_product(t, a, b, f);
    kara_redc(r, t, f);
}

static void kara_mul_add2(uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *c,
                          const uint32_t *d, const fld *f) {
    uint32_t t[2 * MAXL], u[2 * MAXL];
    kara_product(t, a, b, f);
    kara_product(u, c, d, f);
    lost += add_words(t, u, 2 * f->n) != 0;
    kara_redc(r, t, f);
}

/* ---- checks ---- */

static void random_below(uint32_t *r, const fld *f) {
    do {
        for (int i = 0; i < f->n; i++)
            r[i] = rnd32();
        r[f->n - 1] &= 0xffffffffu >> __builtin_clz(f->p[f->n - 1]);
    } while (cmp_n(r, f->p, f->n) >= 0);
}

/* element e of the test set: the extremes 0, 1, p - 1, then random ones */
static void element(uint32_t *r, int e, const fld *f) {
    memset(r, 0, sizeof(uint32_t) * MAXL);
    if (e == 1)
        r[0] = 1;
    else if (e == 2) {
        uint32_t one[MAXL] = {1};
        sub_n(r, f->p, one, f->n);
    } else if (e > 2)
        random_below(r, f);
}

/* an Fp2 element from two coefficient choices */
static void element2(uint32_t *r, int e0, int e1, const fld *f) {
    element(r, e0, f);
    element(r + f->n, e1, f);
}

#define NEXT 3 /* extremes */

static void check_base(const fld *f) {
    const int n = f->n;
    int bad = 0, lost0 = lost;
    for (int it = 0; it < 20000; it++) {
        uint32_t a[MAXL], b[MAXL], c[MAXL], d[MAXL], r[MAXL], ab[MAXL], cd[MAXL], want[MAXL];
        if (it < NEXT * NEXT * NEXT * NEXT) {
            element(a, it % NEXT, f);
            element(b, (it / NEXT) % NEXT, f);
            element(c, (it / (NEXT * NEXT)) % NEXT, f);
            element(d, it / (NEXT * NEXT * NEXT), f);
        } else {
            element(a, 3, f);
            element(b, 3, f);
            element(c, 3, f);
            element(d, 3, f);
        }
        f->mul(ab, a, b);
        f->mul(cd, c, d);
        mul_add2(r, a, b, c, d, f);
        f->add(want, ab, cd);
        bad += memcmp(r, want, sizeof(uint32_t) * (size_t)n) != 0;
        mul_sub(r, a, b, c, d, f);
        f->sub(want, ab, cd);
        bad += memcmp(r, want, sizeof(uint32_t) * (size_t)n) != 0;
        {
            const uint32_t *x[4] = {a, c, a, b}, *y[4] = {b, d, d, c};
            uint32_t ad[MAXL], bc[MAXL];
            f->mul(ad, a, d);
            f->mul(bc, b, c);
            mul_add4(r, x, y, f);
            f->add(want, ab, cd);
            f->add(want, want, ad);
            f->add(want, want, bc);
            bad += memcmp(r, want, sizeof(uint32_t) * (size_t)n) != 0;
        }
    }
    if (!CHECK_EQ_INT(bad, 0) || !CHECK_EQ_INT(lost - lost0, 0))
        fprintf(stderr, "  %s Fp: %d wrong sums, %d lost\n", f->name, bad, lost - lost0);
}

static void check_fp2(const fld *f) {
    const int n = f->n, bytes = (int)sizeof(uint32_t) * 2 * n;
    int bad = 0, lost0 = lost;
    for (int it = 0; it < 6000; it++) {
        uint32_t a[2 * MAXL], b[2 * MAXL], c[2 * MAXL], d[2 * MAXL];
        uint32_t r[2 * MAXL], ab[2 * MAXL], cd[2 * MAXL], want[2 * MAXL];
        if (it < NEXT * NEXT * NEXT * NEXT) { /* every extreme in the coefficients products use */
            element2(a, it % NEXT, (it / NEXT) % NEXT, f);
            element2(b, (it / (NEXT * NEXT)) % NEXT, it / (NEXT * NEXT * NEXT), f);
            element2(c, it % NEXT, it / (NEXT * NEXT * NEXT), f);
            element2(d, (it / NEXT) % NEXT, (it / (NEXT * NEXT)) % NEXT, f);
        } else {
            element2(a, 3, 3, f);
            element2(b, 3, 3, f);
            element2(c, 3, 3, f);
            element2(d, 3, 3, f);
        }
        f->fp2_mul(ab, a, b);
        f->fp2_mul(cd, c, d);
        f->sub(want, ab, cd);
        f->sub(want + n, ab + n, cd + n);
        /* gpu_fp2.cuh */
        fp2_mul(r, a, b, f);
        bad += memcmp(r, ab, (size_t)bytes) != 0;
        fp2_mul_sub(r, a, b, c, d, f);
        bad += memcmp(r, want, (size_t)bytes) != 0;
        /* gpu_fp2_split.cuh: the two lanes' results side by side */
        for (int h = 0; h < 2; h++)
            lane_mul(r + h * n, h, a, b, f);
        bad += memcmp(r, ab, (size_t)bytes) != 0;
        for (int h = 0; h < 2; h++)
            lane_mul_sub(r + h * n, h, a, b, c, d, f);
        bad += memcmp(r, want, (size_t)bytes) != 0;
        f->fp2_sqr(ab, a);
        for (int h = 0; h < 2; h++)
            lane_sqr(r + h * n, h, a, f);
        bad += memcmp(r, ab, (size_t)bytes) != 0;
    }
    if (!CHECK_EQ_INT(bad, 0) || !CHECK_EQ_INT(lost - lost0, 0))
        fprintf(stderr, "  %s Fp2: %d wrong products, %d lost\n", f->name, bad, lost - lost0);
}

/* Products and sums of two products through the Karatsuba path against the CPU field, with the
 * operand p that fe_p_minus makes of 0 (fe_mul_sub's negated factor) among the extremes. */
static void check_kara(const fld *f) {
    const int n = f->n;
    int bad = 0, lost0 = lost;
    for (int it = 0; it < 20000; it++) {
        uint32_t a[MAXL], b[MAXL], c[MAXL], d[MAXL], nd[MAXL], r[MAXL], ab[MAXL], cd[MAXL],
            want[MAXL];
        const int ext = NEXT * NEXT * NEXT * NEXT;
        element(a, it < ext ? it % NEXT : 3, f);
        element(b, it < ext ? (it / NEXT) % NEXT : 3, f);
        element(c, it < ext ? (it / (NEXT * NEXT)) % NEXT : 3, f);
        element(d, it < ext ? it / (NEXT * NEXT * NEXT) : 3, f);
        f->mul(ab, a, b);
        f->mul(cd, c, d);
        kara_mul(r, a, b, f);
        bad += memcmp(r, ab, sizeof(uint32_t) * (size_t)n) != 0;
        kara_mul_add2(r, a, b, c, d, f);
        f->add(want, ab, cd);
        bad += memcmp(r, want, sizeof(uint32_t) * (size_t)n) != 0;
        p_minus(nd, d, f); /* p for d = 0: the largest operand the kernels pass */
        kara_mul_add2(r, a, b, c, nd, f);
        f->sub(want, ab, cd);
        bad += memcmp(r, want, sizeof(uint32_t) * (size_t)n) != 0;
    }
    if (!CHECK_EQ_INT(bad, 0) || !CHECK_EQ_INT(lost - lost0, 0))
        fprintf(stderr, "  %s Fp Karatsuba: %d wrong, %d lost\n", f->name, bad, lost - lost0);
}

/* The model must see a violation where there is one: eleven products of p - 1 on BN254 sum to
 * more than 2p times R (11p²/R > 2.08p), so one subtraction would not reduce them. */
static void test_model(void) {
    const fld *f = &fields[1];
    uint32_t pm[MAXL], r[MAXL];
    int lost0 = lost;
    {
        uint32_t one[MAXL] = {1};
        sub_n(pm, f->p, one, f->n);
    }
    const uint32_t *x[11] = {pm, pm, pm, pm, pm, pm, pm, pm, pm, pm, pm};
    mont_cols(r, 11, x, x, f);
    CHECK(lost > lost0);
    lost = lost0;
    /* and the Karatsuba reduction of a t that is not below p·R (all ones): s is 2p or more */
    {
        uint32_t t[2 * MAXL];
        memset(t, 0xff, sizeof t);
        kara_redc(r, t, f);
        CHECK(lost > lost0);
        lost = lost0;
    }
}

static void test_bls12381_fp(void) {
    check_base(&fields[0]);
}
static void test_bn254_fp(void) {
    check_base(&fields[1]);
}
static void test_bls12381_fp2(void) {
    check_fp2(&fields[0]);
}
static void test_bn254_fp2(void) {
    check_fp2(&fields[1]);
}

static void test_bls12381_kara(void) {
    check_kara(&fields[0]);
}
static void test_bn254_kara(void) {
    check_kara(&fields[1]);
}

static const test_case cases[] = {
    {"model", test_model},           {"bls12381_kara", test_bls12381_kara},
    {"bn254_kara", test_bn254_kara}, {"bls12381_fp", test_bls12381_fp},
    {"bn254_fp", test_bn254_fp},     {"bls12381_fp2", test_bls12381_fp2},
    {"bn254_fp2", test_bn254_fp2}};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
