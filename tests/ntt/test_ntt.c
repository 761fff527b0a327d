/*
 * Tests of the CPU NTT (cuzk/ntt.h) for both curves: every transform against the O(n²) DFT for
 * n <= 2^8 (also with small tiles, so that several stage groups run), Horner spot checks and
 * round trips at 2^14 and 2^16, the roots against GMP and ffjavascript's published values, threaded
 * = single-threaded.
 */
#include <gmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/field.h"
#include "cuzk/ntt.h"
#include "cuzk/threadpool.h"
#include "field/cz_macros.h"
#include "ntt/ntt_common.h"
#include "test.h"

static uint64_t prng_state = 0x9e3779b97f4a7c15ULL;

/* splitmix64 */
static uint64_t prng_next(void) {
    uint64_t z = (prng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Published constants: the moduli, and ffjavascript's roots (research/circom-snarkjs.md §4). */
#define TC     bn254
#define TT     cz_bn254_fr
#define TC_S   28
#define TC_R   "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001"
#define TC_W12 "0931d596de2fd10f01ddd073fd5a90a976f169c76f039bb91c4775720042d43a"
#define TC_W16 "00eeb2cb5981ed45649abebde081dcff16c8601de4347e7dd1628ba2daac43b7"
#define TC_W20 "26125da10a0ed06327508aba06d1e303ac616632dbed349f53422da953337857"
#define TC_WS  "2a3c09f0a58a7e8500e0a7eb8ef62abc402d111e41112ed49bd61b6e725b19f0"
#include "ntt/ntt_test_impl.h"
#undef TC
#undef TT
#undef TC_S
#undef TC_R
#undef TC_W12
#undef TC_W16
#undef TC_W20
#undef TC_WS

#define TC     bls12381
#define TT     cz_bls12381_fr
#define TC_S   32
#define TC_R   "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001"
#define TC_W12 "110cebd0c8e9101be155cb4893f9e9ac565af17137d56fc0450d9f977ea8ee05"
#define TC_W16 "6709c6cd56aa725b0409ee987a02402c0caba63a29c01b06137b458acfc35f7a"
#define TC_W20 "3436287f5f686d91556c35f6537d6971870c46fac2f0fcbd20b53cbe41144dea"
#define TC_WS  "0212d79e5b416b6f0fd56dc8d168d6c0c4024ff270b3e0941b788f500b912f1f"
#include "ntt/ntt_test_impl.h"

static cz_threadpool *pool;

static int setup(void) {
    CZ_ASSERT(cz_threadpool_create(&pool, 2, NULL) == CZ_OK);
    return 0;
}

static void teardown(void) {
    cz_threadpool_destroy(pool);
}

static void test_small(void) {
    test_small_bn254(NULL);
    test_small_bls12381(NULL);
    test_small_bn254(pool);
}

/* Smaller tiles: n <= 2^8 then runs 2 to 4 stage groups, still against the O(n²) DFT. */
static void test_small_tiles(void) {
    for (unsigned tile = 4; tile <= 5; tile++) {
        cz__ntt_tile_log = tile;
        test_small_bn254(pool);
        test_small_bls12381(pool);
    }
    cz__ntt_tile_log = NTT_TILE_LOG;
}

static void test_pointwise(void) {
    test_pointwise_bn254(pool);
    test_pointwise_bls12381(NULL);
}

/* 2^16: stage groups 12 + 4; 2^14: 12 + 2. */
static void test_large(void) {
    test_large_bn254(16, pool, 1);
    test_large_bls12381(14, pool, 1);
    test_large_bls12381(16, NULL, 0);
}

static const test_case cases[] = {
    {"roots_bn254", test_roots_bn254},
    {"roots_bls12381", test_roots_bls12381},
    {"small", test_small},
    {"small_tiles", test_small_tiles},
    {"pointwise", test_pointwise},
    {"large", test_large},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
