/*
 * cz-bellperson-setup-td R1CS OUT.params TAU ALPHA BETA GAMMA DELTA: the bellperson-format key of
 * a BLS12-381 circom circuit for a trapdoor given in full (each value 64 hex digits, big-endian),
 * for tests/interop/bellperson_setup_oracle.mjs: `cuzk setup --seed` always has γ = 1, and this
 * lets the oracle check a key with γ ≠ 1 as well. A test program, never installed: a key made
 * from a trapdoor on the command line is as insecure as a key can be. Exit 0, or 1 with a message.
 */
#include <stdio.h>
#include <string.h>

#include "cuzk/bellperson.h"
#include "cuzk/groth16_setup.h"
#include "cuzk/r1cs.h"
#include "cuzk/r1cs_file.h"
#include "test.h"

int main(int argc, char **argv) {
    cz_groth16_trapdoor td;
    uint8_t *dst[5] = {td.tau, td.alpha, td.beta, td.gamma, td.delta};
    cz_r1cs_file *rf = NULL;
    cz_r1cs cs;
    cz_bellperson_params p;
    cz_errinfo ei;
    int rc;

    memset(&cs, 0, sizeof cs);
    memset(&p, 0, sizeof p);
    if (argc != 8) {
        fprintf(stderr,
                "usage: cz-bellperson-setup-td R1CS OUT.params TAU ALPHA BETA GAMMA DELTA\n");
        return 1;
    }
    for (int i = 0; i < 5; i++) {
        uint8_t be[32];
        if (strlen(argv[3 + i]) != 64 || test_unhex(be, sizeof be, argv[3 + i]) != 32) {
            fprintf(stderr, "cz-bellperson-setup-td: argument %d is not 64 hex digits\n", 3 + i);
            return 1;
        }
        for (int b = 0; b < 32; b++)
            dst[i][b] = be[31 - b];
    }
    rc = cz_r1cs_open(&rf, argv[1], &ei);
    if (rc == CZ_OK)
        rc = cz_r1cs_from_file(&cs, rf, NULL, &ei);
    if (rc == CZ_OK)
        rc = cz_groth16_setup_bellperson(&p, &cs, &td, NULL, -1, &ei);
    if (rc == CZ_OK)
        rc = cz_bellperson_params_write(argv[2], &p, NULL, &ei);
    if (rc != CZ_OK)
        fprintf(stderr, "cz-bellperson-setup-td: %s\n", ei.msg);
    cz_bellperson_params_free(&p);
    cz_r1cs_free(&cs);
    cz_r1cs_close(rf);
    return rc == CZ_OK ? 0 : 1;
}
