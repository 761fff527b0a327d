/*
 * Byte and text encodings of G1/G2 points (cuzk/curve.h).
 *
 *   zcash/bellman (BLS12-381 only): big-endian canonical coordinates, compressed (x only: G1 48
 *     bytes, G2 96) or uncompressed (x‖y: 96, 192). Flags in the top three bits of byte 0: 0x80
 *     compressed, 0x40 infinity (all other bits zero), 0x20 "y is the lexicographically larger
 *     root" (compressed, finite points only). G2 coordinates are written c1 before c0; for the
 *     sign of an Fp2 y, c1 decides unless it is zero, then c0. This is the format of Filecoin
 *     .params/.vk files, zcash, blst and @noble/curves.
 *   snarkjs "LEM": little-endian Montgomery coordinates, n8 bytes each (32 for BN254 Fp, 48 for
 *     BLS12-381 Fp), x‖y, Fp2 = c0‖c1; all zero bytes is infinity. The format of .zkey sections.
 *   decimal triples as snarkjs' JSON writes them: G1 ["x","y","1"], G2 flattened as
 *     x.c0, x.c1, y.c0, y.c1, z.c0, z.c1 (JSON [["x.c0","x.c1"],["y.c0","y.c1"],["1","0"]]);
 *     infinity has z = "0" (snarkjs writes G1 ["0","1","0"], G2 [["0","0"],["1","0"],["0","0"]]).
 *
 * Every decoder returns CZ_OK or, with a message in ei (may be NULL): CZ_EFORMAT (wrong length,
 * bad characters, z neither 1 nor 0), CZ_EFLAGS (invalid flag bits), CZ_ENONCANON (a coordinate
 * >= p), CZ_ENOTONCURVE (includes a compressed x without a y), CZ_ENOTINSUBGROUP. On error *ret
 * is left unchanged. The subgroup check costs a scalar multiplication by r (~0.1-1 ms); the
 * "_unchecked" zcash decoders and LEM decoders without CZ_ENC_CHECK_SUBGROUP skip only it, for
 * files that are trusted (an SRS whose hash was verified).
 */
#ifndef CUZK_ENCODING_H
#define CUZK_ENCODING_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/curve.h"
#include "cuzk/err.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CZ_BLS12381_G1_COMPRESSED_BYTES   48
#define CZ_BLS12381_G1_UNCOMPRESSED_BYTES 96
#define CZ_BLS12381_G2_COMPRESSED_BYTES   96
#define CZ_BLS12381_G2_UNCOMPRESSED_BYTES 192

#define CZ_BN254_G1_LEM_BYTES    64
#define CZ_BN254_G2_LEM_BYTES    128
#define CZ_BLS12381_G1_LEM_BYTES 96
#define CZ_BLS12381_G2_LEM_BYTES 192

/* Flag for the LEM decoders: also check that the point is in the prime-order subgroup. */
#define CZ_ENC_CHECK_SUBGROUP 1u

/* zcash/bellman BLS12-381. The encoders take a point on the curve (garbage in, garbage out). */
void cz_bls12381_g1_to_compressed(uint8_t out[48], const cz_bls12381_g1_affine *p);
void cz_bls12381_g1_to_uncompressed(uint8_t out[96], const cz_bls12381_g1_affine *p);
void cz_bls12381_g2_to_compressed(uint8_t out[96], const cz_bls12381_g2_affine *p);
void cz_bls12381_g2_to_uncompressed(uint8_t out[192], const cz_bls12381_g2_affine *p);
int cz_bls12381_g1_from_compressed(cz_bls12381_g1_affine *ret, const uint8_t *in, size_t len,
                                   cz_errinfo *ei);
int cz_bls12381_g1_from_uncompressed(cz_bls12381_g1_affine *ret, const uint8_t *in, size_t len,
                                     cz_errinfo *ei);
int cz_bls12381_g2_from_compressed(cz_bls12381_g2_affine *ret, const uint8_t *in, size_t len,
                                   cz_errinfo *ei);
int cz_bls12381_g2_from_uncompressed(cz_bls12381_g2_affine *ret, const uint8_t *in, size_t len,
                                     cz_errinfo *ei);
int cz_bls12381_g1_from_compressed_unchecked(cz_bls12381_g1_affine *ret, const uint8_t *in,
                                             size_t len, cz_errinfo *ei);
int cz_bls12381_g1_from_uncompressed_unchecked(cz_bls12381_g1_affine *ret, const uint8_t *in,
                                               size_t len, cz_errinfo *ei);
int cz_bls12381_g2_from_compressed_unchecked(cz_bls12381_g2_affine *ret, const uint8_t *in,
                                             size_t len, cz_errinfo *ei);
int cz_bls12381_g2_from_uncompressed_unchecked(cz_bls12381_g2_affine *ret, const uint8_t *in,
                                               size_t len, cz_errinfo *ei);
/* n uncompressed G1 encodings (96 bytes each, at in) into out[0..n), each checked as
 * cz_bls12381_g1_from_uncompressed_unchecked checks one (flags, canonical coordinates, on the
 * curve; the point at infinity accepted), eight at a time with AVX-512 IFMA where the CPU has it.
 * out may be the memory of in (a cz_bls12381_g1_affine is 96 bytes too); no other overlap. On an
 * error *bad is the index of the first point that fails, out[0..*bad) are decoded and ei says
 * what is wrong with that point; on success *bad = n. */
int cz_bls12381_g1_from_uncompressed_unchecked_batch(cz_bls12381_g1_affine *out, const uint8_t *in,
                                                     size_t n, size_t *bad, cz_errinfo *ei);

/* snarkjs LEM: out receives CZ_<CURVE>_<G>_LEM_BYTES bytes; len must be exactly that. */
void cz_bn254_g1_to_lem(uint8_t *out, const cz_bn254_g1_affine *p);
void cz_bn254_g2_to_lem(uint8_t *out, const cz_bn254_g2_affine *p);
void cz_bls12381_g1_to_lem(uint8_t *out, const cz_bls12381_g1_affine *p);
void cz_bls12381_g2_to_lem(uint8_t *out, const cz_bls12381_g2_affine *p);
int cz_bn254_g1_from_lem(cz_bn254_g1_affine *ret, const uint8_t *in, size_t len, unsigned flags,
                         cz_errinfo *ei);
int cz_bn254_g2_from_lem(cz_bn254_g2_affine *ret, const uint8_t *in, size_t len, unsigned flags,
                         cz_errinfo *ei);
int cz_bls12381_g1_from_lem(cz_bls12381_g1_affine *ret, const uint8_t *in, size_t len,
                            unsigned flags, cz_errinfo *ei);
int cz_bls12381_g2_from_lem(cz_bls12381_g2_affine *ret, const uint8_t *in, size_t len,
                            unsigned flags, cz_errinfo *ei);

/* Decimal triples. Decoders check on-curve and subgroup; with z = "0" the point is infinity and
 * x, y need only be canonical decimals. Encoders write affine coordinates with z = "1". */
int cz_bn254_g1_from_dec(cz_bn254_g1_affine *ret, const char *const xyz[3], cz_errinfo *ei);
int cz_bn254_g2_from_dec(cz_bn254_g2_affine *ret, const char *const xyz[6], cz_errinfo *ei);
int cz_bls12381_g1_from_dec(cz_bls12381_g1_affine *ret, const char *const xyz[3], cz_errinfo *ei);
int cz_bls12381_g2_from_dec(cz_bls12381_g2_affine *ret, const char *const xyz[6], cz_errinfo *ei);
void cz_bn254_g1_to_dec(char out[3][CZ_FIELD_DEC_MAX], const cz_bn254_g1_affine *p);
void cz_bn254_g2_to_dec(char out[6][CZ_FIELD_DEC_MAX], const cz_bn254_g2_affine *p);
void cz_bls12381_g1_to_dec(char out[3][CZ_FIELD_DEC_MAX], const cz_bls12381_g1_affine *p);
void cz_bls12381_g2_to_dec(char out[6][CZ_FIELD_DEC_MAX], const cz_bls12381_g2_affine *p);

#ifdef __cplusplus
}
#endif

#endif
