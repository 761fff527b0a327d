/*
 * One group's MSM tests for test_msm.c, instantiated per group by including this file after
 * defining:
 *   T_G       internal group prefix (bn254_g1)        T_EXPORT  public prefix (cz_bn254_g1)
 *   T_FR      internal scalar-field prefix (bn254_fr) T_FR_T    its type
 *   T_FP      internal base-field prefix (bn254_fp)   T_FP_T    its type
 *   T_AFF, T_JAC   point types                        T_NCOORD  base-field coordinates (2 or 4)
 *   T_FR_P    the scalar-field modulus as limbs
 *   T_CURVE, T_GROUP   names as in msm_vectors.txt ("bn254", "g1")
 *
 * Oracles: the naive sum Σ [s_i]P_i with the curve layer's scalar multiplication and complete
 * addition (small n); for large n, bases P_i = [a + i·d]G, where Σ s_i·P_i = [Σ s_i(a + i·d)]G is
 * one scalar multiplication with the exponent computed in Fr; and @noble/curves' pippenger
 * (tests/vectors/msm_vectors.mjs).
 */
#include "field/cz_macros.h"

#define TG(name) CZ_CAT3(T_G, _, name)
#define TR(name) CZ_CAT3(T_FR, _, name)
#define TP(name) CZ_CAT3(T_FP, _, name)
#define TX(name) CZ_CAT3(T_EXPORT, _, name)
#define TT(name) CZ_CAT3(test_, T_G, CZ_CAT(_, name))
#define TLIMBS   CZ_CAT3(cz__, T_G, _msm_limbs)

/* A seeded uniform element of Fr (rejection sampling on 255-bit values). */
static void TT(rand_fr)(T_FR_T *r) {
    uint64_t l[4];
    do {
        for (int i = 0; i < 4; i++)
            l[i] = test_rand64();
        l[3] &= ~(uint64_t)0 >> 1;
    } while (TR(from_limbs)(r, l) != CZ_OK);
}

static void TT(rand_point)(T_AFF *p) {
    T_FR_T k;
    T_AFF g;
    T_JAC j;
    TT(rand_fr)(&k);
    TG(generator)(&g);
    TG(from_affine)(&j, &g);
    TG(mul)(&j, &j, &k);
    TG(to_affine)(p, &j);
}

static void TT(naive)(T_JAC *ret, const T_AFF *bases, const T_FR_T *k, size_t n) {
    T_JAC acc, t;
    TG(jac_set_infinity)(&acc);
    for (size_t i = 0; i < n; i++) {
        TG(from_affine)(&t, &bases[i]);
        TG(mul)(&t, &t, &k[i]);
        TG(add)(&acc, &acc, &t);
    }
    *ret = acc;
}

/* Checks every entry point against `want`: Fr scalars and byte scalars, without and with the pool,
 * and (when c > 0) the core with window width c and nsplit ranges. */
static void TT(check)(const T_JAC *want, const T_AFF *bases, const T_FR_T *k, size_t n,
                      cz_threadpool *pool, unsigned c, unsigned nsplit) {
    T_JAC got;
    uint8_t *bytes = malloc(n * 32 + 1);
    uint64_t *limbs = malloc(n * 32 + 1);
    CHECK(bytes != NULL && limbs != NULL);
    if (bytes == NULL || limbs == NULL)
        goto out;
    CHECK_ERR(TX(msm)(&got, bases, k, n, NULL), CZ_OK);
    CHECK(TG(jac_eq)(&got, want));
    CHECK_ERR(TX(msm)(&got, bases, k, n, pool), CZ_OK);
    CHECK(TG(jac_eq)(&got, want));
    for (size_t i = 0; i < n; i++) {
        TR(to_bytes_le)(bytes + 32 * i, &k[i]);
        TR(from_mont)(limbs + 4 * i, &k[i]);
    }
    CHECK_ERR(TX(msm_bytes)(&got, bases, bytes, n, pool), CZ_OK);
    CHECK(TG(jac_eq)(&got, want));
    if (c > 0) {
        CHECK_ERR(TLIMBS(&got, bases, limbs, n, NULL, c, nsplit), CZ_OK);
        CHECK(TG(jac_eq)(&got, want));
        CHECK_ERR(TLIMBS(&got, bases, limbs, n, pool, c, nsplit), CZ_OK);
        CHECK(TG(jac_eq)(&got, want));
    }
out:
    free(bytes);
    free(limbs);
}

/* Random and edge-case inputs at small n against the naive sum. */
static void TT(small)(cz_threadpool *pool) {
    static const size_t sizes[] = {0, 1, 2, 3, 7, 64, 200};
    enum { NMAX = 200 };
    T_AFF *bases = malloc(NMAX * sizeof *bases);
    T_FR_T *k = malloc(NMAX * sizeof *k);
    T_FR_T one, rm1;
    T_JAC want;
    CHECK(bases != NULL && k != NULL);
    if (bases == NULL || k == NULL)
        goto out;
    TR(set_one)(&one);
    TR(neg)(&rm1, &one); /* r - 1 */
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        for (int pattern = 0; pattern < 2; pattern++) {
            for (size_t i = 0; i < n; i++) {
                TT(rand_point)(&bases[i]);
                TT(rand_fr)(&k[i]);
                if (pattern == 0)
                    continue;
                /* Edge cases, chosen by position so every n >= 7 has each of them. */
                switch (i % 7) {
                case 0:
                    TR(set_zero)(&k[i]);
                    break;
                case 1:
                    k[i] = one;
                    break;
                case 2:
                    k[i] = rm1;
                    break;
                case 3:
                    TR(from_u64)(&k[i], test_rand64() & 0xff); /* small */
                    TG(affine_set_infinity)(&bases[i]);
                    break;
                case 4:
                    k[i] = k[i - 1];         /* repeated scalar */
                    bases[i] = bases[i - 2]; /* repeated base: P + P in a bucket */
                    break;
                case 5:
                    k[i] = k[i - 1];
                    TG(affine_neg)(&bases[i], &bases[i - 1]); /* negated base: P - P */
                    break;
                default:
                    break;
                }
            }
            TT(naive)(&want, bases, k, n);
            TT(check)(&want, bases, k, n, pool, n >= 64 ? 3 + (unsigned)pattern * 4 : 0, 3);
        }
    }

    /* One point in every bucket-conflict path: all scalars equal, all bases equal. */
    {
        size_t n = 64;
        TT(rand_fr)(&k[0]);
        TT(rand_point)(&bases[0]);
        for (size_t i = 1; i < n; i++) {
            k[i] = k[0];
            TT(rand_point)(&bases[i]);
        }
        TT(naive)(&want, bases, k, n);
        TT(check)(&want, bases, k, n, pool, 5, 1);
        for (size_t i = 1; i < n; i++)
            bases[i] = bases[0];
        TT(naive)(&want, bases, k, n);
        TT(check)(&want, bases, k, n, pool, 6, 2);
        for (size_t i = 1; i < n; i += 2)
            TG(affine_neg)(&bases[i], &bases[0]); /* pairs cancel: the sum is infinity */
        TT(naive)(&want, bases, k, n);
        CHECK(TG(jac_is_infinity)(&want));
        TT(check)(&want, bases, k, n, pool, 4, 1);
        for (size_t i = 0; i < n; i++)
            TR(set_zero)(&k[i]); /* all zero */
        TT(check)(&want, bases, k, n, pool, 2, 1);
    }

    /* Every window width (and point-range splits) on the same input, scalars of 40 bits so the
     * wide windows need few windows. */
    {
        size_t n = 64;
        for (size_t i = 0; i < n; i++) {
            TT(rand_point)(&bases[i]);
            TR(from_u64)(&k[i], test_rand64() & 0xffffffffffULL);
        }
        TT(naive)(&want, bases, k, n);
        /* Wide windows cost 2^(c-1) buckets each: all widths for G1, up to 12 for G2. */
        for (unsigned c = 1; c <= (T_NCOORD == 2 ? 16u : 12u); c++)
            TT(check)(&want, bases, k, n, pool, c, 1 + c % 5);
    }

    /* Byte scalars need not be reduced: k + r gives the same point as k. */
    {
        size_t n = 7;
        uint8_t bytes[7 * 32];
        T_JAC got;
        for (size_t i = 0; i < n; i++) {
            uint64_t l[4];
            TT(rand_point)(&bases[i]);
            TT(rand_fr)(&k[i]);
            TR(from_mont)(l, &k[i]);
            TR(limbs_add)(l, l, T_FR_P); /* l = k + r (< 2^256: r < 2^255) */
            for (int b = 0; b < 32; b++)
                bytes[32 * i + b] = (uint8_t)(l[b / 8] >> (8 * (b % 8)));
        }
        TT(naive)(&want, bases, k, n);
        CHECK_ERR(TX(msm_bytes)(&got, bases, bytes, n, pool), CZ_OK);
        CHECK(TG(jac_eq)(&got, &want));
    }
out:
    free(bases);
    free(k);
}

/*
 * n points of the progression P_i = [a + i·d]G: Σ k_i·P_i = [Σ k_i(a + i·d)]G, against the
 * single-threaded and threaded MSM (which must also agree with each other).
 */
static void TT(large)(cz_threadpool *pool, size_t n) {
    T_AFF *bases = malloc(n * sizeof *bases);
    T_JAC *jac = malloc(n * sizeof *jac);
    T_FR_T *k = malloc(n * sizeof *k);
    T_FR_T a, d, e, sum, t;
    T_AFF g;
    T_JAC gj, p, dp, want, got1, got2;
    CHECK(bases != NULL && jac != NULL && k != NULL);
    if (bases == NULL || jac == NULL || k == NULL)
        goto out;
    TT(rand_fr)(&a);
    TT(rand_fr)(&d);
    TG(generator)(&g);
    TG(from_affine)(&gj, &g);
    TG(mul)(&p, &gj, &a);
    TG(mul)(&dp, &gj, &d);
    TR(set_zero)(&sum);
    e = a;
    for (size_t i = 0; i < n; i++) {
        TT(rand_fr)(&k[i]);
        if (i % 97 == 13)
            TR(set_zero)(&k[i]);
        jac[i] = p;
        TR(mul)(&t, &k[i], &e);
        TR(add)(&sum, &sum, &t);
        TG(add)(&p, &p, &dp);
        TR(add)(&e, &e, &d);
    }
    TG(batch_to_affine)(bases, jac, n);
    TG(mul)(&want, &gj, &sum);
    CHECK_ERR(TX(msm)(&got1, bases, k, n, NULL), CZ_OK);
    CHECK_ERR(TX(msm)(&got2, bases, k, n, pool), CZ_OK);
    CHECK(TG(jac_eq)(&got1, &want));
    CHECK(TG(jac_eq)(&got2, &want));
out:
    free(bases);
    free(jac);
    free(k);
}

/* Parses "inf" or T_NCOORD comma-separated decimal coordinates. */
static int TT(parse_point)(T_AFF *p, char *s) {
    T_FP_T *coord = (T_FP_T *)(void *)p;
    _Static_assert(sizeof(T_AFF) == T_NCOORD * sizeof(T_FP_T), "affine = coordinates");
    if (strcmp(s, "inf") == 0) {
        TG(affine_set_infinity)(p);
        return 1;
    }
    for (int c = 0; c < T_NCOORD; c++) {
        char *end = strchr(s, ',');
        if ((end == NULL) != (c == T_NCOORD - 1))
            return 0;
        if (end != NULL)
            *end = '\0';
        if (TP(from_dec)(&coord[c], s) != CZ_OK)
            return 0;
        s = end + 1;
    }
    return TG(affine_on_curve)(p);
}

/* The noble case of this group in msm_vectors.txt. */
static void TT(noble)(FILE *f, cz_threadpool *pool) {
    static char line[4096];
    T_AFF *bases = NULL;
    T_FR_T *k = NULL;
    size_t n = 0;
    int found = 0;
    rewind(f);
    while (fgets(line, sizeof line, f) != NULL) {
        char curve[32], group[8];
        if (sscanf(line, "msm %31s %7s %zu", curve, group, &n) != 3 || strcmp(curve, T_CURVE) ||
            strcmp(group, T_GROUP))
            continue;
        found = 1;
        bases = malloc(n * sizeof *bases);
        k = malloc(n * sizeof *k);
        CHECK(bases != NULL && k != NULL);
        if (bases == NULL || k == NULL)
            break;
        for (size_t i = 0; i < n; i++) {
            char *sp;
            if (!CHECK(fgets(line, sizeof line, f) != NULL))
                goto out;
            line[strcspn(line, "\r\n")] = '\0';
            sp = strchr(line, ' ');
            if (!CHECK(sp != NULL))
                goto out;
            *sp = '\0';
            CHECK(TT(parse_point)(&bases[i], line));
            CHECK_ERR(TR(from_dec)(&k[i], sp + 1), CZ_OK);
        }
        if (!CHECK(fgets(line, sizeof line, f) != NULL && strncmp(line, "res ", 4) == 0))
            goto out;
        line[strcspn(line, "\r\n")] = '\0';
        {
            T_AFF ra;
            T_JAC want;
            CHECK(TT(parse_point)(&ra, line + 4));
            TG(from_affine)(&want, &ra);
            TT(check)(&want, bases, k, n, pool, 8, 2);
        }
        break;
    }
    CHECK(found);
out:
    free(bases);
    free(k);
}

static void TT(run)(cz_threadpool *pool, FILE *vectors, size_t nlarge) {
    TT(small)(pool);
    TT(large)(pool, nlarge);
    TT(noble)(vectors, pool);
}

#undef TG
#undef TR
#undef TP
#undef TX
#undef TT
#undef TLIMBS
#undef T_G
#undef T_EXPORT
#undef T_FR
#undef T_FR_T
#undef T_FR_P
#undef T_FP
#undef T_FP_T
#undef T_AFF
#undef T_JAC
#undef T_NCOORD
#undef T_CURVE
#undef T_GROUP
