/*
 * Multi-scalar multiplication on the GPU (Pippenger), G1 and G2 of BN254 and BLS12-381 (API:
 * cuzk/gpu.h), as templates over a group's traits H (gpu_msm.cuh): the coordinate field is Fp for
 * G1 and Fp2 for G2 (gpu_fp2.cuh), every kernel below is the same code for both. Instantiated by
 * gpu_msm.cu (G1 of both curves) and gpu_msm_g2_bn254.cu / gpu_msm_g2_bls12381.cu (one
 * translation unit each, so the three compile in parallel). G2's kernels are compiled without
 * -Xptxas -warn-spills: a BLS12-381 G2 XYZZ point is 96 registers, and the addition formulas'
 * temporaries do not fit in the 255 registers a thread can have (see docs/gpu.md, G2 MSM).
 *
 * Split (bit-heavy witnesses, on by a cheap count, or forced by cz_tuning.msm_split): classify_kern
 * reads every scalar once (Montgomery zero and one are compared limb by limb) and compacts the
 * indices of the ones and of the "others" (block-aggregated atomics, so the order is not
 * deterministic; the sum is). Zeros are dropped; the ones are summed by ones_kern (each thread a
 * chunk of mixed additions into XYZZ, then a pairwise tree), or for G1 by ones_ba_kern (streams
 * of batch-affine additions, the accumulation's choice; see sum_ones); the others go through
 * Pippenger below,
 * reading scalars and bases through the index list. Auto mode splits when zeros + ones >= n/8.
 *
 * Pippenger with W windows of balanced widths (win_tab: the first nlow of c bits, the rest c + 1,
 * summing to exactly T bits; W = ceil(T / c_max) for the width c_max of window_bits, or
 * cz_tuning's override): every scalar is cut into W signed digits d in (-2^(b-1), 2^(b-1)] for a
 * window of b bits (a digit above 2^(b-1) becomes d - 2^b with a carry into the next window; a
 * scalar below 2^(T-1) leaves no carry out of the top). With the r - s trick a scalar s > r/2 is
 * replaced by r - s with every digit negated, so s < r/2 and T = bits of r (255 for BLS12-381, 254
 * for BN254) instead of bits + 1: at 2^26 this gives W = 12 (21/22-bit windows) where equal 20-bit
 * windows needed 13 (8 % fewer bucket additions; the reduction's larger bucket count costs less
 * than that, see docs/gpu.md). This uses that every base has order r (G1 points). A window of b
 * bits has 2^(b-1) buckets; the buckets of all windows are packed (window w from win_base(w)).
 * Windows are processed in groups of G with n·G <= 2^30 (so 2^27 points fit the 32-bit sort and its
 * memory stays bounded); per group:
 *
 *   1. digits_kern: one thread per scalar writes G (key, value) pairs: key = bucket index in the
 *      group (win_base(w) - win_base(w0) + |d| - 1, or the sentinel = the group's bucket count for
 *      d = 0), value = base index | sign << 31.
 *   2. CUB radix sort of the n·G pairs on the low ceil(log2(nb + 1)) key bits (nb = the group's
 *      buckets); bounds_kern finds each bucket's run by binary search; the number of non-sentinel
 *      pairs V = start[nb] is read back (4 bytes).
 *   3. acc_kern, load-balanced: chunk t (one thread; for G2 a lane pair, gpu_fp2_split.cuh) adds
 *      the pairs [t·L, t·L + L) of the sorted array (L = ceil(V / K), K = as many whole waves
 *      of the resident threads as fit in 2^19, so the last wave is not a partial one, and leave
 *      L >= ACC_MIN_LEN, one wave at least) with madd-2008-s into an XYZZ accumulator, flushing
 *      at every bucket change. A bucket that lies inside the chunk is stored directly;
 *      one that crosses the chunk's start goes to part[2t], one that starts inside and crosses
 *      its end to part[2t + 1] (and the chunk "owns" it). combine_kern: one thread per owning
 *      chunk sums its part[2t + 1] and the head partials of the following chunks it covers,
 *      serially for up to 32 of them; longer runs are first folded by a tree (combine_tree_kern:
 *      a thread per chunk finds the heads of a level, its warp folds 512 partials for each).
 *      So a skewed scalar set (one bucket holding every point) costs the same as a uniform one.
 *      Batch-affine variant (cz_tuning.gpu_msm_accumulation; by default for BLS12-381 G1
 *      where each stream gets at least BA_AUTO_LEN pairs a pass, large MSMs of dense scalars):
 *      msm_acc_ba_kern runs one wave of threads (lane pairs for G2), each with K streams
 *      (BA_STREAMS_MORE where the device's free memory allows it without fewer windows a pass,
 *      else BA_STREAMS); a stream is a logical chunk c = j·T + t (stream j of thread t, T
 *      threads) of L = ceil(V / (K x the resident threads)) pairs, with the flush rules, owner
 *      and combine above unchanged per logical chunk. The sorted pairs are first transposed
 *      (msm_ba_transpose_kern, into the sort's spare buffers) so that a round's loads are
 *      coalesced across a warp's streams. A stream's accumulator is affine; per round every
 *      stream takes its next pair, and the additions of the round share one inversion
 *      (fe_inv_fast, gpu_field_inv.cuh) by Montgomery's trick; equal points join the batch as a
 *      tangent, opposite ones empty the accumulator (see the kernel). A flush stores the affine
 *      point as XYZZ (ZZ = ZZZ = 1).
 *   4. Bucket reduction Σ_k k·B_k per window, in segments of ls buckets (a power of two dividing
 *      every window, about 2^16 or 2^17 segments in all, reduce_segs), one thread each over the
 *      packed buckets: the running-sum trick inside a segment (segment_kern), (j·ls)·(segment
 *      sum) for the segment's index j in its window by double-and-add (weight_kern), a pairwise
 *      tree per window (wtree_kern, log2 of the largest window's segment count launches).
 *   5. The W window sums go to the host, which combines them by Horner with the CPU curve code
 *      (doubling by each window's width).
 *
 * cz_tuning.msm_profile prints per-phase times (CUDA events, with a synchronisation per phase) to
 * stderr. Memory per call (stream-ordered pool): 16·n·G bytes of pairs + CUB scratch + 4·(B+1)
 * bounds + B XYZZ buckets (B = Σ_w 2^(b_w - 1), 15·2^20 at 2^26 BLS12-381) + 2·C partials and C
 * owners (C = 2^19 chunks; batch-affine: max(2^19, K x the resident threads)) + (2·S + W) segment
 * points; batch-affine adds 3 field elements (x, y, running product) per stream; the split adds
 * 9·n bytes.
 */
#ifndef CUZK_GPU_MSM_IMPL_CUH
#define CUZK_GPU_MSM_IMPL_CUH

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cub/device/device_radix_sort.cuh>

#include "cuzk/tuning.h"
#include "gpu_field_inv.cuh"
#include "gpu_msm.cuh"

#define ACC_CHUNKS (1u << 19) /* target number of accumulation threads */
/* madd: fewer waves of chunks where the pairs would give a chunk fewer than this many; the
 * combine step costs an addition for nearly every chunk, which at 2^19 chunks of a dozen pairs
 * (the G2 MSM over a PoRep partition's 436 K full-width scalars of B) took 7 ms against the
 * accumulation's 10 */
#define ACC_MIN_LEN 128u
#define NO_OWNER    0xffffffffu
/* Reduction threads for an MSM of group G over n points: 2^17 segments for G1 MSMs of at least
 * 2^25 points (0.25 % faster at 2^26 BLS12-381 and 0.5 % BN254 than 2^16 on the H200), 2^16
 * otherwise: with 2^17 for every MSM, the G2 MSM and the bit-heavy G1 MSMs of a 2^27 PoRep
 * partition took 12 and 6 ms more (bench/results/2026-12-01-h200-variants-before-ca5c72d.md,
 * 2026-12-01-h200-after-restructuring-6f5857a.md). */
static size_t reduce_segs(int group, size_t n) {
    return group == 1 && n >= ((size_t)1 << 25) ? (size_t)1 << 17 : (size_t)1 << 16;
}

/* Stores a finished run of key to buckets / part[2t] / part[2t + 1] (see the file comment, step
 * 3): inside the chunk, crossing its start, or starting inside and crossing its end. acc is in
 * the register field RF (FP, or G2 in lane pairs: then each lane stores its half). */
template <class FP, class RF>
static __device__ __forceinline__ void
acc_flush(ec_xyzz<FP> *buckets, ec_xyzz<FP> *part, uint32_t *owner, const uint32_t *start,
          uint32_t t, uint32_t key, uint32_t lo, uint32_t hi, const ec_xyzz<RF> &acc) {
    uint32_t sb = start[key], eb = start[key + 1];
    if (sb < lo) {
        xyzz_store(&part[2 * (size_t)t], acc);
    } else if (eb > hi) {
        xyzz_store(&part[2 * (size_t)t + 1], acc);
        owner[t] = key;
    } else {
        xyzz_store(&buckets[key], acc);
    }
}

/* ---- kernels ---- */

/* Classifies s[i] as 0, 1 or other; appends i to ones or others (counts in cnt[0] = others,
 * cnt[1] = ones). */
template <class FR>
__global__ void __launch_bounds__(256)
    msm_classify_kern(uint32_t *others, uint32_t *ones, uint32_t *cnt, const fe<FR> *s, size_t n) {
    __shared__ uint32_t scount[2], sbase[2];
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    bool is_one = false, is_other = false;
    if (threadIdx.x < 2)
        scount[threadIdx.x] = 0;
    __syncthreads();
    if (i < n) {
        fe<FR> a = fe_load(&s[i]);
        bool z = true, o = true;
#pragma unroll
        for (int k = 0; k < FR::N; k++) {
            z = z && a.l[k] == 0;
            o = o && a.l[k] == FR::one(k);
        }
        is_one = o;
        is_other = !o && !z;
    }
    unsigned lane = threadIdx.x & 31;
    uint32_t bo = __ballot_sync(0xffffffffu, is_other), b1 = __ballot_sync(0xffffffffu, is_one);
    uint32_t wo = 0, w1 = 0;
    if (lane == 0) {
        wo = atomicAdd(&scount[0], __popc(bo));
        w1 = atomicAdd(&scount[1], __popc(b1));
    }
    wo = __shfl_sync(0xffffffffu, wo, 0);
    w1 = __shfl_sync(0xffffffffu, w1, 0);
    __syncthreads();
    if (threadIdx.x < 2)
        sbase[threadIdx.x] = atomicAdd(&cnt[threadIdx.x], scount[threadIdx.x]);
    __syncthreads();
    uint32_t below = (1u << lane) - 1;
    if (is_other)
        others[sbase[0] + wo + __popc(bo & below)] = (uint32_t)i;
    if (is_one)
        ones[sbase[1] + w1 + __popc(b1 & below)] = (uint32_t)i;
}

/* part[t] = Σ bases[idx[k]] for k in [t·len, t·len + len) ∩ [0, *cnt), for t < nchunks; chunk t
 * is fe_lanes<RF> threads (the register field RF: FP, or G2 in lane pairs). */
template <class FP, class RF>
__global__ void __launch_bounds__(128)
    msm_ones_kern(ec_xyzz<FP> *part, const uint32_t *idx, const uint32_t *cnt,
                  const ec_aff<FP> *pts, uint32_t len, uint32_t nchunks) {
    uint32_t t = (blockIdx.x * blockDim.x + threadIdx.x) / fe_lanes<RF>::value;
    if (t >= nchunks)
        return;
    uint32_t e = *cnt, lo = t * len, hi = lo + len < e ? lo + len : e;
    ec_xyzz<RF> acc;
    xyzz_set_inf(acc);
    for (uint32_t k = lo; k < hi; k++) {
        const ec_aff<FP> *p = &pts[idx[k]];
        fe<RF> x, y;
        fe_load_lane(x, &p->x);
        fe_load_lane(y, &p->y);
        if (fe_is_zero(x) && fe_is_zero(y))
            continue;
        xyzz_add_affine<RF, true>(acc, x, y, false);
    }
    xyzz_store(&part[t], acc);
}

/* One batch-affine round (msm_ones_ba_kern, msm_acc_ba_kern): K streams a thread, stream j of
 * thread t at c = j·T + t with an affine accumulator ax[c], ay[c] (its bit of `empty` set when it
 * holds no point) and the running product pre[c], in device memory so that a warp's accesses are
 * coalesced. ba_join is the forward step of one stream: its point (y negated when neg) is skipped
 * if it is the infinity base (0, 0), starts an empty accumulator, empties an opposite one (their
 * sum is infinity), or joins the round's batch (bit in inc) with the denominator x2 - x1, or
 * 2·y1 when the point equals the accumulator (a tangent, bit in dbl: numerator 3·x1², so a
 * doubling costs one more squaring and nothing else); run is the product of the joined
 * denominators so far, stored in pre[c]. y2 is gathered only where it is needed; a joining
 * point's y is gathered once, on the way back. y1 = 0 cannot occur: a point of prime order has
 * no y = 0. */
typedef unsigned long long ba_mask;
template <class FP, class RF>
static __device__ __forceinline__ void
ba_join(const ec_aff<FP> *p, bool neg, uint32_t c, ba_mask bit, ba_mask &empty, ba_mask &inc,
        ba_mask &dbl, fe<RF> &run, fe<FP> *ax, fe<FP> *ay, fe<FP> *pre) {
    fe<RF> x2, y2, d, x1;
    fe_load_lane(x2, &p->x);
    if (fe_is_zero(x2)) {
        fe_load_lane(y2, &p->y);
        if (fe_is_zero(y2))
            return;
    }
    if (empty & bit) {
        fe_load_lane(y2, &p->y);
        if (neg)
            fe_neg(y2, y2);
        fe_store_lane(&ax[c], x2);
        fe_store_lane(&ay[c], y2);
        empty &= ~bit;
        return;
    }
    fe_load_lane(x1, &ax[c]);
    fe_sub(d, x2, x1);
    if (fe_is_zero(d)) {
        fe<RF> y1;
        fe_load_lane(y2, &p->y);
        if (neg)
            fe_neg(y2, y2);
        fe_load_lane(y1, &ay[c]);
        if (!fe_eq(y1, y2)) {
            empty |= bit; /* the point is -acc */
            return;
        }
        fe_dbl(d, y1);
        dbl |= bit;
    }
    if (inc)
        fe_mul_madd(run, run, d);
    else
        run = d;
    fe_store_lane(&pre[c], run);
    inc |= bit;
}
/* The round's walk back: one fe_inv_fast of run (the product of every joined denominator), then
 * from the last joined stream down: λ = numerator · (its inverse), x3 = λ² - x1 - x2,
 * y3 = λ(x1 - x3) - y1 into ax, ay. point_of(c, x2, y2) gathers stream c's point again (not kept:
 * K points more a thread). */
template <class FP, class RF, class PointOf>
static __device__ __forceinline__ void ba_walk_back(ba_mask inc, ba_mask dbl, const fe<RF> &run,
                                                    fe<FP> *ax, fe<FP> *ay, const fe<FP> *pre,
                                                    uint32_t t, uint32_t T, PointOf point_of) {
    fe<RF> inv;
    fe_inv_fast(inv, run);
    while (inc) {
        const int j = 63 - __clzll((long long)inc);
        inc &= ~((ba_mask)1 << j);
        const uint32_t c = (uint32_t)j * T + t;
        fe<RF> x1, y1, x2, d, num, ij, lam, x3;
        fe_load_lane(x1, &ax[c]);
        fe_load_lane(y1, &ay[c]);
        if ((dbl >> j) & 1) {
            x2 = x1;
            fe_dbl(d, y1);
            num = fe_sqr_call<RF, true>(x1);
            fe_dbl(x3, num);
            fe_add(num, num, x3); /* 3·x1² */
        } else {
            fe<RF> y2;
            point_of(c, x2, y2);
            fe_sub(d, x2, x1);
            fe_sub(num, y2, y1);
        }
        if (inc) { /* the product of the joined streams below j */
            const int jp = 63 - __clzll((long long)inc);
            fe<RF> pj;
            fe_load_lane(pj, &pre[(uint32_t)jp * T + t]);
            fe_mul_madd(ij, inv, pj);
            fe_mul_madd(inv, inv, d);
        } else {
            ij = inv;
        }
        fe_mul_madd(lam, num, ij);
        aff_step(x1, y1, x2, lam);
        fe_store_lane(&ax[c], x1);
        fe_store_lane(&ay[c], y1);
    }
}

/* The ones summed by batch-affine additions (G1): K streams for each of T threads, with the
 * state and rounds of ba_join / ba_walk_back. Round r gives stream c the point of ones[r·S + c]
 * (S = K·T streams: the order of a sum does not matter), so a warp's loads of the list are
 * coalesced and its points (the list is nearly increasing) share lines. At the end a thread sums
 * its streams into part[t] with mixed additions. */
template <class FP, int K>
__global__ void __launch_bounds__(128, 4)
    msm_ones_ba_kern(ec_xyzz<FP> *part, fe<FP> *ax, fe<FP> *ay, fe<FP> *pre, const uint32_t *ones,
                     const uint32_t *cnt, const ec_aff<FP> *pts, uint32_t nthreads) {
    static_assert(K >= 1 && K <= 64, "a stream is a bit of a 64-bit mask");
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x, T = nthreads;
    if (t >= T)
        return;
    const size_t n1 = *cnt, S = (size_t)K * T;
    ba_mask empty = ~(ba_mask)0;
    for (size_t base = 0; base < n1; base += S) {
        ba_mask inc = 0, dbl = 0; /* the streams in this round's batch; those doubling */
        fe<FP> run;
        fe_zero(run);
        for (uint32_t j = 0; j < K && base + j * T + t < n1; j++) {
            const uint32_t c = j * T + t;
            ba_join<FP, FP>(&pts[ones[base + c]], false, c, (ba_mask)1 << j, empty, inc, dbl, run,
                            ax, ay, pre);
        }
        if (inc != 0)
            ba_walk_back<FP, FP>(inc, dbl, run, ax, ay, pre, t, T,
                                 [&](uint32_t c, fe<FP> &x2, fe<FP> &y2) {
                                     const ec_aff<FP> *p = &pts[ones[base + c]];
                                     fe_load_lane(x2, &p->x);
                                     fe_load_lane(y2, &p->y);
                                 });
    }
    ec_xyzz<FP> acc;
    xyzz_set_inf(acc);
    for (uint32_t j = 0; j < K; j++) {
        if ((empty >> j) & 1)
            continue;
        fe<FP> x, y;
        fe_load_lane(x, &ax[j * T + t]);
        fe_load_lane(y, &ay[j * T + t]);
        xyzz_add_affine<FP, true>(acc, x, y, false);
    }
    xyzz_store(&part[t], acc);
}

/* Window layout: W windows, the first nlow of c bits and the rest of c + 1 bits, from bit 0 up
 * (balanced widths whose sum is the scalar bits the recoding needs). Buckets of all windows are
 * packed: window w has 2^(bits(w) - 1) buckets from bucket base(w). */
typedef struct {
    unsigned c, nlow, nwin;
} win_tab;

static __host__ __device__ __forceinline__ unsigned win_bits(win_tab t, unsigned w) {
    return t.c + (w >= t.nlow ? 1u : 0u);
}
static __host__ __device__ __forceinline__ unsigned win_off(win_tab t, unsigned w) {
    return w * t.c + (w > t.nlow ? w - t.nlow : 0u);
}
static __host__ __device__ __forceinline__ uint32_t win_base(win_tab t, unsigned w) {
    uint32_t h = 1u << (t.c - 1);
    return w <= t.nlow ? w * h : t.nlow * h + (w - t.nlow) * 2 * h;
}

/* Digits of windows w0 .. w0+g-1 of scalar j (scalars[idx[j]] when idx is given). NEG: a scalar
 * s > r/2 is replaced by r - s with every digit's sign flipped ((r - s)·(-P) = s·P in the group
 * of order r), so the recoding needs one bit less. */
#define DIGITS_THREADS 256 /* the block of msm_digits_kern */
template <class FR>
__global__ void __launch_bounds__(DIGITS_THREADS)
    msm_digits_kern(uint32_t *keys, uint32_t *vals, const fe<FR> *scalars, const uint32_t *idx,
                    size_t n, win_tab wt, unsigned w0, unsigned g) {
    size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n)
        return;
    uint32_t i = idx ? idx[j] : (uint32_t)j;
    fe<FR> s = fe_load(&scalars[i]);
    fe_from_mont(s, s);
    uint32_t flip = 0;
    {
        fe<FR> t;
        uint32_t gt = 0, decided = 0;
        asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(t.l[0]) : "r"(FR::p(0)), "r"(s.l[0]));
#pragma unroll
        for (int k = 1; k < FR::N; k++)
            asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(t.l[k]) : "r"(FR::p(k)), "r"(s.l[k]));
#pragma unroll
        for (int k = FR::N - 1; k >= 0; k--) {
            gt = decided ? gt : (s.l[k] > t.l[k] ? 1u : 0u);
            decided = decided | (s.l[k] != t.l[k] ? 1u : 0u);
        }
        if (gt) {
            s = t;
            flip = 1;
        }
    }
    const uint32_t gbase = win_base(wt, w0), sentinel = win_base(wt, w0 + g) - gbase;
    /* the limbs in shared memory (a column a thread), so that a window's two words are two
     * loads at a computed index rather than a select over every limb */
    __shared__ uint32_t limbs[FR::N + 1][DIGITS_THREADS];
#pragma unroll
    for (int k = 0; k < FR::N; k++)
        limbs[k][threadIdx.x] = s.l[k];
    limbs[FR::N][threadIdx.x] = 0;
    uint32_t carry = 0;
    for (unsigned w = 0; w < w0 + g; w++) {
        unsigned c = win_bits(wt, w), off = win_off(wt, w), limb = off >> 5, sh = off & 31;
        const uint32_t half = 1u << (c - 1), mask = (1u << c) - 1;
        const uint32_t lo = limbs[limb][threadIdx.x], hi = limbs[limb + 1][threadIdx.x];
        uint32_t raw = (lo >> sh) | (sh ? (hi << (32 - sh)) : 0);
        uint32_t d = (raw & mask) + carry;
        uint32_t neg = 0, mag = d;
        carry = 0;
        if (d > half) {
            mag = (1u << c) - d;
            neg = 1;
            carry = 1;
        }
        if (w >= w0) {
            size_t o = (size_t)(w - w0) * n + j;
            keys[o] = mag ? win_base(wt, w) - gbase + mag - 1 : sentinel;
            vals[o] = i | ((neg ^ flip) << 31);
        }
    }
}

/* start[b] = first position of key >= b in the sorted keys, for b = 0 .. nb. Static: this file is
 * compiled into three units (the templates need not be, their instantiations are merged). */
static __global__ void msm_bounds_kern(uint32_t *start, const uint32_t *keys, size_t total,
                                       uint32_t nb) {
    uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b > nb)
        return;
    start[b] = (uint32_t)lower_bound_u32(keys, total, b);
}

/* *mx = the longest bucket run, the largest start[b + 1] - start[b] over b < nb (0 before): the
 * combine step needs its long-run tree only where a run spans more than COMBINE_SERIAL chunks. */
static __global__ void msm_maxrun_kern(uint32_t *mx, const uint32_t *start, uint32_t nb) {
    uint32_t b = blockIdx.x * blockDim.x + threadIdx.x, r = 0;
    if (b < nb)
        r = start[b + 1] - start[b];
    for (unsigned off = 16; off >= 1; off /= 2)
        r = max(r, __shfl_down_sync(0xffffffffu, r, off));
    if ((threadIdx.x & 31) == 0 && r != 0)
        atomicMax(mx, r);
}

/* Chunk t of the sorted pairs (see the file comment, step 3), accumulated in the register field
 * RF (FP, or G2 in lane pairs: both lanes of a pair run this with the same t). FS: fe_sqr_fast in
 * the madds (G1; for G2 it would be Fp2's fe_sqr, the same code). */
template <class FP, class RF, bool FS>
static __device__ __forceinline__ void
acc_chunk(ec_xyzz<FP> *buckets, ec_xyzz<FP> *part, uint32_t *owner, const uint32_t *start,
          const uint32_t *keys, const uint32_t *vals, const ec_aff<FP> *pts, uint32_t nb,
          uint32_t len, uint32_t t) {
    owner[t] = NO_OWNER;
    uint32_t nvalid = start[nb], lo = t * len;
    if (lo >= nvalid)
        return;
    uint32_t hi = nvalid - lo > len ? lo + len : nvalid;
    uint32_t key = keys[lo];
    ec_xyzz<RF> acc;
    xyzz_set_inf(acc);
    for (uint32_t k = lo;; k++) {
        uint32_t kk = k < hi ? keys[k] : NO_OWNER;
        if (kk != key) {
            acc_flush(buckets, part, owner, start, t, key, lo, hi, acc);
            if (k >= hi)
                break;
            key = kk;
            xyzz_set_inf(acc);
        }
        uint32_t v = vals[k];
        const ec_aff<FP> *p = &pts[v & 0x7fffffffu];
        fe<RF> x, y;
        fe_load_lane(x, &p->x);
        fe_load_lane(y, &p->y);
        if (fe_is_zero(x) && fe_is_zero(y))
            continue;
        xyzz_add_affine<RF, FS>(acc, x, y, (v >> 31) != 0);
    }
}

/* G1 (one lane a chunk): at most 128 registers, so 4 blocks of 128 threads (16 warps) share an SM
 * instead of 3 at the 160 registers ptxas picks unbounded. The accumulation spills 144 bytes then
 * and is 2.7 % faster all the same (BLS12-381 2^26: 376.3 against 386.9 ms on the H200; 144
 * registers without spills, 14 warps: 391.5; bench/results/2026-12-04-h200-msm-ceiling.md), which
 * is why gpu_msm.cu builds without -warn-spills (CMakeLists.txt). G2 in lane pairs keeps its
 * registers (a cap would spill most of its 219). */
template <class FP, class RF, bool FS>
__global__ void __launch_bounds__(128, fe_lanes<RF>::value > 1 ? 1 : 4)
    msm_acc_kern(ec_xyzz<FP> *buckets, ec_xyzz<FP> *part, uint32_t *owner, const uint32_t *start,
                 const uint32_t *keys, const uint32_t *vals, const ec_aff<FP> *pts, uint32_t nb,
                 uint32_t len, uint32_t nchunks) {
    uint32_t t = (blockIdx.x * blockDim.x + threadIdx.x) / fe_lanes<RF>::value;
    if (t < nchunks)
        acc_chunk<FP, RF, FS>(buckets, part, owner, start, keys, vals, pts, nb, len, t);
}

/* Batch-affine accumulation (cz_tuning.gpu_msm_accumulation; see the file comment, step 3): K
 * streams a thread (for G2 a lane pair, gpu_fp2_split.cuh, whose fe_eq and fe_inv_fast are the
 * pair's), logical chunk c = j·T + t for stream j of thread t (T threads), with the state and
 * rounds of ba_join / ba_walk_back. Round r takes pair c·len + r of every stream (from the
 * transposed copy, at [r·nchunks + c]): a bucket change first flushes the accumulator (as XYZZ
 * with ZZ = ZZZ = 1, or infinity) through acc_flush, the rules of msm_acc_kern's chunks. */
#define BA_STREAMS 32 /* K: streams a thread */
/* K where the memory allows it and the buckets are full: twice the streams halve the inversions
 * an addition for twice the streams' state and partial sums (about 2.3 GB for BLS12-381 against
 * 1.2) and twice the combine. pippenger takes it only where it costs no window a pass (the room
 * cz__gpu_async_room reports), every stream still gets BA_AUTO_LEN pairs and the average bucket
 * gets at least BA_MORE_BUCKET_LEN pairs (n x the windows / the buckets). On one H100, uniform
 * BLS12-381 scalars, 64 against 32 streams: 2^27 (102 pairs a bucket) 687.6 against 704.2 ms,
 * 2^26 (51) 371.9 against 368.7, 2^25 (79) 198.6 against 197.7
 * (bench/results/2026-12-06-h100-batch-affine-64.md). */
#define BA_STREAMS_MORE    64
#define BA_MORE_BUCKET_LEN 96
/* cz_tuning's auto accumulation takes batch-affine where a pass gives each stream at least this
 * many pairs (n x the windows a pass sorts >= BA_AUTO_LEN x the streams): on an H100 a 2^27
 * uniform BLS12-381 G1 MSM (373 pairs a stream) accumulates in 615 ms against madd's 652, 2^26
 * (186) is 3 % faster in all, and the bit-heavy MSMs of a PoRep partition (about 5 pairs a
 * stream) are 6 ms slower each. BN254 G1 loses at every size (2^26 215.3 against 192.7 ms, 2^27
 * 418.9 against 377.2), so auto leaves it to madd
 * (bench/results/2026-12-06-h100-batch-affine-auto.md). */
#define BA_AUTO_LEN 64

/* The sorted pairs for the batch-affine accumulation: pair r of chunk c (position c·len + r, below
 * nvalid) moved to [r·nchunks + c], so that a round's loads by the streams of a warp (consecutive
 * c) are one coalesced line instead of a 32-byte sector each; read in place, the 32 streams of
 * each of an SM's threads keep some 16 K sectors in use, more than the L1 and, over the SMs, the
 * L2 hold. A 32 x 32 tile through shared memory (x: chunks, y: pairs of a chunk). */
static __global__ void msm_ba_transpose_kern(uint32_t *tkeys, uint32_t *tvals, const uint32_t *keys,
                                             const uint32_t *vals, uint32_t nvalid, uint32_t len,
                                             uint32_t nchunks) {
    __shared__ uint32_t sk[32][33], sv[32][33];
    const uint32_t c0 = blockIdx.x * 32, r0 = blockIdx.y * 32;
    for (uint32_t y = threadIdx.y; y < 32; y += blockDim.y) { /* row c0 + y, column r0 + x */
        const uint32_t c = c0 + y, r = r0 + threadIdx.x;
        const size_t k = (size_t)c * len + r;
        if (c < nchunks && r < len && k < nvalid) {
            sk[y][threadIdx.x] = keys[k];
            sv[y][threadIdx.x] = vals[k];
        }
    }
    __syncthreads();
    for (uint32_t y = threadIdx.y; y < 32; y += blockDim.y) { /* row r0 + y, column c0 + x */
        const uint32_t c = c0 + threadIdx.x, r = r0 + y;
        const size_t k = (size_t)c * len + r;
        if (c < nchunks && r < len && k < nvalid) {
            tkeys[(size_t)r * nchunks + c] = sk[threadIdx.x][y];
            tvals[(size_t)r * nchunks + c] = sv[threadIdx.x][y];
        }
    }
}
/* Blocks of 128 threads an SM for the G2 batch-affine kernel (ptxas then keeps 168 registers
 * instead of 186). On the H200, BLS12-381 G2 2^26 uniform (bench/results/2026-12-06-h200-g2-ba.md):
 * 1,350.7 ms against madd's 1,384.8; with 2 blocks, a WindowPoSt 32 GiB B_G2 took 2,136 ms
 * against madd's 1,812 (another call), so cz_tuning's auto leaves G2 to madd. */
#define BA_G2_BLOCKS 3

template <class FP, class RF, int K>
__global__ void __launch_bounds__(128, fe_lanes<RF>::value > 1 ? BA_G2_BLOCKS : 4)
    msm_acc_ba_kern(ec_xyzz<FP> *buckets, ec_xyzz<FP> *part, uint32_t *owner, fe<FP> *ax,
                    fe<FP> *ay, fe<FP> *pre, const uint32_t *start, const uint32_t *tkeys,
                    const uint32_t *tvals, const ec_aff<FP> *pts, uint32_t nb, uint32_t len,
                    uint32_t nchunks, uint32_t nthreads) {
    static_assert(K >= 1 && K <= 64, "a stream is a bit of a 64-bit mask");
    const uint32_t t = (blockIdx.x * blockDim.x + threadIdx.x) / fe_lanes<RF>::value, T = nthreads;
    if (t >= T)
        return;
    const uint32_t nvalid = start[nb];
    ba_mask empty = ~(ba_mask)0;
    for (uint32_t j = 0; j < K && j * T + t < nchunks; j++)
        owner[j * T + t] = NO_OWNER;
    for (uint32_t r = 0; r <= len; r++) {
        ba_mask inc = 0, dbl = 0; /* the streams in this round's batch; those doubling */
        fe<RF> run;
        fe_zero(run);
        for (uint32_t j = 0; j < K; j++) {
            const uint32_t c = j * T + t;
            if (c >= nchunks)
                break;
            const uint32_t lo = c * len, hi = nvalid - lo > len ? lo + len : nvalid, k = lo + r;
            const ba_mask bit = (ba_mask)1 << j;
            if (k > hi)
                continue;
            if (r > 0) {
                const uint32_t key = tkeys[(size_t)(r - 1) * nchunks + c];
                if (k == hi || tkeys[(size_t)r * nchunks + c] != key) {
                    ec_xyzz<RF> a;
                    if (empty & bit) {
                        xyzz_set_inf(a);
                    } else {
                        fe_load_lane(a.x, &ax[c]);
                        fe_load_lane(a.y, &ay[c]);
                        fe_one(a.zz);
                        fe_one(a.zzz);
                    }
                    acc_flush(buckets, part, owner, start, c, key, lo, hi, a);
                    empty |= bit;
                }
            }
            if (k == hi)
                continue;
            const uint32_t v = tvals[(size_t)r * nchunks + c];
            ba_join<FP, RF>(&pts[v & 0x7fffffffu], (v >> 31) != 0, c, bit, empty, inc, dbl, run, ax,
                            ay, pre);
        }
        if (inc != 0)
            ba_walk_back<FP, RF>(inc, dbl, run, ax, ay, pre, t, T,
                                 [&](uint32_t c, fe<RF> &x2, fe<RF> &y2) {
                                     const uint32_t v = tvals[(size_t)r * nchunks + c];
                                     const ec_aff<FP> *p = &pts[v & 0x7fffffffu];
                                     fe_load_lane(x2, &p->x);
                                     fe_load_lane(y2, &p->y);
                                     if (v >> 31)
                                         fe_neg(y2, y2);
                                 });
    }
}

/* An out-of-line xyzz_add for kernels that call it from several places (inlining every copy of
 * the 12-limb formula would spill); G2's xyzz_add is out of line already (gpu_curve.cuh), so it
 * is called directly rather than through a second out-of-line wrapper. FLUSHED: b is often
 * affine, ZZ = ZZZ = 1 (a partial sum the batch-affine accumulation flushed: all of them), and
 * then added by a mixed addition (8M + 2S against add-2008-s's 12M + 2S); G1 only, G2's
 * accumulations flush XYZZ. Not for the reduction's buckets: about half of them were combined
 * (XYZZ), and a warp running both formulas made the reduction of a 2^27 MSM take 92 ms instead
 * of 28 (H100). */
template <class FP, bool FLUSHED>
static __device__ __noinline__ void xyzz_add_noinl(ec_xyzz<FP> &acc, const ec_xyzz<FP> &b) {
    if constexpr (FLUSHED) {
        bool one = true;
#pragma unroll
        for (int k = 0; k < FP::N; k++)
            one = one && b.zz.l[k] == FP::one(k);
        if (one) {
            xyzz_add_affine_inl<FP, true>(acc, b.x, b.y, false);
            return;
        }
    }
    xyzz_add(acc, b);
}
template <class FP, bool FLUSHED = false>
static __device__ __forceinline__ void xyzz_add_call(ec_xyzz<FP> &acc, const ec_xyzz<FP> &b) {
    if constexpr (fe_outline<FP>::value)
        xyzz_add(acc, b);
    else
        xyzz_add_noinl<FP, FLUSHED>(acc, b);
}

#define COMBINE_SERIAL 32u  /* runs of at most this many head partials are summed by one thread */
#define COMBINE_GROUP  512u /* head partials a warp sums at one level of the long-run tree */

/* Long runs (a bucket reaching more than COMBINE_SERIAL chunks), level l of a tree in place: a
 * head of such a run at offset i = c - (owner + 1), i a multiple of G^(l+1) (G = COMBINE_GROUP),
 * gets in part[2c] the sum of the G heads c + j·G^l (lane-strided, then shuffles). Each lane
 * tells whether its own chunk is such a head, and the warp sums the heads found, one after
 * another: a thread per chunk, not a warp (the batch-affine accumulation makes millions of
 * chunks, almost none in a long run for dense scalars). After levels 0, 1, 2 (G^3 > 2^19 chunks)
 * the run's sum is in its first head. */
template <class FP>
__global__ void __launch_bounds__(128)
    msm_combine_tree_kern(ec_xyzz<FP> *part, const uint32_t *start, const uint32_t *keys,
                          uint32_t len, uint32_t nchunks, uint32_t stride) {
    const uint32_t lane = threadIdx.x & 31, c = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t last = 0;
    bool head = false;
    if (c < nchunks && c != 0) {
        const uint32_t key = keys[(size_t)c * len], sb = start[key];
        if (sb < c * len) { /* the bucket starts before this chunk */
            const uint32_t owner = sb / len, i = c - owner - 1;
            last = (start[key + 1] - 1) / len;
            head = last - owner > COMBINE_SERIAL && i % (stride * COMBINE_GROUP) == 0;
        }
    }
    for (uint32_t heads = __ballot_sync(0xffffffffu, head); heads != 0; heads &= heads - 1) {
        const uint32_t h = (uint32_t)__ffs((int)heads) - 1, hc = c - lane + h,
                       hlast = __shfl_sync(0xffffffffu, last, (int)h);
        ec_xyzz<FP> acc, o;
        xyzz_set_inf(acc);
        for (uint32_t j = lane; j < COMBINE_GROUP; j += 32) {
            uint32_t cc = hc + j * stride;
            if (cc > hlast)
                break;
            xyzz_load(o, &part[2 * (size_t)cc]);
            xyzz_add_call(acc, o);
        }
        for (unsigned off = 16; off >= 1; off /= 2) {
            xyzz_shfl_down(o, acc, off);
            if (lane < off)
                xyzz_add_call(acc, o);
        }
        if (lane == 0)
            xyzz_store(&part[2 * (size_t)hc], acc);
    }
}

/* One thread per chunk t that owns a bucket crossing its end: bucket = part[2t+1] + the heads of
 * the following chunks it reaches (serially for short runs; long runs were folded into their
 * first head by msm_combine_tree_kern). */
template <class FP>
__global__ void __launch_bounds__(128)
    msm_combine_kern(ec_xyzz<FP> *buckets, const ec_xyzz<FP> *part, const uint32_t *owner,
                     const uint32_t *start, uint32_t len, uint32_t nchunks) {
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nchunks)
        return;
    uint32_t key = owner[t];
    if (key == NO_OWNER)
        return;
    uint32_t last = (start[key + 1] - 1) / len;
    if (last - t > COMBINE_SERIAL)
        last = t + 1;
    ec_xyzz<FP> acc, o;
    xyzz_load(acc, &part[2 * (size_t)t + 1]);
    for (uint32_t c = t + 1; c <= last; c++) {
        xyzz_load(o, &part[2 * (size_t)c]);
        xyzz_add_call<FP, true>(acc, o);
    }
    xyzz_store(&buckets[key], acc);
}

/* The reduction's kernels run in the accumulation's register field RF: a thread a segment for
 * G1, a lane pair for G2 (each lane a G1-sized half, the formulas inlined: a thread holding a
 * whole Fp2 point spills at 255 registers). The thread's segment: */
template <class RF> static __device__ __forceinline__ uint32_t reduce_id() {
    return (blockIdx.x * blockDim.x + threadIdx.x) / fe_lanes<RF>::value;
}
/* The segment loop's addition: G1 through the out-of-line copy (two inlined copies of the 12-limb
 * formula spill), a lane pair inlined (as in its accumulation). */
template <class RF>
static __device__ __forceinline__ void xyzz_add_reduce(ec_xyzz<RF> &acc, const ec_xyzz<RF> &b) {
    if constexpr (fe_lanes<RF>::value > 1)
        xyzz_add(acc, b);
    else
        xyzz_add_call(acc, b);
}

/* Segments of ls buckets over the packed buckets of all windows (ls divides every window's
 * bucket count, so a segment lies in one window). Thread j: acc[j] = Σ_{i < ls} (i + 1)·B_(j·ls+i)
 * and run[j] = Σ_i B_(j·ls+i) (the running-sum trick from the top bucket down). */
template <class FP, class RF>
__global__ void __launch_bounds__(128)
    msm_segment_kern(ec_xyzz<FP> *acc_out, ec_xyzz<FP> *run_out, const ec_xyzz<FP> *buckets,
                     uint32_t ls, uint32_t nsegs) {
    uint32_t id = reduce_id<RF>();
    if (id >= nsegs)
        return;
    const ec_xyzz<FP> *bk = buckets + (size_t)id * ls;
    ec_xyzz<RF> running, acc;
    xyzz_set_inf(running);
    xyzz_set_inf(acc);
    for (int idx = (int)ls - 1; idx >= 0; idx--) {
        {
            ec_xyzz<RF> t;
            xyzz_load(t, &bk[idx]);
            xyzz_add_reduce(running, t);
        }
        xyzz_add_reduce(acc, running);
    }
    xyzz_store(&acc_out[id], acc);
    xyzz_store(&run_out[id], running);
}

/* The window of global segment j and j's index inside it. */
static __device__ __forceinline__ unsigned seg_window(win_tab wt, uint32_t ls, uint32_t j,
                                                      uint32_t *jl) {
    uint32_t slo = (1u << (wt.c - 1)) / ls, first_hi = wt.nlow * slo;
    if (j < first_hi) {
        *jl = j % slo;
        return j / slo;
    }
    *jl = (j - first_hi) % (2 * slo);
    return wt.nlow + (j - first_hi) / (2 * slo);
}

/* seg[j] += (jl·ls)·run[j]: the weight of the buckets of its window below segment j
 * (double-and-add). */
template <class FP, class RF>
__global__ void __launch_bounds__(128) msm_weight_kern(ec_xyzz<FP> *seg, const ec_xyzz<FP> *run,
                                                       win_tab wt, uint32_t ls, uint32_t nsegs) {
    uint32_t id = reduce_id<RF>(), jl;
    if (id >= nsegs)
        return;
    seg_window(wt, ls, id, &jl);
    uint32_t k = jl * ls;
    if (k == 0)
        return;
    ec_xyzz<RF> p, r;
    xyzz_load(p, &run[id]);
    xyzz_set_inf(r);
    for (int bit = 31 - __clz(k); bit >= 0; bit--) {
        xyzz_dbl(r, r);
        if ((k >> bit) & 1)
            xyzz_add(r, p);
    }
    xyzz_load(p, &seg[id]);
    xyzz_add(r, p);
    xyzz_store(&seg[id], r);
}

/* Level lv of a pairwise tree inside each window: segment j of window w with index jl < h =
 * (segments of w) >> (lv + 1) gets seg[j] += seg[j + h]. */
template <class FP, class RF>
__global__ void __launch_bounds__(128)
    msm_wtree_kern(ec_xyzz<FP> *seg, win_tab wt, uint32_t ls, uint32_t nsegs, unsigned lv) {
    uint32_t id = reduce_id<RF>(), jl;
    if (id >= nsegs)
        return;
    unsigned w = seg_window(wt, ls, id, &jl);
    uint32_t h = ((1u << (win_bits(wt, w) - 1)) / ls) >> (lv + 1);
    if (jl >= h)
        return;
    ec_xyzz<RF> a, b;
    xyzz_load(a, &seg[id]);
    xyzz_load(b, &seg[id + h]);
    xyzz_add(a, b);
    xyzz_store(&seg[id], a);
}

/* out[w] = seg[first segment of window w]. */
template <class FP>
__global__ void msm_wgather_kern(ec_xyzz<FP> *out, const ec_xyzz<FP> *seg, win_tab wt,
                                 uint32_t ls) {
    uint32_t w = blockIdx.x * blockDim.x + threadIdx.x;
    if (w >= wt.nwin)
        return;
    ec_xyzz<FP> a;
    xyzz_load(a, &seg[win_base(wt, w) / ls]);
    xyzz_store(&out[w], a);
}

/* seg[w·S + j] += seg[w·S + j + half] for j < half. */
template <class FP>
__global__ void __launch_bounds__(128)
    msm_tree_kern(ec_xyzz<FP> *seg, uint32_t nseg, uint32_t half, uint32_t nwin) {
    uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id >= nwin * half)
        return;
    uint32_t w = id / half, j = id % half;
    ec_xyzz<FP> a, b;
    xyzz_load(a, &seg[(size_t)w * nseg + j]);
    xyzz_load(b, &seg[(size_t)w * nseg + j + half]);
    xyzz_add(a, b);
    xyzz_store(&seg[(size_t)w * nseg + j], a);
}

/* ---- host side ---- */

static unsigned ceil_log2(size_t n) {
    unsigned k = 0;
    while (((size_t)1 << k) < n)
        k++;
    return k;
}

/* Window width for n scalars (measured on the H200 for each size, see docs/gpu.md), unless the
 * tuning overrides it. */
static unsigned window_bits(size_t n, int group, const cz_tuning &tu) {
    unsigned lg = ceil_log2(n);
    if (tu.gpu_msm_window_bits != 0)
        return tu.gpu_msm_window_bits;
    if (lg < 8)
        return 4;
    if (lg <= 20)
        return lg - 4;
    /* G2 at 2^21 (the full-width scalars of a PoRep partition's B: 1.6 M): 15 bits, 63.3 ms
     * against 69.4 for 17 at 2^21 uniform BLS12-381 on an H100, where the reduction's G2
     * additions (a thread each, not a lane pair) weigh more against the accumulation's */
    if (group == 2 && lg == 21)
        return 15;
    return lg >= 26 ? 22 : lg >= 25 ? 20 : lg >= 23 ? 19 : 17;
}

/* The windows for n scalars whose signed recoding needs tbits bits: the tuning's window count
 * when set, else ceil(tbits / c) for the width c above; then balanced widths c' = tbits / W and
 * c' + 1 (the wider ones on top) that sum to tbits exactly, so no window is wider than c and the
 * top one is not mostly empty. */
static win_tab win_layout(size_t n, unsigned tbits, int group, const cz_tuning &tu) {
    win_tab t;
    unsigned c = window_bits(n, group, tu);
    t.nwin = tu.gpu_msm_windows != 0 ? tu.gpu_msm_windows : (tbits + c - 1) / c;
    t.c = tbits / t.nwin;
    t.nlow = t.nwin - (tbits - t.nwin * t.c);
    return t;
}

/* Per-phase timing (cz_tuning.msm_profile): adds the time since the last mark to ms[phase]. */
typedef struct {
    int on;
    cudaEvent_t ev[2];
    float ms[8];
} prof;
enum { P_SPLIT, P_DIGITS, P_SORT, P_BOUNDS, P_ACC, P_COMBINE, P_REDUCE, P_NPH };
static const char *const phase_names[P_NPH] = {"split", "digits",  "sort",  "bounds",
                                               "acc",   "combine", "reduce"};

static void prof_mark(prof *p, int phase) {
    float t = 0;
    if (!p->on)
        return;
    cudaEventRecord(p->ev[1], 0);
    cudaEventSynchronize(p->ev[1]);
    cudaEventElapsedTime(&t, p->ev[0], p->ev[1]);
    p->ms[phase] += t;
    cudaEventRecord(p->ev[0], 0);
}

template <class FP>
using acc_kern_t = void (*)(ec_xyzz<FP> *, ec_xyzz<FP> *, uint32_t *, const uint32_t *,
                            const uint32_t *, const uint32_t *, const ec_aff<FP> *, uint32_t,
                            uint32_t, uint32_t);
template <class FP>
using ba_kern_t = void (*)(ec_xyzz<FP> *, ec_xyzz<FP> *, uint32_t *, fe<FP> *, fe<FP> *, fe<FP> *,
                           const uint32_t *, const uint32_t *, const uint32_t *, const ec_aff<FP> *,
                           uint32_t, uint32_t, uint32_t, uint32_t);

/* Device memory a caller lends an MSM for its temporaries (cz_<curve>_gpu_<g>_msm_dev_lent): p
 * 256-byte aligned, bytes long; none where bytes is 0. */
struct msm_lent {
    uint8_t *p;
    size_t bytes;
};

/* Entries of one of a pass's four pair arrays (keys and values, each with the sort's second
 * buffer) for n scalars and g windows: n·g, with the batch-affine transpose's slack of
 * n·g / streams + 8 past the last pair where streams is not 0 (madd: 0), rounded up to 64 so
 * that arrays carved from lent memory stay 256-byte aligned. */
static size_t pair_elems(size_t n, unsigned g, size_t streams) {
    const size_t e = n * g + (streams ? n * g / streams + 8 : 0);
    return (e + 63) & ~(size_t)63;
}

/* How a pass's pair arrays are placed: the windows it sorts at once and which arrays live in
 * lent memory (PAIRS_POOL: none, PAIRS_LENT_KEYS: the two key arrays, PAIRS_LENT: all four). */
enum { PAIRS_POOL, PAIRS_LENT_KEYS, PAIRS_LENT };
struct pair_plan {
    unsigned g;
    int lent;
};

/* The windows one pass sorts at once: at most gcap, fewer where the memory cannot hold the
 * pass's four u32 arrays of n entries per window (pair_elems). Memory: what a cudaMallocAsync can
 * still get (free, and idle in the pool) besides fixed bytes (the buckets, the segments and the
 * partial sums: 2.4 GB for 2^27 scalars) and a sixteenth kept for the sort's temporary storage,
 * and the lent memory: all four arrays there where they fit, else the two key arrays there and
 * the values from the pool, else all from the pool; the plan that sorts the most windows, the
 * least pool memory among equals. At least one window. A device that also holds a large
 * resident key (a 32 GiB PoRep key on an 80 GB card) then sorts in more passes instead of
 * failing, and a prover that lends the vectors it no longer needs (b and c after h) gets its
 * windows back. */
static pair_plan plan_pairs(size_t n, unsigned gcap, size_t fixed, size_t streams,
                            const msm_lent &lent) {
    size_t room = cz__gpu_async_room(), pool;
    room -= room / 16;
    pool = room > fixed ? room - fixed : 0;
    for (unsigned g = gcap; g >= 1; g--) {
        const size_t arr = pair_elems(n, g, streams) * 4;
        if (lent.bytes >= 4 * arr)
            return pair_plan{g, PAIRS_LENT};
        if (lent.bytes >= 2 * arr && pool >= 2 * arr)
            return pair_plan{g, PAIRS_LENT_KEYS};
        if (pool >= n * 16 * g)
            return pair_plan{g, PAIRS_POOL};
    }
    return pair_plan{1, PAIRS_POOL};
}

/* The reduction's segments of a Pippenger run over n scalars: ls buckets each (a power of two
 * dividing every window), about reduce_segs threads in all; and the run's device bytes that do
 * not depend on how many windows a pass sorts: the buckets, the segments and window sums, the
 * partial sums, the bucket bounds (and the longest run) and owners (for max(ACC_CHUNKS,
 * ba_streams) chunks), and the batch-affine accumulation's ba_streams accumulators and running
 * products (0: madd). */
template <class H>
static size_t pippenger_fixed(const win_tab &wt, size_t n, size_t ba_streams, uint32_t *ls_out,
                              uint32_t *nsegs_out) {
    typedef ec_xyzz<typename H::fp> X;
    const size_t chunks = ba_streams > ACC_CHUNKS ? ba_streams : ACC_CHUNKS;
    const uint32_t nbt = win_base(wt, wt.nwin);
    uint32_t ls = 1u << (wt.c - 1);
    while (ls > 1 && (size_t)(nbt / ls) * 2 <= reduce_segs(H::group, n))
        ls /= 2;
    *ls_out = ls;
    *nsegs_out = nbt / ls;
    return ((size_t)nbt + 2 * chunks + 2 * (size_t)(nbt / ls) + wt.nwin) * sizeof(X) +
           ((size_t)nbt + 2 + chunks) * 4 + ba_streams * 3 * sizeof(fe<typename H::fp>);
}

/* The least device memory an MSM of n scalars takes: one window a pass (with the madd
 * accumulation: the batch-affine one's streams depend on the device). */
template <class H> static size_t msm_min_bytes(size_t n) {
    cz_tuning tu;
    uint32_t ls, nsegs;
    cz_tuning_get(&tu);
    return pippenger_fixed<H>(win_layout(n, H::bits, H::group, tu), n, 0, &ls, &nsegs) + n * 16;
}

/* ret = Σ [s_idx[j]] P_idx[j] over j < n (idx NULL: the identity) by Pippenger. */
template <class H>
static int pippenger(typename H::jac *ret, const cz_gpu_bases *bh, const void *d_s,
                     const uint32_t *idx, size_t n, const cz_tuning &tu, const msm_lent &lent,
                     prof *pf, cz_errinfo *ei) {
    typedef typename H::fp FP;
    typedef ec_xyzz<FP> X;
    int rc = CZ_OK;
    uint32_t *keys[2] = {NULL, NULL}, *vals[2] = {NULL, NULL}, *start = NULL, *owner = NULL;
    void *temp = NULL;
    X *buckets = NULL, *seg = NULL, *part = NULL;
    fe<FP> *ba_mem = NULL; /* batch-affine: ax, ay, pre of ba_streams streams each */
    typename H::xyzz *wins = NULL;
    size_t temp_bytes = 0, gmax;
    int sms = 0;
    unsigned nwin, g, gcap;
    pair_plan plan = {1, PAIRS_POOL};
    uint32_t nbt, ls, nsegs, pchunks = 0, plen = 0, ba_k = 0;
    ba_kern_t<FP> ba_kern = NULL; /* msm_acc_ba_kern for ba_k streams a thread */
    size_t ba_streams = 0, chunks_max = ACC_CHUNKS;
    /* auto: BLS12-381 G1 only (BN254's madd is cheaper against the inversion: see BA_AUTO_LEN;
     * G2 in lane pairs gained 2.5 % at 2^26 and lost at a WindowPoSt's B_G2: BA_G2_BLOCKS) */
    bool ba = tu.gpu_msm_accumulation == CZ_ACC_BATCH_AFFINE ||
              (tu.gpu_msm_accumulation == CZ_ACC_AUTO && H::id == 1 && H::group == 1);
    const uint32_t acc_bs = 128;
    const acc_kern_t<FP> akern = msm_acc_kern<FP, typename H::rf, H::group == 1>;
    const uint32_t lanes = fe_lanes<typename H::rf>::value;
    win_tab wt;
    cudaStream_t st = 0;
    const ec_aff<FP> *pts = (const ec_aff<FP> *)bh->d_pts;

    {
        typename H::xyzz z;
        memset(&z, 0, sizeof z);
        H::to_jac(ret, &z); /* infinity */
    }
    if (n == 0)
        return CZ_OK;
    /* a scalar < 2^(T-1) has a T-bit signed recoding; with the r - s trick s < r/2 < 2^(bits-1) */
    wt = win_layout(n, H::bits, H::group, tu);
    nwin = wt.nwin;
    nbt = win_base(wt, nwin);
    if (n >= ((size_t)1 << 30))
        return cz_fail(ei, CZ_ERANGE, "gpu msm: n = %zu too large (< 2^30)", n);
    gmax = ((size_t)1 << 30) / n;
    gcap = gmax >= nwin ? nwin : (unsigned)gmax;
    if (ba) {
        /* one wave: ba_k streams for each resident thread: BA_STREAMS_MORE where that costs
         * no window a pass, each stream still gets BA_AUTO_LEN pairs and the buckets are
         * full, else BA_STREAMS; auto turns to madd where even BA_STREAMS get too few pairs */
        const ba_kern_t<FP> kern[2] = {msm_acc_ba_kern<FP, typename H::rf, BA_STREAMS_MORE>,
                                       msm_acc_ba_kern<FP, typename H::rf, BA_STREAMS>};
        const uint32_t ks[2] = {BA_STREAMS_MORE, BA_STREAMS};
        size_t streams[2];
        pair_plan pk[2];
        CZ_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, bh->dev));
        for (int i = 0; i < 2; i++) {
            int bpsm = 0;
            CZ_CUDA_TRY(
                cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bpsm, kern[i], (int)acc_bs, 0));
            streams[i] = (size_t)(bpsm > 0 ? bpsm : 1) * (size_t)(sms > 0 ? sms : 1) *
                         (acc_bs / lanes) * ks[i];
            pk[i] = plan_pairs(n, gcap, pippenger_fixed<H>(wt, n, streams[i], &ls, &nsegs),
                               streams[i], lent);
        }
        const int pick = pk[0].g >= pk[1].g && n * pk[0].g >= BA_AUTO_LEN * streams[0] &&
                                 n * nwin >= (size_t)BA_MORE_BUCKET_LEN * nbt
                             ? 0
                             : 1;
        if (tu.gpu_msm_accumulation == CZ_ACC_AUTO &&
            n * pk[pick].g < BA_AUTO_LEN * streams[pick]) {
            ba = false; /* too few pairs a stream: madd */
        } else {
            ba_k = ks[pick];
            ba_kern = kern[pick];
            ba_streams = streams[pick];
            chunks_max = ba_streams > chunks_max ? ba_streams : chunks_max;
            plan = pk[pick];
        }
    }
    if (!ba)
        plan = plan_pairs(n, gcap, pippenger_fixed<H>(wt, n, 0, &ls, &nsegs), 0, lent);
    g = plan.g;
    g = (nwin + ((nwin + g - 1) / g) - 1) / ((nwin + g - 1) / g); /* even groups: g, or fewer */

    /* batch-affine: the sort's spare buffers take the pairs transposed, up to len - 1 slots past
     * the last pair (msm_ba_transpose_kern; pair_elems) */
    {
        const size_t e = pair_elems(n, g, ba ? ba_streams : 0);
        uint32_t *lp = (uint32_t *)lent.p;
        for (int k = 0; k < 2; k++) {
            if (plan.lent != PAIRS_POOL)
                keys[k] = lp + k * e;
            else
                CZ_CUDA_TRY(cudaMallocAsync((void **)&keys[k], e * 4, st));
            if (plan.lent == PAIRS_LENT)
                vals[k] = lp + (2 + k) * e;
            else
                CZ_CUDA_TRY(cudaMallocAsync((void **)&vals[k], e * 4, st));
        }
    }
    CZ_CUDA_TRY(cudaMallocAsync((void **)&start, ((size_t)nbt + 2) * 4, st));
    CZ_CUDA_TRY(cudaMallocAsync((void **)&owner, chunks_max * 4, st));
    CZ_CUDA_TRY(cudaMallocAsync((void **)&part, 2 * chunks_max * sizeof(X), st));
    if (ba)
        CZ_CUDA_TRY(cudaMallocAsync((void **)&ba_mem, 3 * ba_streams * sizeof(fe<FP>), st));
    CZ_CUDA_TRY(cudaMallocAsync((void **)&buckets, (size_t)nbt * sizeof(X), st));
    CZ_CUDA_TRY(cudaMemsetAsync(buckets, 0, (size_t)nbt * sizeof(X), st));
    CZ_CUDA_TRY(cudaMallocAsync((void **)&seg, (2 * (size_t)nsegs + nwin) * sizeof(X), st));
    wins = (typename H::xyzz *)malloc(nwin * sizeof *wins);
    if (wins == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "gpu msm: window sums");
        goto out;
    }

    for (unsigned w0 = 0; w0 < nwin; w0 += g) {
        unsigned gw = nwin - w0 < g ? nwin - w0 : g;
        uint32_t nb = win_base(wt, w0 + gw) - win_base(wt, w0), nvalid = 0, len, nchunks;
        uint32_t counts[2] = {0, 0}; /* start[nb] (the pairs of non-zero digits), the longest run */
        size_t total = n * gw;
        unsigned key_bits = ceil_log2((size_t)nb + 1);
        X *bk = buckets + win_base(wt, w0);
        msm_digits_kern<typename H::fr>
            <<<cz__gpu_blocks(n, DIGITS_THREADS), DIGITS_THREADS, 0, st>>>(
                keys[0], vals[0], (const fe<typename H::fr> *)d_s, idx, n, wt, w0, gw);
        CZ_CUDA_LAUNCHED();
        prof_mark(pf, P_DIGITS);
        cub::DoubleBuffer<uint32_t> dk(keys[0], keys[1]), dv(vals[0], vals[1]);
        {
            size_t need = 0;
            CZ_CUDA_TRY(cub::DeviceRadixSort::SortPairs(NULL, need, dk, dv, (int)total, 0,
                                                        (int)key_bits, st));
            if (need > temp_bytes) {
                cudaFreeAsync(temp, st);
                temp = NULL;
                CZ_CUDA_TRY(cudaMallocAsync(&temp, need, st));
                temp_bytes = need;
            }
        }
        CZ_CUDA_TRY(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, dk, dv, (int)total, 0,
                                                    (int)key_bits, st));
        prof_mark(pf, P_SORT);
        msm_bounds_kern<<<cz__gpu_blocks((size_t)nb + 1, 256), 256, 0, st>>>(start, dk.Current(),
                                                                             total, nb);
        CZ_CUDA_LAUNCHED();
        CZ_CUDA_TRY(cudaMemsetAsync(start + nb + 1, 0, 4, st));
        msm_maxrun_kern<<<cz__gpu_blocks(nb, 256), 256, 0, st>>>(start + nb + 1, start, nb);
        CZ_CUDA_LAUNCHED();
        CZ_CUDA_TRY(cudaMemcpyAsync(counts, start + nb, 8, cudaMemcpyDeviceToHost, st));
        CZ_CUDA_TRY(cudaStreamSynchronize(st));
        nvalid = counts[0];
        prof_mark(pf, P_BOUNDS);
        if (nvalid == 0)
            continue;
        /* the chunks the pairs are cut into: batch-affine, ba_k logical chunks for each
         * thread of one wave (ba_streams); madd, a whole number of waves: rounds x the resident
         * threads, as many whole waves as fit in ACC_CHUNKS (a partial last wave of 2^19 chunks
         * left most SMs idle for a chunk's time) and give a chunk ACC_MIN_LEN pairs, one wave at
         * least */
        size_t slots = ba_streams;
        if (!ba) {
            int bpsm = 0;
            uint32_t resident, rounds;
            if (sms == 0)
                CZ_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, bh->dev));
            CZ_CUDA_TRY(
                cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bpsm, akern, (int)acc_bs, 0));
            resident =
                (uint32_t)(bpsm > 0 ? bpsm : 1) * (uint32_t)(sms > 0 ? sms : 1) * acc_bs / lanes;
            rounds = ACC_CHUNKS / resident > 0 ? ACC_CHUNKS / resident : 1;
            if ((size_t)rounds * resident > ACC_CHUNKS)
                rounds = 1;
            if ((size_t)rounds * resident * ACC_MIN_LEN > nvalid) {
                const size_t fill = nvalid / ((size_t)resident * ACC_MIN_LEN);
                rounds = fill > 0 ? (uint32_t)fill : 1;
            }
            slots = (size_t)rounds * resident;
        }
        len = (uint32_t)((nvalid + slots - 1) / slots);
        if (len < 4)
            len = 4;
        nchunks = (nvalid + len - 1) / len;
        if (ba) {
            const uint32_t nt = (nchunks + ba_k - 1) / ba_k;
            msm_ba_transpose_kern<<<dim3((nchunks + 31) / 32, (len + 31) / 32), dim3(32, 8), 0,
                                    st>>>(dk.Alternate(), dv.Alternate(), dk.Current(),
                                          dv.Current(), nvalid, len, nchunks);
            CZ_CUDA_LAUNCHED();
            ba_kern<<<cz__gpu_blocks((size_t)nt * lanes, acc_bs), acc_bs, 0, st>>>(
                bk, part, owner, ba_mem, ba_mem + ba_streams, ba_mem + 2 * ba_streams, start,
                dk.Alternate(), dv.Alternate(), pts, nb, len, nchunks, nt);
            CZ_CUDA_LAUNCHED();
        } else {
            akern<<<cz__gpu_blocks((size_t)nchunks * lanes, acc_bs), acc_bs, 0, st>>>(
                bk, part, owner, start, dk.Current(), dv.Current(), pts, nb, len, nchunks);
            CZ_CUDA_LAUNCHED();
        }
        pchunks = nchunks;
        plen = len;
        prof_mark(pf, P_ACC);
        /* levels 0, 1, 2 of the long-run tree: 512^3 = 2^27 chunks, more than either
         * accumulation makes (the batch-affine one: ba_k x the resident threads); none where
         * no run of counts[1] pairs reaches past COMBINE_SERIAL chunks after its first (a
         * run of R pairs spans at most (R - 1) / len + 1 chunks after that one) */
        for (uint32_t stride = 1;
             (size_t)counts[1] > (size_t)(COMBINE_SERIAL - 1) * len && stride < ACC_CHUNKS;
             stride *= COMBINE_GROUP) {
            msm_combine_tree_kern<FP><<<cz__gpu_blocks((size_t)nchunks, 128), 128, 0, st>>>(
                part, start, dk.Current(), len, nchunks, stride);
            CZ_CUDA_LAUNCHED();
        }
        msm_combine_kern<FP>
            <<<cz__gpu_blocks(nchunks, 128), 128, 0, st>>>(bk, part, owner, start, len, nchunks);
        CZ_CUDA_LAUNCHED();
        prof_mark(pf, P_COMBINE);
    }
    /* seg[0 .. S) gets the segments' weighted sums, seg[S .. 2S) their plain sums, seg[2S ..
     * 2S + W) the window sums */
    msm_segment_kern<FP, typename H::rf>
        <<<cz__gpu_blocks((size_t)nsegs * lanes, 128), 128, 0, st>>>(seg, seg + nsegs, buckets, ls,
                                                                     nsegs);
    CZ_CUDA_LAUNCHED();
    msm_weight_kern<FP, typename H::rf><<<cz__gpu_blocks((size_t)nsegs * lanes, 128), 128, 0, st>>>(
        seg, seg + nsegs, wt, ls, nsegs);
    CZ_CUDA_LAUNCHED();
    for (unsigned lv = 0; ((1u << (wt.c + (wt.nlow < nwin ? 1 : 0) - 1)) / ls) >> lv > 1; lv++) {
        msm_wtree_kern<FP, typename H::rf>
            <<<cz__gpu_blocks((size_t)nsegs * lanes, 128), 128, 0, st>>>(seg, wt, ls, nsegs, lv);
        CZ_CUDA_LAUNCHED();
    }
    msm_wgather_kern<FP><<<1, 64, 0, st>>>(seg + 2 * (size_t)nsegs, seg, wt, ls);
    CZ_CUDA_LAUNCHED();
    CZ_CUDA_TRY(cudaMemcpyAsync(wins, seg + 2 * (size_t)nsegs, nwin * sizeof(X),
                                cudaMemcpyDeviceToHost, st));
    CZ_CUDA_TRY(cudaStreamSynchronize(st));
    prof_mark(pf, P_REDUCE);

    for (int w = (int)nwin - 1; w >= 0; w--) {
        typename H::jac t;
        for (unsigned k = 0; k < win_bits(wt, (unsigned)w); k++)
            H::dbl(ret, ret);
        H::to_jac(&t, &wins[w]);
        H::add(ret, ret, &t);
    }
    if (pf->on) {
        static const char *const where[3] = {"", ", keys in lent memory", ", pairs in lent memory"};
        char acc[48] = "";
        if (ba)
            snprintf(acc, sizeof acc, " (batch-affine, %u streams a thread)", ba_k);
        fprintf(stderr,
                "gpu msm: pippenger n = %zu, W = %u (%u of %u bits, %u of %u), groups of %u%s, %u "
                "segments of %u, %u chunks of %u%s\n",
                n, nwin, wt.nlow, wt.c, nwin - wt.nlow, wt.c + 1, g, where[plan.lent], nsegs, ls,
                pchunks, plen, acc);
    }
out:
    cudaFreeAsync(temp, st);
    cudaFreeAsync(seg, st);
    cudaFreeAsync(buckets, st);
    cudaFreeAsync(part, st);
    cudaFreeAsync(ba_mem, st);
    cudaFreeAsync(owner, st);
    cudaFreeAsync(start, st);
    for (int k = 0; k < 2; k++) {
        if (plan.lent == PAIRS_POOL)
            cudaFreeAsync(keys[k], st);
        if (plan.lent != PAIRS_LENT)
            cudaFreeAsync(vals[k], st);
    }
    if (rc == CZ_OK && cudaStreamSynchronize(st) != cudaSuccess)
        rc = cz__gpu_fail(ei, cudaGetLastError(), "msm: free", __FILE__, __LINE__);
    free(wins);
    return rc;
}

/* Threads of the ones sum for n1 points: for at least ONES_MIN_LEN points a thread, a whole
 * number (1 .. ONES_WAVES) of waves of the resident threads, so the last wave is not a partial
 * one (2^16 threads were 1.3 waves of the 50,688 resident BLS12-381 G1 threads on the H200: the
 * second wave kept a fifth of the SMs busy for as long as the first); fewer points, a power of
 * two with ONES_MIN_LEN points a thread. */
#define ONES_MIN_LEN 64u
#define ONES_WAVES   4u
static uint32_t ones_threads(size_t n1, uint32_t resident) {
    uint32_t nt = 1;
    if (n1 >= (size_t)ONES_MIN_LEN * resident) {
        size_t w = n1 / ((size_t)ONES_MIN_LEN * resident);
        return resident * (uint32_t)(w < ONES_WAVES ? w : ONES_WAVES);
    }
    while (nt < resident && (size_t)nt * ONES_MIN_LEN < n1)
        nt *= 2;
    return nt;
}

/* The batch-affine ones sum (msm_ones_ba_kern): ONES_BA_STREAMS streams for each resident thread,
 * taken where each stream gets at least ONES_BA_ROUNDS points (auto: BLS12-381 G1 only, as for
 * Pippenger's accumulation), so that the final fold of a thread's streams stays small. */
#define ONES_BA_STREAMS 32
#define ONES_BA_ROUNDS  16

/* ret += Σ bases[ones[k]] over k < n1 (device list): nt threads each sum a chunk into part[t]
 * (msm_ones_kern, or their streams by msm_ones_ba_kern), part is padded with infinity to a power
 * of two, and a pairwise tree sums it. */
template <class H>
static int sum_ones(typename H::jac *ret, const cz_gpu_bases *bh, const uint32_t *ones,
                    const uint32_t *d_cnt, size_t n1, const cz_tuning &tu, cz_errinfo *ei) {
    typedef typename H::fp FP;
    typedef typename H::rf RF;
    typedef ec_xyzz<FP> X;
    int rc = CZ_OK, sms = 0, bpsm = 0;
    X *part = NULL;
    fe<FP> *ba_mem = NULL; /* batch-affine: ax, ay, pre of nt·ONES_BA_STREAMS streams each */
    uint32_t nt, np2 = 1, len;
    const uint32_t bs = 128, lanes = fe_lanes<RF>::value;
    typename H::xyzz h;
    typename H::jac t;
    cudaStream_t st = 0;
    CZ_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, bh->dev));
    if constexpr (H::group == 1) {
        const bool want = tu.gpu_msm_accumulation == CZ_ACC_BATCH_AFFINE ||
                          (tu.gpu_msm_accumulation == CZ_ACC_AUTO && H::id == 1);
        if (want) {
            CZ_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                &bpsm, msm_ones_ba_kern<FP, ONES_BA_STREAMS>, (int)bs, 0));
            nt = (uint32_t)(bpsm > 0 ? bpsm : 1) * (uint32_t)(sms > 0 ? sms : 1) * bs;
            const size_t streams = (size_t)nt * ONES_BA_STREAMS,
                         bytes = 3 * streams * sizeof(fe<FP>);
            const size_t room = cz__gpu_async_room();
            if ((tu.gpu_msm_accumulation == CZ_ACC_BATCH_AFFINE ||
                 n1 >= (size_t)ONES_BA_ROUNDS * streams) &&
                room / 2 >= bytes)
                CZ_CUDA_TRY(cudaMallocAsync((void **)&ba_mem, bytes, st));
        }
    }
    if (ba_mem == NULL) {
        CZ_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bpsm, msm_ones_kern<FP, RF>,
                                                                  (int)bs, 0));
        nt = ones_threads(n1, (uint32_t)(bpsm > 0 ? bpsm : 1) * (uint32_t)(sms > 0 ? sms : 1) * bs /
                                  lanes);
    }
    while (np2 < nt)
        np2 *= 2;
    CZ_CUDA_TRY(cudaMallocAsync((void **)&part, (size_t)np2 * sizeof(X), st));
    if (np2 > nt)
        CZ_CUDA_TRY(cudaMemsetAsync(part + nt, 0, (size_t)(np2 - nt) * sizeof(X), st));
    if constexpr (H::group == 1) {
        if (ba_mem != NULL) {
            const size_t streams = (size_t)nt * ONES_BA_STREAMS;
            msm_ones_ba_kern<FP, ONES_BA_STREAMS><<<cz__gpu_blocks(nt, bs), bs, 0, st>>>(
                part, ba_mem, ba_mem + streams, ba_mem + 2 * streams, ones, d_cnt,
                (const ec_aff<FP> *)bh->d_pts, nt);
            CZ_CUDA_LAUNCHED();
        }
    }
    if (ba_mem == NULL) {
        len = (uint32_t)((n1 + nt - 1) / nt);
        msm_ones_kern<FP, RF><<<cz__gpu_blocks((size_t)nt * lanes, bs), bs, 0, st>>>(
            part, ones, d_cnt, (const ec_aff<FP> *)bh->d_pts, len, nt);
        CZ_CUDA_LAUNCHED();
    }
    for (uint32_t half = np2 / 2; half >= 1; half /= 2) {
        msm_tree_kern<FP><<<cz__gpu_blocks(half, 128), 128, 0, st>>>(part, np2, half, 1);
        CZ_CUDA_LAUNCHED();
    }
    CZ_CUDA_TRY(cudaMemcpyAsync(&h, part, sizeof h, cudaMemcpyDeviceToHost, st));
    CZ_CUDA_TRY(cudaStreamSynchronize(st));
    H::to_jac(&t, &h);
    H::add(ret, ret, &t);
out:
    cudaFreeAsync(part, st);
    cudaFreeAsync(ba_mem, st);
    return rc;
}

/* The MSM over device scalars d_s (Montgomery Fr) and the handle's first n bases (of a sparse
 * handle: its stored points below n, with their scalars gathered). */
template <class H>
static int msm_run(typename H::jac *ret, const cz_gpu_bases *bh, const void *d_s, size_t n,
                   const msm_lent &lent, cz_errinfo *ei) {
    int rc = CZ_OK;
    cz_tuning tu;
    int mode; /* -1 auto, 0 never, 1 always */
    uint32_t *lists = NULL, *d_cnt = NULL, cnt[2] = {0, 0};
    void *gathered = NULL;
    cudaStream_t st = 0;
    prof pf;
    memset(&pf, 0, sizeof pf);
    cz_tuning_get(&tu);
    mode = cz_tuning_split(&tu);
    pf.on = tu.msm_profile;
    if (n >= ((size_t)1 << 31))
        return cz_fail(ei, CZ_ERANGE, "gpu msm: n = %zu too large (< 2^31)", n);
    if ((rc = cz__gpu_select(bh->dev, ei)) != CZ_OK)
        return rc;
    if ((rc = cz__gpu_pool_keep(bh->dev, ei)) != CZ_OK)
        return rc;
    if (pf.on) {
        cudaEventCreate(&pf.ev[0]);
        cudaEventCreate(&pf.ev[1]);
        cudaEventRecord(pf.ev[0], 0);
    }
    if (bh->d_idx != NULL) {
        /* sparse bases (gpu_msm_sparse.cu): the scalars of the stored points below n, in order */
        size_t m = 0;
        if ((rc = cz__gpu_bases_stored_below(&m, bh, n, st, ei)) != CZ_OK)
            goto out;
        CZ_CUDA_TRY(cudaMallocAsync(&gathered, m ? m * sizeof(typename H::scalar) : 1, st));
        if ((rc = cz__gpu_gather(gathered, d_s, bh->d_idx, m, sizeof(typename H::scalar), st,
                                 ei)) != CZ_OK)
            goto out;
        d_s = gathered;
        n = m;
    }
    if (mode != 0 && n > 0) {
        CZ_CUDA_TRY(cudaMallocAsync((void **)&lists, 2 * n * 4, st));
        CZ_CUDA_TRY(cudaMallocAsync((void **)&d_cnt, 8, st));
        CZ_CUDA_TRY(cudaMemsetAsync(d_cnt, 0, 8, st));
        msm_classify_kern<typename H::fr><<<cz__gpu_blocks(n, 256), 256, 0, st>>>(
            lists, lists + n, d_cnt, (const fe<typename H::fr> *)d_s, n);
        CZ_CUDA_LAUNCHED();
        CZ_CUDA_TRY(cudaMemcpyAsync(cnt, d_cnt, 8, cudaMemcpyDeviceToHost, st));
        CZ_CUDA_TRY(cudaStreamSynchronize(st));
        if (mode < 0 && (n - cnt[0]) < n / 8)
            mode = 0; /* too few zeros and ones to pay for the split */
        prof_mark(&pf, P_SPLIT);
    }
    if (mode == 0 || n == 0) {
        rc = pippenger<H>(ret, bh, d_s, NULL, n, tu, lent, &pf, ei);
    } else {
        rc = pippenger<H>(ret, bh, d_s, lists, cnt[0], tu, lent, &pf, ei);
        if (rc == CZ_OK && cnt[1] > 0)
            rc = sum_ones<H>(ret, bh, lists + n, d_cnt + 1, cnt[1], tu, ei);
        prof_mark(&pf, P_SPLIT);
    }
    if (pf.on) {
        fprintf(stderr, "gpu msm profile: n = %zu, split %s (others %u, ones %u):", n,
                lists != NULL && mode != 0 ? "on" : "off", cnt[0], cnt[1]);
        for (int k = 0; k < P_NPH; k++)
            fprintf(stderr, " %s %.3f ms", phase_names[k], pf.ms[k]);
        fprintf(stderr, "\n");
    }
out:
    cudaFreeAsync(lists, st);
    cudaFreeAsync(d_cnt, st);
    cudaFreeAsync(gathered, st);
    if (rc == CZ_OK && cudaStreamSynchronize(st) != cudaSuccess)
        rc = cz__gpu_fail(ei, cudaGetLastError(), "msm: split free", __FILE__, __LINE__);
    if (pf.on) {
        cudaEventDestroy(pf.ev[0]);
        cudaEventDestroy(pf.ev[1]);
    }
    return rc;
}

template <class H> static int msm_check(const cz_gpu_bases *b, size_t n, cz_errinfo *ei) {
    if (b == NULL)
        return cz_fail(ei, CZ_EINVAL, "gpu msm: no bases");
    if (b->curve != H::id)
        return cz_fail(ei, CZ_ECURVE, "gpu msm: bases of the other curve");
    if (b->group != H::group)
        return cz_fail(ei, CZ_ECURVE, "gpu msm: G%d bases given to a G%d MSM", b->group,
                       (int)H::group);
    if (n > b->n)
        return cz_fail(ei, CZ_ERANGE, "gpu msm: n = %zu > %zu bases", n, b->n);
    return CZ_OK;
}

/* The MSM over device scalars, with d_lent (lent_bytes; NULL or 0: none) lent for its
 * temporaries: used from its first 256-byte boundary, refused where it overlaps the scalars. */
template <class H>
static int msm_dev(typename H::jac *ret, const cz_gpu_bases *b, const void *d_s, size_t n,
                   void *d_lent, size_t lent_bytes, cz_errinfo *ei) {
    msm_lent lent = {NULL, 0};
    int rc = msm_check<H>(b, n, ei);
    if (rc != CZ_OK)
        return rc;
    if (d_lent != NULL && lent_bytes > 0) {
        const uintptr_t lo = (uintptr_t)d_lent, hi = lo + lent_bytes, s0 = (uintptr_t)d_s,
                        s1 = s0 + n * sizeof(typename H::scalar), a = (lo + 255) & ~(uintptr_t)255;
        if (n > 0 && lo < s1 && s0 < hi)
            return cz_fail(ei, CZ_EINVAL, "gpu msm: the lent memory overlaps the scalars");
        if (a < hi) {
            lent.p = (uint8_t *)a;
            lent.bytes = (size_t)(hi - a);
        }
    }
    return msm_run<H>(ret, b, d_s, n, lent, ei);
}

template <class H>
static int msm_host(typename H::jac *ret, const cz_gpu_bases *b, const typename H::scalar *s,
                    size_t n, cz_errinfo *ei) {
    void *d_s = NULL;
    int rc = msm_check<H>(b, n, ei);
    if (rc != CZ_OK)
        return rc;
    if ((rc = cz__gpu_select(b->dev, ei)) != CZ_OK)
        return rc;
    CZ_CUDA_TRY(cudaMalloc(&d_s, n ? n * sizeof *s : 1));
    if (n)
        CZ_CUDA_TRY(cudaMemcpy(d_s, s, n * sizeof *s, cudaMemcpyHostToDevice));
    rc = msm_run<H>(ret, b, d_s, n, msm_lent{NULL, 0}, ei);
out:
    cudaFree(d_s);
    return rc;
}

/* The extern "C" entry points of one group of one curve (cuzk/gpu.h), instantiated by
 * gpu_msm.cu (G1) and gpu_msm_g2_<curve>.cu. */
#define MSM_API(CURVE, G, H)                                                                       \
    extern "C" int cz_##CURVE##_gpu_##G##_msm(                                                     \
        cz_##CURVE##_##G##_jacobian *ret, const cz_gpu_bases *b, const cz_##CURVE##_fr *scalars,   \
        size_t n, cz_errinfo *ei) {                                                                \
        return msm_host<H>(ret, b, scalars, n, ei);                                                \
    }                                                                                              \
    extern "C" int cz_##CURVE##_gpu_##G##_msm_dev(cz_##CURVE##_##G##_jacobian *ret,                \
                                                  const cz_gpu_bases *b, const void *d_scalars,    \
                                                  size_t n, cz_errinfo *ei) {                      \
        return msm_dev<H>(ret, b, d_scalars, n, NULL, 0, ei);                                      \
    }                                                                                              \
    extern "C" int cz_##CURVE##_gpu_##G##_msm_dev_lent(                                            \
        cz_##CURVE##_##G##_jacobian *ret, const cz_gpu_bases *b, const void *d_scalars, size_t n,  \
        void *d_lent, size_t lent_bytes, cz_errinfo *ei) {                                         \
        return msm_dev<H>(ret, b, d_scalars, n, d_lent, lent_bytes, ei);                           \
    }                                                                                              \
    extern "C" size_t cz_##CURVE##_gpu_##G##_msm_min_bytes(size_t n) {                             \
        return msm_min_bytes<H>(n);                                                                \
    }

#endif
