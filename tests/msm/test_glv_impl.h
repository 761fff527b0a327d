/*
 * GLV tests of one group, included by test_glv.c after defining T_G (internal group prefix),
 * T_EXPORT, T_CURVE (upper-case constant prefix), T_FR, T_FR_T, T_AFF, T_JAC, T_BETA_T (Fp), T_BETA
 * (this group's β, Montgomery limbs) and T_ENDO(r, x, beta) (x times β through the exported field
 * API).
 */
#define TX(name) CZ_CAT3(T_EXPORT, _, name)
#define TT(name) CZ_CAT3(test_, T_G, CZ_CAT(_, name))
#define TC(name) CZ_CAT3(T_CURVE, _, name)

static void TT(rand_point)(T_AFF *p) {
    uint64_t k[4];
    T_AFF g;
    T_JAC j;
    for (int i = 0; i < 4; i++)
        k[i] = test_rand64();
    TX(generator)(&g);
    TX(from_affine)(&j, &g);
    TX(mul_limbs)(&j, &j, k, 4);
    TX(to_affine)(p, &j);
}

/* φ(P) = (β·x, y) equals [λ]P, on the generator and random points. */
static void TT(endo)(void) {
    T_BETA_T beta;
    memcpy(&beta, T_BETA, sizeof beta);
    for (int it = 0; it < 5; it++) {
        T_AFF p, q;
        T_JAC pj, want, got;
        if (it == 0)
            TX(generator)(&p);
        else
            TT(rand_point)(&p);
        q = p;
        T_ENDO(&q.x, &p.x, &beta);
        TX(from_affine)(&pj, &p);
        TX(mul_limbs)(&want, &pj, TC(GLV_LAMBDA), 4);
        TX(from_affine)(&got, &q);
        CHECK(TX(on_curve)(&q));
        CHECK(TX(eq)(&got, &want));
    }
}

/* The public MSM (GLV) against the core without GLV, random and edge scalars and bases. */
static void TT(msm)(cz_threadpool *pool) {
    enum { N = 300 };
    static T_AFF bases[N];
    static T_FR_T k[N];
    static uint64_t limbs[4 * N];
    static uint8_t bytes[32 * N];
    T_JAC got, want;
    for (size_t i = 0; i < N; i++) {
        uint64_t *l = limbs + 4 * i;
        TT(rand_point)(&bases[i]);
        for (int j = 0; j < 4; j++)
            l[j] = test_rand64();
        switch (i % 11) { /* edge scalars; the rest stay random 256-bit (reduced below) */
        case 0:
            memset(l, 0, 32);
            break;
        case 1:
            memset(l, 0, 32);
            l[0] = 1;
            break;
        case 2:
            memcpy(l, TC(FR_P), 32);
            l[0] -= 1;
            break;
        case 3:
            memcpy(l, TC(GLV_LAMBDA), 32);
            break;
        case 4:
            l[2] = l[3] = 0;
            break;
        default:
            break;
        }
        if (i % 13 == 5)
            bases[i] = bases[i - 1];
        if (i % 17 == 6)
            TX(affine_neg)(&bases[i], &bases[i - 1]);
        if (i % 19 == 7)
            memset(&bases[i], 0, sizeof bases[i]);
        for (int j = 0; j < 4; j++)
            for (int b = 0; b < 8; b++)
                bytes[32 * i + 8 * j + b] = (uint8_t)(l[j] >> (8 * b));
        /* Fr scalars: the value mod r, through bytes (to_limbs would refuse k >= r) */
        mpz_t z, r;
        mpz_inits(z, r, NULL);
        mpz_import(z, 4, -1, 8, 0, 0, l);
        mpz_import(r, 4, -1, 8, 0, 0, TC(FR_P));
        mpz_mod(z, z, r);
        uint64_t red[4] = {0, 0, 0, 0};
        mpz_export(red, NULL, -1, 8, 0, 0, z);
        CHECK_ERR(CZ_CAT(T_FR, _from_limbs)(&k[i], red), CZ_OK);
        mpz_clears(z, r, NULL);
    }
    CHECK_ERR(CZ_CAT3(cz__, T_G, _msm_limbs)(&want, bases, limbs, N, NULL, 0, 0), CZ_OK);
    CHECK_ERR(TX(msm_bytes)(&got, bases, bytes, N, pool), CZ_OK);
    CHECK(TX(eq)(&got, &want));
    CHECK_ERR(TX(msm)(&got, bases, k, N, pool), CZ_OK);
    CHECK(TX(eq)(&got, &want));
    CHECK_ERR(TX(msm)(&got, bases, k, 1, NULL), CZ_OK);
    CHECK_ERR(CZ_CAT3(cz__, T_G, _msm_limbs)(&want, bases, limbs, 1, NULL, 0, 0), CZ_OK);
    CHECK(TX(eq)(&got, &want));
}

#undef TX
#undef TT
#undef TC
#undef T_G
#undef T_EXPORT
#undef T_CURVE
#undef T_FR
#undef T_FR_T
#undef T_AFF
#undef T_JAC
#undef T_ENDO
#undef T_BETA
#undef T_BETA_T
