/*
 * The engine's pipeline (include/cuzk/pipeline.h): its life cycle, the threads after the
 * dispatcher, the hand-off between them and the end of every partition and job. The dispatcher
 * (the order of jobs and partitions, the pacer, each partition's reservation) is dispatch.c;
 * pipeline_internal.h holds what the two share.
 *
 * Threads: 1 dispatcher (dispatch.c), partition_workers synthesis workers (and, unless
 * urgent_synthesis < 0, one more that takes only Critical partitions from the head of synth_q,
 * which takes one of them beyond its bound for it), ndevices (or cpu_devices) x
 * workers_per_device GPU workers,
 * `finalizers` finalizer threads, 1 deallocation thread. A partition is an `item` that moves
 * synth_q (ordered like gpu_q below, which is first in, first out within a priority; bounded by
 * the number of synthesis workers, so the dispatcher reserves memory at most that far ahead) ->
 * gpu_q (ordered by (priority, dispatch order, partition): the most urgent, oldest job's lowest
 * partition first) -> fin_q -> cz__end_part(). A GPU worker releases the partition's a/b/c bytes
 * after its kernel region (cz_mem_release, step one). cz__end_part() is the one place a partition
 * ends, whatever happened: it releases the reservation to the end (cz_mem_release, CZ_MEM_ALL),
 * passes the partition's buffers to the deallocation thread and reports the partition to the
 * job; the report of the last partition completes the job (verify, encode in order, done) or
 * leaves it failed/cancelled.
 *
 * Lifecycle: cz_engine_create makes the memory manager on the budget (own or shared), the
 * scheduler, the pools and the queues, then starts the threads from the end of the pipeline
 * backwards. Shutdown drains in pipeline order: the scheduler stops handing out jobs, the
 * dispatcher ends the job it is dispatching, then each queue is closed once the stage before it
 * has joined; the memory manager goes last, when every buffer has come back.
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
#include "engine/pipeline_internal.h"
#include "engine/wait.h"

/* A partition for the deallocation thread (it holds a job reference: the workload lives on),
 * or, with release set, the job's end: ops->release after every earlier partition (the queue is
 * FIFO). */
typedef struct dealloc {
    cz__wq_node node;
    cz_job *job;
    void *part;
    int release;
} dealloc;

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

/* The one way a partition ends (see the file comment); frees it. */
void cz__end_part(item *it, int code, const char *msg) {
    cz_engine *e = it->e;
    int last_ok, last;
    cz__pace_leave(it);
    /* Buffers the partition still has come back later (deallocation thread): the memory manager
     * pays for them from here on, so they are not charged again then. */
    cz_mem_release(e->mem, &it->res, CZ_MEM_ALL);
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

void cz__fail_part(item *it, int rc, cz_errinfo *ei, const char *step) {
    char msg[CZ_ERRINFO_MSG_MAX + 64];
    if (rc == CZ_ECANCELED) {
        cz__end_part(it, rc, NULL);
        return;
    }
    snprintf(msg, sizeof msg, "partition %u: %s: %s", it->p, step,
             ei->msg[0] ? ei->msg : cz_strerror(rc));
    cz__end_part(it, rc, msg);
}

/* ---- threads ---- */

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
            cz__end_part(it, CZ_ECANCELED, NULL);
            continue;
        }
        /* no synthesis for no device, but a Critical partition's: the CPU proves it */
        if (!cz__is_critical(it) && cz__no_device(e, ei.msg, sizeof ei.msg)) {
            cz__end_part(it, CZ_EDEVICE, ei.msg);
            continue;
        }
        cz_errinfo_clear(&ei);
        emit(e, CZ_TL_SYNTH_START, it, NULL);
        t0 = cz_clock_now_ns();
        cz_part_env env = {&it->res, e->mem, e->synth_pool};
        rc = wl->ops->synthesize(&it->part, wl->ctx, it->p, &env, &it->t, &ei);
        it->t.synth = ms_since(t0);
        emit(e, CZ_TL_SYNTH_END, it, "synth_ms=%.3f", it->t.synth);
        if (rc != CZ_OK) {
            cz__fail_part(it, rc, &ei, "synthesis");
            continue;
        }
        it->worker[0] = 0;
        emit(e, CZ_TL_GPU_QUEUE, it, NULL);
        cz__gpu_queue_push(e, it, -1);
    }
    return NULL;
}

/* The device buffers partition it uploads into, in w->d.ws, reserved for it where the workload
 * has a reserve step: a device without room for another workspace keeps those it has and its
 * workers take turns (engine/dev_ws.h). CZ_OK with w->d.ws NULL: none (the CPU backend, or the
 * partition uploads under the lock). */
static int ws_for(gpu_worker *w, const item *it, cz_errinfo *ei) {
    cz__dev_ws *s = &w->e->dev[w->slot].ws;
    const cz_workload *wl = &it->pj->wl;
    int rc;
    w->d.ws = NULL;
    if (w->d.device < 0)
        return CZ_OK;
    for (;;) {
        w->d.ws = cz__dev_ws_take(s);
        if (w->d.ws == NULL || wl->ops->reserve == NULL)
            return CZ_OK;
        if ((rc = wl->ops->reserve(wl->ctx, &w->d, ei)) != CZ_ENOMEM)
            return rc;
        if (!cz__dev_ws_retire(s, w->d.ws, ei->msg)) {
            /* the device's only workspace: upload tries again and falls back */
            cz_errinfo_clear(ei);
            return CZ_OK;
        }
        cz_errinfo_clear(ei);
    }
}

/* Gives the partition's device buffers back to the device. */
static void ws_done(gpu_worker *w) {
    cz__dev_ws_give(&w->e->dev[w->slot].ws, w->d.ws);
    w->d.ws = NULL;
}

/* Partition it failed in step on w's device: it ends with the step's error, and an error that
 * leaves the device unusable (CZ_EDEVICE) takes the device out of service first. */
static void step_failed(gpu_worker *w, item *it, int rc, cz_errinfo *ei, const char *step) {
    if (rc == CZ_EDEVICE)
        cz__dev_out_of_service(w->e, w->slot, ei->msg);
    cz__fail_part(it, rc, ei, step);
}

/* The steps of partition it before its kernel region: pickup, prepare, its device buffers, upload.
 * held: the worker holds the device lock and keeps its buffers (w->d.ws) for it. 0: ready; -1: it
 * ended (cancelled or failed). */
static int gpu_ready(gpu_worker *w, item *it, int held) {
    cz_engine *e = w->e;
    const cz_workload *wl = &it->pj->wl;
    cz_errinfo ei;
    uint64_t t0;
    int rc;

    snprintf(it->worker, sizeof it->worker, "gpu%d.%d", w->slot, w->index);
    emit(e, CZ_TL_GPU_PICKUP, it, NULL);
    cz__pace_leave(it);
    if (cz_job_should_stop(it->job)) {
        cz__end_part(it, CZ_ECANCELED, NULL);
        return -1;
    }
    cz_errinfo_clear(&ei);
    t0 = cz_clock_now_ns();
    rc = wl->ops->prepare(it->part, wl->ctx, &w->d, &it->t, &ei);
    if (rc != CZ_OK) {
        step_failed(w, it, rc, &ei, "prepare");
        return -1;
    }
    it->t.prep += ms_since(t0);
    if (!held && (rc = ws_for(w, it, &ei)) != CZ_OK) {
        ws_done(w);
        step_failed(w, it, rc, &ei, "device memory");
        return -1;
    }
    if (wl->ops->upload != NULL &&
        (rc = wl->ops->upload(it->part, wl->ctx, &w->d, &it->t, &ei)) != CZ_OK) {
        if (!held)
            ws_done(w);
        step_failed(w, it, rc, &ei, "upload");
        return -1;
    }
    return 0;
}

/* Partition it, computed, goes on to a finalizer. Release step 1: a and b, given back to the
 * manager by now, stay there (paid by it). */
static void computed(cz_engine *e, item *it) {
    const cz_workload *wl = &it->pj->wl;
    cz_mem_release(e->mem, &it->res,
                   wl->part_abc_bytes < it->res.bytes ? wl->part_abc_bytes : it->res.bytes);
    cz__workq_push(&e->fin_q, &it->node);
}

/* Partition it's kernel region, the device lock held (after wait_ms waiting for it); the
 * worker's device buffers stay with it. Then the partition goes on to a finalizer, or fails. */
static void gpu_region(gpu_worker *w, item *it, double wait_ms) {
    cz_engine *e = w->e;
    dev_slot *ds = &e->dev[w->slot];
    const cz_workload *wl = &it->pj->wl;
    cz_errinfo ei;
    uint64_t t0 = cz_clock_now_ns();
    double held_ms;
    int rc;

    cz_errinfo_clear(&ei);
    emit(e, CZ_TL_GPU_START, it, NULL);
    rc = wl->ops->compute(it->part, wl->ctx, &w->d, &it->t, &ei);
    held_ms = ms_since(t0);
    emit(e, CZ_TL_GPU_END, it, "gpu_ms=%.3f", held_ms);
    pthread_mutex_lock(&e->stats_lock);
    ds->busy_ms += held_ms;
    pthread_mutex_unlock(&e->stats_lock);
    if (cz_timeline_emitter_enabled(e->tl)) {
        cz_timeline_emit_stage(e->tl, cz_job_key(it->job), (int)it->p, it->worker,
                               CZ_TL_STAGE_LOCK_WAIT, wait_ms);
        cz_timeline_emit_stage(e->tl, cz_job_key(it->job), (int)it->p, it->worker,
                               CZ_TL_STAGE_LOCK_HELD, held_ms);
    }
    if (rc != CZ_OK) {
        step_failed(w, it, rc, &ei, "GPU compute");
        return;
    }
    computed(e, it);
}

void cz__cpu_compute(cz_engine *e, item *it) {
    const cz_workload *wl = &it->pj->wl;
    cz_engine_device d = {-1, -1, e->gpu_pool, e->gpu_pool, NULL};
    cz_errinfo ei;
    uint64_t t0;
    int rc;
    snprintf(it->worker, sizeof it->worker, "cpu"); /* not a GPU lane: no GPU events */
    cz__pace_leave(it);
    if (cz_job_should_stop(it->job)) {
        cz__end_part(it, CZ_ECANCELED, NULL);
        return;
    }
    CZ_LOG_WARN("job %s: partition %u proven on the CPU: no GPU is in service", cz_job_key(it->job),
                it->p);
    cz_errinfo_clear(&ei);
    t0 = cz_clock_now_ns();
    rc = wl->ops->prepare(it->part, wl->ctx, &d, &it->t, &ei);
    it->t.prep += ms_since(t0);
    if (rc == CZ_OK && wl->ops->upload != NULL)
        rc = wl->ops->upload(it->part, wl->ctx, &d, &it->t, &ei);
    if (rc == CZ_OK)
        rc = wl->ops->compute(it->part, wl->ctx, &d, &it->t, &ei);
    if (rc != CZ_OK) {
        cz__fail_part(it, rc, &ei, "CPU compute (no GPU in service)");
        return;
    }
    computed(e, it);
}

/* The next Critical partition in the GPU queue for the worker that holds the device lock, if its
 * device buffers can take it (the workload's reserve step; without buffers, compute uploads
 * under the lock as for any partition of the device); NULL: none, or one that needs buffers of
 * its own, in *later (the worker takes it as a new partition once the lock is let go). */
static item *critical_next(gpu_worker *w, item **later) {
    item *it = (item *)cz__workq_try_pop_below(&w->e->gpu_q, QUEUE_CRITICAL_BELOW);
    cz_errinfo ei;
    if (it == NULL || w->d.ws == NULL || it->pj->wl.ops->reserve == NULL)
        return it;
    cz_errinfo_clear(&ei);
    if (it->pj->wl.ops->reserve(it->pj->wl.ctx, &w->d, &ei) == CZ_OK)
        return it;
    CZ_LOG_INFO("engine: GPU %d: a Critical partition needs device buffers of its own: %s",
                w->d.device, ei.msg);
    *later = it;
    return NULL;
}

/* A partition from its pickup to its kernel region's end. The device lock is granted in order
 * of request, a Critical partition's before the others (cz__fifo_lock); and before the holder
 * lets it go, it computes every Critical partition waiting in the GPU queue (a WinningPoSt that
 * arrives while every worker holds a partition of a batch): such a partition waits for the
 * kernel region in progress, not for every partition the device's workers hold. Returns a
 * Critical partition to take next as a new one (critical_next), or NULL. */
static item *gpu_part(gpu_worker *w, item *it) {
    cz_engine *e = w->e;
    dev_slot *ds = &e->dev[w->slot];
    item *later = NULL;
    uint64_t t0;
    double wait_ms;

    if (gpu_ready(w, it, 0) != 0)
        return NULL;
    t0 = cz_clock_now_ns();
    cz__fifo_lock_acquire(&ds->lock, cz__is_critical(it));
    wait_ms = ms_since(t0);
    pthread_mutex_lock(&e->stats_lock);
    ds->busy_now = 1;
    pthread_mutex_unlock(&e->stats_lock);
    if (cz__dev_in_service(e, w->slot)) {
        gpu_region(w, it, wait_ms);
    } else { /* it went while this worker waited: prepared there, the partition cannot move */
        cz__dev_fail_part(e, it, w->slot);
    }
    while (cz__dev_in_service(e, w->slot) && (it = critical_next(w, &later)) != NULL)
        if (gpu_ready(w, it, 1) == 0)
            gpu_region(w, it, 0);
    ws_done(w);
    pthread_mutex_lock(&e->stats_lock); /* before the device lock goes: the next holder sets 1 */
    ds->busy_now = 0;
    pthread_mutex_unlock(&e->stats_lock);
    cz__fifo_lock_release(&ds->lock);
    return later;
}

/* A GPU worker. On a GPU each partition gets device buffers for its inputs from the device's
 * shared set (ws_for), so the uploads run before the worker takes the device lock and nothing is
 * allocated per partition; without them (the device refused) compute uploads under the lock, as
 * slower but correct. It ends when its device is out of service (dev_service.c), giving the
 * partition it took back to the GPU queue. */
static void *gpu_main(void *arg) {
    gpu_worker *w = arg;
    cz__wq_node *n;
    w->d = w->e->dev[w->slot].d;
    w->d.ws = NULL;
    while (cz__dev_in_service(w->e, w->slot) && (n = cz__workq_pop(&w->e->gpu_q)) != NULL)
        for (item *it = (item *)n; it != NULL;) {
            if (!cz__dev_in_service(w->e, w->slot)) {
                cz__gpu_queue_push(w->e, it, w->slot);
                return NULL;
            }
            it = gpu_part(w, it);
        }
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
        /* compute: the device stage on a GPU; on the CPU backend the NTTs and the MSMs of the
         * compute stage (the G2 MSM runs beside them on another pool) */
        cz_job_add_work_ms(it->job, it->t.synth,
                           it->t.device > 0 ? it->t.device
                                            : it->t.ntt_h + it->t.batch_add + it->t.tail_msm);
        if (rc != CZ_OK) {
            cz__fail_part(it, rc, &ei, "finish");
            continue;
        }
        emit(e, CZ_TL_FINALIZE, it, NULL);
        cz__end_part(it, CZ_OK, NULL);
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
    cz__wake_dispatcher(arg);
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
    cz_mem_destroy(e->mem); /* detaches from the budget */
    if (e->own_budget)
        cz_budget_destroy(e->budget);
    cz_threadpool_destroy(e->synth_pool);
    cz_threadpool_destroy(e->gpu_pool);
    cz__workq_destroy(&e->synth_q);
    cz__workq_destroy(&e->gpu_q);
    cz__workq_destroy(&e->fin_q);
    cz__workq_destroy(&e->dealloc_q);
    for (int i = 0; i < e->nslots; i++) {
        cz__fifo_lock_destroy(&e->dev[i].lock);
        cz__dev_ws_fini(&e->dev[i].ws);
    }
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
    if (pthread_create(&e->dispatcher, NULL, cz__dispatcher_main, e) != 0)
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
    if (cfg->cpu_devices < 0 || cfg->cpu_devices > CZ_ENGINE_MAX_DEVICES ||
        (cfg->cpu_devices > 1 && cfg->ndevices > 0))
        return cz_fail(ei, CZ_EINVAL,
                       "engine: cpu_devices = %d (the CPU backend's slots: 0 to %d, and only "
                       "without GPUs)",
                       cfg->cpu_devices, CZ_ENGINE_MAX_DEVICES);
    for (int i = 0; i < cfg->ndevices; i++)
        for (int j = 0; j < i; j++)
            if (cfg->devices[i] == cfg->devices[j])
                return cz_fail(ei, CZ_EINVAL,
                               "engine: GPU %d is listed twice (devices %d and %d): one slot per "
                               "GPU, more workers on it with workers_per_device",
                               cfg->devices[i], j, i);
    e = calloc(1, sizeof *e);
    if (e == NULL)
        return cz_fail(ei, CZ_ENOMEM, "engine");
    e->cfg = *cfg;
    e->tl = cfg->timeline;
    e->start_ns = cz_clock_now_ns();
    per = pos_or(cfg->workers_per_device, 2);
    e->nslots = cfg->ndevices > 0 ? cfg->ndevices : pos_or(cfg->cpu_devices, 1);
    e->nslots_ok = e->nslots;
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
        e->dev[i].d.slot = i;
        cz__dev_ws_init(&e->dev[i].ws, e->dev[i].d.device, i, per);
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
        cz_mem_config mc = {cfg->ndevices > 0 && !cfg->pageable_buffers, e->budget,
                            cfg->pool_idle_bytes};
        if ((rc = cz_mem_create(&e->mem, &mc, ei)) != CZ_OK)
            goto fail;
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
    for (int i = 0; i < CZ_MEM_BUFS_MAX; i++) {
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
        cz__wake_dispatcher(e); /* it may be more urgent than a partition waiting there */
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

cz_mem *cz_engine_mem(cz_engine *e) {
    return e->mem;
}

int cz_engine_prefill(cz_engine *e, const cz_workload *wl, unsigned partitions, unsigned *made,
                      cz_errinfo *ei) {
    cz_budget_stats bs;
    cz_mem_stats ps;
    uint64_t fit;
    if (partitions == 0) /* + 1 with the pacer: a partition finishing still holds a buffer */
        partitions = (e->pace_limit > 0 ? (unsigned)e->pace_limit + 1 : 2 * (unsigned)e->nsynth) +
                     (unsigned)e->ngpu;
    /* no more sets than partitions fit in what the budget has free (with the manager's own idle
     * buffers, which partitions adopt): a partition also needs room for its bytes that are not
     * pooled, and filling it all would make the first partitions free buffers to get it */
    cz_budget_stats_get(&bs, e->budget);
    cz_mem_stats_get(&ps, e->mem);
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
    return cz_mem_prefill(e->mem, wl->buf_bytes, partitions, made, ei);
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
        out->failed[i] = e->dev[i].failed;
        if (e->dev[i].failed)
            snprintf(out->failed_why[i], sizeof out->failed_why[i], "%s", e->dev[i].why);
    }
    pthread_mutex_unlock(&e->stats_lock);
    out->workers_per_device = e->ngpu / e->nslots;
    out->ndevices = e->nslots;
    out->uptime_ms = ms_since(e->start_ns);
    out->synth_queue = cz__workq_count(&e->synth_q);
    out->gpu_queue = cz__workq_count(&e->gpu_q);
    out->finalize_queue = cz__workq_count(&e->fin_q);
}
