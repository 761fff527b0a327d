/*
 * `cuzk prove ZKEY WTNS PROOF.json PUBLIC.json`: the snarkjs-compatible Groth16 prover, on the CPU
 * or (--gpu) on a CUDA device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cuzk/clock.h"
#include "cuzk/groth16.h"
#include "cuzk/groth16_json.h"
#include "cuzk/threadpool.h"
#include "cuzk/zkey.h"

static const char prove_help[] =
    "usage: cuzk prove [options] ZKEY WTNS PROOF.json PUBLIC.json\n"
    "\n"
    "Proves with a snarkjs Groth16 proving key (.zkey, BN254 or BLS12-381) and a witness (.wtns)\n"
    "and writes proof.json and public.json as snarkjs does. The blinding factors r and s are\n"
    "drawn from the kernel's CSPRNG unless given.\n"
    "\n"
    "options:\n"
    "  -t, --threads N   worker threads (default 0 = one per CPU)\n"
    "  --verify          verify the proof with the key's verification key before writing it\n"
    "  --gpu             prove on a CUDA GPU (the same proof as on the CPU); exit code 4 when\n"
    "                    cuzk has no CUDA or the machine no GPU\n"
    "  --device N        the CUDA device for --gpu (default 0)\n"
    "  --r HEX --s HEX   fixed blinding factors (hex, < r): for tests only, NOT zero-knowledge\n"
    "                    when reused\n"
    "  -v, --verbose     print the time of each step\n"
    "\n"
    "With --params KEY.params: a bellperson key (`cuzk prove --params --help`).\n";

/* The circuit's constraint count, which the key does not store: snarkjs (and cuzk setup) put
 * the R1CS rows first and then one A row per public signal (the one signal, the public inputs),
 * so the last row with a coefficient is nConstraints + nPublic. */
static uint32_t zkey_constraints(const cz_zkey *zk) {
    uint32_t last = 0;
    for (size_t i = 0; i < zk->ncoefs; i++) {
        cz_zkey_coef c;
        cz_zkey_coef_at(&c, zk, i);
        if (c.row > last)
            last = c.row;
    }
    return last >= zk->npublic ? last - zk->npublic : 0;
}

/* The -v lines (tested in tests/cli/test_cli.sh). */
static void print_verbose(const cz_zkey *zk, const cz_threadpool *pool, double load_ms,
                          const cz_groth16_timings *tm, int use_gpu, int device) {
    fprintf(stderr, "cuzk prove: %s, %u constraints, domain 2^%u, %u signals, %zu threads\n",
            cz_curve_name(zk->curve), zkey_constraints(zk), zk->log_domain_size, zk->nvars,
            cz_threadpool_size(pool));
    fprintf(stderr,
            "  load %.1f ms, witness %.1f ms, ntt %.1f ms, msm A %.1f ms, B1 %.1f ms, "
            "B2(G2) %.1f ms, C %.1f ms, H %.1f ms; prove %.1f ms\n",
            load_ms, tm->witness_ms, tm->ntt_ms, tm->msm_a_ms, tm->msm_b1_ms, tm->msm_b2_ms,
            tm->msm_c_ms, tm->msm_h_ms, tm->total_ms);
    if (use_gpu)
        fprintf(stderr,
                "  GPU %d: upload %.1f ms, device region %.1f ms (the B2 MSM ran on the CPU "
                "meanwhile)\n",
                device, tm->upload_ms, tm->gpu_ms);
}

int cz__cli_prove(int argc, char **argv) {
    const char *pos[4];
    size_t npos = 0;
    int exit_code = CZ_EXIT_OK, rc;
    cz__cli_prove_opts po = {0};
    cz_errinfo ei;
    cz_zkey *zk = NULL;
    cz_wtns *w = NULL;
    cz_threadpool *pool = NULL;
    cz_groth16_proof proof;
    cz_groth16_public pub = {0};
    cz_groth16_vk vk = {0};
    cz_groth16_timings tm;
    int have_pub = 0, have_vk = 0;

    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--params") == 0)
            return cz__cli_prove_bellperson(argc, argv);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(prove_help, stdout);
            return CZ_EXIT_OK;
        } else if ((rc = cz__cli_prove_option(&po, argc, argv, &i)) != CZ__CLI_NOT_MINE) {
            if (rc != CZ_EXIT_OK)
                return rc;
        } else if (a[0] == '-' && a[1] != '\0') {
            return cz__cli_usage_error("prove", "unknown option '%s'", a);
        } else if (npos == 4) {
            return cz__cli_usage_error("prove", "too many arguments");
        } else {
            pos[npos++] = a;
        }
    }
    if (npos != 4)
        return cz__cli_usage_error("prove", "expected ZKEY WTNS PROOF.json PUBLIC.json");
    if ((rc = cz__cli_prove_opts_check(&po)) != CZ_EXIT_OK)
        return rc;

    cz_errinfo_clear(&ei);
    uint64_t t0 = cz_clock_now_ns();
    if (cz_zkey_open(&zk, pos[0], &ei) != CZ_OK || cz_wtns_open(&w, pos[1], &ei) != CZ_OK ||
        cz_threadpool_create(&pool, po.threads, &ei) != CZ_OK)
        goto fail;
    double load_ms = (double)(cz_clock_now_ns() - t0) / 1e6;
    cz_groth16_prove_opts opts = {.r = po.have_rs ? po.r : NULL,
                                  .s = po.have_rs ? po.s : NULL,
                                  .pool = pool,
                                  .timings = &tm,
                                  .use_gpu = po.use_gpu,
                                  .gpu_device = po.device};
    if (cz_groth16_prove(&proof, &pub, zk, w, &opts, &ei) != CZ_OK)
        goto fail;
    have_pub = 1;
    if (po.verify) {
        if (cz_groth16_vk_from_zkey(&vk, zk, &ei) != CZ_OK)
            goto fail;
        have_vk = 1;
        if (cz_groth16_verify(&vk, &pub, &proof, &ei) != CZ_OK)
            goto fail;
    }
    if (cz_groth16_proof_write_json(pos[2], &proof, &ei) != CZ_OK ||
        cz_groth16_public_write_json(pos[3], &pub, &ei) != CZ_OK)
        goto fail;
    if (po.verbose)
        print_verbose(zk, pool, load_ms, &tm, po.use_gpu, po.device);
    goto out;
fail:
    exit_code = cz__cli_report("prove", &ei);
out:
    if (have_vk)
        cz_groth16_vk_free(&vk);
    if (have_pub)
        cz_groth16_public_free(&pub);
    cz_threadpool_destroy(pool);
    cz_wtns_close(w);
    cz_zkey_close(zk);
    return exit_code;
}
