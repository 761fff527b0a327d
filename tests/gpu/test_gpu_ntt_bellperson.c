/*
 * The GPU NTT (cuzk/gpu.h) over bellperson's domain (CZ_NTT_ROOTS_BELLPERSON: blstrs's root
 * 7^((r-1) >> 32), coset generator 7), BLS12-381, against the CPU NTT (cuzk/ntt.h) over the same
 * domain: every size 2^1 .. 2^27 (CZ_GPU_TEST_MAX_LOG moves the top), all four transforms, byte
 * for byte on random inputs; device-resident calls; argument checks; at 2^24, outputs against
 * Horner evaluation at ω^k and 7·ω^k with round trips. The device's twiddle cache is keyed by the
 * roots: snarkjs's and bellperson's domains of one size, used in turn, each still give the CPU's
 * results. bellperson's h (the quotient of cz_bls12381_gpu_ntt_quotient_dev) against the CPU's
 * transforms. BN254 has no bellperson domain and refuses it. Exits 77 without a GPU.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/field.h"
#include "cuzk/gpu.h"
#include "cuzk/ntt.h"
#include "cuzk/threadpool.h"
#include "gpu_test_util.h"
#include "test.h"

#define TSTR_(x) #x
#define TSTR(x)  TSTR_(x)

#define TC bls12381
#include "gpu_ntt_test_impl.h"
#undef TC

static cz_threadpool *pool;
static unsigned max_log;

static int setup(void) {
    if (gpu_have_device() != 0)
        return TEST_SKIP;
    max_log = gpu_test_max_log(27, 1);
    CZ_ASSERT(cz_threadpool_create(&pool, 0, NULL) == CZ_OK);
    return 0;
}

static void teardown(void) {
    cz_threadpool_destroy(pool);
}

/* Every size up to max_log, all four kinds, against the CPU. */
static void test_all_sizes(void) {
    test_ntt_bls12381(pool, max_log, CZ_NTT_ROOTS_BELLPERSON, 1);
}

/* Against Horner evaluation, independent of the CPU NTT, where the GPU uses three passes. */
static void test_horner24(void) {
    if (max_log >= 24)
        test_ntt_big_bls12381(24, CZ_NTT_ROOTS_BELLPERSON, 3);
}

/* Both domains of one size in turn on the device, from an empty cache: a cache that mixed them
 * up would hand one domain's tables to the other. The coset transforms of the two differ at
 * every size (generators w[k+1] and 7); the plain ones from 2^3 up (their 2nd and 4th roots of
 * unity coincide). */
static void test_cache_by_roots(void) {
    unsigned top = max_log < 20 ? max_log : 20;
    size_t n = (size_t)1 << top;
    cz_bls12381_fr *a = malloc(n * sizeof *a), *cpu = malloc(n * sizeof *a),
                   *gpu = malloc(n * sizeof *a), *other = malloc(n * sizeof *a);
    CZ_ASSERT(a && cpu && gpu && other);
    CHECK(cz_gpu_release(0, NULL) == CZ_OK);
    for (unsigned log_n = 1; log_n <= top; log_n++) {
        if (log_n > 12 && log_n != top)
            continue;
        test_ntt_size_bls12381(a, cpu, gpu, log_n, CZ_NTT_ROOTS_SNARKJS, pool);
        test_ntt_size_bls12381(a, cpu, gpu, log_n, CZ_NTT_ROOTS_BELLPERSON, pool);
        test_ntt_size_bls12381(a, cpu, gpu, log_n, CZ_NTT_ROOTS_SNARKJS, pool);
        if (log_n >= 3) { /* the same input gives different outputs over the two domains */
            size_t m = (size_t)1 << log_n;
            for (size_t i = 0; i < m; i++)
                gpu_random_fr_limbs(a[i].l);
            memcpy(other, a, m * sizeof *a);
            CHECK(cz_bls12381_gpu_ntt(a, log_n, CZ_NTT_ROOTS_BELLPERSON, CZ_GPU_NTT_FORWARD, 0,
                                      NULL) == CZ_OK);
            CHECK(cz_bls12381_gpu_ntt(other, log_n, CZ_NTT_ROOTS_SNARKJS, CZ_GPU_NTT_FORWARD, 0,
                                      NULL) == CZ_OK);
            CHECK(memcmp(a, other, m * sizeof *a) != 0);
        }
    }
    free(a);
    free(cpu);
    free(gpu);
    free(other);
}

/* bellperson's h, the quotient the GPU prover takes (cz_bls12381_gpu_ntt_quotient_dev), against
 * the CPU's transforms up to 2^max_log. */
static void test_quotient(void) {
    test_ntt_quotient_bls12381(pool, max_log, CZ_NTT_ROOTS_BELLPERSON);
}

/* bellperson defines no BN254 domain: host and device calls refuse it before any work. */
static void test_bn254_refused(void) {
    cz_bn254_fr a[16];
    cz_errinfo ei;
    memset(a, 0, sizeof a);
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_bn254_gpu_ntt(a, 4, CZ_NTT_ROOTS_BELLPERSON, CZ_GPU_NTT_FORWARD, 0, &ei),
              CZ_EUNSUPPORTED);
    CHECK(strstr(ei.msg, "bellperson") != NULL);
    CHECK_ERR(
        cz_bn254_gpu_ntt_dev(NULL, 4, CZ_NTT_ROOTS_BELLPERSON, CZ_GPU_NTT_COSET_FORWARD, 0, NULL),
        CZ_EUNSUPPORTED);
    CHECK_ERR(cz_bn254_gpu_ntt_quotient_dev(a, a + 4, a + 8, 2, CZ_NTT_ROOTS_BELLPERSON, 0, NULL),
              CZ_EUNSUPPORTED);
}

static const test_case cases[] = {
    {"all_sizes", test_all_sizes},           {"horner24", test_horner24},
    {"cache_by_roots", test_cache_by_roots}, {"quotient", test_quotient},
    {"bn254_refused", test_bn254_refused},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
