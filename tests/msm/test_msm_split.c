/*
 * Tests of the MSM 0/1 split (src/msm/msm_split_impl.h) for the four groups: bit-heavy, all-one,
 * all-zero, edge and uniform scalars over plain, half-infinity, 3/4-infinity and repeated/negated
 * bases, n in {0, 1, 2, 3, 100, 4096}, split forced on, off and automatic, against the naive sum
 * (n <= 100) or the Pippenger core without GLV and split (n = 4096).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/msm.h"
#include "curve/ec.h"
#include "msm/msm.h"
#include "test.h"

static uint64_t test_seed = 0x73706c69742d6d73ULL;

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
#define T_AFF    cz_bls12381_g1_affine
#define T_JAC    cz_bls12381_g1_jacobian
#include "msm/test_msm_split_impl.h"

#define T_G      bls12381_g2
#define T_EXPORT cz_bls12381_g2
#define T_FR     bls12381_fr
#define T_FR_T   cz_bls12381_fr
#define T_FR_P   BLS12381_FR_P
#define T_AFF    cz_bls12381_g2_affine
#define T_JAC    cz_bls12381_g2_jacobian
#include "msm/test_msm_split_impl.h"

#define T_G      bn254_g1
#define T_EXPORT cz_bn254_g1
#define T_FR     bn254_fr
#define T_FR_T   cz_bn254_fr
#define T_FR_P   BN254_FR_P
#define T_AFF    cz_bn254_g1_affine
#define T_JAC    cz_bn254_g1_jacobian
#include "msm/test_msm_split_impl.h"

#define T_G      bn254_g2
#define T_EXPORT cz_bn254_g2
#define T_FR     bn254_fr
#define T_FR_T   cz_bn254_fr
#define T_FR_P   BN254_FR_P
#define T_AFF    cz_bn254_g2_affine
#define T_JAC    cz_bn254_g2_jacobian
#include "msm/test_msm_split_impl.h"

static cz_threadpool *pool;

static int setup(void) {
    /* Three threads on two cores: uneven chunk hand-out is part of what is tested. */
    return CHECK_ERR(cz_threadpool_create(&pool, 3, NULL), CZ_OK) ? 0 : 1;
}

static void teardown(void) {
    cz_threadpool_destroy(pool);
}

static void test_bls12381_g1(void) {
    test_split_bls12381_g1_all(pool);
}

static void test_bls12381_g2(void) {
    test_split_bls12381_g2_all(pool);
}

static void test_bn254_g1(void) {
    test_split_bn254_g1_all(pool);
}

static void test_bn254_g2(void) {
    test_split_bn254_g2_all(pool);
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
