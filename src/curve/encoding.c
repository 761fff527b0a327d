/*
 * Point encodings of cuzk/encoding.h: zcash/bellman (BLS12-381), snarkjs LEM and decimal triples
 * for the four groups, instantiated from encoding_impl.h.
 */
#include "cuzk/encoding.h"
#include "curve/ec.h"

#define E_G     bls12381_g1
#define E_EX    cz_bls12381_g1
#define E_F     bls12381_fp
#define E_F_T   cz_bls12381_fp
#define E_B     bls12381_fp
#define E_B_T   cz_bls12381_fp
#define E_DEG   1
#define E_N8    48
#define E_AFF   cz_bls12381_g1_affine
#define E_NAME  "bls12381 g1"
#define E_ZCASH 1
#define E_HALF  BLS12381_FP_P_MINUS_1_HALF
#include "curve/encoding_impl.h"
#include "curve/encoding_undef.h"

#define E_G     bls12381_g2
#define E_EX    cz_bls12381_g2
#define E_F     bls12381_fp2
#define E_F_T   cz_bls12381_fp2
#define E_B     bls12381_fp
#define E_B_T   cz_bls12381_fp
#define E_DEG   2
#define E_N8    48
#define E_AFF   cz_bls12381_g2_affine
#define E_NAME  "bls12381 g2"
#define E_ZCASH 1
#define E_HALF  BLS12381_FP_P_MINUS_1_HALF
#include "curve/encoding_impl.h"
#include "curve/encoding_undef.h"

#define E_G     bn254_g1
#define E_EX    cz_bn254_g1
#define E_F     bn254_fp
#define E_F_T   cz_bn254_fp
#define E_B     bn254_fp
#define E_B_T   cz_bn254_fp
#define E_DEG   1
#define E_N8    32
#define E_AFF   cz_bn254_g1_affine
#define E_NAME  "bn254 g1"
#define E_ZCASH 0
#include "curve/encoding_impl.h"
#include "curve/encoding_undef.h"

#define E_G     bn254_g2
#define E_EX    cz_bn254_g2
#define E_F     bn254_fp2
#define E_F_T   cz_bn254_fp2
#define E_B     bn254_fp
#define E_B_T   cz_bn254_fp
#define E_DEG   2
#define E_N8    32
#define E_AFF   cz_bn254_g2_affine
#define E_NAME  "bn254 g2"
#define E_ZCASH 0
#include "curve/encoding_impl.h"
#include "curve/encoding_undef.h"
