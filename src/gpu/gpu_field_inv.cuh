/*
 * Modular inversion for the fields of gpu_field.cuh by Bernstein and Yang's "safegcd" divsteps
 * (ePrint 2019/266, "Fast constant-time gcd computation and modular inversion") in the half-delta
 * variant and the signed radix-2^30 representation that Wuille describes for libsecp256k1
 * ("The safegcd implementation in libsecp256k1 explained", doc/safegcd_implementation.md),
 * written here for 32-bit GPU lanes. fe_inv_fast(r, a) gives exactly what fe_inv_pow does: the
 * Montgomery form of a⁻¹ for a in Montgomery form, 0 for 0.
 *
 * The algorithm. With f = p (odd), g = x, a half-delta divstep is
 *   δ > 0 and g odd:  (δ, f, g) <- (1 - δ, g, (g - f)/2)
 *   g odd:            (δ, f, g) <- (1 + δ, f, (g + f)/2)
 *   g even:           (δ, f, g) <- (1 + δ, f, g/2)
 * starting at δ = 1/2 (kept as ζ = -(δ + 1/2), so "δ > 0" is the sign bit of ζ). f stays odd and
 * g reaches 0 with f = ±gcd(p, x) = ±1. The choices of 30 divsteps depend only on the low 30
 * bits of f and g, so they run on one 32-bit word of each (divsteps30), branch-free, with a
 * select mask per step so that the 32 lanes of a warp, each inverting its own operand, stay in
 * lockstep. They yield the transition matrix T = [u v; q r] with [f'; g'] = T·[f; g] / 2^30,
 * |u| + |v| <= 2^30 and |q| + |r| <= 2^30, which is then applied to the full-size f and g
 * (update_fg: exact, as T·[f; g] is a multiple of 2^30) and to the Bezout coefficients d and e
 * (update_de), kept with f ≡ d·x/c and g ≡ e·x/c (mod p): d' = (u·d + v·e)/2^30 mod p, the
 * division done Montgomery-style by adding the multiple m·p (m < 2^30) that clears the low 30
 * bits. Starting with d = 0 and e = c = R² mod p (R = 2^(32N)), the end f = ±1 leaves
 * d = ±c/x = ±R²/(a·R) = ±R/a: the Montgomery form of a⁻¹, negated when f = -1 (normalize).
 *
 * Representation: f, g, d and e are L = ceil((32N + 1)/30) signed limbs of 30 bits (13 for
 * BLS12-381 Fp), the low L - 1 in [0, 2^30) and the top one signed, so the division by 2^30 of
 * the matrix products is dropping a limb, and each limb product u·f_i (both below 2^30 in
 * magnitude) is one 32 x 32 -> 64-bit signed multiply-add into a 64-bit column (IMAD.WIDE).
 * Bounds (Wuille's): |f|, |g| <= p; d, e in (-2p, p) on entry and exit of update_de (the
 * multiple of p added is chosen so, using the signs of d and e); every column sum stays below
 * 2^62 in magnitude, so int64 holds it.
 *
 * Cost. The number of divsteps until g = 0 varies with the operand (the operands are public
 * coordinates, so that is acceptable): for BLS12-381 Fp about 763 on average, so 26 batches of
 * 30 and at most 27 in 200,000 random operands (17.7 and 18 for the 254- and 255-bit fields;
 * tests/gpu/test_gpu_inv.cu prints them). A warp runs the most any of its lanes needs: the only
 * divergence is at the exit of the batch loop, tested once a batch on the full g. A divstep is
 * about 20 ALU instructions on its three word pairs (f, g), (u, q), (v, r); a batch's update_de
 * and update_fg are 6L + 4L wide multiply-adds (130 for L = 13, against the 300 of an fe_mul)
 * and about 12L shifts and masks, so a batch is some 900 instructions, mostly on the integer
 * ALU pipe, against an fe_mul's 300 wide multiply-adds on the FMA pipe.
 *
 * Everything is __host__ __device__ over integer C++ (no PTX), so tests/gpu/test_gpu_inv.cu
 * checks it on the CPU against GMP. The constants (p in radix 2^30, p⁻¹ mod 2^30, R² mod p) are
 * derived from the u32 limbs of gpu_consts.h at compile time (fe_inv_params_of) and read from
 * constant memory on the device, from a constexpr copy on the host (fe_inv_params_for).
 */
#ifndef CUZK_GPU_FIELD_INV_CUH
#define CUZK_GPU_FIELD_INV_CUH

#include <stdint.h>

#include "gpu_field.cuh"

#define CZ_INV_BITS 30
#define CZ_INV_MASK 0x3fffffff

/* The constants of the inversion in a field of N 32-bit limbs. */
template <int N> struct fe_inv_params {
    static constexpr int L = (32 * N + 1 + CZ_INV_BITS - 1) / CZ_INV_BITS;
    int32_t p[L];     /* p in radix 2^30 */
    int32_t r2[L];    /* R² mod p in radix 2^30, R = 2^(32N) */
    uint32_t p_inv30; /* p⁻¹ mod 2^30 */
};

/* The transition matrix of 30 divsteps, times 2^30. */
struct fe_inv_trans {
    int32_t u, v, q, r;
};

/* r = the N 32-bit words a in L limbs of 30 bits (the top limb takes every bit left). */
template <int N, int L>
static constexpr __host__ __device__ __forceinline__ void inv_limbs30(int32_t *r,
                                                                      const uint32_t *a) {
#pragma unroll
    for (int j = 0; j < L; j++) {
        const int bit = CZ_INV_BITS * j, w = bit / 32, s = bit % 32;
        uint64_t v = a[w];
        if (w + 1 < N)
            v |= (uint64_t)a[w + 1] << 32;
        v >>= s;
        r[j] = (int32_t)(j < L - 1 ? (uint32_t)v & CZ_INV_MASK : (uint32_t)v);
    }
}

/* r = the N 32-bit words of x, given in L limbs of 30 bits in [0, 2^30) (x < 2^(32N)). */
template <int N, int L>
static __host__ __device__ __forceinline__ void inv_words32(uint32_t *r, const int32_t *x) {
#pragma unroll
    for (int i = 0; i < N; i++) {
        const int j = 32 * i / CZ_INV_BITS, s = 32 * i % CZ_INV_BITS; /* s even, <= 28 */
        uint64_t v = (uint32_t)x[j];
        if (j + 1 < L)
            v |= (uint64_t)(uint32_t)x[j + 1] << CZ_INV_BITS;
        r[i] = (uint32_t)(v >> s);
    }
}

/* The constants of fe_inv_params from p's N words: p odd, p < 2^(32N - 1). */
template <int N>
static constexpr __host__ __device__ fe_inv_params<N> fe_inv_params_of(const uint32_t (&p)[N]) {
    fe_inv_params<N> c{};
    uint32_t t[N] = {};
    inv_limbs30<N, fe_inv_params<N>::L>(c.p, p);
    /* Newton's iteration doubles the correct low bits: 3 (p·p ≡ 1 mod 8) -> 6 -> 12 -> 24 -> 48 */
    uint32_t x = p[0];
    for (int i = 0; i < 4; i++)
        x *= 2u - p[0] * x;
    c.p_inv30 = x & CZ_INV_MASK;
    /* R² mod p: 1 doubled 64N times mod p (2t < 2^(32N) for t < p: no carry out) */
    t[0] = 1;
    for (int k = 0; k < 64 * N; k++) {
        uint32_t carry = 0, borrow = 0, s[N] = {};
        for (int i = 0; i < N; i++) {
            const uint32_t top = t[i] >> 31;
            t[i] = t[i] << 1 | carry;
            carry = top;
        }
        for (int i = 0; i < N; i++) {
            const uint64_t d = (uint64_t)t[i] - p[i] - borrow;
            s[i] = (uint32_t)d;
            borrow = (uint32_t)(d >> 63);
        }
        if (!borrow)
            for (int i = 0; i < N; i++)
                t[i] = s[i];
    }
    inv_limbs30<N, fe_inv_params<N>::L>(c.r2, t);
    return c;
}

/* The constants of each field of gpu_field.cuh: in constant memory for the device, a constexpr
 * copy for the host; fe_inv_params_for<C>() picks the one of the side compiling. */
#define CZ_GPU_FIELD_INV_PARAMS(CFG, NAME, PINIT)                                                  \
    static __constant__ fe_inv_params<CFG::N> NAME##_dev = fe_inv_params_of<CFG::N>(PINIT);        \
    static constexpr fe_inv_params<CFG::N> NAME##_host = fe_inv_params_of<CFG::N>(PINIT);          \
    static __device__ __forceinline__ const fe_inv_params<CFG::N> &fe_inv_params_dev(CFG) {        \
        return NAME##_dev;                                                                         \
    }                                                                                              \
    static __host__ __forceinline__ const fe_inv_params<CFG::N> &fe_inv_params_host(CFG) {         \
        return NAME##_host;                                                                        \
    }

CZ_GPU_FIELD_INV_PARAMS(gbn254_fp_cfg, cz_gpu_bn254_fp_inv, CZ_GPU_BN254_FP_P)
CZ_GPU_FIELD_INV_PARAMS(gbn254_fr_cfg, cz_gpu_bn254_fr_inv, CZ_GPU_BN254_FR_P)
CZ_GPU_FIELD_INV_PARAMS(gbls12381_fp_cfg, cz_gpu_bls12381_fp_inv, CZ_GPU_BLS12381_FP_P)
CZ_GPU_FIELD_INV_PARAMS(gbls12381_fr_cfg, cz_gpu_bls12381_fr_inv, CZ_GPU_BLS12381_FR_P)

template <class C>
static __host__ __device__ __forceinline__ const fe_inv_params<C::N> &fe_inv_params_for() {
#ifdef __CUDA_ARCH__
    return fe_inv_params_dev(C());
#else
    return fe_inv_params_host(C());
#endif
}

/* 30 half-delta divsteps on the low words f and g of f and g (f odd), from ζ = -(δ + 1/2); returns
 * the new ζ and sets t. Branch-free, with masks: c1 all ones when δ > 0, c2 when g is odd, c3 when
 * both. g gets g ± f when odd (-f when c1: ((f ^ c1) & c2) - c3 is (c1 ? -f : f) when g is odd, 0
 * otherwise, one LOP3 and one IADD3), and when c3 f gets the new g, g - f: that is the old g, so
 * f and g are swapped. The matrix rows (u, v) and (q, r) follow f and g; instead of halving the
 * row of g with g, the row of f is doubled, which builds T·2^30 in integers. About 20 ALU
 * instructions a step. */
static __host__ __device__ __forceinline__ int32_t divsteps30(int32_t zeta, uint32_t f, uint32_t g,
                                                              fe_inv_trans &t) {
    uint32_t u = 1, v = 0, q = 0, r = 1;
#pragma unroll
    for (int i = 0; i < CZ_INV_BITS; i++) {
        const uint32_t c1 = (uint32_t)(zeta >> 31);
        const uint32_t c2 = (uint32_t)((int32_t)(g << 31) >> 31);
        const uint32_t c3 = c1 & c2;
        g += ((f ^ c1) & c2) - c3;
        q += ((u ^ c1) & c2) - c3;
        r += ((v ^ c1) & c2) - c3;
        zeta = (int32_t)(((uint32_t)zeta ^ c3) - 1u);
        f += g & c3;
        u += q & c3;
        v += r & c3;
        g >>= 1;
        u <<= 1;
        v <<= 1;
    }
    t.u = (int32_t)u;
    t.v = (int32_t)v;
    t.q = (int32_t)q;
    t.r = (int32_t)r;
    return zeta;
}

/* (f, g) = T·(f, g) / 2^30, exact (the low 30 bits of both column-0 sums are zero). */
template <int L>
static __host__ __device__ __forceinline__ void update_fg(int32_t *f, int32_t *g,
                                                          const fe_inv_trans &t) {
    int64_t cf = (int64_t)t.u * f[0] + (int64_t)t.v * g[0];
    int64_t cg = (int64_t)t.q * f[0] + (int64_t)t.r * g[0];
    cf >>= CZ_INV_BITS;
    cg >>= CZ_INV_BITS;
#pragma unroll
    for (int i = 1; i < L; i++) {
        cf += (int64_t)t.u * f[i] + (int64_t)t.v * g[i];
        cg += (int64_t)t.q * f[i] + (int64_t)t.r * g[i];
        f[i - 1] = (int32_t)((uint32_t)cf & CZ_INV_MASK);
        g[i - 1] = (int32_t)((uint32_t)cg & CZ_INV_MASK);
        cf >>= CZ_INV_BITS;
        cg >>= CZ_INV_BITS;
    }
    f[L - 1] = (int32_t)cf;
    g[L - 1] = (int32_t)cg;
}

/* (d, e) = T·(d, e) / 2^30 mod p, from and to (-2p, p): md·p and me·p are added, md and me chosen
 * so that the column-0 sums end in 30 zero bits. They start at u (v) when d (e) is negative,
 * which keeps the result above -2p (Wuille's bound), and lose what the low bits ask for. */
template <int N>
static __host__ __device__ __forceinline__ void
update_de(int32_t *d, int32_t *e, const fe_inv_trans &t, const fe_inv_params<N> &P) {
    constexpr int L = fe_inv_params<N>::L;
    const int32_t sd = d[L - 1] >> 31, se = e[L - 1] >> 31;
    int32_t md = (t.u & sd) + (t.v & se), me = (t.q & sd) + (t.r & se);
    int64_t cd = (int64_t)t.u * d[0] + (int64_t)t.v * e[0];
    int64_t ce = (int64_t)t.q * d[0] + (int64_t)t.r * e[0];
    md -= (int32_t)((P.p_inv30 * (uint32_t)cd + (uint32_t)md) & CZ_INV_MASK);
    me -= (int32_t)((P.p_inv30 * (uint32_t)ce + (uint32_t)me) & CZ_INV_MASK);
    cd += (int64_t)P.p[0] * md;
    ce += (int64_t)P.p[0] * me;
    cd >>= CZ_INV_BITS;
    ce >>= CZ_INV_BITS;
#pragma unroll
    for (int i = 1; i < L; i++) {
        cd += (int64_t)t.u * d[i] + (int64_t)t.v * e[i] + (int64_t)P.p[i] * md;
        ce += (int64_t)t.q * d[i] + (int64_t)t.r * e[i] + (int64_t)P.p[i] * me;
        d[i - 1] = (int32_t)((uint32_t)cd & CZ_INV_MASK);
        e[i - 1] = (int32_t)((uint32_t)ce & CZ_INV_MASK);
        cd >>= CZ_INV_BITS;
        ce >>= CZ_INV_BITS;
    }
    d[L - 1] = (int32_t)cd;
    e[L - 1] = (int32_t)ce;
}

/* Carries of limbs in (-2^31, 2^31) into the next, leaving the low L - 1 in [0, 2^30). */
template <int L> static __host__ __device__ __forceinline__ void inv_carry(int32_t *d) {
#pragma unroll
    for (int i = 0; i < L - 1; i++) {
        d[i + 1] += d[i] >> CZ_INV_BITS;
        d[i] &= CZ_INV_MASK;
    }
}

/* d = d·sign mod p in [0, p), from d in (-2p, p) and sign = f's top limb (f = ±1): p is added
 * when d < 0 (to (-p, p)), d negated when f = -1, and p added again when d < 0. */
template <int N>
static __host__ __device__ __forceinline__ void inv_normalize(int32_t *d, int32_t sign,
                                                              const fe_inv_params<N> &P) {
    constexpr int L = fe_inv_params<N>::L;
    int32_t add = d[L - 1] >> 31;
    const int32_t neg = sign >> 31;
#pragma unroll
    for (int i = 0; i < L; i++)
        d[i] = ((d[i] + (P.p[i] & add)) ^ neg) - neg;
    inv_carry<L>(d);
    add = d[L - 1] >> 31;
#pragma unroll
    for (int i = 0; i < L; i++)
        d[i] += P.p[i] & add;
    inv_carry<L>(d);
}

/* r = the Montgomery form of a⁻¹ for the Montgomery form a (0 for 0), with the constants P of
 * a's field; returns the number of 30-divstep batches run (for the tests' statistics). */
template <class C>
static __host__ __device__ __forceinline__ int fe_inv_fast_with(fe<C> &r, const fe<C> &a,
                                                                const fe_inv_params<C::N> &P) {
    constexpr int N = C::N, L = fe_inv_params<N>::L;
    int32_t f[L], g[L], d[L], e[L], zeta = -1, batches = 0;
    uint32_t nz;
#pragma unroll
    for (int i = 0; i < L; i++) {
        f[i] = P.p[i];
        d[i] = 0;
        e[i] = P.r2[i];
    }
    inv_limbs30<N, L>(g, a.l);
#pragma unroll 1
    for (;;) {
        nz = 0;
#pragma unroll
        for (int i = 0; i < L; i++)
            nz |= (uint32_t)g[i];
        if (nz == 0)
            break;
        fe_inv_trans t;
        zeta = divsteps30(zeta, (uint32_t)f[0], (uint32_t)g[0], t);
        update_de<N>(d, e, t, P);
        update_fg<L>(f, g, t);
        batches++;
    }
    inv_normalize<N>(d, f[L - 1], P);
    inv_words32<N, L>(r.l, d);
    return batches;
}

/* r = a⁻¹ (Montgomery form in and out, 0 maps to 0), the same value as fe_inv_pow's: about 26
 * batches of 30 divsteps for BLS12-381 Fp (see the file comment). r may alias a. */
template <class C>
static __host__ __device__ __forceinline__ void fe_inv_fast(fe<C> &r, const fe<C> &a) {
    fe_inv_fast_with(r, a, fe_inv_params_for<C>());
}

#endif
