/*
 * Curve-independent pieces of the CPU NTT (src/ntt/ntt_impl.h): running a batch of independent
 * tasks on the thread pool or the calling thread, bit reversal of an index, and the tuning
 * constants that cut the work into tasks.
 */
#ifndef CUZK_NTT_COMMON_H
#define CUZK_NTT_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/threadpool.h"

/*
 * Radix-2 stages are done in groups; one task of a group works on at most 2^NTT_TILE_LOG
 * elements (128 KiB of 32-byte elements, which stays in L2 for the group's stages).
 * The first group works in place on contiguous blocks of 2^NTT_TILE_LOG elements; later groups
 * gather 2^g rows of 2^NTT_COLS_LOG adjacent columns into a scratch tile (so a row is whole
 * cache lines and power-of-two strides do not thrash cache sets), run their stages there and
 * scatter the tile back.
 */
#define NTT_TILE_LOG 12
#define NTT_COLS_LOG 3

/* The tile size in use, NTT_TILE_LOG unless a test lowers it (>= NTT_COLS_LOG + 1) to exercise
 * several stage groups at sizes where the O(n²) DFT is cheap. Not for concurrent change. */
extern unsigned cz__ntt_tile_log;
/* Element-wise passes (powers, pointwise products, bit reversal) use tasks of this many. */
#define NTT_CHUNK_LOG 13

/* Runs fn(arg, 0..ntasks-1) on the pool (the caller takes part), or here when pool is NULL. */
static inline void cz__ntt_run(cz_threadpool *pool, void (*fn)(void *arg, size_t task), void *arg,
                               size_t ntasks) {
    if (pool == NULL || ntasks == 1) {
        for (size_t t = 0; t < ntasks; t++)
            fn(arg, t);
        return;
    }
    cz_threadpool_run(pool, fn, arg, ntasks);
}

/* The low `bits` bits of i in reverse order (bits >= 1). */
static inline size_t cz__ntt_bitrev(size_t i, unsigned bits) {
    uint64_t x = (uint64_t)i;
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    x = ((x >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((x & 0x0f0f0f0f0f0f0f0fULL) << 4);
    x = __builtin_bswap64(x);
    return (size_t)(x >> (64 - bits));
}

/* Number of tasks of 2^chunk_log elements that cover n elements. */
static inline size_t cz__ntt_ntasks(size_t n, unsigned chunk_log) {
    size_t chunk = (size_t)1 << chunk_log;
    return n == 0 ? 1 : (n + chunk - 1) / chunk;
}

/* [*i0, *i1) = the elements of chunk `task` (2^NTT_CHUNK_LOG each) of an array of n. */
static inline void cz__ntt_chunk(size_t *i0, size_t *i1, size_t task, size_t n) {
    *i0 = task << NTT_CHUNK_LOG;
    *i1 = *i0 + ((size_t)1 << NTT_CHUNK_LOG);
    if (*i1 > n)
        *i1 = n;
}

#endif
