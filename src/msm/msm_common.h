/*
 * Curve-independent parts of the Pippenger MSM (msm_impl.h): scalar limbs, signed window digits,
 * and the choice of window width and point-range split from a cost model.
 */
#ifndef CUZK_MSM_COMMON_H
#define CUZK_MSM_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cuzk/clock.h"
#include "cuzk/tuning.h"

/* Every scalar field here (BN254 and BLS12-381 Fr) fits in four 64-bit limbs. */
#define MSM_NLIMBS 4
/* The widest window: digits up to 2^15 in magnitude, 2^15 buckets. */
#define MSM_MAX_C 16

/*
 * The signed ("Booth") digit of window j = pos / c of a canonical scalar k: with b_i the bits of
 * k (b_-1 = 0), d_j = b_(pos-1) + Σ_{i<c} b_(pos+i)·2^i - b_(pos+c-1)·2^c, which lies in
 * [-2^(c-1), 2^(c-1)]. The sum Σ_j d_j·2^(jc) telescopes to k as long as the last window's top bit
 * lies above the scalar's highest set bit (c·nwin > bits). Each digit depends only on c + 1 bits
 * of k, so windows are independent and no digit array is stored.
 */
static inline int32_t msm_booth_digit(const uint64_t *k, unsigned pos, unsigned c) {
    uint64_t w;
    if (pos == 0) {
        w = k[0] << 1;
    } else {
        unsigned p = pos - 1, li = p / 64, sh = p % 64;
        w = k[li] >> sh;
        if (sh + c + 1 > 64 && li + 1 < MSM_NLIMBS) /* sh > 0 here, since c + 1 <= 17 */
            w |= k[li + 1] << (64 - sh);
    }
    w &= ((uint64_t)2 << c) - 1;
    int32_t d = (int32_t)((w >> 1) + (w & 1));
    if ((w >> c) & 1)
        d -= (int32_t)1 << c;
    return d;
}

/* The canonical limbs of a 32-byte little-endian scalar (any byte order of the host). */
static inline void msm_bytes_limbs(uint64_t *k, const uint8_t *in) {
    for (int l = 0; l < MSM_NLIMBS; l++) {
        uint64_t v = 0;
        for (int b = 7; b >= 0; b--)
            v = (v << 8) | in[8 * l + b];
        k[l] = v;
    }
}

/* The split (msm_split_impl.h) runs when skipped points and ones are at least n / MSM_SPLIT_MIN. */
#define MSM_SPLIT_MIN 8

/* cz_tuning.msm_split: forced off or on (tests, benchmarks), else auto.
 * Returns MSM_SPLIT_OFF, MSM_SPLIT_ON or MSM_SPLIT_AUTO (msm.h). */
static inline int msm_split_tuned(void) {
    cz_tuning tu;
    cz_tuning_get(&tu);
    return cz_tuning_split(&tu);
}

/*
 * cz_tuning.msm_profile prints one line per phase of every CPU MSM to stderr (for benchmarks):
 * msm_prof_start returns a start time (0 when profiling is off), msm_prof_end prints the phase's
 * wall time and the process CPU time (all threads; on a loaded machine the better measure of
 * work) since then, and restarts both clocks (the CPU clock in a thread-local).
 */
#define MSM_STR_(x) #x
#define MSM_STR(x)  MSM_STR_(x)

static _Thread_local uint64_t msm_prof_cpu0;

static inline uint64_t msm_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t msm_prof_start(void) {
    cz_tuning tu;
    cz_tuning_get(&tu);
    if (!tu.msm_profile)
        return 0;
    msm_prof_cpu0 = msm_cpu_ns();
    return cz_clock_now_ns();
}

static inline void msm_prof_end(uint64_t *t0, const char *group, const char *phase, size_t n) {
    if (*t0 == 0)
        return;
    uint64_t t = cz_clock_now_ns(), c = msm_cpu_ns();
    fprintf(stderr, "msm %s: %-9s wall %9.2f ms  cpu %9.2f ms  (n %zu)\n", group, phase,
            (double)(t - *t0) / 1e6, (double)(c - msm_prof_cpu0) / 1e6, n);
    *t0 = t;
    msm_prof_cpu0 = c;
}

/* Bit length of the largest of n canonical scalars (0 when all are zero). */
static inline unsigned msm_max_bits(const uint64_t *k, size_t n) {
    uint64_t acc[MSM_NLIMBS] = {0};
    for (size_t i = 0; i < n; i++)
        for (int l = 0; l < MSM_NLIMBS; l++)
            acc[l] |= k[MSM_NLIMBS * i + l];
    for (int l = MSM_NLIMBS - 1; l >= 0; l--)
        if (acc[l] != 0)
            return (unsigned)(64 * l + 64 - __builtin_clzll(acc[l]));
    return 0;
}

/*
 * Picks the window width c and the number of point ranges per window (nsplit) for n points,
 * scalars of `bits` bits and nthreads threads, minimising a cost in field multiplications:
 *   rounds · (points per task · ACC + buckets per task · RED) + windows · c · DBL,
 * where rounds = ceil(nwin · nsplit / nthreads) counts the task waves, ACC ≈ 7 is a batch-affine
 * bucket addition (5M + 1S plus bookkeeping) and RED ≈ 24 the running-sum reduction per bucket
 * (an XYZZ mixed addition and an XYZZ addition); DBL ≈ 9 a doubling of the window combination.
 * c stays at most max_c (set by the caller's memory bound per task).
 */
static inline void msm_pick(unsigned *c_out, unsigned *nsplit_out, size_t n, size_t nthreads,
                            unsigned bits, unsigned max_c) {
    const double ACC = 7.0, RED = 24.0, DBL = 9.0;
    double best = -1;
    unsigned bc = 1, bs = 1;
    if (max_c > MSM_MAX_C)
        max_c = MSM_MAX_C;
    for (unsigned c = 1; c <= max_c; c++) {
        unsigned nwin = bits / c + 1;
        for (unsigned s = 1; s <= 4 * nthreads && s <= 64; s *= 2) {
            if (s > 1 && (size_t)s > n)
                break;
            size_t tasks = (size_t)nwin * s;
            double rounds = (double)((tasks + nthreads - 1) / nthreads);
            double per = ((double)n / s) * ACC + (double)((size_t)1 << (c - 1)) * RED;
            double cost = rounds * per + (double)nwin * c * DBL;
            if (best < 0 || cost < best) {
                best = cost;
                bc = c;
                bs = s;
            }
        }
    }
    *c_out = bc;
    *nsplit_out = bs;
}

#endif
