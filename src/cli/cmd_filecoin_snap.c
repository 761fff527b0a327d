/*
 * `cuzk filecoin fake-update` (docs/filecoin.md, "SnapDeals"): a sector update made natively in
 * full (snap_fake.h), its partitions' vanilla proofs as a SNAP_DEALS_UPDATE request carries them.
 * cmd_filecoin.c hands it over.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "filecoin/snap_fake.h"

/* RegisteredUpdateProof (filecoin-proofs-api): the published sizes' ids, -1 for a test size. */
static int registered_update_proof(uint64_t sector_size) {
    static const uint64_t sizes[5] = {UINT64_C(1) << 11, UINT64_C(1) << 23, UINT64_C(1) << 29,
                                      UINT64_C(1) << 35, UINT64_C(1) << 36};
    for (int i = 0; i < 5; i++)
        if (sizes[i] == sector_size)
            return i;
    return -1;
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
    const int reg = registered_update_proof(f->s.sector_size);
    char path[4096];
    FILE *out;
    int rc = CZ_OK;
    snprintf(path, sizeof path, "%s/request.txt", dir);
    if ((out = fopen(path, "w")) == NULL)
        return cz_fail(ei, CZ_EIO, "cannot write %s", path);
    if (reg >= 0)
        fprintf(out, "registered_proof %d\n", reg);
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
        } else {
            return cz__cli_usage_error(cmd, "unknown or incomplete option '%s'", a);
        }
    }
    if (sector_size == 0 || dir == NULL)
        return cz__cli_usage_error(cmd, "needs --sector-size and -o");
    cz_errinfo_clear(&ei);
    if (cz__snap_shape_get(&shape, sector_size, &ei) != CZ_OK)
        return cz__cli_report(cmd, &ei);
    if (h == 0)
        h = shape.hs[3]; /* h_default: 10 in production */
    if (h > 64)
        return cz__cli_usage_error(cmd, "--h %llu is not one of this size's",
                                   (unsigned long long)h);
    rc = cz__snap_fake_make(&f, sector_size, (unsigned)h, seed, &ei);
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
    return cz__cli_usage_error("filecoin", "no snap-update form of '%s'", sub);
}
