/*
 * GMP cross-check of one prime field, for test_field_gmp.c. Instantiated per field by including
 * this file after defining TF_PREFIX (internal prefix, e.g. bn254_fr), TF_T, TF_N (limbs),
 * TF_HEX (the modulus in hex, hard-coded from the published value) and TF_SQRT (1 when the
 * field has a sqrt).
 *
 * The oracle converts between elements and mpz using GMP alone: an element's limbs are x·R mod p,
 * so its value is limbs·R⁻¹ mod p (R⁻¹ computed by mpz_invert). Every operation is compared on
 * edge values (0, 1, 2, p-1, p-2, (p±1)/2, 2^k and neighbours, R, R², R⁻¹ mod p) and on random
 * values from a seeded GMP generator.
 */
#include "field/cz_macros.h"

#define TF(name) CZ_CAT3(TF_PREFIX, _, name)
#define TC(name) CZ_CAT3(CZ_CAT(cz_, TF_PREFIX), _, name)
#define TT(name) CZ_CAT3(t_, TF_PREFIX, CZ_CAT(_, name))

#define TF_BYTES   (TF_N * 8)
#define TF_NRANDOM 1500
#define TF_MAXV    (TF_NRANDOM + 64)

static mpz_t TT(p), TT(r), TT(rinv);
static mpz_t TT(v)[TF_MAXV];
static size_t TT(nv), TT(nedge);

/* z = value of x (GMP only). */
static void TT(get)(mpz_t z, const TF_T *x) {
    mpz_import(z, TF_N, -1, 8, 0, 0, x->l);
    mpz_mul(z, z, TT(rinv));
    mpz_mod(z, z, TT(p));
}

/* x = the element with value z (0 <= z < p), GMP only. */
static void TT(set)(TF_T *x, const mpz_t z) {
    mpz_t t;
    size_t cnt = 0;
    mpz_init(t);
    mpz_mul(t, z, TT(r));
    mpz_mod(t, t, TT(p));
    memset(x->l, 0, sizeof x->l);
    mpz_export(x->l, &cnt, -1, 8, 0, 0, t);
    mpz_clear(t);
}

/* 1 when x holds the value z (and is fully reduced). */
static int TT(is)(const TF_T *x, const mpz_t z) {
    mpz_t t, zz;
    mpz_inits(t, zz, NULL);
    mpz_import(t, TF_N, -1, 8, 0, 0, x->l);
    int ok = mpz_cmp(t, TT(p)) < 0;
    mpz_mod(zz, z, TT(p));
    TT(get)(t, x);
    ok = ok && mpz_cmp(t, zz) == 0;
    mpz_clears(t, zz, NULL);
    return ok;
}

static void TT(add_value)(const mpz_t z) {
    if (TT(nv) < TF_MAXV && mpz_sgn(z) >= 0 && mpz_cmp(z, TT(p)) < 0)
        mpz_set(TT(v)[TT(nv)++], z);
}

static void TT(setup)(gmp_randstate_t rs) {
    mpz_t t;
    mpz_init(t);
    mpz_inits(TT(p), TT(r), TT(rinv), NULL);
    mpz_set_str(TT(p), TF_HEX, 16);
    mpz_setbit(TT(r), 64 * TF_N);
    mpz_mod(TT(r), TT(r), TT(p));
    mpz_invert(TT(rinv), TT(r), TT(p));
    for (size_t i = 0; i < TF_MAXV; i++)
        mpz_init(TT(v)[i]);
    static const unsigned long small[] = {0, 1, 2, 3, 4, 5};
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) {
        mpz_set_ui(t, small[i]);
        TT(add_value)(t);
    }
    for (unsigned long k = 1; k <= 3; k++) {
        mpz_sub_ui(t, TT(p), k); /* p-1, p-2, p-3 */
        TT(add_value)(t);
    }
    mpz_sub_ui(t, TT(p), 1);
    mpz_fdiv_q_2exp(t, t, 1); /* (p-1)/2 */
    TT(add_value)(t);
    mpz_add_ui(t, t, 1); /* (p+1)/2 */
    TT(add_value)(t);
    static const unsigned ks[] = {32,  63,  64,  65,  127, 128, 129, 191,
                                  192, 250, 253, 254, 255, 320, 380};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        for (int d = -1; d <= 1; d++) {
            mpz_set_ui(t, 0);
            mpz_setbit(t, ks[i]);
            if (d < 0)
                mpz_sub_ui(t, t, 1);
            else if (d > 0)
                mpz_add_ui(t, t, 1);
            TT(add_value)(t);
        }
    }
    TT(add_value)(TT(r));
    TT(add_value)(TT(rinv));
    mpz_mul(t, TT(r), TT(r));
    mpz_mod(t, t, TT(p));
    TT(add_value)(t);
    TT(nedge) = TT(nv);
    for (int i = 0; i < TF_NRANDOM; i++) {
        mpz_urandomm(t, rs, TT(p));
        TT(add_value)(t);
    }
    mpz_clear(t);
}

static void TT(teardown)(void) {
    for (size_t i = 0; i < TF_MAXV; i++)
        mpz_clear(TT(v)[i]);
    mpz_clears(TT(p), TT(r), TT(rinv), NULL);
}

/* The b operand paired with v[i]: every edge value meets every edge value (via i, j loops below),
 * random values meet a shifted random value. */
static void TT(test_arith)(gmp_randstate_t rs) {
    mpz_t e, t;
    TF_T a, b, c;
    mpz_inits(e, t, NULL);
    size_t n = TT(nv), ne = TT(nedge);
    for (size_t i = 0; i < n; i++) {
        size_t jn = i < ne ? ne : 1;
        for (size_t jj = 0; jj < jn; jj++) {
            size_t j = i < ne ? jj : ne + (i - ne + 7) % (n - ne);
            mpz_srcptr x = TT(v)[i], y = TT(v)[j];
            TT(set)(&a, x);
            TT(set)(&b, y);
            TC(add)(&c, &a, &b);
            mpz_add(e, x, y);
            CHECK(TT(is)(&c, e));
            TC(sub)(&c, &a, &b);
            mpz_sub(e, x, y);
            CHECK(TT(is)(&c, e));
            TC(mul)(&c, &a, &b);
            mpz_mul(e, x, y);
            CHECK(TT(is)(&c, e));
            CHECK_EQ_INT(TC(eq)(&a, &b), (mpz_cmp(x, y) == 0));
            /* aliasing: r = a, r = b */
            c = a;
            TC(mul)(&c, &c, &b);
            mpz_mul(e, x, y);
            CHECK(TT(is)(&c, e));
            c = b;
            TC(sub)(&c, &a, &c);
            mpz_sub(e, x, y);
            CHECK(TT(is)(&c, e));
        }
        mpz_srcptr x = TT(v)[i];
        TT(set)(&a, x);
        TC(sqr)(&c, &a);
        mpz_mul(e, x, x);
        CHECK(TT(is)(&c, e));
        TC(neg)(&c, &a);
        mpz_neg(e, x);
        CHECK(TT(is)(&c, e));
        TC(dbl)(&c, &a);
        mpz_mul_2exp(e, x, 1);
        CHECK(TT(is)(&c, e));
        TF(half)(&c, &a);
        mpz_set_ui(t, 2);
        mpz_invert(t, t, TT(p));
        mpz_mul(e, x, t);
        CHECK(TT(is)(&c, e));
        CHECK_EQ_INT(TC(is_zero)(&a), (mpz_sgn(x) == 0));
        /* inverse (binary GCD) and Fermat inverse; inv(0) = 0 */
        TC(inv)(&c, &a);
        if (mpz_sgn(x) == 0) {
            CHECK(TC(is_zero)(&c));
        } else {
            mpz_invert(e, x, TT(p));
            CHECK(TT(is)(&c, e));
        }
        if (i < ne || i % 8 == 0) {
            TF(inv_fermat)(&b, &a);
            CHECK(TC(eq)(&b, &c));
        }
        /* legendre */
        int lg = mpz_sgn(x) == 0 ? 0 : mpz_legendre(x, TT(p));
        CHECK_EQ_INT(TC(legendre)(&a), lg);
#if TF_SQRT
        {
            int rc = TC(sqrt)(&c, &a);
            if (lg >= 0) {
                CHECK_ERR(rc, CZ_OK);
                TT(get)(t, &c);
                mpz_mul(e, t, t);
                mpz_mod(e, e, TT(p));
                CHECK_EQ_INT(mpz_cmp(e, x), 0);
            } else {
                CHECK_ERR(rc, CZ_ENOSQRT);
            }
        }
#endif
        /* pow with exponents of several lengths (1, 2, N, N+1 limbs) and e = 0 */
        if (i < ne || i % 16 == 0) {
            static const size_t lens[] = {0, 1, 2, TF_N, TF_N + 1};
            for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
                uint64_t ex[TF_N + 1] = {0};
                size_t cnt = 0;
                mpz_urandomb(t, rs, 64 * (unsigned)lens[k]);
                mpz_export(ex, &cnt, -1, 8, 0, 0, t);
                TC(pow)(&c, &a, ex, lens[k]);
                mpz_powm(e, x, t, TT(p));
                CHECK(TT(is)(&c, e));
            }
        }
    }
    mpz_clears(e, t, NULL);
}

static void TT(test_convert)(gmp_randstate_t rs) {
    mpz_t e, t;
    TF_T a, b;
    uint8_t buf[TF_BYTES], ref[TF_BYTES];
    char dec[CZ_FIELD_DEC_MAX], *gs;
    mpz_inits(e, t, NULL);
    for (size_t i = 0; i < TT(nv); i++) {
        mpz_srcptr x = TT(v)[i];
        size_t cnt = 0;
        TT(set)(&a, x);
        /* canonical little-endian: mpz_export order -1 (least significant word first) */
        memset(ref, 0, sizeof ref);
        mpz_export(ref, &cnt, -1, 1, 0, 0, x);
        TC(to_bytes_le)(buf, &a);
        CHECK_EQ_MEM(buf, ref, TF_BYTES);
        CHECK(TC(from_bytes_le)(&b, ref) == CZ_OK && TC(eq)(&a, &b));
        /* canonical big-endian */
        memset(ref, 0, sizeof ref);
        if (mpz_sgn(x) != 0)
            mpz_export(ref + TF_BYTES - mpz_sizeinbase(x, 256), &cnt, 1, 1, 0, 0, x);
        TC(to_bytes_be)(buf, &a);
        CHECK_EQ_MEM(buf, ref, TF_BYTES);
        CHECK(TC(from_bytes_be)(&b, ref) == CZ_OK && TC(eq)(&a, &b));
        /* Montgomery little-endian: x·R mod p */
        mpz_mul(t, x, TT(r));
        mpz_mod(t, t, TT(p));
        memset(ref, 0, sizeof ref);
        mpz_export(ref, &cnt, -1, 1, 0, 0, t);
        TC(to_mont_bytes_le)(buf, &a);
        CHECK_EQ_MEM(buf, ref, TF_BYTES);
        CHECK(TC(from_mont_bytes_le)(&b, ref) == CZ_OK && TC(eq)(&a, &b));
        /* decimal */
        gs = mpz_get_str(NULL, 10, x);
        size_t len = TC(to_dec)(dec, &a);
        CHECK(len == strlen(gs) && strcmp(dec, gs) == 0);
        CHECK(TC(from_dec)(&b, gs) == CZ_OK && TC(eq)(&a, &b));
        if (i % 32 == 0) { /* leading zeros are allowed */
            char z[CZ_FIELD_DEC_MAX + 8];
            snprintf(z, sizeof z, "000%s", gs);
            CHECK(TC(from_dec)(&b, z) == CZ_OK && TC(eq)(&a, &b));
        }
        free(gs);
    }
    /* from_u64 */
    for (int i = 0; i < 300; i++) {
        uint64_t u = i < 4 ? (i < 2 ? (uint64_t)i : ~(uint64_t)0 - (uint64_t)(i - 2)) : 0;
        if (i >= 4) {
            size_t cnt = 0;
            mpz_urandomb(t, rs, 64);
            u = 0;
            mpz_export(&u, &cnt, -1, 8, 0, 0, t);
        }
        TC(from_u64)(&a, u);
        mpz_import(e, 1, -1, 8, 0, 0, &u);
        CHECK(TT(is)(&a, e));
    }
    /* zero, one */
    TC(zero)(&a);
    mpz_set_ui(e, 0);
    CHECK(TT(is)(&a, e));
    TC(one)(&a);
    mpz_set_ui(e, 1);
    CHECK(TT(is)(&a, e));
    /* rejections: p, p + 1, all 0xff, in every byte form */
    for (int k = 0; k < 3; k++) {
        size_t cnt = 0;
        memset(ref, 0xff, sizeof ref);
        if (k < 2) {
            mpz_add_ui(t, TT(p), (unsigned long)k);
            memset(ref, 0, sizeof ref);
            mpz_export(ref, &cnt, -1, 1, 0, 0, t);
        }
        CHECK_ERR(TC(from_bytes_le)(&a, ref), CZ_ENONCANON);
        CHECK_ERR(TC(from_mont_bytes_le)(&a, ref), CZ_ENONCANON);
        for (size_t q = 0; q < TF_BYTES; q++)
            buf[q] = ref[TF_BYTES - 1 - q];
        CHECK_ERR(TC(from_bytes_be)(&a, buf), CZ_ENONCANON);
    }
    /* decimal errors, as field_api.h documents them */
    CHECK_ERR(TC(from_dec)(&a, ""), CZ_EFORMAT);
    CHECK_ERR(TC(from_dec)(&a, "12a"), CZ_EFORMAT);
    CHECK_ERR(TC(from_dec)(&a, "-1"), CZ_EFORMAT);
    CHECK_ERR(TC(from_dec)(&a, " 1"), CZ_EFORMAT);
    CHECK_ERR(TC(from_dec)(&a, "+1"), CZ_EFORMAT);
    gs = mpz_get_str(NULL, 10, TT(p));
    CHECK_ERR(TC(from_dec)(&a, gs), CZ_ERANGE);
    free(gs);
    mpz_add_ui(t, TT(p), 5);
    gs = mpz_get_str(NULL, 10, t);
    CHECK_ERR(TC(from_dec)(&a, gs), CZ_ERANGE);
    free(gs);
    {
        char big[201];
        memset(big, '7', 200);
        big[200] = '\0';
        CHECK_ERR(TC(from_dec)(&a, big), CZ_ERANGE);
    }
    /* random: in range, not constant */
    TF_T r0, r1;
    CHECK(TC(random)(&r0) == CZ_OK && TC(random)(&r1) == CZ_OK);
    mpz_import(t, TF_N, -1, 8, 0, 0, r0.l);
    CHECK(mpz_cmp(t, TT(p)) < 0);
    CHECK(!TC(eq)(&r0, &r1));
    mpz_clears(e, t, NULL);
}

static void TT(run)(gmp_randstate_t rs) {
    TT(setup)(rs);
    TT(test_arith)(rs);
    TT(test_convert)(rs);
    TT(teardown)();
}

#undef TF
#undef TC
#undef TT
#undef TF_BYTES
#undef TF_NRANDOM
#undef TF_MAXV
#undef TF_PREFIX
#undef TF_T
#undef TF_N
#undef TF_HEX
#undef TF_SQRT
