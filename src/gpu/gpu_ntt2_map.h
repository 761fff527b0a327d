/*
 * Index maps of the second GPU NTT schedule (gpu_ntt2.cu), shared by the kernels and a CPU model
 * of the whole schedule (tests/gpu/test_gpu_ntt2_map.c, no GPU needed): every index the kernels
 * compute comes from these functions, so the model checks the kernels' exact pass/tile/thread
 * maps, twiddle exponents and shared-memory slots against the CPU NTT.
 *
 * The schedule. Radix-2 DIT, log_n stages in P = ceil(log_n / smax) passes of s stages (split
 * evenly, 3 <= s <= 11). A pass runs n / 2^s blocks of 2^(s-3) threads; each thread holds 8
 * elements of the block's 2^s-element tile in registers. The s stages form groups of g = 3
 * stages (the last one may have 1 or 2), starting at local stage k0 = 0, 3, 6, 9. In a group,
 * thread u holds the 8 tile positions v(k0, g, u, r), r = 0..7: the g bits at k0 of v are the low
 * g bits of r, the other bits are q = u·2^(3-g) + (r >> g) with q's low k0 bits kept below k0.
 * So the group's g stages pair registers r and r + 2^i (i = 0..g-1) with no data movement; between
 * groups the 8 elements go through shared memory once (the old kernel does one shared round trip
 * and one barrier per stage). The first group loads from global memory, the last stores.
 *
 * Tiles (the same as the first schedule): the first pass (t = 0) gathers block b's tile from the
 * input in bit-reversed order, tile position v <- input (rev_s(v) << (log_n - s)) + b, and the
 * tile's DIT positions are rev_(log_n-s)(b)·2^s + v; a later pass with first stage t takes the
 * 2^s positions base + v·2^t, base = (b >> t)·2^(t+s) + lo, lo = b mod 2^t. Local stage k of a
 * pass is global stage t + k; the butterfly on tile positions v, v + 2^k (bit k of v clear) uses
 * ω^e, e = ((j << t) + lo) << (log_n - t - k - 1), j = v mod 2^k (< n/2, the table's range).
 *
 * Shared memory holds an element as N/4 uint4 planes (plane h of slot p at h·2^s + p) with the
 * slot p = v ^ ((v >> 3) & 7): a quarter warp (8 threads) of every 128-bit access then touches 8
 * distinct 16-byte bank groups for each group layout used (the model counts this).
 */
#ifndef CUZK_GPU_NTT2_MAP_H
#define CUZK_GPU_NTT2_MAP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define NTT2_HD static __host__ __device__ __forceinline__
#else
#define NTT2_HD static inline
#endif

#define NTT2_MIN_S 3 /* a thread holds 8 elements: a tile has at least 8 */
/* 2^11 elements, 64 KiB of shared memory, 256 threads: at 2^12 the 512 threads of a block may
 * have only 128 registers each and ptxas spills. */
#define NTT2_MAX_S  11
#define NTT2_SMAX_D 11 /* default largest pass (CZ_GPU_NTT2_MAX_S overrides, 6..11) */

/* Number of passes for log_n stages with at most smax per pass. */
NTT2_HD unsigned ntt2_npass(unsigned log_n, unsigned smax) {
    return (log_n + smax - 1) / smax;
}

/* Stages of pass p (the first log_n mod P passes take one more). */
NTT2_HD unsigned ntt2_pass_s(unsigned log_n, unsigned npass, unsigned p) {
    return log_n / npass + (p < log_n % npass ? 1u : 0u);
}

/* Whether the schedule handles log_n with this smax (every pass 3..11 stages). */
NTT2_HD int ntt2_supported(unsigned log_n, unsigned smax) {
    unsigned np;
    if (smax < NTT2_MIN_S || smax > NTT2_MAX_S || log_n < NTT2_MIN_S)
        return 0;
    np = ntt2_npass(log_n, smax);
    return log_n / np >= NTT2_MIN_S && ntt2_pass_s(log_n, np, 0) <= NTT2_MAX_S;
}

/* Stages of the group starting at local stage k0 of an s-stage pass. */
NTT2_HD unsigned ntt2_group_g(unsigned s, unsigned k0) {
    return s - k0 < 3 ? s - k0 : 3;
}

/* The low bits of x reversed (bits <= 32). */
NTT2_HD uint32_t ntt2_rev(uint32_t x, unsigned bits) {
#ifdef __CUDA_ARCH__
    return bits ? __brev(x) >> (32 - bits) : 0;
#else
    uint32_t r = 0;
    for (unsigned i = 0; i < bits; i++)
        r |= ((x >> i) & 1u) << (bits - 1 - i);
    return r;
#endif
}

/* q of thread u's register r in a group of g stages (see the file comment). */
NTT2_HD uint32_t ntt2_q(unsigned g, uint32_t u, unsigned r) {
    return (u << (3 - g)) | (r >> g);
}

/* Tile position of thread u's register r in the group (k0, g). */
NTT2_HD uint32_t ntt2_v(unsigned k0, unsigned g, uint32_t u, unsigned r) {
    const uint32_t q = ntt2_q(g, u, r), rg = r & ((1u << g) - 1);
    return ((q >> k0) << (k0 + g)) | (rg << k0) | (q & ((1u << k0) - 1));
}

/* j = v mod 2^(k0+i) of the butterflies of stage k0 + i on registers with r >> g = sub and
 * r mod 2^i = rl (the same for all of them). */
NTT2_HD uint32_t ntt2_j(unsigned k0, unsigned g, uint32_t u, unsigned sub, unsigned rl) {
    const uint32_t q = (u << (3 - g)) | sub;
    return (q & ((1u << k0) - 1)) | (rl << k0);
}

/* Shared-memory slot of tile position v. */
NTT2_HD uint32_t ntt2_slot(uint32_t v) {
    return v ^ ((v >> 3) & 7u);
}

/* Block b's tile in a pass: *lo and *base (the DIT position of tile position v is base + v·2^t). */
NTT2_HD void ntt2_tile(size_t *lo, size_t *base, unsigned log_n, unsigned s, unsigned t, size_t b) {
    if (t == 0) {
        *lo = 0;
        *base = (size_t)ntt2_rev((uint32_t)b, log_n - s) << s;
    } else {
        *lo = b & (((size_t)1 << t) - 1);
        *base = ((b >> t) << (t + s)) | *lo;
    }
}

/* Where tile position v is read from: the input index (first pass) or the DIT position. */
NTT2_HD size_t ntt2_src(unsigned log_n, unsigned s, unsigned t, size_t b, size_t base, uint32_t v) {
    if (t == 0)
        return ((size_t)ntt2_rev(v, s) << (log_n - s)) + b;
    return base + ((size_t)v << t);
}

/* Where tile position v is written: its DIT position; the last pass of an inverse transform
 * writes output k of the forward transform to (n - k) mod n (INTT(a)_k = NTT(a)_(-k) / n). */
NTT2_HD size_t ntt2_dst(unsigned log_n, unsigned t, size_t base, uint32_t v, int rev_out) {
    const size_t k = base + ((size_t)v << t), mask = ((size_t)1 << log_n) - 1;
    return rev_out ? (0 - k) & mask : k;
}

/* Twiddle exponent of local stage k (global t + k) for j = v mod 2^k: ω^e, e < n/2. */
NTT2_HD size_t ntt2_tw(unsigned log_n, unsigned t, unsigned k, size_t lo, uint32_t j) {
    return (((size_t)j << t) + lo) << (log_n - t - k - 1);
}

#endif
