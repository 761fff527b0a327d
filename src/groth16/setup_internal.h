/*
 * What the two test-key setups share (setup.c: snarkjs's .zkey; setup_bellperson.c: bellperson's
 * .params): the fixed-base task sizes that setup_fixed_impl.h reads, the wiping of secrets, and
 * the BLS12-381 trapdoor in Montgomery form. Internal to the groth16 layer.
 */
#ifndef CUZK_GROTH16_SETUP_INTERNAL_H
#define CUZK_GROTH16_SETUP_INTERNAL_H

#include <stddef.h>

#include "cuzk/err.h"
#include "cuzk/field.h"
#include "cuzk/groth16_setup.h"

/* Scalars per fixed-base multiplication task (their digits, addend pointers and one field element
 * each are on its stack: 136 KiB for BLS12-381 G2), table points per building step (Jacobian, on
 * the stack: 72 KiB for G2), and the largest window table (setup_fixed_impl.h). */
#define FB_CHUNK           1024
#define FB_BUILD_CHUNK     256
#define FB_MAX_TABLE_BYTES (32.0 * 1024 * 1024)

/* Zeroes n bytes through a call the compiler cannot drop, at memset's speed (gigabytes of
 * trapdoor-derived scalars are wiped this way). */
void cz__setup_wipe(void *p, size_t n);

/*
 * out[0..4] = τ, α, β, γ, δ of td in Montgomery form, each checked below r and α, β, γ, δ non-zero
 * (CZ_ERANGE, CZ_EINVAL naming the value). td = NULL draws τ, α, β, δ from the CSPRNG (CZ_EIO
 * without randomness), and γ too when draw_gamma is set, else γ = 1. The caller wipes out.
 */
int cz__setup_trapdoor_bls12381(cz_bls12381_fr out[5], const cz_groth16_trapdoor *td,
                                int draw_gamma, cz_errinfo *ei);

#endif
