/*
 * Internal measuring entry points of the GPU code, called by bench/ only (cuzk-bench fmul).
 */
#ifndef CUZK_GPU_BENCH_H
#define CUZK_GPU_BENCH_H

#include <stddef.h>

#include "cuzk/err.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Field 0 BN254 Fr, 1 BLS12-381 Fr, 2 BN254 Fp, 3 BLS12-381 Fp; variant 0 fe_mul, 1 even/odd
 * operand scanning (a measured alternative, see docs/gpu.md), 2 fe_sqr. Each of `count` threads
 * runs 4 chains of `iters` operations over d_io (5·count elements on device dev). */
int cz__gpu_fmul_bench(int field, int variant, void *d_io, size_t count, unsigned iters, int dev,
                       cz_errinfo *ei);

#ifdef __cplusplus
}
#endif

#endif
