/*
 * The public pairing API of cuzk/pairing.h for BN254 and BLS12-381: instantiates
 * curve/pairing_impl.h per curve and wraps it.
 */
#include "cuzk/pairing.h"
#include "field/tower.h"

#define PR_CURVE      bn254
#define PR_FP_T       cz_bn254_fp
#define PR_FP2_T      cz_bn254_fp2
#define PR_FP6_T      cz_bn254_fp6
#define PR_FP12_T     cz_bn254_fp12
#define PR_G1_T       cz_bn254_g1_affine
#define PR_G2_T       cz_bn254_g2_affine
#define PR_MTWIST     0
#define PR_B2_X3      BN254_B2_X3
#define PR_FROB3      BN254_FROB3
#define PR_FROB6      BN254_FROB6
#define PR_LOOP       BN254_ATE_LOOP
#define PR_LOOP_LEN   BN254_ATE_LOOP_LEN
#define PR_BN         1
#define PR_X_NEGATIVE 0
#define PR_HARD_X     BN254_U
#include "curve/pairing_impl.h"
#include "curve/pairing_undef.h"

#define PR_CURVE      bls12381
#define PR_FP_T       cz_bls12381_fp
#define PR_FP2_T      cz_bls12381_fp2
#define PR_FP6_T      cz_bls12381_fp6
#define PR_FP12_T     cz_bls12381_fp12
#define PR_G1_T       cz_bls12381_g1_affine
#define PR_G2_T       cz_bls12381_g2_affine
#define PR_MTWIST     1
#define PR_B2_X3      BLS12381_B2_X3
#define PR_FROB3      BLS12381_FROB3
#define PR_FROB6      BLS12381_FROB6
#define PR_LOOP       BLS12381_ATE_LOOP
#define PR_LOOP_LEN   BLS12381_ATE_LOOP_LEN
#define PR_BN         0
#define PR_X_NEGATIVE 1
#define PR_HARD_X     BLS12381_X_ABS
#include "curve/pairing_impl.h"
#include "curve/pairing_undef.h"

#define EXPORT(c)                                                                                  \
    void cz_##c##_miller_loop(cz_##c##_fp12 *ret, const cz_##c##_g1_affine *p,                     \
                              const cz_##c##_g2_affine *q) {                                       \
        c##_miller_loop_n(ret, p, q, 1);                                                           \
    }                                                                                              \
    void cz_##c##_final_exp(cz_##c##_fp12 *ret, const cz_##c##_fp12 *f) {                          \
        c##_final_exp(ret, f);                                                                     \
    }                                                                                              \
    void cz_##c##_pairing(cz_##c##_fp12 *ret, const cz_##c##_g1_affine *p,                         \
                          const cz_##c##_g2_affine *q) {                                           \
        cz_##c##_fp12 f;                                                                           \
        c##_miller_loop_n(&f, p, q, 1);                                                            \
        c##_final_exp(ret, &f);                                                                    \
    }                                                                                              \
    int cz_##c##_pairing_check(const cz_##c##_pairing_pair *pairs, size_t n) {                     \
        cz_##c##_fp12 f, acc;                                                                      \
        cz_##c##_g1_affine p[8];                                                                   \
        cz_##c##_g2_affine q[8];                                                                   \
        c##_fp12_set_one(&acc);                                                                    \
        for (size_t i = 0; i < n; i += 8) {                                                        \
            size_t m = n - i < 8 ? n - i : 8;                                                      \
            for (size_t j = 0; j < m; j++) {                                                       \
                p[j] = pairs[i + j].g1;                                                            \
                q[j] = pairs[i + j].g2;                                                            \
            }                                                                                      \
            c##_miller_loop_n(&f, p, q, m);                                                        \
            c##_fp12_mul(&acc, &acc, &f);                                                          \
        }                                                                                          \
        c##_final_exp(&f, &acc);                                                                   \
        return c##_fp12_is_one(&f);                                                                \
    }

EXPORT(bn254)
EXPORT(bls12381)
