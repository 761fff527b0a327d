/*
 * cuzk-bench-post-synth: how fast a PoSt partition is synthesized (docs/bench.md). From fake
 * sectors (cuzk filecoin fake-vanilla's, made in memory), one JSON line per step, the median, min
 * and max over runs in ns:
 *
 *   op "record"      the blank circuit recorded (the daemon does it once per shape; one run)
 *   op "native"      the reference: every vanilla proof checked natively on one thread (each
 *                    path hashed with the native Poseidon, comm_r, the challenges), the work the
 *                    witness must at least do
 *   op "witness"     the witness of the partition alone (cz__post_synthesize) on 1 thread and on
 *                    --threads, with ns per million constraints and the ratio to "native"
 *   op "synthesize"  the engine's synthesis step: the witness and each row's a, b, c on 1
 *                    thread and on --threads (cz__post_synthesize), ns per million constraints
 *   op "eval"        the reference for it: a, b, c = A·w, B·w, C·w of the recorded matrices with
 *                    the input rows on --threads (cz_r1cs_eval), after the witness
 *   op "prove"       with --gpu D: the bellperson prover on device D with a benchmark key of
 *                    the circuit's counts and densities (bases made on the device: timed, not
 *                    verifiable); with --setup a key of the bellperson setup made on device D (or
 *                    the CPU without --gpu; seeded: INSECURE; setup_ms) and every proof verified
 *                    against the public inputs of the fake sectors. ns is the kernel region as
 *                    the engine holds the device lock (the whole proof on the CPU), with the
 *                    stages of the last run
 *
 *   cuzk-bench-post-synth [--kind winning-post|window-post] [--sector-size 2KiB|..|64GiB]
 *                         [--sectors N] [--threads T] [--runs R] [--gpu D] [--no-serial]
 *                         [--setup] [--g2 ahead|serial|both] [--g2-streamed] [--msm-profile]
 *                         [--accumulation MODE[,MODE...]]
 * --no-serial leaves out the one-thread runs (native and witness). --g2: how a streamed B_G2
 * uploads its pieces (cz_tuning.gpu_g2_stream_serial; "g2_stream" in the line): the next piece
 * beside the current one's MSM (ahead, the default), after it (serial), or both in turn with the
 * same key (serial first). --g2-streamed streams B_G2 even where the device would hold it
 * (cz_tuning.gpu_g2_stream; "g2_forced" in the line), so that a large card measures what an
 * 80 GB one does. --msm-profile prints every GPU MSM's phases to stderr (cz_tuning.msm_profile:
 * a synchronisation per phase, so the times it prints add up to a little more). --accumulation:
 * the GPU MSMs' bucket accumulation (cz_tuning.gpu_msm_accumulation: auto, madd, batch-affine),
 * each mode of the list in turn with the same key ("accumulation" in the line); default auto.
 * Defaults: window-post, 2KiB, a full partition, all CPUs, 3 runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "cuzk/assignment.h"
#include "cuzk/groth16.h"
#include "cuzk/groth16_bellperson.h"
#include "cuzk/groth16_setup.h"
#include "cuzk/r1cs.h"
#include "cuzk/threadpool.h"
#include "cuzk/tuning.h"
#include "filecoin/post_fake.h"
#include "filecoin/post_prove.h"

#define MAX_RUNS 21
#define MAX_ACCS 3

static int parse_size(uint64_t *out, const char *s) {
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    const char *units[] = {"", "KiB", "MiB", "GiB"};
    for (int u = 0; u < 4; u++)
        if (strcmp(end, units[u]) == 0 && v > 0) {
            *out = (uint64_t)v << (10 * u);
            return 0;
        }
    return -1;
}

/* The comma-separated accumulation modes of s into out (at most max): their count, or 0 for an
 * unknown name, an empty entry or too many. */
static int parse_accs(cz_acc_mode *out, int max, const char *s) {
    int n = 0;
    while (*s != '\0') {
        char name[32];
        size_t len = strcspn(s, ",");
        if (n == max || len == 0 || len >= sizeof name)
            return 0;
        memcpy(name, s, len);
        name[len] = '\0';
        int m = cz_acc_mode_from_name(name);
        if (m < 0)
            return 0;
        out[n++] = (cz_acc_mode)m;
        s += len + (s[len] == ',');
    }
    return n;
}

static void print(const char *op, const char *extra, double *ns, int runs) {
    char fields[512];
    snprintf(fields, sizeof fields, "\"op\":\"%s\"%s", op, extra);
    bench_print_json("post-synth", fields, bench_stats_of(ns, (size_t)runs));
}

/* How a streamed B_G2 uploads its pieces (cz_tuning.gpu_g2_stream_serial): --g2 ahead (the
 * library's default), serial, or both (serial first, then ahead, with the same key). */
enum { G2_AHEAD = 1, G2_SERIAL = 2, G2_BOTH = 3, G2_FORCE_STREAM = 4, MSM_PROFILE = 8 };

/* runs proofs (after one warm-up) with key; the "prove" line, labelled with g2 (the upload mode of
 * a streamed B_G2). *verified = 0 when a proof does not verify (with a vk). */
static int prove_runs(const cz_bellperson_params *params, const cz_assignment *as,
                      cz_groth16_bp_gpu_key *key, const cz_groth16_vk *vk,
                      const cz_groth16_public *pub, cz_threadpool *pool, int dev, int runs,
                      const char *extra_head, const char *g2, int *verified, cz_errinfo *ei) {
    cz_bls12381_fr rr = {{0}}, ss = {{0}};
    double ms[MAX_RUNS];
    cz_groth16_timings last = {0};
    char extra[768];
    int rc;
    for (int i = 0; i <= runs; i++) { /* run 0 warms up */
        cz_groth16_proof proof;
        cz_groth16_timings tm = {0};
        cz_groth16_bp_opts o = {.r_s = &rr,
                                .s_s = &ss,
                                .pool = pool,
                                .use_gpu = dev >= 0,
                                .gpu_device = dev >= 0 ? dev : 0,
                                .gpu_key = key,
                                .timings = &tm};
        if ((rc = cz_groth16_bp_prove(&proof, params, as, 1, &o, ei)) != CZ_OK)
            return rc;
        if (vk != NULL && cz_groth16_verify(vk, pub, &proof, NULL) != CZ_OK)
            *verified = 0;
        if (i > 0) /* ns, as every line: the kernel region, or the whole proof on the CPU */
            ms[i - 1] = (dev >= 0 ? tm.gpu_ms : tm.total_ms) * 1e6;
        last = tm;
    }
    snprintf(extra, sizeof extra,
             "%s,\"g2_stream\":\"%s\",\"verified\":%s,\"last_ntt_ms\":%.1f,"
             "\"last_msm_h_ms\":%.1f,\"last_msm_l_ms\":%.1f,\"last_msm_a_ms\":%.1f,"
             "\"last_msm_b1_ms\":%.1f,\"last_msm_b2_ms\":%.1f,\"last_total_ms\":%.1f",
             extra_head, g2, vk != NULL ? (*verified ? "true" : "false") : "null", last.ntt_ms,
             last.msm_h_ms, last.msm_c_ms, last.msm_a_ms, last.msm_b1_ms, last.msm_b2_ms,
             last.total_ms);
    print("prove", extra, ms, runs);
    return CZ_OK;
}

/* The prover on r's witness on GPU dev with a benchmark key (bases made on the device), or with
 * setup a key of the bellperson setup (on dev, or the CPU for dev < 0; seeded: insecure) and
 * every proof verified against the public inputs of the witness w (comm_r and the challenged
 * leaves). g2: the G2_AHEAD / G2_SERIAL bits (a streamed B_G2's upload modes to run, one "prove"
 * line each) with G2_FORCE_STREAM and MSM_PROFILE (cz_tuning's gpu_g2_stream, msm_profile). */
static int prove(const cz_r1cs *r, const cz__post_witness *w, const cz__post_shape *shape,
                 cz_threadpool *pool, int dev, int runs, int setup, const char *kind, int g2,
                 const cz_acc_mode *accs, int naccs, cz_errinfo *ei) {
    cz_assignment as = {0};
    cz_bellperson_params params = {0};
    cz_groth16_bp_gpu_key *key = NULL;
    cz_groth16_vk vk = {0};
    cz_groth16_public pub = {0};
    cz_tuning tu;
    char head[256];
    unsigned log_n = 0;
    double setup_ms = 0;
    int rc, verified = 1;
    if ((rc = cz_r1cs_assignment_make(&as, r, pool, ei)) != CZ_OK)
        return rc;
    cz_tuning_get(&tu);
    tu.gpu_g2_stream = (g2 & G2_FORCE_STREAM) != 0;
    tu.msm_profile = (g2 & MSM_PROFILE) != 0;
    if ((rc = cz_tuning_set(&tu, ei)) != CZ_OK)
        goto out;
    while (((size_t)1 << log_n) < as.abc_size)
        log_n++;
    if (setup) {
        static const char seed[] = "cuzk-bench-post-synth (insecure)";
        cz_groth16_trapdoor td;
        uint64_t t0 = bench_now_ns();
        cz_groth16_trapdoor_from_seed(&td, (const uint8_t *)seed, sizeof seed - 1);
        if ((rc = cz_groth16_setup_bellperson(&params, r, &td, pool, dev, ei)) != CZ_OK)
            goto out;
        setup_ms = (double)(bench_now_ns() - t0) / 1e6;
        pub.curve = CZ_CURVE_BLS12381;
        pub.n = r->npublic;
        if ((rc = cz_groth16_vk_from_bellperson(&vk, &params.vk, ei)) != CZ_OK ||
            (rc = (pub.values = calloc(pub.n, sizeof *pub.values)) != NULL
                      ? CZ_OK
                      : cz_fail(ei, CZ_ENOMEM, "public inputs")) != CZ_OK ||
            (dev >= 0 && (rc = cz_groth16_bp_gpu_key_create(&key, &params, &as, dev, ei)) != CZ_OK))
            goto out;
        cz__post_public_inputs(pub.values, w, shape);
    } else {
        cz_groth16_bp_bench_params(&params, &as, log_n);
        if ((rc = cz_groth16_bp_gpu_key_create_bench(&key, &params, &as, dev, ei)) != CZ_OK)
            goto out;
    }
    for (int ai = 0; ai < naccs && rc == CZ_OK; ai++) {
        snprintf(head, sizeof head,
                 ",\"kind\":\"%s\",\"device\":%d,\"domain_log\":%u,\"key\":\"%s\","
                 "\"setup_ms\":%.0f,\"g2_forced\":%s,\"accumulation\":\"%s\"",
                 kind, dev, log_n, setup ? "setup" : "bench", setup_ms,
                 (g2 & G2_FORCE_STREAM) ? "true" : "false", cz_acc_mode_name(accs[ai]));
        tu.gpu_msm_accumulation = accs[ai];
        for (int mode = G2_SERIAL; mode >= G2_AHEAD && rc == CZ_OK; mode--) {
            if (!(g2 & mode))
                continue;
            tu.gpu_g2_stream_serial = mode == G2_SERIAL;
            if ((rc = cz_tuning_set(&tu, ei)) == CZ_OK)
                rc = prove_runs(&params, &as, key, setup ? &vk : NULL, &pub, pool, dev, runs, head,
                                mode == G2_SERIAL ? "serial" : "ahead", &verified, ei);
        }
    }
    if (rc == CZ_OK && !verified)
        rc = cz_fail(ei, CZ_EVERIFY, "a proof with the setup's key does not verify");
out:
    cz_groth16_bp_gpu_key_free(key);
    cz_groth16_public_free(&pub);
    cz_groth16_vk_free(&vk);
    if (setup)
        cz_bellperson_params_free(&params);
    cz_assignment_free(&as);
    return rc;
}

static int usage(void) {
    fprintf(stderr, "usage: cuzk-bench-post-synth [--kind winning-post|window-post] "
                    "[--sector-size S] [--sectors N] [--threads T] [--runs R] [--gpu D] "
                    "[--no-serial] [--setup] [--g2 ahead|serial|both] [--g2-streamed] "
                    "[--msm-profile] [--accumulation MODE[,MODE...]]\n");
    return 2;
}

int main(int argc, char **argv) {
    const char *kind = "window-post";
    uint64_t size = 2048;
    size_t nsectors = 0, nthreads = 0;
    int runs = 3, gpu = -1, serial = 1, setup = 0, g2 = G2_AHEAD, flags = 0, naccs = 1;
    cz_acc_mode accs[MAX_ACCS] = {CZ_ACC_AUTO};
    for (int a = 1; a < argc; a++) {
        const char *v = a + 1 < argc ? argv[a + 1] : NULL;
        if (strcmp(argv[a], "--no-serial") == 0 || strcmp(argv[a], "--setup") == 0) {
            serial = serial && strcmp(argv[a], "--no-serial") != 0;
            setup = setup || strcmp(argv[a], "--setup") == 0;
            continue;
        }
        if (strcmp(argv[a], "--g2-streamed") == 0 || strcmp(argv[a], "--msm-profile") == 0) {
            flags |= strcmp(argv[a], "--g2-streamed") == 0 ? G2_FORCE_STREAM : MSM_PROFILE;
            continue;
        }
        if (v == NULL)
            return usage();
        if (strcmp(argv[a], "--kind") == 0)
            kind = v;
        else if (strcmp(argv[a], "--sector-size") == 0 && parse_size(&size, v) == 0)
            ;
        else if (strcmp(argv[a], "--sectors") == 0)
            nsectors = strtoull(v, NULL, 10);
        else if (strcmp(argv[a], "--threads") == 0)
            nthreads = strtoull(v, NULL, 10);
        else if (strcmp(argv[a], "--runs") == 0)
            runs = atoi(v);
        else if (strcmp(argv[a], "--gpu") == 0)
            gpu = atoi(v);
        else if (strcmp(argv[a], "--g2") == 0 && (g2 = strcmp(v, "ahead") == 0    ? G2_AHEAD
                                                       : strcmp(v, "serial") == 0 ? G2_SERIAL
                                                       : strcmp(v, "both") == 0   ? G2_BOTH
                                                                                  : 0) != 0)
            ;
        else if (strcmp(argv[a], "--accumulation") == 0 &&
                 (naccs = parse_accs(accs, MAX_ACCS, v)) > 0)
            ;
        else
            return usage();
        a++;
    }
    if (runs < 1 || runs > MAX_RUNS ||
        (strcmp(kind, "winning-post") != 0 && strcmp(kind, "window-post") != 0))
        return usage();
    const cz__post_kind pk = strcmp(kind, "winning-post") == 0 ? CZ__POST_WINNING : CZ__POST_WINDOW;
    cz__post_shape shape;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (cz__post_shape_get(&shape, pk, size, &ei) != CZ_OK) {
        fprintf(stderr, "cuzk-bench-post-synth: %s\n", ei.msg);
        return 2;
    }
    if (pk == CZ__POST_WINNING)
        nsectors = 1;
    else if (nsectors == 0 || nsectors > shape.sectors)
        nsectors = shape.sectors;
    const unsigned nproofs = pk == CZ__POST_WINNING ? (unsigned)shape.sectors : shape.challenges;
    uint8_t rnd[32] = {7, 1, 2, 3};
    cz__post_vanilla *vs = calloc(nsectors, sizeof *vs);
    cz__post_witness w;
    cz_r1cs r;
    cz_threadpool *pool = NULL;
    double ns[MAX_RUNS], native = 0;
    char extra[256];
    int status = 1;
    memset(&w, 0, sizeof w);
    memset(&r, 0, sizeof r);
    if (vs == NULL || cz_threadpool_create(&pool, nthreads, &ei) != CZ_OK)
        goto out;
    for (size_t i = 0; i < nsectors; i++)
        if (cz__post_fake_sector(&vs[i], &shape, 1000 + i, rnd, 0, nproofs, 5 + i, &ei) != CZ_OK)
            goto out;
    if (cz__post_witness_make(&w, vs, nsectors, &shape, &ei) != CZ_OK)
        goto out;

    uint64_t t0 = bench_now_ns();
    if (cz__post_record(&r, &shape, pool, &ei) != CZ_OK)
        goto out;
    ns[0] = (double)(bench_now_ns() - t0);
    const double mcons = r.nrows / 1e6;
    snprintf(extra, sizeof extra, ",\"kind\":\"%s\",\"sector_size\":%llu,\"constraints\":%u", kind,
             (unsigned long long)size, r.nrows);
    print("record", extra, ns, 1);

    for (int k = 0; k < (serial ? runs : 1); k++) {
        t0 = bench_now_ns();
        for (size_t i = 0; i < nsectors; i++)
            if (cz__post_vanilla_check(&vs[i], &shape, rnd, 0, &ei) != CZ_OK)
                goto out;
        ns[k] = (double)(bench_now_ns() - t0);
    }
    {
        double tmp[MAX_RUNS];
        memcpy(tmp, ns, sizeof tmp);
        native = bench_stats_of(tmp, serial ? (size_t)runs : 1).median;
    }
    snprintf(extra, sizeof extra, ",\"kind\":\"%s\",\"sectors\":%zu", kind, nsectors);
    print("native", extra, ns, serial ? runs : 1);

    size_t threads[2] = {1, cz_threadpool_size(pool)};
    for (int t = serial ? 0 : 1; t < (threads[1] > 1 ? 2 : 1); t++) {
        cz_threadpool *p = t == 0 ? NULL : pool;
        for (int k = 0; k < runs; k++) {
            t0 = bench_now_ns();
            if (cz__post_synthesize(r.w, NULL, NULL, NULL, &w, &shape, &r, p, &ei) != CZ_OK)
                goto out;
            ns[k] = (double)(bench_now_ns() - t0);
        }
        double tmp[MAX_RUNS];
        memcpy(tmp, ns, sizeof tmp);
        const double med = bench_stats_of(tmp, (size_t)runs).median;
        snprintf(extra, sizeof extra,
                 ",\"kind\":\"%s\",\"threads\":%zu,\"ns_per_mconstraint\":%.0f,\"vs_native\":%.2f",
                 kind, threads[t], med / mcons, med / native);
        print("witness", extra, ns, runs);
    }
    if (cz_r1cs_check(&r, pool, NULL, &ei) != CZ_OK)
        goto out;

    const size_t abc = (size_t)r.nrows + r.npublic + 1;
    uint64_t(*a)[4] = malloc(abc * 32), (*b)[4] = malloc(abc * 32), (*c)[4] = malloc(abc * 32);
    if (a == NULL || b == NULL || c == NULL) {
        free(a), free(b), free(c);
        goto out;
    }
    int erc = CZ_OK;
    for (int t = serial ? 0 : 1; t < (threads[1] > 1 ? 2 : 1) && erc == CZ_OK; t++) {
        for (int k = 0; k < runs && erc == CZ_OK; k++) {
            t0 = bench_now_ns();
            erc = cz__post_synthesize(r.w, a, b, c, &w, &shape, &r, t == 0 ? NULL : pool, &ei);
            ns[k] = (double)(bench_now_ns() - t0);
        }
        if (erc == CZ_OK) {
            double tmp[MAX_RUNS];
            memcpy(tmp, ns, sizeof tmp);
            snprintf(extra, sizeof extra,
                     ",\"kind\":\"%s\",\"threads\":%zu,\"ns_per_mconstraint\":%.0f", kind,
                     threads[t], bench_stats_of(tmp, (size_t)runs).median / mcons);
            print("synthesize", extra, ns, runs);
        }
    }
    for (int k = 0; k < runs && erc == CZ_OK; k++) {
        t0 = bench_now_ns();
        erc = cz_r1cs_eval(a, b, c, &r, abc, CZ_R1CS_EVAL_INPUT_ROWS, pool, &ei);
        ns[k] = (double)(bench_now_ns() - t0);
    }
    free(a), free(b), free(c);
    if (erc != CZ_OK)
        goto out;
    snprintf(extra, sizeof extra, ",\"kind\":\"%s\",\"threads\":%zu", kind, threads[1]);
    print("eval", extra, ns, runs);
    if ((gpu >= 0 || setup) &&
        prove(&r, &w, &shape, pool, gpu, runs, setup, kind, g2 | flags, accs, naccs, &ei) != CZ_OK)
        goto out;
    status = 0;
out:
    if (status != 0 && ei.msg[0] != '\0')
        fprintf(stderr, "cuzk-bench-post-synth: %s\n", ei.msg);
    cz_r1cs_free(&r);
    cz__post_witness_free(&w);
    if (vs != NULL)
        cz__post_vanillas_free(vs, nsectors);
    cz_threadpool_destroy(pool);
    return status;
}
