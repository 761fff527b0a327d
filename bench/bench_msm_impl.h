/*
 * One group's MSM benchmark for cuzk_bench_msm.c, instantiated per group by including this file
 * after defining BM_G (public group prefix, e.g. cz_bn254_g1), BM_IG (internal group prefix,
 * bn254_g1), BM_FR (public scalar-field prefix), BM_AFF, BM_JAC, BM_FR_T (types).
 *
 * Bases are the arithmetic progression [a + i·d]G (one addition each, then one batch conversion
 * to affine), scalars uniform in Fr from a seeded splitmix64 stream (rejection sampling), so a run
 * needs no file and takes seconds to set up even at 2^20 points.
 */
#include "field/cz_macros.h"

#define BMF(name) CZ_CAT3(BM_G, _, name)
#define BMR(name) CZ_CAT3(BM_FR, _, name)
#define BMB(name) CZ_CAT3(bench_, BM_G, CZ_CAT(_, name))
#define BML       CZ_CAT3(cz__, BM_IG, _msm_limbs)

static int BMB(run)(const char *curve, const char *group, unsigned log_n, cz_threadpool *pool,
                    int nruns, unsigned window) {
    size_t n = (size_t)1 << log_n;
    BM_AFF *bases = malloc(n * sizeof *bases);
    BM_JAC *jac = malloc(n * sizeof *jac);
    BM_FR_T *sc = malloc(n * sizeof *sc);
    uint64_t *limbs = malloc(n * 32);
    double v[BENCH_MAX_RUNS], cpu[BENCH_MAX_RUNS];
    uint64_t seed = 0x6d736d2d62656e63ULL ^ log_n;
    BM_JAC g, p, d;
    BM_AFF ga;
    BM_FR_T a, dd;
    int rc = 1;

    if (bases == NULL || jac == NULL || sc == NULL || limbs == NULL) {
        fprintf(stderr, "out of memory\n");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        uint8_t b[32];
        do {
            for (int l = 0; l < 4; l++) {
                uint64_t x = bench_splitmix(&seed);
                for (int k = 0; k < 8; k++)
                    b[8 * l + k] = (uint8_t)(x >> (8 * k));
            }
            b[31] &= 0x7f; /* both moduli are below 2^255 */
        } while (BMR(from_bytes_le)(&sc[i], b) != 0);
        memcpy(&limbs[4 * i], b, 32); /* little-endian host */
    }
    a = sc[0];
    dd = sc[n - 1];
    BMF(generator)(&ga);
    BMF(from_affine)(&g, &ga);
    BMF(mul)(&p, &g, &a);
    BMF(mul)(&d, &g, &dd);
    for (size_t i = 0; i < n; i++) {
        jac[i] = p;
        BMF(add)(&p, &p, &d);
    }
    BMF(batch_to_affine)(bases, jac, n);

    for (int run = 0; run < nruns; run++) {
        BM_JAC r;
        uint64_t c0 = bench_cpu_ns(), t0 = bench_now_ns();
        int e = window == 0 ? BMF(msm)(&r, bases, sc, n, pool)
                            : BML(&r, bases, limbs, n, pool, window, 0);
        if (e != 0) {
            fprintf(stderr, "msm failed\n");
            goto out;
        }
        v[run] = (double)(bench_now_ns() - t0) / 1e6;
        cpu[run] = (double)(bench_cpu_ns() - c0) / 1e6;
    }
    bench_stats s = bench_stats_of(v, (size_t)nruns);
    bench_stats sc_cpu = bench_stats_of(cpu, (size_t)nruns);
    printf("{\"bench\":\"msm\",\"curve\":\"%s\",\"group\":\"%s\",\"log_n\":%u,\"threads\":%zu,"
           "\"window\":%u,\"ms\":%.2f,\"min\":%.2f,\"max\":%.2f,\"cpu_ms\":%.2f,\"git\":\"%s\"}\n",
           curve, group, log_n, cz_threadpool_size(pool), window, s.median, s.min, s.max,
           sc_cpu.median, bench_git_sha());
    fflush(stdout);
    rc = 0;
out:
    free(bases);
    free(jac);
    free(sc);
    free(limbs);
    return rc;
}

#undef BMF
#undef BMR
#undef BMB
#undef BML
#undef BM_IG
#undef BM_G
#undef BM_FR
#undef BM_AFF
#undef BM_JAC
#undef BM_FR_T
