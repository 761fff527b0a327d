/*
 * The GPU NTT's domain tables (gpu_ntt.cu owns the cache) and the coset-power helper its passes
 * share.
 */
#ifndef CUZK_GPU_NTT_CUH
#define CUZK_GPU_NTT_CUH

#include "cuzk/gpu.h"
#include "gpu_common.cuh"
#include "gpu_field.cuh"

#define NTT_LO_BITS 10
#define NTT_LO_SIZE (1u << NTT_LO_BITS)

/* A cached domain: device tables of one (device, curve, log_n). All fr-sized (32 bytes). */
struct ntt_dom {
    void *tw;            /* ω^k, n/2 entries */
    void *g_lo, *g_hi;   /* g^k */
    void *gi_lo, *gi_hi; /* n⁻¹·g^-k (n⁻¹ folded into lo) */
    void *gn_lo;         /* with g_hi: n⁻¹·g^k (the quotient's coset transforms) */
    void *gz_lo;         /* with gi_hi: n⁻¹·Z(g)⁻¹·g^-k (the quotient's coset inverse) */
    uint8_t ninv[32];    /* n⁻¹, Montgomery */
    uint8_t nzinv[32];   /* n⁻¹·Z(g)⁻¹, Z(g) = g^n - 1 */
};

/* r = x · hi[k >> 10] · lo[k & 1023] */
template <class C>
static __device__ __forceinline__ void ntt_mul_pow(fe<C> &r, const fe<C> &x, const fe<C> *lo,
                                                   const fe<C> *hi, size_t k) {
    fe<C> w = fe_load(&hi[k >> NTT_LO_BITS]), v = fe_load(&lo[k & (NTT_LO_SIZE - 1)]);
    fe_mul(w, w, v);
    fe_mul(r, x, w);
}

#endif
