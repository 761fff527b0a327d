/*
 * The foundations of the proving engine: the job scheduler/tracker, the memory budget and the
 * SRS (proving key) manager. docs/engine.md explains how the pipeline uses them.
 *
 * The pipeline (include/cuzk/pipeline.h) is a dispatcher thread, synthesis workers, GPU workers
 * and finalizers:
 *
 *   dispatcher:  one loop; the most urgent job it holds goes next: cz_sched_next, and before
 *                each partition cz_sched_next_above (a more urgent job first)
 *                    if cz_job_should_stop(job): cz_job_part_report(job, p, CZ_ECANCELED) ...
 *                    cz_mem_reserve(&res[p], bytes, bufs)  (FIFO; the wait gives way when
 *                                                           cz_sched_queued_above)
 *                    hand (job, p, res[p]) to synthesis
 *   GPU worker:  after the GPU region: cz_mem_release(&res, abc_bytes)
 *   finalizer:   cz_mem_release(&res, CZ_MEM_ALL); cz_job_part_report(job, p, code, msg)
 *   assembler:   when the report says all partitions succeeded: cz_job_complete(job, proof, ...)
 *
 * Common rules. Functions that can fail take a cz_errinfo (may be NULL) and return a cz_err.
 * Timeouts are milliseconds of real monotonic time; a negative timeout waits forever, 0 polls.
 * Every object is thread-safe unless a function says otherwise. Lock order across modules:
 * SRS load lock -> SRS lock -> budget lock; memory manager lock -> budget lock. The budget never
 * holds its lock while it calls its evictors, and the scheduler never calls into the others (its
 * on_cancel hook runs unlocked).
 */
#ifndef CUZK_ENGINE_H
#define CUZK_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/err.h"
#include "cuzk/fileio.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ============================================================================================
 * Memory budget (src/engine/budget.c)
 *
 * One number of bytes that keys and per-partition working sets are charged against. A
 * reservation blocks until it fits; waiters are served strictly first come, first served (a
 * large early request is never overtaken by later small ones, so the dispatcher's
 * (job seq, partition) order is also the order in which memory is granted). Used bytes never
 * exceed the total (checked by CZ_ASSERT on every grant; the peak is recorded). A request
 * larger than the total fails at once with CZ_ERANGE. When the request at the head of the queue
 * does not fit, the budget asks the memory manager attached to it (below; it frees idle buffers)
 * and then its evictor (e.g. cz_srs_evict_lru), without holding its lock. The budget is one part
 * of the engine's memory manager (src/engine/mem.h); it is public because keys and partitions
 * share it (the daemon gives one budget to the SRS manager and the engine).
 * ============================================================================================ */

typedef struct cz_budget cz_budget;

/* Frees up to (at least, if it can) need bytes of the budget by releasing reservations it owns;
 * returns the bytes it released (0: nothing left to evict). Called without the budget's lock. */
typedef uint64_t (*cz_budget_evict_fn)(void *arg, uint64_t need);

typedef struct cz_budget_config {
    uint64_t total_bytes;  /* explicit total; 0 = physical RAM minus margin_bytes */
    uint64_t margin_bytes; /* kept free for the OS and everything else, when total_bytes is 0 */
} cz_budget_config;

/* Bytes held by one reservation. A plain value owned by its holder (no allocation); move it
 * with the work it pays for. Released in one or more steps; all bytes must be released. */
typedef struct cz_reservation {
    cz_budget *budget;
    uint64_t bytes;
    int part; /* a partition's, counted by its memory manager (cz_mem_reserve) until its end */
} cz_reservation;

/* Abort predicate of a waiting reservation: non-zero = stop waiting (CZ_ECANCELED). Evaluated
 * when the waiter wakes; cz_budget_wake wakes all waiters so that they evaluate it. */
typedef int (*cz_budget_abort_fn)(void *arg);

typedef struct cz_budget_stats {
    uint64_t total, used, peak;
    uint64_t waiting_bytes; /* sum of the requests now waiting */
    size_t nwaiting;        /* requests now waiting */
    uint64_t ngranted;      /* reservations granted so far */
    uint64_t nevict_calls;  /* evictor calls */
    uint64_t nrefused;      /* oversize, timed out or aborted requests */
} cz_budget_stats;

/* CZ_EINVAL when margin_bytes >= physical RAM (total_bytes 0), CZ_ENOMEM. */
int cz_budget_create(cz_budget **out, const cz_budget_config *cfg, cz_errinfo *ei);
/* Nothing may be reserved or waiting (CZ_ASSERT). NULL is a no-op. */
void cz_budget_destroy(cz_budget *b);
/* Sets (or clears, fn NULL) the evictor, asked after the memory manager's idle buffers. Set it
 * before reservations start; an engine does not change it. */
void cz_budget_set_evictor(cz_budget *b, cz_budget_evict_fn fn, void *arg);

/*
 * Reserves bytes, waiting in FIFO order until they fit. *out is always initialised (0 bytes on
 * failure). Errors: CZ_ERANGE (bytes > total, at once), CZ_ETIMEDOUT (timeout_ms passed),
 * CZ_ECANCELED (abort(abort_arg) returned non-zero; abort may be NULL). 0 bytes succeed at once.
 */
int cz_budget_reserve(cz_reservation *out, cz_budget *b, uint64_t bytes, int64_t timeout_ms,
                      cz_budget_abort_fn abort, void *abort_arg, cz_errinfo *ei);
/* Releases bytes (<= r->bytes, CZ_ASSERT) of r: step one of a two-step release. */
void cz_reservation_release(cz_reservation *r, uint64_t bytes);
/* Releases what r still holds; r then holds 0 bytes (idempotent). */
void cz_reservation_release_all(cz_reservation *r);
/* Wakes every waiter to re-evaluate its abort predicate (e.g. after a job was cancelled). */
void cz_budget_wake(cz_budget *b);
void cz_budget_stats_get(cz_budget_stats *out, cz_budget *b);
uint64_t cz_budget_total(const cz_budget *b);
/* Grants bytes only if they fit now and nobody waits; never waits, never calls the evictor (for
 * memory that is nice to keep, e.g. idle pooled buffers). 1 granted (*out holds them), else 0. */
int cz_budget_try_reserve(cz_reservation *out, cz_budget *b, uint64_t bytes);
/* The evictor now set. */
void cz_budget_get_evictor(cz_budget *b, cz_budget_evict_fn *fn, void **arg);

/* ============================================================================================
 * Scheduler and job tracker (src/engine/sched.c, src/engine/jobs.c)
 *
 * Jobs have a unique string key, a priority and a global sequence number; the dispatcher takes
 * them in priority order (Critical > High > Normal > Low), first in first out within a priority.
 * A submit whose key belongs to a queued or running job is refused (CZ_EEXIST), never replaces
 * it; a finished job with that key is dropped from the tracker and the key reused (a retry).
 *
 * States: queued -> running -> done | failed | cancelled; queued -> cancelled. A running job
 * has nparts partitions; each is reported exactly once (done, failed, or skipped). The job
 * reaches a final state only when every partition has been reported, so a finished job holds
 * no resources of the pipeline. A failed partition or a cancel makes cz_job_should_stop true:
 * the pipeline skips the partitions it has not started. Finished jobs are kept for
 * retention_ms and at most max_retained of them (oldest dropped first), then dropped.
 * ============================================================================================ */

typedef enum {
    CZ_PRIO_LOW = 0,
    CZ_PRIO_NORMAL = 1,
    CZ_PRIO_HIGH = 2,
    CZ_PRIO_CRITICAL = 3,
} cz_priority;
#define CZ_PRIO_COUNT 4

typedef enum {
    CZ_JOB_QUEUED = 0,
    CZ_JOB_RUNNING = 1,
    CZ_JOB_DONE = 2,
    CZ_JOB_FAILED = 3,
    CZ_JOB_CANCELLED = 4,
} cz_job_state;

/* The proof kinds a job can be (what the daemon's ProofKind maps to); the scheduler counts
 * jobs per kind (cz_sched_stats). */
typedef enum {
    CZ_KIND_OTHER = 0, /* tests and tools that do not say */
    CZ_KIND_POREP_C2,
    CZ_KIND_SNAP_UPDATE,
    CZ_KIND_WINDOW_POST,
    CZ_KIND_WINNING_POST,
    CZ_KIND_SNARKJS_ZKEY,
    CZ_KIND_POREP_SYNTH,
} cz_proof_kind;
#define CZ_KIND_COUNT 7
/* "porep-c2", "snap-update", ... ("other"); the daemon's names. */
const char *cz_proof_kind_name(cz_proof_kind k);

typedef struct cz_sched cz_sched;
typedef struct cz_job cz_job; /* reference counted; handles from the scheduler need cz_job_unref */

/* Milliseconds of a monotonic clock; tests inject a fake one. */
typedef uint64_t (*cz_clock_ms_fn)(void *arg);

typedef struct cz_sched_config {
    uint64_t retention_ms; /* finished jobs kept this long; 0 = 10 minutes */
    size_t max_retained;   /* and at most this many; 0 = 10000 */
    cz_clock_ms_fn clock;  /* NULL = cz_clock_now_ms; used for retention and job times */
    void *clock_arg;
    /* Called (without the scheduler's lock) when a running job is asked to cancel, so that the
     * pipeline can wake what waits on its behalf (cz_budget_wake). May be NULL. */
    void (*on_cancel)(void *arg, cz_job *job);
    void *on_cancel_arg;
} cz_sched_config;

/* One proof kind's jobs (cz_sched_stats.kinds). */
typedef struct cz_sched_kind_stats {
    uint64_t queued, running;         /* now */
    uint64_t done, failed, cancelled; /* totals since creation */
    uint64_t done_ms;                 /* the done jobs' submit-to-finish times, summed */
} cz_sched_kind_stats;

typedef struct cz_sched_stats {
    size_t queued[CZ_PRIO_COUNT];                             /* now queued, per priority */
    size_t running;                                           /* now running */
    size_t retained;                                          /* finished jobs still kept */
    uint64_t submitted, completed, failed, cancelled, pruned; /* totals since creation */
    cz_sched_kind_stats kinds[CZ_KIND_COUNT];                 /* per cz_proof_kind */
} cz_sched_stats;

/* Bytes a job key may have, without the terminating zero. */
#define CZ_JOB_KEY_MAX 255

/* cfg may be NULL (defaults). */
int cz_sched_create(cz_sched **out, const cz_sched_config *cfg, cz_errinfo *ei);
/* No job may be running, no thread waiting, and no handle held (CZ_ASSERT). NULL is a no-op. */
void cz_sched_destroy(cz_sched *s);
/* Makes cz_sched_next return CZ_ECANCELED from now on (waiters wake); queued jobs stay queued. */
void cz_sched_shutdown(cz_sched *s);

/*
 * Queues a job. key: 1..CZ_JOB_KEY_MAX bytes, copied. nparts >= 1. payload is the pipeline's
 * (parsed input); payload_free(payload) runs when the job is freed (may be NULL). *out (may be
 * NULL) gets a new reference. Errors: CZ_EINVAL (key, priority, nparts), CZ_EEXIST (a queued or
 * running job has this key; the payload then stays the caller's), CZ_ENOMEM.
 */
int cz_sched_submit(cz_job **out, cz_sched *s, const char *key, cz_priority prio, uint32_t nparts,
                    void *payload, void (*payload_free)(void *), cz_errinfo *ei);
/* The same for a job of a proof kind (cz_sched_submit's are CZ_KIND_OTHER), counted per kind in
 * cz_sched_stats.kinds. CZ_EINVAL for an unknown kind. */
int cz_sched_submit_kind(cz_job **out, cz_sched *s, const char *key, cz_priority prio,
                         cz_proof_kind kind, uint32_t nparts, void *payload,
                         void (*payload_free)(void *), cz_errinfo *ei);
/*
 * The dispatcher's call: waits up to timeout_ms for a queued job, takes the highest-priority,
 * oldest one, marks it running and returns a new reference in *out. CZ_ETIMEDOUT, or
 * CZ_ECANCELED after cz_sched_shutdown.
 */
int cz_sched_next(cz_job **out, cz_sched *s, int64_t timeout_ms, cz_errinfo *ei);
/*
 * The same without waiting, for a job of a priority above `above` only: the dispatcher asks
 * between two partitions of a job, so a more urgent job's partitions go first. CZ_ENOTFOUND when
 * none is queued, CZ_ECANCELED after cz_sched_shutdown.
 */
int cz_sched_next_above(cz_job **out, cz_sched *s, cz_priority above, cz_errinfo *ei);
/* 1 when a job of a priority above `above` is queued (and the scheduler is not shut down), 0
 * otherwise; takes nothing. The dispatcher's waits for memory and for the pacer end when it
 * turns 1, so that the more urgent job is dispatched first. */
int cz_sched_queued_above(cz_sched *s, cz_priority above);
/*
 * Cancels the job with key: a queued job is removed from the queue and is cancelled at once; a
 * running job is flagged (cz_job_should_stop) and ends cancelled when its partitions have all
 * been reported. CZ_ENOTFOUND (unknown or already dropped), CZ_EINVAL (already finished).
 */
int cz_sched_cancel(cz_sched *s, const char *key, cz_errinfo *ei);
/* A new reference to the job with key (any state), or CZ_ENOTFOUND. */
int cz_sched_find(cz_job **out, cz_sched *s, const char *key, cz_errinfo *ei);
/*
 * Waits up to timeout_ms for the job with key to finish; *out gets a new reference to it (also
 * on CZ_ETIMEDOUT, with the job still queued or running). CZ_ENOTFOUND for an unknown key.
 */
int cz_sched_await(cz_job **out, cz_sched *s, const char *key, int64_t timeout_ms, cz_errinfo *ei);
/*
 * cz_sched_await that also ends, with CZ_ECANCELED (*out still set), when stop(stop_arg) returns
 * non-zero: stop is evaluated before the first wait and whenever the waiter wakes (a job reached
 * a final state, cz_sched_wake, cz_sched_shutdown), under the scheduler's lock, so it must not
 * call the scheduler. stop NULL: cz_sched_await. So a waiter blocks instead of polling; whoever
 * makes stop true (a client that went away) calls cz_sched_wake.
 */
int cz_sched_await_stop(cz_job **out, cz_sched *s, const char *key, int64_t timeout_ms,
                        int (*stop)(void *), void *stop_arg, cz_errinfo *ei);
/*
 * The wait of one thread that watches many jobs (the daemon's parked AwaitProof calls): returns
 * CZ_OK once a job has reached a final state or cz_sched_wake has been called since the count
 * *seen (0 before the first call), and sets *seen to the count now; the caller then looks at its
 * jobs (cz_job_state_get) and calls again with that *seen, so an end that comes between two calls
 * is never missed. CZ_ETIMEDOUT after timeout_ms (negative = no limit; 0 = only look) with
 * nothing new; CZ_ECANCELED at once after cz_sched_shutdown.
 */
int cz_sched_await_any(cz_sched *s, uint64_t *seen, int64_t timeout_ms, cz_errinfo *ei);
/* Wakes every thread in cz_sched_await_stop, cz_sched_await_any and cz_sched_wait_idle to look
 * again. */
void cz_sched_wake(cz_sched *s);
/* Waits up to timeout_ms until no job is queued or running (a drain). CZ_ETIMEDOUT. */
int cz_sched_wait_idle(cz_sched *s, int64_t timeout_ms, cz_errinfo *ei);
/* Drops finished jobs past their retention (every other call also does this). */
void cz_sched_prune(cz_sched *s);
void cz_sched_stats_get(cz_sched_stats *out, cz_sched *s);

/* A partition's outcome as the scheduler knows it (cz_sched_list). */
typedef enum {
    CZ_PART_PENDING = 0, /* not reported yet (waiting, or in the pipeline) */
    CZ_PART_DONE = 1,
    CZ_PART_FAILED = 2,
    CZ_PART_SKIPPED = 3, /* skipped or abandoned (cancel, or another partition failed) */
} cz_part_state;

/* A copy of one job's state, for status pages (cz_sched_list). */
typedef struct cz_job_info {
    char key[CZ_JOB_KEY_MAX + 1];
    uint64_t seq;
    cz_priority prio;
    cz_job_state state;
    uint32_t nparts, ndone, nfailed, nskipped; /* pending = nparts - the other three */
    uint64_t wait_ms; /* submit to start (or to now / to the cancel, if never started) */
    uint64_t run_ms;  /* start to finish (or to now); 0 if never started */
    uint8_t *parts;   /* nparts cz_part_state values (inside the same allocation) */
} cz_job_info;

/*
 * Copies the state of every job the scheduler tracks (queued, running and retained), in
 * submission order, under its lock. *out is one allocation (free() it; NULL when *njobs is 0).
 * Times are from the scheduler's clock. CZ_ENOMEM.
 */
int cz_sched_list(cz_job_info **out, size_t *njobs, cz_sched *s, cz_errinfo *ei);
const char *cz_part_state_name(cz_part_state st);

/* Job handles. The getters are safe from any thread while the handle is held. */
void cz_job_ref(cz_job *job);
void cz_job_unref(cz_job *job); /* NULL is a no-op */
const char *cz_job_key(const cz_job *job);
uint64_t cz_job_seq(const cz_job *job); /* global submission order, from 1 */
cz_priority cz_job_priority(const cz_job *job);
uint32_t cz_job_nparts(const cz_job *job);
void *cz_job_payload(const cz_job *job);
cz_job_state cz_job_state_get(const cz_job *job);
/* True once a cancel was requested or a partition failed: skip partitions not yet started. */
int cz_job_should_stop(const cz_job *job);

/*
 * Reports partition p (< nparts, each exactly once, CZ_ASSERT) of a running job: code CZ_OK =
 * succeeded, CZ_ECANCELED = skipped or abandoned, anything else = failed with msg (may be NULL;
 * the first failure is the job's error). Returns 1 when this was the last partition and all
 * succeeded and no cancel was requested: the caller must then call cz_job_complete. Returns 0
 * otherwise; when this was the last partition the job is then final (failed or cancelled).
 */
int cz_job_part_report(cz_job *job, uint32_t p, int code, const char *msg);
/*
 * Ends a job whose partitions all succeeded (after cz_job_part_report returned 1): code CZ_OK
 * makes it done with a copy of result (len bytes), another code failed with msg (e.g. the proof
 * did not verify). A cancel requested meanwhile wins: the job ends cancelled. CZ_ENOMEM (the job
 * then fails) or CZ_OK.
 */
int cz_job_complete(cz_job *job, int code, const void *result, size_t len, const char *msg);
/* The result of a done job (NULL otherwise; valid while the handle is held). */
const void *cz_job_result(const cz_job *job, size_t *len);
/* The error of a failed (code, message) or cancelled (CZ_ECANCELED) job; CZ_OK otherwise. */
int cz_job_error(const cz_job *job, const char **msg);
/* Times from the scheduler's clock (ms): submitted, started (0 if never), finished (0 if not). */
void cz_job_times(const cz_job *job, uint64_t *submitted, uint64_t *started, uint64_t *finished);
/* Work the job's partitions have done so far, summed over them (ms): synthesis, and compute (the
 * device stage on a GPU, the NTTs and G1 MSMs on the CPU backend); and the time its key took to
 * load before it was submitted (cz_job_set_load_ms; 0 when the key was resident). Thread-safe. */
void cz_job_work_ms(const cz_job *job, uint64_t *synthesis, uint64_t *compute, uint64_t *load);
void cz_job_add_work_ms(cz_job *job, double synthesis, double compute);
void cz_job_set_load_ms(cz_job *job, uint64_t load);
const char *cz_job_state_name(cz_job_state st);
const char *cz_priority_name(cz_priority p);

/* ============================================================================================
 * SRS manager (src/engine/srs.c)
 *
 * Proving keys, loaded once per (canonical) path by a loader into memory the manager owns,
 * kept resident while referenced. acquire/release count references; a referenced key is never
 * freed. An unreferenced key stays loaded (warm) until it is evicted explicitly (cz_srs_evict) or
 * by cz_srs_evict_lru when the budget needs room (least recently released first). A key's bytes
 * (the loader's footprint) are reserved in the budget before it loads and released when it is
 * freed.
 *
 * A key is loaded outside the manager's lock: while one key loads (or hangs on a stuck file
 * system), other keys are acquired, loaded, preloaded and evicted. A key whose file changed on
 * disk since it was loaded (cz_file_id: inode, size, mtime) is loaded again at its next acquire,
 * with a warning in the log; jobs that hold the old copy finish with it.
 * ============================================================================================ */

typedef struct cz_srs cz_srs;
typedef struct cz_srs_key cz_srs_key;

/* Where a loader puts a key: malloc/free, or pinned memory (cudaHostAlloc,
 * cz_srs_host_mem_pinned) when a GPU is present (cz_srs_config.host_mem), so the bases' upload
 * copies from pinned memory. The allocator of cz_file_load. */
typedef cz_file_alloc cz_srs_host_mem;

typedef struct cz_threadpool cz_threadpool;

/* What a loader's open gets from the manager: where to put the key, threads to decode it, and
 * how much of it to check. */
typedef struct cz_srs_load_ctx {
    const cz_srs_host_mem *mem; /* the manager's (lives as long as the manager) */
    cz_threadpool *pool;        /* cz_srs_config.pool; NULL: the loading thread alone */
    int params_check_subgroup;  /* cz_srs_config.params_check_subgroup */
} cz_srs_load_ctx;

/* Per-device resident data of a key (e.g. bases uploaded to a GPU), created on first use by
 * cz_srs_key_device and freed when the key is evicted. hint is cz_srs_key_device's: what the
 * data depends on besides the key (a bellperson key's GPU bases are spread by the circuit's
 * densities, so its hint is an assignment of the circuit, cz_groth16_bp_gpu_key_create's shape);
 * the first caller's hint makes the data. */
typedef struct cz_srs_device_hooks {
    int (*create)(void **ddata, const void *key, int device, const void *hint, void *arg,
                  cz_errinfo *ei);
    void (*free)(void *ddata, void *arg);
    void *arg;
} cz_srs_device_hooks;

/* A proving key format (src/engine/srs_loaders.c). */
typedef struct cz_srs_loader {
    const char *name; /* "zkey", "params" */
    /* Bytes the key will occupy once loaded (charged to the budget before open). */
    int (*footprint)(uint64_t *bytes, const char *path, cz_errinfo *ei);
    int (*open)(void **key, const char *path, const cz_srs_load_ctx *ctx, cz_errinfo *ei);
    void (*close)(void *key, const cz_srs_host_mem *mem);
    /* The device data of this format's keys; NULL: the manager's (cz_srs_config.device). */
    const cz_srs_device_hooks *device;
} cz_srs_loader;

/* snarkjs .zkey: the file read into host memory (cz_file_load) and opened over it
 * (cz_zkey_open_owned); the key data is a cz_zkey *; footprint = file size. */
extern const cz_srs_loader cz_srs_loader_zkey;
/* bellperson .params (cz_bellperson_params_read into host memory, decoded on the pool; points
 * checked on the curve, the verifying key also for the subgroup, the proving sections too when
 * cz_srs_config.params_check_subgroup is set); the key data is a cz_bellperson_params *;
 * footprint = file size (the decoded points take the same bytes). Its device data is a
 * cz_groth16_bp_gpu_key (its own hooks; the hint is the circuit's shape, a cz_assignment). */
extern const cz_srs_loader cz_srs_loader_params;

#define CZ_SRS_MAX_DEVICES 16

typedef struct cz_srs_config {
    cz_budget *budget;                 /* may be NULL (nothing charged) */
    const cz_srs_device_hooks *device; /* may be NULL (cz_srs_key_device fails) */
    /* NULL = pageable cz_host_alloc blocks; &cz_srs_host_mem_pinned when the engine has GPUs (the
     * daemon does) */
    const cz_srs_host_mem *host_mem;
    cz_threadpool *pool; /* decoding threads for loaders that use them (.params); may be NULL */
    /* 1: .params keys also have every point of H, L, A, B_G1 and B_G2 checked for the subgroup,
     * one or two multiplications by the curve's 64-bit parameter per point (about 10 CPU-hours
     * for the 44 GiB PoRep key,
     * docs/params.md); 0 (the default): on the curve only, as bellperson.h explains. */
    int params_check_subgroup;
} cz_srs_config;

/* cz_host_alloc / cz_host_free: pinned, pageable when pinning fails (one warning); blocks of
 * 2 MiB and more are allocated pageable and pinned by cz_host_pin once the loader has filled them
 * (its filled hook). */
extern const cz_srs_host_mem cz_srs_host_mem_pinned;

typedef struct cz_srs_stats {
    size_t nloaded, nreferenced;
    size_t nloading;                    /* loads under way */
    uint64_t bytes;                     /* footprint of the loaded keys */
    uint64_t nloads, nhits, nevictions; /* totals */
    uint64_t nchanged;                  /* keys found changed on disk (and so loaded again) */
    size_t load_threads;                /* cz_threadpool_size of cz_srs_config.pool */
    int params_check_subgroup;          /* cz_srs_config.params_check_subgroup */
} cz_srs_stats;

int cz_srs_create(cz_srs **out, const cz_srs_config *cfg, cz_errinfo *ei);
/* Evicts every key; none may be referenced (CZ_ASSERT). NULL is a no-op. */
void cz_srs_destroy(cz_srs *m);
/*
 * A reference to the key at path, loading it first if needed (loader NULL = zkey). The path must
 * name a regular file (a FIFO, a device or a directory is refused before anything is opened). A
 * caller never waits for the load of another key; callers of a key that is being loaded wait for
 * that load and share its result. A loaded key whose file changed is loaded again. Waiting for
 * budget may evict other keys. Errors from the file (CZ_EIO naming the path and the reason), the
 * loader, the budget (CZ_ERANGE: the key is larger than the budget), CZ_EINVAL, CZ_ENOMEM. A key
 * loaded with one loader is not reloaded with another (the first one wins; CZ_EINVAL when they
 * differ).
 */
int cz_srs_acquire(cz_srs_key **out, cz_srs *m, const char *path, const cz_srs_loader *loader,
                   cz_errinfo *ei);
/* Drops a reference (NULL is a no-op); the key stays loaded and becomes most recently used. */
void cz_srs_release(cz_srs_key *k);
/* Loads the key without keeping a reference (acquire + release). */
int cz_srs_preload(cz_srs *m, const char *path, const cz_srs_loader *loader, cz_errinfo *ei);
/* Unloads the key at path: CZ_ENOTFOUND if not loaded, CZ_EBUSY while referenced or loading. */
int cz_srs_evict(cz_srs *m, const char *path, cz_errinfo *ei);
/* Evicts unreferenced keys, least recently used first, until need bytes are freed or none is
 * left (need 0: one key); returns the bytes freed. Has the cz_budget_evict_fn signature
 * (arg = the manager). */
uint64_t cz_srs_evict_lru(void *m, uint64_t need);
/* 1 if the key at path is loaded (not while it is still loading). */
int cz_srs_is_loaded(cz_srs *m, const char *path);
void cz_srs_stats_get(cz_srs_stats *out, cz_srs *m);

/* The loader's key (a cz_zkey * for the zkey loader), its canonical path and footprint. */
const void *cz_srs_key_data(const cz_srs_key *k);
const char *cz_srs_key_path(const cz_srs_key *k);
uint64_t cz_srs_key_bytes(const cz_srs_key *k);
/* The key's data on device (created by the hooks, its loader's or else the manager's, on first
 * call with hint, then cached). CZ_EINVAL for a device outside 0..CZ_SRS_MAX_DEVICES-1,
 * CZ_EUNSUPPORTED without hooks, or the hook's error. */
int cz_srs_key_device(void **out, cz_srs_key *k, int device, const void *hint, cz_errinfo *ei);

/* ============================================================================================
 * Memory manager: host memory, the buffer pool and a partition's memory (src/engine/mem.c,
 * src/engine/hostmem.c; the budget above is its accounting)
 *
 * Host buffers the GPU uploads from: pinned (page-locked) when a GPU is present, so copies run at
 * full PCIe speed; pageable otherwise or when pinning fails (RLIMIT_MEMLOCK, the driver out of
 * pinned memory, no GPU): then one warning per process and pageable memory, never a failed job.
 * want_pinned 0 (pageable_buffers) never pins. Blocks of 2 MiB and more are huge-page mappings
 * (pinned: registered with the driver where RLIMIT_MEMLOCK leaves room, else cudaHostAlloc);
 * src/engine/hostmem.c says why.
 *
 * The memory manager (cz_mem) is what a partition's memory goes through: one reserve path
 * (cz_mem_reserve: the partition's bytes, taking over idle buffers of the sizes it will use) and
 * one release path (cz_mem_release: in steps, and all at its end), with the buffers in between
 * (cz_mem_get / cz_mem_put) kept for the next partition instead of being freed and pinned again.
 * Idle buffers are charged to the budget, and the manager, attached to its budget at create,
 * frees them for any other request (a key load) before the budget's evictor is asked. See
 * src/engine/mem.c for who pays for a buffer when. Lock order: manager lock -> budget lock.
 * ============================================================================================ */

/* bytes of host memory, pinned if want_pinned and possible; NULL when out of memory. Free with
 * cz_host_free (NULL is a no-op). */
void *cz_host_alloc(size_t bytes, int want_pinned);
void cz_host_free(void *p);
int cz_host_is_pinned(const void *p); /* of a cz_host_alloc block */
/* Pins a pageable block of 2 MiB or more (a huge-page mapping) in place by registering it: 1 when
 * it is pinned afterwards, 0 when it stays pageable (a smaller block, no pinner, the driver's
 * refusal: one warning, as cz_host_alloc's). Register after writing the block: the driver
 * faults in and clears the pages of an untouched mapping on one thread. */
int cz_host_pin(void *p);
size_t cz_host_size(const void *p); /* the bytes it was asked for */

/* The pinning functions (default cz_gpu_host_alloc / cz_gpu_host_free / cz_gpu_host_register /
 * cz_gpu_host_unregister). Tests replace them to
 * simulate pinning and its failure without a GPU; restore (NULL) only when no block pinned by the
 * replacement is left. */
typedef struct cz_host_pinner {
    int (*alloc)(void **out, size_t bytes, cz_errinfo *ei);
    void (*free)(void *p);
    /* pins / unpins memory we mapped (cz_gpu_host_register's signature); NULL: blocks of 2 MiB
     * and more are pinned through alloc as well */
    int (*register_mem)(void *p, size_t bytes, int read_only, cz_errinfo *ei);
    int (*unregister_mem)(void *p, cz_errinfo *ei);
} cz_host_pinner;
void cz_host_set_pinner(const cz_host_pinner *p);

typedef struct cz_host_stats {
    uint64_t npinned, npageable; /* blocks allocated so far, by kind */
    uint64_t npin_failed;        /* pinning attempts that fell back to pageable memory */
    uint64_t nwarnings;          /* warnings logged about it (at most 1) */
} cz_host_stats;
void cz_host_stats_get(cz_host_stats *out);

typedef struct cz_mem cz_mem;

/* The most buffer sizes a partition takes from the manager (cz_mem_reserve, cz_mem_prefill). */
#define CZ_MEM_BUFS_MAX 4
/* cz_mem_release's bytes for the end of a partition: everything its reservation holds. */
#define CZ_MEM_ALL UINT64_MAX

typedef struct cz_mem_config {
    int pinned;              /* buffers from cz_host_alloc(bytes, 1) */
    cz_budget *budget;       /* buffers are charged to it; NULL: not charged */
    uint64_t max_idle_bytes; /* idle bytes the manager itself pays for; 0 = the budget's total */
} cz_mem_config;

typedef struct cz_mem_stats {
    uint64_t nallocs, nreuses, nfreed; /* gets that allocated / reused; buffers freed */
    uint64_t nadopted;                 /* idle buffers taken over by a waiting reservation */
    uint64_t nprefilled;               /* of nallocs, made by cz_mem_prefill */
    uint64_t inuse_bytes;              /* handed out, not yet put back */
    uint64_t idle_bytes, nidle;        /* kept for reuse */
    uint64_t owed_bytes;     /* of idle_bytes, paid by a partition's reservation (given back
                              * before its release, or adopted by it) */
    uint64_t reserved_bytes; /* the manager's own reservation: the other idle bytes, plus buffers
                              * still in use whose partition was released before they came back */
    uint64_t nparts;         /* reservations of cz_mem_reserve not yet released to the end */
} cz_mem_stats;

/* cfg may be NULL (pageable, no budget). With a budget the manager attaches to it: the budget
 * asks it first when a request does not fit (one manager per budget, CZ_ASSERT). CZ_ENOMEM. */
int cz_mem_create(cz_mem **out, const cz_mem_config *cfg, cz_errinfo *ei);
/* Frees the idle buffers and detaches from the budget; every buffer must have been put back and
 * every reservation that paid for one released through the manager (CZ_ASSERT). NULL: no-op. */
void cz_mem_destroy(cz_mem *m);
/*
 * The reserve path of a partition: bytes of the budget, waiting in its FIFO order (as
 * cz_budget_reserve: timeout_ms, abort, the same errors; m NULL is not allowed). bufs[] are the
 * sizes of the buffers the partition will get (0 = unused slot; may be NULL): while it waits, idle
 * buffers of those sizes move with their bytes into *out instead of being freed (they stay idle,
 * for its gets), so a full budget does not make the manager free and pin them again. When there
 * is nothing to take over it frees idle buffers of other sizes, and of those sizes too only when
 * nothing else will give memory back (no other partition's reservation, no buffer in use or owed
 * elsewhere), then asks the budget's evictor. On failure *out keeps what it took over, for
 * cz_mem_release(CZ_MEM_ALL) to give back.
 */
int cz_mem_reserve(cz_reservation *out, cz_mem *m, uint64_t bytes,
                   const uint64_t bufs[CZ_MEM_BUFS_MAX], int64_t timeout_ms,
                   cz_budget_abort_fn abort, void *abort_arg, cz_errinfo *ei);
/*
 * The release path: gives bytes (<= res->bytes, CZ_ASSERT) of res up. The bytes of the idle
 * buffers res pays for (whole buffers, up to bytes) stay reserved, the manager's from now on
 * (beyond max_idle_bytes those buffers are freed); the rest goes back to the budget. CZ_MEM_ALL
 * is the partition's end: all of res, and the buffers res pays for that are still in use become
 * the manager's (as far as res holds their bytes), so they are not charged again when they come
 * back; afterwards the manager holds no reference to res. m NULL: cz_reservation_release.
 */
void cz_mem_release(cz_mem *m, cz_reservation *res, uint64_t bytes);
/*
 * A buffer of bytes (an idle one of exactly that size, else a new one); NULL when out of memory.
 * res is the reservation that pays for it (a partition's, which counts its bytes) until it is
 * released to the end; NULL: the caller reserved its bytes some other way (the buffer is charged
 * again when it comes back). m NULL: cz_host_alloc.
 */
void *cz_mem_get(cz_mem *m, size_t bytes, cz_reservation *res);
/* Gives a buffer of cz_mem_get back. While its reservation is not released it stays idle, paid by
 * it ("owed"): no budget call, nothing freed. Otherwise it is kept as before: if the manager pays
 * for it or the budget grants its bytes at once, within max_idle_bytes; else freed. NULL buf is a
 * no-op; m NULL: cz_host_free. */
void cz_mem_put(cz_mem *m, void *buf);
/*
 * Allocates idle buffers ahead of the partitions that will get them, so that pinning (seconds
 * per GiB-sized buffer, and it holds up the other threads' device calls) happens before a job
 * instead of inside the first ones: afterwards the manager holds at least sets idle buffers of
 * each size of bytes[] (a size listed twice counts twice; 0 = unused slot), paid by its own
 * reservation. It stops without error where the budget cannot grant a buffer at once
 * (cz_budget_try_reserve: never waiting, never evicting) or the idle cap is reached; *made
 * (may be NULL) gets the number of buffers allocated. CZ_ENOMEM when host memory runs out.
 */
int cz_mem_prefill(cz_mem *m, const uint64_t bytes[CZ_MEM_BUFS_MAX], unsigned sets, unsigned *made,
                   cz_errinfo *ei);
void cz_mem_stats_get(cz_mem_stats *out, cz_mem *m);

#ifdef __cplusplus
}
#endif

#endif
