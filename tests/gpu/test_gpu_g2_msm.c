/*
 * The GPU G2 MSM (cuzk/gpu.h) for both curves, with the checks of the G1 test
 * (gpu_msm_test_impl.h with TG = g2): against the CPU cz_<curve>_g2_msm for n = 1 .. 2^16
 * (random bases with infinities, edge scalars 0, 1, r-1, all-zero scalars, repeated and opposite
 * bases, a skewed scalar set, bit-heavy sets of 98.7 % zeros and ones with the 0/1 split forced on
 * and off), and against [Σ s_i·(a + i·d)]G2 for GPU-made bases [a + i·d]G2 (the progression API)
 * at 2^16, 2^18 and 2^20 (CZ_GPU_TEST_MAX_LOG overrides the top), the bit-heavy sets with the
 * split on, off and automatic at 2^20; device-resident scalars. Then 12 and 14 windows and
 * 15-bit windows forced through cz_tuning against the CPU up to 2^12, the derived checks again with
 * the batch-affine accumulation forced (cz_tuning.gpu_msm_accumulation; the default takes it only
 * where every stream gets many pairs, above these sizes) and with 12 windows up to 2^12, the ones
 * sum over 2^23 repeated and opposite points (ones_rounds), and group/curve checks: a G1 handle is
 * refused by the G2 MSM and the other way round. Exits 77 without a GPU.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/curve.h"
#include "cuzk/field.h"
#include "cuzk/gpu.h"
#include "cuzk/msm.h"
#include "cuzk/threadpool.h"
#include "cuzk/tuning.h"
#include "gpu_test_util.h"
#include "test.h"

#define TSTR_(x) #x
#define TSTR(x)  TSTR_(x)

#define TG g2
#define TC bn254
#include "gpu_msm_test_impl.h"
#undef TC
#define TC bls12381
#include "gpu_msm_test_impl.h"
#undef TC
#undef TG

/* A G1 handle is refused by the G2 MSM, a G2 handle by the G1 MSM and by the other curve. */
static void test_group_checks(void) {
    cz_bn254_g1_affine p1;
    cz_bn254_g2_affine p2;
    cz_bn254_g1_jacobian r1;
    cz_bn254_g2_jacobian r2;
    cz_bls12381_g2_jacobian rb;
    cz_bn254_fr s;
    cz_bls12381_fr sb;
    cz_gpu_bases *b1 = NULL, *b2 = NULL;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    cz_bn254_g1_generator(&p1);
    cz_bn254_g2_generator(&p2);
    cz_bn254_fr_one(&s);
    cz_bls12381_fr_one(&sb);
    CHECK(cz_bn254_gpu_g1_bases_upload(&b1, &p1, 1, 0, NULL) == CZ_OK);
    CHECK(cz_bn254_gpu_g2_bases_upload(&b2, &p2, 1, 0, NULL) == CZ_OK);
    CHECK(cz_bn254_gpu_g2_msm(&r2, b1, &s, 1, &ei) == CZ_ECURVE);
    printf("G1 handle to the G2 MSM: %s\n", ei.msg);
    CHECK(cz_bn254_gpu_g1_msm(&r1, b2, &s, 1, NULL) == CZ_ECURVE);
    CHECK(cz_bls12381_gpu_g2_msm(&rb, b2, &sb, 1, NULL) == CZ_ECURVE);
    /* and the right group gives the generator back */
    CHECK(cz_bn254_gpu_g2_msm(&r2, b2, &s, 1, NULL) == CZ_OK);
    {
        cz_bn254_g2_jacobian g;
        cz_bn254_g2_from_affine(&g, &p2);
        CHECK(cz_bn254_g2_eq(&g, &r2));
    }
    cz_gpu_bases_free(b1);
    cz_gpu_bases_free(b2);
}

static cz_threadpool *pool;
static unsigned max_log;

static int setup(void) {
    if (gpu_have_device() != 0)
        return TEST_SKIP;
    max_log = gpu_test_max_log(20, 1);
    CZ_ASSERT(cz_threadpool_create(&pool, 0, NULL) == CZ_OK);
    return 0;
}

static void teardown(void) {
    cz_threadpool_destroy(pool);
}

static void test_derived(void) {
    test_msm_bn254(pool, 16, max_log);
    test_msm_bls12381(pool, 16, max_log);
}

/* the checks of both curves up to 2^top with windows (0: derived) or window bits (0: derived)
 * and the accumulation acc forced through the tuning */
static void run_tuned_bits(unsigned windows, unsigned bits, cz_acc_mode acc, unsigned top) {
    cz_tuning tu = {0};
    tu.gpu_msm_windows = windows;
    tu.gpu_msm_window_bits = bits;
    tu.gpu_msm_accumulation = acc;
    CZ_ASSERT(cz_tuning_set(&tu, NULL) == CZ_OK);
    test_msm_bn254(pool, top < 16 ? top : 16, top);
    test_msm_bls12381(pool, top < 16 ? top : 16, top);
    CZ_ASSERT(cz_tuning_set(NULL, NULL) == CZ_OK);
}
static void run_tuned(unsigned windows, cz_acc_mode acc, unsigned top) {
    run_tuned_bits(windows, 0, acc, top);
}
/* window layouts: 12 and 14 windows (uneven widths), to 2^12; 15-bit windows (what 2^21 G2
 * scalars get) to 2^12 */
static void test_windows12(void) {
    run_tuned(12, CZ_ACC_AUTO, 12);
}
static void test_windows14(void) {
    run_tuned(14, CZ_ACC_AUTO, 12);
}
static void test_bits15(void) {
    run_tuned_bits(0, 15, CZ_ACC_AUTO, 12);
}
static void test_batch_affine(void) {
    run_tuned(0, CZ_ACC_BATCH_AFFINE, max_log);
    run_tuned(12, CZ_ACC_BATCH_AFFINE, 12);
}

/* the ones sum (lane pairs, mixed additions) over rounds of repeated and opposite points */
static void test_ones_rounds(void) {
    test_ones_rounds_bn254();
    test_ones_rounds_bls12381();
}

static const test_case cases[] = {
    {"derived", test_derived},           {"windows12", test_windows12},
    {"windows14", test_windows14},       {"bits15", test_bits15},
    {"batch_affine", test_batch_affine}, {"ones_rounds", test_ones_rounds},
    {"group_checks", test_group_checks}};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
