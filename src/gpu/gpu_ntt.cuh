/*
 * Shared between the two GPU NTT schedules: gpu_ntt.cu (domain cache, host API, the radix-2
 * kernels = variant 1) and gpu_ntt2.cu (register-radix-8 kernels = variant 2, chosen per call by
 * CZ_GPU_NTT_VARIANT=2). The domain cache and its tables belong to gpu_ntt.cu.
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
    void *tw;          /* ω^k, n/2 entries */
    void *tw_c, *tw_s; /* variant 8 (Shoup): ω^k canonical and floor(ω^k·2^256/r), built on use */
    void *scratch;     /* n entries */
    void *g_lo, *g_hi;   /* g^k */
    void *gi_lo, *gi_hi; /* n⁻¹·g^-k (n⁻¹ folded into lo) */
    uint8_t ninv[32];    /* n⁻¹, Montgomery */
};

/* r = x · hi[k >> 10] · lo[k & 1023] */
template <class C>
static __device__ __forceinline__ void ntt_mul_pow(fe<C> &r, const fe<C> &x, const fe<C> *lo,
                                                   const fe<C> *hi, size_t k) {
    fe<C> w = fe_load(&hi[k >> NTT_LO_BITS]), v = fe_load(&lo[k & (NTT_LO_SIZE - 1)]);
    fe_mul(w, w, v);
    fe_mul(r, x, w);
}

/* Variant 2 (gpu_ntt2.cu) on device data d_a of curve id 0 (BN254) or 1 (BLS12-381), with at
 * most smax stages per pass; the caller has checked ntt2_supported(log_n, smax) and selected the
 * device. Launches only (no synchronisation). */
int cz__gpu_ntt2_run(int curve, void *d_a, const ntt_dom *d, unsigned log_n, cz_gpu_ntt_kind kind,
                     unsigned smax, cz_errinfo *ei);

#endif
