/*
 * The public tower API of cuzk/tower.h: cz_<curve>_fp6_* and cz_<curve>_fp12_* wrappers around
 * the inline arithmetic of field/tower.h.
 */
#include "cuzk/tower.h"
#include "field/tower.h"

#define EXPORT(T, P)                                                                               \
    void cz_##P##_zero(T *ret) {                                                                   \
        P##_set_zero(ret);                                                                         \
    }                                                                                              \
    void cz_##P##_one(T *ret) {                                                                    \
        P##_set_one(ret);                                                                          \
    }                                                                                              \
    int cz_##P##_is_one(const T *a) {                                                              \
        return P##_is_one(a);                                                                      \
    }                                                                                              \
    int cz_##P##_eq(const T *a, const T *b) {                                                      \
        return P##_eq(a, b);                                                                       \
    }                                                                                              \
    void cz_##P##_add(T *ret, const T *a, const T *b) {                                            \
        P##_add(ret, a, b);                                                                        \
    }                                                                                              \
    void cz_##P##_sub(T *ret, const T *a, const T *b) {                                            \
        P##_sub(ret, a, b);                                                                        \
    }                                                                                              \
    void cz_##P##_neg(T *ret, const T *a) {                                                        \
        P##_neg(ret, a);                                                                           \
    }                                                                                              \
    void cz_##P##_mul(T *ret, const T *a, const T *b) {                                            \
        P##_mul(ret, a, b);                                                                        \
    }                                                                                              \
    void cz_##P##_sqr(T *ret, const T *a) {                                                        \
        P##_sqr(ret, a);                                                                           \
    }                                                                                              \
    void cz_##P##_inv(T *ret, const T *a) {                                                        \
        P##_inv(ret, a);                                                                           \
    }                                                                                              \
    void cz_##P##_frobenius(T *ret, const T *a, unsigned k) {                                      \
        P##_frobenius(ret, a, k);                                                                  \
    }                                                                                              \
    void cz_##P##_pow(T *ret, const T *a, const uint64_t *e, size_t nlimbs) {                      \
        P##_pow_limbs(ret, a, e, nlimbs);                                                          \
    }

EXPORT(cz_bls12381_fp6, bls12381_fp6)
EXPORT(cz_bls12381_fp12, bls12381_fp12)
EXPORT(cz_bn254_fp6, bn254_fp6)
EXPORT(cz_bn254_fp12, bn254_fp12)

void cz_bls12381_fp12_conj(cz_bls12381_fp12 *ret, const cz_bls12381_fp12 *a) {
    bls12381_fp12_conj(ret, a);
}

void cz_bn254_fp12_conj(cz_bn254_fp12 *ret, const cz_bn254_fp12 *a) {
    bn254_fp12_conj(ret, a);
}
