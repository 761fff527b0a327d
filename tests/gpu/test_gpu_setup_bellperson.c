/*
 * The bellperson key setup on the GPU (cuzk/groth16_setup.h with dev >= 0) against the CPU, and
 * the fixed-base multiplication under it (cuzk/gpu.h): for window tables of a point P built here
 * from the curve's additions, cz_bls12381_gpu_g{1,2}_fixed_mul gives [k]P as the CPU's double-
 * and-add scalar multiplication does, for edge scalars (0, 1, 2, r - 1, the window boundaries)
 * and random ones, over several window widths, and across the GPU's rounds of 2^22 points; bad
 * window layouts are CZ_EINVAL. The setup makes the same key, byte for byte, on both backends.
 * Exits 77 without a GPU.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/bellperson.h"
#include "cuzk/curve.h"
#include "cuzk/field.h"
#include "cuzk/gpu.h"
#include "cuzk/groth16_setup.h"
#include "cuzk/threadpool.h"
#include "gpu_test_util.h"
#include "groth16/bp_test_circuit.h"
#include "test.h"

static cz_threadpool *pool;

/* Scalar i of a test set of n: the edge values first, then random ones below 2^252. */
static void scalar_at(cz_bls12381_fr *k, size_t i, unsigned w) {
    cz_bls12381_fr one;
    cz_bls12381_fr_one(&one);
    switch (i) {
    case 0:
        cz_bls12381_fr_zero(k);
        return;
    case 1:
        *k = one;
        return;
    case 2:
        cz_bls12381_fr_from_u64(k, 2);
        return;
    case 3:
        cz_bls12381_fr_neg(k, &one);
        return; /* r - 1 */
    case 4:
        cz_bls12381_fr_from_u64(k, ((uint64_t)1 << w) - 1);
        return;
    case 5:
        cz_bls12381_fr_from_u64(k, (uint64_t)1 << w);
        return;
    default:
        gpu_random_fr_limbs(k->l);
        return;
    }
}

/* One group's checks, written once for G1 and G2. */
#define GROUP_TESTS(G)                                                                             \
    /* The table of P: T[j·(2^w - 1) + d - 1] = d·2^(w·j)·P. */                                \
    static cz_bls12381_##G##_affine *G##_table(const cz_bls12381_##G##_jacobian *p, unsigned w,    \
                                               unsigned nwin) {                                    \
        size_t per = ((size_t)1 << w) - 1;                                                         \
        cz_bls12381_##G##_affine *t = malloc(nwin * per * sizeof *t);                              \
        cz_bls12381_##G##_jacobian *row = malloc(per * sizeof *row), base = *p;                    \
        if (t == NULL || row == NULL) {                                                            \
            free(t);                                                                               \
            free(row);                                                                             \
            return NULL;                                                                           \
        }                                                                                          \
        for (unsigned j = 0; j < nwin; j++) {                                                      \
            row[0] = base;                                                                         \
            for (size_t d = 1; d < per; d++)                                                       \
                cz_bls12381_##G##_add(&row[d], &row[d - 1], &base);                                \
            cz_bls12381_##G##_batch_to_affine(t + j * per, row, per);                              \
            for (unsigned b = 0; b < w; b++)                                                       \
                cz_bls12381_##G##_dbl(&base, &base);                                               \
        }                                                                                          \
        free(row);                                                                                 \
        return t;                                                                                  \
    }                                                                                              \
                                                                                                   \
    /* n scalars through the GPU; the CPU checks those at the indices in check (all when NULL). */ \
    static void G##_check(const cz_bls12381_##G##_jacobian *p, unsigned w, size_t n,               \
                          size_t ncheck) {                                                         \
        unsigned nwin = (255 + w - 1) / w;                                                         \
        cz_bls12381_##G##_affine *t = G##_table(p, w, nwin), *out = malloc(n * sizeof *out);       \
        cz_bls12381_fr *k = malloc(n * sizeof *k);                                                 \
        cz_errinfo ei;                                                                             \
        size_t bad = 0;                                                                            \
        if (!CHECK(t != NULL && out != NULL && k != NULL))                                         \
            goto out;                                                                              \
        for (size_t i = 0; i < n; i++)                                                             \
            scalar_at(&k[i], i, w);                                                                \
        if (!CHECK_ERR(cz_bls12381_gpu_##G##_fixed_mul(out, t, w, nwin, k, n, 0, &ei), CZ_OK))     \
            goto out;                                                                              \
        for (size_t c = 0; c < ncheck && c < n; c++) {                                             \
            /* the first half of the checks from the front, the rest from the back */              \
            size_t i = c < ncheck / 2 ? c : n - 1 - (c - ncheck / 2);                              \
            cz_bls12381_##G##_jacobian e;                                                          \
            cz_bls12381_##G##_affine ea;                                                           \
            cz_bls12381_##G##_mul(&e, p, &k[i]);                                                   \
            cz_bls12381_##G##_to_affine(&ea, &e);                                                  \
            if (memcmp(&ea, &out[i], sizeof ea) != 0 && bad++ == 0)                                \
                printf("  " #G " w %u n %zu: point %zu differs from the CPU's\n", w, n, i);        \
        }                                                                                          \
        CHECK_EQ_U64(bad, 0);                                                                      \
        printf(#G ": w = %u, %zu points, %zu checked against the CPU\n", w, n,                     \
               ncheck < n ? ncheck : n);                                                           \
        /* bad layouts */                                                                          \
        CHECK_ERR(cz_bls12381_gpu_##G##_fixed_mul(out, t, 0, nwin, k, n, 0, &ei), CZ_EINVAL);      \
        CHECK_ERR(cz_bls12381_gpu_##G##_fixed_mul(out, t, 17, nwin, k, n, 0, &ei), CZ_EINVAL);     \
        CHECK_ERR(cz_bls12381_gpu_##G##_fixed_mul(out, t, w, nwin - 1, k, n, 0, &ei), CZ_EINVAL);  \
        CHECK_ERR(cz_bls12381_gpu_##G##_fixed_mul(out, t, w, nwin + 300 / w, k, n, 0, &ei),        \
                  CZ_EINVAL);                                                                      \
    out:                                                                                           \
        free(t);                                                                                   \
        free(out);                                                                                 \
        free(k);                                                                                   \
    }                                                                                              \
                                                                                                   \
    static void G##_tests(void) {                                                                  \
        cz_bls12381_##G##_affine ga;                                                               \
        cz_bls12381_##G##_jacobian g, p;                                                           \
        cz_bls12381_fr seven;                                                                      \
        cz_bls12381_##G##_generator(&ga);                                                          \
        cz_bls12381_##G##_from_affine(&g, &ga);                                                    \
        cz_bls12381_fr_from_u64(&seven, 7);                                                        \
        cz_bls12381_##G##_mul(&p, &g, &seven);                                                     \
        G##_check(&g, 4, 300, 300);                                                                \
        G##_check(&p, 5, 1000, 200);                                                               \
        G##_check(&g, 13, 5000, 100);                                                              \
    }

GROUP_TESTS(g1)
GROUP_TESTS(g2)

/* Across the rounds: 2^22 + 37 points, checked at both ends (the last round is short). */
static void test_rounds(void) {
    cz_bls12381_g1_affine ga;
    cz_bls12381_g1_jacobian g;
    cz_bls12381_g1_generator(&ga);
    cz_bls12381_g1_from_affine(&g, &ga);
    g1_check(&g, 14, ((size_t)1 << 22) + 37, 120);
}

/* The key of the test circuit of m rows on both backends. */
static void check_setup(uint32_t m) {
    cz_r1cs cs;
    cz_bellperson_params c = {0}, g = {0};
    cz_groth16_trapdoor td;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    cz_groth16_trapdoor_from_seed(&td, (const uint8_t *)"gpu setup", 9);
    if (!CHECK(bptc_build(&cs, m, &ei) == CZ_OK))
        return;
    if (CHECK_ERR(cz_groth16_setup_bellperson(&c, &cs, &td, pool, -1, &ei), CZ_OK) &&
        CHECK_ERR(cz_groth16_setup_bellperson(&g, &cs, &td, pool, 0, &ei), CZ_OK)) {
        printf("setup: %u rows, domain %u, |L| %u, |A| %u, |B| %u\n", m, c.nh + 1, c.nl, c.na,
               c.nb_g1);
        CHECK(cz_bellperson_params_equal(&c, &g));
        CHECK(c.nh > 0 && c.nb_g2 > 0); /* the key is not empty */
    }
    cz_bellperson_params_free(&c);
    cz_bellperson_params_free(&g);
    cz_r1cs_free(&cs);
}

static void test_fixed_g1(void) {
    g1_tests();
}

static void test_fixed_g2(void) {
    g2_tests();
}

static void test_setup_small(void) {
    check_setup(20);
    check_setup(700);
}

static void test_setup_larger(void) {
    check_setup(5000);
}

static int setup(void) {
    if (gpu_have_device() != 0)
        return TEST_SKIP;
    CZ_ASSERT(cz_threadpool_create(&pool, 0, NULL) == CZ_OK);
    return 0;
}

static void teardown(void) {
    cz_threadpool_destroy(pool);
}

static const test_case cases[] = {
    {"fixed_g1", test_fixed_g1},       {"fixed_g2", test_fixed_g2},         {"rounds", test_rounds},
    {"setup_small", test_setup_small}, {"setup_larger", test_setup_larger},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
