/*
 * Fp2 = Fp[u]/(u² + 1) on pairs of mpz, the reference for the field tests: schoolbook product and
 * square-and-multiply power, modulus passed in. Slow and obviously right.
 */
#ifndef CUZK_TESTS_GMP_FP2_H
#define CUZK_TESTS_GMP_FP2_H

#include <gmp.h>

/* (r0, r1) = (a0 + a1u)(b0 + b1u) mod p; r may alias a or b. */
static inline void gmp_fp2_mul(mpz_t r0, mpz_t r1, mpz_srcptr a0, mpz_srcptr a1, mpz_srcptr b0,
                               mpz_srcptr b1, mpz_srcptr p) {
    mpz_t t0, t1, q;
    mpz_inits(t0, t1, q, NULL);
    mpz_mul(t0, a0, b0);
    mpz_mul(q, a1, b1);
    mpz_sub(t0, t0, q);
    mpz_mul(t1, a0, b1);
    mpz_mul(q, a1, b0);
    mpz_add(t1, t1, q);
    mpz_mod(r0, t0, p);
    mpz_mod(r1, t1, p);
    mpz_clears(t0, t1, q, NULL);
}

/* (r0, r1) = (a0 + a1u)^e mod p, e >= 0. */
static inline void gmp_fp2_pow(mpz_t r0, mpz_t r1, mpz_srcptr a0, mpz_srcptr a1, mpz_srcptr e,
                               mpz_srcptr p) {
    mpz_t x0, x1;
    mpz_init_set_ui(x0, 1);
    mpz_init_set_ui(x1, 0);
    for (long bit = (long)mpz_sizeinbase(e, 2) - 1; bit >= 0; bit--) {
        gmp_fp2_mul(x0, x1, x0, x1, x0, x1, p);
        if (mpz_tstbit(e, (mp_bitcnt_t)bit))
            gmp_fp2_mul(x0, x1, x0, x1, a0, a1, p);
    }
    mpz_set(r0, x0);
    mpz_set(r1, x1);
    mpz_clears(x0, x1, NULL);
}

/* (r0, r1) = (a0 + a1u)⁻¹ = (a0 - a1u) / (a0² + a1²) mod p; a must be non-zero. */
static inline void gmp_fp2_inv(mpz_t r0, mpz_t r1, mpz_srcptr a0, mpz_srcptr a1, mpz_srcptr p) {
    mpz_t n;
    mpz_init(n);
    mpz_mul(n, a0, a0);
    mpz_addmul(n, a1, a1);
    mpz_invert(n, n, p);
    mpz_mul(r0, a0, n);
    mpz_mod(r0, r0, p);
    mpz_mul(r1, a1, n);
    mpz_neg(r1, r1);
    mpz_mod(r1, r1, p);
    mpz_clear(n);
}

#endif
