/*
 * Filecoin's parameter files (cuzk/params.h): the built-in manifest, names, and the digest check.
 *
 * The manifest is params_table.h, generated from the copies of rust-fil-proofs' JSON manifests in
 * params/ (scripts/gen_params_table.py), so the library needs no JSON parser.
 *
 * Hashing. A .params file is up to 47 GB (the 32 GiB and 64 GiB PoRep keys), and hashing is
 * sequential (one BLAKE2b chain per file), so the point is to keep the disk and the hash busy at
 * once: the file is read in 8 MiB reads, the kernel is told the access is sequential, and before
 * each chunk is hashed the next one is asked for (POSIX_FADV_WILLNEED), so the disk fills the page
 * cache while the CPU hashes. The file is opened with O_NONBLOCK and must be a regular file (a
 * FIFO at the path is refused, never waited on); a file whose size or modification time changes
 * while it is read is refused, since its digest would be of no version of it.
 */
#include "cuzk/params.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/blake2b.h"
#include "cuzk/fileio.h"
#include "formats/params_table.h"

#define READ_CHUNK ((size_t)8 << 20)

static const cz_param_manifest builtin = {params_table,
                                          sizeof params_table / sizeof params_table[0]};

const cz_param_manifest *cz_params_builtin(void) {
    return &builtin;
}

const char *cz_param_proof_name(cz_param_proof proof) {
    switch (proof) {
    case CZ_PARAM_PROOF_POREP:
        return "porep";
    case CZ_PARAM_PROOF_WINNING_POST:
        return "winning-post";
    case CZ_PARAM_PROOF_WINDOW_POST:
        return "window-post";
    case CZ_PARAM_PROOF_POST:
        return "post";
    case CZ_PARAM_PROOF_UPDATE:
        return "update";
    case CZ_PARAM_PROOF_UPDATE_POSEIDON:
        return "update-poseidon";
    case CZ_PARAM_PROOF_AGGREGATION:
        return "aggregation";
    case CZ_PARAM_PROOF_UNKNOWN:
        break;
    }
    return "unknown";
}

const char *cz_param_ext_name(cz_param_ext ext) {
    switch (ext) {
    case CZ_PARAM_EXT_PARAMS:
        return "params";
    case CZ_PARAM_EXT_VK:
        return "vk";
    case CZ_PARAM_EXT_SRS:
        return "srs";
    }
    return "?";
}

static int ends_with(const char *s, size_t len, const char *suffix) {
    size_t n = strlen(suffix);
    return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

int cz_param_classify(cz_param_proof *proof, cz_param_ext *ext, const char *name, cz_errinfo *ei) {
    /* Longest prefix first: empty-sector-update-poseidon- before empty-sector-update-. */
    static const struct {
        const char *prefix;
        cz_param_proof proof;
    } prefixes[] = {
        {"stacked-proof-of-replication-", CZ_PARAM_PROOF_POREP},
        {"proof-of-spacetime-fallback-", CZ_PARAM_PROOF_POST},
        {"empty-sector-update-poseidon-", CZ_PARAM_PROOF_UPDATE_POSEIDON},
        {"empty-sector-update-", CZ_PARAM_PROOF_UPDATE},
        {"fil-inner-product-", CZ_PARAM_PROOF_AGGREGATION},
    };
    size_t len = strlen(name), i = 1;
    const cz_param_file *known = cz_params_find(NULL, name);
    *proof = CZ_PARAM_PROOF_UNKNOWN;
    *ext = CZ_PARAM_EXT_PARAMS;
    /* A name is one path component of plain characters: no '/' (a manifest could otherwise
     * point outside the directory) and nothing that could forge a line of output when the name
     * is printed, so the message does not show it. */
    if (len == 0 || len > NAME_MAX ||
        strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") != len)
        return cz_fail(ei, CZ_EFORMAT,
                       "a name of %zu bytes that is not 1 to %d letters, digits, '-', '_' and '.' "
                       "is not a parameter file name",
                       len, NAME_MAX);
    if (ends_with(name, len, ".vk"))
        *ext = CZ_PARAM_EXT_VK;
    else if (ends_with(name, len, ".srs"))
        *ext = CZ_PARAM_EXT_SRS;
    else if (!ends_with(name, len, ".params"))
        return cz_fail(ei, CZ_EFORMAT,
                       "%s: not a parameter file name (it ends neither in .params, .vk nor .srs)",
                       name);
    /* v<digits>- */
    while (i < len && name[i] >= '0' && name[i] <= '9')
        i++;
    if (name[0] != 'v' || i == 1 || i == len || name[i] != '-')
        return cz_fail(ei, CZ_EFORMAT,
                       "%s: not a parameter file name (it does not start with v<version>-)", name);
    if (known != NULL) {
        *proof = known->proof;
        return CZ_OK;
    }
    for (size_t p = 0; p < sizeof prefixes / sizeof prefixes[0]; p++)
        if (strncmp(name + i + 1, prefixes[p].prefix, strlen(prefixes[p].prefix)) == 0) {
            *proof = prefixes[p].proof;
            break;
        }
    return CZ_OK;
}

const cz_param_file *cz_params_find(const cz_param_manifest *m, const char *name) {
    if (m == NULL)
        m = &builtin;
    for (size_t i = 0; i < m->nfiles; i++)
        if (strcmp(m->files[i].name, name) == 0)
            return &m->files[i];
    return NULL;
}

const cz_param_file *cz_params_find_proof(const cz_param_manifest *m, cz_param_proof proof,
                                          uint64_t sector_size, cz_param_ext ext) {
    if (m == NULL)
        m = &builtin;
    for (size_t i = 0; i < m->nfiles; i++) {
        const cz_param_file *f = &m->files[i];
        if (f->proof == proof && f->sector_size == sector_size && f->ext == ext)
            return f;
    }
    return NULL;
}

int cz_params_digest_file(char digest[CZ_PARAM_DIGEST_HEX + 1], uint64_t *size, const char *path,
                          cz_param_progress_fn progress, void *arg, cz_errinfo *ei) {
    static const char hex[] = "0123456789abcdef";
    cz_file_id id;
    struct stat st0, st1;
    cz_blake2b h;
    uint8_t md[CZ_BLAKE2B_OUTBYTES];
    uint8_t *buf = NULL;
    uint64_t done = 0;
    int fd = -1, rc;
    digest[0] = '\0';
    if (size != NULL)
        *size = 0;
    /* The regular-file check with core's messages ("not a regular file (a FIFO)"). */
    if ((rc = cz_file_id_get(&id, path, ei)) != CZ_OK)
        return rc;
    fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return cz_fail(ei, CZ_EIO, "%s: cannot open: %s", path, strerror(errno));
    if (fstat(fd, &st0) != 0) {
        rc = cz_fail(ei, CZ_EIO, "%s: %s", path, strerror(errno));
        goto out;
    }
    if (!S_ISREG(st0.st_mode) || (uint64_t)st0.st_ino != id.ino || (uint64_t)st0.st_dev != id.dev) {
        rc = cz_fail(ei, CZ_EIO, "%s: replaced while being opened", path);
        goto out;
    }
    if ((buf = malloc(READ_CHUNK)) == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "%s: no memory for a read buffer of %zu bytes", path,
                     READ_CHUNK);
        goto out;
    }
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    rc = cz_blake2b_init(&h, CZ_BLAKE2B_OUTBYTES);
    CZ_ASSERT(rc == CZ_OK);
    for (;;) {
        ssize_t n = read(fd, buf, READ_CHUNK);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rc = cz_fail(ei, CZ_EIO, "%s: read error at byte %llu: %s", path,
                         (unsigned long long)done, strerror(errno));
            goto out;
        }
        if (n == 0)
            break;
        /* The next chunk is read into the page cache while this one is hashed. */
        (void)posix_fadvise(fd, (off_t)(done + (uint64_t)n), (off_t)READ_CHUNK,
                            POSIX_FADV_WILLNEED);
        cz_blake2b_update(&h, buf, (size_t)n);
        done += (uint64_t)n;
        if (progress != NULL && progress(arg, done, (uint64_t)st0.st_size) != 0) {
            rc = cz_fail(ei, CZ_ECANCELED, "%s: hashing stopped at byte %llu", path,
                         (unsigned long long)done);
            goto out;
        }
    }
    if (fstat(fd, &st1) != 0) {
        rc = cz_fail(ei, CZ_EIO, "%s: %s", path, strerror(errno));
        goto out;
    }
    if (done != (uint64_t)st0.st_size || st1.st_size != st0.st_size ||
        st1.st_mtim.tv_sec != st0.st_mtim.tv_sec || st1.st_mtim.tv_nsec != st0.st_mtim.tv_nsec) {
        rc = cz_fail(ei, CZ_EIO,
                     "%s: the file changed while it was read (%llu bytes at the start, %llu read, "
                     "%llu now)",
                     path, (unsigned long long)st0.st_size, (unsigned long long)done,
                     (unsigned long long)st1.st_size);
        goto out;
    }
    cz_blake2b_final(md, &h);
    for (int i = 0; i < CZ_PARAM_DIGEST_HEX / 2; i++) {
        digest[2 * i] = hex[md[i] >> 4];
        digest[2 * i + 1] = hex[md[i] & 15];
    }
    digest[CZ_PARAM_DIGEST_HEX] = '\0';
    if (size != NULL)
        *size = done;
    rc = CZ_OK;
out:
    free(buf);
    if (fd >= 0)
        close(fd);
    return rc;
}

int cz_params_check(cz_param_status *st, const char *dir, const cz_param_file *f, int hash,
                    cz_param_progress_fn progress, void *arg, cz_errinfo *ei) {
    char path[PATH_MAX];
    size_t dlen = strlen(dir);
    struct stat sb;
    int rc;
    memset(st, 0, sizeof *st);
    st->state = CZ_PARAM_UNREADABLE;
    if (snprintf(path, sizeof path, "%s%s%s", dir, dlen > 0 && dir[dlen - 1] == '/' ? "" : "/",
                 f->name) >= (int)sizeof path)
        return cz_fail(ei, CZ_EINVAL, "%s: the path of %s in it is longer than %d bytes", dir,
                       f->name, PATH_MAX - 1);
    if (stat(path, &sb) != 0) {
        if (errno == ENOENT) {
            st->state = CZ_PARAM_MISSING;
            return cz_fail(ei, CZ_ENOTFOUND, "%s: missing", path);
        }
        return cz_fail(ei, CZ_EIO, "%s: %s", path, strerror(errno));
    }
    if (!hash) {
        cz_file_id id;
        if ((rc = cz_file_id_get(&id, path, ei)) != CZ_OK)
            return rc;
        st->state = CZ_PARAM_PRESENT;
        st->size = id.size;
        return CZ_OK;
    }
    rc = cz_params_digest_file(st->digest, &st->size, path, progress, arg, ei);
    if (rc == CZ_ECANCELED) {
        st->state = CZ_PARAM_PRESENT;
        st->size = (uint64_t)sb.st_size;
    }
    if (rc != CZ_OK)
        return rc;
    if (strcmp(st->digest, f->digest) != 0) {
        st->state = CZ_PARAM_MISMATCH;
        return cz_fail(ei, CZ_EVERIFY, "%s: digest %s, the manifest says %s", path, st->digest,
                       f->digest);
    }
    st->state = CZ_PARAM_MATCH;
    return CZ_OK;
}
