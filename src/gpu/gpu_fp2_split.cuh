/*
 * Fp2 in lane pairs: an element of Fp2 = Fp[u]/(u² + 1) held by two neighbouring lanes of a warp,
 * the even lane holding c0 and the odd lane c1 (lane parity = threadIdx.x & 1, blocks of a
 * multiple of 32 threads). A BLS12-381 G2 XYZZ point is 96 registers in one thread and does not
 * leave room for the addition formulas (255 registers with spills, 8 warps per SM: a G2 mixed
 * addition ran 5.4 times slower than a G1 one for 2.8 times the base products); split over two
 * lanes, each lane holds a G1-sized point and the formulas of gpu_curve.cuh run on it unchanged,
 * inlined, through the overloads below. The MSM's accumulation and ones sum use it
 * (gpu_msm_impl.cuh: a chunk of pairs is then two threads); the memory layout of points and
 * buckets is the one of fe<fp2_cfg<B>> (gpu_fp2.cuh), each lane reading and writing its half.
 *
 * A product needs the partner's coefficients: one __shfl_xor_sync per word over the pair's mask,
 * so a pair only has to be converged with itself. Every branch the formulas take depends on a
 * whole element (fe_is_zero compares both halves), so both lanes of a pair always take it
 * together. Per lane (base products and reductions): mul 2 + 1 (c0 = a0b0 + a1·(p - b1) or
 * c1 = a0b1 + a1b0), sqr 1 + 1 ((a0 + a1)(a0 - a1) or a0·2a1), a·b - c·d 4 + 1.
 */
#ifndef CUZK_GPU_FP2_SPLIT_CUH
#define CUZK_GPU_FP2_SPLIT_CUH

#include "gpu_field_inv.cuh"
#include "gpu_fp2.cuh"

/* Fp2 over base field B in lane pairs; fe<fp2s_cfg<B>> is this lane's coefficient. */
template <class B> struct fp2s_cfg {
    typedef B base;
    static constexpr int N = B::N;
};

template <class B> struct fe<fp2s_cfg<B>> { fe<B> c; };

/* Threads that hold one element of field C: 1, or 2 for the lane-pair Fp2. */
template <class C> struct fe_lanes { static constexpr int value = 1; };
template <class B> struct fe_lanes<fp2s_cfg<B>> { static constexpr int value = 2; };

typedef fp2s_cfg<gbn254_fp_cfg> gbn254_fp2s_cfg;
typedef fp2s_cfg<gbls12381_fp_cfg> gbls12381_fp2s_cfg;

/* 1 on the lane holding c1. */
static __device__ __forceinline__ unsigned pair_half() {
    return threadIdx.x & 1u;
}

/* The two lanes of this lane's pair. */
static __device__ __forceinline__ unsigned pair_mask() {
    return 3u << (threadIdx.x & 30u);
}

/* r = the partner lane's coefficient. */
template <class B> static __device__ __forceinline__ void fe_partner(fe<B> &r, const fe<B> &a) {
    unsigned m = pair_mask();
#pragma unroll
    for (int i = 0; i < B::N; i++)
        r.l[i] = __shfl_xor_sync(m, a.l[i], 1);
}

/* r = h ? a : b, limb by limb. */
template <class B>
static __device__ __forceinline__ void fe_pick(fe<B> &r, unsigned h, const fe<B> &a,
                                               const fe<B> &b) {
#pragma unroll
    for (int i = 0; i < B::N; i++)
        r.l[i] = h ? a.l[i] : b.l[i];
}

template <class B> static __device__ __forceinline__ void fe_zero(fe<fp2s_cfg<B>> &r) {
    fe_zero(r.c);
}

template <class B> static __device__ __forceinline__ void fe_one(fe<fp2s_cfg<B>> &r) {
    fe<B> one, zero;
    fe_one(one);
    fe_zero(zero);
    fe_pick(r.c, pair_half(), zero, one);
}

/* Whether the whole element is zero (the same answer on both lanes). */
template <class B> static __device__ __forceinline__ bool fe_is_zero(const fe<fp2s_cfg<B>> &a) {
    int z = fe_is_zero(a.c) ? 1 : 0;
    return (z & __shfl_xor_sync(pair_mask(), z, 1)) != 0;
}

/* Whether a = b as whole elements (the same answer on both lanes). */
template <class B>
static __device__ __forceinline__ bool fe_eq(const fe<fp2s_cfg<B>> &a, const fe<fp2s_cfg<B>> &b) {
    int e = fe_eq(a.c, b.c) ? 1 : 0;
    return (e & __shfl_xor_sync(pair_mask(), e, 1)) != 0;
}

/* r = a⁻¹ (0 for 0) through the norm: (c0 + c1·u)⁻¹ = (c0 - c1·u) / (c0² + c1²), one base-field
 * inversion that both lanes compute. r may alias a. */
template <class B>
static __device__ __forceinline__ void fe_inv_fast(fe<fp2s_cfg<B>> &r, const fe<fp2s_cfg<B>> &a) {
    fe<B> sq, osq, n;
    fe_sqr(sq, a.c);
    fe_partner(osq, sq);
    fe_add(n, sq, osq);
    fe_inv_fast(n, n);
    fe_mul(r.c, a.c, n);
    if (pair_half())
        fe_neg(r.c, r.c);
}

template <class B>
static __device__ __forceinline__ void fe_add(fe<fp2s_cfg<B>> &r, const fe<fp2s_cfg<B>> &a,
                                              const fe<fp2s_cfg<B>> &b) {
    fe_add(r.c, a.c, b.c);
}

template <class B>
static __device__ __forceinline__ void fe_sub(fe<fp2s_cfg<B>> &r, const fe<fp2s_cfg<B>> &a,
                                              const fe<fp2s_cfg<B>> &b) {
    fe_sub(r.c, a.c, b.c);
}

template <class B>
static __device__ __forceinline__ void fe_dbl(fe<fp2s_cfg<B>> &r, const fe<fp2s_cfg<B>> &a) {
    fe_add(r.c, a.c, a.c);
}

template <class B>
static __device__ __forceinline__ void fe_neg(fe<fp2s_cfg<B>> &r, const fe<fp2s_cfg<B>> &a) {
    fe_neg(r.c, a.c);
}

/* c0 = a0b0 + a1·(p - b1) on the even lane, c1 = a1b0 + a0b1 on the odd one: with o the
 * partner's coefficients, a·x + oa·y for (x, y) = (b, p - ob) or (ob, b). r may alias a or b. */
template <class B>
static __device__ __forceinline__ void fe_mul(fe<fp2s_cfg<B>> &r, const fe<fp2s_cfg<B>> &a,
                                              const fe<fp2s_cfg<B>> &b) {
    fe<B> oa, ob, nob, x, y;
    unsigned h = pair_half();
    fe_partner(oa, a.c);
    fe_partner(ob, b.c);
    fe_p_minus(nob, ob);
    fe_pick(x, h, ob, b.c);
    fe_pick(y, h, b.c, nob);
    fe_mul_add2(r.c, a.c, x, oa, y);
}

/* c0 = (a0 + a1)(a0 - a1), c1 = a1·(a0 + a0). r may alias a. */
template <class B>
static __device__ __forceinline__ void fe_sqr(fe<fp2s_cfg<B>> &r, const fe<fp2s_cfg<B>> &a) {
    fe<B> oa, s, d, u, v;
    unsigned h = pair_half();
    fe_partner(oa, a.c);
    fe_add(s, a.c, oa);
    fe_sub(d, a.c, oa);
    fe_add(oa, oa, oa);
    fe_pick(u, h, a.c, s);
    fe_pick(v, h, oa, d);
    fe_mul(r.c, u, v);
}

/* The MSM's "fast squaring" switch (fe_sqr_sel): the lanes' products are of distinct factors. */
template <class B>
static __device__ __forceinline__ void fe_sqr_fast(fe<fp2s_cfg<B>> &r, const fe<fp2s_cfg<B>> &a) {
    fe_sqr(r, a);
}

/* r = a·b - c·d: the even lane a0b0 - a1b1 - c0d0 + c1d1, the odd one a1b0 + a0b1 - c1d0 - c0d1,
 * four products reduced once (fe_mul_add4). r may alias any operand. */
template <class B>
static __device__ __forceinline__ void
fe_mul_sub(fe<fp2s_cfg<B>> &r, const fe<fp2s_cfg<B>> &a, const fe<fp2s_cfg<B>> &b,
           const fe<fp2s_cfg<B>> &c, const fe<fp2s_cfg<B>> &d) {
    fe<B> oa, ob, oc, od, nob, nd, nod, x1, x2, x3, x4;
    unsigned h = pair_half();
    fe_partner(oa, a.c);
    fe_partner(ob, b.c);
    fe_partner(oc, c.c);
    fe_partner(od, d.c);
    fe_p_minus(nob, ob);
    fe_p_minus(nd, d.c);
    fe_p_minus(nod, od);
    fe_pick(x1, h, ob, b.c);
    fe_pick(x2, h, b.c, nob);
    fe_pick(x3, h, nod, nd);
    fe_pick(x4, h, nd, od);
    fe_mul_add4(r.c, a.c, x1, oa, x2, c.c, x3, oc, x4);
}

/* This lane's half of an Fp2 element in memory (the fe<fp2_cfg<B>> layout {c0, c1}), and the
 * plain load and store for every other field (the register field is the memory field). */
template <class B>
static __device__ __forceinline__ void fe_load_lane(fe<fp2s_cfg<B>> &r, const fe<fp2_cfg<B>> *p) {
    r.c = fe_load(&p->c0 + pair_half());
}
template <class C> static __device__ __forceinline__ void fe_load_lane(fe<C> &r, const fe<C> *p) {
    r = fe_load(p);
}
template <class B>
static __device__ __forceinline__ void fe_store_lane(fe<fp2_cfg<B>> *p, const fe<fp2s_cfg<B>> &a) {
    fe_store(&p->c0 + pair_half(), a.c);
}
template <class C> static __device__ __forceinline__ void fe_store_lane(fe<C> *p, const fe<C> &a) {
    fe_store(p, a);
}

#endif
