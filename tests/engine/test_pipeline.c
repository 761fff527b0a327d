/*
 * The pipeline (include/cuzk/pipeline.h) with a fake workload whose "proof" of partition p of job
 * j is a known function of (j, p): every job's result must be exactly its partitions' proofs in
 * order; failures injected at each step must fail only their job, with the step in the message;
 * cancels; a tiny memory budget must bound the partitions in flight; the pacer must bound the
 * partitions ahead of the GPU; 200 jobs of mixed priority must all complete, taken in
 * priority-then-FIFO order.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/pipeline.h"
#include "cuzk/timeline.h"
#include "test.h"

#define PROOF_BYTES 16
/* A fake proof is a BN254 proof struct whose A point's first bytes are the proof: the engine
 * encodes each as 256 bytes (cz_groth16_proof_encode), A's bytes first. */
#define RESULT_BYTES 256

/* A gate threads can wait at until the test opens it, or lets one of them through. */
typedef struct gate {
    pthread_mutex_t m;
    pthread_cond_t c;
    int open, waiting, tokens;
} gate;

static gate g_gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 1, 0, 0};

static void gate_close(void) {
    pthread_mutex_lock(&g_gate.m);
    g_gate.open = 0;
    g_gate.tokens = 0;
    pthread_mutex_unlock(&g_gate.m);
}
static void gate_open(void) {
    pthread_mutex_lock(&g_gate.m);
    g_gate.open = 1;
    pthread_cond_broadcast(&g_gate.c);
    pthread_mutex_unlock(&g_gate.m);
}
static void gate_pass(void) {
    pthread_mutex_lock(&g_gate.m);
    g_gate.waiting++;
    while (!g_gate.open && g_gate.tokens == 0)
        pthread_cond_wait(&g_gate.c, &g_gate.m);
    if (!g_gate.open)
        g_gate.tokens--;
    g_gate.waiting--;
    pthread_mutex_unlock(&g_gate.m);
}
static void gate_let_one(void) {
    pthread_mutex_lock(&g_gate.m);
    g_gate.tokens++;
    pthread_cond_broadcast(&g_gate.c);
    pthread_mutex_unlock(&g_gate.m);
}
static int gate_waiting(void) {
    pthread_mutex_lock(&g_gate.m);
    int w = g_gate.waiting;
    pthread_mutex_unlock(&g_gate.m);
    return w;
}

enum { FAIL_NONE, FAIL_SYNTH, FAIL_PREP, FAIL_COMPUTE, FAIL_FINISH, FAIL_VERIFY, FAIL_UPLOAD };

/* Shared bookkeeping of all fake jobs of a test. */
static atomic_int g_inflight, g_inflight_max, g_live_bufs, g_destroyed;
static atomic_int g_prepick, g_prepick_max; /* synthesis started, prepare (GPU pickup) not yet */
static pthread_mutex_t g_order_m = PTHREAD_MUTEX_INITIALIZER;
static int g_order[512], g_norder;
static int g_trace[512], g_ntrace;   /* under g_order_m */
static int g_strace[512], g_nstrace; /* under g_order_m */

typedef struct fake {
    int id;          /* job number: the proofs depend on it */
    int fail_at;     /* FAIL_* */
    uint32_t fail_p; /* partition that fails */
    int use_gate;    /* synthesis of partition 0 waits at the gate (2: every partition's) */
    int record;      /* partition 0's synthesis appends id to g_order */
    int delay_us;
    int compute_delay_us;
    int trace;       /* compute appends id * 100 + p to g_trace */
    int trace_synth; /* synthesis (before the gate) appends id * 100 + p to g_strace */
} fake;

typedef struct buf {
    int id;
    uint32_t p;
    int uploaded; /* the upload step ran (before compute, as the engine promises) */
    uint8_t proof[PROOF_BYTES];
} buf;

static void expected_proof(uint8_t *out, int id, uint32_t p) {
    uint64_t x = (uint64_t)id * 0x9e3779b97f4a7c15ull ^ ((uint64_t)p + 1) * 0xbf58476d1ce4e5b9ull;
    for (int i = 0; i < PROOF_BYTES; i++) {
        x ^= x >> 29;
        x *= 0x94d049bb133111ebull;
        out[i] = (uint8_t)(x >> 56);
    }
}

static int fake_synth(void **part, void *ctx, uint32_t p, const cz_part_env *env, cz_part_times *t,
                      cz_errinfo *ei) {
    fake *f = ctx;
    buf *b;
    (void)env;
    (void)t;
    if (f->trace_synth) {
        pthread_mutex_lock(&g_order_m);
        if (g_nstrace < (int)(sizeof g_strace / sizeof g_strace[0]))
            g_strace[g_nstrace++] = f->id * 100 + (int)p;
        pthread_mutex_unlock(&g_order_m);
    }
    if ((p == 0 && f->use_gate) || f->use_gate == 2)
        gate_pass();
    if (p == 0 && f->record) {
        pthread_mutex_lock(&g_order_m);
        g_order[g_norder++] = f->id;
        pthread_mutex_unlock(&g_order_m);
    }
    int now = atomic_fetch_add(&g_inflight, 1) + 1, prev = atomic_load(&g_inflight_max);
    while (now > prev && !atomic_compare_exchange_weak(&g_inflight_max, &prev, now))
        ;
    now = atomic_fetch_add(&g_prepick, 1) + 1;
    prev = atomic_load(&g_prepick_max);
    while (now > prev && !atomic_compare_exchange_weak(&g_prepick_max, &prev, now))
        ;
    if (f->delay_us)
        usleep((useconds_t)f->delay_us);
    if (f->fail_at == FAIL_SYNTH && p == f->fail_p) {
        atomic_fetch_sub(&g_inflight, 1);
        atomic_fetch_sub(&g_prepick, 1);
        return cz_fail(ei, CZ_EFORMAT, "fake synthesis error in job %d", f->id);
    }
    b = calloc(1, sizeof *b);
    if (b == NULL)
        return cz_fail(ei, CZ_ENOMEM, "fake");
    atomic_fetch_add(&g_live_bufs, 1);
    b->id = f->id;
    b->p = p;
    *part = b;
    return CZ_OK;
}

static int fake_prepare(void *part, void *ctx, const cz_engine_device *dev, cz_part_times *t,
                        cz_errinfo *ei) {
    fake *f = ctx;
    buf *b = part;
    (void)dev;
    (void)t;
    atomic_fetch_sub(&g_prepick, 1);
    if (f->fail_at == FAIL_PREP && b->p == f->fail_p) {
        atomic_fetch_sub(&g_inflight, 1);
        return cz_fail(ei, CZ_EIO, "fake prepare error in job %d", f->id);
    }
    return CZ_OK;
}

static int fake_upload(void *pending, void *ctx, const cz_engine_device *dev, cz_part_times *t,
                       cz_errinfo *ei) {
    fake *f = ctx;
    buf *b = pending;
    (void)t;
    if (dev->device != -1 || dev->ws != NULL)
        return cz_fail(ei, CZ_EINTERNAL, "fake: expected the CPU backend (no device buffers)");
    if (f->fail_at == FAIL_UPLOAD && b->p == f->fail_p) {
        atomic_fetch_sub(&g_inflight, 1);
        return cz_fail(ei, CZ_EGPU, "fake upload error in job %d", f->id);
    }
    b->uploaded = 1;
    return CZ_OK;
}

static int fake_compute(void *pending, void *ctx, const cz_engine_device *dev, cz_part_times *t,
                        cz_errinfo *ei) {
    fake *f = ctx;
    buf *b = pending;
    (void)t;
    if (dev->device != -1 || dev->compute == NULL)
        return cz_fail(ei, CZ_EINTERNAL, "fake: expected the CPU backend");
    if (!b->uploaded)
        return cz_fail(ei, CZ_EINTERNAL, "fake: compute before upload");
    if (f->compute_delay_us)
        usleep((useconds_t)f->compute_delay_us);
    if (f->trace) {
        pthread_mutex_lock(&g_order_m);
        if (g_ntrace < (int)(sizeof g_trace / sizeof g_trace[0]))
            g_trace[g_ntrace++] = f->id * 100 + (int)b->p;
        pthread_mutex_unlock(&g_order_m);
    }
    if (f->fail_at == FAIL_COMPUTE && b->p == f->fail_p) {
        atomic_fetch_sub(&g_inflight, 1);
        return cz_fail(ei, CZ_EGPU, "fake kernel fault in job %d", f->id);
    }
    expected_proof(b->proof, b->id, b->p);
    return CZ_OK;
}

static int fake_finish(cz_groth16_proof *proof, void *pending, void *ctx, cz_part_times *t,
                       cz_errinfo *ei) {
    fake *f = ctx;
    buf *b = pending;
    (void)t;
    atomic_fetch_sub(&g_inflight, 1);
    if (f->fail_at == FAIL_FINISH && b->p == f->fail_p)
        return cz_fail(ei, CZ_EINTERNAL, "fake finish error in job %d", f->id);
    memset(proof, 0, sizeof *proof);
    proof->curve = CZ_CURVE_BN254;
    memcpy(&proof->u.bn254.a, b->proof, PROOF_BYTES);
    return CZ_OK;
}

static void fake_free(void *p, void *ctx) {
    (void)ctx;
    atomic_fetch_sub(&g_live_bufs, 1);
    free(p);
}

static int fake_verify(void *ctx, const cz_groth16_proof *proofs, uint32_t nparts, cz_errinfo *ei) {
    fake *f = ctx;
    uint8_t want[PROOF_BYTES];
    if (f->fail_at == FAIL_VERIFY)
        return cz_fail(ei, CZ_EVERIFY, "fake: job %d does not verify", f->id);
    for (uint32_t p = 0; p < nparts; p++) {
        expected_proof(want, f->id, p);
        if (memcmp(want, &proofs[p].u.bn254.a, PROOF_BYTES) != 0)
            return cz_fail(ei, CZ_EVERIFY, "fake: job %d partition %u wrong", f->id, p);
    }
    return CZ_OK;
}

static void fake_destroy(void *ctx) {
    atomic_fetch_add(&g_destroyed, 1);
    free(ctx);
}

static const cz_workload_ops fake_ops = {.name = "fake",
                                         .synthesize = fake_synth,
                                         .prepare = fake_prepare,
                                         .compute = fake_compute,
                                         .finish = fake_finish,
                                         .part_free = fake_free,
                                         .verify = fake_verify,
                                         .destroy = fake_destroy,
                                         .upload = fake_upload};

static cz_workload make_wl(int id, uint32_t nparts, int fail_at, uint32_t fail_p) {
    fake *f = calloc(1, sizeof *f);
    CZ_ASSERT(f != NULL);
    f->id = id;
    f->fail_at = fail_at;
    f->fail_p = fail_p;
    cz_workload wl = {&fake_ops, f, nparts, CZ_KIND_OTHER, 1000, 600, {0}};
    return wl;
}

static cz_timeline_emitter *g_tl; /* set while a test wants a timeline */
static int g_queue_depth;         /* cz_engine_config.gpu_queue_depth of the next engine */
static int g_urgent;              /* cz_engine_config.urgent_synthesis of the next engine */

static cz_engine *make_engine(int synth_workers, int gpu_workers, uint64_t budget) {
    cz_engine_config cfg;
    cz_engine *e = NULL;
    cz_errinfo ei;
    memset(&cfg, 0, sizeof cfg);
    cfg.workers_per_device = gpu_workers;
    cfg.partition_workers = synth_workers;
    cfg.synthesis_threads = 1;
    cfg.gpu_threads = 2;
    cfg.budget.total_bytes = budget;
    cfg.timeline = g_tl;
    cfg.gpu_queue_depth = g_queue_depth;
    cfg.urgent_synthesis = g_urgent;
    CHECK_ERR(cz_engine_create(&e, &cfg, &ei), CZ_OK);
    return e;
}

static void submit(cz_engine *e, const char *key, cz_priority prio, cz_workload wl) {
    cz_errinfo ei;
    int rc = cz_engine_submit(NULL, e, key, prio, &wl, &ei);
    CHECK_ERR(rc, CZ_OK);
    if (rc != CZ_OK) {
        fprintf(stderr, "submit %s: %s\n", key, ei.msg);
        fake_destroy(wl.ctx);
    }
}

/* Waits for key and returns its state; *msg gets a copy of its error message. */
static cz_job_state await_state(cz_engine *e, const char *key, char *msg, size_t msg_len,
                                int check_result_id, uint32_t nparts) {
    cz_job *job = NULL;
    cz_errinfo ei;
    int rc = cz_engine_await(&job, e, key, 60000, &ei);
    CHECK_ERR(rc, CZ_OK);
    if (rc != CZ_OK) {
        cz_job_unref(job);
        return CZ_JOB_QUEUED;
    }
    cz_job_state st = cz_job_state_get(job);
    if (msg != NULL) {
        const char *m = NULL;
        cz_job_error(job, &m);
        snprintf(msg, msg_len, "%s", m ? m : "");
    }
    if (st == CZ_JOB_DONE && check_result_id >= 0) {
        size_t len = 0;
        const uint8_t *r = cz_job_result(job, &len);
        uint8_t want[PROOF_BYTES];
        CHECK(r != NULL && len == (size_t)nparts * RESULT_BYTES);
        for (uint32_t p = 0; r != NULL && p < nparts; p++) {
            expected_proof(want, check_result_id, p);
            CHECK(memcmp(want, r + (size_t)p * RESULT_BYTES, PROOF_BYTES) == 0);
        }
    }
    cz_job_unref(job);
    return st;
}

static void test_results_and_failures(void) {
    char *log = NULL;
    size_t log_len = 0;
    FILE *logf = open_memstream(&log, &log_len);
    CHECK(logf != NULL && cz_timeline_emitter_create(&g_tl, logf, 0) == CZ_OK);
    cz_engine *e = make_engine(3, 2, 1u << 20);
    static const char *step_names[] = {"",       "synthesis", "prepare", "GPU compute",
                                       "finish", "verify",    "upload"};
    char key[32], msg[CZ_ERRINFO_MSG_MAX];
    atomic_store(&g_destroyed, 0);
    for (int i = 0; i < 14; i++) {
        int fail = i % 7; /* jobs 0, 7: fine; the others fail at one step */
        snprintf(key, sizeof key, "job-%d", i);
        submit(e, key, CZ_PRIO_NORMAL, make_wl(i, 10, fail, (uint32_t)(i % 10)));
    }
    for (int i = 0; i < 14; i++) {
        int fail = i % 7;
        snprintf(key, sizeof key, "job-%d", i);
        cz_job_state st = await_state(e, key, msg, sizeof msg, i, 10);
        if (fail == FAIL_NONE) {
            CHECK_EQ_INT(st, CZ_JOB_DONE);
        } else {
            CHECK_EQ_INT(st, CZ_JOB_FAILED);
            CHECK(strstr(msg, "fake") != NULL);
            if (fail != FAIL_VERIFY) {
                char part[32];
                snprintf(part, sizeof part, "partition %d", i % 10);
                CHECK(strstr(msg, step_names[fail]) != NULL && strstr(msg, part) != NULL);
            }
            if (strstr(msg, "fake") == NULL)
                fprintf(stderr, "job %d: message '%s'\n", i, msg);
        }
    }
    cz_engine_stats es;
    cz_engine_stats_get(&es, e);
    CHECK(es.budget.used == 0 && es.budget.peak <= es.budget.total);
    CHECK_EQ_INT(es.parts_done + es.parts_failed + es.parts_skipped, 140);
    cz_engine_destroy(e);
    /* The timeline tells the same story: 14 jobs, 2 done, 12 failed, and on the CPU "device"
     * one lane per GPU worker. */
    cz_timeline_emitter_destroy(g_tl);
    g_tl = NULL;
    fclose(logf);
    cz_timeline *tl = NULL;
    cz_errinfo tei;
    CHECK_ERR(cz_timeline_parse(&tl, log, log_len, "pipeline", &tei), CZ_OK);
    if (tl != NULL) {
        CHECK(tl->njobs == 14 && tl->njobs_done == 2 && tl->njobs_failed == 12);
        CHECK_EQ_INT(tl->ngpus, 1);
        size_t ngpu_workers = 0;
        for (size_t w = 0; w < tl->nworkers; w++)
            ngpu_workers += tl->workers[w].kind == CZ_TL_WORKER_GPU;
        CHECK(ngpu_workers >= 1 && ngpu_workers <= 2);
        cz_timeline_free(tl);
    }
    free(log);
    CHECK_EQ_INT(atomic_load(&g_live_bufs), 0);
    CHECK_EQ_INT(atomic_load(&g_destroyed), 14);
}

static void test_duplicate_and_cancel(void) {
    cz_engine *e = make_engine(1, 1, 1u << 20);
    cz_errinfo ei;
    cz_workload wl;
    char msg[CZ_ERRINFO_MSG_MAX];
    gate_close();
    wl = make_wl(100, 4, FAIL_NONE, 0);
    ((fake *)wl.ctx)->use_gate = 1;
    submit(e, "running", CZ_PRIO_NORMAL, wl);
    submit(e, "queued", CZ_PRIO_LOW, make_wl(101, 4, FAIL_NONE, 0));
    while (gate_waiting() == 0)
        usleep(1000);
    /* the same key again while the job lives: refused, the workload stays ours */
    wl = make_wl(102, 1, FAIL_NONE, 0);
    CHECK_ERR(cz_engine_submit(NULL, e, "running", CZ_PRIO_HIGH, &wl, &ei), CZ_EEXIST);
    fake_destroy(wl.ctx);
    /* a partition larger than the whole budget: refused at once */
    wl = make_wl(103, 1, FAIL_NONE, 0);
    wl.part_bytes = 2u << 20;
    wl.part_abc_bytes = 0;
    CHECK_ERR(cz_engine_submit(NULL, e, "huge", CZ_PRIO_HIGH, &wl, &ei), CZ_ERANGE);
    CHECK(strstr(ei.msg, "budget") != NULL);
    fake_destroy(wl.ctx);
    /* cancel both: the queued job at once, the running one once its partitions end */
    CHECK_ERR(cz_engine_cancel(e, "running", &ei), CZ_OK);
    CHECK_ERR(cz_engine_cancel(e, "nosuch", &ei), CZ_ENOTFOUND);
    gate_open();
    CHECK_EQ_INT(await_state(e, "running", msg, sizeof msg, -1, 4), CZ_JOB_CANCELLED);
    CHECK(cz_engine_cancel(e, "queued", &ei) == CZ_OK || ei.code == CZ_EINVAL);
    cz_job_state st = await_state(e, "queued", msg, sizeof msg, 101, 4);
    CHECK(st == CZ_JOB_CANCELLED || st == CZ_JOB_DONE);
    cz_engine_stats es;
    cz_engine_stats_get(&es, e);
    CHECK_EQ_INT(es.budget.used, 0);
    cz_engine_destroy(e);
    CHECK_EQ_INT(atomic_load(&g_live_bufs), 0);
}

static void test_tiny_budget(void) {
    /* 1000 bytes a partition, 2500 in the budget: at most 2 partitions between reservation and
     * the end of finish, whatever the number of workers. */
    cz_engine *e = make_engine(4, 3, 2500);
    char key[32];
    atomic_store(&g_inflight, 0); /* earlier tests' skipped partitions never reach finish */
    atomic_store(&g_inflight_max, 0);
    for (int i = 0; i < 6; i++) {
        cz_workload wl = make_wl(200 + i, 5, FAIL_NONE, 0);
        wl.part_abc_bytes = 0; /* keep the whole reservation until finish */
        ((fake *)wl.ctx)->delay_us = 2000;
        snprintf(key, sizeof key, "tiny-%d", i);
        submit(e, key, CZ_PRIO_NORMAL, wl);
    }
    for (int i = 0; i < 6; i++) {
        snprintf(key, sizeof key, "tiny-%d", i);
        CHECK_EQ_INT(await_state(e, key, NULL, 0, 200 + i, 5), CZ_JOB_DONE);
    }
    cz_engine_stats es;
    cz_engine_stats_get(&es, e);
    CHECK(es.budget.peak <= 2500 && es.budget.peak >= 1000);
    CHECK(atomic_load(&g_inflight_max) <= 2 && atomic_load(&g_inflight_max) >= 1);
    cz_engine_destroy(e);
}

/* The pacer: with synthesis much faster than the (one) compute worker and room in the budget
 * for every partition, at most partition_workers + gpu_queue_depth partitions are between the
 * start of their synthesis and their GPU pickup (seen at prepare, so one more); with the pacer
 * off they pile up. */
static int paced_run(int depth) {
    cz_engine *e;
    g_queue_depth = depth;
    e = make_engine(2, 1, 1u << 30);
    g_queue_depth = 0;
    atomic_store(&g_prepick, 0);
    atomic_store(&g_prepick_max, 0);
    for (int i = 0; i < 2; i++) {
        char key[32];
        cz_workload wl = make_wl(300 + i, 12, FAIL_NONE, 0);
        ((fake *)wl.ctx)->compute_delay_us = 3000;
        snprintf(key, sizeof key, "paced-%d-%d", depth, i);
        submit(e, key, CZ_PRIO_NORMAL, wl);
    }
    for (int i = 0; i < 2; i++) {
        char key[32];
        snprintf(key, sizeof key, "paced-%d-%d", depth, i);
        CHECK_EQ_INT(await_state(e, key, NULL, 0, 300 + i, 12), CZ_JOB_DONE);
    }
    cz_engine_destroy(e);
    return atomic_load(&g_prepick_max);
}

static void test_pacer(void) {
    int one = paced_run(1), dflt = paced_run(0), off = paced_run(-1);
    /* 2 + 1 paced, + 1: a partition the GPU worker has picked up counts here until its prepare */
    CHECK(one >= 1 && one <= 2 + 1 + 1);
    CHECK(dflt >= 1 && dflt <= 2 + 1 + 1); /* default depth: one per GPU worker, here 1 */
    CHECK(off > 2 + 1 + 1);                /* the budget alone lets synthesis run ahead */
    printf("pacer: at most %d / %d / %d partitions ahead of the GPU (depth 1 / default / off)\n",
           one, dflt, off);
}

static int trace_count(void) {
    pthread_mutex_lock(&g_order_m);
    int n = g_ntrace;
    pthread_mutex_unlock(&g_order_m);
    return n;
}

/* One run of test_urgent_job_passes with gpu_queue_depth depth: how many of the Normal job's
 * partitions were computed after the urgent job's last one. */
static int urgent_run(int depth) {
    cz_engine *e;
    cz_workload wl = make_wl(40, 16, FAIL_NONE, 0);
    int normal_after = 0, urgent_seen = 0;
    g_queue_depth = depth;
    e = make_engine(1, 1, 1u << 30);
    g_queue_depth = 0;
    ((fake *)wl.ctx)->compute_delay_us = 20000;
    ((fake *)wl.ctx)->trace = 1;
    pthread_mutex_lock(&g_order_m);
    g_ntrace = 0;
    pthread_mutex_unlock(&g_order_m);
    submit(e, "slow-normal", CZ_PRIO_NORMAL, wl);
    while (trace_count() < 2) /* the Normal job is on the GPU */
        usleep(1000);
    wl = make_wl(41, 2, FAIL_NONE, 0);
    ((fake *)wl.ctx)->trace = 1;
    submit(e, "urgent", CZ_PRIO_CRITICAL, wl);
    CHECK_EQ_INT(await_state(e, "urgent", NULL, 0, 41, 2), CZ_JOB_DONE);
    CHECK_EQ_INT(await_state(e, "slow-normal", NULL, 0, 40, 16), CZ_JOB_DONE);
    pthread_mutex_lock(&g_order_m);
    CHECK_EQ_INT(g_ntrace, 18);
    for (int i = 0; i < g_ntrace; i++) {
        if (g_trace[i] / 100 == 41)
            urgent_seen++;
        else if (urgent_seen == 2)
            normal_after++;
    }
    pthread_mutex_unlock(&g_order_m);
    CHECK_EQ_INT(urgent_seen, 2);
    cz_engine_destroy(e);
    return normal_after;
}

static void test_urgent_job_passes(void) {
    /* A Critical job submitted while a 16-partition Normal job is on the GPU (one GPU worker, 20
     * ms a partition: the GPU is the bottleneck) goes before most of the Normal job's partitions.
     * With the pacer (2 partitions ahead of the GPU) the dispatcher takes it before the Normal
     * job's next partition (before, it waited for all 16 to be dispatched); without the pacer
     * all 16 are dispatched at once and wait in the GPU queue, which the urgent job's partitions
     * pass. At most 2 computed + 1 computing + 2 paced + 1 being dispatched, and a few
     * partitions' slack, go before it. */
    int paced = urgent_run(0), unpaced = urgent_run(-1);
    CHECK(paced >= 6 && unpaced >= 6);
    printf("urgent job: %d / %d of the Normal job's 16 partitions computed after it (pacer on / "
           "off)\n",
           paced, unpaced);
}

/* Waits until the gate holds `waiting` threads, the synthesis queue `queued` partitions, the
 * scheduler `running` jobs and synthesis has started `started` partitions (a failed check after
 * 30 s). */
static void wait_pipeline(cz_engine *e, int waiting, size_t queued, size_t running, int started) {
    for (int ms = 0;; ms++) {
        cz_engine_stats es;
        cz_engine_stats_get(&es, e);
        pthread_mutex_lock(&g_order_m);
        int n = g_nstrace;
        pthread_mutex_unlock(&g_order_m);
        if (gate_waiting() == waiting && es.synth_queue == queued && es.sched.running == running &&
            n == started)
            return;
        if (ms == 30000) {
            CHECK(!"the pipeline reached the state the test waits for");
            fprintf(stderr,
                    "waited for %d at the gate, %zu queued, %zu running, %d started; have "
                    "%d, %zu, %zu, %d\n",
                    waiting, queued, running, started, gate_waiting(), es.synth_queue,
                    es.sched.running, n);
            return;
        }
        usleep(1000);
    }
}

/* An engine of 2 synthesis workers and 1 GPU worker (pacer depth, urgent_synthesis) and a
 * 6-partition Normal job `id` whose every synthesis waits at the (closed) gate, traced in
 * g_strace. */
static cz_engine *engine_with_held_job(int depth, int urgent, int id, const char *key) {
    cz_engine *e;
    cz_workload wl = make_wl(id, 6, FAIL_NONE, 0);
    g_queue_depth = depth;
    g_urgent = urgent;
    e = make_engine(2, 1, 1u << 30);
    g_queue_depth = g_urgent = 0;
    pthread_mutex_lock(&g_order_m);
    g_nstrace = 0;
    pthread_mutex_unlock(&g_order_m);
    gate_close();
    ((fake *)wl.ctx)->use_gate = 2;
    ((fake *)wl.ctx)->trace_synth = 1;
    submit(e, key, CZ_PRIO_NORMAL, wl);
    return e;
}

static void test_urgent_synthesis_first(void) {
    /* Two synthesis workers held at the gate with partitions 0 and 1 of a Normal job, 2 and 3
     * in the synthesis queue, the dispatcher pushing 4; a Critical job arrives. Letting one
     * worker through at a time: the dispatcher pushes 4, takes the Critical job and waits to
     * push its partition; when a worker takes 3 that partition goes in before 4, so the next
     * free worker synthesizes it before 4 (first in, first out would give 4). */
    /* no pacer; no urgent worker: this is about the queue's order, that worker would take the
     * Critical partition at once */
    cz_engine *e = engine_with_held_job(-1, -1, 50, "gated-normal");
    cz_workload wl;
    wait_pipeline(e, 2, 2, 1, 2);
    wl = make_wl(51, 1, FAIL_NONE, 0);
    ((fake *)wl.ctx)->trace_synth = 1;
    submit(e, "urgent-synth", CZ_PRIO_CRITICAL, wl);
    gate_let_one();               /* a worker ends 0 or 1 and takes 2 */
    wait_pipeline(e, 2, 2, 2, 3); /* 3, 4 queued; the Critical job taken, its push waiting */
    gate_let_one();               /* a worker takes 3; the Critical partition goes in */
    wait_pipeline(e, 2, 2, 2, 4);
    gate_let_one(); /* the next free worker takes the head of the queue */
    for (int ms = 0; ms < 30000; ms++) {
        pthread_mutex_lock(&g_order_m);
        int n = g_nstrace, fifth = g_strace[4];
        pthread_mutex_unlock(&g_order_m);
        if (n >= 5) {
            CHECK_EQ_INT(fifth, 5100);
            if (fifth != 5100)
                fprintf(stderr, "fifth synthesis: %d, not the Critical job's 5100\n", fifth);
            break;
        }
        usleep(1000);
    }
    gate_open();
    CHECK_EQ_INT(await_state(e, "urgent-synth", NULL, 0, 51, 1), CZ_JOB_DONE);
    CHECK_EQ_INT(await_state(e, "gated-normal", NULL, 0, 50, 6), CZ_JOB_DONE);
    cz_engine_destroy(e);
}

static void test_urgent_worker(void) {
    /* Both synthesis workers held at the gate by a Normal job's partitions, one more queued and
     * the dispatcher waiting for the pacer (3 ahead of the GPU) with the next: a Critical job is
     * dispatched from that wait, let in by the pacer's extra place, synthesized by the urgent
     * worker, computed and done while the gate is still closed, and so is a second one. With
     * urgent_synthesis < 0 it waits for the pacer until a worker is let through. */
    for (int off = 0; off < 2; off++) {
        cz_engine *e = engine_with_held_job(0, off ? -1 : 0, 60, "held-normal");
        cz_job *job = NULL;
        wait_pipeline(e, 2, 1, 1, 2); /* 0, 1 held, 2 queued, 3 waits for the pacer */
        for (int i = 0; i < 2; i++) { /* a second Critical job takes the urgent worker again */
            char key[32];
            snprintf(key, sizeof key, "critical-%d", i);
            submit(e, key, CZ_PRIO_CRITICAL, make_wl(61 + i, 1, FAIL_NONE, 0));
            if (off) {
                int rc = cz_engine_await(&job, e, key, 300, NULL);
                CHECK(rc == CZ_ETIMEDOUT && cz_job_state_get(job) == CZ_JOB_RUNNING);
                cz_job_unref(job);
                break;
            }
            CHECK_EQ_INT(await_state(e, key, NULL, 0, 61 + i, 1), CZ_JOB_DONE);
            CHECK_EQ_INT(gate_waiting(), 2); /* the Normal partitions are still held */
        }
        gate_open();
        if (off)
            CHECK_EQ_INT(await_state(e, "critical-0", NULL, 0, 61, 1), CZ_JOB_DONE);
        CHECK_EQ_INT(await_state(e, "held-normal", NULL, 0, 60, 6), CZ_JOB_DONE);
        cz_engine_destroy(e);
    }
}

static void test_critical_passes_budget_wait(void) {
    /* A Normal job's partitions 0 and 1 held at the gate by both synthesis workers, with 1000 of
     * the 2500 bytes of the budget each, and the dispatcher waiting for memory for partition 2
     * (no pacer: the budget alone holds it back). A Critical job of smaller partitions arrives:
     * the Normal partition's wait gives way, the Critical partitions are reserved, synthesized
     * by the urgent worker and done while the gate is still closed; then the Normal job ends. */
    cz_engine *e;
    cz_workload wl = make_wl(70, 6, FAIL_NONE, 0);
    cz_budget_stats bs;
    g_queue_depth = -1;
    e = make_engine(2, 1, 2500);
    g_queue_depth = 0;
    gate_close();
    wl.part_abc_bytes = 0;
    ((fake *)wl.ctx)->use_gate = 2;
    submit(e, "budget-normal", CZ_PRIO_NORMAL, wl);
    for (int ms = 0; ms < 30000; ms++) {
        cz_budget_stats_get(&bs, cz_engine_budget(e));
        if (gate_waiting() == 2 && bs.nwaiting == 1)
            break;
        usleep(1000);
    }
    CHECK(gate_waiting() == 2 && bs.nwaiting == 1 && bs.used == 2000);
    for (int i = 0; i < 2; i++) {
        char key[32];
        cz_job *job = NULL;
        snprintf(key, sizeof key, "budget-critical-%d", i);
        wl = make_wl(71 + i, 2, FAIL_NONE, 0);
        wl.part_bytes = 400;
        wl.part_abc_bytes = 0;
        submit(e, key, CZ_PRIO_CRITICAL, wl);
        CHECK(cz_engine_await(&job, e, key, 20000, NULL) == CZ_OK &&
              cz_job_state_get(job) == CZ_JOB_DONE);
        cz_job_unref(job);
        CHECK(gate_waiting() == 2); /* the Normal partitions are still held */
    }
    gate_open();
    CHECK(await_state(e, "budget-normal", NULL, 0, 70, 6) == CZ_JOB_DONE);
    cz_engine_stats es;
    cz_engine_stats_get(&es, e);
    CHECK(es.budget.used == 0 && es.budget.peak <= 2500);
    cz_engine_destroy(e);
}

static void test_200_jobs_priority_order(void) {
    /* One synthesis worker and a synthesis queue of one: while the gate job blocks the worker,
     * one more partition waits in the queue and the dispatcher is stuck pushing a third; the
     * 200 jobs submitted then are all in the scheduler and must come out in priority order,
     * first in first out within a priority. (No urgent synthesis worker: with a second worker
     * the order in which two workers note the partitions they took is a race.) */
    cz_engine *e;
    g_urgent = -1;
    e = make_engine(1, 2, 1u << 20);
    g_urgent = 0;
    cz_workload wl;
    char key[32];
    int prio_of[200];
    cz_sched_stats ss;
    gate_close();
    wl = make_wl(1000, 1, FAIL_NONE, 0);
    ((fake *)wl.ctx)->use_gate = 1;
    submit(e, "gate", CZ_PRIO_LOW, wl);
    submit(e, "filler-1", CZ_PRIO_LOW, make_wl(1001, 1, FAIL_NONE, 0));
    submit(e, "filler-2", CZ_PRIO_LOW, make_wl(1002, 1, FAIL_NONE, 0));
    for (;;) { /* until the dispatcher holds all three */
        cz_sched_stats_get(&ss, cz_engine_sched(e));
        if (ss.running == 3 && gate_waiting() == 1)
            break;
        usleep(1000);
    }
    g_norder = 0;
    uint64_t x = 12345;
    for (int i = 0; i < 200; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        prio_of[i] = (int)(x >> 62);
        wl = make_wl(i, 1 + (uint32_t)(i % 3), FAIL_NONE, 0);
        ((fake *)wl.ctx)->record = 1;
        snprintf(key, sizeof key, "burst-%d", i);
        submit(e, key, (cz_priority)prio_of[i], wl);
    }
    gate_open();
    for (int i = 0; i < 200; i++) {
        snprintf(key, sizeof key, "burst-%d", i);
        CHECK_EQ_INT(await_state(e, key, NULL, 0, i, 1 + (uint32_t)(i % 3)), CZ_JOB_DONE);
    }
    CHECK_EQ_INT(g_norder, 200);
    int ok = 1, k = 0;
    for (int pr = CZ_PRIO_CRITICAL; pr >= CZ_PRIO_LOW; pr--)
        for (int i = 0; i < 200; i++)
            if (prio_of[i] == pr && k < g_norder)
                ok &= g_order[k++] == i;
    CHECK(ok);
    cz_engine_stats es;
    cz_engine_stats_get(&es, e);
    CHECK(es.sched.completed == 203 && es.sched.failed == 0);
    cz_engine_destroy(e);
    CHECK_EQ_INT(atomic_load(&g_live_bufs), 0);
}

static const test_case cases[] = {
    {"results_and_failures", test_results_and_failures},
    {"duplicate_and_cancel", test_duplicate_and_cancel},
    {"tiny_budget", test_tiny_budget},
    {"pacer", test_pacer},
    {"urgent_job_passes", test_urgent_job_passes},
    {"urgent_synthesis_first", test_urgent_synthesis_first},
    {"urgent_worker", test_urgent_worker},
    {"critical_passes_budget_wait", test_critical_passes_budget_wait},
    {"200_jobs_priority_order", test_200_jobs_priority_order},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
