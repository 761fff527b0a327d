/*
 * What the pipeline's two files share (include/cuzk/pipeline.h is the public side):
 *   pipeline.c  the engine's life cycle, the synthesis, GPU, finalizer and deallocation threads,
 *               and the end of every partition and job (cz__end_part);
 *   dispatch.c  the dispatcher thread: the order of jobs and partitions, the pacer, and each
 *               partition's reservation (the memory manager's reserve path).
 * A partition is an `item` from dispatch to cz__end_part, which frees it; the engine owns it
 * while it is in a queue, else the thread that popped it.
 */
#ifndef CZ_ENGINE_PIPELINE_INTERNAL_H
#define CZ_ENGINE_PIPELINE_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include "cuzk/pipeline.h"
#include "engine/dev_ws.h"
#include "engine/fifo_lock.h"
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

typedef struct gpu_worker {
    cz_engine *e;
    int slot; /* index into e->dev */
    int index;
    cz_engine_device d; /* the slot's, with the device buffers of its partition (d.ws) */
    pthread_t thread;
} gpu_worker;

typedef struct dev_slot {
    cz_engine_device d;
    cz__fifo_lock lock; /* held around compute only; in order of request, Critical first */
    cz__dev_ws ws;      /* the device buffers its workers share */
    double busy_ms;     /* lock held, summed (under e->stats_lock) */
    int busy_now;       /* the lock is held (under e->stats_lock) */
    /* Out of service (under e->stats_lock): a step on the device failed with CZ_EDEVICE, the
     * error after which nothing more runs there until the process restarts; why: its message. */
    int failed;
    char why[CZ_ERRINFO_MSG_MAX];
} dev_slot;

struct cz_engine {
    cz_engine_config cfg;
    cz_sched *sched;
    cz_budget *budget;
    int own_budget;
    cz_mem *mem; /* the partitions' memory and buffers (pinned with GPUs if asked) */
    cz_threadpool *synth_pool, *gpu_pool;
    cz_timeline_emitter *tl;
    cz__workq synth_q, gpu_q, fin_q, dealloc_q;
    dev_slot dev[CZ_ENGINE_MAX_DEVICES];
    int nslots;
    int nslots_ok; /* slots in service (under stats_lock); 0: every partition fails at once */
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

/* The synthesis and GPU queues' order of a partition: priority first (Critical lowest), then the
 * job's dispatch order (dispatch.c); every order below QUEUE_CRITICAL_BELOW is a Critical one's. */
#define QUEUE_PRIO_SHIFT     56
#define QUEUE_CRITICAL_BELOW ((uint64_t)1 << QUEUE_PRIO_SHIFT)

/* A partition that is a Critical job's (its queue order says so). */
static inline int cz__is_critical(const item *it) {
    return it->node.order < QUEUE_CRITICAL_BELOW;
}

/* pipeline.c: the one way a partition ends, whatever happened: it leaves the pacer, releases its
 * memory to the end, passes its buffers to the deallocation thread and reports it to the job;
 * frees it. fail_part: the same for a step that failed (its message names the step). */
void cz__end_part(item *it, int code, const char *msg);
void cz__fail_part(item *it, int rc, cz_errinfo *ei, const char *step);
/* pipeline.c: a Critical partition's prepare, upload and compute on the CPU backend in the
 * calling thread (no device is in service, dev_service.c), then on to a finalizer. */
void cz__cpu_compute(cz_engine *e, item *it);

/* dev_service.c: devices out of service (see there). cz__dev_out_of_service takes slot out (a
 * step on it failed with CZ_EDEVICE; why: the message), once; the last one's exit fails every
 * partition queued for a GPU but the Critical ones, which compute on the CPU. cz__gpu_queue_push:
 * the one way into the GPU queue; with no device in service a Critical partition computes on the
 * CPU and any other ends with CZ_EDEVICE, as does one a slot out of service gave back (slot; -1
 * for none) to a closed queue. cz__no_device: 1 with the message (naming every device and why it
 * went) when no device is in service. */
void cz__dev_out_of_service(cz_engine *e, int slot, const char *why);
int cz__dev_in_service(cz_engine *e, int slot);
void cz__gpu_queue_push(cz_engine *e, item *it, int slot);
/* Ends partition it, prepared on slot, which went out of service before its kernel region. */
void cz__dev_fail_part(cz_engine *e, item *it, int slot);
int cz__no_device(cz_engine *e, char *msg, size_t len);

/* dispatch.c: the dispatcher thread (arg: the engine); a partition leaving the pacer (a GPU worker
 * took it, or it ended first); and the wake of the dispatcher's waits (a job queued or cancelled).
 */
void *cz__dispatcher_main(void *arg);
void cz__pace_leave(item *it);
void cz__wake_dispatcher(cz_engine *e);

#endif
