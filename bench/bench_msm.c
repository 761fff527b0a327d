/*
 * cuzk-bench msm: Σ [s_i] P_i over n = 2^K random scalars and bases (bench_inputs.c).
 *
 * CPU: cz_<curve>_<group>_msm on the thread pool (--threads), G1 or G2 (--group).
 * GPU: G1 or G2 (--group). The bases are uploaded once per size, untimed (they are a proving key's,
 * resident on the device). copies = true times cz_<curve>_gpu_<group>_msm with the scalars in host
 * memory (their upload included); copies = false times cz_<curve>_gpu_<group>_msm_dev on scalars
 * already on the device. The result point is 100 bytes at most, so "out" costs nothing either way.
 * --scalars picks the scalar set (bench_shape_scalars); --split forces the 0/1 split of the CPU
 * and GPU MSMs on or off (cz_tuning.msm_split, docs/msm.md); --accumulation picks the GPU G1
 * bucket accumulation (cz_tuning.gpu_msm_accumulation; both: madd and batch-affine, the lines
 * tagged "accumulation").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cuzk/gpu.h"
#include "cuzk/msm.h"
#include "cuzk/threadpool.h"
#include "cuzk/tuning.h"

typedef struct {
    cz_curve_id curve;
    int g2;
    size_t n;
    const void *bases, *scalars; /* host */
    const void *d_scalars;       /* device */
    cz_gpu_bases *gb;
    cz_threadpool *pool;
} msm_ctx;

typedef union {
    cz_bn254_g1_jacobian bn1;
    cz_bn254_g2_jacobian bn2;
    cz_bls12381_g1_jacobian bls1;
    cz_bls12381_g2_jacobian bls2;
} any_jacobian;

static int cpu_fn(void *p, cz_errinfo *ei) {
    const msm_ctx *c = p;
    any_jacobian r;
    int rc;
    if (c->curve == CZ_CURVE_BN254)
        rc = c->g2 ? cz_bn254_g2_msm(&r.bn2, c->bases, c->scalars, c->n, c->pool)
                   : cz_bn254_g1_msm(&r.bn1, c->bases, c->scalars, c->n, c->pool);
    else
        rc = c->g2 ? cz_bls12381_g2_msm(&r.bls2, c->bases, c->scalars, c->n, c->pool)
                   : cz_bls12381_g1_msm(&r.bls1, c->bases, c->scalars, c->n, c->pool);
    return rc == CZ_OK ? CZ_OK : cz_fail(ei, rc, "CPU MSM of %zu points", c->n);
}

static int gpu_host_fn(void *p, cz_errinfo *ei) {
    const msm_ctx *c = p;
    any_jacobian r;
    if (c->curve == CZ_CURVE_BN254)
        return c->g2 ? cz_bn254_gpu_g2_msm(&r.bn2, c->gb, c->scalars, c->n, ei)
                     : cz_bn254_gpu_g1_msm(&r.bn1, c->gb, c->scalars, c->n, ei);
    return c->g2 ? cz_bls12381_gpu_g2_msm(&r.bls2, c->gb, c->scalars, c->n, ei)
                 : cz_bls12381_gpu_g1_msm(&r.bls1, c->gb, c->scalars, c->n, ei);
}

static int gpu_dev_fn(void *p, cz_errinfo *ei) {
    const msm_ctx *c = p;
    any_jacobian r;
    if (c->curve == CZ_CURVE_BN254)
        return c->g2 ? cz_bn254_gpu_g2_msm_dev(&r.bn2, c->gb, c->d_scalars, c->n, ei)
                     : cz_bn254_gpu_g1_msm_dev(&r.bn1, c->gb, c->d_scalars, c->n, ei);
    return c->g2 ? cz_bls12381_gpu_g2_msm_dev(&r.bls2, c->gb, c->d_scalars, c->n, ei)
                 : cz_bls12381_gpu_g1_msm_dev(&r.bls1, c->gb, c->d_scalars, c->n, ei);
}

static int gpu_upload(cz_gpu_bases **gb, cz_curve_id curve, int g2, const void *bases, size_t n,
                      int dev, cz_errinfo *ei) {
    if (curve == CZ_CURVE_BN254)
        return g2 ? cz_bn254_gpu_g2_bases_upload(gb, bases, n, dev, ei)
                  : cz_bn254_gpu_g1_bases_upload(gb, bases, n, dev, ei);
    return g2 ? cz_bls12381_gpu_g2_bases_upload(gb, bases, n, dev, ei)
              : cz_bls12381_gpu_g1_bases_upload(gb, bases, n, dev, ei);
}

/* Times one mode and prints its line (tagged "env" when env is not NULL). */
static int run_mode(const bench_opts *o, msm_ctx *c, unsigned log_n, int copies, bench_fn fn,
                    const char *env) {
    double ms[BENCH_MAX_RUNS];
    bench_json j;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (bench_time(ms, o->runs, o->warmup, o->gpu ? o->device : -1, fn, c, &ei) != CZ_OK) {
        fprintf(stderr, "cuzk-bench msm: %s 2^%u: %s\n", bench_curve_name(c->curve), log_n, ei.msg);
        return BENCH_FAIL;
    }
    bench_json_result(&j, o, "msm", c->curve, log_n, copies, ms);
    bench_json_str(&j, "group", c->g2 ? "g2" : "g1");
    bench_json_str(&j, "scalars", bench_scalars_names[o->scalars]);
    bench_json_str(&j, "split", o->split < 0 ? "auto" : o->split ? "on" : "off");
    if (o->gpu) {
        cz_tuning tu;
        cz_tuning_get(&tu);
        bench_json_str(&j, "accumulation", cz_acc_mode_name(tu.gpu_msm_accumulation));
        if (tu.gpu_msm_window_bits != 0)
            bench_json_int(&j, "window_bits", tu.gpu_msm_window_bits);
    }
    if (env != NULL)
        bench_json_str(&j, "env", env);
    bench_json_print(&j);
    return BENCH_OK;
}

static int run_size(const bench_opts *o, cz_curve_id curve, unsigned log_n, cz_threadpool *pool) {
    size_t n = (size_t)1 << log_n;
    msm_ctx c = {curve, o->g2, n, NULL, NULL, NULL, NULL, pool};
    void *scalars = malloc(32 * n), *bases = bench_make_bases(curve, o->g2, n, 0x62617365 ^ log_n);
    void *d_scalars = NULL;
    cz_errinfo ei;
    int rc = BENCH_FAIL;
    cz_errinfo_clear(&ei);
    if (scalars == NULL || bases == NULL) {
        fprintf(stderr, "cuzk-bench msm: out of memory for 2^%u points\n", log_n);
        goto out;
    }
    bench_random_fr(scalars, curve, n, 0x7363616c ^ log_n);
    bench_shape_scalars(scalars, curve, n, o->scalars, 0x73686170 ^ log_n);
    bench_shape_bases(bases, bench_affine_size(curve, o->g2), n, o->scalars, 0x696e6679 ^ log_n);
    c.bases = bases;
    c.scalars = scalars;
    if (!o->gpu) {
        rc = run_mode(o, &c, log_n, -1, cpu_fn, NULL);
        goto out;
    }
    int up = gpu_upload(&c.gb, curve, o->g2, bases, n, o->device, &ei);
    if (up != CZ_OK || cz_gpu_alloc(&d_scalars, 32 * n, o->device, &ei) != CZ_OK ||
        cz_gpu_upload(d_scalars, scalars, 32 * n, o->device, &ei) != CZ_OK) {
        fprintf(stderr, "cuzk-bench msm: GPU set-up for 2^%u points: %s\n", log_n, ei.msg);
        goto out;
    }
    c.d_scalars = d_scalars;
    rc = BENCH_OK;
    for (int acc = o->accumulation == BENCH_ACC_BOTH ? CZ_ACC_MADD : o->accumulation;
         rc == BENCH_OK &&
         acc <= (o->accumulation == BENCH_ACC_BOTH ? CZ_ACC_BATCH_AFFINE : o->accumulation);
         acc++) {
        cz_tuning tu;
        cz_tuning_get(&tu);
        tu.gpu_msm_accumulation = (cz_acc_mode)acc;
        cz_tuning_set(&tu, NULL);
        if (o->copies != 1)
            rc = run_mode(o, &c, log_n, 0, gpu_dev_fn, NULL);
        if (rc == BENCH_OK && o->copies != 0)
            rc = run_mode(o, &c, log_n, 1, gpu_host_fn, NULL);
    }
out:
    if (d_scalars != NULL)
        cz_gpu_free(d_scalars, o->device);
    cz_gpu_bases_free(c.gb);
    free(bases);
    free(scalars);
    return rc;
}

int bench_cmd_msm(bench_opts *o) {
    if (o->split >= 0 || o->profile || o->window_bits) {
        cz_tuning tu;
        cz_tuning_get(&tu);
        if (o->split >= 0)
            tu.msm_split = o->split ? CZ_SPLIT_ON : CZ_SPLIT_OFF;
        tu.msm_profile = o->profile;
        tu.gpu_msm_window_bits = o->window_bits;
        cz_tuning_set(&tu, NULL);
    }
    return bench_each_size(o, !o->gpu, run_size);
}
