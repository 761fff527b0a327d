/*
 * Device elliptic-curve arithmetic (y² = x³ + b, a = 0) over a gpu_field.cuh field or a
 * gpu_fp2.cuh extension field, in XYZZ coordinates (x = X/ZZ, y = Y/ZZZ, ZZ³ = ZZZ², infinity:
 * ZZ = ZZZ = 0), the bucket representation of the MSM. The same templates serve G1 (C = an Fp
 * config) and G2 (C = fp2_cfg<Fp config>): the formulas never use b, so the twist (G2's
 * b' = 3/(9 + u) for BN254, 4(1 + u) for BLS12-381) does not appear. Affine points use the host
 * layout {x, y}, infinity x = y = 0. Formulas from the Explicit-Formulas Database
 * (g1p/shortw/xyzz): madd-2008-s (8M + 2S), add-2008-s (12M + 2S), dbl-2008-s-1 (6M + 4S),
 * mdbl-2008-s-1, each Y3 = A·B - C·D with one reduction for both products (fe_mul_sub); the
 * exceptional cases (equal points, opposite points, infinity) are branched on
 * explicitly, so every function is complete.
 */
#ifndef CUZK_GPU_CURVE_CUH
#define CUZK_GPU_CURVE_CUH

#include "gpu_fp2_split.cuh"

template <class C> struct ec_aff { fe<C> x, y; };
template <class C> struct ec_xyzz { fe<C> x, y, zz, zzz; };

template <class C> static __device__ __forceinline__ void xyzz_set_inf(ec_xyzz<C> &r) {
    fe_zero(r.x);
    fe_zero(r.y);
    fe_zero(r.zz);
    fe_zero(r.zzz);
}

template <class C> static __device__ __forceinline__ bool xyzz_is_inf(const ec_xyzz<C> &p) {
    return fe_is_zero(p.zz);
}

/* r = 2·(x, y) for an affine point (mdbl-2008-s-1). FS: squarings by fe_sqr_fast. */
template <class C, bool FS = false>
static __device__ __forceinline__ void xyzz_dbl_affine(ec_xyzz<C> &r, const fe<C> &x,
                                                       const fe<C> &y) {
    fe<C> u, v, w, s, m, t;
    fe_dbl(u, y);         /* U = 2Y */
    fe_sqr_sel<FS>(v, u); /* V = U² */
    fe_mul(w, u, v);      /* W = U·V */
    fe_mul(s, x, v);      /* S = X·V */
    fe_sqr_sel<FS>(t, x);
    fe_dbl(m, t);
    fe_add(m, m, t); /* M = 3X² */
    fe_sqr_sel<FS>(t, m);
    fe_sub(t, t, s);
    fe_sub(r.x, t, s); /* X3 = M² - 2S */
    fe_sub(t, s, r.x);
    fe_mul_sub(r.y, m, t, w, y); /* Y3 = M(S - X3) - W·Y */
    r.zz = v;
    r.zzz = w;
}

/* r = 2p (dbl-2008-s-1); infinity doubles to infinity. r may alias p. */
template <class C>
static __device__ __forceinline__ void xyzz_dbl_inl(ec_xyzz<C> &r, const ec_xyzz<C> &p) {
    if (xyzz_is_inf(p)) {
        xyzz_set_inf(r);
        return;
    }
    fe<C> u, v, w, s, m, t;
    fe_dbl(u, p.y);
    fe_sqr(v, u);
    fe_mul(w, u, v);
    fe_mul(s, p.x, v);
    fe_sqr(t, p.x);
    fe_dbl(m, t);
    fe_add(m, m, t);
    fe_mul(r.zz, v, p.zz);
    fe_mul(r.zzz, w, p.zzz);
    fe_sqr(t, m);
    fe_sub(t, t, s);
    fe_sub(r.x, t, s);
    fe_sub(t, s, r.x);
    fe_mul_sub(r.y, m, t, w, p.y); /* Y3 = M(S - X3) - W·Y; p.y is still intact */
}

/* The base-field products of the mixed addition, out of line. Inlined, the G1 madd is about
 * 5,700 instructions (90 KB), more than an SM's instruction cache keeps, and the accumulation
 * waited on instruction fetch ("no instruction": 2.3 of its 8.8 cycles per issued instruction,
 * ncu on the H200); with one copy of each product called from the formula the loop fits, and a
 * 2^26 BLS12-381 MSM takes 386 instead of 429 ms. By value, so ptxas keeps arguments and results
 * in registers (no stack frame). Fp2 (out of line as a whole) and the lane-pair Fp2 (whose
 * products are shorter and were not measured this way) stay inline. */
template <class C> static __device__ __noinline__ fe<C> fe_mul_call(fe<C> a, fe<C> b) {
    fe<C> r;
    fe_mul(r, a, b);
    return r;
}
template <class C, bool FS> static __device__ __noinline__ fe<C> fe_sqr_call(fe<C> a) {
    fe<C> r;
    fe_sqr_sel<FS>(r, a);
    return r;
}
/* The affine chord or tangent step once its slope λ is known (batch-affine accumulation, where
 * the slopes of many additions share one inversion): x3 = λ² - x1 - x2, y3 = λ(x1 - x3) - y1,
 * into (x1, y1); x2 = x1 for a tangent. */
template <class C>
static __device__ __forceinline__ void aff_step(fe<C> &x1, fe<C> &y1, const fe<C> &x2,
                                                const fe<C> &lam) {
    fe<C> x3 = fe_sqr_call<C, true>(lam), d, y3;
    fe_sub(x3, x3, x1);
    fe_sub(x3, x3, x2);
    fe_sub(d, x1, x3);
    y3 = fe_mul_call(lam, d);
    fe_sub(y1, y3, y1);
    x1 = x3;
}

template <class C>
static __device__ __forceinline__ void fe_mul_madd(fe<C> &r, const fe<C> &a, const fe<C> &b) {
    if constexpr (fe_outline<C>::value || fe_lanes<C>::value > 1)
        fe_mul(r, a, b);
    else
        r = fe_mul_call(a, b);
}
template <class C, bool FS>
static __device__ __forceinline__ void fe_sqr_madd(fe<C> &r, const fe<C> &a) {
    if constexpr (fe_outline<C>::value || fe_lanes<C>::value > 1)
        fe_sqr_sel<FS>(r, a);
    else
        r = fe_sqr_call<C, FS>(a);
}

/* acc += (x, neg ? -y : y) for an affine point that is not infinity (madd-2008-s). FS: squarings
 * by fe_sqr_fast. */
template <class C, bool FS>
static __device__ __forceinline__ void xyzz_add_affine_inl(ec_xyzz<C> &acc, const fe<C> &x,
                                                           const fe<C> &y0, bool neg) {
    fe<C> y;
    if (neg)
        fe_neg(y, y0);
    else
        y = y0;
    if (xyzz_is_inf(acc)) {
        acc.x = x;
        acc.y = y;
        fe_one(acc.zz);
        fe_one(acc.zzz);
        return;
    }
    fe<C> p, r, pp, ppp, q, t;
    fe_mul_madd(p, x, acc.zz);  /* U2 */
    fe_mul_madd(r, y, acc.zzz); /* S2 */
    fe_sub(p, p, acc.x);        /* P = U2 - X1 */
    fe_sub(r, r, acc.y);        /* R = S2 - Y1 */
    if (fe_is_zero(p)) {
        if (fe_is_zero(r))
            xyzz_dbl_affine<C, FS>(acc, x, y);
        else
            xyzz_set_inf(acc);
        return;
    }
    fe_sqr_madd<C, FS>(pp, p);
    fe_sqr_madd<C, FS>(t, r); /* R² */
    fe_mul_madd(ppp, p, pp);
    fe_mul_madd(q, acc.x, pp);
    fe_mul_madd(acc.zz, acc.zz, pp);
    fe_mul_madd(acc.zzz, acc.zzz, ppp);
    fe_sub(t, t, ppp);
    fe_sub(t, t, q);
    fe_sub(t, t, q); /* X3 = R² - PPP - 2Q */
    fe_sub(q, q, t);
    acc.x = t;
    fe_mul_sub(acc.y, r, q, acc.y, ppp); /* Y3 = R(Q - X3) - Y1·PPP */
}

/* acc += b (add-2008-s); either may be infinity. */
template <class C>
static __device__ __forceinline__ void xyzz_add_inl(ec_xyzz<C> &acc, const ec_xyzz<C> &b) {
    if (xyzz_is_inf(b))
        return;
    if (xyzz_is_inf(acc)) {
        acc = b;
        return;
    }
    fe<C> u1, s1, p, r, pp, ppp, q, t;
    fe_mul(u1, acc.x, b.zz);
    fe_mul(p, b.x, acc.zz);
    fe_sub(p, p, u1); /* P = U2 - U1 */
    fe_mul(s1, acc.y, b.zzz);
    fe_mul(r, b.y, acc.zzz);
    fe_sub(r, r, s1); /* R = S2 - S1 */
    if (fe_is_zero(p)) {
        if (fe_is_zero(r))
            xyzz_dbl_inl(acc, b);
        else
            xyzz_set_inf(acc);
        return;
    }
    fe_sqr(pp, p);
    fe_mul(ppp, p, pp);
    fe_mul(q, u1, pp);
    fe_mul(acc.zz, acc.zz, b.zz);
    fe_mul(acc.zz, acc.zz, pp);
    fe_mul(acc.zzz, acc.zzz, b.zzz);
    fe_mul(acc.zzz, acc.zzz, ppp);
    fe_sqr(t, r);
    fe_sub(t, t, ppp);
    fe_sub(t, t, q);
    fe_sub(acc.x, t, q);
    fe_sub(q, q, acc.x);
    fe_mul_sub(acc.y, r, q, s1, ppp); /* Y3 = R(Q - X3) - S1·PPP */
}

/* The entry points: the formulas above inlined (G1), or for an outlined field (fe_outline: G2)
 * one out-of-line copy per formula that every kernel calls. A G2 point does not fit the
 * registers anyway (the caller's accumulator goes through local memory either way), and
 * inlining every copy of the Fp2 formulas made a G2 MSM translation unit take ptxas many minutes.
 * The out-of-line copies take pointers and compute on copies of their inputs in their own frame,
 * writing the result once at the end: with reference parameters into the caller's frame, the
 * BN254 G2 reduction (a doubling inside xyzz_add, reached through a second out-of-line wrapper)
 * read its input through a pointer that held field data (compute-sanitizer: invalid __local__
 * read at 0x30644e72, the top word of p; the MSM of 2^18 bit-heavy scalars without the split). */
template <class C, bool FS>
static __device__ __noinline__ void xyzz_add_affine_out(ec_xyzz<C> *acc, const fe<C> *x,
                                                        const fe<C> *y, bool neg) {
    ec_xyzz<C> a = *acc;
    const fe<C> xx = *x, yy = *y;
    xyzz_add_affine_inl<C, FS>(a, xx, yy, neg);
    *acc = a;
}
template <class C>
static __device__ __noinline__ void xyzz_add_out(ec_xyzz<C> *acc, const ec_xyzz<C> *b) {
    ec_xyzz<C> a = *acc;
    const ec_xyzz<C> bb = *b;
    xyzz_add_inl(a, bb);
    *acc = a;
}
template <class C>
static __device__ __noinline__ void xyzz_dbl_out(ec_xyzz<C> *r, const ec_xyzz<C> *p) {
    ec_xyzz<C> a = *p;
    xyzz_dbl_inl(a, a);
    *r = a;
}

/* acc += (x, neg ? -y : y) for an affine point that is not infinity (madd-2008-s). */
template <class C, bool FS = false>
static __device__ __forceinline__ void xyzz_add_affine(ec_xyzz<C> &acc, const fe<C> &x,
                                                       const fe<C> &y, bool neg) {
    if constexpr (fe_outline<C>::value)
        xyzz_add_affine_out<C, FS>(&acc, &x, &y, neg);
    else
        xyzz_add_affine_inl<C, FS>(acc, x, y, neg);
}

/* acc += b (add-2008-s); either may be infinity. */
template <class C>
static __device__ __forceinline__ void xyzz_add(ec_xyzz<C> &acc, const ec_xyzz<C> &b) {
    if constexpr (fe_outline<C>::value)
        xyzz_add_out(&acc, &b);
    else
        xyzz_add_inl(acc, b);
}

/* r = 2p (dbl-2008-s-1); r may alias p. */
template <class C>
static __device__ __forceinline__ void xyzz_dbl(ec_xyzz<C> &r, const ec_xyzz<C> &p) {
    if constexpr (fe_outline<C>::value)
        xyzz_dbl_out(&r, &p);
    else
        xyzz_dbl_inl(r, p);
}

/* Loads a point of memory field C into register field RC: the whole point (RC = C), or this
 * lane's half of a lane-pair G2 point (gpu_fp2_split.cuh). */
template <class C, class RC>
static __device__ __forceinline__ void xyzz_load(ec_xyzz<RC> &r, const ec_xyzz<C> *p) {
    fe_load_lane(r.x, &p->x);
    fe_load_lane(r.y, &p->y);
    fe_load_lane(r.zz, &p->zz);
    fe_load_lane(r.zzz, &p->zzz);
}

/* Stores a point held in register field RC into memory of field C: the whole point (RC = C), or
 * this lane's half of a lane-pair G2 point (gpu_fp2_split.cuh). */
template <class C, class RC>
static __device__ __forceinline__ void xyzz_store(ec_xyzz<C> *p, const ec_xyzz<RC> &a) {
    fe_store_lane(&p->x, a.x);
    fe_store_lane(&p->y, a.y);
    fe_store_lane(&p->zz, a.zz);
    fe_store_lane(&p->zzz, a.zzz);
}

/* out[j] = the affine form of pts[j] for j < cnt (infinity: x = y = 0) with one field inversion
 * for all of them (Montgomery's trick): pre (cnt elements of scratch) gets the running products
 * of u_j = ZZ_j·ZZZ_j, the product is inverted once (Fermat), and the walk back gives each 1/u_j,
 * x = X·ZZZ/u, y = Y·ZZ/u. About 7 multiplications a point plus the one inversion. */
template <class C>
static __device__ void xyzz_batch_to_affine(ec_aff<C> *out, const ec_xyzz<C> *pts, fe<C> *pre,
                                            uint32_t cnt) {
    ec_xyzz<C> q;
    fe<C> acc, u, inv;
    fe_one(acc);
    for (uint32_t j = 0; j < cnt; j++) {
        xyzz_load(q, &pts[j]);
        if (xyzz_is_inf(q))
            fe_one(u);
        else
            fe_mul(u, q.zz, q.zzz);
        fe_mul(acc, acc, u);
        fe_store(&pre[j], acc);
    }
    fe_inv_pow(inv, acc);
    for (int j = (int)cnt - 1; j >= 0; j--) {
        fe<C> ui, x, y;
        xyzz_load(q, &pts[j]);
        if (j > 0) {
            fe<C> pv = fe_load(&pre[j - 1]);
            fe_mul(ui, inv, pv);
        } else {
            ui = inv;
        }
        if (xyzz_is_inf(q)) {
            fe_zero(x);
            fe_zero(y);
        } else {
            fe_mul(u, q.zz, q.zzz);
            fe_mul(inv, inv, u);
            fe_mul(x, q.x, q.zzz);
            fe_mul(x, x, ui);
            fe_mul(y, q.y, q.zz);
            fe_mul(y, y, ui);
        }
        fe_store(&out[j].x, x);
        fe_store(&out[j].y, y);
    }
}

/* Lane-to-lane move of a whole point (the warp reductions of gpu_msm.cu). */
template <class C>
static __device__ __forceinline__ void xyzz_shfl_down(ec_xyzz<C> &r, const ec_xyzz<C> &a,
                                                      unsigned off) {
    fe_shfl_down(r.x, a.x, off);
    fe_shfl_down(r.y, a.y, off);
    fe_shfl_down(r.zz, a.zz, off);
    fe_shfl_down(r.zzz, a.zzz, off);
}

#endif
