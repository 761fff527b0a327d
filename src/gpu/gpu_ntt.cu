/*
 * The NTT over Fr on the GPU, for BN254 and BLS12-381 (see cuzk/gpu.h for the transforms; they
 * match cuzk/ntt.h exactly: natural order in and out, ffjavascript's roots).
 *
 * Algorithm: radix-2 decimation in time, the log_n stages in P = ceil(log_n / 10) passes of
 * s <= 10 stages each (sizes split evenly: 2^27 = 9 + 9 + 9, 2^24 = 8 + 8 + 8). In a pass every
 * block loads 2^s elements spaced 2^t apart (t = the pass's first stage) into shared memory, runs
 * the s stages there (2^(s-1) threads, one butterfly each per stage, a barrier between stages) and
 * writes them back. An element is 32 bytes, one DRAM sector, so strided accesses waste nothing.
 *
 * No bit-reversal pass: the first pass gathers its tile straight from the input in bit-reversed
 * order (DIT index b·2^s + v lives at rev_s(v)·2^(log_n-s) + rev(b); block rev(b) reads 2^s
 * elements 2^(log_n-s) apart, neighbouring blocks neighbouring sectors) and writes a scratch
 * buffer, the middle passes work in place there and the last pass writes back into the caller's
 * array. So 2^27 costs 3 passes over the data (was 1 + 3). One pass (log_n <= 10) is one block, in
 * place. The coset shift g^k is applied while the first pass loads, n⁻¹ (or n⁻¹·g^-k) while the
 * last pass stores: no extra passes for the coset and inverse transforms. Stage 0 (twiddle 1) has
 * no multiplication.
 *
 * Twiddles: the stage with half-size h uses ω_n^(j·n/2h), read from one table ω^k, k < n/2. The
 * inverse transform uses the same table: ω^-e = -ω^(n/2-e) for 0 < e < n/2, and the minus sign
 * swaps the butterfly's sum and difference. The table is generated on the device from two small
 * host tables (x^k for k < 1024 and x^(1024m)), one multiplication per entry, and cached with the
 * scratch buffer per (device, curve, log_n) until cz_gpu_release: 16·n + 32·n bytes (+ 32·n for
 * variant 8's two tables, built on its first call).
 * Coset factors use the same two-level tables (a[k] ·= hi[k >> 10]·lo[k & 1023]), with n⁻¹
 * folded into the lo table of g⁻¹.
 *
 * This file's kernels are variants 1, 6, 7 and 8 (CZ_GPU_NTT_VARIANT, read per call; see ntt_v):
 * the same schedule, with 6, 7 and 8 keeping values lazily reduced between stages and loading each
 * block's twiddles once into shared memory (7: with the even/odd multiplication, 8: with Shoup's
 * multiplication by a precomputed twiddle quotient, from two more tables built on first use).
 * Forward and inverse passes are separate instantiations (the inverse's output swap costs the
 * forward nothing). CZ_GPU_NTT_VARIANT=2 runs the schedule of gpu_ntt2.cu instead (8 elements per
 * thread, 3 stages per shared-memory exchange) on the same cached domain. All give the same results
 * byte for byte.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/ntt.h"
#include "gpu_field_eo.cuh"
#include "gpu_ntt.cuh"
#include "gpu_ntt2_map.h"

#define NTT_MAX_DEV  16
#define NTT_MAX_TILE 10 /* at most 2^10 elements (32 KiB) per block of 512 threads */
/* CZ_GPU_NTT_VARIANT unset: 7 (lazy reduction, shared-memory twiddles, even/odd multiply), the
 * fastest on the H200 for both curves and every kind (docs/gpu.md, "NTT variants"). */
#define NTT_DEFAULT_VARIANT 7

/* ---- kernels ---- */

/* Butterfly arithmetic of the variants (template argument V):
 *   1: fully reduced values (< r) everywhere: t = y·w (fe_mul), (x + t, x - t) mod r; each
 *      stage loads its twiddle from the global table.
 *   6: lazy reduction and per-block twiddles in shared memory.
 *      Lazy reduction: BN254 (4r < 2^256): values in [0, 4r) (Harvey's butterfly): x is brought
 *      below 2r, t = y·w without the final subtraction is below 4r·r/R + r < 2r, x + t < 4r,
 *      x - t + 2r in (0, 4r): no conditional subtraction of the outputs. BLS12-381 (2r < 2^256 <
 *      4r): values in [0, 2r): t < 2r·r/R + r < 2r, outputs x + t and x - t reduced modulo 2r
 *      (one conditional subtraction or addition of 2r each), so only the multiplication's final
 *      subtraction goes. Values are brought below r where a pass stores into the caller's array
 *      (fe_mul's output is below r for any input below 4r: 4r·c/R + r < 2r), so results are
 *      byte for byte those of variant 1.
 *      Shared twiddles: the block's 2^s - 1 twiddles are loaded once into shared memory next to
 *      its tile as the pass starts (2 loads per thread instead of one per stage; the last pass's
 *      twiddles are distinct per block, so those loads go to DRAM, and no stage waits on them).
 *   7: as 6 with the even/odd multiplication (gpu_field_eo.cuh; the twiddle is its first operand:
 *      its intermediate value stays below 2^32·(w + r) < 2^288).
 *   8: as 6 with Shoup's multiplication (sh_mul below): the twiddle w is the canonical integer
 *      ω^k (not ω^k·R) with its quotient w' = floor(w·2^256 / r) from a second table; for data
 *      y = a·R, y·w ≡ (a·w)·R, so the data stay in Montgomery form. t = y·w - q·r with q the
 *      (truncated) high half of y·w': t ≡ y·w (mod r) and t < 2r (proof at sh_mul), the bound
 *      the lazy butterflies of 6 assume, so they are reused unchanged. Each block loads 2·(2^s - 1)
 *      twiddles (shared memory: 3 times the tile).
 *   9: 7's arithmetic in ntt_pass4_kern: two stages per shared-memory round trip, four elements
 *      a thread (same butterflies, same results).
 * (3 and 4 were 6 and 7 without the shared twiddles; measured and removed, see docs/gpu.md.) */
template <int V> struct ntt_v {
    static constexpr bool lazy = V == 6 || V == 7 || V == 8 || V == 9;
    static constexpr bool eo = V == 7 || V == 9;
    static constexpr bool shoup = V == 8;
    static constexpr bool shtw = V == 6 || V == 7 || V == 8 || V == 9;
};

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
/* 2^256 - r, limb i (= ~r_i above limb 0 since r_0 != 0). */
#define NTT_NEG_P(P, i) ((i) ? ~P[i] : 0u - P[0])
#define NTT_NEG_P_ALL(P)                                                                           \
    {                                                                                              \
        NTT_NEG_P(P, 0), NTT_NEG_P(P, 1), NTT_NEG_P(P, 2), NTT_NEG_P(P, 3), NTT_NEG_P(P, 4),       \
            NTT_NEG_P(P, 5), NTT_NEG_P(P, 6), NTT_NEG_P(P, 7)                                      \
    }
static __constant__ uint32_t ntt_bn254_nr[8] = NTT_NEG_P_ALL(ntt_bn254_r);
static __constant__ uint32_t ntt_bls12381_nr[8] = NTT_NEG_P_ALL(ntt_bls12381_r);
static_assert(ntt_bn254_r[0] != 0 && ntt_bls12381_r[0] != 0, "2^256 - r limb by limb");
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
    static __device__ __forceinline__ uint32_t nr(int i) {
        return ntt_bn254_nr[i];
    }
};
template <> struct ntt_lz<gbls12381_fr_cfg> {
    static constexpr bool harvey = false;
    static __device__ __forceinline__ uint32_t r2(int i) {
        return ntt_bls12381_2r[i];
    }
    static __device__ __forceinline__ uint32_t nr(int i) {
        return ntt_bls12381_nr[i];
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

/* (c2:c1:c0) += high word of a·b */
static __device__ __forceinline__ void hac3(uint32_t &c0, uint32_t &c1, uint32_t &c2, uint32_t a,
                                            uint32_t b) {
    asm("mad.hi.cc.u32 %0, %3, %4, %0;\n\t"
        "addc.cc.u32 %1, %1, 0;\n\t"
        "addc.u32 %2, %2, 0;"
        : "+r"(c0), "+r"(c1), "+r"(c2)
        : "r"(a), "r"(b));
}

/* Shoup's multiplication (variant 8): t ≡ y·w (mod r), t < 2r, for any y < 2^256 - 2^228 (the
 * lazy values: y < 4r < 0.76·2^256 for BN254 Fr, y < 2r < 0.91·2^256 for BLS12-381 Fr), w < r
 * canonical and ws = w' = floor(w·2^256 / r). N = 8 limbs, words of 32 bits.
 *   q = floor(V / 2^256), V = the columns N-1 .. 2N-1 of the product y·w' (every y_i·w'_j with
 *       i + j >= N-1, both words) plus the high words of the products with i + j = N-2. The part
 *       of y·w' left out, D, is the products with i + j <= N-3 and the low words with
 *       i + j = N-2: D < sum_{k<=N-3} (k+1)·2^(64+32k) + (N-1)·2^(32+32(N-2)) < 2N·2^(32(N-1))
 *       = 2^228.
 *   Bound: write y·w = Q·r + ρ (0 <= ρ < r) and w' = w·2^256/r - ε (0 <= ε < 1). Then
 *       y·w/r - q = y·ε/2^256 + D/2^256 + (V/2^256 - q) < y/2^256 + 2^-28 + 1 < 2,
 *       and q <= y·w'/2^256 <= y·w/r, so 0 <= Q - q <= 1 (an integer below 2) and
 *       t = y·w - q·r = ρ + (Q - q)·r lies in [0, 2r).
 *   t = low256(y·w) + low256(q·(2^256 - r)) = y·w - q·r mod 2^256, exact since t < 2r < 2^256:
 *       two product-scanning chains over columns 0 .. N-1 (column N-1: low words only; what
 *       carries out of 2^256 is dropped on purpose), the first before q so that w and w' are not
 *       live together (a spill in the BLS12-381 inverse kernel otherwise).
 * Products: N(N+1)/2 + N-1 for q (43: 36 wide, 7 high words), N² for t (64: 56 wide, 8 low
 * words), against 2N² + N for the Montgomery multiplication; no dependent m_i·n0 chain. Each
 * accumulator stays below 2^96 (at most 2N + 1 terms below 2^64 per column). The CPU model of
 * these exact operations is tests/gpu/test_gpu_ntt_lazy.c. */
template <class C>
static __device__ __forceinline__ void sh_mul(fe<C> &t, const fe<C> &y, const fe<C> &w,
                                              const fe<C> &ws) {
    constexpr int N = C::N;
    uint32_t q[N], c0 = 0, c1 = 0, c2 = 0;
    /* t = low256(y·w) first, so that w is dead while q is computed (register pressure) */
#pragma unroll
    for (int k = 0; k < N - 1; k++) {
#pragma unroll
        for (int i = 0; i <= k; i++)
            mac3(c0, c1, c2, y.l[i], w.l[k - i]);
        t.l[k] = c0;
        c0 = c1;
        c1 = c2;
        c2 = 0;
    }
#pragma unroll
    for (int i = 0; i < N; i++)
        c0 += y.l[i] * w.l[N - 1 - i];
    t.l[N - 1] = c0;
    c0 = c1 = c2 = 0;
#pragma unroll
    for (int i = 0; i <= N - 2; i++) /* column N-2: high words, landing in column N-1 */
        hac3(c0, c1, c2, y.l[i], ws.l[N - 2 - i]);
#pragma unroll
    for (int i = 0; i < N; i++) /* column N-1; its low word is dropped */
        mac3(c0, c1, c2, y.l[i], ws.l[N - 1 - i]);
    c0 = c1;
    c1 = c2;
    c2 = 0;
#pragma unroll
    for (int k = N; k < 2 * N - 1; k++) {
#pragma unroll
        for (int i = k - N + 1; i < N; i++)
            mac3(c0, c1, c2, y.l[i], ws.l[k - i]);
        q[k - N] = c0;
        c0 = c1;
        c1 = c2;
        c2 = 0;
    }
    q[N - 1] = c0;
    /* t += low256(q·(2^256 - r)) */
    c0 = t.l[0];
    c1 = c2 = 0;
#pragma unroll
    for (int k = 0; k < N - 1; k++) {
#pragma unroll
        for (int i = 0; i <= k; i++)
            mac3(c0, c1, c2, q[i], ntt_lz<C>::nr(k - i));
        t.l[k] = c0;
        c0 = c1;
        c1 = c2;
        c2 = 0;
        asm("add.cc.u32 %0, %0, %2;\n\taddc.u32 %1, %1, 0;" : "+r"(c0), "+r"(c1) : "r"(t.l[k + 1]));
    }
#pragma unroll
    for (int i = 0; i < N; i++)
        c0 += q[i] * ntt_lz<C>::nr(N - 1 - i);
    t.l[N - 1] = c0;
}

/* t = y·w (w a twiddle below r; ws its Shoup quotient, variant 8): reduced below r (V 1) or below
 * 2r (lazy variants). */
template <class C, int V>
static __device__ __forceinline__ void ntt_twmul(fe<C> &t, const fe<C> &y, const fe<C> &w,
                                                 const fe<C> &ws) {
    if (!ntt_v<V>::lazy)
        fe_mul(t, y, w);
    else if (ntt_v<V>::eo)
        eo_mul_nr(t, w, y);
    else if (ntt_v<V>::shoup)
        sh_mul(t, y, w, ws);
    else
        fe_mul_nr(t, w, y);
}

/* (p, m) = (x + t, x - t) in the variant's representation; x may be changed (Harvey: below 2r). */
template <class C, int V>
static __device__ __forceinline__ void ntt_bfly(fe<C> &p, fe<C> &m, fe<C> &x, const fe<C> &t) {
    if (!ntt_v<V>::lazy) {
        fe_add(p, x, t);
        fe_sub(m, x, t);
    } else if (ntt_lz<C>::harvey) {
        lz_reduce2(x, x);
        lz_add(p, x, t);
        lz_sub_h(m, x, t);
    } else {
        lz_add2(p, x, t);
        lz_sub2(m, x, t);
    }
}

/* x below r from the variant's representation (below 4r or 2r). */
template <class C, int V> static __device__ __forceinline__ void ntt_normalise(fe<C> &x) {
    if (ntt_v<V>::lazy) {
        if (ntt_lz<C>::harvey)
            lz_reduce2(x, x);
        fe_reduce_once(x, x);
    }
}

/* One pass (see the file comment). pre: multiply loaded elements by g^k (k = input index);
 * post: 1 multiply stored elements by post_c, 2 by post_hi[k >> 10]·post_lo[k & 1023].
 * last: the pass stores into the caller's array (lazy variants bring values below r there). */
template <class C> struct ntt_pass {
    const fe<C> *src;
    fe<C> *dst;
    const fe<C> *tw, *tws; /* tws: variant 8's quotients (tw: its canonical twiddles) */
    const fe<C> *pre_lo, *pre_hi, *post_lo, *post_hi;
    fe<C> post_c;
    unsigned log_n, t, s;
    int gather, pre, post, last;
};

/* Where block b's tile lies in the pass's input and output: element v of the tile is at base +
 * (v << t) (lo = base's low t bits, the butterflies' twiddle offset; the first pass gathers from
 * the bit-reversed positions instead, see ntt_tile_load). */
struct ntt_tile {
    size_t base;
    uint32_t lo;
};

/* Stores element v of the tile (times n^-1 or n^-1·g^-k where the transform asks, or brought
 * below r in the last pass; variant V's representation). */
template <class C, int V>
static __device__ __forceinline__ void ntt_tile_store(const fe<C> *sh, const ntt_pass<C> &P,
                                                      const ntt_tile &T, unsigned v) {
    const size_t k = T.base + ((size_t)v << P.t);
    fe<C> x = sh[v];
    if (P.post == 1)
        fe_mul(x, x, P.post_c);
    else if (P.post == 2)
        ntt_mul_pow(x, x, P.post_lo, P.post_hi, k);
    else if (P.last)
        ntt_normalise<C, V>(x);
    fe_store(&P.dst[k], x);
}

template <class C, bool INV, int V>
__global__ void __launch_bounds__(512) ntt_pass_kern(const ntt_pass<C> P) {
    extern __shared__ uint4 ntt_smem[];
    fe<C> *sh = reinterpret_cast<fe<C> *>(ntt_smem);
    const size_t b = blockIdx.x;
    const unsigned L = P.log_n, t = P.t, s = P.s, u = threadIdx.x, half = 1u << (s - 1);
    const uint32_t halfn = 1u << (L - 1);
    size_t base;
    uint32_t lo;

    if (P.gather) { /* t = 0 */
        const unsigned r = L - s;
        lo = 0;
        base = r ? (size_t)(__brevll((unsigned long long)b) >> (64 - r)) << s : 0;
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const unsigned v = u + h * half;
            const size_t k = ((size_t)v << r) + b;
            fe<C> x = fe_load(&P.src[k]);
            if (P.pre)
                ntt_mul_pow(x, x, P.pre_lo, P.pre_hi, k);
            sh[__brev(v) >> (32 - s)] = x;
        }
    } else {
        lo = (uint32_t)(b & (((size_t)1 << t) - 1));
        base = ((b >> t) << (t + s)) | lo;
        sh[u] = fe_load(&P.src[base + ((size_t)u << t)]);
        sh[u + half] = fe_load(&P.src[base + ((size_t)(u + half) << t)]);
    }
    if (ntt_v<V>::shtw) {
        /* the twiddle of stage k, butterfly j at shw[2^k - 1 + j] */
        fe<C> *shw = sh + (2 * half);
#pragma unroll
        for (int hh = 0; hh < 2; hh++) {
            const unsigned i = u + hh * half;
            if (i < 2 * half - 1) {
                const unsigned k = 31 - __clz(i + 1), j = i + 1 - (1u << k);
                const uint32_t e = ((j << t) + lo) << (L - (t + k) - 1);
                shw[i] = fe_load(&P.tw[INV && e != 0 ? halfn - e : e]);
                if (ntt_v<V>::shoup) /* the quotients after the twiddles */
                    shw[2 * half + i] = fe_load(&P.tws[INV && e != 0 ? halfn - e : e]);
            }
        }
    }
    __syncthreads();
    for (unsigned k = 0; k < s; k++) {
        const unsigned h = 1u << k, j = u & (h - 1);
        const unsigned i0 = ((u >> k) << (k + 1)) + j, i1 = i0 + h;
        fe<C> x = sh[i0], y = sh[i1], p, m;
        if (t + k == 0) { /* twiddle 1; pass-0 inputs are below r */
            ntt_bfly<C, V>(p, m, x, y);
        } else {
            /* e < n/2 <= 2^27: 32-bit index arithmetic */
            const uint32_t e = ((j << t) + lo) << (L - (t + k) - 1);
            const bool neg = INV && e != 0;
            fe<C> w = ntt_v<V>::shtw ? sh[2 * half + h - 1 + j]
                                     : fe_load(&P.tw[neg ? halfn - e : e]),
                  ws = ntt_v<V>::shoup ? sh[4 * half + h - 1 + j] : w, yw;
            ntt_twmul<C, V>(yw, y, w, ws);
            ntt_bfly<C, V>(p, m, x, yw);
            if (neg) {
                fe<C> tmp = p;
                p = m;
                m = tmp;
            }
        }
        sh[i0] = p;
        sh[i1] = m;
        __syncthreads();
    }
    {
        const ntt_tile T = {base, lo};
#pragma unroll
        for (int h = 0; h < 2; h++)
            ntt_tile_store<C, V>(sh, P, T, u + h * half);
    }
}

/* ntt_pass4_kern's tile loads and twiddle loads. ntt_pass_kern does the same inline and is left
 * as it ran on the H200 (its machine code unchanged) until this form has run there too; then
 * ntt_pass_kern should use these helpers (it uses ntt_tile_store already: same machine code). */

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
static __device__ __forceinline__ void ntt_tile_load(fe<C> *sh, const ntt_pass<C> &P, size_t b,
                                                     const ntt_tile &T, unsigned v) {
    if (P.gather) {
        const size_t k = ((size_t)v << (P.log_n - P.s)) + b;
        fe<C> x = fe_load(&P.src[k]);
        if (P.pre)
            ntt_mul_pow(x, x, P.pre_lo, P.pre_hi, k);
        sh[__brev(v) >> (32 - P.s)] = x;
    } else {
        sh[v] = fe_load(&P.src[T.base + ((size_t)v << P.t)]);
    }
}

/* Shared twiddle slot i < 2^s - 1 of the tile: stage k, butterfly j at shw[2^k - 1 + j]. */
template <class C, bool INV>
static __device__ __forceinline__ void ntt_twiddle_load(fe<C> *shw, const ntt_pass<C> &P,
                                                        uint32_t lo, unsigned i) {
    const unsigned k = 31 - __clz(i + 1), j = i + 1 - (1u << k);
    const uint32_t halfn = 1u << (P.log_n - 1);
    const uint32_t e = ((j << P.t) + lo) << (P.log_n - (P.t + k) - 1);
    shw[i] = fe_load(&P.tw[INV && e != 0 ? halfn - e : e]);
}

/* Butterfly j of stage k (of the pass) on (x, y) in place, with variant 7's arithmetic and the
 * tile's shared twiddles shw (ntt_pass_kern's stage body, for ntt_pass4_kern). */
template <class C, bool INV>
static __device__ __forceinline__ void ntt_stage_bfly(fe<C> &x, fe<C> &y, const fe<C> *shw,
                                                      const ntt_pass<C> &P, uint32_t lo, unsigned k,
                                                      unsigned j) {
    fe<C> p, m;
    if (P.t + k == 0) { /* twiddle 1; pass-0 inputs are below r */
        ntt_bfly<C, 7>(p, m, x, y);
    } else {
        fe<C> w = shw[(1u << k) - 1 + j], yw;
        ntt_twmul<C, 7>(yw, y, w, w);
        ntt_bfly<C, 7>(p, m, x, yw);
        if (INV && ((j << P.t) + lo) != 0) { /* the twiddle's exponent e is not 0 */
            fe<C> tmp = p;
            p = m;
            m = tmp;
        }
    }
    x = p;
    y = m;
}

/* Variant 9: variant 7's butterflies, two stages per shared-memory round trip. A block of 2^(s-2)
 * threads; for stages (k, k + 1) thread u holds the 4 elements i0 + {0, h, 2h, 3h} (h = 2^k, i0 =
 * the 2^(k+2)-block of u, plus j = u mod h) in registers: stage k's butterflies (i0, i0 + h) and
 * (i0 + 2h, i0 + 3h), both of twiddle j, then stage k + 1's (i0, i0 + 2h) and (i0 + h, i0 + 3h),
 * of twiddles j and j + h. Half the barriers and shared-memory traffic of ntt_pass_kern and two
 * independent multiplications per step; every butterfly sees the same inputs as in variant 7, so
 * the results are byte for byte the same. An odd s ends with one radix-2 stage (2 butterflies a
 * thread). */
template <class C, bool INV>
__global__ void __launch_bounds__(256) ntt_pass4_kern(const ntt_pass<C> P) {
    extern __shared__ uint4 ntt_smem[];
    fe<C> *sh = reinterpret_cast<fe<C> *>(ntt_smem), *shw = sh + (1u << P.s);
    const size_t b = blockIdx.x;
    const unsigned s = P.s, u = threadIdx.x, q = 1u << (s - 2);
    const ntt_tile T = ntt_tile_of(P, b);
    unsigned k = 0;

#pragma unroll
    for (int h = 0; h < 4; h++) {
        ntt_tile_load(sh, P, b, T, u + h * q);
        if (u + h * q < 4 * q - 1)
            ntt_twiddle_load<C, INV>(shw, P, T.lo, u + h * q);
    }
    __syncthreads();
    for (; k + 1 < s; k += 2) {
        const unsigned h = 1u << k, j = u & (h - 1);
        const unsigned i0 = ((u >> k) << (k + 2)) + j;
        fe<C> a0 = sh[i0], a1 = sh[i0 + h], a2 = sh[i0 + 2 * h], a3 = sh[i0 + 3 * h];
        ntt_stage_bfly<C, INV>(a0, a1, shw, P, T.lo, k, j);
        ntt_stage_bfly<C, INV>(a2, a3, shw, P, T.lo, k, j);
        ntt_stage_bfly<C, INV>(a0, a2, shw, P, T.lo, k + 1, j);
        ntt_stage_bfly<C, INV>(a1, a3, shw, P, T.lo, k + 1, j + h);
        sh[i0] = a0;
        sh[i0 + h] = a1;
        sh[i0 + 2 * h] = a2;
        sh[i0 + 3 * h] = a3;
        __syncthreads();
    }
    if (k < s) { /* the last stage of an odd s: h = 2q, butterfly j = i on (i, i + h) */
#pragma unroll
        for (int hh = 0; hh < 2; hh++) {
            const unsigned i = u + hh * q;
            fe<C> x = sh[i], y = sh[i + 2 * q];
            ntt_stage_bfly<C, INV>(x, y, shw, P, T.lo, k, i);
            sh[i] = x;
            sh[i + 2 * q] = y;
        }
        __syncthreads();
    }
#pragma unroll
    for (int h = 0; h < 4; h++)
        ntt_tile_store<C, 7>(sh, P, T, u + h * q);
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

/* Variant 8's tables from tw[k] = m = w·R mod r (w = ω^k): tc[k] = w (canonical) and
 * ts[k] = w' = floor(w·2^256 / r). Since w·2^256 = w'·r + m (m < r is that remainder),
 * w'·r ≡ -m (mod 2^256) and w' = m·(-r⁻¹) mod 2^256 (ninv = -r⁻¹ mod 2^256): a low-half product,
 * no division. */
template <class C>
__global__ void ntt_shoup_table_kern(fe<C> *tc, fe<C> *ts, const fe<C> *tw, const fe<C> ninv,
                                     size_t count) {
    size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= count)
        return;
    fe<C> m = fe_load(&tw[k]), w, q;
    fe_from_mont(w, m);
    fe_zero(q);
#pragma unroll
    for (int i = 0; i < C::N; i++) {
        uint64_t c = 0;
#pragma unroll
        for (int j = 0; i + j < C::N; j++) {
            const uint64_t acc = (uint64_t)q.l[i + j] + (uint64_t)m.l[i] * ninv.l[j] + c;
            q.l[i + j] = (uint32_t)acc;
            c = acc >> 32;
        }
    }
    fe_store(&tc[k], w);
    fe_store(&ts[k], q);
}

/* ---- host side: per-curve host arithmetic ---- */

struct ntt_bn254 {
    typedef cz_bn254_fr fr;
    typedef gbn254_fr_cfg cfg;
    enum { id = 0, two_adicity = 28 };
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
    static int root(fr *r, unsigned k) {
        return cz_bn254_ntt_root_of_unity(r, k);
    }
    static int coset_gen(fr *r, unsigned k) {
        return cz_bn254_ntt_coset_gen(r, k);
    }
};
struct ntt_bls12381 {
    typedef cz_bls12381_fr fr;
    typedef gbls12381_fr_cfg cfg;
    enum { id = 1, two_adicity = 32 };
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
    static int root(fr *r, unsigned k) {
        return cz_bls12381_ntt_root_of_unity(r, k);
    }
    static int coset_gen(fr *r, unsigned k) {
        return cz_bls12381_ntt_coset_gen(r, k);
    }
};

static pthread_mutex_t ntt_cache_lock = PTHREAD_MUTEX_INITIALIZER; /* protects ntt_cache */
static ntt_dom *ntt_cache[NTT_MAX_DEV][2][CZ_GPU_NTT_MAX_LOG + 1];

static void dom_free(ntt_dom *d) {
    if (d == NULL)
        return;
    cudaFree(d->tw);
    cudaFree(d->tw_c);
    cudaFree(d->tw_s);
    cudaFree(d->scratch);
    cudaFree(d->g_lo);
    cudaFree(d->g_hi);
    cudaFree(d->gi_lo);
    cudaFree(d->gi_hi);
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

/* Uploads lo/hi tables of x (lo scaled by c) to fresh device buffers. */
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
    CZ_CUDA_TRY(cudaMalloc(d_hi, nhi * sizeof(fr)));
    CZ_CUDA_TRY(cudaMemcpy(*d_lo, lo, NTT_LO_SIZE * sizeof(fr), cudaMemcpyHostToDevice));
    CZ_CUDA_TRY(cudaMemcpy(*d_hi, hi, nhi * sizeof(fr), cudaMemcpyHostToDevice));
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

template <class H> static int dom_build(ntt_dom **out_dom, unsigned log_n, cz_errinfo *ei) {
    typedef typename H::fr fr;
    size_t n = (size_t)1 << log_n;
    fr w, g, gi, nn, ninv;
    int rc = CZ_OK;
    ntt_dom *d = (ntt_dom *)calloc(1, sizeof *d);
    if (d == NULL)
        return cz_fail(ei, CZ_ENOMEM, "gpu ntt: domain");
    if (H::root(&w, log_n) != CZ_OK || H::coset_gen(&g, log_n) != CZ_OK) {
        rc = cz_fail(ei, CZ_ERANGE, "gpu ntt: log_n %u too large", log_n);
        goto out;
    }
    H::inv(&gi, &g);
    H::from_u64(&nn, n);
    H::inv(&ninv, &nn);
    memcpy(d->ninv, &ninv, sizeof ninv);
    if ((rc = make_twiddles<H>(&d->tw, n / 2, &w, ei)) != CZ_OK)
        goto out;
    /* variant 1 needs it above 2^10, variant 2 whenever it takes more than one pass */
    CZ_CUDA_TRY(cudaMalloc(&d->scratch, n * sizeof(fr)));
    {
        fr one;
        H::one(&one);
        if ((rc = upload_tables<H>(&d->g_lo, &d->g_hi, n, &g, &one, ei)) != CZ_OK)
            goto out;
    }
    if ((rc = upload_tables<H>(&d->gi_lo, &d->gi_hi, n, &gi, &ninv, ei)) != CZ_OK)
        goto out;
out:
    if (rc != CZ_OK) {
        dom_free(d);
        d = NULL;
    }
    *out_dom = d;
    return rc;
}

/* -r⁻¹ mod 2^256 (8 limbs) for the odd r: Hensel lifting x ← x·(2 - r·x), from x = 1 (right
 * mod 2), doubles the correct low bits each step: 8 steps. */
/* r = a·b mod 2^256 (8 limbs; r must not alias a or b). */
static void ntt_mul_lo(uint32_t r[8], const uint32_t a[8], const uint32_t b[8]) {
    memset(r, 0, 8 * sizeof(uint32_t));
    for (int i = 0; i < 8; i++) {
        uint64_t c = 0;
        for (int j = 0; i + j < 8; j++) {
            const uint64_t acc = (uint64_t)r[i + j] + (uint64_t)a[i] * b[j] + c;
            r[i + j] = (uint32_t)acc;
            c = acc >> 32;
        }
    }
}

/* out = c - x mod 2^256 for the small constant c. */
static void ntt_sub_from(uint32_t out[8], uint32_t c, const uint32_t x[8]) {
    uint64_t bw = 0;
    for (int i = 0; i < 8; i++) {
        const uint64_t d = (uint64_t)(i ? 0u : c) - x[i] - bw;
        out[i] = (uint32_t)d;
        bw = (d >> 63) & 1;
    }
}

/* out = -r⁻¹ mod 2^256 for the odd r: Hensel lifting x ← x·(2 - r·x) from x = 1 (right mod 2)
 * doubles the correct low bits each step, so 8 steps. */
static void ntt_neg_rinv(uint32_t out[8], const uint32_t r[8]) {
    uint32_t x[8] = {1}, t[8], u[8];
    for (int it = 0; it < 8; it++) {
        ntt_mul_lo(t, r, x);
        ntt_sub_from(u, 2, t);
        ntt_mul_lo(t, x, u);
        memcpy(x, t, sizeof x);
    }
    ntt_sub_from(out, 0, x);
}

/* Variant 8's tables of d (see ntt_shoup_table_kern), built on first use: 2·16·n bytes more.
 * Called with ntt_cache_lock held; dev is selected. */
template <class H> static int dom_shoup(ntt_dom *d, unsigned log_n, cz_errinfo *ei) {
    typedef typename H::cfg C;
    typedef fe<C> F;
    const size_t count = ((size_t)1 << log_n) / 2;
    F ninv;
    int rc = CZ_OK;
    if (d->tw_c != NULL)
        return CZ_OK;
    ntt_neg_rinv(ninv.l, H::id == 0 ? ntt_bn254_r : ntt_bls12381_r);
    CZ_CUDA_TRY(cudaMalloc(&d->tw_c, count * sizeof(F)));
    CZ_CUDA_TRY(cudaMalloc(&d->tw_s, count * sizeof(F)));
    ntt_shoup_table_kern<C><<<cz__gpu_blocks(count, 256), 256>>>((F *)d->tw_c, (F *)d->tw_s,
                                                                 (const F *)d->tw, ninv, count);
    CZ_CUDA_LAUNCHED();
    CZ_CUDA_TRY(cudaDeviceSynchronize());
out:
    if (rc != CZ_OK) {
        cudaFree(d->tw_c);
        cudaFree(d->tw_s);
        d->tw_c = d->tw_s = NULL;
    }
    return rc;
}

/* The cached domain of (dev, curve H, log_n), built on first use. dev is already selected. */
template <class H>
static int dom_get(ntt_dom **d, int dev, unsigned log_n, bool shoup, cz_errinfo *ei) {
    int rc = CZ_OK;
    if (dev >= NTT_MAX_DEV)
        return cz_fail(ei, CZ_EUNSUPPORTED, "gpu ntt: device %d beyond the cache", dev);
    pthread_mutex_lock(&ntt_cache_lock);
    *d = ntt_cache[dev][H::id][log_n];
    if (*d == NULL) {
        rc = dom_build<H>(d, log_n, ei);
        if (rc == CZ_OK)
            ntt_cache[dev][H::id][log_n] = *d;
    }
    if (rc == CZ_OK && shoup)
        rc = dom_shoup<H>(*d, log_n, ei);
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
        for (int k = 0; k <= CZ_GPU_NTT_MAX_LOG; k++) {
            dom_free(ntt_cache[dev][c][k]);
            ntt_cache[dev][c][k] = NULL;
        }
    pthread_mutex_unlock(&ntt_cache_lock);
    return CZ_OK;
}

/* Launches one pass of variant V with shm bytes for the tile (twice that with shared twiddles,
 * opting in above the default 48 KiB of dynamic shared memory). */
template <class C, bool INV, int V>
static int ntt_launch(dim3 grid, dim3 block, size_t shm, const ntt_pass<C> &P, cz_errinfo *ei) {
    int rc = CZ_OK;
    if constexpr (V == 9) {
        if (P.s < 2) /* n = 2: variant 7 */
            return ntt_launch<C, INV, 7>(grid, block, shm, P, ei);
        shm *= 2; /* a quarter of the tile's threads; the tile and its twiddles */
        if (shm > 48 * 1024)
            CZ_CUDA_TRY(cudaFuncSetAttribute(
                ntt_pass4_kern<C, INV>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shm));
        ntt_pass4_kern<C, INV><<<grid, dim3(block.x / 2), shm>>>(P);
    } else {
        if (ntt_v<V>::shtw) {
            shm *= ntt_v<V>::shoup ? 3 : 2;
            if (shm > 48 * 1024)
                CZ_CUDA_TRY(cudaFuncSetAttribute(ntt_pass_kern<C, INV, V>,
                                                 cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                 (int)shm));
        }
        ntt_pass_kern<C, INV, V><<<grid, block, shm>>>(P);
    }
out:
    return rc;
}

/* Runs the passes of one transform on a (natural order in and out); see the file comment. */
template <class C>
static int ntt_core(fe<C> *a, const ntt_dom *d, unsigned log_n, cz_gpu_ntt_kind kind, int variant,
                    cz_errinfo *ei) {
    typedef fe<C> F;
    int rc = CZ_OK;
    const unsigned npass = (log_n + NTT_MAX_TILE - 1) / NTT_MAX_TILE;
    const size_t n = (size_t)1 << log_n;
    ntt_pass<C> P;
    memset(&P, 0, sizeof P);
    P.tw = (const F *)(variant == 8 ? d->tw_c : d->tw);
    P.tws = (const F *)d->tw_s;
    P.log_n = log_n;
    P.pre_lo = (const F *)d->g_lo;
    P.pre_hi = (const F *)d->g_hi;
    P.post_lo = (const F *)d->gi_lo;
    P.post_hi = (const F *)d->gi_hi;
    memcpy(&P.post_c, d->ninv, sizeof P.post_c);
    for (unsigned p = 0, t = 0; p < npass; p++) {
        const unsigned s = log_n / npass + (p < log_n % npass ? 1 : 0);
        const bool first = p == 0, last = p + 1 == npass;
        P.src = first ? a : (const F *)d->scratch;
        P.dst = last ? a : (F *)d->scratch;
        P.t = t;
        P.s = s;
        P.gather = first;
        P.pre = first && kind == CZ_GPU_NTT_COSET_FORWARD;
        P.post = !last                              ? 0
                 : kind == CZ_GPU_NTT_INVERSE       ? 1
                 : kind == CZ_GPU_NTT_COSET_INVERSE ? 2
                                                    : 0;
        P.last = last;
        {
            const dim3 grid((unsigned)(n >> s)), block(1u << (s - 1));
            const size_t shm = sizeof(F) << s;
            const bool inv = kind == CZ_GPU_NTT_INVERSE || kind == CZ_GPU_NTT_COSET_INVERSE;
#define NTT_LAUNCH(V)                                                                              \
    rc = inv ? ntt_launch<C, true, V>(grid, block, shm, P, ei)                                     \
             : ntt_launch<C, false, V>(grid, block, shm, P, ei)
            switch (variant) {
            case 6:
                NTT_LAUNCH(6);
                break;
            case 7:
                NTT_LAUNCH(7);
                break;
            case 8:
                NTT_LAUNCH(8);
                break;
            case 9:
                NTT_LAUNCH(9);
                break;
            default:
                NTT_LAUNCH(1);
            }
#undef NTT_LAUNCH
            if (rc != CZ_OK)
                goto out;
        }
        CZ_CUDA_LAUNCHED();
        t += s;
    }
out:
    return rc;
}

/* The schedule of this call: CZ_GPU_NTT_VARIANT=2 selects gpu_ntt2.cu, 6, 7, 8 and 9 this file's
 * kernels with the butterfly arithmetic of ntt_v (read per call, so tests and benchmarks can switch
 * with setenv); unset or anything else is the default. */
static int ntt_variant(void) {
    const char *e = getenv("CZ_GPU_NTT_VARIANT");
    if (e != NULL && strlen(e) == 1 && strchr("126789", e[0]) != NULL)
        return e[0] - '0';
    return NTT_DEFAULT_VARIANT;
}

/* Variant 2's largest pass, 2^smax elements per block: CZ_GPU_NTT2_MAX_S (6..11) or the default. */
static unsigned ntt2_smax(void) {
    const char *e = getenv("CZ_GPU_NTT2_MAX_S");
    int v = e != NULL ? atoi(e) : 0;
    return v >= 6 && v <= NTT2_MAX_S ? (unsigned)v : NTT2_SMAX_D;
}

template <class H>
static int ntt_dev(void *d_a, unsigned log_n, cz_gpu_ntt_kind kind, int dev, cz_errinfo *ei) {
    typedef typename H::cfg C;
    typedef fe<C> F;
    ntt_dom *d = NULL;
    int rc, variant;
    if (log_n < 1 || log_n > CZ_GPU_NTT_MAX_LOG || log_n > (unsigned)H::two_adicity)
        return cz_fail(ei, CZ_ERANGE, "gpu ntt: log_n %u outside 1..%d", log_n, CZ_GPU_NTT_MAX_LOG);
    if ((unsigned)kind > CZ_GPU_NTT_COSET_INVERSE)
        return cz_fail(ei, CZ_EINVAL, "gpu ntt: unknown kind %d", (int)kind);
    if ((rc = cz__gpu_select(dev, ei)) != CZ_OK)
        return rc;
    variant = ntt_variant();
    if ((rc = dom_get<H>(&d, dev, log_n, variant == 8, ei)) != CZ_OK)
        return rc;
    if (variant == 2 && ntt2_supported(log_n, ntt2_smax()))
        rc = cz__gpu_ntt2_run(H::id, d_a, d, log_n, kind, ntt2_smax(), ei);
    else
        rc = ntt_core<C>((F *)d_a, d, log_n, kind, variant, ei);
    if (rc != CZ_OK)
        goto out;
    CZ_CUDA_TRY(cudaStreamSynchronize(0)); /* not the whole device: uploads in flight go on */
out:
    return rc;
}

template <class H>
static int ntt_host(typename H::fr *a, unsigned log_n, cz_gpu_ntt_kind kind, int dev,
                    cz_errinfo *ei) {
    void *d_a = NULL;
    size_t bytes;
    int rc;
    if (log_n < 1 || log_n > CZ_GPU_NTT_MAX_LOG)
        return cz_fail(ei, CZ_ERANGE, "gpu ntt: log_n %u outside 1..%d", log_n, CZ_GPU_NTT_MAX_LOG);
    bytes = sizeof(typename H::fr) << log_n;
    if ((rc = cz__gpu_select(dev, ei)) != CZ_OK)
        return rc;
    CZ_CUDA_TRY(cudaMalloc(&d_a, bytes));
    CZ_CUDA_TRY(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice));
    if ((rc = ntt_dev<H>(d_a, log_n, kind, dev, ei)) != CZ_OK)
        goto out;
    CZ_CUDA_TRY(cudaMemcpy(a, d_a, bytes, cudaMemcpyDeviceToHost));
out:
    cudaFree(d_a);
    return rc;
}

extern "C" int cz_bn254_gpu_ntt(cz_bn254_fr *a, unsigned log_n, cz_gpu_ntt_kind kind, int dev,
                                cz_errinfo *ei) {
    return ntt_host<ntt_bn254>(a, log_n, kind, dev, ei);
}
extern "C" int cz_bls12381_gpu_ntt(cz_bls12381_fr *a, unsigned log_n, cz_gpu_ntt_kind kind, int dev,
                                   cz_errinfo *ei) {
    return ntt_host<ntt_bls12381>(a, log_n, kind, dev, ei);
}
extern "C" int cz_bn254_gpu_ntt_dev(void *d_a, unsigned log_n, cz_gpu_ntt_kind kind, int dev,
                                    cz_errinfo *ei) {
    return ntt_dev<ntt_bn254>(d_a, log_n, kind, dev, ei);
}
extern "C" int cz_bls12381_gpu_ntt_dev(void *d_a, unsigned log_n, cz_gpu_ntt_kind kind, int dev,
                                       cz_errinfo *ei) {
    return ntt_dev<ntt_bls12381>(d_a, log_n, kind, dev, ei);
}
