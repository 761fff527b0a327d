/*
 * The scheduler and job tracker: priority then FIFO order, duplicate keys refused (and reused
 * once the job finished), cancel of queued and running jobs, partition failures, await with a
 * timeout, one thread waiting for any job's end (cz_sched_await_any), retention with a fake
 * clock, and 200 jobs through a dispatcher + fake worker pool with a tiny memory budget reserved
 * per partition (none lost, start order = priority then submission order, the budget never
 * exceeded).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/clock.h"
#include "cuzk/engine.h"
#include "test.h"

static uint64_t fake_now;
static uint64_t fake_clock(void *arg) {
    (void)arg;
    return __atomic_load_n(&fake_now, __ATOMIC_RELAXED);
}

static cz_sched *mk(uint64_t retention_ms, size_t max_retained) {
    cz_sched_config cfg = {0};
    cfg.retention_ms = retention_ms;
    cfg.max_retained = max_retained;
    cfg.clock = fake_clock;
    cz_sched *s = NULL;
    CHECK_ERR(cz_sched_create(&s, &cfg, NULL), CZ_OK);
    return s;
}

static int nfreed;
static void payload_free(void *p) {
    (void)p;
    nfreed++;
}

/* Runs a taken job to completion: every partition succeeds, the result is its key. */
static void finish_ok(cz_job *job) {
    int last = 0;
    for (uint32_t p = 0; p < cz_job_nparts(job); p++)
        last = cz_job_part_report(job, p, CZ_OK, NULL);
    CHECK_EQ_INT(last, 1);
    CHECK_ERR(cz_job_complete(job, CZ_OK, cz_job_key(job), strlen(cz_job_key(job)), NULL), CZ_OK);
}

static void test_order_and_keys(void) {
    cz_sched *s = mk(0, 0);
    cz_errinfo ei;
    static const struct {
        const char *key;
        cz_priority prio;
    } in[] = {{"n1", CZ_PRIO_NORMAL},   {"l1", CZ_PRIO_LOW},   {"c1", CZ_PRIO_CRITICAL},
              {"n2", CZ_PRIO_NORMAL},   {"h1", CZ_PRIO_HIGH},  {"l2", CZ_PRIO_LOW},
              {"c2", CZ_PRIO_CRITICAL}, {"n3", CZ_PRIO_NORMAL}};
    static const char *want[] = {"c1", "c2", "h1", "n1", "n2", "n3", "l1", "l2"};
    int payload = 0;
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
        CHECK_ERR(cz_sched_submit(NULL, s, in[i].key, in[i].prio, 1, &payload, payload_free, NULL),
                  CZ_OK);
    /* A live key is refused and the queued job is untouched. */
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_sched_submit(NULL, s, "n2", CZ_PRIO_CRITICAL, 1, &payload, payload_free, &ei),
              CZ_EEXIST);
    CHECK(strstr(ei.msg, "'n2' is already queued") != NULL);
    CHECK_EQ_INT(nfreed, 0);
    CHECK_ERR(cz_sched_submit(NULL, s, "", CZ_PRIO_LOW, 1, NULL, NULL, NULL), CZ_EINVAL);
    CHECK_ERR(cz_sched_submit(NULL, s, "x", (cz_priority)7, 1, NULL, NULL, NULL), CZ_EINVAL);
    CHECK_ERR(cz_sched_submit(NULL, s, "x", CZ_PRIO_LOW, 0, NULL, NULL, NULL), CZ_EINVAL);

    cz_sched_stats st;
    cz_sched_stats_get(&st, s);
    CHECK(st.queued[CZ_PRIO_CRITICAL] == 2 && st.queued[CZ_PRIO_HIGH] == 1);
    CHECK(st.queued[CZ_PRIO_NORMAL] == 3 && st.queued[CZ_PRIO_LOW] == 2 && st.submitted == 8);

    for (size_t i = 0; i < 8; i++) {
        cz_job *job;
        CHECK_ERR(cz_sched_next(&job, s, 0, NULL), CZ_OK);
        CHECK_EQ_STR(cz_job_key(job), want[i]);
        CHECK_EQ_INT(cz_job_state_get(job), CZ_JOB_RUNNING);
        if (i == 0) {
            /* Running: still refused. */
            CHECK_ERR(cz_sched_submit(NULL, s, "c1", CZ_PRIO_LOW, 1, NULL, NULL, NULL), CZ_EEXIST);
        }
        size_t at = 0; /* the submission index of want[i]: its sequence number is at + 1 */
        while (strcmp(in[at].key, want[i]) != 0)
            at++;
        CHECK(cz_job_seq(job) == at + 1 && cz_job_priority(job) == in[at].prio);
        finish_ok(job);
        cz_job_unref(job);
    }
    cz_job *none;
    CHECK_ERR(cz_sched_next(&none, s, 0, NULL), CZ_ETIMEDOUT);
    CHECK(none == NULL);
    cz_sched_stats_get(&st, s);
    CHECK(st.completed == 8 && st.running == 0 && st.retained == 8);

    /* A finished key may be reused (a retry): the old record is dropped, the new job queued. */
    CHECK_ERR(cz_sched_submit(NULL, s, "c1", CZ_PRIO_LOW, 1, NULL, NULL, NULL), CZ_OK);
    CHECK_EQ_INT(nfreed, 1);
    cz_job *j;
    CHECK_ERR(cz_sched_find(&j, s, "c1", NULL), CZ_OK);
    CHECK(cz_job_state_get(j) == CZ_JOB_QUEUED && cz_job_seq(j) == 9);
    cz_job_unref(j);
    cz_sched_destroy(s);
    CHECK_EQ_INT(nfreed, 8);
}

/* cz_sched_next_above: only a job of a higher priority, the oldest of the highest, never
 * waiting; nothing left for the caller's own priority. */
static void test_next_above(void) {
    cz_sched *s = mk(0, 0);
    cz_job *job = NULL;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_sched_next_above(&job, s, CZ_PRIO_LOW, &ei), CZ_ENOTFOUND);
    CHECK(job == NULL && strstr(ei.msg, "above priority") != NULL);
    CHECK_ERR(cz_sched_submit(NULL, s, "n1", CZ_PRIO_NORMAL, 1, NULL, NULL, NULL), CZ_OK);
    CHECK_ERR(cz_sched_submit(NULL, s, "h1", CZ_PRIO_HIGH, 1, NULL, NULL, NULL), CZ_OK);
    CHECK_ERR(cz_sched_submit(NULL, s, "c1", CZ_PRIO_CRITICAL, 1, NULL, NULL, NULL), CZ_OK);
    CHECK_ERR(cz_sched_submit(NULL, s, "c2", CZ_PRIO_CRITICAL, 1, NULL, NULL, NULL), CZ_OK);
    CHECK_ERR(cz_sched_next_above(&job, s, CZ_PRIO_CRITICAL, NULL), CZ_ENOTFOUND);
    static const char *want[] = {"c1", "c2", "h1"};
    for (int i = 0; i < 3; i++) {
        CHECK_ERR(cz_sched_next_above(&job, s, CZ_PRIO_NORMAL, NULL), CZ_OK);
        CHECK(job != NULL && strcmp(cz_job_key(job), want[i]) == 0);
        CHECK(job != NULL && cz_job_state_get(job) == CZ_JOB_RUNNING);
        if (job != NULL) {
            finish_ok(job);
            cz_job_unref(job);
        }
    }
    CHECK_ERR(cz_sched_next_above(&job, s, CZ_PRIO_NORMAL, NULL), CZ_ENOTFOUND); /* n1 stays */
    cz_sched_stats st;
    cz_sched_stats_get(&st, s);
    CHECK(st.queued[CZ_PRIO_NORMAL] == 1 && st.completed == 3);
    CHECK_ERR(cz_sched_next_above(&job, s, CZ_PRIO_LOW, NULL), CZ_OK);
    CHECK(job != NULL && strcmp(cz_job_key(job), "n1") == 0);
    if (job != NULL) {
        finish_ok(job);
        cz_job_unref(job);
    }
    CHECK_ERR(cz_sched_submit(NULL, s, "c3", CZ_PRIO_CRITICAL, 1, NULL, NULL, NULL), CZ_OK);
    cz_sched_shutdown(s);
    CHECK_ERR(cz_sched_next_above(&job, s, CZ_PRIO_LOW, NULL), CZ_ECANCELED);
    cz_sched_destroy(s);
}

static int ncancel_hook;
static void on_cancel(void *arg, cz_job *job) {
    (void)arg;
    (void)job;
    ncancel_hook++;
}

static void test_cancel_and_fail(void) {
    cz_sched_config cfg = {0};
    cfg.clock = fake_clock;
    cfg.on_cancel = on_cancel;
    cz_sched *s;
    CHECK_ERR(cz_sched_create(&s, &cfg, NULL), CZ_OK);
    cz_errinfo ei;
    cz_job *q, *r, *f, *got;
    CHECK_ERR(cz_sched_submit(&r, s, "run", CZ_PRIO_HIGH, 3, NULL, NULL, NULL), CZ_OK);
    CHECK_ERR(cz_sched_submit(&q, s, "queued", CZ_PRIO_HIGH, 2, NULL, NULL, NULL), CZ_OK);
    CHECK_ERR(cz_sched_submit(&f, s, "fail", CZ_PRIO_NORMAL, 3, NULL, NULL, NULL), CZ_OK);

    /* Cancel a queued job: gone from the queue at once, final, waiters answered. */
    CHECK_ERR(cz_sched_cancel(s, "queued", NULL), CZ_OK);
    CHECK(cz_job_state_get(q) == CZ_JOB_CANCELLED && cz_job_should_stop(q));
    CHECK_ERR(cz_sched_await(&got, s, "queued", 0, NULL), CZ_OK);
    CHECK(got == q);
    cz_job_unref(got);
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_sched_cancel(s, "queued", &ei), CZ_EINVAL);
    CHECK(strstr(ei.msg, "already cancelled") != NULL);
    CHECK_ERR(cz_sched_cancel(s, "nosuch", NULL), CZ_ENOTFOUND);
    CHECK_EQ_INT(ncancel_hook, 0);

    /* Cancel a running job: flagged; it ends cancelled only when all partitions reported. */
    CHECK_ERR(cz_sched_next(&got, s, 0, NULL), CZ_OK);
    CHECK(got == r);
    cz_job_unref(got);
    CHECK_EQ_INT(cz_job_part_report(r, 0, CZ_OK, NULL), 0);
    CHECK(!cz_job_should_stop(r));
    CHECK_ERR(cz_sched_cancel(s, "run", NULL), CZ_OK);
    CHECK_ERR(cz_sched_cancel(s, "run", NULL), CZ_OK); /* twice: one hook call */
    CHECK_EQ_INT(ncancel_hook, 1);
    CHECK(cz_job_should_stop(r) && cz_job_state_get(r) == CZ_JOB_RUNNING);
    CHECK_EQ_INT(cz_job_part_report(r, 1, CZ_OK, NULL), 0); /* was in flight, finished */
    CHECK_EQ_INT(cz_job_state_get(r), CZ_JOB_RUNNING);
    CHECK_EQ_INT(cz_job_part_report(r, 2, CZ_ECANCELED, NULL), 0); /* skipped */
    CHECK_EQ_INT(cz_job_state_get(r), CZ_JOB_CANCELLED);
    const char *msg;
    CHECK(cz_job_error(r, &msg) == CZ_ECANCELED && strstr(msg, "cancel") != NULL);
    CHECK(cz_job_result(r, NULL) == NULL);

    /* A failed partition stops the job; it fails with the first error once all reported. */
    CHECK_ERR(cz_sched_next(&got, s, 0, NULL), CZ_OK);
    CHECK(got == f);
    cz_job_unref(got);
    CHECK_EQ_INT(cz_job_part_report(f, 1, CZ_EGPU, "partition 1: GPU fault"), 0);
    CHECK(cz_job_should_stop(f) && cz_job_state_get(f) == CZ_JOB_RUNNING);
    CHECK_EQ_INT(cz_job_part_report(f, 0, CZ_EVERIFY, "later error"), 0);
    CHECK_EQ_INT(cz_job_part_report(f, 2, CZ_ECANCELED, NULL), 0);
    CHECK_EQ_INT(cz_job_state_get(f), CZ_JOB_FAILED);
    CHECK(cz_job_error(f, &msg) == CZ_EGPU && strcmp(msg, "partition 1: GPU fault") == 0);

    /* Cancel between the last partition and complete: cancel wins. A failed verdict fails. */
    cz_job *a, *b;
    CHECK_ERR(cz_sched_submit(&a, s, "a", CZ_PRIO_LOW, 1, NULL, NULL, NULL), CZ_OK);
    CHECK_ERR(cz_sched_submit(&b, s, "b", CZ_PRIO_LOW, 1, NULL, NULL, NULL), CZ_OK);
    CHECK_ERR(cz_sched_next(&got, s, 0, NULL), CZ_OK);
    cz_job_unref(got);
    CHECK_EQ_INT(cz_job_part_report(a, 0, CZ_OK, NULL), 1);
    CHECK_ERR(cz_sched_cancel(s, "a", NULL), CZ_OK);
    CHECK_ERR(cz_job_complete(a, CZ_OK, "x", 1, NULL), CZ_OK);
    CHECK_EQ_INT(cz_job_state_get(a), CZ_JOB_CANCELLED);
    CHECK_ERR(cz_sched_next(&got, s, 0, NULL), CZ_OK);
    cz_job_unref(got);
    CHECK_EQ_INT(cz_job_part_report(b, 0, CZ_OK, NULL), 1);
    CHECK_ERR(cz_job_complete(b, CZ_EVERIFY, NULL, 0, "proof does not verify"), CZ_OK);
    CHECK(cz_job_error(b, &msg) == CZ_EVERIFY && strcmp(msg, "proof does not verify") == 0);

    cz_sched_stats st;
    cz_sched_stats_get(&st, s);
    CHECK(st.cancelled == 3 && st.failed == 2 && st.completed == 0 && st.running == 0);
    cz_job_unref(q);
    cz_job_unref(r);
    cz_job_unref(f);
    cz_job_unref(a);
    cz_job_unref(b);
    cz_sched_destroy(s);
}

typedef struct {
    cz_sched *s;
    cz_job *job;
    int delay_ms;
} finisher;

static void *finisher_main(void *vp) {
    finisher *f = vp;
    struct timespec ts = {0, (long)f->delay_ms * 1000000L};
    nanosleep(&ts, NULL);
    cz_job *j;
    if (cz_sched_next(&j, f->s, 1000, NULL) == CZ_OK) {
        f->job = j;
        for (uint32_t p = 0; p < cz_job_nparts(j); p++)
            cz_job_part_report(j, p, CZ_OK, NULL);
        cz_job_complete(j, CZ_OK, "proof", 5, NULL);
    }
    return NULL;
}

static void test_await(void) {
    cz_sched *s = mk(0, 0);
    cz_errinfo ei;
    cz_job *j;
    CHECK_ERR(cz_sched_await(&j, s, "nope", 10, NULL), CZ_ENOTFOUND);
    CHECK_ERR(cz_sched_submit(NULL, s, "w", CZ_PRIO_NORMAL, 2, NULL, NULL, NULL), CZ_OK);
    uint64_t t0 = cz_clock_now_ns();
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_sched_await(&j, s, "w", 40, &ei), CZ_ETIMEDOUT);
    CHECK(cz_clock_elapsed_ns(t0) >= 40000000u);
    CHECK(j != NULL && cz_job_state_get(j) == CZ_JOB_QUEUED);
    CHECK(strstr(ei.msg, "still queued after 40 ms") != NULL);
    cz_job_unref(j);

    /* Another thread runs the job; the waiter wakes with the result. */
    finisher f = {s, NULL, 20};
    pthread_t t;
    pthread_create(&t, NULL, finisher_main, &f);
    CHECK_ERR(cz_sched_await(&j, s, "w", -1, NULL), CZ_OK);
    size_t len;
    const char *res = cz_job_result(j, &len);
    CHECK(cz_job_state_get(j) == CZ_JOB_DONE && len == 5 && memcmp(res, "proof", 5) == 0);
    pthread_join(t, NULL);
    CHECK(f.job == j);
    cz_job_unref(f.job);
    cz_job_unref(j);

    /* The dispatcher's wait ends on a timeout, and on shutdown. */
    CHECK_ERR(cz_sched_next(&j, s, 20, NULL), CZ_ETIMEDOUT);
    cz_sched_shutdown(s);
    CHECK_ERR(cz_sched_next(&j, s, -1, NULL), CZ_ECANCELED);
    cz_sched_destroy(s);
}

static void test_retention(void) {
    fake_now = 1000;
    cz_sched *s = mk(500, 3); /* 500 ms, at most 3 kept */
    char key[16];
    for (int i = 0; i < 5; i++) {
        snprintf(key, sizeof key, "r%d", i);
        CHECK_ERR(cz_sched_submit(NULL, s, key, CZ_PRIO_NORMAL, 1, NULL, NULL, NULL), CZ_OK);
    }
    for (int i = 0; i < 5; i++) {
        cz_job *j;
        fake_now = 1000 + (uint64_t)i * 100; /* r_i finishes at 1000 + 100 i */
        CHECK_ERR(cz_sched_next(&j, s, 0, NULL), CZ_OK);
        finish_ok(j);
        uint64_t sub, start, fin;
        cz_job_times(j, &sub, &start, &fin);
        CHECK(sub == 1000 && start == fake_now && fin == fake_now);
        cz_job_unref(j);
    }
    cz_sched_stats st;
    cz_sched_stats_get(&st, s);
    CHECK(st.retained == 3 && st.pruned == 2); /* count limit: r0, r1 dropped */
    cz_job *j;
    CHECK_ERR(cz_sched_find(&j, s, "r1", NULL), CZ_ENOTFOUND);
    CHECK_ERR(cz_sched_find(&j, s, "r2", NULL), CZ_OK);
    cz_job_unref(j);
    fake_now = 1200 + 499; /* r2 finished at 1200: still kept */
    CHECK_ERR(cz_sched_find(&j, s, "r2", NULL), CZ_OK);
    cz_job_unref(j);
    fake_now = 1200 + 500; /* now expired; r3 (1300) and r4 (1400) kept */
    CHECK_ERR(cz_sched_find(&j, s, "r2", NULL), CZ_ENOTFOUND);
    CHECK_ERR(cz_sched_find(&j, s, "r3", NULL), CZ_OK);
    cz_job_unref(j);
    fake_now = 5000;
    cz_sched_prune(s);
    cz_sched_stats_get(&st, s);
    CHECK(st.retained == 0 && st.pruned == 5 && st.completed == 5);
    /* A handle outlives pruning. */
    CHECK_ERR(cz_sched_submit(&j, s, "held", CZ_PRIO_NORMAL, 1, NULL, NULL, NULL), CZ_OK);
    cz_job *k;
    CHECK_ERR(cz_sched_next(&k, s, 0, NULL), CZ_OK);
    finish_ok(k);
    cz_job_unref(k);
    fake_now = 9000;
    cz_sched_prune(s);
    size_t hlen;
    const void *held = cz_job_result(j, &hlen);
    CHECK(cz_job_state_get(j) == CZ_JOB_DONE && hlen == 4 && memcmp(held, "held", 4) == 0);
    cz_job_unref(j);
    cz_sched_destroy(s);
}

/* ---- 200 jobs through a dispatcher, a worker pool and a tiny budget ---- */

#define NJOBS        200
#define NWORKERS     4
#define PART_BYTES   3
#define BUDGET_BYTES 8

typedef struct {
    cz_job *job;
    uint32_t p;
    cz_reservation res;
} item;

typedef struct {
    cz_sched *s;
    cz_budget *b;
    pthread_mutex_t lock;
    pthread_cond_t more;
    item q[64];
    size_t head, n;
    int closed;
    cz_job *started[NJOBS];
    size_t nstarted;
    atomic_int bad;
} pipe_t;

static void put(pipe_t *pp, item it) {
    pthread_mutex_lock(&pp->lock);
    while (pp->n == 64)
        pthread_cond_wait(&pp->more, &pp->lock);
    pp->q[(pp->head + pp->n++) % 64] = it;
    pthread_cond_broadcast(&pp->more);
    pthread_mutex_unlock(&pp->lock);
}

static void *dispatcher_main(void *vp) {
    pipe_t *pp = vp;
    cz_job *job;
    while (cz_sched_next(&job, pp->s, 2000, NULL) == CZ_OK) {
        pp->started[pp->nstarted++] = job; /* only this thread writes; read after join */
        for (uint32_t p = 0; p < cz_job_nparts(job); p++) {
            item it = {job, p, {0}};
            if (cz_budget_reserve(&it.res, pp->b, PART_BYTES, -1, NULL, NULL, NULL) != CZ_OK)
                atomic_fetch_add(&pp->bad, 1);
            put(pp, it);
        }
    }
    pthread_mutex_lock(&pp->lock);
    pp->closed = 1;
    pthread_cond_broadcast(&pp->more);
    pthread_mutex_unlock(&pp->lock);
    return NULL;
}

static void *worker_main(void *vp) {
    pipe_t *pp = vp;
    for (;;) {
        pthread_mutex_lock(&pp->lock);
        while (pp->n == 0 && !pp->closed)
            pthread_cond_wait(&pp->more, &pp->lock);
        if (pp->n == 0) {
            pthread_mutex_unlock(&pp->lock);
            return NULL;
        }
        item it = pp->q[pp->head];
        pp->head = (pp->head + 1) % 64;
        pp->n--;
        pthread_cond_broadcast(&pp->more);
        pthread_mutex_unlock(&pp->lock);
        cz_reservation_release(&it.res, 1); /* "after the GPU region" */
        sched_yield();
        cz_reservation_release_all(&it.res); /* "after finalize" */
        if (cz_job_part_report(it.job, it.p, CZ_OK, NULL)) {
            char out[64];
            snprintf(out, sizeof out, "proof-of-%s", cz_job_key(it.job));
            cz_job_complete(it.job, CZ_OK, out, strlen(out) + 1, NULL);
        }
    }
}

static void test_pipeline(void) {
    cz_sched *s = mk(0, 0);
    pipe_t pp = {0};
    pp.s = s;
    cz_budget_config bc = {BUDGET_BYTES, 0};
    CHECK_ERR(cz_budget_create(&pp.b, &bc, NULL), CZ_OK);
    pthread_mutex_init(&pp.lock, NULL);
    pthread_cond_init(&pp.more, NULL);
    unsigned seed = 5;
    cz_priority prio[NJOBS];
    char key[32];
    uint64_t nparts_total = 0;
    for (int i = 0; i < NJOBS; i++) {
        prio[i] = (cz_priority)(rand_r(&seed) % CZ_PRIO_COUNT);
        uint32_t nparts = 1 + (uint32_t)(rand_r(&seed) % 4);
        nparts_total += nparts;
        snprintf(key, sizeof key, "job-%03d", i);
        CHECK_ERR(cz_sched_submit(NULL, s, key, prio[i], nparts, NULL, NULL, NULL), CZ_OK);
    }
    pthread_t d, w[NWORKERS];
    pthread_create(&d, NULL, dispatcher_main, &pp);
    for (int i = 0; i < NWORKERS; i++)
        pthread_create(&w[i], NULL, worker_main, &pp);
    /* Everyone awaits every job. */
    int ndone = 0;
    for (int i = 0; i < NJOBS; i++) {
        snprintf(key, sizeof key, "job-%03d", i);
        cz_job *j;
        if (cz_sched_await(&j, s, key, 20000, NULL) != CZ_OK)
            continue;
        char want[64];
        snprintf(want, sizeof want, "proof-of-%s", key);
        size_t len;
        const char *res = cz_job_result(j, &len);
        ndone += cz_job_state_get(j) == CZ_JOB_DONE && res != NULL && strcmp(res, want) == 0;
        cz_job_unref(j);
    }
    CHECK_EQ_INT(ndone, NJOBS);
    cz_sched_shutdown(s);
    pthread_join(d, NULL);
    for (int i = 0; i < NWORKERS; i++)
        pthread_join(w[i], NULL);
    CHECK(pp.nstarted == NJOBS && atomic_load(&pp.bad) == 0);
    /* Start order: priority descending, then sequence ascending. */
    int ordered = 1;
    for (size_t i = 1; i < pp.nstarted; i++) {
        cz_job *a = pp.started[i - 1], *b = pp.started[i];
        if (cz_job_priority(a) < cz_job_priority(b) ||
            (cz_job_priority(a) == cz_job_priority(b) && cz_job_seq(a) >= cz_job_seq(b)))
            ordered = 0;
    }
    CHECK(ordered);
    for (size_t i = 0; i < pp.nstarted; i++) {
        CHECK_EQ_INT(cz_job_priority(pp.started[i]), prio[cz_job_seq(pp.started[i]) - 1]);
        cz_job_unref(pp.started[i]);
    }
    cz_sched_stats st;
    cz_sched_stats_get(&st, s);
    CHECK(st.completed == NJOBS && st.failed == 0 && st.running == 0 && st.retained == NJOBS);
    cz_budget_stats bs;
    cz_budget_stats_get(&bs, pp.b);
    CHECK(bs.used == 0 && bs.peak <= BUDGET_BYTES && bs.ngranted == nparts_total);
    cz_budget_destroy(pp.b);
    pthread_cond_destroy(&pp.more);
    pthread_mutex_destroy(&pp.lock);
    cz_sched_destroy(s);
}

/* A waiter's stop predicate: set from another thread, which then calls cz_sched_wake. */
static atomic_int g_stop_wait;
static int stop_wait(void *arg) {
    (void)arg;
    return atomic_load(&g_stop_wait);
}

static void *stop_soon(void *arg) {
    usleep(20000);
    atomic_store(&g_stop_wait, 1);
    cz_sched_wake(arg);
    return NULL;
}

static void test_kinds_and_waits(void) {
    /* Jobs carry their proof kind: queued, running and final counts per kind; a waiter blocked
     * in cz_sched_await_stop (no timeout) ends when its predicate turns true and the scheduler
     * is woken; cz_sched_wait_idle returns once nothing is queued or running. */
    cz_sched *s = mk(0, 0);
    cz_job *a = NULL, *b = NULL, *j = NULL;
    cz_sched_stats st;
    pthread_t t;
    CHECK(cz_sched_submit_kind(NULL, s, "w1", CZ_PRIO_NORMAL, CZ_KIND_WINNING_POST, 1, NULL, NULL,
                               NULL) == CZ_OK);
    CHECK(cz_sched_submit_kind(NULL, s, "z1", CZ_PRIO_NORMAL, CZ_KIND_SNARKJS_ZKEY, 1, NULL, NULL,
                               NULL) == CZ_OK);
    CHECK(cz_sched_submit_kind(NULL, s, "bad", CZ_PRIO_NORMAL, (cz_proof_kind)CZ_KIND_COUNT, 1,
                               NULL, NULL, NULL) == CZ_EINVAL);
    CHECK(cz_sched_wait_idle(s, 0, NULL) == CZ_ETIMEDOUT);
    CHECK(cz_sched_next(&a, s, 0, NULL) == CZ_OK); /* w1 runs */
    cz_sched_stats_get(&st, s);
    CHECK(st.kinds[CZ_KIND_WINNING_POST].running == 1 &&
          st.kinds[CZ_KIND_WINNING_POST].queued == 0);
    CHECK(st.kinds[CZ_KIND_SNARKJS_ZKEY].queued == 1 && st.kinds[CZ_KIND_OTHER].queued == 0);
    atomic_store(&g_stop_wait, 0);
    CHECK(pthread_create(&t, NULL, stop_soon, s) == 0);
    CHECK(cz_sched_await_stop(&j, s, "w1", -1, stop_wait, NULL, NULL) == CZ_ECANCELED);
    CHECK(j == a && cz_job_state_get(j) == CZ_JOB_RUNNING);
    cz_job_unref(j);
    pthread_join(t, NULL);
    CHECK(cz_job_part_report(a, 0, CZ_OK, NULL) == 1);
    CHECK(cz_job_complete(a, CZ_OK, "p", 1, NULL) == CZ_OK);
    CHECK(cz_sched_next(&b, s, 0, NULL) == CZ_OK); /* z1 runs, then fails */
    CHECK(cz_job_part_report(b, 0, CZ_EGPU, "fault") == 0);
    CHECK(cz_sched_wait_idle(s, -1, NULL) == CZ_OK);
    cz_sched_stats_get(&st, s);
    CHECK(st.kinds[CZ_KIND_WINNING_POST].done == 1 && st.kinds[CZ_KIND_WINNING_POST].running == 0);
    CHECK(st.kinds[CZ_KIND_SNARKJS_ZKEY].failed == 1 && st.kinds[CZ_KIND_SNARKJS_ZKEY].done == 0);
    cz_job_unref(a);
    cz_job_unref(b);
    cz_sched_destroy(s);
}

static void test_await_any(void) {
    /* One thread watching many jobs: cz_sched_await_any returns for every final state and every
     * cz_sched_wake since the count the caller has seen, also those that came while it was not
     * waiting (counted, never lost), and times out when nothing is new. A submit or a job taken
     * by the dispatcher is no event. */
    cz_sched *s = mk(0, 0);
    cz_errinfo ei;
    cz_job *j = NULL;
    uint64_t seen = 0;
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_sched_await_any(s, &seen, 0, &ei), CZ_ETIMEDOUT);
    CHECK(seen == 0 && strstr(ei.msg, "no job ended") != NULL);
    CHECK_ERR(cz_sched_submit(NULL, s, "a", CZ_PRIO_NORMAL, 1, NULL, NULL, NULL), CZ_OK);
    CHECK_ERR(cz_sched_submit(NULL, s, "b", CZ_PRIO_NORMAL, 1, NULL, NULL, NULL), CZ_OK);
    CHECK_ERR(cz_sched_submit(NULL, s, "c", CZ_PRIO_NORMAL, 1, NULL, NULL, NULL), CZ_OK);
    uint64_t t0 = cz_clock_now_ns();
    CHECK_ERR(cz_sched_await_any(s, &seen, 30, NULL), CZ_ETIMEDOUT);
    CHECK(cz_clock_elapsed_ns(t0) >= 30000000u && seen == 0);
    CHECK_ERR(cz_sched_next(&j, s, 0, NULL), CZ_OK); /* "a" runs: not an end */
    CHECK_ERR(cz_sched_await_any(s, &seen, 0, NULL), CZ_ETIMEDOUT);

    /* Two ends while nobody waits: one call sees both, the next has nothing new. */
    CHECK_ERR(cz_sched_cancel(s, "b", NULL), CZ_OK);
    finish_ok(j);
    CHECK_ERR(cz_sched_await_any(s, &seen, -1, NULL), CZ_OK);
    CHECK(seen == 2);
    CHECK_ERR(cz_sched_await_any(s, &seen, 0, NULL), CZ_ETIMEDOUT);
    CHECK(seen == 2);
    cz_job_unref(j);
    cz_sched_wake(s);
    CHECK_ERR(cz_sched_await_any(s, &seen, 0, NULL), CZ_OK);
    CHECK(seen == 3);

    /* Blocked without a limit: another thread takes "c" and finishes it; then a wake alone. */
    finisher f = {s, NULL, 20};
    pthread_t t;
    CHECK(pthread_create(&t, NULL, finisher_main, &f) == 0);
    CHECK_ERR(cz_sched_await_any(s, &seen, -1, NULL), CZ_OK);
    pthread_join(t, NULL);
    CHECK(f.job != NULL && cz_job_state_get(f.job) == CZ_JOB_DONE && seen == 4);
    cz_job_unref(f.job);
    CHECK(pthread_create(&t, NULL, stop_soon, s) == 0);
    CHECK_ERR(cz_sched_await_any(s, &seen, -1, NULL), CZ_OK);
    pthread_join(t, NULL);
    CHECK(seen == 5);

    /* Shut down: at once, whatever was seen. */
    cz_sched_shutdown(s);
    CHECK_ERR(cz_sched_await_any(s, &seen, -1, NULL), CZ_ECANCELED);
    CHECK_ERR(cz_sched_await_any(s, &seen, -1, NULL), CZ_ECANCELED);
    cz_sched_destroy(s);
}

static const test_case cases[] = {
    {"order_and_keys", test_order_and_keys},
    {"next_above", test_next_above},
    {"cancel_and_fail", test_cancel_and_fail},
    {"await", test_await},
    {"retention", test_retention},
    {"pipeline", test_pipeline},
    {"kinds_and_waits", test_kinds_and_waits},
    {"await_any", test_await_any},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
