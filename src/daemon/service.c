/*
 * cuzk.v1.ProvingEngine handlers: protobuf-c messages in and out, engine calls in between
 * (docs/daemon.md). Each handler parses its request (a parse failure is INVALID_ARGUMENT),
 * calls the engine and maps the engine's codes onto gRPC status codes:
 *
 *   CZ_EEXIST -> ALREADY_EXISTS (a live job has the id; never replaced)
 *   CZ_ENOTFOUND (job) -> NOT_FOUND; CZ_EBUSY (evict) -> FAILED_PRECONDITION
 *   CZ_ERANGE (partition or key larger than the memory budget) -> RESOURCE_EXHAUSTED
 *   bad inputs (zkey path, witness, curve, scale, vanilla proofs) -> INVALID_ARGUMENT
 *   a Filecoin key missing, unreadable or refused (digest) -> FAILED_PRECONDITION
 *
 * Priorities: the request's, or when it gives none (PRIORITY_UNSPECIFIED) the kind's, as the
 * original: WinningPoSt CRITICAL, WindowPoSt HIGH, everything else NORMAL.
 *
 * Keys: PreloadSRS (and srs.preload) loads a path ending in ".params" as bellperson parameters
 * (cz_srs_loader_params, decoded on the service's load pool), anything else as a snarkjs .zkey.
 * PoSt requests find their key by its Filecoin name in the parameter directory, checked against
 * the manifest first (daemon/filecoin.h); PreloadSRS of a key with a Filecoin name makes the same
 * check (FAILED_PRECONDITION when refused).
 *
 * No handler waits for a job. AwaitProof (and Prove once submitted) answers at once when the job
 * has ended, else returns a cz_daemon_wait (a job reference, the deadline of timeout_ms) that the
 * transport parks with the call; its one waiter thread sleeps in cz_sched_await_any
 * (cz_daemon_service_wait_events), woken by every job end and by cz_daemon_service_wake (a call
 * parked, a client gone), and gets the answer of each wait that is due from
 * cz_daemon_service_wait_answer: the outcome, TIMEOUT, or for a client gone CANCELLED (and a
 * Prove's job cancelled). The drain blocks in cz_sched_wait_idle.
 *
 * Request bytes: SubmitProof and Prove call the transport's release as soon as the request is
 * unpacked, and Prove frees the unpacked copy once the job is submitted (the workload has its
 * own copy of the witness), so a waiting Prove holds none of its request.
 *
 * Jobs carry their proof kind (cz_workload.kind), so the counts per kind (queues, completions,
 * durations) are the scheduler's (cz_sched_stats.kinds); the service tracks no jobs of its own.
 * Lock: s->lock protects the intake flag, the submit counters and the preloaded-key list;
 * s->synth_lock serialises porep-synth context builds (slow, once per curve and scale). Neither
 * is held while calling into the engine.
 */
#include "daemon/service.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuzk/clock.h"
#include "cuzk/curve_id.h"
#include "cuzk/engine.h"
#include "cuzk/threadpool.h"
#include "cuzk/workload.h"
#include "cuzk/v1/proving.pb-c.h"
#include "daemon/filecoin.h"
#include "daemon/gpus.h"

#define MAX_SYNTH_CTX   8
#define MAX_SYNTH_PARTS 64

/* Proof kinds we list: the original's four plus cuzk's two, in cz_proof_kind order from
 * CZ_KIND_POREP_C2 (K_FIRST); names are cz_proof_kind_name's. */
#define K_FIRST CZ_KIND_POREP_C2
#define K_COUNT (CZ_KIND_COUNT - K_FIRST)
static const char *const kind_labels[K_COUNT] = {"porep_c2",     "snap_update",  "window_post",
                                                 "winning_post", "snarkjs_zkey", "porep_synth"};

typedef struct synth_entry {
    cz_curve_id curve;
    unsigned k;
    cz_porep_synth_ctx *ctx;
} synth_entry;

struct cz_daemon_service {
    cz_budget *budget;
    cz_threadpool *load_pool; /* the SRS manager's decoding threads */
    cz_srs *srs;
    cz_engine *engine;
    cz_daemon_filecoin *filecoin;
    int ndevices;
    uint64_t start_ms;
    char synth_cache[1024];
    unsigned synth_max_scale;

    pthread_mutex_t lock;
    int intake_closed;
    size_t submitting;     /* submits between the intake check and the engine */
    uint64_t submitted_id; /* counter of generated job ids */
    char **preloaded;
    size_t npreloaded;

    pthread_mutex_t synth_lock;
    synth_entry synth[MAX_SYNTH_CTX];
    size_t nsynth;
};

static void set_reply(cz_daemon_reply *rep, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void set_reply(cz_daemon_reply *rep, int status, const char *fmt, ...) {
    va_list ap;
    rep->status = status;
    va_start(ap, fmt);
    vsnprintf(rep->msg, sizeof rep->msg, fmt, ap);
    va_end(ap);
}

static void reply_pack(cz_daemon_reply *rep, const ProtobufCMessage *m) {
    size_t n = protobuf_c_message_get_packed_size(m);
    rep->body = malloc(n ? n : 1);
    if (rep->body == NULL) {
        set_reply(rep, CZ_RPC_RESOURCE_EXHAUSTED, "out of memory packing a %zu-byte response", n);
        return;
    }
    rep->len = protobuf_c_message_pack(m, rep->body);
    rep->status = CZ_RPC_OK;
    rep->msg[0] = 0;
}

int cz_daemon_service_create(cz_daemon_service **out, const cz_daemon_service_config *cfg,
                             cz_errinfo *ei) {
    int rc;
    *out = NULL;
    cz_daemon_service *s = calloc(1, sizeof *s);
    if (s == NULL)
        return cz_fail(ei, CZ_ENOMEM, "daemon service");
    pthread_mutex_init(&s->lock, NULL);
    pthread_mutex_init(&s->synth_lock, NULL);
    s->start_ms = cz_clock_now_ms();
    /* No shared default (a key planted in /tmp would be used): the daemon passes its own
     * directory; without one, porep-synth jobs fail. */
    snprintf(s->synth_cache, sizeof s->synth_cache, "%s",
             cfg->synth_cache != NULL ? cfg->synth_cache : "");
    s->synth_max_scale = cfg->synth_max_scale ? cfg->synth_max_scale : 20;
    s->ndevices = cfg->engine.ndevices;
    if ((rc = cz_budget_create(&s->budget, &cfg->engine.budget, ei)) != CZ_OK ||
        (rc = cz_threadpool_create(&s->load_pool, (size_t)cfg->srs_load_threads, ei)) != CZ_OK)
        goto fail;
    {
        cz_srs_config sc = {s->budget,
                            cfg->engine.ndevices > 0 ? &cz_workload_zkey_gpu_hooks : NULL,
                            cfg->engine.ndevices > 0 ? &cz_srs_host_mem_pinned : NULL, s->load_pool,
                            cfg->params_check_subgroup};
        if ((rc = cz_srs_create(&s->srs, &sc, ei)) != CZ_OK)
            goto fail;
    }
    cz_budget_set_evictor(s->budget, cz_srs_evict_lru, s->srs);
    if ((rc = cz_daemon_filecoin_create(
             &s->filecoin, cfg->param_dir, cfg->allow_untrusted, cfg->key_digests,
             cfg->abc_on_gpu && cfg->engine.ndevices > 0, s->srs, s->load_pool, ei)) != CZ_OK)
        goto fail;
    {
        cz_engine_config ec = cfg->engine;
        ec.shared_budget = s->budget;
        if ((rc = cz_engine_create(&s->engine, &ec, ei)) != CZ_OK)
            goto fail;
    }
    *out = s;
    return CZ_OK;
fail:
    cz_daemon_service_destroy(s);
    return rc;
}

void cz_daemon_service_destroy(cz_daemon_service *s) {
    if (s == NULL)
        return;
    cz_engine_destroy(s->engine);
    cz_daemon_filecoin_destroy(s->filecoin);
    for (size_t i = 0; i < s->nsynth; i++)
        cz_porep_synth_ctx_free(s->synth[i].ctx);
    cz_srs_destroy(s->srs);
    cz_threadpool_destroy(s->load_pool);
    cz_budget_destroy(s->budget);
    for (size_t i = 0; i < s->npreloaded; i++)
        free(s->preloaded[i]);
    free(s->preloaded);
    pthread_mutex_destroy(&s->lock);
    pthread_mutex_destroy(&s->synth_lock);
    free(s);
}

void cz_daemon_service_stop_intake(cz_daemon_service *s) {
    pthread_mutex_lock(&s->lock);
    s->intake_closed = 1;
    pthread_mutex_unlock(&s->lock);
}

void cz_daemon_service_wake(cz_daemon_service *s) {
    cz_sched_wake(cz_engine_sched(s->engine));
}

/* Blocks until every accepted job has ended. A submit that passed the second intake check
 * (submitting: its workload is built, its key loaded) may still add one: while one is under way
 * the wait looks again every few ms (it is one call into the engine). A submit still loading
 * its key is not waited for: it is answered UNAVAILABLE when its load ends. */
void cz_daemon_service_drain(cz_daemon_service *s) {
    cz_sched *sched = cz_engine_sched(s->engine);
    for (;;) {
        pthread_mutex_lock(&s->lock);
        size_t submitting = s->submitting;
        pthread_mutex_unlock(&s->lock);
        int idle = cz_sched_wait_idle(sched, submitting ? 5 : -1, NULL) == CZ_OK;
        pthread_mutex_lock(&s->lock);
        submitting = s->submitting;
        pthread_mutex_unlock(&s->lock);
        if (idle && submitting == 0 && cz_sched_wait_idle(sched, 0, NULL) == CZ_OK)
            return;
    }
}

/* ---------------------------------------------------------------------------------------- */

static int synth_ctx_get(cz_porep_synth_ctx **out, cz_daemon_service *s, cz_curve_id curve,
                         unsigned k, cz_errinfo *ei) {
    int rc = CZ_OK;
    pthread_mutex_lock(&s->synth_lock);
    for (size_t i = 0; i < s->nsynth; i++)
        if (s->synth[i].curve == curve && s->synth[i].k == k) {
            *out = s->synth[i].ctx;
            goto out;
        }
    if (s->nsynth == MAX_SYNTH_CTX) {
        rc = cz_fail(ei, CZ_ERANGE, "porep-synth: at most %d curve/scale pairs", MAX_SYNTH_CTX);
        goto out;
    }
    if (s->synth_cache[0] == '\0') {
        rc = cz_fail(ei, CZ_EIO, "no key cache directory");
        goto out;
    }
    if ((rc = cz_porep_synth_ctx_create(out, curve, k, s->synth_cache, NULL, ei)) == CZ_OK)
        s->synth[s->nsynth++] = (synth_entry){curve, k, *out};
out:
    pthread_mutex_unlock(&s->synth_lock);
    return rc;
}

/* The workload of a request and the kind's priority (*prio, when the request gives none);
 * INVALID_ARGUMENT / UNIMPLEMENTED / ... in rep on failure. */
static int make_workload(cz_workload *wl, cz_priority *prio, uint64_t *load_ms,
                         cz_daemon_reply *rep, cz_daemon_service *s,
                         const Cuzk__V1__SubmitProofRequest *r) {
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    int rc;
    *prio = CZ_PRIO_NORMAL;
    switch ((int)r->proof_kind) {
    case CUZK__V1__PROOF_KIND__SNARKJS_ZKEY: {
        if (r->zkey_path == NULL || r->zkey_path[0] == 0 || r->witness.len == 0) {
            set_reply(rep, CZ_RPC_INVALID_ARGUMENT, "SNARKJS_ZKEY needs zkey_path and witness");
            return -1;
        }
        cz_srs_key *key;
        const uint64_t t0 = cz_clock_now_ms();
        rc = cz_srs_acquire(&key, s->srs, r->zkey_path, NULL, &ei);
        *load_ms = cz_clock_now_ms() - t0;
        if (rc != CZ_OK) {
            set_reply(rep, rc == CZ_ERANGE ? CZ_RPC_RESOURCE_EXHAUSTED : CZ_RPC_INVALID_ARGUMENT,
                      "zkey %s: %s", r->zkey_path, ei.msg);
            return -1;
        }
        /* The workload owns key from here, also when it fails. */
        if ((rc = cz_workload_zkey(wl, key, r->witness.data, r->witness.len, "witness", NULL,
                                   &ei)) != CZ_OK) {
            set_reply(rep, rc == CZ_ENOMEM ? CZ_RPC_RESOURCE_EXHAUSTED : CZ_RPC_INVALID_ARGUMENT,
                      "%s", ei.msg);
            return -1;
        }
        return 0;
    }
    case CUZK__V1__PROOF_KIND__POREP_SYNTH: {
        cz_curve_id curve = CZ_CURVE_BLS12381;
        if (r->synth_curve != NULL && r->synth_curve[0] != 0 &&
            cz_curve_from_name(&curve, r->synth_curve) != CZ_OK) {
            set_reply(rep, CZ_RPC_INVALID_ARGUMENT, "synth_curve \"%s\": not bls12-381 or bn254",
                      r->synth_curve);
            return -1;
        }
        uint32_t nparts = r->synth_partitions ? r->synth_partitions : 1;
        if (r->synth_scale == 0 || r->synth_scale > s->synth_max_scale ||
            nparts > MAX_SYNTH_PARTS) {
            set_reply(rep, CZ_RPC_INVALID_ARGUMENT,
                      "POREP_SYNTH: synth_scale %u (1..%u) or synth_partitions %u (1..%d)",
                      r->synth_scale, s->synth_max_scale, nparts, MAX_SYNTH_PARTS);
            return -1;
        }
        cz_porep_synth_ctx *ctx;
        if ((rc = synth_ctx_get(&ctx, s, curve, r->synth_scale, &ei)) != CZ_OK ||
            (rc = cz_workload_porep_synth(wl, ctx, nparts, r->synth_seed, NULL, &ei)) != CZ_OK) {
            set_reply(rep,
                      rc == CZ_EIO || rc == CZ_ENOMEM ? CZ_RPC_INTERNAL : CZ_RPC_INVALID_ARGUMENT,
                      "porep-synth: %s", ei.msg);
            return -1;
        }
        return 0;
    }
    case CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION:
    case CUZK__V1__PROOF_KIND__WINNING_POST:
    case CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT:
    case CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE: {
        int status = cz_daemon_filecoin_workload(wl, prio, load_ms, s->filecoin, r, &ei);
        if (status != 0) {
            set_reply(rep, status, "%s: %s",
                      r->proof_kind == CUZK__V1__PROOF_KIND__WINNING_POST ? "WINNING_POST"
                      : r->proof_kind == CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT
                          ? "POREP_SEAL_COMMIT"
                      : r->proof_kind == CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE
                          ? "SNAP_DEALS_UPDATE"
                          : "WINDOW_POST_PARTITION",
                      ei.msg);
            return -1;
        }
        return 0;
    }
    default:
        set_reply(rep, CZ_RPC_INVALID_ARGUMENT, "unknown proof kind %d", (int)r->proof_kind);
        return -1;
    }
}

/* Queues the job of r; key (CZ_JOB_KEY_MAX + 1 bytes) gets its id. 0 or -1 (rep filled). */
static int submit(char *key, uint32_t *queue_pos, cz_daemon_reply *rep, cz_daemon_service *s,
                  const Cuzk__V1__SubmitProofRequest *r) {
    static const cz_priority prio_map[] = {CZ_PRIO_NORMAL, CZ_PRIO_LOW, CZ_PRIO_NORMAL,
                                           CZ_PRIO_HIGH, CZ_PRIO_CRITICAL};
    int ret = -1;
    if ((unsigned)r->priority > 4) {
        set_reply(rep, CZ_RPC_INVALID_ARGUMENT, "unknown priority %d", (int)r->priority);
        return -1;
    }
    if (r->request_id != NULL && strlen(r->request_id) > CZ_JOB_KEY_MAX) {
        set_reply(rep, CZ_RPC_INVALID_ARGUMENT, "request_id longer than %d bytes", CZ_JOB_KEY_MAX);
        return -1;
    }
    pthread_mutex_lock(&s->lock);
    int closed = s->intake_closed;
    uint64_t id = ++s->submitted_id;
    pthread_mutex_unlock(&s->lock);
    if (closed) {
        set_reply(rep, CZ_RPC_UNAVAILABLE, "the daemon is shutting down");
        return -1;
    }

    if (r->request_id != NULL && r->request_id[0] != 0)
        snprintf(key, CZ_JOB_KEY_MAX + 1, "%s", r->request_id);
    else
        snprintf(key, CZ_JOB_KEY_MAX + 1, "job-%" PRIu64 "-%" PRIu64, s->start_ms, id);
    /* Building the workload may load a key (seconds, or forever on a hung file system): it is
     * not counted as submitting, so a drain never waits for it; the intake is checked again
     * after it, under the lock the drain reads. */
    cz_workload wl;
    cz_priority prio;
    uint64_t load_ms = 0;
    if (make_workload(&wl, &prio, &load_ms, rep, s, r) != 0)
        return -1;
    if (r->priority != CUZK__V1__PRIORITY__PRIORITY_UNSPECIFIED)
        prio = prio_map[r->priority];
    pthread_mutex_lock(&s->lock);
    closed = s->intake_closed;
    if (!closed)
        s->submitting++;
    pthread_mutex_unlock(&s->lock);
    if (closed) {
        wl.ops->destroy(wl.ctx);
        set_reply(rep, CZ_RPC_UNAVAILABLE, "the daemon is shutting down");
        return -1;
    }
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    cz_job *job = NULL;
    int rc = cz_engine_submit(&job, s->engine, key, prio, &wl, &ei);
    if (rc != CZ_OK) {
        wl.ops->destroy(wl.ctx);
        set_reply(rep,
                  rc == CZ_EEXIST   ? CZ_RPC_ALREADY_EXISTS
                  : rc == CZ_ERANGE ? CZ_RPC_RESOURCE_EXHAUSTED
                  : rc == CZ_EINVAL ? CZ_RPC_INVALID_ARGUMENT
                                    : CZ_RPC_INTERNAL,
                  "%s", ei.msg);
        goto out;
    }
    cz_job_set_load_ms(job, load_ms); /* AwaitProof's srs_load_ms */
    cz_job_unref(job);
    cz_sched_stats st;
    cz_sched_stats_get(&st, cz_engine_sched(s->engine));
    *queue_pos = 0;
    for (int p = 0; p < CZ_PRIO_COUNT; p++)
        *queue_pos += (uint32_t)st.queued[p];
    ret = 0;
out:
    pthread_mutex_lock(&s->lock);
    s->submitting--;
    pthread_mutex_unlock(&s->lock);
    return ret;
}

/* The answer for job into resp: its outcome when it has ended, else TIMEOUT (its wait's deadline
 * passed); the proof points into *proof_copy (freed by the caller). The strings point into the
 * job and rep: pack before the job handle goes. */
static void job_answer(Cuzk__V1__AwaitProofResponse *resp, uint8_t **proof_copy,
                       cz_daemon_reply *rep, cz_job *job) {
    *proof_copy = NULL;
    resp->job_id = (char *)cz_job_key(job);
    cz_job_state st = cz_job_state_get(job);
    if (st == CZ_JOB_QUEUED || st == CZ_JOB_RUNNING) {
        resp->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT;
        resp->error_message = "timed out waiting for the proof";
    } else if (st == CZ_JOB_DONE) {
        size_t len;
        const void *res = cz_job_result(job, &len);
        uint64_t sub, start, fin;
        cz_job_times(job, &sub, &start, &fin);
        *proof_copy = malloc(len ? len : 1);
        if (*proof_copy == NULL) {
            set_reply(rep, CZ_RPC_RESOURCE_EXHAUSTED, "out of memory copying the proof");
            return;
        }
        memcpy(*proof_copy, res, len);
        resp->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
        resp->proof.data = *proof_copy;
        resp->proof.len = len;
        resp->queue_wait_ms = start - sub;
        cz_job_work_ms(job, &resp->synthesis_ms, &resp->gpu_compute_ms, &resp->srs_load_ms);
        resp->total_ms = fin - sub;
    } else {
        const char *msg = NULL;
        cz_job_error(job, &msg);
        resp->status = st == CZ_JOB_CANCELLED ? CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED
                                              : CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED;
        snprintf(rep->msg, sizeof rep->msg, "%s",
                 st == CZ_JOB_CANCELLED ? "cancelled" : (msg ? msg : "failed"));
        resp->error_message = rep->msg;
    }
    rep->status = CZ_RPC_OK;
}

/* The wait for the job with key: answered at once when the job has ended, else returned in
 * rep->wait (the transport parks the call); NOT_FOUND for an unknown key. */
static void await_job(cz_daemon_reply *rep, cz_daemon_service *s, const char *key,
                      uint64_t timeout_ms, int prove) {
    cz_job *job = NULL;
    if (cz_sched_find(&job, cz_engine_sched(s->engine), key, NULL) != CZ_OK) {
        set_reply(rep, CZ_RPC_NOT_FOUND, "unknown job \"%s\"", key);
        return;
    }
    cz_daemon_wait w = {job, timeout_ms > 0 ? cz_clock_now_ms() + timeout_ms : 0, prove};
    if (!cz_daemon_wait_due(&w, cz_clock_now_ms())) {
        rep->wait = w;
        return;
    }
    cz_daemon_service_wait_answer(rep, s, &w, 0);
}

int cz_daemon_wait_due(const cz_daemon_wait *w, uint64_t now_ms) {
    cz_job_state st = cz_job_state_get(w->job);
    return (st != CZ_JOB_QUEUED && st != CZ_JOB_RUNNING) ||
           (w->deadline_ms != 0 && now_ms >= w->deadline_ms);
}

void cz_daemon_service_wait_answer(cz_daemon_reply *rep, cz_daemon_service *s, cz_daemon_wait *w,
                                   int gone) {
    memset(rep, 0, sizeof *rep);
    cz_job_state st = cz_job_state_get(w->job);
    if (gone && (st == CZ_JOB_QUEUED || st == CZ_JOB_RUNNING)) {
        set_reply(rep, CZ_RPC_CANCELLED, "the client went away");
        if (w->prove)
            cz_engine_cancel(s->engine, cz_job_key(w->job), NULL); /* nobody waits for it */
    } else {
        Cuzk__V1__AwaitProofResponse res = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
        Cuzk__V1__ProveResponse resp = CUZK__V1__PROVE_RESPONSE__INIT;
        uint8_t *proof = NULL;
        job_answer(&res, &proof, rep, w->job);
        resp.result = &res;
        if (rep->status == CZ_RPC_OK)
            reply_pack(rep, w->prove ? &resp.base : &res.base);
        free(proof);
    }
    cz_job_unref(w->job);
    w->job = NULL;
}

void cz_daemon_service_wait_events(cz_daemon_service *s, uint64_t *seen, int64_t timeout_ms) {
    cz_sched_await_any(cz_engine_sched(s->engine), seen, timeout_ms, NULL);
}

/* ---------------------------------------------------------------------------------------- */

static void release_request(cz_daemon_release_fn release, void *arg) {
    if (release != NULL)
        release(arg);
}

static void h_submit(cz_daemon_reply *rep, cz_daemon_service *s, const uint8_t *req, size_t len,
                     cz_daemon_release_fn release, void *arg) {
    Cuzk__V1__SubmitProofRequest *r = cuzk__v1__submit_proof_request__unpack(NULL, len, req);
    release_request(release, arg); /* r has its own copy of what the job needs */
    if (r == NULL) {
        set_reply(rep, CZ_RPC_INVALID_ARGUMENT, "malformed SubmitProofRequest");
        return;
    }
    char key[CZ_JOB_KEY_MAX + 1];
    uint32_t pos = 0;
    if (submit(key, &pos, rep, s, r) == 0) {
        Cuzk__V1__SubmitProofResponse resp = CUZK__V1__SUBMIT_PROOF_RESPONSE__INIT;
        resp.job_id = key;
        resp.queue_position = pos;
        reply_pack(rep, &resp.base);
    }
    cuzk__v1__submit_proof_request__free_unpacked(r, NULL);
}

static void h_await(cz_daemon_reply *rep, cz_daemon_service *s, const uint8_t *req, size_t len,
                    cz_daemon_release_fn release, void *arg) {
    (void)release, (void)arg;
    Cuzk__V1__AwaitProofRequest *r = cuzk__v1__await_proof_request__unpack(NULL, len, req);
    if (r == NULL || r->job_id == NULL || r->job_id[0] == 0)
        set_reply(rep, CZ_RPC_INVALID_ARGUMENT, "malformed AwaitProofRequest (job_id needed)");
    else
        await_job(rep, s, r->job_id, r->timeout_ms, 0);
    if (r != NULL)
        cuzk__v1__await_proof_request__free_unpacked(r, NULL);
}

/* Submit, then the wait for the job (no timeout; a client that goes away cancels the job). The
 * request, often the largest message (a witness), is released once unpacked and the unpacked
 * copy once submitted, so that neither is held while the job runs. */
static void h_prove(cz_daemon_reply *rep, cz_daemon_service *s, const uint8_t *req, size_t len,
                    cz_daemon_release_fn release, void *arg) {
    Cuzk__V1__ProveRequest *r = cuzk__v1__prove_request__unpack(NULL, len, req);
    release_request(release, arg);
    char key[CZ_JOB_KEY_MAX + 1];
    uint32_t pos;
    int ok = 0;
    if (r == NULL || r->submit == NULL)
        set_reply(rep, CZ_RPC_INVALID_ARGUMENT, "malformed ProveRequest (submit needed)");
    else
        ok = submit(key, &pos, rep, s, r->submit) == 0;
    if (r != NULL)
        cuzk__v1__prove_request__free_unpacked(r, NULL);
    if (ok)
        await_job(rep, s, key, 0, 1);
}

static void h_cancel(cz_daemon_reply *rep, cz_daemon_service *s, const uint8_t *req, size_t len,
                     cz_daemon_release_fn release, void *arg) {
    (void)release, (void)arg;
    Cuzk__V1__CancelProofRequest *r = cuzk__v1__cancel_proof_request__unpack(NULL, len, req);
    if (r == NULL || r->job_id == NULL || r->job_id[0] == 0) {
        set_reply(rep, CZ_RPC_INVALID_ARGUMENT, "malformed CancelProofRequest (job_id needed)");
        goto out;
    }
    cz_job *job = NULL;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (cz_sched_find(&job, cz_engine_sched(s->engine), r->job_id, NULL) != CZ_OK) {
        set_reply(rep, CZ_RPC_NOT_FOUND, "unknown job \"%s\"", r->job_id);
        goto out;
    }
    int was_running = cz_job_state_get(job) == CZ_JOB_RUNNING;
    cz_job_unref(job);
    int rc = cz_engine_cancel(s->engine, r->job_id, &ei);
    if (rc == CZ_ENOTFOUND) {
        set_reply(rep, CZ_RPC_NOT_FOUND, "unknown job \"%s\"", r->job_id);
    } else if (rc != CZ_OK) {
        set_reply(rep, CZ_RPC_FAILED_PRECONDITION, "%s", ei.msg);
    } else {
        Cuzk__V1__CancelProofResponse resp = CUZK__V1__CANCEL_PROOF_RESPONSE__INIT;
        resp.was_running = was_running;
        reply_pack(rep, &resp.base);
    }
out:
    if (r != NULL)
        cuzk__v1__cancel_proof_request__free_unpacked(r, NULL);
}

static void h_status(cz_daemon_reply *rep, cz_daemon_service *s, const uint8_t *req, size_t len,
                     cz_daemon_release_fn release, void *arg) {
    (void)release, (void)arg;
    Cuzk__V1__GetStatusRequest *r = cuzk__v1__get_status_request__unpack(NULL, len, req);
    if (r == NULL) {
        set_reply(rep, CZ_RPC_INVALID_ARGUMENT, "malformed GetStatusRequest");
        return;
    }
    cuzk__v1__get_status_request__free_unpacked(r, NULL);
    Cuzk__V1__QueueStatus q[K_COUNT], *qp[K_COUNT];
    Cuzk__V1__GPUStatus g[CZ_ENGINE_MAX_DEVICES], *gp[CZ_ENGINE_MAX_DEVICES];
    cz_daemon_gpu_status gs[CZ_ENGINE_MAX_DEVICES];
    Cuzk__V1__GetStatusResponse resp = CUZK__V1__GET_STATUS_RESPONSE__INIT;
    Cuzk__V1__SRSStatus *srs = NULL, **srsp = NULL;
    cz_engine_stats es;
    cz_engine_stats_get(&es, s->engine);
    size_t ngpu = (size_t)cz_daemon_gpus_status(gs, &es);
    for (size_t i = 0; i < ngpu; i++) {
        cuzk__v1__gpustatus__init(&g[i]);
        g[i].ordinal = gs[i].index >= 0 ? (uint32_t)gs[i].index : 0;
        g[i].name = gs[i].name;
        g[i].vram_total_bytes = gs[i].mem_total_bytes;
        g[i].vram_free_bytes = gs[i].mem_free_bytes;
        g[i].workers = (uint32_t)gs[i].workers;
        g[i].busy = gs[i].busy;
        g[i].busy_seconds = gs[i].busy_ms / 1e3;
        g[i].out_of_service = gs[i].out_of_service;
        g[i].out_of_service_reason = gs[i].why;
        gp[i] = &g[i];
    }
    for (int k = 0; k < K_COUNT; k++) {
        const cz_sched_kind_stats *ks = &es.sched.kinds[K_FIRST + k];
        cuzk__v1__queue_status__init(&q[k]);
        q[k].proof_kind = (char *)cz_proof_kind_name((cz_proof_kind)(K_FIRST + k));
        q[k].pending = (uint32_t)ks->queued;
        q[k].in_progress = (uint32_t)ks->running;
        qp[k] = &q[k];
    }
    pthread_mutex_lock(&s->lock);
    size_t nsrs = 0;
    if (s->npreloaded > 0) {
        srs = calloc(s->npreloaded, sizeof *srs);
        srsp = calloc(s->npreloaded, sizeof *srsp);
    }
    for (size_t i = 0; srs != NULL && srsp != NULL && i < s->npreloaded; i++) {
        if (!cz_srs_is_loaded(s->srs, s->preloaded[i]))
            continue;
        cuzk__v1__srsstatus__init(&srs[nsrs]);
        srs[nsrs].circuit_id = s->preloaded[i];
        srsp[nsrs] = &srs[nsrs];
        nsrs++;
    }
    cz_sched_stats st;
    cz_sched_stats_get(&st, cz_engine_sched(s->engine));
    resp.n_gpus = ngpu;
    resp.gpus = gp;
    resp.n_queues = K_COUNT;
    resp.queues = qp;
    resp.n_loaded_srs = nsrs;
    resp.loaded_srs = srsp;
    resp.total_proofs_completed = st.completed;
    resp.total_proofs_failed = st.failed;
    resp.uptime_seconds = (cz_clock_now_ms() - s->start_ms) / 1000;
    reply_pack(rep, &resp.base); /* under the lock: the preloaded strings stay put */
    pthread_mutex_unlock(&s->lock);
    free(srs);
    free(srsp);
}

static void h_metrics(cz_daemon_reply *rep, cz_daemon_service *s, const uint8_t *req, size_t len,
                      cz_daemon_release_fn release, void *arg) {
    (void)release, (void)arg;
    Cuzk__V1__GetMetricsRequest *r = cuzk__v1__get_metrics_request__unpack(NULL, len, req);
    if (r == NULL) {
        set_reply(rep, CZ_RPC_INVALID_ARGUMENT, "malformed GetMetricsRequest");
        return;
    }
    cuzk__v1__get_metrics_request__free_unpacked(r, NULL);
    cz_engine_stats es;
    cz_engine_stats_get(&es, s->engine);
    char *text = NULL;
    size_t tlen = 0;
    FILE *f = open_memstream(&text, &tlen);
    if (f == NULL) {
        set_reply(rep, CZ_RPC_INTERNAL, "open_memstream failed");
        return;
    }
    size_t queued = 0;
    for (int p = 0; p < CZ_PRIO_COUNT; p++)
        queued += es.sched.queued[p];
    fprintf(f,
            "# TYPE cuzk_proofs_completed_total counter\ncuzk_proofs_completed_total %" PRIu64
            "\n# TYPE cuzk_proofs_failed_total counter\ncuzk_proofs_failed_total %" PRIu64
            "\n# TYPE cuzk_proofs_cancelled_total counter\ncuzk_proofs_cancelled_total %" PRIu64
            "\n# TYPE cuzk_uptime_seconds gauge\ncuzk_uptime_seconds %.3f\n"
            "# TYPE cuzk_queue_depth gauge\ncuzk_queue_depth %zu\n"
            "# TYPE cuzk_running_jobs gauge\ncuzk_running_jobs %zu\n"
            "# TYPE cuzk_gpu_workers gauge\ncuzk_gpu_workers %d\n"
            "# TYPE cuzk_budget_used_bytes gauge\ncuzk_budget_used_bytes %" PRIu64
            "\n# TYPE cuzk_budget_total_bytes gauge\ncuzk_budget_total_bytes %" PRIu64 "\n",
            es.sched.completed, es.sched.failed, es.sched.cancelled, es.uptime_ms / 1e3, queued,
            es.sched.running, es.ndevices * es.workers_per_device, es.budget.used, es.budget.total);
    cz_daemon_gpus_metrics(f, &es, 0);
    const cz_sched_kind_stats *ks = &es.sched.kinds[K_FIRST];
    fprintf(f, "# TYPE cuzk_proofs_completed counter\n");
    for (int k = 0; k < K_COUNT; k++)
        fprintf(f, "cuzk_proofs_completed{proof_kind=\"%s\"} %" PRIu64 "\n", kind_labels[k],
                ks[k].done);
    fprintf(f, "# TYPE cuzk_proofs_failed counter\n");
    for (int k = 0; k < K_COUNT; k++)
        fprintf(f, "cuzk_proofs_failed{proof_kind=\"%s\"} %" PRIu64 "\n", kind_labels[k],
                ks[k].failed);
    fprintf(f, "# TYPE cuzk_proof_duration_seconds summary\n");
    for (int k = 0; k < K_COUNT; k++)
        fprintf(f,
                "cuzk_proof_duration_seconds_count{proof_kind=\"%s\"} %" PRIu64
                "\ncuzk_proof_duration_seconds_sum{proof_kind=\"%s\"} %.3f\n",
                kind_labels[k], ks[k].done, kind_labels[k], (double)ks[k].done_ms / 1e3);
    if (fclose(f) != 0 || text == NULL) {
        free(text);
        set_reply(rep, CZ_RPC_INTERNAL, "metrics text: out of memory");
        return;
    }
    Cuzk__V1__GetMetricsResponse resp = CUZK__V1__GET_METRICS_RESPONSE__INIT;
    resp.prometheus_text = text;
    reply_pack(rep, &resp.base);
    free(text);
}

/* The loader of a key path: bellperson parameters by their extension, else a snarkjs zkey. */
static const cz_srs_loader *loader_of(const char *path) {
    size_t n = strlen(path);
    return n > 7 && strcmp(path + n - 7, ".params") == 0 ? &cz_srs_loader_params
                                                         : &cz_srs_loader_zkey;
}

static void h_preload(cz_daemon_reply *rep, cz_daemon_service *s, const uint8_t *req, size_t len,
                      cz_daemon_release_fn release, void *arg) {
    (void)release, (void)arg;
    Cuzk__V1__PreloadSrsRequest *r = cuzk__v1__preload_srs_request__unpack(NULL, len, req);
    if (r == NULL || r->circuit_id == NULL || r->circuit_id[0] == 0) {
        set_reply(rep, CZ_RPC_INVALID_ARGUMENT,
                  "malformed PreloadSrsRequest (circuit_id: a .zkey or .params path)");
        goto out;
    }
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    int already = cz_srs_is_loaded(s->srs, r->circuit_id);
    uint64_t t0 = cz_clock_now_ms();
    int rc = cz_daemon_filecoin_key_check(s->filecoin, r->circuit_id, &ei);
    if (rc != CZ_OK) { /* the message names the file */
        set_reply(rep, CZ_RPC_FAILED_PRECONDITION, "%s", ei.msg);
        goto out;
    }
    rc = cz_srs_preload(s->srs, r->circuit_id, loader_of(r->circuit_id), &ei);
    if (rc != CZ_OK) {
        set_reply(rep, rc == CZ_ERANGE ? CZ_RPC_RESOURCE_EXHAUSTED : CZ_RPC_INVALID_ARGUMENT,
                  "%s: %s", r->circuit_id, ei.msg);
        goto out;
    }
    Cuzk__V1__PreloadSrsResponse resp = CUZK__V1__PRELOAD_SRS_RESPONSE__INIT;
    resp.already_loaded = already;
    resp.load_time_ms = already ? 0 : cz_clock_now_ms() - t0;
    pthread_mutex_lock(&s->lock);
    size_t i = 0;
    while (i < s->npreloaded && strcmp(s->preloaded[i], r->circuit_id) != 0)
        i++;
    if (i == s->npreloaded) {
        char **p = realloc(s->preloaded, (s->npreloaded + 1) * sizeof *p);
        if (p != NULL) {
            s->preloaded = p;
            if ((p[s->npreloaded] = strdup(r->circuit_id)) != NULL)
                s->npreloaded++;
        }
    }
    pthread_mutex_unlock(&s->lock);
    reply_pack(rep, &resp.base);
out:
    if (r != NULL)
        cuzk__v1__preload_srs_request__free_unpacked(r, NULL);
}

static void h_evict(cz_daemon_reply *rep, cz_daemon_service *s, const uint8_t *req, size_t len,
                    cz_daemon_release_fn release, void *arg) {
    (void)release, (void)arg;
    Cuzk__V1__EvictSrsRequest *r = cuzk__v1__evict_srs_request__unpack(NULL, len, req);
    if (r == NULL || r->circuit_id == NULL || r->circuit_id[0] == 0) {
        set_reply(rep, CZ_RPC_INVALID_ARGUMENT, "malformed EvictSrsRequest (circuit_id needed)");
        goto out;
    }
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    cz_srs_stats a, b;
    cz_srs_stats_get(&a, s->srs);
    int rc = cz_srs_evict(s->srs, r->circuit_id, &ei);
    cz_srs_stats_get(&b, s->srs);
    if (rc == CZ_EBUSY) {
        set_reply(rep, CZ_RPC_FAILED_PRECONDITION, "%s", ei.msg);
        goto out;
    }
    if (rc != CZ_OK && rc != CZ_ENOTFOUND) {
        set_reply(rep, CZ_RPC_INTERNAL, "%s", ei.msg);
        goto out;
    }
    Cuzk__V1__EvictSrsResponse resp = CUZK__V1__EVICT_SRS_RESPONSE__INIT;
    resp.was_loaded = rc == CZ_OK;
    resp.freed_bytes = rc == CZ_OK && a.bytes > b.bytes ? a.bytes - b.bytes : 0;
    reply_pack(rep, &resp.base);
out:
    if (r != NULL)
        cuzk__v1__evict_srs_request__free_unpacked(r, NULL);
}

typedef void (*handler_fn)(cz_daemon_reply *, cz_daemon_service *, const uint8_t *, size_t,
                           cz_daemon_release_fn, void *);
static const struct {
    const char *method;
    handler_fn fn;
    int slow;
} methods[] = {
    {"/cuzk.v1.ProvingEngine/SubmitProof", h_submit, 1},
    {"/cuzk.v1.ProvingEngine/AwaitProof", h_await, 0}, /* answers at once or parks */
    {"/cuzk.v1.ProvingEngine/Prove", h_prove, 1},
    {"/cuzk.v1.ProvingEngine/CancelProof", h_cancel, 0},
    {"/cuzk.v1.ProvingEngine/GetStatus", h_status, 0},
    {"/cuzk.v1.ProvingEngine/GetMetrics", h_metrics, 0},
    {"/cuzk.v1.ProvingEngine/PreloadSRS", h_preload, 1},
    {"/cuzk.v1.ProvingEngine/EvictSRS", h_evict, 0},
};

int cz_daemon_method_is_slow(const char *method) {
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
        if (strcmp(method, methods[i].method) == 0)
            return methods[i].slow;
    return 0;
}

void cz_daemon_service_call(cz_daemon_reply *rep, cz_daemon_service *s, const char *method,
                            const uint8_t *req, size_t len, cz_daemon_release_fn release,
                            void *release_arg) {
    memset(rep, 0, sizeof *rep);
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
        if (strcmp(method, methods[i].method) == 0) {
            methods[i].fn(rep, s, req, len, release, release_arg);
            return;
        }
    set_reply(rep, CZ_RPC_UNIMPLEMENTED, "unknown method %s", method);
}

cz_engine *cz_daemon_service_engine(cz_daemon_service *s) {
    return s->engine;
}

char *cz_daemon_service_filecoin_json(void *s) {
    return cz_daemon_filecoin_status_json(((cz_daemon_service *)s)->filecoin);
}

cz_srs *cz_daemon_service_srs(cz_daemon_service *s) {
    return s->srs;
}
