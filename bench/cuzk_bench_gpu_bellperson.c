/*
 * cuzk-bench-gpu-bellperson: the bellperson prover on the GPU (cuzk/groth16_bellperson.h) for
 * one partition of the synthetic PoRep circuit (cuzk/porep_synth.h: the counts, densities and
 * 0/1 share of a PoRep 32 GiB partition at scale 2^K), with a benchmark key made on the device
 * (cz_groth16_bp_gpu_key_create_bench: points of no trapdoor, so the proofs are timed,
 * never verified). One JSON line per run and a summary line:
 *
 *   {"bench":"gpu-bellperson","k":27,"run":0,"gpu_ms":...,"ntt_ms":...,"msm_h_ms":...,
 *    "msm_l_ms":...,"msm_a_ms":...,"msm_b1_ms":...,"msm_b2_ms":...,"upload_ms":...,
 *    "total_ms":...}
 *
 * gpu_ms is the device region of one partition (NTTs and the five MSMs, the uploads excluded),
 * what the engine holds its device lock for; upload_ms the host-to-device copies of a, b, c and
 * the assignment from pageable memory. Usage: cuzk-bench-gpu-bellperson K [RUNS [THREADS [ACC
 * [profile]]]] (defaults 27, 3, one thread per CPU (0), auto; K from 10 to 27). ACC is the G1 MSMs'
 * bucket accumulation (cz_tuning.gpu_msm_accumulation): auto, madd, batch-affine, or both (madd and
 * batch-affine in turn, on the same key; every line carries "accumulation"); `profile` has every
 * MSM print its phases to stderr (cz_tuning.msm_profile). Host memory at 2^27:
 * the constraint system (~7 GB) and the assignment (~17 GB); device: the key (~44 GB) and the
 * vectors (~17 GB).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/assignment.h"
#include "cuzk/clock.h"
#include "cuzk/curve.h"
#include "cuzk/groth16_bellperson.h"
#include "cuzk/porep_synth.h"
#include "cuzk/threadpool.h"
#include "cuzk/tuning.h"
#include "bench_util.h"

int main(int argc, char **argv) {
    unsigned k = argc > 1 ? (unsigned)atoi(argv[1]) : 27;
    int runs = argc > 2 ? atoi(argv[2]) : 3;
    size_t threads = argc > 3 ? (size_t)atoi(argv[3]) : 0;
    const char *acc = argc > 4 ? argv[4] : "auto";
    const int profile = argc > 5 && strcmp(argv[5], "profile") == 0;
    int acc_from, acc_to;
    cz_threadpool *pool = NULL;
    cz_r1cs cs = {0};
    cz_assignment as = {0};
    cz_bellperson_params params = {0};
    cz_groth16_bp_gpu_key *key = NULL;
    cz_bls12381_fr r = {{0}}, s = {{0}};
    double *gpu = NULL;
    cz_errinfo ei;
    int rc, status = 1;
    uint64_t t;

    cz_errinfo_clear(&ei);
    acc_from = bench_acc_from_name(acc);
    if (runs < 1 || runs > 100 || acc_from < 0 || (argc > 5 && !profile)) {
        fprintf(stderr, "usage: cuzk-bench-gpu-bellperson K [RUNS [THREADS "
                        "[auto|madd|batch-affine|both [profile]]]]\n");
        return 2;
    }
    acc_to = acc_from;
    if (acc_from == BENCH_ACC_BOTH) {
        acc_from = CZ_ACC_MADD;
        acc_to = CZ_ACC_BATCH_AFFINE;
    }
    if ((rc = cz_threadpool_create(&pool, threads, &ei)) != CZ_OK)
        goto out;
    t = cz_clock_now_ns();
    if ((rc = cz_porep_synth_build(&cs, CZ_CURVE_BLS12381, k, pool, &ei)) != CZ_OK ||
        (rc = cz_porep_synth_witness(&cs, k, 1, 0, pool, &ei)) != CZ_OK ||
        (rc = cz_r1cs_assignment_make(&as, &cs, pool, &ei)) != CZ_OK)
        goto out;
    cz_r1cs_free(&cs);
    fprintf(stderr, "gpu-bellperson: 2^%u partition synthesized in %.1f s\n", k,
            (double)(cz_clock_now_ns() - t) / 1e9);

    /* A key of the partition's counts: only the vk's points (for the epilogue) live on the host. */
    cz_groth16_bp_bench_params(&params, &as, k);
    t = cz_clock_now_ns();
    if ((rc = cz_groth16_bp_gpu_key_create_bench(&key, &params, &as, 0, &ei)) != CZ_OK)
        goto out;
    fprintf(stderr,
            "gpu-bellperson: key |H| %u |L| %u |A| %u |B| %u made on the device in %.1f s "
            "(%.1f GiB)\n",
            params.nh, params.nl, params.na, params.nb_g1, (double)(cz_clock_now_ns() - t) / 1e9,
            (double)cz_groth16_bp_gpu_key_bytes(key) / (1u << 30));

    gpu = calloc((size_t)runs, sizeof *gpu);
    if (gpu == NULL)
        goto out;
    for (int m = acc_from; m <= acc_to; m++) {
        cz_tuning tu = {0};
        tu.gpu_msm_accumulation = (cz_acc_mode)m;
        tu.msm_profile = profile;
        if ((rc = cz_tuning_set(&tu, &ei)) != CZ_OK)
            goto out;
        for (int i = 0; i <= runs; i++) { /* run 0 warms up (twiddles, allocations) */
            cz_groth16_proof proof;
            cz_groth16_timings tm = {0};
            cz_groth16_bp_opts o = {
                .r_s = &r, .s_s = &s, .pool = pool, .use_gpu = 1, .gpu_key = key, .timings = &tm};
            if ((rc = cz_groth16_bp_prove(&proof, &params, &as, 1, &o, &ei)) != CZ_OK)
                goto out;
            printf("{\"bench\":\"gpu-bellperson\",\"k\":%u,\"accumulation\":\"%s\",\"run\":%d,"
                   "\"warmup\":%s,\"gpu_ms\":%.3f,"
                   "\"ntt_ms\":%.3f,\"msm_h_ms\":%.3f,\"msm_l_ms\":%.3f,\"msm_a_ms\":%.3f,"
                   "\"msm_b1_ms\":%.3f,\"msm_b2_ms\":%.3f,\"upload_ms\":%.3f,\"total_ms\":%.3f}\n",
                   k, cz_acc_mode_name((cz_acc_mode)m), i, i == 0 ? "true" : "false", tm.gpu_ms,
                   tm.ntt_ms, tm.msm_h_ms, tm.msm_c_ms, tm.msm_a_ms, tm.msm_b1_ms, tm.msm_b2_ms,
                   tm.upload_ms, tm.total_ms);
            fflush(stdout);
            if (i > 0)
                gpu[i - 1] = tm.gpu_ms;
        }
        qsort(gpu, (size_t)runs, sizeof *gpu, bench_cmp_double);
        printf("{\"bench\":\"gpu-bellperson\",\"summary\":true,\"k\":%u,\"accumulation\":\"%s\","
               "\"runs\":%d,\"median_gpu_ms\":%.3f,\"min_gpu_ms\":%.3f,\"verified\":false,"
               "\"aux\":%zu,\"a_aux\":%zu,\"b_aux\":%zu}\n",
               k, cz_acc_mode_name((cz_acc_mode)m), runs, gpu[runs / 2], gpu[0], as.naux,
               cz_density_popcount(as.a_aux_density, as.naux),
               cz_density_popcount(as.b_aux_density, as.naux));
    }
    cz_tuning_set(NULL, NULL);
    status = 0;
out:
    if (status != 0)
        fprintf(stderr, "cuzk-bench-gpu-bellperson: %s\n", ei.msg[0] ? ei.msg : "failed");
    free(gpu);
    cz_groth16_bp_gpu_key_free(key);
    cz_assignment_free(&as);
    cz_r1cs_free(&cs);
    cz_threadpool_destroy(pool);
    return status;
}
