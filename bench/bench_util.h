/*
 * Shared helpers for the benchmark programs in bench/: a monotonic clock, median/min/max over
 * repeated runs, the git revision, and one JSON line per result, e.g.
 *
 *   {"bench":"field","op":"mul","field":"bls12381_fp","ns":40.1,"min":39.8,"max":41.0,"git":"abc123"}
 *
 * Usage: time one run of a kernel with bench_now_ns() as often as you like, keep the per-op times
 * in an array, call bench_stats_of() and bench_print_json(). Header-only (static functions), so a
 * benchmark is one .c file.
 */
#ifndef CUZK_BENCH_UTIL_H
#define CUZK_BENCH_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuzk/tuning.h"

typedef struct {
    double median, min, max;
} bench_stats;

/* Nanoseconds from a monotonic clock. */
static inline uint64_t bench_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline int bench_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* An accumulation argument of the MSM benchmarks: a cz_acc_mode by its name (auto, madd,
 * batch-affine), or "both" (BENCH_ACC_BOTH: madd, then batch-affine); -1 for anything else. */
enum { BENCH_ACC_BOTH = CZ_ACC_BATCH_AFFINE + 1 };
static inline int bench_acc_from_name(const char *name) {
    return strcmp(name, "both") == 0 ? BENCH_ACC_BOTH : cz_acc_mode_from_name(name);
}

/* Median, min and max of n samples (sorts v in place; n >= 1). */
static inline bench_stats bench_stats_of(double *v, size_t n) {
    bench_stats s;
    qsort(v, n, sizeof *v, bench_cmp_double);
    s.min = v[0];
    s.max = v[n - 1];
    s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    return s;
}

/* The short git revision of the working directory's checkout ("unknown" outside one), cached. */
static inline const char *bench_git_sha(void) {
    static char sha[48];
    if (sha[0] != '\0')
        return sha;
    strcpy(sha, "unknown");
    FILE *f = popen("git rev-parse --short=12 HEAD 2>/dev/null", "r");
    if (f != NULL) {
        char buf[48];
        if (fgets(buf, sizeof buf, f) != NULL) {
            buf[strcspn(buf, "\r\n")] = '\0';
            if (buf[0] != '\0')
                snprintf(sha, sizeof sha, "%s", buf);
        }
        pclose(f);
    }
    return sha;
}

/* A size written N, NKiB, NMiB or NGiB, in bytes. */
static inline uint64_t bench_parse_size(const char *s) {
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    return strcmp(end, "KiB") == 0   ? v << 10
           : strcmp(end, "MiB") == 0 ? v << 20
           : strcmp(end, "GiB") == 0 ? v << 30
                                     : v;
}

/*
 * Prints one result line. `fields` is the JSON members that identify the result, without braces
 * ("\"op\":\"mul\",\"field\":\"bn254_fr\""); the time unit is ns.
 */
static inline void bench_print_json(const char *bench, const char *fields, bench_stats s) {
    printf("{\"bench\":\"%s\",%s,\"ns\":%.2f,\"min\":%.2f,\"max\":%.2f,\"git\":\"%s\"}\n", bench,
           fields, s.median, s.min, s.max, bench_git_sha());
    fflush(stdout);
}

#endif
