/*
 * cuzk-bench engine: proofs through the in-process proving engine (include/cuzk/pipeline.h),
 * the way the daemon runs them, with the original's per-proof lines and summary.
 *
 *   cuzk-bench engine --workload porep-synth --scale K [--partitions 10] [--curve bls12381]
 *   cuzk-bench engine --workload zkey --zkey F --wtns F
 *       [-c COUNT] [-j CONCURRENCY] [--gpu [--device D,...]] [--gw N] [--partition-workers N]
 *       [--gpu-threads N] [--synthesis-threads N] [--budget-gib G] [--timeline FILE]
 *       [--cache DIR] [--seed S]
 *
 * COUNT jobs are submitted with at most CONCURRENCY in flight (a new one when the oldest ends).
 * Each job's line (JSON) has its wall time from submit to done and its state; every returned
 * proof was verified by the engine (porep-synth keys come from our setup, so they verify). The
 * summary has avg/min/max wall, proofs/min, s/proof (batch wall / COUNT) and, per device, busy %
 * = time its lock was held / batch wall. Exit 0 when every job is done, 1 otherwise, 2 usage.
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cuzk/clock.h"
#include "cuzk/fileio.h"
#include "cuzk/gpu.h"
#include "cuzk/pipeline.h"
#include "cuzk/timeline.h"
#include "cuzk/workload.h"

typedef struct {
    const char *workload, *zkey, *wtns, *timeline, *cache;
    cz_curve_id curve;
    unsigned scale;
    uint32_t partitions;
    int count, conc, gpu, ndev, devs[CZ_ENGINE_MAX_DEVICES];
    int gw, pw, gpu_threads, synth_threads;
    double budget_gib;
    uint64_t seed;
} eopts;

static int usage(const char *what, const char *arg) {
    return bench_usage_error("engine", what, arg);
}

static int parse(eopts *o, int argc, char **argv) {
    memset(o, 0, sizeof *o);
    o->workload = "porep-synth";
    o->curve = CZ_CURVE_BLS12381;
    o->scale = 12;
    o->partitions = 10;
    o->count = 1;
    o->conc = 1;
    o->cache = "./bench-cache";
    o->seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long n;
        if (strcmp(a, "--gpu") == 0) {
            o->gpu = 1;
            continue;
        }
        if (v == NULL)
            return usage("missing value after", a);
        i++;
        if (strcmp(a, "--workload") == 0) {
            if (strcmp(v, "porep-synth") != 0 && strcmp(v, "zkey") != 0)
                return usage("--workload takes porep-synth or zkey", v);
            o->workload = v;
        } else if (strcmp(a, "--scale") == 0 && bench_parse_long(&n, v, 10, 27) == 0) {
            o->scale = (unsigned)n;
        } else if (strcmp(a, "--partitions") == 0 && bench_parse_long(&n, v, 1, 1000) == 0) {
            o->partitions = (uint32_t)n;
        } else if (strcmp(a, "--curve") == 0) {
            if (strcmp(v, "bn254") && strcmp(v, "bls12381"))
                return usage("--curve takes bn254 or bls12381", v);
            o->curve = strcmp(v, "bn254") == 0 ? CZ_CURVE_BN254 : CZ_CURVE_BLS12381;
        } else if (strcmp(a, "--zkey") == 0) {
            o->zkey = v;
        } else if (strcmp(a, "--wtns") == 0) {
            o->wtns = v;
        } else if ((strcmp(a, "-c") == 0 || strcmp(a, "--count") == 0) &&
                   bench_parse_long(&n, v, 1, 100000) == 0) {
            o->count = (int)n;
        } else if ((strcmp(a, "-j") == 0 || strcmp(a, "--concurrency") == 0) &&
                   bench_parse_long(&n, v, 1, 10000) == 0) {
            o->conc = (int)n;
        } else if (strcmp(a, "--device") == 0) {
            char buf[256], *save = NULL;
            snprintf(buf, sizeof buf, "%s", v);
            for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                if (o->ndev == CZ_ENGINE_MAX_DEVICES || bench_parse_long(&n, t, 0, 1023) != 0)
                    return usage("--device takes a list of device numbers", v);
                o->devs[o->ndev++] = (int)n;
            }
        } else if (strcmp(a, "--gw") == 0 && bench_parse_long(&n, v, 1, 64) == 0) {
            o->gw = (int)n;
        } else if (strcmp(a, "--partition-workers") == 0 && bench_parse_long(&n, v, 1, 256) == 0) {
            o->pw = (int)n;
        } else if (strcmp(a, "--gpu-threads") == 0 && bench_parse_long(&n, v, 0, 4096) == 0) {
            o->gpu_threads = (int)n;
        } else if (strcmp(a, "--synthesis-threads") == 0 && bench_parse_long(&n, v, 0, 4096) == 0) {
            o->synth_threads = (int)n;
        } else if (strcmp(a, "--budget-gib") == 0) {
            o->budget_gib = atof(v);
            if (!(o->budget_gib > 0))
                return usage("--budget-gib takes a positive number", v);
        } else if (strcmp(a, "--timeline") == 0) {
            o->timeline = v;
        } else if (strcmp(a, "--cache") == 0) {
            o->cache = v;
        } else if (strcmp(a, "--seed") == 0 && bench_parse_long(&n, v, 0, 1L << 62) == 0) {
            o->seed = (uint64_t)n;
        } else {
            return usage("unknown option or bad value", a);
        }
    }
    if (strcmp(o->workload, "zkey") == 0 && (o->zkey == NULL || o->wtns == NULL))
        return usage("--workload zkey needs --zkey FILE and --wtns FILE", NULL);
    if (o->ndev > 0 && !o->gpu)
        return usage("--device needs --gpu", NULL);
    return BENCH_OK;
}

typedef struct {
    char key[32];
    uint64_t t0;
    double wall_ms;
    int done;
} job_rec;

/* Submits one job of the chosen workload under key. */
static int submit_one(cz_engine *e, const eopts *o, cz_srs *srs, cz_porep_synth_ctx *ctx,
                      const void *wtns, size_t wtns_len, const char *key, uint64_t seed,
                      cz_errinfo *ei) {
    cz_workload wl;
    int rc;
    if (strcmp(o->workload, "zkey") == 0) {
        cz_srs_key *k = NULL;
        if ((rc = cz_srs_acquire(&k, srs, o->zkey, NULL, ei)) != CZ_OK ||
            (rc = cz_workload_zkey(&wl, k, wtns, wtns_len, o->wtns, NULL, ei)) != CZ_OK)
            return rc;
    } else if ((rc = cz_workload_porep_synth(&wl, ctx, o->partitions, seed, NULL, ei)) != CZ_OK) {
        return rc;
    }
    if ((rc = cz_engine_submit(NULL, e, key, CZ_PRIO_NORMAL, &wl, ei)) != CZ_OK)
        wl.ops->destroy(wl.ctx);
    return rc;
}

/* Waits for job r; prints its line when index >= 0. */
static int await_one(cz_engine *e, job_rec *r, int index) {
    cz_job *job = NULL;
    const char *m = NULL;
    cz_errinfo ei;
    int rc = cz_engine_await(&job, e, r->key, -1, &ei);
    if (rc != CZ_OK) {
        fprintf(stderr, "cuzk-bench engine: %s: %s\n", r->key, ei.msg);
        return rc;
    }
    r->wall_ms = (double)cz_clock_elapsed_ns(r->t0) / 1e6;
    r->done = cz_job_state_get(job) == CZ_JOB_DONE;
    cz_job_error(job, &m);
    if (!r->done)
        fprintf(stderr, "cuzk-bench engine: %s %s: %s\n", r->key,
                cz_job_state_name(cz_job_state_get(job)), m ? m : "");
    if (index >= 0) {
        printf("{\"bench\":\"engine\",\"job\":%d,\"wall_ms\":%.1f,\"state\":\"%s\"}\n", index,
               r->wall_ms, cz_job_state_name(cz_job_state_get(job)));
        fflush(stdout);
    }
    cz_job_unref(job);
    return CZ_OK;
}

int bench_cmd_engine(int argc, char **argv) {
    eopts o;
    cz_engine_config cfg;
    cz_budget *budget = NULL;
    cz_srs *srs = NULL;
    cz_srs_key *key = NULL;
    cz_engine *e = NULL;
    cz_porep_synth_ctx *ctx = NULL;
    cz_timeline_emitter *tl = NULL;
    FILE *tlf = NULL;
    void *wtns = NULL;
    size_t wtns_len = 0;
    job_rec *jobs = NULL;
    cz_errinfo ei;
    int rc = parse(&o, argc, argv), ndone = 0;
    cz_errinfo_clear(&ei);
    if (rc != BENCH_OK)
        return rc;
    memset(&cfg, 0, sizeof cfg);
    if (o.gpu) {
        int count = 0;
        if (cz_gpu_device_count(&count, &ei) != CZ_OK || count == 0) {
            fprintf(stderr, "cuzk-bench engine: --gpu: no CUDA device (%s)\n", ei.msg);
            return BENCH_USAGE;
        }
        if (o.ndev == 0)
            for (; o.ndev < count && o.ndev < CZ_ENGINE_MAX_DEVICES; o.ndev++)
                o.devs[o.ndev] = o.ndev;
        for (int d = 0; d < o.ndev; d++)
            if (o.devs[d] >= count) {
                fprintf(stderr, "cuzk-bench engine: --device %d: only %d device(s)\n", o.devs[d],
                        count);
                return BENCH_USAGE;
            }
        cfg.ndevices = o.ndev;
        memcpy(cfg.devices, o.devs, sizeof o.devs);
    }
    cfg.workers_per_device = o.gw;
    cfg.partition_workers = o.pw;
    cfg.gpu_threads = o.gpu_threads;
    cfg.synthesis_threads = o.synth_threads;
    {
        cz_budget_config bc = {(uint64_t)(o.budget_gib * 1073741824.0), 4ull << 30};
        if ((rc = cz_budget_create(&budget, &bc, &ei)) != CZ_OK)
            goto fail;
    }
    cfg.shared_budget = budget;
    if (o.timeline != NULL) {
        if ((tlf = fopen(o.timeline, "w")) == NULL) {
            rc = cz_fail(&ei, CZ_EIO, "cannot write %s", o.timeline);
            goto fail;
        }
        if ((rc = cz_timeline_emitter_create(&tl, tlf, 0)) != CZ_OK)
            goto fail;
        cfg.timeline = tl;
    }
    if (strcmp(o.workload, "zkey") == 0) {
        cz_srs_config sc = {budget, &cz_workload_zkey_gpu_hooks, NULL};
        if ((rc = cz_file_read(&wtns, &wtns_len, o.wtns, &ei)) != CZ_OK)
            goto fail;
        if ((rc = cz_srs_create(&srs, &sc, &ei)) != CZ_OK ||
            (rc = cz_srs_acquire(&key, srs, o.zkey, NULL, &ei)) != CZ_OK)
            goto fail;
    } else {
        uint64_t t = cz_clock_now_ns();
        fprintf(stderr, "cuzk-bench engine: building porep-synth 2^%u (%s) and its key in %s\n",
                o.scale, bench_curve_name(o.curve), o.cache);
        if ((rc = cz_porep_synth_ctx_create(&ctx, o.curve, o.scale, o.cache, NULL, &ei)) != CZ_OK)
            goto fail;
        fprintf(stderr, "cuzk-bench engine: ready in %.1f s\n", cz_clock_elapsed_s(t));
    }
    if ((rc = cz_engine_create(&e, &cfg, &ei)) != CZ_OK)
        goto fail;
    jobs = calloc((size_t)o.count, sizeof *jobs);
    if (jobs == NULL) {
        rc = cz_fail(&ei, CZ_ENOMEM, "job table");
        goto fail;
    }
    /* One untimed warm-up job: keys resident, pools and caches warm. */
    if ((rc = submit_one(e, &o, srs, ctx, wtns, wtns_len, "bench-warmup", o.seed, &ei)) != CZ_OK)
        goto fail;
    {
        job_rec w = {"bench-warmup", 0, 0, 0};
        if (await_one(e, &w, -1) != CZ_OK || !w.done) {
            rc = cz_fail(&ei, CZ_EINTERNAL, "the warm-up job failed");
            goto fail;
        }
    }
    cz_engine_stats s0, s1;
    cz_engine_stats_get(&s0, e);
    uint64_t t_batch = cz_clock_now_ns();
    int next = 0;
    for (int i = 0; i < o.count; i++) {
        for (; i - next >= o.conc; next++)
            await_one(e, &jobs[next], next); /* a failure leaves jobs[next].done 0 */
        snprintf(jobs[i].key, sizeof jobs[i].key, "bench-%d", i);
        jobs[i].t0 = cz_clock_now_ns();
        if ((rc = submit_one(e, &o, srs, ctx, wtns, wtns_len, jobs[i].key, o.seed + 1 + (uint64_t)i,
                             &ei)) != CZ_OK)
            goto fail;
    }
    for (; next < o.count; next++)
        await_one(e, &jobs[next], next);
    {
        bench_batch b;
        char extra[64];
        bench_batch_init(&b, o.count);
        b.batch_ms = (double)cz_clock_elapsed_ns(t_batch) / 1e6;
        cz_engine_stats_get(&s1, e);
        for (int i = 0; i < o.count; i++)
            bench_batch_add(&b, jobs[i].wall_ms, -1, jobs[i].done);
        printf("{\"bench\":\"engine\",\"summary\":true,\"workload\":\"%s\",\"curve\":\"%s\","
               "\"scale\":%u,\"partitions\":%u,\"count\":%d,\"concurrency\":%d,\"done\":%d,"
               "\"backend\":\"%s\",\"devices\":%d,\"gpu_workers_per_device\":%d,"
               "\"partition_workers\":%d,\"verified\":true,",
               o.workload, bench_curve_name(o.curve), o.scale,
               strcmp(o.workload, "zkey") == 0 ? 1 : o.partitions, o.count, o.conc, b.done,
               o.gpu ? "gpu" : "cpu", s1.ndevices, o.gw ? o.gw : 2, o.pw ? o.pw : 2);
        bench_batch_json(stdout, &b);
        printf(",\"busy_pct\":[");
        for (int d = 0; d < s1.ndevices; d++)
            printf("%s%.1f", d ? "," : "", 100.0 * (s1.busy_ms[d] - s0.busy_ms[d]) / b.batch_ms);
        printf("]}\n");
        snprintf(extra, sizeof extra, "; peak budget %.2f GiB",
                 (double)s1.budget.peak / 1073741824.0);
        bench_batch_text(&b, "cuzk-bench engine", extra);
        ndone = b.done;
    }
    rc = ndone == o.count ? BENCH_OK : BENCH_FAIL;
    goto out;
fail:
    fprintf(stderr, "cuzk-bench engine: %s\n", ei.msg[0] ? ei.msg : cz_strerror(rc));
    rc = BENCH_FAIL;
out:
    cz_engine_destroy(e);
    cz_srs_release(key);
    cz_srs_destroy(srs);
    cz_porep_synth_ctx_free(ctx);
    cz_budget_destroy(budget);
    cz_timeline_emitter_destroy(tl);
    if (tlf != NULL)
        fclose(tlf);
    free(wtns);
    free(jobs);
    return rc;
}
