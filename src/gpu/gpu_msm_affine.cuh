/*
 * Batch-affine bucket accumulation for the GPU MSM (included by gpu_msm.cu; CZ_GPU_MSM_ACC=affine).
 *
 * Same contract as msm_acc_kern: chunk t owns the sorted pairs [lo, hi) = [t·len, t·len + len) ∩
 * [0, V) and writes each bucket run it sees to buckets[key] (inside the chunk), part[2t] (run
 * starting before lo) or part[2t + 1] with owner[t] = key (run starting inside, ending after hi),
 * so the combine kernels are shared. Inside the chunk the points of each bucket run are first
 * added in pairs in affine coordinates, with one field inversion for the whole chunk:
 *
 *   pairing: the run of key k inside the chunk starts at rs = max(start[k], lo) and ends at
 *   re = min(start[k + 1], hi); the pairs are (rs, rs + 1), (rs + 2, rs + 3), ...; an odd last
 *   element is single. A pair is "valid" when neither point is infinity and x1 != x2; an invalid
 *   pair (infinity, P + P, P + (-P)) is treated as two singles, so the exceptional cases go
 *   through the complete XYZZ addition.
 *   pass A (forward): for the j-th valid pair, pre[j] = Π_{i <= j} (x2 - x1)_i, stored in this
 *   thread's scratch slots (one 12- or 8-limb element per pair).
 *   inversion: inv = pre[np - 1]⁻¹ (Fermat, fe_inv_pow: ~32N squarings + ~16N multiplications,
 *   shared by the ~len/2 pairs of the chunk).
 *   pass B (backward, hi - 1 down to lo): at the upper element e of a valid pair j (j counted
 *   down from np - 1): 1/(x2 - x1)_j = inv·pre[j - 1] (inv for j = 0), then inv ·= (x2 - x1)_j
 *   (so inv = pre[j - 1]⁻¹ for the next pair down); λ = (y2 - y1)/(x2 - x1), x3 = λ² - x1 - x2,
 *   y3 = λ(x1 - x3) - y1 (never infinity since x1 != x2), and (x3, y3) is added to the bucket's
 *   XYZZ accumulator with madd-2008-s; singles are added directly. The accumulator is flushed at
 *   every key change, walking downward (where a run goes depends only on its key, lo and hi).
 *
 * Both passes derive the pairing and the validity from the same data (keys, start, the points),
 * so pass B meets the valid pairs exactly in the reverse order of pass A. Cost per valid pair:
 * 5M + 1S (3M Montgomery's trick, λ, y3; λ²) + the inversion's share, then one madd (8M + 2S)
 * for the two points, instead of two madds (16M + 4S). Extra memory traffic: each pair's two
 * points are gathered twice, and one element is written and read back per pair.
 *
 * Threads are persistent (the grid is about what fits on the device, each thread walks chunks
 * t, t + nthr, ...) so the scratch is nthr·nslots elements, not one slot per sorted pair.
 * tests/gpu/test_gpu_msm_affine_cpu.c runs the same schedule with the CPU field and curve code.
 */
#ifndef CUZK_GPU_MSM_AFFINE_CUH
#define CUZK_GPU_MSM_AFFINE_CUH

#include "gpu_curve.cuh"

/* Point of sorted pair k: x, y (negated for a negative digit when sign); false for infinity. */
template <class FP>
static __device__ __forceinline__ bool aff_load(fe<FP> &x, fe<FP> &y, const uint32_t *vals,
                                                const ec_aff<FP> *pts, uint32_t k, bool sign) {
    uint32_t v = vals[k];
    const ec_aff<FP> *p = &pts[v & 0x7fffffffu];
    x = fe_load(&p->x);
    y = fe_load(&p->y);
    if (fe_is_zero(x) && fe_is_zero(y))
        return false;
    if (sign && (v >> 31) != 0)
        fe_neg(y, y);
    return true;
}

/* Stores a finished run of key to buckets / part[2t] / part[2t + 1] (the XYZZ accumulation of
 * gpu_msm_impl.cuh and the batch-affine one here). */
template <class FP>
static __device__ __forceinline__ void
aff_flush(ec_xyzz<FP> *buckets, ec_xyzz<FP> *part, uint32_t *owner, const uint32_t *start,
          uint32_t t, uint32_t key, uint32_t lo, uint32_t hi, const ec_xyzz<FP> &acc) {
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

/* Chunks t = tid, tid + nthr, ... (see the file comment); scratch holds nslots >= len/2 elements
 * per thread. */
template <class FP, bool FS>
__global__ void __launch_bounds__(128)
    msm_acc_aff_kern(ec_xyzz<FP> *buckets, ec_xyzz<FP> *part, uint32_t *owner, fe<FP> *scratch,
                     const uint32_t *start, const uint32_t *keys, const uint32_t *vals,
                     const ec_aff<FP> *pts, uint32_t nb, uint32_t len, uint32_t nchunks,
                     uint32_t nslots) {
    uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x, nthr = gridDim.x * blockDim.x;
    fe<FP> *pre = scratch + (size_t)tid * nslots;
    uint32_t nvalid = start[nb];
    for (uint32_t t = tid; t < nchunks; t += nthr) {
        owner[t] = NO_OWNER;
        uint32_t lo = t * len;
        if (lo >= nvalid)
            continue;
        uint32_t hi = nvalid - lo > len ? lo + len : nvalid;

        /* pass A: prefix products of x2 - x1 over the valid pairs */
        fe<FP> prod;
        fe_one(prod);
        uint32_t np = 0;
        for (uint32_t k = lo; k < hi;) {
            uint32_t re = start[keys[k] + 1];
            if (k + 1 < hi && k + 1 < re) {
                fe<FP> x1, y1, x2, y2;
                bool ok1 = aff_load(x1, y1, vals, pts, k, false);
                bool ok2 = aff_load(x2, y2, vals, pts, k + 1, false);
                fe_sub(x2, x2, x1);
                if (ok1 && ok2 && !fe_is_zero(x2)) {
                    fe_mul(prod, prod, x2);
                    fe_store(&pre[np], prod);
                    np++;
                }
                k += 2;
            } else {
                k += 1;
            }
        }

        /* pass B: downward, pair sums from the shared inverse, XYZZ accumulation per run */
        fe<FP> inv;
        if (np > 0)
            fe_inv_pow(inv, prod);
        else
            fe_zero(inv);
        ec_xyzz<FP> acc;
        xyzz_set_inf(acc);
        uint32_t key = keys[hi - 1];
        for (uint32_t k = hi; k > lo;) {
            uint32_t e = k - 1, kk = keys[e];
            if (kk != key) {
                aff_flush(buckets, part, owner, start, t, key, lo, hi, acc);
                key = kk;
                xyzz_set_inf(acc);
            }
            uint32_t rs = start[kk];
            rs = rs < lo ? lo : rs;
            fe<FP> x, y;
            bool have = aff_load(x, y, vals, pts, e, true);
            k = e;
            if (((e - rs) & 1) != 0) { /* e is the upper element of the pair (e - 1, e) */
                fe<FP> x1, y1, dx;
                bool ok1 = aff_load(x1, y1, vals, pts, e - 1, true);
                fe_sub(dx, x, x1);
                if (ok1 && have && !fe_is_zero(dx)) {
                    fe<FP> ik, lam, t2, x3;
                    np--;
                    if (np > 0) {
                        fe<FP> pv = fe_load(&pre[np - 1]);
                        fe_mul(ik, inv, pv); /* 1/dx */
                    } else {
                        ik = inv;
                    }
                    fe_mul(inv, inv, dx);
                    fe_sub(t2, y, y1);
                    fe_mul(lam, t2, ik);
                    fe_sqr_sel<FS>(t2, lam);
                    fe_sub(t2, t2, x1);
                    fe_sub(x3, t2, x);
                    fe_sub(t2, x1, x3);
                    fe_mul(t2, lam, t2);
                    fe_sub(y, t2, y1);
                    x = x3;
                    k = e - 1;
                }
            }
            if (have)
                xyzz_add_affine<FP, FS>(acc, x, y, false);
        }
        aff_flush(buckets, part, owner, start, t, key, lo, hi, acc);
    }
}

#endif
