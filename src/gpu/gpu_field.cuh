/*
 * Device arithmetic in the four Montgomery fields (BN254 Fp/Fr, BLS12-381 Fp/Fr).
 *
 * An element is N little-endian u32 limbs (N = 8 or 12), the host's 4 or 6 u64 limbs byte for
 * byte, always fully reduced (< p) and in Montgomery form with R = 2^(32N) (= the host's
 * 2^(64N/2)). A field is a config struct C with N, the modulus p(i) (from constant memory: the
 * compiler turns the unrolled constant-index reads into c[][] operands), n0 = -p⁻¹ mod 2^32 and
 * one(i) (R mod p); fe<C> is the element type, so elements of different fields cannot be mixed.
 *
 * Multiplication is product-scanning Montgomery (Comba with interleaved reduction): column k
 * accumulates every a_i·b_j and m_i·p_j with i + j = k in a 96-bit accumulator through one PTX
 * carry chain per product (mad.lo.cc, madc.hi.cc, addc). ptxas turns each mad.lo/madc.hi pair
 * into one IMAD.WIDE(.X) and the addc into an IADD3.X on the ALU pipe, so a multiplication issues
 * 2N² + N wide multiplies (137 IMAD for N = 8 in SASS). The column loop is written once
 * (fe_mont_cols) and also sums two or four products before a single reduction (fe_mul_add2,
 * fe_mul_add4, fe_mul_sub). An operand-scanning version with even/odd accumulators (2
 * instructions per product, no addc, gpu_field_eo.cuh) is 3-4 % slower in a throughput test (it
 * needs a few IMAD.X for its carries; docs/gpu.md) but serves the NTT's twiddle multiplication,
 * where the carries compete with the butterflies' additions for the ALU pipe. Every modulus
 * here has a spare top bit, so (ab + mp)/R < 2p < 2^(32N) and one conditional subtraction
 * reduces. Addition and subtraction are one add/sub carry chain plus a select.
 *
 * The constants are in gpu_consts.h (checked against src/field/field_consts.h by
 * tests/gpu/test_gpu_consts.c, which needs no GPU).
 */
#ifndef CUZK_GPU_FIELD_CUH
#define CUZK_GPU_FIELD_CUH

#include <stdint.h>

#include "gpu_consts.h"

/* Per translation unit (static): without relocatable device code each .cu has its own copy. */
static __constant__ uint32_t cz_gpu_bn254_fp_p[8] = CZ_GPU_BN254_FP_P;
static __constant__ uint32_t cz_gpu_bn254_fp_one[8] = CZ_GPU_BN254_FP_ONE;
static __constant__ uint32_t cz_gpu_bn254_fr_p[8] = CZ_GPU_BN254_FR_P;
static __constant__ uint32_t cz_gpu_bn254_fr_one[8] = CZ_GPU_BN254_FR_ONE;
static __constant__ uint32_t cz_gpu_bls12381_fp_p[12] = CZ_GPU_BLS12381_FP_P;
static __constant__ uint32_t cz_gpu_bls12381_fp_one[12] = CZ_GPU_BLS12381_FP_ONE;
static __constant__ uint32_t cz_gpu_bls12381_fr_p[8] = CZ_GPU_BLS12381_FR_P;
static __constant__ uint32_t cz_gpu_bls12381_fr_one[8] = CZ_GPU_BLS12381_FR_ONE;

#define CZ_GPU_FIELD_CFG(NAME, NL, PARR, ONEARR, N0)                                               \
    struct NAME {                                                                                  \
        static constexpr int N = NL;                                                               \
        static constexpr uint32_t n0 = N0;                                                         \
        static __device__ __forceinline__ uint32_t p(int i) {                                      \
            return PARR[i];                                                                        \
        }                                                                                          \
        static __device__ __forceinline__ uint32_t one(int i) {                                    \
            return ONEARR[i];                                                                      \
        }                                                                                          \
    }

CZ_GPU_FIELD_CFG(gbn254_fp_cfg, 8, cz_gpu_bn254_fp_p, cz_gpu_bn254_fp_one, CZ_GPU_BN254_FP_N0);
CZ_GPU_FIELD_CFG(gbn254_fr_cfg, 8, cz_gpu_bn254_fr_p, cz_gpu_bn254_fr_one, CZ_GPU_BN254_FR_N0);
CZ_GPU_FIELD_CFG(gbls12381_fp_cfg, 12, cz_gpu_bls12381_fp_p, cz_gpu_bls12381_fp_one,
                 CZ_GPU_BLS12381_FP_N0);
CZ_GPU_FIELD_CFG(gbls12381_fr_cfg, 8, cz_gpu_bls12381_fr_p, cz_gpu_bls12381_fr_one,
                 CZ_GPU_BLS12381_FR_N0);

template <class C> struct fe { uint32_t l[C::N]; };

/* Whether the curve code calls its formulas out of line for this field (gpu_curve.cuh): false
 * for the base fields, true for Fp2 (gpu_fp2.cuh). */
template <class C> struct fe_outline { static constexpr bool value = false; };

template <class C> static __device__ __forceinline__ void fe_zero(fe<C> &r) {
#pragma unroll
    for (int i = 0; i < C::N; i++)
        r.l[i] = 0;
}

template <class C> static __device__ __forceinline__ void fe_one(fe<C> &r) {
#pragma unroll
    for (int i = 0; i < C::N; i++)
        r.l[i] = C::one(i);
}

template <class C> static __device__ __forceinline__ bool fe_is_zero(const fe<C> &a) {
    uint32_t t = 0;
#pragma unroll
    for (int i = 0; i < C::N; i++)
        t |= a.l[i];
    return t == 0;
}

template <class C> static __device__ __forceinline__ bool fe_eq(const fe<C> &a, const fe<C> &b) {
    uint32_t t = 0;
#pragma unroll
    for (int i = 0; i < C::N; i++)
        t |= a.l[i] ^ b.l[i];
    return t == 0;
}

/* r = s - p if s >= p, else s (s < 2p). */
template <class C> static __device__ __forceinline__ void fe_reduce_once(fe<C> &r, const fe<C> &s) {
    uint32_t t[C::N], borrow;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(t[0]) : "r"(s.l[0]), "r"(C::p(0)));
#pragma unroll
    for (int i = 1; i < C::N; i++)
        asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(t[i]) : "r"(s.l[i]), "r"(C::p(i)));
    asm volatile("subc.u32 %0, 0, 0;" : "=r"(borrow));
#pragma unroll
    for (int i = 0; i < C::N; i++)
        r.l[i] = borrow ? s.l[i] : t[i];
}

template <class C>
static __device__ __forceinline__ void fe_add(fe<C> &r, const fe<C> &a, const fe<C> &b) {
    fe<C> s;
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(s.l[0]) : "r"(a.l[0]), "r"(b.l[0]));
#pragma unroll
    for (int i = 1; i < C::N; i++)
        asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(s.l[i]) : "r"(a.l[i]), "r"(b.l[i]));
    fe_reduce_once(r, s);
}

template <class C>
static __device__ __forceinline__ void fe_sub(fe<C> &r, const fe<C> &a, const fe<C> &b) {
    uint32_t t[C::N], borrow;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(t[0]) : "r"(a.l[0]), "r"(b.l[0]));
#pragma unroll
    for (int i = 1; i < C::N; i++)
        asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(t[i]) : "r"(a.l[i]), "r"(b.l[i]));
    asm volatile("subc.u32 %0, 0, 0;" : "=r"(borrow));
    /* r = t + (p & mask): the masked modulus is computed before the chain starts. */
    uint32_t pm[C::N];
#pragma unroll
    for (int i = 0; i < C::N; i++)
        pm[i] = C::p(i) & borrow;
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r.l[0]) : "r"(t[0]), "r"(pm[0]));
#pragma unroll
    for (int i = 1; i < C::N; i++)
        asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r.l[i]) : "r"(t[i]), "r"(pm[i]));
}

template <class C> static __device__ __forceinline__ void fe_dbl(fe<C> &r, const fe<C> &a) {
    fe_add(r, a, a);
}

template <class C> static __device__ __forceinline__ void fe_neg(fe<C> &r, const fe<C> &a) {
    fe<C> z;
    fe_zero(z);
    fe_sub(r, z, a);
}

/* n0 = 0xffffffff as a value the compiler cannot see (see mont_m). */
static __constant__ uint32_t cz_gpu_n0_all_ones = 0xffffffffu;

/* The Montgomery factor m = c0·n0 mod 2^32. For n0 = 0xffffffff (BLS12-381 Fr) the product is -c0,
 * and ptxas folds that negation into the multiply-adds m·p_j that follow, which then no longer
 * fuse into one IMAD.WIDE each: the NTT pass kernel had 3520 SASS instructions for BLS12-381 Fr
 * against 2976 for BN254 Fr (the fe_mul of BLS12-381 Fr measured 12 % slower). Multiplying by n0
 * read from constant memory keeps the product opaque: 2984 instructions (counted offline in the
 * cubin's .text size). Same value either way. */
template <class C> static __device__ __forceinline__ uint32_t mont_m(uint32_t c0) {
    uint32_t m;
    if (C::n0 == 0xffffffffu)
        asm("mul.lo.u32 %0, %1, %2;" : "=r"(m) : "r"(c0), "r"(cz_gpu_n0_all_ones));
    else
        m = c0 * C::n0;
    return m;
}

/* (c2:c1:c0) += a·b */
static __device__ __forceinline__ void mac3(uint32_t &c0, uint32_t &c1, uint32_t &c2, uint32_t a,
                                            uint32_t b) {
    asm("mad.lo.cc.u32 %0, %3, %4, %0;\n\t"
        "madc.hi.cc.u32 %1, %3, %4, %1;\n\t"
        "addc.u32 %2, %2, 0;"
        : "+r"(c0), "+r"(c1), "+r"(c2)
        : "r"(a), "r"(b));
}

/* The column loop of the product-scanning Montgomery multiplication (see the file comment):
 * s = (T + m·p)/R without the final subtraction, where prod(c0, c1, c2, i, j) adds the terms of
 * T at limb pair (i, j), i + j = k, to column k (a·b for one product, a·b + c·d for a sum of
 * products reduced once). A column holds at most N + 1 reduction terms and N products per term
 * of T, each below 2^64: well inside 96 bits for the one to four terms used here. */
template <class C, class Prod>
static __device__ __forceinline__ void fe_mont_cols(fe<C> &s, Prod prod) {
    constexpr int N = C::N;
    uint32_t m[N];
    uint32_t c0 = 0, c1 = 0, c2 = 0;
#pragma unroll
    for (int k = 0; k < N; k++) {
#pragma unroll
        for (int i = 0; i < k; i++) {
            prod(c0, c1, c2, i, k - i);
            mac3(c0, c1, c2, m[i], C::p(k - i));
        }
        prod(c0, c1, c2, k, 0);
        m[k] = mont_m<C>(c0);
        mac3(c0, c1, c2, m[k], C::p(0));
        c0 = c1;
        c1 = c2;
        c2 = 0;
    }
#pragma unroll
    for (int k = N; k < 2 * N - 1; k++) {
#pragma unroll
        for (int i = k - N + 1; i < N; i++) {
            prod(c0, c1, c2, i, k - i);
            mac3(c0, c1, c2, m[i], C::p(k - i));
        }
        s.l[k - N] = c0;
        c0 = c1;
        c1 = c2;
        c2 = 0;
    }
    s.l[N - 1] = c0;
}

/* s = (a·b + m·p)/R ≡ a·b·R⁻¹ mod p without the final subtraction (product scanning, see the file
 * comment). s < a·b/R + p, which must stay below 2^(32N): s < 2p for a, b < p; the lazy NTT
 * butterflies (gpu_ntt.cu) multiply a < 4p or a < 2p by b < p. s may alias a or b. */
template <class C>
static __device__ __forceinline__ void fe_mul_nr(fe<C> &s, const fe<C> &a, const fe<C> &b) {
    fe_mont_cols(s, [&](uint32_t &c0, uint32_t &c1, uint32_t &c2, int i, int j) {
        mac3(c0, c1, c2, a.l[i], b.l[j]);
    });
}

/* ---- Karatsuba products (CZ_GPU_KARATSUBA) ---- */

/* z = x·y for H-word x, y (2H words): product scanning into a 96-bit column. */
template <int H>
static __device__ __forceinline__ void mul_words(uint32_t *z, const uint32_t *x,
                                                 const uint32_t *y) {
    uint32_t c0 = 0, c1 = 0, c2 = 0;
#pragma unroll
    for (int k = 0; k < 2 * H - 1; k++) {
#pragma unroll
        for (int i = (k < H ? 0 : k - H + 1); i <= (k < H ? k : H - 1); i++)
            mac3(c0, c1, c2, x[i], y[k - i]);
        z[k] = c0;
        c0 = c1, c1 = c2, c2 = 0;
    }
    z[2 * H - 1] = c0;
}

/* t = a·b (2N words) by one level of Karatsuba on halves of H = N/2 words: z0 = aL·bL and
 * z2 = aH·bH in t, z1 = (aL + aH)·(bL + bH) beside them (3H² wide multiply-adds instead of 4H²);
 * the carries ca, cb of the two sums add (ca·sb + cb·sa)·2^(32H) + ca·cb·2^(64H) to z1, and the
 * middle term z1 - z0 - z2 = aL·bH + aH·bL is added at word H. */
template <class C>
static __device__ __forceinline__ void prod_kara(uint32_t *t, const fe<C> &a, const fe<C> &b) {
    constexpr int H = C::N / 2;
    uint32_t sa[H], sb[H], xa[H], xb[H], ca, cb, z1[2 * H + 1];
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(sa[0]) : "r"(a.l[0]), "r"(a.l[H]));
#pragma unroll
    for (int i = 1; i < H; i++)
        asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(sa[i]) : "r"(a.l[i]), "r"(a.l[H + i]));
    asm volatile("addc.u32 %0, 0, 0;" : "=r"(ca));
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(sb[0]) : "r"(b.l[0]), "r"(b.l[H]));
#pragma unroll
    for (int i = 1; i < H; i++)
        asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(sb[i]) : "r"(b.l[i]), "r"(b.l[H + i]));
    asm volatile("addc.u32 %0, 0, 0;" : "=r"(cb));
    mul_words<H>(t, a.l, b.l);
    mul_words<H>(t + 2 * H, a.l + H, b.l + H);
    mul_words<H>(z1, sa, sb);
    const uint32_t ma = 0u - ca, mb = 0u - cb, cab = ca & cb;
#pragma unroll
    for (int i = 0; i < H; i++)
        xa[i] = sb[i] & ma, xb[i] = sa[i] & mb;
    asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(z1[H]) : "r"(xa[0]));
#pragma unroll
    for (int i = 1; i < H; i++)
        asm volatile("addc.cc.u32 %0, %0, %1;" : "+r"(z1[H + i]) : "r"(xa[i]));
    asm volatile("addc.u32 %0, %1, 0;" : "=r"(z1[2 * H]) : "r"(cab));
    asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(z1[H]) : "r"(xb[0]));
#pragma unroll
    for (int i = 1; i < H; i++)
        asm volatile("addc.cc.u32 %0, %0, %1;" : "+r"(z1[H + i]) : "r"(xb[i]));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(z1[2 * H]));
#pragma unroll
    for (int h = 0; h < 2; h++) {
        const uint32_t *z = t + 2 * H * h;
        asm volatile("sub.cc.u32 %0, %0, %1;" : "+r"(z1[0]) : "r"(z[0]));
#pragma unroll
        for (int i = 1; i < 2 * H; i++)
            asm volatile("subc.cc.u32 %0, %0, %1;" : "+r"(z1[i]) : "r"(z[i]));
        asm volatile("subc.u32 %0, %0, 0;" : "+r"(z1[2 * H]));
    }
    asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(t[H]) : "r"(z1[0]));
#pragma unroll
    for (int i = 1; i <= 2 * H; i++)
        asm volatile("addc.cc.u32 %0, %0, %1;" : "+r"(t[H + i]) : "r"(z1[i]));
#pragma unroll
    for (int i = 3 * H + 1; i < 4 * H - 1; i++)
        asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(t[i]));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[4 * H - 1]));
}

/* s = t·R⁻¹ mod p below t/R + p for t < p·R (2N words, no final subtraction): the columns of
 * fe_mont_cols with word k of t added at the start of column k. */
template <class C> static __device__ __forceinline__ void redc_words(fe<C> &s, const uint32_t *t) {
    constexpr int N = C::N;
    uint32_t m[N], c0 = 0, c1 = 0, c2 = 0;
#pragma unroll
    for (int k = 0; k < 2 * N; k++) {
        asm("add.cc.u32 %0, %0, %2;\n\taddc.u32 %1, %1, 0;" : "+r"(c0), "+r"(c1) : "r"(t[k]));
        if (k < N) {
#pragma unroll
            for (int i = 0; i < k; i++)
                mac3(c0, c1, c2, m[i], C::p(k - i));
            m[k] = mont_m<C>(c0);
            mac3(c0, c1, c2, m[k], C::p(0));
        } else {
#pragma unroll
            for (int i = k - N + 1; i < N; i++)
                mac3(c0, c1, c2, m[i], C::p(k - i));
            s.l[k - N] = c0;
        }
        c0 = c1, c1 = c2, c2 = 0;
    }
}

/* r = a·b·R⁻¹ mod p by prod_kara and redc_words, fully reduced. */
template <class C>
static __device__ __forceinline__ void fe_mul_kara(fe<C> &r, const fe<C> &a, const fe<C> &b) {
    uint32_t t[2 * C::N];
    fe<C> s;
    prod_kara(t, a, b);
    redc_words(s, t);
    fe_reduce_once(r, s);
}

/* Whether fe_mul and fe_mul_add2 of field C go through the Karatsuba product. */
template <class C> struct fe_kara {
#ifdef CZ_GPU_KARATSUBA
    static constexpr bool value = C::N == 12;
#else
    static constexpr bool value = false;
#endif
};

/* nd = p - d for d < p (nd in (0, p]: a multiplication operand standing for -d). */
template <class C> static __device__ __forceinline__ void fe_p_minus(fe<C> &nd, const fe<C> &d) {
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(nd.l[0]) : "r"(C::p(0)), "r"(d.l[0]));
#pragma unroll
    for (int i = 1; i < C::N; i++)
        asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(nd.l[i]) : "r"(C::p(i)), "r"(d.l[i]));
}

/* r = a·b + c·d (times R⁻¹) mod p with one reduction for both products: 3N² + N wide multiplies
 * instead of 2(2N² + N). Operands at most p; (a·b + c·d)/R + p < 2p because 2p < R for every
 * modulus here, so one conditional subtraction reduces. r may alias any operand. */
template <class C>
static __device__ __forceinline__ void fe_mul_add2(fe<C> &r, const fe<C> &a, const fe<C> &b,
                                                   const fe<C> &c, const fe<C> &d) {
    fe<C> s;
    if constexpr (fe_kara<C>::value) {
        uint32_t t[2 * C::N], u[2 * C::N];
        prod_kara(t, a, b);
        prod_kara(u, c, d);
        asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(t[0]) : "r"(u[0]));
#pragma unroll
        for (int i = 1; i < 2 * C::N; i++)
            asm volatile("addc.cc.u32 %0, %0, %1;" : "+r"(t[i]) : "r"(u[i]));
        redc_words(s, t);
    } else {
        fe_mont_cols(s, [&](uint32_t &c0, uint32_t &c1, uint32_t &c2, int i, int j) {
            mac3(c0, c1, c2, a.l[i], b.l[j]);
            mac3(c0, c1, c2, c.l[i], d.l[j]);
        });
    }
    fe_reduce_once(r, s);
}

/* r = a·b - c·d (times R⁻¹) mod p, one reduction (c·(p - d) ≡ -c·d). r may alias any operand. */
template <class C>
static __device__ __forceinline__ void fe_mul_sub(fe<C> &r, const fe<C> &a, const fe<C> &b,
                                                  const fe<C> &c, const fe<C> &d) {
    fe<C> nd;
    fe_p_minus(nd, d);
    fe_mul_add2(r, a, b, c, nd);
}

/* r = a·b + c·d + e·f + g·h (times R⁻¹) mod p, one reduction (the Fp2 fe_mul_sub). Operands at
 * most p; the four products over R stay below p (4p²/R < 0.41p for BLS12-381's p, < 0.76p for
 * BN254's), so the result is below 2p and one conditional subtraction reduces. */
template <class C>
static __device__ __forceinline__ void fe_mul_add4(fe<C> &r, const fe<C> &a, const fe<C> &b,
                                                   const fe<C> &c, const fe<C> &d, const fe<C> &e,
                                                   const fe<C> &f, const fe<C> &g, const fe<C> &h) {
    fe<C> s;
    fe_mont_cols(s, [&](uint32_t &c0, uint32_t &c1, uint32_t &c2, int i, int j) {
        mac3(c0, c1, c2, a.l[i], b.l[j]);
        mac3(c0, c1, c2, c.l[i], d.l[j]);
        mac3(c0, c1, c2, e.l[i], f.l[j]);
        mac3(c0, c1, c2, g.l[i], h.l[j]);
    });
    fe_reduce_once(r, s);
}

/* r = a·b·R⁻¹ mod p, fully reduced (product scanning, see the file comment). r may alias a or b. */
template <class C>
static __device__ __forceinline__ void fe_mul(fe<C> &r, const fe<C> &a, const fe<C> &b) {
    if constexpr (fe_kara<C>::value) {
        fe_mul_kara(r, a, b);
    } else {
        fe<C> s;
        fe_mul_nr(s, a, b);
        fe_reduce_once(r, s);
    }
}

/* r = a²·R⁻¹ mod p. */
template <class C> static __device__ __forceinline__ void fe_sqr(fe<C> &r, const fe<C> &a) {
    fe_mul(r, a, a);
}

/* (c2:c1:c0) += (t2:t1:t0) */
static __device__ __forceinline__ void add3(uint32_t &c0, uint32_t &c1, uint32_t &c2, uint32_t t0,
                                            uint32_t t1, uint32_t t2) {
    asm("add.cc.u32 %0, %0, %3;\n\t"
        "addc.cc.u32 %1, %1, %4;\n\t"
        "addc.u32 %2, %2, %5;"
        : "+r"(c0), "+r"(c1), "+r"(c2)
        : "r"(t0), "r"(t1), "r"(t2));
}

/* r = a²·R⁻¹ mod p with each cross product a_i·a_j (i < j) computed once: column k sums its
 * cross products in a separate 96-bit accumulator t, adds t twice and the square a_(k/2)² to the
 * column, then the reduction products as in fe_mul. N(N-1)/2 + N + N² + N wide multiplies instead
 * of 2N² + N (234 vs 300 for N = 12). Column bound: carry < 2^64, 2t < 2^68, square and reduction
 * terms < (N + 2)·2^64, all < 2^96. Used by the G1 MSM's accumulation (fe_sqr stays
 * fe_mul(a, a) elsewhere). */
template <class C> static __device__ __forceinline__ void fe_sqr_fast(fe<C> &r, const fe<C> &a) {
    constexpr int N = C::N;
    uint32_t m[N];
    fe<C> s;
    uint32_t c0 = 0, c1 = 0, c2 = 0;
#pragma unroll
    for (int k = 0; k < 2 * N - 1; k++) {
        if (k > 0 && k < 2 * N - 2) {
            uint32_t t0 = 0, t1 = 0, t2 = 0;
#pragma unroll
            for (int i = (k < N ? 0 : k - N + 1); 2 * i < k; i++)
                mac3(t0, t1, t2, a.l[i], a.l[k - i]);
            add3(c0, c1, c2, t0, t1, t2);
            add3(c0, c1, c2, t0, t1, t2);
        }
        if (k % 2 == 0)
            mac3(c0, c1, c2, a.l[k / 2], a.l[k / 2]);
        if (k < N) {
#pragma unroll
            for (int i = 0; i < k; i++)
                mac3(c0, c1, c2, m[i], C::p(k - i));
            m[k] = mont_m<C>(c0);
            mac3(c0, c1, c2, m[k], C::p(0));
        } else {
#pragma unroll
            for (int i = k - N + 1; i < N; i++)
                mac3(c0, c1, c2, m[i], C::p(k - i));
            s.l[k - N] = c0;
        }
        c0 = c1;
        c1 = c2;
        c2 = 0;
    }
    s.l[N - 1] = c0;
    fe_reduce_once(r, s);
}

/* fe_sqr_fast when FS, else fe_sqr (the MSM's run-time choice, as a template argument). */
template <bool FS, class C>
static __device__ __forceinline__ void fe_sqr_sel(fe<C> &r, const fe<C> &a) {
    if (FS)
        fe_sqr_fast(r, a);
    else
        fe_sqr(r, a);
}

/* r = a·R⁻¹: Montgomery form to the canonical integer. */
template <class C> static __device__ __forceinline__ void fe_from_mont(fe<C> &r, const fe<C> &a) {
    fe<C> one;
    fe_zero(one);
    one.l[0] = 1;
    fe_mul(r, a, one);
}

template <class C> static __device__ __forceinline__ fe<C> fe_load(const fe<C> *p) {
    fe<C> r;
    const uint4 *q = reinterpret_cast<const uint4 *>(p);
#pragma unroll
    for (int i = 0; i < C::N / 4; i++) {
        uint4 v = q[i];
        r.l[4 * i] = v.x;
        r.l[4 * i + 1] = v.y;
        r.l[4 * i + 2] = v.z;
        r.l[4 * i + 3] = v.w;
    }
    return r;
}

template <class C> static __device__ __forceinline__ void fe_store(fe<C> *p, const fe<C> &a) {
    uint4 *q = reinterpret_cast<uint4 *>(p);
#pragma unroll
    for (int i = 0; i < C::N / 4; i++)
        q[i] = make_uint4(a.l[4 * i], a.l[4 * i + 1], a.l[4 * i + 2], a.l[4 * i + 3]);
}

/* r = a^(p-2) = a⁻¹ (Fermat; 0 maps to 0): about 32N squarings and 16N multiplications, for the
 * occasional inversion (one per thread of a batch inversion), not for inner loops. */
template <class C> static __device__ void fe_inv_pow(fe<C> &r, const fe<C> &a) {
    fe<C> acc;
    fe_one(acc);
#pragma unroll 1
    for (int i = C::N - 1; i >= 0; i--) {
        uint32_t e = C::p(i) - (i == 0 ? 2u : 0u); /* p is odd and > 2: no borrow */
#pragma unroll 1
        for (int b = 31; b >= 0; b--) {
            fe_sqr(acc, acc);
            if ((e >> b) & 1)
                fe_mul(acc, acc, a);
        }
    }
    r = acc;
}

/* Lane-to-lane move of an element (__shfl_down_sync over the full warp). */
template <class C>
static __device__ __forceinline__ void fe_shfl_down(fe<C> &r, const fe<C> &a, unsigned off) {
#pragma unroll
    for (int i = 0; i < C::N; i++)
        r.l[i] = __shfl_down_sync(0xffffffffu, a.l[i], off);
}

#endif
