/*
 * cuzk-bench-curve: ns per group operation (mixed add, add, dbl, XYZZ mixed add, scalar mul) for
 * G1 and G2 of BLS12-381 and BN254, one JSON line each:
 *   {"bench":"curve","op":"g1_add_mixed","curve":"bls12381","ns":...,"min":...,"max":...}
 * The operations are the inline ones of src/curve/ec.h that MSM uses. Scalar mul takes a random
 * scalar below r. Times are the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), so that a busy machine
 * inflates them less than wall time would.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_util.h"
#include "curve/ec.h"

#define NREP 15
#define NOPS 20000
#define NMUL 20

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static uint64_t bench_rand64(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static volatile uint8_t sink;

/* Prints one result; the result's bytes go to a volatile sink so the work cannot be removed. */
static void report(const char *curve, const char *op, double *t, const void *res, size_t len) {
    const uint8_t *p = res;
    uint8_t x = 0;
    for (size_t i = 0; i < len; i++)
        x ^= p[i];
    sink = x;
    qsort(t, NREP, sizeof *t, bench_cmp_double);
    printf("{\"bench\":\"curve\",\"op\":\"%s\",\"curve\":\"%s\",\"ns\":%.1f,\"min\":%.1f,"
           "\"max\":%.1f}\n",
           op, curve, t[NREP / 2], t[0], t[NREP - 1]);
    fflush(stdout);
}

#define B_G     bls12381_g1
#define B_AFF   cz_bls12381_g1_affine
#define B_JAC   cz_bls12381_g1_jacobian
#define B_XYZZ  cz_bls12381_g1_xyzz
#define B_FR_T  cz_bls12381_fr
#define B_CURVE "bls12381"
#define B_GN    "g1"
#include "cuzk_bench_curve_impl.h"
#include "cuzk_bench_curve_undef.h"

#define B_G     bls12381_g2
#define B_AFF   cz_bls12381_g2_affine
#define B_JAC   cz_bls12381_g2_jacobian
#define B_XYZZ  cz_bls12381_g2_xyzz
#define B_FR_T  cz_bls12381_fr
#define B_CURVE "bls12381"
#define B_GN    "g2"
#include "cuzk_bench_curve_impl.h"
#include "cuzk_bench_curve_undef.h"

#define B_G     bn254_g1
#define B_AFF   cz_bn254_g1_affine
#define B_JAC   cz_bn254_g1_jacobian
#define B_XYZZ  cz_bn254_g1_xyzz
#define B_FR_T  cz_bn254_fr
#define B_CURVE "bn254"
#define B_GN    "g1"
#include "cuzk_bench_curve_impl.h"
#include "cuzk_bench_curve_undef.h"

#define B_G     bn254_g2
#define B_AFF   cz_bn254_g2_affine
#define B_JAC   cz_bn254_g2_jacobian
#define B_XYZZ  cz_bn254_g2_xyzz
#define B_FR_T  cz_bn254_fr
#define B_CURVE "bn254"
#define B_GN    "g2"
#include "cuzk_bench_curve_impl.h"
#include "cuzk_bench_curve_undef.h"

int main(void) {
    bls12381_g1_bench_run();
    bls12381_g2_bench_run();
    bn254_g1_bench_run();
    bn254_g2_bench_run();
    return 0;
}
