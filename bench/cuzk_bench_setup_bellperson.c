/*
 * cuzk-bench-setup-bellperson: the bellperson-format setup (cz_groth16_setup_bellperson,
 * cuzk/groth16_setup.h) of the synthetic PoRep circuit at scale 2^K (cuzk/porep_synth.h: the
 * counts and densities of a PoRep 32 GiB partition at K = 27), in memory, from a seeded trapdoor
 * (an INSECURE key: it is timed and its counts checked, then dropped). One JSON line per setup:
 *
 *   {"bench":"setup-bellperson","k":27,"threads":16,"backend":"gpu","device":0,"build_s":...,
 *    "setup_s":...,"h":...,"l":...,"a":...,"b":...}
 *
 * build_s is the constraint system's synthesis (not part of a setup's cost), setup_s the setup.
 * Usage: cuzk-bench-setup-bellperson K [THREADS] [--device D] [--ref KREF]
 *   THREADS 0 = one per CPU; --device D: the multiplications on GPU D (default: the CPU);
 *   --ref KREF (with --device): afterwards the same setup at 2^KREF on the CPU and on the GPU,
 *   their two lines and a third {"bench":"setup-bellperson","k":KREF,"cpu_over_gpu":...,
 *   "same_key":true|false}: the reference of the same run, and a check that both backends make
 *   the same key (exit 1 when they do not).
 * Host memory at 2^27: the system (~7 GB), the key's points (~47 GB) and two scalar arrays
 * (~9 GB).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/bellperson.h"
#include "cuzk/clock.h"
#include "cuzk/groth16_setup.h"
#include "cuzk/porep_synth.h"
#include "cuzk/threadpool.h"

/* One setup at 2^k on dev (-1: CPU): its JSON line, *s its time; the key stays in *params. */
static int setup_once(cz_bellperson_params *params, double *s, unsigned k, int dev,
                      cz_threadpool *pool, cz_errinfo *ei) {
    cz_r1cs cs = {0};
    cz_groth16_trapdoor td;
    uint64_t t0 = cz_clock_now_ns(), t1, t2;
    int rc;
    cz_groth16_trapdoor_from_seed(&td, (const uint8_t *)"cuzk-bench setup", 16);
    if ((rc = cz_porep_synth_build(&cs, CZ_CURVE_BLS12381, k, pool, ei)) != CZ_OK)
        return rc;
    t1 = cz_clock_now_ns();
    rc = cz_groth16_setup_bellperson(params, &cs, &td, pool, dev, ei);
    t2 = cz_clock_now_ns();
    cz_r1cs_free(&cs);
    if (rc != CZ_OK)
        return rc;
    *s = (double)(t2 - t1) / 1e9;
    printf("{\"bench\":\"setup-bellperson\",\"k\":%u,\"threads\":%zu,\"backend\":\"%s\","
           "\"device\":%d,\"build_s\":%.3f,\"setup_s\":%.3f,\"h\":%u,\"l\":%u,\"a\":%u,\"b\":%u,"
           "\"insecure\":true}\n",
           k, cz_threadpool_size(pool), dev >= 0 ? "gpu" : "cpu", dev, (double)(t1 - t0) / 1e9, *s,
           params->nh, params->nl, params->na, params->nb_g1);
    fflush(stdout);
    return CZ_OK;
}

/* The reference: 2^kref on the CPU and on dev, timed, and compared. */
static int reference(unsigned kref, int dev, cz_threadpool *pool, cz_errinfo *ei) {
    cz_bellperson_params c = {0}, g = {0};
    double sc = 0, sg = 0;
    int rc = setup_once(&c, &sc, kref, -1, pool, ei);
    if (rc == CZ_OK)
        rc = setup_once(&g, &sg, kref, dev, pool, ei);
    if (rc == CZ_OK) {
        int same = cz_bellperson_params_equal(&c, &g);
        printf("{\"bench\":\"setup-bellperson\",\"k\":%u,\"cpu_over_gpu\":%.2f,\"same_key\":%s}\n",
               kref, sc / sg, same ? "true" : "false");
        if (!same)
            rc = cz_fail(ei, CZ_EINTERNAL, "the CPU and GPU keys of 2^%u differ", kref);
    }
    cz_bellperson_params_free(&c);
    cz_bellperson_params_free(&g);
    return rc;
}

int main(int argc, char **argv) {
    unsigned k = 0, kref = 0;
    size_t threads = 0;
    int dev = -1, npos = 0, status = 1;
    cz_threadpool *pool = NULL;
    cz_bellperson_params params = {0};
    cz_errinfo ei;
    double s;

    cz_errinfo_clear(&ei);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--device") == 0 && i + 1 < argc)
            dev = atoi(argv[++i]);
        else if (strcmp(argv[i], "--ref") == 0 && i + 1 < argc)
            kref = (unsigned)atoi(argv[++i]);
        else if (npos == 0 && ++npos)
            k = (unsigned)atoi(argv[i]);
        else if (npos == 1 && ++npos)
            threads = (size_t)atoi(argv[i]);
        else
            k = 0;
    }
    if (k < CZ_POREP_SYNTH_KMIN || k > CZ_POREP_SYNTH_KMAX || dev < -1 ||
        (kref != 0 && (dev < 0 || kref < CZ_POREP_SYNTH_KMIN || kref > CZ_POREP_SYNTH_KMAX))) {
        fprintf(stderr,
                "usage: cuzk-bench-setup-bellperson K [THREADS] [--device D] [--ref KREF]   "
                "(K, KREF %d..%d; --ref needs --device)\n",
                CZ_POREP_SYNTH_KMIN, CZ_POREP_SYNTH_KMAX);
        return 2;
    }
    if (cz_threadpool_create(&pool, threads, &ei) != CZ_OK ||
        setup_once(&params, &s, k, dev, pool, &ei) != CZ_OK)
        goto out;
    cz_bellperson_params_free(&params);
    if (kref != 0 && reference(kref, dev, pool, &ei) != CZ_OK)
        goto out;
    status = 0;
out:
    if (status != 0)
        fprintf(stderr, "cuzk-bench-setup-bellperson: %s\n", ei.msg[0] ? ei.msg : "failed");
    cz_bellperson_params_free(&params);
    cz_threadpool_destroy(pool);
    return status;
}
