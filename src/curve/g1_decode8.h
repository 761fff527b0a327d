/*
 * Eight uncompressed BLS12-381 G1 points decoded at once, in radix 2^52 (src/field/fp8_impl.h):
 * the bulk path of cz_bls12381_g1_from_uncompressed_unchecked_batch (include/cuzk/encoding.h).
 * Two instantiations of one code: AVX-512 IFMA, used where the CPU has it, and a portable C
 * emulation of the two IFMA instructions, for the tests on CPUs without it.
 */
#ifndef CUZK_CURVE_G1_DECODE8_H
#define CUZK_CURVE_G1_DECODE8_H

#include <stdint.h>

#include "cuzk/curve.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__CUDACC__)
#define CZ_CURVE_IFMA 1
/* 1 when the CPU (and the OS) have AVX-512F and AVX-512 IFMA, set at load time; tests may clear
 * it to run the one-by-one path. */
extern int cz__curve_ifma;
unsigned cz__g1_decode8_ifma(cz_bls12381_g1_affine out[8], const uint8_t in[8 * 96]);
#endif

/* Decodes the eight 96-byte encodings at in into out (which must not overlap in). Returns the
 * lanes (bit i: point i) that are plain affine points: no flag bit set, both coordinates below p,
 * on the curve; out[i] is then what cz_bls12381_g1_from_uncompressed_unchecked gives. The other
 * lanes of out hold garbage: the point at infinity and every error are left to the one-by-one
 * decoder, which says what is wrong. */
unsigned cz__g1_decode8_portable(cz_bls12381_g1_affine out[8], const uint8_t in[8 * 96]);

#endif
