/*
 * cuzk-daemon: the proving engine behind the gRPC service cuzk.v1.ProvingEngine
 * (proto/cuzk/v1/proving.proto, docs/daemon.md).
 *
 *   cuzk-daemon [--listen ADDR] [--config FILE] [--log-level LEVEL] [--gpus LIST]
 *               [--budget-gib N] [--synth-cache DIR] [--synth-max-scale K] [--threads N]
 *               [--print-config]
 *
 * The configuration (docs/daemon.md, "Configuration") is the defaults, then the file (--config
 * FILE, else /data/zk/cuzk.toml when it exists), then the flags (--listen = daemon.listen,
 * --log-level = logging.level, --gpus = gpus.devices). ADDR: unix:///path or host:port.
 * daemon.status_listen starts GET /status and /metrics. The engine takes memory, synthesis, gpus
 * and scheduler keys from it. gpus.devices (or --gpus LIST|auto|all|none) picks the devices
 * (daemon/gpus.h): the engine runs gpu_workers_per_device workers pinned to each; a listed device
 * that is not there stops start-up with the key's FILE:LINE; without any GPU the default falls
 * back to the CPU backend (logged). logging.timeline sends the engine's TIMELINE lines to the log
 * ("log") or appends them to a file; srs.preload keys are loaded (through the PreloadSRS handler,
 * so GetStatus lists them) before the socket is created, so a daemon that answers is a daemon
 * whose keys are loaded. Keys that are parsed but not acted on yet (memory.eviction_min_idle) are
 * logged as warnings at start-up when set.
 *
 * Start-up takes the socket's lock (daemon/socklock.h) as soon as the configuration is checked,
 * before the engine is built or a key is loaded: a second daemon on the same socket exits 2 at
 * once. daemon.state_dir (or --synth-cache DIR) must be a private directory (daemon/statedir.h);
 * the porep-synth key cache is <state_dir>/synth-cache, the remembered digests of the Filecoin
 * keys <state_dir>/key-digests (daemon/keydigests.h). Every failure after the lock releases
 * it (the lock file and, when it was made, the socket are removed).
 *
 * --print-config writes the resulting configuration as TOML on stdout and exits (0, or 2 for a
 * bad one): a check of a configuration file before a restart.
 *
 * Every line is written through cz_log (ISO-8601 UTC timestamp, level, message) on stderr; the
 * last line before the socket accepts calls is "cuzk-daemon: ready: listening on ADDR ...", ADDR
 * being what was bound (the socket's absolute path, each TCP address a name resolved to).
 * SIGTERM/SIGINT: stop taking jobs, finish the accepted ones, exit 0; a second signal exits at
 * once (status 1). Exit status 2: bad flags or configuration; 1: start-up failed.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/gpu.h"
#include "cuzk/log.h"
#include "cuzk/timeline.h"
#include "cuzk/tuning.h"
#include "cuzk/v1/proving.pb-c.h"
#include "daemon/config.h"
#include "daemon/gpus.h"
#include "daemon/grpc_server.h"
#include "daemon/http.h"
#include "daemon/service.h"
#include "daemon/socklock.h"
#include "daemon/statedir.h"

/* Atomic, not volatile sig_atomic_t: the handler may run on any thread (a worker's, say), and
 * only an atomic orders its store with the main loop's load. A lock-free atomic_int is
 * async-signal-safe. */
static atomic_int stop_requested;

static void on_signal(int sig) {
    (void)sig;
    if (atomic_exchange(&stop_requested, 1))
        _exit(1);
}

/* A whole decimal integer in [min, max], else exit 2 naming the flag. */
static int int_flag(int *out, const char *flag, const char *v, long min, long max) {
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (v[0] == '\0' || *end != '\0' || errno != 0 || x < min || x > max) {
        fprintf(stderr, "cuzk-daemon: %s %s: not an integer in [%ld, %ld]\n", flag, v, min, max);
        return -1;
    }
    *out = (int)x;
    return 0;
}

static int gib_flag(double *out, const char *flag, const char *v) {
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (v[0] == '\0' || *end != '\0' || errno != 0 || !isfinite(x) || x <= 0 || x > 1e9) {
        fprintf(stderr, "cuzk-daemon: %s %s: not a positive number of GiB\n", flag, v);
        return -1;
    }
    *out = x;
    return 0;
}

static void usage(FILE *f) {
    fprintf(f, "usage: cuzk-daemon [--listen ADDR] [--config FILE] [--log-level "
               "error|warn|info|debug|trace]\n"
               "                   [--gpus 0,1|auto|all|none]\n"
               "                   [--budget-gib N] [--synth-cache DIR] [--synth-max-scale K] "
               "[--threads N]\n"
               "                   [--print-config]\n"
               "  ADDR: unix:///path or host:port (default: daemon.listen of the configuration)\n"
               "  FILE: default " CZ_DAEMON_CONFIG_DEFAULT_PATH " when it exists\n"
               "  --gpus: gpus.devices (default: every visible GPU, else the CPU backend)\n"
               "  --synth-cache: the porep-synth key cache (default: <daemon.state_dir>/"
               "synth-cache),\n"
               "                 a directory private to this user, like daemon.state_dir\n");
}

/* Loads the keys of srs.preload through the PreloadSRS handler. A name without '/' is a file in
 * srs.param_cache. CZ_OK, or the first failure (start-up stops: a configured key that cannot be
 * loaded is an operator error, like a bad configuration). */
static int preload_keys(cz_daemon_service *svc, const cz_daemon_config *dc) {
    for (int i = 0; i < dc->srs.npreload; i++) {
        const char *name = dc->srs.preload[i];
        char path[4096];
        if (strchr(name, '/') != NULL)
            snprintf(path, sizeof path, "%s", name);
        else
            snprintf(path, sizeof path, "%s/%s", dc->srs.param_cache, name);
        Cuzk__V1__PreloadSrsRequest req = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
        req.circuit_id = path;
        uint8_t buf[4200];
        size_t len = cuzk__v1__preload_srs_request__pack(&req, buf);
        cz_daemon_reply rep;
        memset(&rep, 0, sizeof rep);
        cz_daemon_service_call(&rep, svc, "/cuzk.v1.ProvingEngine/PreloadSRS", buf, len, NULL,
                               NULL);
        if (rep.status != CZ_RPC_OK) {
            CZ_LOG_ERROR("cuzk-daemon: srs.preload: %s", rep.msg);
            free(rep.body);
            return CZ_EIO;
        }
        Cuzk__V1__PreloadSrsResponse *r =
            cuzk__v1__preload_srs_response__unpack(NULL, rep.len, rep.body);
        CZ_LOG_INFO("cuzk-daemon: srs.preload: %s loaded in %llu ms", path,
                    r != NULL ? (unsigned long long)r->load_time_ms : 0ull);
        if (r != NULL)
            cuzk__v1__preload_srs_response__free_unpacked(r, NULL);
        free(rep.body);
    }
    return CZ_OK;
}

/* Warnings for keys that are parsed and validated but not acted on yet (docs/daemon.md). */
static void warn_reserved(const cz_daemon_config *dc) {
    cz_daemon_config def;
    cz_daemon_config_defaults(&def);
    if (dc->memory.eviction_min_idle != def.memory.eviction_min_idle)
        CZ_LOG_WARN("cuzk-daemon: memory.eviction_min_idle is reserved: keys are evicted least "
                    "recently used first when the budget needs room, whatever their idle time");
    cz_daemon_config_free(&def);
}

/* logging.timeline: "" off, "log" through the log, else a file the lines are appended to. */
static int timeline_open(cz_timeline_emitter **tl, FILE **file, const char *what) {
    *tl = NULL;
    *file = NULL;
    if (what[0] == '\0')
        return CZ_OK;
    if (strcmp(what, "log") != 0) {
        if ((*file = fopen(what, "a")) == NULL) {
            CZ_LOG_ERROR("cuzk-daemon: logging.timeline: %s: cannot open for appending", what);
            return CZ_EIO;
        }
        setvbuf(*file, NULL, _IOLBF, 0);
    }
    if (cz_timeline_emitter_create(tl, *file, 0) != CZ_OK) {
        if (*file != NULL)
            fclose(*file);
        *file = NULL;
        CZ_LOG_ERROR("cuzk-daemon: logging.timeline: out of memory");
        return CZ_ENOMEM;
    }
    CZ_LOG_INFO("cuzk-daemon: timeline: %s", *file != NULL ? what : "TIMELINE lines in this log");
    return CZ_OK;
}

/* The porep-synth key cache: flag_dir (--synth-cache DIR), else <daemon.state_dir>/synth-cache,
 * into out. Its keys are used as found, so the directories must be ours alone (statedir.h).
 * 0, or -1 with the error logged (naming the flag, or the key with its FILE:LINE). */
static int synth_cache_dir(char *out, size_t cap, const char *flag_dir,
                           const cz_daemon_config *dc) {
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (flag_dir != NULL) {
        snprintf(out, cap, "%s", flag_dir);
        if (cz_daemon_private_dir(out, &ei) == CZ_OK)
            return 0;
        CZ_LOG_ERROR("cuzk-daemon: --synth-cache: %s", ei.msg);
        return -1;
    }
    if ((size_t)snprintf(out, cap, "%s/synth-cache", dc->daemon.state_dir) >= cap)
        cz_fail(&ei, CZ_EINVAL, "%s: path too long", dc->daemon.state_dir);
    else if (cz_daemon_private_dir(dc->daemon.state_dir, &ei) == CZ_OK &&
             cz_daemon_private_dir(out, &ei) == CZ_OK)
        return 0;
    const char *where = cz_daemon_config_where(dc, "daemon.state_dir");
    CZ_LOG_ERROR("cuzk-daemon: %s%sdaemon.state_dir: %s", where, where[0] ? ": " : "", ei.msg);
    return -1;
}

/* The remembered key digests, <daemon.state_dir>/key-digests (daemon/keydigests.h), into out:
 * 0, or -1 with a warning when the state directory is not ours alone (the keys are then hashed
 * on first use after every start). */
static int key_digests_path(char *out, size_t cap, const cz_daemon_config *dc) {
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if ((size_t)snprintf(out, cap, "%s/key-digests", dc->daemon.state_dir) >= cap)
        cz_fail(&ei, CZ_EINVAL, "%s: path too long", dc->daemon.state_dir);
    else if (cz_daemon_private_dir(dc->daemon.state_dir, &ei) == CZ_OK)
        return 0;
    CZ_LOG_WARN("cuzk-daemon: daemon.state_dir: %s; key digests are not remembered", ei.msg);
    return -1;
}

int main(int argc, char **argv) {
    const char *listen = NULL, *log_level = NULL, *config = NULL, *gpus = NULL;
    double budget_gib = 0;
    int threads = -1, print_config = 0;
    cz_daemon_service_config cfg;
    cz_daemon_config dc;
    int rc;
    memset(&cfg, 0, sizeof cfg);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(a, "--print-config") == 0) {
            print_config = 1;
            continue;
        }
        if (v == NULL) {
            fprintf(stderr, "cuzk-daemon: %s: missing value\n", a);
            usage(stderr);
            return 2;
        }
        i++;
        if (strcmp(a, "--listen") == 0 || strcmp(a, "-l") == 0) {
            listen = v;
        } else if (strcmp(a, "--config") == 0 || strcmp(a, "-c") == 0) {
            config = v;
        } else if (strcmp(a, "--log-level") == 0) {
            log_level = v;
        } else if (strcmp(a, "--gpus") == 0) {
            gpus = v;
        } else if (strcmp(a, "--budget-gib") == 0) {
            if (gib_flag(&budget_gib, a, v) != 0)
                return 2;
        } else if (strcmp(a, "--synth-cache") == 0) {
            cfg.synth_cache = v;
        } else if (strcmp(a, "--synth-max-scale") == 0) {
            int k;
            if (int_flag(&k, a, v, 10, 30) != 0)
                return 2;
            cfg.synth_max_scale = (unsigned)k;
        } else if (strcmp(a, "--threads") == 0) {
            if (int_flag(&threads, a, v, 0, 4096) != 0)
                return 2;
        } else {
            fprintf(stderr, "cuzk-daemon: unknown option %s\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (config == NULL && access(CZ_DAEMON_CONFIG_DEFAULT_PATH, F_OK) == 0)
        config = CZ_DAEMON_CONFIG_DEFAULT_PATH;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (cz_daemon_config_load(&dc, config, &ei) != CZ_OK ||
        (listen != NULL && cz_daemon_config_set(&dc, "daemon.listen", listen, &ei) != CZ_OK) ||
        (log_level != NULL &&
         cz_daemon_config_set(&dc, "logging.level", log_level, &ei) != CZ_OK) ||
        (gpus != NULL && cz_daemon_config_set(&dc, "gpus.devices", gpus, &ei) != CZ_OK)) {
        CZ_LOG_ERROR("cuzk-daemon: %s", ei.msg);
        cz_daemon_config_free(&dc);
        return 2;
    }
    if (print_config) {
        rc = cz_daemon_config_write(stdout, &dc) == CZ_OK && fflush(stdout) == 0 ? 0 : 1;
        cz_daemon_config_free(&dc);
        return rc;
    }
    cz_log_set_level(dc.logging.level);
    CZ_LOG_INFO("cuzk-daemon: configuration: %s", config != NULL ? config : "defaults");
    warn_reserved(&dc);
    cfg.engine.budget.total_bytes =
        budget_gib > 0 ? (uint64_t)(budget_gib * 1073741824.0) : dc.memory.total_budget;
    cfg.engine.budget.margin_bytes = dc.memory.safety_margin;
    {
        long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
        uint64_t phys = pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz : 0;
        if (phys != 0 && cfg.engine.budget.total_bytes > phys) {
            /* FILE:LINE of the key, as for the errors found while loading */
            const char *where =
                budget_gib > 0 ? "" : cz_daemon_config_where(&dc, "memory.total_budget");
            CZ_LOG_ERROR("cuzk-daemon: %s%s%s: budget %llu bytes is above physical memory %llu "
                         "bytes",
                         where, where[0] ? ": " : "",
                         budget_gib > 0 ? "--budget-gib" : "memory.total_budget",
                         (unsigned long long)cfg.engine.budget.total_bytes,
                         (unsigned long long)phys);
            cz_daemon_config_free(&dc);
            return 2;
        }
    }
    {
        int visible = 0;
        char note[512];
        cz_errinfo gi;
        cz_errinfo_clear(&gi);
        if (dc.gpus.mode != CZ_DAEMON_GPUS_NONE && cz_gpu_device_count(&visible, &gi) != CZ_OK)
            visible = 0;
        if (cz_daemon_gpus_select(cfg.engine.devices, &cfg.engine.ndevices, note, sizeof note, &dc,
                                  visible, gi.msg, &ei) != CZ_OK) {
            CZ_LOG_ERROR("cuzk-daemon: %s", ei.msg);
            cz_daemon_config_free(&dc);
            return 2;
        }
        CZ_LOG_INFO("cuzk-daemon: %s", note);
        for (int i = 0; i < cfg.engine.ndevices; i++) {
            cz_gpu_info info;
            if (cz_gpu_device_info(&info, cfg.engine.devices[i], &gi) != CZ_OK)
                continue;
            cz_daemon_gpus_remember(cfg.engine.devices[i], info.name, info.global_mem);
            CZ_LOG_INFO("cuzk-daemon: GPU %d: %s, %.1f GiB, compute capability %d.%d, %d SMs, "
                        "%d workers",
                        cfg.engine.devices[i], info.name, (double)info.global_mem / 1073741824.0,
                        info.cc_major, info.cc_minor, info.multiprocessors,
                        dc.gpus.gpu_workers_per_device);
        }
    }
    {
        cz_tuning tu = {0};
        tu.gpu_g2_on_cpu = !dc.gpus.g2_msm_on_gpu;
        tu.gpu_copy_chunk_bytes = (size_t)dc.gpus.upload_chunk;
        tu.gpu_copy_whole = dc.gpus.upload_chunk == 0;
        tu.msm_profile = dc.logging.msm_phases;
        if (cz_tuning_set(&tu, &ei) != CZ_OK) {
            CZ_LOG_ERROR("cuzk-daemon: %s", ei.msg);
            cz_daemon_config_free(&dc);
            return 2;
        }
    }
    cfg.engine.workers_per_device = dc.gpus.gpu_workers_per_device;
    cfg.engine.pageable_buffers = !dc.gpus.pinned_buffers;
    cfg.engine.gpu_threads = threads >= 0 ? threads : dc.gpus.gpu_threads;
    cfg.engine.synthesis_threads = threads >= 0 ? threads : dc.synthesis.threads;
    cfg.srs_load_threads = threads >= 0 ? threads : dc.srs.load_threads;
    cfg.params_check_subgroup = dc.srs.params_subgroup_check;
    cfg.param_dir = dc.srs.param_cache;
    cfg.allow_untrusted = dc.srs.allow_untrusted;
    cfg.abc_on_gpu = dc.gpus.abc_on_gpu;
    cfg.engine.partition_workers = dc.synthesis.partition_workers;
    cfg.engine.urgent_synthesis = dc.synthesis.urgent_worker ? 0 : -1;
    cfg.engine.finalizers = dc.pipeline.finalizers;
    cfg.engine.gpu_queue_depth = dc.pipeline.max_gpu_queue_depth;
    cfg.engine.sched.retention_ms = dc.scheduler.job_retention * 1000;
    cfg.engine.sched.max_retained = (size_t)dc.scheduler.max_retained_jobs;

    char synth_cache[4096];
    if (synth_cache_dir(synth_cache, sizeof synth_cache, cfg.synth_cache, &dc) != 0) {
        cz_daemon_config_free(&dc);
        return 2;
    }
    cfg.synth_cache = synth_cache;
    char key_digests[4096];
    if (key_digests_path(key_digests, sizeof key_digests, &dc) == 0)
        cfg.key_digests = key_digests;

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    cz_daemon_socklock *lock = NULL;
    cz_daemon_service *svc = NULL;
    cz_grpc_server *srv = NULL;
    cz_http *http = NULL;
    cz_timeline_emitter *tl = NULL;
    FILE *tl_file = NULL;
    /* The lock before anything slow (the engine, the keys): a second daemon on a live socket
     * stops here, exit 2, naming the holder. */
    if ((rc = cz_daemon_socklock_take(&lock, dc.daemon.listen, &ei)) != CZ_OK) {
        CZ_LOG_ERROR("cuzk-daemon: %s", ei.msg);
        rc = rc == CZ_EBUSY ? 2 : 1; /* another daemon has the socket: a configuration error */
        goto out;
    }
    rc = 1;
    if (timeline_open(&tl, &tl_file, dc.logging.timeline) != CZ_OK)
        goto out;
    cfg.engine.timeline = tl;
    if (cz_daemon_service_create(&svc, &cfg, &ei) != CZ_OK) {
        CZ_LOG_ERROR("cuzk-daemon: engine: %s", ei.msg);
        goto out;
    }
    if (preload_keys(svc, &dc) != CZ_OK)
        goto out;
    cz_http_opts ho = {dc.daemon.status_cors_origin,    0,  0, "filecoin",
                       cz_daemon_service_filecoin_json, svc};
    if (dc.daemon.status_listen[0] != '\0' &&
        cz_http_start(&http, dc.daemon.status_listen, &ho, cz_daemon_service_engine(svc),
                      cz_daemon_service_srs(svc), &ei) != CZ_OK) {
        CZ_LOG_ERROR("cuzk-daemon: daemon.status_listen: %s", ei.msg);
        rc = 2; /* a bad or busy address: before the socket; out releases the lock */
        goto out;
    }
    if (cz_grpc_server_create(&srv, dc.daemon.listen, dc.daemon.socket_mode, lock,
                              dc.daemon.rpc_threads, svc, &ei) != CZ_OK) {
        CZ_LOG_ERROR("cuzk-daemon: %s", ei.msg);
        goto out;
    }
    CZ_LOG_INFO("cuzk-daemon: ready: listening on %s (%s)%s%s", cz_grpc_server_address(srv),
                cfg.engine.ndevices > 0 ? "GPU backend" : "CPU backend", http ? "; status on " : "",
                http ? cz_http_address(http) : "");
    int abandoned = cz_grpc_server_run(srv, &stop_requested) == CZ_ETIMEDOUT;
    rc = 0;
    CZ_LOG_INFO("cuzk-daemon: stopped");
    if (abandoned) { /* handlers still inside the service: exit without freeing it */
        cz_http_stop(http);
        cz_grpc_server_destroy(srv);
        if (tl_file != NULL)
            fflush(tl_file);
        cz_daemon_socklock_release(lock);
        _exit(0);
    }
out:
    cz_http_stop(http); /* before the engine it reads */
    cz_grpc_server_destroy(srv);
    cz_daemon_service_destroy(svc);
    cz_timeline_emitter_destroy(tl); /* after the engine that writes to it */
    if (tl_file != NULL)
        fclose(tl_file);
    cz_daemon_socklock_release(lock); /* last: the socket and the engine are gone */
    cz_daemon_config_free(&dc);
    return rc;
}
