/*
 * The engine's dispatcher (include/cuzk/pipeline.h; pipeline_internal.h for what it shares with
 * pipeline.c): one thread that takes jobs from the scheduler in priority order and puts their
 * partitions into the pipeline, one at a time.
 *
 * Design. The dispatcher is one loop (cz__dispatcher_main) over a stack of the jobs it is
 * dispatching, each more urgent than the one below it. Before each partition it takes any queued
 * job of a higher priority first. A partition then passes two waits, in this order: the pacer
 * (at most pace_limit partitions dispatched and not yet picked up by a GPU worker, so the
 * working sets stay about what the memory manager was filled with) and its memory
 * (cz_mem_reserve: the budget's FIFO order, taking over idle buffers of its sizes). A wait that a
 * more urgent job interrupts gives way (DEFERRED): the partition is taken back (retract) and
 * dispatched again after that job's partitions, so a Critical job never waits behind a Normal
 * partition's wait. A reserved partition goes to the synthesis queue, bounded by the number of
 * synthesis workers (a Critical one may pass the bound by one, for the urgent worker).
 *
 * Lifecycle: the dispatcher creates each item and gives it to the synthesis queue, or ends it
 * (cz__end_part: skipped or failed) or takes it back (retract). It stops when the scheduler shuts
 * down, after dispatching the jobs it holds to the end (their partitions are skipped once the
 * engine stops them). Locks: the engine's stats_lock guards npaced, pace_limit and nitems
 * (pace_cv signals npaced going down); the budget's lock is held while the abort predicate reads
 * the scheduler (budget -> scheduler), and no other lock is held across a wait.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "cuzk/log.h"
#include "engine/pipeline_internal.h"
#include "engine/wait.h"

/* The pacer (cz_engine_config.gpu_queue_depth): it leaves the partitions a GPU worker took. */
void cz__pace_leave(item *it) {
    cz_engine *e = it->e;
    if (!it->paced)
        return;
    pthread_mutex_lock(&e->stats_lock);
    e->npaced--;
    it->paced = 0;
    pthread_cond_signal(&e->pace_cv);
    pthread_mutex_unlock(&e->stats_lock);
}

/* 1 for a Critical job's partition while the urgent synthesis worker is on: the one place more
 * it gets in the pacer and in the synthesis queue's bound (that worker's); else 0. */
static unsigned urgent_extra(const cz_engine *e, const cz_job *job) {
    return e->urgent && cz_job_priority(job) == CZ_PRIO_CRITICAL;
}

/* A more urgent job than it's is queued: the dispatcher takes that job before this partition. */
static int preempted(const item *it) {
    return cz_sched_queued_above(it->e->sched, cz_job_priority(it->job));
}

/* What pace_enter and the dispatcher's reservation return when a more urgent job is queued: the
 * partition goes back (retract) and is dispatched again after that job's partitions. */
#define DEFERRED 1

/* Waits until the pacer lets it into the pipeline; CZ_ECANCELED when its job should stop,
 * DEFERRED when a more urgent job is queued. A Critical partition gets one place more (with the
 * urgent synthesis worker, whose partition it is). A submit, a cancel and a partition leaving the
 * pacer signal pace_cv; the wait also looks again every PACE_POLL_MS (a partition that fails
 * makes its job stop without passing here). */
#define PACE_POLL_MS 50
static int pace_enter(item *it) {
    cz_engine *e = it->e;
    const uint64_t extra = urgent_extra(e, it->job);
    if (e->pace_limit == 0)
        return CZ_OK;
    for (;;) {
        struct timespec ts;
        pthread_mutex_lock(&e->stats_lock);
        if (e->npaced < e->pace_limit + extra) {
            e->npaced++;
            it->paced = 1;
            pthread_mutex_unlock(&e->stats_lock);
            return CZ_OK;
        }
        ts = cz__deadline(PACE_POLL_MS);
        (void)cz__cond_wait_until(&e->pace_cv, &e->stats_lock, &ts);
        pthread_mutex_unlock(&e->stats_lock);
        if (cz_job_should_stop(it->job))
            return CZ_ECANCELED;
        if (preempted(it))
            return DEFERRED;
    }
}

/* Wakes the dispatcher's waits (pacer, memory) to look again: a job was queued or cancelled. */
void cz__wake_dispatcher(cz_engine *e) {
    pthread_mutex_lock(&e->stats_lock);
    pthread_cond_broadcast(&e->pace_cv);
    pthread_mutex_unlock(&e->stats_lock);
    cz_budget_wake(e->budget);
}

/* The abort predicate of a partition's wait for memory (under the budget's lock, so the lock
 * order is budget -> scheduler): its job should stop, or a more urgent job is queued. */
static int part_wait_ends(void *arg) {
    const item *it = arg;
    return cz_job_should_stop(it->job) || preempted(it);
}

/* The queue order of a partition of the job dispatched order-th (pipeline_internal.h): a more
 * urgent job's partitions pass those already waiting; within a priority, dispatch order is arrival
 * order (first in, first out). */
static uint64_t queue_order(const cz_job *job, uint64_t order) {
    return ((uint64_t)(CZ_PRIO_COUNT - 1 - (int)cz_job_priority(job)) << QUEUE_PRIO_SHIFT) | order;
}

/* Takes back a partition that has not entered the pipeline (DEFERRED): nothing is reported,
 * the bytes its reservation holds (adopted buffers) go back to the pool. */
static void retract(item *it) {
    cz_engine *e = it->e;
    cz__pace_leave(it);
    cz_mem_release(e->mem, &it->res, CZ_MEM_ALL);
    pthread_mutex_lock(&e->stats_lock);
    e->nitems--;
    pthread_mutex_unlock(&e->stats_lock);
    cz_job_unref(it->job);
    free(it);
}

/* Partition p of job into the pipeline: the pacer, its memory, the synthesis queue. Returns
 * DEFERRED (the partition was taken back) when a more urgent job is queued while it waits, else
 * CZ_OK (dispatched, or ended: skipped or failed). */
static int dispatch_part(cz_engine *e, cz_job *job, uint32_t p) {
    pjob *pj = cz_job_payload(job);
    item *it = calloc(1, sizeof *it);
    cz_errinfo ei;
    int rc;
    cz_errinfo_clear(&ei);
    if (it == NULL) {
        /* Cannot even track the partition: report it failed directly. */
        if (cz_job_part_report(job, p, CZ_ENOMEM, "no memory to dispatch a partition"))
            CZ_ASSERT(0 && "a failed partition cannot complete its job");
        return CZ_OK;
    }
    cz_job_ref(job);
    pthread_mutex_lock(&e->stats_lock);
    e->nitems++; /* until end_part */
    pthread_mutex_unlock(&e->stats_lock);
    it->e = e;
    it->job = job;
    it->pj = pj;
    it->p = p;
    it->node.order = queue_order(job, pj->order);
    it->node.part = p;
    rc = cz_job_should_stop(job) ? CZ_ECANCELED : pace_enter(it);
    if (rc == DEFERRED) {
        retract(it);
        return DEFERRED;
    }
    if (rc != CZ_OK) {
        cz__end_part(it, CZ_ECANCELED, NULL);
        return CZ_OK;
    }
    /* Idle buffers of the sizes this partition will get are taken over by its reservation while
     * it waits, not freed (cz_mem_reserve); on failure end_part gives them back. */
    rc = cz_mem_reserve(&it->res, e->mem, pj->wl.part_bytes, pj->wl.buf_bytes, -1, part_wait_ends,
                        it, &ei);
    if (rc == CZ_ECANCELED && !cz_job_should_stop(job)) {
        retract(it); /* a more urgent job's partitions reserve first */
        return DEFERRED;
    }
    if (rc != CZ_OK) {
        cz__fail_part(it, rc, &ei, "memory reservation");
        return CZ_OK;
    }
    cz__workq_push_ordered_over(&e->synth_q, &it->node, urgent_extra(e, job));
    return CZ_OK;
}

/* The dispatcher: one loop over the jobs it is dispatching, a stack ordered by priority (each
 * one more urgent than the one below it, so at most CZ_PRIO_COUNT). It dispatches the next
 * partition of the top job; before each, a queued job more urgent than the top is taken from the
 * scheduler and pushed, and a partition whose wait (pacer or memory) a more urgent job
 * interrupts is dispatched again after that job. So a Critical job passes a Normal job's
 * partitions, also one waiting for memory, and among equals jobs go in arrival order. After the
 * scheduler shuts down the jobs on the stack are dispatched to the end (their partitions are
 * skipped once the engine stops them). */
typedef struct dispatching {
    cz_job *job;
    uint32_t next; /* its next partition */
} dispatching;

static void start_job(cz_engine *e, dispatching *d, cz_job *job) {
    pjob *pj = cz_job_payload(job);
    pthread_mutex_lock(&e->stats_lock);
    pj->order = ++e->order;
    pthread_mutex_unlock(&e->stats_lock);
    d->job = job;
    d->next = 0;
}

void *cz__dispatcher_main(void *arg) {
    cz_engine *e = arg;
    dispatching stack[CZ_PRIO_COUNT];
    int n = 0;
    for (;;) {
        cz_job *job;
        if (n == 0) {
            if (cz_sched_next(&job, e->sched, -1, NULL) != CZ_OK)
                break; /* shut down */
            start_job(e, &stack[n++], job);
        } else if (cz_sched_next_above(&job, e->sched, cz_job_priority(stack[n - 1].job), NULL) ==
                   CZ_OK) {
            CZ_ASSERT(n < CZ_PRIO_COUNT);
            CZ_LOG_DEBUG("engine: job %s (%s) goes before the rest of job %s (%s)", cz_job_key(job),
                         cz_priority_name(cz_job_priority(job)), cz_job_key(stack[n - 1].job),
                         cz_priority_name(cz_job_priority(stack[n - 1].job)));
            start_job(e, &stack[n++], job);
        }
        dispatching *d = &stack[n - 1];
        if (dispatch_part(e, d->job, d->next) == DEFERRED)
            continue;
        if (++d->next == cz_job_nparts(d->job)) {
            cz_job_unref(d->job);
            n--;
        }
    }
    return NULL;
}
