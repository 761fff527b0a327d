/*
 * The GPU NTT (cuzk/gpu.h) against the CPU NTT (cuzk/ntt.h), both curves, all four transforms,
 * sizes 2^1 .. 2^16 and 2^18, 2^20 (CZ_GPU_TEST_MAX_LOG overrides the top), byte-for-byte equal
 * on random inputs; device-resident calls; argument checks. Then 2^24 and 2^CZ_GPU_TEST_BIG_LOG
 * (default 27; 0 skips both) against Horner evaluation at a few indices, with round trips (see
 * test_ntt_big_*). Exits 77 without a GPU.
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

int main(void) {
    cz_threadpool *pool = NULL;
    unsigned max_log = 20, big;
    const char *env = getenv("CZ_GPU_TEST_MAX_LOG");
    gpu_require_device();
    if (env != NULL && atoi(env) > 0)
        max_log = (unsigned)atoi(env);
    CZ_ASSERT(cz_threadpool_create(&pool, 0, NULL) == CZ_OK);
    env = getenv("CZ_GPU_TEST_BIG_LOG");
    big = env != NULL ? (unsigned)atoi(env) : 27;
    test_ntt_bn254(pool, max_log);
    test_ntt_bls12381(pool, max_log);
    if (big >= 24) {
        test_ntt_big_bn254(24, 4);
        test_ntt_big_bls12381(24, 4);
    }
    if (big > 24) {
        test_ntt_big_bn254(big, 2);
        test_ntt_big_bls12381(big, 2);
    }
    cz_threadpool_destroy(pool);
    return test_finish();
}
