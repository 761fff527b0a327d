/*
 * Pairing benchmark: Miller loop, final exponentiation and full pairing of both curves on the
 * generators, one JSON line per operation:
 *   {"bench":"pairing","op":"pairing","curve":"bls12381","ns":..,"min":..,"max":..,"iters":..}
 * ns is the median of the per-run means (each run about 50 ms), min/max the extreme runs.
 * Usage: cuzk-bench-pairing [runs]   (default 9)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "cuzk/pairing.h"
#include "field/field_consts.h"

static double now_ns(void) {
    return (double)bench_now_ns();
}

typedef void (*op_fn)(void *ctx);

/* Runs op in `runs` runs of `iters` calls and prints one JSON line. */
static void bench(const char *curve, const char *op, op_fn fn, void *ctx, int runs) {
    double t0 = now_ns();
    long iters = 0;
    while (now_ns() - t0 < 5e7 || iters < 3) {
        fn(ctx);
        iters++;
    }
    double per[64];
    if (runs > 64)
        runs = 64;
    for (int r = 0; r < runs; r++) {
        double s = now_ns();
        for (long i = 0; i < iters; i++)
            fn(ctx);
        per[r] = (now_ns() - s) / (double)iters;
    }
    qsort(per, (size_t)runs, sizeof per[0], bench_cmp_double);
    printf("{\"bench\":\"pairing\",\"op\":\"%s\",\"curve\":\"%s\",\"ns\":%.0f,\"min\":%.0f,"
           "\"max\":%.0f,\"iters\":%ld}\n",
           op, curve, per[runs / 2], per[0], per[runs - 1], iters);
    fflush(stdout);
}

#define CURVE_BENCH(c, UP)                                                                         \
    static struct {                                                                                \
        cz_##c##_g1_affine p;                                                                      \
        cz_##c##_g2_affine q;                                                                      \
        cz_##c##_fp12 f, out;                                                                      \
    } c##_ctx;                                                                                     \
    static void c##_ml(void *v) {                                                                  \
        (void)v;                                                                                   \
        cz_##c##_miller_loop(&c##_ctx.out, &c##_ctx.p, &c##_ctx.q);                                \
    }                                                                                              \
    static void c##_fe(void *v) {                                                                  \
        (void)v;                                                                                   \
        cz_##c##_final_exp(&c##_ctx.out, &c##_ctx.f);                                              \
    }                                                                                              \
    static void c##_pr(void *v) {                                                                  \
        (void)v;                                                                                   \
        cz_##c##_pairing(&c##_ctx.out, &c##_ctx.p, &c##_ctx.q);                                    \
    }                                                                                              \
    static void c##_run(int runs) {                                                                \
        memcpy(&c##_ctx.p.x, UP##_G1_X, sizeof c##_ctx.p.x);                                       \
        memcpy(&c##_ctx.p.y, UP##_G1_Y, sizeof c##_ctx.p.y);                                       \
        memcpy(&c##_ctx.q.x, UP##_G2_X, sizeof c##_ctx.q.x);                                       \
        memcpy(&c##_ctx.q.y, UP##_G2_Y, sizeof c##_ctx.q.y);                                       \
        cz_##c##_miller_loop(&c##_ctx.f, &c##_ctx.p, &c##_ctx.q);                                  \
        bench(#c, "miller_loop", c##_ml, NULL, runs);                                              \
        bench(#c, "final_exp", c##_fe, NULL, runs);                                                \
        bench(#c, "pairing", c##_pr, NULL, runs);                                                  \
    }

CURVE_BENCH(bn254, BN254)
CURVE_BENCH(bls12381, BLS12381)

int main(int argc, char **argv) {
    int runs = argc > 1 ? atoi(argv[1]) : 9;
    if (runs < 1)
        runs = 1;
    bn254_run(runs);
    bls12381_run(runs);
    return 0;
}
