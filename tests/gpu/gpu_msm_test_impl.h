/*
 * One curve's GPU MSM checks (included by test_gpu_msm.c with TC = bn254 or bls12381).
 * Oracles: the CPU MSM (cz_<curve>_g1_msm) on the same inputs for n up to 2^14; for larger n,
 * bases in arithmetic progression P_i = [a + i·d]G, whose MSM is [Σ s_i·(a + i·d)]G, one CPU
 * scalar multiplication.
 */
#define TCAT_(a, b) a##b
#define TCAT(a, b)  TCAT_(a, b)
#define TFN(name)   TCAT(TCAT(cz_, TC), _##name)
#define TFR         TCAT(TCAT(cz_, TC), _fr)
#define TAFF        TCAT(TCAT(cz_, TC), _g1_affine)
#define TJAC        TCAT(TCAT(cz_, TC), _g1_jacobian)

/* out[i] = [a + i·d]G for i < n. */
static void TCAT(progression_, TC)(TAFF *out, size_t n, const TFR *a, const TFR *d) {
    TAFF g;
    TJAC ga, p, step;
    TJAC *jac = malloc(n * sizeof *jac);
    CZ_ASSERT(jac != NULL);
    TFN(g1_generator)(&g);
    TFN(g1_from_affine)(&ga, &g);
    TFN(g1_mul)(&p, &ga, a);
    TFN(g1_mul)(&step, &ga, d);
    for (size_t i = 0; i < n; i++) {
        jac[i] = p;
        TFN(g1_add)(&p, &p, &step);
    }
    TFN(g1_batch_to_affine)(out, jac, n);
    free(jac);
}

/* GPU MSM of the first n bases = CPU MSM; returns 1 when equal. */
static int TCAT(msm_matches_cpu_, TC)(const cz_gpu_bases *gb, const TAFF *bases, const TFR *s,
                                      size_t n, cz_threadpool *pool) {
    TJAC want, got;
    cz_errinfo ei;
    int rc;
    cz_errinfo_clear(&ei);
    CHECK(TFN(g1_msm)(&want, bases, s, n, pool) == CZ_OK);
    rc = TFN(gpu_g1_msm)(&got, gb, s, n, &ei);
    if (!CHECK(rc == CZ_OK))
        fprintf(stderr, "%s\n", ei.msg);
    if (!CHECK(TFN(g1_eq)(&want, &got))) {
        fprintf(stderr, "  " TSTR(TC) " msm n = %zu differs from the CPU\n", n);
        return 0;
    }
    return 1;
}

static void TCAT(test_msm_, TC)(cz_threadpool *pool, unsigned max_log) {
    const size_t ncpu = (size_t)1 << 14, nmax = (size_t)1 << max_log;
    size_t nb = nmax > ncpu ? nmax : ncpu;
    TAFF *bases = malloc(nb * sizeof *bases), *rb = malloc(256 * sizeof *rb);
    TFR *s = malloc(nb * sizeof *s), a, d, one, rm1, zero;
    cz_gpu_bases *gb = NULL, *grb = NULL;
    CZ_ASSERT(bases && rb && s);
    TFN(fr_one)(&one);
    TFN(fr_zero)(&zero);
    TFN(fr_neg)(&rm1, &one); /* r - 1 */
    gpu_random_fr_limbs(a.l);
    gpu_random_fr_limbs(d.l);
    TCAT(progression_, TC)(bases, nb, &a, &d);
    CHECK(TFN(gpu_g1_bases_upload)(&gb, bases, nb, 0, NULL) == CZ_OK);
    CHECK(cz_gpu_bases_count(gb) == nb);

    /* Independent random bases [k]G for small n, some of them infinity. */
    {
        TAFF g;
        TJAC ga, p;
        TFR k;
        TFN(g1_generator)(&g);
        TFN(g1_from_affine)(&ga, &g);
        for (size_t i = 0; i < 256; i++) {
            gpu_random_fr_limbs(k.l);
            TFN(g1_mul)(&p, &ga, &k);
            TFN(g1_to_affine)(&rb[i], &p);
        }
        memset(&rb[7], 0, sizeof rb[7]);
        memset(&rb[100], 0, sizeof rb[100]);
        CHECK(TFN(gpu_g1_bases_upload)(&grb, rb, 256, 0, NULL) == CZ_OK);
        static const size_t sizes[] = {1, 2, 3, 5, 8, 17, 100, 255, 256};
        for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
            for (size_t i = 0; i < sizes[t]; i++)
                gpu_random_fr_limbs(s[i].l);
            TCAT(msm_matches_cpu_, TC)(grb, rb, s, sizes[t], pool);
        }
        /* edge scalars 0, 1, r-1 in a repeating pattern over bases with infinities */
        for (size_t i = 0; i < 256; i++)
            s[i] = (i % 3 == 0) ? zero : (i % 3 == 1) ? one : rm1;
        TCAT(msm_matches_cpu_, TC)(grb, rb, s, 256, pool);
        /* all zero scalars: infinity */
        for (size_t i = 0; i < 256; i++)
            s[i] = zero;
        {
            TJAC got;
            CHECK(TFN(gpu_g1_msm)(&got, grb, s, 256, NULL) == CZ_OK);
            CHECK(TFN(g1_jacobian_is_infinity)(&got));
            CHECK(TFN(gpu_g1_msm)(&got, grb, s, 0, NULL) == CZ_OK);
            CHECK(TFN(g1_jacobian_is_infinity)(&got));
        }
        /* the same base twice with the same scalar (doubling inside a bucket), and P, -P */
        {
            TAFF two[4];
            cz_gpu_bases *g2 = NULL;
            two[0] = rb[0];
            two[1] = rb[0];
            two[2] = rb[1];
            TFN(g1_affine_neg)(&two[3], &rb[1]);
            for (size_t i = 0; i < 4; i++)
                gpu_random_fr_limbs(s[i].l);
            s[1] = s[0];
            s[3] = s[2];
            CHECK(TFN(gpu_g1_bases_upload)(&g2, two, 4, 0, NULL) == CZ_OK);
            TCAT(msm_matches_cpu_, TC)(g2, two, s, 4, pool);
            cz_gpu_bases_free(g2);
        }
    }

    /* Powers of two up to 2^14 against the CPU, random scalars and one skewed set. */
    for (unsigned k = 1; k <= 14; k++) {
        size_t n = (size_t)1 << k;
        for (size_t i = 0; i < n; i++)
            gpu_random_fr_limbs(s[i].l);
        TCAT(msm_matches_cpu_, TC)(gb, bases, s, n, pool);
    }
    {
        size_t n = (size_t)1 << 12;
        TFR k;
        gpu_random_fr_limbs(k.l);
        for (size_t i = 0; i < n; i++)
            s[i] = (i % 5 == 0) ? rm1 : k; /* most points land in the same buckets */
        TCAT(msm_matches_cpu_, TC)(gb, bases, s, n, pool);
    }

    /* Larger sizes: Σ s_i·P_i = [Σ s_i·(a + i·d)]G. */
    for (unsigned k = 16; k <= max_log; k += 2) {
        size_t n = (size_t)1 << k;
        TFR e, t, ii, coef;
        TAFF g;
        TJAC ga, want, got;
        cz_errinfo ei;
        int rc;
        TFN(fr_zero)(&e);
        TFN(fr_zero)(&ii);
        for (size_t i = 0; i < n; i++) {
            gpu_random_fr_limbs(s[i].l);
            TFN(fr_mul)(&coef, &ii, &d);
            TFN(fr_add)(&coef, &coef, &a);
            TFN(fr_mul)(&t, &coef, &s[i]);
            TFN(fr_add)(&e, &e, &t);
            TFN(fr_add)(&ii, &ii, &one);
        }
        TFN(g1_generator)(&g);
        TFN(g1_from_affine)(&ga, &g);
        TFN(g1_mul)(&want, &ga, &e);
        cz_errinfo_clear(&ei);
        rc = TFN(gpu_g1_msm)(&got, gb, s, n, &ei);
        if (!CHECK(rc == CZ_OK))
            fprintf(stderr, "%s\n", ei.msg);
        if (!CHECK(TFN(g1_eq)(&want, &got)))
            fprintf(stderr, "  " TSTR(TC) " msm n = 2^%u differs from the progression sum\n", k);
    }

    /* Device-resident scalars give the same result as host scalars. */
    {
        size_t n = 1000;
        void *d_s = NULL;
        TJAC h, dv;
        for (size_t i = 0; i < n; i++)
            gpu_random_fr_limbs(s[i].l);
        CHECK(cz_gpu_alloc(&d_s, n * sizeof *s, 0, NULL) == CZ_OK);
        CHECK(cz_gpu_upload(d_s, s, n * sizeof *s, 0, NULL) == CZ_OK);
        CHECK(TFN(gpu_g1_msm)(&h, gb, s, n, NULL) == CZ_OK);
        CHECK(TFN(gpu_g1_msm_dev)(&dv, gb, d_s, n, NULL) == CZ_OK);
        CHECK(TFN(g1_eq)(&h, &dv));
        cz_gpu_free(d_s, 0);
    }
    /* More scalars than bases is refused. */
    {
        TJAC r;
        CHECK(TFN(gpu_g1_msm)(&r, grb, s, 257, NULL) == CZ_ERANGE);
    }
    cz_gpu_bases_free(grb);
    cz_gpu_bases_free(gb);
    free(bases);
    free(rb);
    free(s);
}

#undef TCAT_
#undef TCAT
#undef TFN
#undef TFR
#undef TAFF
#undef TJAC
