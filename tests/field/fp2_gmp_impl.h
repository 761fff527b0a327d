/*
 * GMP cross-check of one Fp2 = Fp[u]/(u² + 1), for test_field_gmp.c. Instantiated per curve after
 * the base field's field_gmp_impl.h helpers exist, by defining T2_PREFIX (e.g. bn254_fp2), T2_T,
 * T2_BASE (base prefix, e.g. bn254_fp; its t_<base>_get/set/is and modulus are used), T2_BASE_T
 * and T2_XI0 (ξ = x0 + u).
 *
 * The reference is schoolbook arithmetic on pairs of mpz; the Legendre symbol and non-squares are
 * decided by a^((p²-1)/2) computed with an mpz Fp2 exponentiation (not by the norm, which is what
 * the implementation uses).
 */
#include "field/cz_macros.h"
#include "gmp_fp2.h"

#define T2I(name) CZ_CAT3(T2_PREFIX, _, name)
#define T2C(name) CZ_CAT3(CZ_CAT(cz_, T2_PREFIX), _, name)
#define T2(name)  CZ_CAT3(t_, T2_PREFIX, CZ_CAT(_, name))
#define TB(name)  CZ_CAT3(t_, T2_BASE, CZ_CAT(_, name))

static void T2(mpz_mul)(mpz_t r0, mpz_t r1, mpz_srcptr a0, mpz_srcptr a1, mpz_srcptr b0,
                        mpz_srcptr b1) {
    gmp_fp2_mul(r0, r1, a0, a1, b0, b1, TB(p));
}

static void T2(mpz_pow)(mpz_t r0, mpz_t r1, mpz_srcptr a0, mpz_srcptr a1, mpz_srcptr e) {
    gmp_fp2_pow(r0, r1, a0, a1, e, TB(p));
}

static void T2(set)(T2_T *x, const mpz_t a0, const mpz_t a1) {
    TB(set)(&x->c0, a0);
    TB(set)(&x->c1, a1);
}

static int T2(is)(const T2_T *x, const mpz_t a0, const mpz_t a1) {
    return TB(is)(&x->c0, a0) && TB(is)(&x->c1, a1);
}

static void T2(run)(gmp_randstate_t rs) {
    mpz_t a0, a1, b0, b1, e0, e1, t, half, one;
    mpz_inits(a0, a1, b0, b1, e0, e1, t, half, NULL);
    mpz_init_set_ui(one, 1);
    /* (p² - 1) / 2 */
    mpz_mul(half, TB(p), TB(p));
    mpz_sub_ui(half, half, 1);
    mpz_fdiv_q_2exp(half, half, 1);
    T2_T a, b, c;
    size_t nb = TB(nv);
    for (size_t i = 0; i < 400; i++) {
        /* edge values for c0 and c1 from the base list for the first rounds, then random */
        if (i < 100) {
            mpz_set(a0, TB(v)[i % nb]);
            mpz_set(a1, TB(v)[(i * 7 + 3) % (i < 50 ? TB(nedge) : nb)]);
        } else {
            mpz_urandomm(a0, rs, TB(p));
            mpz_urandomm(a1, rs, TB(p));
        }
        mpz_urandomm(b0, rs, TB(p));
        mpz_urandomm(b1, rs, TB(p));
        T2(set)(&a, a0, a1);
        T2(set)(&b, b0, b1);
        T2C(mul)(&c, &a, &b);
        T2(mpz_mul)(e0, e1, a0, a1, b0, b1);
        CHECK(T2(is)(&c, e0, e1));
        T2C(sqr)(&c, &a);
        T2(mpz_mul)(e0, e1, a0, a1, a0, a1);
        CHECK(T2(is)(&c, e0, e1));
        T2C(add)(&c, &a, &b);
        mpz_add(e0, a0, b0);
        mpz_add(e1, a1, b1);
        CHECK(T2(is)(&c, e0, e1));
        T2C(sub)(&c, &a, &b);
        mpz_sub(e0, a0, b0);
        mpz_sub(e1, a1, b1);
        CHECK(T2(is)(&c, e0, e1));
        T2C(conj)(&c, &a);
        mpz_neg(e1, a1);
        CHECK(T2(is)(&c, a0, e1));
        /* conj is the Frobenius: a^p */
        if (i % 50 == 0) {
            T2(mpz_pow)(e0, e1, a0, a1, TB(p));
            CHECK(T2(is)(&c, e0, e1));
        }
        T2C(mul_fp)(&c, &a, &b.c0);
        mpz_mul(e0, a0, b0);
        mpz_mul(e1, a1, b0);
        CHECK(T2(is)(&c, e0, e1));
        T2I(mul_xi)(&c, &a);
        mpz_set_ui(t, T2_XI0);
        T2(mpz_mul)(e0, e1, a0, a1, t, one);
        CHECK(T2(is)(&c, e0, e1));
        /* inverse: (a0 - a1u) / (a0² + a1²); zero maps to zero */
        T2C(inv)(&c, &a);
        mpz_mul(t, a0, a0);
        mpz_addmul(t, a1, a1);
        mpz_mod(t, t, TB(p));
        if (mpz_sgn(t) == 0) {
            CHECK(T2C(is_zero)(&c));
        } else {
            mpz_invert(t, t, TB(p));
            mpz_mul(e0, a0, t);
            mpz_mul(e1, a1, t);
            mpz_neg(e1, e1);
            CHECK(T2(is)(&c, e0, e1));
        }
        /* Legendre by Euler's criterion in Fp2, and sqrt */
        if (i < 60 || i % 8 == 0) {
            T2(mpz_pow)(e0, e1, a0, a1, half);
            int lg = mpz_sgn(e1) == 0 && mpz_cmp_ui(e0, 1) == 0 ? 1 : (mpz_sgn(e0) == 0 ? 0 : -1);
            CHECK_EQ_INT(T2C(legendre)(&a), lg);
            int rc = T2C(sqrt)(&c, &a);
            if (lg >= 0) {
                CHECK_ERR(rc, CZ_OK);
                T2C(sqr)(&b, &c);
                CHECK(T2C(eq)(&b, &a));
            } else {
                CHECK_ERR(rc, CZ_ENOSQRT);
            }
        }
        /* sqrt of a random square (b²), checked with mpz */
        T2(mpz_mul)(e0, e1, b0, b1, b0, b1);
        T2(set)(&a, e0, e1);
        CHECK_ERR(T2C(sqrt)(&c, &a), CZ_OK);
        mpz_set(a0, e0);
        mpz_set(a1, e1);
        TB(get)(e0, &c.c0);
        TB(get)(e1, &c.c1);
        T2(mpz_mul)(e0, e1, e0, e1, e0, e1);
        CHECK(mpz_cmp(e0, a0) == 0 && mpz_cmp(e1, a1) == 0);
        /* pow against the mpz exponentiation */
        if (i % 40 == 0) {
            uint64_t ex[3] = {0};
            size_t cnt = 0;
            mpz_urandomb(t, rs, 192);
            mpz_export(ex, &cnt, -1, 8, 0, 0, t);
            T2C(pow)(&c, &a, ex, 3);
            T2(mpz_pow)(e0, e1, a0, a1, t);
            CHECK(T2(is)(&c, e0, e1));
        }
    }
    /* Fp elements embedded in Fp2 are all squares; -1 and u are the interesting ones. */
    {
        static const long small[][2] = {{-1, 0}, {0, 1}, {0, -1}, {1, 0},
                                        {0, 0},  {5, 0}, {-5, 0}, {2, 0}};
        for (size_t k = 0; k < sizeof small / sizeof small[0]; k++) {
            mpz_set_si(a0, small[k][0]);
            mpz_set_si(a1, small[k][1]);
            mpz_mod(a0, a0, TB(p));
            mpz_mod(a1, a1, TB(p));
            T2(set)(&a, a0, a1);
            CHECK_ERR(T2C(sqrt)(&c, &a), CZ_OK);
            T2C(sqr)(&b, &c);
            CHECK(T2C(eq)(&b, &a));
        }
    }
    /* one, zero */
    T2C(one)(&a);
    mpz_set_ui(a0, 1);
    mpz_set_ui(a1, 0);
    CHECK(T2(is)(&a, a0, a1));
    T2C(zero)(&a);
    CHECK(T2C(is_zero)(&a));
    mpz_clears(a0, a1, b0, b1, e0, e1, t, half, one, NULL);
}

#undef T2I
#undef T2C
#undef T2
#undef TB
#undef T2_PREFIX
#undef T2_T
#undef T2_BASE
#undef T2_BASE_T
#undef T2_XI0
