/*
 * cuzk-bench-snap-synth: how fast a SnapDeals partition is synthesized (docs/bench.md), the
 * synthesis figures of the SnapDeals benchmark. From a fake update (snap_fake.h, made in memory,
 * SHA-256 variant), one JSON line per step with the median, min and max over runs in ns:
 *
 *   op "fake"      the whole update made (one run)
 *   op "check"     the native check of partition 0 (snap_vanilla.h), the work a verifier does
 *   op "witness"   partition 0 whole in WITNESS mode on one thread (the gadgets' synthesis,
 *                  values only, into the system's own growing arrays), with ns per million
 *                  constraints
 *   op "recording" the partition's recording as the daemon makes it once per sector size
 *                  (cz__snap_record, whole), one run; with --record only (81 M rows at 32 GiB:
 *                  about 9 GB of memory), and then:
 *   op "compact"   partition 0 synthesized compact in chunks (the engine's way with
 *                  gpus.abc_on_gpu: the top, then a task per challenge) on this thread (the
 *                  synthesis per partition on one core, as the engine does it), then on a pool
 *                  of --threads threads
 *
 *   cuzk-bench-snap-synth [--sector-size 2KiB|..|64GiB] [--runs R] [--record] [--threads N]
 * Defaults: 32GiB, 3 runs, no recording, all cores.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "cs/cs.h"
#include "filecoin/snap_fake.h"
#include "filecoin/snap_prove.h"

#define MAX_RUNS 21

static void print(const char *op, const char *extra, double *ns, int runs) {
    char fields[512];
    snprintf(fields, sizeof fields, "\"op\":\"%s\"%s", op, extra);
    bench_print_json("snap-synth", fields, bench_stats_of(ns, (size_t)runs));
}

/* Partition 0 of ld whole in a WITNESS system on this thread; its rows. */
static size_t witness(const cz__snap_loaded *ld, cz_errinfo *ei) {
    cz__snap_witness w;
    cz__cs cs;
    size_t rows = 0;
    if (cz__snap_witness_make(&w, &ld->v[0], &ld->shape, &ld->pub, ei) != CZ_OK)
        return 0;
    if (cz__cs_init(&cs, CZ__CS_WITNESS, 0, ei) == CZ_OK) {
        cz__snap_circuit(&cs, &ld->shape, &w.p);
        if (cz__cs_status(&cs, ei) == CZ_OK)
            rows = cs.nrows;
        cz__cs_free(&cs);
    }
    cz__snap_witness_free(&w);
    return rows;
}

/* The recording, then partition 0 compact in chunks on one thread and on pool, runs times
 * each. */
static int compact(const cz__snap_loaded *ld, cz_threadpool *pool, int runs, const char *extra,
                   cz_errinfo *ei) {
    double ns[MAX_RUNS];
    uint64_t t0 = bench_now_ns(), *bits = NULL, (*vals)[4] = NULL;
    cz_threadpool *pools[2] = {NULL, pool};
    cz_r1cs r;
    int rc;
    memset(&r, 0, sizeof r);
    if ((rc = cz__snap_record(&r, &ld->shape, NULL, ei)) != CZ_OK)
        return rc;
    ns[0] = (double)(bench_now_ns() - t0);
    print("recording", extra, ns, 1);
    bits = malloc(cz_r1cs_bool_words(r.nvars) * sizeof *bits);
    vals = malloc(cz_r1cs_nvals(&r) * sizeof *vals);
    if (bits == NULL || vals == NULL)
        rc = cz_fail(ei, CZ_ENOMEM, "the compact witness");
    for (int q = 0; q < 2 && rc == CZ_OK; q++) {
        for (int i = 0; rc == CZ_OK && i < runs; i++) {
            t0 = bench_now_ns();
            rc = cz__snap_synthesize_compact(bits, vals, ld, 0, &r, pools[q], ei);
            ns[i] = (double)(bench_now_ns() - t0);
        }
        if (rc == CZ_OK) {
            char more[384];
            snprintf(more, sizeof more, "%s,\"threads\":%zu,\"ns_per_mconstraint\":%.0f", extra,
                     pools[q] ? cz_threadpool_size(pools[q]) : 1,
                     bench_stats_of(ns, (size_t)runs).median / ((double)r.nrows / 1e6));
            print("compact", more, ns, runs);
        }
    }
    free(bits);
    free(vals);
    cz_r1cs_free(&r);
    return rc;
}

int main(int argc, char **argv) {
    uint64_t size = UINT64_C(1) << 35, id = 0;
    int runs = 3, record = 0;
    size_t threads = 0, rows = 0;
    double ns[MAX_RUNS];
    char extra[256];
    cz__snap_fake f;
    cz__snap_loaded ld;
    cz_threadpool *pool = NULL;
    cz_errinfo ei;
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--sector-size") == 0 && i + 1 < argc) {
            size = bench_parse_size(argv[++i]);
        } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            threads = strtoul(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--record") == 0) {
            record = 1;
        } else {
            fprintf(stderr, "usage: cuzk-bench-snap-synth [--sector-size S] [--runs R] [--record] "
                            "[--threads N]\n");
            return 2;
        }
    }
    if (runs < 1 || runs > MAX_RUNS) {
        fprintf(stderr, "cuzk-bench-snap-synth: --runs 1..%d\n", MAX_RUNS);
        return 2;
    }
    cz_errinfo_clear(&ei);
    memset(&ld, 0, sizeof ld);
    uint64_t t0 = bench_now_ns();
    if (cz__snap_registered_id(&id, size, &ei) != CZ_OK ||
        cz__snap_shape_get(&ld.shape, size, CZ__SNAP_SHA256, &ei) != CZ_OK ||
        cz__snap_fake_make(&f, size, CZ__SNAP_SHA256, ld.shape.hs[3], 1, 0, &ei) != CZ_OK) {
        fprintf(stderr, "cuzk-bench-snap-synth: %s\n", ei.msg);
        return 1;
    }
    ns[0] = (double)(bench_now_ns() - t0);
    snprintf(extra, sizeof extra, ",\"sector_size\":%llu,\"partitions\":%u,\"challenges\":%u",
             (unsigned long long)size, ld.shape.partitions, ld.shape.challenges);
    print("fake", extra, ns, 1);
    if ((ld.v = calloc(1, sizeof *ld.v)) == NULL ||
        cz__snap_fake_partition(&ld.v[0], &ld.pub, &f, 0, &ei) != CZ_OK) {
        fprintf(stderr, "cuzk-bench-snap-synth: %s\n", ld.v ? ei.msg : "out of memory");
        return 1;
    }
    ld.shape.partitions = 1; /* partition 0 alone is loaded */
    cz__snap_fake_free(&f);
    for (int r = 0; r < runs; r++) {
        t0 = bench_now_ns();
        if (cz__snap_vanilla_check(&ld.v[0], &ld.shape, &ld.pub, &ei) != CZ_OK) {
            fprintf(stderr, "cuzk-bench-snap-synth: %s\n", ei.msg);
            return 1;
        }
        ns[r] = (double)(bench_now_ns() - t0);
    }
    print("check", extra, ns, runs);
    for (int r = 0; r < runs; r++) {
        t0 = bench_now_ns();
        if ((rows = witness(&ld, &ei)) == 0) {
            fprintf(stderr, "cuzk-bench-snap-synth: %s\n", ei.msg);
            return 1;
        }
        ns[r] = (double)(bench_now_ns() - t0);
    }
    {
        char more[384];
        snprintf(more, sizeof more, "%s,\"constraints\":%zu,\"ns_per_mconstraint\":%.0f", extra,
                 rows, bench_stats_of(ns, (size_t)runs).median / ((double)rows / 1e6));
        print("witness", more, ns, runs);
    }
    if (record) {
        if (cz_threadpool_create(&pool, threads, &ei) != CZ_OK ||
            compact(&ld, pool, runs, extra, &ei) != CZ_OK) {
            fprintf(stderr, "cuzk-bench-snap-synth: %s\n", ei.msg);
            rc = 1;
        }
        cz_threadpool_destroy(pool);
    }
    cz__snap_loaded_free(&ld);
    return rc;
}
