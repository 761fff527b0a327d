/*
 * The batch verifier with its multipliers given (src/groth16/verify.c): what
 * cz_groth16_verify_batch runs after drawing them, for tests that need fixed ones (to show that
 * the multipliers are what makes the batch sound: with all z = 1 two proofs whose errors cancel
 * pass). z[j] is proof j's 128-bit multiplier, two little-endian 64-bit limbs; a zero multiplier
 * leaves its proof unchecked, so callers other than tests must draw them at random.
 */
#ifndef CUZK_GROTH16_VERIFY_H
#define CUZK_GROTH16_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/groth16.h"

/* As cz_groth16_verify_batch, also for n == 1 (then the batch equation of one proof). */
int cz__groth16_verify_batch_z(const cz_groth16_vk *vk, const cz_groth16_public *pubs,
                               const cz_groth16_proof *proofs, size_t n, const uint64_t (*z)[2],
                               cz_errinfo *ei);

#endif
