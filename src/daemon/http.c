/*
 * The daemon's HTTP status endpoints (http.h): GET /status (JSON) and GET /metrics (Prometheus
 * text exposition format 0.0.4), served by libmicrohttpd with one internal thread.
 *
 * Design: a request builds its page from fresh reads of the engine's statistics
 * (cz_engine_stats_get: scheduler, budget, partitions, device busy time), the scheduler's job
 * listing (cz_sched_list) and the SRS manager (cz_srs_stats_get). Each read takes its module's
 * lock briefly; nothing here holds a lock while formatting or writing to the socket, so a slow
 * client never stalls the pipeline. Pages are small (the job listing grows with the jobs kept
 * for retention: about 200 bytes per job) and built in O(jobs + partitions).
 *
 * Names follow the original daemon's (cuzk.md §3.4-3.5) where one exists (uptime_secs,
 * memory.total_bytes, cuzk_proofs_completed_total, cuzk_queue_depth, cuzk_running_jobs);
 * the rest are named after the engine's counters. Devices are the engine's lock slots: one per
 * GPU in configuration order, or one for the CPU backend.
 *
 * Lifecycle: cz_http_start starts the listening thread; cz_http_stop stops it (MHD_stop_daemon
 * joins it), after which the engine and SRS manager may be destroyed.
 */
#include "daemon/http.h"

#include "cuzk/tuning.h"
#include "daemon/gpus.h"
#include "daemon/netaddr.h"

#include <errno.h>
#include <jansson.h>
#include <microhttpd.h>
#include <netdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

/* One open connection: its socket (owned by libmicrohttpd) and when its current request began. */
typedef struct conn {
    int fd;
    uint64_t start_ms; /* accept, or the end of the previous request on a kept-alive connection */
    int closing;       /* shut down by us (deadline or eviction); libmicrohttpd closes it */
    int used;
} conn;

struct cz_http {
    struct MHD_Daemon *d;
    cz_engine *e;
    cz_srs *srs;
    const char *section_name; /* cz_http_opts' extra /status section */
    char *(*section)(void *arg);
    void *section_arg;
    int port;
    char addr[64];        /* the address bound: "127.0.0.1:9821" */
    char *cors;           /* Access-Control-Allow-Origin value; NULL = no header */
    unsigned deadline_ms; /* absolute limit of one request, from its first byte to its last */
    unsigned max_conns;   /* connections kept; one more evicts the oldest */
    /* The connection table and the deadline thread; m protects everything below. */
    pthread_mutex_t m;
    pthread_cond_t cv;
    pthread_t watchdog;
    int have_watchdog, stop;
    conn *conns;    /* max_conns + CONN_SLACK slots */
    unsigned nlive; /* used slots not yet shut down by us */
    uint64_t nexpired, nevicted;
};

/* Slots beyond max_conns: libmicrohttpd's hard limit, so that a new connection is accepted (and
 * evicts an old one) rather than refused while the table is full. */
#define CONN_SLACK 16u

static uint64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* ------------------------------------------------------------------------------------------
 * /status
 * ------------------------------------------------------------------------------------------ */

static json_t *jint(uint64_t v) {
    return json_integer((json_int_t)v);
}

/* Adds key = value to obj, taking the reference; a NULL value (out of memory) marks *bad. */
static void put(json_t *obj, const char *key, json_t *v, int *bad) {
    if (v == NULL || json_object_set_new(obj, key, v) != 0)
        *bad = 1;
}

static json_t *memory_json(const cz_budget_stats *b, int *bad) {
    json_t *m = json_object();
    if (m == NULL) {
        *bad = 1;
        return NULL;
    }
    put(m, "total_bytes", jint(b->total), bad);
    put(m, "used_bytes", jint(b->used), bad);
    put(m, "available_bytes", jint(b->total - b->used), bad);
    put(m, "peak_bytes", jint(b->peak), bad);
    put(m, "waiting_bytes", jint(b->waiting_bytes), bad);
    put(m, "waiting_requests", jint(b->nwaiting), bad);
    put(m, "granted", jint(b->ngranted), bad);
    put(m, "refused", jint(b->nrefused), bad);
    put(m, "evictor_calls", jint(b->nevict_calls), bad);
    return m;
}

static json_t *queue_json(const cz_sched_stats *s, int *bad) {
    json_t *q = json_object(), *byprio = json_object();
    size_t depth = 0;
    if (q == NULL || byprio == NULL) {
        json_decref(q);
        json_decref(byprio);
        *bad = 1;
        return NULL;
    }
    for (int p = CZ_PRIO_COUNT - 1; p >= 0; p--) {
        put(byprio, cz_priority_name((cz_priority)p), jint(s->queued[p]), bad);
        depth += s->queued[p];
    }
    put(q, "queued", byprio, bad);
    put(q, "queue_depth", jint(depth), bad);
    put(q, "running", jint(s->running), bad);
    put(q, "retained", jint(s->retained), bad);
    return q;
}

static json_t *counters_json(const cz_engine_stats *st, int *bad) {
    json_t *c = json_object();
    if (c == NULL) {
        *bad = 1;
        return NULL;
    }
    put(c, "total_submitted", jint(st->sched.submitted), bad);
    put(c, "total_completed", jint(st->sched.completed), bad);
    put(c, "total_failed", jint(st->sched.failed), bad);
    put(c, "total_cancelled", jint(st->sched.cancelled), bad);
    put(c, "total_pruned", jint(st->sched.pruned), bad);
    put(c, "partitions_done", jint(st->parts_done), bad);
    put(c, "partitions_failed", jint(st->parts_failed), bad);
    put(c, "partitions_skipped", jint(st->parts_skipped), bad);
    return c;
}

static json_t *pipeline_json(const cz_engine_stats *st, int *bad) {
    json_t *p = json_object();
    if (p == NULL) {
        *bad = 1;
        return NULL;
    }
    put(p, "synthesis_queue", jint(st->synth_queue), bad);
    put(p, "gpu_queue", jint(st->gpu_queue), bad);
    put(p, "finalize_queue", jint(st->finalize_queue), bad);
    put(p, "partitions_ahead", jint(st->ahead), bad);
    put(p, "partitions_ahead_limit", jint(st->ahead_limit), bad);
    return p;
}

static json_t *devices_json(const cz_engine_stats *st, int *bad) {
    json_t *a = json_array();
    if (a == NULL) {
        *bad = 1;
        return NULL;
    }
    cz_daemon_gpu_status gs[CZ_ENGINE_MAX_DEVICES];
    int n = cz_daemon_gpus_status(gs, st);
    for (int i = 0; i < n; i++) {
        json_t *d = json_object();
        if (d == NULL || json_array_append_new(a, d) != 0) {
            *bad = 1;
            break;
        }
        put(d, "slot", jint((uint64_t)i), bad);
        put(d, "index", json_integer(gs[i].index), bad);
        put(d, "name", json_string(gs[i].name), bad);
        put(d, "memory_total_bytes", jint(gs[i].mem_total_bytes), bad);
        put(d, "memory_free_bytes", jint(gs[i].mem_free_bytes), bad);
        put(d, "workers", jint((uint64_t)gs[i].workers), bad);
        put(d, "busy", json_boolean(gs[i].busy), bad);
        put(d, "busy_ms", json_real(gs[i].busy_ms), bad);
        put(d, "in_service", json_boolean(!gs[i].out_of_service), bad);
        put(d, "out_of_service_reason", gs[i].out_of_service ? json_string(gs[i].why) : json_null(),
            bad);
    }
    return a;
}

static json_t *job_json(const cz_job_info *j, int *bad) {
    json_t *o = json_object(), *parts = json_array();
    if (o == NULL || parts == NULL) {
        json_decref(o);
        json_decref(parts);
        *bad = 1;
        return NULL;
    }
    put(o, "job_id", json_string(j->key), bad);
    put(o, "seq", jint(j->seq), bad);
    put(o, "priority", json_string(cz_priority_name(j->prio)), bad);
    put(o, "state", json_string(cz_job_state_name(j->state)), bad);
    put(o, "wait_ms", jint(j->wait_ms), bad);
    put(o, "run_ms", jint(j->run_ms), bad);
    put(o, "total_partitions", jint(j->nparts), bad);
    put(o, "partitions_done", jint(j->ndone), bad);
    put(o, "partitions_failed", jint(j->nfailed), bad);
    put(o, "partitions_skipped", jint(j->nskipped), bad);
    put(o, "partitions_pending", jint(j->nparts - j->ndone - j->nfailed - j->nskipped), bad);
    for (uint32_t p = 0; p < j->nparts; p++)
        if (json_array_append_new(parts, json_string(cz_part_state_name(j->parts[p]))) != 0)
            *bad = 1;
    put(o, "partitions", parts, bad);
    return o;
}

static json_t *srs_json(cz_srs *srs, int *bad) {
    cz_srs_stats s;
    json_t *o;
    if (srs == NULL)
        return json_null();
    if ((o = json_object()) == NULL) {
        *bad = 1;
        return NULL;
    }
    cz_srs_stats_get(&s, srs);
    put(o, "keys_loaded", jint(s.nloaded), bad);
    put(o, "keys_referenced", jint(s.nreferenced), bad);
    put(o, "bytes", jint(s.bytes), bad);
    put(o, "loads", jint(s.nloads), bad);
    put(o, "hits", jint(s.nhits), bad);
    put(o, "evictions", jint(s.nevictions), bad);
    put(o, "loading", jint(s.nloading), bad);
    put(o, "changed_on_disk", jint(s.nchanged), bad);
    put(o, "load_threads", jint(s.load_threads), bad);
    put(o, "params_subgroup_check", json_boolean(s.params_check_subgroup), bad);
    return o;
}

/* The process-wide tuning the daemon installed from its configuration (cuzk/tuning.h). */
static json_t *tuning_json(int *bad) {
    static const char *const split[] = {"auto", "off", "on"};
    static const char *const compact[] = {"auto", "never", "always"};
    cz_tuning t;
    json_t *o = json_object();
    if (o == NULL) {
        *bad = 1;
        return NULL;
    }
    cz_tuning_get(&t);
    put(o, "g2_msm_on_gpu", json_boolean(!t.gpu_g2_on_cpu), bad);
    put(o, "upload_chunk_bytes",
        jint(t.gpu_copy_whole         ? 0
             : t.gpu_copy_chunk_bytes ? t.gpu_copy_chunk_bytes
                                      : CZ_TUNING_COPY_CHUNK_DEFAULT),
        bad);
    put(o, "msm_split", json_string(split[t.msm_split]), bad);
    put(o, "msm_window_bits", jint(t.gpu_msm_window_bits), bad);
    put(o, "msm_windows", jint(t.gpu_msm_windows), bad);
    put(o, "bases_compact", json_string(compact[t.gpu_bases_compact]), bad);
    put(o, "msm_profile", json_boolean(t.msm_profile), bad);
    return o;
}

char *cz_http_status_json(cz_engine *e, cz_srs *srs) {
    return cz_http_status_json_with(e, srs, NULL, NULL, NULL);
}

char *cz_http_status_json_with(cz_engine *e, cz_srs *srs, const char *section_name,
                               char *(*section)(void *arg), void *section_arg) {
    cz_engine_stats st;
    cz_job_info *jobs = NULL;
    size_t njobs = 0;
    int bad = 0;
    char *out = NULL;
    json_t *root = json_object(), *ja = json_array();
    cz_engine_stats_get(&st, e);
    if (root == NULL || ja == NULL ||
        cz_sched_list(&jobs, &njobs, cz_engine_sched(e), NULL) != CZ_OK) {
        json_decref(ja);
        goto out;
    }
    put(root, "uptime_secs", json_real(st.uptime_ms / 1000.0), &bad);
    put(root, "memory", memory_json(&st.budget, &bad), &bad);
    put(root, "queue", queue_json(&st.sched, &bad), &bad);
    put(root, "counters", counters_json(&st, &bad), &bad);
    put(root, "pipeline", pipeline_json(&st, &bad), &bad);
    put(root, "devices", devices_json(&st, &bad), &bad);
    put(root, "srs", srs_json(srs, &bad), &bad);
    put(root, "tuning", tuning_json(&bad), &bad);
    if (section != NULL) {
        char *text = section(section_arg);
        json_t *v = text != NULL ? json_loads(text, 0, NULL) : NULL;
        free(text);
        if (v == NULL)
            bad = 1;
        put(root, section_name, v, &bad);
    }
    for (size_t i = 0; i < njobs; i++)
        if (json_array_append_new(ja, job_json(&jobs[i], &bad)) != 0)
            bad = 1;
    put(root, "jobs", ja, &bad);
    if (!bad)
        out = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
out:
    free(jobs);
    json_decref(root);
    return out;
}

/* ------------------------------------------------------------------------------------------
 * /metrics
 * ------------------------------------------------------------------------------------------ */

/* One metric family's HELP and TYPE lines; its samples follow. */
static void family(FILE *f, const char *name, const char *type, const char *help) {
    fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void metric_u64(FILE *f, const char *name, const char *type, const char *help, uint64_t v) {
    family(f, name, type, help);
    fprintf(f, "%s %llu\n", name, (unsigned long long)v);
}

char *cz_http_metrics_text(cz_engine *e, cz_srs *srs) {
    cz_engine_stats st;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f == NULL)
        return NULL;
    cz_engine_stats_get(&st, e);

    family(f, "cuzk_uptime_seconds", "gauge", "Seconds since the engine started.");
    fprintf(f, "cuzk_uptime_seconds %.3f\n", st.uptime_ms / 1000.0);

    metric_u64(f, "cuzk_proofs_submitted_total", "counter", "Jobs accepted by the scheduler.",
               st.sched.submitted);
    metric_u64(f, "cuzk_proofs_completed_total", "counter", "Jobs done with a verified proof.",
               st.sched.completed);
    metric_u64(f, "cuzk_proofs_failed_total", "counter", "Jobs that failed.", st.sched.failed);
    metric_u64(f, "cuzk_proofs_cancelled_total", "counter", "Jobs cancelled.", st.sched.cancelled);
    metric_u64(f, "cuzk_proofs_pruned_total", "counter",
               "Finished jobs dropped after their retention.", st.sched.pruned);
    metric_u64(f, "cuzk_proofs_retained", "gauge", "Finished jobs still kept for AwaitProof.",
               st.sched.retained);
    family(f, "cuzk_queue_depth", "gauge", "Jobs waiting for the dispatcher, by priority.");
    for (int p = CZ_PRIO_COUNT - 1; p >= 0; p--)
        fprintf(f, "cuzk_queue_depth{priority=\"%s\"} %zu\n", cz_priority_name((cz_priority)p),
                st.sched.queued[p]);
    metric_u64(f, "cuzk_running_jobs", "gauge", "Jobs taken by the dispatcher, not finished.",
               st.sched.running);

    metric_u64(f, "cuzk_partitions_done_total", "counter", "Partitions proved.", st.parts_done);
    metric_u64(f, "cuzk_partitions_failed_total", "counter", "Partitions that failed.",
               st.parts_failed);
    metric_u64(f, "cuzk_partitions_skipped_total", "counter",
               "Partitions skipped or abandoned (cancel, or another partition failed).",
               st.parts_skipped);
    family(f, "cuzk_pipeline_queue_partitions", "gauge",
           "Partitions waiting in each stage's queue.");
    fprintf(f, "cuzk_pipeline_queue_partitions{stage=\"synthesis\"} %zu\n", st.synth_queue);
    fprintf(f, "cuzk_pipeline_queue_partitions{stage=\"gpu\"} %zu\n", st.gpu_queue);
    fprintf(f, "cuzk_pipeline_queue_partitions{stage=\"finalize\"} %zu\n", st.finalize_queue);
    metric_u64(f, "cuzk_pipeline_partitions_ahead", "gauge",
               "Partitions in synthesis or queued for a GPU (bounded by the pacer).", st.ahead);
    metric_u64(f, "cuzk_pipeline_partitions_ahead_limit", "gauge",
               "The pacer's bound on partitions ahead of the GPUs (0: none).", st.ahead_limit);

    metric_u64(f, "cuzk_budget_total_bytes", "gauge", "Memory budget.", st.budget.total);
    metric_u64(f, "cuzk_budget_used_bytes", "gauge", "Memory budget reserved now.", st.budget.used);
    metric_u64(f, "cuzk_budget_peak_bytes", "gauge", "Most memory budget ever reserved.",
               st.budget.peak);
    metric_u64(f, "cuzk_budget_waiting_bytes", "gauge", "Bytes requested by waiting reservations.",
               st.budget.waiting_bytes);
    metric_u64(f, "cuzk_budget_waiting_requests", "gauge", "Reservations waiting for memory.",
               st.budget.nwaiting);
    metric_u64(f, "cuzk_budget_granted_total", "counter", "Reservations granted.",
               st.budget.ngranted);
    metric_u64(f, "cuzk_budget_refused_total", "counter",
               "Reservations refused (too large, timed out or aborted).", st.budget.nrefused);

    metric_u64(f, "cuzk_gpu_workers", "gauge", "GPU workers (all devices).",
               (uint64_t)(st.ndevices * st.workers_per_device));
    cz_daemon_gpus_metrics(f, &st, 1);

    if (srs != NULL) {
        cz_srs_stats s;
        cz_srs_stats_get(&s, srs);
        metric_u64(f, "cuzk_srs_keys_loaded", "gauge", "Proving keys loaded.", s.nloaded);
        metric_u64(f, "cuzk_srs_keys_referenced", "gauge", "Proving keys in use by jobs.",
                   s.nreferenced);
        metric_u64(f, "cuzk_srs_bytes", "gauge", "Bytes of the loaded proving keys.", s.bytes);
        metric_u64(f, "cuzk_srs_loads_total", "counter", "Proving key loads.", s.nloads);
        metric_u64(f, "cuzk_srs_hits_total", "counter", "Acquires of an already loaded key.",
                   s.nhits);
        metric_u64(f, "cuzk_srs_evictions_total", "counter", "Proving keys evicted.", s.nevictions);
        metric_u64(f, "cuzk_srs_keys_loading", "gauge", "Proving key loads under way.", s.nloading);
        metric_u64(f, "cuzk_srs_changed_on_disk_total", "counter",
                   "Loaded proving keys whose file changed on disk (loaded again).", s.nchanged);
    }
    if (ferror(f)) {
        fclose(f);
        free(buf);
        return NULL;
    }
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* ------------------------------------------------------------------------------------------
 * The server
 * ------------------------------------------------------------------------------------------ */

static enum MHD_Result reply(const cz_http *h, struct MHD_Connection *c, unsigned code, char *body,
                             const char *type) {
    struct MHD_Response *r;
    enum MHD_Result ret;
    if (body == NULL) {
        static const char oom[] = "out of memory\n";
        code = MHD_HTTP_INTERNAL_SERVER_ERROR;
        type = "text/plain; charset=utf-8";
        r = MHD_create_response_from_buffer(sizeof oom - 1, (void *)oom, MHD_RESPMEM_PERSISTENT);
    } else {
        r = MHD_create_response_from_buffer(strlen(body), body, MHD_RESPMEM_MUST_FREE);
    }
    if (r == NULL) {
        free(body);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    if (h->cors != NULL)
        MHD_add_response_header(r, "Access-Control-Allow-Origin", h->cors);
    if (code == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
    ret = MHD_queue_response(c, code, r);
    MHD_destroy_response(r);
    return ret;
}

static char *dup_str(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d != NULL)
        memcpy(d, s, n);
    return d;
}

static enum MHD_Result handle(void *arg, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *upload,
                              size_t *upload_len, void **con_cls) {
    cz_http *h = arg;
    static const char *const text = "text/plain; charset=utf-8";
    (void)version;
    (void)upload;
    (void)con_cls;
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0) {
        *upload_len = 0; /* the body is not read: answer at once (the connection then closes) */
        return reply(h, c, MHD_HTTP_METHOD_NOT_ALLOWED, dup_str("method not allowed\n"), text);
    }
    if (strcmp(url, "/status") == 0)
        return reply(
            h, c, MHD_HTTP_OK,
            cz_http_status_json_with(h->e, h->srs, h->section_name, h->section, h->section_arg),
            "application/json");
    if (strcmp(url, "/metrics") == 0)
        return reply(h, c, MHD_HTTP_OK, cz_http_metrics_text(h->e, h->srs),
                     "text/plain; version=0.0.4; charset=utf-8");
    return reply(h, c, MHD_HTTP_NOT_FOUND, dup_str("not found: try /status or /metrics\n"), text);
}

/* ------------------------------------------------------------------------------------------
 * Connection limits. libmicrohttpd's own timeout (MHD_OPTION_CONNECTION_TIMEOUT) restarts at
 * every byte, so a client sending one byte a second holds its connection for ever; and its
 * connection limit refuses new connections once full, so 64 such clients lock monitoring out.
 * Here every connection is in a table (the notify-connection callback adds and removes it) with
 * the time its current request began: the watchdog thread shuts down (shutdown(2), not close:
 * the socket stays libmicrohttpd's, which then sees EOF and closes it) every connection whose
 * request has lasted deadline_ms, however it trickles; and a connection beyond max_conns evicts
 * the oldest one, so that a new client (a scrape takes milliseconds) is always served. The slot
 * is freed in the CLOSED notification, before libmicrohttpd closes the socket, and both run under
 * h->m, so the watchdog never shuts down a reused descriptor.
 * ------------------------------------------------------------------------------------------ */

/* Marks slot k shut down; h->m held. */
static void conn_shut(cz_http *h, conn *k) {
    shutdown(k->fd, SHUT_RDWR);
    k->closing = 1;
    h->nlive--;
}

static void on_connection(void *arg, struct MHD_Connection *c, void **socket_context,
                          enum MHD_ConnectionNotificationCode what) {
    cz_http *h = arg;
    pthread_mutex_lock(&h->m);
    if (what == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *ci =
            MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        conn *k = NULL, *oldest = NULL;
        for (unsigned i = 0; i < h->max_conns + CONN_SLACK; i++) {
            conn *s = &h->conns[i];
            if (!s->used && k == NULL)
                k = s;
            else if (s->used && !s->closing && (oldest == NULL || s->start_ms < oldest->start_ms))
                oldest = s;
        }
        *socket_context = k;
        if (k != NULL && ci != NULL) {
            k->fd = ci->connect_fd;
            k->start_ms = now_ms();
            k->closing = 0;
            k->used = 1;
            if (++h->nlive > h->max_conns && oldest != NULL) {
                conn_shut(h, oldest);
                h->nevicted++;
            }
        } else if (ci != NULL) {
            shutdown(ci->connect_fd, SHUT_RDWR); /* no slot: cannot happen below the hard limit */
        }
    } else if (*socket_context != NULL) {
        conn *k = *socket_context;
        if (!k->closing)
            h->nlive--;
        k->used = 0;
        *socket_context = NULL;
    }
    pthread_mutex_unlock(&h->m);
}

/* A request answered: the connection's next request (keep-alive) gets a deadline of its own. */
static void on_completed(void *arg, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode why) {
    cz_http *h = arg;
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    (void)con_cls;
    (void)why;
    if (ci == NULL || ci->socket_context == NULL)
        return;
    pthread_mutex_lock(&h->m);
    ((conn *)ci->socket_context)->start_ms = now_ms();
    pthread_mutex_unlock(&h->m);
}

/* Shuts down the connections past their deadline, then sleeps until the next one is due. A
 * connection added or renewed meanwhile is due no earlier than deadline_ms from now, so sleeping
 * until the earliest deadline in the table (or deadline_ms when it is empty) misses none. */
static void *watchdog(void *arg) {
    cz_http *h = arg;
    pthread_mutex_lock(&h->m);
    while (!h->stop) {
        uint64_t now = now_ms(), next = now + h->deadline_ms;
        for (unsigned i = 0; i < h->max_conns + CONN_SLACK; i++) {
            conn *k = &h->conns[i];
            if (!k->used || k->closing)
                continue;
            if (now - k->start_ms >= h->deadline_ms) {
                conn_shut(h, k);
                h->nexpired++;
            } else if (k->start_ms + h->deadline_ms < next) {
                next = k->start_ms + h->deadline_ms;
            }
        }
        struct timespec ts = {(time_t)(next / 1000u), (long)(next % 1000u) * 1000000L};
        pthread_cond_timedwait(&h->cv, &h->m, &ts);
    }
    pthread_mutex_unlock(&h->m);
    return NULL;
}

/* Frees h (its server stopped or never started). */
static void http_free(cz_http *h) {
    if (h->have_watchdog) {
        pthread_mutex_lock(&h->m);
        h->stop = 1;
        pthread_cond_signal(&h->cv);
        pthread_mutex_unlock(&h->m);
        pthread_join(h->watchdog, NULL);
    }
    pthread_cond_destroy(&h->cv);
    pthread_mutex_destroy(&h->m);
    free(h->conns);
    free(h->cors);
    free(h);
}

/* Splits "host:port", "[host]:port" or ":port" into host (empty = any) and port. */
static int parse_listen(char *host, size_t hostcap, unsigned *port, const char *listen,
                        cz_errinfo *ei) {
    const char *colon = strrchr(listen, ':'), *h = listen, *hend;
    char *end;
    unsigned long v;
    if (colon == NULL || colon[1] == '\0')
        return cz_fail(ei, CZ_EINVAL, "http: listen address '%s' has no ':port'", listen);
    hend = colon;
    if (*h == '[') {
        if (colon == listen || colon[-1] != ']')
            return cz_fail(ei, CZ_EINVAL, "http: listen address '%s': unclosed '['", listen);
        h++;
        hend--;
    }
    if ((size_t)(hend - h) >= hostcap)
        return cz_fail(ei, CZ_EINVAL, "http: listen address '%s': host too long", listen);
    memcpy(host, h, (size_t)(hend - h));
    host[hend - h] = '\0';
    v = strtoul(colon + 1, &end, 10);
    if (*end != '\0' || colon[1] < '0' || colon[1] > '9' || v > 65535)
        return cz_fail(ei, CZ_EINVAL, "http: listen address '%s': bad port", listen);
    *port = (unsigned)v;
    return CZ_OK;
}

int cz_http_start(cz_http **out, const char *listen, const cz_http_opts *opts, cz_engine *e,
                  cz_srs *srs, cz_errinfo *ei) {
    char host[256], portstr[8];
    unsigned port = 0;
    struct addrinfo hints, *ai = NULL;
    cz_http *h = NULL;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL;
    const char *cors = opts != NULL ? opts->cors_origin : NULL;
    pthread_condattr_t ca;
    int rc;
    *out = NULL;
    if (listen == NULL)
        return cz_fail(ei, CZ_EINVAL, "http: no listen address");
    if ((rc = parse_listen(host, sizeof host, &port, listen, ei)) != CZ_OK)
        return rc;
    for (const char *p = cors != NULL ? cors : ""; *p != '\0'; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            return cz_fail(ei, CZ_EINVAL, "http: CORS origin has a control character");
    if (host[0] != '\0') {
        int g;
        memset(&hints, 0, sizeof hints);
        hints.ai_family = AF_UNSPEC;
        hints.ai_socktype = SOCK_STREAM;
        hints.ai_flags = AI_NUMERICSERV | AI_PASSIVE;
        snprintf(portstr, sizeof portstr, "%u", port);
        if ((g = getaddrinfo(host, portstr, &hints, &ai)) != 0)
            return cz_fail(ei, CZ_EINVAL, "http: listen address '%s': %s", listen, gai_strerror(g));
        if (ai->ai_family == AF_INET6)
            flags |= MHD_USE_IPv6;
    }
    if ((h = calloc(1, sizeof *h)) == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "http: server");
        goto out;
    }
    h->e = e;
    h->srs = srs;
    if (opts != NULL && opts->status_section != NULL && opts->status_section_name != NULL) {
        h->section_name = opts->status_section_name;
        h->section = opts->status_section;
        h->section_arg = opts->status_section_arg;
    }
    h->deadline_ms = opts != NULL && opts->request_timeout_ms != 0 ? opts->request_timeout_ms
                                                                   : CZ_HTTP_REQUEST_TIMEOUT_MS;
    h->max_conns = opts != NULL && opts->max_connections != 0 ? opts->max_connections
                                                              : CZ_HTTP_MAX_CONNECTIONS;
    pthread_mutex_init(&h->m, NULL);
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&h->cv, &ca);
    pthread_condattr_destroy(&ca);
    h->conns = calloc(h->max_conns + CONN_SLACK, sizeof *h->conns);
    if (h->conns == NULL || (cors != NULL && cors[0] != '\0' && (h->cors = strdup(cors)) == NULL)) {
        rc = cz_fail(ei, CZ_ENOMEM, "http: server");
        goto out;
    }
    if (pthread_create(&h->watchdog, NULL, watchdog, h) != 0) {
        rc = cz_fail(ei, CZ_ENOMEM, "http: cannot start the deadline thread");
        goto out;
    }
    h->have_watchdog = 1;
    /* libmicrohttpd's inactivity timeout (whole seconds) as well: it closes an idle connection at
     * about the same time, without the watchdog */
    unsigned idle_s = (h->deadline_ms + 999u) / 1000u;
    h->d = MHD_start_daemon(flags, (uint16_t)port, NULL, NULL, handle, h, MHD_OPTION_SOCK_ADDR,
                            ai != NULL ? ai->ai_addr : NULL, MHD_OPTION_CONNECTION_TIMEOUT, idle_s,
                            MHD_OPTION_CONNECTION_LIMIT, h->max_conns + CONN_SLACK,
                            MHD_OPTION_NOTIFY_CONNECTION, on_connection, h,
                            MHD_OPTION_NOTIFY_COMPLETED, on_completed, h, MHD_OPTION_END);
    if (h->d == NULL) {
        rc = cz_fail(ei, CZ_EIO, "http: cannot listen on '%s' (address in use or not local?)",
                     listen);
        goto out;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(h->d, MHD_DAEMON_INFO_BIND_PORT);
    h->port = info != NULL ? info->port : (int)port;
    info = MHD_get_daemon_info(h->d, MHD_DAEMON_INFO_LISTEN_FD);
    if (info != NULL)
        cz__netaddr_local(h->addr, sizeof h->addr, info->listen_fd);
    if (h->addr[0] == '\0')
        snprintf(h->addr, sizeof h->addr, "%.40s:%d", host[0] ? host : "0.0.0.0", h->port);
    *out = h;
    h = NULL;
    rc = CZ_OK;
out:
    if (h != NULL)
        http_free(h);
    if (ai != NULL)
        freeaddrinfo(ai);
    return rc;
}

void cz_http_stop(cz_http *h) {
    if (h == NULL)
        return;
    MHD_stop_daemon(h->d);
    http_free(h);
}

int cz_http_port(const cz_http *h) {
    return h->port;
}

const char *cz_http_address(const cz_http *h) {
    return h->addr;
}

void cz_http_conn_stats(const cz_http *h, uint64_t *expired, uint64_t *evicted) {
    cz_http *m = (cz_http *)h; /* the lock only */
    pthread_mutex_lock(&m->m);
    *expired = h->nexpired;
    *evicted = h->nevicted;
    pthread_mutex_unlock(&m->m);
}
