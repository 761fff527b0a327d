/*
 * The MSM bases handle (cuzk/gpu.h): upload of host bases, and bases in arithmetic progression
 * P_i = p0 + i·step generated on the device (for tests and benchmarks at 2^24 .. 2^27 points,
 * where the CPU would need minutes: Σ s_i·P_i is then [Σ s_i·(a + i·d)]G for p0 = aG, step = dG).
 *
 * Generation runs in rounds of R points through a scratch buffer (R XYZZ points + R prefix
 * products). Thread t of a round owns K consecutive points: it computes its first point as
 * p0 + (first index)·step by double-and-add (at most log2 n steps), walks K - 1 mixed additions
 * of step storing each XYZZ point and the running product of u_j = ZZ_j·ZZZ_j, inverts the
 * product once (Fermat), and walks back: 1/u_j from the prefix products (Montgomery's trick),
 * x = X·ZZZ/u, y = Y·ZZ/u. About 20 multiplications a point plus one inversion per K points.
 * Points at infinity (a + i·d = 0 mod r) come out as (0, 0), the affine infinity.
 */
#include <stdlib.h>
#include <string.h>

#include "gpu_msm.cuh"

#define PROG_K     128u
#define PROG_ROUND ((size_t)1 << 21)

template <class FP>
__global__ void __launch_bounds__(128)
    msm_progression_kern(g1_aff<FP> *out, g1_xyzz<FP> *tmp, fe<FP> *pre, g1_aff<FP> p0,
                         g1_aff<FP> step, size_t first, size_t n) {
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t i0 = first + t * PROG_K, lt = t * PROG_K;
    if (i0 >= n)
        return;
    uint32_t cnt = (uint32_t)(n - i0 < PROG_K ? n - i0 : PROG_K);
    g1_xyzz<FP> q;
    xyzz_set_inf(q);
    for (int b = 63 - __clzll((long long)(i0 | 1)); b >= 0; b--) {
        xyzz_dbl(q, q);
        if ((i0 >> b) & 1)
            xyzz_add_affine(q, step.x, step.y, false);
    }
    xyzz_add_affine(q, p0.x, p0.y, false);
    fe<FP> acc, u;
    fe_one(acc);
    for (uint32_t j = 0; j < cnt; j++) {
        if (j)
            xyzz_add_affine(q, step.x, step.y, false);
        xyzz_store(&tmp[lt + j], q);
        if (xyzz_is_inf(q))
            fe_one(u);
        else
            fe_mul(u, q.zz, q.zzz);
        fe_mul(acc, acc, u);
        fe_store(&pre[lt + j], acc);
    }
    fe<FP> inv;
    fe_inv_pow(inv, acc);
    for (int j = (int)cnt - 1; j >= 0; j--) {
        fe<FP> ui, x, y;
        xyzz_load(q, &tmp[lt + j]);
        if (j > 0) {
            fe<FP> pv = fe_load(&pre[lt + j - 1]);
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
        fe_store(&out[i0 + j].x, x);
        fe_store(&out[i0 + j].y, y);
    }
}

static int alloc_handle(cz_gpu_bases **out, int curve, size_t n, size_t elem, int dev,
                        cz_errinfo *ei) {
    int rc = CZ_OK;
    cz_gpu_bases *b;
    *out = NULL;
    if ((rc = cz__gpu_select(dev, ei)) != CZ_OK)
        return rc;
    b = (cz_gpu_bases *)calloc(1, sizeof *b);
    if (b == NULL)
        return cz_fail(ei, CZ_ENOMEM, "gpu msm: bases handle");
    b->dev = dev;
    b->curve = curve;
    b->n = n;
    CZ_CUDA_TRY(cudaMalloc(&b->d_pts, n ? n * elem : 1));
    *out = b;
    b = NULL;
out:
    free(b);
    return rc;
}

template <class H>
static int bases_upload(cz_gpu_bases **out, const typename H::aff *bases, size_t n, int dev,
                        cz_errinfo *ei) {
    int rc = alloc_handle(out, H::id, n, sizeof(typename H::aff), dev, ei);
    if (rc != CZ_OK || n == 0)
        return rc;
    CZ_CUDA_TRY(
        cudaMemcpy((*out)->d_pts, bases, n * sizeof(typename H::aff), cudaMemcpyHostToDevice));
out:
    if (rc != CZ_OK) {
        cz_gpu_bases_free(*out);
        *out = NULL;
    }
    return rc;
}

template <class H>
static int bases_progression(cz_gpu_bases **out, const typename H::aff *p0,
                             const typename H::aff *step, size_t n, int dev, cz_errinfo *ei) {
    typedef typename H::fp FP;
    g1_xyzz<FP> *tmp = NULL;
    fe<FP> *pre = NULL;
    g1_aff<FP> hp0, hstep;
    size_t r = n < PROG_ROUND ? n : PROG_ROUND;
    int rc = alloc_handle(out, H::id, n, sizeof(typename H::aff), dev, ei);
    if (rc != CZ_OK || n == 0)
        return rc;
    memcpy(&hp0, p0, sizeof hp0);
    memcpy(&hstep, step, sizeof hstep);
    CZ_CUDA_TRY(cudaMalloc((void **)&tmp, r * sizeof *tmp));
    CZ_CUDA_TRY(cudaMalloc((void **)&pre, r * sizeof *pre));
    for (size_t first = 0; first < n; first += PROG_ROUND) {
        size_t cnt = n - first < PROG_ROUND ? n - first : PROG_ROUND;
        size_t threads = (cnt + PROG_K - 1) / PROG_K;
        msm_progression_kern<FP><<<cz__gpu_blocks(threads, 128), 128>>>(
            (g1_aff<FP> *)(*out)->d_pts, tmp, pre, hp0, hstep, first, first + cnt);
        CZ_CUDA_LAUNCHED();
    }
    CZ_CUDA_TRY(cudaDeviceSynchronize());
out:
    cudaFree(tmp);
    cudaFree(pre);
    if (rc != CZ_OK) {
        cz_gpu_bases_free(*out);
        *out = NULL;
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

extern "C" int cz_bn254_gpu_g1_bases_upload(cz_gpu_bases **b, const cz_bn254_g1_affine *bases,
                                            size_t n, int dev, cz_errinfo *ei) {
    return bases_upload<msm_bn254>(b, bases, n, dev, ei);
}
extern "C" int cz_bls12381_gpu_g1_bases_upload(cz_gpu_bases **b, const cz_bls12381_g1_affine *bases,
                                               size_t n, int dev, cz_errinfo *ei) {
    return bases_upload<msm_bls12381>(b, bases, n, dev, ei);
}
extern "C" int cz_bn254_gpu_g1_bases_progression(cz_gpu_bases **b, const cz_bn254_g1_affine *p0,
                                                 const cz_bn254_g1_affine *step, size_t n, int dev,
                                                 cz_errinfo *ei) {
    return bases_progression<msm_bn254>(b, p0, step, n, dev, ei);
}
extern "C" int cz_bls12381_gpu_g1_bases_progression(cz_gpu_bases **b,
                                                    const cz_bls12381_g1_affine *p0,
                                                    const cz_bls12381_g1_affine *step, size_t n,
                                                    int dev, cz_errinfo *ei) {
    return bases_progression<msm_bls12381>(b, p0, step, n, dev, ei);
}
