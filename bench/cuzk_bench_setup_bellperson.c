/*
 * cuzk-bench-setup-bellperson: the bellperson-format setup (cz_groth16_setup_bellperson,
 * cuzk/groth16_setup.h) of the synthetic PoRep circuit at scale 2^K (cuzk/porep_synth.h: the
 * counts and densities of a PoRep 32 GiB partition at K = 27), in memory, from a seeded trapdoor
 * (an INSECURE key: it is timed and its counts checked, then dropped). One JSON line:
 *
 *   {"bench":"setup-bellperson","k":27,"threads":16,"build_s":...,"setup_s":...,
 *    "h":...,"l":...,"a":...,"b":...}
 *
 * build_s is the constraint system's synthesis (not part of a setup's cost), setup_s the setup.
 * Usage: cuzk-bench-setup-bellperson K [THREADS] (THREADS 0 = one per CPU). Host memory at 2^27:
 * the system (~7 GB), the key's points (~47 GB) and two scalar arrays (~9 GB).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/bellperson.h"
#include "cuzk/clock.h"
#include "cuzk/groth16_setup.h"
#include "cuzk/porep_synth.h"
#include "cuzk/threadpool.h"

int main(int argc, char **argv) {
    unsigned k = argc > 1 ? (unsigned)atoi(argv[1]) : 0;
    size_t threads = argc > 2 ? (size_t)atoi(argv[2]) : 0;
    cz_threadpool *pool = NULL;
    cz_r1cs cs = {0};
    cz_bellperson_params params = {0};
    cz_groth16_trapdoor td;
    cz_errinfo ei;
    int status = 1;
    uint64_t t0, t1, t2;

    cz_errinfo_clear(&ei);
    if (k < CZ_POREP_SYNTH_KMIN || k > CZ_POREP_SYNTH_KMAX) {
        fprintf(stderr, "usage: cuzk-bench-setup-bellperson K [THREADS]   (K %d..%d)\n",
                CZ_POREP_SYNTH_KMIN, CZ_POREP_SYNTH_KMAX);
        return 2;
    }
    cz_groth16_trapdoor_from_seed(&td, (const uint8_t *)"cuzk-bench setup", 16);
    t0 = cz_clock_now_ns();
    if (cz_threadpool_create(&pool, threads, &ei) != CZ_OK ||
        cz_porep_synth_build(&cs, CZ_CURVE_BLS12381, k, pool, &ei) != CZ_OK)
        goto out;
    t1 = cz_clock_now_ns();
    if (cz_groth16_setup_bellperson(&params, &cs, &td, pool, &ei) != CZ_OK)
        goto out;
    t2 = cz_clock_now_ns();
    printf("{\"bench\":\"setup-bellperson\",\"k\":%u,\"threads\":%zu,\"build_s\":%.3f,"
           "\"setup_s\":%.3f,\"h\":%u,\"l\":%u,\"a\":%u,\"b\":%u,\"insecure\":true}\n",
           k, cz_threadpool_size(pool), (double)(t1 - t0) / 1e9, (double)(t2 - t1) / 1e9, params.nh,
           params.nl, params.na, params.nb_g1);
    status = 0;
out:
    if (status != 0)
        fprintf(stderr, "cuzk-bench-setup-bellperson: %s\n", ei.msg[0] ? ei.msg : "failed");
    cz_bellperson_params_free(&params);
    cz_r1cs_free(&cs);
    cz_threadpool_destroy(pool);
    return status;
}
