/*
 * The daemon's configuration (config.h): one table of key definitions drives the file loader,
 * the command-line setter and the writer, so a key's name, type, range, default text and comment
 * exist once. The TOML text itself is read by toml.c; this file decides what each value means.
 *
 * Value kinds: strings, integers in a range, byte sizes ("5GiB", "auto" where allowed, or an
 * integer of bytes), durations ("5m", "30s", or an integer of seconds), the device list, a list of
 * strings and the log level. Deprecated keys accept any value and only warn.
 *
 * Every apply step validates completely before it writes into the struct, so a failed
 * cz_daemon_config_set leaves the struct as it was; a failed load resets it to the defaults.
 */
#include "daemon/config.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cuzk/tuning.h"
#include "daemon/toml.h"

enum kind {
    K_STR,
    K_STR_EMPTY,
    K_INT,
    K_BOOL,
    K_SIZE,
    K_SIZE_AUTO,
    K_DUR,
    K_DEVICES,
    K_STRLIST,
    K_LEVEL,
    K_MODE,
    K_DEPR
};

typedef struct keydef {
    const char *table, *name;
    enum kind kind;
    size_t off;
    int64_t min, max;
    const char *doc; /* the comment written above the key; for K_DEPR why it is ignored */
} keydef;

typedef struct tabledef {
    const char *name, *doc;
} tabledef;

#define OFF(f) offsetof(cz_daemon_config, f)
#define GIB    (1ull << 30)

static const tabledef tables[] = {
    {"daemon", "Endpoints."},
    {"memory", "Host memory budget (every partition in flight and every loaded key is charged)."},
    {"gpus", "GPUs and their workers."},
    {"scheduler", "Jobs."},
    {"synthesis", "Witness and constraint synthesis on the CPU."},
    {"pipeline", "The proving pipeline."},
    {"srs", "Proving keys (SRS)."},
    {"logging", "Logs and the timeline."},
};

static const keydef keys[] = {
    {"daemon", "listen", K_STR, OFF(daemon.listen), 0, 0,
     "gRPC address: \"unix:///path\" or \"host:port\" (CLI: --listen)."},
    {"daemon", "socket_mode", K_MODE, OFF(daemon.socket_mode), 0, 0777,
     "Permissions of the Unix socket, an octal string (\"0660\": owner and group), whatever the "
     "umask."},
    {"daemon", "status_listen", K_STR_EMPTY, OFF(daemon.status_listen), 0, 0,
     "HTTP address of GET /status and /metrics, \"host:port\"; \"\" = off."},
    {"daemon", "status_cors_origin", K_STR_EMPTY, OFF(daemon.status_cors_origin), 0, 0,
     "Access-Control-Allow-Origin of the HTTP answers (\"https://dash.example\", \"*\"); \"\" = "
     "none."},
    {"daemon", "rpc_threads", K_INT, OFF(daemon.rpc_threads), 1, 1024,
     "Threads that run the slow RPCs (SubmitProof, Prove's submit, PreloadSRS: parsing, key "
     "loading); more such calls wait in line. A waiting AwaitProof or Prove holds none."},
    {"daemon", "state_dir", K_STR, OFF(daemon.state_dir), 0, 0,
     "The daemon's own files (synth-cache/: porep-synth keys; key-digests: the Filecoin keys' "
     "digests, remembered across restarts): made 0700 when missing; refused "
     "if a symlink, another user's, or group/other-writable (systemd: StateDirectory=cuzk)."},
    {"memory", "total_budget", K_SIZE_AUTO, OFF(memory.total_budget), 1 << 20, INT64_MAX,
     "Bytes for proving: \"auto\" (RAM minus safety_margin) or a size (\"200GiB\", \"500GB\")."},
    {"memory", "safety_margin", K_SIZE, OFF(memory.safety_margin), 0, INT64_MAX,
     "Kept free for everything else when total_budget is \"auto\"."},
    {"memory", "eviction_min_idle", K_DUR, OFF(memory.eviction_min_idle), 0, INT64_MAX,
     "Reserved (a warning when set): how long an unused key stays loaded (\"30s\", \"5m\")."},
    {"memory", "pinned_budget", K_DEPR, 0, 0, 0, "the budget is memory.total_budget"},
    {"memory", "working_memory_budget", K_DEPR, 0, 0, 0, "the budget is memory.total_budget"},
    {"gpus", "devices", K_DEVICES, OFF(gpus.devices), 0, 1023,
     "CUDA device indices, e.g. [0, 1] (each must exist); [] or \"auto\" = every visible GPU, "
     "the CPU backend when there is none; \"all\" = every visible GPU, at least one; \"none\" = "
     "the CPU backend."},
    {"gpus", "gpu_threads", K_INT, OFF(gpus.gpu_threads), 0, 4096,
     "CPU threads for the work beside the kernels (G2 MSM, preparation); 0 = all CPUs."},
    {"gpus", "gpu_workers_per_device", K_INT, OFF(gpus.gpu_workers_per_device), 1, 16,
     "GPU workers per device; 2 overlaps one worker's CPU part with the other's kernels."},
    {"gpus", "pinned_buffers", K_INT, OFF(gpus.pinned_buffers), 0, 1,
     "1 = the partitions' vectors in pinned host memory (uploads ~7x faster; the buffers pass "
     "from partition to partition, never pinned again: docs/engine.md); 0 = pageable."},
    {"gpus", "g2_msm_on_gpu", K_INT, OFF(gpus.g2_msm_on_gpu), 0, 1,
     "1 = keys keep their B2 bases on the GPU and the G2 MSM runs there; 0 = on the CPU "
     "(gpus.gpu_threads), beside the kernels."},
    {"gpus", "abc_on_gpu", K_INT, OFF(gpus.abc_on_gpu), 0, 1,
     "1 = a PoRep partition carries its witness alone, compact (its bits as bits), expanded on "
     "the GPU, and a, b, c are computed there from the circuit's matrices, resident (~6 GB for "
     "32 GiB; ~70 MB instead of 16.6 GB of host memory per partition in flight); 0 = on the CPU "
     "during synthesis."},
    {"gpus", "upload_chunk", K_SIZE, OFF(gpus.upload_chunk), 0, INT64_MAX,
     "Uploads go in pieces of this size, so small copies of the other worker never wait behind "
     "a whole partition; 0 = one piece."},
    {"scheduler", "job_retention", K_DUR, OFF(scheduler.job_retention), 1, INT64_MAX,
     "How long a finished job's status and proof can still be queried."},
    {"scheduler", "max_retained_jobs", K_INT, OFF(scheduler.max_retained_jobs), 1, 10000000,
     "At most this many finished jobs are kept."},
    {"scheduler", "max_batch_size", K_DEPR, 0, 0, 0, "no cross-sector batching"},
    {"scheduler", "max_batch_wait_ms", K_DEPR, 0, 0, 0, "no cross-sector batching"},
    {"scheduler", "sort_by_type", K_DEPR, 0, 0, 0, "unused (also in the original)"},
    {"synthesis", "threads", K_INT, OFF(synthesis.threads), 0, 4096,
     "Threads of the synthesis pool; 0 = all CPUs."},
    {"synthesis", "partition_workers", K_INT, OFF(synthesis.partition_workers), 1, 1024,
     "Partitions synthesized at once (each holds its witness and a, b, c until its GPU step)."},
    {"synthesis", "urgent_worker", K_INT, OFF(synthesis.urgent_worker), 0, 1,
     "1 = one more synthesis worker, for Critical jobs only (WinningPoSt), so they do not wait "
     "for a partition of another job to be synthesized; 0 = none."},
    {"pipeline", "finalizers", K_INT, OFF(pipeline.finalizers), 0, 1024,
     "Threads that finish partition proofs after the kernels; 0 = one per GPU worker."},
    {"pipeline", "enabled", K_DEPR, 0, 0, 0, "the engine always pipelines"},
    {"pipeline", "synthesis_lookahead", K_DEPR, 0, 0, 0, "the memory budget paces synthesis"},
    {"pipeline", "synthesis_concurrency", K_DEPR, 0, 0, 0, "use synthesis.partition_workers"},
    {"pipeline", "max_parallel_synthesis", K_DEPR, 0, 0, 0, "use synthesis.partition_workers"},
    {"pipeline", "slot_size", K_DEPR, 0, 0, 0, "no slotted mode"},
    {"pipeline", "max_gpu_queue_depth", K_INT, OFF(pipeline.max_gpu_queue_depth), -1, 1024,
     "Synthesized partitions that may wait for a GPU; synthesis waits beyond it (each holds its "
     "buffers); 0 = one per GPU worker, -1 = no limit (the memory budget alone)."},
    {"srs", "param_cache", K_STR, OFF(srs.param_cache), 0, 0, "Directory of the proving keys."},
    {"srs", "preload", K_STRLIST, OFF(srs.preload), 0, 1024,
     "Keys loaded at start-up (file names in param_cache, or absolute paths); others on demand."},
    {"srs", "allow_untrusted", K_BOOL, OFF(srs.allow_untrusted), 0, 1,
     "true = a Filecoin key whose digest is not the manifest's (a local test key made by `cuzk "
     "filecoin setup`) is used, with a warning in the log and in /status; false = it is refused. "
     "Proofs with such a key do not verify on chain."},
    {"srs", "load_threads", K_INT, OFF(srs.load_threads), 0, 4096,
     "Threads that read and decode a bellperson .params key while it loads; 0 = all CPUs."},
    {"srs", "params_subgroup_check", K_INT, OFF(srs.params_subgroup_check), 0, 1,
     "1 = every point of a .params key's proving sections is also checked for the subgroup as it "
     "loads: one or two multiplications by the curve's 64-bit parameter per point, about 10 "
     "CPU-hours for the 44 GiB PoRep key (docs/params.md); 0 = on the curve only, for keys whose "
     "digest matches Filecoin's manifest (the verifying key is always checked)."},
    {"logging", "level", K_LEVEL, OFF(logging.level), 0, 0,
     "error, warn, info, debug or trace (CLI: --log-level)."},
    {"logging", "timeline", K_STR_EMPTY, OFF(logging.timeline), 0, 0,
     "TIMELINE lines (docs/timeline.md): \"log\" = into the log, a path = appended there, "
     "\"\" = off."},
    {"logging", "msm_phases", K_BOOL, OFF(logging.msm_phases), 0, 1,
     "true = every GPU MSM writes the times of its phases (split, digits, sort, bounds, "
     "accumulation, combine, reduction) and its layout to standard error, the daemon's log, with a "
     "synchronisation after each phase (milliseconds a proof): for finding where a partition's "
     "time goes; false = none."},
    {"logging", "format", K_DEPR, 0, 0, 0, "one log format"},
};

#define NTABLES (sizeof tables / sizeof tables[0])
#define NKEYS   (sizeof keys / sizeof keys[0])

static void *field(cz_daemon_config *c, const keydef *k) {
    return (char *)c + k->off;
}
static const void *cfield(const cz_daemon_config *c, const keydef *k) {
    return (const char *)c + k->off;
}

static char *xstrdup(const char *s) {
    char *d = strdup(s);
    CZ_ASSERT(d);
    return d;
}

void cz_daemon_config_defaults(cz_daemon_config *c) {
    memset(c, 0, sizeof *c);
    c->daemon.listen = xstrdup("unix:///run/curio/cuzk.sock");
    c->daemon.socket_mode = 0660;
    c->daemon.status_listen = xstrdup("");
    c->daemon.status_cors_origin = xstrdup("");
    c->daemon.rpc_threads = 16;
    c->daemon.state_dir = xstrdup("/var/lib/cuzk");
    c->memory.total_budget = 0;
    c->memory.safety_margin = 5 * GIB;
    c->memory.eviction_min_idle = 5 * 60;
    c->gpus.ndevices = 0;
    c->gpus.gpu_threads = 0;
    c->gpus.pinned_buffers = 1;
    c->gpus.g2_msm_on_gpu = 1;
    c->gpus.abc_on_gpu = 1;
    c->gpus.upload_chunk = CZ_TUNING_COPY_CHUNK_DEFAULT;
    c->gpus.gpu_workers_per_device = 2;
    c->scheduler.job_retention = 10 * 60;
    c->scheduler.max_retained_jobs = 10000;
    c->synthesis.threads = 0;
    c->synthesis.partition_workers = 2;
    c->synthesis.urgent_worker = 1;
    c->pipeline.finalizers = 0;
    c->srs.param_cache = xstrdup("/data/zk/params");
    c->srs.preload = NULL;
    c->srs.npreload = 0;
    c->logging.level = CZ_LOG_LEVEL_INFO;
    c->logging.timeline = xstrdup("");
    c->logging.msm_phases = 0;
}

static void free_strlist(char **v, int n) {
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

void cz_daemon_config_free(cz_daemon_config *c) {
    if (!c)
        return;
    free(c->daemon.listen);
    free(c->daemon.status_listen);
    free(c->daemon.status_cors_origin);
    free(c->daemon.state_dir);
    free(c->srs.param_cache);
    free_strlist(c->srs.preload, c->srs.npreload);
    free(c->logging.timeline);
    if (c->where != NULL)
        free_strlist(c->where, (int)NKEYS);
    memset(c, 0, sizeof *c);
}

/* Notes where k was set (after it was applied); out of memory only loses the note. */
static void set_where(cz_daemon_config *c, const keydef *k, const char *where) {
    if (c->where == NULL && (c->where = calloc(NKEYS, sizeof *c->where)) == NULL)
        return;
    char **w = &c->where[k - keys];
    free(*w);
    *w = strdup(where);
}

/* ---- value parsing ---------------------------------------------------------------------- */

static const struct {
    const char *name;
    uint64_t mul;
} size_units[] = {
    {"TiB", 1ull << 40}, {"GiB", 1ull << 30},      {"MiB", 1ull << 20},
    {"KiB", 1ull << 10}, {"TB", 1000000000000ull}, {"GB", 1000000000ull},
    {"MB", 1000000ull},  {"KB", 1000ull},          {"B", 1},
};

static const struct {
    const char *name;
    uint64_t mul;
} dur_units[] = {{"d", 86400}, {"h", 3600}, {"m", 60}, {"s", 1}};

/* "<digits>[blanks]<unit>" with a unit from the table (case-insensitive) or none (mul 1). */
static int parse_with_unit(uint64_t *out, const char *s, int sizes) {
    const char *p = s;
    uint64_t x = 0;
    if (*p < '0' || *p > '9')
        return -1;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (x > (UINT64_MAX - 9) / 10)
            return -1;
        x = x * 10 + (uint64_t)(*p - '0');
    }
    while (*p == ' ')
        p++;
    uint64_t mul = 1;
    if (*p) {
        int found = 0;
        size_t n = sizes ? sizeof size_units / sizeof size_units[0]
                         : sizeof dur_units / sizeof dur_units[0];
        for (size_t i = 0; i < n && !found; i++) {
            const char *name = sizes ? size_units[i].name : dur_units[i].name;
            if (strcasecmp(p, name) == 0) {
                mul = sizes ? size_units[i].mul : dur_units[i].mul;
                found = 1;
            }
        }
        if (!found)
            return -1;
    }
    if (mul && x > UINT64_MAX / mul)
        return -1;
    *out = x * mul;
    return 0;
}

static int type_error(cz_errinfo *ei, const char *where, const keydef *k, const char *want,
                      const cz__toml_value *v) {
    return cz_fail(ei, CZ_EFORMAT, "%s: %s.%s must be %s, not a%s %s", where, k->table, k->name,
                   want, v->kind == CZ_TOML_INT || v->kind == CZ_TOML_ARRAY ? "n" : "",
                   cz__toml_kind_name(v->kind));
}

static int range_error(cz_errinfo *ei, const char *where, const keydef *k, const char *got) {
    return cz_fail(ei, CZ_ERANGE, "%s: %s.%s = %s is out of range [%lld, %lld]", where, k->table,
                   k->name, got, (long long)k->min, (long long)k->max);
}

/* An address: "unix:PATH" (when unix is allowed) or "host:port" with a port in 1..65535. */
static int check_addr(const char *s, int unix_ok, const char *where, const keydef *k,
                      cz_errinfo *ei) {
    if (strncmp(s, "unix:", 5) == 0) {
        if (unix_ok)
            return CZ_OK;
        return cz_fail(ei, CZ_EFORMAT, "%s: %s.%s = \"%.80s\": not a host:port address", where,
                       k->table, k->name, s);
    }
    const char *colon = strrchr(s, ':');
    if (colon == NULL || colon == s || colon[1] == '\0' ||
        strspn(colon + 1, "0123456789") != strlen(colon + 1))
        return cz_fail(ei, CZ_EFORMAT, "%s: %s.%s = \"%.80s\": not %shost:port", where, k->table,
                       k->name, s, unix_ok ? "unix:///path or " : "");
    if (strlen(colon + 1) > 5 || atol(colon + 1) < 1 || atol(colon + 1) > 65535)
        return cz_fail(ei, CZ_ERANGE,
                       "%s: %s.%s = \"%.80s\": port %.20s is out of range [1, 65535]", where,
                       k->table, k->name, s, colon + 1);
    return CZ_OK;
}

/* Validates v for k and stores it in c; c is untouched on failure. */
static int apply(cz_daemon_config *c, const keydef *k, const cz__toml_value *v, const char *where,
                 cz_errinfo *ei) {
    switch (k->kind) {
    case K_STR:
    case K_STR_EMPTY: {
        if (v->kind != CZ_TOML_STRING)
            return type_error(ei, where, k, "a string", v);
        if (k->kind == K_STR && !v->u.s[0])
            return cz_fail(ei, CZ_ERANGE, "%s: %s.%s must not be empty", where, k->table, k->name);
        if ((k->off == OFF(daemon.listen) || k->off == OFF(daemon.status_listen)) && v->u.s[0]) {
            int rc = check_addr(v->u.s, k->off == OFF(daemon.listen), where, k, ei);
            if (rc != CZ_OK)
                return rc;
        }
        char *s = strdup(v->u.s), **dst = field(c, k);
        if (!s)
            return cz_fail(ei, CZ_ENOMEM, "%s: out of memory", where);
        free(*dst);
        *dst = s;
        return CZ_OK;
    }
    case K_INT: {
        if (v->kind != CZ_TOML_INT)
            return type_error(ei, where, k, "an integer", v);
        if (v->u.i < k->min || v->u.i > k->max) {
            char got[32];
            snprintf(got, sizeof got, "%lld", (long long)v->u.i);
            return range_error(ei, where, k, got);
        }
        *(int *)field(c, k) = (int)v->u.i;
        return CZ_OK;
    }
    case K_BOOL:
        if (v->kind != CZ_TOML_BOOL)
            return type_error(ei, where, k, "true or false", v);
        *(int *)field(c, k) = v->u.b;
        return CZ_OK;
    case K_SIZE:
    case K_SIZE_AUTO:
    case K_DUR: {
        uint64_t x;
        char got[64];
        int sizes = k->kind != K_DUR;
        if (v->kind == CZ_TOML_INT) {
            if (v->u.i < 0) {
                snprintf(got, sizeof got, "%lld", (long long)v->u.i);
                return range_error(ei, where, k, got);
            }
            x = (uint64_t)v->u.i;
            snprintf(got, sizeof got, "%lld", (long long)v->u.i);
        } else if (v->kind == CZ_TOML_STRING) {
            snprintf(got, sizeof got, "\"%.40s\"", v->u.s);
            if (k->kind == K_SIZE_AUTO && strcasecmp(v->u.s, "auto") == 0) {
                *(uint64_t *)field(c, k) = 0;
                return CZ_OK;
            }
            if (parse_with_unit(&x, v->u.s, sizes))
                return cz_fail(ei, CZ_EFORMAT,
                               sizes ? "%s: %s.%s = %s is not a size (e.g. \"5GiB\", \"500MB\")"
                                     : "%s: %s.%s = %s is not a duration (e.g. \"30s\", \"5m\")",
                               where, k->table, k->name, got);
        } else {
            return type_error(ei, where, k, sizes ? "a size" : "a duration", v);
        }
        if (x > (uint64_t)k->max || x < (uint64_t)k->min)
            return range_error(ei, where, k, got);
        *(uint64_t *)field(c, k) = x;
        return CZ_OK;
    }
    case K_DEVICES: {
        if (v->kind == CZ_TOML_STRING) {
            static const struct {
                const char *name;
                cz_daemon_gpu_mode mode;
            } words[] = {{"auto", CZ_DAEMON_GPUS_AUTO},
                         {"all", CZ_DAEMON_GPUS_ALL},
                         {"none", CZ_DAEMON_GPUS_NONE}};
            for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
                if (strcasecmp(v->u.s, words[i].name) == 0) {
                    c->gpus.mode = words[i].mode;
                    c->gpus.ndevices = 0;
                    snprintf(c->gpus.devices_where, sizeof c->gpus.devices_where, "%s", where);
                    return CZ_OK;
                }
            return cz_fail(ei, CZ_EFORMAT,
                           "%s: %s.%s = \"%.40s\" is not \"auto\", \"all\", \"none\" or a "
                           "list of device indices",
                           where, k->table, k->name, v->u.s);
        }
        if (v->kind != CZ_TOML_ARRAY)
            return type_error(ei, where, k, "an array of device indices", v);
        if (v->u.a.n > CZ_ENGINE_MAX_DEVICES)
            return cz_fail(ei, CZ_ERANGE, "%s: %s.%s lists %zu devices; at most %d", where,
                           k->table, k->name, v->u.a.n, CZ_ENGINE_MAX_DEVICES);
        for (size_t i = 0; i < v->u.a.n; i++) {
            const cz__toml_value *it = &v->u.a.items[i];
            if (it->kind != CZ_TOML_INT)
                return type_error(ei, where, k, "an array of integers; an item is", it);
            if (it->u.i < k->min || it->u.i > k->max) {
                char got[32];
                snprintf(got, sizeof got, "%lld", (long long)it->u.i);
                return range_error(ei, where, k, got);
            }
            for (size_t j = 0; j < i; j++)
                if (v->u.a.items[j].u.i == it->u.i)
                    return cz_fail(ei, CZ_EFORMAT, "%s: %s.%s lists device %lld twice", where,
                                   k->table, k->name, (long long)it->u.i);
        }
        for (size_t i = 0; i < v->u.a.n; i++)
            c->gpus.devices[i] = (int)v->u.a.items[i].u.i;
        c->gpus.ndevices = (int)v->u.a.n;
        c->gpus.mode = v->u.a.n ? CZ_DAEMON_GPUS_LIST : CZ_DAEMON_GPUS_AUTO;
        snprintf(c->gpus.devices_where, sizeof c->gpus.devices_where, "%s", where);
        return CZ_OK;
    }
    case K_STRLIST: {
        if (v->kind != CZ_TOML_ARRAY)
            return type_error(ei, where, k, "an array of strings", v);
        if (v->u.a.n > (size_t)k->max)
            return cz_fail(ei, CZ_ERANGE, "%s: %s.%s has %zu items; at most %lld", where, k->table,
                           k->name, v->u.a.n, (long long)k->max);
        for (size_t i = 0; i < v->u.a.n; i++) {
            const cz__toml_value *it = &v->u.a.items[i];
            if (it->kind != CZ_TOML_STRING)
                return type_error(ei, where, k, "an array of strings; an item is", it);
            if (!it->u.s[0])
                return cz_fail(ei, CZ_ERANGE, "%s: %s.%s has an empty item", where, k->table,
                               k->name);
        }
        char **list = v->u.a.n ? calloc(v->u.a.n, sizeof *list) : NULL;
        if (v->u.a.n && !list)
            return cz_fail(ei, CZ_ENOMEM, "%s: out of memory", where);
        for (size_t i = 0; i < v->u.a.n; i++) {
            if (!(list[i] = strdup(v->u.a.items[i].u.s))) {
                free_strlist(list, (int)i);
                return cz_fail(ei, CZ_ENOMEM, "%s: out of memory", where);
            }
        }
        free_strlist(c->srs.preload, c->srs.npreload);
        c->srs.preload = list;
        c->srs.npreload = (int)v->u.a.n;
        return CZ_OK;
    }
    case K_LEVEL: {
        cz_log_level lv;
        if (v->kind != CZ_TOML_STRING)
            return type_error(ei, where, k, "a string", v);
        if (cz_log_level_parse(&lv, v->u.s))
            return cz_fail(ei, CZ_EFORMAT,
                           "%s: %s.%s = \"%.40s\" is not error, warn, info, debug or trace", where,
                           k->table, k->name, v->u.s);
        *(cz_log_level *)field(c, k) = lv;
        return CZ_OK;
    }
    case K_MODE: {
        if (v->kind != CZ_TOML_STRING)
            return type_error(ei, where, k, "an octal string (\"0660\")", v);
        const char *p = v->u.s;
        size_t n = strlen(p);
        long m = 0;
        if (n == 0 || n > 4 || strspn(p, "01234567") != n)
            return cz_fail(ei, CZ_EFORMAT,
                           "%s: %s.%s = \"%.40s\" is not an octal mode (e.g. \"0660\")", where,
                           k->table, k->name, p);
        m = strtol(p, NULL, 8);
        if (m < k->min || m > k->max) {
            char got[64];
            snprintf(got, sizeof got, "\"%s\"", p);
            return cz_fail(ei, CZ_ERANGE, "%s: %s.%s = %s is out of range [\"0000\", \"0777\"]",
                           where, k->table, k->name, got);
        }
        *(unsigned *)field(c, k) = (unsigned)m;
        return CZ_OK;
    }
    case K_DEPR:
        CZ_LOG_WARN("%s: %s.%s is deprecated and ignored (%s)", where, k->table, k->name, k->doc);
        return CZ_OK;
    }
    return cz_fail(ei, CZ_EINTERNAL, "%s: bad key kind", where);
}

static const tabledef *find_table(const char *name) {
    for (size_t i = 0; i < NTABLES; i++)
        if (strcmp(tables[i].name, name) == 0)
            return &tables[i];
    return NULL;
}

static const keydef *find_key(const char *table, const char *name) {
    for (size_t i = 0; i < NKEYS; i++)
        if (strcmp(keys[i].table, table) == 0 && strcmp(keys[i].name, name) == 0)
            return &keys[i];
    return NULL;
}

/* ---- loading ---------------------------------------------------------------------------- */

static int on_toml(void *arg, const char *file, int line, const char *table, const char *key,
                   const cz__toml_value *v, cz_errinfo *ei) {
    cz_daemon_config *c = arg;
    if (!key) {
        if (!find_table(table))
            return cz_fail(ei, CZ_EFORMAT,
                           "%s:%d: unknown table [%s] (known: daemon, memory, gpus, scheduler, "
                           "synthesis, pipeline, srs, logging)",
                           file, line, table);
        return CZ_OK;
    }
    if (!table[0])
        return cz_fail(ei, CZ_EFORMAT, "%s:%d: key '%s' outside a table", file, line, key);
    const keydef *k = find_key(table, key);
    if (!k)
        return cz_fail(ei, CZ_EFORMAT, "%s:%d: unknown key '%s' in [%s]", file, line, key, table);
    char where[300];
    snprintf(where, sizeof where, "%s:%d", file, line);
    int rc = apply(c, k, v, where, ei);
    if (rc == CZ_OK && k->kind != K_DEPR)
        set_where(c, k, where);
    return rc;
}

int cz_daemon_config_load(cz_daemon_config *c, const char *path, cz_errinfo *ei) {
    cz_daemon_config_defaults(c);
    if (!path)
        return CZ_OK;
    int rc = CZ_OK;
    char *text = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return cz_fail(ei, CZ_EIO, "%s: cannot open: %s", path, strerror(errno));
    size_t len = 0, cap = 0;
    for (;;) {
        if (cap - len < 4096) {
            cap = cap ? 2 * cap : 16384;
            char *t = realloc(text, cap);
            if (!t) {
                rc = cz_fail(ei, CZ_ENOMEM, "%s: out of memory", path);
                goto out;
            }
            text = t;
        }
        size_t n = fread(text + len, 1, cap - len, f);
        len += n;
        if (n == 0)
            break;
    }
    if (ferror(f)) {
        rc = cz_fail(ei, CZ_EIO, "%s: read error", path);
        goto out;
    }
    rc = cz__toml_parse(text, len, path, on_toml, c, ei);
out:
    free(text);
    fclose(f);
    if (rc) {
        cz_daemon_config_free(c);
        cz_daemon_config_defaults(c);
    }
    return rc;
}

/* ---- command-line overrides ------------------------------------------------------------- */

/* The key of "table.key" in *out, or the error. */
static int find_dotted(const keydef **out, const char *dotted_key, cz_errinfo *ei) {
    const char *dot = dotted_key ? strchr(dotted_key, '.') : NULL;
    *out = NULL;
    if (!dot || (size_t)(dot - dotted_key) >= 64)
        return cz_fail(ei, CZ_EINVAL, "%s: expected a key of the form table.key",
                       dotted_key ? dotted_key : "(null)");
    char table[64];
    memcpy(table, dotted_key, (size_t)(dot - dotted_key));
    table[dot - dotted_key] = '\0';
    if (!find_table(table))
        return cz_fail(ei, CZ_EFORMAT, "%s: unknown table [%s]", dotted_key, table);
    if (!(*out = find_key(table, dot + 1)))
        return cz_fail(ei, CZ_EFORMAT, "%s: unknown key '%s' in [%s]", dotted_key, dot + 1, table);
    return CZ_OK;
}

const char *cz_daemon_config_where(const cz_daemon_config *c, const char *dotted_key) {
    const keydef *k;
    if (find_dotted(&k, dotted_key, NULL) != CZ_OK || c->where == NULL || !c->where[k - keys])
        return "";
    return c->where[k - keys];
}

static int set_value(cz_daemon_config *c, const keydef *k, const char *dotted_key,
                     const char *value, cz_errinfo *ei);

int cz_daemon_config_set(cz_daemon_config *c, const char *dotted_key, const char *value,
                         cz_errinfo *ei) {
    const keydef *k;
    int rc = find_dotted(&k, dotted_key, ei);
    if (rc != CZ_OK)
        return rc;
    if (!value)
        return cz_fail(ei, CZ_EINVAL, "%s: no value", dotted_key);
    rc = set_value(c, k, dotted_key, value, ei);
    if (rc == CZ_OK && k->kind != K_DEPR)
        set_where(c, k, "command line");
    return rc;
}

/* cz_daemon_config_set of key k. */
static int set_value(cz_daemon_config *c, const keydef *k, const char *dotted_key,
                     const char *value, cz_errinfo *ei) {
    cz__toml_value v = {.kind = CZ_TOML_INT};
    int rc = CZ_OK;
    switch (k->kind) {
    case K_STR:
    case K_STR_EMPTY:
    case K_SIZE:
    case K_SIZE_AUTO:
    case K_DUR:
    case K_MODE:
    case K_LEVEL: {
        /* Plain text; apply only reads it. */
        cz__toml_value s = {.kind = CZ_TOML_STRING};
        s.u.s = (char *)(uintptr_t)value;
        return apply(c, k, &s, dotted_key, ei);
    }
    case K_DEVICES:
    case K_STRLIST:
        if (k->kind == K_DEVICES && ((value[strspn(value, " \t")] | 0x20) >= 'a' &&
                                     (value[strspn(value, " \t")] | 0x20) <= 'z')) {
            /* "auto", "all", "none" */
            cz__toml_value s = {.kind = CZ_TOML_STRING};
            s.u.s = (char *)(uintptr_t)(value + strspn(value, " \t"));
            rc = apply(c, k, &s, dotted_key, ei);
            if (rc == CZ_OK)
                snprintf(c->gpus.devices_where, sizeof c->gpus.devices_where, "command line");
            return rc;
        }
        if (value[strspn(value, " \t")] != '[') {
            /* "0,1" or "a.zkey,b.zkey": a comma-separated list. */
            size_t n = strlen(value);
            char *t = malloc(n + 3);
            if (!t)
                return cz_fail(ei, CZ_ENOMEM, "%s: out of memory", dotted_key);
            v.kind = CZ_TOML_ARRAY;
            v.u.a.n = 0;
            v.u.a.items = calloc(n + 1, sizeof *v.u.a.items);
            if (!v.u.a.items) {
                free(t);
                return cz_fail(ei, CZ_ENOMEM, "%s: out of memory", dotted_key);
            }
            memcpy(t, value, n + 1);
            for (char *p = t, *next; n && p; p = next) {
                next = strchr(p, ',');
                if (next)
                    *next++ = '\0';
                if (k->kind == K_STRLIST) {
                    /* items are trimmed: "a.zkey, b.zkey" */
                    p += strspn(p, " \t");
                    for (size_t l = strlen(p); l && (p[l - 1] == ' ' || p[l - 1] == '\t'); l--)
                        p[l - 1] = '\0';
                    v.u.a.items[v.u.a.n].kind = CZ_TOML_STRING;
                    if (!(v.u.a.items[v.u.a.n].u.s = strdup(p))) {
                        rc = cz_fail(ei, CZ_ENOMEM, "%s: out of memory", dotted_key);
                        break;
                    }
                    v.u.a.n++;
                } else {
                    rc = cz__toml_parse_value(&v.u.a.items[v.u.a.n], p, dotted_key, ei);
                    if (rc)
                        break;
                    v.u.a.n++;
                }
            }
            free(t);
            break;
        }
        rc = cz__toml_parse_value(&v, value, dotted_key, ei);
        break;
    case K_INT:
    case K_BOOL:
        rc = cz__toml_parse_value(&v, value, dotted_key, ei);
        break;
    case K_DEPR:
        CZ_LOG_WARN("%s is deprecated and ignored (%s)", dotted_key, k->doc);
        return CZ_OK;
    }
    if (rc == CZ_OK)
        rc = apply(c, k, &v, dotted_key, ei);
    if (rc == CZ_OK && k->kind == K_DEVICES)
        snprintf(c->gpus.devices_where, sizeof c->gpus.devices_where, "command line");
    cz__toml_value_free(&v);
    return rc;
}

/* ---- writing ---------------------------------------------------------------------------- */

static void put_string(FILE *out, const char *s) {
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p == '\t')
            fputs("\\t", out);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(out, "\\u%04X", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

static void put_with_unit(FILE *out, uint64_t x, int sizes) {
    size_t n = sizes ? sizeof size_units / sizeof size_units[0] - 1
                     : sizeof dur_units / sizeof dur_units[0] - 1;
    for (size_t i = 0; i < n; i++) {
        uint64_t mul = sizes ? size_units[i].mul : dur_units[i].mul;
        /* binary units only for sizes: "5GiB", never "5368709120B" or "5GB" by accident */
        if (sizes && i >= 4)
            break;
        if (x && x % mul == 0) {
            fprintf(out, "\"%llu%s\"", (unsigned long long)(x / mul),
                    sizes ? size_units[i].name : dur_units[i].name);
            return;
        }
    }
    fprintf(out, "\"%llu%s\"", (unsigned long long)x, sizes ? "B" : "s");
}

static void put_value(FILE *out, const cz_daemon_config *c, const keydef *k) {
    switch (k->kind) {
    case K_STR:
    case K_STR_EMPTY:
        put_string(out, *(char *const *)cfield(c, k));
        break;
    case K_INT:
        fprintf(out, "%d", *(const int *)cfield(c, k));
        break;
    case K_BOOL:
        fputs(*(const int *)cfield(c, k) ? "true" : "false", out);
        break;
    case K_SIZE_AUTO:
        if (*(const uint64_t *)cfield(c, k) == 0) {
            fputs("\"auto\"", out);
            break;
        }
        /* fall through */
    case K_SIZE:
        put_with_unit(out, *(const uint64_t *)cfield(c, k), 1);
        break;
    case K_DUR:
        put_with_unit(out, *(const uint64_t *)cfield(c, k), 0);
        break;
    case K_DEVICES:
        if (c->gpus.mode == CZ_DAEMON_GPUS_ALL || c->gpus.mode == CZ_DAEMON_GPUS_NONE) {
            fputs(c->gpus.mode == CZ_DAEMON_GPUS_ALL ? "\"all\"" : "\"none\"", out);
            break;
        }
        fputc('[', out);
        for (int i = 0; i < c->gpus.ndevices; i++)
            fprintf(out, "%s%d", i ? ", " : "", c->gpus.devices[i]);
        fputc(']', out);
        break;
    case K_STRLIST:
        fputc('[', out);
        for (int i = 0; i < c->srs.npreload; i++) {
            fputs(i ? ", " : "", out);
            put_string(out, c->srs.preload[i]);
        }
        fputc(']', out);
        break;
    case K_LEVEL:
        put_string(out, cz_log_level_name(c->logging.level));
        break;
    case K_MODE:
        fprintf(out, "\"%04o\"", *(const unsigned *)cfield(c, k));
        break;
    case K_DEPR:
        break;
    }
}

int cz_daemon_config_write(FILE *out, const cz_daemon_config *c) {
    fputs("# cuzk daemon configuration: every key with its default value (docs/daemon.md).\n"
          "# This file is cz_daemon_config_write of the defaults; tests/daemon/test_config.c\n"
          "# checks that it stays so. Unknown keys stop the daemon; deprecated keys only warn.\n",
          out);
    for (size_t t = 0; t < NTABLES; t++) {
        fprintf(out, "\n# %s\n[%s]\n", tables[t].doc, tables[t].name);
        int ndepr = 0;
        for (size_t i = 0; i < NKEYS; i++) {
            const keydef *k = &keys[i];
            if (strcmp(k->table, tables[t].name) != 0)
                continue;
            if (k->kind == K_DEPR) {
                ndepr++;
                continue;
            }
            fprintf(out, "# %s\n%s = ", k->doc, k->name);
            put_value(out, c, k);
            fputc('\n', out);
        }
        if (ndepr) {
            fputs("# Deprecated, accepted with a warning and ignored:", out);
            for (size_t i = 0, j = 0; i < NKEYS; i++)
                if (keys[i].kind == K_DEPR && strcmp(keys[i].table, tables[t].name) == 0)
                    fprintf(out, "%s %s", j++ ? "," : "", keys[i].name);
            fputs(".\n", out);
        }
    }
    return ferror(out) ? CZ_EIO : CZ_OK;
}
