/*
 * The SnapDeals commands (docs/filecoin.md, "SnapDeals"): `setup`, `prove`, `verify` and
 * `vanilla-check` of KIND snap-update and snap-update-poseidon (snap_prove.h), and `fake-update`,
 * a sector update made natively in full (snap_fake.h), its partitions' vanilla proofs as a
 * SNAP_DEALS_UPDATE request carries them. cmd_filecoin.c hands these over.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cuzk/fileio.h"
#include "cuzk/params.h"
#include "filecoin/recording.h"
#include "filecoin/snap_fake.h"
#include "filecoin/snap_prove.h"

#define MAX_VANILLA 16

/* The options of the snap-update commands. */
typedef struct {
    uint64_t sector_size, registered;
    int have_registered, have_comm[3];
    uint8_t comm[3][32]; /* comm_r_old, comm_d_new, comm_r_new */
    const char *dir, *out, *proof, *seed_hex, *vanilla[MAX_VANILLA];
    size_t nvanilla, nthreads;
    int dev, poseidon; /* KIND snap-update-poseidon */
} snap_opts;

static const char *const comm_opts[3] = {"--comm-r-old", "--comm-d-new", "--comm-r-new"};

static int parse(snap_opts *o, int argc, char **argv, const char *cmd) {
    memset(o, 0, sizeof *o);
    o->dev = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int c = -1, rc;
        for (int q = 0; q < 3; q++)
            if (strcmp(a, comm_opts[q]) == 0)
                c = q;
        if ((strcmp(a, "snap-update") == 0 || strcmp(a, "snap-update-poseidon") == 0) && i == 1) {
            o->poseidon = strcmp(a, "snap-update") != 0;
        } else if (c >= 0) {
            size_t n = 0;
            uint8_t *b = ++i < argc ? cz__cli_parse_hex(argv[i], &n) : NULL;
            if (b == NULL || n != 32) {
                free(b);
                return cz__cli_usage_error(cmd, "%s needs 64 hex digits (the 32 bytes in order)",
                                           a);
            }
            memcpy(o->comm[c], b, 32);
            free(b);
            o->have_comm[c] = 1;
        } else if ((rc = cz__cli_gpu_or_size_option(&o->dev, &o->sector_size, cmd, argc, argv,
                                                    &i)) != CZ__CLI_NOT_MINE) {
            if (rc != CZ_EXIT_OK)
                return rc;
        } else if (strcmp(a, "--threads") == 0) {
            if (++i == argc || cz__cli_parse_threads(&o->nthreads, argv[i]) != CZ_OK)
                return cz__cli_usage_error(cmd, "--threads needs a number");
        } else if (strcmp(a, "--registered-proof") == 0 && i + 1 < argc) {
            char *end;
            o->registered = strtoull(argv[++i], &end, 10);
            if (*end != '\0' || end == argv[i] || argv[i][0] == '-')
                return cz__cli_usage_error(cmd, "--registered-proof needs a number");
            o->have_registered = 1;
        } else if (strcmp(a, "--vanilla") == 0 && i + 1 < argc) {
            if (o->nvanilla == MAX_VANILLA)
                return cz__cli_usage_error(cmd, "at most %d --vanilla files", MAX_VANILLA);
            o->vanilla[o->nvanilla++] = argv[++i];
        } else if ((strcmp(a, "--params-dir") == 0 || strcmp(a, "-o") == 0 ||
                    strcmp(a, "--seed") == 0) &&
                   i + 1 < argc) {
            const char *v = argv[++i];
            *(strcmp(a, "-o") == 0       ? &o->out
              : strcmp(a, "--seed") == 0 ? &o->seed_hex
                                         : &o->dir) = v;
        } else if (a[0] == '-') {
            return cz__cli_usage_error(cmd, "unknown or incomplete option '%s'", a);
        } else if (o->proof == NULL) {
            o->proof = a;
        } else {
            return cz__cli_usage_error(cmd, "unexpected argument '%s'", a);
        }
    }
    return CZ_EXIT_OK;
}

/* The request of the options (the vanilla files read into bufs[i]; none when bufs is NULL). */
static int load_request(cz_snap_request *rq, void **bufs, size_t *lens, const snap_opts *o,
                        const char *cmd, int need_vanilla, cz_errinfo *ei) {
    memset(rq, 0, sizeof *rq);
    if (!o->have_registered || !o->have_comm[0] || !o->have_comm[1] || !o->have_comm[2] ||
        (need_vanilla && o->nvanilla == 0))
        return cz__cli_usage_error(cmd,
                                   "needs --registered-proof, --comm-r-old, --comm-d-new, "
                                   "--comm-r-new%s",
                                   need_vanilla ? " and --vanilla FILE per partition" : "");
    rq->registered_proof = o->registered;
    rq->poseidon = o->poseidon;
    memcpy(rq->comm_r_old, o->comm[0], 32);
    memcpy(rq->comm_d_new, o->comm[1], 32);
    memcpy(rq->comm_r_new, o->comm[2], 32);
    if (bufs == NULL) /* verify: the vanilla proofs are not read */
        return CZ_EXIT_OK;
    for (size_t i = 0; i < o->nvanilla; i++)
        if (cz_file_read(&bufs[i], &lens[i], o->vanilla[i], ei) != CZ_OK)
            return cz__cli_report(cmd, ei);
    rq->vanilla = (const uint8_t *const *)bufs;
    rq->vanilla_len = lens;
    rq->nvanilla = o->nvanilla;
    return CZ_EXIT_OK;
}

/* DIR/the key file of registered update proof id (ext), malloc'd; NULL with ei set. The Poseidon
 * variant has no published key and no Filecoin file name: cuzk-empty-sector-update-poseidon-BYTES.
 */
static char *key_path(const char *dir, uint64_t id, int poseidon, cz_param_ext ext,
                      cz_errinfo *ei) {
    uint64_t size;
    char *p;
    if (cz__snap_registered(&size, id, ei) != CZ_OK)
        return NULL;
    if (poseidon) {
        const size_t n = strlen(dir) + 80;
        if ((p = malloc(n)) == NULL)
            cz_fail(ei, CZ_ENOMEM, "snap: a key file name");
        else
            snprintf(p, n, "%s/cuzk-empty-sector-update-poseidon-%llu.%s", dir,
                     (unsigned long long)size, ext == CZ_PARAM_EXT_VK ? "vk" : "params");
        return p;
    }
    if ((p = cz__cli_param_path(dir, CZ_PARAM_PROOF_UPDATE, size, ext)) == NULL)
        cz_fail(ei, CZ_EINTERNAL, "snap: no key file name for %llu-byte sectors (or no memory)",
                (unsigned long long)size);
    return p;
}

static int record(cz_r1cs *r, const void *shape, cz_threadpool *pool, cz_errinfo *ei) {
    return cz__snap_record(r, shape, pool, ei);
}

static int setup(int argc, char **argv) {
    const char *cmd = "filecoin setup";
    snap_opts o;
    uint64_t id = 0;
    cz_groth16_trapdoor td;
    const cz_groth16_trapdoor *use_td;
    cz__snap_shape shape;
    cz_errinfo ei;
    char *params_path = NULL, *vk_path = NULL, what[64];
    int rc, status;
    if ((rc = parse(&o, argc, argv, cmd)) != CZ_EXIT_OK)
        return rc;
    if (o.dir == NULL || o.sector_size == 0)
        return cz__cli_usage_error(cmd, "needs --sector-size and --params-dir");
    if ((rc = cz__cli_setup_trapdoor(&td, &use_td, cmd, o.seed_hex)) != CZ_EXIT_OK)
        return rc;
    cz_errinfo_clear(&ei);
    snprintf(what, sizeof what, "snap-update%s %llu bytes", o.poseidon ? "-poseidon" : "",
             (unsigned long long)o.sector_size);
    if (cz__snap_registered_id(&id, o.sector_size, &ei) != CZ_OK ||
        cz__snap_shape_get(&shape, o.sector_size, o.poseidon ? CZ__SNAP_POSEIDON : CZ__SNAP_SHA256,
                           &ei) != CZ_OK ||
        (params_path = key_path(o.dir, id, o.poseidon, CZ_PARAM_EXT_PARAMS, &ei)) == NULL ||
        (vk_path = key_path(o.dir, id, o.poseidon, CZ_PARAM_EXT_VK, &ei)) == NULL)
        status = cz__cli_report(cmd, &ei);
    else
        status = cz__cli_filecoin_key(cmd, what, record, &shape, params_path, vk_path, use_td,
                                      o.nthreads, o.dev);
    memset(&td, 0, sizeof td);
    free(params_path);
    free(vk_path);
    return status;
}

static int prove(int argc, char **argv) {
    const char *cmd = "filecoin prove";
    snap_opts o;
    cz_snap_request rq;
    cz__snap_loaded ld;
    cz_bellperson_params key;
    cz_groth16_proof proofs[MAX_VANILLA];
    cz_groth16_bp_opts bo;
    cz_threadpool *pool = NULL;
    void *bufs[MAX_VANILLA] = {0};
    size_t lens[MAX_VANILLA] = {0};
    char *params_path = NULL;
    unsigned nproofs = 0;
    cz_errinfo ei;
    int rc, status = CZ_EXIT_OK;
    memset(&key, 0, sizeof key);
    memset(&ld, 0, sizeof ld);
    if ((rc = parse(&o, argc, argv, cmd)) != CZ_EXIT_OK)
        return rc;
    if (o.dir == NULL || o.out == NULL)
        return cz__cli_usage_error(cmd, "needs --params-dir and -o");
    cz_errinfo_clear(&ei);
    if ((status = load_request(&rq, bufs, lens, &o, cmd, 1, &ei)) != CZ_EXIT_OK)
        goto out;
    /* the request checked before the key is read: a bad one costs neither */
    if (cz_threadpool_create(&pool, o.nthreads, &ei) != CZ_OK ||
        cz__snap_request_load(&ld, &rq, 1, pool, &ei) != CZ_OK ||
        (params_path =
             key_path(o.dir, rq.registered_proof, o.poseidon, CZ_PARAM_EXT_PARAMS, &ei)) == NULL ||
        cz_bellperson_params_read(&key, params_path, NULL, &ei) != CZ_OK) {
        status = cz__cli_input_report(cmd, &ei);
        goto out;
    }
    cz__cli_bp_opts_init(&bo, pool, o.dev);
    if (cz__snap_prove(proofs, &nproofs, &key, &ld, pool, &bo, &ei) != CZ_OK ||
        cz__cli_write_partition_proofs(o.out, proofs, nproofs, params_path, &ei) != CZ_OK)
        status = cz__cli_input_report(cmd, &ei);
out:
    cz__snap_loaded_free(&ld);
    cz_bellperson_params_free(&key);
    cz_threadpool_destroy(pool);
    free(params_path);
    for (size_t i = 0; i < MAX_VANILLA; i++)
        free(bufs[i]);
    return status;
}

static int verify_request(const cz_groth16_vk *vk, const void *rq, const cz_groth16_proof *proofs,
                          unsigned nproofs, cz_errinfo *ei) {
    return cz__snap_verify(vk, rq, proofs, nproofs, ei);
}

static int verify(int argc, char **argv) {
    const char *cmd = "filecoin verify";
    snap_opts o;
    cz_snap_request rq;
    char *vk_path;
    cz_errinfo ei;
    int rc, status;
    if ((rc = parse(&o, argc, argv, cmd)) != CZ_EXIT_OK)
        return rc;
    if (o.dir == NULL || o.proof == NULL)
        return cz__cli_usage_error(cmd, "needs --params-dir and PROOF");
    cz_errinfo_clear(&ei);
    if ((status = load_request(&rq, NULL, NULL, &o, cmd, 0, &ei)) != CZ_EXIT_OK)
        return status;
    if ((vk_path = key_path(o.dir, rq.registered_proof, o.poseidon, CZ_PARAM_EXT_VK, &ei)) == NULL)
        return cz__cli_report(cmd, &ei);
    status = cz__cli_filecoin_verdict(cmd, vk_path, o.proof, verify_request, &rq, &ei);
    free(vk_path);
    return status;
}

static int vanilla_check(int argc, char **argv) {
    const char *cmd = "filecoin vanilla-check";
    snap_opts o;
    cz_snap_request rq;
    cz__snap_loaded ld;
    cz_threadpool *pool = NULL;
    void *bufs[MAX_VANILLA] = {0};
    size_t lens[MAX_VANILLA] = {0};
    cz_errinfo ei;
    int rc, status;
    memset(&ld, 0, sizeof ld);
    if ((rc = parse(&o, argc, argv, cmd)) != CZ_EXIT_OK)
        return rc;
    cz_errinfo_clear(&ei);
    if ((status = load_request(&rq, bufs, lens, &o, cmd, 1, &ei)) == CZ_EXIT_OK) {
        if (cz_threadpool_create(&pool, o.nthreads, &ei) != CZ_OK ||
            cz__snap_request_load(&ld, &rq, 1, pool, &ei) != CZ_OK)
            status = cz__cli_input_report(cmd, &ei);
        else
            printf("ok: %u partitions of %u challenges hold\n", ld.shape.partitions,
                   ld.shape.challenges);
    }
    cz__snap_loaded_free(&ld);
    cz_threadpool_destroy(pool);
    for (size_t i = 0; i < MAX_VANILLA; i++)
        free(bufs[i]);
    return status;
}

static void put_hex(FILE *f, const char *name, const cz_bls12381_fr *v) {
    uint8_t b[32];
    cz_bls12381_fr_to_bytes_le(b, v);
    fprintf(f, "%s ", name);
    for (int i = 0; i < 32; i++)
        fprintf(f, "%02x", b[i]);
    fputc('\n', f);
}

/* DIR/request.txt and DIR/vanilla-K.bin of every partition of f, each checked first. */
static int write_update(const cz__snap_fake *f, const char *dir, cz_errinfo *ei) {
    uint64_t reg = 0;
    /* a test size (1 KiB, 16 MiB, ...) has no registered update proof: the line is left out */
    const int have_reg = cz__snap_registered_id(&reg, f->s.sector_size, NULL) == CZ_OK;
    char path[4096];
    FILE *out;
    int rc = CZ_OK;
    snprintf(path, sizeof path, "%s/request.txt", dir);
    if ((out = fopen(path, "w")) == NULL)
        return cz_fail(ei, CZ_EIO, "cannot write %s", path);
    if (have_reg)
        fprintf(out, "registered_proof %llu\n", (unsigned long long)reg);
    if (f->s.variant == CZ__SNAP_POSEIDON)
        fprintf(out, "variant %s\n", cz__snap_variant_name(f->s.variant));
    fprintf(out, "sector_size %llu\nh %u\npartitions %u\n", (unsigned long long)f->s.sector_size,
            f->h, f->s.partitions);
    put_hex(out, "comm_r_old", &f->comm_r_old);
    put_hex(out, "comm_d_new", &f->comm_d_new);
    put_hex(out, "comm_r_new", &f->comm_r_new);
    if (fclose(out) != 0)
        return cz_fail(ei, CZ_EIO, "cannot write %s", path);
    for (uint32_t k = 0; k < f->s.partitions && rc == CZ_OK; k++) {
        cz__snap_vanilla v;
        cz__snap_public pub;
        uint8_t *bytes = NULL;
        size_t len = 0;
        if ((rc = cz__snap_fake_partition(&v, &pub, f, k, ei)) == CZ_OK &&
            (rc = cz__snap_vanilla_check(&v, &f->s, &pub, ei)) == CZ_OK &&
            (rc = cz__snap_vanilla_encode(&bytes, &len, &v, &f->s, ei)) == CZ_OK) {
            snprintf(path, sizeof path, "%s/vanilla-%u.bin", dir, k);
            rc = cz__cli_write_file(path, bytes, len, ei);
        }
        free(bytes);
        cz__snap_vanilla_free(&v);
    }
    return rc;
}

static int fake_update(int argc, char **argv) {
    static const char cmd[] = "filecoin fake-update";
    const char *dir = NULL;
    uint64_t sector_size = 0, seed = 0, h = 0;
    cz__snap_variant variant = CZ__SNAP_SHA256;
    cz__snap_shape shape;
    cz__snap_fake f;
    cz_errinfo ei;
    int rc;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        char *end;
        if (strcmp(a, "--sector-size") == 0) {
            if (++i == argc || cz__cli_parse_sector_size(&sector_size, argv[i]) != CZ_OK)
                return cz__cli_usage_error(cmd, "--sector-size needs a size");
        } else if ((strcmp(a, "--seed") == 0 || strcmp(a, "--h") == 0) && i + 1 < argc) {
            uint64_t v = strtoull(argv[++i], &end, 10);
            if (*end != '\0' || argv[i][0] == '-' || end == argv[i])
                return cz__cli_usage_error(cmd, "%s needs a number", a);
            *(strcmp(a, "--seed") == 0 ? &seed : &h) = v;
        } else if (strcmp(a, "-o") == 0 && i + 1 < argc) {
            dir = argv[++i];
        } else if (strcmp(a, "--poseidon") == 0) {
            variant = CZ__SNAP_POSEIDON;
        } else {
            return cz__cli_usage_error(cmd, "unknown or incomplete option '%s'", a);
        }
    }
    if (sector_size == 0 || dir == NULL)
        return cz__cli_usage_error(cmd, "needs --sector-size and -o");
    if ((rc = cz__cli_out_dir(cmd, dir)) != CZ_EXIT_OK)
        return rc;
    cz_errinfo_clear(&ei);
    if (cz__snap_shape_get(&shape, sector_size, variant, &ei) != CZ_OK)
        return cz__cli_report(cmd, &ei);
    if (h == 0)
        h = shape.hs[3]; /* h_default: 10 in production */
    if (h > 64)
        return cz__cli_usage_error(cmd, "--h %llu is not one of this size's",
                                   (unsigned long long)h);
    rc = cz__snap_fake_make(&f, sector_size, variant, (unsigned)h, seed, 0, &ei);
    if (rc == CZ_OK)
        rc = write_update(&f, dir, &ei);
    cz__snap_fake_free(&f);
    if (rc != CZ_OK)
        return cz__cli_report(cmd, &ei);
    fprintf(stderr, "cuzk %s: %u partitions of a %llu-byte sector update (h = %llu) in %s\n", cmd,
            shape.partitions, (unsigned long long)sector_size, (unsigned long long)h, dir);
    return CZ_EXIT_OK;
}

int cz__cli_filecoin_snap(const char *sub, int argc, char **argv) {
    if (strcmp(sub, "fake-update") == 0)
        return fake_update(argc, argv);
    if (strcmp(sub, "setup") == 0)
        return setup(argc, argv);
    if (strcmp(sub, "prove") == 0)
        return prove(argc, argv);
    if (strcmp(sub, "verify") == 0)
        return verify(argc, argv);
    if (strcmp(sub, "vanilla-check") == 0)
        return vanilla_check(argc, argv);
    return cz__cli_usage_error("filecoin", "no snap-update form of '%s'", sub);
}
