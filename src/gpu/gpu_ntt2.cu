/*
 * Variant 2 of the GPU Fr NTT (CZ_GPU_NTT_VARIANT=2, read per call by gpu_ntt.cu): the same
 * transforms, tables and passes over memory as variant 1, with fewer shared-memory round trips,
 * barriers and twiddle loads per butterfly.
 *
 * Schedule (index maps and their derivation in gpu_ntt2_map.h, checked on the CPU against the CPU
 * NTT by tests/gpu/test_gpu_ntt2_map.c): radix-2 DIT in ceil(log_n / smax) passes of s <= smax
 * stages (smax = 11 by default, CZ_GPU_NTT2_MAX_S = 6..11; 2^27 = 9 + 9 + 9). A block owns a tile
 * of 2^s elements with 2^(s-3) threads, 8 elements per thread in registers. Groups of 3 stages
 * run entirely in registers (12 butterflies per thread, 7 distinct twiddles instead of 12: the
 * butterflies of stage k0 + i sharing r mod 2^i share ω^e), and the 8 elements pass through
 * shared memory once per group: 2^9 tiles take 2 exchanges and 3 barriers instead of 9 stage
 * round trips and 10 barriers. Shared memory holds two uint4 planes per element with an XOR
 * swizzle, conflict-free for every 128-bit access (the CPU model counts bank groups).
 *
 * The first pass gathers its tile from the input in bit-reversed order (no bit-reversal pass), the
 * coset shift g^k multiplies as it loads; the last pass stores into the caller's array. Only the
 * forward table ω^k is used: an inverse transform is the forward one whose last pass stores
 * output k at (n - k) mod n and multiplies by n⁻¹ (or n⁻¹·g^-k' for the coset inverse, k' the
 * stored index), so forward and inverse run the same butterflies (variant 1 swaps the butterfly
 * outputs per twiddle instead). The twiddle-1 multiplications of the first group of the first
 * pass (stage 0, half of stage 1, a quarter of stage 2) are skipped at compile time; x·1 = x in
 * Montgomery form, so results are unchanged.
 *
 * Costs: the same 2^(s-1)·s butterflies as variant 1 minus 0.75·n/2 multiplications; per pass one
 * read and one write of n elements. Registers: 8 elements (64 u32) plus one twiddle and fe_mul's
 * temporaries; `cuobjdump --dump-resource-usage` must show no spills (the build fails on them).
 * Tiles above 2^10 (48 KiB) opt in to more dynamic shared memory.
 */
#include <string.h>

#include "gpu_ntt.cuh"
#include "gpu_ntt2_map.h"

template <class C> struct ntt2_pass {
    const fe<C> *src;
    fe<C> *dst;
    const fe<C> *tw;
    const fe<C> *pre_lo, *pre_hi, *post_lo, *post_hi;
    fe<C> post_c;
    unsigned log_n, t;
    int pre;     /* multiply loaded input k by g^k */
    int post;    /* 1: multiply stored elements by post_c, 2: by post_hi/lo at the stored index */
    int rev_out; /* store output k at (n - k) mod n */
};

/* A twiddle through the read-only data cache. */
template <class C> static __device__ __forceinline__ fe<C> ldg_fe(const fe<C> *p) {
    fe<C> r;
    const uint4 *q = reinterpret_cast<const uint4 *>(p);
#pragma unroll
    for (int i = 0; i < C::N / 4; i++) {
        const uint4 v = __ldg(&q[i]);
        r.l[4 * i] = v.x;
        r.l[4 * i + 1] = v.y;
        r.l[4 * i + 2] = v.z;
        r.l[4 * i + 3] = v.w;
    }
    return r;
}

/* (a, b) = (a + y, a - y) */
template <class C> static __device__ __forceinline__ void bfly(fe<C> &a, fe<C> &b, const fe<C> &y) {
    fe<C> s;
    fe_add(s, a, y);
    fe_sub(b, a, y);
    a = s;
}

/* The g stages of the group at local stage K0 on thread u's registers (loop order and indices as
 * in the CPU model). t == 0 && K0 == 0 && rl == 0 is twiddle exponent 0: no multiplication. */
template <class C, int K0, int G>
static __device__ __forceinline__ void ntt2_group(fe<C> (&x)[8], const fe<C> *tw, unsigned log_n,
                                                  unsigned t, size_t lo, uint32_t u) {
#pragma unroll
    for (int i = 0; i < G; i++) {
#pragma unroll
        for (int sub = 0; sub < (1 << (3 - G)); sub++) {
#pragma unroll
            for (int rl = 0; rl < (1 << i); rl++) {
                if (K0 == 0 && rl == 0 && t == 0) {
#pragma unroll
                    for (int rh = 0; rh < (1 << (G - 1 - i)); rh++) {
                        const int r0 = (sub << G) + (rh << (i + 1)) + rl, r1 = r0 + (1 << i);
                        const fe<C> y = x[r1];
                        bfly(x[r0], x[r1], y);
                    }
                } else {
                    const uint32_t j = ntt2_j(K0, G, u, sub, rl);
                    const fe<C> w = ldg_fe(&tw[ntt2_tw(log_n, t, K0 + i, lo, j)]);
#pragma unroll
                    for (int rh = 0; rh < (1 << (G - 1 - i)); rh++) {
                        const int r0 = (sub << G) + (rh << (i + 1)) + rl, r1 = r0 + (1 << i);
                        fe<C> y;
                        fe_mul(y, x[r1], w);
                        bfly(x[r0], x[r1], y);
                    }
                }
            }
        }
    }
}

/* Moves the 8 registers from layout (KA, GA) to layout (KB, GB) through shared memory (planes of
 * 2^S uint4). The caller has made sure no thread still reads the previous exchange. */
template <class C, int S, int KA, int GA, int KB, int GB>
static __device__ __forceinline__ void ntt2_exchange(fe<C> (&x)[8], uint4 *sh, uint32_t u) {
    constexpr uint32_t T = 1u << S;
#pragma unroll
    for (int r = 0; r < 8; r++) {
        const uint32_t p = ntt2_slot(ntt2_v(KA, GA, u, r));
#pragma unroll
        for (int h = 0; h < C::N / 4; h++)
            sh[h * T + p] =
                make_uint4(x[r].l[4 * h], x[r].l[4 * h + 1], x[r].l[4 * h + 2], x[r].l[4 * h + 3]);
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < 8; r++) {
        const uint32_t p = ntt2_slot(ntt2_v(KB, GB, u, r));
#pragma unroll
        for (int h = 0; h < C::N / 4; h++) {
            const uint4 v = sh[h * T + p];
            x[r].l[4 * h] = v.x;
            x[r].l[4 * h + 1] = v.y;
            x[r].l[4 * h + 2] = v.z;
            x[r].l[4 * h + 3] = v.w;
        }
    }
}

/* Groups K0, K0 + 3, ... of an S-stage pass, with an exchange between consecutive ones. */
template <class C, int S, int K0>
static __device__ __forceinline__ void ntt2_groups(fe<C> (&x)[8], uint4 *sh, const fe<C> *tw,
                                                   unsigned log_n, unsigned t, size_t lo,
                                                   uint32_t u) {
    constexpr int G = S - K0 < 3 ? S - K0 : 3;
    ntt2_group<C, K0, G>(x, tw, log_n, t, lo, u);
    if constexpr (K0 + G < S) {
        constexpr int K1 = K0 + G, G1 = S - K1 < 3 ? S - K1 : 3;
        if constexpr (K0 > 0)
            __syncthreads(); /* everyone has read the previous exchange */
        ntt2_exchange<C, S, K0, G, K1, G1>(x, sh, u);
        ntt2_groups<C, S, K1>(x, sh, tw, log_n, t, lo, u);
    }
}

/* One pass of S stages: block b, 2^(S-3) threads (see the file comment). */
template <class C, int S>
__global__ void __launch_bounds__(1 << (S - 3)) ntt2_kern(const ntt2_pass<C> P) {
    extern __shared__ uint4 ntt2_smem[];
    constexpr int KL = 3 * ((S - 1) / 3), GL = S - KL; /* the last group */
    const uint32_t u = threadIdx.x;
    const unsigned log_n = P.log_n, t = P.t;
    const size_t b = blockIdx.x;
    size_t lo, base;
    fe<C> x[8];
    ntt2_tile(&lo, &base, log_n, S, t, b);
#pragma unroll
    for (int r = 0; r < 8; r++) {
        const size_t k = ntt2_src(log_n, S, t, b, base, ntt2_v(0, 3, u, r));
        x[r] = fe_load(&P.src[k]);
        if (P.pre)
            ntt_mul_pow(x[r], x[r], P.pre_lo, P.pre_hi, k);
    }
    ntt2_groups<C, S, 0>(x, ntt2_smem, P.tw, log_n, t, lo, u);
#pragma unroll
    for (int r = 0; r < 8; r++) {
        const size_t k = ntt2_dst(log_n, t, base, ntt2_v(KL, GL, u, r), P.rev_out);
        if (P.post == 1)
            fe_mul(x[r], x[r], P.post_c);
        else if (P.post == 2)
            ntt_mul_pow(x[r], x[r], P.post_lo, P.post_hi, k);
        fe_store(&P.dst[k], x[r]);
    }
}

template <class C, int S> static int launch(const ntt2_pass<C> &P, size_t nblk, cz_errinfo *ei) {
    int rc = CZ_OK;
    const size_t smem = sizeof(fe<C>) << S;
    if (smem > 48 * 1024)
        CZ_CUDA_TRY(cudaFuncSetAttribute(ntt2_kern<C, S>,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    ntt2_kern<C, S><<<(unsigned)nblk, 1u << (S - 3), smem>>>(P);
    CZ_CUDA_LAUNCHED();
out:
    return rc;
}

template <class C>
static int ntt2_core(fe<C> *a, const ntt_dom *d, unsigned log_n, cz_gpu_ntt_kind kind,
                     unsigned smax, cz_errinfo *ei) {
    typedef fe<C> F;
    int rc = CZ_OK;
    const unsigned np = ntt2_npass(log_n, smax);
    const int inv = kind == CZ_GPU_NTT_INVERSE || kind == CZ_GPU_NTT_COSET_INVERSE;
    ntt2_pass<C> P;
    memset(&P, 0, sizeof P);
    P.tw = (const F *)d->tw;
    P.log_n = log_n;
    P.pre_lo = (const F *)d->g_lo;
    P.pre_hi = (const F *)d->g_hi;
    P.post_lo = (const F *)d->gi_lo;
    P.post_hi = (const F *)d->gi_hi;
    memcpy(&P.post_c, d->ninv, sizeof P.post_c);
    for (unsigned p = 0, t = 0; p < np && rc == CZ_OK; p++) {
        const unsigned s = ntt2_pass_s(log_n, np, p);
        const size_t nblk = (size_t)1 << (log_n - s);
        const bool first = p == 0, last = p + 1 == np;
        P.src = first ? a : (const F *)d->scratch;
        P.dst = last ? a : (F *)d->scratch;
        P.t = t;
        P.pre = first && kind == CZ_GPU_NTT_COSET_FORWARD;
        P.post = !last                              ? 0
                 : kind == CZ_GPU_NTT_INVERSE       ? 1
                 : kind == CZ_GPU_NTT_COSET_INVERSE ? 2
                                                    : 0;
        P.rev_out = last && inv;
        switch (s) {
        case 3:
            rc = launch<C, 3>(P, nblk, ei);
            break;
        case 4:
            rc = launch<C, 4>(P, nblk, ei);
            break;
        case 5:
            rc = launch<C, 5>(P, nblk, ei);
            break;
        case 6:
            rc = launch<C, 6>(P, nblk, ei);
            break;
        case 7:
            rc = launch<C, 7>(P, nblk, ei);
            break;
        case 8:
            rc = launch<C, 8>(P, nblk, ei);
            break;
        case 9:
            rc = launch<C, 9>(P, nblk, ei);
            break;
        case 10:
            rc = launch<C, 10>(P, nblk, ei);
            break;
        case 11:
            rc = launch<C, 11>(P, nblk, ei);
            break;
        default:
            rc = cz_fail(ei, CZ_EINVAL, "gpu ntt2: pass of %u stages", s);
            break;
        }
        t += s;
    }
    return rc;
}

int cz__gpu_ntt2_run(int curve, void *d_a, const ntt_dom *d, unsigned log_n, cz_gpu_ntt_kind kind,
                     unsigned smax, cz_errinfo *ei) {
    if (!ntt2_supported(log_n, smax))
        return cz_fail(ei, CZ_EINVAL, "gpu ntt2: log_n %u with passes <= %u", log_n, smax);
    if (curve == 0)
        return ntt2_core<gbn254_fr_cfg>((fe<gbn254_fr_cfg> *)d_a, d, log_n, kind, smax, ei);
    return ntt2_core<gbls12381_fr_cfg>((fe<gbls12381_fr_cfg> *)d_a, d, log_n, kind, smax, ei);
}
