/*
 * One curve's GPU MSM checks for one group (included by test_gpu_msm.c with TG = g1 and by
 * test_gpu_g2_msm.c with TG = g2, TC = bn254 or bls12381).
 * Oracles: the CPU MSM (cz_<curve>_<group>_msm) on the same inputs for n up to 2^cpu_log; for
 * larger n, bases in arithmetic progression P_i = [a + i·d]G (made on the GPU by
 * cz_<curve>_gpu_<group>_bases_progression, whose first 2^cpu_log points are checked against the
 * CPU),
 * whose MSM is [a·Σ s_i + d·Σ i·s_i]G: Σ i·s_i is the sum of the suffix sums, so the oracle is
 * two Fr additions a point and one CPU scalar multiplication. The split path (scalars 0/1 taken
 * out) is forced on and off (cz_tuning.msm_split) and both are compared with the oracle.
 */
#define TCAT_(a, b) a##b
#define TCAT(a, b)  TCAT_(a, b)
#define TFN(name)   TCAT(TCAT(cz_, TC), _##name)
#define TFR         TCAT(TCAT(cz_, TC), _fr)
#define TGN(name)   TCAT(TCAT(TCAT(TCAT(cz_, TC), _), TG), _##name)
#define TGPU(name)  TCAT(TCAT(TCAT(TCAT(cz_, TC), _gpu_), TG), _##name)
#define TAFF        TGN(affine)
#define TJAC        TGN(jacobian)

/* out[i] = [a + i·d]G for i < n. */
static void TCAT(progression_, TC)(TAFF *out, size_t n, const TFR *a, const TFR *d) {
    TAFF g;
    TJAC ga, p, step;
    TJAC *jac = malloc(n * sizeof *jac);
    CZ_ASSERT(jac != NULL);
    TGN(generator)(&g);
    TGN(from_affine)(&ga, &g);
    TGN(mul)(&p, &ga, a);
    TGN(mul)(&step, &ga, d);
    for (size_t i = 0; i < n; i++) {
        jac[i] = p;
        TGN(add)(&p, &p, &step);
    }
    TGN(batch_to_affine)(out, jac, n);
    free(jac);
}

/* GPU MSM of the first n bases = CPU MSM; returns 1 when equal. */
static int TCAT(msm_matches_cpu_, TC)(const cz_gpu_bases *gb, const TAFF *bases, const TFR *s,
                                      size_t n, cz_threadpool *pool) {
    TJAC want, got;
    cz_errinfo ei;
    int rc;
    cz_errinfo_clear(&ei);
    CHECK(TGN(msm)(&want, bases, s, n, pool) == CZ_OK);
    rc = TGPU(msm)(&got, gb, s, n, &ei);
    if (!CHECK(rc == CZ_OK))
        fprintf(stderr, "%s\n", ei.msg);
    if (!CHECK(TGN(eq)(&want, &got))) {
        fprintf(stderr, "  " TSTR(TC) " " TSTR(TG) " msm n = %zu differs from the CPU\n", n);
        return 0;
    }
    return 1;
}

/* Scalar sets: 0 uniform, 1 98.7 % zeros and ones (PoRep-like) with uniform others, 2 all equal
 * to one random value, 3 only zeros and ones, 4 all ones. */
static void TCAT(fill_scalars_, TC)(TFR *s, size_t n, int kind) {
    TFR k, one, zero;
    TFN(fr_one)(&one);
    TFN(fr_zero)(&zero);
    gpu_random_fr_limbs(k.l);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = gpu_prng_next() % 1000;
        switch (kind) {
        case 1:
            if (r < 987)
                s[i] = (r & 1) ? one : zero;
            else
                gpu_random_fr_limbs(s[i].l);
            break;
        case 2:
            s[i] = k;
            break;
        case 3:
            s[i] = (r & 1) ? one : zero;
            break;
        case 4:
            s[i] = one;
            break;
        default:
            gpu_random_fr_limbs(s[i].l);
        }
    }
}

/* The GPU MSM of the progression bases = [a·Σ s_i + d·Σ i·s_i]G. */
static void TCAT(check_progression_, TC)(const cz_gpu_bases *gb, const TFR *s, size_t n,
                                         const TFR *a, const TFR *d, const char *what) {
    TFR suf, s1, e, t;
    TAFF g;
    TJAC ga, want, got;
    cz_errinfo ei;
    int rc;
    TFN(fr_zero)(&suf);
    TFN(fr_zero)(&s1);
    for (size_t i = n - 1; i >= 1; i--) {
        TFN(fr_add)(&suf, &suf, &s[i]); /* Σ_{j >= i} s_j */
        TFN(fr_add)(&s1, &s1, &suf);
    }
    TFN(fr_add)(&suf, &suf, &s[0]);
    TFN(fr_mul)(&e, a, &suf);
    TFN(fr_mul)(&t, d, &s1);
    TFN(fr_add)(&e, &e, &t);
    TGN(generator)(&g);
    TGN(from_affine)(&ga, &g);
    TGN(mul)(&want, &ga, &e);
    cz_errinfo_clear(&ei);
    rc = TGPU(msm)(&got, gb, s, n, &ei);
    if (!CHECK(rc == CZ_OK))
        fprintf(stderr, "%s\n", ei.msg);
    if (!CHECK(TGN(eq)(&want, &got)))
        fprintf(stderr,
                "  " TSTR(TC) " " TSTR(TG) " msm n = %zu (%s) differs from the progression sum\n",
                n, what);
}

/* Sparse handles (gpu_msm_sparse.cu) on the n CPU progression bases [a + i·d]G with about 70 %
 * of them (the first 64 included) set to infinity: the upload keeps only the finite points, and
 * the MSM over all n, the first n/2 + 3 and the first 50 (all infinity) equals the CPU's on the
 * same host bases, for uniform and PoRep-like scalars with the split on, off and automatic. A
 * dense GPU progression restricted like it gives the same MSMs; CZ_COMPACT_NEVER keeps the
 * upload dense (same results), and the misuses of restrict are refused. */
static void TCAT(test_sparse_, TC)(cz_threadpool *pool, const TAFF *bases, TFR *s, size_t n,
                                   const TFR *a, const TFR *d) {
    static const cz_split_mode modes[] = {CZ_SPLIT_ON, CZ_SPLIT_OFF, CZ_SPLIT_AUTO};
    TAFF *sp = malloc(n * sizeof *sp), g, p0, step;
    TJAC ga, t;
    cz_gpu_bases *gsp = NULL, *gpr = NULL, *gdn = NULL;
    size_t finite = 0;
    CZ_ASSERT(sp != NULL);
    for (size_t i = 0; i < n; i++) {
        sp[i] = bases[i];
        if (i < 64 || gpu_prng_next() % 10 < 7)
            memset(&sp[i], 0, sizeof sp[i]);
        else
            finite++;
    }
    CHECK(TGPU(bases_upload)(&gsp, sp, n, 0, NULL) == CZ_OK);
    CHECK(cz_gpu_bases_count(gsp) == n);
    CHECK(cz_gpu_bases_stored(gsp) == finite);
    CHECK(cz_gpu_bases_bytes(gsp) == finite * (sizeof(TAFF) + 4));
    TGN(generator)(&g);
    TGN(from_affine)(&ga, &g);
    TGN(mul)(&t, &ga, a);
    TGN(to_affine)(&p0, &t);
    TGN(mul)(&t, &ga, d);
    TGN(to_affine)(&step, &t);
    CHECK(TGPU(bases_progression)(&gpr, &p0, &step, n, 0, NULL) == CZ_OK);
    CHECK(cz_gpu_bases_restrict(gpr, gsp, NULL) == CZ_OK);
    CHECK(cz_gpu_bases_stored(gpr) == finite && cz_gpu_bases_count(gpr) == n);
    CHECK(cz_gpu_bases_restrict(gpr, gsp, NULL) == CZ_EINVAL); /* already sparse */
    gpu_tune_compact(CZ_COMPACT_NEVER);
    CHECK(TGPU(bases_upload)(&gdn, sp, n, 0, NULL) == CZ_OK);
    gpu_tune_compact(CZ_COMPACT_AUTO);
    CHECK(cz_gpu_bases_stored(gdn) == n);
    for (int kind = 0; kind <= 1; kind++) {
        TCAT(fill_scalars_, TC)(s, n, kind);
        for (int m = 0; m < 3; m++) {
            gpu_tune_split(modes[m]);
            TCAT(msm_matches_cpu_, TC)(gsp, sp, s, n, pool);
            TCAT(msm_matches_cpu_, TC)(gsp, sp, s, n / 2 + 3, pool);
            TCAT(msm_matches_cpu_, TC)(gpr, sp, s, n, pool);
        }
        gpu_tune_split(CZ_SPLIT_AUTO);
        TCAT(msm_matches_cpu_, TC)(gpr, sp, s, n / 2 + 3, pool);
        TCAT(msm_matches_cpu_, TC)(gsp, sp, s, 50, pool);
        TCAT(msm_matches_cpu_, TC)(gdn, sp, s, n, pool);
    }
    {
        /* a count or device mismatch is refused, a dense "like" changes nothing */
        cz_gpu_bases *small = NULL, *small2 = NULL;
        CHECK(TGPU(bases_upload)(&small, bases, 8, 0, NULL) == CZ_OK);
        CHECK(TGPU(bases_upload)(&small2, bases + 8, 8, 0, NULL) == CZ_OK);
        CHECK(cz_gpu_bases_restrict(small, gsp, NULL) == CZ_EINVAL);
        CHECK(cz_gpu_bases_restrict(small, small2, NULL) == CZ_OK);
        CHECK(cz_gpu_bases_stored(small) == 8);
        /* the dense upload restricted like the sparse progression: the sparse host bases again */
        CHECK(cz_gpu_bases_restrict(gdn, gpr, NULL) == CZ_OK);
        CHECK(cz_gpu_bases_stored(gdn) == finite);
        TCAT(msm_matches_cpu_, TC)(gdn, sp, s, n, pool);
        cz_gpu_bases_free(small);
        cz_gpu_bases_free(small2);
    }
    cz_gpu_bases_free(gdn);
    cz_gpu_bases_free(gpr);
    cz_gpu_bases_free(gsp);
    free(sp);
}

/* Ones summed over several rounds: 2^23 bases repeating one point P (index 0: Q) in the first
 * half and -P in the second, every scalar one, the split on. A stream of the batch-affine ones
 * sum (one point a round from positions c, c + S, c + 2S, ... for fewer than 2^22 streams S)
 * meets P again (a tangent) and, walking down from kP, P against -P (an emptied accumulator);
 * the madd ones sum meets the same in its chunks. The sum is Q - P, and with every base P it is
 * [2^23]P (the oracle: the CPU's additions and scalar multiplication). */
static void TCAT(test_ones_rounds_, TC)(void) {
    const size_t n = (size_t)1 << 23;
    TAFF *b = malloc(n * sizeof *b), g, p, q, mp;
    TFR *s = malloc(n * sizeof *s), k;
    TJAC ga, t, want, got;
    cz_gpu_bases *gb = NULL;
    cz_errinfo ei;
    uint64_t nl = n;
    CZ_ASSERT(b && s);
    cz_errinfo_clear(&ei);
    TGN(generator)(&g);
    TGN(from_affine)(&ga, &g);
    gpu_random_fr_limbs(k.l);
    TGN(mul)(&t, &ga, &k);
    TGN(to_affine)(&p, &t);
    gpu_random_fr_limbs(k.l);
    TGN(mul)(&t, &ga, &k);
    TGN(to_affine)(&q, &t);
    TGN(affine_neg)(&mp, &p);
    TFN(fr_one)(&k);
    for (size_t i = 0; i < n; i++) {
        b[i] = i < n / 2 ? p : mp;
        s[i] = k;
    }
    b[0] = q;
    gpu_tune_split(CZ_SPLIT_ON);
    CHECK(TGPU(bases_upload)(&gb, b, n, 0, &ei) == CZ_OK);
    CHECK(TGPU(msm)(&got, gb, s, n, &ei) == CZ_OK);
    TGN(from_affine)(&want, &mp);
    TGN(add_mixed)(&want, &want, &q);
    if (!CHECK(TGN(eq)(&want, &got)))
        fprintf(stderr, "  " TSTR(TC) " " TSTR(TG) " ones of P, -P and Q: not Q - P (%s)\n",
                ei.msg);
    cz_gpu_bases_free(gb);
    gb = NULL;
    for (size_t i = 0; i < n; i++)
        b[i] = p;
    CHECK(TGPU(bases_upload)(&gb, b, n, 0, &ei) == CZ_OK);
    CHECK(TGPU(msm)(&got, gb, s, n, &ei) == CZ_OK);
    TGN(from_affine)(&t, &p);
    TGN(mul_limbs)(&want, &t, &nl, 1);
    if (!CHECK(TGN(eq)(&want, &got)))
        fprintf(stderr, "  " TSTR(TC) " " TSTR(TG) " ones of one point: not [2^23]P (%s)\n",
                ei.msg);
    gpu_tune_split(CZ_SPLIT_AUTO);
    cz_gpu_bases_free(gb);
    free(b);
    free(s);
}

/* CPU comparisons up to 2^cpu_log (>= 12), progression checks from 2^16 to 2^max_log. */
static void TCAT(test_msm_, TC)(cz_threadpool *pool, unsigned cpu_log, unsigned max_log) {
    const size_t ncpu = (size_t)1 << cpu_log, nmax = (size_t)1 << max_log;
    size_t nb = nmax > ncpu ? nmax : ncpu;
    TAFF *bases = malloc(ncpu * sizeof *bases), *rb = malloc(256 * sizeof *rb);
    TFR *s = malloc(nb * sizeof *s), a, d, one, rm1, zero;
    cz_gpu_bases *gb = NULL, *grb = NULL;
    CZ_ASSERT(bases && rb && s);
    TFN(fr_one)(&one);
    TFN(fr_zero)(&zero);
    TFN(fr_neg)(&rm1, &one); /* r - 1 */
    gpu_random_fr_limbs(a.l);
    gpu_random_fr_limbs(d.l);
    TCAT(progression_, TC)(bases, ncpu, &a, &d);
    {
        /* The same progression made on the GPU; the CPU-oracle MSMs below (which use gb with
         * the CPU's bases) check that its first 2^14 points are the CPU's. */
        TAFF g, p0, step;
        TJAC ga, t;
        TGN(generator)(&g);
        TGN(from_affine)(&ga, &g);
        TGN(mul)(&t, &ga, &a);
        TGN(to_affine)(&p0, &t);
        TGN(mul)(&t, &ga, &d);
        TGN(to_affine)(&step, &t);
        CHECK(TGPU(bases_progression)(&gb, &p0, &step, nb, 0, NULL) == CZ_OK);
        CHECK(cz_gpu_bases_count(gb) == nb);
    }
    TCAT(test_sparse_, TC)(pool, bases, s, ncpu, &a, &d);

    /* Independent random bases [k]G for small n, some of them infinity. */
    {
        TAFF g;
        TJAC ga, p;
        TFR k;
        TGN(generator)(&g);
        TGN(from_affine)(&ga, &g);
        for (size_t i = 0; i < 256; i++) {
            gpu_random_fr_limbs(k.l);
            TGN(mul)(&p, &ga, &k);
            TGN(to_affine)(&rb[i], &p);
        }
        memset(&rb[7], 0, sizeof rb[7]);
        memset(&rb[100], 0, sizeof rb[100]);
        CHECK(TGPU(bases_upload)(&grb, rb, 256, 0, NULL) == CZ_OK);
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
            CHECK(TGPU(msm)(&got, grb, s, 256, NULL) == CZ_OK);
            CHECK(TGN(jacobian_is_infinity)(&got));
            CHECK(TGPU(msm)(&got, grb, s, 0, NULL) == CZ_OK);
            CHECK(TGN(jacobian_is_infinity)(&got));
        }
        /* the same base twice with the same scalar (doubling inside a bucket), and P, -P */
        {
            TAFF two[4];
            cz_gpu_bases *g2 = NULL;
            two[0] = rb[0];
            two[1] = rb[0];
            two[2] = rb[1];
            TGN(affine_neg)(&two[3], &rb[1]);
            for (size_t i = 0; i < 4; i++)
                gpu_random_fr_limbs(s[i].l);
            s[1] = s[0];
            s[3] = s[2];
            CHECK(TGPU(bases_upload)(&g2, two, 4, 0, NULL) == CZ_OK);
            TCAT(msm_matches_cpu_, TC)(g2, two, s, 4, pool);
            cz_gpu_bases_free(g2);
        }
        /* 2000 copies of P and -P (a third of them, at random) with one scalar and a few others,
         * then with the scalar's two values alternating: long runs of one bucket that double,
         * cancel to infinity and start again (the batch-affine accumulation's exceptional cases
         * inside and across its streams) */
        {
            const size_t nr = 2000;
            TAFF *rp = malloc(nr * sizeof *rp);
            TFR k1, k2;
            cz_gpu_bases *gr = NULL;
            CZ_ASSERT(rp != NULL);
            gpu_random_fr_limbs(k1.l);
            gpu_random_fr_limbs(k2.l);
            for (size_t i = 0; i < nr; i++) {
                rp[i] = rb[0];
                if (gpu_prng_next() % 3 == 0)
                    TGN(affine_neg)(&rp[i], &rb[0]);
                s[i] = i % 97 == 5 ? k2 : k1;
            }
            memset(&rp[17], 0, sizeof rp[17]); /* and an infinity in the run */
            CHECK(TGPU(bases_upload)(&gr, rp, nr, 0, NULL) == CZ_OK);
            TCAT(msm_matches_cpu_, TC)(gr, rp, s, nr, pool);
            for (size_t i = 0; i < nr; i++)
                s[i] = i % 2 ? k2 : k1;
            TCAT(msm_matches_cpu_, TC)(gr, rp, s, nr, pool);
            cz_gpu_bases_free(gr);
            free(rp);
        }
    }

    /* Powers of two up to 2^cpu_log against the CPU, random scalars and one skewed set. */
    for (unsigned k = 1; k <= cpu_log; k++) {
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

    /* Split MSM against the CPU: scalar sets with many zeros and ones, forced on and off, on the
     * random bases with infinities and on the progression bases; edge scalars 0, 1, r-1. */
    {
        static const cz_split_mode modes[] = {CZ_SPLIT_ON, CZ_SPLIT_OFF};
        for (int m = 0; m < 2; m++) {
            gpu_tune_split(modes[m]);
            for (int kind = 1; kind <= 4; kind++) {
                TCAT(fill_scalars_, TC)(s, 256, kind);
                TCAT(msm_matches_cpu_, TC)(grb, rb, s, 256, pool);
                TCAT(fill_scalars_, TC)(s, ncpu, kind);
                TCAT(msm_matches_cpu_, TC)(gb, bases, s, ncpu, pool);
            }
            for (size_t i = 0; i < 256; i++)
                s[i] = (i % 3 == 0) ? zero : (i % 3 == 1) ? one : rm1;
            TCAT(msm_matches_cpu_, TC)(grb, rb, s, 256, pool);
            for (size_t i = 0; i < 1000; i++)
                s[i] = (i % 7 == 0) ? rm1 : (i % 2) ? one : zero;
            TCAT(msm_matches_cpu_, TC)(gb, bases, s, 1000, pool);
        }
        gpu_tune_split(CZ_SPLIT_AUTO);
    }

    /* Larger sizes against the progression oracle: uniform scalars at every size, at 2^20 the
     * PoRep-like, all-equal and all-0/1 sets with the split forced on, off and automatic, and at
     * 2^24 the PoRep-like and all-ones sets with the split on. */
    for (unsigned k = 16; k <= max_log; k += (k < 24 ? 2 : 1)) {
        size_t n = (size_t)1 << k;
        TCAT(fill_scalars_, TC)(s, n, 0);
        TCAT(check_progression_, TC)(gb, s, n, &a, &d, "uniform");
        if (k == 20) {
            static const cz_split_mode modes[] = {CZ_SPLIT_ON, CZ_SPLIT_OFF, CZ_SPLIT_AUTO};
            static const char *const names[] = {"on", "off", "auto"};
            for (int kind = 1; kind <= 3; kind++) {
                TCAT(fill_scalars_, TC)(s, n, kind);
                for (int m = 0; m < 3; m++) {
                    char what[32];
                    snprintf(what, sizeof what, "kind %d, split %s", kind, names[m]);
                    gpu_tune_split(modes[m]);
                    TCAT(check_progression_, TC)(gb, s, n, &a, &d, what);
                }
            }
            gpu_tune_split(CZ_SPLIT_AUTO);
        }
        if (k == 24) {
            /* millions of ones: the ones sum runs whole waves of threads (2 and 4 of them) */
            gpu_tune_split(CZ_SPLIT_ON);
            TCAT(fill_scalars_, TC)(s, n, 1);
            TCAT(check_progression_, TC)(gb, s, n, &a, &d, "kind 1, split on");
            TCAT(fill_scalars_, TC)(s, n, 4);
            TCAT(check_progression_, TC)(gb, s, n, &a, &d, "kind 4, split on");
            gpu_tune_split(CZ_SPLIT_AUTO);
        }
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
        CHECK(TGPU(msm)(&h, gb, s, n, NULL) == CZ_OK);
        CHECK(TGPU(msm_dev)(&dv, gb, d_s, n, NULL) == CZ_OK);
        CHECK(TGN(eq)(&h, &dv));
        cz_gpu_free(d_s, 0);
    }
    /* Lent memory (filled with 0xa5 first, at an odd address): large enough for every pair
     * array, for the key arrays only, and too small for either (the pool then); each result is
     * the CPU's. Lent memory over the scalars is refused. */
    {
        const size_t n = ncpu, lent_max = (size_t)64 << 20;
        static const size_t lent_sizes[] = {(size_t)64 << 20, (size_t)4 << 20, (size_t)64 << 10};
        void *d_s = NULL, *d_lent = NULL;
        uint8_t *fill = malloc(lent_max);
        TJAC want, got;
        cz_errinfo ei;
        CZ_ASSERT(fill != NULL);
        memset(fill, 0xa5, lent_max);
        for (size_t i = 0; i < n; i++)
            gpu_random_fr_limbs(s[i].l);
        CHECK(TGN(msm)(&want, bases, s, n, pool) == CZ_OK);
        CHECK(cz_gpu_alloc(&d_s, n * sizeof *s, 0, NULL) == CZ_OK);
        CHECK(cz_gpu_upload(d_s, s, n * sizeof *s, 0, NULL) == CZ_OK);
        CHECK(cz_gpu_alloc(&d_lent, lent_max + 1, 0, NULL) == CZ_OK);
        for (size_t t = 0; t < sizeof lent_sizes / sizeof lent_sizes[0]; t++) {
            CHECK(cz_gpu_upload(d_lent, fill, lent_max, 0, NULL) == CZ_OK);
            cz_errinfo_clear(&ei);
            if (!CHECK(TGPU(msm_dev_lent)(&got, gb, d_s, n, (uint8_t *)d_lent + 1, lent_sizes[t],
                                          &ei) == CZ_OK))
                fprintf(stderr, "%s\n", ei.msg);
            if (!CHECK(TGN(eq)(&want, &got)))
                fprintf(stderr, "  " TSTR(TC) " msm n = %zu with %zu lent bytes differs\n", n,
                        lent_sizes[t]);
        }
        CHECK(TGPU(msm_dev_lent)(&got, gb, d_s, n, NULL, 0, NULL) == CZ_OK);
        CHECK(TGN(eq)(&want, &got));
        cz_errinfo_clear(&ei);
        CHECK(TGPU(msm_dev_lent)(&got, gb, d_s, n, (uint8_t *)d_s + 64, lent_max, &ei) ==
              CZ_EINVAL);
        CHECK(strstr(ei.msg, "overlaps the scalars") != NULL);
        cz_gpu_free(d_lent, 0);
        cz_gpu_free(d_s, 0);
        free(fill);
    }
    /* More scalars than bases is refused. */
    {
        TJAC r;
        CHECK(TGPU(msm)(&r, grb, s, 257, NULL) == CZ_ERANGE);
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
#undef TGN
#undef TGPU
#undef TAFF
#undef TJAC
