/*
 * `cuzk setup R1CS ZKEY [--seed HEX] [--vk VK.json] [--threads N]`: writes an INSECURE Groth16
 * test key for a circom circuit (cuzk/groth16_setup.h). The `cuzk` front end calls
 * cz__cli_setup with argv[0] = "setup". Exit codes as for every command (cli/cli.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/hex.h"
#include "cuzk/clock.h"
#include "cuzk/groth16.h"
#include "cuzk/groth16_json.h"
#include "cuzk/groth16_setup.h"
#include "cuzk/r1cs_file.h"
#include "cuzk/threadpool.h"
#include "cuzk/zkey.h"

static void usage(FILE *out) {
    fputs("usage: cuzk setup R1CS ZKEY [--seed HEX] [--vk VK.json] [--threads N]\n"
          "\n"
          "Writes a Groth16 proving key (snarkjs .zkey) for the circom constraint system R1CS,\n"
          "from a trapdoor (tau, alpha, beta, delta; gamma = 1) chosen by this program.\n"
          "\n"
          "  INSECURE: FOR TESTS AND BENCHMARKS ONLY. One party picks the trapdoor, and whoever\n"
          "  knows it can forge proofs. There is no ceremony; `snarkjs zkey verify` rejects the\n"
          "  key. `snarkjs groth16 prove/verify` and `cuzk prove/verify` accept it.\n"
          "\n"
          "  --seed HEX     derive the trapdoor from these bytes (reproducible keys; anyone with\n"
          "                 the seed knows the trapdoor). Default: random, then forgotten.\n"
          "  --vk FILE      also write the verification key as snarkjs verification_key.json.\n"
          "  --threads N    worker threads (default: one per CPU).\n",
          out);
}

/* Decodes an even-length hex string into a new buffer. */
static uint8_t *parse_hex(const char *s, size_t *len) {
    size_t n = strlen(s);
    if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s += 2;
        n -= 2;
    }
    if (n == 0 || n % 2 != 0)
        return NULL;
    uint8_t *out = malloc(n / 2);
    if (out == NULL)
        return NULL;
    for (size_t i = 0; i < n / 2; i++) {
        unsigned v = 0;
        for (int h = 0; h < 2; h++) {
            int d = cz__hex_digit((unsigned char)s[2 * i + h]);
            if (d < 0) {
                free(out);
                return NULL;
            }
            v = v * 16 + (unsigned)d;
        }
        out[i] = (uint8_t)v;
    }
    *len = n / 2;
    return out;
}

int cz__cli_setup(int argc, char **argv) {
    const char *pos[2] = {NULL, NULL}, *seed_hex = NULL, *vk_path = NULL;
    size_t npos = 0, nthreads = 0, seed_len = 0;
    uint8_t *seed = NULL;
    cz_r1cs_file *r1cs = NULL;
    cz_threadpool *pool = NULL;
    cz_groth16_trapdoor td;
    cz_errinfo ei;
    int rc, status = CZ_EXIT_INTERNAL;

    cz_errinfo_clear(&ei);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return CZ_EXIT_OK;
        } else if ((strcmp(a, "--seed") == 0 || strcmp(a, "--vk") == 0 ||
                    strcmp(a, "--threads") == 0) &&
                   i + 1 < argc) {
            const char *v = argv[++i];
            if (strcmp(a, "--seed") == 0) {
                seed_hex = v;
            } else if (strcmp(a, "--vk") == 0) {
                vk_path = v;
            } else if (cz__cli_parse_threads(&nthreads, v) != CZ_OK) {
                return cz__cli_usage_error("setup", "bad --threads value '%s'", v);
            }
        } else if (a[0] == '-' && a[1] != '\0') {
            return cz__cli_usage_error("setup", "unknown or incomplete option '%s'", a);
        } else if (npos < 2) {
            pos[npos++] = a;
        } else {
            return cz__cli_usage_error("setup", "too many arguments");
        }
    }
    if (npos != 2)
        return cz__cli_usage_error("setup", "expected R1CS ZKEY");
    if (seed_hex != NULL) {
        seed = parse_hex(seed_hex, &seed_len);
        if (seed == NULL)
            return cz__cli_usage_error("setup", "--seed wants an even number of hex digits");
        cz_groth16_trapdoor_from_seed(&td, seed, seed_len);
    }

    uint64_t t0 = cz_clock_now_ns();
    rc = cz_r1cs_open(&r1cs, pos[0], &ei);
    if (rc == CZ_OK)
        rc = cz_threadpool_create(&pool, nthreads, &ei);
    if (rc == CZ_OK) {
        fprintf(stderr,
                "cuzk setup: INSECURE test key (single-party trapdoor) for %s: %s, %u constraints, "
                "%u wires, %u public\n",
                pos[0], cz_curve_name(r1cs->curve), r1cs->nconstraints, r1cs->nwires,
                r1cs->npub_out + r1cs->npub_in);
        rc = cz_groth16_setup(pos[1], r1cs, seed != NULL ? &td : NULL, pool, &ei);
    }
    if (rc == CZ_OK && vk_path != NULL)
        rc = cz__cli_export_vk(pos[1], vk_path, &ei);
    if (rc == CZ_OK) {
        fprintf(stderr, "cuzk setup: wrote %s%s%s in %.2f s\n", pos[1], vk_path ? " and " : "",
                vk_path ? vk_path : "", (double)(cz_clock_now_ns() - t0) / 1e9);
        status = CZ_EXIT_OK;
    } else {
        status = cz__cli_report("setup", &ei);
    }
    memset(&td, 0, sizeof td);
    free(seed);
    cz_threadpool_destroy(pool);
    cz_r1cs_close(r1cs);
    return status;
}
