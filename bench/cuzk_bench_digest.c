/*
 * cuzk-bench-digest: how fast Filecoin parameter files are checked (docs/params.md). Prints one
 * JSON line per result, the median, min and max over runs, in ns per run and MB/s:
 *
 *   op "blake2b512": BLAKE2b-512 of a 256 MiB buffer in memory (the hash alone);
 *   op "file": cz_params_digest_file of each FILE given (read and hash), "cold" when --cold
 *   drops the file's pages from the page cache before each run (POSIX_FADV_DONTNEED), so that
 *   the disk is read, else "cached" after one warm-up run.
 *
 *   cuzk-bench-digest [--runs N] [--cold] [FILE...]     (default 5 runs)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_util.h"
#include "cuzk/blake2b.h"
#include "cuzk/params.h"

#define MEM_BYTES ((size_t)256 << 20)
#define MAX_RUNS  101

static void print(const char *op, const char *extra, uint64_t bytes, double *ns, int runs) {
    char fields[512];
    bench_stats s = bench_stats_of(ns, (size_t)runs);
    snprintf(fields, sizeof fields, "\"op\":\"%s\",%s\"bytes\":%llu,\"mb_s\":%.1f", op, extra,
             (unsigned long long)bytes, (double)bytes / s.median * 1e3);
    bench_print_json("digest", fields, s);
}

static int drop_cache(const char *path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    int rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    close(fd);
    return rc;
}

int main(int argc, char **argv) {
    int runs = 5, cold = 0, a = 1;
    double ns[MAX_RUNS];
    for (; a < argc && argv[a][0] == '-'; a++) {
        if (strcmp(argv[a], "--runs") == 0 && a + 1 < argc) {
            runs = atoi(argv[++a]);
        } else if (strcmp(argv[a], "--cold") == 0) {
            cold = 1;
        } else {
            fprintf(stderr, "usage: cuzk-bench-digest [--runs N] [--cold] [FILE...]\n");
            return 2;
        }
    }
    if (runs < 1 || runs > MAX_RUNS) {
        fprintf(stderr, "cuzk-bench-digest: --runs is 1..%d\n", MAX_RUNS);
        return 2;
    }
    uint8_t *buf = malloc(MEM_BYTES), out[64];
    if (buf == NULL)
        return 1;
    for (size_t i = 0; i < MEM_BYTES; i++)
        buf[i] = (uint8_t)(i * 2654435761u >> 13);
    for (int r = 0; r < runs; r++) {
        uint64_t t0 = bench_now_ns();
        cz_blake2b_hash(out, 64, NULL, 0, buf, MEM_BYTES);
        ns[r] = (double)(bench_now_ns() - t0);
    }
    free(buf);
    print("blake2b512", "", MEM_BYTES, ns, runs);
    for (; a < argc; a++) {
        char digest[CZ_PARAM_DIGEST_HEX + 1], extra[64];
        uint64_t size = 0;
        cz_errinfo ei;
        if (!cold && cz_params_digest_file(digest, &size, argv[a], NULL, NULL, &ei) != CZ_OK) {
            fprintf(stderr, "cuzk-bench-digest: %s\n", ei.msg);
            return 1;
        }
        for (int r = 0; r < runs; r++) {
            if (cold && drop_cache(argv[a]) != 0) {
                fprintf(stderr, "cuzk-bench-digest: %s: cannot drop it from the page cache\n",
                        argv[a]);
                return 1;
            }
            uint64_t t0 = bench_now_ns();
            if (cz_params_digest_file(digest, &size, argv[a], NULL, NULL, &ei) != CZ_OK) {
                fprintf(stderr, "cuzk-bench-digest: %s\n", ei.msg);
                return 1;
            }
            ns[r] = (double)(bench_now_ns() - t0);
        }
        snprintf(extra, sizeof extra, "\"cache\":\"%s\",", cold ? "cold" : "cached");
        print("file", extra, size, ns, runs);
    }
    return 0;
}
