/*
 * The daemon's configuration (src/daemon/config.c, toml.c): every key from a file and from
 * cz_daemon_config_set, every error with its FILE:LINE, deprecated keys, and the shipped
 * cuzk.example.toml, which must be exactly cz_daemon_config_write of the defaults.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/log.h"
#include "daemon/config.h"
#include "daemon/gpus.h"
#include "daemon/toml.h"
#include "test.h"

static char tmp_path[64];

static const char *write_tmp(const char *text) {
    snprintf(tmp_path, sizeof tmp_path, "/tmp/cz_test_config_XXXXXX");
    int fd = mkstemp(tmp_path);
    if (fd < 0) {
        perror("mkstemp");
        exit(1);
    }
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return tmp_path;
}

/* The TOML text cz_daemon_config_write makes of c (malloc'd). */
static char *dump(const cz_daemon_config *c) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK_ERR(cz_daemon_config_write(f, c), CZ_OK);
    fclose(f);
    return buf;
}

static int same_config(const cz_daemon_config *a, const cz_daemon_config *b) {
    char *x = dump(a), *y = dump(b);
    int same = strcmp(x, y) == 0;
    free(x);
    free(y);
    return same;
}

/* Loads text; checks the code and that the message starts with "PATH:LINE: " and holds what. */
static void check_error(const char *text, int code, int line, const char *what) {
    cz_daemon_config c;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    const char *path = write_tmp(text);
    int rc = cz_daemon_config_load(&c, path, &ei);
    char prefix[128];
    snprintf(prefix, sizeof prefix, "%s:%d: ", path, line);
    int ok = rc == code && strncmp(ei.msg, prefix, strlen(prefix)) == 0 && strstr(ei.msg, what);
    if (!CHECK(ok))
        fprintf(stderr, "  text <<%s>>\n  rc %d (want %d) msg '%s' (want '%s...%s')\n", text, rc,
                code, ei.msg, prefix, what);
    /* a failed load leaves the defaults */
    cz_daemon_config d;
    cz_daemon_config_defaults(&d);
    CHECK(same_config(&c, &d));
    cz_daemon_config_free(&d);
    cz_daemon_config_free(&c);
    unlink(path);
}

static void test_defaults(void) {
    cz_daemon_config c;
    cz_errinfo ei;
    CHECK_ERR(cz_daemon_config_load(&c, NULL, &ei), CZ_OK);
    /* the original's defaults (research notes, cuzk.md 4.1) */
    CHECK_EQ_STR(c.daemon.listen, "unix:///run/curio/cuzk.sock");
    CHECK_EQ_STR(c.daemon.status_listen, "");
    CHECK_EQ_INT(c.daemon.rpc_threads, 16);
    CHECK_EQ_STR(c.daemon.state_dir, "/var/lib/cuzk");
    CHECK_EQ_INT(c.memory.total_budget, 0);
    CHECK_EQ_INT(c.memory.safety_margin, 5ull << 30);
    CHECK_EQ_INT(c.memory.eviction_min_idle, 300);
    CHECK_EQ_INT(c.gpus.ndevices, 0);
    CHECK_EQ_INT(c.gpus.gpu_threads, 0);
    CHECK_EQ_INT(c.gpus.gpu_workers_per_device, 2);
    CHECK_EQ_INT(c.gpus.g2_msm_on_gpu, 1);
    CHECK_EQ_U64(c.gpus.upload_chunk, 64ull << 20);
    CHECK_EQ_INT(c.synthesis.threads, 0);
    CHECK_EQ_STR(c.srs.param_cache, "/data/zk/params");
    CHECK_EQ_INT(c.srs.npreload, 0);
    CHECK_EQ_INT(c.srs.load_threads, 0);
    CHECK_EQ_INT(c.srs.params_subgroup_check, 0);
    CHECK_EQ_INT(c.logging.level, CZ_LOG_LEVEL_INFO);
    CHECK_EQ_STR(c.logging.timeline, "");
    CHECK_EQ_INT(c.logging.msm_phases, 0);
    cz_daemon_config_free(&c);

    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_daemon_config_load(&c, "/nonexistent/cuzk.toml", &ei), CZ_EIO);
    CHECK(strstr(ei.msg, "/nonexistent/cuzk.toml") != NULL);
    cz_daemon_config_free(&c);
}

static const char *every_key = "# every key, none at its default\n"
                               "[daemon]\n"
                               "listen = \"0.0.0.0:9820\"\n"
                               "status_listen = '127.0.0.1:9821' # a literal string\n"
                               "rpc_threads = 3\n"
                               "state_dir = \"/srv/cuzk-state\"\n"
                               "\n"
                               "[memory]\n"
                               "total_budget = \"200GiB\"\n"
                               "safety_margin = 1_000_000\n"
                               "eviction_min_idle = \"2h\"\n"
                               "[gpus]\n"
                               "devices = [\n"
                               "  3, # the first\n"
                               "  1,\n"
                               "]\n"
                               "gpu_threads = 32\n"
                               "gpu_workers_per_device = 1\n"
                               "g2_msm_on_gpu = 0\n"
                               "upload_chunk = \"16MiB\"\n"
                               "[scheduler]\n"
                               "job_retention = 90\n"
                               "max_retained_jobs = 50\n"
                               "[synthesis]\n"
                               "threads = 64\n"
                               "partition_workers = 8\n"
                               "urgent_worker = 0\n"
                               "[pipeline]\n"
                               "finalizers = 3\n"
                               "max_gpu_queue_depth = -1\n"
                               "[srs]\n"
                               "param_cache = \"/var/tmp/p\\u00e9\\\"q\\\\\"\n"
                               "preload = [\"porep-32g.zkey\", \"/abs/wpost.zkey\"]\n"
                               "load_threads = 12\n"
                               "params_subgroup_check = 1\n"
                               "[logging]\n"
                               "level = \"debug\"\n"
                               "timeline = \"/tmp/tl.txt\"\n"
                               "msm_phases = true\n";

static void check_every_key(const cz_daemon_config *c) {
    CHECK_EQ_STR(c->daemon.listen, "0.0.0.0:9820");
    CHECK_EQ_STR(c->daemon.status_listen, "127.0.0.1:9821");
    CHECK_EQ_INT(c->daemon.rpc_threads, 3);
    CHECK_EQ_STR(c->daemon.state_dir, "/srv/cuzk-state");
    CHECK_EQ_INT(c->memory.total_budget, 200ull << 30);
    CHECK_EQ_INT(c->memory.safety_margin, 1000000);
    CHECK_EQ_INT(c->memory.eviction_min_idle, 7200);
    CHECK(c->gpus.ndevices == 2 && c->gpus.devices[0] == 3 && c->gpus.devices[1] == 1);
    CHECK_EQ_INT(c->gpus.gpu_threads, 32);
    CHECK_EQ_INT(c->gpus.gpu_workers_per_device, 1);
    CHECK_EQ_INT(c->gpus.g2_msm_on_gpu, 0);
    CHECK_EQ_U64(c->gpus.upload_chunk, 16ull << 20);
    CHECK_EQ_INT(c->scheduler.job_retention, 90);
    CHECK_EQ_INT(c->scheduler.max_retained_jobs, 50);
    CHECK_EQ_INT(c->synthesis.threads, 64);
    CHECK_EQ_INT(c->synthesis.partition_workers, 8);
    CHECK_EQ_INT(c->synthesis.urgent_worker, 0);
    CHECK_EQ_INT(c->pipeline.finalizers, 3);
    CHECK_EQ_INT(c->pipeline.max_gpu_queue_depth, -1);
    CHECK_EQ_STR(c->srs.param_cache, "/var/tmp/p\xc3\xa9\"q\\");
    CHECK(c->srs.npreload == 2 && strcmp(c->srs.preload[0], "porep-32g.zkey") == 0 &&
          strcmp(c->srs.preload[1], "/abs/wpost.zkey") == 0);
    CHECK_EQ_INT(c->srs.load_threads, 12);
    CHECK_EQ_INT(c->srs.params_subgroup_check, 1);
    CHECK_EQ_INT(c->logging.level, CZ_LOG_LEVEL_DEBUG);
    CHECK_EQ_STR(c->logging.timeline, "/tmp/tl.txt");
    CHECK_EQ_INT(c->logging.msm_phases, 1);
}

static void test_every_key_file(void) {
    cz_daemon_config c, d;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    const char *path = write_tmp(every_key);
    int rc = cz_daemon_config_load(&c, path, &ei);
    if (!CHECK_ERR(rc, CZ_OK))
        fprintf(stderr, "  %s\n", ei.msg);
    unlink(path);
    check_every_key(&c);

    /* write, load back: the same configuration (the writer round-trips every value) */
    char *text = dump(&c);
    path = write_tmp(text);
    CHECK_ERR(cz_daemon_config_load(&d, path, &ei), CZ_OK);
    unlink(path);
    check_every_key(&d);
    CHECK(same_config(&c, &d));
    free(text);
    cz_daemon_config_free(&d);
    cz_daemon_config_free(&c);
}

static void test_every_key_set(void) {
    static const char *kv[][2] = {
        {"daemon.listen", "0.0.0.0:9820"},
        {"daemon.status_listen", "127.0.0.1:9821"},
        {"daemon.rpc_threads", "3"},
        {"daemon.state_dir", "/srv/cuzk-state"},
        {"memory.total_budget", "200 GiB"},
        {"memory.safety_margin", "1000000"},
        {"memory.eviction_min_idle", "120m"},
        {"gpus.devices", "3,1"},
        {"gpus.gpu_threads", "32"},
        {"gpus.gpu_workers_per_device", "1"},
        {"gpus.g2_msm_on_gpu", "0"},
        {"gpus.upload_chunk", "16MiB"},
        {"scheduler.job_retention", "90s"},
        {"scheduler.max_retained_jobs", "50"},
        {"synthesis.threads", "64"},
        {"synthesis.partition_workers", "8"},
        {"synthesis.urgent_worker", "0"},
        {"pipeline.finalizers", "3"},
        {"pipeline.max_gpu_queue_depth", "-1"},
        {"srs.param_cache", "/var/tmp/p\xc3\xa9\"q\\"},
        {"srs.preload", "porep-32g.zkey, /abs/wpost.zkey "},
        {"srs.load_threads", "12"},
        {"srs.params_subgroup_check", "1"},
        {"logging.level", "DEBUG"},
        {"logging.timeline", "/tmp/tl.txt"},
        {"logging.msm_phases", "true"},
    };
    cz_daemon_config c;
    cz_errinfo ei;
    cz_daemon_config_defaults(&c);
    for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++) {
        cz_errinfo_clear(&ei);
        if (!CHECK_ERR(cz_daemon_config_set(&c, kv[i][0], kv[i][1], &ei), CZ_OK))
            fprintf(stderr, "  %s: %s\n", kv[i][0], ei.msg);
    }
    check_every_key(&c);

    /* TOML forms of the lists, and "auto" */
    CHECK_ERR(cz_daemon_config_set(&c, "gpus.devices", "[0, 2, 5]", &ei), CZ_OK);
    CHECK(c.gpus.ndevices == 3 && c.gpus.devices[2] == 5);
    CHECK_ERR(cz_daemon_config_set(&c, "gpus.devices", "", &ei), CZ_OK);
    CHECK_EQ_INT(c.gpus.ndevices, 0);
    CHECK_ERR(cz_daemon_config_set(&c, "srs.preload", "[\"a\"]", &ei), CZ_OK);
    CHECK(c.srs.npreload == 1 && strcmp(c.srs.preload[0], "a") == 0);
    CHECK_ERR(cz_daemon_config_set(&c, "memory.total_budget", "auto", &ei), CZ_OK);
    CHECK_EQ_INT(c.memory.total_budget, 0);

    /* failures leave c as it was */
    char *before = dump(&c);
    static const struct {
        const char *key, *value;
        int code;
        const char *what;
    } bad[] = {
        {"synthesis.partition_workers", "0", CZ_ERANGE, "out of range"},
        {"synthesis.partition_workers", "eight", CZ_EFORMAT, "invalid value"},
        {"synthesis.partition_workers", "8 9", CZ_EFORMAT, "unexpected text"},
        {"synthesis.partition_workers", "\"8\"", CZ_EFORMAT, "must be an integer"},
        {"synthesis.nope", "1", CZ_EFORMAT, "unknown key 'nope' in [synthesis]"},
        {"nope.threads", "1", CZ_EFORMAT, "unknown table [nope]"},
        {"threads", "1", CZ_EINVAL, "table.key"},
        {"gpus.devices", "0,0", CZ_EFORMAT, "twice"},
        {"gpus.devices", "0,x", CZ_EFORMAT, "invalid value"},
        {"gpus.devices", "[0, 2000]", CZ_ERANGE, "out of range"},
        {"memory.safety_margin", "5 GiBs", CZ_EFORMAT, "not a size"},
        {"memory.total_budget", "1000", CZ_ERANGE, "out of range"},
        {"memory.eviction_min_idle", "-5m", CZ_EFORMAT, "not a duration"},
        {"logging.level", "loud", CZ_EFORMAT, "not error, warn"},
        {"daemon.listen", "", CZ_ERANGE, "must not be empty"},
        {"daemon.state_dir", "", CZ_ERANGE, "must not be empty"},
        {"srs.preload", "a,,b", CZ_ERANGE, "empty item"},
        {"srs.params_subgroup_check", "2", CZ_ERANGE, "out of range"},
        {"srs.params_subgroup_check", "\"yes\"", CZ_EFORMAT, "must be an integer"},
        {"srs.load_threads", "-1", CZ_ERANGE, "out of range"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cz_errinfo_clear(&ei);
        int rc = cz_daemon_config_set(&c, bad[i].key, bad[i].value, &ei);
        if (!CHECK(rc == bad[i].code && strstr(ei.msg, bad[i].what) &&
                   strncmp(ei.msg, bad[i].key, strlen(bad[i].key)) == 0))
            fprintf(stderr, "  %s=%s: rc %d msg '%s'\n", bad[i].key, bad[i].value, rc, ei.msg);
    }
    char *after = dump(&c);
    CHECK_EQ_STR(before, after);
    free(before);
    free(after);
    cz_daemon_config_free(&c);
}

static void test_errors(void) {
    check_error("[daemon]\nlisten = \"unix:x\"\nnope = 1\n", CZ_EFORMAT, 3, "unknown key 'nope'");
    check_error("# c\n\n[daemons]\n", CZ_EFORMAT, 3, "unknown table [daemons]");
    check_error("listen = \"x\"\n", CZ_EFORMAT, 1, "outside a table");
    check_error("[srs]\nparam_cache = \"/p\"\n\nparams_subgroup_check = true\n", CZ_EFORMAT, 4,
                "srs.params_subgroup_check must be an integer");
    check_error("[srs]\nload_threads = 5000\n", CZ_ERANGE, 2, "out of range");
    check_error("[gpus]\ngpu_threads = 1\n\ngpu_threads = 2\n", CZ_EFORMAT, 4,
                "duplicate key 'gpu_threads' in [gpus]");
    check_error("[gpus]\n[srs]\n[gpus]\n", CZ_EFORMAT, 3, "duplicate table [gpus]");
    check_error("[gpus]\ngpu_threads = \"32\"\n", CZ_EFORMAT, 2, "must be an integer");
    check_error("[gpus]\ngpu_threads = 3.5\n", CZ_EFORMAT, 2, "not a float");
    check_error("[gpus]\ndevices = 0\n", CZ_EFORMAT, 2, "must be an array");
    check_error("[gpus]\ndevices = [0, \"1\"]\n", CZ_EFORMAT, 2, "an item is");
    check_error("[daemon]\nlisten = 9820\n", CZ_EFORMAT, 2, "must be a string");
    check_error("[logging]\nlevel = true\n", CZ_EFORMAT, 2, "not a boolean");
    check_error("[srs]\n\nparam_cache = \"a\\qb\"\n", CZ_EFORMAT, 3, "invalid escape '\\q'");
    check_error("[srs]\nparam_cache = \"\\u12\"\n", CZ_EFORMAT, 2, "hex digits");
    check_error("[srs]\nparam_cache = \"\\uD800\"\n", CZ_EFORMAT, 2, "not a scalar value");
    check_error("[srs]\nparam_cache = \"abc\n", CZ_EFORMAT, 2, "unterminated string");
    check_error("[srs]\nparam_cache = \"abc", CZ_EFORMAT, 2, "unterminated string");
    check_error("[srs]\nparam_cache = \"\"\"x\"\"\"\n", CZ_EFORMAT, 2, "multi-line");
    check_error("[srs]\nparam_cache = \"a\tb\x01\"\n", CZ_EFORMAT, 2, "control character");
    check_error("[gpus]\ndevices = [0,\n 1\n\ngpu_threads = 2\n", CZ_EFORMAT, 5,
                "expected ',' or ']'");
    check_error("[gpus]\ngpu_threads = 2\ndevices = [0,\n 1,\n", CZ_EFORMAT, 3,
                "unterminated array");
    check_error("[synthesis]\npartition_workers = 0\n", CZ_ERANGE, 2, "out of range [1, 1024]");
    check_error("[gpus]\ngpu_workers_per_device = 17\n", CZ_ERANGE, 2, "out of range");
    check_error("[daemon]\nrpc_threads = 0\n", CZ_ERANGE, 2, "out of range [1, 1024]");
    check_error("[daemon]\n\nrpc_threads = 1025\n", CZ_ERANGE, 3, "out of range [1, 1024]");
    check_error("[gpus]\ndevices = [0, 1, 0]\n", CZ_EFORMAT, 2, "twice");
    check_error("[gpus]\ndevices = [0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16]\n", CZ_ERANGE, 2,
                "at most 16");
    check_error("[memory]\ntotal_budget = \"lots\"\n", CZ_EFORMAT, 2, "not a size");
    check_error("[memory]\nsafety_margin = -1\n", CZ_ERANGE, 2, "out of range");
    check_error("[memory]\nsafety_margin = \"99999999999999999999\"\n", CZ_EFORMAT, 2,
                "not a size");
    check_error("[memory]\neviction_min_idle = \"5 minutes\"\n", CZ_EFORMAT, 2, "not a duration");
    check_error("[daemon]\nlisten = \"\"\n", CZ_ERANGE, 2, "must not be empty");
    check_error("[logging]\nlevel = \"verbose\"\n", CZ_EFORMAT, 2, "not error, warn");
    /* garbage and syntax outside the subset */
    check_error("[daemon]\nthis is not toml\n", CZ_EFORMAT, 2, "expected '=' after key 'this'");
    check_error("[daemon]\n= 3\n", CZ_EFORMAT, 2, "expected 'key = value'");
    check_error("[daemon]\n\n\nlisten = \"a\" b\n", CZ_EFORMAT, 4, "unexpected text");
    check_error("[daemon]\nlisten =\n", CZ_EFORMAT, 2, "missing value");
    check_error("[daemon]\nlisten = unquoted\n", CZ_EFORMAT, 2, "strings need quotes");
    check_error("[gpus]\ngpu_threads = 0x10\n", CZ_EFORMAT, 2, "hexadecimal");
    check_error("[gpus]\ngpu_threads = 012\n", CZ_EFORMAT, 2, "leading zero");
    check_error("[gpus]\ngpu_threads = 1__0\n", CZ_EFORMAT, 2, "invalid number");
    check_error("[gpus]\ngpu_threads = 99999999999999999999\n", CZ_EFORMAT, 2, "64 bits");
    check_error("[gpus]\ngpu_threads = 1979-05-27\n", CZ_EFORMAT, 2, "invalid number");
    check_error("[gpus]\ngpu_threads = {a = 1}\n", CZ_EFORMAT, 2, "inline tables");
    check_error("[gpus.x]\n", CZ_EFORMAT, 1, "nested tables");
    check_error("[[gpus]]\n", CZ_EFORMAT, 1, "arrays of tables");
    check_error("[gpus\n", CZ_EFORMAT, 1, "invalid table header");
    check_error("[gpus] x\n", CZ_EFORMAT, 1, "unexpected text after the table header");
    check_error("[gpus]\ngpus.gpu_threads = 1\n", CZ_EFORMAT, 2, "dotted keys");
    check_error("[gpus]\n\"gpu_threads\" = 1\n", CZ_EFORMAT, 2, "quoted keys");
    check_error("[gpus]\r\ngpu_threads = 1\r\ngpu_threads = 2\r\n", CZ_EFORMAT, 3, "duplicate");
}

static void test_values(void) {
    /* the parser on its own: value kinds, underscores, floats, escapes */
    cz__toml_value v;
    cz_errinfo ei;
    CHECK_ERR(cz__toml_parse_value(&v, "-1_000_000", "t", &ei), CZ_OK);
    CHECK(v.kind == CZ_TOML_INT && v.u.i == -1000000);
    CHECK_ERR(cz__toml_parse_value(&v, "-9223372036854775808", "t", &ei), CZ_OK);
    CHECK(v.kind == CZ_TOML_INT && v.u.i == INT64_MIN);
    CHECK_ERR(cz__toml_parse_value(&v, "6.25e-2", "t", &ei), CZ_OK);
    CHECK(v.kind == CZ_TOML_FLOAT && v.u.f == 0.0625);
    CHECK_ERR(cz__toml_parse_value(&v, "1e3", "t", &ei), CZ_OK);
    CHECK(v.kind == CZ_TOML_FLOAT && v.u.f == 1000.0);
    CHECK_ERR(cz__toml_parse_value(&v, "1.", "t", &ei), CZ_EFORMAT);
    CHECK_ERR(cz__toml_parse_value(&v, "false", "t", &ei), CZ_OK);
    CHECK(v.kind == CZ_TOML_BOOL && v.u.b == 0);
    CHECK_ERR(cz__toml_parse_value(&v, "truex", "t", &ei), CZ_EFORMAT);
    CHECK_ERR(cz__toml_parse_value(&v, "\"\\b\\t\\n\\f\\r\\U0001F600\"", "t", &ei), CZ_OK);
    CHECK(v.kind == CZ_TOML_STRING && strcmp(v.u.s, "\b\t\n\f\r\xf0\x9f\x98\x80") == 0);
    cz__toml_value_free(&v);
    CHECK_ERR(cz__toml_parse_value(&v, "'C:\\no\\escapes'", "t", &ei), CZ_OK);
    CHECK(v.kind == CZ_TOML_STRING && strcmp(v.u.s, "C:\\no\\escapes") == 0);
    cz__toml_value_free(&v);
    CHECK_ERR(cz__toml_parse_value(&v, "[[1, 2], [\"a\"], []]", "t", &ei), CZ_OK);
    CHECK(v.kind == CZ_TOML_ARRAY && v.u.a.n == 3 && v.u.a.items[0].u.a.n == 2 &&
          v.u.a.items[0].u.a.items[1].u.i == 2 && v.u.a.items[2].u.a.n == 0);
    cz__toml_value_free(&v);
    CHECK_ERR(cz__toml_parse_value(&v, "[[[[[[[[[1]]]]]]]]]", "t", &ei), CZ_EFORMAT);
}

static void test_deprecated(void) {
    const char *text = "[memory]\n"
                       "total_budget = \"100GiB\"\n"
                       "pinned_budget = \"50GiB\"\n"
                       "[synthesis]\n"
                       "partition_workers = 4\n"
                       "[pipeline]\n"
                       "enabled = false\n"
                       "slot_size = [1, 2]\n";
    const char *path = write_tmp(text);
    FILE *log = tmpfile();
    FILE *prev = cz_log_set_output(log);
    cz_daemon_config c;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    int rc = cz_daemon_config_load(&c, path, &ei);
    CHECK_ERR(cz_daemon_config_set(&c, "scheduler.max_batch_size", "4", &ei), CZ_OK);
    cz_log_set_output(prev);
    CHECK_ERR(rc, CZ_OK);
    CHECK_EQ_INT(c.memory.total_budget, 100ull << 30);
    CHECK_EQ_INT(c.synthesis.partition_workers, 4);
    char buf[4096] = "";
    rewind(log);
    size_t n = fread(buf, 1, sizeof buf - 1, log);
    buf[n] = '\0';
    fclose(log);
    char want[128];
    snprintf(want, sizeof want, "%s:3: memory.pinned_budget is deprecated", path);
    CHECK(strstr(buf, want) != NULL);
    snprintf(want, sizeof want, "%s:7: pipeline.enabled is deprecated", path);
    CHECK(strstr(buf, want) != NULL);
    snprintf(want, sizeof want, "%s:8: pipeline.slot_size is deprecated", path);
    CHECK(strstr(buf, want) != NULL);
    CHECK(strstr(buf, "scheduler.max_batch_size is deprecated") != NULL);
    CHECK(strstr(buf, "WARN") != NULL);
    cz_daemon_config_free(&c);
    unlink(path);
}

static void test_example(void) {
    cz_daemon_config d, c;
    cz_daemon_config_defaults(&d);
    char *want = dump(&d);
    FILE *f = fopen("cuzk.example.toml", "rb");
    if (!CHECK(f != NULL)) {
        free(want);
        cz_daemon_config_free(&d);
        return;
    }
    char *got = calloc(1, 1 << 16);
    size_t n = fread(got, 1, (1 << 16) - 1, f);
    fclose(f);
    int same = n == strlen(want) && memcmp(got, want, n) == 0;
    if (!CHECK(same))
        fprintf(stderr, "  cuzk.example.toml differs from cz_daemon_config_write of the defaults;"
                        " regenerate it (docs/daemon.md)\n");
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    int rc = cz_daemon_config_load(&c, "cuzk.example.toml", &ei);
    if (!CHECK_ERR(rc, CZ_OK))
        fprintf(stderr, "  %s\n", ei.msg);
    CHECK(same_config(&c, &d));
    cz_daemon_config_free(&c);
    cz_daemon_config_free(&d);
    free(got);
    free(want);
}

/* Loads text (which must load) into c. */
static void load_ok(cz_daemon_config *c, const char *text) {
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    const char *path = write_tmp(text);
    if (!CHECK_ERR(cz_daemon_config_load(c, path, &ei), CZ_OK))
        fprintf(stderr, "  %s\n", ei.msg);
}

/* Selects against `visible` devices; checks the code, the message's start and a part of it. */
static void check_select(const cz_daemon_config *c, int visible, int code, const char *prefix,
                         const char *what, int want_n, const int *want) {
    int dev[CZ_ENGINE_MAX_DEVICES], n = -1;
    char note[512] = "";
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    int rc = cz_daemon_gpus_select(dev, &n, note, sizeof note, c, visible,
                                   visible ? NULL : "no CUDA device: test", &ei);
    const char *text = rc == CZ_OK ? note : ei.msg;
    int ok = rc == code && strncmp(text, prefix, strlen(prefix)) == 0 && strstr(text, what);
    if (rc == CZ_OK) {
        ok = ok && n == want_n;
        for (int i = 0; ok && i < n; i++)
            ok = dev[i] == want[i];
    } else {
        ok = ok && n == 0;
    }
    if (!CHECK(ok))
        fprintf(stderr, "  visible %d: rc %d (want %d) n %d (want %d) '%s' (want '%s...%s')\n",
                visible, rc, code, n, want_n, text, prefix, what);
}

static void test_gpus(void) {
    static const int seq[CZ_ENGINE_MAX_DEVICES] = {0, 1, 2,  3,  4,  5,  6,  7,
                                                   8, 9, 10, 11, 12, 13, 14, 15};
    static const int two[] = {0, 2};
    cz_daemon_config c;
    char prefix[128];
    cz_errinfo ei;

    /* the default: every visible GPU, at most 16; none visible: the CPU backend with a note */
    cz_daemon_config_defaults(&c);
    CHECK(c.gpus.mode == CZ_DAEMON_GPUS_AUTO && c.gpus.devices_where[0] == 0);
    check_select(&c, 0, CZ_OK, "CPU backend (no GPU visible: no CUDA device: test)", "", 0, NULL);
    check_select(&c, 2, CZ_OK, "2 of 2 visible GPUs", "[]", 2, seq);
    check_select(&c, 20, CZ_OK, "16 of 20 visible GPUs", "", 16, seq);
    cz_daemon_config_free(&c);

    /* an explicit list: a device that is not there names the key, file and line */
    load_ok(&c, "# gpus\n[gpus]\n\ndevices = [0, 2]\n");
    snprintf(prefix, sizeof prefix, "%s:4: gpus.devices = [0, 2]: ", tmp_path);
    CHECK(c.gpus.mode == CZ_DAEMON_GPUS_LIST && c.gpus.ndevices == 2);
    check_select(&c, 3, CZ_OK, "GPUs [0, 2] of 3 visible", tmp_path, 2, two);
    check_select(&c, 2, CZ_ERANGE, prefix, "there is no GPU 2 (2 visible: 0..1)", 0, NULL);
    check_select(&c, 1, CZ_ERANGE, prefix, "there is no GPU 2 (1 visible: 0..0)", 0, NULL);
    check_select(&c, 0, CZ_ENOGPU, prefix, "no GPU is visible (no CUDA device: test)", 0, NULL);
    unlink(tmp_path);
    cz_daemon_config_free(&c);

    /* "all": at least one GPU */
    load_ok(&c, "[gpus]\ndevices = \"all\"\ngpu_workers_per_device = 1\n");
    snprintf(prefix, sizeof prefix, "%s:2: gpus.devices = \"all\": ", tmp_path);
    CHECK_EQ_INT(c.gpus.mode, CZ_DAEMON_GPUS_ALL);
    check_select(&c, 0, CZ_ENOGPU, prefix, "no GPU is visible", 0, NULL);
    check_select(&c, 3, CZ_OK, "3 of 3 visible GPUs", "\"all\"", 3, seq);
    {
        char *t = dump(&c);
        CHECK(strstr(t, "\ndevices = \"all\"\n") != NULL);
        free(t);
    }
    unlink(tmp_path);
    cz_daemon_config_free(&c);

    /* "none" (any case): the CPU backend even with GPUs; [] and "auto" = the default */
    load_ok(&c, "[gpus]\ndevices = \"None\"\n");
    CHECK_EQ_INT(c.gpus.mode, CZ_DAEMON_GPUS_NONE);
    snprintf(prefix, sizeof prefix, "CPU backend (%s:2: gpus.devices = \"none\")", tmp_path);
    check_select(&c, 4, CZ_OK, prefix, "", 0, NULL);
    check_select(&c, 0, CZ_OK, prefix, "", 0, NULL);
    unlink(tmp_path);
    {
        cz_daemon_config d;
        char *t = dump(&c);
        CHECK(strstr(t, "\ndevices = \"none\"\n") != NULL);
        const char *path = write_tmp(t); /* write -> load keeps the mode */
        cz_errinfo_clear(&ei);
        CHECK(cz_daemon_config_load(&d, path, &ei) == CZ_OK && d.gpus.mode == CZ_DAEMON_GPUS_NONE);
        cz_daemon_config_free(&d);
        unlink(path);
        free(t);
    }
    cz_daemon_config_free(&c);
    load_ok(&c, "[gpus]\ndevices = []\n");
    CHECK(c.gpus.mode == CZ_DAEMON_GPUS_AUTO && c.gpus.ndevices == 0);
    check_select(&c, 1, CZ_OK, "1 of 1 visible GPUs", "", 1, seq);
    unlink(tmp_path);
    cz_daemon_config_free(&c);
    load_ok(&c, "[gpus]\ndevices = \"auto\"\n");
    CHECK_EQ_INT(c.gpus.mode, CZ_DAEMON_GPUS_AUTO);
    check_select(&c, 0, CZ_OK, "CPU backend (no GPU visible", "", 0, NULL);
    unlink(tmp_path);
    cz_daemon_config_free(&c);

    /* errors of the key itself, with their lines */
    check_error("[gpus]\n\ndevices = \"gpu0\"\n", CZ_EFORMAT, 3,
                "gpus.devices = \"gpu0\" is not \"auto\", \"all\", \"none\" or a list");
    check_error("[gpus]\ndevices = [-1]\n", CZ_ERANGE, 2, "out of range");
    check_error("[gpus]\ndevices = true\n", CZ_EFORMAT, 2, "must be an array");

    /* command-line overrides: the words, and "command line" as the place in messages */
    cz_daemon_config_defaults(&c);
    cz_errinfo_clear(&ei);
    CHECK(cz_daemon_config_set(&c, "gpus.devices", "none", &ei) == CZ_OK &&
          c.gpus.mode == CZ_DAEMON_GPUS_NONE);
    CHECK(cz_daemon_config_set(&c, "gpus.devices", " ALL", &ei) == CZ_OK &&
          c.gpus.mode == CZ_DAEMON_GPUS_ALL);
    CHECK(cz_daemon_config_set(&c, "gpus.devices", "auto", &ei) == CZ_OK &&
          c.gpus.mode == CZ_DAEMON_GPUS_AUTO);
    CHECK(cz_daemon_config_set(&c, "gpus.devices", "0,3", &ei) == CZ_OK &&
          c.gpus.mode == CZ_DAEMON_GPUS_LIST);
    CHECK_EQ_STR(c.gpus.devices_where, "command line");
    check_select(&c, 2, CZ_ERANGE, "command line: gpus.devices = [0, 3]: ", "no GPU 3", 0, NULL);
    cz_errinfo_clear(&ei);
    CHECK(cz_daemon_config_set(&c, "gpus.devices", "cpu", &ei) == CZ_EFORMAT &&
          strstr(ei.msg, "gpus.devices = \"cpu\" is not") != NULL);
    CHECK(c.gpus.mode == CZ_DAEMON_GPUS_LIST && c.gpus.ndevices == 2); /* unchanged */
    cz_daemon_config_free(&c);
}

/* daemon.socket_mode: an octal string, 0660 by default, written back as "0NNN". */
static void test_socket_mode(void) {
    cz_daemon_config c;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    cz_daemon_config_defaults(&c);
    CHECK_EQ_INT(c.daemon.socket_mode, 0660);
    CHECK_EQ_INT(cz_daemon_config_set(&c, "daemon.socket_mode", "0600", &ei), CZ_OK);
    CHECK_EQ_INT(c.daemon.socket_mode, 0600);
    CHECK_EQ_INT(cz_daemon_config_set(&c, "daemon.socket_mode", "770", &ei), CZ_OK);
    CHECK_EQ_INT(c.daemon.socket_mode, 0770);
    char *text = dump(&c);
    CHECK(strstr(text, "socket_mode = \"0770\"\n") != NULL);
    free(text);
    CHECK_EQ_INT(cz_daemon_config_set(&c, "daemon.socket_mode", "0680", &ei), CZ_EFORMAT);
    CHECK(strstr(ei.msg, "not an octal mode") != NULL);
    CHECK_EQ_INT(cz_daemon_config_set(&c, "daemon.socket_mode", "1777", &ei), CZ_ERANGE);
    CHECK_EQ_INT(cz_daemon_config_set(&c, "daemon.socket_mode", "", &ei), CZ_EFORMAT);
    CHECK_EQ_INT(c.daemon.socket_mode, 0770); /* failed sets leave it */
    cz_daemon_config_free(&c);
    check_error("[daemon]\nsocket_mode = 660\n", CZ_EFORMAT, 2, "must be an octal string");
    check_error("[daemon]\n\nsocket_mode = \"06600\"\n", CZ_EFORMAT, 3, "not an octal mode");
}

/* daemon.listen and status_listen: a port in 1..65535, refused at configuration time. */
static void test_listen_port(void) {
    check_error("[daemon]\nlisten = \"127.0.0.1:99999\"\n", CZ_ERANGE, 2,
                "port 99999 is out of range [1, 65535]");
    check_error("[daemon]\nlisten = \"127.0.0.1:\"\n", CZ_EFORMAT, 2,
                "not unix:///path or host:port");
    check_error("[daemon]\nstatus_listen = \"unix:///x\"\n", CZ_EFORMAT, 2, "not a host:port");
    check_error("[daemon]\nstatus_listen = \"h:0\"\n", CZ_ERANGE, 2, "out of range");
}

/* cz_daemon_config_where: FILE:LINE of a file's key, "command line" after a set, "" for a default
 * (the start-up checks after loading, such as the budget against physical memory, cite it). */
static void test_where(void) {
    cz_daemon_config c;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    const char *path = write_tmp("[daemon]\nstate_dir = \"/srv/s\"\n\n[memory]\n"
                                 "total_budget = \"2GiB\"\npinned_budget = 1\n");
    char want[128];
    CHECK_ERR(cz_daemon_config_load(&c, path, &ei), CZ_OK);
    snprintf(want, sizeof want, "%s:5", path);
    CHECK_EQ_STR(cz_daemon_config_where(&c, "memory.total_budget"), want);
    snprintf(want, sizeof want, "%s:2", path);
    CHECK_EQ_STR(cz_daemon_config_where(&c, "daemon.state_dir"), want);
    CHECK_EQ_STR(cz_daemon_config_where(&c, "memory.safety_margin"), ""); /* default */
    CHECK_EQ_STR(cz_daemon_config_where(&c, "memory.pinned_budget"), ""); /* deprecated */
    CHECK_EQ_STR(cz_daemon_config_where(&c, "memory.nope"), "");
    CHECK_EQ_STR(cz_daemon_config_where(&c, "nope"), "");
    CHECK_ERR(cz_daemon_config_set(&c, "memory.total_budget", "3GiB", &ei), CZ_OK);
    CHECK_EQ_STR(cz_daemon_config_where(&c, "memory.total_budget"), "command line");
    /* a failed set leaves it */
    CHECK_ERR(cz_daemon_config_set(&c, "daemon.state_dir", "", &ei), CZ_ERANGE);
    snprintf(want, sizeof want, "%s:2", path);
    CHECK_EQ_STR(cz_daemon_config_where(&c, "daemon.state_dir"), want);
    cz_daemon_config_free(&c);
    /* a failed load: the defaults, set nowhere */
    FILE *f = fopen(path, "a");
    fputs("[gpus]\nnope = 1\n", f);
    fclose(f);
    CHECK_ERR(cz_daemon_config_load(&c, path, &ei), CZ_EFORMAT);
    CHECK_EQ_STR(cz_daemon_config_where(&c, "memory.total_budget"), "");
    cz_daemon_config_free(&c);
    unlink(path);
}

static const test_case cases[] = {
    {"defaults", test_defaults},
    {"every_key_file", test_every_key_file},
    {"every_key_set", test_every_key_set},
    {"errors", test_errors},
    {"values", test_values},
    {"deprecated", test_deprecated},
    {"example", test_example},
    {"gpus", test_gpus},
    {"socket_mode", test_socket_mode},
    {"listen_port", test_listen_port},
    {"where", test_where},
};

int main(int argc, char **argv) {
    /* `test_config --write-example` prints the example file (how cuzk.example.toml is made) */
    if (argc == 2 && strcmp(argv[1], "--write-example") == 0) {
        cz_daemon_config d;
        cz_daemon_config_defaults(&d);
        int rc = cz_daemon_config_write(stdout, &d);
        cz_daemon_config_free(&d);
        return rc ? 1 : 0;
    }
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
