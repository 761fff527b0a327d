/*
 * The GPU NTT (cuzk/gpu.h) against the CPU NTT (cuzk/ntt.h), both curves, all four transforms,
 * sizes 2^1 .. 2^16 and 2^18, 2^20 (CZ_GPU_TEST_MAX_LOG overrides the top), byte-for-byte equal
 * on random inputs; device-resident calls; argument checks. Then 2^24 and 2^CZ_GPU_TEST_BIG_LOG
 * (default 27; 0 skips both) against Horner evaluation at a few indices, with round trips (see
 * test_ntt_big_*). All of it for every variant: CZ_GPU_NTT_VARIANT=1 (the radix-2 kernels), =2
 * (gpu_ntt2.cu), =6, 7, 8 (the radix-2 kernels with lazy reduction and twiddles in shared memory,
 * 7 with the even/odd multiplication, 8 with Shoup's, 9 = 7 with two stages per shared-memory
 * round trip; CZ_GPU_TEST_NTT_VARIANTS limits the list);
 * variant 2 once more up to 2^16 with 2^6-element passes (CZ_GPU_NTT2_MAX_S=6, so 2 and 3 passes
 * at small sizes); then variant 2 against variant 1 byte for byte at 2^22..2^24
 * (up to the big size), all kinds. Exits 77 without a GPU.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
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

static const char *cur_variant = "1";

#define TC bn254
#include "gpu_ntt_test_impl.h"
#undef TC
#define TC bls12381
#include "gpu_ntt_test_impl.h"
#undef TC

/* Every check of one variant (CZ_GPU_NTT_VARIANT = v). */
static void run_variant(const char *v, cz_threadpool *pool, unsigned max_log, unsigned big) {
    cur_variant = v;
    setenv("CZ_GPU_NTT_VARIANT", v, 1);
    printf("CZ_GPU_NTT_VARIANT=%s\n", v);
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
}

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
    /* CZ_GPU_TEST_NTT_VARIANTS (e.g. "16") limits the variants of the full checks. */
    env = getenv("CZ_GPU_TEST_NTT_VARIANTS");
    for (const char *v = "126789"; *v != '\0'; v++) {
        char name[2] = {*v, '\0'};
        if (env == NULL || strchr(env, *v) != NULL)
            run_variant(name, pool, max_log, big);
    }
    /* Variant 2 with passes of at most 2^6 elements: multi-pass schedules at small sizes. */
    setenv("CZ_GPU_NTT2_MAX_S", "6", 1);
    cur_variant = "2 (max_s 6)";
    test_ntt_bn254(pool, max_log < 16 ? max_log : 16);
    test_ntt_bls12381(pool, max_log < 16 ? max_log : 16);
    unsetenv("CZ_GPU_NTT2_MAX_S");
    for (unsigned log_n = 22; log_n <= (big < 24 ? big : 24); log_n++) {
        test_ntt_variants_bn254(log_n);
        test_ntt_variants_bls12381(log_n);
    }
    unsetenv("CZ_GPU_NTT_VARIANT");
    cz_threadpool_destroy(pool);
    return test_finish();
}
