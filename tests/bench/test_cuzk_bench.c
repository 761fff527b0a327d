/*
 * cuzk-bench, the program, from the outside: each subcommand on the CPU at a tiny size prints one
 * JSON line per result that parses (jansson) and has the documented members with consistent
 * values (min <= median <= max, runs_ms has --runs entries, prove's proofs all verified), the
 * exit codes are 0 / 2 as documented, and --gpu where no GPU is gives exit 2 with a message
 * naming --gpu (that check is skipped on a machine with a GPU). No timing is asserted.
 *
 * CMake passes the program's path in CZ_BENCH_PROGRAM; without it (no bench build) the test is
 * skipped.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cuzk/gpu.h"
#include "test.h"

static const char *prog;
static char out_path[64], err_path[64];
static char out[1 << 16], err[1 << 14];

static void slurp(char *buf, size_t cap, const char *path) {
    FILE *f = fopen(path, "r");
    size_t n = f != NULL ? fread(buf, 1, cap - 1, f) : 0;
    buf[n] = '\0';
    if (f != NULL)
        fclose(f);
}

/* Runs the program with args; its stdout and stderr land in out and err. The exit status. */
static int run(const char *args) {
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' %s >%s 2>%s", prog, args, out_path, err_path);
    int st = system(cmd);
    slurp(out, sizeof out, out_path);
    slurp(err, sizeof err, err_path);
    if (st == -1 || !WIFEXITED(st))
        return -1;
    return WEXITSTATUS(st);
}

static size_t count_lines(const char *s) {
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static double num(json_t *o, const char *k) {
    json_t *v = json_object_get(o, k);
    CHECK(json_is_number(v));
    return json_number_value(v);
}

static int str_is(json_t *o, const char *k, const char *want) {
    const char *s = json_string_value(json_object_get(o, k));
    return s != NULL && strcmp(s, want) == 0;
}

/* Parses the one line in out and checks the members every result has. NULL if it does not
 * parse. */
static json_t *result(const char *op, const char *curve, int log_n, int runs) {
    json_error_t jerr;
    CHECK_EQ_INT(count_lines(out), 1);
    json_t *j = json_loads(out, 0, &jerr);
    if (!CHECK(json_is_object(j))) {
        fprintf(stderr, "not JSON (%s): %s\n", jerr.text, out);
        return NULL;
    }
    CHECK(str_is(j, "bench", "cuzk-bench") && str_is(j, "op", op) && str_is(j, "curve", curve));
    CHECK(str_is(j, "mode", "cpu") && str_is(j, "device", "cpu"));
    CHECK(num(j, "log_n") == log_n && num(j, "n") == (double)(1 << log_n));
    CHECK(num(j, "threads") >= 1 && num(j, "runs") == runs && num(j, "warmup") == 1);
    double med = num(j, "median_ms"), lo = num(j, "min_ms"), hi = num(j, "max_ms");
    CHECK(0 <= lo && lo <= med && med <= hi);
    json_t *r = json_object_get(j, "runs_ms");
    CHECK(json_is_array(r) && json_array_size(r) == (size_t)runs);
    for (size_t i = 0; i < json_array_size(r); i++) {
        double v = json_number_value(json_array_get(r, i));
        CHECK(lo <= v && v <= hi);
    }
    CHECK(json_object_get(j, "git") == NULL && json_object_get(j, "copies") == NULL);
    return j;
}

static void check_prove(const char *cache, int cached) {
    char args[256];
    static const char *const fields[] = {"witness_ms", "ntt_ms",   "msm_a_ms", "msm_b1_ms",
                                         "msm_b2_ms",  "msm_c_ms", "msm_h_ms", "total_ms"};
    snprintf(args, sizeof args, "prove --log-n 6 --runs 1 --check --threads 2 --cache %s", cache);
    if (!CHECK_EQ_INT(run(args), 0)) {
        fprintf(stderr, "%s", err);
        return;
    }
    json_t *j = result("prove", "bn254", 6, 1);
    if (j == NULL)
        return;
    CHECK(num(j, "constraints") == 61);
    CHECK(json_is_true(json_object_get(j, "checked")) && num(j, "verified") == 2);
    CHECK_EQ_INT(json_boolean_value(json_object_get(j, "cached")), cached);
    CHECK_EQ_INT((json_object_get(j, "setup_ms") != NULL), !cached);
    json_t *t = json_object_get(j, "timings"), *m = json_object_get(j, "median_timings");
    CHECK(json_is_array(t) && json_array_size(t) == 1 && json_is_object(m));
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
        CHECK(num(json_array_get(t, 0), fields[f]) >= 0);
        CHECK(num(m, fields[f]) == num(json_array_get(t, 0), fields[f]));
    }
    json_decref(j);
}

static int setup(void) {
    prog = getenv("CZ_BENCH_PROGRAM");
    if (prog == NULL || access(prog, X_OK) != 0) {
        fprintf(stderr, "CZ_BENCH_PROGRAM not set (cuzk-bench not built): skipped\n");
        return TEST_SKIP;
    }
    snprintf(out_path, sizeof out_path, "/tmp/cuzk_test_bench_%ld.out", (long)getpid());
    snprintf(err_path, sizeof err_path, "/tmp/cuzk_test_bench_%ld.err", (long)getpid());
    return 0;
}

static void teardown(void) {
    remove(out_path);
    remove(err_path);
}

static void test_list_and_help(void) {
    CHECK(run("list") == 0 && strstr(out, "msm") && strstr(out, "ntt") && strstr(out, "prove"));
    CHECK(run("msm --help") == 0 && strstr(out, "--log-n") != NULL);
    /* SUBCOMMAND --help prints that subcommand's usage, not the global one. */
    static const char *const subs[] = {"prove",   "msm",   "ntt",   "upload", "engine",
                                       "single",  "batch", "sweep", "status", "metrics",
                                       "preload", "evict", "cancel"};
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++) {
        char args[64], want[64];
        snprintf(args, sizeof args, "%s --help", subs[i]);
        snprintf(want, sizeof want, "usage: cuzk-bench %s", subs[i]);
        if (!CHECK_EQ_INT(run(args), 0) || !CHECK(strstr(out, subs[i]) != NULL) ||
            !CHECK(strstr(out, "subcommands:") == NULL))
            fprintf(stderr, "%s: %s\n", args, out);
        /* the client commands' usage starts "usage: cuzk-bench [-a ADDR] CMD" */
        CHECK(strncmp(out, want, strlen(want)) == 0 || strstr(out, "[-a ADDR] ") != NULL);
    }
    CHECK(run("prove -h") == 0 && strstr(out, "--check") && strstr(out, "--cache") &&
          !strstr(out, "--group"));
    CHECK(run("engine --workload zkey --help") == 0 && strstr(out, "--partition-workers"));
    CHECK(run("timeline --help") == 0 && strstr(out, "usage: cuzk-bench timeline LOG"));
    CHECK(run("nosuch --help") == 2 && strstr(err, "unknown subcommand"));
}

static void test_msm(void) {
    if (CHECK_EQ_INT(run("msm --curve bn254 --log-n 8 --runs 2"), 0)) {
        json_t *j = result("msm", "bn254", 8, 2);
        CHECK(j != NULL && str_is(j, "group", "g1"));
        json_decref(j);
    }
}

static void test_ntt(void) {
    if (CHECK_EQ_INT(run("ntt --curve bls12381 --log-n 5 --runs 3 --kind coset-inverse"), 0)) {
        json_t *j = result("ntt", "bls12381", 5, 3);
        CHECK(j != NULL && str_is(j, "kind", "coset-inverse") && num(j, "domain_ms") >= 0);
        json_decref(j);
    }
}

static void test_prove(void) {
    char cache[64], files[256];
    snprintf(cache, sizeof cache, "/tmp/cuzk_test_bench_%ld.cache", (long)getpid());
    check_prove(cache, 0); /* makes the circuit and key */
    check_prove(cache, 1); /* reuses them */
    static const char *const exts[] = {"r1cs", "wtns", "zkey"};
    for (size_t e = 0; e < 3; e++) {
        snprintf(files, sizeof files, "%s/mulchain-bn254-6.%s", cache, exts[e]);
        CHECK_EQ_INT(remove(files), 0);
    }
    CHECK_EQ_INT(rmdir(cache), 0); /* nothing else was left there (no temporary files) */
}

/* Usage errors: exit 2, a message, no result. */
static void test_usage_errors(void) {
    static const char *const usage[] = {
        "",
        "nosuch",
        "msm --runs 0",
        "msm --log-n 31",
        "msm --curve bn128",
        "ntt --kind sideways",
        "msm --cache x",
        "prove --log-n 1",
        "msm --device 0",
        "msm --copies",
        "msm --window-bits 3",
        "msm --window-bits 23",
        "ntt --window-bits 8",
    };
    for (size_t i = 0; i < sizeof usage / sizeof usage[0]; i++) {
        CHECK_EQ_INT(run(usage[i]), 2);
        CHECK(out[0] == '\0' && err[0] != '\0');
    }
}

static void test_gpu_refused(void) {
    int count = 0;
    if (cz_gpu_device_count(&count, NULL) == CZ_OK && count > 0) {
        fprintf(stderr, "a GPU is present: the --gpu error check is skipped\n");
        return;
    }
    CHECK(run("msm --gpu --log-n 8") == 2 && strstr(err, "--gpu") != NULL);
    CHECK_EQ_INT(out[0], '\0');
    CHECK(run("prove --gpu --log-n 6") == 2 && strstr(err, "--gpu") != NULL);
}

static const test_case cases[] = {
    {"list_and_help", test_list_and_help},
    {"msm", test_msm},
    {"ntt", test_ntt},
    {"prove", test_prove},
    {"usage_errors", test_usage_errors},
    {"gpu_refused", test_gpu_refused},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
