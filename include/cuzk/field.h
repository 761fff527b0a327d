/*
 * cuzk prime fields: BLS12-381 Fp (381-bit) and Fr (255-bit), BN254 Fp and Fr (254-bit), and the
 * quadratic extensions Fp2 = Fp[u]/(u² + 1) of both base fields.
 *
 * Elements are opaque-by-convention structs of 64-bit limbs in Montgomery form (a·R mod p,
 * R = 2^(64·limbs), least significant limb first, always fully reduced). One struct type per field,
 * so an element of one field cannot be passed where another is expected. The same bytes are used
 * on the host and on the GPU.
 *
 * Arithmetic cannot fail. Conversions from external data return CZ_OK or an error code:
 * CZ_ENONCANON (bytes encode a value >= p), CZ_EFORMAT / CZ_ERANGE (bad decimal string).
 * Every function follows the argument order "output first, then inputs".
 */
#ifndef CUZK_FIELD_H
#define CUZK_FIELD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint64_t l[6];
} cz_bls12381_fp;
typedef struct {
    uint64_t l[4];
} cz_bls12381_fr;
typedef struct {
    uint64_t l[4];
} cz_bn254_fp;
typedef struct {
    uint64_t l[4];
} cz_bn254_fr;
typedef struct {
    cz_bls12381_fp c0, c1;
} cz_bls12381_fp2;
typedef struct {
    cz_bn254_fp c0, c1;
} cz_bn254_fp2;
/* Fp6 = Fp2[v]/(v³ - ξ) (c0 + c1·v + c2·v²), Fp12 = Fp6[w]/(w² - v) (c0 + c1·w);
 * ξ = 9 + u for BN254, 1 + u for BLS12-381. Their functions are in cuzk/tower.h. */
typedef struct {
    cz_bls12381_fp2 c0, c1, c2;
} cz_bls12381_fp6;
typedef struct {
    cz_bn254_fp2 c0, c1, c2;
} cz_bn254_fp6;
typedef struct {
    cz_bls12381_fp6 c0, c1;
} cz_bls12381_fp12;
typedef struct {
    cz_bn254_fp6 c0, c1;
} cz_bn254_fp12;

/* Canonical byte lengths (little- and big-endian conversions) and decimal string capacity. */
#define CZ_BLS12381_FP_BYTES 48
#define CZ_BLS12381_FR_BYTES 32
#define CZ_BN254_FP_BYTES    32
#define CZ_BN254_FR_BYTES    32
#define CZ_FIELD_DEC_MAX     128

/* The same list of functions for every prime field (see field_api.h). */
#define CZ_FIELD_T      cz_bls12381_fp
#define CZ_FIELD_PREFIX cz_bls12381_fp
#include "cuzk/field_api.h"
#define CZ_FIELD_T      cz_bls12381_fr
#define CZ_FIELD_PREFIX cz_bls12381_fr
#include "cuzk/field_api.h"
#define CZ_FIELD_T      cz_bn254_fp
#define CZ_FIELD_PREFIX cz_bn254_fp
#include "cuzk/field_api.h"
#define CZ_FIELD_T      cz_bn254_fr
#define CZ_FIELD_PREFIX cz_bn254_fr
#include "cuzk/field_api.h"

/* Square roots exist in the base fields (p = 3 mod 4): CZ_OK, or CZ_ENOSQRT for a non-square. */
int cz_bls12381_fp_sqrt(cz_bls12381_fp *ret, const cz_bls12381_fp *a);
int cz_bn254_fp_sqrt(cz_bn254_fp *ret, const cz_bn254_fp *a);

/* Fp2 (element c0 + c1·u). */
#define CZ_FP2_T      cz_bls12381_fp2
#define CZ_FP2_PREFIX cz_bls12381_fp2
#define CZ_FP2_BASE_T cz_bls12381_fp
#include "cuzk/fp2_api.h"
#define CZ_FP2_T      cz_bn254_fp2
#define CZ_FP2_PREFIX cz_bn254_fp2
#define CZ_FP2_BASE_T cz_bn254_fp
#include "cuzk/fp2_api.h"

#ifdef __cplusplus
}
#endif

#endif
