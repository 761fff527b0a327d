/*
 * cuzk-bench-msm: wall time of one CPU multi-scalar multiplication (cuzk/msm.h) with random
 * scalars in Fr, as the median, min and max over runs, one JSON line per configuration:
 *
 *   cuzk-bench-msm --curve bn254|bls12381 --group g1|g2 --log-n K [--threads T] [--runs N]
 *   {"bench":"msm","curve":"bn254","group":"g1","log_n":18,"threads":2,"window":0,"ms":..,
 *    "min":..,"max":..,"cpu_ms":..,"git":..}
 * ms/min/max are wall times; cpu_ms is the median CPU time of the process during one run.
 *
 * --threads 0 (the default) uses one thread per online CPU; --runs defaults to 5. --window C forces
 * the window width (1..16) through the internal entry point, to tune the cost model; the default
 * (0) is the public API with the width it chooses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "cuzk/msm.h"
#include "msm/msm.h"

#define BENCH_MAX_RUNS 101

/* splitmix64: a seeded stream for reproducible inputs. */
static uint64_t bench_splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* CPU time of the whole process (all threads), in ns: on a loaded machine, cpu_ms / threads is
 * closer to the unloaded wall time than the wall time is. */
static uint64_t bench_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#define BM_G    cz_bls12381_g1
#define BM_IG   bls12381_g1
#define BM_FR   cz_bls12381_fr
#define BM_AFF  cz_bls12381_g1_affine
#define BM_JAC  cz_bls12381_g1_jacobian
#define BM_FR_T cz_bls12381_fr
#include "bench_msm_impl.h"

#define BM_G    cz_bls12381_g2
#define BM_IG   bls12381_g2
#define BM_FR   cz_bls12381_fr
#define BM_AFF  cz_bls12381_g2_affine
#define BM_JAC  cz_bls12381_g2_jacobian
#define BM_FR_T cz_bls12381_fr
#include "bench_msm_impl.h"

#define BM_G    cz_bn254_g1
#define BM_IG   bn254_g1
#define BM_FR   cz_bn254_fr
#define BM_AFF  cz_bn254_g1_affine
#define BM_JAC  cz_bn254_g1_jacobian
#define BM_FR_T cz_bn254_fr
#include "bench_msm_impl.h"

#define BM_G    cz_bn254_g2
#define BM_IG   bn254_g2
#define BM_FR   cz_bn254_fr
#define BM_AFF  cz_bn254_g2_affine
#define BM_JAC  cz_bn254_g2_jacobian
#define BM_FR_T cz_bn254_fr
#include "bench_msm_impl.h"

static int usage(void) {
    fprintf(stderr, "usage: cuzk-bench-msm --curve bn254|bls12381 --group g1|g2 --log-n K "
                    "[--threads T] [--runs N] [--window C]\n");
    return 2;
}

int main(int argc, char **argv) {
    const char *curve = NULL, *group = NULL;
    int log_n = -1, threads = 0, runs = 5, window = 0;
    cz_threadpool *pool = NULL;
    int rc;

    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc)
            return usage();
        if (strcmp(argv[i], "--curve") == 0)
            curve = argv[++i];
        else if (strcmp(argv[i], "--group") == 0)
            group = argv[++i];
        else if (strcmp(argv[i], "--log-n") == 0)
            log_n = atoi(argv[++i]);
        else if (strcmp(argv[i], "--threads") == 0)
            threads = atoi(argv[++i]);
        else if (strcmp(argv[i], "--window") == 0)
            window = atoi(argv[++i]);
        else if (strcmp(argv[i], "--runs") == 0)
            runs = atoi(argv[++i]);
        else
            return usage();
    }
    if (curve == NULL || group == NULL || log_n < 0 || log_n > 26 || threads < 0 || runs < 1 ||
        runs > BENCH_MAX_RUNS || window < 0 || window > 16)
        return usage();
    if (cz_threadpool_create(&pool, (size_t)threads, NULL) != 0) {
        fprintf(stderr, "cannot create the thread pool\n");
        return 1;
    }
    int bn = strcmp(curve, "bn254") == 0, bls = strcmp(curve, "bls12381") == 0;
    int g1 = strcmp(group, "g1") == 0, g2 = strcmp(group, "g2") == 0;
    if (bn && g1)
        rc = bench_cz_bn254_g1_run(curve, group, (unsigned)log_n, pool, runs, window);
    else if (bn && g2)
        rc = bench_cz_bn254_g2_run(curve, group, (unsigned)log_n, pool, runs, window);
    else if (bls && g1)
        rc = bench_cz_bls12381_g1_run(curve, group, (unsigned)log_n, pool, runs, window);
    else if (bls && g2)
        rc = bench_cz_bls12381_g2_run(curve, group, (unsigned)log_n, pool, runs, window);
    else
        rc = usage();
    cz_threadpool_destroy(pool);
    return rc;
}
