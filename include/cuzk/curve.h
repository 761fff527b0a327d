/*
 * cuzk elliptic curves: G1 and G2 of BLS12-381 and BN254.
 *
 *   BLS12-381  G1: y² = x³ + 4 over Fp          G2: y² = x³ + 4(1 + u) over Fp2 (M-twist)
 *   BN254      G1: y² = x³ + 3 over Fp          G2: y² = x³ + 3/(9 + u) over Fp2 (D-twist)
 *
 * Point types (coordinates in Montgomery form, like cuzk/field.h):
 *   affine    {x, y}; the point at infinity is x = y = 0 (not on either curve, and the same
 *             convention as snarkjs files, so affine arrays can be stored and copied as they are);
 *   jacobian  {x, y, z} meaning (x/z², y/z³); infinity is z = 0;
 *   xyzz      {x, y, zz, zzz} meaning (x/zz, y/zzz) with zz³ = zzz²; infinity is zz = 0.
 * Functions are declared in cuzk/curve_api.h (group law, scalar multiplication, checks) and
 * cuzk/encoding.h (byte and JSON encodings).
 */
#ifndef CUZK_CURVE_H
#define CUZK_CURVE_H

#include "cuzk/field.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    cz_bls12381_fp x, y;
} cz_bls12381_g1_affine;
typedef struct {
    cz_bls12381_fp x, y, z;
} cz_bls12381_g1_jacobian;
typedef struct {
    cz_bls12381_fp x, y, zz, zzz;
} cz_bls12381_g1_xyzz;
typedef struct {
    cz_bls12381_fp2 x, y;
} cz_bls12381_g2_affine;
typedef struct {
    cz_bls12381_fp2 x, y, z;
} cz_bls12381_g2_jacobian;
typedef struct {
    cz_bls12381_fp2 x, y, zz, zzz;
} cz_bls12381_g2_xyzz;

typedef struct {
    cz_bn254_fp x, y;
} cz_bn254_g1_affine;
typedef struct {
    cz_bn254_fp x, y, z;
} cz_bn254_g1_jacobian;
typedef struct {
    cz_bn254_fp x, y, zz, zzz;
} cz_bn254_g1_xyzz;
typedef struct {
    cz_bn254_fp2 x, y;
} cz_bn254_g2_affine;
typedef struct {
    cz_bn254_fp2 x, y, z;
} cz_bn254_g2_jacobian;
typedef struct {
    cz_bn254_fp2 x, y, zz, zzz;
} cz_bn254_g2_xyzz;

/* The same list of functions for every group (see curve_api.h). */
#define CZ_G_PREFIX cz_bls12381_g1
#define CZ_G_AFF    cz_bls12381_g1_affine
#define CZ_G_JAC    cz_bls12381_g1_jacobian
#define CZ_G_XYZZ   cz_bls12381_g1_xyzz
#define CZ_G_FR     cz_bls12381_fr
#include "cuzk/curve_api.h"
#define CZ_G_PREFIX cz_bls12381_g2
#define CZ_G_AFF    cz_bls12381_g2_affine
#define CZ_G_JAC    cz_bls12381_g2_jacobian
#define CZ_G_XYZZ   cz_bls12381_g2_xyzz
#define CZ_G_FR     cz_bls12381_fr
#include "cuzk/curve_api.h"
#define CZ_G_PREFIX cz_bn254_g1
#define CZ_G_AFF    cz_bn254_g1_affine
#define CZ_G_JAC    cz_bn254_g1_jacobian
#define CZ_G_XYZZ   cz_bn254_g1_xyzz
#define CZ_G_FR     cz_bn254_fr
#include "cuzk/curve_api.h"
#define CZ_G_PREFIX cz_bn254_g2
#define CZ_G_AFF    cz_bn254_g2_affine
#define CZ_G_JAC    cz_bn254_g2_jacobian
#define CZ_G_XYZZ   cz_bn254_g2_xyzz
#define CZ_G_FR     cz_bn254_fr
#include "cuzk/curve_api.h"

#ifdef __cplusplus
}
#endif

#endif
