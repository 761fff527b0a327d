/*
 * The proving engine's pipeline: jobs in, verified proofs out (docs/engine.md, "Pipeline").
 *
 *   submit ─► scheduler ─► dispatcher ─► synthesis workers ─► GPU queue ─► GPU workers ─►
 * finalizers (priority,   (budget per    (partition_workers   ((dispatch     (per device, (finish,
 *              FIFO)        partition, in  threads, share the   order, p)      workers_per_
 * assemble, order)         synthesis pool)      min first)     device, lock)   verify)
 *
 * A job is a workload (below) of nparts partitions. The dispatcher takes jobs from the scheduler
 * (include/cuzk/engine.h) in priority order, the most urgent first also between the partitions
 * of a less urgent one, and reserves each partition's memory in (priority, job, partition)
 * order, then hands the partition to the synthesis workers through a queue
 * bounded by their number. Each GPU worker takes the oldest synthesized partition, runs the
 * workload's `prepare` (CPU; may start background CPU work such as the G2 MSM on the engine's
 * gpu_threads pool) and `upload` (its inputs into the worker's own device buffers, kept across
 * partitions), takes its device's lock only for `compute` (the kernel region), releases
 * the partition's a/b/c bytes, and hands it to a finalizer so that it can take the next
 * partition at once; two workers per device overlap one's CPU work with the other's kernels.
 * A finalizer runs `finish` (joins the background work, returns the partition's proof as a
 * struct), releases the reservation, and reports the partition; after the last one the proofs
 * of the whole job are verified with the workload's `verify` and encoded once
 * (cz_groth16_proof_encode) as the job's result. Buffers are freed by one
 * deallocation thread. Any failure fails the job once, with its message; partitions not yet
 * started are skipped; every reservation and buffer is released on every path.
 *
 * Devices: with GPUs the engine runs workers_per_device workers on each listed device; without
 * (ndevices = 0) it runs the same pipeline on one CPU "device" (device index -1 passed to the
 * workload), whose lock serializes the compute regions the same way.
 */
#ifndef CUZK_PIPELINE_H
#define CUZK_PIPELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/engine.h"
#include "cuzk/err.h"
#include "cuzk/groth16.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cz_threadpool cz_threadpool;
typedef struct cz_timeline_emitter cz_timeline_emitter;

/* Per-partition stage times (ms) a workload fills in; written as STAGE timeline records. */
typedef struct cz_part_times {
    double synth, prep, ntt_h, batch_add, tail_msm, g2_msm, finish;
    double upload, device; /* GPU only: host -> device copies (outside the lock with `upload`);
                            * the compute stage on the device (under the lock) */
} cz_part_times;

/* What a workload's GPU-side steps get from the engine. */
typedef struct cz_engine_device {
    int device;             /* CUDA device index, or -1 for the CPU backend */
    int slot;               /* the engine's device slot (0 .. ndevices or cpu_devices - 1) */
    cz_threadpool *cpu;     /* gpu_threads pool: CPU work beside the kernels (G2 MSM, prep) */
    cz_threadpool *compute; /* the pool a CPU backend computes on (NULL with a GPU) */
    /* The device buffers of the partition at hand, one of the device's shared set (NULL on the
     * CPU backend, or when none could be made: then compute uploads under the lock). */
    struct cz_groth16_gpu_ws *ws;
} cz_engine_device;

/* What synthesis gets from the engine for one partition. */
typedef struct cz_part_env {
    cz_reservation *res; /* the partition's reservation: pays for the buffers synthesis takes
                          * from mem (pass it to cz_mem_get); bytes the partition no longer needs
                          * go back early through cz_mem_release; NULL outside the engine */
    cz_mem *mem;         /* the engine's memory manager (pinned buffers with GPUs unless
                          * pageable_buffers); it outlives the job; NULL: plain host memory */
    cz_threadpool *pool; /* the synthesis pool */
} cz_part_env;

/*
 * A workload: the partition task of one job. The engine owns the workload from submit on. Each
 * partition is one object of the workload's (`part`), made by synthesize and freed by part_free
 * on every path (from the deallocation thread); the steps in between work on it in place:
 *
 *   synthesis worker   synthesize  the proving assignment of partition p, into pooled buffers
 *   GPU worker         prepare     CPU work outside the lock (may start background work, such
 *                                  as the G2 MSM on dev->cpu)
 *                      reserve     optional, per job: the device state an upload of the job
 *                                  needs (dev->ws grown, resident data); CZ_ENOMEM tells the
 *                                  engine the device has no room for another workspace
 *                      upload      optional: the inputs into the partition's device buffers
 *                      compute     holding the device's lock: the kernel region
 *   finalizer          finish      joins the background work; the partition's proof, a struct
 *   the last partition verify      the whole job's proofs, in partition order
 *
 * The engine then encodes the proofs once (cz_groth16_proof_encode) as the job's result. Every
 * step may run on several threads at once for different partitions of a job. Groth16 workloads
 * take every step but synthesize from the engine's shared stages (src/engine/g16_task.h).
 */
typedef struct cz_workload_ops {
    const char *name;
    int (*synthesize)(void **part, void *job, uint32_t p, const cz_part_env *env, cz_part_times *t,
                      cz_errinfo *ei);
    int (*prepare)(void *part, void *job, const cz_engine_device *dev, cz_part_times *t,
                   cz_errinfo *ei);
    int (*reserve)(void *job, const cz_engine_device *dev, cz_errinfo *ei);
    int (*upload)(void *part, void *job, const cz_engine_device *dev, cz_part_times *t,
                  cz_errinfo *ei);
    int (*compute)(void *part, void *job, const cz_engine_device *dev, cz_part_times *t,
                   cz_errinfo *ei);
    int (*finish)(cz_groth16_proof *proof, void *part, void *job, cz_part_times *t, cz_errinfo *ei);
    void (*part_free)(void *part, void *job);
    int (*verify)(void *job, const cz_groth16_proof *proofs, uint32_t nparts, cz_errinfo *ei);
    /* Optional: called once, on the deallocation thread, after the job has ended and every
     * partition of it is freed: drop what only the running job needed (e.g. its proving key's
     * reference, so the key can be evicted) while the finished job stays queryable. */
    void (*release)(void *job);
    void (*destroy)(void *job); /* when the job is dropped (or a submit fails) */
} cz_workload_ops;

typedef struct cz_workload {
    const cz_workload_ops *ops;
    void *ctx; /* the job, passed to every op */
    uint32_t nparts;
    cz_proof_kind kind;
    uint64_t part_bytes;     /* host memory of a partition from dispatch to finish */
    uint64_t part_abc_bytes; /* the part of it released right after the kernel region */
    /* Optional: the sizes of the buffers each partition takes from the engine's buffer pool
     * (counted in part_bytes; 0 = unused slot). A partition waiting for memory adopts idle
     * buffers of these sizes instead of having them freed (cz_mem_reserve). */
    uint64_t buf_bytes[CZ_MEM_BUFS_MAX];
} cz_workload;

typedef struct cz_engine cz_engine;

#define CZ_ENGINE_MAX_DEVICES 16

typedef struct cz_engine_config {
    int ndevices;                       /* GPUs to use (devices[0..n)); 0 = the CPU backend */
    int devices[CZ_ENGINE_MAX_DEVICES]; /* CUDA indices */
    /* The CPU backend's device slots (ndevices = 0 only; 0 = 1, at most CZ_ENGINE_MAX_DEVICES):
     * each has its own lock and workers_per_device workers, as a GPU has, and computes on the
     * shared gpu_threads pool. With more than one, partitions spread over the slots as over
     * several GPUs: the multi-GPU scheduling, tested without GPUs. */
    int cpu_devices;
    int workers_per_device;        /* GPU workers per device; 0 = 2 */
    int partition_workers;         /* synthesis workers; 0 = 2 */
    int synthesis_threads;         /* threads of the synthesis pool; 0 = all CPUs */
    int gpu_threads;               /* threads of the GPU-side CPU pool; 0 = all CPUs */
    int finalizers;                /* finalizer threads; 0 = all GPU workers */
    cz_budget_config budget;       /* memory budget (when shared_budget is NULL) */
    cz_budget *shared_budget;      /* or the caller's budget, not owned (e.g. shared with an
                                    * SRS manager whose keys outlive the engine's jobs) */
    cz_sched_config sched;         /* retention etc.; on_cancel is the engine's */
    cz_timeline_emitter *timeline; /* NULL: no timeline; not owned */
    /* The memory manager's buffers of the partitions' vectors: pinned host memory when
     * ndevices > 0 unless pageable_buffers (pinned uploads are about 7x faster: docs/engine.md).
     * Buffers pass from partition to partition with their budget bytes (cz_mem_reserve), so a
     * full budget does not make the manager free and pin them again (each cudaHostAlloc /
     * cudaFreeHost of 4 GiB stalls the other workers' device calls: docs/engine.md). Idle
     * buffers are charged to the budget, at most pool_idle_bytes of them (0 = the whole budget);
     * the manager frees them for anyone else who needs the memory before the budget's evictor
     * is asked, which the engine leaves as the caller set it. */
    int pageable_buffers;
    uint64_t pool_idle_bytes;
    /* The pacer: the dispatcher holds a partition back (before its memory) while
     * partition_workers + gpu_queue_depth partitions are dispatched and not yet picked up by a
     * GPU worker (in synthesis or queued for a GPU). So the partitions holding working sets stay
     * about what the pool was filled with (cz_engine_prefill) instead of growing to the budget
     * when synthesis outruns the GPUs: at 2^27, pinning the extra buffers mid-run stalled the
     * device for seconds (docs/engine.md). 0 = one per GPU worker; < 0 = no pacer
     * (the budget alone paces synthesis). */
    int gpu_queue_depth;
    /* One more synthesis worker that takes only Critical partitions (e.g. a WinningPoSt) from
     * the head of the synthesis queue, where they are ahead of every less urgent one, so an
     * urgent job does not wait for a worker to finish a Normal partition (seconds at 2^27). The
     * queue takes one Critical partition beyond its bound for it. 0 = on; < 0 = off. */
    int urgent_synthesis;
} cz_engine_config;

typedef struct cz_engine_stats {
    cz_sched_stats sched;
    cz_budget_stats budget;
    uint64_t parts_done, parts_failed, parts_skipped;
    double busy_ms[CZ_ENGINE_MAX_DEVICES]; /* time each device's lock was held */
    int busy_now[CZ_ENGINE_MAX_DEVICES];   /* 1 while a worker holds the device's lock */
    int device[CZ_ENGINE_MAX_DEVICES];     /* each slot's CUDA index; -1 for the CPU backend */
    /* 1 for a slot out of service (a step on it failed with CZ_EDEVICE: its context is lost
     * until the process restarts; docs/engine.md), with that step's message */
    int failed[CZ_ENGINE_MAX_DEVICES];
    char failed_why[CZ_ENGINE_MAX_DEVICES][CZ_ERRINFO_MSG_MAX];
    int workers_per_device; /* GPU workers on each slot */
    double uptime_ms;
    int ndevices; /* lock slots in busy_ms (1 for the CPU backend) */
    size_t synth_queue, gpu_queue, finalize_queue; /* partitions waiting in each */
    uint64_t ahead;       /* partitions dispatched and not yet picked up by a GPU worker */
    uint64_t ahead_limit; /* the pacer's bound on them (0: no pacer) */
} cz_engine_stats;

/* Starts the engine's threads. CZ_EINVAL (config), CZ_ENOMEM, CZ_EINTERNAL (threads). */
int cz_engine_create(cz_engine **out, const cz_engine_config *cfg, cz_errinfo *ei);
/*
 * Stops taking jobs, lets the jobs already running finish (queued jobs stay queued and are
 * dropped), joins every thread and frees the engine. Every job handle must be released first.
 */
void cz_engine_destroy(cz_engine *e);

/*
 * Queues a job. On success the engine owns wl (also when the job is later cancelled or fails);
 * on error wl stays the caller's. Errors as cz_sched_submit, plus CZ_EINVAL for a malformed
 * workload and CZ_ERANGE when one partition needs more memory than the whole budget.
 */
int cz_engine_submit(cz_job **out, cz_engine *e, const char *key, cz_priority prio,
                     const cz_workload *wl, cz_errinfo *ei);
/* See cz_sched_cancel / cz_sched_await / cz_sched_find. */
int cz_engine_cancel(cz_engine *e, const char *key, cz_errinfo *ei);
int cz_engine_await(cz_job **out, cz_engine *e, const char *key, int64_t timeout_ms,
                    cz_errinfo *ei);
cz_sched *cz_engine_sched(cz_engine *e);
cz_budget *cz_engine_budget(cz_engine *e);
void cz_engine_stats_get(cz_engine_stats *out, cz_engine *e);
/* The engine's memory manager (its stats). */
cz_mem *cz_engine_mem(cz_engine *e);
/* Fills the engine's buffer pool ahead of jobs of workload wl (its buf_bytes) with the buffers
 * of partitions partitions (0: the most the pipeline holds at once: with the pacer
 * partition_workers + gpu_queue_depth + the GPU workers + 1, without it 2 x partition_workers + the
 * GPU workers), at most as many partitions as fit whole (part_bytes) in the budget's free bytes
 * (the pool's idle buffers counted as free), each as far as the budget grants it at once
 * (cz_mem_prefill): with pinned buffers this moves the pinning (seconds per GiB) out of the
 * first jobs. When the budget caps the count below the pacer's, the pacer is lowered to it
 * (partitions - GPU workers - 1, at least 1), so that the pool does not grow mid-run. *made (may be
 * NULL): buffers allocated. CZ_ENOMEM when host memory runs out (what was made stays). */
int cz_engine_prefill(cz_engine *e, const cz_workload *wl, unsigned partitions, unsigned *made,
                      cz_errinfo *ei);

#ifdef __cplusplus
}
#endif

#endif
