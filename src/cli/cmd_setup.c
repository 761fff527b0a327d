/*
 * `cuzk setup R1CS ZKEY [--seed HEX] [--vk VK.json] [--threads N]`: writes an INSECURE Groth16
 * test key for a circom circuit (cuzk/groth16_setup.h), snarkjs's .zkey;
 * `cuzk setup --bellperson R1CS -o KEY.params [--vk KEY.vk] [--seed HEX] [--threads N] [--gpu]
 * [--device N]`: the same as bellperson's parameters (the circuit converted with cz_r1cs_from_file,
 * BLS12-381 only). The `cuzk` front end calls cz__cli_setup with argv[0] = "setup". Exit codes as
 * for every command (cli/cli.h). The key-making pieces `cuzk filecoin setup` shares (the bellperson
 * key, the trapdoor of --seed, a Filecoin circuit recorded and keyed) are here too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cuzk/bellperson.h"
#include "core/hex.h"
#include "cuzk/clock.h"
#include "cuzk/groth16.h"
#include "cuzk/groth16_json.h"
#include "cuzk/groth16_setup.h"
#include "cuzk/r1cs.h"
#include "cuzk/r1cs_file.h"
#include "cuzk/threadpool.h"
#include "cuzk/zkey.h"

static void usage(FILE *out) {
    fputs("usage: cuzk setup R1CS ZKEY [--seed HEX] [--vk VK.json] [--threads N]\n"
          "       cuzk setup --bellperson R1CS -o KEY.params [--vk KEY.vk] [--seed HEX]\n"
          "                  [--threads N] [--gpu] [--device N]\n"
          "\n"
          "Writes a Groth16 proving key (snarkjs .zkey) for the circom constraint system R1CS,\n"
          "from a trapdoor (tau, alpha, beta, delta; gamma = 1) chosen by this program. With\n"
          "--bellperson, writes bellperson's parameters (.params) for a BLS12-381 R1CS instead,\n"
          "the key bellperson's generator makes (gamma random too, unless --seed).\n"
          "\n"
          "  INSECURE: FOR TESTS AND BENCHMARKS ONLY. One party picks the trapdoor, and whoever\n"
          "  knows it can forge proofs. There is no ceremony; `snarkjs zkey verify` rejects the\n"
          "  key. `snarkjs groth16 prove/verify` and `cuzk prove/verify` accept it.\n"
          "\n"
          "  --seed HEX     derive the trapdoor from these bytes (reproducible keys; anyone with\n"
          "                 the seed knows the trapdoor). Default: random, then forgotten.\n"
          "  --vk FILE      also write the verification key: snarkjs verification_key.json, or\n"
          "                 with --bellperson the bellperson .vk.\n"
          "  -o FILE        with --bellperson: the .params file to write.\n"
          "  --threads N    worker threads (default: one per CPU).\n"
          "  --gpu          with --bellperson: the big scalar multiplications and the NTT on\n"
          "                 the GPU (the same key, much sooner for large circuits).\n"
          "  --device N     the CUDA device for --gpu (default 0; implies --gpu).\n",
          out);
}

uint8_t *cz__cli_parse_hex(const char *s, size_t *len) {
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

int cz__cli_bellperson_key(const char *what, const cz_r1cs *cs, const char *params_path,
                           const char *vk_path, const cz_groth16_trapdoor *td, cz_threadpool *pool,
                           int dev, cz_errinfo *ei) {
    cz_bellperson_params p;
    uint64_t t0 = cz_clock_now_ns();
    char where[32] = "the CPU";
    int rc;
    memset(&p, 0, sizeof p);
    fprintf(stderr,
            "cuzk setup: INSECURE bellperson test key (single-party trapdoor) for %s: %s, %u "
            "constraints, %u variables, %u public\n",
            what, cz_curve_name(cs->curve), cs->nrows, cs->nvars, cs->npublic);
    rc = cz_groth16_setup_bellperson(&p, cs, td, pool, dev, ei);
    if (rc != CZ_OK)
        goto out;
    if (dev >= 0)
        snprintf(where, sizeof where, "GPU %d", dev);
    fprintf(stderr,
            "cuzk setup: domain %u, IC %u, H %u, L %u, A %u, B %u (G1 and G2) on %s in %.2f s\n",
            p.nh + 1, p.vk.nic, p.nh, p.nl, p.na, p.nb_g1, where,
            (double)(cz_clock_now_ns() - t0) / 1e9);
    rc = cz_bellperson_params_write(params_path, &p, pool, ei);
    if (rc == CZ_OK && vk_path != NULL)
        rc = cz_bellperson_vk_write(vk_path, &p.vk, ei);
    if (rc == CZ_OK)
        fprintf(stderr, "cuzk setup: wrote %s%s%s in %.2f s\n", params_path, vk_path ? " and " : "",
                vk_path ? vk_path : "", (double)(cz_clock_now_ns() - t0) / 1e9);
out:
    cz_bellperson_params_free(&p);
    return rc;
}

int cz__cli_setup_trapdoor(cz_groth16_trapdoor *td, const cz_groth16_trapdoor **use,
                           const char *cmd, const char *seed_hex) {
    uint8_t *seed;
    size_t seed_len = 0;
    *use = NULL;
    if (seed_hex == NULL)
        return CZ_EXIT_OK;
    if ((seed = cz__cli_parse_hex(seed_hex, &seed_len)) == NULL)
        return cz__cli_usage_error(cmd, "--seed wants an even number of hex digits");
    cz_groth16_trapdoor_from_seed(td, seed, seed_len);
    free(seed);
    *use = td;
    return CZ_EXIT_OK;
}

int cz__cli_filecoin_key(const char *cmd, const char *what, cz__cli_record_fn record,
                         const void *shape, const char *params_path, const char *vk_path,
                         const cz_groth16_trapdoor *td, size_t nthreads, int dev) {
    cz_threadpool *pool = NULL;
    cz_r1cs r;
    cz_errinfo ei;
    int status = CZ_EXIT_OK;
    memset(&r, 0, sizeof r);
    cz_errinfo_clear(&ei);
    if (cz_threadpool_create(&pool, nthreads, &ei) != CZ_OK ||
        record(&r, shape, pool, &ei) != CZ_OK ||
        cz__cli_bellperson_key(what, &r, params_path, vk_path, td, pool, dev, &ei) != CZ_OK)
        status = cz__cli_report(cmd, &ei);
    cz_r1cs_free(&r);
    cz_threadpool_destroy(pool);
    return status;
}

/* The bellperson form: converts the circuit, makes the key in memory, writes it. */
static int setup_bellperson(const char *r1cs_path, const char *params_path, const char *vk_path,
                            const cz_groth16_trapdoor *td, cz_threadpool *pool, int dev,
                            cz_errinfo *ei) {
    cz_r1cs_file *rf = NULL;
    cz_r1cs cs;
    int rc;
    memset(&cs, 0, sizeof cs);
    rc = cz_r1cs_open(&rf, r1cs_path, ei);
    if (rc == CZ_OK)
        rc = cz_r1cs_from_file(&cs, rf, NULL, ei);
    cz_r1cs_close(rf);
    if (rc == CZ_OK)
        rc = cz__cli_bellperson_key(r1cs_path, &cs, params_path, vk_path, td, pool, dev, ei);
    cz_r1cs_free(&cs);
    return rc;
}

int cz__cli_setup(int argc, char **argv) {
    const char *pos[2] = {NULL, NULL}, *seed_hex = NULL, *vk_path = NULL, *out_path = NULL;
    size_t npos = 0, nthreads = 0;
    int bellperson = 0, dev = -1;
    cz_r1cs_file *r1cs = NULL;
    cz_threadpool *pool = NULL;
    cz_groth16_trapdoor td;
    const cz_groth16_trapdoor *use_td;
    cz_errinfo ei;
    int rc, status = CZ_EXIT_INTERNAL;

    cz_errinfo_clear(&ei);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return CZ_EXIT_OK;
        } else if (strcmp(a, "--bellperson") == 0) {
            bellperson = 1;
        } else if (strcmp(a, "--gpu") == 0) {
            dev = dev < 0 ? 0 : dev;
        } else if (strcmp(a, "--device") == 0) {
            if (++i == argc || cz__cli_parse_device(&dev, argv[i]) != CZ_OK)
                return cz__cli_usage_error("setup", "--device needs a device number");
        } else if ((strcmp(a, "--seed") == 0 || strcmp(a, "--vk") == 0 ||
                    strcmp(a, "--threads") == 0 || strcmp(a, "-o") == 0) &&
                   i + 1 < argc) {
            const char *v = argv[++i];
            if (strcmp(a, "--seed") == 0) {
                seed_hex = v;
            } else if (strcmp(a, "--vk") == 0) {
                vk_path = v;
            } else if (strcmp(a, "-o") == 0) {
                out_path = v;
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
    if (bellperson && (npos != 1 || out_path == NULL))
        return cz__cli_usage_error("setup", "expected --bellperson R1CS -o KEY.params");
    if (!bellperson && dev >= 0)
        return cz__cli_usage_error("setup", "--gpu and --device are for --bellperson");
    if (!bellperson && out_path != NULL)
        return cz__cli_usage_error("setup", "-o is for --bellperson; the zkey is the second "
                                            "argument");
    if (!bellperson && npos != 2)
        return cz__cli_usage_error("setup", "expected R1CS ZKEY");
    if ((rc = cz__cli_setup_trapdoor(&td, &use_td, "setup", seed_hex)) != CZ_EXIT_OK)
        return rc;

    if (bellperson) {
        rc = cz_threadpool_create(&pool, nthreads, &ei);
        if (rc == CZ_OK)
            rc = setup_bellperson(pos[0], out_path, vk_path, use_td, pool, dev, &ei);
        status = rc == CZ_OK ? CZ_EXIT_OK : cz__cli_report("setup", &ei);
        goto out;
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
        rc = cz_groth16_setup(pos[1], r1cs, use_td, pool, &ei);
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
out:
    memset(&td, 0, sizeof td);
    cz_threadpool_destroy(pool);
    cz_r1cs_close(r1cs);
    return status;
}
