/*
 * The scheduler (include/cuzk/engine.h): priority queues, the key table, retention and waits.
 *
 * Queues: one doubly linked FIFO per priority. Sequence numbers are global and grow with every
 * submit, so each FIFO is in sequence order and "highest non-empty priority, its head" is the
 * next job: O(1) next, O(1) cancel of a queued job (unlink), no heap whose ties could reorder.
 *
 * Keys: a chained hash table (FNV-1a, doubled at load 1) holding every queued, running and
 * retained job, each with one reference. A key lives in the table until its job is pruned or,
 * once finished, replaced by a new submit (a retry); a queued or running job is never replaced.
 *
 * Retention: finished jobs form a list in finish order; every public call first drops the
 * jobs past retention_ms (by the injected clock) and the oldest beyond max_retained.
 *
 * Waits: `work` wakes the dispatcher (cz_sched_next), `finished` wakes cz_sched_await,
 * cz_sched_await_any and cz_sched_wait_idle; both use the monotonic clock for their timeouts,
 * whatever clock is injected for retention. `events` counts what broadcasts `finished` (a final
 * state, a cz_sched_wake), so that cz_sched_await_any's caller, who passes the count it has seen,
 * never misses one that came while it was not waiting.
 *
 * Locking: `lock` protects this file's state and every job's mutable state (jobs.c). Callbacks
 * into the pipeline (on_cancel) run without it; payload_free may run under it when a pruned job
 * loses its last reference, so it must not call the scheduler.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/clock.h"
#include "engine/sched_internal.h"
#include "engine/wait.h"

#define DEFAULT_RETENTION_MS (10u * 60u * 1000u)
#define DEFAULT_MAX_RETAINED 10000u

uint64_t cz__sched_now(const cz_sched *s) {
    return s->cfg.clock != NULL ? s->cfg.clock(s->cfg.clock_arg) : cz_clock_now_ms();
}

static uint64_t hash_key(const char *key) {
    uint64_t h = 0xcbf29ce484222325u;
    for (const unsigned char *p = (const unsigned char *)key; *p != '\0'; p++)
        h = (h ^ *p) * 0x100000001b3u;
    return h;
}

static cz_job **table_slot(cz_sched *s, const char *key) {
    cz_job **link = &s->buckets[hash_key(key) & (s->nbuckets - 1)];
    while (*link != NULL && strcmp((*link)->key, key) != 0)
        link = &(*link)->hnext;
    return link;
}

static cz_job *table_find(cz_sched *s, const char *key) {
    return *table_slot(s, key);
}

/* Doubles the table when it is full; keeps the old one when memory is short. */
static void table_grow(cz_sched *s) {
    if (s->nkeys < s->nbuckets)
        return;
    size_t n = s->nbuckets * 2;
    cz_job **nb = calloc(n, sizeof *nb);
    if (nb == NULL)
        return;
    for (size_t i = 0; i < s->nbuckets; i++) {
        for (cz_job *j = s->buckets[i], *next; j != NULL; j = next) {
            next = j->hnext;
            cz_job **b = &nb[hash_key(j->key) & (n - 1)];
            j->hnext = *b;
            *b = j;
        }
    }
    free(s->buckets);
    s->buckets = nb;
    s->nbuckets = n;
}

/* Takes a retained (finished) job out of the table and the retained list; drops the table's
 * reference. Lock held. */
static void drop_retained(cz_sched *s, cz_job *job) {
    cz_job **link = table_slot(s, job->key);
    CZ_ASSERT(*link == job);
    *link = job->hnext;
    job->hnext = NULL;
    job->in_table = 0;
    s->nkeys--;
    if (job->rprev != NULL)
        job->rprev->rnext = job->rnext;
    else
        s->rhead = job->rnext;
    if (job->rnext != NULL)
        job->rnext->rprev = job->rprev;
    else
        s->rtail = job->rprev;
    job->rprev = job->rnext = NULL;
    s->nretained--;
    cz_job_unref(job);
}

static void prune_locked(cz_sched *s) {
    uint64_t now = cz__sched_now(s);
    while (s->rhead != NULL) {
        cz_job *j = s->rhead;
        int expired = now >= j->t_finish && now - j->t_finish >= s->cfg.retention_ms;
        if (!expired && s->nretained <= s->cfg.max_retained)
            break;
        drop_retained(s, j);
        s->pruned++;
    }
}

int cz_sched_create(cz_sched **out, const cz_sched_config *cfg, cz_errinfo *ei) {
    *out = NULL;
    cz_sched *s = calloc(1, sizeof *s);
    if (s == NULL)
        return cz_fail(ei, CZ_ENOMEM, "scheduler: out of memory");
    s->nbuckets = 64;
    s->buckets = calloc(s->nbuckets, sizeof *s->buckets);
    if (s->buckets == NULL) {
        free(s);
        return cz_fail(ei, CZ_ENOMEM, "scheduler: out of memory");
    }
    if (cfg != NULL)
        s->cfg = *cfg;
    if (s->cfg.retention_ms == 0)
        s->cfg.retention_ms = DEFAULT_RETENTION_MS;
    if (s->cfg.max_retained == 0)
        s->cfg.max_retained = DEFAULT_MAX_RETAINED;
    pthread_mutex_init(&s->lock, NULL);
    cz__cond_init_mono(&s->work);
    cz__cond_init_mono(&s->finished);
    *out = s;
    return CZ_OK;
}

void cz_sched_destroy(cz_sched *s) {
    if (s == NULL)
        return;
    pthread_mutex_lock(&s->lock);
    CZ_ASSERT(s->nrunning == 0);
    for (size_t i = 0; i < s->nbuckets; i++) {
        for (cz_job *j = s->buckets[i], *next; j != NULL; j = next) {
            next = j->hnext;
            CZ_ASSERT(__atomic_load_n(&j->refs, __ATOMIC_ACQUIRE) == 1); /* no handle held */
            cz_job_unref(j);
        }
    }
    pthread_mutex_unlock(&s->lock);
    free(s->buckets);
    pthread_cond_destroy(&s->work);
    pthread_cond_destroy(&s->finished);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

void cz_sched_shutdown(cz_sched *s) {
    pthread_mutex_lock(&s->lock);
    s->shutdown = 1;
    pthread_cond_broadcast(&s->work);
    pthread_cond_broadcast(&s->finished);
    pthread_mutex_unlock(&s->lock);
}

int cz_sched_submit(cz_job **out, cz_sched *s, const char *key, cz_priority prio, uint32_t nparts,
                    void *payload, void (*payload_free)(void *), cz_errinfo *ei) {
    return cz_sched_submit_kind(out, s, key, prio, CZ_KIND_OTHER, nparts, payload, payload_free,
                                ei);
}

int cz_sched_submit_kind(cz_job **out, cz_sched *s, const char *key, cz_priority prio,
                         cz_proof_kind kind, uint32_t nparts, void *payload,
                         void (*payload_free)(void *), cz_errinfo *ei) {
    if (out != NULL)
        *out = NULL;
    size_t klen = key != NULL ? strlen(key) : 0;
    if (klen == 0 || klen > CZ_JOB_KEY_MAX)
        return cz_fail(ei, CZ_EINVAL, "scheduler: job key must have 1 to %d bytes (has %zu)",
                       CZ_JOB_KEY_MAX, klen);
    if ((unsigned)prio >= CZ_PRIO_COUNT)
        return cz_fail(ei, CZ_EINVAL, "scheduler: job '%s': unknown priority %d", key, (int)prio);
    if (nparts == 0)
        return cz_fail(ei, CZ_EINVAL, "scheduler: job '%s' has no partitions", key);
    if ((unsigned)kind >= CZ_KIND_COUNT)
        return cz_fail(ei, CZ_EINVAL, "scheduler: job '%s': unknown proof kind %d", key, (int)kind);
    pthread_mutex_lock(&s->lock);
    prune_locked(s);
    int rc = CZ_OK;
    cz_job *old = table_find(s, key);
    if (old != NULL) {
        if (old->state == CZ_JOB_QUEUED || old->state == CZ_JOB_RUNNING) {
            rc = cz_fail(ei, CZ_EEXIST,
                         "scheduler: job '%s' is already %s (seq %llu); a job is never replaced",
                         key, cz_job_state_name((cz_job_state)old->state),
                         (unsigned long long)old->seq);
            goto out;
        }
        drop_retained(s, old); /* a finished job's key is reused by the retry */
    }
    cz_job *job;
    if (cz__job_new(&job, s, key, prio, nparts, payload, payload_free) != CZ_OK) {
        rc = cz_fail(ei, CZ_ENOMEM, "scheduler: job '%s': out of memory", key);
        goto out;
    }
    job->seq = ++s->next_seq;
    job->kind = kind;
    s->kinds[kind].queued++;
    job->t_submit = cz__sched_now(s);
    table_grow(s);
    cz_job **slot = table_slot(s, key);
    *slot = job;
    job->in_table = 1;
    s->nkeys++;
    job->qprev = s->queue[prio].tail;
    if (s->queue[prio].tail != NULL)
        s->queue[prio].tail->qnext = job;
    else
        s->queue[prio].head = job;
    s->queue[prio].tail = job;
    s->queue[prio].n++;
    s->submitted++;
    if (out != NULL) {
        cz_job_ref(job);
        *out = job;
    }
    pthread_cond_signal(&s->work);
out:
    pthread_mutex_unlock(&s->lock);
    return rc;
}

/* Unlinks a queued job from its priority's queue. Lock held. */
static void dequeue(cz_sched *s, cz_job *job) {
    cz_priority p = job->prio;
    if (job->qprev != NULL)
        job->qprev->qnext = job->qnext;
    else
        s->queue[p].head = job->qnext;
    if (job->qnext != NULL)
        job->qnext->qprev = job->qprev;
    else
        s->queue[p].tail = job->qprev;
    job->qprev = job->qnext = NULL;
    s->queue[p].n--;
    s->kinds[job->kind].queued--;
}

/* Takes the oldest job of the highest non-empty priority above `above` (-1: any), marks it
 * running and returns a new reference; NULL when there is none. Under s->lock. */
static cz_job *take_locked(cz_sched *s, int above) {
    cz_job *job = NULL;
    for (int p = CZ_PRIO_COUNT - 1; p > above && job == NULL; p--)
        job = s->queue[p].head;
    if (job == NULL)
        return NULL;
    dequeue(s, job);
    job->t_start = cz__sched_now(s);
    s->nrunning++;
    s->kinds[job->kind].running++;
    __atomic_store_n(&job->state, CZ_JOB_RUNNING, __ATOMIC_RELEASE);
    cz_job_ref(job);
    return job;
}

int cz_sched_next(cz_job **out, cz_sched *s, int64_t timeout_ms, cz_errinfo *ei) {
    *out = NULL;
    struct timespec deadline = cz__deadline(timeout_ms < 0 ? 0 : timeout_ms);
    int rc = CZ_OK;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        prune_locked(s);
        if (s->shutdown) {
            rc = cz_fail(ei, CZ_ECANCELED, "scheduler: shut down");
            break;
        }
        if ((*out = take_locked(s, -1)) != NULL)
            break;
        if (timeout_ms == 0 ||
            cz__cond_wait_until(&s->work, &s->lock, timeout_ms < 0 ? NULL : &deadline)) {
            /* One last look: a job queued just at the deadline is taken above. */
            int any = 0;
            for (int p = 0; p < CZ_PRIO_COUNT; p++)
                any |= s->queue[p].head != NULL;
            if (any && !s->shutdown)
                continue;
            rc = cz_fail(ei, CZ_ETIMEDOUT, "scheduler: no job within %lld ms",
                         (long long)timeout_ms);
            break;
        }
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

int cz_sched_next_above(cz_job **out, cz_sched *s, cz_priority above, cz_errinfo *ei) {
    int rc = CZ_OK;
    *out = NULL;
    pthread_mutex_lock(&s->lock);
    prune_locked(s);
    if (s->shutdown)
        rc = cz_fail(ei, CZ_ECANCELED, "scheduler: shut down");
    else if ((*out = take_locked(s, (int)above)) == NULL)
        rc = cz_fail(ei, CZ_ENOTFOUND, "scheduler: no queued job above priority %s",
                     cz_priority_name(above));
    pthread_mutex_unlock(&s->lock);
    return rc;
}

int cz_sched_queued_above(cz_sched *s, cz_priority above) {
    int any = 0;
    pthread_mutex_lock(&s->lock);
    for (int p = CZ_PRIO_COUNT - 1; p > (int)above && !s->shutdown; p--)
        any |= s->queue[p].head != NULL;
    pthread_mutex_unlock(&s->lock);
    return any;
}

int cz_sched_cancel(cz_sched *s, const char *key, cz_errinfo *ei) {
    int rc = CZ_OK;
    cz_job *notify = NULL;
    pthread_mutex_lock(&s->lock);
    prune_locked(s);
    cz_job *job = key != NULL ? table_find(s, key) : NULL;
    if (job == NULL) {
        rc = cz_fail(ei, CZ_ENOTFOUND, "scheduler: no job '%s'", key != NULL ? key : "(null)");
    } else if (job->state == CZ_JOB_QUEUED) {
        dequeue(s, job);
        job->cancel_requested = 1;
        cz__job_finish(job, CZ_JOB_CANCELLED, CZ_ECANCELED, "cancelled while queued");
    } else if (job->state == CZ_JOB_RUNNING) {
        if (!job->cancel_requested) {
            job->cancel_requested = 1;
            __atomic_store_n(&job->stop, 1, __ATOMIC_RELEASE);
            if (s->cfg.on_cancel != NULL) {
                cz_job_ref(job);
                notify = job;
            }
        }
    } else {
        rc = cz_fail(ei, CZ_EINVAL, "scheduler: job '%s' already %s", key,
                     cz_job_state_name((cz_job_state)job->state));
    }
    pthread_mutex_unlock(&s->lock);
    if (notify != NULL) {
        s->cfg.on_cancel(s->cfg.on_cancel_arg, notify);
        cz_job_unref(notify);
    }
    return rc;
}

int cz_sched_find(cz_job **out, cz_sched *s, const char *key, cz_errinfo *ei) {
    *out = NULL;
    int rc = CZ_OK;
    pthread_mutex_lock(&s->lock);
    prune_locked(s);
    cz_job *job = key != NULL ? table_find(s, key) : NULL;
    if (job == NULL) {
        rc = cz_fail(ei, CZ_ENOTFOUND, "scheduler: no job '%s'", key != NULL ? key : "(null)");
    } else {
        cz_job_ref(job);
        *out = job;
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

int cz_sched_await(cz_job **out, cz_sched *s, const char *key, int64_t timeout_ms, cz_errinfo *ei) {
    return cz_sched_await_stop(out, s, key, timeout_ms, NULL, NULL, ei);
}

int cz_sched_await_stop(cz_job **out, cz_sched *s, const char *key, int64_t timeout_ms,
                        int (*stop)(void *), void *stop_arg, cz_errinfo *ei) {
    int rc = cz_sched_find(out, s, key, ei);
    if (rc != CZ_OK)
        return rc;
    cz_job *job = *out;
    struct timespec deadline = cz__deadline(timeout_ms < 0 ? 0 : timeout_ms);
    pthread_mutex_lock(&s->lock);
    while (!cz__job_state_final(job->state)) {
        if (stop != NULL && stop(stop_arg)) {
            rc = cz_fail(ei, CZ_ECANCELED, "scheduler: the wait for job '%s' was stopped", key);
            break;
        }
        if (timeout_ms == 0 ||
            cz__cond_wait_until(&s->finished, &s->lock, timeout_ms < 0 ? NULL : &deadline)) {
            if (cz__job_state_final(job->state))
                break;
            rc = cz_fail(ei, CZ_ETIMEDOUT, "scheduler: job '%s' still %s after %lld ms", key,
                         cz_job_state_name((cz_job_state)job->state), (long long)timeout_ms);
            break;
        }
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

int cz_sched_await_any(cz_sched *s, uint64_t *seen, int64_t timeout_ms, cz_errinfo *ei) {
    struct timespec deadline = cz__deadline(timeout_ms < 0 ? 0 : timeout_ms);
    int rc = CZ_OK;
    pthread_mutex_lock(&s->lock);
    while (s->events == *seen && !s->shutdown) {
        if (timeout_ms == 0 ||
            cz__cond_wait_until(&s->finished, &s->lock, timeout_ms < 0 ? NULL : &deadline)) {
            if (s->events == *seen && !s->shutdown)
                rc = cz_fail(ei, CZ_ETIMEDOUT, "scheduler: no job ended within %lld ms",
                             (long long)timeout_ms);
            break;
        }
    }
    if (s->shutdown)
        rc = cz_fail(ei, CZ_ECANCELED, "scheduler: shut down");
    *seen = s->events;
    pthread_mutex_unlock(&s->lock);
    return rc;
}

void cz_sched_wake(cz_sched *s) {
    pthread_mutex_lock(&s->lock);
    s->events++;
    pthread_cond_broadcast(&s->finished);
    pthread_mutex_unlock(&s->lock);
}

static int idle_locked(const cz_sched *s) {
    size_t n = s->nrunning;
    for (int p = 0; p < CZ_PRIO_COUNT; p++)
        n += s->queue[p].n;
    return n == 0;
}

int cz_sched_wait_idle(cz_sched *s, int64_t timeout_ms, cz_errinfo *ei) {
    struct timespec deadline = cz__deadline(timeout_ms < 0 ? 0 : timeout_ms);
    int rc = CZ_OK;
    pthread_mutex_lock(&s->lock);
    while (!idle_locked(s)) {
        if (timeout_ms == 0 ||
            cz__cond_wait_until(&s->finished, &s->lock, timeout_ms < 0 ? NULL : &deadline)) {
            if (!idle_locked(s))
                rc = cz_fail(ei, CZ_ETIMEDOUT, "scheduler: jobs still queued or running");
            break;
        }
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

void cz_sched_prune(cz_sched *s) {
    pthread_mutex_lock(&s->lock);
    prune_locked(s);
    pthread_mutex_unlock(&s->lock);
}

void cz_sched_stats_get(cz_sched_stats *out, cz_sched *s) {
    pthread_mutex_lock(&s->lock);
    prune_locked(s);
    for (int p = 0; p < CZ_PRIO_COUNT; p++)
        out->queued[p] = s->queue[p].n;
    out->running = s->nrunning;
    out->retained = s->nretained;
    out->submitted = s->submitted;
    out->completed = s->completed;
    out->failed = s->failed;
    out->cancelled = s->cancelled;
    out->pruned = s->pruned;
    memcpy(out->kinds, s->kinds, sizeof out->kinds);
    pthread_mutex_unlock(&s->lock);
}

static int cmp_info_seq(const void *a, const void *b) {
    const cz_job_info *x = a, *y = b;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* One allocation: the infos, then every job's partition states. The copy is made under the
 * lock (O(jobs + partitions), no callbacks); the sort by sequence runs after it. */
int cz_sched_list(cz_job_info **out, size_t *njobs, cz_sched *s, cz_errinfo *ei) {
    cz_job_info *infos = NULL;
    size_t n = 0, nparts = 0;
    *out = NULL;
    *njobs = 0;
    pthread_mutex_lock(&s->lock);
    prune_locked(s);
    for (size_t b = 0; b < s->nbuckets; b++)
        for (cz_job *j = s->buckets[b]; j != NULL; j = j->hnext)
            nparts += j->nparts;
    if (s->nkeys == 0) {
        pthread_mutex_unlock(&s->lock);
        return CZ_OK;
    }
    infos = malloc(s->nkeys * sizeof *infos + nparts);
    if (infos == NULL) {
        pthread_mutex_unlock(&s->lock);
        return cz_fail(ei, CZ_ENOMEM, "scheduler: listing %zu jobs", s->nkeys);
    }
    uint8_t *parts = (uint8_t *)(infos + s->nkeys);
    uint64_t now = cz__sched_now(s);
    for (size_t b = 0; b < s->nbuckets; b++) {
        for (cz_job *j = s->buckets[b]; j != NULL; j = j->hnext) {
            cz_job_info *in = &infos[n++];
            int st = __atomic_load_n(&j->state, __ATOMIC_ACQUIRE);
            uint64_t end = cz__job_state_final(st) ? j->t_finish : now;
            memset(in, 0, sizeof *in);
            snprintf(in->key, sizeof in->key, "%s", j->key);
            in->seq = j->seq;
            in->prio = j->prio;
            in->state = (cz_job_state)st;
            in->nparts = j->nparts;
            in->nfailed = j->nfailed;
            in->nskipped = j->nskipped;
            in->ndone = j->nreported - j->nfailed - j->nskipped;
            if (j->t_start != 0) {
                in->wait_ms = j->t_start - j->t_submit;
                in->run_ms = end >= j->t_start ? end - j->t_start : 0;
            } else {
                in->wait_ms = end >= j->t_submit ? end - j->t_submit : 0;
            }
            in->parts = parts;
            memcpy(parts, j->reported, j->nparts);
            parts += j->nparts;
        }
    }
    pthread_mutex_unlock(&s->lock);
    qsort(infos, n, sizeof *infos, cmp_info_seq);
    *out = infos;
    *njobs = n;
    return CZ_OK;
}
