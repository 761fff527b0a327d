/*
 * Device arithmetic in Fp2 = Fp[u]/(u² + 1) over a gpu_field.cuh base field (the quadratic
 * extension of both curves: u² = -1 is the non-residue of BN254's and of BLS12-381's Fp2, as in
 * src/field/fp2_impl.h), so that the curve formulas of gpu_curve.cuh and the MSM kernels run
 * unchanged on G2 points.
 *
 * How: an Fp2 field is the config fp2_cfg<B> for a base config B, and fe<fp2_cfg<B>> is a partial
 * specialisation of fe holding {c0, c1} (the host's cz_<curve>_fp2 layout, byte for byte). Every
 * element operation the curve and MSM code use (fe_add, fe_mul, fe_load, ...) has an overload
 * here for fe<fp2_cfg<B>>; C++ overload resolution prefers these more specialised templates, so
 * code written as `template <class C> ... fe<C>` works for both Fp and Fp2 and the Fp code paths
 * (G1) are compiled exactly as before.
 *
 * Costs (M, S: base-field multiplication, squaring): mul four base products and two reductions
 * (about 3M, as Karatsuba); a·b - c·d (fe_mul_sub) eight products and two reductions (about 5M
 * instead of 6M); sqr 2M ((a0 + a1)(a0 - a1), 2·a0·a1); inverse one base inversion + 2M + 2S
 * ((a0 - a1·u)/(a0² + a1²)).
 */
#ifndef CUZK_GPU_FP2_CUH
#define CUZK_GPU_FP2_CUH

#include "gpu_field.cuh"

/* The Fp2 field over base field B; N is the number of u32 words of an element. */
template <class B> struct fp2_cfg {
    typedef B base;
    static constexpr int N = 2 * B::N;
};

template <class B> struct fe<fp2_cfg<B>> { fe<B> c0, c1; };

/* G2's point formulas are called out of line (see gpu_curve.cuh). */
template <class B> struct fe_outline<fp2_cfg<B>> { static constexpr bool value = true; };

typedef fp2_cfg<gbn254_fp_cfg> gbn254_fp2_cfg;
typedef fp2_cfg<gbls12381_fp_cfg> gbls12381_fp2_cfg;

template <class B> static __device__ __forceinline__ void fe_zero(fe<fp2_cfg<B>> &r) {
    fe_zero(r.c0);
    fe_zero(r.c1);
}

template <class B> static __device__ __forceinline__ void fe_one(fe<fp2_cfg<B>> &r) {
    fe_one(r.c0);
    fe_zero(r.c1);
}

template <class B> static __device__ __forceinline__ bool fe_is_zero(const fe<fp2_cfg<B>> &a) {
    return fe_is_zero(a.c0) && fe_is_zero(a.c1);
}

template <class B>
static __device__ __forceinline__ bool fe_eq(const fe<fp2_cfg<B>> &a, const fe<fp2_cfg<B>> &b) {
    return fe_eq(a.c0, b.c0) && fe_eq(a.c1, b.c1);
}

template <class B>
static __device__ __forceinline__ void fe_add(fe<fp2_cfg<B>> &r, const fe<fp2_cfg<B>> &a,
                                              const fe<fp2_cfg<B>> &b) {
    fe_add(r.c0, a.c0, b.c0);
    fe_add(r.c1, a.c1, b.c1);
}

template <class B>
static __device__ __forceinline__ void fe_sub(fe<fp2_cfg<B>> &r, const fe<fp2_cfg<B>> &a,
                                              const fe<fp2_cfg<B>> &b) {
    fe_sub(r.c0, a.c0, b.c0);
    fe_sub(r.c1, a.c1, b.c1);
}

template <class B>
static __device__ __forceinline__ void fe_dbl(fe<fp2_cfg<B>> &r, const fe<fp2_cfg<B>> &a) {
    fe_add(r, a, a);
}

template <class B>
static __device__ __forceinline__ void fe_neg(fe<fp2_cfg<B>> &r, const fe<fp2_cfg<B>> &a) {
    fe_neg(r.c0, a.c0);
    fe_neg(r.c1, a.c1);
}

/* (a0 + a1·u)(b0 + b1·u) = (a0b0 - a1b1) + (a0b1 + a1b0)·u, each coefficient a sum of two
 * products reduced once (fe_mul_add2; -a1b1 as a1·(p - b1)): 6N² + 2N base wide multiplies,
 * Karatsuba's 3M less N, with one negation instead of five additions and fewer live values.
 * r may alias a or b. */
template <class B>
static __device__ __forceinline__ void fe_mul(fe<fp2_cfg<B>> &r, const fe<fp2_cfg<B>> &a,
                                              const fe<fp2_cfg<B>> &b) {
    fe<B> nb1, c0;
    fe_p_minus(nb1, b.c1);
    fe_mul_add2(c0, a.c0, b.c0, a.c1, nb1);
    fe_mul_add2(r.c1, a.c0, b.c1, a.c1, b.c0);
    r.c0 = c0;
}

/* r = a·b - c·d in Fp2, each coefficient four products reduced once (fe_mul_add4):
 * (a·b - c·d).c0 = a0b0 - a1b1 - c0d0 + c1d1, .c1 = a0b1 + a1b0 - c0d1 - c1d0. r may alias any
 * operand. */
template <class B>
static __device__ __forceinline__ void fe_mul_sub(fe<fp2_cfg<B>> &r, const fe<fp2_cfg<B>> &a,
                                                  const fe<fp2_cfg<B>> &b, const fe<fp2_cfg<B>> &c,
                                                  const fe<fp2_cfg<B>> &d) {
    fe<B> nb1, nd0, nd1, c0;
    fe_p_minus(nb1, b.c1);
    fe_p_minus(nd0, d.c0);
    fe_p_minus(nd1, d.c1);
    fe_mul_add4(c0, a.c0, b.c0, a.c1, nb1, c.c0, nd0, c.c1, d.c1);
    fe_mul_add4(r.c1, a.c0, b.c1, a.c1, b.c0, c.c0, nd1, c.c1, nd0);
    r.c0 = c0;
}

/* (a0 + a1·u)² = (a0 + a1)(a0 - a1) + 2·a0·a1·u (2M). r may alias a. */
template <class B>
static __device__ __forceinline__ void fe_sqr(fe<fp2_cfg<B>> &r, const fe<fp2_cfg<B>> &a) {
    fe<B> s, d, m;
    fe_add(s, a.c0, a.c1);
    fe_sub(d, a.c0, a.c1);
    fe_mul(m, a.c0, a.c1);
    fe_mul(r.c0, s, d);
    fe_dbl(r.c1, m);
}

/* The MSM's "fast squaring" switch (fe_sqr_sel): Fp2 squaring is already the 2M form. */
template <class B>
static __device__ __forceinline__ void fe_sqr_fast(fe<fp2_cfg<B>> &r, const fe<fp2_cfg<B>> &a) {
    fe_sqr(r, a);
}

/* r = a⁻¹ = (a0 - a1·u)/(a0² + a1²) (0 maps to 0, as the base fe_inv_pow). */
template <class B> static __device__ void fe_inv_pow(fe<fp2_cfg<B>> &r, const fe<fp2_cfg<B>> &a) {
    fe<B> t0, t1;
    fe_sqr(t0, a.c0);
    fe_sqr(t1, a.c1);
    fe_add(t0, t0, t1);
    fe_inv_pow(t1, t0);
    fe_mul(r.c0, a.c0, t1);
    fe_mul(t1, a.c1, t1);
    fe_neg(r.c1, t1);
}

template <class B>
static __device__ __forceinline__ fe<fp2_cfg<B>> fe_load(const fe<fp2_cfg<B>> *p) {
    fe<fp2_cfg<B>> r;
    r.c0 = fe_load(&p->c0);
    r.c1 = fe_load(&p->c1);
    return r;
}

template <class B>
static __device__ __forceinline__ void fe_store(fe<fp2_cfg<B>> *p, const fe<fp2_cfg<B>> &a) {
    fe_store(&p->c0, a.c0);
    fe_store(&p->c1, a.c1);
}

template <class B>
static __device__ __forceinline__ void fe_shfl_down(fe<fp2_cfg<B>> &r, const fe<fp2_cfg<B>> &a,
                                                    unsigned off) {
    fe_shfl_down(r.c0, a.c0, off);
    fe_shfl_down(r.c1, a.c1, off);
}

#endif
