/*
 * cuzk-bench-porep-synth: how fast a PoRep partition's circuit is synthesized (docs/bench.md),
 * the starting point of #18's synthesis work. From a fake sector (porep_fake.h, made in memory),
 * on one thread, one JSON line per step with the median, min and max over runs in ns:
 *
 *   op "check"    the native check of one partition (porep_vanilla.h), the work a verifier does
 *   op "witness"  the witness of the partition's first --challenges challenges in WITNESS mode
 *                 (the gadgets' gate-by-gate synthesis, values only, into the system's own
 *                 growing arrays), with ns per million constraints: the reference the
 *                 original's 25-27 s per 32 GiB partition (130 M constraints, one thread) is
 *                 compared with
 *   op "prove"    the same in PROVE mode without densities into buffers of the caller's, already
 *                 touched (the engine's way: the witness and each row's a, b, c, straight into
 *                 the pooled buffers)
 *   op "witness-into" the witness alone (WITNESS) into the touched aux buffer: the engine's
 *                 way when a, b, c are computed on the GPU (gpus.abc_on_gpu)
 *   op "compact-into" the same witness compact (booleans as bits, the other values in order:
 *                 cuzk/r1cs.h) into touched buffers, the bits cleared first: the engine's way
 *                 for a circuit that knows its booleans (PoRep, gpus.abc_on_gpu)
 *   op "record"   the same challenges recorded (RECORD: the matrices), one run
 *   op "recording" the whole partition's recording as the daemon makes it once per sector size
 *                 (cz__porep_record: the top and one challenge recorded, the others copied), one
 *                 run
 *
 *   cuzk-bench-porep-synth [--sector-size 2KiB|..|64GiB] [--challenges N] [--runs R]
 * Defaults: 32GiB, 1 challenge, 3 runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "filecoin/porep_fake.h"
#include "filecoin/porep_prove.h"

#define MAX_RUNS 21

static void print(const char *op, const char *extra, double *ns, int runs) {
    char fields[512];
    snprintf(fields, sizeof fields, "\"op\":\"%s\"%s", op, extra);
    bench_print_json("porep-synth", fields, bench_stats_of(ns, (size_t)runs));
}

/* Buffers of the caller's for a PROVE system (aux, a, b, c). */
typedef struct {
    cz_bls12381_fr *aux, *a, *b, *c;
    uint64_t *bits; /* not NULL: a compact WITNESS, its values into aux */
    size_t naux, nrows;
} prove_bufs;

/* The circuit of partition 0's first n challenges in mode (into bufs when not NULL); its rows,
 * and its aux into *naux. */
static size_t synth(const cz__porep_fake *f, cz__porep_challenge *w, size_t n, cz__cs_mode mode,
                    unsigned flags, const prove_bufs *bufs, size_t *naux) {
    cz__porep_partition p;
    cz__cs cs;
    size_t rows = 0;
    if (cz__cs_init(&cs, mode, flags, NULL) != CZ_OK)
        return 0;
    if (bufs != NULL && bufs->bits != NULL) {
        memset(bufs->bits, 0, (bufs->naux + 63) / 64 * sizeof *bufs->bits);
        if (cz__cs_use_compact(&cs, bufs->bits, 0, bufs->naux, bufs->aux, bufs->naux, NULL) !=
            CZ_OK) {
            cz__cs_free(&cs);
            return 0;
        }
    } else if (bufs != NULL && cz__cs_use_buffers(&cs, bufs->aux, bufs->naux, bufs->a, bufs->b,
                                                  bufs->c, bufs->nrows, NULL) != CZ_OK) {
        cz__cs_free(&cs);
        return 0;
    }
    cz__porep_vanilla_witness(&p, w, &f->c1, 0);
    p.nchallenges = n;
    cz__porep_circuit(&cs, &f->shape, &p);
    if (cz__cs_status(&cs, NULL) == CZ_OK)
        rows = cs.nrows;
    if (naux != NULL)
        *naux = cs.naux;
    cz__cs_free(&cs);
    return rows;
}

/* A synthesis op's line: its runs and the median's ns per million constraints. */
static void print_rate(const char *op, double *ns, int runs, uint64_t size, size_t n, size_t rows) {
    double sorted[MAX_RUNS];
    char extra[256];
    memcpy(sorted, ns, sizeof(double) * (size_t)runs);
    snprintf(extra, sizeof extra,
             ",\"sector_size\":%llu,\"challenges\":%zu,\"constraints\":%zu,"
             "\"ns_per_mconstraint\":%.0f",
             (unsigned long long)size, n, rows,
             bench_stats_of(sorted, (size_t)runs).median / ((double)rows / 1e6));
    print(op, extra, ns, runs);
}

/* runs syntheses into bufs timed, then op's line (sector size size); 0 (with a message) when one
 * fails. */
static int timed_rate(const char *op, double *ns, int runs, uint64_t size, const cz__porep_fake *f,
                      cz__porep_challenge *w, size_t n, cz__cs_mode mode, unsigned flags,
                      const prove_bufs *bufs, size_t rows) {
    for (int r = 0; r < runs; r++) {
        uint64_t t0 = bench_now_ns();
        if (synth(f, w, n, mode, flags, bufs, NULL) != rows) {
            fprintf(stderr, "cuzk-bench-porep-synth: the %s synthesis failed\n", op);
            return 0;
        }
        ns[r] = (double)(bench_now_ns() - t0);
    }
    print_rate(op, ns, runs, size, n, rows);
    return 1;
}

int main(int argc, char **argv) {
    uint64_t size = UINT64_C(1) << 35;
    size_t n = 1;
    int runs = 3;
    double ns[MAX_RUNS];
    char extra[256];
    cz__porep_fake f;
    cz__porep_challenge *w;
    cz_errinfo ei;
    size_t rows = 0, naux = 0;
    prove_bufs bufs = {0};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--sector-size") == 0 && i + 1 < argc) {
            size = bench_parse_size(argv[++i]);
        } else if (strcmp(argv[i], "--challenges") == 0 && i + 1 < argc) {
            n = strtoul(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = atoi(argv[++i]);
        } else {
            fprintf(stderr, "usage: cuzk-bench-porep-synth [--sector-size S] [--challenges N] "
                            "[--runs R]\n");
            return 2;
        }
    }
    if (runs < 1 || runs > MAX_RUNS) {
        fprintf(stderr, "cuzk-bench-porep-synth: --runs 1..%d\n", MAX_RUNS);
        return 2;
    }
    cz_errinfo_clear(&ei);
    cz__porep_config cfg; /* StackedDrg<size>V1_1 */
    if (cz__porep_config_find(&cfg, size, CZ__POREP_INTERACTIVE, 1, &ei) != CZ_OK ||
        cz__porep_fake_make(&f, cfg.registered_proof, 1, 1, NULL, &ei) != CZ_OK) {
        fprintf(stderr, "cuzk-bench-porep-synth: %s\n", ei.msg);
        return 1;
    }
    if (n == 0 || n > f.c1.per || (w = calloc(f.c1.per, sizeof *w)) == NULL) {
        fprintf(stderr, "cuzk-bench-porep-synth: --challenges 1..%u\n", f.c1.per);
        cz__porep_fake_free(&f);
        return 2;
    }
    for (int r = 0; r < runs; r++) {
        uint64_t t0 = bench_now_ns();
        if (cz__porep_vanilla_check(&f.c1, &f.shape, &f.graph, 0, &ei) != CZ_OK) {
            fprintf(stderr, "cuzk-bench-porep-synth: %s\n", ei.msg);
            return 1;
        }
        ns[r] = (double)(bench_now_ns() - t0);
    }
    snprintf(extra, sizeof extra, ",\"sector_size\":%llu,\"challenges\":%u",
             (unsigned long long)size, f.c1.per);
    print("check", extra, ns, runs);
    for (int r = 0; r < runs; r++) {
        uint64_t t0 = bench_now_ns();
        rows = synth(&f, w, n, CZ__CS_WITNESS, 0, NULL, &naux);
        ns[r] = (double)(bench_now_ns() - t0);
    }
    print_rate("witness", ns, runs, size, n, rows);
    bufs.naux = naux;
    bufs.nrows = rows;
    bufs.aux = calloc(naux, sizeof *bufs.aux);
    bufs.a = calloc(rows, sizeof *bufs.a);
    bufs.b = calloc(rows, sizeof *bufs.b);
    bufs.c = calloc(rows, sizeof *bufs.c);
    if (bufs.aux == NULL || bufs.a == NULL || bufs.b == NULL || bufs.c == NULL) {
        fprintf(stderr, "cuzk-bench-porep-synth: out of memory\n");
        return 1;
    }
    memset(bufs.aux, 1, naux * sizeof *bufs.aux); /* touched, as the engine's pooled buffers */
    memset(bufs.a, 1, rows * sizeof *bufs.a);
    memset(bufs.b, 1, rows * sizeof *bufs.b);
    memset(bufs.c, 1, rows * sizeof *bufs.c);
    if (!timed_rate("prove", ns, runs, size, &f, w, n, CZ__CS_PROVE, CZ__CS_NO_DENSITY, &bufs,
                    rows))
        return 1;
    {
        prove_bufs wb = bufs;
        wb.a = wb.b = wb.c = NULL;
        if (!timed_rate("witness-into", ns, runs, size, &f, w, n, CZ__CS_WITNESS, 0, &wb, rows))
            return 1;
        if ((wb.bits = malloc((naux + 63) / 64 * sizeof *wb.bits)) == NULL) {
            fprintf(stderr, "cuzk-bench-porep-synth: out of memory\n");
            return 1;
        }
        if (!timed_rate("compact-into", ns, runs, size, &f, w, n, CZ__CS_WITNESS, 0, &wb, rows))
            return 1;
        free(wb.bits);
    }
    free(bufs.aux);
    free(bufs.a);
    free(bufs.b);
    free(bufs.c);
    {
        uint64_t t0 = bench_now_ns();
        rows = synth(&f, w, n, CZ__CS_RECORD, 0, NULL, NULL);
        ns[0] = (double)(bench_now_ns() - t0);
    }
    snprintf(extra, sizeof extra, ",\"sector_size\":%llu,\"challenges\":%zu,\"constraints\":%zu",
             (unsigned long long)size, n, rows);
    print("record", extra, ns, 1);
    {
        cz_r1cs r;
        uint64_t t0 = bench_now_ns();
        if (cz__porep_record(&r, &f.shape, NULL, &ei) != CZ_OK) {
            fprintf(stderr, "cuzk-bench-porep-synth: recording: %s\n", ei.msg);
            return 1;
        }
        ns[0] = (double)(bench_now_ns() - t0);
        snprintf(extra, sizeof extra, ",\"sector_size\":%llu,\"constraints\":%u,\"terms\":%llu",
                 (unsigned long long)size, r.nrows,
                 (unsigned long long)(r.a.nnz + r.b.nnz + r.c.nnz));
        cz_r1cs_free(&r);
        print("recording", extra, ns, 1);
    }
    free(w);
    cz__porep_fake_free(&f);
    return 0;
}
