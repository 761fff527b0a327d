/*
 * cuzk-bench engine: proofs through the in-process proving engine (include/cuzk/pipeline.h),
 * the way the daemon runs them, with the original's per-proof lines and summary.
 *
 *   cuzk-bench engine --workload porep-synth --scale K [--partitions 10] [--curve bls12381]
 *   cuzk-bench engine --workload zkey --zkey F --wtns F
 *       [-c COUNT] [-j CONCURRENCY] [--gpu [--device D,...]] [--gw N] [--partition-workers N]
 *       [--gpu-threads N] [--synthesis-threads N] [--budget-gib G] [--timeline FILE]
 *       [--queue-depth N]
 *       [--pinned | --pageable] [--prefill]
 *       [--cache DIR] [--seed S] [--bench-key] [--warmup P] [--sweep GW:PW,...]
 *
 * --bellperson (porep-synth, bls12381): the circuit proven as bellperson proves, from proving
 * assignments with a bellperson key (cz_porep_synth_ctx_create_bp: made by the bellperson-format
 * setup, or with --bench-key made on the device).
 * --bench-key (porep-synth, --gpu): a benchmark key (cz_porep_synth_ctx_create_bench) instead of
 * our setup's key: no .zkey, any scale up to 27; its proofs are timed, NOT verified, and the
 * lines say so ("verified": false, "key": "benchmark"). --warmup P: partitions of the untimed
 * warm-up job (default: --partitions; 0: none). --sweep: one engine per GW:PW pair (GPU workers
 * per device : partition workers), one after the other on the same circuit and key (built once),
 * a summary line each; the warm-up runs before the first only (the key stays resident); with
 * --timeline FILE each config logs to FILE.gwG-pwP. The porep-synth context's host bytes
 * (matrices, B2) are reserved in the memory budget before the engine starts. --prefill: each
 * engine fills its buffer pool (cz_engine_prefill, default partition count) before the warm-up
 * and the timed jobs, so that pinning its buffers is not part of them (timed and printed).
 * --queue-depth N: the engine's pacer (cz_engine_config.gpu_queue_depth; 0 = one per GPU worker,
 * the default; -1 = off, the budget alone paces synthesis).
 *
 * COUNT jobs are submitted with at most CONCURRENCY in flight (a new one when the oldest ends).
 * Each job's line (JSON) has its wall time from submit to done and its state; every returned
 * proof was verified by the engine, except with --bench-key ("verified": false). The summary has
 * avg/min/max wall, proofs/min, s/proof (batch wall / COUNT), the budget's peak and, per device,
 * busy % = time its lock was held / batch wall and the lock time per partition. Exit 0 when every
 * job is done, 1 otherwise, 2 usage.
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
    int queue_depth; /* --queue-depth: the engine's gpu_queue_depth (the pacer; -1 off) */
    int pageable;    /* --pageable: the engine's buffer pool does not pin (--pinned: the default) */
    int prefill;     /* --prefill: cz_engine_prefill before the jobs */
    double budget_gib;
    uint64_t seed;
    int bench_key, bellperson, warmup, nsweep, sweep_gw[16], sweep_pw[16];
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
    o->warmup = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long n;
        if (strcmp(a, "--gpu") == 0) {
            o->gpu = 1;
            continue;
        }
        if (strcmp(a, "--bench-key") == 0) {
            o->bench_key = 1;
            continue;
        }
        if (strcmp(a, "--bellperson") == 0) {
            o->bellperson = 1;
            continue;
        }
        if (strcmp(a, "--prefill") == 0) {
            o->prefill = 1;
            continue;
        }
        if (strcmp(a, "--pinned") == 0 || strcmp(a, "--pageable") == 0) {
            o->pageable = strcmp(a, "--pageable") == 0;
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
        } else if (strcmp(a, "--queue-depth") == 0 && bench_parse_long(&n, v, -1, 1024) == 0) {
            o->queue_depth = (int)n;
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
        } else if (strcmp(a, "--warmup") == 0 && bench_parse_long(&n, v, 0, 1000) == 0) {
            o->warmup = (int)n;
        } else if (strcmp(a, "--sweep") == 0) {
            char buf[256], *save = NULL;
            long g, w;
            snprintf(buf, sizeof buf, "%s", v);
            for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                char *c = strchr(t, ':');
                if (c == NULL || o->nsweep == 16)
                    return usage("--sweep takes GW:PW,... (at most 16)", v);
                *c = 0;
                if (bench_parse_long(&g, t, 1, 64) != 0 || bench_parse_long(&w, c + 1, 1, 256) != 0)
                    return usage("--sweep takes GW:PW,... (at most 16)", v);
                o->sweep_gw[o->nsweep] = (int)g;
                o->sweep_pw[o->nsweep++] = (int)w;
            }
        } else {
            return usage("unknown option or bad value", a);
        }
    }
    if (strcmp(o->workload, "zkey") == 0 && (o->zkey == NULL || o->wtns == NULL))
        return usage("--workload zkey needs --zkey FILE and --wtns FILE", NULL);
    if (o->ndev > 0 && !o->gpu)
        return usage("--device needs --gpu", NULL);
    if (o->bench_key && (!o->gpu || strcmp(o->workload, "porep-synth") != 0))
        return usage("--bench-key needs --workload porep-synth and --gpu", NULL);
    if (o->bellperson && (strcmp(o->workload, "porep-synth") != 0 || o->curve != CZ_CURVE_BLS12381))
        return usage("--bellperson needs --workload porep-synth on bls12381", NULL);
    if (o->warmup < 0)
        o->warmup = (int)o->partitions;
    return BENCH_OK;
}

typedef struct {
    char key[32];
    uint64_t t0;
    double wall_ms;
    int done;
} job_rec;

/* One job's workload of the chosen kind (the caller destroys it unless an engine took it). */
static int make_workload(cz_workload *wl, const eopts *o, cz_srs *srs, cz_porep_synth_ctx *ctx,
                         const void *wtns, size_t wtns_len, uint64_t seed, uint32_t nparts,
                         cz_errinfo *ei) {
    int rc;
    if (strcmp(o->workload, "zkey") == 0) {
        cz_srs_key *k = NULL;
        if ((rc = cz_srs_acquire(&k, srs, o->zkey, NULL, ei)) != CZ_OK)
            return rc;
        return cz_workload_zkey(wl, k, wtns, wtns_len, o->wtns, NULL, ei);
    }
    return cz_workload_porep_synth(wl, ctx, nparts, seed, NULL, ei);
}

/* Submits one job of the chosen workload under key. */
static int submit_one(cz_engine *e, const eopts *o, cz_srs *srs, cz_porep_synth_ctx *ctx,
                      const void *wtns, size_t wtns_len, const char *key, uint64_t seed,
                      uint32_t nparts, cz_errinfo *ei) {
    cz_workload wl;
    int rc;
    if ((rc = make_workload(&wl, o, srs, ctx, wtns, wtns_len, seed, nparts, ei)) != CZ_OK)
        return rc;
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

/* What one engine configuration shares with the others of a sweep. */
typedef struct {
    const eopts *o;
    cz_budget *budget;
    cz_srs *srs;
    cz_porep_synth_ctx *ctx;
    const void *wtns;
    size_t wtns_len;
    const char *key_kind; /* "zkey", "setup", "benchmark" */
} erun;

/* One engine with gw GPU workers per device and pw partition workers: warm-up (warm != 0),
 * COUNT timed jobs, the summary line. */
static int run_config(const erun *r, int gw, int pw, int warm, cz_errinfo *ei) {
    const eopts *o = r->o;
    cz_engine_config cfg;
    cz_engine *e = NULL;
    cz_timeline_emitter *tl = NULL;
    FILE *tlf = NULL;
    job_rec *jobs = NULL;
    int rc, ndone = 0;
    memset(&cfg, 0, sizeof cfg);
    cfg.ndevices = o->gpu ? o->ndev : 0;
    memcpy(cfg.devices, o->devs, sizeof o->devs);
    cfg.workers_per_device = gw;
    cfg.partition_workers = pw;
    cfg.gpu_queue_depth = o->queue_depth;
    cfg.gpu_threads = o->gpu_threads;
    cfg.pageable_buffers = o->pageable;
    cfg.synthesis_threads = o->synth_threads;
    cfg.shared_budget = r->budget;
    if (o->timeline != NULL) {
        char path[4200];
        if (o->nsweep > 0)
            snprintf(path, sizeof path, "%s.gw%d-pw%d", o->timeline, gw, pw);
        else
            snprintf(path, sizeof path, "%s", o->timeline);
        if ((tlf = fopen(path, "w")) == NULL) {
            rc = cz_fail(ei, CZ_EIO, "cannot write %s", path);
            goto out;
        }
        if ((rc = cz_timeline_emitter_create(&tl, tlf, 0)) != CZ_OK)
            goto out;
        cfg.timeline = tl;
    }
    if ((rc = cz_engine_create(&e, &cfg, ei)) != CZ_OK)
        goto out;
    jobs = calloc((size_t)o->count, sizeof *jobs);
    if (jobs == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "job table");
        goto out;
    }
    /* The buffer pool filled (and pinned) before any job. */
    if (o->prefill) {
        cz_workload wl;
        cz_mem_stats ps;
        unsigned made = 0;
        uint64_t t = cz_clock_now_ns();
        if ((rc = make_workload(&wl, o, r->srs, r->ctx, r->wtns, r->wtns_len, o->seed,
                                o->partitions, ei)) != CZ_OK)
            goto out;
        rc = cz_engine_prefill(e, &wl, 0, &made, ei);
        wl.ops->destroy(wl.ctx);
        if (rc != CZ_OK)
            goto out;
        cz_mem_stats_get(&ps, cz_engine_mem(e));
        fprintf(stderr,
                "cuzk-bench engine: prefill: %u buffers (%.2f GiB idle in the pool) in %.1f s\n",
                made, (double)ps.idle_bytes / (1u << 30), cz_clock_elapsed_s(t));
    }
    /* One untimed warm-up job: keys resident, pools and caches warm. */
    if (warm && o->warmup > 0) {
        uint64_t t = cz_clock_now_ns();
        if ((rc = submit_one(e, o, r->srs, r->ctx, r->wtns, r->wtns_len, "bench-warmup", o->seed,
                             (uint32_t)o->warmup, ei)) != CZ_OK)
            goto out;
        job_rec w = {"bench-warmup", 0, 0, 0};
        if (await_one(e, &w, -1) != CZ_OK || !w.done) {
            rc = cz_fail(ei, CZ_EINTERNAL, "the warm-up job failed");
            goto out;
        }
        fprintf(stderr, "cuzk-bench engine: warm-up (%d partitions) %.1f s\n", o->warmup,
                cz_clock_elapsed_s(t));
    }
    cz_engine_stats s0, s1;
    cz_engine_stats_get(&s0, e);
    uint64_t t_batch = cz_clock_now_ns();
    int next = 0;
    for (int i = 0; i < o->count; i++) {
        for (; i - next >= o->conc; next++)
            ndone += await_one(e, &jobs[next], next) == CZ_OK && jobs[next].done;
        snprintf(jobs[i].key, sizeof jobs[i].key, "bench-%d", i);
        jobs[i].t0 = cz_clock_now_ns();
        if ((rc = submit_one(e, o, r->srs, r->ctx, r->wtns, r->wtns_len, jobs[i].key,
                             o->seed + 1 + (uint64_t)i, o->partitions, ei)) != CZ_OK)
            goto out;
    }
    for (; next < o->count; next++)
        ndone += await_one(e, &jobs[next], next) == CZ_OK && jobs[next].done;
    {
        bench_batch b;
        char tag[64], extra[128];
        int zkey = strcmp(o->workload, "zkey") == 0;
        uint32_t np = zkey ? 1 : o->partitions;
        bench_batch_init(&b, o->count);
        b.batch_ms = (double)cz_clock_elapsed_ns(t_batch) / 1e6;
        cz_engine_stats_get(&s1, e);
        for (int i = 0; i < o->count; i++)
            bench_batch_add(&b, jobs[i].wall_ms, -1, jobs[i].done);
        printf("{\"bench\":\"engine\",\"summary\":true,\"workload\":\"%s\",\"curve\":\"%s\","
               "\"scale\":%u,\"partitions\":%u,\"count\":%d,\"concurrency\":%d,\"done\":%d,"
               "\"backend\":\"%s\",\"devices\":%d,\"gpu_workers_per_device\":%d,"
               "\"partition_workers\":%d,\"gpu_queue_depth\":%d,\"verified\":%s,\"key\":\"%s\",",
               o->workload, bench_curve_name(o->curve), o->scale, np, o->count, o->conc, ndone,
               o->gpu ? "gpu" : "cpu", s1.ndevices, gw ? gw : 2, pw ? pw : 2,
               o->queue_depth != 0 ? o->queue_depth : s1.ndevices * (gw ? gw : 2),
               strcmp(r->key_kind, "benchmark") == 0 ? "false" : "true", r->key_kind);
        bench_batch_json(stdout, &b);
        printf(",\"peak_budget_gib\":%.2f,\"budget_gib\":%.2f,\"gpu_s_per_partition\":[",
               (double)s1.budget.peak / 1073741824.0, (double)s1.budget.total / 1073741824.0);
        for (int d = 0; d < s1.ndevices; d++)
            printf("%s%.3f", d ? "," : "",
                   (s1.busy_ms[d] - s0.busy_ms[d]) / 1e3 / ((double)o->count * np));
        printf("],\"busy_pct\":[");
        for (int d = 0; d < s1.ndevices; d++)
            printf("%s%.1f", d ? "," : "", 100.0 * (s1.busy_ms[d] - s0.busy_ms[d]) / b.batch_ms);
        /* The buffer pool since the engine started (warm-up included): churn shows as frees. */
        cz_mem_stats ps;
        cz_mem_stats_get(&ps, cz_engine_mem(e));
        printf("],\"buffers\":\"%s\",\"pool_allocs\":%llu,\"pool_prefilled\":%llu,"
               "\"pool_reuses\":%llu,\"pool_adopted\":%llu,\"pool_frees\":%llu}\n",
               cfg.ndevices > 0 && !cfg.pageable_buffers ? "pinned" : "pageable",
               (unsigned long long)ps.nallocs, (unsigned long long)ps.nprefilled,
               (unsigned long long)ps.nreuses, (unsigned long long)ps.nadopted,
               (unsigned long long)ps.nfreed);
        fflush(stdout);
        snprintf(tag, sizeof tag, "cuzk-bench engine: gw %d pw %d", gw ? gw : 2, pw ? pw : 2);
        snprintf(extra, sizeof extra, "; peak budget %.2f GiB; pool %llu allocs, %llu frees",
                 (double)s1.budget.peak / 1073741824.0, (unsigned long long)ps.nallocs,
                 (unsigned long long)ps.nfreed);
        bench_batch_text(&b, tag, extra);
    }
    rc = ndone == o->count ? CZ_OK : CZ_EINTERNAL;
    if (rc != CZ_OK)
        cz_fail(ei, rc, "%d of %d jobs failed", o->count - ndone, o->count);
out:
    cz_engine_destroy(e);
    cz_timeline_emitter_destroy(tl);
    if (tlf != NULL)
        fclose(tlf);
    free(jobs);
    return rc;
}

int bench_cmd_engine(int argc, char **argv) {
    eopts o;
    cz_budget *budget = NULL;
    cz_srs *srs = NULL;
    cz_srs_key *key = NULL;
    cz_porep_synth_ctx *ctx = NULL;
    cz_reservation ctx_res = {NULL, 0, 0};
    void *wtns = NULL;
    size_t wtns_len = 0;
    cz_errinfo ei;
    int rc = parse(&o, argc, argv), failed = 0;
    cz_errinfo_clear(&ei);
    if (rc != BENCH_OK)
        return rc;
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
    }
    {
        cz_budget_config bc = {(uint64_t)(o.budget_gib * 1073741824.0), 4ull << 30};
        if ((rc = cz_budget_create(&budget, &bc, &ei)) != CZ_OK)
            goto fail;
    }
    erun r = {&o, budget, NULL, NULL, NULL, 0, "zkey"};
    if (strcmp(o.workload, "zkey") == 0) {
        cz_srs_config sc = {budget, &cz_workload_zkey_gpu_hooks, NULL, NULL, 0};
        if ((rc = cz_file_read(&wtns, &wtns_len, o.wtns, &ei)) != CZ_OK)
            goto fail;
        if ((rc = cz_srs_create(&srs, &sc, &ei)) != CZ_OK ||
            (rc = cz_srs_acquire(&key, srs, o.zkey, NULL, &ei)) != CZ_OK)
            goto fail;
    } else {
        uint64_t t = cz_clock_now_ns();
        cz_threadpool *pool = NULL;
        fprintf(stderr, "cuzk-bench engine: building porep-synth 2^%u (%s) and its %s\n", o.scale,
                bench_curve_name(o.curve), o.bench_key ? "benchmark key" : "key");
        if (o.bellperson) {
            /* the build, the densities and the setup are threaded: every core, for this step */
            if ((rc = cz_threadpool_create(&pool, 0, &ei)) == CZ_OK)
                rc = cz_porep_synth_ctx_create_bp(&ctx, o.scale, o.bench_key, pool, &ei);
            cz_threadpool_destroy(pool);
        } else if (o.bench_key) {
            /* the build and the key's B2 are threaded: a pool of every core, for this step */
            if ((rc = cz_threadpool_create(&pool, 0, &ei)) == CZ_OK)
                rc = cz_porep_synth_ctx_create_bench(&ctx, o.curve, o.scale, pool, &ei);
            cz_threadpool_destroy(pool);
        } else {
            rc = cz_porep_synth_ctx_create(&ctx, o.curve, o.scale, o.cache, NULL, &ei);
        }
        if (rc != CZ_OK)
            goto fail;
        uint64_t hb = cz_porep_synth_ctx_host_bytes(ctx);
        fprintf(stderr, "cuzk-bench engine: ready in %.1f s (%.2f GiB of host memory held)\n",
                cz_clock_elapsed_s(t), (double)hb / 1073741824.0);
        if ((rc = cz_budget_reserve(&ctx_res, budget, hb, 0, NULL, NULL, &ei)) != CZ_OK)
            goto fail;
        r.ctx = ctx;
        r.key_kind = o.bench_key ? "benchmark" : "setup";
    }
    r.srs = srs;
    r.wtns = wtns;
    r.wtns_len = wtns_len;
    if (o.nsweep == 0) {
        o.sweep_gw[0] = o.gw;
        o.sweep_pw[0] = o.pw;
    }
    for (int c = 0; c < (o.nsweep ? o.nsweep : 1); c++) {
        cz_errinfo_clear(&ei);
        if ((rc = run_config(&r, o.sweep_gw[c], o.sweep_pw[c], c == 0, &ei)) != CZ_OK) {
            fprintf(stderr, "cuzk-bench engine: gw %d pw %d: %s\n", o.sweep_gw[c], o.sweep_pw[c],
                    ei.msg[0] ? ei.msg : cz_strerror(rc));
            failed = 1;
            if (c == 0)
                break; /* the first config carries the warm-up */
        }
    }
    rc = failed ? BENCH_FAIL : BENCH_OK;
    goto out;
fail:
    fprintf(stderr, "cuzk-bench engine: %s\n", ei.msg[0] ? ei.msg : cz_strerror(rc));
    rc = BENCH_FAIL;
out:
    cz_reservation_release_all(&ctx_res);
    cz_srs_release(key);
    cz_srs_destroy(srs);
    cz_porep_synth_ctx_free(ctx);
    cz_budget_destroy(budget);
    free(wtns);
    return rc;
}
