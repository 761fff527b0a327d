/*
 * G1 multi-scalar multiplication on the GPU (Pippenger), BN254 and BLS12-381 (API: cuzk/gpu.h).
 *
 * With window width c (from n: c = clamp(ceil(log2 n) - 4, 4, 16)) and W = ceil((bits + 1)/c)
 * windows, every scalar is cut into W signed digits d in (-2^(c-1), 2^(c-1)] (a digit above
 * 2^(c-1) becomes d - 2^c with a carry into the next window, so W·c >= bits + 1 leaves no carry
 * out of the top). Each window has M = 2^(c-1) buckets; bucket |d| of window w gets ±P_i.
 *
 *   1. digits_kern: one thread per scalar (Montgomery in, converted to the integer on the fly)
 *      writes W (key, value) pairs: key = w·M + |d| - 1 (or the sentinel W·M for d = 0), value =
 *      i | sign << 31.
 *   2. CUB radix sort of the n·W pairs by key (only the low ceil(log2(W·M + 1)) bits), so each
 *      bucket's points become one contiguous run; bounds_kern finds each run by binary search.
 *   3. bucket_acc_kern: one thread per bucket adds its points (affine, sign applied) into an XYZZ
 *      accumulator (madd-2008-s, 8M + 2S); infinity bases are skipped.
 *   4. Bucket reduction Σ_k k·B_k per window, in S segments of L = M/S buckets per thread: the
 *      running-sum trick inside a segment (segment_kern), plus (j·L)·(segment sum) by
 *      double-and-add (weight_kern, a separate launch to keep register pressure under the
 *      spill limit), then a pairwise tree over the S segment results (log2 S launches).
 *   5. The W window sums go to the host, which combines them by Horner (c doublings a window)
 *      with the CPU curve code: W·c doublings, negligible.
 *
 * Memory per call (stream-ordered cudaMallocAsync, so repeated calls reuse the pool): 16·n·W
 * bytes of pairs (double-buffered for the sort) + CUB's scratch + 4·(W·M+1) bytes of bounds +
 * the buckets (W·M XYZZ points) + 2·W·S segment points. n·W must stay below 2^31.
 * Not yet done: splitting heavy buckets (a skewed scalar distribution puts one bucket on one
 * thread), a faster multiplication, precomputed window shifts. Correctness does not depend on
 * the scalar distribution.
 */
#include <stdlib.h>
#include <string.h>

#include <cub/device/device_radix_sort.cuh>

#include "cuzk/curve.h"
#include "gpu_common.cuh"
#include "gpu_curve.cuh"

struct cz_gpu_bases {
    int dev;
    int curve; /* 0 = BN254, 1 = BLS12-381 */
    size_t n;
    void *d_pts; /* n host-layout affine points */
};

/* ---- kernels ---- */

template <class FR>
__global__ void msm_digits_kern(uint32_t *keys, uint32_t *vals, const fe<FR> *scalars, size_t n,
                                unsigned c, unsigned nwin) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    fe<FR> s = fe_load(&scalars[i]);
    fe_from_mont(s, s);
    const uint32_t half = 1u << (c - 1), mask = (1u << c) - 1, sentinel = nwin * half;
    uint32_t carry = 0;
    for (unsigned w = 0; w < nwin; w++) {
        unsigned off = w * c, limb = off >> 5, sh = off & 31;
        uint32_t lo = 0, hi = 0;
#pragma unroll
        for (int k = 0; k < FR::N; k++) {
            lo = (k == (int)limb) ? s.l[k] : lo;
            hi = (k == (int)limb + 1) ? s.l[k] : hi;
        }
        uint32_t raw = (lo >> sh) | (sh ? (hi << (32 - sh)) : 0);
        uint32_t d = (raw & mask) + carry;
        uint32_t neg = 0, mag = d;
        carry = 0;
        if (d > half) {
            mag = (1u << c) - d;
            neg = 1;
            carry = 1;
        }
        size_t o = (size_t)w * n + i;
        keys[o] = mag ? w * half + mag - 1 : sentinel;
        vals[o] = (uint32_t)i | (neg << 31);
    }
}

/* start[b] = first position of key >= b in the sorted keys, for b = 0 .. nb. */
__global__ void msm_bounds_kern(uint32_t *start, const uint32_t *keys, size_t total, uint32_t nb) {
    uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b > nb)
        return;
    size_t lo = 0, hi = total;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (keys[mid] < b)
            lo = mid + 1;
        else
            hi = mid;
    }
    start[b] = (uint32_t)lo;
}

template <class FP>
__global__ void __launch_bounds__(128)
    msm_bucket_acc_kern(g1_xyzz<FP> *buckets, const uint32_t *start, const uint32_t *vals,
                        const g1_aff<FP> *pts, uint32_t nb) {
    uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= nb)
        return;
    g1_xyzz<FP> acc;
    xyzz_set_inf(acc);
    for (uint32_t k = start[b], e = start[b + 1]; k < e; k++) {
        uint32_t v = vals[k];
        const g1_aff<FP> *p = &pts[v & 0x7fffffffu];
        fe<FP> x = fe_load(&p->x), y = fe_load(&p->y);
        if (fe_is_zero(x) && fe_is_zero(y))
            continue;
        xyzz_add_affine(acc, x, y, (v >> 31) != 0);
    }
    xyzz_store(&buckets[b], acc);
}

/* An out-of-line xyzz_add: the segment kernel calls it twice per bucket, and inlining both copies
 * of the 12-limb formula would spill. */
template <class FP>
static __device__ __noinline__ void xyzz_add_call(g1_xyzz<FP> &acc, const g1_xyzz<FP> &b) {
    xyzz_add(acc, b);
}

/* Thread (w, j) of segment j of window w: acc[w·S + j] = Σ_{idx in segment} (idx - j·L + 1)·B_idx
 * and run[w·S + j] = Σ_{idx in segment} B_idx (the running-sum trick from the top bucket down). */
template <class FP>
__global__ void __launch_bounds__(128)
    msm_segment_kern(g1_xyzz<FP> *acc_out, g1_xyzz<FP> *run_out, const g1_xyzz<FP> *buckets,
                     uint32_t m, uint32_t nseg, uint32_t nwin) {
    uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id >= nwin * nseg)
        return;
    uint32_t w = id / nseg, j = id % nseg, len = m / nseg;
    const g1_xyzz<FP> *bk = buckets + (size_t)w * m + (size_t)j * len;
    g1_xyzz<FP> running, acc;
    xyzz_set_inf(running);
    xyzz_set_inf(acc);
    for (int idx = (int)len - 1; idx >= 0; idx--) {
        {
            g1_xyzz<FP> t;
            xyzz_load(t, &bk[idx]);
            xyzz_add_call(running, t);
        }
        xyzz_add_call(acc, running);
    }
    xyzz_store(&acc_out[id], acc);
    xyzz_store(&run_out[id], running);
}

/* seg[id] += (j·L)·run[id]: the weight of the buckets below segment j (double-and-add). */
template <class FP>
__global__ void __launch_bounds__(128) msm_weight_kern(g1_xyzz<FP> *seg, const g1_xyzz<FP> *run,
                                                       uint32_t m, uint32_t nseg, uint32_t nwin) {
    uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id >= nwin * nseg)
        return;
    uint32_t j = id % nseg, k = j * (m / nseg);
    if (k == 0)
        return;
    g1_xyzz<FP> p, r;
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

/* seg[w·S + j] += seg[w·S + j + half] for j < half. */
template <class FP>
__global__ void __launch_bounds__(128)
    msm_tree_kern(g1_xyzz<FP> *seg, uint32_t nseg, uint32_t half, uint32_t nwin) {
    uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id >= nwin * half)
        return;
    uint32_t w = id / half, j = id % half;
    g1_xyzz<FP> a, b;
    xyzz_load(a, &seg[(size_t)w * nseg + j]);
    xyzz_load(b, &seg[(size_t)w * nseg + j + half]);
    xyzz_add(a, b);
    xyzz_store(&seg[(size_t)w * nseg + j], a);
}

/* ---- host side ---- */

struct msm_bn254 {
    typedef gbn254_fp_cfg fp;
    typedef gbn254_fr_cfg fr;
    typedef cz_bn254_g1_affine aff;
    typedef cz_bn254_g1_jacobian jac;
    typedef cz_bn254_g1_xyzz xyzz;
    typedef cz_bn254_fr scalar;
    enum { id = 0, bits = 254 };
    static void dbl(jac *r, const jac *p) {
        cz_bn254_g1_dbl(r, p);
    }
    static void add(jac *r, const jac *a, const jac *b) {
        cz_bn254_g1_add(r, a, b);
    }
    static void to_jac(jac *r, const xyzz *p) {
        cz_bn254_g1_xyzz_to_jacobian(r, p);
    }
};
struct msm_bls12381 {
    typedef gbls12381_fp_cfg fp;
    typedef gbls12381_fr_cfg fr;
    typedef cz_bls12381_g1_affine aff;
    typedef cz_bls12381_g1_jacobian jac;
    typedef cz_bls12381_g1_xyzz xyzz;
    typedef cz_bls12381_fr scalar;
    enum { id = 1, bits = 255 };
    static void dbl(jac *r, const jac *p) {
        cz_bls12381_g1_dbl(r, p);
    }
    static void add(jac *r, const jac *a, const jac *b) {
        cz_bls12381_g1_add(r, a, b);
    }
    static void to_jac(jac *r, const xyzz *p) {
        cz_bls12381_g1_xyzz_to_jacobian(r, p);
    }
};

static unsigned ceil_log2(size_t n) {
    unsigned k = 0;
    while (((size_t)1 << k) < n)
        k++;
    return k;
}

template <class H>
static int bases_upload(cz_gpu_bases **out, const typename H::aff *bases, size_t n, int dev,
                        cz_errinfo *ei) {
    int rc;
    cz_gpu_bases *b;
    *out = NULL;
    if ((rc = cz__gpu_select(dev, ei)) != CZ_OK)
        return rc;
    b = (cz_gpu_bases *)calloc(1, sizeof *b);
    if (b == NULL)
        return cz_fail(ei, CZ_ENOMEM, "gpu msm: bases handle");
    b->dev = dev;
    b->curve = H::id;
    b->n = n;
    CZ_CUDA_TRY(cudaMalloc(&b->d_pts, n ? n * sizeof(typename H::aff) : 1));
    if (n)
        CZ_CUDA_TRY(
            cudaMemcpy(b->d_pts, bases, n * sizeof(typename H::aff), cudaMemcpyHostToDevice));
    *out = b;
    b = NULL;
out:
    if (b != NULL) {
        cudaFree(b->d_pts);
        free(b);
    }
    return rc;
}

extern "C" void cz_gpu_bases_free(cz_gpu_bases *b) {
    if (b == NULL)
        return;
    if (cudaSetDevice(b->dev) == cudaSuccess)
        cudaFree(b->d_pts);
    free(b);
}

extern "C" size_t cz_gpu_bases_count(const cz_gpu_bases *b) {
    return b ? b->n : 0;
}

/* The MSM over device scalars d_s (Montgomery Fr) and the handle's first n bases. */
template <class H>
static int msm_run(typename H::jac *ret, const cz_gpu_bases *bh, const void *d_s, size_t n,
                   cz_errinfo *ei) {
    typedef typename H::fp FP;
    typedef g1_xyzz<FP> X;
    int rc = CZ_OK;
    uint32_t *keys[2] = {NULL, NULL}, *vals[2] = {NULL, NULL}, *start = NULL;
    void *temp = NULL;
    X *buckets = NULL, *seg = NULL;
    typename H::xyzz *wins = NULL;
    size_t temp_bytes = 0, total;
    unsigned lg = ceil_log2(n), c, nwin, nseg, key_bits;
    uint32_t m, nb;
    cudaStream_t st = 0;

    {
        typename H::xyzz z;
        memset(&z, 0, sizeof z);
        H::to_jac(ret, &z); /* infinity */
    }
    if (n == 0)
        return CZ_OK;
    c = lg > 20 ? 16 : (lg < 8 ? 4 : lg - 4);
    nwin = (H::bits + 1 + c - 1) / c;
    m = 1u << (c - 1);
    nb = nwin * m;
    total = n * nwin;
    if (n >= ((size_t)1 << 31) || total >= ((size_t)1 << 31))
        return cz_fail(ei, CZ_ERANGE, "gpu msm: n = %zu too large (n·windows must be < 2^31)", n);
    nseg = 1;
    while (nseg < m && nwin * nseg * 2 <= 32768)
        nseg *= 2;
    key_bits = ceil_log2((size_t)nb + 1);
    if ((rc = cz__gpu_select(bh->dev, ei)) != CZ_OK)
        return rc;

    for (int k = 0; k < 2; k++) {
        CZ_CUDA_TRY(cudaMallocAsync((void **)&keys[k], total * 4, st));
        CZ_CUDA_TRY(cudaMallocAsync((void **)&vals[k], total * 4, st));
    }
    CZ_CUDA_TRY(cudaMallocAsync((void **)&start, ((size_t)nb + 1) * 4, st));
    CZ_CUDA_TRY(cudaMallocAsync((void **)&buckets, (size_t)nb * sizeof(X), st));
    CZ_CUDA_TRY(cudaMallocAsync((void **)&seg, 2 * (size_t)nwin * nseg * sizeof(X), st));
    wins = (typename H::xyzz *)malloc(nwin * sizeof *wins);
    if (wins == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "gpu msm: window sums");
        goto out;
    }

    msm_digits_kern<typename H::fr><<<cz__gpu_blocks(n, 256), 256, 0, st>>>(
        keys[0], vals[0], (const fe<typename H::fr> *)d_s, n, c, nwin);
    CZ_CUDA_LAUNCHED();
    {
        cub::DoubleBuffer<uint32_t> dk(keys[0], keys[1]), dv(vals[0], vals[1]);
        CZ_CUDA_TRY(cub::DeviceRadixSort::SortPairs(NULL, temp_bytes, dk, dv, (int)total, 0,
                                                    (int)key_bits, st));
        CZ_CUDA_TRY(cudaMallocAsync(&temp, temp_bytes, st));
        CZ_CUDA_TRY(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, dk, dv, (int)total, 0,
                                                    (int)key_bits, st));
        msm_bounds_kern<<<cz__gpu_blocks((size_t)nb + 1, 256), 256, 0, st>>>(start, dk.Current(),
                                                                             total, nb);
        CZ_CUDA_LAUNCHED();
        msm_bucket_acc_kern<FP><<<cz__gpu_blocks(nb, 128), 128, 0, st>>>(
            buckets, start, dv.Current(), (const g1_aff<FP> *)bh->d_pts, nb);
        CZ_CUDA_LAUNCHED();
    }
    /* seg[0 .. W·S) gets the segments' weighted sums, seg[W·S .. 2·W·S) their plain sums */
    msm_segment_kern<FP><<<cz__gpu_blocks((size_t)nwin * nseg, 128), 128, 0, st>>>(
        seg, seg + (size_t)nwin * nseg, buckets, m, nseg, nwin);
    CZ_CUDA_LAUNCHED();
    msm_weight_kern<FP><<<cz__gpu_blocks((size_t)nwin * nseg, 128), 128, 0, st>>>(
        seg, seg + (size_t)nwin * nseg, m, nseg, nwin);
    CZ_CUDA_LAUNCHED();
    for (uint32_t half = nseg / 2; half >= 1; half /= 2) {
        msm_tree_kern<FP>
            <<<cz__gpu_blocks((size_t)nwin * half, 128), 128, 0, st>>>(seg, nseg, half, nwin);
        CZ_CUDA_LAUNCHED();
    }
    CZ_CUDA_TRY(cudaMemcpy2DAsync(wins, sizeof(X), seg, nseg * sizeof(X), sizeof(X), nwin,
                                  cudaMemcpyDeviceToHost, st));
    CZ_CUDA_TRY(cudaStreamSynchronize(st));

    for (int w = (int)nwin - 1; w >= 0; w--) {
        typename H::jac t;
        for (unsigned k = 0; k < c; k++)
            H::dbl(ret, ret);
        H::to_jac(&t, &wins[w]);
        H::add(ret, ret, &t);
    }
out:
    cudaFreeAsync(temp, st);
    cudaFreeAsync(seg, st);
    cudaFreeAsync(buckets, st);
    cudaFreeAsync(start, st);
    for (int k = 0; k < 2; k++) {
        cudaFreeAsync(keys[k], st);
        cudaFreeAsync(vals[k], st);
    }
    if (rc == CZ_OK && cudaStreamSynchronize(st) != cudaSuccess)
        rc = cz__gpu_fail(ei, cudaGetLastError(), "msm: free", __FILE__, __LINE__);
    free(wins);
    return rc;
}

template <class H> static int msm_check(const cz_gpu_bases *b, size_t n, cz_errinfo *ei) {
    if (b == NULL)
        return cz_fail(ei, CZ_EINVAL, "gpu msm: no bases");
    if (b->curve != H::id)
        return cz_fail(ei, CZ_ECURVE, "gpu msm: bases of the other curve");
    if (n > b->n)
        return cz_fail(ei, CZ_ERANGE, "gpu msm: n = %zu > %zu bases", n, b->n);
    return CZ_OK;
}

template <class H>
static int msm_dev(typename H::jac *ret, const cz_gpu_bases *b, const void *d_s, size_t n,
                   cz_errinfo *ei) {
    int rc = msm_check<H>(b, n, ei);
    if (rc != CZ_OK)
        return rc;
    return msm_run<H>(ret, b, d_s, n, ei);
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
    rc = msm_run<H>(ret, b, d_s, n, ei);
out:
    cudaFree(d_s);
    return rc;
}

extern "C" int cz_bn254_gpu_g1_bases_upload(cz_gpu_bases **b, const cz_bn254_g1_affine *bases,
                                            size_t n, int dev, cz_errinfo *ei) {
    return bases_upload<msm_bn254>(b, bases, n, dev, ei);
}
extern "C" int cz_bls12381_gpu_g1_bases_upload(cz_gpu_bases **b, const cz_bls12381_g1_affine *bases,
                                               size_t n, int dev, cz_errinfo *ei) {
    return bases_upload<msm_bls12381>(b, bases, n, dev, ei);
}
extern "C" int cz_bn254_gpu_g1_msm(cz_bn254_g1_jacobian *ret, const cz_gpu_bases *b,
                                   const cz_bn254_fr *scalars, size_t n, cz_errinfo *ei) {
    return msm_host<msm_bn254>(ret, b, scalars, n, ei);
}
extern "C" int cz_bls12381_gpu_g1_msm(cz_bls12381_g1_jacobian *ret, const cz_gpu_bases *b,
                                      const cz_bls12381_fr *scalars, size_t n, cz_errinfo *ei) {
    return msm_host<msm_bls12381>(ret, b, scalars, n, ei);
}
extern "C" int cz_bn254_gpu_g1_msm_dev(cz_bn254_g1_jacobian *ret, const cz_gpu_bases *b,
                                       const void *d_scalars, size_t n, cz_errinfo *ei) {
    return msm_dev<msm_bn254>(ret, b, d_scalars, n, ei);
}
extern "C" int cz_bls12381_gpu_g1_msm_dev(cz_bls12381_g1_jacobian *ret, const cz_gpu_bases *b,
                                          const void *d_scalars, size_t n, cz_errinfo *ei) {
    return msm_dev<msm_bls12381>(ret, b, d_scalars, n, ei);
}
