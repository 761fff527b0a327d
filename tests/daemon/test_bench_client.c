/*
 * cuzk-bench as a client of cuzk-daemon, from the outside (CPU backend): this test starts the
 * daemon on a temporary Unix socket and runs the bench's client subcommands against it.
 *
 * The oracles are the daemon's own counters, read through a different RPC than the one that did
 * the work (GetMetrics after Prove), the documented proof sizes (192 bytes per BLS12-381
 * partition, 256 for a BN254 snarkjs proof), the processes themselves (the sweep's daemons no
 * longer exist, its temporary directory is empty) and the daemon's configuration defaults
 * (cz_daemon_config_defaults for the default address). No timing is asserted beyond internal
 * consistency (min <= avg <= max, prove <= wall).
 *
 * CMake passes the programs in CZ_BENCH_PROGRAM and CZ_DAEMON_PROGRAM; without them (no daemon or
 * no bench in this build) the test is skipped.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "daemon/config.h"
#include "test.h"

static const char *bench, *daemon_prog;
static char dir[256], sock_addr[320], cache[300], out_path[300], err_path[300];
static char out[1 << 16], err[1 << 16];

static void sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void slurp(char *buf, size_t cap, const char *path) {
    FILE *f = fopen(path, "r");
    size_t n = f != NULL ? fread(buf, 1, cap - 1, f) : 0;
    buf[n] = '\0';
    if (f != NULL)
        fclose(f);
}

/* Starts argv (NULL-terminated) with stdout and stderr to the given files. */
static pid_t spawn(char *const argv[], const char *so, const char *se) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int o = open(so, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int e = open(se, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (o < 0 || e < 0)
            _exit(126);
        dup2(o, 1);
        dup2(e, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    return pid;
}

static int wait_status(pid_t pid) {
    int st;
    if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
        return -1;
    return WEXITSTATUS(st);
}

/* Runs cuzk-bench with the arguments (NULL-terminated); out and err get its output. */
static int run_v(const char *first, ...) {
    char *argv[64];
    int n = 0;
    argv[n++] = (char *)bench;
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a != NULL && n < 63; a = va_arg(ap, const char *))
        argv[n++] = (char *)a;
    va_end(ap);
    argv[n] = NULL;
    int rc = wait_status(spawn(argv, out_path, err_path));
    slurp(out, sizeof out, out_path);
    slurp(err, sizeof err, err_path);
    if (rc != 0)
        fprintf(stderr, "  cuzk-bench %s ... -> %d; stderr: %.600s\n", first, rc, err);
    return rc;
}
#define run(...) run_v(__VA_ARGS__, (const char *)NULL)

static size_t count_lines(const char *s) {
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* Line i (0-based) of s parsed as JSON; NULL when it does not parse. */
static json_t *json_line(const char *s, size_t i) {
    for (; i > 0 && s != NULL; i--)
        if ((s = strchr(s, '\n')) != NULL)
            s++;
    if (s == NULL)
        return NULL;
    size_t len = strcspn(s, "\n");
    json_error_t e;
    return json_loadb(s, len, 0, &e);
}

static double num(json_t *o, const char *k) {
    json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : -1e300;
}

static int str_is(json_t *o, const char *k, const char *want) {
    const char *s = json_string_value(json_object_get(o, k));
    return s != NULL && strcmp(s, want) == 0;
}

/* The value of the first sample line starting with name in Prometheus text; -1 if absent. */
static double metric(const char *text, const char *name) {
    size_t n = strlen(name);
    for (const char *p = text; p != NULL && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (strncmp(p, name, n) == 0 && p[n] == ' ')
            return strtod(p + n + 1, NULL);
    return -1;
}

/* proofs/min and s/proof (each printed with 3 decimals) describe the same rate: their product
 * is 60 within the rounding of s/proof. */
static int per_min_matches(double ppm, double spp) {
    return spp > 0 && fabs(ppm * spp - 60) <= 60 * 0.0006 / spp + 0.01;
}

static pid_t start_daemon(void) {
    char sock[320], log[300], *argv[16];
    snprintf(sock, sizeof sock, "%s", sock_addr);
    snprintf(log, sizeof log, "%s/daemon.log", dir);
    int n = 0;
    argv[n++] = (char *)daemon_prog;
    argv[n++] = "--listen";
    argv[n++] = sock;
    argv[n++] = "--synth-cache";
    argv[n++] = cache;
    argv[n++] = "--budget-gib";
    argv[n++] = "4";
    argv[n++] = "--threads";
    argv[n++] = "2";
    argv[n] = NULL;
    return spawn(argv, "/dev/null", log);
}

/* Proofs one at a time, then a batch; every proof is counted by the daemon. */
static void test_proofs(void) {
    CHECK_EQ_INT(
        run("-a", sock_addr, "single", "--scale", "10", "--partitions", "2", "--id", "one"), 0);
    CHECK_EQ_INT(count_lines(out), 1);
    json_t *j = json_line(out, 0);
    CHECK(j != NULL && str_is(j, "bench", "client") && str_is(j, "op", "single"));
    CHECK(str_is(j, "job_id", "one") && str_is(j, "state", "COMPLETED"));
    CHECK(num(j, "proof_bytes") == 2 * 192);
    CHECK(num(j, "prove_ms") >= 0 && num(j, "prove_ms") <= num(j, "wall_ms") + 1);
    CHECK(num(j, "queue_ms") >= 0);
    /* the daemon's per-job sums: two partitions' synthesis and compute happened */
    CHECK(num(j, "compute_ms") > 0 && num(j, "synth_ms") >= 0 && num(j, "load_ms") >= 0);
    json_decref(j);

    /* -a after the subcommand works as well. */
    CHECK_EQ_INT(run("batch", "-a", sock_addr, "--scale", "10", "--partitions", "1", "-c", "6",
                     "-j", "3", "--priority", "high"),
                 0);
    CHECK_EQ_INT(count_lines(out), 7);
    int seen[6] = {0};
    char ids[6][128];
    for (size_t i = 0; i < 6; i++) {
        json_t *p = json_line(out, i);
        if (!CHECK(p != NULL && str_is(p, "op", "batch")))
            continue;
        int k = (int)num(p, "job");
        CHECK(k >= 0 && k < 6);
        if (k >= 0 && k < 6) {
            seen[k]++;
            snprintf(ids[k], sizeof ids[k], "%s", json_string_value(json_object_get(p, "job_id")));
        }
        CHECK(str_is(p, "state", "COMPLETED") && num(p, "proof_bytes") == 192);
        CHECK(num(p, "prove_ms") >= 0 && num(p, "prove_ms") <= num(p, "wall_ms") + 1);
        json_decref(p);
    }
    for (int k = 0; k < 6; k++) {
        CHECK_EQ_INT(seen[k], 1);
        for (int l = 0; l < k; l++)
            CHECK(seen[k] && seen[l] && strcmp(ids[k], ids[l]) != 0);
    }
    json_t *s = json_line(out, 6);
    CHECK(s != NULL && json_is_true(json_object_get(s, "summary")));
    CHECK(num(s, "count") == 6 && num(s, "concurrency") == 3 && num(s, "done") == 6);
    CHECK(num(s, "scale") == 10 && num(s, "partitions") == 1 &&
          str_is(s, "workload", "porep-synth"));
    CHECK(num(s, "min_wall_s") <= num(s, "avg_wall_s") &&
          num(s, "avg_wall_s") <= num(s, "max_wall_s"));
    CHECK(num(s, "min_prove_s") >= 0 && num(s, "min_prove_s") <= num(s, "avg_prove_s") &&
          num(s, "avg_prove_s") <= num(s, "max_prove_s"));
    CHECK(num(s, "max_prove_s") <= num(s, "max_wall_s") + 0.002);
    double bs = num(s, "batch_s"), spp = num(s, "s_per_proof"), ppm = num(s, "proofs_per_min");
    CHECK(bs > 0 && spp > 0 && ppm > 0);
    CHECK(spp * 6 > bs - 0.01 && spp * 6 < bs + 0.01);
    CHECK(per_min_matches(ppm, spp));
    CHECK(num(s, "busy_pct") >= 0 && num(s, "busy_pct") <= 101);
    CHECK(strstr(err, "6/6 done") != NULL);
    json_decref(s);

    /* A zkey proof (BN254 snarkjs: 256 bytes) from a relative path. */
    CHECK_EQ_INT(run("-a", sock_addr, "single", "--workload", "zkey", "--zkey",
                     "examples/poseidon/poseidon_chain.zkey", "--wtns",
                     "examples/poseidon/poseidon_chain.wtns"),
                 0);
    j = json_line(out, 0);
    CHECK(j != NULL && str_is(j, "state", "COMPLETED") && num(j, "proof_bytes") == 256);
    json_decref(j);

    /* The daemon counted them: 1 + (1 warm-up + 6) porep-synth, 1 zkey. */
    CHECK_EQ_INT(run("-a", sock_addr, "metrics"), 0);
    CHECK(metric(out, "cuzk_proofs_completed_total") == 9);
    CHECK(metric(out, "cuzk_proofs_completed{proof_kind=\"porep_synth\"}") == 8);
    CHECK(metric(out, "cuzk_proofs_completed{proof_kind=\"snarkjs_zkey\"}") == 1);
    CHECK(metric(out, "cuzk_gpu_busy_seconds_total{device=\"0\"}") > 0);
    CHECK_EQ_INT(run("-a", sock_addr, "status"), 0);
    CHECK(strstr(out, "9 completed, 0 failed") != NULL);
    CHECK(strstr(out, "porep-synth") != NULL && strstr(out, "gpu 0") != NULL);
}

static void test_srs(void) {
    char abs[4096];
    CHECK(realpath("examples/poseidon/poseidon_chain.zkey", abs) != NULL);
    /* The zkey job above loaded the key; preloading it again finds it loaded. */
    CHECK_EQ_INT(run("-a", sock_addr, "preload", "examples/poseidon/poseidon_chain.zkey"), 0);
    CHECK(strstr(out, "already loaded") != NULL || strstr(out, "loaded in") != NULL);
    CHECK_EQ_INT(run("-a", sock_addr, "preload", "examples/poseidon/poseidon_chain.zkey"), 0);
    CHECK(strstr(out, "already loaded") != NULL);
    CHECK_EQ_INT(run("-a", sock_addr, "status"), 0);
    CHECK(strstr(out, abs) != NULL); /* GetStatus lists the preloaded key */
    CHECK_EQ_INT(run("-a", sock_addr, "evict", "examples/poseidon/poseidon_chain.zkey"), 0);
    CHECK(strstr(out, "freed ") != NULL && strstr(out, "freed 0 ") == NULL);
    CHECK_EQ_INT(run("-a", sock_addr, "evict", "examples/poseidon/poseidon_chain.zkey"), 0);
    CHECK(strstr(out, "was not loaded") != NULL);
    CHECK_EQ_INT(run("-a", sock_addr, "preload", "/nonexistent/x.zkey"), 1);
    CHECK(strstr(err, "INVALID_ARGUMENT") != NULL);
}

static void test_cancel_and_errors(void) {
    char vout[300], verr[300];
    snprintf(vout, sizeof vout, "%s/victim.out", dir);
    snprintf(verr, sizeof verr, "%s/victim.err", dir);
    char *argv[] = {(char *)bench,  "-a", sock_addr, "single", "--scale", "12",
                    "--partitions", "64", "--id",    "victim", NULL};
    pid_t v = spawn(argv, vout, verr); /* 64 partitions: long enough to be cancelled */
    int cancelled = 0;
    for (int t = 0; t < 600 && !cancelled; t++) { /* NOT_FOUND until the job is submitted */
        cancelled = run("-a", sock_addr, "cancel", "victim") == 0;
        if (!cancelled)
            sleep_ms(100);
    }
    CHECK(cancelled);
    CHECK(strstr(out, "cancel victim: was ") != NULL);
    CHECK_EQ_INT(wait_status(v), 1);
    slurp(out, sizeof out, vout);
    slurp(err, sizeof err, verr);
    json_t *j = json_line(out, 0);
    CHECK(j != NULL && str_is(j, "job_id", "victim") && str_is(j, "state", "CANCELLED"));
    json_decref(j);
    CHECK(strstr(err, "CANCELLED") != NULL);

    CHECK_EQ_INT(run("-a", sock_addr, "cancel", "no-such-job"), 1);
    CHECK(strstr(err, "NOT_FOUND") != NULL && strstr(err, "no-such-job") != NULL);
    /* A job the daemon refuses: its message is printed, exit 1. */
    CHECK_EQ_INT(run("-a", sock_addr, "single", "--scale", "30"), 1);
    CHECK(strstr(err, "INVALID_ARGUMENT") != NULL && strstr(err, "synth_scale") != NULL);
    CHECK_EQ_INT(run("-a", sock_addr, "batch", "--scale", "30", "-c", "2", "--warmup", "0"), 1);
    CHECK(count_lines(out) == 3 && strstr(err, "0/2 done") != NULL);
    /* Usage errors: exit 2 with a message. */
    CHECK(run("batch", "-c", "0") == 2 && strstr(err, "--count") != NULL);
    CHECK(run("status", "--scale", "10") == 2 && strstr(err, "does not apply") != NULL);
    CHECK(run("cancel") == 2 && strstr(err, "job id") != NULL);
    CHECK(run("single", "--workload", "zkey") == 2 && strstr(err, "--zkey") != NULL);
    CHECK(run("single", "--workload", "snap-update") == 2 && strstr(err, "--request DIR") != NULL);
    CHECK(run("single", "--workload", "snap-update", "--request", dir) == 2 &&
          strstr(err, "request.txt") != NULL); /* a folder without an update */
    CHECK_EQ_INT(run("-a", sock_addr, "msm"), 2);
    CHECK(run("sweep", "--values", "1") == 2 && strstr(err, "--key") != NULL);
    /* Nobody listening: a clear message naming the address, exit 1. */
    char nobody[320];
    snprintf(nobody, sizeof nobody, "unix://%s/nobody.sock", dir);
    CHECK_EQ_INT(run("-a", nobody, "status"), 1);
    CHECK(strstr(err, "cannot reach the daemon") != NULL && strstr(err, nobody) != NULL);
    /* The default address is the daemon's default daemon.listen. */
    cz_daemon_config c;
    cz_daemon_config_defaults(&c);
    if (access(c.daemon.listen + strlen("unix://"), F_OK) != 0) {
        CHECK_EQ_INT(run("metrics"), 1);
        CHECK(strstr(err, c.daemon.listen) != NULL);
    }
    cz_daemon_config_free(&c);
}

/* The pids of "cuzk-daemon pid N" in the sweep's stderr. */
static int sweep_pids(pid_t *pids, int max) {
    int n = 0;
    for (const char *p = strstr(err, "cuzk-daemon pid "); p != NULL && n < max;
         p = strstr(p + 1, "cuzk-daemon pid ")) {
        pid_t pid = (pid_t)atoi(p + strlen("cuzk-daemon pid "));
        int dup = 0;
        for (int i = 0; i < n; i++)
            dup |= pids[i] == pid;
        if (!dup && pid > 0)
            pids[n++] = pid;
    }
    return n;
}

static int dir_is_empty(const char *path) {
    char cmd[400];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s')\"", path);
    return system(cmd) == 0;
}

static void test_sweep(void) {
    char tmp[300];
    snprintf(tmp, sizeof tmp, "%s/tmp", dir);
    mkdir(tmp, 0700);
    setenv("TMPDIR", tmp, 1);
    CHECK_EQ_INT(run("sweep", "--key", "synthesis.partition_workers", "--values", "1,2", "-c", "2",
                     "-j", "2", "--scale", "10", "--partitions", "2", "--daemon", daemon_prog,
                     "--daemon-arg", "--synth-cache", "--daemon-arg", cache, "--daemon-arg",
                     "--threads", "--daemon-arg", "2", "--daemon-arg", "--budget-gib",
                     "--daemon-arg", "4"),
                 0);
    CHECK_EQ_INT(count_lines(out), 3);
    CHECK(strncmp(out, "synthesis.partition_workers ", 28) == 0);
    CHECK(strstr(out, "s/proof") != NULL && strstr(out, "peak_rss_MiB") != NULL);
    const char *row = strchr(out, '\n');
    for (int r = 0; r < 2 && row != NULL; r++) {
        char value[32];
        double spp = 0, ppm = 0, busy = -1, rss = 0;
        CHECK_EQ_INT(sscanf(row + 1, "%31s %lf %lf %lf %lf", value, &spp, &ppm, &busy, &rss), 5);
        CHECK_EQ_INT(atoi(value), r + 1);
        CHECK(spp > 0 && ppm > 0 && per_min_matches(ppm, spp));
        CHECK(busy >= 0 && busy <= 101);
        CHECK(rss > 1); /* MiB: a daemon that proved something */
        row = strchr(row + 1, '\n');
    }
    pid_t pids[8];
    int np = sweep_pids(pids, 8);
    CHECK_EQ_INT(np, 2);
    for (int i = 0; i < np; i++)
        CHECK(kill(pids[i], 0) == -1 && errno == ESRCH);
    CHECK(dir_is_empty(tmp));

    /* A key or value the daemon's configuration refuses: exit 2, no daemon started. */
    CHECK_EQ_INT(run("sweep", "--key", "synthesis.nope", "--values", "1", "--daemon", daemon_prog),
                 2);
    CHECK(strstr(err, "nope") != NULL && strstr(err, "cuzk-daemon pid") == NULL);
    CHECK_EQ_INT(run("sweep", "--key", "synthesis.partition_workers", "--values", "2,0", "--daemon",
                     daemon_prog),
                 2);
    CHECK(strstr(err, "out of range") != NULL && strstr(err, "cuzk-daemon pid") == NULL);
    /* A daemon that exits at start: its status and its stderr's tail, exit 1, nothing left. */
    CHECK_EQ_INT(run("sweep", "--key", "synthesis.partition_workers", "--values", "1", "--daemon",
                     daemon_prog, "--daemon-arg", "--bogus-flag", "--daemon-arg", "x"),
                 1);
    CHECK(strstr(err, "exited with status 2") != NULL && strstr(err, "--bogus-flag") != NULL);
    CHECK(dir_is_empty(tmp));
    unsetenv("TMPDIR");
}

/* The daemon the client cases talk to: started by the first case that needs it, stopped by
 * the sweep (which starts its own) or at the end. */
static pid_t daemon_pid = -1;
static int daemon_ok;

static int daemon_up(void) {
    if (daemon_pid > 0)
        return daemon_ok;
    daemon_pid = start_daemon();
    int up = 0;
    for (int t = 0; t < 600 && !up; t++) {
        up = run("-a", sock_addr, "status") == 0;
        if (!up)
            sleep_ms(100);
    }
    daemon_ok = CHECK(up);
    return daemon_ok;
}

static void daemon_stop(void) {
    if (daemon_pid <= 0)
        return;
    kill(daemon_pid, SIGTERM);
    CHECK_EQ_INT(wait_status(daemon_pid), 0);
    daemon_pid = -1;
}

static int setup(void) {
    bench = getenv("CZ_BENCH_PROGRAM");
    daemon_prog = getenv("CZ_DAEMON_PROGRAM");
    if (bench == NULL || daemon_prog == NULL || access(bench, X_OK) != 0 ||
        access(daemon_prog, X_OK) != 0) {
        printf("skipped: CZ_BENCH_PROGRAM / CZ_DAEMON_PROGRAM not set (no daemon or bench)\n");
        return TEST_SKIP;
    }
    snprintf(dir, sizeof dir, "/tmp/cz-bench-client-XXXXXX");
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(sock_addr, sizeof sock_addr, "unix://%s/run/cuzk.sock", dir);
    snprintf(cache, sizeof cache, "%s/cache", dir);
    snprintf(out_path, sizeof out_path, "%s/out", dir);
    snprintf(err_path, sizeof err_path, "%s/err", dir);
    return 0;
}

static void teardown(void) {
    daemon_stop();
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

static void case_proofs(void) {
    if (daemon_up())
        test_proofs();
}

static void case_srs(void) {
    if (daemon_up())
        test_srs();
}

static void case_cancel_and_errors(void) {
    if (daemon_up())
        test_cancel_and_errors();
}

static void case_sweep(void) {
    daemon_stop();
    test_sweep();
}

static const test_case cases[] = {
    {"proofs", case_proofs},
    {"srs", case_srs},
    {"cancel_and_errors", case_cancel_and_errors},
    {"sweep", case_sweep},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
