/*
 * Jobs of the scheduler (include/cuzk/engine.h): the reference-counted job object, partition
 * accounting and completion.
 *
 * A job is referenced by the scheduler's key table (while queued, running or retained) and by
 * every handle given out; the last cz_job_unref frees it and runs payload_free. A running job
 * counts its partition reports (one byte per partition catches a double report); the last
 * report decides: any failure -> failed (first error kept), else a cancel or a skipped
 * partition -> cancelled, else the job waits for cz_job_complete (the assembler's verdict).
 * All of this runs under the scheduler's lock (sched_internal.h).
 */
#include <stdlib.h>
#include <string.h>

#include "engine/sched_internal.h"

int cz__job_new(cz_job **out, cz_sched *s, const char *key, cz_priority prio, uint32_t nparts,
                void *payload, void (*payload_free)(void *)) {
    *out = NULL;
    cz_job *job = calloc(1, sizeof *job);
    if (job == NULL)
        return CZ_ENOMEM;
    job->key = strdup(key);
    job->reported = calloc(nparts, 1);
    if (job->key == NULL || job->reported == NULL) {
        free(job->key);
        free(job->reported);
        free(job);
        return CZ_ENOMEM;
    }
    job->sched = s;
    job->refs = 1;
    job->prio = prio;
    job->nparts = nparts;
    job->payload = payload;
    job->payload_free = payload_free;
    job->state = CZ_JOB_QUEUED;
    *out = job;
    return CZ_OK;
}

void cz_job_ref(cz_job *job) {
    int old = __atomic_fetch_add(&job->refs, 1, __ATOMIC_RELAXED);
    CZ_ASSERT(old > 0);
}

void cz_job_unref(cz_job *job) {
    if (job == NULL)
        return;
    int old = __atomic_fetch_sub(&job->refs, 1, __ATOMIC_ACQ_REL);
    CZ_ASSERT(old > 0);
    if (old != 1)
        return;
    if (job->payload_free != NULL)
        job->payload_free(job->payload);
    free(job->key);
    free(job->reported);
    free(job->errmsg);
    free(job->result);
    free(job);
}

const char *cz_job_key(const cz_job *job) {
    return job->key;
}

uint64_t cz_job_seq(const cz_job *job) {
    return job->seq;
}

cz_priority cz_job_priority(const cz_job *job) {
    return job->prio;
}

uint32_t cz_job_nparts(const cz_job *job) {
    return job->nparts;
}

void *cz_job_payload(const cz_job *job) {
    return job->payload;
}

cz_job_state cz_job_state_get(const cz_job *job) {
    return (cz_job_state)__atomic_load_n(&job->state, __ATOMIC_ACQUIRE);
}

int cz_job_should_stop(const cz_job *job) {
    return __atomic_load_n(&job->stop, __ATOMIC_ACQUIRE);
}

const void *cz_job_result(const cz_job *job, size_t *len) {
    if (cz_job_state_get(job) != CZ_JOB_DONE) {
        if (len != NULL)
            *len = 0;
        return NULL;
    }
    if (len != NULL)
        *len = job->result_len;
    return job->result;
}

int cz_job_error(const cz_job *job, const char **msg) {
    int st = cz_job_state_get(job);
    if (st != CZ_JOB_FAILED && st != CZ_JOB_CANCELLED) {
        if (msg != NULL)
            *msg = "";
        return CZ_OK;
    }
    if (msg != NULL)
        *msg = job->errmsg != NULL ? job->errmsg : "";
    return job->err;
}

void cz_job_add_work_ms(cz_job *job, double synthesis, double compute) {
    __atomic_fetch_add(&job->synth_us, (uint64_t)(synthesis * 1000.0), __ATOMIC_RELAXED);
    __atomic_fetch_add(&job->compute_us, (uint64_t)(compute * 1000.0), __ATOMIC_RELAXED);
}

void cz_job_set_load_ms(cz_job *job, uint64_t load) {
    __atomic_store_n(&job->load_ms, load, __ATOMIC_RELAXED);
}

void cz_job_work_ms(const cz_job *job, uint64_t *synthesis, uint64_t *compute, uint64_t *load) {
    if (synthesis != NULL)
        *synthesis = __atomic_load_n(&job->synth_us, __ATOMIC_RELAXED) / 1000;
    if (compute != NULL)
        *compute = __atomic_load_n(&job->compute_us, __ATOMIC_RELAXED) / 1000;
    if (load != NULL)
        *load = __atomic_load_n(&job->load_ms, __ATOMIC_RELAXED);
}

void cz_job_times(const cz_job *job, uint64_t *submitted, uint64_t *started, uint64_t *finished) {
    cz_sched *s = job->sched;
    pthread_mutex_lock(&s->lock);
    if (submitted != NULL)
        *submitted = job->t_submit;
    if (started != NULL)
        *started = job->t_start;
    if (finished != NULL)
        *finished = job->t_finish;
    pthread_mutex_unlock(&s->lock);
}

const char *cz_job_state_name(cz_job_state st) {
    switch (st) {
    case CZ_JOB_QUEUED:
        return "queued";
    case CZ_JOB_RUNNING:
        return "running";
    case CZ_JOB_DONE:
        return "done";
    case CZ_JOB_FAILED:
        return "failed";
    case CZ_JOB_CANCELLED:
        return "cancelled";
    }
    return "?";
}

const char *cz_priority_name(cz_priority p) {
    switch (p) {
    case CZ_PRIO_LOW:
        return "low";
    case CZ_PRIO_NORMAL:
        return "normal";
    case CZ_PRIO_HIGH:
        return "high";
    case CZ_PRIO_CRITICAL:
        return "critical";
    }
    return "?";
}

const char *cz_part_state_name(cz_part_state st) {
    switch (st) {
    case CZ_PART_PENDING:
        return "pending";
    case CZ_PART_DONE:
        return "done";
    case CZ_PART_FAILED:
        return "failed";
    case CZ_PART_SKIPPED:
        return "skipped";
    }
    return "?";
}

/* Records the job's first error (a later one is ignored). Lock held. */
static void set_error(cz_job *job, int err, const char *msg) {
    if (job->err != CZ_OK)
        return;
    job->err = err;
    free(job->errmsg);
    job->errmsg = strdup(msg != NULL && msg[0] != '\0' ? msg : cz_strerror(err));
}

void cz__job_finish(cz_job *job, cz_job_state st, int err, const char *msg) {
    cz_sched *s = job->sched;
    int old = job->state;
    CZ_ASSERT(!cz__job_state_final(old) && cz__job_state_final(st));
    if (st != CZ_JOB_DONE)
        set_error(job, err, msg);
    job->t_finish = cz__sched_now(s);
    cz_sched_kind_stats *k = &s->kinds[job->kind];
    if (old == CZ_JOB_RUNNING) {
        s->nrunning--;
        k->running--;
    }
    if (st == CZ_JOB_DONE) {
        s->completed++;
        k->done++;
        k->done_ms += job->t_finish - job->t_submit;
    } else if (st == CZ_JOB_FAILED) {
        s->failed++;
        k->failed++;
    } else {
        s->cancelled++;
        k->cancelled++;
    }
    __atomic_store_n(&job->stop, 1, __ATOMIC_RELEASE);
    __atomic_store_n(&job->state, (int)st, __ATOMIC_RELEASE);
    /* Retained: appended in finish order, which is clock order, so pruning takes the head. */
    job->rprev = s->rtail;
    job->rnext = NULL;
    if (s->rtail != NULL)
        s->rtail->rnext = job;
    else
        s->rhead = job;
    s->rtail = job;
    s->nretained++;
    s->events++;
    pthread_cond_broadcast(&s->finished);
}

int cz_job_part_report(cz_job *job, uint32_t p, int code, const char *msg) {
    cz_sched *s = job->sched;
    int ret = 0;
    pthread_mutex_lock(&s->lock);
    CZ_ASSERT(job->state == CZ_JOB_RUNNING);
    CZ_ASSERT(p < job->nparts && !job->reported[p]);
    job->reported[p] = code == CZ_OK          ? CZ_PART_DONE
                       : code == CZ_ECANCELED ? CZ_PART_SKIPPED
                                              : CZ_PART_FAILED;
    job->nreported++;
    if (code == CZ_ECANCELED) {
        job->nskipped++;
    } else if (code != CZ_OK) {
        job->nfailed++;
        set_error(job, code, msg);
        __atomic_store_n(&job->stop, 1, __ATOMIC_RELEASE);
    }
    if (job->nreported == job->nparts) {
        if (job->nfailed > 0)
            cz__job_finish(job, CZ_JOB_FAILED, job->err, NULL);
        else if (job->cancel_requested || job->nskipped > 0)
            cz__job_finish(job, CZ_JOB_CANCELLED, CZ_ECANCELED,
                           job->cancel_requested ? "cancelled on request" : "partitions abandoned");
        else
            job->awaiting_complete = ret = 1;
    }
    pthread_mutex_unlock(&s->lock);
    return ret;
}

int cz_job_complete(cz_job *job, int code, const void *result, size_t len, const char *msg) {
    cz_sched *s = job->sched;
    void *copy = NULL;
    int rc = CZ_OK;
    if (code == CZ_OK && len > 0) {
        copy = malloc(len);
        if (copy == NULL) {
            code = rc = CZ_ENOMEM;
            msg = "out of memory storing the job's result";
        } else {
            memcpy(copy, result, len);
        }
    }
    pthread_mutex_lock(&s->lock);
    CZ_ASSERT(job->state == CZ_JOB_RUNNING && job->awaiting_complete);
    job->awaiting_complete = 0;
    if (job->cancel_requested) {
        cz__job_finish(job, CZ_JOB_CANCELLED, CZ_ECANCELED, "cancelled on request");
    } else if (code == CZ_OK) {
        job->result = copy;
        job->result_len = len;
        copy = NULL;
        cz__job_finish(job, CZ_JOB_DONE, CZ_OK, NULL);
    } else {
        cz__job_finish(job, CZ_JOB_FAILED, code, msg);
    }
    pthread_mutex_unlock(&s->lock);
    free(copy);
    return rc;
}

const char *cz_proof_kind_name(cz_proof_kind k) {
    static const char *const names[CZ_KIND_COUNT] = {"other",       "porep-c2",     "snap-update",
                                                     "window-post", "winning-post", "snarkjs-zkey",
                                                     "porep-synth"};
    return (unsigned)k < CZ_KIND_COUNT ? names[k] : "?";
}
