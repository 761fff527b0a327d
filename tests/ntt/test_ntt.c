/*
 * Tests of the CPU NTT (cuzk/ntt.h) for both curves over snarkjs's domains, and for BLS12-381 over
 * bellperson's: every transform against the O(n²) DFT for n <= 2^8 (also with small tiles, so
 * that several stage groups run), against the BigInt DFT of tests/vectors/ntt_vectors.mjs
 * (tests/vectors/out/ntt_vectors.txt, made by `make vectors`; missing vectors fail that case),
 * Horner spot checks and round trips at 2^14 and 2^16, the roots, coset generators and Z on the
 * coset against GMP, ffjavascript's published values and blstrs's ROOT_OF_UNITY, threaded =
 * single-threaded; BN254 refuses bellperson's domain.
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

/* bellperson's domain: blstrs's Scalar::ROOT_OF_UNITY (published canonical value), the chain
 * against GMP's 7^((r-1) >> 32), generator 7 and Z = 7^n - 1. */
static void test_roots_bellperson(void) {
    cz_bls12381_fr w, g, t;
    check_roots_bls12381(CZ_NTT_ROOTS_BELLPERSON, 7);
    CHECK(cz_bls12381_ntt_root_of_unity(&w, 32, CZ_NTT_ROOTS_BELLPERSON) == CZ_OK &&
          eq_hex_bls12381(&w, "16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b"));
    /* not snarkjs's: its w[32] is 5^((r-1) >> 32) */
    CHECK(cz_bls12381_ntt_root_of_unity(&t, 32, CZ_NTT_ROOTS_SNARKJS) == CZ_OK &&
          !cz_bls12381_fr_eq(&w, &t));
    cz_bls12381_fr_from_u64(&t, 7);
    for (unsigned k = 0; k <= 32; k += 8)
        CHECK(cz_bls12381_ntt_coset_gen(&g, k, CZ_NTT_ROOTS_BELLPERSON) == CZ_OK &&
              cz_bls12381_fr_eq(&g, &t));
    CHECK_EQ_STR(cz_ntt_roots_name(CZ_NTT_ROOTS_BELLPERSON), "bellperson");
    CHECK_EQ_STR(cz_ntt_roots_name(CZ_NTT_ROOTS_SNARKJS), "snarkjs");
    CHECK_EQ_STR(cz_ntt_roots_name((cz_ntt_roots)CZ_NTT_ROOTS_COUNT), "?");
}

/* bellperson defines no BN254 domain: every entry point says so. */
static void test_bn254_no_bellperson(void) {
    cz_bn254_fr x;
    cz_bn254_ntt_domain *dom = NULL;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_bn254_ntt_root_of_unity(&x, 4, CZ_NTT_ROOTS_BELLPERSON), CZ_EUNSUPPORTED);
    CHECK_ERR(cz_bn254_ntt_coset_gen(&x, 4, CZ_NTT_ROOTS_BELLPERSON), CZ_EUNSUPPORTED);
    CHECK_ERR(cz_bn254_ntt_coset_z(&x, 4, CZ_NTT_ROOTS_BELLPERSON), CZ_EUNSUPPORTED);
    CHECK(cz_bn254_ntt_domain_create(&dom, 4, CZ_NTT_ROOTS_BELLPERSON, NULL, &ei) ==
              CZ_EUNSUPPORTED &&
          dom == NULL);
    CHECK_ERR(ei.code, CZ_EUNSUPPORTED);
    CHECK(strstr(ei.msg, "bellperson") != NULL);
}

static void test_small(void) {
    test_small_bn254(NULL, CZ_NTT_ROOTS_SNARKJS);
    test_small_bls12381(NULL, CZ_NTT_ROOTS_SNARKJS);
    test_small_bn254(pool, CZ_NTT_ROOTS_SNARKJS);
    test_small_bls12381(NULL, CZ_NTT_ROOTS_BELLPERSON);
    test_small_bls12381(pool, CZ_NTT_ROOTS_BELLPERSON);
}

/* Smaller tiles: n <= 2^8 then runs 2 to 4 stage groups, still against the O(n²) DFT. */
static void test_small_tiles(void) {
    for (unsigned tile = 4; tile <= 5; tile++) {
        cz__ntt_tile_log = tile;
        test_small_bn254(pool, CZ_NTT_ROOTS_SNARKJS);
        test_small_bls12381(pool, CZ_NTT_ROOTS_SNARKJS);
        test_small_bls12381(pool, CZ_NTT_ROOTS_BELLPERSON);
    }
    cz__ntt_tile_log = NTT_TILE_LOG;
}

/* Every domain against the Node vectors, with the default tiles and with 2^4 ones. */
static void test_vectors(void) {
    FILE *f = fopen("tests/vectors/out/ntt_vectors.txt", "r");
    if (!CHECK(f != NULL)) {
        fprintf(stderr, "missing tests/vectors/out/ntt_vectors.txt: run "
                        "node tests/vectors/ntt_vectors.mjs tests/vectors/out\n");
        return;
    }
    test_vectors_bls12381(f, CZ_NTT_ROOTS_BELLPERSON, pool);
    test_vectors_bls12381(f, CZ_NTT_ROOTS_SNARKJS, NULL);
    test_vectors_bn254(f, CZ_NTT_ROOTS_SNARKJS, pool);
    cz__ntt_tile_log = 4;
    test_vectors_bls12381(f, CZ_NTT_ROOTS_BELLPERSON, NULL);
    cz__ntt_tile_log = NTT_TILE_LOG;
    fclose(f);
}

static void test_pointwise(void) {
    test_pointwise_bn254(pool);
    test_pointwise_bls12381(NULL);
}

/* bellperson's h (prover/native.rs): coset_inverse((A_g·B_g - C_g)·Z(g)⁻¹) with X_g =
 * coset_forward(inverse(x)), 7 NTTs, against the provers' 6 (prove_bellperson.c, bp_h):
 * (coset_inverse(A_g·B_g) - inverse(c))·Z(g)⁻¹. Equal for any a, b, c, satisfied or not. */
static void test_h_six_ntts(void) {
    const unsigned log_n = 11;
    const size_t n = (size_t)1 << log_n;
    cz_bls12381_fr *v = malloc(6 * n * sizeof *v), g, z, zinv;
    cz_bls12381_ntt_domain *dom = NULL;
    cz_errinfo ei;
    CZ_ASSERT(v != NULL);
    cz_bls12381_fr *a = v, *b = v + n, *c = v + 2 * n, *x = v + 3 * n, *y = v + 4 * n,
                   *w = v + 5 * n;
    rand_vec_bls12381(a, 3 * n);
    CHECK(cz_bls12381_ntt_domain_create(&dom, log_n, CZ_NTT_ROOTS_BELLPERSON, pool, &ei) == CZ_OK);
    CHECK(cz_bls12381_ntt_coset_gen(&g, log_n, CZ_NTT_ROOTS_BELLPERSON) == CZ_OK);
    CHECK(cz_bls12381_ntt_coset_z(&z, log_n, CZ_NTT_ROOTS_BELLPERSON) == CZ_OK);
    cz_bls12381_fr_inv(&zinv, &z);
    if (dom == NULL)
        goto out;
    /* seven: x, y, w = a, b, c through inverse and coset_forward, then the division on the coset */
    memcpy(x, a, 3 * n * sizeof *v);
    for (int i = 0; i < 3; i++) {
        cz_bls12381_ntt_inverse(x + i * n, dom, pool);
        cz_bls12381_ntt_coset_forward(x + i * n, dom, &g, pool);
    }
    cz_bls12381_ntt_mul_sub(x, x, y, w, n, pool);
    cz_bls12381_ntt_scale(x, x, &zinv, n, pool);
    cz_bls12381_ntt_coset_inverse(x, dom, &g, pool);
    /* six, in place of a, b, c */
    for (int i = 0; i < 3; i++)
        cz_bls12381_ntt_inverse(a + i * n, dom, pool);
    cz_bls12381_ntt_coset_forward(a, dom, &g, pool);
    cz_bls12381_ntt_coset_forward(b, dom, &g, pool);
    cz_bls12381_ntt_mul(a, a, b, n, pool);
    cz_bls12381_ntt_coset_inverse(a, dom, &g, pool);
    cz_bls12381_ntt_sub_scale(a, a, c, &zinv, n, pool);
    CHECK(memcmp(a, x, n * sizeof *v) == 0);
out:
    cz_bls12381_ntt_domain_destroy(dom);
    free(v);
}

/* 2^16: stage groups 12 + 4; 2^14: 12 + 2. */
static void test_large(void) {
    test_large_bn254(16, pool, 1, CZ_NTT_ROOTS_SNARKJS);
    test_large_bls12381(14, pool, 1, CZ_NTT_ROOTS_SNARKJS);
    test_large_bls12381(16, NULL, 0, CZ_NTT_ROOTS_SNARKJS);
    test_large_bls12381(16, pool, 1, CZ_NTT_ROOTS_BELLPERSON);
    test_large_bls12381(14, NULL, 1, CZ_NTT_ROOTS_BELLPERSON);
}

static const test_case cases[] = {
    {"roots_bn254", test_roots_bn254},
    {"roots_bls12381", test_roots_bls12381},
    {"roots_bellperson", test_roots_bellperson},
    {"bn254_no_bellperson", test_bn254_no_bellperson},
    {"small", test_small},
    {"small_tiles", test_small_tiles},
    {"vectors", test_vectors},
    {"pointwise", test_pointwise},
    {"h_six_ntts", test_h_six_ntts},
    {"large", test_large},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
