/*
 * `cuzk filecoin ... porep-c2` and the C1 sources (docs/filecoin.md, "PoRep C2"): setup, prove,
 * verify and vanilla-check of a C1 file, fake-c1 (a fake committed-capacity sector of any size)
 * and seal-2k (a real 2 KiB sector sealed here). cmd_filecoin.c hands these over.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cuzk/fileio.h"
#include "cuzk/params.h"
#include "cuzk/threadpool.h"
#include "filecoin/merkle.h"
#include "filecoin/porep_fake.h"
#include "filecoin/porep_prove.h"
#include "filecoin/porep_seal.h"

#define DEFAULT_MINER 1000

/* The options of the porep-c2 commands. */
typedef struct {
    const char *c1, *dir, *out, *proof, *seed_hex;
    uint64_t miner, sector, registered, seed, sector_size;
    int have_sector, have_registered, have_seed, dev;
    size_t nthreads;
} porep_opts;

enum { NEED_C1 = 1, NEED_DIR = 2, NEED_OUT = 4, NEED_PROOF = 8, NEED_SIZE = 16, NEED_SEED = 32 };

static int parse(porep_opts *o, int argc, char **argv, const char *cmd, unsigned need) {
    memset(o, 0, sizeof *o);
    o->dev = -1;
    o->miner = DEFAULT_MINER;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        char *end;
        int rc;
        if (strcmp(a, "porep-c2") == 0 && i == 1) {
            continue;
        } else if ((rc = cz__cli_gpu_or_size_option(&o->dev, &o->sector_size, cmd, argc, argv,
                                                    &i)) != CZ__CLI_NOT_MINE) {
            if (rc != CZ_EXIT_OK)
                return rc;
        } else if ((strcmp(a, "--c1") == 0 || strcmp(a, "--params-dir") == 0 ||
                    strcmp(a, "-o") == 0) &&
                   i + 1 < argc) {
            const char *v = argv[++i];
            *(strcmp(a, "--c1") == 0 ? &o->c1 : strcmp(a, "-o") == 0 ? &o->out : &o->dir) = v;
        } else if (strcmp(a, "--seed") == 0 && i + 1 < argc && (need & NEED_SEED) == 0) {
            o->seed_hex = argv[++i]; /* setup: the trapdoor's seed, hex */
        } else if ((strcmp(a, "--miner") == 0 || strcmp(a, "--sector") == 0 ||
                    strcmp(a, "--registered-proof") == 0 || strcmp(a, "--seed") == 0) &&
                   i + 1 < argc) {
            uint64_t v = strtoull(argv[++i], &end, 10);
            if (*end != '\0' || end == argv[i] || argv[i][0] == '-')
                return cz__cli_usage_error(cmd, "%s needs a number", a);
            if (strcmp(a, "--miner") == 0)
                o->miner = v;
            else if (strcmp(a, "--sector") == 0)
                o->sector = v, o->have_sector = 1;
            else if (strcmp(a, "--registered-proof") == 0)
                o->registered = v, o->have_registered = 1;
            else
                o->seed = v, o->have_seed = 1;
        } else if (strcmp(a, "--threads") == 0) {
            if (++i == argc || cz__cli_parse_threads(&o->nthreads, argv[i]) != CZ_OK)
                return cz__cli_usage_error(cmd, "--threads needs a number");
        } else if (a[0] == '-') {
            return cz__cli_usage_error(cmd, "unknown or incomplete option '%s'", a);
        } else if ((need & NEED_PROOF) && o->proof == NULL) {
            o->proof = a;
        } else {
            return cz__cli_usage_error(cmd, "unexpected argument '%s'", a);
        }
    }
    if (((need & NEED_C1) && o->c1 == NULL) || ((need & NEED_DIR) && o->dir == NULL) ||
        ((need & NEED_OUT) && o->out == NULL) || ((need & NEED_PROOF) && o->proof == NULL) ||
        ((need & NEED_SIZE) && o->sector_size == 0) || ((need & NEED_SEED) && !o->have_seed))
        return cz__cli_usage_error(
            cmd, "needs %s%s%s%s%s%s(see cuzk filecoin --help)", need & NEED_C1 ? "--c1 FILE " : "",
            need & NEED_DIR ? "--params-dir DIR " : "",
            need & NEED_SIZE ? "--sector-size SIZE " : "", need & NEED_SEED ? "--seed N " : "",
            need & NEED_OUT ? "-o PATH " : "", need & NEED_PROOF ? "PROOF " : "");
    return CZ_EXIT_OK;
}

/* The registered proof of a size: StackedDrg<size>V1_1. */
static int registered_of(uint64_t *id, uint64_t sector_size, cz_errinfo *ei) {
    cz__porep_config cfg;
    int rc = cz__porep_config_find(&cfg, sector_size, CZ__POREP_INTERACTIVE, 1, ei);
    *id = cfg.registered_proof;
    return rc;
}

/* "DIR/name" of the key file (ext) of registered proof id; malloc'd, NULL with ei set. */
static char *key_path(const char *dir, uint64_t id, cz_param_ext ext, cz_errinfo *ei) {
    cz__porep_config cfg;
    char *p;
    if (cz__porep_config_get(&cfg, id, ei) != CZ_OK)
        return NULL;
    if ((p = cz__cli_param_path(dir, CZ_PARAM_PROOF_POREP, cfg.sector_size, ext)) == NULL)
        cz_fail(ei, CZ_EINTERNAL, "porep: no key file name for %s (or no memory)", cfg.name);
    return p;
}

static int record(cz_r1cs *r, const void *shape, cz_threadpool *pool, cz_errinfo *ei) {
    return cz__porep_record(r, shape, pool, ei);
}

static int setup(int argc, char **argv) {
    const char *cmd = "filecoin setup";
    porep_opts o;
    uint64_t id = 0;
    cz_groth16_trapdoor td;
    const cz_groth16_trapdoor *use_td;
    cz__porep_shape shape;
    cz_errinfo ei;
    char *params_path = NULL, *vk_path = NULL, what[64];
    int rc, status;
    if ((rc = parse(&o, argc, argv, cmd, NEED_DIR | NEED_SIZE)) != CZ_EXIT_OK ||
        (rc = cz__cli_setup_trapdoor(&td, &use_td, cmd, o.seed_hex)) != CZ_EXIT_OK)
        return rc;
    cz_errinfo_clear(&ei);
    snprintf(what, sizeof what, "porep-c2 %llu bytes", (unsigned long long)o.sector_size);
    if (registered_of(&id, o.sector_size, &ei) != CZ_OK ||
        cz__porep_shape_get(&shape, o.sector_size, &ei) != CZ_OK ||
        (params_path = key_path(o.dir, id, CZ_PARAM_EXT_PARAMS, &ei)) == NULL ||
        (vk_path = key_path(o.dir, id, CZ_PARAM_EXT_VK, &ei)) == NULL)
        status = cz__cli_report(cmd, &ei);
    else
        status = cz__cli_filecoin_key(cmd, what, record, &shape, params_path, vk_path, use_td,
                                      o.nthreads, o.dev);
    memset(&td, 0, sizeof td);
    free(params_path);
    free(vk_path);
    return status;
}

/* The request of the C1 file: its bytes (*buf, to free), the registered proof and the sector
 * number from the C1 unless the options give them. */
static int load_request(cz_porep_request *rq, void **buf, const porep_opts *o, cz_errinfo *ei) {
    cz__porep_c1 c1;
    cz__porep_envelope env;
    size_t len = 0;
    int rc;
    *buf = NULL;
    memset(rq, 0, sizeof *rq);
    memset(&c1, 0, sizeof c1);
    if ((rc = cz_file_read(buf, &len, o->c1, ei)) != CZ_OK ||
        (rc = cz__porep_c1_read_any(
             &c1, &env, *buf, len, o->have_registered ? o->registered : UINT64_MAX, ei)) != CZ_OK) {
        cz__porep_c1_free(&c1);
        return rc;
    }
    rq->registered_proof = o->have_registered ? o->registered : c1.registered_proof;
    rq->sector_number = o->have_sector ? o->sector : env.sector_num;
    rq->miner_id = o->miner;
    rq->c1 = *buf;
    rq->c1_len = len;
    cz__porep_c1_free(&c1);
    if (!env.enveloped && !o->have_sector)
        return cz_fail(ei, CZ_EINVAL,
                       "%s is a bare C1 (JSON or bincode): give its sector with "
                       "--sector N",
                       o->c1);
    return CZ_OK;
}

static int prove(int argc, char **argv) {
    const char *cmd = "filecoin prove";
    porep_opts o;
    cz_porep_request rq;
    cz_bellperson_params key;
    cz_groth16_proof *proofs = NULL;
    cz_groth16_bp_opts bo;
    cz__porep_config cfg;
    cz_threadpool *pool = NULL;
    void *buf = NULL;
    char *params_path = NULL;
    unsigned nproofs = 0;
    cz_errinfo ei;
    int rc, status = CZ_EXIT_OK;
    memset(&key, 0, sizeof key);
    if ((rc = parse(&o, argc, argv, cmd, NEED_C1 | NEED_DIR | NEED_OUT)) != CZ_EXIT_OK)
        return rc;
    cz_errinfo_clear(&ei);
    if (load_request(&rq, &buf, &o, &ei) != CZ_OK ||
        cz__porep_config_get(&cfg, rq.registered_proof, &ei) != CZ_OK ||
        (params_path = key_path(o.dir, rq.registered_proof, CZ_PARAM_EXT_PARAMS, &ei)) == NULL ||
        cz_threadpool_create(&pool, o.nthreads, &ei) != CZ_OK ||
        cz_bellperson_params_read(&key, params_path, NULL, &ei) != CZ_OK) {
        status = cz__cli_input_report(cmd, &ei);
        goto out;
    }
    if ((proofs = calloc(cfg.partitions, sizeof *proofs)) == NULL) {
        cz_fail(&ei, CZ_ENOMEM, "%u partition proofs", cfg.partitions);
        status = cz__cli_report(cmd, &ei);
        goto out;
    }
    cz__cli_bp_opts_init(&bo, pool, o.dev);
    if (cz__porep_prove(proofs, &nproofs, &key, &rq, pool, &bo, &ei) != CZ_OK ||
        cz__cli_write_partition_proofs(o.out, proofs, nproofs, params_path, &ei) != CZ_OK)
        status = cz__cli_input_report(cmd, &ei);
out:
    free(proofs);
    cz_bellperson_params_free(&key);
    cz_threadpool_destroy(pool);
    free(params_path);
    free(buf);
    return status;
}

static int verify_request(const cz_groth16_vk *vk, const void *rq, const cz_groth16_proof *proofs,
                          unsigned nproofs, cz_errinfo *ei) {
    return cz__porep_verify(vk, rq, proofs, nproofs, ei);
}

static int verify(int argc, char **argv) {
    const char *cmd = "filecoin verify";
    porep_opts o;
    cz_porep_request rq;
    void *buf = NULL;
    char *vk_path = NULL;
    cz_errinfo ei;
    int rc, status;
    if ((rc = parse(&o, argc, argv, cmd, NEED_C1 | NEED_DIR | NEED_PROOF)) != CZ_EXIT_OK)
        return rc;
    cz_errinfo_clear(&ei);
    if (load_request(&rq, &buf, &o, &ei) != CZ_OK ||
        (vk_path = key_path(o.dir, rq.registered_proof, CZ_PARAM_EXT_VK, &ei)) == NULL)
        status = cz__cli_report(cmd, &ei);
    else
        status = cz__cli_filecoin_verdict(cmd, vk_path, o.proof, verify_request, &rq, &ei);
    free(vk_path);
    free(buf);
    return status;
}

static int vanilla_check(int argc, char **argv) {
    const char *cmd = "filecoin vanilla-check";
    porep_opts o;
    cz_porep_request rq;
    cz__porep_loaded ld;
    cz_threadpool *pool = NULL;
    void *buf = NULL;
    cz_errinfo ei;
    int rc, status;
    memset(&ld, 0, sizeof ld);
    if ((rc = parse(&o, argc, argv, cmd, NEED_C1)) != CZ_EXIT_OK)
        return rc;
    cz_errinfo_clear(&ei);
    if ((rc = load_request(&rq, &buf, &o, &ei)) != CZ_OK ||
        (rc = cz_threadpool_create(&pool, o.nthreads, &ei)) != CZ_OK ||
        (rc = cz__porep_request_load(&ld, &rq, 1, pool, &ei)) != CZ_OK) {
        status = cz__cli_input_report(cmd, &ei);
    } else {
        printf("ok: %s, %u partitions of %u challenges hold\n", ld.cfg.name, ld.c1.npartitions,
               ld.c1.per);
        status = CZ_EXIT_OK;
    }
    cz__porep_loaded_free(&ld);
    cz_threadpool_destroy(pool);
    free(buf);
    return status;
}

/* Writes the envelope of c1 (sector_num) to path. */
static int write_envelope(const char *path, const cz__porep_c1 *c1, uint64_t sector_num,
                          cz_errinfo *ei) {
    uint8_t *t = NULL;
    size_t n = 0;
    int rc;
    if ((rc = cz__porep_c1_write_envelope(&t, &n, c1, sector_num, ei)) != CZ_OK)
        return rc;
    rc = cz__cli_write_file(path, t, n, ei);
    free(t);
    return rc;
}

/* 32 bytes from a SplitMix64 stream. */
static void random_bytes(uint8_t out[32], uint64_t *rng) {
    for (int i = 0; i < 32; i++)
        out[i] = (uint8_t)cz__fake_mix(rng);
}

static int fake_c1(int argc, char **argv) {
    const char *cmd = "filecoin fake-c1";
    porep_opts o;
    cz__porep_fake f;
    cz__porep_fake_sector s;
    uint64_t rng;
    cz_errinfo ei;
    int rc;
    if ((rc = parse(&o, argc, argv, cmd, NEED_SIZE | NEED_SEED | NEED_OUT)) != CZ_EXIT_OK)
        return rc;
    cz_errinfo_clear(&ei);
    if (!o.have_registered && registered_of(&o.registered, o.sector_size, &ei) != CZ_OK)
        return cz__cli_report(cmd, &ei);
    rng = o.seed * UINT64_C(0x9e3779b97f4a7c15) + 7;
    memset(&s, 0, sizeof s);
    cz__porep_prover_id(s.prover_id, o.miner);
    s.sector_id = o.have_sector ? o.sector : 1;
    random_bytes(s.ticket, &rng);
    random_bytes(s.seed, &rng);
    if ((rc = cz__porep_fake_make(&f, o.registered, 0, o.seed, &s, &ei)) != CZ_OK)
        return cz__cli_report(cmd, &ei);
    if (f.cfg.sector_size != o.sector_size) {
        cz__porep_fake_free(&f);
        return cz__cli_usage_error(cmd, "registered proof %llu is not of --sector-size",
                                   (unsigned long long)o.registered);
    }
    rc = write_envelope(o.out, &f.c1, s.sector_id, &ei);
    if (rc == CZ_OK)
        fprintf(stderr, "cuzk %s: wrote %s (%s, miner %llu, sector %llu, %u partitions)\n", cmd,
                o.out, f.cfg.name, (unsigned long long)o.miner, (unsigned long long)s.sector_id,
                f.c1.npartitions);
    cz__porep_fake_free(&f);
    return rc == CZ_OK ? CZ_EXIT_OK : cz__cli_report(cmd, &ei);
}

static int seal_2k(int argc, char **argv) {
    const char *cmd = "filecoin seal-2k";
    porep_opts o;
    cz__porep_c1 c1;
    uint8_t data[CZ__POREP_SEAL_2K_BYTES], prover[32], ticket[32], seed[32];
    uint64_t rng;
    char *path;
    cz_errinfo ei;
    int rc;
    if ((rc = parse(&o, argc, argv, cmd, NEED_SEED | NEED_OUT)) != CZ_EXIT_OK)
        return rc;
    if (!o.have_sector)
        return cz__cli_usage_error(cmd, "needs --sector N");
    if (!o.have_registered)
        o.registered = 5;
    if ((rc = cz__cli_out_dir(cmd, o.out)) != CZ_EXIT_OK)
        return rc;
    rng = o.seed * UINT64_C(0x9e3779b97f4a7c15) + 3;
    for (size_t i = 0; i < sizeof data; i++) /* Fr32 nodes: the top two bits of each clear */
        data[i] = (uint8_t)cz__fake_mix(&rng) & (i % 32 == 31 ? 0x3f : 0xff);
    random_bytes(ticket, &rng);
    random_bytes(seed, &rng);
    cz__porep_prover_id(prover, o.miner);
    cz_errinfo_clear(&ei);
    if ((path = malloc(strlen(o.out) + 16)) == NULL)
        return CZ_EXIT_INTERNAL;
    sprintf(path, "%s/c1.json", o.out);
    if ((rc = cz__porep_seal_2k(&c1, o.registered, data, prover, o.sector, ticket, seed, &ei)) ==
            CZ_OK &&
        (rc = write_envelope(path, &c1, o.sector, &ei)) == CZ_OK)
        fprintf(stderr, "cuzk %s: wrote %s (miner %llu, sector %llu)\n", cmd, path,
                (unsigned long long)o.miner, (unsigned long long)o.sector);
    cz__porep_c1_free(&c1);
    free(path);
    return rc == CZ_OK ? CZ_EXIT_OK : cz__cli_report(cmd, &ei);
}

int cz__cli_filecoin_porep(const char *sub, int argc, char **argv) {
    if (strcmp(sub, "setup") == 0)
        return setup(argc, argv);
    if (strcmp(sub, "prove") == 0)
        return prove(argc, argv);
    if (strcmp(sub, "verify") == 0)
        return verify(argc, argv);
    if (strcmp(sub, "vanilla-check") == 0)
        return vanilla_check(argc, argv);
    if (strcmp(sub, "fake-c1") == 0)
        return fake_c1(argc, argv);
    if (strcmp(sub, "seal-2k") == 0)
        return seal_2k(argc, argv);
    return cz__cli_usage_error("filecoin", "no porep-c2 form of '%s'", sub);
}
