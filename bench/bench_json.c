/*
 * cuzk-bench output: one JSON object per line, built in a growing heap buffer (a few hundred
 * bytes plus the raw run times and, for prove, the timings of each run). No git lookup: a result
 * names what ran (op, curve, size, mode, device, threads), not the build. Out of memory while
 * building a line aborts the program: a benchmark has no use for a truncated result.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_util.h"

void bench_json_text(bench_json *j, const char *fmt, ...) {
    va_list ap;
    for (;;) {
        size_t room = j->cap - j->len;
        va_start(ap, fmt);
        int k = j->buf == NULL ? -1 : vsnprintf(j->buf + j->len, room, fmt, ap);
        va_end(ap);
        if (k >= 0 && (size_t)k < room) {
            j->len += (size_t)k;
            return;
        }
        size_t cap = j->cap < 1024 ? 1024 : 2 * j->cap;
        char *b = realloc(j->buf, cap);
        if (b == NULL) {
            fprintf(stderr, "cuzk-bench: out of memory\n");
            exit(BENCH_FAIL);
        }
        j->buf = b;
        j->cap = cap;
    }
}

void bench_json_key(bench_json *j, const char *k) {
    bench_json_text(j, "%s\"%s\":", j->len > 1 ? "," : "", k);
}

void bench_json_str(bench_json *j, const char *k, const char *v) {
    bench_json_key(j, k);
    bench_json_text(j, "\"");
    for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
        if (*p == '"' || *p == '\\')
            bench_json_text(j, "\\%c", *p);
        else if (*p < 0x20)
            bench_json_text(j, "\\u%04x", *p);
        else
            bench_json_text(j, "%c", *p);
    }
    bench_json_text(j, "\"");
}

void bench_json_int(bench_json *j, const char *k, long long v) {
    bench_json_key(j, k);
    bench_json_text(j, "%lld", v);
}

void bench_json_num(bench_json *j, const char *k, double v) {
    bench_json_key(j, k);
    bench_json_text(j, "%.3f", v);
}

void bench_json_bool(bench_json *j, const char *k, int v) {
    bench_json_key(j, k);
    bench_json_text(j, "%s", v ? "true" : "false");
}

void bench_json_result(bench_json *j, const bench_opts *o, const char *op, cz_curve_id curve,
                       unsigned log_n, int copies, const double *ms) {
    double sorted[BENCH_MAX_RUNS];
    memcpy(sorted, ms, (size_t)o->runs * sizeof *ms);
    bench_stats s = bench_stats_of(sorted, (size_t)o->runs);
    j->buf = NULL;
    j->len = j->cap = 0;
    bench_json_text(j, "{");
    bench_json_str(j, "bench", "cuzk-bench");
    bench_json_str(j, "op", op);
    bench_json_str(j, "curve", bench_curve_name(curve));
    bench_json_int(j, "log_n", log_n);
    bench_json_int(j, "n", 1ll << log_n);
    bench_json_str(j, "mode", o->gpu ? "gpu" : "cpu");
    if (o->gpu && copies >= 0)
        bench_json_bool(j, "copies", copies);
    bench_json_str(j, "device", o->devname);
    if (!o->gpu || o->pool_threads > 0)
        bench_json_int(j, "threads", (long long)o->pool_threads);
    bench_json_int(j, "runs", o->runs);
    bench_json_int(j, "warmup", o->warmup);
    bench_json_num(j, "median_ms", s.median);
    bench_json_num(j, "min_ms", s.min);
    bench_json_num(j, "max_ms", s.max);
    bench_json_key(j, "runs_ms");
    for (int r = 0; r < o->runs; r++)
        bench_json_text(j, "%c%.3f", r ? ',' : '[', ms[r]);
    bench_json_text(j, "]");
}

double bench_median(double *v, size_t n) {
    return bench_stats_of(v, n).median;
}

void bench_json_print(bench_json *j) {
    bench_json_text(j, "}");
    printf("%s\n", j->buf);
    fflush(stdout);
    free(j->buf);
    j->buf = NULL;
}
