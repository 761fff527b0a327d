/*
 * The GPU NTT (cuzk/gpu.h) against the CPU NTT (cuzk/ntt.h) over snarkjs's domains (bellperson's
 * are test_gpu_ntt_bellperson.c's), both curves, all four transforms, sizes 2^1 .. 2^16 and
 * 2^18, 2^20 (CZ_GPU_TEST_MAX_LOG overrides the top), byte-for-byte equal on random inputs;
 * device-resident calls; argument checks; the quotient of a QAP (cz_<curve>_gpu_ntt_quotient_dev)
 * against the CPU's transforms up to the same top. Then 2^24 and 2^CZ_GPU_TEST_BIG_LOG (default 27;
 * 0 skips both) against Horner evaluation at a few indices, with round trips (see test_ntt_big_*).
 * Exits 77 without a GPU.
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

#define TC bn254
#include "gpu_ntt_test_impl.h"
#undef TC
#define TC bls12381
#include "gpu_ntt_test_impl.h"
#undef TC

static cz_threadpool *pool;
static unsigned max_log, big;

static int setup(void) {
    const char *env = getenv("CZ_GPU_TEST_BIG_LOG");
    if (gpu_have_device() != 0)
        return TEST_SKIP;
    max_log = gpu_test_max_log(20, 1);
    big = env != NULL ? (unsigned)atoi(env) : 27;
    CZ_ASSERT(cz_threadpool_create(&pool, 0, NULL) == CZ_OK);
    return 0;
}

static void teardown(void) {
    cz_threadpool_destroy(pool);
}

static void test_bn254(void) {
    test_ntt_bn254(pool, max_log, CZ_NTT_ROOTS_SNARKJS, 0);
}
static void test_bls12381(void) {
    test_ntt_bls12381(pool, max_log, CZ_NTT_ROOTS_SNARKJS, 0);
}
static void test_quotient(void) {
    test_ntt_quotient_bn254(pool, max_log, CZ_NTT_ROOTS_SNARKJS);
    test_ntt_quotient_bls12381(pool, max_log, CZ_NTT_ROOTS_SNARKJS);
}
static void test_big24(void) {
    if (big >= 24) {
        test_ntt_big_bn254(24, CZ_NTT_ROOTS_SNARKJS, 4);
        test_ntt_big_bls12381(24, CZ_NTT_ROOTS_SNARKJS, 4);
    }
}
static void test_big(void) {
    if (big > 24) {
        test_ntt_big_bn254(big, CZ_NTT_ROOTS_SNARKJS, 2);
        test_ntt_big_bls12381(big, CZ_NTT_ROOTS_SNARKJS, 2);
    }
}

static const test_case cases[] = {{"bn254", test_bn254},
                                  {"bls12381", test_bls12381},
                                  {"quotient", test_quotient},
                                  {"big24", test_big24},
                                  {"big", test_big}};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
