/*
 * The engine's pipeline (include/cuzk/pipeline.h): the threads, the hand-off between them and
 * the end of every partition and job.
 *
 * Threads: 1 dispatcher, partition_workers synthesis workers (and, unless urgent_synthesis < 0,
 * one more that takes only Critical partitions from the head of synth_q, which takes one of them
 * beyond its bound for it), ndevices × workers_per_device GPU
 * workers, `finalizers` finalizer threads, 1 deallocation thread. A partition is an `item` that
 * moves synth_q (ordered like gpu_q below, which is first in, first out within a priority;
 * bounded by the number of synthesis workers, so the dispatcher reserves
 * memory at most that far ahead; the pacer holds it back while partition_workers +
 * gpu_queue_depth partitions are not yet picked up by a GPU worker) → gpu_q (ordered by
 * (priority, dispatch order, partition): the most urgent, oldest job's lowest partition first) →
 * fin_q → end_part(). The dispatcher is one loop (dispatcher_main): before each partition it
 * takes any queued job of a higher priority first, and a partition waiting for the pacer or for
 * memory gives way to such a job (DEFERRED) and is dispatched again after it. end_part() is the
 * one place a partition ends, whatever happened: it releases the reservation, passes the
 * buffers to the deallocation thread and reports the partition to the job; the report of the last
 * partition completes the job (assemble in order, verify, done) or leaves it failed/cancelled.
 *
 * Shutdown drains in pipeline order: the scheduler stops handing out jobs, the dispatcher ends
 * the job it is dispatching, then each queue is closed once the stage before it has joined.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/clock.h"
#include "cuzk/groth16.h"
#include "cuzk/log.h"
#include "cuzk/pipeline.h"
#include "cuzk/threadpool.h"
#include "cuzk/timeline.h"
#include "engine/fifo_lock.h"
#include "engine/wait.h"
#include "engine/workq.h"

/* One job's pipeline state: the cz_job's payload. */
typedef struct pjob {
    cz_workload wl;
    cz_groth16_proof *proofs; /* nparts, each written by its partition's finalizer */
    uint64_t order;           /* dispatch order, set by the dispatcher */
    uint32_t nended;          /* partitions ended (under the engine's stats_lock) */
} pjob;

typedef struct item {
    cz__wq_node node; /* first: queues hand items around as nodes */
    cz_engine *e;
    cz_job *job; /* a reference, dropped by end_part */
    pjob *pj;
    uint32_t p;
    cz_reservation res;
    void *part; /* the workload's partition, from synthesis on */
    cz_part_times t;
    char worker[24];
    int paced; /* counted in e->npaced */
} item;

/* A partition for the deallocation thread (it holds a job reference: the workload lives on),
 * or, with release set, the job's end: ops->release after every earlier partition (the queue is
 * FIFO). */
typedef struct dealloc {
    cz__wq_node node;
    cz_job *job;
    void *part;
    int release;
} dealloc;

typedef struct gpu_worker {
    cz_engine *e;
    int slot; /* index into e->dev */
    int index;
    cz_engine_device d; /* the slot's, with this worker's device buffers (d.ws) */
    pthread_t thread;
} gpu_worker;

typedef struct dev_slot {
    cz_engine_device d;
    cz__fifo_lock lock; /* held around compute only, granted first come first served */
    double busy_ms;     /* lock held, summed (under e->stats_lock) */
    int busy_now;       /* the lock is held (under e->stats_lock) */
} dev_slot;

struct cz_engine {
    cz_engine_config cfg;
    cz_sched *sched;
    cz_budget *budget;
    int own_budget;
    cz_bufpool *bufs;              /* the partitions' vectors (pinned with GPUs if asked) */
    cz_budget_evict_fn prev_evict; /* the budget's evictor before ours (chained) */
    void *prev_evict_arg;
    cz_threadpool *synth_pool, *gpu_pool;
    cz_timeline_emitter *tl;
    cz__workq synth_q, gpu_q, fin_q, dealloc_q;
    dev_slot dev[CZ_ENGINE_MAX_DEVICES];
    int nslots;
    pthread_t dispatcher, deallocator;
    pthread_t *synth, *fin;
    gpu_worker *gpu;
    int nsynth, ngpu, nfin;
    int urgent; /* one more synthesis worker, synth[nsynth], for Critical partitions only */
    int started_dispatcher, started_deallocator, nsynth_started, ngpu_started, nfin_started;
    pthread_mutex_t stats_lock;
    uint64_t parts_done, parts_failed, parts_skipped, order;
    uint64_t nitems;     /* partitions dispatched and not yet ended (under stats_lock) */
    uint64_t npaced;     /* partitions dispatched, not yet picked up by a GPU worker (stats_lock) */
    uint64_t pace_limit; /* the pacer's bound on npaced; 0 = no pacer */
    pthread_cond_t pace_cv; /* npaced went down (with stats_lock) */
    uint64_t start_ns;
};

static double ms_since(uint64_t t0) {
    return (double)cz_clock_elapsed_ns(t0) / 1e6;
}

static void emit(cz_engine *e, cz_timeline_event ev, const item *it, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void emit(cz_engine *e, cz_timeline_event ev, const item *it, const char *fmt, ...) {
    char extra[CZ_ERRINFO_MSG_MAX + 32];
    if (!cz_timeline_emitter_enabled(e->tl))
        return;
    extra[0] = 0;
    if (fmt != NULL) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(extra, sizeof extra, fmt, ap);
        va_end(ap);
    }
    cz_timeline_emit(e->tl, ev, cz_job_key(it->job), (int)it->p, it->worker[0] ? it->worker : NULL,
                     extra);
}

static void emit_stages(cz_engine *e, const item *it) {
    static const struct {
        cz_timeline_stage st;
        size_t off;
    } map[] = {
        {CZ_TL_STAGE_PREP, offsetof(cz_part_times, prep)},
        {CZ_TL_STAGE_NTT_H, offsetof(cz_part_times, ntt_h)},
        {CZ_TL_STAGE_BATCH_ADD, offsetof(cz_part_times, batch_add)},
        {CZ_TL_STAGE_TAIL_MSM, offsetof(cz_part_times, tail_msm)},
        {CZ_TL_STAGE_G2_MSM, offsetof(cz_part_times, g2_msm)},
        {CZ_TL_STAGE_UPLOAD, offsetof(cz_part_times, upload)},
        {CZ_TL_STAGE_DEVICE, offsetof(cz_part_times, device)},
    };
    if (!cz_timeline_emitter_enabled(e->tl))
        return;
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        double v = *(const double *)((const char *)&it->t + map[i].off);
        if (v > 0)
            cz_timeline_emit_stage(e->tl, cz_job_key(it->job), (int)it->p, it->worker, map[i].st,
                                   v);
    }
}

/* ---- the end of a partition and of a job ---- */

/* Frees a partition, or (release) ends the job's use of its workload. */
static void dealloc_now(cz_job *job, void *part, int release) {
    pjob *pj = cz_job_payload(job);
    if (part != NULL)
        pj->wl.ops->part_free(part, pj->wl.ctx);
    if (release && pj->wl.ops->release != NULL)
        pj->wl.ops->release(pj->wl.ctx);
}

static void free_later(cz_engine *e, cz_job *job, void *part, int release) {
    dealloc *d;
    if (part == NULL && !release)
        return;
    d = calloc(1, sizeof *d);
    if (d == NULL) { /* no memory for the hand-off: do it here, synchronously */
        dealloc_now(job, part, release);
        return;
    }
    cz_job_ref(job);
    d->job = job;
    d->part = part;
    d->release = release;
    cz__workq_push(&e->dealloc_q, &d->node);
}

/* All partitions succeeded: their proofs, verified as structs, are encoded once in partition
 * order (cz_groth16_proof_encode) as the job's result, which makes it done. */
static void complete_job(item *it) {
    pjob *pj = it->pj;
    uint32_t n = pj->wl.nparts;
    size_t len = 0, off = 0;
    uint8_t *bytes;
    cz_errinfo ei;
    int rc;
    cz_errinfo_clear(&ei);
    rc = pj->wl.ops->verify(pj->wl.ctx, pj->proofs, n, &ei);
    if (rc != CZ_OK) {
        CZ_LOG_ERROR("job %s: its proof does not verify: %s", cz_job_key(it->job), ei.msg);
        cz_job_complete(it->job, rc, NULL, 0, ei.msg[0] ? ei.msg : "proof does not verify");
        return;
    }
    for (uint32_t p = 0; p < n; p++)
        len += cz_groth16_proof_bytes(pj->proofs[p].curve);
    bytes = malloc(len);
    if (bytes != NULL)
        for (uint32_t p = 0; p < n; p++)
            off += cz_groth16_proof_encode(bytes + off, &pj->proofs[p]);
    if (bytes == NULL)
        cz_job_complete(it->job, CZ_ENOMEM, NULL, 0, "no memory to encode the proof");
    else if (cz_job_complete(it->job, CZ_OK, bytes, len, NULL) != CZ_OK)
        CZ_LOG_ERROR("job %s: no memory for its result", cz_job_key(it->job));
    free(bytes);
}

static void end_job_event(cz_engine *e, item *it) {
    cz_job_state st = cz_job_state_get(it->job);
    const char *msg = NULL;
    it->worker[0] = 0;
    if (st == CZ_JOB_DONE) {
        emit(e, CZ_TL_DONE, it, NULL);
    } else if (st == CZ_JOB_FAILED) {
        cz_job_error(it->job, &msg);
        emit(e, CZ_TL_FAILED, it, "msg=%s", msg ? msg : "");
    } else if (st == CZ_JOB_CANCELLED) {
        emit(e, CZ_TL_CANCELLED, it, NULL);
    }
}

/* The pacer (cz_engine_config.gpu_queue_depth): it leaves the partitions a GPU worker took. */
static void pace_leave(item *it) {
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
static void wake_dispatcher(cz_engine *e) {
    pthread_mutex_lock(&e->stats_lock);
    pthread_cond_broadcast(&e->pace_cv);
    pthread_mutex_unlock(&e->stats_lock);
    cz_budget_wake(e->budget);
}

/* The one way a partition ends (see the file comment); frees it. */
static void end_part(item *it, int code, const char *msg) {
    cz_engine *e = it->e;
    int last_ok, last;
    pace_leave(it);
    /* Buffers the partition still has come back later (deallocation thread): the pool pays for
     * them from here on, so they are not charged again then. */
    cz_bufpool_release_all(e->bufs, &it->res);
    free_later(e, it->job, it->part, 0);
    it->part = NULL;
    pthread_mutex_lock(&e->stats_lock);
    e->nitems--;
    if (code == CZ_OK)
        e->parts_done++;
    else if (code == CZ_ECANCELED)
        e->parts_skipped++;
    else
        e->parts_failed++;
    pthread_mutex_unlock(&e->stats_lock);
    if (code != CZ_OK && code != CZ_ECANCELED)
        CZ_LOG_ERROR("job %s: %s", cz_job_key(it->job), msg ? msg : "failed");
    last_ok = cz_job_part_report(it->job, it->p, code, msg);
    if (last_ok)
        complete_job(it);
    /* Counted after the report (and the completion): whoever counts last sees the job final. */
    pthread_mutex_lock(&e->stats_lock);
    last = ++it->pj->nended == it->pj->wl.nparts;
    pthread_mutex_unlock(&e->stats_lock);
    if (last) {
        end_job_event(e, it);
        free_later(e, it->job, NULL, 1);
    }
    cz_job_unref(it->job);
    free(it);
}

static void fail_part(item *it, int rc, cz_errinfo *ei, const char *step) {
    char msg[CZ_ERRINFO_MSG_MAX + 64];
    if (rc == CZ_ECANCELED) {
        end_part(it, rc, NULL);
        return;
    }
    snprintf(msg, sizeof msg, "partition %u: %s: %s", it->p, step,
             ei->msg[0] ? ei->msg : cz_strerror(rc));
    end_part(it, rc, msg);
}

/* ---- threads ---- */

/* The abort predicate of a partition's wait for memory (under the budget's lock, so the lock
 * order is budget -> scheduler): its job should stop, or a more urgent job is queued. */
static int part_wait_ends(void *arg) {
    const item *it = arg;
    return cz_job_should_stop(it->job) || preempted(it);
}

/* The dispatcher's reclaim hook (cz_budget_reserve_adopt): the pool's idle buffers of the sizes
 * the partition will get are adopted into its reservation; buffers of those sizes are freed only
 * when no other partition is in flight (those would give memory back, and take them). */
typedef struct part_want {
    cz_bufpool_want want;
    cz_engine *e;
} part_want;

static uint64_t reclaim_for_partition(void *arg, uint64_t short_by) {
    part_want *w = arg;
    pthread_mutex_lock(&w->e->stats_lock);
    w->want.others_pending = w->e->nitems > 1; /* the partition being reserved is one */
    pthread_mutex_unlock(&w->e->stats_lock);
    return cz_bufpool_adopt(&w->want, short_by);
}

/* The synthesis and GPU queues' order of a partition of the job dispatched order-th: priority
 * first (Critical lowest), then dispatch order, so a more urgent job's partitions pass those
 * already waiting; within a priority, dispatch order is arrival order (first in, first out). */
#define QUEUE_PRIO_SHIFT 56
static uint64_t queue_order(const cz_job *job, uint64_t order) {
    return ((uint64_t)(CZ_PRIO_COUNT - 1 - (int)cz_job_priority(job)) << QUEUE_PRIO_SHIFT) | order;
}
/* Every queue order below this is a Critical partition's. */
#define QUEUE_CRITICAL_BELOW ((uint64_t)1 << QUEUE_PRIO_SHIFT)

/* Takes back a partition that has not entered the pipeline (DEFERRED): nothing is reported,
 * the bytes its reservation holds (adopted buffers) go back to the pool. */
static void retract(item *it) {
    cz_engine *e = it->e;
    pace_leave(it);
    cz_bufpool_release_all(e->bufs, &it->res);
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
        end_part(it, CZ_ECANCELED, NULL);
        return CZ_OK;
    }
    /* Idle pooled buffers of the sizes this partition will get are adopted into its reservation
     * while it waits, not freed (cz_bufpool_adopt); on failure end_part gives them back. */
    part_want want = {{e->bufs, &it->res, {0}, 0, 0}, e};
    memcpy(want.want.bytes, pj->wl.buf_bytes, sizeof want.want.bytes);
    rc = cz_budget_reserve_adopt(&it->res, e->budget, pj->wl.part_bytes, -1, part_wait_ends, it,
                                 reclaim_for_partition, &want, &ei);
    if (rc == CZ_ECANCELED && !cz_job_should_stop(job)) {
        retract(it); /* a more urgent job's partitions reserve first */
        return DEFERRED;
    }
    if (rc != CZ_OK) {
        fail_part(it, rc, &ei, "memory reservation");
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

static void *dispatcher_main(void *arg) {
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

/* Synthesis worker index; index nsynth is the urgent one (Critical partitions only). */
static cz__wq_node *synth_next(cz_engine *e, int index) {
    return index < e->nsynth ? cz__workq_pop(&e->synth_q)
                             : cz__workq_pop_below(&e->synth_q, QUEUE_CRITICAL_BELOW);
}

static void *synth_main(void *arg) {
    cz_engine *e = ((void **)arg)[0];
    int index = (int)(intptr_t)((void **)arg)[1];
    cz__wq_node *n;
    free(arg);
    while ((n = synth_next(e, index)) != NULL) {
        item *it = (item *)n;
        const cz_workload *wl = &it->pj->wl;
        cz_errinfo ei;
        uint64_t t0;
        int rc;
        snprintf(it->worker, sizeof it->worker, "synth%d", index);
        if (cz_job_should_stop(it->job)) {
            end_part(it, CZ_ECANCELED, NULL);
            continue;
        }
        cz_errinfo_clear(&ei);
        emit(e, CZ_TL_SYNTH_START, it, NULL);
        t0 = cz_clock_now_ns();
        cz_part_env env = {&it->res, e->bufs, e->synth_pool};
        rc = wl->ops->synthesize(&it->part, wl->ctx, it->p, &env, &it->t, &ei);
        it->t.synth = ms_since(t0);
        emit(e, CZ_TL_SYNTH_END, it, "synth_ms=%.3f", it->t.synth);
        if (rc != CZ_OK) {
            fail_part(it, rc, &ei, "synthesis");
            continue;
        }
        it->worker[0] = 0;
        emit(e, CZ_TL_GPU_QUEUE, it, NULL);
        cz__workq_push_ordered(&e->gpu_q, &it->node);
    }
    return NULL;
}

static void gpu_part(gpu_worker *w, item *it) {
    cz_engine *e = w->e;
    dev_slot *ds = &e->dev[w->slot];
    const cz_workload *wl = &it->pj->wl;
    cz_errinfo ei;
    uint64_t t0, t_locked;
    double wait_ms, held_ms;
    int rc;

    snprintf(it->worker, sizeof it->worker, "gpu%d.%d", w->slot, w->index);
    emit(e, CZ_TL_GPU_PICKUP, it, NULL);
    pace_leave(it);
    if (cz_job_should_stop(it->job)) {
        end_part(it, CZ_ECANCELED, NULL);
        return;
    }
    cz_errinfo_clear(&ei);
    t0 = cz_clock_now_ns();
    rc = wl->ops->prepare(it->part, wl->ctx, &w->d, &it->t, &ei);
    if (rc != CZ_OK) {
        fail_part(it, rc, &ei, "prepare");
        return;
    }
    it->t.prep += ms_since(t0);
    if (wl->ops->upload != NULL &&
        (rc = wl->ops->upload(it->part, wl->ctx, &w->d, &it->t, &ei)) != CZ_OK) {
        fail_part(it, rc, &ei, "upload");
        return;
    }

    t0 = cz_clock_now_ns();
    cz__fifo_lock_acquire(&ds->lock);
    t_locked = cz_clock_now_ns();
    wait_ms = (double)(t_locked - t0) / 1e6;
    pthread_mutex_lock(&e->stats_lock);
    ds->busy_now = 1;
    pthread_mutex_unlock(&e->stats_lock);
    emit(e, CZ_TL_GPU_START, it, NULL);
    rc = wl->ops->compute(it->part, wl->ctx, &w->d, &it->t, &ei);
    held_ms = ms_since(t_locked);
    emit(e, CZ_TL_GPU_END, it, "gpu_ms=%.3f", held_ms);
    pthread_mutex_lock(&e->stats_lock); /* before the device lock goes: the next holder sets 1 */
    ds->busy_ms += held_ms;
    ds->busy_now = 0;
    pthread_mutex_unlock(&e->stats_lock);
    cz__fifo_lock_release(&ds->lock);

    if (cz_timeline_emitter_enabled(e->tl)) {
        cz_timeline_emit_stage(e->tl, cz_job_key(it->job), (int)it->p, it->worker,
                               CZ_TL_STAGE_LOCK_WAIT, wait_ms);
        cz_timeline_emit_stage(e->tl, cz_job_key(it->job), (int)it->p, it->worker,
                               CZ_TL_STAGE_LOCK_HELD, held_ms);
    }
    if (rc != CZ_OK) {
        fail_part(it, rc, &ei, "GPU compute");
        return;
    }
    /* Release step 1: a and b, given back to the pool by now, stay there (paid by the pool). */
    cz_bufpool_release(e->bufs, &it->res,
                       wl->part_abc_bytes < it->res.bytes ? wl->part_abc_bytes : it->res.bytes);
    cz__workq_push(&e->fin_q, &it->node);
}

/* A GPU worker. On a GPU it keeps device buffers of its own for one partition's inputs, so the
 * uploads run before it takes the device lock and nothing is allocated per partition; without
 * them (the device refused) compute uploads under the lock, as slower but correct. */
static void *gpu_main(void *arg) {
    gpu_worker *w = arg;
    cz__wq_node *n;
    w->d = w->e->dev[w->slot].d;
    w->d.ws = NULL;
    if (w->d.device >= 0) {
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        if (cz_groth16_gpu_ws_create(&w->d.ws, w->d.device, &ei) != CZ_OK)
            CZ_LOG_WARN("engine: GPU worker %d.%d uploads under the lock: %s", w->slot, w->index,
                        ei.msg);
    }
    while ((n = cz__workq_pop(&w->e->gpu_q)) != NULL)
        gpu_part(w, (item *)n);
    cz_groth16_gpu_ws_free(w->d.ws);
    return NULL;
}

static void *fin_main(void *arg) {
    cz_engine *e = arg;
    cz__wq_node *n;
    while ((n = cz__workq_pop(&e->fin_q)) != NULL) {
        item *it = (item *)n;
        const cz_workload *wl = &it->pj->wl;
        cz_errinfo ei;
        uint64_t t0 = cz_clock_now_ns();
        int rc;
        cz_errinfo_clear(&ei);
        rc = wl->ops->finish(&it->pj->proofs[it->p], it->part, wl->ctx, &it->t, &ei);
        it->t.finish = ms_since(t0);
        emit_stages(e, it);
        if (rc != CZ_OK) {
            fail_part(it, rc, &ei, "finish");
            continue;
        }
        emit(e, CZ_TL_FINALIZE, it, NULL);
        end_part(it, CZ_OK, NULL);
    }
    return NULL;
}

static void *dealloc_main(void *arg) {
    cz_engine *e = arg;
    cz__wq_node *n;
    while ((n = cz__workq_pop(&e->dealloc_q)) != NULL) {
        dealloc *d = (dealloc *)n;
        dealloc_now(d->job, d->part, d->release);
        cz_job_unref(d->job);
        free(d);
    }
    return NULL;
}

/* ---- life cycle ---- */

static void on_cancel(void *arg, cz_job *job) {
    (void)job;
    wake_dispatcher(arg);
}

static void pjob_free(void *arg) {
    pjob *pj = arg;
    if (pj == NULL)
        return;
    if (pj->wl.ops->destroy != NULL)
        pj->wl.ops->destroy(pj->wl.ctx);
    free(pj->proofs);
    free(pj);
}

static int pos_or(int v, int dflt) {
    return v > 0 ? v : dflt;
}

static void stop_threads(cz_engine *e) {
    if (e->sched != NULL)
        cz_sched_shutdown(e->sched);
    if (e->started_dispatcher)
        pthread_join(e->dispatcher, NULL);
    e->started_dispatcher = 0;
    cz__workq_close(&e->synth_q);
    for (int i = 0; i < e->nsynth_started; i++)
        pthread_join(e->synth[i], NULL);
    e->nsynth_started = 0;
    cz__workq_close(&e->gpu_q);
    for (int i = 0; i < e->ngpu_started; i++)
        pthread_join(e->gpu[i].thread, NULL);
    e->ngpu_started = 0;
    cz__workq_close(&e->fin_q);
    for (int i = 0; i < e->nfin_started; i++)
        pthread_join(e->fin[i], NULL);
    e->nfin_started = 0;
    cz__workq_close(&e->dealloc_q);
    if (e->started_deallocator)
        pthread_join(e->deallocator, NULL);
    e->started_deallocator = 0;
}

void cz_engine_destroy(cz_engine *e) {
    if (e == NULL)
        return;
    stop_threads(e);
    cz_sched_destroy(e->sched);
    if (e->bufs != NULL) {
        cz_budget_evict_fn fn;
        void *arg;
        cz_budget_get_evictor(e->budget, &fn, &arg);
        if (fn == cz_bufpool_evict && arg == e->bufs)
            cz_budget_set_evictor(e->budget, e->prev_evict, e->prev_evict_arg);
        cz_bufpool_destroy(e->bufs);
    }
    if (e->own_budget)
        cz_budget_destroy(e->budget);
    cz_threadpool_destroy(e->synth_pool);
    cz_threadpool_destroy(e->gpu_pool);
    cz__workq_destroy(&e->synth_q);
    cz__workq_destroy(&e->gpu_q);
    cz__workq_destroy(&e->fin_q);
    cz__workq_destroy(&e->dealloc_q);
    for (int i = 0; i < e->nslots; i++)
        cz__fifo_lock_destroy(&e->dev[i].lock);
    pthread_mutex_destroy(&e->stats_lock);
    pthread_cond_destroy(&e->pace_cv);
    free(e->synth);
    free(e->gpu);
    free(e->fin);
    free(e);
}

static int start_threads(cz_engine *e, cz_errinfo *ei) {
    if (pthread_create(&e->deallocator, NULL, dealloc_main, e) != 0)
        return cz_fail(ei, CZ_EINTERNAL, "engine: cannot start the deallocation thread");
    e->started_deallocator = 1;
    for (; e->nfin_started < e->nfin; e->nfin_started++)
        if (pthread_create(&e->fin[e->nfin_started], NULL, fin_main, e) != 0)
            return cz_fail(ei, CZ_EINTERNAL, "engine: cannot start a finalizer thread");
    for (; e->ngpu_started < e->ngpu; e->ngpu_started++) {
        gpu_worker *w = &e->gpu[e->ngpu_started];
        if (pthread_create(&w->thread, NULL, gpu_main, w) != 0)
            return cz_fail(ei, CZ_EINTERNAL, "engine: cannot start a GPU worker");
    }
    for (; e->nsynth_started < e->nsynth + e->urgent; e->nsynth_started++) {
        void **arg = malloc(2 * sizeof *arg);
        if (arg == NULL)
            return cz_fail(ei, CZ_ENOMEM, "engine: synthesis worker");
        arg[0] = e;
        arg[1] = (void *)(intptr_t)e->nsynth_started;
        if (pthread_create(&e->synth[e->nsynth_started], NULL, synth_main, arg) != 0) {
            free(arg);
            return cz_fail(ei, CZ_EINTERNAL, "engine: cannot start a synthesis worker");
        }
    }
    if (pthread_create(&e->dispatcher, NULL, dispatcher_main, e) != 0)
        return cz_fail(ei, CZ_EINTERNAL, "engine: cannot start the dispatcher");
    e->started_dispatcher = 1;
    return CZ_OK;
}

int cz_engine_create(cz_engine **out, const cz_engine_config *cfg, cz_errinfo *ei) {
    cz_engine *e;
    cz_sched_config sc;
    int rc, per;
    *out = NULL;
    if (cfg == NULL || cfg->ndevices < 0 || cfg->ndevices > CZ_ENGINE_MAX_DEVICES ||
        cfg->workers_per_device < 0 || cfg->partition_workers < 0 || cfg->finalizers < 0 ||
        cfg->synthesis_threads < 0 || cfg->gpu_threads < 0)
        return cz_fail(ei, CZ_EINVAL, "engine: invalid configuration");
    e = calloc(1, sizeof *e);
    if (e == NULL)
        return cz_fail(ei, CZ_ENOMEM, "engine");
    e->cfg = *cfg;
    e->tl = cfg->timeline;
    e->start_ns = cz_clock_now_ns();
    per = pos_or(cfg->workers_per_device, 2);
    e->nslots = cfg->ndevices > 0 ? cfg->ndevices : 1;
    e->nsynth = pos_or(cfg->partition_workers, 2);
    e->urgent = cfg->urgent_synthesis >= 0;
    e->ngpu = e->nslots * per;
    e->nfin = pos_or(cfg->finalizers, e->ngpu);
    e->pace_limit = cfg->gpu_queue_depth < 0
                        ? 0
                        : (uint64_t)e->nsynth + (uint64_t)pos_or(cfg->gpu_queue_depth, e->ngpu);
    CZ_ASSERT(pthread_mutex_init(&e->stats_lock, NULL) == 0);
    cz__cond_init_mono(&e->pace_cv);
    cz__workq_init(&e->synth_q, (size_t)e->nsynth);
    cz__workq_init(&e->gpu_q, 0);
    cz__workq_init(&e->fin_q, 0);
    cz__workq_init(&e->dealloc_q, 0);
    for (int i = 0; i < e->nslots; i++) {
        cz__fifo_lock_init(&e->dev[i].lock);
        e->dev[i].d.device = cfg->ndevices > 0 ? cfg->devices[i] : -1;
    }
    e->synth = calloc((size_t)(e->nsynth + e->urgent), sizeof *e->synth);
    e->gpu = calloc((size_t)e->ngpu, sizeof *e->gpu);
    e->fin = calloc((size_t)e->nfin, sizeof *e->fin);
    if (e->synth == NULL || e->gpu == NULL || e->fin == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "engine: worker tables");
        goto fail;
    }
    for (int i = 0; i < e->ngpu; i++) {
        e->gpu[i].e = e;
        e->gpu[i].slot = i / per;
        e->gpu[i].index = i % per;
    }
    if (cfg->shared_budget != NULL) {
        e->budget = cfg->shared_budget;
    } else {
        if ((rc = cz_budget_create(&e->budget, &cfg->budget, ei)) != CZ_OK)
            goto fail;
        e->own_budget = 1;
    }
    {
        cz_bufpool_config pc = {cfg->ndevices > 0 && !cfg->pageable_buffers, e->budget,
                                cfg->pool_idle_bytes};
        if ((rc = cz_bufpool_create(&e->bufs, &pc, ei)) != CZ_OK)
            goto fail;
        cz_budget_get_evictor(e->budget, &e->prev_evict, &e->prev_evict_arg);
        cz_bufpool_set_next_evictor(e->bufs, e->prev_evict, e->prev_evict_arg);
        cz_budget_set_evictor(e->budget, cz_bufpool_evict, e->bufs);
    }
    sc = cfg->sched;
    sc.on_cancel = on_cancel;
    sc.on_cancel_arg = e;
    if ((rc = cz_sched_create(&e->sched, &sc, ei)) != CZ_OK)
        goto fail;
    if ((rc = cz_threadpool_create(&e->synth_pool, (size_t)cfg->synthesis_threads, ei)) != CZ_OK ||
        (rc = cz_threadpool_create(&e->gpu_pool, (size_t)cfg->gpu_threads, ei)) != CZ_OK)
        goto fail;
    for (int i = 0; i < e->nslots; i++) {
        e->dev[i].d.cpu = e->gpu_pool;
        e->dev[i].d.compute = cfg->ndevices > 0 ? NULL : e->gpu_pool;
    }
    if ((rc = start_threads(e, ei)) != CZ_OK)
        goto fail;
    *out = e;
    return CZ_OK;
fail:
    cz_engine_destroy(e);
    return rc;
}

int cz_engine_submit(cz_job **out, cz_engine *e, const char *key, cz_priority prio,
                     const cz_workload *wl, cz_errinfo *ei) {
    pjob *pj;
    int rc;
    if (out != NULL)
        *out = NULL;
    if (wl == NULL || wl->ops == NULL || wl->ops->synthesize == NULL || wl->ops->prepare == NULL ||
        wl->ops->compute == NULL || wl->ops->finish == NULL || wl->ops->part_free == NULL ||
        wl->ops->verify == NULL || (unsigned)wl->kind >= CZ_KIND_COUNT)
        return cz_fail(ei, CZ_EINVAL, "engine: job %s: incomplete workload", key ? key : "?");
    uint64_t pooled = 0;
    int pooled_ok = 1;
    for (int i = 0; i < CZ_BUFPOOL_WANT_MAX; i++) {
        pooled_ok &= wl->buf_bytes[i] <= wl->part_bytes - pooled;
        pooled += pooled_ok ? wl->buf_bytes[i] : 0;
    }
    if (wl->nparts == 0 || wl->part_abc_bytes > wl->part_bytes || !pooled_ok)
        return cz_fail(ei, CZ_EINVAL,
                       "engine: job %s: workload with %u partitions, %llu of "
                       "%llu bytes released early, %llu in pooled buffers",
                       key ? key : "?", wl->nparts, (unsigned long long)wl->part_abc_bytes,
                       (unsigned long long)wl->part_bytes, (unsigned long long)pooled);
    if (wl->part_bytes > cz_budget_total(e->budget))
        return cz_fail(ei, CZ_ERANGE,
                       "engine: job %s: a partition needs %llu bytes, the memory budget is %llu",
                       key ? key : "?", (unsigned long long)wl->part_bytes,
                       (unsigned long long)cz_budget_total(e->budget));
    pj = calloc(1, sizeof *pj);
    if (pj != NULL)
        pj->proofs = calloc(wl->nparts, sizeof *pj->proofs);
    if (pj == NULL || pj->proofs == NULL) {
        if (pj != NULL)
            free(pj);
        return cz_fail(ei, CZ_ENOMEM, "engine: job %s", key ? key : "?");
    }
    pj->wl = *wl;
    rc = cz_sched_submit_kind(out, e->sched, key, prio, wl->kind, wl->nparts, pj, pjob_free, ei);
    if (rc != CZ_OK) { /* the workload stays the caller's */
        free(pj->proofs);
        free(pj);
    } else if (prio > CZ_PRIO_LOW) {
        wake_dispatcher(e); /* it may be more urgent than a partition waiting there */
    }
    return rc;
}

int cz_engine_cancel(cz_engine *e, const char *key, cz_errinfo *ei) {
    return cz_sched_cancel(e->sched, key, ei);
}

int cz_engine_await(cz_job **out, cz_engine *e, const char *key, int64_t timeout_ms,
                    cz_errinfo *ei) {
    return cz_sched_await(out, e->sched, key, timeout_ms, ei);
}

cz_sched *cz_engine_sched(cz_engine *e) {
    return e->sched;
}

cz_budget *cz_engine_budget(cz_engine *e) {
    return e->budget;
}

cz_bufpool *cz_engine_bufpool(cz_engine *e) {
    return e->bufs;
}

int cz_engine_prefill(cz_engine *e, const cz_workload *wl, unsigned partitions, unsigned *made,
                      cz_errinfo *ei) {
    cz_budget_stats bs;
    cz_bufpool_stats ps;
    uint64_t fit;
    if (partitions == 0) /* + 1 with the pacer: a partition finishing still holds a buffer */
        partitions = (e->pace_limit > 0 ? (unsigned)e->pace_limit + 1 : 2 * (unsigned)e->nsynth) +
                     (unsigned)e->ngpu;
    /* no more sets than partitions fit in what the budget has free (with the pool's own idle
     * buffers, which partitions adopt): a partition also needs room for its bytes that are not
     * pooled, and filling it all would make the first partitions free buffers to get it */
    cz_budget_stats_get(&bs, e->budget);
    cz_bufpool_stats_get(&ps, e->bufs);
    fit = wl->part_bytes == 0 ? 0 : (bs.total - bs.used + ps.reserved_bytes) / wl->part_bytes;
    if (partitions > fit) {
        partitions = (unsigned)fit;
        /* The pool holds fewer partitions than the pacer would let in: lower the pacer to them, so
         * the pool never grows mid-run (a new pinned buffer stalls the device for seconds). */
        pthread_mutex_lock(&e->stats_lock);
        if (e->pace_limit > 0) {
            uint64_t room = partitions > (unsigned)e->ngpu + 1 ? partitions - e->ngpu - 1 : 1;
            if (room < e->pace_limit) {
                CZ_LOG_INFO("engine: prefill: the budget holds %u partitions; at most %llu ahead "
                            "of the GPUs (was %llu)",
                            partitions, (unsigned long long)room,
                            (unsigned long long)e->pace_limit);
                e->pace_limit = room;
            }
        }
        pthread_mutex_unlock(&e->stats_lock);
    }
    return cz_bufpool_prefill(e->bufs, wl->buf_bytes, partitions, made, ei);
}

void cz_engine_stats_get(cz_engine_stats *out, cz_engine *e) {
    memset(out, 0, sizeof *out);
    cz_sched_stats_get(&out->sched, e->sched);
    cz_budget_stats_get(&out->budget, e->budget);
    pthread_mutex_lock(&e->stats_lock);
    out->parts_done = e->parts_done;
    out->parts_failed = e->parts_failed;
    out->parts_skipped = e->parts_skipped;
    out->ahead = e->npaced;
    out->ahead_limit = e->pace_limit;
    for (int i = 0; i < e->nslots; i++) {
        out->busy_ms[i] = e->dev[i].busy_ms;
        out->busy_now[i] = e->dev[i].busy_now;
        out->device[i] = e->dev[i].d.device;
    }
    pthread_mutex_unlock(&e->stats_lock);
    out->workers_per_device = e->ngpu / e->nslots;
    out->ndevices = e->nslots;
    out->uptime_ms = ms_since(e->start_ns);
    out->synth_queue = cz__workq_count(&e->synth_q);
    out->gpu_queue = cz__workq_count(&e->gpu_q);
    out->finalize_queue = cz__workq_count(&e->fin_q);
}
