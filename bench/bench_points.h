/*
 * BLS12-381 points for the benchmark programs of bench/ that need many valid points fast:
 * the progressions k0·G, (k0 + step)·G, (k0 + 2·step)·G, ... of G1 and G2, made with one scalar
 * multiplication each for the start and the step, then one Jacobian addition per point and one
 * batch conversion to affine (one inversion). Being multiples of the generator, the points are in
 * the prime-order subgroup; they are distinct and none is infinity while k0 + i·step stays below
 * the group order r and above 0 as an integer (64-bit k0 and step, fewer than 2^64 points).
 * Header-only (static functions), like bench_util.h.
 */
#ifndef CUZK_BENCH_POINTS_H
#define CUZK_BENCH_POINTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "cuzk/curve.h"

/* n points (k0 + i·step)·G of G1 into out; 0, or -1 when out of memory. */
static inline int bench_g1_progression(cz_bls12381_g1_affine *out, size_t n, uint64_t k0,
                                       uint64_t step) {
    cz_bls12381_g1_affine g;
    cz_bls12381_g1_jacobian gj, p, q, *t = malloc((n ? n : 1) * sizeof *t);
    if (t == NULL)
        return -1;
    cz_bls12381_g1_generator(&g);
    cz_bls12381_g1_from_affine(&gj, &g);
    cz_bls12381_g1_mul_limbs(&p, &gj, &k0, 1);
    cz_bls12381_g1_mul_limbs(&q, &gj, &step, 1);
    for (size_t i = 0; i < n; i++) {
        t[i] = p;
        cz_bls12381_g1_add(&p, &p, &q);
    }
    cz_bls12381_g1_batch_to_affine(out, t, n);
    free(t);
    return 0;
}

/* The same in G2. */
static inline int bench_g2_progression(cz_bls12381_g2_affine *out, size_t n, uint64_t k0,
                                       uint64_t step) {
    cz_bls12381_g2_affine g;
    cz_bls12381_g2_jacobian gj, p, q, *t = malloc((n ? n : 1) * sizeof *t);
    if (t == NULL)
        return -1;
    cz_bls12381_g2_generator(&g);
    cz_bls12381_g2_from_affine(&gj, &g);
    cz_bls12381_g2_mul_limbs(&p, &gj, &k0, 1);
    cz_bls12381_g2_mul_limbs(&q, &gj, &step, 1);
    for (size_t i = 0; i < n; i++) {
        t[i] = p;
        cz_bls12381_g2_add(&p, &p, &q);
    }
    cz_bls12381_g2_batch_to_affine(out, t, n);
    free(t);
    return 0;
}

#endif
