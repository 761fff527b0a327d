/*
 * Several devices, without GPUs: the CPU backend with cpu_devices = 2 (two device slots, each
 * with its own lock and two workers, as two GPUs have) and a fake workload whose compute step
 * records the slot it ran on.
 *   - Spread: the partitions of one job run on both slots at once (a rendezvous in compute: the
 *     first partition on a slot waits, up to 10 s, until the other slot computes too), every
 *     partition's proof is right, both slots' busy time counts.
 *   - A Critical job submitted in the middle of a long Normal one passes every Normal partition
 *     still queued: between its synthesis and its compute, at most one Normal partition per GPU
 *     worker (those the workers already held) and one per worker more (picked up in the moment
 *     before it reaches the GPU queue) start computing, of the dozens still queued.
 *   - It also passes the partitions the workers hold: on one slot with six workers, each holding
 *     a Normal partition and waiting for the device, at most two Normal partitions start
 *     computing between its synthesis and its compute (the kernel region in progress hands the
 *     device to it; one more where a region ended in the moment before it reached the GPU
 *     queue), where first-come-first-served would start the five the other workers hold.
 *   - A device out of service: compute on slot 0 fails with CZ_EDEVICE (the error after which
 *     a GPU runs nothing more until the process restarts). The job whose partition hit it fails
 *     naming the error, slot 0 is reported out of service with that message, and the next job
 *     runs on slot 1 alone and is done; when slot 1 fails too (a reason that names the slot,
 *     as the library's GPU errors name their device, is not prefixed with it again: in the
 *     ERROR line and the job messages), a job submitted then fails at once, before any
 *     synthesis, naming both slots and why each went, while a Critical one is proven on the
 *     CPU (slot -1) and is done; then the engine stops.
 *   - The configuration: a GPU listed twice, or cpu_devices with GPUs or out of range, is
 *     refused with a message naming it.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/log.h"
#include "cuzk/pipeline.h"
#include "engine_test_util.h"
#include "test.h"

#define SLOTS   2
#define WORKERS 2 /* per slot */

static pthread_mutex_t g_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_c = PTHREAD_COND_INITIALIZER;
static int g_rendezvous;           /* compute waits for the other slot (case spread) */
static int g_computing[SLOTS];     /* partitions in compute now, per slot; under g_m */
static int g_both_at_once;         /* both slots were computing at one moment; under g_m */
static int g_done_on[SLOTS];       /* partitions computed per slot; under g_m */
static int g_trace[256], g_ntrace; /* compute starts: job id * 1000 + partition; under g_m */
static atomic_int g_mark = -1;
static int g_lost = -1;       /* compute on this slot fails with CZ_EDEVICE; under g_m */
static int g_tried_on[SLOTS]; /* compute calls per slot, failed ones included; under g_m */
static int g_synth_of[8];     /* synthesize calls per job id; under g_m */
static int g_on_cpu;          /* compute calls on the CPU fallback (slot -1); under g_m */

typedef struct fake {
    int id;
    int compute_us;
} fake;

typedef struct part {
    int id;
    uint32_t p;
    uint8_t proof[8];
} part;

static void expected(uint8_t out[8], int id, uint32_t p) {
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)(id * 31 + (int)p * 7 + i);
}

static int f_synth(void **out, void *ctx, uint32_t p, const cz_part_env *env, cz_part_times *t,
                   cz_errinfo *ei) {
    fake *f = ctx;
    part *s = calloc(1, sizeof *s);
    (void)env, (void)t;
    if (s == NULL)
        return cz_fail(ei, CZ_ENOMEM, "fake");
    pthread_mutex_lock(&g_m);
    if (f->id >= 0 && f->id < (int)(sizeof g_synth_of / sizeof g_synth_of[0]))
        g_synth_of[f->id]++;
    pthread_mutex_unlock(&g_m);
    s->id = f->id;
    s->p = p;
    *out = s;
    if (f->id == 2) { /* the Critical job: where the trace stands when it leaves synthesis */
        pthread_mutex_lock(&g_m);
        atomic_store(&g_mark, g_ntrace);
        pthread_mutex_unlock(&g_m);
    }
    return CZ_OK;
}

static int f_prepare(void *pending, void *ctx, const cz_engine_device *dev, cz_part_times *t,
                     cz_errinfo *ei) {
    (void)pending, (void)ctx, (void)dev, (void)t, (void)ei;
    return CZ_OK;
}

static int f_compute(void *pending, void *ctx, const cz_engine_device *dev, cz_part_times *t,
                     cz_errinfo *ei) {
    fake *f = ctx;
    part *s = pending;
    (void)t;
    if (dev->device != -1 || dev->slot < -1 || dev->slot >= SLOTS)
        return cz_fail(ei, CZ_EINTERNAL, "fake: device %d slot %d", dev->device, dev->slot);
    if (dev->slot == -1) { /* the engine's CPU fallback: no device in service */
        pthread_mutex_lock(&g_m);
        g_on_cpu++;
        pthread_mutex_unlock(&g_m);
        expected(s->proof, s->id, s->p);
        return CZ_OK;
    }
    pthread_mutex_lock(&g_m);
    g_tried_on[dev->slot]++;
    if (g_lost == dev->slot) {
        pthread_mutex_unlock(&g_m);
        /* slot 1 names itself first, as the library's GPU errors name their device */
        return dev->slot == 1 ? cz_fail(ei, CZ_EDEVICE, "slot 1: fake loss")
                              : cz_fail(ei, CZ_EDEVICE, "fake: slot %d lost", dev->slot);
    }
    if (g_ntrace < (int)(sizeof g_trace / sizeof g_trace[0]))
        g_trace[g_ntrace++] = s->id * 1000 + (int)s->p;
    g_computing[dev->slot]++;
    g_both_at_once |= g_computing[0] > 0 && g_computing[1] > 0;
    pthread_cond_broadcast(&g_c);
    if (g_rendezvous) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 10;
        while (!g_both_at_once && pthread_cond_timedwait(&g_c, &g_m, &until) == 0)
            ;
    }
    pthread_mutex_unlock(&g_m);
    if (f->compute_us)
        usleep((useconds_t)f->compute_us);
    expected(s->proof, s->id, s->p);
    pthread_mutex_lock(&g_m);
    g_computing[dev->slot]--;
    g_done_on[dev->slot]++;
    pthread_mutex_unlock(&g_m);
    return CZ_OK;
}

static int f_finish(cz_groth16_proof *proof, void *pending, void *ctx, cz_part_times *t,
                    cz_errinfo *ei) {
    part *s = pending;
    (void)ctx, (void)t, (void)ei;
    memset(proof, 0, sizeof *proof);
    proof->curve = CZ_CURVE_BN254;
    memcpy(&proof->u.bn254.a, s->proof, sizeof s->proof);
    return CZ_OK;
}

static void f_free(void *v, void *ctx) {
    (void)ctx;
    free(v);
}

static int f_verify(void *ctx, const cz_groth16_proof *proofs, uint32_t nparts, cz_errinfo *ei) {
    fake *f = ctx;
    uint8_t want[8];
    for (uint32_t p = 0; p < nparts; p++) {
        expected(want, f->id, p);
        if (memcmp(want, &proofs[p].u.bn254.a, sizeof want) != 0)
            return cz_fail(ei, CZ_EVERIFY, "fake: job %d partition %u", f->id, p);
    }
    return CZ_OK;
}

static const cz_workload_ops f_ops = {.name = "devices-fake",
                                      .synthesize = f_synth,
                                      .prepare = f_prepare,
                                      .compute = f_compute,
                                      .finish = f_finish,
                                      .part_free = f_free,
                                      .verify = f_verify,
                                      .destroy = free};

static void submit(cz_engine *e, const char *key, cz_priority prio, int id, uint32_t nparts,
                   int compute_us) {
    fake *f = calloc(1, sizeof *f);
    cz_errinfo ei;
    CZ_ASSERT(f != NULL);
    f->id = id;
    f->compute_us = compute_us;
    cz_workload wl = {&f_ops, f, nparts, CZ_KIND_OTHER, 1000, 600, {0}};
    int rc = cz_engine_submit(NULL, e, key, prio, &wl, &ei);
    CHECK_ERR(rc, CZ_OK);
    if (rc != CZ_OK)
        free(f);
}

static cz_engine *make_engine(int slots, int workers) {
    cz_engine_config cfg;
    cz_engine *e = NULL;
    cz_errinfo ei;
    memset(&cfg, 0, sizeof cfg);
    cfg.cpu_devices = slots;
    cfg.workers_per_device = workers;
    cfg.partition_workers = 2;
    cfg.synthesis_threads = 1;
    cfg.gpu_threads = 1;
    cfg.budget.total_bytes = 1u << 20;
    CHECK_ERR(cz_engine_create(&e, &cfg, &ei), CZ_OK);
    return e;
}

static void reset(void) {
    pthread_mutex_lock(&g_m);
    memset(g_computing, 0, sizeof g_computing);
    memset(g_done_on, 0, sizeof g_done_on);
    memset(g_tried_on, 0, sizeof g_tried_on);
    memset(g_synth_of, 0, sizeof g_synth_of);
    g_lost = -1;
    g_on_cpu = 0;
    g_both_at_once = 0;
    g_ntrace = 0;
    atomic_store(&g_mark, -1);
    pthread_mutex_unlock(&g_m);
}

static void test_spread(void) {
    cz_engine *e = make_engine(SLOTS, WORKERS);
    cz_engine_stats st;
    if (e == NULL)
        return;
    reset();
    g_rendezvous = 1;
    submit(e, "spread", CZ_PRIO_NORMAL, 1, 16, 1000);
    CHECK_EQ_INT(engine_test_await(e, "spread"), CZ_JOB_DONE); /* verified: every proof right */
    g_rendezvous = 0;
    pthread_mutex_lock(&g_m);
    CHECK(g_both_at_once);
    CHECK(g_done_on[0] > 0 && g_done_on[1] > 0 && g_done_on[0] + g_done_on[1] == 16);
    pthread_mutex_unlock(&g_m);
    cz_engine_stats_get(&st, e);
    CHECK(st.ndevices == SLOTS && st.workers_per_device == WORKERS);
    CHECK(st.device[0] == -1 && st.device[1] == -1);
    CHECK(st.busy_ms[0] > 0 && st.busy_ms[1] > 0);
    cz_engine_destroy(e);
}

/* A Critical job of one partition submitted after 4 of a Normal batch of nnormal partitions of
 * 10 ms, on slots x workers: how many batch partitions started computing between its synthesis
 * and its compute (*left: the batch's partitions not done when it was). */
static int critical_mid_batch(int slots, int workers, int nnormal, int *left) {
    cz_engine *e = make_engine(slots, workers);
    cz_engine_stats st;
    int before = -1, mark, at = -1;
    if (e == NULL)
        return -1;
    reset();
    submit(e, "batch", CZ_PRIO_NORMAL, 1, (uint32_t)nnormal, 10000);
    for (int i = 0; i < 20000; i++) { /* a few of the batch's partitions done */
        cz_engine_stats_get(&st, e);
        if (st.parts_done >= 4)
            break;
        usleep(500);
    }
    submit(e, "winning", CZ_PRIO_CRITICAL, 2, 1, 0);
    CHECK_EQ_INT(engine_test_await(e, "winning"), CZ_JOB_DONE);
    cz_engine_stats_get(&st, e);
    *left = nnormal - (int)st.parts_done + 1; /* the Critical partition is one of them */
    CHECK_EQ_INT(engine_test_await(e, "batch"), CZ_JOB_DONE);
    mark = atomic_load(&g_mark);
    pthread_mutex_lock(&g_m);
    for (int i = 0; i < g_ntrace; i++)
        if (g_trace[i] / 1000 == 2)
            at = i;
    pthread_mutex_unlock(&g_m);
    if (CHECK(mark >= 0 && at >= mark))
        before = at - mark; /* batch partitions that started computing after it was ready */
    printf("critical mid-batch on %d x %d workers: %d batch partitions started between its "
           "synthesis and its compute; %d of %d were not done when it was\n",
           slots, workers, before, *left, nnormal);
    cz_engine_destroy(e);
    return before;
}

static void test_critical_mid_batch(void) {
    int left = 0, before = critical_mid_batch(SLOTS, WORKERS, 48, &left);
    CHECK(before >= 0 && before <= 2 * SLOTS * WORKERS);
    CHECK(left > 2 * SLOTS * WORKERS); /* enough left to tell an ordered queue from FIFO */
}

static void test_critical_passes_held(void) {
    const int workers = 6;
    int left = 0, before = critical_mid_batch(1, workers, 48, &left);
    CHECK(before >= 0 && before <= 2);
    CHECK(left > 2 * workers); /* every worker held a partition of the batch */
}

/* Waits for job key of e to end; its state, and whether its error message holds each of the
 * texts (NULL-terminated). */
static cz_job_state ended(cz_engine *e, const char *key, const char *const *texts) {
    cz_job *job = NULL;
    cz_errinfo ei;
    const char *msg = NULL;
    CHECK_ERR(cz_engine_await(&job, e, key, 120000, &ei), CZ_OK);
    if (job == NULL)
        return CZ_JOB_QUEUED;
    cz_job_state st = cz_job_state_get(job);
    cz_job_error(job, &msg);
    for (int i = 0; texts != NULL && texts[i] != NULL; i++)
        if (!CHECK(msg != NULL && strstr(msg, texts[i]) != NULL))
            fprintf(stderr, "  job %s: wanted \"%s\" in \"%s\"\n", key, texts[i],
                    msg ? msg : "(none)");
    cz_job_unref(job);
    return st;
}

static int tried_on(int slot) {
    pthread_mutex_lock(&g_m);
    int n = g_tried_on[slot];
    pthread_mutex_unlock(&g_m);
    return n;
}

static void test_out_of_service(void) {
    static const char *const lost0[] = {"GPU compute", "fake: slot 0 lost", NULL};
    static const char *const lost1[] = {"slot 1: fake loss", NULL};
    /* a reason that names its slot is not named again */
    static const char *const none[] = {
        "no GPU left in service (slot 0: fake: slot 0 lost; slot 1: fake loss)", NULL};
    cz_engine *e = make_engine(SLOTS, WORKERS);
    cz_engine_stats st;
    char key[32];
    int hit = 0;
    if (e == NULL)
        return;
    reset();
    pthread_mutex_lock(&g_m);
    g_lost = 0;
    pthread_mutex_unlock(&g_m);
    /* jobs of 4 partitions until one of them reaches slot 0 (a worker of either slot takes the
     * next partition): that one fails, those before it were done on slot 1 */
    for (int j = 0; j < 50 && !hit; j++) {
        snprintf(key, sizeof key, "lost0-%d", j);
        submit(e, key, CZ_PRIO_NORMAL, 3, 4, 2000);
        cz_job_state got = ended(e, key, NULL);
        hit = tried_on(0) > 0;
        CHECK_EQ_INT(got, hit ? CZ_JOB_FAILED : CZ_JOB_DONE);
        if (hit)
            ended(e, key, lost0);
    }
    if (!CHECK(hit)) {
        cz_engine_destroy(e);
        return;
    }
    CHECK_EQ_INT(tried_on(0), 1); /* its workers took nothing more */
    cz_engine_stats_get(&st, e);
    CHECK(st.failed[0] == 1 && st.failed[1] == 0);
    CHECK(strstr(st.failed_why[0], "fake: slot 0 lost") != NULL && st.failed_why[1][0] == 0);

    int done1 = 0;
    pthread_mutex_lock(&g_m);
    done1 = g_done_on[1];
    pthread_mutex_unlock(&g_m);
    submit(e, "after", CZ_PRIO_NORMAL, 4, 16, 1000);
    CHECK_EQ_INT(ended(e, "after", NULL), CZ_JOB_DONE); /* verified: every proof right */
    CHECK_EQ_INT(tried_on(0), 1);
    pthread_mutex_lock(&g_m);
    CHECK_EQ_INT(g_done_on[1] - done1, 16);
    g_lost = 1;
    pthread_mutex_unlock(&g_m);

    /* the ERROR line names the slot once, before its reason */
    FILE *log = tmpfile(), *was = NULL;
    if (CHECK(log != NULL))
        was = cz_log_set_output(log);
    submit(e, "lost1", CZ_PRIO_NORMAL, 5, 4, 1000);
    CHECK_EQ_INT(ended(e, "lost1", lost1), CZ_JOB_FAILED);
    if (log != NULL) {
        char text[4096];
        size_t got;
        cz_log_set_output(was);
        rewind(log);
        got = fread(text, 1, sizeof text - 1, log);
        text[got] = '\0';
        if (!CHECK(strstr(text, "slot 1 is out of service until the process restarts (0 "
                                "device(s) left): fake loss") != NULL))
            fprintf(stderr, "  the log: %s\n", text);
        fclose(log);
    }
    cz_engine_stats_get(&st, e);
    CHECK(st.failed[0] == 1 && st.failed[1] == 1);
    submit(e, "none", CZ_PRIO_NORMAL, 6, 4, 0);
    CHECK_EQ_INT(ended(e, "none", none), CZ_JOB_FAILED);
    pthread_mutex_lock(&g_m);
    CHECK_EQ_INT(g_synth_of[6], 0);
    CHECK_EQ_INT(g_on_cpu, 0);
    pthread_mutex_unlock(&g_m);
    /* a Critical job (a WinningPoSt) is proven on the CPU rather than lost */
    submit(e, "winning", CZ_PRIO_CRITICAL, 7, 2, 0);
    CHECK_EQ_INT(ended(e, "winning", NULL), CZ_JOB_DONE); /* verified: every proof right */
    pthread_mutex_lock(&g_m);
    CHECK_EQ_INT(g_synth_of[7], 2);
    CHECK_EQ_INT(g_on_cpu, 2);
    pthread_mutex_unlock(&g_m);
    cz_engine_destroy(e);
}

static void refused(const cz_engine_config *cfg, const char *text) {
    cz_engine *e = NULL;
    cz_errinfo ei;
    CHECK_ERR(cz_engine_create(&e, cfg, &ei), CZ_EINVAL);
    if (!CHECK(strstr(ei.msg, text) != NULL))
        fprintf(stderr, "  wanted \"%s\" in \"%s\"\n", text, ei.msg);
    cz_engine_destroy(e);
}

static void test_config(void) {
    cz_engine_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.ndevices = 2; /* refused before any device is touched */
    cfg.devices[0] = cfg.devices[1] = 0;
    refused(&cfg, "GPU 0 is listed twice");
    cfg.devices[1] = 1;
    cfg.cpu_devices = 2;
    refused(&cfg, "cpu_devices = 2");
    memset(&cfg, 0, sizeof cfg);
    cfg.cpu_devices = CZ_ENGINE_MAX_DEVICES + 1;
    refused(&cfg, "cpu_devices = 17");
    cfg.cpu_devices = -1;
    refused(&cfg, "cpu_devices = -1");
}

static const test_case cases[] = {
    {"spread", test_spread},
    {"critical_mid_batch", test_critical_mid_batch},
    {"critical_passes_held", test_critical_passes_held},
    {"out_of_service", test_out_of_service},
    {"config", test_config},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
