/*
 * One group's tests of the MSM 0/1 split (src/msm/msm_split_impl.h) for test_msm_split.c,
 * instantiated per group after defining T_G, T_EXPORT, T_FR, T_FR_T, T_AFF, T_JAC (as in
 * test_msm_impl.h).
 *
 * Each input is run with the split forced on, forced off and automatic, with Fr and byte scalars,
 * without and with the pool, and compared as group elements with an oracle: the naive
 * Σ [s_i]P_i by the curve layer's scalar multiplication for n <= NAIVE_MAX, and above that the
 * Pippenger core without GLV and without split (cz__<group>_msm_limbs) on the original arrays
 * (test_msm.c checks that core against the naive sum). At n = 4096 only a subset of inputs and
 * modes runs, to keep the test at a few seconds on two loaded cores; at NBIG (several chunks and
 * fill tasks) only PoRep-like inputs: scalars all 0/1 or 98.7 % 0/1, 3/4 of the bases infinity.
 */
#include "field/cz_macros.h"

#define TG(name) CZ_CAT3(T_G, _, name)
#define TR(name) CZ_CAT3(T_FR, _, name)
#define TX(name) CZ_CAT3(T_EXPORT, _, name)
#define TT(name) CZ_CAT3(test_split_, T_G, CZ_CAT(_, name))
#define TI(name) CZ_CAT3(cz__, T_G, CZ_CAT(_msm_, name))

static void TT(rand_fr)(T_FR_T *r) {
    uint64_t l[4];
    do {
        for (int i = 0; i < 4; i++)
            l[i] = test_rand64();
        l[3] &= ~(uint64_t)0 >> 1;
    } while (TR(from_limbs)(r, l) != CZ_OK);
}

/*
 * n bases: a progression P_i = Q_(i mod 4) + i·D from random Q and D (one addition each, cheap),
 * then per `shape`: 1 = every other base infinity, 2 = 3/4 infinity (as B2 in Groth16),
 * 3 = repeats and negations of earlier bases.
 */
static void TT(make_bases)(T_AFF *b, size_t n, int shape) {
    T_JAC q[4], d, acc[4];
    T_AFF g;
    T_FR_T k;
    TG(generator)(&g);
    for (int j = 0; j < 4; j++) {
        TT(rand_fr)(&k);
        TG(from_affine)(&q[j], &g);
        TG(mul)(&q[j], &q[j], &k);
        acc[j] = q[j];
    }
    TT(rand_fr)(&k);
    TG(from_affine)(&d, &g);
    TG(mul)(&d, &d, &k);
    for (size_t i = 0; i < n; i++) {
        TG(add)(&acc[i % 4], &acc[i % 4], &d);
        TG(to_affine)(&b[i], &acc[i % 4]);
        if ((shape == 1 && i % 2 == 1) || (shape == 2 && i % 4 != 0))
            TG(affine_set_infinity)(&b[i]);
        if (shape == 3 && i >= 2 && i % 3 == 0)
            b[i] = b[i / 2];
        if (shape == 3 && i >= 2 && i % 3 == 1)
            TG(affine_neg)(&b[i], &b[i / 2]);
    }
}

/*
 * n scalars per `set`: 0 all 0/1, 1 ~98.7 % 0/1 and the rest random, 2 all ones, 3 all zeros,
 * 4 edge scalars (0, 1, r - 1, 2, random) by position, 5 uniform.
 */
static void TT(make_scalars)(T_FR_T *k, size_t n, int set) {
    T_FR_T one, rm1;
    TR(set_one)(&one);
    TR(neg)(&rm1, &one);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = test_rand64();
        switch (set) {
        case 0:
            if (r & 1)
                k[i] = one;
            else
                TR(set_zero)(&k[i]);
            break;
        case 1:
            if (r % 1000 < 13)
                TT(rand_fr)(&k[i]);
            else if (r & 1024)
                k[i] = one;
            else
                TR(set_zero)(&k[i]);
            break;
        case 2:
            k[i] = one;
            break;
        case 3:
            TR(set_zero)(&k[i]);
            break;
        case 4:
            switch (i % 5) {
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
                TR(add)(&k[i], &one, &one);
                break;
            default:
                TT(rand_fr)(&k[i]);
            }
            break;
        default:
            TT(rand_fr)(&k[i]);
        }
    }
}

#define NAIVE_MAX 3
/* Over five chunks of the split (MSM_CONV_CHUNK = 4096), not a multiple of one. */
#define NBIG (5 * 4096 + 77)

static void TT(case)(const T_AFF *b, const T_FR_T *k, uint8_t *bytes, uint64_t *limbs, size_t n,
                     cz_threadpool *pool) {
    static const int modes[3] = {MSM_SPLIT_ON, MSM_SPLIT_OFF, MSM_SPLIT_AUTO};
    T_JAC want, got, t;
    for (size_t i = 0; i < n; i++) {
        TR(to_bytes_le)(bytes + 32 * i, &k[i]);
        TR(from_mont)(limbs + 4 * i, &k[i]);
    }
    if (n <= NAIVE_MAX) {
        TG(jac_set_infinity)(&want);
        for (size_t i = 0; i < n; i++) {
            TG(from_affine)(&t, &b[i]);
            TG(mul)(&t, &t, &k[i]);
            TG(add)(&want, &want, &t);
        }
    } else {
        CHECK_ERR(TI(limbs)(&want, b, limbs, n, NULL, 0, 0), CZ_OK);
    }
    if (n > 100) { /* large n: one run per mode (and both scalar forms when split), to stay fast */
        CHECK_ERR(TI(split)(&got, b, k, n, pool, MSM_SPLIT_ON), CZ_OK);
        CHECK(TG(jac_eq)(&got, &want));
        CHECK_ERR(TI(bytes_split)(&got, b, bytes, n, NULL, MSM_SPLIT_ON), CZ_OK);
        CHECK(TG(jac_eq)(&got, &want));
        CHECK_ERR(TI(split)(&got, b, k, n, pool, MSM_SPLIT_OFF), CZ_OK);
        CHECK(TG(jac_eq)(&got, &want));
    } else {
        for (int m = 0; m < 3; m++) {
            for (int p = 0; p < 2; p++) {
                cz_threadpool *tp = p ? pool : NULL;
                CHECK_ERR(TI(split)(&got, b, k, n, tp, modes[m]), CZ_OK);
                CHECK(TG(jac_eq)(&got, &want));
                CHECK_ERR(TI(bytes_split)(&got, b, bytes, n, tp, modes[m]), CZ_OK);
                CHECK(TG(jac_eq)(&got, &want));
            }
        }
    }
    CHECK_ERR(TX(msm_bytes)(&got, b, bytes, n, pool), CZ_OK);
    CHECK(TG(jac_eq)(&got, &want));
}

static void TT(all)(cz_threadpool *pool) {
    static const size_t sizes[] = {0, 1, 2, 3, 100, 4096, NBIG};
    enum { NMAX = NBIG };
    T_AFF *b = malloc(NMAX * sizeof *b);
    T_FR_T *k = malloc(NMAX * sizeof *k);
    uint8_t *bytes = malloc(NMAX * 32);
    uint64_t *limbs = malloc(NMAX * 32);
    CHECK(b != NULL && k != NULL && bytes != NULL && limbs != NULL);
    if (b == NULL || k == NULL || bytes == NULL || limbs == NULL)
        goto out;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        for (int shape = 0; shape < 4; shape++) {
            if (n > 100 && (shape == 1 || shape == 3))
                continue;
            if (n == NBIG && shape != 2)
                continue;
            TT(make_bases)(b, n, shape);
            for (int set = 0; set < 6; set++) {
                /* Uniform scalars only at the small sizes: they are what the split does not
                 * change, and the large ones cost Pippenger's full price. */
                if (set == 5 && n > 100)
                    continue;
                /* At 4096 points: bit-heavy and edge scalars on plain and 3/4-infinity bases. */
                if (n > 100 && n < NBIG && (set == 0 || set == 2 || set == 3))
                    continue;
                /* Several chunks and fill tasks, batch-affine ones sums of a few hundred points
                 * per task: PoRep-like bits on 3/4-infinity bases. */
                if (n == NBIG && set > 1)
                    continue;
                TT(make_scalars)(k, n, set);
                TT(case)(b, k, bytes, limbs, n, pool);
            }
        }
    }
    /* A byte scalar 1 + r is not "one": it must go to Pippenger and still give P. */
    if (NMAX >= 2) {
        T_JAC got, want;
        T_FR_T one;
        const uint64_t *rp = T_FR_P;
        TT(make_bases)(b, 2, 0);
        TR(set_one)(&one);
        TR(to_bytes_le)(bytes, &one);
        TR(to_bytes_le)(bytes + 32, &one);
        unsigned carry = 0;
        for (int i = 0; i < 32; i++) { /* bytes[32..64) += r */
            unsigned s = bytes[32 + i] + (unsigned)((rp[i / 8] >> (8 * (i % 8))) & 0xff) + carry;
            bytes[32 + i] = (uint8_t)s;
            carry = s >> 8;
        }
        TG(from_affine)(&want, &b[0]);
        TG(add_mixed)(&want, &want, &b[1]);
        CHECK_ERR(TI(bytes_split)(&got, b, bytes, 2, pool, MSM_SPLIT_ON), CZ_OK);
        CHECK(TG(jac_eq)(&got, &want));
    }
out:
    free(b);
    free(k);
    free(bytes);
    free(limbs);
}

#undef NAIVE_MAX
#undef NBIG
#undef TG
#undef TR
#undef TX
#undef TT
#undef TI
#undef T_G
#undef T_EXPORT
#undef T_FR
#undef T_FR_T
#undef T_FR_P
#undef T_AFF
#undef T_JAC
