/*
 * Tests of the CPU MSM (cuzk/msm.h) for the four groups: small n against the naive sum, every
 * window width, bucket edge cases (repeated, negated and infinity bases; zero, one, r - 1,
 * repeated and small scalars), unreduced byte scalars, large n against a progression of bases,
 * threaded against single-threaded, and @noble/curves' pippenger
 * (tests/vectors/out/msm_vectors.txt, written by tests/vectors/msm_vectors.mjs; missing vectors
 * fail the test).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/msm.h"
#include "curve/ec.h"
#include "msm/msm.h"
#include "test.h"

static uint64_t test_seed = 0x746573742d6d736dULL;

/* splitmix64: reproducible inputs. */
static uint64_t test_rand64(void) {
    uint64_t z = (test_seed += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

#define T_G      bls12381_g1
#define T_EXPORT cz_bls12381_g1
#define T_FR     bls12381_fr
#define T_FR_T   cz_bls12381_fr
#define T_FR_P   BLS12381_FR_P
#define T_FP     bls12381_fp
#define T_FP_T   cz_bls12381_fp
#define T_AFF    cz_bls12381_g1_affine
#define T_JAC    cz_bls12381_g1_jacobian
#define T_NCOORD 2
#define T_CURVE  "bls12381"
#define T_GROUP  "g1"
#include "msm/test_msm_impl.h"

#define T_G      bls12381_g2
#define T_EXPORT cz_bls12381_g2
#define T_FR     bls12381_fr
#define T_FR_T   cz_bls12381_fr
#define T_FR_P   BLS12381_FR_P
#define T_FP     bls12381_fp
#define T_FP_T   cz_bls12381_fp
#define T_AFF    cz_bls12381_g2_affine
#define T_JAC    cz_bls12381_g2_jacobian
#define T_NCOORD 4
#define T_CURVE  "bls12381"
#define T_GROUP  "g2"
#include "msm/test_msm_impl.h"

#define T_G      bn254_g1
#define T_EXPORT cz_bn254_g1
#define T_FR     bn254_fr
#define T_FR_T   cz_bn254_fr
#define T_FR_P   BN254_FR_P
#define T_FP     bn254_fp
#define T_FP_T   cz_bn254_fp
#define T_AFF    cz_bn254_g1_affine
#define T_JAC    cz_bn254_g1_jacobian
#define T_NCOORD 2
#define T_CURVE  "bn254"
#define T_GROUP  "g1"
#include "msm/test_msm_impl.h"

#define T_G      bn254_g2
#define T_EXPORT cz_bn254_g2
#define T_FR     bn254_fr
#define T_FR_T   cz_bn254_fr
#define T_FR_P   BN254_FR_P
#define T_FP     bn254_fp
#define T_FP_T   cz_bn254_fp
#define T_AFF    cz_bn254_g2_affine
#define T_JAC    cz_bn254_g2_jacobian
#define T_NCOORD 4
#define T_CURVE  "bn254"
#define T_GROUP  "g2"
#include "msm/test_msm_impl.h"

static cz_threadpool *pool;
static FILE *vectors;

static int setup(void) {
    vectors = fopen("tests/vectors/out/msm_vectors.txt", "r");
    if (!CHECK(vectors != NULL)) {
        fprintf(stderr, "missing tests/vectors/out/msm_vectors.txt: run "
                        "node tests/vectors/msm_vectors.mjs tests/vectors/out\n");
        return 1;
    }
    /* Three threads on two cores: uneven task hand-out is part of what is tested. */
    return CHECK_ERR(cz_threadpool_create(&pool, 3, NULL), CZ_OK) ? 0 : 1;
}

static void teardown(void) {
    cz_threadpool_destroy(pool);
    fclose(vectors);
}

static void test_bls12381_g1(void) {
    test_bls12381_g1_run(pool, vectors, (size_t)1 << 12);
}

static void test_bls12381_g2(void) {
    test_bls12381_g2_run(pool, vectors, (size_t)1 << 11);
}

static void test_bn254_g1(void) {
    test_bn254_g1_run(pool, vectors, (size_t)1 << 14);
}

static void test_bn254_g2(void) {
    test_bn254_g2_run(pool, vectors, (size_t)1 << 12);
}

static const test_case cases[] = {
    {"bls12381_g1", test_bls12381_g1},
    {"bls12381_g2", test_bls12381_g2},
    {"bn254_g1", test_bn254_g1},
    {"bn254_g2", test_bn254_g2},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
