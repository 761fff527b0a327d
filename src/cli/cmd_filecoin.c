/*
 * `cuzk filecoin ...`: the Filecoin proof kinds (docs/filecoin.md). circuit-info for now: the
 * structure of a kind's circuit at a sector size, from its blank synthesis, as one JSON object.
 */
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "cli/cli.h"
#include "cuzk/params.h"
#include "cuzk/threadpool.h"
#include "filecoin/circuit_info.h"
#include "filecoin/post_circuit.h"

static const char filecoin_help[] =
    "usage: cuzk filecoin circuit-info KIND --sector-size SIZE\n"
    "       cuzk filecoin setup KIND --sector-size SIZE --params-dir DIR [--seed HEX]\n"
    "                           [--threads N] [--gpu] [--device N]\n"
    "\n"
    "KIND: winning-post, window-post (porep-c2 and snap-update are not implemented yet).\n"
    "SIZE: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB (or 4KiB, 16KiB, 32KiB, 16MiB, 1GiB; or bytes).\n"
    "\n"
    "circuit-info: synthesizes the circuit without a witness and prints one JSON object:\n"
    "  constraints (as synthesized, without bellperson's input constraints), inputs (ONE\n"
    "  included), aux, a_aux_density, b_input_density, b_aux_density (variables counted),\n"
    "  nnz_a, nnz_b, nnz_c, domain_log. A 32 GiB WindowPoSt partition records 125 M rows: about\n"
    "  9 GB of memory and a minute.\n"
    "setup: makes an INSECURE local key (single-party trapdoor) for the kind's circuit and\n"
    "  writes it into DIR under the Filecoin file names (v28-...params and .vk), where the\n"
    "  daemon and Filecoin's tools look for keys. Its digests are not the official ones (cuzk\n"
    "  params check reports them as mismatches). --seed derives the trapdoor from HEX bytes\n"
    "  (reproducible; anyone with the seed can forge proofs); --gpu runs the big scalar\n"
    "  multiplications on a GPU.\n";

/* KIND to a PoSt kind; the usage error's exit code (for cmd) otherwise, *ok = 0. */
static int parse_kind(cz__post_kind *pk, const char *kind, const char *cmd, int *ok) {
    *ok = 0;
    if (strcmp(kind, "winning-post") == 0)
        *pk = CZ__POST_WINNING;
    else if (strcmp(kind, "window-post") == 0)
        *pk = CZ__POST_WINDOW;
    else if (strcmp(kind, "porep-c2") == 0 || strcmp(kind, "snap-update") == 0)
        return cz__cli_usage_error(cmd, "%s: not implemented yet", kind);
    else
        return cz__cli_usage_error(cmd, "unknown kind '%s' (winning-post, window-post)", kind);
    *ok = 1;
    return CZ_EXIT_OK;
}

static int circuit_info(int argc, char **argv) {
    const char *kind = NULL;
    uint64_t sector_size = 0;
    cz__post_kind pk;
    cz__circuit_info info;
    cz_errinfo ei;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--sector-size") == 0) {
            if (i + 1 == argc || cz__cli_parse_sector_size(&sector_size, argv[i + 1]) != CZ_OK)
                return cz__cli_usage_error("filecoin circuit-info",
                                           "--sector-size needs a size (2KiB, 32GiB, ...)");
            i++;
        } else if (argv[i][0] == '-') {
            return cz__cli_usage_error("filecoin circuit-info", "unknown option '%s'", argv[i]);
        } else if (kind == NULL) {
            kind = argv[i];
        } else {
            return cz__cli_usage_error("filecoin circuit-info", "unexpected argument '%s'",
                                       argv[i]);
        }
    }
    if (kind == NULL || sector_size == 0)
        return cz__cli_usage_error("filecoin circuit-info", "needs KIND and --sector-size");
    {
        int ok, rc = parse_kind(&pk, kind, "filecoin circuit-info", &ok);
        if (!ok)
            return rc;
    }
    cz_errinfo_clear(&ei);
    if (cz__post_circuit_info(&info, pk, sector_size, &ei) != CZ_OK)
        return cz__cli_report("filecoin circuit-info", &ei);
    printf("{\"kind\":\"%s\",\"sector_size\":%llu,\"constraints\":%zu,\"inputs\":%zu,\"aux\":%zu,"
           "\"a_aux_density\":%zu,\"b_input_density\":%zu,\"b_aux_density\":%zu,"
           "\"nnz_a\":%llu,\"nnz_b\":%llu,\"nnz_c\":%llu,\"domain_log\":%u}\n",
           kind, (unsigned long long)sector_size, info.cs.nrows, info.cs.ninput, info.cs.naux,
           info.cs.a_aux, info.cs.b_input, info.cs.b_aux, (unsigned long long)info.cs.nnz[0],
           (unsigned long long)info.cs.nnz[1], (unsigned long long)info.cs.nnz[2], info.domain_log);
    return CZ_EXIT_OK;
}

/* The blank circuit of shape recorded into *r. */
static int record_post(cz_r1cs *r, const cz__post_shape *shape, cz_errinfo *ei) {
    cz__cs cs;
    int rc = cz__cs_init(&cs, CZ__CS_RECORD, 0, ei);
    if (rc == CZ_OK)
        rc = cz__post_circuit_blank(&cs, &shape->tree, shape->nleaves, shape->sectors,
                                    shape->challenges, ei);
    if (rc == CZ_OK)
        rc = cz__cs_to_r1cs(r, &cs, ei);
    cz__cs_free(&cs);
    return rc;
}

static int setup(int argc, char **argv) {
    const char *kind = NULL, *dir = NULL, *seed_hex = NULL;
    uint64_t sector_size = 0;
    size_t nthreads = 0, seed_len = 0;
    int dev = -1, status = CZ_EXIT_INTERNAL, ok, rc;
    uint8_t *seed = NULL;
    cz__post_kind pk;
    cz__post_shape shape;
    const cz_param_file *fp, *fv;
    cz_groth16_trapdoor td;
    cz_threadpool *pool = NULL;
    cz_r1cs r;
    cz_errinfo ei;
    char *params_path = NULL, *vk_path = NULL, what[96];
    memset(&r, 0, sizeof r);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--gpu") == 0) {
            dev = dev < 0 ? 0 : dev;
        } else if (strcmp(a, "--device") == 0) {
            if (++i == argc || cz__cli_parse_device(&dev, argv[i]) != CZ_OK)
                return cz__cli_usage_error("filecoin setup", "--device needs a device number");
        } else if (strcmp(a, "--sector-size") == 0) {
            if (++i == argc || cz__cli_parse_sector_size(&sector_size, argv[i]) != CZ_OK)
                return cz__cli_usage_error("filecoin setup",
                                           "--sector-size needs a size (2KiB, 32GiB, ...)");
        } else if ((strcmp(a, "--params-dir") == 0 || strcmp(a, "--seed") == 0 ||
                    strcmp(a, "--threads") == 0) &&
                   i + 1 < argc) {
            const char *v = argv[++i];
            if (strcmp(a, "--params-dir") == 0)
                dir = v;
            else if (strcmp(a, "--seed") == 0)
                seed_hex = v;
            else if (cz__cli_parse_threads(&nthreads, v) != CZ_OK)
                return cz__cli_usage_error("filecoin setup", "bad --threads value '%s'", v);
        } else if (a[0] == '-') {
            return cz__cli_usage_error("filecoin setup", "unknown or incomplete option '%s'", a);
        } else if (kind == NULL) {
            kind = a;
        } else {
            return cz__cli_usage_error("filecoin setup", "unexpected argument '%s'", a);
        }
    }
    if (kind == NULL || sector_size == 0 || dir == NULL)
        return cz__cli_usage_error("filecoin setup", "needs KIND, --sector-size and --params-dir");
    rc = parse_kind(&pk, kind, "filecoin setup", &ok);
    if (!ok)
        return rc;
    cz_errinfo_clear(&ei);
    if (cz__post_shape_get(&shape, pk, sector_size, &ei) != CZ_OK)
        return cz__cli_report("filecoin setup", &ei);
    fp = cz_params_find_proof(
        NULL, pk == CZ__POST_WINNING ? CZ_PARAM_PROOF_WINNING_POST : CZ_PARAM_PROOF_WINDOW_POST,
        sector_size, CZ_PARAM_EXT_PARAMS);
    fv = cz_params_find_proof(
        NULL, pk == CZ__POST_WINNING ? CZ_PARAM_PROOF_WINNING_POST : CZ_PARAM_PROOF_WINDOW_POST,
        sector_size, CZ_PARAM_EXT_VK);
    if (fp == NULL || fv == NULL)
        return cz__cli_usage_error("filecoin setup",
                                   "%s at %llu bytes: no Filecoin parameter file of that name",
                                   kind, (unsigned long long)sector_size);
    if (seed_hex != NULL) {
        if ((seed = cz__cli_parse_hex(seed_hex, &seed_len)) == NULL)
            return cz__cli_usage_error("filecoin setup",
                                       "--seed wants an even number of hex digits");
        cz_groth16_trapdoor_from_seed(&td, seed, seed_len);
    }
    params_path = malloc(strlen(dir) + strlen(fp->name) + 2);
    vk_path = malloc(strlen(dir) + strlen(fv->name) + 2);
    if (params_path == NULL || vk_path == NULL) {
        fprintf(stderr, "cuzk filecoin setup: out of memory\n");
        goto out;
    }
    sprintf(params_path, "%s/%s", dir, fp->name);
    sprintf(vk_path, "%s/%s", dir, fv->name);
    snprintf(what, sizeof what, "%s %llu bytes", kind, (unsigned long long)sector_size);
    if ((rc = cz_threadpool_create(&pool, nthreads, &ei)) == CZ_OK &&
        (rc = record_post(&r, &shape, &ei)) == CZ_OK)
        rc = cz__cli_bellperson_key(what, &r, params_path, vk_path, seed != NULL ? &td : NULL, pool,
                                    dev, &ei);
    status = rc == CZ_OK ? CZ_EXIT_OK : cz__cli_report("filecoin setup", &ei);
out:
    memset(&td, 0, sizeof td);
    free(seed);
    free(params_path);
    free(vk_path);
    cz_r1cs_free(&r);
    cz_threadpool_destroy(pool);
    return status;
}

int cz__cli_filecoin(int argc, char **argv) {
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(filecoin_help, argc < 2 ? stderr : stdout);
        return argc < 2 ? CZ_EXIT_USAGE : CZ_EXIT_OK;
    }
    if (strcmp(argv[1], "circuit-info") == 0)
        return circuit_info(argc - 1, argv + 1);
    if (strcmp(argv[1], "setup") == 0)
        return setup(argc - 1, argv + 1);
    return cz__cli_usage_error("filecoin", "unknown subcommand '%s' (circuit-info, setup)",
                               argv[1]);
}
