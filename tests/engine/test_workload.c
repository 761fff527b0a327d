/*
 * The engine's Groth16 workloads on the CPU backend (and, where a GPU is present, on GPU 0 too):
 *   - zkey jobs through the SRS manager give, with fixed r and s, exactly the proof of
 *     cz_groth16_prove (the oracle: the same prover run directly), encoded as the workload
 *     documents, and every returned job verified;
 *   - a witness of another circuit is refused at submit, naming the files;
 *   - porep-synth jobs of several partitions are done (each partition verified by the engine
 *     against its own public inputs), deterministic for a seed, different across seeds, and a
 *     tampered result fails the workload's verifier;
 *   - a cached porep-synth key that is damaged (a flipped byte, cut short, its checksum file
 *     gone) is made again with a warning naming the file and why, and proves; one that cannot be
 *     made again is CZ_EIO.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/encoding.h"
#include "cuzk/fileio.h"
#include "cuzk/gpu.h"
#include "cuzk/assignment.h"
#include "cuzk/groth16.h"
#include "cuzk/groth16_bellperson.h"
#include "cuzk/groth16_setup.h"
#include "cuzk/porep_synth.h"
#include "cuzk/log.h"
#include "cuzk/workload.h"
#include "cuzk/wtns.h"
#include "test.h"

static const uint8_t R[32] = {7, 1, 2, 3}, S[32] = {9, 8, 7};

static void *read_file(const char *path, size_t *len) {
    void *buf = NULL;
    cz_errinfo ei;
    return cz_file_read(&buf, len, path, &ei) == CZ_OK ? buf : NULL;
}

static cz_budget *g_budget;

static cz_engine *engine(int gpu) {
    cz_engine_config cfg;
    cz_engine *e = NULL;
    cz_errinfo ei;
    memset(&cfg, 0, sizeof cfg);
    cfg.ndevices = gpu ? 1 : 0;
    cfg.devices[0] = 0;
    cfg.partition_workers = 2;
    cfg.synthesis_threads = 2;
    cfg.gpu_threads = 2;
    cfg.shared_budget = g_budget;
    CHECK_ERR(cz_engine_create(&e, &cfg, &ei), CZ_OK);
    return e;
}

/* The proof bytes the workload must return for (zkey, wtns), from cz_groth16_prove. */
static int direct_proof(uint8_t *out, const cz_zkey *zk, const char *wtns_path) {
    cz_wtns *w = NULL;
    cz_groth16_proof proof;
    cz_groth16_public pub;
    cz_groth16_prove_opts o;
    cz_errinfo ei;
    memset(&o, 0, sizeof o);
    o.r = R;
    o.s = S;
    if (cz_wtns_open(&w, wtns_path, &ei) != CZ_OK ||
        cz_groth16_prove(&proof, &pub, zk, w, &o, &ei) != CZ_OK) {
        fprintf(stderr, "direct proof: %s\n", ei.msg);
        cz_wtns_close(w);
        return -1;
    }
    cz_groth16_public_free(&pub);
    cz_wtns_close(w);
    cz_groth16_proof_encode(out, &proof);
    return 0;
}

static void test_zkey(int gpu) {
    static const char *const zkeys[2] = {"examples/poseidon/poseidon_chain.zkey",
                                         "examples/mulchain/mulchain.zkey"};
    static const char *const wtnss[2] = {"examples/poseidon/poseidon_chain.wtns",
                                         "examples/mulchain/mulchain.wtns"};
    cz_engine *e = engine(gpu);
    cz_srs *srs = NULL;
    cz_srs_config sc = {cz_engine_budget(e), &cz_workload_zkey_gpu_hooks, NULL, NULL, 0};
    cz_errinfo ei;
    CHECK_ERR(cz_srs_create(&srs, &sc, &ei), CZ_OK);
    for (int i = 0; i < 2; i++) {
        cz_srs_key *key = NULL;
        cz_workload wl;
        cz_workload_blinding bl = {R, S};
        size_t len = 0;
        void *wt = read_file(wtnss[i], &len);
        char jkey[32];
        uint8_t want[256];
        CHECK(wt != NULL);
        CHECK_ERR(cz_srs_acquire(&key, srs, zkeys[i], NULL, &ei), CZ_OK);
        const cz_zkey *zk = cz_srs_key_data(key);
        size_t pb = cz_groth16_proof_bytes(zk->curve);
        CHECK(direct_proof(want, zk, wtnss[i]) == 0);
        /* three jobs of the same key at once */
        for (int n = 0; n < 3; n++) {
            cz_srs_key *k2 = NULL;
            CHECK_ERR(cz_srs_acquire(&k2, srs, zkeys[i], NULL, &ei), CZ_OK);
            CHECK_ERR(cz_workload_zkey(&wl, k2, wt, len, wtnss[i], &bl, &ei), CZ_OK);
            snprintf(jkey, sizeof jkey, "zk%d-%d", i, n);
            CHECK_ERR(cz_engine_submit(NULL, e, jkey, CZ_PRIO_NORMAL, &wl, &ei), CZ_OK);
        }
        for (int n = 0; n < 3; n++) {
            cz_job *job = NULL;
            size_t rlen = 0;
            snprintf(jkey, sizeof jkey, "zk%d-%d", i, n);
            CHECK_ERR(cz_engine_await(&job, e, jkey, 120000, &ei), CZ_OK);
            CHECK_EQ_INT(cz_job_state_get(job), CZ_JOB_DONE);
            if (cz_job_state_get(job) != CZ_JOB_DONE) {
                const char *m = NULL;
                cz_job_error(job, &m);
                fprintf(stderr, "%s: %s\n", jkey, m ? m : "?");
            }
            const uint8_t *res = cz_job_result(job, &rlen);
            CHECK(res != NULL && rlen == pb && memcmp(res, want, pb) == 0);
            cz_job_unref(job);
        }
        /* the other example's witness does not belong to this key: refused at submit */
        size_t olen = 0;
        void *other = read_file(wtnss[1 - i], &olen);
        cz_srs_key *k3 = NULL;
        CHECK_ERR(cz_srs_acquire(&k3, srs, zkeys[i], NULL, &ei), CZ_OK);
        cz_errinfo_clear(&ei);
        int rc = cz_workload_zkey(&wl, k3, other, olen, wtnss[1 - i], &bl, &ei);
        CHECK(rc == CZ_ECURVE || rc == CZ_EFORMAT);
        CHECK(strstr(ei.msg, "wtns") != NULL);
        free(other);
        cz_srs_release(key);
        /* the finished jobs stay queryable but no longer hold the key: it can be evicted (the
         * release runs on the deallocation thread, so allow it a moment) */
        int evicted = CZ_EBUSY;
        for (int tries = 0; tries < 200 && evicted == CZ_EBUSY; tries++) {
            evicted = cz_srs_evict(srs, zkeys[i], &ei);
            if (evicted == CZ_EBUSY)
                usleep(10000);
        }
        CHECK_ERR(evicted, CZ_OK);
        cz_job *done = NULL;
        CHECK(cz_engine_await(&done, e, "zk0-0", 0, &ei) == CZ_OK &&
              cz_job_state_get(done) == CZ_JOB_DONE);
        cz_job_unref(done);
        free(wt);
    }
    cz_engine_destroy(e);
    cz_srs_destroy(srs);
}

/* Runs a porep-synth job and copies its result; returns the job state. */
static cz_job_state run_synth(cz_engine *e, cz_porep_synth_ctx *ctx, const char *key,
                              uint32_t nparts, uint64_t seed, uint8_t *out, size_t cap) {
    cz_workload wl;
    cz_workload_blinding bl = {R, S};
    cz_job *job = NULL;
    cz_errinfo ei;
    cz_job_state st;
    CHECK_ERR(cz_workload_porep_synth(&wl, ctx, nparts, seed, &bl, &ei), CZ_OK);
    CHECK_ERR(cz_engine_submit(NULL, e, key, CZ_PRIO_HIGH, &wl, &ei), CZ_OK);
    CHECK_ERR(cz_engine_await(&job, e, key, 300000, &ei), CZ_OK);
    st = cz_job_state_get(job);
    if (st == CZ_JOB_DONE) {
        size_t len = 0;
        const uint8_t *r = cz_job_result(job, &len);
        CHECK(len <= cap);
        memcpy(out, r, len < cap ? len : cap);
    } else {
        const char *m = NULL;
        cz_job_error(job, &m);
        fprintf(stderr, "%s: %s\n", key, m ? m : "?");
    }
    cz_job_unref(job);
    return st;
}

static void test_porep_synth(int gpu, const char *cache) {
    cz_engine *e = engine(gpu);
    cz_porep_synth_ctx *ctx = NULL;
    cz_errinfo ei;
    enum { NP = 3 };
    uint8_t r1[NP * 192], r2[NP * 192], r3[NP * 192];
    CHECK_ERR(cz_porep_synth_ctx_create(&ctx, CZ_CURVE_BLS12381, 10, cache, NULL, &ei), CZ_OK);
    if (ctx == NULL) {
        fprintf(stderr, "porep-synth: %s\n", ei.msg);
        cz_engine_destroy(e);
        return;
    }
    CHECK_EQ_INT(run_synth(e, ctx, "synth-a", NP, 42, r1, sizeof r1), CZ_JOB_DONE);
    CHECK_EQ_INT(run_synth(e, ctx, "synth-b", NP, 42, r2, sizeof r2), CZ_JOB_DONE);
    CHECK_EQ_INT(run_synth(e, ctx, "synth-c", NP, 43, r3, sizeof r3), CZ_JOB_DONE);
    CHECK_EQ_MEM(r1, r2, sizeof r1);       /* same seed, same r, s: same proofs */
    CHECK(memcmp(r1, r3, 192) != 0);       /* another seed: other witnesses */
    CHECK(memcmp(r1, r1 + 192, 192) != 0); /* partitions differ */
    /* the workload's verifier refuses a proof with a partition swapped */
    {
        cz_workload wl;
        cz_workload_blinding bl = {R, S};
        cz_groth16_proof proofs[NP], swapped[NP];
        cz_part_env none = {NULL, NULL, NULL};
        for (uint32_t p = 0; p < NP; p++) {
            proofs[p].curve = CZ_CURVE_BLS12381;
            CHECK(cz_bls12381_g1_from_compressed(&proofs[p].u.bls12381.a, r1 + p * 192, 48, &ei) ==
                      CZ_OK &&
                  cz_bls12381_g2_from_compressed(&proofs[p].u.bls12381.b, r1 + p * 192 + 48, 96,
                                                 &ei) == CZ_OK &&
                  cz_bls12381_g1_from_compressed(&proofs[p].u.bls12381.c, r1 + p * 192 + 144, 48,
                                                 &ei) == CZ_OK);
        }
        CHECK(cz_workload_porep_synth(&wl, ctx, NP, 42, &bl, &ei) == CZ_OK);
        /* its public inputs are filled by synthesis: run it for every partition first */
        for (uint32_t p = 0; p < NP; p++) {
            void *part = NULL;
            cz_part_times t;
            CHECK(wl.ops->synthesize(&part, wl.ctx, p, &none, &t, &ei) == CZ_OK);
            wl.ops->part_free(part, wl.ctx);
        }
        CHECK(wl.ops->verify(wl.ctx, proofs, NP, &ei) == CZ_OK);
        /* synthesis gives the Montgomery witness's bytes back to the partition's reservation:
         * what stays reserved is exactly the other vectors of part_bytes */
        {
            cz_reservation res;
            cz_budget_stats b0, b1;
            void *part = NULL;
            cz_part_times t;
            cz_part_env env = {&res, NULL, NULL};
            uint64_t wbytes = (uint64_t)cz_porep_synth_ctx_zkey(ctx)->nvars * 32;
            cz_budget_stats_get(&b0, g_budget);
            CHECK(cz_budget_reserve(&res, g_budget, wl.part_bytes, 0, NULL, NULL, &ei) == CZ_OK);
            CHECK(wl.ops->synthesize(&part, wl.ctx, 0, &env, &t, &ei) == CZ_OK);
            cz_budget_stats_get(&b1, g_budget);
            CHECK(res.bytes == wl.part_bytes - wbytes && b1.used == b0.used + res.bytes);
            wl.ops->part_free(part, wl.ctx);
            cz_reservation_release_all(&res);
        }
        swapped[0] = proofs[1];
        swapped[1] = proofs[0];
        swapped[2] = proofs[2];
        CHECK(wl.ops->verify(wl.ctx, swapped, NP, &ei) != CZ_OK);
        wl.ops->destroy(wl.ctx);
    }
    cz_engine_destroy(e);
    cz_porep_synth_ctx_free(ctx);
}

/* cz_porep_synth_ctx_create with the log captured: its code, and the log's text in log. */
static int ctx_logged(cz_porep_synth_ctx **ctx, const char *dir, char *log, size_t cap,
                      cz_errinfo *ei) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    FILE *old = cz_log_set_output(f);
    cz_errinfo_clear(ei);
    int rc = cz_porep_synth_ctx_create(ctx, CZ_CURVE_BN254, 10, dir, NULL, ei);
    cz_log_set_output(old);
    fclose(f);
    snprintf(log, cap, "%s", buf != NULL ? buf : "");
    free(buf);
    return rc;
}

/* Makes the context, expecting a warning that names key and says why (NULL: no warning), then
 * proves one partition with it. */
static void expect_repair(cz_engine *e, const char *dir, const char *key, const char *why) {
    cz_porep_synth_ctx *ctx = NULL;
    cz_errinfo ei;
    char log[2048];
    uint8_t proof[256];
    int rc = ctx_logged(&ctx, dir, log, sizeof log, &ei);
    if (!CHECK_ERR(rc, CZ_OK))
        fprintf(stderr, "  %s\n", ei.msg);
    if (why == NULL) {
        CHECK_EQ_STR(log, "");
    } else if (!CHECK(strstr(log, " WARN ") != NULL && strstr(log, key) != NULL &&
                      strstr(log, "making it again") != NULL && strstr(log, why) != NULL)) {
        fprintf(stderr, "  log (want \"%s\"): %s\n", why, log);
    }
    if (ctx != NULL) {
        CHECK_EQ_INT(run_synth(e, ctx, "repair", 1, 7, proof, sizeof proof), CZ_JOB_DONE);
        cz_porep_synth_ctx_free(ctx);
    }
}

static char cache[] = "/tmp/cuzk-test-workload-XXXXXX";

/* The key cache repairs itself: each damage is found by the checksum (or the reader), logged and
 * made good; the next start finds a good key and says nothing. */
static void test_porep_synth_cache(void) {
    char dir[128], key[192], sum[200];
    struct stat st;
    snprintf(dir, sizeof dir, "%s/repair", cache);
    snprintf(key, sizeof key, "%s/porep-synth-bn254-10.zkey", dir);
    snprintf(sum, sizeof sum, "%s.sum", key);
    cz_engine *e = engine(0);
    expect_repair(e, dir, key, NULL); /* made: no warning */
    CHECK(stat(dir, &st) == 0 && (st.st_mode & 0777) == 0700);
    CHECK(stat(key, &st) == 0 && access(sum, R_OK) == 0);
    expect_repair(e, dir, key, NULL); /* read back: no warning */
    /* a flipped byte in the middle (a point or a coefficient: the reader alone would not see it) */
    FILE *f = fopen(key, "r+b");
    CHECK(f != NULL && stat(key, &st) == 0);
    if (f != NULL) {
        fseek(f, (long)st.st_size / 2, SEEK_SET);
        int c = fgetc(f);
        fseek(f, (long)st.st_size / 2, SEEK_SET);
        fputc(c ^ 0x10, f);
        fclose(f);
    }
    expect_repair(e, dir, key, "checksum");
    expect_repair(e, dir, key, NULL); /* repaired for good */
    /* cut short */
    CHECK(stat(key, &st) == 0 && truncate(key, st.st_size / 3) == 0);
    expect_repair(e, dir, key, "checksum");
    /* its checksum file gone */
    CHECK(unlink(sum) == 0);
    expect_repair(e, dir, key, "no checksum file");
    /* a key that cannot be made again (a directory with a file in it at its path): an internal
     * error after the warning, naming the file */
    {
        char inner[256], log[2048];
        cz_porep_synth_ctx *ctx = (cz_porep_synth_ctx *)1;
        cz_errinfo ei;
        CHECK(unlink(key) == 0 && mkdir(key, 0700) == 0);
        snprintf(inner, sizeof inner, "%s/x", key);
        f = fopen(inner, "w");
        CHECK(f != NULL);
        if (f != NULL)
            fclose(f);
        CHECK_ERR(ctx_logged(&ctx, dir, log, sizeof log, &ei), CZ_EIO);
        CHECK(ctx == NULL && strstr(ei.msg, key) != NULL);
        CHECK(strstr(log, " WARN ") != NULL && strstr(log, key) != NULL);
        unlink(inner);
        rmdir(key);
    }
    expect_repair(e, dir, key, NULL); /* a missing key is made without a warning */
    cz_engine_destroy(e);
}
/* The bellperson mode: a job's partition proofs are those of the bellperson prover called
 * directly on the same assignment with the same r, s; the same seed gives the same proofs; the
 * engine verified them (CZ_JOB_DONE). */
static void test_porep_synth_bp(int gpu) {
    cz_engine *e = engine(gpu);
    cz_porep_synth_ctx *ctx = NULL;
    cz_r1cs cs = {0};
    cz_assignment as = {0};
    cz_errinfo ei;
    enum { NP = 2 };
    uint8_t r1[NP * 192], r2[NP * 192], direct[192];
    CHECK_ERR(cz_porep_synth_ctx_create_bp(&ctx, 10, 0, NULL, &ei), CZ_OK);
    if (ctx == NULL) {
        fprintf(stderr, "porep-synth bellperson: %s\n", ei.msg);
        cz_engine_destroy(e);
        return;
    }
    CHECK_EQ_INT(run_synth(e, ctx, "bp-a", NP, 42, r1, sizeof r1), CZ_JOB_DONE);
    CHECK_EQ_INT(run_synth(e, ctx, "bp-b", NP, 42, r2, sizeof r2), CZ_JOB_DONE);
    CHECK_EQ_MEM(r1, r2, sizeof r1);
    CHECK(memcmp(r1, r1 + 192, 192) != 0);
    /* partition 1 proven directly: its own system, witness and key (the same seeded setup) */
    {
        cz_bellperson_params params = {0};
        cz_groth16_trapdoor td;
        cz_groth16_proof proof;
        cz_bls12381_fr r, s;
        static const char seed[] = "cuzk porep-synth bellperson key (insecure)";
        cz_groth16_trapdoor_from_seed(&td, (const uint8_t *)seed, sizeof seed - 1);
        CHECK(cz_bls12381_fr_from_bytes_le(&r, R) == CZ_OK);
        CHECK(cz_bls12381_fr_from_bytes_le(&s, S) == CZ_OK);
        cz_groth16_bp_opts o = {.r_s = &r, .s_s = &s};
        if (CHECK(cz_porep_synth_build(&cs, CZ_CURVE_BLS12381, 10, NULL, &ei) == CZ_OK) &&
            CHECK(cz_groth16_setup_bellperson(&params, &cs, &td, NULL, -1, &ei) == CZ_OK) &&
            CHECK(cz_porep_synth_witness(&cs, 10, 42, 1, NULL, &ei) == CZ_OK) &&
            CHECK(cz_r1cs_assignment_make(&as, &cs, NULL, &ei) == CZ_OK) &&
            CHECK(cz_groth16_bp_prove(&proof, &params, &as, 1, &o, &ei) == CZ_OK)) {
            cz_groth16_proof_encode(direct, &proof);
            CHECK_EQ_MEM(r1 + 192, direct, 192);
        }
        cz_bellperson_params_free(&params);
    }
    cz_assignment_free(&as);
    cz_r1cs_free(&cs);
    cz_engine_destroy(e);
    cz_porep_synth_ctx_free(ctx);
}

static int ngpu;

static int setup(void) {
    cz_errinfo ei;
    cz_budget_config bc = {(uint64_t)1 << 30, 0};
    CHECK(mkdtemp(cache) != NULL);
    CHECK_ERR(cz_budget_create(&g_budget, &bc, &ei), CZ_OK);
    if (cz_gpu_device_count(&ngpu, &ei) != CZ_OK)
        ngpu = 0;
    return 0;
}

static void teardown(void) {
    cz_budget_destroy(g_budget);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", cache);
    CHECK_EQ_INT(system(cmd), 0);
}

static void test_zkey_cpu(void) {
    test_zkey(0);
}

static void test_porep_synth_cpu(void) {
    test_porep_synth(0, cache);
}

/* On a GPU where there is one; nothing is checked without. */
static void test_zkey_gpu(void) {
    if (ngpu > 0)
        test_zkey(1);
}

static void test_porep_synth_gpu(void) {
    if (ngpu > 0)
        test_porep_synth(1, cache);
}

static void test_porep_synth_bp_cpu(void) {
    test_porep_synth_bp(0);
}

static void test_porep_synth_bp_gpu(void) {
    if (ngpu > 0)
        test_porep_synth_bp(1);
}

static const test_case cases[] = {
    {"zkey_cpu", test_zkey_cpu},
    {"porep_synth_bp_cpu", test_porep_synth_bp_cpu},
    {"porep_synth_bp_gpu", test_porep_synth_bp_gpu},
    {"porep_synth_cpu", test_porep_synth_cpu},
    {"porep_synth_cache", test_porep_synth_cache},
    {"zkey_gpu", test_zkey_gpu},
    {"porep_synth_gpu", test_porep_synth_gpu},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
