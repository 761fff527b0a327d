/*
 * The daemon's status endpoints (src/daemon/http.c) on a CPU-backend engine running real zkey
 * jobs (examples/mulchain through an SRS manager) and fake jobs (one failing in its second
 * partition, one held at a gate so that it is seen running):
 *   - /status parses as JSON and each number equals an independent read of the engine's,
 *     budget's and SRS manager's statistics, the counters equal the jobs this test submitted,
 *     and each job's partition states agree with its counts and with the engine's totals;
 *   - /metrics is valid Prometheus text exposition (HELP/TYPE before samples, metric and label
 *     names well formed, counters named *_total, numeric values) and its values equal the stats;
 *   - through a real socket (127.0.0.1, port chosen by the system): GET /status and /metrics
 *     answer 200 with those documents, other paths 404, other methods 405; bad listen
 *     addresses are refused, a port in use is CZ_EIO.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/tuning.h"
#include "cuzk/workload.h"
#include "daemon/http.h"
#include "engine/engine_test_util.h"
#include "test.h"

/* ---- a fake workload: proof of partition p is 8 bytes of p; fail_p fails in compute ---- */

static pthread_mutex_t g_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_c = PTHREAD_COND_INITIALIZER;
static int g_open = 1, g_waiting;

typedef struct fake {
    uint32_t fail_p; /* UINT32_MAX: none */
    int gated;       /* synthesis waits at the gate */
} fake;

static int fk_synth(void **asg, void *ctx, uint32_t p, const cz_part_env *env, cz_part_times *t,
                    cz_errinfo *ei) {
    fake *f = ctx;
    uint32_t *b = malloc(sizeof *b);
    (void)env;
    (void)t;
    if (b == NULL)
        return cz_fail(ei, CZ_ENOMEM, "fake");
    if (f->gated) {
        pthread_mutex_lock(&g_m);
        g_waiting++;
        while (!g_open)
            pthread_cond_wait(&g_c, &g_m);
        g_waiting--;
        pthread_mutex_unlock(&g_m);
    }
    *b = p;
    *asg = b;
    return CZ_OK;
}
static int fk_prepare(void *part, void *ctx, const cz_engine_device *dev, cz_part_times *t,
                      cz_errinfo *ei) {
    (void)part, (void)ctx, (void)dev, (void)t, (void)ei;
    return CZ_OK;
}
static int fk_compute(void *pending, void *ctx, const cz_engine_device *dev, cz_part_times *t,
                      cz_errinfo *ei) {
    fake *f = ctx;
    (void)dev, (void)t;
    if (*(uint32_t *)pending == f->fail_p)
        return cz_fail(ei, CZ_EGPU, "fake fault in partition %u", f->fail_p);
    return CZ_OK;
}
static int fk_finish(cz_groth16_proof *proof, void *pending, void *ctx, cz_part_times *t,
                     cz_errinfo *ei) {
    (void)ctx, (void)t, (void)ei;
    memset(proof, 0, sizeof *proof);
    proof->curve = CZ_CURVE_BN254;
    memset(&proof->u.bn254.a, (int)*(uint32_t *)pending, 8);
    return CZ_OK;
}
static void fk_free(void *p, void *ctx) {
    (void)ctx;
    free(p);
}
static int fk_verify(void *ctx, const cz_groth16_proof *proofs, uint32_t nparts, cz_errinfo *ei) {
    (void)ctx;
    for (uint32_t p = 0; p < nparts; p++)
        for (size_t i = 0; i < 8; i++)
            if (((const uint8_t *)&proofs[p].u.bn254.a)[i] != p)
                return cz_fail(ei, CZ_EVERIFY, "fake: partition %u byte %zu", p, i);
    return CZ_OK;
}
static const cz_workload_ops fk_ops = {.name = "fake",
                                       .synthesize = fk_synth,
                                       .prepare = fk_prepare,
                                       .compute = fk_compute,
                                       .finish = fk_finish,
                                       .part_free = fk_free,
                                       .verify = fk_verify,
                                       .destroy = free};

static void submit_fake(cz_engine *e, const char *key, uint32_t nparts, uint32_t fail_p,
                        int gated) {
    fake *f = calloc(1, sizeof *f);
    cz_errinfo ei;
    CZ_ASSERT(f != NULL);
    f->fail_p = fail_p;
    f->gated = gated;
    cz_workload wl = {&fk_ops, f, nparts, CZ_KIND_OTHER, 4096, 1024, {0}};
    CHECK(cz_engine_submit(NULL, e, key, CZ_PRIO_HIGH, &wl, &ei) == CZ_OK);
}

static void *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    void *buf = NULL;
    long n;
    if (f == NULL)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        buf = malloc((size_t)n + 1);
        if (buf != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
            free(buf);
            buf = NULL;
        }
        *len = (size_t)n;
    }
    fclose(f);
    return buf;
}

/* ---- /status against the stats ---- */

static uint64_t ju(json_t *root, const char *path) {
    /* path "a.b.c" of objects ending in an integer */
    char buf[128], *save = NULL;
    json_t *v = root;
    snprintf(buf, sizeof buf, "%s", path);
    for (char *tok = strtok_r(buf, ".", &save); tok != NULL; tok = strtok_r(NULL, ".", &save))
        v = json_object_get(v, tok);
    if (!json_is_integer(v)) {
        fprintf(stderr, "status: %s is not an integer\n", path);
        CHECK(0);
        return UINT64_MAX;
    }
    return (uint64_t)json_integer_value(v);
}

/* Checks the document against stats read after it (the engine is idle, or only uptime and
 * running work may differ: `settled` says whether every number must match). */
static void check_status(const char *text, cz_engine *e, cz_srs *srs, int njobs_expected) {
    json_error_t jerr;
    json_t *root = json_loads(text, 0, &jerr);
    cz_engine_stats st;
    cz_srs_stats ss;
    CHECK(root != NULL);
    if (root == NULL) {
        fprintf(stderr, "status JSON: %s (line %d)\n", jerr.text, jerr.line);
        return;
    }
    cz_engine_stats_get(&st, e);
    cz_srs_stats_get(&ss, srs);
    CHECK_EQ_INT(ju(root, "memory.total_bytes"), st.budget.total);
    CHECK_EQ_INT(ju(root, "memory.used_bytes"), st.budget.used);
    CHECK_EQ_INT(ju(root, "memory.available_bytes"), st.budget.total - st.budget.used);
    CHECK_EQ_INT(ju(root, "memory.peak_bytes"), st.budget.peak);
    CHECK_EQ_INT(ju(root, "memory.waiting_bytes"), st.budget.waiting_bytes);
    CHECK_EQ_INT(ju(root, "memory.waiting_requests"), st.budget.nwaiting);
    CHECK_EQ_INT(ju(root, "memory.granted"), st.budget.ngranted);
    CHECK_EQ_INT(ju(root, "memory.refused"), st.budget.nrefused);
    CHECK_EQ_INT(ju(root, "queue.queued.critical"), st.sched.queued[CZ_PRIO_CRITICAL]);
    CHECK_EQ_INT(ju(root, "queue.queued.high"), st.sched.queued[CZ_PRIO_HIGH]);
    CHECK_EQ_INT(ju(root, "queue.queued.normal"), st.sched.queued[CZ_PRIO_NORMAL]);
    CHECK_EQ_INT(ju(root, "queue.queued.low"), st.sched.queued[CZ_PRIO_LOW]);
    CHECK_EQ_INT(ju(root, "queue.running"), st.sched.running);
    CHECK_EQ_INT(ju(root, "queue.retained"), st.sched.retained);
    CHECK_EQ_INT(ju(root, "counters.total_submitted"), st.sched.submitted);
    CHECK_EQ_INT(ju(root, "counters.total_completed"), st.sched.completed);
    CHECK_EQ_INT(ju(root, "counters.total_failed"), st.sched.failed);
    CHECK_EQ_INT(ju(root, "counters.total_cancelled"), st.sched.cancelled);
    CHECK_EQ_INT(ju(root, "counters.partitions_done"), st.parts_done);
    CHECK_EQ_INT(ju(root, "counters.partitions_failed"), st.parts_failed);
    CHECK_EQ_INT(ju(root, "counters.partitions_skipped"), st.parts_skipped);
    CHECK_EQ_INT(ju(root, "pipeline.synthesis_queue"), st.synth_queue);
    CHECK_EQ_INT(ju(root, "srs.keys_loaded"), ss.nloaded);
    CHECK_EQ_INT(ju(root, "srs.keys_referenced"), ss.nreferenced);
    CHECK_EQ_INT(ju(root, "srs.bytes"), ss.bytes);
    CHECK_EQ_INT(ju(root, "srs.loads"), ss.nloads);
    CHECK_EQ_INT(ju(root, "srs.hits"), ss.nhits);
    CHECK_EQ_INT(ju(root, "srs.evictions"), ss.nevictions);
    CHECK_EQ_INT(ju(root, "srs.loading"), ss.nloading);
    CHECK_EQ_INT(ju(root, "srs.changed_on_disk"), ss.nchanged);
    /* the manager's loading settings (the daemon's srs.load_threads, srs.params_subgroup_check):
     * the test's manager has no pool and the check on */
    CHECK_EQ_INT(ju(root, "srs.load_threads"), 1);
    CHECK(json_is_true(json_object_get(json_object_get(root, "srs"), "params_subgroup_check")));
    {
        /* the installed tuning, as cz_tuning_get reads it now */
        cz_tuning tu;
        json_t *t = json_object_get(root, "tuning");
        cz_tuning_get(&tu);
        CHECK(json_is_boolean(json_object_get(t, "g2_msm_on_gpu")) &&
              json_is_true(json_object_get(t, "g2_msm_on_gpu")) == !tu.gpu_g2_on_cpu);
        CHECK_EQ_INT(ju(root, "tuning.upload_chunk_bytes"), tu.gpu_copy_whole ? 0
                                                            : tu.gpu_copy_chunk_bytes
                                                                ? tu.gpu_copy_chunk_bytes
                                                                : 64u << 20);
        CHECK_EQ_STR(json_string_value(json_object_get(t, "msm_split")),
                     tu.msm_split == CZ_SPLIT_ON    ? "on"
                     : tu.msm_split == CZ_SPLIT_OFF ? "off"
                                                    : "auto");
        CHECK_EQ_INT(ju(root, "tuning.msm_window_bits"), tu.gpu_msm_window_bits);
    }
    double up = json_real_value(json_object_get(root, "uptime_secs"));
    CHECK(up > 0 && up <= st.uptime_ms / 1000.0 * (1 + 1e-9));
    json_t *devs = json_object_get(root, "devices");
    CHECK(json_is_array(devs) && (int)json_array_size(devs) == st.ndevices);
    for (size_t i = 0; i < json_array_size(devs) && (int)i < st.ndevices; i++) {
        json_t *d = json_array_get(devs, i);
        CHECK_EQ_INT(ju(d, "slot"), i);
        /* the CPU backend: index -1, "cpu", no device memory; the engine's worker count */
        CHECK(json_integer_value(json_object_get(d, "index")) == st.device[i] &&
              st.device[i] == -1);
        CHECK(json_is_string(json_object_get(d, "name")) &&
              strcmp(json_string_value(json_object_get(d, "name")), "cpu") == 0);
        CHECK(ju(d, "workers") == (uint64_t)st.workers_per_device && st.workers_per_device > 0);
        CHECK(ju(d, "memory_total_bytes") == 0 && json_is_boolean(json_object_get(d, "busy")));
        CHECK(fabs(json_real_value(json_object_get(d, "busy_ms")) - st.busy_ms[i]) <=
              1e-9 * st.busy_ms[i]);
        CHECK(json_is_true(json_object_get(d, "in_service")) &&
              json_is_null(json_object_get(d, "out_of_service_reason")));
    }
    /* jobs: counts agree with the partition arrays and, summed, with the engine's totals */
    json_t *jobs = json_object_get(root, "jobs");
    uint64_t done = 0, failed = 0, skipped = 0, prev_seq = 0;
    CHECK(json_is_array(jobs) && (int)json_array_size(jobs) == njobs_expected);
    for (size_t i = 0; i < json_array_size(jobs); i++) {
        json_t *j = json_array_get(jobs, i), *parts = json_object_get(j, "partitions");
        const char *key = json_string_value(json_object_get(j, "job_id"));
        const char *state = json_string_value(json_object_get(j, "state"));
        uint64_t n[4] = {0, 0, 0, 0};
        cz_job *h = NULL;
        CHECK(key != NULL && state != NULL && json_is_array(parts));
        if (key == NULL || state == NULL || !json_is_array(parts))
            continue;
        CHECK(ju(j, "seq") > prev_seq);
        prev_seq = ju(j, "seq");
        CHECK_ERR(cz_sched_find(&h, cz_engine_sched(e), key, NULL), CZ_OK);
        if (h != NULL) {
            CHECK_EQ_STR(state, cz_job_state_name(cz_job_state_get(h)));
            CHECK_EQ_INT(ju(j, "total_partitions"), cz_job_nparts(h));
            CHECK_EQ_INT(ju(j, "seq"), cz_job_seq(h));
            CHECK_EQ_STR(json_string_value(json_object_get(j, "priority")),
                         cz_priority_name(cz_job_priority(h)));
            cz_job_unref(h);
        }
        CHECK_EQ_INT(json_array_size(parts), ju(j, "total_partitions"));
        for (size_t p = 0; p < json_array_size(parts); p++) {
            const char *ps = json_string_value(json_array_get(parts, p));
            int k = ps == NULL                   ? -1
                    : strcmp(ps, "pending") == 0 ? 0
                    : strcmp(ps, "done") == 0    ? 1
                    : strcmp(ps, "failed") == 0  ? 2
                    : strcmp(ps, "skipped") == 0 ? 3
                                                 : -1;
            CHECK(k >= 0);
            if (k >= 0)
                n[k]++;
        }
        CHECK(ju(j, "partitions_pending") == n[0] && ju(j, "partitions_done") == n[1]);
        CHECK(ju(j, "partitions_failed") == n[2] && ju(j, "partitions_skipped") == n[3]);
        done += n[1];
        failed += n[2];
        skipped += n[3];
        if (strcmp(key, "fail3") == 0) {
            CHECK_EQ_STR(state, "failed");
            CHECK_EQ_STR(json_string_value(json_array_get(parts, 1)), "failed");
        }
    }
    CHECK(done == st.parts_done && failed == st.parts_failed && skipped == st.parts_skipped);
    json_decref(root);
}

/* ---- /metrics: exposition format and values ---- */

typedef struct sample {
    char name[96], labels[96];
    double v;
} sample;

static int metric_name_ok(const char *s, size_t n) {
    if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_' || s[0] == ':'))
        return 0;
    for (size_t i = 1; i < n; i++)
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == ':'))
            return 0;
    return 1;
}

/* Labels `a="x",b="y"`: names [a-zA-Z_][a-zA-Z0-9_]*, values quoted without raw newlines. */
static int labels_ok(const char *s) {
    while (*s) {
        const char *n = s;
        if (!(isalpha((unsigned char)*s) || *s == '_'))
            return 0;
        while (isalnum((unsigned char)*s) || *s == '_')
            s++;
        if (s == n || *s++ != '=' || *s++ != '"')
            return 0;
        while (*s && *s != '"')
            s += *s == '\\' && s[1] ? 2 : 1;
        if (*s++ != '"')
            return 0;
        if (*s == ',')
            s++;
        else if (*s)
            return 0;
    }
    return 1;
}

/* Parses the page; returns the number of samples (or -1 on a format error, reported). */
static int parse_metrics(sample *out, int cap, const char *text) {
    char typed[64][96], helped[64][96];
    int ntyped = 0, nhelped = 0, n = 0;
    char *copy = strdup(text), *save = NULL;
    int bad = 0;
    CZ_ASSERT(copy != NULL);
    CHECK(strlen(text) > 0 && text[strlen(text) - 1] == '\n');
    for (char *line = strtok_r(copy, "\n", &save); line != NULL && !bad;
         line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "# HELP ", 7) == 0 || strncmp(line, "# TYPE ", 7) == 0) {
            const char *name = line + 7, *sp = strchr(name, ' ');
            if (sp == NULL || !metric_name_ok(name, (size_t)(sp - name)) || ntyped >= 64) {
                bad = 1;
                break;
            }
            size_t nl = (size_t)(sp - name);
            if (line[2] == 'T') {
                if (strcmp(sp + 1, "counter") != 0 && strcmp(sp + 1, "gauge") != 0)
                    bad = 1;
                if (strcmp(sp + 1, "counter") == 0 &&
                    (nl < 6 || strncmp(name + nl - 6, "_total", 6) != 0))
                    bad = 1;
                for (int i = 0; i < ntyped; i++)
                    if (strlen(typed[i]) == nl && strncmp(typed[i], name, nl) == 0)
                        bad = 1; /* TYPE twice */
                snprintf(typed[ntyped++], sizeof typed[0], "%.*s", (int)nl, name);
            } else {
                snprintf(helped[nhelped++], sizeof helped[0], "%.*s", (int)nl, name);
            }
            continue;
        }
        if (line[0] == '#') {
            bad = 1;
            break;
        }
        /* sample: name[{labels}] value */
        char *sp = strrchr(line, ' '), *br = strchr(line, '{'), *end;
        if (sp == NULL || n >= cap) {
            bad = 1;
            break;
        }
        size_t nl = (size_t)((br != NULL && br < sp ? br : sp) - line);
        if (!metric_name_ok(line, nl) || nl >= sizeof out[n].name) {
            bad = 1;
            break;
        }
        snprintf(out[n].name, sizeof out[n].name, "%.*s", (int)nl, line);
        out[n].labels[0] = '\0';
        if (br != NULL && br < sp) {
            if (sp[-1] != '}' || (size_t)(sp - br - 2) >= sizeof out[n].labels) {
                bad = 1;
                break;
            }
            snprintf(out[n].labels, sizeof out[n].labels, "%.*s", (int)(sp - br - 2), br + 1);
            if (!labels_ok(out[n].labels))
                bad = 1;
        }
        out[n].v = strtod(sp + 1, &end);
        if (*end != '\0' || end == sp + 1)
            bad = 1;
        int seen_type = 0, seen_help = 0;
        for (int i = 0; i < ntyped; i++)
            seen_type |= strcmp(typed[i], out[n].name) == 0;
        for (int i = 0; i < nhelped; i++)
            seen_help |= strcmp(helped[i], out[n].name) == 0;
        if (!seen_type || !seen_help)
            bad = 1;
        if (bad)
            fprintf(stderr, "metrics: bad sample line '%s'\n", line);
        n++;
    }
    free(copy);
    return bad ? -1 : n;
}

static double get(const sample *s, int n, const char *name, const char *labels) {
    for (int i = 0; i < n; i++)
        if (strcmp(s[i].name, name) == 0 && strcmp(s[i].labels, labels) == 0)
            return s[i].v;
    fprintf(stderr, "metrics: no sample %s{%s}\n", name, labels);
    CHECK(0);
    return NAN;
}

static void check_metrics(const char *text, cz_engine *e, cz_srs *srs) {
    sample s[128];
    int n = parse_metrics(s, 128, text);
    cz_engine_stats st;
    CHECK(n > 0);
    cz_srs_stats ss;
    char lab[80];
    if (n < 0)
        return;
    cz_engine_stats_get(&st, e);
    cz_srs_stats_get(&ss, srs);
#define EQ(name, want) CHECK(get(s, n, name, "") == (double)(want))
    EQ("cuzk_proofs_submitted_total", st.sched.submitted);
    EQ("cuzk_proofs_completed_total", st.sched.completed);
    EQ("cuzk_proofs_failed_total", st.sched.failed);
    EQ("cuzk_proofs_cancelled_total", st.sched.cancelled);
    EQ("cuzk_proofs_pruned_total", st.sched.pruned);
    EQ("cuzk_proofs_retained", st.sched.retained);
    EQ("cuzk_running_jobs", st.sched.running);
    EQ("cuzk_partitions_done_total", st.parts_done);
    EQ("cuzk_partitions_failed_total", st.parts_failed);
    EQ("cuzk_partitions_skipped_total", st.parts_skipped);
    EQ("cuzk_budget_total_bytes", st.budget.total);
    EQ("cuzk_budget_used_bytes", st.budget.used);
    EQ("cuzk_budget_peak_bytes", st.budget.peak);
    EQ("cuzk_budget_waiting_bytes", st.budget.waiting_bytes);
    EQ("cuzk_budget_waiting_requests", st.budget.nwaiting);
    EQ("cuzk_budget_granted_total", st.budget.ngranted);
    EQ("cuzk_budget_refused_total", st.budget.nrefused);
    EQ("cuzk_gpu_devices", st.ndevices);
    EQ("cuzk_pipeline_partitions_ahead_limit", st.ahead_limit);
    EQ("cuzk_srs_keys_loaded", ss.nloaded);
    EQ("cuzk_srs_keys_referenced", ss.nreferenced);
    EQ("cuzk_srs_bytes", ss.bytes);
    EQ("cuzk_srs_loads_total", ss.nloads);
    EQ("cuzk_srs_hits_total", ss.nhits);
    EQ("cuzk_srs_evictions_total", ss.nevictions);
    EQ("cuzk_srs_keys_loading", ss.nloading);
    EQ("cuzk_srs_changed_on_disk_total", ss.nchanged);
#undef EQ
    static const char *const prio[CZ_PRIO_COUNT] = {"low", "normal", "high", "critical"};
    for (int p = 0; p < CZ_PRIO_COUNT; p++) {
        snprintf(lab, sizeof lab, "priority=\"%s\"", prio[p]);
        CHECK(get(s, n, "cuzk_queue_depth", lab) == (double)st.sched.queued[p]);
    }
    CHECK(get(s, n, "cuzk_pipeline_queue_partitions", "stage=\"synthesis\"") ==
          (double)st.synth_queue);
    for (int i = 0; i < st.ndevices; i++) {
        snprintf(lab, sizeof lab, "device=\"%d\"", i);
        CHECK(fabs(get(s, n, "cuzk_gpu_busy_seconds_total", lab) - st.busy_ms[i] / 1000.0) < 1e-6);
        double busy = get(s, n, "cuzk_gpu_busy", lab);
        CHECK(busy == 0 || busy == 1);
        snprintf(lab, sizeof lab, "device=\"%d\",index=\"-1\",name=\"cpu\"", i);
        CHECK(get(s, n, "cuzk_gpu_info", lab) == 1);
    }
    double up = get(s, n, "cuzk_uptime_seconds", "");
    CHECK(up > 0 && up <= st.uptime_ms / 1000.0 + 0.001);
}

/* ---- a tiny HTTP/1.0 client ---- */

/* Sends "METHOD path", returns the status code and the body (malloc'd) in *body. */
static int http_req_head(char **body, char **head, int port, const char *method, const char *path) {
    struct sockaddr_in a;
    char req[256], *buf = NULL;
    size_t len = 0, cap = 0;
    int fd = socket(AF_INET, SOCK_STREAM, 0), code = -1;
    struct timeval tv = {5, 0}; /* a hung server fails the test instead of hanging it */
    *body = NULL;
    if (head != NULL)
        *head = NULL;
    if (fd < 0)
        return -1;
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0)
        goto out;
    int rl =
        snprintf(req, sizeof req, "%s %s HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n",
                 method, path);
    if (write(fd, req, (size_t)rl) != rl)
        goto out;
    for (;;) {
        if (cap - len < 4096) {
            char *nb = realloc(buf, cap + 65536);
            if (nb == NULL)
                goto out;
            buf = nb;
            cap += 65536;
        }
        ssize_t r = read(fd, buf + len, cap - len - 1);
        if (r <= 0)
            break;
        len += (size_t)r;
    }
    if (buf == NULL)
        goto out;
    buf[len] = '\0';
    if (sscanf(buf, "HTTP/1.%*d %d", &code) != 1)
        code = -1;
    char *sep = strstr(buf, "\r\n\r\n");
    if (sep != NULL)
        *body = strdup(sep + 4);
    if (sep != NULL && head != NULL)
        *head = strndup(buf, (size_t)(sep - buf) + 2);
    if (strstr(buf, "Content-Type: ") == NULL && strstr(buf, "Content-type: ") == NULL &&
        strstr(buf, "content-type: ") == NULL)
        code = -2;
out:
    free(buf);
    close(fd);
    return code;
}

static int http_req(char **body, int port, const char *method, const char *path) {
    return http_req_head(body, NULL, port, method, path);
}

static void test_http(void) {
    cz_engine_config cfg;
    cz_engine *e = NULL;
    cz_srs *srs = NULL;
    cz_http *h = NULL, *h2 = NULL;
    cz_errinfo ei;
    size_t wlen = 0;
    void *wt = read_file("examples/mulchain/mulchain.wtns", &wlen);
    char key[32], *doc, *body = NULL;
    int njobs = 0;
    CHECK(wt != NULL);
    memset(&cfg, 0, sizeof cfg);
    cfg.ndevices = 0;
    cfg.partition_workers = 2;
    cfg.synthesis_threads = 1;
    cfg.gpu_threads = 1;
    cz_budget_config bc = {256u << 20, 0};
    cz_budget *budget = NULL;
    CHECK_ERR(cz_budget_create(&budget, &bc, &ei), CZ_OK);
    cfg.shared_budget = budget; /* the SRS manager's keys outlive the engine */
    CHECK_ERR(cz_engine_create(&e, &cfg, &ei), CZ_OK);
    cz_srs_config sc = {cz_engine_budget(e), NULL, NULL, NULL, 1};
    CHECK_ERR(cz_srs_create(&srs, &sc, &ei), CZ_OK);

    /* a listener from the start: pages while nothing ran */
    CHECK_ERR(cz_http_start(&h, "127.0.0.1:0", NULL, e, srs, &ei), CZ_OK);
    CHECK(h != NULL && cz_http_port(h) > 0);
    if (h != NULL) {
        /* the address bound, with the port the system chose */
        char want[64];
        snprintf(want, sizeof want, "127.0.0.1:%d", cz_http_port(h));
        CHECK_EQ_STR(cz_http_address(h), want);
    }
    {
        /* a tuning other than the defaults shows as installed (the later pages: the defaults) */
        cz_tuning tu = {0};
        tu.gpu_g2_on_cpu = 1;
        tu.gpu_copy_chunk_bytes = 16u << 20;
        tu.msm_split = CZ_SPLIT_ON;
        tu.gpu_msm_window_bits = 10;
        CHECK_ERR(cz_tuning_set(&tu, &ei), CZ_OK);
        doc = cz_http_status_json(e, srs);
        CHECK(doc != NULL);
        check_status(doc, e, srs, 0);
        free(doc);
        CHECK_ERR(cz_tuning_set(NULL, &ei), CZ_OK);
    }
    doc = cz_http_status_json(e, srs);
    CHECK(doc != NULL);
    check_status(doc, e, srs, 0);
    free(doc);

    /* two real zkey jobs, one fake job failing in partition 1 of 3 */
    for (int i = 0; i < 2; i++) {
        cz_srs_key *k = NULL;
        cz_workload wl;
        CHECK_ERR(cz_srs_acquire(&k, srs, "examples/mulchain/mulchain.zkey", NULL, &ei), CZ_OK);
        CHECK_ERR(cz_workload_zkey(&wl, k, wt, wlen, "mulchain.wtns", NULL, &ei), CZ_OK);
        snprintf(key, sizeof key, "zkey%d", i);
        CHECK_ERR(cz_engine_submit(NULL, e, key, CZ_PRIO_NORMAL, &wl, &ei), CZ_OK);
        njobs++;
    }
    submit_fake(e, "fail3", 3, 1, 0);
    njobs++;
    CHECK_EQ_INT(engine_test_await(e, "zkey0"), CZ_JOB_DONE);
    CHECK_EQ_INT(engine_test_await(e, "zkey1"), CZ_JOB_DONE);
    CHECK_EQ_INT(engine_test_await(e, "fail3"), CZ_JOB_FAILED);
    /* A finished job drops its key reference on the engine's deallocation thread, just after it
     * is DONE: wait for that, so the documents below and the stats read after them agree. */
    for (int i = 0; i < 10000; i++) {
        cz_srs_stats ss;
        cz_srs_stats_get(&ss, srs);
        if (ss.nreferenced == 0)
            break;
        usleep(1000);
    }

    /* a job held in synthesis is listed running, its partition pending */
    pthread_mutex_lock(&g_m);
    g_open = 0;
    pthread_mutex_unlock(&g_m);
    submit_fake(e, "held", 1, UINT32_MAX, 1);
    njobs++;
    for (int i = 0; i < 10000; i++) {
        pthread_mutex_lock(&g_m);
        int w = g_waiting;
        pthread_mutex_unlock(&g_m);
        if (w == 1)
            break;
        usleep(1000);
    }
    doc = cz_http_status_json(e, srs);
    CHECK(doc != NULL);
    check_status(doc, e, srs, njobs);
    json_t *root = json_loads(doc, 0, NULL);
    json_t *held = json_array_get(json_object_get(root, "jobs"), 3);
    CHECK_EQ_STR(json_string_value(json_object_get(held, "job_id")), "held");
    CHECK_EQ_STR(json_string_value(json_object_get(held, "state")), "running");
    CHECK_EQ_INT(ju(held, "partitions_pending"), 1);
    CHECK_EQ_INT(ju(root, "queue.running"), 1);
    CHECK(ju(root, "memory.used_bytes") >= 4096); /* the held partition's reservation */
    json_decref(root);
    free(doc);
    pthread_mutex_lock(&g_m);
    g_open = 1;
    pthread_cond_broadcast(&g_c);
    pthread_mutex_unlock(&g_m);
    CHECK_EQ_INT(engine_test_await(e, "held"), CZ_JOB_DONE);

    /* idle: every number settled; the counters are the jobs this test submitted */
    doc = cz_http_status_json(e, srs);
    CHECK(doc != NULL);
    check_status(doc, e, srs, njobs);
    root = json_loads(doc, 0, NULL);
    CHECK(ju(root, "counters.total_submitted") == 4 && ju(root, "counters.total_completed") == 3);
    CHECK(ju(root, "counters.total_failed") == 1 && ju(root, "srs.loads") == 1);
    CHECK(ju(root, "srs.hits") == 1 && ju(root, "srs.keys_loaded") == 1);
    json_decref(root);
    free(doc);
    doc = cz_http_metrics_text(e, srs);
    CHECK(doc != NULL);
    if (doc != NULL)
        check_metrics(doc, e, srs);
    free(doc);

    /* through the socket */
    int port = cz_http_port(h);
    CHECK_EQ_INT(http_req(&body, port, "GET", "/status"), 200);
    if (body != NULL)
        check_status(body, e, srs, njobs);
    free(body);
    CHECK_EQ_INT(http_req(&body, port, "GET", "/metrics"), 200);
    if (body != NULL)
        check_metrics(body, e, srs);
    free(body);
    CHECK_EQ_INT(http_req(&body, port, "GET", "/nope"), 404);
    free(body);
    CHECK_EQ_INT(http_req(&body, port, "GET", "/status/x"), 404);
    free(body);
    CHECK_EQ_INT(http_req(&body, port, "POST", "/status"), 405);
    free(body);
    CHECK_EQ_INT(http_req(&body, port, "DELETE", "/metrics"), 405);
    free(body);

    /* addresses */
    char addr[32];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    CHECK(cz_http_start(&h2, addr, NULL, e, srs, &ei) == CZ_EIO && h2 == NULL);
    CHECK_ERR(cz_http_start(&h2, "127.0.0.1", NULL, e, srs, &ei), CZ_EINVAL);
    CHECK_ERR(cz_http_start(&h2, "127.0.0.1:70000", NULL, e, srs, &ei), CZ_EINVAL);
    CHECK_ERR(cz_http_start(&h2, "127.0.0.1:8x", NULL, e, srs, &ei), CZ_EINVAL);
    CHECK_ERR(cz_http_start(&h2, "[::1:0", NULL, e, srs, &ei), CZ_EINVAL);
    CHECK_ERR(cz_http_start(&h2, "no.such.host.invalid:0", NULL, e, srs, &ei), CZ_EINVAL);
    /* a server without an SRS manager: no srs metrics, "srs": null */
    CHECK_ERR(cz_http_start(&h2, ":0", NULL, e, NULL, &ei), CZ_OK);
    if (h2 != NULL) {
        char want[64]; /* ":port" is every IPv4 address */
        snprintf(want, sizeof want, "0.0.0.0:%d", cz_http_port(h2));
        CHECK_EQ_STR(cz_http_address(h2), want);
        CHECK_EQ_INT(http_req(&body, cz_http_port(h2), "GET", "/status"), 200);
        root = body != NULL ? json_loads(body, 0, NULL) : NULL;
        CHECK(root != NULL && json_is_null(json_object_get(root, "srs")));
        json_decref(root);
        free(body);
        CHECK_EQ_INT(http_req(&body, cz_http_port(h2), "GET", "/metrics"), 200);
        CHECK(body != NULL && strstr(body, "cuzk_srs_") == NULL &&
              strstr(body, "cuzk_proofs_completed_total 3\n") != NULL);
        free(body);
    }
    cz_http_stop(h2);
    cz_http_stop(h);
    cz_http_stop(NULL);
    cz_engine_destroy(e);
    cz_srs_destroy(srs);
    cz_budget_destroy(budget);
    free(wt);
}

/* ------------------------------------------------------------------------------------------
 * Slow clients, the request time limit and CORS
 * ------------------------------------------------------------------------------------------ */

static uint64_t ms_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* A small CPU engine with nothing to do (the pages need one). */
static cz_engine *idle_engine(void) {
    cz_engine_config cfg;
    cz_engine *e = NULL;
    cz_errinfo ei;
    memset(&cfg, 0, sizeof cfg);
    cfg.partition_workers = 1;
    cfg.synthesis_threads = 1;
    cfg.gpu_threads = 1;
    cfg.budget.total_bytes = 64u << 20;
    CHECK_ERR(cz_engine_create(&e, &cfg, &ei), CZ_OK);
    return e;
}

/* A loopback connection that has sent the start of a request; -1 on failure. */
static int trickle_open(int port) {
    struct sockaddr_in a;
    static const char start[] = "GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0 ||
        send(fd, start, sizeof start - 1, MSG_NOSIGNAL) != (ssize_t)(sizeof start - 1)) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Whether the server has closed fd (EOF or reset; nothing else is ever sent on it). */
static int trickle_closed(int fd) {
    char b[256];
    ssize_t r = recv(fd, b, sizeof b, MSG_DONTWAIT);
    return r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

enum { NSLOW = 64, DEADLINE_MS = 1500, SLACK_MS = 1000 };

/* 64 clients each sending one byte of a header every 100-200 ms, for longer than the request
 * time limit, while /status is polled: every poll is answered within a bound (the tricklers
 * hold every connection slot, and a new one evicts the oldest), and every trickler is closed
 * by the deadline (or earlier, evicted), although it never stopped sending. */
static void test_slow_clients(void) {
    cz_engine *e = idle_engine();
    cz_http *h = NULL;
    cz_errinfo ei;
    cz_http_opts o = {.request_timeout_ms = DEADLINE_MS, .max_connections = NSLOW};
    int fd[NSLOW];
    uint64_t opened[NSLOW], next[NSLOW], closed_at[NSLOW];
    if (e == NULL)
        return;
    CHECK_ERR(cz_http_start(&h, "127.0.0.1:0", &o, e, NULL, &ei), CZ_OK);
    if (h == NULL) {
        cz_engine_destroy(e);
        return;
    }
    int port = cz_http_port(h), nopen = 0, npolls = 0, slowest = 0;
    for (int i = 0; i < NSLOW; i++) {
        fd[i] = trickle_open(port);
        opened[i] = next[i] = ms_now();
        closed_at[i] = 0;
        nopen += fd[i] >= 0;
    }
    CHECK_EQ_INT(nopen, NSLOW);
    uint64_t t0 = ms_now(), last_poll = 0;
    /* bounded: the deadline and its slack, then every trickler must have been closed */
    while (ms_now() - t0 < DEADLINE_MS + SLACK_MS) {
        uint64_t now = ms_now();
        for (int i = 0; i < NSLOW; i++) {
            if (fd[i] < 0 || closed_at[i] != 0)
                continue;
            if (trickle_closed(fd[i])) {
                closed_at[i] = now;
            } else if (now >= next[i]) {
                if (send(fd[i], "a", 1, MSG_NOSIGNAL) != 1)
                    closed_at[i] = now;
                next[i] = now + 100 + (uint64_t)(i * 37 % 101); /* 100-200 ms, staggered */
            }
        }
        if (now - last_poll >= 100) {
            char *body = NULL;
            uint64_t q = ms_now();
            CHECK_EQ_INT(http_req(&body, port, "GET", "/status"), 200);
            int took = (int)(ms_now() - q);
            if (took > slowest)
                slowest = took;
            CHECK(body != NULL && strstr(body, "\"uptime_secs\"") != NULL);
            free(body);
            npolls++;
            last_poll = ms_now();
        }
        usleep(5000);
    }
    /* /status never waited for a slot; 1 s is far beyond a page's few milliseconds, for CI */
    CHECK(npolls >= 10);
    if (!CHECK(slowest < 1000))
        fprintf(stderr, "slowest /status: %d ms\n", slowest);
    int nclosed = 0, late = 0;
    for (int i = 0; i < NSLOW; i++) {
        if (closed_at[i] != 0) {
            nclosed++;
            late += closed_at[i] - opened[i] > DEADLINE_MS + SLACK_MS - 100;
        }
        if (fd[i] >= 0)
            close(fd[i]);
    }
    CHECK_EQ_INT(nclosed, NSLOW);
    CHECK_EQ_INT(late, 0);
    uint64_t expired, evicted;
    cz_http_conn_stats(h, &expired, &evicted);
    CHECK(expired >= 1 && expired + evicted >= NSLOW);
    cz_http_stop(h);
    cz_engine_destroy(e);
}

/* One trickler alone (no eviction): closed at its deadline, not before, however it trickles;
 * a quick request on a fresh connection meanwhile is answered. */
static void test_deadline(void) {
    cz_engine *e = idle_engine();
    cz_http *h = NULL;
    cz_errinfo ei;
    cz_http_opts o = {.request_timeout_ms = 600};
    if (e == NULL)
        return;
    CHECK_ERR(cz_http_start(&h, "127.0.0.1:0", &o, e, NULL, &ei), CZ_OK);
    if (h == NULL) {
        cz_engine_destroy(e);
        return;
    }
    int port = cz_http_port(h), fd = trickle_open(port);
    uint64_t t0 = ms_now(), closed = 0;
    CHECK(fd >= 0);
    while (fd >= 0 && ms_now() - t0 < 600 + SLACK_MS) {
        if (trickle_closed(fd) || send(fd, "a", 1, MSG_NOSIGNAL) != 1) {
            closed = ms_now() - t0;
            break;
        }
        usleep(100 * 1000);
    }
    if (!CHECK(closed >= 550 && closed < 600 + SLACK_MS))
        fprintf(stderr, "trickler closed after %llu ms\n", (unsigned long long)closed);
    if (fd >= 0)
        close(fd);
    uint64_t expired, evicted;
    cz_http_conn_stats(h, &expired, &evicted);
    CHECK(expired == 1 && evicted == 0);
    cz_http_stop(h);
    cz_engine_destroy(e);
}

/* No Access-Control-Allow-Origin unless configured; then exactly the configured value; a
 * control character in it is refused. */
static void test_cors(void) {
    cz_engine *e = idle_engine();
    cz_http *h = NULL;
    cz_errinfo ei;
    char *body = NULL, *head = NULL;
    if (e == NULL)
        return;
    for (int k = 0; k < 3; k++) {
        cz_http_opts o = {.cors_origin = k == 0 ? NULL : k == 1 ? "" : "https://dash.example"};
        CHECK_ERR(cz_http_start(&h, "127.0.0.1:0", &o, e, NULL, &ei), CZ_OK);
        if (h == NULL)
            break;
        for (int p = 0; p < 2; p++) {
            CHECK_EQ_INT(
                http_req_head(&body, &head, cz_http_port(h), "GET", p ? "/metrics" : "/status"),
                200);
            CHECK(head != NULL);
            if (head != NULL && k < 2)
                CHECK(strstr(head, "Access-Control-Allow-Origin") == NULL);
            if (head != NULL && k == 2)
                CHECK(strstr(head, "\r\nAccess-Control-Allow-Origin: https://dash.example\r\n") !=
                      NULL);
            free(body);
            free(head);
        }
        cz_http_stop(h);
        h = NULL;
    }
    cz_http_opts bad = {.cors_origin = "x\r\nSet-Cookie: a=b"};
    CHECK_ERR(cz_http_start(&h, "127.0.0.1:0", &bad, e, NULL, &ei), CZ_EINVAL);
    CHECK(h == NULL);
    cz_engine_destroy(e);
}

/* The validator itself refuses malformed pages. */
static void test_validator(void) {
    static const char *const bad[] = {
        "x_total 1\n",                                             /* no HELP/TYPE */
        "# HELP a_total h\n# TYPE a_total counter\na_total one\n", /* value */
        "# HELP a h\n# TYPE a counter\na 1\n",                     /* counter not *_total */
        "# HELP 9a h\n# TYPE 9a gauge\n9a 1\n",                    /* name */
        "# HELP a h\n# TYPE a gauge\na{x=1} 1\n",                  /* unquoted label */
        "# HELP a h\n# TYPE a gauge\n# TYPE a gauge\na 1\n",       /* TYPE twice */
        "# HELP a h\n# TYPE a histogram\na 1\n",                   /* type we do not emit */
    };
    sample s[4];
    CHECK_EQ_INT(parse_metrics(s, 4, "# HELP a h\n# TYPE a gauge\na{x=\"1\",y=\"z\"} 2.5\n"), 1);
    CHECK(s[0].v == 2.5 && strcmp(s[0].labels, "x=\"1\",y=\"z\"") == 0);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_EQ_INT(parse_metrics(s, 4, bad[i]), -1);
}

static const test_case cases[] = {
    {"validator", test_validator}, {"http", test_http}, {"slow_clients", test_slow_clients},
    {"deadline", test_deadline},   {"cors", test_cors},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
