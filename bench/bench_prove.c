/*
 * cuzk-bench prove: Groth16 proofs of the multiplication chain (cuzk/mulchain.h) whose domain is
 * exactly 2^K (2^K - 3 constraints), on the CPU or (--gpu) the GPU backend.
 *
 * Inputs are made once and kept in the cache directory (--cache, default ./bench-cache):
 * mulchain-<curve>-<K>.r1cs / .wtns from the C generator and .zkey from cz_groth16_setup with a
 * trapdoor from a fixed seed (INSECURE, benchmarks only). Files are written under temporary
 * names and renamed, so an interrupted run never leaves a half file to be reused. Only the
 * proofs are timed (monotonic clock around cz_groth16_prove: the GPU prover mixes host and
 * device work), one line per (curve, size) with the prover's own step timings for every run.
 * --check verifies every proof, warm-up ones too, after the timing.
 *
 * --gpu proves on device --device with the key's bases made resident first
 * (cz_groth16_gpu_key_create, timed apart as gpu_key_ms).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "cuzk/clock.h"
#include "cuzk/groth16.h"
#include "cuzk/groth16_setup.h"
#include "cuzk/mulchain.h"
#include "cuzk/r1cs_file.h"
#include "cuzk/threadpool.h"
#include "cuzk/wtns.h"
#include "cuzk/zkey.h"

#define MIN_LOG 2  /* 1 constraint */
#define MAX_LOG 28 /* BN254's two-adicity bounds the domain */
#define SEED    "cuzk-bench mulchain"
#define PATHLEN 4096
#define BASELEN (PATHLEN - 64) /* room for ".zkey.tmp<pid>" */

typedef struct {
    const cz_zkey *zk;
    const cz_wtns *w;
    cz_groth16_prove_opts opts;
    int calls, ncalls;
    cz_groth16_timings *tm;  /* ncalls: warm-up runs first */
    cz_groth16_proof *proof; /* ncalls */
    cz_groth16_public *pub;  /* ncalls */
} prove_ctx;

static int prove_fn(void *p, cz_errinfo *ei) {
    prove_ctx *c = p;
    int i = c->calls++;
    CZ_ASSERT(i < c->ncalls);
    c->opts.timings = &c->tm[i];
    return cz_groth16_prove(&c->proof[i], &c->pub[i], c->zk, c->w, &c->opts, ei);
}

/* mkdir -p for dir. */
static int make_dirs(const char *dir) {
    char buf[PATHLEN];
    if (strlen(dir) >= sizeof buf)
        return -1;
    strcpy(buf, dir);
    for (char *s = buf + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return -1;
        *s = '/';
    }
    return mkdir(buf, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

/* Makes <base>.r1cs, .wtns, .zkey unless .wtns and .zkey exist; *made = 1 when it did. */
static int prepare(const char base[BASELEN], cz_curve_id curve, unsigned log_n, cz_threadpool *pool,
                   int *made, cz_errinfo *ei) {
    char r1cs[PATHLEN], wtns[PATHLEN], zkey[PATHLEN], tr[PATHLEN], tw[PATHLEN], tz[PATHLEN];
    cz_r1cs_file *rf = NULL;
    cz_groth16_trapdoor td;
    int rc;
    snprintf(r1cs, sizeof r1cs, "%s.r1cs", base);
    snprintf(wtns, sizeof wtns, "%s.wtns", base);
    snprintf(zkey, sizeof zkey, "%s.zkey", base);
    *made = 0;
    if (access(wtns, R_OK) == 0 && access(zkey, R_OK) == 0)
        return CZ_OK;
    snprintf(tr, sizeof tr, "%s.r1cs.tmp%ld", base, (long)getpid());
    snprintf(tw, sizeof tw, "%s.wtns.tmp%ld", base, (long)getpid());
    snprintf(tz, sizeof tz, "%s.zkey.tmp%ld", base, (long)getpid());
    rc = cz_mulchain_write(tr, tw, curve, cz_mulchain_n_for_log_domain(log_n), 3, 7, ei);
    if (rc == CZ_OK)
        rc = cz_r1cs_open(&rf, tr, ei);
    if (rc == CZ_OK) {
        cz_groth16_trapdoor_from_seed(&td, (const uint8_t *)SEED, strlen(SEED));
        rc = cz_groth16_setup(tz, rf, &td, pool, ei);
    }
    cz_r1cs_close(rf);
    if (rc == CZ_OK && (rename(tr, r1cs) != 0 || rename(tw, wtns) != 0 || rename(tz, zkey) != 0))
        rc = cz_fail(ei, CZ_EIO, "renaming into %s.*: %s", base, strerror(errno));
    if (rc != CZ_OK) {
        remove(tr);
        remove(tw);
        remove(tz);
    }
    *made = rc == CZ_OK;
    return rc;
}

#define TIMING_FIELDS(X)                                                                           \
    X(witness_ms)                                                                                  \
    X(upload_ms)                                                                                   \
    X(gpu_ms)                                                                                      \
    X(ntt_ms) X(msm_a_ms) X(msm_b1_ms) X(msm_b2_ms) X(msm_c_ms) X(msm_h_ms) X(total_ms)

/* "timings": the prover's own step times of each timed run; "median_timings": their medians. */
static void timings_json(bench_json *j, const cz_groth16_timings *t, int n) {
    double v[BENCH_MAX_RUNS];
    bench_json_key(j, "timings");
    for (int i = 0; i < n; i++) {
        bench_json_text(j, "%c{", i ? ',' : '[');
        const char *sep = "";
#define ITEM(f)                                                                                    \
    bench_json_text(j, "%s\"" #f "\":%.3f", sep, t[i].f);                                          \
    sep = ",";
        TIMING_FIELDS(ITEM)
#undef ITEM
        bench_json_text(j, "}");
    }
    bench_json_text(j, "]");
    bench_json_key(j, "median_timings");
    const char *sep = "{";
#define MEDIAN(f)                                                                                  \
    for (int i = 0; i < n; i++)                                                                    \
        v[i] = t[i].f;                                                                             \
    bench_json_text(j, "%s\"" #f "\":%.3f", sep, bench_median(v, (size_t)n));                      \
    sep = ",";
    TIMING_FIELDS(MEDIAN)
#undef MEDIAN
    bench_json_text(j, "}");
}

typedef cz_groth16_gpu_key gpu_key;

static int run_size(const bench_opts *o, cz_curve_id curve, unsigned log_n, cz_threadpool *pool) {
    char base[BASELEN], path[PATHLEN];
    int ncalls = o->warmup + o->runs, made = 0, rc = BENCH_FAIL, verified = 0;
    prove_ctx c = {.ncalls = ncalls};
    cz_zkey *zk = NULL;
    cz_wtns *w = NULL;
    cz_groth16_vk vk;
    gpu_key *gk = NULL;
    double ms[BENCH_MAX_RUNS], setup_ms = 0, key_ms = -1;
    cz_errinfo ei;
    bench_json j;
    memset(&vk, 0, sizeof vk);
    cz_errinfo_clear(&ei);

    snprintf(base, sizeof base, "%s/mulchain-%s-%u", o->cache, bench_curve_name(curve), log_n);
    uint64_t t0 = cz_clock_now_ns();
    if (prepare(base, curve, log_n, pool, &made, &ei) != CZ_OK)
        goto fail;
    setup_ms = cz_clock_elapsed_s(t0) * 1e3;
    snprintf(path, sizeof path, "%s.zkey", base);
    if (cz_zkey_open(&zk, path, &ei) != CZ_OK)
        goto fail;
    snprintf(path, sizeof path, "%s.wtns", base);
    if (cz_wtns_open(&w, path, &ei) != CZ_OK)
        goto fail;
    if (o->check && cz_groth16_vk_from_zkey(&vk, zk, &ei) != CZ_OK)
        goto fail;
    c.tm = calloc((size_t)ncalls, sizeof *c.tm);
    c.proof = calloc((size_t)ncalls, sizeof *c.proof);
    c.pub = calloc((size_t)ncalls, sizeof *c.pub);
    if (c.tm == NULL || c.proof == NULL || c.pub == NULL) {
        cz_fail(&ei, CZ_ENOMEM, "out of memory");
        goto fail;
    }
    c.zk = zk;
    c.w = w;
    c.opts.pool = pool;
    if (o->gpu) {
        t0 = cz_clock_now_ns();
        if (cz_groth16_gpu_key_create(&gk, zk, o->device, &ei) != CZ_OK)
            goto fail;
        key_ms = cz_clock_elapsed_s(t0) * 1e3;
        c.opts.use_gpu = 1;
        c.opts.gpu_device = o->device;
        c.opts.gpu_key = gk;
    }
    if (bench_time(ms, o->runs, o->warmup, -1, prove_fn, &c, &ei) != CZ_OK)
        goto fail;
    for (int i = 0; o->check && i < ncalls; i++) {
        if (cz_groth16_verify(&vk, &c.pub[i], &c.proof[i], &ei) != CZ_OK) {
            cz_fail(&ei, CZ_EVERIFY, "proof %d of %d does not verify", i + 1, ncalls);
            goto fail;
        }
        verified++;
    }
    bench_json_result(&j, o, "prove", curve, log_n, o->gpu ? 1 : -1, ms);
    bench_json_int(&j, "constraints", cz_mulchain_n_for_log_domain(log_n));
    bench_json_bool(&j, "cached", !made);
    if (made)
        bench_json_num(&j, "setup_ms", setup_ms);
    if (key_ms >= 0)
        bench_json_num(&j, "gpu_key_ms", key_ms);
    bench_json_bool(&j, "checked", o->check);
    if (o->check)
        bench_json_int(&j, "verified", verified);
    timings_json(&j, c.tm + o->warmup, o->runs);
    bench_json_print(&j);
    rc = BENCH_OK;
    goto out;
fail:
    fprintf(stderr, "cuzk-bench prove: %s 2^%u: %s\n", bench_curve_name(curve), log_n, ei.msg);
out:
    cz_groth16_gpu_key_free(gk);
    for (int i = 0; c.pub != NULL && i < ncalls; i++)
        cz_groth16_public_free(&c.pub[i]);
    free(c.pub);
    free(c.proof);
    free(c.tm);
    if (o->check)
        cz_groth16_vk_free(&vk);
    cz_wtns_close(w);
    cz_zkey_close(zk);
    return rc;
}

int bench_cmd_prove(bench_opts *o) {
    if (o->copies == 0) {
        fprintf(stderr, "cuzk-bench prove: --no-copies: a proof always starts from host data\n");
        return BENCH_USAGE;
    }
    for (size_t s = 0; s < o->nsizes; s++)
        if (o->log_n[s] < MIN_LOG || o->log_n[s] > MAX_LOG) {
            fprintf(stderr, "cuzk-bench prove: --log-n %u: the chain's domain is 2^%d .. 2^%d\n",
                    o->log_n[s], MIN_LOG, MAX_LOG);
            return BENCH_USAGE;
        }
    if (strlen(o->cache) > BASELEN - 64) {
        fprintf(stderr, "cuzk-bench prove: --cache: path too long\n");
        return BENCH_USAGE;
    }
    if (make_dirs(o->cache) != 0) {
        fprintf(stderr, "cuzk-bench prove: cannot create the cache directory %s: %s\n", o->cache,
                strerror(errno));
        return BENCH_FAIL;
    }
    return bench_each_size(o, 1, run_size);
}
