/*
 * Pointwise vector kernels over Fr on the GPU, for BN254 and BLS12-381 (see cuzk/gpu.h, "vector
 * kernels"): r = a∘b, r = a∘b - c, a ·= k, and canonical -> Montgomery. They are what the Groth16
 * prover needs between its NTTs (C = A∘B, H = A·B - C on the coset) and before its MSMs (the
 * witness is stored in standard form).
 *
 * Each kernel is one pass over the data: a grid-stride loop, one element per thread per step,
 * 32-byte loads and stores (one DRAM sector), so they run at memory bandwidth. Like the rest of
 * the backend every call runs on the legacy default stream and synchronizes with that stream (not
 * the whole device: an upload in flight on its own stream, cz_gpu_upload_start, goes on) before it
 * returns.
 * Montgomery conversion is one product with R² mod r (R = 2^256), which the host computes once
 * per call from the host field code, so the device needs no constant beyond the modulus.
 */
#include <string.h>

#include "cuzk/field.h"
#include "gpu_common.cuh"
#include "gpu_field.cuh"

#define VEC_THREADS    256
#define VEC_MAX_BLOCKS 65535u

/* ---- kernels ---- */

template <class C>
__global__ void vec_mul_kern(fe<C> *r, const fe<C> *a, const fe<C> *b, size_t n) {
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        fe<C> x = fe_load(&a[i]), y = fe_load(&b[i]);
        fe_mul(x, x, y);
        fe_store(&r[i], x);
    }
}

template <class C>
__global__ void vec_mul_sub_kern(fe<C> *r, const fe<C> *a, const fe<C> *b, const fe<C> *c,
                                 size_t n) {
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        fe<C> x = fe_load(&a[i]), y = fe_load(&b[i]);
        fe_mul(x, x, y);
        y = fe_load(&c[i]);
        fe_sub(x, x, y);
        fe_store(&r[i], x);
    }
}

/* a[i] = a[i]·k·R⁻¹: with k in Montgomery form a scaling, with k = R² mod r raw the conversion of
 * a canonical a[i] to Montgomery form. */
template <class C> __global__ void vec_scale_kern(fe<C> *a, fe<C> k, size_t n) {
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        fe<C> x = fe_load(&a[i]);
        fe_mul(x, x, k);
        fe_store(&a[i], x);
    }
}

/* ---- host side ---- */

static unsigned vec_blocks(size_t n) {
    size_t b = (n + VEC_THREADS - 1) / VEC_THREADS;
    return b > VEC_MAX_BLOCKS ? VEC_MAX_BLOCKS : (unsigned)b;
}

template <class C>
static int vec_mul(void *d_r, const void *d_a, const void *d_b, const void *d_c, size_t n, int dev,
                   cz_errinfo *ei) {
    typedef fe<C> F;
    int rc;
    if (n == 0)
        return CZ_OK;
    if ((rc = cz__gpu_select(dev, ei)) != CZ_OK)
        return rc;
    if (d_c == NULL)
        vec_mul_kern<C>
            <<<vec_blocks(n), VEC_THREADS>>>((F *)d_r, (const F *)d_a, (const F *)d_b, n);
    else
        vec_mul_sub_kern<C><<<vec_blocks(n), VEC_THREADS>>>((F *)d_r, (const F *)d_a,
                                                            (const F *)d_b, (const F *)d_c, n);
    CZ_CUDA_LAUNCHED();
    CZ_CUDA_TRY(cudaStreamSynchronize(0)); /* the default stream only: uploads go on */
out:
    return rc;
}

/* d_a ·= k in place. */
template <class C>
static int vec_scale(void *d_a, const void *k, size_t n, int dev, cz_errinfo *ei) {
    typedef fe<C> F;
    F kk;
    int rc;
    if (n == 0)
        return CZ_OK;
    if ((rc = cz__gpu_select(dev, ei)) != CZ_OK)
        return rc;
    memcpy(&kk, k, sizeof kk);
    vec_scale_kern<C><<<vec_blocks(n), VEC_THREADS>>>((F *)d_a, kk, n);
    CZ_CUDA_LAUNCHED();
    CZ_CUDA_TRY(cudaStreamSynchronize(0)); /* the default stream only: uploads go on */
out:
    return rc;
}

/* R² mod r as raw limbs: the Montgomery form of R mod r, whose raw limbs are those of one. */
#define VEC_DEFINE(curve)                                                                          \
    extern "C" int cz_##curve##_gpu_fr_mul_dev(void *d_r, const void *d_a, const void *d_b,        \
                                               size_t n, int dev, cz_errinfo *ei) {                \
        return vec_mul<g##curve##_fr_cfg>(d_r, d_a, d_b, NULL, n, dev, ei);                        \
    }                                                                                              \
    extern "C" int cz_##curve##_gpu_fr_mul_sub_dev(void *d_r, const void *d_a, const void *d_b,    \
                                                   const void *d_c, size_t n, int dev,             \
                                                   cz_errinfo *ei) {                               \
        if (d_c == NULL)                                                                           \
            return cz_fail(ei, CZ_EINVAL, "gpu fr_mul_sub: no c vector");                          \
        return vec_mul<g##curve##_fr_cfg>(d_r, d_a, d_b, d_c, n, dev, ei);                         \
    }                                                                                              \
    extern "C" int cz_##curve##_gpu_fr_scale_dev(void *d_a, const cz_##curve##_fr *k, size_t n,    \
                                                 int dev, cz_errinfo *ei) {                        \
        return vec_scale<g##curve##_fr_cfg>(d_a, k, n, dev, ei);                                   \
    }                                                                                              \
    extern "C" int cz_##curve##_gpu_fr_to_mont_dev(void *d_a, size_t n, int dev, cz_errinfo *ei) { \
        cz_##curve##_fr one, r2;                                                                   \
        uint8_t raw[32];                                                                           \
        cz_##curve##_fr_one(&one);                                                                 \
        memcpy(raw, one.l, sizeof raw);                                                            \
        if (cz_##curve##_fr_from_bytes_le(&r2, raw) != CZ_OK)                                      \
            return cz_fail(ei, CZ_EINTERNAL, "gpu to_mont: R mod r is not canonical");             \
        return vec_scale<g##curve##_fr_cfg>(d_a, &r2, n, dev, ei);                                 \
    }

VEC_DEFINE(bn254)
VEC_DEFINE(bls12381)
