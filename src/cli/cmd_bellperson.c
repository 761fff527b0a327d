/*
 * The bellperson forms of `cuzk prove` and `cuzk verify` (cuzk/groth16_bellperson.h):
 *
 *   cuzk prove --params KEY.params CIRCUIT.r1cs WITNESS.wtns -o PROOF.bin --public PUBLIC.json
 *   cuzk verify --vk KEY.vk PROOF.bin PUBLIC.json [PUBLIC.json ...]
 *
 * A circom BLS12-381 circuit is proven with a bellperson key: the .r1cs and .wtns become an
 * in-memory system (cz_r1cs_from_file), its proving assignment (cz_r1cs_assignment_make: circom's
 * wires in order, the inputs first), and the 192-byte proof of cz_groth16_bp_prove. PUBLIC.json
 * is snarkjs's public.json (decimal strings, ONE left out). A proof file of N partitions is
 * verified with N public files, all at once (cz_groth16_verify_batch). cmd_prove.c and
 * cmd_verify.c hand over when they see --params or --vk.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cuzk/assignment.h"
#include "cuzk/bellperson.h"
#include "cuzk/clock.h"
#include "cuzk/groth16.h"
#include "cuzk/groth16_bellperson.h"
#include "cuzk/groth16_json.h"
#include "cuzk/r1cs_file.h"
#include "cuzk/threadpool.h"
#include "cuzk/wtns.h"

static const char prove_help[] =
    "usage: cuzk prove --params KEY.params CIRCUIT.r1cs WITNESS.wtns -o PROOF.bin\n"
    "                  --public PUBLIC.json [options]\n"
    "\n"
    "Proves a circom BLS12-381 circuit with a bellperson Groth16 key (.params) as bellperson\n"
    "does, and writes the 192-byte proof (compressed A | B | C) and the public inputs as a\n"
    "JSON array of decimal strings (ONE left out). The blinding factors r and s are drawn from\n"
    "the kernel's CSPRNG unless given.\n"
    "\n"
    "options:\n"
    "  -t, --threads N   worker threads (default 0 = one per CPU)\n"
    "  --check-subgroup  also check every key point for the prime-order subgroup (slow)\n"
    "  --verify          verify the proof with the key's verifying key before writing it\n"
    "  --gpu             prove on a CUDA GPU (the same proof as on the CPU); exit code 4 when\n"
    "                    cuzk has no CUDA or the machine no GPU\n"
    "  --device N        the CUDA device for --gpu (default 0)\n"
    "  --r HEX --s HEX   fixed blinding factors (hex, < r): for tests only, NOT zero-knowledge\n"
    "                    when reused\n"
    "  -v, --verbose     print the time of each step\n";

static const char verify_help[] =
    "usage: cuzk verify --vk KEY.vk PROOF.bin PUBLIC.json [PUBLIC.json ...]\n"
    "\n"
    "Verifies bellperson Groth16 proofs (192 bytes each, N partitions concatenated) against a\n"
    "bellperson verifying key (.vk, or the .params it starts), with one public-input file per\n"
    "partition, in order (JSON arrays of decimal strings, ONE left out). All partitions are\n"
    "checked at once in one multi-pairing. Prints OK and exits 0 when every proof is valid;\n"
    "prints INVALID and exits 1 otherwise.\n";

/* The Montgomery form of a 32-byte little-endian canonical scalar (from --r / --s). */
static int fr_from_arg(cz_bls12381_fr *out, const uint8_t b[32], cz_errinfo *ei) {
    if (cz_bls12381_fr_from_bytes_le(out, b) != CZ_OK)
        return cz_fail(ei, CZ_ERANGE, "prove: a blinding factor is not below r");
    return CZ_OK;
}

int cz__cli_prove_bellperson(int argc, char **argv) {
    const char *pos[2], *params_path = NULL, *out_path = NULL, *pub_path = NULL;
    size_t npos = 0;
    int subgroup = 0, exit_code = CZ_EXIT_OK, rc;
    cz__cli_prove_opts po = {0};
    cz_bellperson_params params = {0};
    cz_r1cs_file *rf = NULL;
    cz_wtns *w = NULL;
    cz_r1cs cs = {0};
    cz_assignment as = {0};
    cz_threadpool *pool = NULL;
    cz_groth16_proof proof;
    cz_groth16_public pub = {0};
    cz_groth16_vk vk = {0};
    cz_groth16_timings tm = {0};
    cz_bls12381_fr r, s;
    cz_errinfo ei;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(prove_help, stdout);
            return CZ_EXIT_OK;
        } else if (strcmp(a, "--params") == 0 || strcmp(a, "-o") == 0 ||
                   strcmp(a, "--public") == 0) {
            if (++i == argc)
                return cz__cli_usage_error("prove", "%s needs a file name", a);
            *(a[1] == 'o' ? &out_path : a[3] == 'a' ? &params_path : &pub_path) = argv[i];
        } else if ((rc = cz__cli_prove_option(&po, argc, argv, &i)) != CZ__CLI_NOT_MINE) {
            if (rc != CZ_EXIT_OK)
                return rc;
        } else if (strcmp(a, "--check-subgroup") == 0) {
            subgroup = 1;
        } else if (a[0] == '-' && a[1] != '\0') {
            return cz__cli_usage_error("prove", "unknown option '%s'", a);
        } else if (npos == 2) {
            return cz__cli_usage_error("prove", "too many arguments");
        } else {
            pos[npos++] = a;
        }
    }
    if (params_path == NULL || npos != 2 || out_path == NULL || pub_path == NULL)
        return cz__cli_usage_error("prove", "expected --params KEY.params CIRCUIT.r1cs "
                                            "WITNESS.wtns -o PROOF.bin --public PUBLIC.json");
    if ((rc = cz__cli_prove_opts_check(&po)) != CZ_EXIT_OK)
        return rc;

    cz_errinfo_clear(&ei);
    uint64_t t0 = cz_clock_now_ns();
    if (cz_threadpool_create(&pool, po.threads, &ei) != CZ_OK)
        goto fail;
    cz_bellperson_read_opts ro = {.check_subgroup = subgroup, .pool = pool};
    if (cz_bellperson_params_read(&params, params_path, &ro, &ei) != CZ_OK ||
        cz_r1cs_open(&rf, pos[0], &ei) != CZ_OK || cz_wtns_open(&w, pos[1], &ei) != CZ_OK ||
        cz_r1cs_from_file(&cs, rf, w, &ei) != CZ_OK)
        goto fail;
    uint64_t t1 = cz_clock_now_ns();
    if (cz_r1cs_assignment_make(&as, &cs, pool, &ei) != CZ_OK)
        goto fail;
    cz_r1cs_free(&cs);
    if (po.have_rs && (fr_from_arg(&r, po.r, &ei) != CZ_OK || fr_from_arg(&s, po.s, &ei) != CZ_OK))
        goto fail;
    cz_groth16_bp_opts o = {.r_s = po.have_rs ? &r : NULL,
                            .s_s = po.have_rs ? &s : NULL,
                            .pool = pool,
                            .use_gpu = po.use_gpu,
                            .gpu_device = po.device,
                            .timings = &tm};
    uint64_t t2 = cz_clock_now_ns();
    if (cz_groth16_bp_prove(&proof, &params, &as, 1, &o, &ei) != CZ_OK ||
        cz_groth16_bp_public(&pub, &as, &ei) != CZ_OK)
        goto fail;
    if (po.verify && (cz_groth16_vk_from_bellperson(&vk, &params.vk, &ei) != CZ_OK ||
                      cz_groth16_verify(&vk, &pub, &proof, &ei) != CZ_OK))
        goto fail;
    if (cz_groth16_proofs_write(out_path, &proof, 1, &ei) != CZ_OK ||
        cz_groth16_public_write_json(pub_path, &pub, &ei) != CZ_OK)
        goto fail;
    if (po.verbose) {
        fprintf(stderr,
                "cuzk prove: bellperson key, %zu constraints (input constraints included), "
                "domain 2^%d, %zu inputs, %zu aux, %zu threads\n",
                as.abc_size, __builtin_ctz(params.nh + 1), as.ninput, as.naux,
                cz_threadpool_size(pool));
        fprintf(stderr,
                "  load %.1f ms, assignment %.1f ms, ntt %.1f ms, msm H %.1f ms, L %.1f ms, "
                "A %.1f ms, B_G1 %.1f ms, B_G2 %.1f ms; prove %.1f ms\n",
                (double)(t1 - t0) / 1e6, (double)(t2 - t1) / 1e6, tm.ntt_ms, tm.msm_h_ms,
                tm.msm_c_ms, tm.msm_a_ms, tm.msm_b1_ms, tm.msm_b2_ms, tm.total_ms);
        if (po.use_gpu)
            fprintf(stderr, "  GPU %d: upload %.1f ms, device region %.1f ms\n", po.device,
                    tm.upload_ms, tm.gpu_ms);
    }
    goto out;
fail:
    exit_code = cz__cli_report("prove", &ei);
out:
    memset(&r, 0, sizeof r);
    memset(&s, 0, sizeof s);
    cz_groth16_vk_free(&vk);
    cz_groth16_public_free(&pub);
    cz_assignment_free(&as);
    cz_r1cs_free(&cs);
    cz_wtns_close(w);
    cz_r1cs_close(rf);
    cz_bellperson_params_free(&params);
    cz_threadpool_destroy(pool);
    return exit_code;
}

int cz__cli_verify_bellperson(int argc, char **argv) {
    const char *vk_path = NULL, *proof_path = NULL;
    const char **pub_paths = calloc((size_t)argc, sizeof *pub_paths);
    size_t npub = 0, nproofs = 0;
    cz_groth16_vk vk = {0};
    cz_groth16_proof *proofs = NULL;
    cz_groth16_public *pubs = NULL;
    int exit_code = CZ_EXIT_OK;
    cz_errinfo ei;

    if (pub_paths == NULL)
        return CZ_EXIT_INTERNAL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(verify_help, stdout);
            goto out;
        } else if (strcmp(a, "--vk") == 0) {
            if (++i == argc) {
                exit_code = cz__cli_usage_error("verify", "--vk needs a file name");
                goto out;
            }
            vk_path = argv[i];
        } else if (a[0] == '-' && a[1] != '\0') {
            exit_code = cz__cli_usage_error("verify", "unknown option '%s'", a);
            goto out;
        } else if (proof_path == NULL) {
            proof_path = a;
        } else {
            pub_paths[npub++] = a;
        }
    }
    if (vk_path == NULL || proof_path == NULL || npub == 0) {
        exit_code = cz__cli_usage_error("verify", "expected --vk KEY.vk PROOF.bin PUBLIC.json...");
        goto out;
    }
    cz_errinfo_clear(&ei);
    if (cz__cli_vk_and_proofs(vk_path, proof_path, &vk, &proofs, &nproofs, &ei) != CZ_OK)
        goto fail;
    if (nproofs != npub) {
        exit_code = cz__cli_usage_error("verify", "%s holds %zu proofs but %zu public files given",
                                        proof_path, nproofs, npub);
        goto out;
    }
    if ((pubs = calloc(npub, sizeof *pubs)) == NULL) {
        cz_fail(&ei, CZ_ENOMEM, "verify: out of memory");
        goto fail;
    }
    for (size_t i = 0; i < npub; i++)
        if (cz_groth16_public_read_json(&pubs[i], CZ_CURVE_BLS12381, pub_paths[i], &ei) != CZ_OK)
            goto fail;
    if (cz_groth16_verify_batch(&vk, pubs, proofs, nproofs, &ei) != CZ_OK)
        goto fail;
    printf("OK\n");
    goto out;
fail:
    if (ei.code == CZ_EVERIFY)
        printf("INVALID\n");
    exit_code = cz__cli_report("verify", &ei);
out:
    for (size_t i = 0; pubs != NULL && i < npub; i++)
        cz_groth16_public_free(&pubs[i]);
    free(pubs);
    free(proofs);
    cz_groth16_vk_free(&vk);
    free(pub_paths);
    return exit_code;
}
