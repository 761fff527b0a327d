/*
 * cuzk-bench-bellperson: what reading bellperson keys costs (cuzk/bellperson.h), one JSON line
 * per result:
 *   {"bench":"bellperson","op":"g1_decode","ns":...,"min":...,"max":...,"git":"..."}
 *
 *   g1_decode, g2_decode       ns per point: an uncompressed encoding to an affine point, checked
 *                              on the curve (the _unchecked decoders, what a .params read does
 *                              by default), on one thread
 *   g1_subgroup, g2_subgroup   ns per point: the subgroup check alone (cz_bls12381_g?_in_subgroup),
 *                              what check_subgroup adds per point, on one thread
 *   read, read_subgroup        ns per byte of cz_bellperson_params_read of a file of 2^LOG_N H
 *                              points and 2^(LOG_N-2) B_G2 points (written first, in DIR; its
 *                              pages are in the page cache, so this is the decoding, not the
 *                              disk), on a pool of THREADS threads (0: one per CPU)
 *
 * Usage: cuzk-bench-bellperson [DIR [LOG_N [THREADS]]]   (defaults /tmp, 14, 0)
 * Per-point times are thread CPU time (CLOCK_THREAD_CPUTIME_ID), so a busy machine inflates them
 * less than wall time would; the reads are wall time.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_points.h"
#include "bench_util.h"
#include "cuzk/bellperson.h"
#include "cuzk/curve.h"
#include "cuzk/encoding.h"
#include "cuzk/threadpool.h"

#define NREP 7
#define NG1  2048
#define NG2  512

static double cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static volatile uint64_t sink;

static void report(const char *op, double *t) {
    char f[64];
    snprintf(f, sizeof f, "\"op\":\"%s\"", op);
    bench_print_json("bellperson", f, bench_stats_of(t, NREP));
}

static void per_point(void) {
    cz_bls12381_g1_affine *p1 = malloc(NG1 * sizeof *p1), *q1 = malloc(NG1 * sizeof *q1);
    cz_bls12381_g2_affine *p2 = malloc(NG2 * sizeof *p2), *q2 = malloc(NG2 * sizeof *q2);
    uint8_t *e1 = malloc(NG1 * 96), *e2 = malloc(NG2 * 192);
    double t[NREP];
    bench_g1_progression(p1, NG1, 3, 5);
    bench_g2_progression(p2, NG2, 7, 11);
    for (size_t i = 0; i < NG1; i++)
        cz_bls12381_g1_to_uncompressed(e1 + 96 * i, &p1[i]);
    for (size_t i = 0; i < NG2; i++)
        cz_bls12381_g2_to_uncompressed(e2 + 192 * i, &p2[i]);
    uint64_t ok = 0;
    for (int r = 0; r < NREP; r++) {
        double t0 = cpu_ns();
        for (size_t i = 0; i < NG1; i++)
            ok += cz_bls12381_g1_from_uncompressed_unchecked(&q1[i], e1 + 96 * i, 96, NULL) == 0;
        t[r] = (cpu_ns() - t0) / NG1;
    }
    report("g1_decode", t);
    for (int r = 0; r < NREP; r++) {
        double t0 = cpu_ns();
        for (size_t i = 0; i < NG1; i++)
            ok += (uint64_t)cz_bls12381_g1_in_subgroup(&q1[i]);
        t[r] = (cpu_ns() - t0) / NG1;
    }
    report("g1_subgroup", t);
    for (int r = 0; r < NREP; r++) {
        double t0 = cpu_ns();
        for (size_t i = 0; i < NG2; i++)
            ok += cz_bls12381_g2_from_uncompressed_unchecked(&q2[i], e2 + 192 * i, 192, NULL) == 0;
        t[r] = (cpu_ns() - t0) / NG2;
    }
    report("g2_decode", t);
    for (int r = 0; r < NREP; r++) {
        double t0 = cpu_ns();
        for (size_t i = 0; i < NG2; i++)
            ok += (uint64_t)cz_bls12381_g2_in_subgroup(&q2[i]);
        t[r] = (cpu_ns() - t0) / NG2;
    }
    report("g2_subgroup", t);
    if (ok != (uint64_t)NREP * 2 * (NG1 + NG2))
        fprintf(stderr, "cuzk-bench-bellperson: a point did not decode\n");
    sink = ok;
    free(p1), free(q1), free(p2), free(q2), free(e1), free(e2);
}

static int read_file(const char *dir, unsigned log_n, size_t threads) {
    char path[4096];
    cz_bellperson_params p;
    cz_errinfo ei;
    cz_threadpool *pool = NULL;
    memset(&p, 0, sizeof p);
    bench_g1_progression(&p.vk.alpha_g1, 1, 2, 1);
    bench_g1_progression(&p.vk.beta_g1, 1, 3, 1);
    bench_g2_progression(&p.vk.beta_g2, 1, 3, 1);
    bench_g2_progression(&p.vk.gamma_g2, 1, 4, 1);
    bench_g1_progression(&p.vk.delta_g1, 1, 5, 1);
    bench_g2_progression(&p.vk.delta_g2, 1, 5, 1);
    p.vk.nic = 1;
    p.vk.ic = malloc(sizeof *p.vk.ic);
    bench_g1_progression(p.vk.ic, 1, 6, 1);
    p.nh = 1u << log_n;
    p.nb_g2 = 1u << (log_n - 2);
    p.h = malloc(p.nh * sizeof *p.h);
    p.b_g2 = malloc(p.nb_g2 * sizeof *p.b_g2);
    bench_g1_progression(p.h, p.nh, 7, 9);
    bench_g2_progression(p.b_g2, p.nb_g2, 8, 9);
    snprintf(path, sizeof path, "%s/cuzk-bench-%d.params", dir, (int)getpid());
    cz_errinfo_clear(&ei);
    int rc = cz_bellperson_params_write(path, &p, NULL, &ei);
    cz_bellperson_params_free(&p);
    if (rc == CZ_OK)
        rc = cz_threadpool_create(&pool, threads, &ei);
    for (int sub = 0; rc == CZ_OK && sub < 2; sub++) {
        cz_bellperson_read_opts o = {sub, pool, NULL};
        double t[NREP];
        uint64_t bytes = 0;
        for (int r = 0; rc == CZ_OK && r < NREP; r++) {
            uint64_t t0 = bench_now_ns();
            if ((rc = cz_bellperson_params_read(&p, path, &o, &ei)) != CZ_OK)
                break;
            t[r] = (double)(bench_now_ns() - t0);
            bytes = p.id.size;
            cz_bellperson_params_free(&p);
            t[r] /= (double)bytes;
        }
        if (rc != CZ_OK)
            break;
        char f[160];
        snprintf(f, sizeof f, "\"op\":\"%s\",\"bytes\":%llu,\"threads\":%zu",
                 sub ? "read_subgroup" : "read", (unsigned long long)bytes,
                 cz_threadpool_size(pool));
        bench_print_json("bellperson", f, bench_stats_of(t, NREP));
    }
    cz_threadpool_destroy(pool);
    unlink(path);
    if (rc != CZ_OK)
        fprintf(stderr, "cuzk-bench-bellperson: %s\n", ei.msg);
    return rc == CZ_OK ? 0 : 1;
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "/tmp";
    unsigned log_n = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 14;
    size_t threads = argc > 3 ? (size_t)strtoul(argv[3], NULL, 10) : 0;
    if (argc > 4 || log_n < 2 || log_n > 28) {
        fprintf(stderr, "usage: cuzk-bench-bellperson [DIR [LOG_N (2..28) [THREADS]]]\n");
        return 2;
    }
    per_point();
    return read_file(dir, log_n, threads);
}
