/*
 * A xorshift64 stream from a fixed seed, so every run sees the same values, and random BLS12-381
 * Fp elements from it, for the curve tests that build their own points or scalars
 * (test_subgroup.c, test_g1_decode8.c, test_batch_add.c).
 */
#ifndef CUZK_TESTS_CURVE_BLS_TEST_RANDOM_H
#define CUZK_TESTS_CURVE_BLS_TEST_RANDOM_H

#include <stdint.h>

#include "curve/ec.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static inline uint64_t next64(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* A uniform canonical Fp element (rejection sampling), in Montgomery form. */
static inline void random_fp(cz_bls12381_fp *r) {
    uint64_t l[BLS12381_FP_NLIMBS];
    do {
        for (int i = 0; i < BLS12381_FP_NLIMBS; i++)
            l[i] = next64();
        l[BLS12381_FP_NLIMBS - 1] &= bls12381_fp_top_limb_mask();
    } while (bls12381_fp_from_limbs(r, l) != CZ_OK);
}

#endif
