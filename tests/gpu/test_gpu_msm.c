/*
 * The GPU G1 MSM (cuzk/gpu.h) for both curves: against the CPU MSM for n = 1 .. 2^14 (random
 * bases with infinities, edge scalars 0, 1, r-1, all-zero scalars, repeated and opposite bases,
 * a skewed scalar set, the 0/1 split forced on and off), and against [Σ s_i·(a + i·d)]G for
 * GPU-made bases [a + i·d]G at 2^16, 2^18 .. 2^24 (CZ_GPU_TEST_MAX_LOG overrides the top; 25, 26,
 * 27 are then run one by one); device-resident scalars; curve and size checks. All of it for
 * each bucket accumulation variant (CZ_GPU_MSM_ACC=xyzz|affine, CZ_GPU_MSM_SQR=0|1,
 * CZ_GPU_MSM_AFF_LEN; window count CZ_GPU_MSM_W = 12 / 14 with their uneven widths; the r - s
 * digit trick off, CZ_GPU_MSM_NEG=0; the register-capped accumulation, CZ_GPU_MSM_NREG=1; the
 * next point prefetched, CZ_GPU_MSM_PREFETCH=1|-1), the extra ones up to 2^20, 2^18 or 2^16.
 * Exits 77 without a GPU.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/curve.h"
#include "cuzk/field.h"
#include "cuzk/gpu.h"
#include "cuzk/msm.h"
#include "cuzk/threadpool.h"
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
    /* Every accumulation variant (read by the MSM at each call): the default XYZZ path and the
     * batch-affine one up to max_log, fe_sqr_fast on both and tiny affine chunks (every chunk
     * edge inside a pair or a run) up to 2^20 / 2^18. */
    {
        static const struct {
            const char *acc, *sqr, *aff_len, *win, *neg, *nreg, *segs, *pf;
            unsigned top;
        } var[] = {{"xyzz", "0", "", "", "", "", "", "", 0},
                   {"affine", "0", "", "", "", "", "", "", 0},
                   {"affine", "1", "", "", "", "", "", "", 20},
                   {"xyzz", "1", "", "", "", "", "", "", 20},
                   {"affine", "0", "4", "", "", "", "", "", 18},
                   {"xyzz", "1", "", "12", "", "", "", "", 18},
                   {"xyzz", "1", "", "14", "0", "", "", "", 18},
                   {"xyzz", "1", "", "", "0", "", "", "", 16},
                   {"affine", "1", "", "12", "", "", "", "", 16},
                   {"xyzz", "1", "", "", "", "1", "", "", 18},
                   /* 2^17 reduction segments (shorter ones at large n; 0.3 % faster at 2^26) */
                   {"xyzz", "1", "", "", "", "", "131072", "", 0},
                   /* the next point prefetched into L2 / L1 (CZ_GPU_MSM_PREFETCH) */
                   {"xyzz", "1", "", "", "", "", "", "1", 20},
                   {"xyzz", "1", "", "", "", "", "", "-1", 18}};
        for (size_t v = 0; v < sizeof var / sizeof var[0]; v++) {
            unsigned ml = var[v].top != 0 && var[v].top < max_log ? var[v].top : max_log;
            unsigned long failed = test_failed_count;
            setenv("CZ_GPU_MSM_ACC", var[v].acc, 1);
            setenv("CZ_GPU_MSM_SQR", var[v].sqr, 1);
            setenv("CZ_GPU_MSM_AFF_LEN", var[v].aff_len, 1);
            setenv("CZ_GPU_MSM_W", var[v].win, 1);
            setenv("CZ_GPU_MSM_NEG", var[v].neg, 1);
            setenv("CZ_GPU_MSM_NREG", var[v].nreg, 1);
            setenv("CZ_GPU_MSM_SEGS", var[v].segs, 1);
            setenv("CZ_GPU_MSM_PREFETCH", var[v].pf, 1);
            test_msm_bn254(pool, 14, ml);
            test_msm_bls12381(pool, 14, ml);
            printf("variant acc=%s sqr=%s aff_len='%s' W='%s' neg='%s' nreg='%s' segs='%s' "
                   "prefetch='%s' up to 2^%u: %lu failures\n",
                   var[v].acc, var[v].sqr, var[v].aff_len, var[v].win, var[v].neg, var[v].nreg,
                   var[v].segs, var[v].pf, ml, test_failed_count - failed);
        }
        unsetenv("CZ_GPU_MSM_ACC");
        unsetenv("CZ_GPU_MSM_SQR");
        unsetenv("CZ_GPU_MSM_AFF_LEN");
        unsetenv("CZ_GPU_MSM_W");
        unsetenv("CZ_GPU_MSM_NEG");
        unsetenv("CZ_GPU_MSM_NREG");
        unsetenv("CZ_GPU_MSM_SEGS");
        unsetenv("CZ_GPU_MSM_PREFETCH");
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
