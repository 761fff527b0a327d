/*
 * The porep-synth benchmark key (src/engine/bench_key.h) at a small scale, on both curves:
 *   - B2 has a point exactly for the columns B touches (oracle: a scan of B's terms here), all
 *     other columns are infinity, and the points are on the curve;
 *   - B2 is one progression over the touched columns: consecutive touched points differ by the
 *     same step (checked with the curve's own Jacobian arithmetic);
 *   - the header points are on their curves, the counts are the circuit's;
 *   - a benchmark-key job on the CPU backend fails (its G1 bases live on a GPU only) instead of
 *     computing with missing bases;
 *   - on a GPU (else skipped): the GPU key uploads the host B2, so proofs with the G2 MSM on the
 *     GPU and with cz_tuning.gpu_g2_on_cpu (on the CPU) are byte-equal for the same r, s and
 * witness.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/curve.h"
#include "cuzk/gpu.h"
#include "cuzk/pipeline.h"
#include "cuzk/porep_synth.h"
#include "cuzk/tuning.h"
#include "cuzk/workload.h"
#include "engine/bench_key.h"
#include "test.h"

#define CHECK_CURVE(C)                                                                             \
    static void check_##C(const cz__bench_key *bk, const cz_r1cs *cs, const uint8_t *touched) {    \
        const cz_##C##_g2_affine *b2 = bk->zk.u.C.b2;                                              \
        cz_##C##_g2_jacobian prev, cur, step, diff, neg;                                           \
        uint64_t ntouched = 0, bad_inf = 0, bad_curve = 0, bad_step = 0;                           \
        int have_prev = 0, have_step = 0;                                                          \
        CHECK(cz_##C##_g1_on_curve(&bk->zk.u.C.alpha1) &&                                          \
              cz_##C##_g1_on_curve(&bk->zk.u.C.delta1));                                           \
        CHECK(cz_##C##_g2_on_curve(&bk->zk.u.C.beta2) &&                                           \
              cz_##C##_g2_on_curve(&bk->zk.u.C.delta2));                                           \
        CHECK(bk->zk.u.C.a == NULL && bk->zk.u.C.h == NULL && bk->zk.u.C.ic != NULL);              \
        for (uint32_t s = 0; s < cs->nvars; s++) {                                                 \
            int inf = cz_##C##_g2_is_infinity(&b2[s]);                                             \
            if (!touched[s]) {                                                                     \
                bad_inf += !inf;                                                                   \
                continue;                                                                          \
            }                                                                                      \
            ntouched++;                                                                            \
            bad_curve += inf || !cz_##C##_g2_on_curve(&b2[s]);                                     \
            cz_##C##_g2_from_affine(&cur, &b2[s]);                                                 \
            if (have_prev) {                                                                       \
                cz_##C##_g2_neg(&neg, &prev);                                                      \
                cz_##C##_g2_add(&diff, &cur, &neg);                                                \
                if (have_step)                                                                     \
                    bad_step += !cz_##C##_g2_eq(&diff, &step);                                     \
                step = diff;                                                                       \
                have_step = 1;                                                                     \
            }                                                                                      \
            prev = cur;                                                                            \
            have_prev = 1;                                                                         \
        }                                                                                          \
        CHECK_EQ_INT(ntouched, bk->b2_touched);                                                    \
        CHECK(ntouched > 0 && ntouched < cs->nvars);                                               \
        CHECK_EQ_INT(bad_inf, 0);                                                                  \
        CHECK_EQ_INT(bad_curve, 0);                                                                \
        CHECK_EQ_INT(bad_step, 0);                                                                 \
    }

CHECK_CURVE(bn254)
CHECK_CURVE(bls12381)

static void one_curve(cz_curve_id curve) {
    cz_r1cs cs;
    cz__bench_key *bk = NULL;
    cz_errinfo ei;
    CHECK_ERR(cz_porep_synth_build(&cs, curve, 12, NULL, &ei), CZ_OK);
    CHECK_ERR(cz__bench_key_make(&bk, &cs, 12, 5, NULL, &ei), CZ_OK);
    if (bk == NULL)
        return;
    uint8_t *touched = calloc(cs.nvars, 1);
    for (uint64_t i = 0; i < cs.b.nnz; i++)
        touched[cs.b.var[i]] = 1;
    CHECK(bk->zk.nvars == cs.nvars && bk->zk.npublic == cs.npublic);
    CHECK(bk->zk.domain_size == 4096 && bk->zk.curve == curve);
    if (curve == CZ_CURVE_BN254)
        check_bn254(bk, &cs, touched);
    else
        check_bls12381(bk, &cs, touched);
    free(touched);
    cz__bench_key_free(bk);
    cz_r1cs_free(&cs);
}

/* A benchmark-key job on the CPU backend: failed, with a message; not a crash. */
static void cpu_refused(void) {
    cz_porep_synth_ctx *ctx = NULL;
    cz_engine *e = NULL;
    cz_engine_config cfg;
    cz_workload wl;
    cz_job *job = NULL;
    const char *msg = NULL;
    cz_errinfo ei;
    CHECK_ERR(cz_porep_synth_ctx_create_bench(&ctx, CZ_CURVE_BN254, 11, NULL, &ei), CZ_OK);
    CHECK(ctx != NULL && cz_porep_synth_ctx_is_bench(ctx));
    CHECK(cz_porep_synth_ctx_host_bytes(ctx) > (uint64_t)cz_porep_synth_ctx_zkey(ctx)->nvars * 128);
    memset(&cfg, 0, sizeof cfg);
    CHECK_ERR(cz_engine_create(&e, &cfg, &ei), CZ_OK);
    CHECK_ERR(cz_workload_porep_synth(&wl, ctx, 2, 1, NULL, &ei), CZ_OK);
    CHECK_ERR(cz_engine_submit(NULL, e, "bk", CZ_PRIO_NORMAL, &wl, &ei), CZ_OK);
    CHECK_ERR(cz_engine_await(&job, e, "bk", -1, &ei), CZ_OK);
    CHECK_EQ_INT(cz_job_state_get(job), CZ_JOB_FAILED);
    cz_job_error(job, &msg);
    CHECK(msg != NULL && strstr(msg, "benchmark key") != NULL);
    {
        /* Its partitions' vectors came from the engine's buffer pool (pinned with GPUs): the
         * job was bound to the pool like any porep-synth job. */
        cz_mem_stats bs;
        cz_mem_stats_get(&bs, cz_engine_mem(e));
        CHECK(bs.nallocs >= 3);
    }
    cz_job_unref(job);
    cz_engine_destroy(e);
    cz_porep_synth_ctx_free(ctx);
}

/* One benchmark-key job of 2 partitions on GPU 0 with fixed r, s; its proof bytes into out. */
static int gpu_job(uint8_t *out, size_t cap, cz_curve_id curve) {
    static const uint8_t r[32] = {3, 1, 4, 1, 5}, s_[32] = {2, 7, 1, 8, 2};
    cz_workload_blinding bl = {r, s_};
    cz_porep_synth_ctx *ctx = NULL;
    cz_engine *e = NULL;
    cz_engine_config cfg;
    cz_workload wl;
    cz_job *job = NULL;
    cz_errinfo ei;
    int ok = 0;
    memset(&cfg, 0, sizeof cfg);
    cfg.ndevices = 1;
    if (!CHECK_ERR(cz_porep_synth_ctx_create_bench(&ctx, curve, 11, NULL, &ei), CZ_OK) ||
        !CHECK_ERR(cz_engine_create(&e, &cfg, &ei), CZ_OK)) {
        fprintf(stderr, "bench key on the GPU: %s\n", ei.msg);
        cz_porep_synth_ctx_free(ctx);
        return 0;
    }
    CHECK_ERR(cz_workload_porep_synth(&wl, ctx, 2, 7, &bl, &ei), CZ_OK);
    CHECK_ERR(cz_engine_submit(NULL, e, "bk-gpu", CZ_PRIO_NORMAL, &wl, &ei), CZ_OK);
    CHECK_ERR(cz_engine_await(&job, e, "bk-gpu", -1, &ei), CZ_OK);
    if (job != NULL && cz_job_state_get(job) == CZ_JOB_DONE) {
        size_t len = 0;
        const uint8_t *res = cz_job_result(job, &len);
        ok = CHECK_EQ_INT(len, cap);
        memcpy(out, res, len < cap ? len : cap);
    } else if (job != NULL) {
        const char *m = NULL;
        cz_job_error(job, &m);
        fprintf(stderr, "bench key on the GPU: %s\n", m ? m : "?");
        CHECK(0);
    }
    cz_job_unref(job);
    cz_engine_destroy(e);
    cz_porep_synth_ctx_free(ctx);
    return ok;
}

/* On a GPU: the GPU key uploads the host B2, so a job with the G2 MSM on the GPU (the default)
 * and one with cz_tuning.gpu_g2_on_cpu (the CPU G2 MSM over the host B2) give the same proof bytes
 * for the same r, s and witness (both curves). Without a GPU: nothing. */
static void gpu_g2_matches_cpu_g2(void) {
    int ngpu = 0;
    cz_errinfo ei;
    if (cz_gpu_device_count(&ngpu, &ei) != CZ_OK || ngpu == 0)
        return;
    for (int c = 0; c < 2; c++) {
        cz_curve_id curve = c ? CZ_CURVE_BLS12381 : CZ_CURVE_BN254;
        size_t len = 2 * cz_groth16_proof_bytes(curve);
        uint8_t gpu[2 * 256], cpu[2 * 256];
        int ok = gpu_job(gpu, len, curve);
        cz_tuning tu = {0};
        tu.gpu_g2_on_cpu = 1;
        CZ_ASSERT(cz_tuning_set(&tu, NULL) == CZ_OK);
        ok &= gpu_job(cpu, len, curve);
        CZ_ASSERT(cz_tuning_set(NULL, NULL) == CZ_OK);
        CHECK(ok && memcmp(gpu, cpu, len) == 0);
        printf("bench key %s: GPU-G2 and CPU-G2 proofs %s\n", c ? "bls12381" : "bn254",
               ok && memcmp(gpu, cpu, len) == 0 ? "equal" : "DIFFER");
    }
}

static void test_bn254(void) {
    one_curve(CZ_CURVE_BN254);
}

static void test_bls12381(void) {
    one_curve(CZ_CURVE_BLS12381);
}

static const test_case cases[] = {
    {"bn254", test_bn254},
    {"bls12381", test_bls12381},
    {"cpu_refused", cpu_refused},
    {"gpu_g2_matches_cpu_g2", gpu_g2_matches_cpu_g2},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
