/*
 * The MSM bases handle's templates (G1 and G2 over gpu_msm.cuh's traits): upload, and the
 * device-made arithmetic progression (see gpu_msm_bases.cu for the design). Included by
 * gpu_msm_bases.cu (G1) and gpu_msm_g2_<curve>.cu (G2), which instantiate BASES_API.
 */
#ifndef CUZK_GPU_MSM_BASES_CUH
#define CUZK_GPU_MSM_BASES_CUH

#include <stdlib.h>
#include <string.h>

#include "gpu_msm.cuh"

#define PROG_K     128u
#define PROG_ROUND ((size_t)1 << 21)

template <class FP>
__global__ void __launch_bounds__(128)
    msm_progression_kern(ec_aff<FP> *out, ec_xyzz<FP> *tmp, fe<FP> *pre, ec_aff<FP> p0,
                         ec_aff<FP> step, size_t first, size_t n) {
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t i0 = first + t * PROG_K, lt = t * PROG_K;
    if (i0 >= n)
        return;
    uint32_t cnt = (uint32_t)(n - i0 < PROG_K ? n - i0 : PROG_K);
    ec_xyzz<FP> q;
    xyzz_set_inf(q);
    for (int b = 63 - __clzll((long long)(i0 | 1)); b >= 0; b--) {
        xyzz_dbl(q, q);
        if ((i0 >> b) & 1)
            xyzz_add_affine(q, step.x, step.y, false);
    }
    xyzz_add_affine(q, p0.x, p0.y, false);
    for (uint32_t j = 0; j < cnt; j++) {
        if (j)
            xyzz_add_affine(q, step.x, step.y, false);
        xyzz_store(&tmp[lt + j], q);
    }
    xyzz_batch_to_affine(out + i0, tmp + lt, pre + lt, cnt);
}

static inline int alloc_handle(cz_gpu_bases **out, int curve, int group, size_t n, size_t elem,
                               int dev, cz_errinfo *ei) {
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
    b->group = group;
    b->n = n;
    b->elem = elem;
    CZ_CUDA_TRY(cudaMalloc(&b->d_pts, n ? n * elem : 1));
    *out = b;
    b = NULL;
out:
    free(b);
    return rc;
}

/* The upload in two steps (cuzk/gpu.h, _upload_start and cz_gpu_bases_upload_end): the handle,
 * then the copy on a stream of its own. */
template <class H>
static int bases_upload_start(cz_gpu_bases **out, cz_gpu_copy **cp, const typename H::aff *bases,
                              size_t n, int dev, cz_errinfo *ei) {
    int rc = alloc_handle(out, H::id, H::group, n, sizeof(typename H::aff), dev, ei);
    *cp = NULL;
    if (rc != CZ_OK || n == 0)
        return rc;
    rc = cz_gpu_upload_start(cp, (*out)->d_pts, bases, n * sizeof(typename H::aff), dev, ei);
    if (rc != CZ_OK) {
        cz_gpu_bases_free(*out);
        *out = NULL;
    }
    return rc;
}

/* The upload in one step: both of the above, the copy waited for. */
template <class H>
static int bases_upload(cz_gpu_bases **out, const typename H::aff *bases, size_t n, int dev,
                        cz_errinfo *ei) {
    cz_gpu_copy *cp = NULL;
    int rc = bases_upload_start<H>(out, &cp, bases, n, dev, ei);
    if (rc == CZ_OK && (rc = cz_gpu_bases_upload_end(*out, cp, ei)) != CZ_OK) {
        cz_gpu_bases_free(*out);
        *out = NULL;
    }
    return rc;
}

template <class H>
static int bases_progression(cz_gpu_bases **out, const typename H::aff *p0,
                             const typename H::aff *step, size_t n, int dev, cz_errinfo *ei) {
    typedef typename H::fp FP;
    ec_xyzz<FP> *tmp = NULL;
    fe<FP> *pre = NULL;
    ec_aff<FP> hp0, hstep;
    size_t r = n < PROG_ROUND ? n : PROG_ROUND;
    int rc = alloc_handle(out, H::id, H::group, n, sizeof(typename H::aff), dev, ei);
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
            (ec_aff<FP> *)(*out)->d_pts, tmp, pre, hp0, hstep, first, first + cnt);
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

/* The extern "C" bases entry points of one group of one curve (cuzk/gpu.h). */
#define BASES_API(CURVE, G, H)                                                                     \
    extern "C" int cz_##CURVE##_gpu_##G##_bases_upload(cz_gpu_bases **b,                           \
                                                       const cz_##CURVE##_##G##_affine *bases,     \
                                                       size_t n, int dev, cz_errinfo *ei) {        \
        return bases_upload<H>(b, bases, n, dev, ei);                                              \
    }                                                                                              \
    extern "C" int cz_##CURVE##_gpu_##G##_bases_upload_start(                                      \
        cz_gpu_bases **b, cz_gpu_copy **cp, const cz_##CURVE##_##G##_affine *bases, size_t n,      \
        int dev, cz_errinfo *ei) {                                                                 \
        return bases_upload_start<H>(b, cp, bases, n, dev, ei);                                    \
    }                                                                                              \
    extern "C" int cz_##CURVE##_gpu_##G##_bases_progression(                                       \
        cz_gpu_bases **b, const cz_##CURVE##_##G##_affine *p0,                                     \
        const cz_##CURVE##_##G##_affine *step, size_t n, int dev, cz_errinfo *ei) {                \
        return bases_progression<H>(b, p0, step, n, dev, ei);                                      \
    }

#endif
