/*
 * cuzk-bench sweep: one cuzk-daemon per value of one configuration key, the same batch against
 * each, one table at the end.
 *
 *   cuzk-bench sweep --key synthesis.partition_workers --values 2,4,8,12 [--config BASE.toml]
 *       [--daemon PATH] [--daemon-arg ARG ...] [--start-timeout S] [--stop-timeout S]
 *       [workload] [-c COUNT] [-j CONCURRENCY] [--warmup N]
 *
 * Every value is checked first with the daemon's own configuration code (cz_daemon_config_set on
 * the base file, or the defaults): an unknown key or a bad value stops the sweep before any daemon
 * starts. Then, per value: the base configuration with KEY = value and daemon.listen on a fresh
 * Unix socket is written (cz_daemon_config_write) into a private temporary directory
 * (mkdtemp under $TMPDIR, else /tmp); cuzk-daemon --config that file [ARGs] is started with
 * fork/exec (stdout and stderr to a log file there; PR_SET_PDEATHSIG so that it ends with us);
 * GetStatus is polled until it answers (the daemon exiting, or --start-timeout, stops the sweep
 * with the log's tail); the batch runs (its lines go to stderr); the daemon's peak RSS (VmHWM of
 * /proc/PID/status) is read; the daemon is stopped by its pid: SIGTERM, waitpid for at most
 * --stop-timeout, then SIGKILL of that pid only. Processes are never looked up or killed by name.
 * The temporary directory and its files are removed at the end, also after a failure.
 *
 * stdout: the table (value, s/proof, proofs/min, GPU busy %, peak RSS MiB). Exit 0 when every
 * batch completed, 1 otherwise (the rows done so far are still printed), 2 usage.
 */
#ifdef CZ_BENCH_DAEMON

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_client.h"
#include "daemon/config.h"

typedef struct sweep_row {
    const char *value;
    double s_per_proof, proofs_per_min, busy_pct, rss_mib;
} sweep_row;

typedef struct sweep {
    client_opts *o;
    char dir[PATH_MAX - 64]; /* room for the names below */
    char cfg_path[PATH_MAX], log_path[PATH_MAX], sock[PATH_MAX], addr[PATH_MAX + 8];
    char daemon[PATH_MAX];
    pid_t pid; /* the running daemon, 0 when none */
} sweep;

static void sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* The daemon program: --daemon, else cuzk-daemon beside this program. */
static int find_daemon(sweep *sw) {
    if (sw->o->daemon != NULL) {
        snprintf(sw->daemon, sizeof sw->daemon, "%s", sw->o->daemon);
    } else {
        char self[PATH_MAX - 16];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        if (n <= 0)
            return -1;
        self[n] = 0;
        char *slash = strrchr(self, '/');
        if (slash != NULL)
            *slash = 0;
        snprintf(sw->daemon, sizeof sw->daemon, "%s/cuzk-daemon", self);
    }
    return access(sw->daemon, X_OK);
}

/* The configuration of one value: base file (or defaults), KEY = value, listen on our socket. */
static int make_config(cz_daemon_config *c, const sweep *sw, const char *value, cz_errinfo *ei) {
    int rc = cz_daemon_config_load(c, sw->o->config, ei);
    if (rc == CZ_OK)
        rc = cz_daemon_config_set(c, sw->o->key, value, ei);
    if (rc == CZ_OK && sw->addr[0] != 0)
        rc = cz_daemon_config_set(c, "daemon.listen", sw->addr, ei);
    if (rc != CZ_OK)
        cz_daemon_config_free(c);
    return rc;
}

/* Prints the last lines of the daemon's log on stderr. */
static void log_tail(const sweep *sw) {
    char buf[2048];
    FILE *f = fopen(sw->log_path, "r");
    if (f == NULL)
        return;
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : 0;
    long from = size > (long)sizeof buf - 1 ? size - (long)sizeof buf + 1 : 0;
    fseek(f, from, SEEK_SET);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    fprintf(stderr, "--- the daemon's log (%s), last %zu bytes ---\n%s%s---\n", sw->log_path, n,
            buf, n > 0 && buf[n - 1] != '\n' ? "\n" : "");
}

static int start_daemon(sweep *sw) {
    char *argv[CLIENT_MAX_DAEMON_ARGS + 4];
    int a = 0;
    argv[a++] = sw->daemon;
    argv[a++] = "--config";
    argv[a++] = sw->cfg_path;
    for (int i = 0; i < sw->o->ndaemon_args; i++)
        argv[a++] = (char *)sw->o->daemon_args[i];
    argv[a] = NULL;
    int fd = open(sw->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        fprintf(stderr, "cuzk-bench sweep: cannot write %s: %s\n", sw->log_path, strerror(errno));
        return -1;
    }
    pid_t parent = getpid();
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "cuzk-bench sweep: fork: %s\n", strerror(errno));
        close(fd);
        return -1;
    }
    if (pid == 0) { /* the child: async-signal-safe calls only until exec */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent)
            _exit(127);
        int nul = open("/dev/null", O_RDONLY);
        if (nul >= 0)
            dup2(nul, 0);
        dup2(fd, 1);
        dup2(fd, 2);
        execv(argv[0], argv);
        static const char msg[] = "cuzk-bench sweep: exec of the daemon failed\n";
        ssize_t w = write(2, msg, sizeof msg - 1);
        (void)w;
        _exit(127);
    }
    close(fd);
    sw->pid = pid;
    return 0;
}

/* Polls GetStatus until the daemon answers; -1 (message and log printed) when it exits first
 * or the start timeout passes. */
static int wait_ready(cz_grpc_client **cl, sweep *sw) {
    uint64_t waited = 0, limit = (uint64_t)sw->o->start_timeout_s * 1000;
    client_opts probe = *sw->o;
    probe.addr = sw->addr;
    for (;;) {
        int st;
        pid_t r = waitpid(sw->pid, &st, WNOHANG);
        if (r == sw->pid) {
            sw->pid = 0;
            if (WIFEXITED(st))
                fprintf(stderr, "cuzk-bench sweep: cuzk-daemon exited with status %d at start\n",
                        WEXITSTATUS(st));
            else
                fprintf(stderr, "cuzk-bench sweep: cuzk-daemon died of signal %d at start\n",
                        WIFSIGNALED(st) ? WTERMSIG(st) : 0);
            log_tail(sw);
            return -1;
        }
        if (bench_client_connect(cl, &probe, 1) == BENCH_OK)
            return 0;
        if (waited >= limit) {
            fprintf(stderr,
                    "cuzk-bench sweep: cuzk-daemon (pid %d) did not answer on %s within "
                    "%d s\n",
                    (int)sw->pid, sw->addr, sw->o->start_timeout_s);
            log_tail(sw);
            return -1;
        }
        sleep_ms(100);
        waited += 100;
    }
}

/* Peak resident set of the daemon (VmHWM), MiB; -1 when unreadable. */
static double peak_rss_mib(pid_t pid) {
    char path[64], line[256];
    double mib = -1;
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    while (fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, "VmHWM:", 6) == 0) {
            mib = strtod(line + 6, NULL) / 1024.0; /* kB */
            break;
        }
    fclose(f);
    return mib;
}

/* SIGTERM, wait for at most the stop timeout, then SIGKILL of that pid. 0 = exited 0. */
static int stop_daemon(sweep *sw) {
    int st = 0, rc = -1;
    if (sw->pid <= 0)
        return 0;
    kill(sw->pid, SIGTERM);
    for (int waited = 0;; waited += 50) {
        pid_t r = waitpid(sw->pid, &st, WNOHANG);
        if (r == sw->pid) {
            rc = WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
            if (rc != 0)
                fprintf(stderr, "cuzk-bench sweep: cuzk-daemon (pid %d) ended with status 0x%x\n",
                        (int)sw->pid, st);
            break;
        }
        if (r < 0 && errno != EINTR)
            break;
        if (waited >= sw->o->stop_timeout_s * 1000) {
            fprintf(stderr,
                    "cuzk-bench sweep: cuzk-daemon (pid %d) still runs %d s after "
                    "SIGTERM: SIGKILL\n",
                    (int)sw->pid, sw->o->stop_timeout_s);
            kill(sw->pid, SIGKILL);
            waitpid(sw->pid, &st, 0);
            break;
        }
        sleep_ms(50);
    }
    fprintf(stderr, "cuzk-bench sweep: cuzk-daemon pid %d stopped\n", (int)sw->pid);
    sw->pid = 0;
    return rc;
}

/* One value: config, daemon, batch, measurements, stop. */
static int run_value(sweep_row *row, sweep *sw, const char *value) {
    cz_daemon_config c;
    cz_errinfo ei;
    cz_grpc_client *cl = NULL;
    client_batch cb;
    int rc = BENCH_FAIL;
    cz_errinfo_clear(&ei);
    memset(row, 0, sizeof *row);
    row->value = value;
    if (make_config(&c, sw, value, &ei) != CZ_OK) {
        fprintf(stderr, "cuzk-bench sweep: %s\n", ei.msg);
        return BENCH_FAIL;
    }
    FILE *f = fopen(sw->cfg_path, "w");
    int wrc = f != NULL ? cz_daemon_config_write(f, &c) : CZ_EIO;
    if (f != NULL && fclose(f) != 0)
        wrc = CZ_EIO;
    cz_daemon_config_free(&c);
    if (wrc != CZ_OK) {
        fprintf(stderr, "cuzk-bench sweep: cannot write %s\n", sw->cfg_path);
        return BENCH_FAIL;
    }
    if (start_daemon(sw) != 0)
        return BENCH_FAIL;
    fprintf(stderr, "cuzk-bench sweep: %s = %s: cuzk-daemon pid %d on %s\n", sw->o->key, value,
            (int)sw->pid, sw->addr);
    if (wait_ready(&cl, sw) != 0)
        goto out;
    client_opts bo = *sw->o;
    bo.addr = sw->addr;
    rc = bench_client_batch(&cb, cl, &bo, stderr);
    row->s_per_proof = bench_batch_s_per_proof(&cb.b);
    row->proofs_per_min = bench_batch_proofs_per_min(&cb.b);
    row->busy_pct = cb.busy_pct;
    row->rss_mib = peak_rss_mib(sw->pid);
    if (rc != BENCH_OK)
        log_tail(sw);
out:
    cz_grpc_client_destroy(cl); /* before the daemon goes: no call in flight */
    if (stop_daemon(sw) != 0 && rc == BENCH_OK) {
        log_tail(sw);
        rc = BENCH_FAIL;
    }
    return rc;
}

static void print_table(const sweep *sw, const sweep_row *rows, int nrows) {
    int w = (int)strlen(sw->o->key);
    for (int i = 0; i < nrows; i++)
        if ((int)strlen(rows[i].value) > w)
            w = (int)strlen(rows[i].value);
    printf("%-*s %10s %12s %12s %14s\n", w, sw->o->key, "s/proof", "proofs/min", "gpu_busy_%",
           "peak_rss_MiB");
    for (int i = 0; i < nrows; i++) {
        char busy[32] = "-", rss[32] = "-";
        if (rows[i].busy_pct >= 0)
            snprintf(busy, sizeof busy, "%.1f", rows[i].busy_pct);
        if (rows[i].rss_mib >= 0)
            snprintf(rss, sizeof rss, "%.1f", rows[i].rss_mib);
        printf("%-*s %10.3f %12.3f %12s %14s\n", w, rows[i].value, rows[i].s_per_proof,
               rows[i].proofs_per_min, busy, rss);
    }
    fflush(stdout);
}

int bench_client_sweep(client_opts *o) {
    sweep sw;
    sweep_row rows[CLIENT_MAX_VALUES];
    int nrows = 0, rc = BENCH_OK;
    memset(&sw, 0, sizeof sw);
    sw.o = o;
    if (find_daemon(&sw) != 0) {
        fprintf(stderr, "cuzk-bench sweep: no cuzk-daemon program at %s (--daemon PATH)\n",
                sw.daemon);
        return BENCH_USAGE;
    }
    for (int i = 0; i < o->nvalues; i++) { /* every value, before any daemon starts */
        cz_daemon_config c;
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        if (make_config(&c, &sw, o->values[i], &ei) != CZ_OK) {
            fprintf(stderr, "cuzk-bench sweep: %s\n", ei.msg);
            return BENCH_USAGE;
        }
        cz_daemon_config_free(&c);
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(sw.dir, sizeof sw.dir, "%s/cuzk-sweep-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (mkdtemp(sw.dir) == NULL) {
        fprintf(stderr, "cuzk-bench sweep: cannot make a temporary directory %s: %s\n", sw.dir,
                strerror(errno));
        return BENCH_FAIL;
    }
    snprintf(sw.cfg_path, sizeof sw.cfg_path, "%s/cuzk.toml", sw.dir);
    snprintf(sw.log_path, sizeof sw.log_path, "%s/daemon.log", sw.dir);
    snprintf(sw.sock, sizeof sw.sock, "%s/cuzk.sock", sw.dir);
    snprintf(sw.addr, sizeof sw.addr, "unix://%s", sw.sock);
    if (strlen(sw.sock) >= 100) {
        fprintf(stderr, "cuzk-bench sweep: socket path %s is too long (TMPDIR)\n", sw.sock);
        rc = BENCH_USAGE;
        goto out;
    }
    fprintf(stderr, "cuzk-bench sweep: daemon %s, scratch %s\n", sw.daemon, sw.dir);
    for (int i = 0; i < o->nvalues && rc == BENCH_OK; i++) {
        rc = run_value(&rows[nrows], &sw, o->values[i]);
        if (rc == BENCH_OK)
            nrows++;
    }
    print_table(&sw, rows, nrows);
out:
    stop_daemon(&sw); /* none runs here; kept for safety on new paths */
    unlink(sw.cfg_path);
    unlink(sw.log_path);
    unlink(sw.sock); /* the daemon removes it; a killed one does not */
    if (rmdir(sw.dir) != 0)
        fprintf(stderr, "cuzk-bench sweep: cannot remove %s: %s\n", sw.dir, strerror(errno));
    return rc;
}

#else
typedef int bench_client_sweep_not_built; /* ISO C: no empty file */
#endif
