/*
 * Helpers shared by the GPU tests: the no-GPU skip, a seeded PRNG, random field elements, and
 * the tuning fields the tests force (cz_tuning, set for the checks that follow).
 */
#ifndef CUZK_TESTS_GPU_UTIL_H
#define CUZK_TESTS_GPU_UTIL_H

#include <stdint.h>
#include <stdio.h>

#include "cuzk/gpu.h"
#include "cuzk/tuning.h"
#include "test.h"

static uint64_t gpu_prng_state = 0x243f6a8885a308d3ULL;

/* splitmix64 */
static inline uint64_t gpu_prng_next(void) {
    uint64_t z = (gpu_prng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Random 4-limb Montgomery representation below 2^252 (< r for both curves, so valid). */
static inline void gpu_random_fr_limbs(uint64_t *l) {
    for (int i = 0; i < 4; i++)
        l[i] = gpu_prng_next();
    l[3] &= 0x0fffffffffffffffULL;
}

/* 0 when a CUDA device is present (and prints it), else TEST_SKIP: a test set-up's first step. */
static inline int gpu_have_device(void) {
    int count = 0;
    cz_gpu_info info;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (cz_gpu_device_count(&count, &ei) != CZ_OK || count == 0) {
        printf("skipped: %s\n", ei.msg);
        return TEST_SKIP;
    }
    if (cz_gpu_device_info(&info, 0, &ei) == CZ_OK)
        printf("device 0: %s, cc %d.%d, %d SMs, %zu MiB\n", info.name, info.cc_major, info.cc_minor,
               info.multiprocessors, info.global_mem >> 20);
    return 0;
}

/* CZ_GPU_TEST_MAX_LOG when set to at least lo, else dflt: the largest size a test runs. */
static inline unsigned gpu_test_max_log(unsigned dflt, unsigned lo) {
    const char *env = getenv("CZ_GPU_TEST_MAX_LOG");
    return env != NULL && atoi(env) >= (int)lo ? (unsigned)atoi(env) : dflt;
}

/* The 0/1 split of the MSMs for the checks that follow (CZ_SPLIT_AUTO restores the default). */
static inline void gpu_tune_split(cz_split_mode m) {
    cz_tuning tu;
    cz_tuning_get(&tu);
    tu.msm_split = m;
    CZ_ASSERT(cz_tuning_set(&tu, NULL) == CZ_OK);
}

/* Sparse compaction of GPU bases uploaded from now on. */
static inline void gpu_tune_compact(cz_compact_mode m) {
    cz_tuning tu;
    cz_tuning_get(&tu);
    tu.gpu_bases_compact = m;
    CZ_ASSERT(cz_tuning_set(&tu, NULL) == CZ_OK);
}

#endif
