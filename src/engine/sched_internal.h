/*
 * Shared between the scheduler (sched.c: queues, key table, retention, waits) and the job object
 * (jobs.c: references, partition accounting, results). One mutex, the scheduler's, protects the
 * state of the scheduler and of all its jobs; the fields a handle's getters read without it are
 * immutable after submit, or atomics written last (state, stop) with release order so that a
 * reader who sees a final state also sees the result and error written before it.
 */
#ifndef CUZK_ENGINE_SCHED_INTERNAL_H
#define CUZK_ENGINE_SCHED_INTERNAL_H

#include <pthread.h>

#include "cuzk/engine.h"

struct cz_job {
    cz_sched *sched;
    int refs; /* atomic */
    /* Immutable after submit. */
    char *key;
    uint64_t seq;
    cz_priority prio;
    cz_proof_kind kind;
    uint32_t nparts;
    void *payload;
    void (*payload_free)(void *);
    /* Atomics, also read without the lock. */
    int state; /* cz_job_state */
    int stop;  /* cancel requested or a partition failed */
    /* Under the scheduler's lock; result and error are also read after a final state. */
    int cancel_requested;
    int awaiting_complete; /* every partition succeeded; cz_job_complete is due */
    uint32_t nreported, nfailed, nskipped;
    uint8_t *reported; /* one cz_part_state per partition */
    int err;
    char *errmsg;
    void *result;
    size_t result_len;
    uint64_t t_submit, t_start, t_finish;
    uint64_t synth_us, compute_us, load_ms; /* atomics: cz_job_add_work_ms, cz_job_set_load_ms */
    struct cz_job *qprev, *qnext;           /* queue of its priority, while queued */
    struct cz_job *rprev, *rnext;           /* retained list, while finished and kept */
    struct cz_job *hnext;                   /* key table chain */
    int in_table;
};

struct cz_sched {
    pthread_mutex_t lock;
    pthread_cond_t work;     /* a job was queued, or shutdown */
    pthread_cond_t finished; /* a job reached a final state, cz_sched_wake, or shutdown */
    uint64_t events;         /* final states reached + cz_sched_wake calls (cz_sched_await_any) */
    cz_sched_config cfg;
    struct {
        cz_job *head, *tail;
        size_t n;
    } queue[CZ_PRIO_COUNT];
    cz_job **buckets; /* key table: every queued, running and retained job holds one reference */
    size_t nbuckets, nkeys;
    cz_job *rhead, *rtail; /* retained finished jobs, oldest finish first */
    size_t nretained, nrunning;
    uint64_t next_seq;
    uint64_t submitted, completed, failed, cancelled, pruned;
    cz_sched_kind_stats kinds[CZ_KIND_COUNT];
    int shutdown;
};

/* jobs.c */
int cz__job_new(cz_job **out, cz_sched *s, const char *key, cz_priority prio, uint32_t nparts,
                void *payload, void (*payload_free)(void *));
/* Moves a job to a final state: counters, the retained list, waiters. Lock held. */
void cz__job_finish(cz_job *job, cz_job_state st, int err, const char *msg);
uint64_t cz__sched_now(const cz_sched *s);

static inline int cz__job_state_final(int st) {
    return st == CZ_JOB_DONE || st == CZ_JOB_FAILED || st == CZ_JOB_CANCELLED;
}

#endif
