/*
 * `cuzk filecoin ...`: the Filecoin proof kinds (docs/filecoin.md): circuit-info (the structure
 * of a kind's circuit at a sector size, from its blank synthesis, as one JSON object) and the PoSt
 * commands; cmd_filecoin_porep.c has the porep-c2 ones, cmd_filecoin_snap.c the snap-update ones.
 */
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "cli/cli.h"
#include "cuzk/params.h"
#include "cuzk/threadpool.h"
#include "filecoin/circuit_info.h"
#include "filecoin/post_circuit.h"
#include "filecoin/post_fake.h"
#include "filecoin/post_prove.h"
#include "cuzk/fileio.h"

static const char filecoin_help[] =
    "usage: cuzk filecoin circuit-info KIND --sector-size SIZE\n"
    "       cuzk filecoin setup KIND --sector-size SIZE --params-dir DIR [--seed HEX]\n"
    "                           [--threads N] [--gpu] [--device N]\n"
    "       cuzk filecoin fake-vanilla KIND --sector-size SIZE --sectors N --seed N -o DIR\n"
    "                           [--partition K] [--v1]\n"
    "       cuzk filecoin prove KIND --params-dir DIR --registered-proof N --randomness HEX\n"
    "                           [--miner ID] [--partition K] --vanilla FILE [--vanilla FILE]...\n"
    "                           -o PROOF\n"
    "                           [--threads N] [--gpu] [--device N]\n"
    "       cuzk filecoin verify KIND --params-dir DIR --registered-proof N --randomness HEX\n"
    "                           [--partition K] --vanilla FILE [--vanilla FILE]... PROOF\n"
    "       cuzk filecoin vanilla-check KIND --registered-proof N --randomness HEX\n"
    "                           [--partition K] --vanilla FILE [--vanilla FILE]...\n"
    "                           [--threads N]\n";

/* The porep-c2 forms and what follows (one string would pass C's 4,095-character limit). */
static const char filecoin_help_more[] =
    "       cuzk filecoin setup porep-c2 --sector-size SIZE --params-dir DIR [--seed HEX]\n"
    "                           [--threads N] [--gpu] [--device N]\n"
    "       cuzk filecoin prove porep-c2 --c1 FILE [--miner ID] [--sector N] --params-dir DIR\n"
    "                           -o PROOF [--threads N] [--gpu] [--device N]\n"
    "       cuzk filecoin verify porep-c2 --c1 FILE [--miner ID] [--sector N] --params-dir DIR\n"
    "                           PROOF\n"
    "       cuzk filecoin vanilla-check porep-c2 --c1 FILE [--miner ID] [--sector N]\n"
    "       cuzk filecoin fake-c1 --sector-size SIZE --seed N [--miner ID] [--sector N] -o FILE\n"
    "       cuzk filecoin seal-2k --miner ID --sector N --seed N -o DIR\n"
    "       cuzk filecoin setup snap-update --sector-size SIZE --params-dir DIR [--seed HEX]\n"
    "                           [--threads N] [--gpu] [--device N]\n"
    "       cuzk filecoin prove snap-update --params-dir DIR --registered-proof N\n"
    "                           --comm-r-old HEX --comm-d-new HEX --comm-r-new HEX\n"
    "                           --vanilla FILE... -o PROOF [--threads N] [--gpu] [--device N]\n"
    "       cuzk filecoin verify snap-update --params-dir DIR --registered-proof N\n"
    "                           --comm-r-old HEX --comm-d-new HEX --comm-r-new HEX PROOF\n"
    "       cuzk filecoin vanilla-check snap-update --registered-proof N --comm-r-old HEX\n"
    "                           --comm-d-new HEX --comm-r-new HEX --vanilla FILE... [--threads N]\n"
    "       cuzk filecoin fake-update --sector-size SIZE [--h H] [--seed N] [--poseidon] -o DIR\n"
    "\n";

/* What the commands do. */
static const char filecoin_help_notes[] =
    "KIND: winning-post, window-post (the PoSt forms above); porep-c2, snap-update (their own\n"
    "  forms); snap-update-poseidon, the Poseidon variant of the update circuit, takes the\n"
    "  snap-update forms (its vanilla proofs from fake-update --poseidon; no registered proof\n"
    "  names it: N gives the sector size, the key files are cuzk-empty-sector-update-poseidon-\n"
    "  BYTES.params and .vk).\n"
    "SIZE: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB (or 4KiB, 16KiB, 32KiB, 16MiB, 1GiB; or bytes).\n"
    "\n"
    "circuit-info: synthesizes the circuit without a witness and prints one JSON object:\n"
    "  constraints (as synthesized, without bellperson's input constraints), inputs (ONE\n"
    "  included), aux, a_aux_density, b_input_density, b_aux_density (variables counted),\n"
    "  nnz_a, nnz_b, nnz_c, domain_log, booleans (aux allocated as bits: a compact witness\n"
    "  holds them as bits) and compact_witness_bytes. A 32 GiB WindowPoSt partition records 125 M "
    "rows: about\n"
    "  9 GB of memory and a minute; a 32 GiB PoRep partition 130 M.\n"
    "setup: makes an INSECURE local key (single-party trapdoor) for the kind's circuit and\n"
    "  writes it into DIR under the Filecoin file names (v28-...params and .vk), where the\n"
    "  daemon and Filecoin's tools look for keys. Its digests are not the official ones (cuzk\n"
    "  params check reports them as mismatches). --seed derives the trapdoor from HEX bytes\n"
    "  (reproducible; anyone with the seed can forge proofs); --gpu runs the big scalar\n"
    "  multiplications on a GPU.\n"
    "fake-vanilla: N fake sectors (random trees computed from the opened paths only, so any size\n"
    "  is cheap) and their vanilla proofs at the challenges of a randomness derived from the\n"
    "  seed: DIR/vanilla-I.bin (the bytes a request carries) and DIR/request.txt (the registered\n"
    "  proof, the randomness, the partition, and each sector's id, vanilla file (in DIR) and "
    "comm_r\n"
    "  (32 bytes little-endian, hex), one per line). --v1: WindowPoSt\n"
    "  V1 challenge indexes (registered proofs 5-9) instead of V1_1 (10-14).\n"
    "prove: the inputs of a WINNING_POST or WINDOW_POST_PARTITION request; every vanilla proof\n"
    "  is checked natively first (a bad one exits 3 naming the sector and the challenge), the\n"
    "  proof verified against the key before it is written (192 bytes). The key is looked for in\n"
    "  DIR under its Filecoin name.\n"
    "verify: the public inputs from the vanilla proofs' sector ids and comm_r and the\n"
    "  challenges of the randomness; exit 0 valid, 1 invalid.\n"
    "vanilla-check: the checks prove and the daemon make before any synthesis (decoding, the\n"
    "  sector count and order, each path to comm_r_last, comm_r = Poseidon(comm_c,\n"
    "  comm_r_last), each leaf the challenge of the randomness); exit 0 all hold, 3 one does not\n"
    "  (named on stderr). No key needed.\n"
    "HEX randomness: 64 hex digits, the 32 bytes in order (a field element below r).\n";

/* KIND to a PoSt kind; the usage error's exit code (for cmd) otherwise, *ok = 0. */
static int parse_kind(cz__post_kind *pk, const char *kind, const char *cmd, int *ok) {
    *ok = 0;
    if (strcmp(kind, "winning-post") == 0)
        *pk = CZ__POST_WINNING;
    else if (strcmp(kind, "window-post") == 0)
        *pk = CZ__POST_WINDOW;
    else
        return cz__cli_usage_error(cmd,
                                   "unknown kind '%s' (winning-post, window-post, porep-c2, "
                                   "snap-update, snap-update-poseidon)",
                                   kind);
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
    cz_errinfo_clear(&ei);
    if (strcmp(kind, "porep-c2") == 0) {
        if (cz__porep_circuit_info(&info, sector_size, &ei) != CZ_OK)
            return cz__cli_report("filecoin circuit-info", &ei);
    } else if (strcmp(kind, "snap-update") == 0 || strcmp(kind, "snap-update-poseidon") == 0) {
        if (cz__snap_circuit_info(&info, sector_size, strcmp(kind, "snap-update") != 0, &ei) !=
            CZ_OK)
            return cz__cli_report("filecoin circuit-info", &ei);
    } else {
        int ok, rc = parse_kind(&pk, kind, "filecoin circuit-info", &ok);
        if (!ok)
            return rc;
        if (cz__post_circuit_info(&info, pk, sector_size, &ei) != CZ_OK)
            return cz__cli_report("filecoin circuit-info", &ei);
    }
    printf("{\"kind\":\"%s\",\"sector_size\":%llu,\"constraints\":%zu,\"inputs\":%zu,\"aux\":%zu,"
           "\"a_aux_density\":%zu,\"b_input_density\":%zu,\"b_aux_density\":%zu,"
           "\"nnz_a\":%llu,\"nnz_b\":%llu,\"nnz_c\":%llu,\"domain_log\":%u,\"booleans\":%zu,"
           "\"compact_witness_bytes\":%llu}\n",
           kind, (unsigned long long)sector_size, info.cs.nrows, info.cs.ninput, info.cs.naux,
           info.cs.a_aux, info.cs.b_input, info.cs.b_aux, (unsigned long long)info.cs.nnz[0],
           (unsigned long long)info.cs.nnz[1], (unsigned long long)info.cs.nnz[2], info.domain_log,
           info.cs.booleans,
           (unsigned long long)((info.cs.ninput + info.cs.naux + 63) / 64 * 8 +
                                (info.cs.ninput + info.cs.naux - info.cs.booleans) * 32));
    return CZ_EXIT_OK;
}

/* The key files of kind at sector_size in dir: *params_path and *vk_path malloc'd. */
static int key_paths(char **params_path, char **vk_path, cz__post_kind pk, uint64_t sector_size,
                     const char *dir) {
    const cz_param_proof proof =
        pk == CZ__POST_WINNING ? CZ_PARAM_PROOF_WINNING_POST : CZ_PARAM_PROOF_WINDOW_POST;
    *params_path = cz__cli_param_path(dir, proof, sector_size, CZ_PARAM_EXT_PARAMS);
    *vk_path = cz__cli_param_path(dir, proof, sector_size, CZ_PARAM_EXT_VK);
    return *params_path != NULL && *vk_path != NULL;
}

static int record(cz_r1cs *r, const void *shape, cz_threadpool *pool, cz_errinfo *ei) {
    return cz__post_record(r, shape, pool, ei);
}

static int setup(int argc, char **argv) {
    const char *kind = NULL, *dir = NULL, *seed_hex = NULL;
    uint64_t sector_size = 0;
    size_t nthreads = 0;
    int dev = -1, status, ok, rc;
    cz__post_kind pk;
    cz__post_shape shape;
    cz_groth16_trapdoor td;
    const cz_groth16_trapdoor *use_td;
    cz_errinfo ei;
    char *params_path = NULL, *vk_path = NULL, what[96];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((rc = cz__cli_gpu_or_size_option(&dev, &sector_size, "filecoin setup", argc, argv,
                                             &i)) != CZ__CLI_NOT_MINE) {
            if (rc != CZ_EXIT_OK)
                return rc;
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
    if ((rc = cz__cli_setup_trapdoor(&td, &use_td, "filecoin setup", seed_hex)) != CZ_EXIT_OK)
        return rc;
    snprintf(what, sizeof what, "%s %llu bytes", kind, (unsigned long long)sector_size);
    if (!key_paths(&params_path, &vk_path, pk, sector_size, dir))
        status = cz__cli_usage_error("filecoin setup",
                                     "%s at %llu bytes: no Filecoin parameter file of that name",
                                     kind, (unsigned long long)sector_size);
    else
        status = cz__cli_filecoin_key("filecoin setup", what, record, &shape, params_path, vk_path,
                                      use_td, nthreads, dev);
    memset(&td, 0, sizeof td);
    free(params_path);
    free(vk_path);
    return status;
}

static int fake_vanilla(int argc, char **argv) {
    const char *kind = NULL, *dir = NULL;
    uint64_t sector_size = 0, seed = 0, partition = 0, nsectors = 0, reg;
    int v1 = 0, ok, rc, status = CZ_EXIT_INTERNAL;
    cz__post_kind pk;
    cz__post_shape shape;
    uint8_t rnd[32];
    cz_errinfo ei;
    char path[4096];
    FILE *f = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        char *end;
        if (strcmp(a, "--v1") == 0) {
            v1 = 1;
        } else if (strcmp(a, "--sector-size") == 0) {
            if (++i == argc || cz__cli_parse_sector_size(&sector_size, argv[i]) != CZ_OK)
                return cz__cli_usage_error("filecoin fake-vanilla", "--sector-size needs a size");
        } else if ((strcmp(a, "--sectors") == 0 || strcmp(a, "--seed") == 0 ||
                    strcmp(a, "--partition") == 0) &&
                   i + 1 < argc) {
            uint64_t v = strtoull(argv[++i], &end, 10);
            if (*end != '\0' || argv[i][0] == '-' || end == argv[i])
                return cz__cli_usage_error("filecoin fake-vanilla", "%s needs a number", a);
            if (strcmp(a, "--sectors") == 0)
                nsectors = v;
            else if (strcmp(a, "--seed") == 0)
                seed = v;
            else
                partition = v;
        } else if (strcmp(a, "-o") == 0 && i + 1 < argc) {
            dir = argv[++i];
        } else if (a[0] == '-') {
            return cz__cli_usage_error("filecoin fake-vanilla", "unknown or incomplete option '%s'",
                                       a);
        } else if (kind == NULL) {
            kind = a;
        } else {
            return cz__cli_usage_error("filecoin fake-vanilla", "unexpected argument '%s'", a);
        }
    }
    if (kind == NULL || sector_size == 0 || dir == NULL || nsectors == 0)
        return cz__cli_usage_error("filecoin fake-vanilla",
                                   "needs KIND, --sector-size, --sectors and -o");
    rc = parse_kind(&pk, kind, "filecoin fake-vanilla", &ok);
    if (!ok)
        return rc;
    if ((rc = cz__cli_out_dir("filecoin fake-vanilla", dir)) != CZ_EXIT_OK)
        return rc;
    cz_errinfo_clear(&ei);
    if (cz__post_shape_get(&shape, pk, sector_size, &ei) != CZ_OK)
        return cz__cli_report("filecoin fake-vanilla", &ei);
    if (pk == CZ__POST_WINNING ? nsectors != 1 : nsectors > shape.sectors)
        return cz__cli_usage_error("filecoin fake-vanilla", "--sectors: %s",
                                   pk == CZ__POST_WINNING ? "WinningPoSt proves 1 sector"
                                                          : "more than a partition holds");
    for (int i = 0; i < 32; i++) /* the randomness: from the seed, below r */
        rnd[i] = (uint8_t)((seed * UINT64_C(0x9e3779b97f4a7c15) >> (8 * (i % 8))) + 37 * i);
    rnd[31] &= 0x3f;
    if (cz__post_registered_id(&reg, pk, sector_size, v1, &ei) != CZ_OK)
        return cz__cli_report("filecoin fake-vanilla", &ei);
    snprintf(path, sizeof path, "%s/request.txt", dir);
    if ((f = fopen(path, "w")) == NULL) {
        fprintf(stderr, "cuzk filecoin fake-vanilla: cannot write %s\n", path);
        return CZ_EXIT_INPUT;
    }
    fprintf(f, "registered_proof %llu\nrandomness ", (unsigned long long)reg);
    for (int i = 0; i < 32; i++)
        fprintf(f, "%02x", rnd[i]);
    fprintf(f, "\npartition %llu\n", (unsigned long long)partition);
    for (uint64_t s = 0; s < nsectors; s++) {
        const uint64_t id = 1000 + s;
        const uint64_t base = cz__post_index_base(&shape, v1, partition, s);
        cz__post_vanilla v;
        uint8_t *bytes = NULL;
        size_t len = 0;
        char vpath[4096];
        if (cz__post_fake_sector(&v, &shape, id, rnd, base,
                                 pk == CZ__POST_WINNING ? (unsigned)shape.sectors
                                                        : shape.challenges,
                                 seed, &ei) != CZ_OK ||
            cz__post_vanilla_encode(&bytes, &len, &v, &shape, &ei) != CZ_OK) {
            cz__post_vanilla_free(&v);
            status = cz__cli_report("filecoin fake-vanilla", &ei);
            goto out;
        }
        snprintf(vpath, sizeof vpath, "%s/vanilla-%llu.bin", dir, (unsigned long long)s);
        rc = cz__cli_write_file(vpath, bytes, len, &ei);
        free(bytes);
        uint8_t comm_r[32];
        cz_bls12381_fr_to_bytes_le(comm_r, &v.comm_r);
        cz__post_vanilla_free(&v);
        if (rc != CZ_OK) {
            status = cz__cli_report("filecoin fake-vanilla", &ei);
            goto out;
        }
        fprintf(f, "sector %llu vanilla-%llu.bin\ncomm_r %llu ", (unsigned long long)id,
                (unsigned long long)s, (unsigned long long)id);
        for (int i = 0; i < 32; i++)
            fprintf(f, "%02x", comm_r[i]);
        fputc('\n', f);
    }
    status = CZ_EXIT_OK;
out:
    if (fclose(f) != 0 && status == CZ_EXIT_OK) {
        fprintf(stderr, "cuzk filecoin fake-vanilla: cannot write %s\n", path);
        status = CZ_EXIT_INPUT;
    }
    return status;
}

/* The options prove and verify share. */
typedef struct {
    const char *kind, *dir, *out, *proof;
    const char *vanilla[4096];
    size_t nvanilla, nthreads;
    uint64_t registered, partition, miner;
    int have_registered, have_randomness, dev;
    uint8_t randomness[32];
} req_opts;

/* What a request command takes besides the request: a key and a proof to write (prove), a key
 * and a proof to read (verify), neither (check). */
enum { REQ_VERIFY, REQ_PROVE, REQ_CHECK };

static int parse_req(req_opts *o, int argc, char **argv, const char *cmd, int mode) {
    const int proving = mode == REQ_PROVE;
    memset(o, 0, sizeof *o);
    o->dev = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        char *end;
        if (strcmp(a, "--gpu") == 0 && proving) {
            o->dev = o->dev < 0 ? 0 : o->dev;
        } else if (strcmp(a, "--device") == 0 && proving) {
            if (++i == argc || cz__cli_parse_device(&o->dev, argv[i]) != CZ_OK)
                return cz__cli_usage_error(cmd, "--device needs a device number");
        } else if (strcmp(a, "--vanilla") == 0 && i + 1 < argc) {
            if (o->nvanilla == sizeof o->vanilla / sizeof o->vanilla[0])
                return cz__cli_usage_error(cmd, "too many --vanilla files");
            o->vanilla[o->nvanilla++] = argv[++i];
        } else if (strcmp(a, "--randomness") == 0 && i + 1 < argc) {
            size_t len = 0;
            uint8_t *b = cz__cli_parse_hex(argv[++i], &len);
            if (b == NULL || len != 32) {
                free(b);
                return cz__cli_usage_error(cmd, "--randomness wants 64 hex digits (32 bytes)");
            }
            memcpy(o->randomness, b, 32);
            free(b);
            o->have_randomness = 1;
        } else if ((strcmp(a, "--registered-proof") == 0 || strcmp(a, "--partition") == 0 ||
                    strcmp(a, "--miner") == 0 || strcmp(a, "--threads") == 0) &&
                   i + 1 < argc) {
            uint64_t v = strtoull(argv[++i], &end, 10);
            if (*end != '\0' || end == argv[i] || argv[i][0] == '-')
                return cz__cli_usage_error(cmd, "%s needs a number", a);
            if (strcmp(a, "--registered-proof") == 0)
                o->registered = v, o->have_registered = 1;
            else if (strcmp(a, "--partition") == 0)
                o->partition = v;
            else if (strcmp(a, "--miner") == 0)
                o->miner = v;
            else
                o->nthreads = (size_t)v;
        } else if (strcmp(a, "--params-dir") == 0 && i + 1 < argc && mode != REQ_CHECK) {
            o->dir = argv[++i];
        } else if (strcmp(a, "-o") == 0 && i + 1 < argc && proving) {
            o->out = argv[++i];
        } else if (a[0] == '-') {
            return cz__cli_usage_error(cmd, "unknown or incomplete option '%s'", a);
        } else if (o->kind == NULL) {
            o->kind = a;
        } else if (mode == REQ_VERIFY && o->proof == NULL) {
            o->proof = a;
        } else {
            return cz__cli_usage_error(cmd, "unexpected argument '%s'", a);
        }
    }
    if (mode == REQ_CHECK &&
        (o->kind == NULL || !o->have_registered || !o->have_randomness || o->nvanilla == 0))
        return cz__cli_usage_error(cmd, "needs KIND, --registered-proof, --randomness and "
                                        "--vanilla");
    if (mode == REQ_CHECK)
        return CZ_EXIT_OK;
    if (o->kind == NULL || o->dir == NULL || !o->have_registered || !o->have_randomness ||
        o->nvanilla == 0 || (proving ? o->out == NULL : o->proof == NULL))
        return cz__cli_usage_error(cmd,
                                   "needs KIND, --params-dir, --registered-proof, "
                                   "--randomness, --vanilla and %s",
                                   proving ? "-o PROOF" : "PROOF");
    return CZ_EXIT_OK;
}

/* Reads the vanilla files into rq (buffers in *bufs, *lens). */
static int load_vanilla(cz_post_request *rq, uint8_t ***bufs, size_t **lens, const req_opts *o,
                        cz_errinfo *ei) {
    *bufs = calloc(o->nvanilla, sizeof **bufs);
    *lens = calloc(o->nvanilla, sizeof **lens);
    if (*bufs == NULL || *lens == NULL)
        return cz_fail(ei, CZ_ENOMEM, "the vanilla proofs");
    for (size_t i = 0; i < o->nvanilla; i++) {
        int rc = cz_file_read((void **)&(*bufs)[i], &(*lens)[i], o->vanilla[i], ei);
        if (rc != CZ_OK)
            return rc;
    }
    memset(rq, 0, sizeof *rq);
    rq->registered_proof = o->registered;
    memcpy(rq->randomness, o->randomness, 32);
    rq->partition = o->partition;
    rq->vanilla = (const uint8_t *const *)*bufs;
    rq->vanilla_len = *lens;
    rq->nvanilla = o->nvanilla;
    return CZ_OK;
}

static void free_vanilla(uint8_t **bufs, size_t *lens, size_t n) {
    for (size_t i = 0; bufs != NULL && i < n; i++)
        free(bufs[i]);
    free(bufs);
    free(lens);
}

/* The registered proof must be of KIND. */
static int check_kind(const req_opts *o, cz__post_kind pk, const char *cmd, uint64_t *size,
                      cz_errinfo *ei) {
    cz__post_kind rk;
    int v1;
    if (cz__post_registered(&rk, size, &v1, o->registered, ei) != CZ_OK)
        return cz__cli_report(cmd, ei);
    if (rk != pk)
        return cz__cli_usage_error(cmd, "registered proof %llu is not a %s",
                                   (unsigned long long)o->registered, o->kind);
    return CZ_EXIT_OK;
}

/* What prove, verify and vanilla-check do first: the options, the kind, the registered proof's
 * size, the key files (not for REQ_CHECK: NULL). CZ_EXIT_OK to go on (the paths malloc'd), else
 * the exit code (nothing to free). */
static int req_begin(req_opts *o, int argc, char **argv, const char *cmd, int mode,
                     cz__post_kind *pk, uint64_t *size, char **params_path, char **vk_path,
                     cz_errinfo *ei) {
    int ok, rc = parse_req(o, argc, argv, cmd, mode);
    *params_path = *vk_path = NULL;
    if (rc != CZ_EXIT_OK)
        return rc;
    rc = parse_kind(pk, o->kind, cmd, &ok);
    if (!ok)
        return rc;
    if ((rc = check_kind(o, *pk, cmd, size, ei)) != CZ_EXIT_OK || mode == REQ_CHECK)
        return rc;
    if (!key_paths(params_path, vk_path, *pk, *size, o->dir)) {
        free(*params_path);
        free(*vk_path);
        *params_path = *vk_path = NULL;
        return cz__cli_usage_error(cmd, "no Filecoin key name for %s at %llu bytes", o->kind,
                                   (unsigned long long)*size);
    }
    return CZ_EXIT_OK;
}

static int prove(int argc, char **argv) {
    static req_opts o;
    const char *cmd = "filecoin prove";
    cz__post_kind pk;
    cz_post_request rq;
    cz_bellperson_params key;
    cz_groth16_proof proof;
    cz_groth16_bp_opts bo;
    cz_threadpool *pool = NULL;
    uint8_t **bufs = NULL;
    size_t *lens = NULL;
    uint64_t size = 0;
    char *params_path = NULL, *vk_path = NULL;
    cz_errinfo ei;
    int rc, status;
    memset(&key, 0, sizeof key);
    cz_errinfo_clear(&ei);
    if ((rc = req_begin(&o, argc, argv, cmd, REQ_PROVE, &pk, &size, &params_path, &vk_path, &ei)) !=
        CZ_EXIT_OK)
        return rc;
    if ((rc = load_vanilla(&rq, &bufs, &lens, &o, &ei)) != CZ_OK ||
        (rc = cz_threadpool_create(&pool, o.nthreads, &ei)) != CZ_OK ||
        (rc = cz_bellperson_params_read(&key, params_path, NULL, &ei)) != CZ_OK) {
        status = cz__cli_report(cmd, &ei);
        goto out;
    }
    cz__cli_bp_opts_init(&bo, pool, o.dev);
    if ((rc = cz__post_prove(&proof, &key, &rq, pool, &bo, &ei)) != CZ_OK ||
        (rc = cz_groth16_proofs_write(o.out, &proof, 1, &ei)) != CZ_OK) {
        status = cz__cli_report(cmd, &ei);
        /* vanilla proofs that do not hold or do not fit the request are bad input */
        if (rc == CZ_EVERIFY || rc == CZ_EINVAL)
            status = CZ_EXIT_INPUT;
        goto out;
    }
    fprintf(stderr, "cuzk filecoin prove: wrote %s (verified against %s)\n", o.out, params_path);
    status = CZ_EXIT_OK;
out:
    cz_bellperson_params_free(&key);
    cz_threadpool_destroy(pool);
    free_vanilla(bufs, lens, o.nvanilla);
    free(params_path);
    free(vk_path);
    return status;
}

static int verify(int argc, char **argv) {
    static req_opts o;
    const char *cmd = "filecoin verify";
    cz__post_kind pk;
    cz_post_request rq;
    cz_groth16_vk vk;
    cz_groth16_proof *proofs = NULL;
    size_t nproofs = 0, *lens = NULL;
    uint8_t **bufs = NULL;
    uint64_t size = 0;
    char *params_path = NULL, *vk_path = NULL;
    cz_errinfo ei;
    int rc, status;
    memset(&vk, 0, sizeof vk);
    cz_errinfo_clear(&ei);
    if ((rc = req_begin(&o, argc, argv, cmd, REQ_VERIFY, &pk, &size, &params_path, &vk_path,
                        &ei)) != CZ_EXIT_OK)
        return rc;
    if ((rc = load_vanilla(&rq, &bufs, &lens, &o, &ei)) != CZ_OK ||
        (rc = cz__cli_vk_and_proofs(vk_path, o.proof, &vk, &proofs, &nproofs, &ei)) != CZ_OK) {
        status = cz__cli_report(cmd, &ei);
        goto out;
    }
    if (nproofs != 1) {
        status = cz__cli_usage_error(cmd, "%s holds %zu proofs; a PoSt partition is one", o.proof,
                                     nproofs);
        goto out;
    }
    rc = cz__post_verify(&vk, &rq, &proofs[0], &ei);
    status = cz__cli_verdict(cmd, rc, &ei);
out:
    free(proofs);
    cz_groth16_vk_free(&vk);
    free_vanilla(bufs, lens, o.nvanilla);
    free(params_path);
    free(vk_path);
    return status;
}

static int vanilla_check(int argc, char **argv) {
    static req_opts o;
    const char *cmd = "filecoin vanilla-check";
    cz_threadpool *pool = NULL;
    cz__post_kind pk;
    cz__post_shape shape;
    cz__post_vanilla *vs = NULL;
    cz_post_request rq;
    uint8_t **bufs = NULL;
    size_t *lens = NULL, ninc = 0;
    uint64_t size = 0;
    char *no_params = NULL, *no_vk = NULL;
    cz_errinfo ei;
    int rc, status;
    cz_errinfo_clear(&ei);
    if ((rc = req_begin(&o, argc, argv, cmd, REQ_CHECK, &pk, &size, &no_params, &no_vk, &ei)) !=
        CZ_EXIT_OK)
        return rc;
    if ((rc = load_vanilla(&rq, &bufs, &lens, &o, &ei)) != CZ_OK ||
        (rc = cz_threadpool_create(&pool, o.nthreads, &ei)) != CZ_OK) {
        status = cz__cli_report(cmd, &ei);
    } else if ((rc = cz__post_request_load(&vs, &shape, &rq, 1, pool, &ei)) != CZ_OK) {
        status = cz__cli_report(cmd, &ei);
        if (rc != CZ_ENOMEM)
            status = CZ_EXIT_INPUT;
    } else {
        for (size_t i = 0; i < o.nvanilla; i++)
            ninc += vs[i].nproofs;
        printf("ok: %zu vanilla proofs, %zu inclusion proofs hold\n", o.nvanilla, ninc);
        status = CZ_EXIT_OK;
    }
    cz__post_vanillas_free(vs, o.nvanilla);
    free_vanilla(bufs, lens, o.nvanilla);
    cz_threadpool_destroy(pool);
    return status;
}

int cz__cli_filecoin(int argc, char **argv) {
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(filecoin_help, argc < 2 ? stderr : stdout);
        fputs(filecoin_help_more, argc < 2 ? stderr : stdout);
        fputs(filecoin_help_notes, argc < 2 ? stderr : stdout);
        return argc < 2 ? CZ_EXIT_USAGE : CZ_EXIT_OK;
    }
    if (strcmp(argv[1], "fake-c1") == 0 || strcmp(argv[1], "seal-2k") == 0 ||
        (argc > 2 && strcmp(argv[2], "porep-c2") == 0 && strcmp(argv[1], "circuit-info") != 0))
        return cz__cli_filecoin_porep(argv[1], argc - 1, argv + 1);
    if (strcmp(argv[1], "fake-update") == 0 ||
        (argc > 2 && strncmp(argv[2], "snap-update", 11) == 0 &&
         strcmp(argv[1], "circuit-info") != 0))
        return cz__cli_filecoin_snap(argv[1], argc - 1, argv + 1);
    if (strcmp(argv[1], "circuit-info") == 0)
        return circuit_info(argc - 1, argv + 1);
    if (strcmp(argv[1], "setup") == 0)
        return setup(argc - 1, argv + 1);
    if (strcmp(argv[1], "fake-vanilla") == 0)
        return fake_vanilla(argc - 1, argv + 1);
    if (strcmp(argv[1], "prove") == 0)
        return prove(argc - 1, argv + 1);
    if (strcmp(argv[1], "verify") == 0)
        return verify(argc - 1, argv + 1);
    if (strcmp(argv[1], "vanilla-check") == 0)
        return vanilla_check(argc - 1, argv + 1);
    return cz__cli_usage_error("filecoin",
                               "unknown subcommand '%s' (circuit-info, setup, fake-vanilla, "
                               "fake-c1, seal-2k, fake-update, prove, verify, vanilla-check)",
                               argv[1]);
}
