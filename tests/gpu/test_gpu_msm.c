/*
 * The GPU G1 MSM (cuzk/gpu.h) for both curves: against the CPU MSM for n = 1 .. 2^14 (random
 * bases with infinities, edge scalars 0, 1, r-1, all-zero scalars, repeated and opposite bases,
 * a skewed scalar set, the 0/1 split forced on and off), and against [Σ s_i·(a + i·d)]G for
 * GPU-made bases [a + i·d]G at 2^16, 2^18 .. 2^24 (CZ_GPU_TEST_MAX_LOG overrides the top; 25, 26,
 * 27 are then run one by one); device-resident scalars, with and without lent memory; curve and
 * size checks. Again with window layouts forced through cz_tuning (12 and 14 windows, 8-bit
 * windows) at smaller sizes. The
 * bucket accumulation (cz_tuning.gpu_msm_accumulation): the derived case runs the default (auto)
 * and then madd, the other layouts madd; the batch_affine cases repeat the derived, 12-window and
 * 8-bit runs with batch-affine forced. The ones sum of the split over 2^23 repeated and opposite
 * points with each accumulation (ones_rounds). Exits 77 without a GPU.
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

#define TG g1
#define TC bn254
#include "gpu_msm_test_impl.h"
#undef TC
#define TC bls12381
#include "gpu_msm_test_impl.h"
#undef TC
#undef TG

static cz_threadpool *pool;
static unsigned max_log;

static int setup(void) {
    if (gpu_have_device() != 0)
        return TEST_SKIP;
    max_log = gpu_test_max_log(24, 1);
    CZ_ASSERT(cz_threadpool_create(&pool, 0, NULL) == CZ_OK);
    return 0;
}

static void teardown(void) {
    cz_threadpool_destroy(pool);
}

/* Every check of both curves with a window layout forced through the tuning (0, 0: derived),
 * up to 2^top (0: max_log), with the accumulation acc. */
static void run_layout(unsigned windows, unsigned bits, unsigned top, cz_acc_mode acc) {
    unsigned ml = top != 0 && top < max_log ? top : max_log;
    unsigned long failed = test_failed_count;
    cz_tuning tu = {0};
    tu.gpu_msm_windows = windows;
    tu.gpu_msm_window_bits = bits;
    tu.gpu_msm_accumulation = acc;
    CZ_ASSERT(cz_tuning_set(&tu, NULL) == CZ_OK);
    test_msm_bn254(pool, 14, ml);
    test_msm_bls12381(pool, 14, ml);
    CZ_ASSERT(cz_tuning_set(NULL, NULL) == CZ_OK);
    printf("windows %u, window bits %u (0: derived) up to 2^%u, %s accumulation: %lu failures\n",
           windows, bits, ml, cz_acc_mode_name(acc), test_failed_count - failed);
}

/* the default accumulation (auto: madd for the small sizes, batch-affine for the large), then
 * madd throughout */
static void test_derived(void) {
    run_layout(0, 0, 0, CZ_ACC_AUTO);
    run_layout(0, 0, 0, CZ_ACC_MADD);
}
/* 12 and 14 windows: uneven widths (21/22 and 18/19 bits for BLS12-381) */
static void test_windows12(void) {
    run_layout(12, 0, 18, CZ_ACC_MADD);
}
static void test_windows14(void) {
    run_layout(14, 0, 18, CZ_ACC_MADD);
}
static void test_bits8(void) {
    run_layout(0, 8, 16, CZ_ACC_MADD);
}
static void test_batch_affine(void) {
    run_layout(0, 0, 0, CZ_ACC_BATCH_AFFINE);
}
static void test_batch_affine_windows12(void) {
    run_layout(12, 0, 18, CZ_ACC_BATCH_AFFINE);
}
/* 8-bit windows: 128 buckets a window, so long runs cross many streams and threads */
static void test_batch_affine_bits8(void) {
    run_layout(0, 8, 16, CZ_ACC_BATCH_AFFINE);
}

/* the ones sum over rounds of repeated and opposite points, with each accumulation */
static void test_ones_rounds(void) {
    static const cz_acc_mode accs[] = {CZ_ACC_AUTO, CZ_ACC_MADD, CZ_ACC_BATCH_AFFINE};
    for (int m = 0; m < 3; m++) {
        cz_tuning tu = {0};
        tu.gpu_msm_accumulation = accs[m];
        CZ_ASSERT(cz_tuning_set(&tu, NULL) == CZ_OK);
        test_ones_rounds_bn254();
        test_ones_rounds_bls12381();
    }
    CZ_ASSERT(cz_tuning_set(NULL, NULL) == CZ_OK);
}

/* a handle of one curve is refused by the other curve's MSM */
static void test_curve_mix(void) {
    cz_bn254_g1_affine p;
    cz_bls12381_g1_jacobian r;
    cz_bls12381_fr s;
    cz_gpu_bases *b = NULL;
    cz_bn254_g1_generator(&p);
    cz_bls12381_fr_one(&s);
    CHECK(cz_bn254_gpu_g1_bases_upload(&b, &p, 1, 0, NULL) == CZ_OK);
    CHECK(cz_bls12381_gpu_g1_msm(&r, b, &s, 1, NULL) == CZ_ECURVE);
    cz_gpu_bases_free(b);
}

static const test_case cases[] = {{"derived", test_derived},
                                  {"windows12", test_windows12},
                                  {"windows14", test_windows14},
                                  {"bits8", test_bits8},
                                  {"batch_affine", test_batch_affine},
                                  {"batch_affine_windows12", test_batch_affine_windows12},
                                  {"batch_affine_bits8", test_batch_affine_bits8},
                                  {"ones_rounds", test_ones_rounds},
                                  {"curve_mix", test_curve_mix}};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
