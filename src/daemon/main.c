/*
 * cuzk-daemon: the proving engine behind the gRPC service cuzk.v1.ProvingEngine
 * (proto/cuzk/v1/proving.proto, docs/daemon.md).
 *
 *   cuzk-daemon [--listen ADDR] [--config FILE] [--log-level LEVEL] [--gpus LIST]
 *               [--budget-gib N] [--synth-cache DIR] [--synth-max-scale K] [--threads N]
 *
 * The configuration (docs/daemon.md, "Configuration") is the defaults, then --config FILE, then
 * the flags (--listen = daemon.listen, --log-level = logging.level). ADDR: unix:///path (default
 * unix:///tmp/cuzk/cuzk.sock) or host:port. daemon.status_listen starts GET /status and /metrics.
 * The engine takes memory, synthesis, gpus and scheduler keys from it. gpus.devices (or --gpus
 * LIST|auto|all|none) picks the devices (daemon/gpus.h): the engine runs gpu_workers_per_device
 * workers pinned to each; a listed device that is not there stops start-up with the key's
 * FILE:LINE; without any GPU the default falls back to the CPU backend (logged).
 * SIGTERM/SIGINT: stop taking jobs, finish the accepted ones, exit 0; a second signal exits at
 * once (status 1).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/gpu.h"
#include "cuzk/log.h"
#include "daemon/config.h"
#include "daemon/gpus.h"
#include "daemon/grpc_server.h"
#include "daemon/http.h"
#include "daemon/service.h"

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig) {
    (void)sig;
    if (stop_requested)
        _exit(1);
    stop_requested = 1;
}

static void usage(FILE *f) {
    fprintf(f, "usage: cuzk-daemon [--listen ADDR] [--config FILE] [--log-level "
               "error|warn|info|debug]\n"
               "                   [--gpus 0,1|auto|all|none] [--budget-gib N] [--synth-cache "
               "DIR]\n"
               "                   [--synth-max-scale K] [--threads N]\n"
               "  ADDR: unix:///path (default unix:///tmp/cuzk/cuzk.sock) or host:port\n"
               "  --gpus: gpus.devices (default: every visible GPU, else the CPU backend)\n");
}

int main(int argc, char **argv) {
    const char *listen = NULL, *log_level = NULL, *config = NULL, *gpus = NULL;
    double budget_gib = 0;
    int threads = -1;
    cz_daemon_service_config cfg;
    cz_daemon_config dc;
    memset(&cfg, 0, sizeof cfg);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        }
        if (v == NULL) {
            fprintf(stderr, "cuzk-daemon: %s: missing value\n", a);
            usage(stderr);
            return 2;
        }
        i++;
        if (strcmp(a, "--listen") == 0) {
            listen = v;
        } else if (strcmp(a, "--config") == 0) {
            config = v;
        } else if (strcmp(a, "--log-level") == 0) {
            log_level = v;
        } else if (strcmp(a, "--gpus") == 0) {
            gpus = v;
        } else if (strcmp(a, "--budget-gib") == 0) {
            budget_gib = atof(v);
        } else if (strcmp(a, "--synth-cache") == 0) {
            cfg.synth_cache = v;
        } else if (strcmp(a, "--synth-max-scale") == 0) {
            cfg.synth_max_scale = (unsigned)atoi(v);
        } else if (strcmp(a, "--threads") == 0) {
            threads = atoi(v);
        } else {
            fprintf(stderr, "cuzk-daemon: unknown option %s\n", a);
            usage(stderr);
            return 2;
        }
    }
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (cz_daemon_config_load(&dc, config, &ei) != CZ_OK ||
        (listen != NULL && cz_daemon_config_set(&dc, "daemon.listen", listen, &ei) != CZ_OK) ||
        (log_level != NULL &&
         cz_daemon_config_set(&dc, "logging.level", log_level, &ei) != CZ_OK) ||
        (gpus != NULL && cz_daemon_config_set(&dc, "gpus.devices", gpus, &ei) != CZ_OK)) {
        fprintf(stderr, "cuzk-daemon: %s\n", ei.msg);
        cz_daemon_config_free(&dc);
        return 2;
    }
    cz_log_set_level(dc.logging.level);
    int verbose = dc.logging.level >= CZ_LOG_LEVEL_INFO;
    cfg.engine.budget.total_bytes =
        budget_gib > 0 ? (uint64_t)(budget_gib * 1073741824.0) : dc.memory.total_budget;
    cfg.engine.budget.margin_bytes = dc.memory.safety_margin;
    {
        int visible = 0;
        char note[512];
        cz_errinfo gi;
        cz_errinfo_clear(&gi);
        if (dc.gpus.mode != CZ_DAEMON_GPUS_NONE && cz_gpu_device_count(&visible, &gi) != CZ_OK)
            visible = 0;
        if (cz_daemon_gpus_select(cfg.engine.devices, &cfg.engine.ndevices, note, sizeof note, &dc,
                                  visible, gi.msg, &ei) != CZ_OK) {
            fprintf(stderr, "cuzk-daemon: %s\n", ei.msg);
            cz_daemon_config_free(&dc);
            return 2;
        }
        if (verbose)
            fprintf(stderr, "cuzk-daemon: %s\n", note);
        for (int i = 0; verbose && i < cfg.engine.ndevices; i++) {
            cz_gpu_info info;
            if (cz_gpu_device_info(&info, cfg.engine.devices[i], &gi) == CZ_OK)
                fprintf(stderr,
                        "cuzk-daemon: GPU %d: %s, %.1f GiB, compute capability %d.%d, %d SMs, "
                        "%d workers\n",
                        cfg.engine.devices[i], info.name, (double)info.global_mem / 1073741824.0,
                        info.cc_major, info.cc_minor, info.multiprocessors,
                        dc.gpus.gpu_workers_per_device);
        }
    }
    cfg.engine.workers_per_device = dc.gpus.gpu_workers_per_device;
    cfg.engine.gpu_threads = threads >= 0 ? threads : dc.gpus.gpu_threads;
    cfg.engine.synthesis_threads = threads >= 0 ? threads : dc.synthesis.threads;
    cfg.engine.partition_workers = dc.synthesis.partition_workers;
    cfg.engine.finalizers = dc.pipeline.finalizers;
    cfg.engine.sched.retention_ms = dc.scheduler.job_retention * 1000;
    cfg.engine.sched.max_retained = (size_t)dc.scheduler.max_retained_jobs;

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    cz_daemon_service *svc = NULL;
    cz_grpc_server *srv = NULL;
    cz_http *http = NULL;
    int rc = 1;
    if (cz_daemon_service_create(&svc, &cfg, &ei) != CZ_OK) {
        fprintf(stderr, "cuzk-daemon: engine: %s\n", ei.msg);
        goto out;
    }
    if (cz_grpc_server_create(&srv, dc.daemon.listen, svc, &ei) != CZ_OK) {
        fprintf(stderr, "cuzk-daemon: %s\n", ei.msg);
        goto out;
    }
    if (dc.daemon.status_listen[0] != '\0' &&
        cz_http_start(&http, dc.daemon.status_listen, cz_daemon_service_engine(svc),
                      cz_daemon_service_srs(svc), &ei) != CZ_OK) {
        fprintf(stderr, "cuzk-daemon: daemon.status_listen: %s\n", ei.msg);
        goto out;
    }
    if (verbose)
        fprintf(stderr, "cuzk-daemon: listening on %s (%s)%s%s\n", dc.daemon.listen,
                cfg.engine.ndevices > 0 ? "GPU backend" : "CPU backend", http ? "; status on " : "",
                http ? dc.daemon.status_listen : "");
    cz_grpc_server_run(srv, &stop_requested);
    rc = 0;
    if (verbose)
        fprintf(stderr, "cuzk-daemon: stopped\n");
out:
    cz_http_stop(http); /* before the engine it reads */
    cz_grpc_server_destroy(srv);
    cz_daemon_service_destroy(svc);
    cz_daemon_config_free(&dc);
    return rc;
}
