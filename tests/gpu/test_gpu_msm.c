/*
 * The GPU G1 MSM (cuzk/gpu.h) for both curves: against the CPU MSM for n = 1 .. 2^14 (random
 * bases with infinities, edge scalars 0, 1, r-1, all-zero scalars, repeated and opposite bases,
 * a skewed scalar set, the 0/1 split forced on and off), and against [Σ s_i·(a + i·d)]G for
 * GPU-made bases [a + i·d]G at 2^16, 2^18 .. 2^24 (CZ_GPU_TEST_MAX_LOG overrides the top; 25, 26,
 * 27 are then run one by one); device-resident scalars; curve and size checks. Again with window
 * layouts forced through cz_tuning (12 and 14 windows, 8-bit windows) at smaller sizes.
 * Exits 77 without a GPU.
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

int main(void) {
    cz_threadpool *pool = NULL;
    unsigned max_log = 24;
    const char *env = getenv("CZ_GPU_TEST_MAX_LOG");
    gpu_require_device();
    if (env != NULL && atoi(env) > 0)
        max_log = (unsigned)atoi(env);
    CZ_ASSERT(cz_threadpool_create(&pool, 0, NULL) == CZ_OK);
    /* The derived windows up to max_log, then 12 and 14 windows (uneven widths: 21/22 and
     * 18/19 bits for BLS12-381) and 8-bit windows forced through the tuning, at smaller sizes. */
    {
        static const struct {
            unsigned windows, bits, top;
        } var[] = {{0, 0, 0}, {12, 0, 18}, {14, 0, 18}, {0, 8, 16}};
        for (size_t v = 0; v < sizeof var / sizeof var[0]; v++) {
            unsigned ml = var[v].top != 0 && var[v].top < max_log ? var[v].top : max_log;
            unsigned long failed = test_failed_count;
            cz_tuning tu = {0};
            tu.gpu_msm_windows = var[v].windows;
            tu.gpu_msm_window_bits = var[v].bits;
            CZ_ASSERT(cz_tuning_set(&tu, NULL) == CZ_OK);
            test_msm_bn254(pool, 14, ml);
            test_msm_bls12381(pool, 14, ml);
            printf("windows %u, window bits %u (0: derived) up to 2^%u: %lu failures\n",
                   var[v].windows, var[v].bits, ml, test_failed_count - failed);
        }
        CZ_ASSERT(cz_tuning_set(NULL, NULL) == CZ_OK);
    }
    /* a handle of one curve is refused by the other curve's MSM */
    {
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
    cz_threadpool_destroy(pool);
    return test_finish();
}
