/*
 * `cuzk verify VK.json PUBLIC.json PROOF.json` and `cuzk vk ZKEY VK.json`.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cuzk/groth16.h"
#include "cuzk/groth16_json.h"

static const char verify_help[] =
    "usage: cuzk verify VK.json PUBLIC.json PROOF.json\n"
    "\n"
    "Verifies a Groth16 proof written by snarkjs, rapidsnark or cuzk against a snarkjs\n"
    "verification key. The proof's \"curve\" may be missing (rapidsnark); if given, it must\n"
    "be the key's.\n"
    "Public inputs must be below r; proof points must be on the curve and in the subgroup.\n"
    "Prints OK and exits 0 for a valid proof; prints INVALID and exits 1 otherwise.\n"
    "\n"
    "With --vk KEY.vk: bellperson proofs (`cuzk verify --vk --help`).\n";

static const char vk_help[] = "usage: cuzk vk ZKEY VK.json\n"
                              "\n"
                              "Writes the verification key of a snarkjs proving key, as\n"
                              "`snarkjs zkey export verificationkey` does.\n";

/* Collects exactly n positional arguments; handles --help. Returns -1 to go on, else an exit
 * code. */
static int positional(const char **pos, int n, int argc, char **argv, const char *cmd,
                      const char *help, const char *shape) {
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(help, stdout);
            return CZ_EXIT_OK;
        }
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cz__cli_usage_error(cmd, "unknown option '%s'", argv[i]);
        if (npos == n)
            return cz__cli_usage_error(cmd, "too many arguments");
        pos[npos++] = argv[i];
    }
    if (npos != n)
        return cz__cli_usage_error(cmd, "expected %s", shape);
    return -1;
}

int cz__cli_verify(int argc, char **argv) {
    const char *pos[3];
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--vk") == 0)
            return cz__cli_verify_bellperson(argc, argv);
    int rc =
        positional(pos, 3, argc, argv, "verify", verify_help, "VK.json PUBLIC.json PROOF.json");
    if (rc >= 0)
        return rc;
    cz_errinfo ei;
    cz_groth16_vk vk;
    cz_groth16_public pub;
    cz_groth16_proof proof;
    int exit_code;
    cz_errinfo_clear(&ei);
    if (cz_groth16_vk_read_json(&vk, pos[0], &ei) != CZ_OK)
        return cz__cli_report("verify", &ei);
    if (cz_groth16_public_read_json(&pub, vk.curve, pos[1], &ei) != CZ_OK) {
        cz_groth16_vk_free(&vk);
        return cz__cli_report("verify", &ei);
    }
    if (cz_groth16_proof_read_json_as(&proof, vk.curve, pos[2], &ei) == CZ_OK &&
        cz_groth16_verify(&vk, &pub, &proof, &ei) == CZ_OK) {
        printf("OK\n");
        exit_code = CZ_EXIT_OK;
    } else {
        if (ei.code == CZ_EVERIFY)
            printf("INVALID\n");
        exit_code = cz__cli_report("verify", &ei);
    }
    cz_groth16_public_free(&pub);
    cz_groth16_vk_free(&vk);
    return exit_code;
}

int cz__cli_export_vk(const char *zkey_path, const char *vk_path, cz_errinfo *ei) {
    cz_zkey *zk = NULL;
    cz_groth16_vk vk;
    int rc = cz_zkey_open(&zk, zkey_path, ei);
    if (rc != CZ_OK)
        return rc;
    rc = cz_groth16_vk_from_zkey(&vk, zk, ei);
    cz_zkey_close(zk);
    if (rc == CZ_OK) {
        rc = cz_groth16_vk_write_json(vk_path, &vk, ei);
        cz_groth16_vk_free(&vk);
    }
    return rc;
}

int cz__cli_vk(int argc, char **argv) {
    const char *pos[2];
    int rc = positional(pos, 2, argc, argv, "vk", vk_help, "ZKEY VK.json");
    if (rc >= 0)
        return rc;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (cz__cli_export_vk(pos[0], pos[1], &ei) != CZ_OK)
        return cz__cli_report("vk", &ei);
    return CZ_EXIT_OK;
}
