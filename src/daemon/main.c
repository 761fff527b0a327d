/*
 * cuzk-daemon: the proving engine behind the gRPC service cuzk.v1.ProvingEngine
 * (proto/cuzk/v1/proving.proto, docs/daemon.md).
 *
 *   cuzk-daemon [--listen ADDR] [--config FILE] [--log-level LEVEL] [--budget-gib N]
 *               [--synth-cache DIR] [--synth-max-scale K] [--threads N]
 *
 * ADDR: unix:///path (default unix:///tmp/cuzk/cuzk.sock) or host:port. The engine runs on the
 * CPU backend (GPU selection comes with the configuration file). SIGTERM/SIGINT: stop taking
 * jobs, finish the accepted ones, exit 0; a second signal exits at once (status 1).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/grpc_server.h"
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
               "                   [--budget-gib N] [--synth-cache DIR] [--synth-max-scale K] "
               "[--threads N]\n"
               "  ADDR: unix:///path (default unix:///tmp/cuzk/cuzk.sock) or host:port\n");
}

int main(int argc, char **argv) {
    const char *listen = "unix:///tmp/cuzk/cuzk.sock", *log_level = "info", *config = NULL;
    cz_daemon_service_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.engine.budget.margin_bytes = 1ull << 30;
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
        } else if (strcmp(a, "--budget-gib") == 0) {
            cfg.engine.budget.total_bytes = (uint64_t)(atof(v) * 1073741824.0);
        } else if (strcmp(a, "--synth-cache") == 0) {
            cfg.synth_cache = v;
        } else if (strcmp(a, "--synth-max-scale") == 0) {
            cfg.synth_max_scale = (unsigned)atoi(v);
        } else if (strcmp(a, "--threads") == 0) {
            cfg.engine.synthesis_threads = cfg.engine.gpu_threads = atoi(v);
        } else {
            fprintf(stderr, "cuzk-daemon: unknown option %s\n", a);
            usage(stderr);
            return 2;
        }
    }
    int verbose = strcmp(log_level, "debug") == 0 || strcmp(log_level, "info") == 0;
    if (config != NULL)
        fprintf(stderr,
                "cuzk-daemon: --config %s: configuration files are not read yet; "
                "using defaults and the command line\n",
                config);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    cz_daemon_service *svc = NULL;
    cz_grpc_server *srv = NULL;
    if (cz_daemon_service_create(&svc, &cfg, &ei) != CZ_OK) {
        fprintf(stderr, "cuzk-daemon: engine: %s\n", ei.msg);
        return 1;
    }
    if (cz_grpc_server_create(&srv, listen, svc, &ei) != CZ_OK) {
        fprintf(stderr, "cuzk-daemon: %s\n", ei.msg);
        cz_daemon_service_destroy(svc);
        return 1;
    }
    if (verbose)
        fprintf(stderr, "cuzk-daemon: listening on %s (CPU backend)\n", listen);
    cz_grpc_server_run(srv, &stop_requested);
    cz_grpc_server_destroy(srv);
    cz_daemon_service_destroy(svc);
    if (verbose)
        fprintf(stderr, "cuzk-daemon: stopped\n");
    return 0;
}
