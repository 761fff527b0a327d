/*
 * The NTT over Fr on the GPU, for BN254 and BLS12-381 (see cuzk/gpu.h for the transforms; they
 * match cuzk/ntt.h exactly: natural order in and out, over the domain of the caller's roots,
 * snarkjs's or bellperson's; the roots change only the host tables below, not the kernels).
 *
 * Algorithm: radix-2 decimation in time, the log_n stages in P = ceil(log_n / 10) passes of
 * s <= 10 stages each (sizes split evenly: 2^27 = 9 + 9 + 9, 2^24 = 8 + 8 + 8). In a pass every
 * block loads 2^s elements spaced 2^t apart (t = the pass's first stage) into shared memory and
 * runs the s stages there, two at a time: a block has 2^(s-2) threads, and for stages (k, k + 1)
 * thread u holds the 4 elements i0 + {0, h, 2h, 3h} (h = 2^k) in registers, so a barrier and a
 * shared-memory round trip come every second stage, and each step has two independent
 * multiplications. An odd s ends with one radix-2 stage. An element is 32 bytes, one DRAM sector,
 * so strided accesses waste nothing.
 *
 * No bit-reversal pass: the first pass gathers its tile straight from the input in bit-reversed
 * order (DIT index b·2^s + v lives at rev_s(v)·2^(log_n-s) + rev(b); block rev(b) reads 2^s
 * elements 2^(log_n-s) apart, neighbouring blocks neighbouring sectors) and writes a scratch
 * buffer, the middle passes work in place there and the last pass writes back into the caller's
 * array. So 2^27 costs 3 passes over the data. One pass (log_n <= 10) is one block, in place. The
 * coset shift g^k is applied while the first pass loads, n⁻¹ (or n⁻¹·g^-k) while the last pass
 * stores: no extra passes for the coset and inverse transforms. Stage 0 (twiddle 1) has no
 * multiplication.
 *
 * Arithmetic: values stay lazily reduced between stages. BN254 (4r < 2^256): values in [0, 4r)
 * (Harvey's butterfly): x is brought below 2r, t = y·w without the final subtraction is below
 * 4r·r/R + r < 2r, x + t < 4r, x - t + 2r in (0, 4r): no conditional subtraction of the outputs.
 * BLS12-381 (2r < 2^256 < 4r): values in [0, 2r): t < 2r·r/R + r < 2r, outputs x + t and x - t
 * reduced modulo 2r (one conditional subtraction or addition of 2r each), so only the
 * multiplication's final subtraction goes. The multiplication is the even/odd one
 * (gpu_field_eo.cuh, the twiddle as its first operand: its intermediate value stays below
 * 2^32·(w + r) < 2^288). Values are brought below r where a pass stores into the caller's array
 * (fe_mul's output is below r for any input below 4r: 4r·c/R + r < 2r), so the results are those
 * of a fully reduced transform, byte for byte. tests/gpu/test_gpu_ntt_lazy.c checks these bounds
 * on a CPU model of the same operations.
 *
 * Twiddles: the stage with half-size h uses ω_n^(j·n/2h), read from one table ω^k, k < n/2. The
 * inverse transform uses the same table: ω^-e = -ω^(n/2-e) for 0 < e < n/2, and the minus sign
 * swaps the butterfly's sum and difference. Each block loads its 2^s - 1 twiddles into shared
 * memory next to its tile as the pass starts (the last pass's twiddles are distinct per block, so
 * those loads go to DRAM, and no stage waits on them). The table is generated on the device from
 * two small host tables (x^k for k < 1024 and x^(1024m)), one multiplication per entry, and cached
 * per (device, curve, roots, log_n) until cz_gpu_release: 16·n bytes. The scratch buffer (32·n
 * bytes) comes from the device's stream-ordered pool for each transform and goes back to it when
 * the transform ends, so the MSMs that follow an NTT reuse the same memory (a 2^27 domain beside a
 * 48 GB key on an 80 GB card leaves no room for a scratch buffer kept aside).
 * Coset factors use the same two-level tables (a[k] ·= hi[k >> 10]·lo[k & 1023]), with n⁻¹
 * folded into the lo table of g⁻¹. Forward and inverse passes are separate instantiations (the
 * inverse's output swap costs the forward nothing).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/ntt.h"
#include "gpu_field_eo.cuh"
#include "gpu_ntt.cuh"

#define NTT_MAX_DEV  16
#define NTT_MAX_TILE 10 /* at most 2^10 elements (32 KiB) per block */

/* ---- kernels ---- */

/* 2r, limb i (r's limbs as compile-time constants). */
#define NTT_TWO_P(P, i) ((P[i] << 1) | ((i) ? P[(i)-1] >> 31 : 0u))
#define NTT_TWO_P_ALL(P)                                                                           \
    {                                                                                              \
        NTT_TWO_P(P, 0), NTT_TWO_P(P, 1), NTT_TWO_P(P, 2), NTT_TWO_P(P, 3), NTT_TWO_P(P, 4),       \
            NTT_TWO_P(P, 5), NTT_TWO_P(P, 6), NTT_TWO_P(P, 7)                                      \
    }
static constexpr uint32_t ntt_bn254_r[8] = CZ_GPU_BN254_FR_P;
static constexpr uint32_t ntt_bls12381_r[8] = CZ_GPU_BLS12381_FR_P;
static __constant__ uint32_t ntt_bn254_2r[8] = NTT_TWO_P_ALL(ntt_bn254_r);
static __constant__ uint32_t ntt_bls12381_2r[8] = NTT_TWO_P_ALL(ntt_bls12381_r);
static_assert(ntt_bn254_r[7] < 0x40000000u, "BN254 Fr: 4r < 2^256");
static_assert(ntt_bls12381_r[7] < 0x80000000u && ntt_bls12381_r[7] >= 0x40000000u,
              "BLS12-381 Fr: 2r < 2^256 <= 4r");

/* Lazy-reduction traits: harvey = values below 4r (else below 2r); r2(i) = limb i of 2r. */
template <class C> struct ntt_lz;
template <> struct ntt_lz<gbn254_fr_cfg> {
    static constexpr bool harvey = true;
    static __device__ __forceinline__ uint32_t r2(int i) {
        return ntt_bn254_2r[i];
    }
};
template <> struct ntt_lz<gbls12381_fr_cfg> {
    static constexpr bool harvey = false;
    static __device__ __forceinline__ uint32_t r2(int i) {
        return ntt_bls12381_2r[i];
    }
};

/* r = s - 2r if s >= 2r, else s. */
template <class C> static __device__ __forceinline__ void lz_reduce2(fe<C> &r, const fe<C> &s) {
    uint32_t t[C::N], borrow;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(t[0]) : "r"(s.l[0]), "r"(ntt_lz<C>::r2(0)));
#pragma unroll
    for (int i = 1; i < C::N; i++)
        asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(t[i]) : "r"(s.l[i]), "r"(ntt_lz<C>::r2(i)));
    asm volatile("subc.u32 %0, 0, 0;" : "=r"(borrow));
#pragma unroll
    for (int i = 0; i < C::N; i++)
        r.l[i] = borrow ? s.l[i] : t[i];
}

/* r = a + b (no reduction; the caller knows it fits). */
template <class C>
static __device__ __forceinline__ void lz_add(fe<C> &r, const fe<C> &a, const fe<C> &b) {
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r.l[0]) : "r"(a.l[0]), "r"(b.l[0]));
#pragma unroll
    for (int i = 1; i < C::N; i++)
        asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r.l[i]) : "r"(a.l[i]), "r"(b.l[i]));
}

/* r = (a + b) mod 2r for a, b < 2r (the sum may carry out of 2^256). */
template <class C>
static __device__ __forceinline__ void lz_add2(fe<C> &r, const fe<C> &a, const fe<C> &b) {
    uint32_t s[C::N], t[C::N], c, borrow;
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(s[0]) : "r"(a.l[0]), "r"(b.l[0]));
#pragma unroll
    for (int i = 1; i < C::N; i++)
        asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(s[i]) : "r"(a.l[i]), "r"(b.l[i]));
    asm volatile("addc.u32 %0, 0, 0;" : "=r"(c));
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(t[0]) : "r"(s[0]), "r"(ntt_lz<C>::r2(0)));
#pragma unroll
    for (int i = 1; i < C::N; i++)
        asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(t[i]) : "r"(s[i]), "r"(ntt_lz<C>::r2(i)));
    asm volatile("subc.u32 %0, %1, 0;" : "=r"(borrow) : "r"(c));
#pragma unroll
    for (int i = 0; i < C::N; i++)
        r.l[i] = borrow ? s[i] : t[i];
}

/* r = (a - b) mod 2r for a, b < 2r. */
template <class C>
static __device__ __forceinline__ void lz_sub2(fe<C> &r, const fe<C> &a, const fe<C> &b) {
    uint32_t t[C::N], pm[C::N], borrow;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(t[0]) : "r"(a.l[0]), "r"(b.l[0]));
#pragma unroll
    for (int i = 1; i < C::N; i++)
        asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(t[i]) : "r"(a.l[i]), "r"(b.l[i]));
    asm volatile("subc.u32 %0, 0, 0;" : "=r"(borrow));
#pragma unroll
    for (int i = 0; i < C::N; i++)
        pm[i] = ntt_lz<C>::r2(i) & borrow;
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r.l[0]) : "r"(t[0]), "r"(pm[0]));
#pragma unroll
    for (int i = 1; i < C::N; i++)
        asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r.l[i]) : "r"(t[i]), "r"(pm[i]));
}

/* r = a + 2r - b (a < 2r, b < 2r: the result is in (0, 4r), below 2^256 when 4r is). */
template <class C>
static __device__ __forceinline__ void lz_sub_h(fe<C> &r, const fe<C> &a, const fe<C> &b) {
    uint32_t s[C::N];
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(s[0]) : "r"(a.l[0]), "r"(ntt_lz<C>::r2(0)));
#pragma unroll
    for (int i = 1; i < C::N; i++)
        asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(s[i]) : "r"(a.l[i]), "r"(ntt_lz<C>::r2(i)));
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r.l[0]) : "r"(s[0]), "r"(b.l[0]));
#pragma unroll
    for (int i = 1; i < C::N; i++)
        asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r.l[i]) : "r"(s[i]), "r"(b.l[i]));
}

/* t = y·w (w a twiddle below r), below 2r. */
template <class C>
static __device__ __forceinline__ void ntt_twmul(fe<C> &t, const fe<C> &y, const fe<C> &w) {
    eo_mul_nr(t, w, y);
}

/* (p, m) = (x + t, x - t) lazily reduced; x may be changed (Harvey: brought below 2r). */
template <class C>
static __device__ __forceinline__ void ntt_bfly(fe<C> &p, fe<C> &m, fe<C> &x, const fe<C> &t) {
    if (ntt_lz<C>::harvey) {
        lz_reduce2(x, x);
        lz_add(p, x, t);
        lz_sub_h(m, x, t);
    } else {
        lz_add2(p, x, t);
        lz_sub2(m, x, t);
    }
}

/* x below r from the lazy representation (below 4r or 2r). */
template <class C> static __device__ __forceinline__ void ntt_normalise(fe<C> &x) {
    if (ntt_lz<C>::harvey)
        lz_reduce2(x, x);
    fe_reduce_once(x, x);
}

/* What the last pass does to an element x at index k as it stores it (ntt_tile_store). */
enum ntt_post {
    NTT_POST_NONE,     /* x, brought below r */
    NTT_POST_CONST,    /* x·post_c */
    NTT_POST_POW,      /* x·post_hi[k >> 10]·post_lo[k & 1023] */
    NTT_POST_TIMES,    /* x·vec[k] */
    NTT_POST_POW_MINUS /* x·post_hi[k >> 10]·post_lo[k & 1023] - vec[k]·post_c */
};

/* One pass (see the file comment). pre: multiply loaded elements by pre_hi[k >> 10]·pre_lo[k &
 * 1023] (k = input index); post: an ntt_post, in the last pass only. last: the pass stores into
 * the transform's output array (values brought below r there). */
template <class C> struct ntt_pass {
    const fe<C> *src;
    fe<C> *dst;
    const fe<C> *tw;
    const fe<C> *pre_lo, *pre_hi, *post_lo, *post_hi, *vec;
    fe<C> post_c;
    unsigned log_n, t, s;
    ntt_post post;
    int gather, pre, last;
};

/* Where block b's tile lies in the pass's input and output: element v of the tile is at base +
 * (v << t) (lo = base's low t bits, the butterflies' twiddle offset; the first pass gathers from
 * the bit-reversed positions instead, see ntt_tile_load). */
struct ntt_tile {
    size_t base;
    uint32_t lo;
};

/* The tile and its twiddles in shared memory, in 16-byte halves: element i of a tile of 2^s at
 * chunks ntt_chunk(i) (its low half) and ntt_chunk(i) ^ 1 (its high half), twiddle i at
 * ntt_tw_chunk(i) and ^ 1. A quarter-warp's eight 16-byte accesses take one shared-memory
 * wavefront only where they fall into eight different bank quads (16-byte columns of the 128-byte
 * rows); stored in order, the threads of a round's first stages (elements 4u + m) all met one
 * quad, the first pass's bit-reversed stores one quad too, and consecutive elements used every
 * second quad: 9.6-way conflicts on average in a pass of a 2^27 transform (ncu, H100). The
 * swizzle XORs the slot's low two bits with bits 3-4 and s-3..s-2 of i and swaps the halves by
 * bits 2, 4 and s-1 (the high bits for s >= 6), so that for every pattern of a pass (eight
 * consecutive elements from a multiple of 8, the rounds' groups, the bit-reversed stores) the
 * eight threads meet eight quads; a twiddle's halves swap by bit 2, which serves any eight
 * consecutive ones. Slots stay a permutation of the tile's (only bits 0-1 change). */
struct ntt_swz {
    unsigned hi, top; /* s - 3 and s - 1 (31 below s = 6: no high bits) */
};
static __device__ __forceinline__ ntt_swz ntt_swz_of(unsigned s) {
    return ntt_swz{s >= 6 ? s - 3 : 31u, s >= 6 ? s - 1 : 31u};
}
static __device__ __forceinline__ uint32_t ntt_chunk(ntt_swz z, uint32_t i) {
    const uint32_t x = ((i >> 3) ^ (i >> z.hi)) & 3, h = ((i >> 2) ^ (i >> 4) ^ (i >> z.top)) & 1;
    return 2 * (i ^ x) + h;
}
static __device__ __forceinline__ uint32_t ntt_tw_chunk(uint32_t i) {
    return 2 * i + ((i >> 2) & 1);
}
template <class C> static __device__ __forceinline__ fe<C> ntt_sh_get(const uint4 *sh, uint32_t q) {
    static_assert(C::N == 8, "two 16-byte halves");
    const uint4 a = sh[q], b = sh[q ^ 1];
    fe<C> r;
    r.l[0] = a.x;
    r.l[1] = a.y;
    r.l[2] = a.z;
    r.l[3] = a.w;
    r.l[4] = b.x;
    r.l[5] = b.y;
    r.l[6] = b.z;
    r.l[7] = b.w;
    return r;
}
template <class C>
static __device__ __forceinline__ void ntt_sh_put(uint4 *sh, uint32_t q, const fe<C> &x) {
    sh[q] = make_uint4(x.l[0], x.l[1], x.l[2], x.l[3]);
    sh[q ^ 1] = make_uint4(x.l[4], x.l[5], x.l[6], x.l[7]);
}

/* Stores element v of the tile (in the last pass with the transform's ntt_post; a product's
 * output is below r for any input below 4r, and fe_sub keeps values below r). */
template <class C>
static __device__ __forceinline__ void ntt_tile_store(const uint4 *sh, const ntt_pass<C> &P,
                                                      const ntt_tile &T, ntt_swz z, unsigned v) {
    const size_t k = T.base + ((size_t)v << P.t);
    fe<C> x = ntt_sh_get<C>(sh, ntt_chunk(z, v));
    if (P.post == NTT_POST_CONST) {
        fe_mul(x, x, P.post_c);
    } else if (P.post == NTT_POST_POW) {
        ntt_mul_pow(x, x, P.post_lo, P.post_hi, k);
    } else if (P.post == NTT_POST_TIMES) {
        fe_mul(x, x, fe_load(&P.vec[k]));
    } else if (P.post == NTT_POST_POW_MINUS) {
        fe<C> y = fe_load(&P.vec[k]);
        ntt_mul_pow(x, x, P.post_lo, P.post_hi, k);
        fe_mul(y, y, P.post_c);
        fe_sub(x, x, y);
    } else if (P.last) {
        ntt_normalise<C>(x);
    }
    fe_store(&P.dst[k], x);
}

template <class C>
static __device__ __forceinline__ ntt_tile ntt_tile_of(const ntt_pass<C> &P, size_t b) {
    ntt_tile T;
    if (P.gather) { /* t = 0 */
        const unsigned r = P.log_n - P.s;
        T.lo = 0;
        T.base = r ? (size_t)(__brevll((unsigned long long)b) >> (64 - r)) << P.s : 0;
    } else {
        T.lo = (uint32_t)(b & (((size_t)1 << P.t) - 1));
        T.base = ((b >> P.t) << (P.t + P.s)) | T.lo;
    }
    return T;
}

/* Loads element v of block b's tile into shared memory (bit-reversed slot in the first pass,
 * times g^k for a coset). */
template <class C>
static __device__ __forceinline__ void ntt_tile_load(uint4 *sh, const ntt_pass<C> &P, size_t b,
                                                     const ntt_tile &T, ntt_swz z, unsigned v) {
    if (P.gather) {
        const size_t k = ((size_t)v << (P.log_n - P.s)) + b;
        fe<C> x = fe_load(&P.src[k]);
        if (P.pre)
            ntt_mul_pow(x, x, P.pre_lo, P.pre_hi, k);
        ntt_sh_put(sh, ntt_chunk(z, __brev(v) >> (32 - P.s)), x);
    } else {
        ntt_sh_put(sh, ntt_chunk(z, v), fe_load(&P.src[T.base + ((size_t)v << P.t)]));
    }
}

/* Shared twiddle slot i < 2^s - 1 of the tile: stage k, butterfly j at shw[2^k - 1 + j]. */
template <class C, bool INV>
static __device__ __forceinline__ void ntt_twiddle_load(uint4 *shw, const ntt_pass<C> &P,
                                                        uint32_t lo, unsigned i) {
    const unsigned k = 31 - __clz(i + 1), j = i + 1 - (1u << k);
    const uint32_t halfn = 1u << (P.log_n - 1);
    const uint32_t e = ((j << P.t) + lo) << (P.log_n - (P.t + k) - 1);
    ntt_sh_put(shw, ntt_tw_chunk(i), fe_load(&P.tw[INV && e != 0 ? halfn - e : e]));
}

/* Butterfly j of stage k (of the pass) on (x, y) in place, with the tile's shared twiddles shw. */
template <class C, bool INV>
static __device__ __forceinline__ void ntt_stage_bfly(fe<C> &x, fe<C> &y, const uint4 *shw,
                                                      const ntt_pass<C> &P, uint32_t lo, unsigned k,
                                                      unsigned j) {
    fe<C> p, m;
    if (P.t + k == 0) { /* twiddle 1; pass-0 inputs are below r */
        ntt_bfly<C>(p, m, x, y);
    } else {
        fe<C> w = ntt_sh_get<C>(shw, ntt_tw_chunk((1u << k) - 1 + j)), yw;
        ntt_twmul<C>(yw, y, w);
        ntt_bfly<C>(p, m, x, yw);
        if (INV && ((j << P.t) + lo) != 0) { /* the twiddle's exponent e is not 0 */
            fe<C> tmp = p;
            p = m;
            m = tmp;
        }
    }
    x = p;
    y = m;
}

/* One pass: 2^(s-2) threads a block (one for s = 1), two stages per shared-memory round trip (see
 * the file comment): for stages (k, k + 1) thread u holds i0 + {0, h, 2h, 3h} (h = 2^k, i0 = the
 * 2^(k+2)-block of u, plus j = u mod h) and runs stage k's butterflies (i0, i0 + h) and
 * (i0 + 2h, i0 + 3h), both of twiddle j, then stage k + 1's (i0, i0 + 2h) and (i0 + h, i0 + 3h),
 * of twiddles j and j + h. An odd s ends with one radix-2 stage (2 butterflies a thread). */
template <class C, bool INV>
__global__ void __launch_bounds__(256) ntt_pass_kern(const ntt_pass<C> P) {
    extern __shared__ uint4 ntt_smem[];
    uint4 *sh = ntt_smem, *shw = ntt_smem + 2 * (1u << P.s);
    const size_t b = blockIdx.x;
    const unsigned s = P.s, u = threadIdx.x;
    const ntt_tile T = ntt_tile_of(P, b);
    const ntt_swz z = ntt_swz_of(s);
    unsigned k = 0, q;

    if (s == 1) { /* n = 2: one butterfly of twiddle 1, one thread */
        fe<C> x, y;
        ntt_tile_load(sh, P, b, T, z, 0);
        ntt_tile_load(sh, P, b, T, z, 1);
        x = ntt_sh_get<C>(sh, ntt_chunk(z, 0));
        y = ntt_sh_get<C>(sh, ntt_chunk(z, 1));
        ntt_stage_bfly<C, INV>(x, y, shw, P, T.lo, 0, 0);
        ntt_sh_put(sh, ntt_chunk(z, 0), x);
        ntt_sh_put(sh, ntt_chunk(z, 1), y);
        ntt_tile_store<C>(sh, P, T, z, 0);
        ntt_tile_store<C>(sh, P, T, z, 1);
        return;
    }
    q = 1u << (s - 2);
#pragma unroll
    for (int h = 0; h < 4; h++) {
        ntt_tile_load(sh, P, b, T, z, u + h * q);
        if (u + h * q < 4 * q - 1)
            ntt_twiddle_load<C, INV>(shw, P, T.lo, u + h * q);
    }
    __syncthreads();
    for (; k + 1 < s; k += 2) {
        const unsigned h = 1u << k, j = u & (h - 1);
        const unsigned i0 = ((u >> k) << (k + 2)) + j;
        const uint32_t q0 = ntt_chunk(z, i0), q1 = ntt_chunk(z, i0 + h),
                       q2 = ntt_chunk(z, i0 + 2 * h), q3 = ntt_chunk(z, i0 + 3 * h);
        fe<C> a0 = ntt_sh_get<C>(sh, q0), a1 = ntt_sh_get<C>(sh, q1), a2 = ntt_sh_get<C>(sh, q2),
              a3 = ntt_sh_get<C>(sh, q3);
        ntt_stage_bfly<C, INV>(a0, a1, shw, P, T.lo, k, j);
        ntt_stage_bfly<C, INV>(a2, a3, shw, P, T.lo, k, j);
        ntt_stage_bfly<C, INV>(a0, a2, shw, P, T.lo, k + 1, j);
        ntt_stage_bfly<C, INV>(a1, a3, shw, P, T.lo, k + 1, j + h);
        ntt_sh_put(sh, q0, a0);
        ntt_sh_put(sh, q1, a1);
        ntt_sh_put(sh, q2, a2);
        ntt_sh_put(sh, q3, a3);
        __syncthreads();
    }
    if (k < s) { /* the last stage of an odd s: h = 2q, butterfly j = i on (i, i + h) */
#pragma unroll
        for (int hh = 0; hh < 2; hh++) {
            const unsigned i = u + hh * q;
            const uint32_t qx = ntt_chunk(z, i), qy = ntt_chunk(z, i + 2 * q);
            fe<C> x = ntt_sh_get<C>(sh, qx), y = ntt_sh_get<C>(sh, qy);
            ntt_stage_bfly<C, INV>(x, y, shw, P, T.lo, k, i);
            ntt_sh_put(sh, qx, x);
            ntt_sh_put(sh, qy, y);
        }
        __syncthreads();
    }
#pragma unroll
    for (int h = 0; h < 4; h++)
        ntt_tile_store<C>(sh, P, T, z, u + h * q);
}

/* tw[k] = hi[k >> 10] · lo[k & 1023] for k < count. */
template <class C>
__global__ void ntt_table_kern(fe<C> *tw, const fe<C> *lo, const fe<C> *hi, size_t count) {
    size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= count)
        return;
    fe<C> r, x = fe_load(&hi[k >> NTT_LO_BITS]), y = fe_load(&lo[k & (NTT_LO_SIZE - 1)]);
    fe_mul(r, x, y);
    fe_store(&tw[k], r);
}

/* ---- host side: per-curve host arithmetic ---- */

struct ntt_bn254 {
    typedef cz_bn254_fr fr;
    typedef gbn254_fr_cfg cfg;
    enum { id = 0, two_adicity = 28 };
    static const char *name() {
        return "bn254";
    }
    static void mul(fr *r, const fr *a, const fr *b) {
        cz_bn254_fr_mul(r, a, b);
    }
    static void inv(fr *r, const fr *a) {
        cz_bn254_fr_inv(r, a);
    }
    static void one(fr *r) {
        cz_bn254_fr_one(r);
    }
    static void from_u64(fr *r, uint64_t v) {
        cz_bn254_fr_from_u64(r, v);
    }
    static int root(fr *r, unsigned k, cz_ntt_roots roots) {
        return cz_bn254_ntt_root_of_unity(r, k, roots);
    }
    static int coset_gen(fr *r, unsigned k, cz_ntt_roots roots) {
        return cz_bn254_ntt_coset_gen(r, k, roots);
    }
    static int coset_z(fr *r, unsigned k, cz_ntt_roots roots) {
        return cz_bn254_ntt_coset_z(r, k, roots);
    }
};
struct ntt_bls12381 {
    typedef cz_bls12381_fr fr;
    typedef gbls12381_fr_cfg cfg;
    enum { id = 1, two_adicity = 32 };
    static const char *name() {
        return "bls12381";
    }
    static void mul(fr *r, const fr *a, const fr *b) {
        cz_bls12381_fr_mul(r, a, b);
    }
    static void inv(fr *r, const fr *a) {
        cz_bls12381_fr_inv(r, a);
    }
    static void one(fr *r) {
        cz_bls12381_fr_one(r);
    }
    static void from_u64(fr *r, uint64_t v) {
        cz_bls12381_fr_from_u64(r, v);
    }
    static int root(fr *r, unsigned k, cz_ntt_roots roots) {
        return cz_bls12381_ntt_root_of_unity(r, k, roots);
    }
    static int coset_gen(fr *r, unsigned k, cz_ntt_roots roots) {
        return cz_bls12381_ntt_coset_gen(r, k, roots);
    }
    static int coset_z(fr *r, unsigned k, cz_ntt_roots roots) {
        return cz_bls12381_ntt_coset_z(r, k, roots);
    }
};

/* The domains built so far, by (device, curve, roots, log_n). */
static pthread_mutex_t ntt_cache_lock = PTHREAD_MUTEX_INITIALIZER; /* protects ntt_cache */
static ntt_dom *ntt_cache[NTT_MAX_DEV][2][CZ_NTT_ROOTS_COUNT][CZ_GPU_NTT_MAX_LOG + 1];

static void dom_free(ntt_dom *d) {
    if (d == NULL)
        return;
    cudaFree(d->tw);
    cudaFree(d->g_lo);
    cudaFree(d->g_hi);
    cudaFree(d->gi_lo);
    cudaFree(d->gi_hi);
    cudaFree(d->gn_lo);
    cudaFree(d->gz_lo);
    free(d);
}

/* lo[k] = c·x^k (k < 1024), hi[m] = x^(1024m) (m < nhi), in host memory. */
template <class H>
static void host_tables(typename H::fr *lo, typename H::fr *hi, size_t nhi, const typename H::fr *x,
                        const typename H::fr *c) {
    typename H::fr p, x1024;
    lo[0] = *c;
    p = *x;
    for (unsigned k = 1; k < NTT_LO_SIZE; k++)
        H::mul(&lo[k], &lo[k - 1], x);
    H::one(&x1024);
    for (unsigned k = 0; k < NTT_LO_SIZE; k++)
        H::mul(&x1024, &x1024, &p);
    H::one(&hi[0]);
    for (size_t m = 1; m < nhi; m++)
        H::mul(&hi[m], &hi[m - 1], &x1024);
}

/* Uploads lo/hi tables of x (lo scaled by c) to fresh device buffers (the lo table alone where
 * d_hi is NULL: another table's hi serves it). */
template <class H>
static int upload_tables(void **d_lo, void **d_hi, size_t count, const typename H::fr *x,
                         const typename H::fr *c, cz_errinfo *ei) {
    typedef typename H::fr fr;
    int rc = CZ_OK;
    size_t nhi = (count + NTT_LO_SIZE - 1) / NTT_LO_SIZE;
    fr *lo = (fr *)malloc(NTT_LO_SIZE * sizeof(fr)), *hi = (fr *)malloc(nhi * sizeof(fr));
    if (lo == NULL || hi == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "gpu ntt: host tables");
        goto out;
    }
    host_tables<H>(lo, hi, nhi, x, c);
    CZ_CUDA_TRY(cudaMalloc(d_lo, NTT_LO_SIZE * sizeof(fr)));
    CZ_CUDA_TRY(cudaMemcpy(*d_lo, lo, NTT_LO_SIZE * sizeof(fr), cudaMemcpyHostToDevice));
    if (d_hi != NULL) {
        CZ_CUDA_TRY(cudaMalloc(d_hi, nhi * sizeof(fr)));
        CZ_CUDA_TRY(cudaMemcpy(*d_hi, hi, nhi * sizeof(fr), cudaMemcpyHostToDevice));
    }
out:
    free(lo);
    free(hi);
    return rc;
}

/* Expands x's tables into a full twiddle table of count entries at *d_tw. */
template <class H>
static int make_twiddles(void **d_tw, size_t count, const typename H::fr *x, cz_errinfo *ei) {
    typedef fe<typename H::cfg> F;
    void *d_lo = NULL, *d_hi = NULL;
    typename H::fr one;
    int rc;
    H::one(&one);
    rc = upload_tables<H>(&d_lo, &d_hi, count, x, &one, ei);
    if (rc != CZ_OK)
        goto out;
    CZ_CUDA_TRY(cudaMalloc(d_tw, count * sizeof(F)));
    ntt_table_kern<typename H::cfg>
        <<<cz__gpu_blocks(count, 256), 256>>>((F *)*d_tw, (F *)d_lo, (F *)d_hi, count);
    CZ_CUDA_LAUNCHED();
    CZ_CUDA_TRY(cudaDeviceSynchronize());
out:
    cudaFree(d_lo);
    cudaFree(d_hi);
    return rc;
}

/* The tables of the domain 2^log_n of roots (which the caller has checked, ntt_dev). */
template <class H>
static int dom_build(ntt_dom **out_dom, unsigned log_n, cz_ntt_roots roots, cz_errinfo *ei) {
    typedef typename H::fr fr;
    size_t n = (size_t)1 << log_n;
    fr w, g, gi, nn, ninv, z, nzinv;
    int rc = CZ_OK;
    ntt_dom *d = (ntt_dom *)calloc(1, sizeof *d);
    if (d == NULL)
        return cz_fail(ei, CZ_ENOMEM, "gpu ntt: domain");
    if (H::root(&w, log_n, roots) != CZ_OK || H::coset_gen(&g, log_n, roots) != CZ_OK ||
        H::coset_z(&z, log_n, roots) != CZ_OK) {
        rc = cz_fail(ei, CZ_ERANGE, "gpu ntt: no %s domain 2^%u", cz_ntt_roots_name(roots), log_n);
        goto out;
    }
    H::inv(&gi, &g);
    H::from_u64(&nn, n);
    H::inv(&ninv, &nn);
    H::inv(&nzinv, &z);
    H::mul(&nzinv, &nzinv, &ninv);
    memcpy(d->ninv, &ninv, sizeof ninv);
    memcpy(d->nzinv, &nzinv, sizeof nzinv);
    if ((rc = make_twiddles<H>(&d->tw, n / 2, &w, ei)) != CZ_OK)
        goto out;
    {
        fr one;
        H::one(&one);
        if ((rc = upload_tables<H>(&d->g_lo, &d->g_hi, n, &g, &one, ei)) != CZ_OK)
            goto out;
    }
    if ((rc = upload_tables<H>(&d->gi_lo, &d->gi_hi, n, &gi, &ninv, ei)) != CZ_OK ||
        (rc = upload_tables<H>(&d->gn_lo, NULL, n, &g, &ninv, ei)) != CZ_OK ||
        (rc = upload_tables<H>(&d->gz_lo, NULL, n, &gi, &nzinv, ei)) != CZ_OK)
        goto out;
out:
    if (rc != CZ_OK) {
        dom_free(d);
        d = NULL;
    }
    *out_dom = d;
    return rc;
}

/* The cached domain of (dev, curve H, roots, log_n), built on first use. dev is already
 * selected. */
template <class H>
static int dom_get(ntt_dom **d, int dev, unsigned log_n, cz_ntt_roots roots, cz_errinfo *ei) {
    int rc = CZ_OK;
    if (dev >= NTT_MAX_DEV)
        return cz_fail(ei, CZ_EUNSUPPORTED, "gpu ntt: device %d beyond the cache", dev);
    pthread_mutex_lock(&ntt_cache_lock);
    *d = ntt_cache[dev][H::id][roots][log_n];
    if (*d == NULL) {
        rc = dom_build<H>(d, log_n, roots, ei);
        if (rc == CZ_OK)
            ntt_cache[dev][H::id][roots][log_n] = *d;
    }
    pthread_mutex_unlock(&ntt_cache_lock);
    return rc;
}

extern "C" int cz_gpu_release(int dev, cz_errinfo *ei) {
    int rc = cz__gpu_select(dev, ei);
    if (rc != CZ_OK)
        return rc;
    if (dev >= NTT_MAX_DEV)
        return CZ_OK;
    pthread_mutex_lock(&ntt_cache_lock);
    for (int c = 0; c < 2; c++)
        for (int r = 0; r < CZ_NTT_ROOTS_COUNT; r++)
            for (int k = 0; k <= CZ_GPU_NTT_MAX_LOG; k++) {
                dom_free(ntt_cache[dev][c][r][k]);
                ntt_cache[dev][c][r][k] = NULL;
            }
    pthread_mutex_unlock(&ntt_cache_lock);
    (void)cz__gpu_pool_trim(dev);
    return CZ_OK;
}

/* Launches one pass: 2^(s-2) threads (one for s = 1), shared memory for the tile and its
 * twiddles (opting in above the default 48 KiB of dynamic shared memory). */
template <class C, bool INV>
static int ntt_launch(unsigned nblocks, const ntt_pass<C> &P, cz_errinfo *ei) {
    int rc = CZ_OK;
    const size_t shm = 2 * (sizeof(fe<C>) << P.s);
    const unsigned threads = P.s >= 2 ? 1u << (P.s - 2) : 1u;
    if (shm > 48 * 1024)
        CZ_CUDA_TRY(cudaFuncSetAttribute(ntt_pass_kern<C, INV>,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shm));
    ntt_pass_kern<C, INV><<<nblocks, threads, shm>>>(P);
out:
    return rc;
}

/* One transform as ntt_core runs it: the butterflies' direction, the factor of the first pass's
 * loads (pre_hi[k >> 10]·pre_lo[k & 1023], none where pre_lo is NULL), the last pass's ntt_post
 * with its tables, vector and constant, and the array the last pass writes (the input's where
 * out is NULL). */
template <class C> struct ntt_job {
    bool inv;
    const void *pre_lo, *pre_hi;
    ntt_post post;
    const void *post_lo, *post_hi;
    const fe<C> *vec;
    const uint8_t *post_c;
    fe<C> *out;
};

/* The job of a public transform kind over domain d. */
template <class C> static ntt_job<C> ntt_job_of(const ntt_dom *d, cz_gpu_ntt_kind kind) {
    ntt_job<C> j;
    memset(&j, 0, sizeof j);
    j.inv = kind == CZ_GPU_NTT_INVERSE || kind == CZ_GPU_NTT_COSET_INVERSE;
    if (kind == CZ_GPU_NTT_COSET_FORWARD) {
        j.pre_lo = d->g_lo;
        j.pre_hi = d->g_hi;
    }
    j.post = kind == CZ_GPU_NTT_INVERSE         ? NTT_POST_CONST
             : kind == CZ_GPU_NTT_COSET_INVERSE ? NTT_POST_POW
                                                : NTT_POST_NONE;
    j.post_lo = d->gi_lo;
    j.post_hi = d->gi_hi;
    j.post_c = d->ninv;
    return j;
}

/* Runs the passes of one transform on a (natural order in and out); see the file comment. */
template <class C>
static int ntt_core(fe<C> *a, fe<C> *scratch, const ntt_dom *d, unsigned log_n,
                    const ntt_job<C> &job, cz_errinfo *ei) {
    typedef fe<C> F;
    int rc = CZ_OK;
    const unsigned npass = (log_n + NTT_MAX_TILE - 1) / NTT_MAX_TILE;
    const size_t n = (size_t)1 << log_n;
    ntt_pass<C> P;
    memset(&P, 0, sizeof P);
    P.tw = (const F *)d->tw;
    P.log_n = log_n;
    P.pre_lo = (const F *)job.pre_lo;
    P.pre_hi = (const F *)job.pre_hi;
    P.post_lo = (const F *)job.post_lo;
    P.post_hi = (const F *)job.post_hi;
    P.vec = job.vec;
    if (job.post_c != NULL)
        memcpy(&P.post_c, job.post_c, sizeof P.post_c);
    for (unsigned p = 0, t = 0; p < npass; p++) {
        const unsigned s = log_n / npass + (p < log_n % npass ? 1 : 0);
        const bool first = p == 0, last = p + 1 == npass;
        P.src = first ? a : scratch;
        P.dst = !last ? scratch : job.out != NULL ? job.out : a;
        P.t = t;
        P.s = s;
        P.gather = first;
        P.pre = first && job.pre_lo != NULL;
        P.post = last ? job.post : NTT_POST_NONE;
        P.last = last;
        {
            const unsigned nblocks = (unsigned)(n >> s);
            rc = job.inv ? ntt_launch<C, true>(nblocks, P, ei)
                         : ntt_launch<C, false>(nblocks, P, ei);
            if (rc != CZ_OK)
                goto out;
        }
        CZ_CUDA_LAUNCHED();
        t += s;
    }
out:
    return rc;
}

/* CZ_OK when the curve H has the roots (CZ_EINVAL: not an enum value; CZ_EUNSUPPORTED: the
 * curve has no such domain, bellperson's on BN254), with the message in ei. */
template <class H> static int roots_check(cz_ntt_roots roots, cz_errinfo *ei) {
    typename H::fr w;
    if ((unsigned)roots >= CZ_NTT_ROOTS_COUNT)
        return cz_fail(ei, CZ_EINVAL, "gpu ntt: unknown roots %d", (int)roots);
    if (H::root(&w, 0, roots) != CZ_OK)
        return cz_fail(ei, CZ_EUNSUPPORTED, "gpu ntt: %s has no %s domain", H::name(),
                       cz_ntt_roots_name(roots));
    return CZ_OK;
}

/* A transform's checks, domain and scratch buffer on device dev, then run(d, scratch), which
 * launches its passes, and the wait for them: the part ntt_dev and ntt_quotient_dev share. */
template <class H, class Run>
static int ntt_on_device(unsigned log_n, cz_ntt_roots roots, int dev, Run run, cz_errinfo *ei) {
    typedef fe<typename H::cfg> F;
    ntt_dom *d = NULL;
    F *scratch = NULL;
    int rc;
    if (log_n < 1 || log_n > CZ_GPU_NTT_MAX_LOG || log_n > (unsigned)H::two_adicity)
        return cz_fail(ei, CZ_ERANGE, "gpu ntt: log_n %u outside 1..%d", log_n, CZ_GPU_NTT_MAX_LOG);
    if ((rc = roots_check<H>(roots, ei)) != CZ_OK)
        return rc;
    if ((rc = cz__gpu_select(dev, ei)) != CZ_OK)
        return rc;
    if ((rc = dom_get<H>(&d, dev, log_n, roots, ei)) != CZ_OK)
        return rc;
    /* the middle passes work in place in the scratch buffer (see the file comment); one pass
     * (log_n <= 10) needs none */
    if ((rc = cz__gpu_pool_keep(dev, ei)) != CZ_OK)
        return rc;
    if (log_n > NTT_MAX_TILE)
        CZ_CUDA_TRY(cudaMallocAsync((void **)&scratch, ((size_t)1 << log_n) * sizeof(F), 0));
    rc = run(d, scratch);
    if (rc != CZ_OK)
        goto out;
    CZ_CUDA_TRY(cudaStreamSynchronize(0)); /* not the whole device: uploads in flight go on */
out:
    if (scratch != NULL)
        (void)cudaFreeAsync(scratch, 0);
    return rc;
}

template <class H>
static int ntt_dev(void *d_a, unsigned log_n, cz_ntt_roots roots, cz_gpu_ntt_kind kind, int dev,
                   cz_errinfo *ei) {
    typedef typename H::cfg C;
    if ((unsigned)kind > CZ_GPU_NTT_COSET_INVERSE)
        return cz_fail(ei, CZ_EINVAL, "gpu ntt: unknown kind %d", (int)kind);
    return ntt_on_device<H>(
        log_n, roots, dev,
        [&](const ntt_dom *d, fe<C> *scratch) {
            return ntt_core<C>((fe<C> *)d_a, scratch, d, log_n, ntt_job_of<C>(d, kind), ei);
        },
        ei);
}

/* The quotient (cuzk/gpu.h): the raw inverse transforms of a, b and c (no n⁻¹), the coset
 * transforms of a and b with n⁻¹·g^k (gn_lo), the second one's last pass multiplying by a's and
 * storing into a, then the coset inverse of a whose last pass stores
 * x·n⁻¹·Z(g)⁻¹·g^-k - c·n⁻¹·Z(g)⁻¹ (gz_lo, nzinv). */
template <class H>
static int ntt_quotient_dev(void *d_a, void *d_b, void *d_c, unsigned log_n, cz_ntt_roots roots,
                            int dev, cz_errinfo *ei) {
    typedef typename H::cfg C;
    typedef fe<C> F;
    if (d_a == NULL || d_b == NULL || d_c == NULL)
        return cz_fail(ei, CZ_EINVAL, "gpu ntt quotient: vector %s is NULL",
                       d_a == NULL   ? "a"
                       : d_b == NULL ? "b"
                                     : "c");
    if (d_a == d_b || d_a == d_c || d_b == d_c)
        return cz_fail(ei, CZ_EINVAL, "gpu ntt quotient: a, b and c must be distinct vectors");
    return ntt_on_device<H>(
        log_n, roots, dev,
        [&](const ntt_dom *d, F *scratch) {
            F *a = (F *)d_a, *b = (F *)d_b, *c = (F *)d_c;
            ntt_job<C> raw, coset, times, quot;
            memset(&raw, 0, sizeof raw);
            raw.inv = true;
            coset = raw;
            coset.inv = false;
            coset.pre_lo = d->gn_lo;
            coset.pre_hi = d->g_hi;
            times = coset;
            times.post = NTT_POST_TIMES;
            times.vec = a;
            times.out = a;
            quot = raw;
            quot.post = NTT_POST_POW_MINUS;
            quot.post_lo = d->gz_lo;
            quot.post_hi = d->gi_hi;
            quot.vec = c;
            quot.post_c = d->nzinv;
            int rc;
            if ((rc = ntt_core<C>(a, scratch, d, log_n, raw, ei)) != CZ_OK ||
                (rc = ntt_core<C>(b, scratch, d, log_n, raw, ei)) != CZ_OK ||
                (rc = ntt_core<C>(c, scratch, d, log_n, raw, ei)) != CZ_OK ||
                (rc = ntt_core<C>(a, scratch, d, log_n, coset, ei)) != CZ_OK ||
                (rc = ntt_core<C>(b, scratch, d, log_n, times, ei)) != CZ_OK)
                return rc;
            return ntt_core<C>(a, scratch, d, log_n, quot, ei);
        },
        ei);
}

template <class H>
static int ntt_host(typename H::fr *a, unsigned log_n, cz_ntt_roots roots, cz_gpu_ntt_kind kind,
                    int dev, cz_errinfo *ei) {
    void *d_a = NULL;
    size_t bytes;
    int rc;
    if (log_n < 1 || log_n > CZ_GPU_NTT_MAX_LOG)
        return cz_fail(ei, CZ_ERANGE, "gpu ntt: log_n %u outside 1..%d", log_n, CZ_GPU_NTT_MAX_LOG);
    if ((rc = roots_check<H>(roots, ei)) != CZ_OK) /* before any device memory is taken */
        return rc;
    bytes = sizeof(typename H::fr) << log_n;
    if ((rc = cz__gpu_select(dev, ei)) != CZ_OK)
        return rc;
    CZ_CUDA_TRY(cudaMalloc(&d_a, bytes));
    CZ_CUDA_TRY(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice));
    if ((rc = ntt_dev<H>(d_a, log_n, roots, kind, dev, ei)) != CZ_OK)
        goto out;
    CZ_CUDA_TRY(cudaMemcpy(a, d_a, bytes, cudaMemcpyDeviceToHost));
out:
    cudaFree(d_a);
    return rc;
}

extern "C" int cz_bn254_gpu_ntt(cz_bn254_fr *a, unsigned log_n, cz_ntt_roots roots,
                                cz_gpu_ntt_kind kind, int dev, cz_errinfo *ei) {
    return ntt_host<ntt_bn254>(a, log_n, roots, kind, dev, ei);
}
extern "C" int cz_bls12381_gpu_ntt(cz_bls12381_fr *a, unsigned log_n, cz_ntt_roots roots,
                                   cz_gpu_ntt_kind kind, int dev, cz_errinfo *ei) {
    return ntt_host<ntt_bls12381>(a, log_n, roots, kind, dev, ei);
}
extern "C" int cz_bn254_gpu_ntt_dev(void *d_a, unsigned log_n, cz_ntt_roots roots,
                                    cz_gpu_ntt_kind kind, int dev, cz_errinfo *ei) {
    return ntt_dev<ntt_bn254>(d_a, log_n, roots, kind, dev, ei);
}
extern "C" int cz_bls12381_gpu_ntt_dev(void *d_a, unsigned log_n, cz_ntt_roots roots,
                                       cz_gpu_ntt_kind kind, int dev, cz_errinfo *ei) {
    return ntt_dev<ntt_bls12381>(d_a, log_n, roots, kind, dev, ei);
}
extern "C" int cz_bn254_gpu_ntt_quotient_dev(void *d_a, void *d_b, void *d_c, unsigned log_n,
                                             cz_ntt_roots roots, int dev, cz_errinfo *ei) {
    return ntt_quotient_dev<ntt_bn254>(d_a, d_b, d_c, log_n, roots, dev, ei);
}
extern "C" int cz_bls12381_gpu_ntt_quotient_dev(void *d_a, void *d_b, void *d_c, unsigned log_n,
                                                cz_ntt_roots roots, int dev, cz_errinfo *ei) {
    return ntt_quotient_dev<ntt_bls12381>(d_a, d_b, d_c, log_n, roots, dev, ei);
}
